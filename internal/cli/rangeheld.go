package cli

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// heldPartition is an embedded table holding the items the time sample's
// first read held whole (dynamo.TimeSample.Held): every item of the
// partition (or of --sk-prefix) that range reads. The range's Query,
// filter and order are answered by it as DynamoDB answers them, with no
// read sent: a partition of 20 keys cost 0.5 RCU to sample and 0.5 more
// to read again. ok is false where nothing is held, or on an index (whose
// items the embedded table would key by the table's keys).
func heldPartition(ctx context.Context, sample dynamo.TimeSample, table, index string, key dynamo.KeySchema) (dynamo.Client, bool) {
	if sample.Held == nil || index != "" {
		return nil, false
	}
	schema := []types.KeySchemaElement{{AttributeName: aws.String(key.PK.Name), KeyType: types.KeyTypeHash}}
	defs := []types.AttributeDefinition{{AttributeName: aws.String(key.PK.Name), AttributeType: types.ScalarAttributeType(key.PK.Type)}}
	if key.SK != nil {
		schema = append(schema, types.KeySchemaElement{AttributeName: aws.String(key.SK.Name), KeyType: types.KeyTypeRange})
		defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(key.SK.Name), AttributeType: types.ScalarAttributeType(key.SK.Type)})
	}
	db := memory.New()
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(table), KeySchema: schema,
		AttributeDefinitions: defs, BillingMode: types.BillingModePayPerRequest}); err != nil {
		return nil, false
	}
	if _, err := db.PutItems(ctx, table, sample.Held); err != nil {
		return nil, false
	}
	return db, true
}
