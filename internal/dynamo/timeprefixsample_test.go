package dynamo_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

var middleSeeded seededTable

// TestDetectTimeSeesEveryPrefix (26.2): a partition of three prefixes
// holding times (AUDIT#, EVENT#, ZETA#): the newest 20 and the oldest 20
// keys are all AUDIT# and ZETA#, so detection samples each prefix between
// them, from both ends, to see EVENT#'s keys, at a bounded cost.
func TestDetectTimeSeesEveryPrefix(t *testing.T) {
	backends := seededBackends(t, &middleSeeded, func(ctx context.Context, w dynamo.Writer) error {
		s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
		var items []dynamo.Item
		at := time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC)
		for i := range 30 {
			items = append(items, dynamo.Item{"PK": s("p"), "SK": s("AUDIT#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))},
				dynamo.Item{"PK": s("p"), "SK": s("ZETA#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))})
		}
		for i := range 8 {
			items = append(items, dynamo.Item{"PK": s("p"), "SK": s("EVENT#" + at.AddDate(-1, 0, i).Format(time.RFC3339))})
		}
		return demo.CreateKeyTable(ctx, w, "Middle", "S", items)
	})
	for name, c := range backends {
		q := domain.KeyQuery{Table: "Middle", PKName: "PK", PK: domain.S("p"), SKName: "SK"}
		s, cost, err := dynamo.DetectTimeKeys(context.Background(), c, q, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !s.OK || !s.Enc.NeedsPrefix() {
			t.Fatalf("%s: no time seen in %d keys %q", name, len(s.Keys), s.Keys)
		}
		var events []string
		for _, k := range s.Keys {
			if strings.HasPrefix(k, "EVENT#") {
				events = append(events, k)
			}
		}
		// The oldest and the newest EVENT# keys are in the sample: the
		// prefix's two ends, 3 keys each.
		if len(events) != 6 || !slices.Contains(events, "EVENT#2020-03-01T00:00:00Z") || !slices.Contains(events, "EVENT#2020-03-08T00:00:00Z") {
			t.Fatalf("%s: EVENT# keys sampled %q of %q", name, events, s.Keys)
		}
		// Two reads of 20 keys, then past AUDIT# (EVENT#'s oldest 3),
		// EVENT#'s newest 3, and past EVENT# (ZETA#, which the newest keys
		// hold: the walk stops): 5 keys-only requests of 0.5 RCU.
		if cost.Requests != 5 || cost.RCU != 2.5 {
			t.Fatalf("%s: cost %+v", name, cost)
		}
	}
}
