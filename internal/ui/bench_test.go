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
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// BenchmarkKeypressWith100kRows measures one ↓ keypress, Update and View,
// with 100,000 rows loaded and held in the items page (every row held, as
// before the window of rows: the figure stays comparable, and ↓ is never
// waiting on a page read again, which the loop does not run).
func BenchmarkKeypressWith100kRows(b *testing.B) {
	db := memory.New()
	ctx := context.Background()
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("T"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}}}); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 100_000; i++ {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("T"), Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("ITEM#%06d", i)},
			"Status": &types.AttributeValueMemberS{Value: "OK"}, "N": &types.AttributeValueMemberN{Value: fmt.Sprint(i)}}}); err != nil {
			b.Fatal(err)
		}
	}
	h := newHarness(b, 120, 40, Config{Client: db, Table: "T", PK: "P", HeldRows: -1})
	h.keys("tab") // the partition opens in the tree: its items are the next mode
	// Load every page: scrolling down fetches them (G would read the end
	// alone). The screen is checked every 100 pages, not every press.
	for i := 0; i < 10000; i++ {
		if i%100 == 0 && strings.Contains(h.screen(), "100,000 items loaded · all") {
			break
		}
		h.keys("pgdown")
	}
	if s := h.screen(); !containsAll(s, "100,000 items loaded", "all") {
		b.Fatalf("not all rows loaded:\n%s", s)
	}
	h.keys("g")
	down := keyPress("down")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i%30000 == 0 {
			h.keys("g")
		}
		h.m.Update(down)
		_ = h.m.View()
	}
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// burstTable is the bursts' partition of benchlatency: 5,000 items of a
// number sort key and a 300-byte value (~1.6 MB: two 1 MB pages past the
// first screen), in table Burst under the partition key "burst".
func burstTable(tb testing.TB) *memory.DB {
	db := memory.New()
	data := &types.AttributeValueMemberS{Value: strings.Repeat("b", 300)}
	items := make([]dynamo.Item, 5000)
	for i := range items {
		items[i] = dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "burst"}, "SK": &types.AttributeValueMemberN{Value: fmt.Sprint(i)}, "Data": data}
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Burst", types.ScalarAttributeTypeN, items); err != nil {
		tb.Fatal(err)
	}
	return db
}

// BenchmarkPageDownBurstKey measures one pgdown of a burst, Update and the
// View Bubble Tea asks for after it, on the bursts' partition of
// benchlatency (5,000 items of a number sort key and a 300-byte value, at
// 120×35): 200 page-downs typed at once are 200 of these before the read
// they ask for leaves.
func BenchmarkPageDownBurstKey(b *testing.B) {
	h := newHarness(b, 120, 35, Config{Client: burstTable(b), Table: "Burst", PK: "burst"})
	h.keys("G", "g") // every row read: the keys move through rows held
	for !strings.Contains(h.screen(), "5,000 items loaded") {
		h.keys("pgdown")
	}
	h.keys("g")
	if s := h.screen(); !containsAll(s, "row 1 of 5,000", "bbbbbbbbbb") {
		b.Fatalf("not the burst's partition, read whole:\n%s", s)
	}
	pgdown := keyPress("pgdown")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i%150 == 0 {
			h.m.Update(keyPress("g"))
		}
		h.m.Update(pgdown)
		_ = h.m.View()
	}
}
