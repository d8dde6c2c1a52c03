package memory

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestPutItemsIsManyPutItems: the bulk path leaves the table, its size and
// its indexes exactly as one PutItem per item in the same order would,
// including items that replace others and change their index key.
func TestPutItemsIsManyPutItems(t *testing.T) {
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	create := &dynamodb.CreateTableInput{
		TableName:            aws.String("T"),
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}, {AttributeName: aws.String("G"), AttributeType: "S"}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByG"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
	}
	var items []map[string]types.AttributeValue
	for i := range 300 {
		it := map[string]types.AttributeValue{"PK": s(fmt.Sprint("p", (i*7)%5)), "SK": s(fmt.Sprintf("%03d", (i*37)%120)), "V": s(fmt.Sprint(i))}
		if i%3 != 0 {
			it["G"] = s(fmt.Sprint("g", i%4))
		}
		items = append(items, it)
	}
	one, bulk, chunks := New(), New(), New()
	for _, db := range []*DB{one, bulk, chunks} {
		if _, err := db.CreateTable(ctx, create); err != nil {
			t.Fatal(err)
		}
	}
	for _, it := range items {
		if _, err := one.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("T"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := bulk.PutItems(ctx, "T", items[:100]); err != nil {
		t.Fatal(err)
	}
	if _, err := bulk.PutItems(ctx, "T", items[100:]); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(items); i += 7 { // many merges into sorted partitions
		if _, err := chunks.PutItems(ctx, "T", items[i:min(i+7, len(items))]); err != nil {
			t.Fatal(err)
		}
	}
	for _, index := range []string{"", "ByG"} {
		in := &dynamodb.ScanInput{TableName: aws.String("T")}
		if index != "" {
			in.IndexName = aws.String(index)
		}
		a, err := one.Scan(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := bulk.Scan(ctx, in)
		if !reflect.DeepEqual(a.Items, b.Items) {
			t.Errorf("scan %q: bulk %d items, one by one %d, or in another order", index, len(b.Items), len(a.Items))
		}
		c, _ := chunks.Scan(ctx, in)
		if !reflect.DeepEqual(a.Items, c.Items) {
			t.Errorf("scan %q: in chunks of 7 %d items, one by one %d, or in another order", index, len(c.Items), len(a.Items))
		}
	}
	da, _ := one.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("T")})
	db, _ := bulk.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("T")})
	dc, _ := chunks.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("T")})
	if *da.Table.ItemCount != *dc.Table.ItemCount || *da.Table.TableSizeBytes != *dc.Table.TableSizeBytes {
		t.Errorf("in chunks %d items %d bytes, one by one %d, %d", *dc.Table.ItemCount, *dc.Table.TableSizeBytes, *da.Table.ItemCount, *da.Table.TableSizeBytes)
	}
	if *da.Table.ItemCount != *db.Table.ItemCount || *da.Table.TableSizeBytes != *db.Table.TableSizeBytes {
		t.Errorf("bulk %d items %d bytes, one by one %d, %d", *db.Table.ItemCount, *db.Table.TableSizeBytes, *da.Table.ItemCount, *da.Table.TableSizeBytes)
	}
	bad := []map[string]types.AttributeValue{items[0], {"PK": s("x")}}
	if at, err := bulk.PutItems(ctx, "T", bad); err == nil || at != 1 {
		t.Errorf("an item without its sort key: position %d, error %v; want 1 and a validation error", at, err)
	}
}

// TestSettle: merging a batch into a sorted partition gives what sorting
// everything and keeping the last entry of each key gives, and drops
// exactly the others: batches before, after, among and equal to the old
// entries, with repeated keys within a batch and across batches.
func TestSettle(t *testing.T) {
	key := func(i int) entry { return entry{sk: fmt.Sprintf("%04d", i/3), tie: fmt.Sprint(i % 3)} }
	cases := []struct {
		name     string
		old, add []int // keys by number; a record names its batch and position
	}{
		{"empty partition", nil, []int{5, 1, 5, 3}},
		{"all after", []int{1, 2, 3}, []int{9, 7, 8}},
		{"all before", []int{10, 11, 12}, []int{2, 1, 1}},
		{"interleaved", []int{2, 4, 6, 8, 10}, []int{9, 1, 5, 11, 3, 7}},
		{"replacing", []int{2, 4, 6}, []int{6, 2, 4, 4}},
		{"many into one gap", []int{1, 100}, []int{50, 40, 60, 45, 55}},
		{"mixed", []int{0, 3, 6, 9, 12, 15, 18, 21}, []int{21, 4, 3, 3, 30, 0, 17, 16, 2, 1}},
		{"nothing added", []int{1, 2}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &partition{}
			var all []entry
			for i, k := range c.old {
				e := key(k)
				e.rec = record(fmt.Sprint("old", i))
				p.entries = append(p.entries, e)
				all = append(all, e)
			}
			slices.SortStableFunc(p.entries, byKey) // old keys are unique
			for i, k := range c.add {
				e := key(k)
				e.rec = record(fmt.Sprint("new", i))
				p.entries = append(p.entries, e)
				all = append(all, e)
			}
			dropped := settle(p, len(c.old))
			// The reference: sort everything stably, keep the last of each key.
			slices.SortStableFunc(all, byKey)
			var want []entry
			var wantDropped []string
			for i, e := range all {
				if i+1 < len(all) && sameKey(all[i+1], e) {
					wantDropped = append(wantDropped, string(e.rec))
					continue
				}
				want = append(want, e)
			}
			if !reflect.DeepEqual(p.entries, want) {
				t.Errorf("entries %v, want %v", p.entries, want)
			}
			var got []string
			for _, r := range dropped {
				got = append(got, string(r))
			}
			slices.Sort(got)
			slices.Sort(wantDropped)
			if !reflect.DeepEqual(got, wantDropped) {
				t.Errorf("dropped %v, want %v", got, wantDropped)
			}
		})
	}
}

// TestPutItemsLargeBatch: a batch large enough to be prepared on several
// goroutines stores exactly what one PutItem per item stores, in a table
// with an LSI and a GSI, with keys repeated within the batch; and a batch
// with rejected items is refused at the first of them, storing nothing.
func TestPutItemsLargeBatch(t *testing.T) {
	ctx := context.Background()
	items := benchItems(3001)
	for i := range 400 { // the same keys again, other values: replacements
		it := maps.Clone(items[i*5])
		it["Total"] = &types.AttributeValueMemberN{Value: fmt.Sprint(7 * i)}
		it["Customer"] = &types.AttributeValueMemberS{Value: fmt.Sprint("moved-", i)}
		items = append(items, it)
	}
	one, bulk := New(), New()
	for _, db := range []*DB{one, bulk} {
		if _, err := db.CreateTable(ctx, benchTable()); err != nil {
			t.Fatal(err)
		}
	}
	for _, it := range items {
		if _, err := one.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := bulk.PutItems(ctx, "Orders", items); err != nil || n != len(items) {
		t.Fatal(n, err)
	}
	for _, index := range []string{"", "ByTotal", "ByCustomer"} {
		in := &dynamodb.ScanInput{TableName: aws.String("Orders")}
		if index != "" {
			in.IndexName = aws.String(index)
		}
		for page := 0; ; page++ {
			a, err1 := one.Scan(ctx, in)
			b, err2 := bulk.Scan(ctx, in)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if !reflect.DeepEqual(a.Items, b.Items) || !reflect.DeepEqual(a.LastEvaluatedKey, b.LastEvaluatedKey) {
				t.Fatalf("scan %q page %d: bulk %d items, one by one %d, or in another order", index, page, len(b.Items), len(a.Items))
			}
			if a.LastEvaluatedKey == nil {
				break
			}
			in.ExclusiveStartKey = a.LastEvaluatedKey
		}
	}
	da, _ := one.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Orders")})
	db, _ := bulk.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Orders")})
	if !reflect.DeepEqual(da.Table, db.Table) {
		t.Errorf("bulk %d items %d bytes, one by one %d, %d", *db.Table.ItemCount, *db.Table.TableSizeBytes, *da.Table.ItemCount, *da.Table.TableSizeBytes)
	}

	fresh := New()
	if _, err := fresh.CreateTable(ctx, benchTable()); err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(items[:3000])
	bad[2900] = map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "x"}} // no sort key
	bad[1700] = maps.Clone(bad[1700])
	bad[1700]["Total"] = &types.AttributeValueMemberS{Value: "not a number"} // the LSI's key of another type
	if at, err := fresh.PutItems(ctx, "Orders", bad); err == nil || at != 1700 {
		t.Errorf("two rejected items: position %d, error %v; want 1700 and a validation error", at, err)
	}
	if d, _ := fresh.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Orders")}); *d.Table.ItemCount != 0 {
		t.Errorf("a refused batch stored %d items", *d.Table.ItemCount)
	}
}
