package conformance

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestExpressionSizeLimit holds the embedded backend to a limit DynamoDB
// enforces and dynalite does not: 4,096 bytes per expression, counted on
// the text as sent ("Invalid FilterExpression: Expression size has
// exceeded the maximum allowed size; expression size: 4109", as DynamoDB
// answers). It cannot be a conformance case, since dynalite accepts such
// requests; the test checks that too, so the day dynalite learns the limit
// this becomes one.
func TestExpressionSizeLimit(t *testing.T) {
	ctx := context.Background()
	mem := memory.New()
	seed(t, mem)
	// Expressions of n bytes: one comparison, padded with spaces (which
	// count: the limit applies to the text as sent).
	filterOf := func(n int) *string {
		f := "Sq > :v"
		return aws.String(f + strings.Repeat(" ", n-len(f)))
	}
	projOf := func(n int) *string {
		p := "SK"
		return aws.String(p + strings.Repeat(" ", n-len(p)))
	}
	for _, tc := range []struct {
		name    string
		in      dynamodb.QueryInput
		wantErr string
	}{
		{"filter-4096", dynamodb.QueryInput{FilterExpression: filterOf(4096)}, ""},
		{"filter-4097", dynamodb.QueryInput{FilterExpression: filterOf(4097)},
			"ValidationException: Invalid FilterExpression: Expression size has exceeded the maximum allowed size; expression size: 4097"},
		{"projection-4097", dynamodb.QueryInput{ProjectionExpression: projOf(4097)},
			"ValidationException: Invalid ProjectionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.TableName = aws.String("Str")
			in.KeyConditionExpression = aws.String("PK = :pk")
			in.ExpressionAttributeValues = vals{":pk": s("USA")}
			if in.FilterExpression != nil {
				in.ExpressionAttributeValues[":v"] = n("1")
			}
			got := query(in, 1)(ctx, mem)
			if got.Err != tc.wantErr {
				t.Fatalf("embedded backend: %q, want %q", got.Err, tc.wantErr)
			}
			if dl := query(in, 1)(ctx, sharedDynalite(t)); dl.Err != "" {
				t.Logf("dynalite now rejects it too (%s): make this a conformance case", dl.Err)
			}
		})
	}
}

// TestOperatorLimit holds the embedded backend to DynamoDB's 300
// operators and functions an expression (AND, OR, NOT, comparisons,
// BETWEEN, IN, functions, size): "Invalid FilterExpression: The
// expression contains too many operators; operator count: 301", the
// count named at the first past the limit. It answered such a filter.
// Not sent to dynalite, which takes minutes over a filter of 160 ORs.
func TestOperatorLimit(t *testing.T) {
	ctx := context.Background()
	mem := memory.New()
	seed(t, mem)
	for _, tc := range []struct {
		name, expr string
		want       string
	}{
		// 150 comparisons, 149 ORs and a NOT: 300.
		{"300", "NOT " + strings.Repeat("Sq > :v OR ", 149) + "Sq > :v", ""},
		{"301", "NOT NOT " + strings.Repeat("Sq > :v OR ", 149) + "Sq > :v",
			"ValidationException: Invalid FilterExpression: The expression contains too many operators; operator count: 301"},
		// BETWEEN's AND is its own: 100 BETWEENs and 99 ANDs are 199;
		// functions count, size too: 199 + 2×51 is 301.
		{"BETWEEN and functions", strings.Repeat("Sq BETWEEN :v AND :w AND ", 99) + "Sq BETWEEN :v AND :w" + strings.Repeat(" AND size(Sq) > :v", 51),
			"ValidationException: Invalid FilterExpression: The expression contains too many operators; operator count: 301"},
	} {
		v := vals{":pk": s("USA"), ":v": n("1")}
		if strings.Contains(tc.expr, ":w") {
			v[":w"] = n("2")
		}
		in := q("Str", "PK = :pk", v, filter(tc.expr))
		if got := query(in, 1)(ctx, mem); got.Err != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got.Err, tc.want)
		}
	}
}

// TestTwoMissingAttributes holds the embedded backend to DynamoDB where
// dynalite differs: a missing attribute equals nothing, not even another
// missing one, so of two missing attributes a = b is false and a <> b
// true (as Alternator's tests, run against DynamoDB, hold: issue 8511 of
// scylladb/scylladb). The embedded backend answered <> false.
func TestTwoMissingAttributes(t *testing.T) {
	ctx := context.Background()
	mem := memory.New()
	seed(t, mem)
	all := query(q("Str", "PK = :pk", usa(nil)), 10)(ctx, mem)
	for _, tc := range []struct {
		expr string
		want int32
	}{
		{"Nothing <> Nowhere", all.Pages[0].Count},
		{"Nothing = Nowhere", 0},
		{"NOT Nothing = Nowhere", all.Pages[0].Count},
	} {
		got := query(q("Str", "PK = :pk", usa(nil), filter(tc.expr)), 10)(ctx, mem)
		if got.Err != "" || len(got.Pages) != 1 || got.Pages[0].Count != tc.want {
			t.Errorf("%s: %+v, want %d items", tc.expr, got, tc.want)
		}
	}
}

// TestInOperandLimit: DynamoDB's IN takes 100 values at most ("Invalid
// FilterExpression: The IN operator is provided with too many operands;
// number of operands: 101"); dynalite takes any number, so the embedded
// backend is held to DynamoDB here.
func TestInOperandLimit(t *testing.T) {
	ctx := context.Background()
	mem := memory.New()
	seed(t, mem)
	for _, count := range []int{100, 101} {
		v := vals{":pk": s("USA")}
		var ph []string
		for i := range count {
			k := fmt.Sprintf(":v%d", i)
			v[k], ph = s(fmt.Sprint(i)), append(ph, k)
		}
		in := q("Str", "PK = :pk", v, filter("City IN ("+strings.Join(ph, ", ")+")"))
		want := ""
		if count > 100 {
			want = "ValidationException: Invalid FilterExpression: The IN operator is provided with too many operands; number of operands: 101"
		}
		if got := query(in, 1)(ctx, mem); got.Err != want {
			t.Errorf("embedded backend, IN of %d values: %q, want %q", count, got.Err, want)
		}
		if dl := query(in, 1)(ctx, sharedDynalite(t)); count > 100 && dl.Err != "" {
			t.Logf("dynalite now refuses it too (%s): make this a conformance case", dl.Err)
		}
	}
}

// TestEmptyPartitionKeyRefused: DynamoDB refuses a Query for an empty
// partition key, on the table or an index ("The AttributeValue for a key
// attribute cannot contain an empty string value"); dynalite answers
// nothing found, so it cannot be a conformance case, and the embedded
// backend is held to DynamoDB here.
func TestEmptyPartitionKeyRefused(t *testing.T) {
	ctx := context.Background()
	mem := memory.New()
	seed(t, mem)
	for _, in := range []dynamodb.QueryInput{
		q("Str", "PK = :pk", vals{":pk": s("")}),
		q("Str", "City = :c", vals{":c": s("")}, onIndex("ByCity")),
	} {
		key := "PK"
		if in.IndexName != nil {
			key = "City"
		}
		want := "ValidationException: One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: " + key
		if got := query(in, 1)(ctx, mem); got.Err != want {
			t.Errorf("embedded backend, %s: %q, want %q", aws.ToString(in.KeyConditionExpression), got.Err, want)
		}
		if dl := query(in, 1)(ctx, sharedDynalite(t)); dl.Err != "" {
			t.Logf("dynalite now refuses it too (%s): make this a conformance case", dl.Err)
		}
	}
}

// TestEmptyStringsAsDynamoDB holds the embedded backend to DynamoDB where
// dynalite is known to differ (the differential suite keeps empty strings
// out of its items for this reason): an empty string is a value of size 0,
// inside a BETWEEN that starts at "", and a member of IN ("").
var emptySeeded dynalitetest.Seeded

func TestEmptyStringsAsDynamoDB(t *testing.T) {
	ctx := context.Background()
	emptyTable := func(w backend) {
		f := fixture{create: &dynamodb.CreateTableInput{TableName: aws.String("EmptyStr"), BillingMode: "PAY_PER_REQUEST",
			AttributeDefinitions: []types.AttributeDefinition{keyDef("PK", "S"), keyDef("SK", "S")}, KeySchema: hashRange("PK", "SK")},
			items: []item{{"PK": s("EMPTY"), "SK": s("e"), "Note": s("")}}}
		if _, err := w.CreateTable(ctx, f.create); err != nil {
			t.Fatal(err)
		}
		waitActive(t, w, "EmptyStr")
		if _, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
			"EmptyStr": {{PutRequest: &types.PutRequest{Item: f.items[0]}}}}}); err != nil {
			t.Fatal(err)
		}
	}
	mem := memory.New()
	emptyTable(mem)
	emptySeeded.Client(t, func(c *dynamodb.Client) error {
		emptyTable(c)
		return nil
	})
	for _, f := range []struct {
		filter string
		v      vals
	}{
		{"size(Note) = :z", vals{":z": n("0")}},
		{"Note BETWEEN :a AND :b", vals{":a": s(""), ":b": s("a")}},
		{"Note IN (:a, :b)", vals{":a": s(""), ":b": s("b")}},
		{"Note = :a", vals{":a": s("")}},
	} {
		v := vals{":pk": s("EMPTY")}
		for k, x := range f.v {
			v[k] = x
		}
		in := q("EmptyStr", "PK = :pk", v, filter(f.filter))
		got := query(in, 1)(ctx, mem)
		if got.Err != "" || len(got.Pages) != 1 || got.Pages[0].Count != 1 {
			t.Fatalf("%s: %+v, want the item with the empty Note", f.filter, got)
		}
		if dl := query(in, 1)(ctx, sharedDynalite(t)); dl.Err == "" && len(dl.Pages) == 1 && dl.Pages[0].Count == 1 {
			t.Logf("%s: dynalite agrees with DynamoDB here", f.filter)
		} else {
			t.Logf("%s: dynalite differs from DynamoDB here: %+v", f.filter, dl)
		}
	}
}

// TestSegmentBoundsAsDynamoDB holds the embedded backend to DynamoDB's
// bounds on a parallel Scan where dynalite checks less: at most 1,000,000
// segments (Segment at most 999,999, checked before it is compared with
// TotalSegments), and a Segment of 0 only with TotalSegments (dynalite
// tests Segment for truth, so 0 passes alone).
// They cannot be conformance cases while dynalite accepts them; the test
// checks that too, so the day dynalite learns them they become some.
func TestSegmentBoundsAsDynamoDB(t *testing.T) {
	ctx := context.Background()
	mem := memory.New()
	seed(t, mem)
	for _, tc := range []struct {
		name           string
		segment, total *int32
		wantErr        string
	}{
		{"total-above-a-million", aws.Int32(0), aws.Int32(1000001),
			"ValidationException: 1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy constraint: Member must have value less than or equal to 1000000"},
		{"segment-above-999999", aws.Int32(1000000), aws.Int32(1000000),
			"ValidationException: 1 validation error detected: Value '1000000' at 'segment' failed to satisfy constraint: Member must have value less than or equal to 999999"},
		{"segment-zero-alone", aws.Int32(0), nil,
			"ValidationException: The TotalSegments parameter is required but was not present in the request when Segment parameter is present"},
		{"a-million-segments", aws.Int32(999999), aws.Int32(1000000), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := dynamodb.ScanInput{TableName: aws.String("HashOnly"), Segment: tc.segment, TotalSegments: tc.total}
			if got := scan(in, 1)(ctx, mem); got.Err != tc.wantErr {
				t.Fatalf("embedded backend: %q, want %q", got.Err, tc.wantErr)
			}
			if dl := scan(in, 1)(ctx, sharedDynalite(t)); dl.Err == tc.wantErr && tc.wantErr != "" {
				t.Logf("dynalite now rejects it alike: make this a conformance case")
			}
		})
	}
}
