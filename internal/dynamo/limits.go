package dynamo

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DynamoDB's size limits on what a read may send: a request over one is
// refused here, before sending, with the limit named, instead of by the
// server (or, worse, by a backend that does not check).
const (
	MaxExpressionBytes = 4096 // each expression string: key condition, filter, projection
	MaxPKValueBytes    = 2048 // a partition key value
	MaxSKValueBytes    = 1024 // a sort key value
)

var valueRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`:[A-Za-z0-9_]+`) })

// CheckQuery refuses a Query that breaks a size limit.
func CheckQuery(in *dynamodb.QueryInput) error {
	op := "query " + aws.ToString(in.TableName)
	for _, e := range []struct{ name, text string }{
		{"key condition", aws.ToString(in.KeyConditionExpression)},
		{"filter", aws.ToString(in.FilterExpression)},
		{"projection", aws.ToString(in.ProjectionExpression)},
	} {
		if err := checkExpression(op, e.name, e.text); err != nil {
			return err
		}
	}
	// The expression builder writes the partition key's condition first:
	// its value is the first one named, every later one a sort key's.
	for i, ref := range valueRef().FindAllString(aws.ToString(in.KeyConditionExpression), -1) {
		limit, which := MaxSKValueBytes, "sort key"
		if i == 0 {
			limit, which = MaxPKValueBytes, "partition key"
		}
		if n := valueBytes(in.ExpressionAttributeValues[ref]); n > limit {
			return Errorf(op, KindValidation, fmt.Sprintf("shorten it: DynamoDB allows a %s value of at most %d bytes", which, limit),
				"the %s value is %d bytes, over DynamoDB's limit of %d", which, n, limit)
		}
	}
	return nil
}

// CheckScan refuses a Scan that breaks a size limit.
func CheckScan(in *dynamodb.ScanInput) error {
	op := "scan " + aws.ToString(in.TableName)
	if err := checkExpression(op, "filter", aws.ToString(in.FilterExpression)); err != nil {
		return err
	}
	return checkExpression(op, "projection", aws.ToString(in.ProjectionExpression))
}

func checkExpression(op, name, text string) error {
	if len(text) > MaxExpressionBytes {
		return Errorf(op, KindValidation, fmt.Sprintf("make the %s shorter: DynamoDB allows an expression of at most 4 KiB (%d bytes)", name, MaxExpressionBytes),
			"the %s expression is %d bytes, over DynamoDB's 4 KiB expression limit", name, len(text))
	}
	return nil
}

// valueBytes is a key value's size as DynamoDB counts it.
func valueBytes(v types.AttributeValue) int {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return len(x.Value)
	case *types.AttributeValueMemberN:
		return len(x.Value)
	case *types.AttributeValueMemberB:
		return len(x.Value)
	}
	return 0
}
