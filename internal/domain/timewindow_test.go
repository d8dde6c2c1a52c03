package domain

import (
	"errors"
	"testing"
	"time"
)

// TestWindowStart: a window's start as changes' --since and --from give
// it, read by the range bar's grammar: since X is where "last X" starts,
// from X where "since X" does.
func TestWindowStart(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339Nano, s); return v }
	for _, c := range []struct {
		since, from string
		want        time.Time
		bad         string // "since", "from" or "both": which the error names
	}{
		{"", "", time.Time{}, ""},
		{"1h", "", now.Add(-time.Hour), ""},
		{"90m", "", now.Add(-90 * time.Minute), ""},
		{"1h30m", "", now.Add(-90 * time.Minute), ""},
		{"1d", "", now.Add(-24 * time.Hour), ""},
		{"2w", "", now.Add(-14 * 24 * time.Hour), ""},
		{" 15m ", "", now.Add(-15 * time.Minute), ""},
		{"0s", "", time.Time{}, "since"},
		{"-1h", "", time.Time{}, "since"},
		{"1.5h", "", time.Time{}, "since"},
		{"1h ago", "", time.Time{}, "since"},
		{"9999999999h", "", time.Time{}, "since"},
		{"h", "", time.Time{}, "since"},
		{"", "2026-11-24T10:00Z", at("2026-11-24T10:00:00Z"), ""},
		{"", "2026-11-24", at("2026-11-24T00:00:00Z"), ""},
		{"", "2026-11-24T10:00:00+02:00", at("2026-11-24T08:00:00Z"), ""},
		{"", "1764000000", time.Unix(1764000000, 0).UTC(), ""},
		{"", "now", now, ""},
		{"", "15m ago", now.Add(-15 * time.Minute), ""},
		{"", "NOW", now, ""},
		{"", "yesterday-ish", time.Time{}, "from"},
		{"", "   ", time.Time{}, "from"},
		{"", "2026-13-01", time.Time{}, "from"},
		{"1h", "2026-11-24", time.Time{}, "both"},
	} {
		got, err := WindowStart(c.since, c.from, now, time.UTC)
		var we *WindowError
		switch {
		case c.bad == "" && (err != nil || !got.Equal(c.want)):
			t.Errorf("since %q from %q: %v (%v), want %v", c.since, c.from, got, err, c.want)
		case c.bad != "" && !errors.As(err, &we):
			t.Errorf("since %q from %q: %v (%v), want a WindowError", c.since, c.from, got, err)
		case c.bad != "" && (we.Both != (c.bad == "both") || we.Since != (c.bad == "since") || err.Error() == ""):
			t.Errorf("since %q from %q: %+v names the wrong flag, want %s", c.since, c.from, we, c.bad)
		}
	}
}

// FuzzWindowStart: whatever the flags say, the start is refused with a
// WindowError or is exactly where the range bar's "last X" or "since X"
// starts: one grammar.
func FuzzWindowStart(f *testing.F) {
	for _, s := range []string{"1h", "24h", "25h", "1d", "2d", "90m", "0s", "-1h", "1h30m", "9999999999h", "2026-11-24T10:00Z", "1764000000", "now", "15m ago", ""} {
		f.Add(s, "")
		f.Add("", s)
	}
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, since, from string) {
		start, err := WindowStart(since, from, now, time.UTC)
		if err != nil {
			var we *WindowError
			if !errors.As(err, &we) || err.Error() == "" {
				t.Fatalf("since %q from %q: %v", since, from, err)
			}
			return
		}
		switch {
		case since != "":
			r, err := ParseRange("last "+since, now, time.UTC)
			if err != nil || !r.From.Equal(start) || !start.Before(now) {
				t.Fatalf("since %q starts at %v; last %q: %v (%v)", since, start, since, r.From, err)
			}
		case from != "":
			r, err := ParseRange("since "+from, now, time.UTC)
			if err != nil || !r.From.Equal(start) {
				t.Fatalf("from %q starts at %v; since %q: %v (%v)", from, start, from, r.From, err)
			}
		default:
			if !start.IsZero() {
				t.Fatalf("no flags, start %v", start)
			}
		}
	})
}
