package dynamo

import (
	"bytes"
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/model"
)

// Partitions are listed by skip-scan, as the drill-down lists children: a
// small keys-only Scan finds a partition, and the next one starts past the
// partition's largest possible sort key, so the partition's other items
// are never read. Where partitions are small (a probe holds several), it
// reads bulk pages instead.
const (
	// partitionFirstKeys is the first read: enough keys to see whether
	// partitions are small (several in it: bulk pages) or large (one:
	// jump past each).
	partitionFirstKeys = 100
	// partitionProbeKeys is a probe after a jump: few enough keys for one
	// read unit.
	partitionProbeKeys = 10
	// partitionBulkKeys is a bulk page where partitions are small: a Scan
	// reads whole items however few partitions they hold.
	partitionBulkKeys = 1000
)

// FirstPartitions is the first read of a table's partitions.
func FirstPartitions(table string, key KeySchema) PartitionsRequest {
	limit := int32(partitionFirstKeys)
	if key.SK == nil {
		limit = partitionBulkKeys // an item is a partition: nothing to skip
	}
	return PartitionsRequest{Table: table, Key: key, Limit: limit}
}

// NextPartitions is the read after page, the answer to r; ok is false at
// the end of the table. Sparse (the read held one or two partitions):
// jump past the last partition seen. Dense (a whole partition fitted
// between two others): read on in bulk pages, which cost fewer round
// trips, and not many more RCU, than a jump per small partition. Jumped reports that the last partition seen has
// items the listing will not read.
func NextPartitions(r PartitionsRequest, page Page) (next PartitionsRequest, jumped, ok bool) {
	if !page.More() {
		return r, false, false
	}
	next = r
	next.Start = page.LastKey
	if r.Key.SK == nil || len(page.Items) == 0 || r.Index != "" {
		// No sort key: an item is a partition. An index: a start key needs
		// the table's keys too, which a jump cannot make up.
		return next, false, true
	}
	distinct := 0
	var last types.AttributeValue
	for _, it := range page.Items {
		if v := it[r.Key.PK.Name]; last == nil || !sameValue(v, last) {
			distinct++
			last = v
		}
	}
	if distinct >= 3 { // a whole partition fitted in the read: small ones
		next.Limit = partitionBulkKeys
		return next, false, true
	}
	next.Limit = partitionProbeKeys
	next.Start = Item{r.Key.PK.Name: page.LastKey[r.Key.PK.Name], r.Key.SK.Name: LargestSortKey(r.Key.SK.Type)}
	return next, true, true
}

// LargestSortKey is a sort key no item's can exceed: DynamoDB's largest
// number, or 1,024 bytes (the sort key's limit) of the largest UTF-8 code
// point or of 0xFF.
func LargestSortKey(t model.KeyType) types.AttributeValue {
	switch t {
	case model.TypeN:
		return &types.AttributeValueMemberN{Value: "9.9999999999999999999999999999999999999E+125"}
	case model.TypeB:
		return &types.AttributeValueMemberB{Value: bytes.Repeat([]byte{0xff}, 1024)}
	}
	return &types.AttributeValueMemberS{Value: strings.Repeat("\U0010FFFF", 256)}
}

func sameValue(a, b types.AttributeValue) bool {
	x, ok1 := KeyValueOf(a)
	y, ok2 := KeyValueOf(b)
	return ok1 && ok2 && x.Type == y.Type && x.Text == y.Text && bytes.Equal(x.Bytes, y.Bytes)
}

// PartitionsResult is a stretch of a table's partitions in scan order,
// each once, with the keys seen under it.
type PartitionsResult struct {
	Partitions []model.KeyValue
	Keys       []int // keys read under each partition
	Next       *PartitionsRequest
	Cost       Cost
}

// ListPartitions reads from r (FirstPartitions for the start) until it
// has want partitions or the table ends; Next is where to go on.
func ListPartitions(ctx context.Context, c Client, r PartitionsRequest, want int) (PartitionsResult, error) {
	var res PartitionsResult
	index := map[string]int{}
	for {
		page, err := ScanKeysPage(ctx, c, r)
		res.Cost = res.Cost.Add(page.Cost)
		if err != nil {
			res.Next = &r
			return res, err
		}
		for _, it := range page.Items {
			v, ok := KeyValueOf(it[r.Key.PK.Name])
			if !ok {
				continue
			}
			i, seen := index[v.Literal()]
			if !seen {
				i = len(res.Partitions)
				index[v.Literal()] = i
				res.Partitions = append(res.Partitions, v)
				res.Keys = append(res.Keys, 0)
			}
			res.Keys[i]++
		}
		next, _, ok := NextPartitions(r, page)
		if !ok {
			return res, nil
		}
		r = next
		if len(res.Partitions) >= want {
			res.Next = &r
			return res, nil
		}
	}
}
