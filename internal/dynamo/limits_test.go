package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// countingClient counts what reaches the backend.
type countingClient struct {
	dynamo.Client
	sent int
}

func (c *countingClient) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.sent++
	return c.Client.Query(ctx, in, o...)
}

// TestSizeLimitsBeforeSending: a key value or an expression over
// DynamoDB's limits is refused with the limit named and never sent; dynalite
// (which checks key sizes only on items and start keys) and the embedded
// backend are both behind the check; one byte under passes.
func TestSizeLimitsBeforeSending(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	mem := memory.New()
	backends := map[string]dynamo.Client{"memory": mem}
	if srv := dynalitetest.Shared(t); srv != nil {
		backends["dynalite"] = srv.Client()
	}
	long := func(n int) string { return strings.Repeat("x", n) }
	filterOf := func(clauses int) domain.FilterNode {
		var parts []string
		for i := range clauses {
			parts = append(parts, fmt.Sprintf("Notes = %d", i))
		}
		f, err := domain.ParseFilter(strings.Join(parts, " or "))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for name, c := range backends {
		w := c.(dynamo.Writer)
		if err := demo.CreateKeyTable(ctx, w, "Limits", "S", nil); err != nil && !strings.Contains(err.Error(), "exists") {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			what string
			q    domain.KeyQuery
			want string // "": allowed
		}{
			{"pk 2048", domain.KeyQuery{PK: domain.S(long(2048))}, ""},
			{"pk 2049", domain.KeyQuery{PK: domain.S(long(2049))}, "the partition key value is 2049 bytes, over DynamoDB's limit of 2048"},
			{"sk 1024", domain.KeyQuery{PK: domain.S("p"), SK: domain.SKCondition{Op: domain.SKGe, A: domain.S(long(1024))}}, ""},
			{"sk 1025", domain.KeyQuery{PK: domain.S("p"), SK: domain.SKCondition{Op: domain.SKGe, A: domain.S(long(1025))}}, "the sort key value is 1025 bytes, over DynamoDB's limit of 1024"},
			{"between hi 1025", domain.KeyQuery{PK: domain.S("p"), SK: domain.SKCondition{Op: domain.SKBetween, A: domain.S("a"), B: domain.S("b" + long(1024))}}, "sort key value is 1025 bytes"},
			{"filter 10 clauses", domain.KeyQuery{PK: domain.S("p"), Filter: filterOf(10)}, ""},
			{"filter 500 clauses", domain.KeyQuery{PK: domain.S("p"), Filter: filterOf(500)}, "over DynamoDB's 4 KiB expression limit"},
		} {
			tc.q.Table, tc.q.PKName, tc.q.SKName = "Limits", "PK", "SK"
			t.Logf("%s %s", name, tc.what)
			cc := &countingClient{Client: c}
			_, err := dynamo.QueryPage(ctx, dynamo.NewMetered(cc), dynamo.PageRequest{Query: tc.q})
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%s %s: %v", name, tc.what, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || cc.sent != 0):
				t.Errorf("%s %s: %v (sent %d), want %q before sending", name, tc.what, err, cc.sent, tc.want)
			}
		}
	}
	if err := dynamo.CheckScan(&dynamodb.ScanInput{TableName: aws.String("T"), ProjectionExpression: aws.String(long(4097))}); err == nil || !strings.Contains(err.Error(), "projection expression is 4097 bytes") {
		t.Errorf("scan projection: %v", err)
	}
}
