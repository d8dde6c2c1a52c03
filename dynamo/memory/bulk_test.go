package memory

import (
	"context"
	"fmt"
	"reflect"
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
