package conformance

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/dynamo/memory"
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
