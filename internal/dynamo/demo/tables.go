// Package demo builds dynascope's demo database: deterministic tables that
// reproduce every pattern of the reference documents (hierarchical sort
// keys, v0_ version history, epoch and ISO timestamps, composite chat keys
// with a reversed index, sharded hot partitions), generated in well under a
// second, for the embedded backend or written into a real server.
package demo

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func attr(name string, t types.ScalarAttributeType) types.AttributeDefinition {
	return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: t}
}

func key(pk, sk string) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
	if sk != "" {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
	}
	return ks
}

func projection(t types.ProjectionType, include ...string) *types.Projection {
	p := &types.Projection{ProjectionType: t}
	if len(include) > 0 {
		p.NonKeyAttributes = include
	}
	return p
}

func table(name string, defs []types.AttributeDefinition, pk, sk string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName: aws.String(name), AttributeDefinitions: defs, KeySchema: key(pk, sk),
		BillingMode: types.BillingModePayPerRequest,
	}
}

// Tables returns the CreateTable inputs of every demo table.
func Tables() []*dynamodb.CreateTableInput {
	locations := table("Locations", []types.AttributeDefinition{attr("PK", "S"), attr("SK", "S"), attr("SquareFeet", "N"), attr("City", "S")}, "PK", "SK")
	locations.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{IndexName: aws.String("BySquareFeet"), KeySchema: key("PK", "SquareFeet"), Projection: projection(types.ProjectionTypeAll)}}
	locations.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("ByCity"), KeySchema: key("City", "SK"), Projection: projection(types.ProjectionTypeInclude, "StreetAddress")}}

	chat := table("ChatMessages", []types.AttributeDefinition{attr("ChatRoomID", "S"), attr("MessageID", "S"), attr("TimeUser", "S")}, "ChatRoomID", "MessageID")
	chat.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("ByTime"), KeySchema: key("ChatRoomID", "TimeUser"), Projection: projection(types.ProjectionTypeAll)}}

	return append([]*dynamodb.CreateTableInput{
		locations,
		table("Geography", []types.AttributeDefinition{attr("PK", "S"), attr("SK", "S")}, "PK", "SK"),
		table("Equipment", []types.AttributeDefinition{attr("PK", "S"), attr("SK", "S")}, "PK", "SK"),
		table("Documents", []types.AttributeDefinition{attr("DocumentID", "S"), attr("DocumentInfo", "S")}, "DocumentID", "DocumentInfo"),
		table("DeviceLogs", []types.AttributeDefinition{attr("DeviceID", "N"), attr("Timestamp", "N")}, "DeviceID", "Timestamp"),
		table("Metrics", []types.AttributeDefinition{attr("Series", "S"), attr("TS", "N")}, "Series", "TS"),
		table("AuditLog", []types.AttributeDefinition{attr("Stream", "S"), attr("At", "S")}, "Stream", "At"),
		chat,
		table("Blobs", []types.AttributeDefinition{attr("Bucket", "S"), attr("Key", "B")}, "Bucket", "Key"),
		table(PolicyTable, []types.AttributeDefinition{attr("PK", "S"), attr("SK", "S")}, "PK", "SK"),
	}, append(layoutTables(), shapeTables()...)...)
}
