package dynamo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestDeleteTableBothBackends: seed --replace's DeleteTable answers the
// same on dynalite and the embedded backend: a table is gone after it,
// and a table that is not there is ResourceNotFoundException.
func TestDeleteTableBothBackends(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	backends := map[string]dynamo.Writer{"memory": memory.New(), "dynalite": dynalitetest.Shared(t).Client()}
	for name, w := range backends {
		if err := demo.CreateKeyTable(ctx, w, "Doomed", "S", nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := w.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("Doomed")}); err != nil {
			t.Fatalf("%s: delete: %v", name, err)
		}
		var notFound *types.ResourceNotFoundException
		var err error
		for range 200 { // a server may take a moment (DELETING)
			_, err = w.(dynamo.Client).DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Doomed")})
			if err != nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if !errors.As(err, &notFound) {
			t.Errorf("%s: after delete, describe says %v", name, err)
		}
		if _, err := w.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("Doomed")}); !errors.As(err, &notFound) {
			t.Errorf("%s: deleting a missing table: %v", name, err)
		}
	}
}
