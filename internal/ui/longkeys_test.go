package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// longKeysDB holds readings whose sort keys are longer than 80 columns,
// a time of day in their middle: DEVICE#…#2026-10-31T13:00:58.123456Z#….
func longKeysDB(t *testing.T) *memory.DB {
	db := memory.New()
	ctx := context.Background()
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Long"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		BillingMode:          types.BillingModePayPerRequest}); err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		sk := fmt.Sprintf("DEVICE#sensor-0042#READING#2026-10-31T13:%02d:58.123456Z#temperature#celsius#calibration-run-00017", i)
		it := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "site#berlin-7"}, "SK": &types.AttributeValueMemberS{Value: sk},
			"Value": &types.AttributeValueMemberN{Value: fmt.Sprint(20 + i%5)}, "Status": &types.AttributeValueMemberS{Value: "ok"}}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Long"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestLongKeysKeepTheirTime: in the item list, a sort key too long for
// the terminal is cut around its date and time, not through them: at
// 80×24 every row still shows its own minute (the middle cut showed
// DEVICE#sensor-0042#READING#2026-10-31…perature#… on every row, 25.22).
func TestLongKeysKeepTheirTime(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Client: longKeysDB(t), Table: "Long", PK: "site#berlin-7"})
			h.keys("2")
			h.contains(t, "2026-10-31T13:00:58.123456Z", "2026-10-31T13:01:58.123456Z", "2026-10-31T13:15:58.123456Z")
			if strings.Contains(h.screen(), "2026-10-31…") {
				t.Fatalf("a key cut through its time:\n%s", h.screen())
			}
			h.golden(t)
		})
	}
}
