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
// DynamoDB's limits (its bytes, its 300 operators) is refused with the
// limit named and never sent (dynalite works at an or of 150 for
// minutes: what passes the operators' check is run on the embedded
// backend alone); dynalite
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
			// 150 comparisons and 149 ORs, with the key condition's = and
			// begins_with's AND (BETWEEN's is none) in their own expression;
			// one more comparison and OR pass 300 (DynamoDB: "The expression
			// contains too many operators; operator count: 301"), in 2 KB.
			{"filter 299 operators", domain.KeyQuery{PK: domain.S("p"), Filter: filterOf(150)}, ""},
			{"filter 301 operators", domain.KeyQuery{PK: domain.S("p"), Filter: filterOf(151)}, "holds 301 operators and functions, over DynamoDB's limit of 300"},
			{"filter 299 operators beside a BETWEEN", domain.KeyQuery{PK: domain.S("p"), SK: domain.SKCondition{Op: domain.SKBetween, A: domain.S("a"), B: domain.S("b")}, Filter: filterOf(150)}, ""},
			{"filter 301 operators beside a BETWEEN", domain.KeyQuery{PK: domain.S("p"), SK: domain.SKCondition{Op: domain.SKBetween, A: domain.S("a"), B: domain.S("b")}, Filter: filterOf(151)}, "holds 301 operators"},
		} {
			tc.q.Table, tc.q.PKName, tc.q.SKName = "Limits", "PK", "SK"
			if name == "dynalite" && tc.want == "" && strings.Contains(tc.what, "operators") {
				continue // dynalite works at an or of 150 for minutes
			}
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
