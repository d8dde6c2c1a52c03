package memory

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// BenchmarkPutItems loads n items of about 300 bytes, in batches of 1,000
// as --data does, into a table with an LSI (all attributes) and a GSI
// (keys and one attribute): the bulk insert the demo's lazy tables and
// --data pay. The items are built before the timer starts. Figures:
//
//	go test -run '^$' -bench PutItems -benchmem ./dynamo/memory/
func BenchmarkPutItems(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		items := benchItems(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				db := New()
				if _, err := db.CreateTable(ctx, benchTable()); err != nil {
					b.Fatal(err)
				}
				for i := 0; i < len(items); i += 1000 {
					if _, err := db.PutItems(ctx, "Orders", items[i:min(i+1000, len(items))]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/item")
		})
	}
}

func benchTable() *dynamodb.CreateTableInput {
	key := func(pk, sk string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(sk), KeyType: types.KeyTypeRange}}
	}
	return &dynamodb.CreateTableInput{
		TableName: aws.String("Orders"),
		KeySchema: key("PK", "SK"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"},
			{AttributeName: aws.String("Total"), AttributeType: "N"}, {AttributeName: aws.String("Customer"), AttributeType: "S"}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("ByTotal"), KeySchema: key("PK", "Total"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByCustomer"), KeySchema: key("Customer", "SK"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"Status"}}}},
	}
}

// benchItems are n items shaped like `make bench-data`'s, in a shuffled
// key order (as export parts arrive).
func benchItems(n int) []map[string]types.AttributeValue {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	items := make([]map[string]types.AttributeValue, n)
	for k := range n {
		i := (k * 7919) % n // a permutation when n is not a multiple of 7919
		items[k] = map[string]types.AttributeValue{
			"PK": s(fmt.Sprintf("TENANT#%04d", i%1000)), "SK": s(fmt.Sprintf("ORDER#2026-%02d-%02dT%02d:%02d:00Z#%08d", 1+i%12, 1+i%28, i%24, i%60, i)),
			"Status": s("SHIPPED"), "Total": &types.AttributeValueMemberN{Value: fmt.Sprint(i % 100_000)}, "Customer": s(fmt.Sprintf("customer-%06d@example.com", i%50_000)),
			"Lines": &types.AttributeValueMemberN{Value: fmt.Sprint(1 + i%9)}, "Notes": s(strings.Repeat(fmt.Sprintf("note %d ", i), 20)[:105]),
			"Tags":    &types.AttributeValueMemberSS{Value: []string{"priority", fmt.Sprintf("region-%d", i%7)}},
			"Address": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"Street": s(fmt.Sprintf("%d Main Street", i%9999)), "City": s("Springfield"), "Zip": s(fmt.Sprintf("%05d", i%99999))}},
		}
	}
	return items
}
