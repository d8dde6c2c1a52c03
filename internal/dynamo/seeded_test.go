package dynamo_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// seededTable is a test file's table, made once on the shared dynalite.
type seededTable struct{ dl dynalitetest.Seeded }

// seededBackends is a fresh embedded backend and the shared dynalite, each
// holding the table create makes (on dynalite, made once per run).
func seededBackends(t *testing.T, s *seededTable, create func(context.Context, dynamo.Writer) error) map[string]dynamo.Client {
	t.Helper()
	ctx := context.Background()
	mem := memory.New()
	if err := create(ctx, mem); err != nil {
		t.Fatal(err)
	}
	dl := s.dl.Client(t, func(c *dynamodb.Client) error { return create(ctx, c) })
	return map[string]dynamo.Client{"memory": mem, "dynalite": dl}
}

// partitionsTable makes table (PK and SK strings) holding, for each
// partition key, an item keyed by each of its sort keys.
func partitionsTable(table string, parts map[string][]string) func(context.Context, dynamo.Writer) error {
	return func(ctx context.Context, w dynamo.Writer) error {
		var items []dynamo.Item
		for pk, keys := range parts {
			for _, k := range keys {
				items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: k}})
			}
		}
		return demo.CreateKeyTable(ctx, w, table, "S", items)
	}
}
