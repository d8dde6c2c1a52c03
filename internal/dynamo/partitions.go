package dynamo

import (
	"bytes"
	"context"
	"errors"
	"strings"

	"github.com/aws/smithy-go"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// Partitions are listed by skip-scan, as the drill-down lists children: a
// small keys-only Scan finds a partition, and the next one starts past the
// partition's largest possible sort key, so the partition's other items
// are never read. Each read after a jump (a probe) is sized to one read
// unit, as the drill-down's are (probesize.go). Where partitions are
// small next to a read unit, it reads bulk pages instead.
const (
	// partitionFirstKeys is the first read: enough keys to see whether
	// partitions are small (several whole in it: bulk pages) or large
	// (jump past each), and to size the probes from what it cost.
	partitionFirstKeys = 100
	// partitionBulkKeys is a bulk page where partitions are small: a Scan
	// reads whole items however few partitions they hold.
	partitionBulkKeys = 1000
	// bulkUnits is how many read units the partitions seen whole may
	// average for bulk pages: those then cost at most twice the 0.5 RCU
	// of a probe a partition, in a request per 1,000 keys instead of one
	// a partition. Larger partitions are jumped past, a probe each.
	bulkUnits = 2
)

// FirstPartitions is the first read of a table's partitions.
func FirstPartitions(table string, key KeySchema) PartitionsRequest {
	limit := int32(partitionFirstKeys)
	if key.SK == nil {
		limit = partitionBulkKeys // an item is a partition: nothing to skip
	}
	return PartitionsRequest{Table: table, Key: key, Limit: limit}
}

// firstUnits is the most read units a listing's first read should cost
// where DescribeTable's mean item is over one read unit (WithTableSize).
const firstUnits = 16

// WithTableSize is r, a listing's first read, given DescribeTable's size
// and item count for what it scans (0: not reported). The listing then
// prices the items it has not read at their own mean (restSizing); and
// where that mean is over one read unit (4 KB), its first read holds no
// more keys than firstUnits read units hold at it: 100 keys that meet a
// partition of 200 KB items read up to 1 MB (128 RCU) of it. Lighter
// means keep the 100 keys: cut, a first read of 2 KB items lists fewer
// partitions for the screen, and its next read more, at more RCU.
func (r PartitionsRequest) WithTableSize(sizeBytes, itemCount int64) PartitionsRequest {
	r.SizeBytes, r.ItemCount = sizeBytes, itemCount
	if itemCount > 0 && sizeBytes/itemCount > readUnitBytes && r.Key.SK != nil && r.first() {
		r.Limit = int32(min(max(firstUnits*readUnitBytes/(sizeBytes/itemCount), 1), int64(r.Limit)))
	}
	return r
}

// FirstIndexPartitions is the first read of an index's partitions
// (tableKey: the table's keys). An index with a sort key is skip-scanned
// like a table. One without is read in bulk pages: its partition's items
// follow no key a start key could be made past (dynalite orders them by a
// hash of the table's keys; DynamoDB documents no order).
func FirstIndexPartitions(table, index string, key, tableKey KeySchema) PartitionsRequest {
	r := FirstPartitions(table, key)
	r.Index, r.TableKeys = index, &tableKey
	return r
}

// NextPartitions is the read after page, the answer to r; ok is false at
// the end of the table. Dense (the partitions the read saw whole average
// at most bulkUnits read units): read on in bulk pages, which cost fewer
// round trips, and not many more RCU, than a probe a partition. Sparse
// (none seen whole, or large ones): jump past the last partition seen
// with a probe of one read unit, sized from what the reads so far cost.
// Jumped reports that the last partition seen has items the listing will
// not read.
func NextPartitions(r PartitionsRequest, page Page) (next PartitionsRequest, jumped, ok bool) {
	if !page.More() {
		return r, false, false
	}
	next = r
	next.Start, next.Resume = page.LastKey, nil
	next.NoJump = r.NoJump || page.JumpRefused
	next.probe, next.opening = r.probe.after(len(page.Items), r.Limit, page.Cost.RCU), false
	if r.opening {
		next.probe = r.probe // one key, asked as one: it sizes nothing
	}
	next.readKeys, next.readRCU = r.readKeys+int64(len(page.Items)), r.readRCU+page.Cost.RCU
	next.probe, next.heavyRest = next.restSizing(next.probe)
	if r.Key.SK == nil || len(page.Items) == 0 || (r.Index != "" && r.TableKeys == nil) || next.NoJump {
		// No sort key: an item is a partition (or, on an index, items in
		// no order to jump past). An index's start key needs the table's
		// keys too. A refused jump: bulk pages from then on.
		if next.NoJump {
			next.Limit = partitionBulkKeys
		}
		return next, false, true
	}
	if n, keys := wholePartitions(r, page.Items); n > 0 && keys <= bulkUnits*n*int(next.probe.Keys) {
		next.Limit, next.perPartition = partitionBulkKeys, int32((keys+n-1)/n)
		if last := lastRun(r.Key.PK.Name, page.Items); last > bulkUnits*int(next.perPartition) {
			// The page stopped in a partition already larger than
			// bulkUnits of those it saw whole: read on past it, not
			// into it (a 1,000-key page went on into a partition of
			// 2,000 keys beside one-key ones: 1,000 keys, 27 RCU, to
			// list nothing new).
			next.Start, next.Resume = partitionEnd(r, page.LastKey[r.Key.PK.Name]), page.LastKey
			return next, true, true
		}
		return next, false, true
	}
	next.Limit = next.probe.Keys
	next.Start, next.Resume = partitionEnd(r, page.LastKey[r.Key.PK.Name]), page.LastKey
	return next, true, true
}

// restSizing is s, the probe's sizing from the items read, made smaller
// where DescribeTable's size says the items not read yet are markedly
// heavier: on a table of small partitions and one of 200 KB items (the
// boto3 "shop" table: 238 items, 1 MB, six of them 108-266 KB in one
// partition), the first read cost 1.0 RCU for 100 keys, and a bulk page
// sized from them read the heavy partition whole, 126 RCU to list 8 more
// partitions. Priced at the mean of the rest (the size less what the
// reads cost, over the items not read), a partition read whole costs
// more than the two probes bulk pages may cost, so the listing jumps
// past each partition with a probe of one key: 0.5 RCU a partition, and
// one heavy item where a partition begins with one. Only where one read
// unit holds under half the keys the reads measured: items alike (or
// a size not reported) change nothing, and neither does the rounding
// between DynamoDB's mean and a page's billed units. The figures are
// DynamoDB's estimate, updated about every six hours: a guide.
// heavier reports whether it did.
func (r PartitionsRequest) restSizing(s probeSizing) (_ probeSizing, heavier bool) {
	items := r.ItemCount - r.readKeys
	bytes := r.SizeBytes - int64(r.readRCU/0.5*readUnitBytes) // what the reads cost, at most what they read
	if r.SizeBytes <= 0 || items <= 0 || bytes <= 0 {
		return s, false
	}
	if keys := float64(readUnitBytes) * float64(items) / float64(bytes); 2*keys < float64(s.Keys) {
		s.Keys, s.Sized = int32(max(keys, 1)), true
		return s, true
	}
	return s, false
}

// sized is r with its bulk page cut to the keys the partitions it still
// wants (Rows) hold at the mean of those seen whole, and one more, never
// below the first read's keys: a screen of partitions reads about what it
// shows, where a 1,000-key page had read on into items it never showed
// (a Scan bills whole items, whatever it projects).
func (r PartitionsRequest) sized() PartitionsRequest {
	if r.Rows <= 0 || r.perPartition <= 0 || r.Limit != partitionBulkKeys || len(r.Segments) > 0 {
		return r
	}
	r.Limit = int32(min(max((r.Rows+1)*int(r.perPartition), partitionFirstKeys), partitionBulkKeys))
	return r
}

// wholePartitions counts the partitions a read of more to come saw from
// first key to last, and their keys: each run of one partition key but
// the last (which may go on), and the first only where the read began at
// a partition's start (the table's, or past a jump).
func wholePartitions(r PartitionsRequest, items []Item) (n, keys int) {
	atStart := r.Start == nil || r.Resume != nil
	run := 0
	var last types.AttributeValue
	for _, it := range items {
		v := it[r.Key.PK.Name]
		if last != nil && !sameValue(v, last) {
			if atStart {
				n, keys = n+1, keys+run
			}
			atStart, run = true, 0
		}
		last = v
		run++
	}
	return n, keys
}

// lastRun is how many keys a page's last partition holds in it.
func lastRun(pk string, items []Item) int {
	n := 0
	for i := len(items) - 1; i >= 0 && sameValue(items[i][pk], items[len(items)-1][pk]); i-- {
		n++
	}
	return n
}

// Probing reports whether r is a probe: a read after a jump, or a
// segment's first, of one read unit; split, whether every open segment's
// next read is.
func (r PartitionsRequest) Probing() bool {
	if len(r.Segments) > 0 {
		for _, seg := range r.Segments {
			if !seg.Probing() {
				return false
			}
		}
		return true
	}
	return r.Resume != nil && r.Limit != partitionBulkKeys || r.TotalSegments > 0 && r.Start == nil
}

// partitionEnd is a start key past every item of partition pk: its sort
// key the largest of its type. On an index the start key holds the table's
// keys too; those not already set (an inverted index shares them) are
// made the largest of their types. They only order items whose index sort
// key equals that largest value (dynalite breaks such ties by a hash of
// the table's keys), which no real key reaches short of 1,024 bytes of
// U+10FFFF (moto, checked against AWS, orders such ties by the table's
// keys: the largest are past them too). Whether DynamoDB accepts a
// made-up start key on an index is not verifiable here: dynalite and the
// embedded backend do, and AWS has said only a LastEvaluatedKey of the
// same index is supported (awslabs/dynamodb-data-mapper-js#65), so
// ScanKeysPage reads on from Resume, in bulk pages, if it is refused.
func partitionEnd(r PartitionsRequest, pk types.AttributeValue) Item {
	start := Item{r.Key.PK.Name: pk, r.Key.SK.Name: LargestSortKey(r.Key.SK.Type)}
	if r.TableKeys != nil {
		for _, k := range []*KeyAttr{&r.TableKeys.PK, r.TableKeys.SK} {
			if k != nil && start[k.Name] == nil {
				start[k.Name] = LargestSortKey(k.Type)
			}
		}
	}
	return start
}

// startKeyRefused reports whether DynamoDB refused a request's start key.
func startKeyRefused(err error) bool {
	var apiErr smithy.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode() == "ValidationException" && strings.Contains(apiErr.ErrorMessage(), "starting key")
}

// LargestSortKey is a sort key no item's can exceed: DynamoDB's largest
// number, or 1,024 bytes (the sort key's limit) of the largest UTF-8 code
// point or of 0xFF.
func LargestSortKey(t domain.KeyType) types.AttributeValue {
	switch t {
	case domain.TypeN:
		return &types.AttributeValueMemberN{Value: "9.9999999999999999999999999999999999999E+125"}
	case domain.TypeB:
		return &types.AttributeValueMemberB{Value: bytes.Repeat([]byte{0xff}, 1024)}
	}
	return &types.AttributeValueMemberS{Value: strings.Repeat("\U0010FFFF", 256)}
}

func sameValue(a, b types.AttributeValue) bool {
	x, ok1 := KeyValueOf(a)
	y, ok2 := KeyValueOf(b)
	return ok1 && ok2 && x.Type == y.Type && x.Text == y.Text && bytes.Equal(x.Bytes, y.Bytes)
}

// PartitionsResult is a stretch of a table's partitions in the order
// read (scan order within each segment, partitionsegments.go), each once
// however many calls list them, with the keys seen under it in the call.
type PartitionsResult struct {
	Partitions []domain.KeyValue
	Keys       []int  // keys read under each partition
	More       []bool // some of its keys not read, as far as the listing knows (PartitionKeys.More)
	Next       *PartitionsRequest
	Pages      int // Scan pages answered
	Read       int // keys those pages held, delivered or not
	Cost       Cost
}

// ListPartitions reads from r (FirstPartitions for the start) until it
// has want partitions or the table ends; Next is where to go on (after
// an error, where to resume). r.Rows, where set, sizes its bulk pages
// as the explorer's screen sizes its own (PartitionsRequest.sized), to
// the partitions still lacking at each step.
func ListPartitions(ctx context.Context, c Client, r PartitionsRequest, want int) (PartitionsResult, error) {
	var res PartitionsResult
	index := map[string]int{}
	for {
		if r.Rows > 0 {
			// Sized to the partitions still lacking, not to all of want
			// at every step: --limit 20 read 2,100 keys where 1,220 list
			// them.
			r.Rows = max(want-len(res.Partitions), 1)
		}
		// As many segments as partitions are missing, and one: a read can
		// find none (its segment's end, or a partition listed before),
		// and one more read now is cheaper than a round trip later.
		step, err := readStep(ctx, c, r, want-len(res.Partitions)+1)
		res.Cost = res.Cost.Add(step.Cost)
		res.Pages, res.Read = res.Pages+step.Pages, res.Read+step.Keys
		for _, p := range step.Partitions {
			i, seen := index[p.Key.Literal()]
			if !seen && p.Again {
				continue // listed by an earlier call: each partition once
			}
			if !seen {
				i = len(res.Partitions)
				index[p.Key.Literal()] = i
				res.Partitions = append(res.Partitions, p.Key)
				res.Keys = append(res.Keys, 0)
				res.More = append(res.More, false)
			}
			res.Keys[i] += p.Keys
			res.More[i] = p.More
		}
		if err != nil {
			res.Next = &step.Next
			return res, err
		}
		if !step.More {
			return res, nil
		}
		r = step.Next
		if len(res.Partitions) >= want {
			res.Next = &r
			return res, nil
		}
	}
}
