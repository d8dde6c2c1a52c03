package memory

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DeleteTable drops a table and its items (for `seed --replace`); a table
// that is not there is DynamoDB's ResourceNotFoundException.
func (db *DB) DeleteTable(ctx context.Context, in *dynamodb.DeleteTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	name := aws.ToString(in.TableName)
	t, err := db.table(name)
	if err != nil {
		return nil, &types.ResourceNotFoundException{Message: aws.String("Requested resource not found: Table: " + name + " not found")}
	}
	d := t.describe()
	d.TableStatus = types.TableStatusDeleting
	delete(db.tables, name)
	return &dynamodb.DeleteTableOutput{TableDescription: &d}, nil
}
