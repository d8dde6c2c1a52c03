package pages

import (
	"testing"
	"time"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// TestFollowCostSaysSoFarBeforeAMinute: the title's cost of following is
// what was spent until it has run for dynamo.RateWindow, then a rate a
// minute: the first poll, sent at once, read over its milliseconds as a
// rate said "14,434.0 RCU est. a minute" of polls costing 30.
func TestFollowCostSaysSoFarBeforeAMinute(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		after  time.Duration
		billed float64
		est    bool
		want   string
	}{
		{"the first poll, 2 ms in", 2 * time.Millisecond, 0.5, true, "0.5 RCU est. so far"},
		{"just under a minute", 59 * time.Second, 29.5, false, "29.5 RCU so far"},
		{"a minute", time.Minute, 30, false, "30.0 RCU a minute"},
		{"two minutes", 2 * time.Minute, 60, true, "30.0 RCU est. a minute"},
		{"nothing yet", 0, 0, false, "0.0 RCU so far"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := dynamo.FollowStats{Started: t0, Cost: dynamo.Cost{Billed: c.billed, Estimated: c.est}}
			if got := followRate(s, t0.Add(c.after)); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}
