package cli

import (
	"strings"
	"testing"
	"time"
)

// TestChangesWindowIsTheRangeGrammar: changes' --since and --from are
// read as range reads --last and times (domain.WindowStart): --from takes
// "1h ago", "now" and epoch seconds as range does, and --since takes the
// same spans as --last, no other.
func TestChangesWindowIsTheRangeGrammar(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		since, from string
		want        time.Time
		err         string
	}{
		{"1h", "", now.Add(-time.Hour), ""},
		{"", "1h ago", now.Add(-time.Hour), ""},
		{"", "now", now, ""},
		{"", "1795514400", time.Unix(1795514400, 0).UTC(), ""},
		{"2w", "", time.Time{}, "DynamoDB keeps a stream's records 24 hours"},
		{"1.5h", "", time.Time{}, `--since "1.5h" is not a span`},
		{"", "noon", time.Time{}, "--from "},
	} {
		got, err := changesOptions{since: c.since, from: c.from}.window(now)
		if c.err == "" && (err != nil || !got.Equal(c.want)) || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("--since %q --from %q: %v (%v), want %v %q", c.since, c.from, got, err, c.want, c.err)
		}
	}
}
