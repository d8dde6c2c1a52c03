package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

var indexParts seededTable

// indexPartsTable has an index of every shape: GSIs keyed by strings,
// numbers and binaries, one with no sort key, one inverted (SK, PK), and
// an LSI. Index partitions are large (jumped past) and small (read in
// bulk), sparse (only some items carry the attributes), and their sort
// keys repeat (an index's keys need not be unique).
func createIndexParts(ctx context.Context, w dynamo.Writer) error {
	attr := func(n string, t types.ScalarAttributeType) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: t}
	}
	keys := func(pk, sk string) []types.KeySchemaElement {
		k := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
		if sk != "" {
			k = append(k, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
		}
		return k
	}
	all := &types.Projection{ProjectionType: types.ProjectionTypeAll}
	gsi := func(name, pk, sk string) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: keys(pk, sk), Projection: all}
	}
	in := &dynamodb.CreateTableInput{TableName: aws.String("IndexParts"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attr("PK", "S"), attr("SK", "S"), attr("GS", "S"), attr("RS", "S"),
			attr("GN", "N"), attr("RN", "N"), attr("GB", "B"), attr("RB", "B"), attr("LS", "S")},
		KeySchema: keys("PK", "SK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{gsi("ByString", "GS", "RS"), gsi("ByNumber", "GN", "RN"),
			gsi("ByBinary", "GB", "RB"), gsi("HashOnly", "GS", ""), gsi("Inverted", "SK", "PK")},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("Local"), KeySchema: keys("PK", "LS"), Projection: all}},
	}
	if _, err := w.CreateTable(ctx, in); err != nil {
		return err
	}
	if err := demo.WaitActive(ctx, w, "IndexParts"); err != nil {
		return err
	}
	sv := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for p := range 40 {
		for i := range []int{1, 3, 160, 7, 45}[p%5] {
			n := p*1000 + i
			it := dynamo.Item{"PK": sv(fmt.Sprintf("p%02d", p)), "SK": sv(fmt.Sprintf("s%03d", i)), "LS": sv(fmt.Sprintf("l%02d", i%30)),
				"Data": sv(strings.Repeat("d", 120))}
			if n%4 != 3 { // sparse: a quarter of the items are in no string index
				g := (n * 7) % 23
				if g > 15 {
					g = 0 // one large partition
				}
				it["GS"], it["RS"] = sv(fmt.Sprintf("g%02d", g)), sv(fmt.Sprintf("r%02d", n%40))
			}
			it["GN"] = &types.AttributeValueMemberN{Value: fmt.Sprint((n%11)*-13 + 40)}
			it["RN"] = &types.AttributeValueMemberN{Value: fmt.Sprintf("%d.5", n%17)}
			it["GB"] = &types.AttributeValueMemberB{Value: []byte{byte(n % 9), 0xff}}
			it["RB"] = &types.AttributeValueMemberB{Value: []byte{byte(n % 50), 0}}
			items = append(items, it)
		}
	}
	for len(items) > 0 {
		var reqs []types.WriteRequest
		for _, it := range items[:min(25, len(items))] {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		}
		items = items[min(25, len(items)):]
		for len(reqs) > 0 {
			out, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"IndexParts": reqs}})
			if err != nil {
				return err
			}
			reqs = out.UnprocessedItems["IndexParts"]
		}
	}
	return nil
}

// listIndexPartitions walks a listing to its end, the runs of partition
// keys in scan order, and what it read.
func listIndexPartitions(ctx context.Context, c dynamo.Client, r dynamo.PartitionsRequest) (runs []string, read, jumps int, err error) {
	for {
		p, err := dynamo.ScanKeysPage(ctx, c, r)
		if err != nil {
			return nil, 0, 0, err
		}
		read += len(p.Items)
		for _, it := range p.Items {
			v, _ := dynamo.KeyValueOf(it[r.Key.PK.Name])
			if len(runs) == 0 || runs[len(runs)-1] != v.Literal() {
				runs = append(runs, v.Literal())
			}
		}
		next, jumped, ok := dynamo.NextPartitions(r, p)
		if !ok {
			return runs, read, jumps, nil
		}
		if jumped {
			jumps++
		}
		r = next
	}
}

// TestIndexPartitionsBySkipScan: an index's partitions listed by
// skip-scan (a start key past each large one, made of the index's keys
// and the table's) are every partition a full Scan of the index finds,
// each once, on both backends, for GSIs keyed by S, N and B, an inverted
// GSI, an LSI, the demo's overloaded Shop indexes, and a GSI without a
// sort key (read in bulk pages: nothing to jump past).
func TestIndexPartitionsBySkipScan(t *testing.T) {
	ctx := context.Background()
	backends := seededBackends(t, &indexParts, func(ctx context.Context, w dynamo.Writer) error {
		if err := createIndexParts(ctx, w); err != nil {
			return err
		}
		_, err := demo.Seed(ctx, w, demo.Options{Tables: []string{demo.ShopTable}})
		return err
	})
	figures := map[string]string{}
	for name, c := range backends {
		var b strings.Builder
		for _, tbl := range []string{"IndexParts", demo.ShopTable} {
			info, _, err := dynamo.DescribeTable(ctx, c, tbl)
			if err != nil {
				t.Fatal(err)
			}
			if len(info.Indexes) == 0 {
				t.Fatalf("%s: %s has no indexes", name, tbl)
			}
			for _, ix := range info.Indexes {
				full := dynamo.PartitionsRequest{Table: tbl, Index: ix.Name, Key: ix.Key}
				oracle, fullRead, _, err := listIndexPartitions(ctx, c, full)
				if err != nil {
					t.Fatalf("%s %s %s full Scan: %v", name, tbl, ix.Name, err)
				}
				want := map[string]bool{}
				for _, k := range oracle {
					want[k] = true
				}
				for _, probe := range []int32{0, 1} {
					// 1: a first read of one key, so that even the small
					// partitions of the inverted and overloaded indexes are
					// jumped past.
					if probe > 0 && ix.Key.SK == nil {
						continue // no jumps: bulk pages only
					}
					first := dynamo.FirstIndexPartitions(tbl, ix.Name, ix.Key, info.Key)
					if probe > 0 {
						first.Limit = probe
					}
					m := dynamo.NewMetered(c)
					runs, read, jumps, err := listIndexPartitions(ctx, m, first)
					if err != nil {
						t.Fatalf("%s %s %s: %v", name, tbl, ix.Name, err)
					}
					seen := map[string]bool{}
					for _, k := range runs {
						if seen[k] {
							t.Errorf("%s %s %s: partition %s listed twice", name, tbl, ix.Name, k)
						}
						seen[k] = true
						if !want[k] {
							t.Errorf("%s %s %s: listed %s, which a full Scan does not find", name, tbl, ix.Name, k)
						}
					}
					if len(seen) != len(want) {
						t.Errorf("%s %s %s: listed %d partitions, a full Scan finds %d", name, tbl, ix.Name, len(seen), len(want))
					}
					if ix.Key.SK == nil && jumps > 0 || ix.Key.SK != nil && probe > 0 && jumps == 0 {
						t.Errorf("%s %s %s probe %d: %d jumps (sort key %v)", name, tbl, ix.Name, probe, jumps, ix.Key.SK != nil)
					}
					total, _ := m.Session.Totals()
					fmt.Fprintf(&b, "%s %s (%s) first read %d: %d partitions, %d req, %.1f RCU, %d jumps, %d keys read (full Scan: %d)\n",
						tbl, ix.Name, keyTypes(ix.Key), first.Limit, len(seen), total.Requests, total.RCU, jumps, read, fullRead)
				}
			}
		}
		figures[name] = b.String()
	}
	if figures["memory"] != figures["dynalite"] {
		t.Errorf("backends differ:\n--- memory\n%s--- dynalite\n%s", figures["memory"], figures["dynalite"])
	}
	t.Logf("\n%s", figures["dynalite"])
}

func keyTypes(k dynamo.KeySchema) string {
	if k.SK == nil {
		return string(k.PK.Type)
	}
	return string(k.PK.Type) + "/" + string(k.SK.Type)
}

// refusing is a server that refuses every made-up start key: what a
// DynamoDB that accepted only the start keys it gave would do.
type refusing struct {
	dynamo.Client
	mu      sync.Mutex // segments' reads run at once
	refused int
	// inSegments refuses only the jumps of a segment's reads.
	inSegments bool
}

func (r *refusing) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	if r.inSegments && in.Segment == nil {
		return r.Client.Scan(ctx, in, o...)
	}
	for _, v := range in.ExclusiveStartKey {
		if kv, ok := dynamo.KeyValueOf(v); ok && kv.Literal() == mustKV(dynamo.LargestSortKey(kv.Type)).Literal() {
			r.mu.Lock()
			r.refused++
			r.mu.Unlock()
			return nil, &smithy.GenericAPIError{Code: "ValidationException", Message: "The provided starting key is invalid"}
		}
	}
	return r.Client.Scan(ctx, in, o...)
}

func mustKV(av types.AttributeValue) domain.KeyValue {
	kv, _ := dynamo.KeyValueOf(av)
	return kv
}

// TestIndexPartitionsWhenAJumpIsRefused: should DynamoDB refuse a made-up
// start key on an index (not verifiable here), the listing reads on from
// the last real start key in plain pages: every partition once still.
func TestIndexPartitionsWhenAJumpIsRefused(t *testing.T) {
	ctx := context.Background()
	for name, c := range seededBackends(t, &indexParts, func(ctx context.Context, w dynamo.Writer) error {
		if err := createIndexParts(ctx, w); err != nil {
			return err
		}
		_, err := demo.Seed(ctx, w, demo.Options{Tables: []string{demo.ShopTable}})
		return err
	}) {
		info, _, err := dynamo.DescribeTable(ctx, c, "IndexParts")
		if err != nil {
			t.Fatal(err)
		}
		ix, _ := info.KeyFor("ByString")
		want, _, _, err := listIndexPartitions(ctx, c, dynamo.PartitionsRequest{Table: "IndexParts", Index: "ByString", Key: ix})
		if err != nil {
			t.Fatal(err)
		}
		r := &refusing{Client: c}
		got, _, _, err := listIndexPartitions(ctx, r, dynamo.FirstIndexPartitions("IndexParts", "ByString", ix, info.Key))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.refused != 1 {
			t.Errorf("%s: %d jumps refused, want 1 (then plain pages)", name, r.refused)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: after a refused jump listed\n%v\nwant\n%v", name, got, want)
		}
	}
}

// TestIndexPartitionsMidSize: the demo's Locations through ByCity, whose
// partitions (a city's stores, ~50 small index items each) are more than
// half a first read but less than a read unit holds, are listed in about
// as few requests as 1,000-key pages take, every partition once, on both
// backends: bulk pages, not a probe a partition.
func TestIndexPartitionsMidSize(t *testing.T) {
	ctx := context.Background()
	figures := map[string]string{}
	for name, c := range indexedBackends(t) {
		info, _, err := dynamo.DescribeTable(ctx, c, "Locations")
		if err != nil {
			t.Fatal(err)
		}
		ix, err := info.KeyFor("ByCity")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, full, _, err := listIndexPartitions(ctx, c, dynamo.PartitionsRequest{Table: "Locations", Index: "ByCity", Key: ix, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		plain := (full + 999) / 1000
		m := dynamo.NewMetered(c)
		got, read, jumps, err := listIndexPartitions(ctx, m, dynamo.FirstIndexPartitions("Locations", "ByCity", ix, info.Key))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: listed\n%v\nwant every partition once, as 1,000-key pages list them:\n%v", name, got, want)
		}
		total, _ := m.Session.Totals()
		if total.Requests > plain+1 {
			t.Errorf("%s: %d requests for %d partitions of %d keys, 1,000-key pages take %d", name, total.Requests, len(want), full, plain)
		}
		m = dynamo.NewMetered(c)
		screen, err := dynamo.ListPartitions(ctx, m, dynamo.FirstIndexPartitions("Locations", "ByCity", ix, info.Key), 29)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		first, _ := m.Session.Totals()
		if first.Requests > 3 || len(screen.Partitions) < 29 {
			t.Errorf("%s: a first screen of 29 partitions took %d requests for %d, want a first read and two bulk pages at most", name, first.Requests, len(screen.Partitions))
		}
		figures[name] = fmt.Sprintf("listed: %d partitions, %d req, %.1f RCU, %d jumps, %d keys read (1,000-key pages: %d req)\nfirst screen: %d partitions, %d req, %.1f RCU\n",
			len(got), total.Requests, total.RCU, jumps, read, plain, len(screen.Partitions), first.Requests, first.RCU)
	}
	if figures["memory"] != figures["dynalite"] {
		t.Errorf("backends differ:\n--- memory\n%s--- dynalite\n%s", figures["memory"], figures["dynalite"])
	}
	t.Logf("\n%s", figures["dynalite"])
}
