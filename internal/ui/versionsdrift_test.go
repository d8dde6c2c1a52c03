package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestVersionsLongDriftHasRoom: at 200 columns a drift naming many
// attributes is shown whole; the preview beside it gives up the room.
func TestVersionsLongDriftHasRoom(t *testing.T) {
	db := memory.New()
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Audits"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}}}); err != nil {
		t.Fatal(err)
	}
	names := []string{"Brakes", "Findings", "Firmware", "Inspector", "Notes", "Score", "Status", "Wiring"} // as the drift sorts them
	for _, sk := range []string{"v0_Audit", "v1_Audit", "v2_Audit"} {
		it := dynamo.Item{"PK": s("machine-1"), "SK": s(sk)}
		for _, n := range names {
			v := "old"
			if sk == "v2_Audit" {
				v = "new"
			}
			it[n] = s(v)
		}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Audits"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarness(t, 200, 50, Config{Table: "Audits", PK: "machine-1", Versions: "*", Client: db, Now: demoClock})
	want := "v0_ differs from v2_: " + strings.Join(names, ", ")
	want = strings.Join(strings.Fields(want), " ")
	h.contains(t, want, "Current copy")
}
