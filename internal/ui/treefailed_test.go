package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// refusingQueries answers every Query as DynamoDB answered the keys-only
// projection that named an index's shared key twice.
type refusingQueries struct{ dynamo.Client }

func (refusingQueries) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, &smithy.GenericAPIError{Code: "ValidationException", Fault: smithy.FaultClient,
		Message: "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [PK], path two: [PK]"}
}

// TestTreeFailedReadIsNotEmpty: a drill-down whose first read fails says
// so where the children would be, never "Nothing under this prefix".
func TestTreeFailedReadIsNotEmpty(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Client: refusingQueries{demoData(t)}, Table: "Locations", PK: "USA", Delimiter: "#"})
		h.contains(t, "USA · read failed · nothing loaded · r retries", "read failed: ValidationException")
		if s := h.screen(); strings.Contains(s, "Nothing under this prefix") {
			t.Fatalf("a failed read shown as an empty level:\n%s", s)
		}
	}
}
