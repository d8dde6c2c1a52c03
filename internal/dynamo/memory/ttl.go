package memory

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DescribeTimeToLive says a table's Time to Live: DISABLED until
// UpdateTimeToLive enables it. Nothing expires here: as in DynamoDB,
// an expired item is read until deleted, and this backend never deletes.
func (db *DB) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, _ ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	name := aws.ToString(in.TableName)
	if name == "" {
		return nil, validation("1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null")
	}
	t, ok := db.tables[name]
	if !ok {
		return nil, &types.ResourceNotFoundException{Message: aws.String("Requested resource not found: Table: " + name + " not found")}
	}
	d := types.TimeToLiveDescription{TimeToLiveStatus: types.TimeToLiveStatusDisabled}
	if t.ttl != "" {
		d = types.TimeToLiveDescription{TimeToLiveStatus: types.TimeToLiveStatusEnabled, AttributeName: aws.String(t.ttl)}
	}
	return &dynamodb.DescribeTimeToLiveOutput{TimeToLiveDescription: &d}, nil
}

// UpdateTimeToLive turns a table's Time to Live on or off, at once (in
// DynamoDB it takes up to an hour). Like DynamoDB, it refuses to turn on
// what is on, or off what is off.
func (db *DB) UpdateTimeToLive(ctx context.Context, in *dynamodb.UpdateTimeToLiveInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	spec := in.TimeToLiveSpecification
	if spec == nil || aws.ToString(spec.AttributeName) == "" || spec.Enabled == nil {
		return nil, validation("1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy constraint: Member must not be null")
	}
	name := aws.ToString(in.TableName)
	t, ok := db.tables[name]
	if !ok {
		return nil, &types.ResourceNotFoundException{Message: aws.String("Requested resource not found: Table: " + name + " not found")}
	}
	switch on := aws.ToBool(spec.Enabled); {
	case on && t.ttl != "":
		return nil, validation("TimeToLive is already enabled")
	case !on && t.ttl == "":
		return nil, validation("TimeToLive is already disabled")
	case on:
		t.ttl = aws.ToString(spec.AttributeName)
	default:
		t.ttl = ""
	}
	return &dynamodb.UpdateTimeToLiveOutput{TimeToLiveSpecification: spec}, nil
}
