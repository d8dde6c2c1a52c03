package ui

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// manyTables is an embedded backend holding n empty tables.
func manyTables(t testing.TB, n int) *memory.DB {
	db := memory.New()
	for i := range n {
		_, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{
			TableName:            aws.String(fmt.Sprintf("T%05d", i)),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
			BillingMode:          types.BillingModePayPerRequest,
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// A model of 10,000 tables froze the explorer: every table was described
// at once, each answer redrawn. The list is one ListTables (paged as
// DynamoDB pages it), and a DescribeTable only for the rows on screen, as
// they come into view.
func TestTablesListDescribesOnlyWhatShows(t *testing.T) {
	const n = 10000
	db := manyTables(t, n)
	t0 := time.Now()
	h := newHarness(t, 100, 30, Config{Client: db})
	opened := time.Since(t0)
	h.contains(t, "T00000", "PK S")
	first := h.rec.count("DescribeTable")
	if first == 0 || first > 30 {
		t.Fatalf("%d DescribeTable for a screen of 30 rows", first)
	}
	if lists := h.rec.count("ListTables"); lists > n/100+1 {
		t.Fatalf("%d ListTables pages for %d tables", lists, n)
	}
	t1 := time.Now()
	h.keys("end")
	key := time.Since(t1)
	h.contains(t, "T09999")
	if d := h.rec.count("DescribeTable"); d > 2*first+2 {
		t.Fatalf("%d DescribeTable after jumping to the end", d)
	}
	t.Logf("%d tables: opened in %s (%d DescribeTable), end key %s (%d DescribeTable in all)", n, opened.Round(time.Millisecond),
		first, key.Round(time.Millisecond), h.rec.count("DescribeTable"))
}
