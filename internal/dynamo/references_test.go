package dynamo_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestReferences: an attribute that is an index's partition key names a
// partition of the index; another attribute naming a partition of the
// table is found by reading it; values naming nothing are not, on both
// backends.
func TestReferences(t *testing.T) {
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for name, c := range map[string]interface {
		dynamo.Client
		dynamo.Writer
	}{"memory": memory.New(), "dynalite": dynalitetest.Shared(t).Client()} {
		t.Run(name, func(t *testing.T) {
			_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
				TableName: aws.String("Refs"), BillingMode: types.BillingModePayPerRequest,
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"},
					{AttributeName: aws.String("SK"), AttributeType: "S"}, {AttributeName: aws.String("GSI1-PK"), AttributeType: "S"}},
				KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
				GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("GSI1"),
					KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("GSI1-PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
					Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := demo.WaitActive(ctx, c, "Refs"); err != nil {
				t.Fatal(err)
			}
			put := func(it dynamo.Item) {
				if _, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
					"Refs": {{PutRequest: &types.PutRequest{Item: it}}}}}); err != nil {
					t.Fatal(err)
				}
			}
			order := dynamo.Item{"PK": s("o#1"), "SK": s("order"), "GSI1-PK": s("c#12345"), "Customer": s("c#12345"), "Note": s("nothing here")}
			put(order)
			put(dynamo.Item{"PK": s("c#12345"), "SK": s("profile")})
			info, _, err := dynamo.DescribeTable(ctx, c, "Refs")
			if err != nil {
				t.Fatal(err)
			}
			cands := dynamo.ReferenceCandidates(info, order)
			if len(cands) != 3 || cands[0].Index != "GSI1" || cands[0].PK.Text != "c#12345" {
				t.Fatalf("candidates: %+v", cands)
			}
			found, cost, err := dynamo.FindReferences(ctx, c, info, cands)
			if err != nil {
				t.Fatal(err)
			}
			if len(found) != 2 || found[0].Index != "GSI1" || found[1].Attr != "Customer" || cost.Requests != 3 {
				t.Fatalf("found %+v at %+v", found, cost)
			}
		})
	}
}
