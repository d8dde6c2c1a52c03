package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// timeSample is how many keys DetectTimeKeys reads.
const timeSample = 20

// TimeSample is the newest and oldest sort keys of a partition and the
// time form most of them hold (Detection.OK false when none does, or there
// were no keys).
type TimeSample struct {
	domain.TimeDetection
	Keys   []string // as read: the newest first, then the oldest not already read; numbers as their text
	Number bool
}

// DetectTimeKeys reads the newest and the oldest few sort keys of a
// partition (under q.SK, typically a begins_with prefix, when set) and
// finds their time encoding: two keys-only Queries with Limit 20 (one
// when the first reached the end). The oldest keys are the other prefixes'
// in a partition of several (comm#… before metadata), and a small
// partition is read whole. Keys that are not a time (a Metadata item) are
// skipped and named when most of them are times.
func DetectTimeKeys(ctx context.Context, c Client, q domain.KeyQuery, tableKeys *KeySchema) (TimeSample, Cost, error) {
	var s TimeSample
	var total Cost
	seen := map[string]bool{}
	for _, reverse := range []bool{true, false} {
		q.Reverse = reverse
		page, err := QueryPage(ctx, c, PageRequest{Query: q, Limit: timeSample, KeysOnly: true, TableKeys: tableKeys})
		total = total.Add(page.Cost)
		if err != nil {
			return TimeSample{}, total, err
		}
		for _, it := range page.Items {
			var k string
			switch v := it[q.SKName].(type) {
			case *types.AttributeValueMemberN:
				k, s.Number = v.Value, true
			case *types.AttributeValueMemberS:
				k = v.Value
			default:
				continue
			}
			if !seen[k] { // on an index, keys repeat: each is counted once
				seen[k] = true
				s.Keys = append(s.Keys, k)
			}
		}
		if !page.More() {
			break // the newest page held the whole partition
		}
	}
	s.TimeDetection = domain.DetectTimeSample(s.Keys, s.Number)
	return s, total, nil
}
