package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
)

// TestVersionsStatsBilled: a partition with no versions is two empty
// reads (the keys under v, and a page of the partition looked at for a
// name-first family, DOC#d1#v1), each reported at 0 RCU by the embedded
// backend and billed 0.5 by DynamoDB: versions' stats and summary say the
// bill, as children's do.
func TestVersionsStatsBilled(t *testing.T) {
	out, stderr := mustRun(t, "versions", "--demo", "--table", "Equipment", "--pk", "nothing-here")
	var d struct {
		Stats struct {
			Billed    float64 `json:"billedRCU"`
			Estimated bool    `json:"billedEstimated"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if d.Stats.Billed != 1 || !d.Stats.Estimated || !strings.Contains(stderr, "billedRCU=1.0") {
		t.Fatalf("stats %+v, summary %q: want the empty reads billed 1.0, an estimate", d.Stats, stderr)
	}
}

// TestRangeSummaryBilled: a range before the partition's first item reads
// nothing (reported 0 RCU, billed 0.5): the summary line says the bill as
// items' and children's do, for one Query and for prefixes merged by time.
// (A partition the time sample holds whole, such as device 123's three
// records, is answered with no read: device 9000's is not.)
func TestRangeSummaryBilled(t *testing.T) {
	for _, args := range [][]string{
		{"--table", "DeviceLogs", "--pk", "9000", "--before", "1000000000", "--output", "jsonl"},
		{"--table", "StateLog", "--pk", "d#12345", "--at", "1990-04-24", "--limit", "20"},
	} {
		_, stderr := mustRun(t, append([]string{"range", "--demo"}, args...)...)
		if !strings.Contains(stderr, "billedRCU=") || !strings.Contains(stderr, "(estimate: 0.5 RCU per 4 KB of items sent back, at least 0.5 a read)") {
			t.Errorf("%v: the summary does not say the bill:\n%s", args, stderr)
		}
	}
}

// TestBilledNoteSaysTheEstimate: moto reports 1.0 RCU for any read. One
// Query sending back 100 items of 1,014 bytes (99 KB, 25 units of 4 KB) is
// billed 12.5 by DynamoDB: the summary says that figure, and its note says
// how it was made, which the old note ("DynamoDB bills at least 0.5 a
// read") did not: it explained 0.5, not 12.5.
func TestBilledNoteSaysTheEstimate(t *testing.T) {
	isolateAWS(t)
	srv := mototest.Shared(t)
	var items []dynamo.Item
	for i := range 100 {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"},
			"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("I#%03d", i)}, "Data": &types.AttributeValueMemberS{Value: strings.Repeat("x", 1000)}})
	}
	if err := demo.CreateKeyTable(context.Background(), srv.Client(), "CliBilledNote", "S", items); err != nil {
		t.Fatal(err)
	}
	_, stderr := mustRun(t, "items", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", "CliBilledNote", "--pk", "p")
	if want := " consumedRCU=1.0 billedRCU=12.5 (" + estimateWords + ") items=100 "; !strings.Contains(stderr, want) {
		t.Fatalf("want %q in the summary:\n%s", want, stderr)
	}
	if !strings.Contains(estimateWords, "0.5 RCU per 4 KB of items sent back") || !strings.Contains(estimateWords, "at least 0.5 a read") {
		t.Errorf("the note does not say how the estimate is made: %q", estimateWords)
	}
}

// TestFindingPrefixesBilled: the merged range's "finding the prefixes"
// part says its cost as DynamoDB bills it, as the total beside it does: a
// server that reported 0 for an empty read (dynalite) is billed 0.5.
func TestFindingPrefixesBilled(t *testing.T) {
	for _, c := range []struct {
		cost dynamo.Cost
		want string
	}{
		{dynamo.Cost{Requests: 4, RCU: 2.0, Billed: 2.0}, "2.0 RCU"},
		{dynamo.Cost{Requests: 4, RCU: 1.5, Billed: 2.0, Estimated: true}, "2.0 RCU billed, est."},
	} {
		if got := billedWords(c.cost); got != c.want {
			t.Errorf("%+v: %q, want %q", c.cost, got, c.want)
		}
	}
}

// TestItemsLargestItem: items says the largest item it read, by its size
// as DynamoDB bills it, and warns past 300 KB of the 400 KB limit: the same
// on dynalite and on the embedded backend (--data).
func TestItemsLargestItem(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	big := strings.Repeat("x", 310*1024)
	items := []map[string]types.AttributeValue{
		av("PK", "p", "SK", "small", "Body", "tiny"),
		av("PK", "p", "SK", "large", "Body", big),
		av("PK", "p", "SK", "medium", "Body", strings.Repeat("y", 2000)),
	}
	// PK p (2+1) SK large (2+5) Body (4+310 KB): DynamoDB's item size.
	wantBytes := 2 + 1 + 2 + 5 + 4 + len(big)
	want := fmt.Sprintf(`largestItemBytes=%d largestItem={"PK":"p","SK":"large"} (310.0 KB of the 400 KB limit: 78%%)`, wantBytes)
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			_, stderr := mustRun(t, append([]string{"items", "--table", table, "--pk", "p", "--output", "json"}, conn...)...)
			if !strings.Contains(stderr, want+"\n") {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
			parseStats(t, stderr) // the stats line is as it was
			_, stderr = mustRun(t, append([]string{"items", "--table", table, "--pk", "p", "--limit", "1", "--reverse", "--mask", "SK"}, conn...)...)
			if !strings.Contains(stderr, `largestItemBytes=18 largestItem={"PK":"p","SK":"‹m1›"}`+"\n") {
				t.Errorf("one item, masked: %s", stderr)
			}
		})
	}
}

// TestItemsLargestItemOnAnIndexNamesTheItem: read through a GSI, whose key
// many items share, the largestItem line names the item by the table's
// key too; it named only the index's key, which every item here shares.
// On dynalite and the embedded backend.
func TestItemsLargestItemOnAnIndexNamesTheItem(t *testing.T) {
	S := func(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
	def := &dynamodb.CreateTableInput{
		TableName: aws.String("Largest.ByG"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("G"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		BillingMode: types.BillingModePayPerRequest,
	}
	items := []map[string]zooAV{
		{"PK": S("a"), "SK": S("1"), "G": S("g"), "Body": S("small")},
		{"PK": S("b"), "SK": S("2"), "G": S("g"), "Body": S(strings.Repeat("x", 5000))},
		{"PK": S("c"), "SK": S("3"), "G": S("g"), "Body": S("tiny")},
	}
	for name, conn := range batteryBackends(t, def, items) {
		_, stderr := mustRun(t, append([]string{"items", "--table", "Largest.ByG", "--index", "ByG", "--pk", "g"}, conn...)...)
		if want := `largestItem={"G":"g","PK":"b","SK":"2"}` + "\n"; !strings.Contains(stderr, want) {
			t.Errorf("%s: stderr lacks %q:\n%s", name, want, stderr)
		}
	}
}
