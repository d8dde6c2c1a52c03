package memory

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// A budgeted search reads whole items and applies its filter and
// projection itself, so that it knows the size of every item it is billed
// for (dynamo.SetLocalMatcher): it does so with this backend's evaluator,
// the one the conformance suite holds to DynamoDB's answers.
func init() { dynamo.SetLocalMatcher(localMatcher) }

func localMatcher(filter, projection *string, names map[string]string, values map[string]types.AttributeValue) (func(dynamo.Item) (dynamo.Item, bool), error) {
	// The values as a request would carry them: a number DynamoDB cannot
	// hold (1e400, 39 digits) is refused, not compared and matched by none.
	if err := (expressions{values: values}).checkValues(); err != nil {
		return nil, err
	}
	used := map[string]bool{}
	var cond *node
	var paths []path
	var err error
	if filter != nil {
		if cond, err = parseCondition(*filter, names, values, used); err != nil {
			return nil, err
		}
	}
	if projection != nil {
		if paths, err = parseProjection(*projection, names, used); err != nil {
			return nil, err
		}
	}
	return func(it dynamo.Item) (dynamo.Item, bool) {
		if cond != nil && !cond.match(it) {
			return nil, false
		}
		if paths != nil {
			return project(it, paths), true
		}
		return it, true
	}, nil
}
