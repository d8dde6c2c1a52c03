package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/model"
)

// timeSample is how many keys DetectTimeKeys reads.
const timeSample = 20

// DetectTimeKeys reads the newest few sort keys of a partition (under
// q.SK, typically a begins_with prefix, when set) and finds their time
// encoding: one keys-only Query with Limit 20. ok is false when the keys
// hold no time, or none were found.
func DetectTimeKeys(ctx context.Context, c Client, q model.KeyQuery, tableKeys *KeySchema) (model.TimeEncoding, bool, Cost, error) {
	q.Reverse = true
	page, err := QueryPage(ctx, c, PageRequest{Query: q, Limit: timeSample, KeysOnly: true, TableKeys: tableKeys})
	if err != nil {
		return model.TimeEncoding{}, false, page.Cost, err
	}
	var sample []string
	number := false
	for _, it := range page.Items {
		switch v := it[q.SKName].(type) {
		case *types.AttributeValueMemberN:
			sample, number = append(sample, v.Value), true
		case *types.AttributeValueMemberS:
			sample = append(sample, v.Value)
		}
	}
	enc, ok := model.DetectTime(sample, number)
	return enc, ok, page.Cost, nil
}
