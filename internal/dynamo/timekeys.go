package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// timeSample is how many keys DetectTimeKeys reads.
const timeSample = 20

// TimeSample is the newest sort keys of a partition and the time form
// most of them hold (Detection.OK false when none does, or there were no
// keys).
type TimeSample struct {
	domain.TimeDetection
	Keys   []string // as read, newest first; numbers as their text
	Number bool
}

// DetectTimeKeys reads the newest few sort keys of a partition (under
// q.SK, typically a begins_with prefix, when set) and finds their time
// encoding: one keys-only Query with Limit 20. Keys that are not a time
// (a Metadata item) are skipped and named when most of them are.
func DetectTimeKeys(ctx context.Context, c Client, q domain.KeyQuery, tableKeys *KeySchema) (TimeSample, Cost, error) {
	q.Reverse = true
	page, err := QueryPage(ctx, c, PageRequest{Query: q, Limit: timeSample, KeysOnly: true, TableKeys: tableKeys})
	if err != nil {
		return TimeSample{}, page.Cost, err
	}
	var s TimeSample
	for _, it := range page.Items {
		switch v := it[q.SKName].(type) {
		case *types.AttributeValueMemberN:
			s.Keys, s.Number = append(s.Keys, v.Value), true
		case *types.AttributeValueMemberS:
			s.Keys = append(s.Keys, v.Value)
		}
	}
	s.TimeDetection = domain.DetectTimeSample(s.Keys, s.Number)
	return s, page.Cost, nil
}
