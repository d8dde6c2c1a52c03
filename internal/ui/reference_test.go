package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestFollowReferenceToIndex: > on a store follows its City to the ByCity
// index's partition (the one value that names a partition); < comes back
// to the item, ctrl+i goes forward again.
func TestFollowReferenceToIndex(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"})
	h.keys("tab", "enter")
	h.contains(t, `"City": "NEWYORKCITY"`)
	h.keys(">")
	h.contains(t, "Locations › NEWYORKCITY", "index ByCity")
	h.keys("<")
	h.contains(t, `"City": "NEWYORKCITY"`)
	h.send(tea.KeyPressMsg{Code: 'i', Mod: tea.ModCtrl})
	h.contains(t, "index ByCity")
	h.send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	h.contains(t, "attributes · plain JSON")
	h.keys("<") // the list the item was opened from
	h.contains(t, "NY#NEWYORKCITY#")
	if strings.Contains(h.screen(), "attributes · plain JSON") {
		t.Fatal("< did not leave the item for the list it was opened from")
	}
	h.keys("<", "<", "<", "<") // past where the session began
	h.contains(t, "no view to go back to")
}

// TestHistoryOfViews: ctrl+o and ctrl+i step back and forward through
// every view shown (opened or climbed out of), not only references.
func TestHistoryOfViews(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA"})
	h.keys("enter") // into the first state
	h.contains(t, "AK# · 3 prefixes")
	h.keys("esc")
	h.send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	h.contains(t, "AK# · 3 prefixes")
	h.send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	if strings.Contains(h.screen(), "AK# · 3 prefixes") {
		t.Fatal("ctrl+o did not go back to the partition's top level")
	}
	h.send(tea.KeyPressMsg{Code: 'i', Mod: tea.ModCtrl})
	h.contains(t, "AK# · 3 prefixes")
}

// TestFollowReferenceNoneSaysWhere: an item naming no partition says
// where it looked.
func TestFollowReferenceNoneSaysWhere(t *testing.T) {
	h := newHarness(t, 200, 35, Config{Table: "Equipment", PK: "Equipment_2"})
	h.keys("tab", "enter", ">")
	h.contains(t, "no partition is named by this item's values", "looked in Model = \"X-197\" → Equipment")
	h = newHarness(t, 200, 35, Config{Table: "DeviceLogs", PK: "123"})
	h.keys("enter", ">")
	h.contains(t, "looked in Temperature = 26.5 → DeviceLogs") // numbers name number keys
}

// TestFollowReferencePicker: an item naming two partitions (an index's
// GSI1-PK and another attribute naming a table partition) offers both.
func TestFollowReferencePicker(t *testing.T) {
	h := newHarness(t, 120, 30, Config{Client: shopDB(t), Table: "Shop", PK: "o#1"})
	h.keys("tab", ">")
	h.contains(t, "Follow which reference?", "GSI1-PK = \"c#12345\" → index GSI1", "Customer = \"c#12345\" → Shop")
	h.keys("down", "enter")
	h.contains(t, "Shop › c#12345")
	if strings.Contains(h.screen(), "index GSI1") {
		t.Fatal("the second choice opened the index")
	}
	h.keys("<")
	h.contains(t, "o#1")
}

// shopDB holds an order (o#1) whose item names a customer twice: through
// the index GSI1's partition key and a plain attribute.
func shopDB(t *testing.T) *memory.DB {
	db := memory.New()
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Shop"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"},
			{AttributeName: aws.String("SK"), AttributeType: "S"}, {AttributeName: aws.String("GSI1-PK"), AttributeType: "S"}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("GSI1"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("GSI1-PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}); err != nil {
		t.Fatal(err)
	}
	for _, it := range []dynamo.Item{
		{"PK": s("o#1"), "SK": s("order"), "GSI1-PK": s("c#12345"), "Customer": s("c#12345")},
		{"PK": s("c#12345"), "SK": s("profile"), "Name": s("Ada")},
	} {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Shop"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}
