package domain

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestReadTTL(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	secs := func(d time.Duration) json.Number { return json.Number(itoa64(now.Add(d).Unix())) }
	for _, tc := range []struct {
		name    string
		v       any
		present bool
		kind    TTLKind
		words   string
	}{
		{"ahead", secs(3*time.Hour + 20*time.Minute), true, TTLLive, "expires in 3h 20m"},
		{"past", secs(-(52 * time.Hour)), true, TTLExpired, "expired 2d 4h ago, not yet deleted"},
		{"a moment ago", secs(-45 * time.Second), true, TTLExpired, "expired 45s ago, not yet deleted"},
		// DynamoDB's TTL ignores a time more than five years back.
		{"five years ago less a day", json.Number(itoa64(now.AddDate(-5, 0, 1).Unix())), true, TTLExpired, "expired 5y"},
		{"five years and a day ago", json.Number(itoa64(now.AddDate(-5, 0, -1).Unix())), true, TTLTooOld, "never: 5y 2d in the past (TTL ignores a time more than five years back)"},
		{"zero", json.Number("0"), true, TTLTooOld, "never: 56y"},
		{"fractional seconds", json.Number(itoa64(now.Unix()+90) + ".5"), true, TTLLive, "expires in 1m 30s"},
		{"milliseconds", json.Number(itoa64(now.Add(time.Hour).UnixMilli())), true, TTLMilliseconds, "never: milliseconds (TTL reads seconds; meant 2026-11-26 13:00:00 UTC?)"},
		{"microseconds", json.Number(itoa64(now.UnixMicro())), true, TTLMilliseconds, "never: microseconds"},
		{"a String of seconds", itoa64(now.Unix() + 60), true, TTLWrongType, "never: a String"},
		{"a Boolean", true, true, TTLWrongType, "never: a Boolean"},
		{"a string set", []string{"1"}, true, TTLWrongType, "never: a set (SS)"},
		{"missing", nil, false, TTLMissing, "never: no TTL attribute"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := ReadTTL(tc.v, tc.present, now)
			if v.Kind != tc.kind || !strings.HasPrefix(v.Words(now), tc.words) {
				t.Errorf("got %s %q, want %s %q", v.Kind, v.Words(now), tc.kind, tc.words)
			}
		})
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

func TestSpan(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 59 * time.Second: "59s", time.Minute: "1m", 61 * time.Second: "1m 1s", 3 * time.Hour: "3h",
		49 * time.Hour: "2d 1h", -2 * time.Minute: "2m", 200 * 24 * time.Hour: "200d", 400 * 24 * time.Hour: "1y 35d", 730 * 24 * time.Hour: "2y",
	} {
		if got := Span(d); got != want {
			t.Errorf("Span(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestItemSizeWords(t *testing.T) {
	for _, tc := range []struct {
		bytes int
		words string
		warn  bool
	}{
		{200, "200 B", false},
		{1536, "1.5 KB", false},
		{300 * 1024, "300.0 KB", false},
		{300*1024 + 1, "300.0 KB of the 400 KB limit: 75%", true},
		{390 * 1024, "390.0 KB of the 400 KB limit: 98%", true},
	} {
		if words, warn := ItemSizeWords(tc.bytes); words != tc.words || warn != tc.warn {
			t.Errorf("ItemSizeWords(%d) = %q %v, want %q %v", tc.bytes, words, warn, tc.words, tc.warn)
		}
	}
}

// FuzzReadTTL: any number text reads as one kind, never panics, and a
// live or expired value is on the right side of now.
func FuzzReadTTL(f *testing.F) {
	for _, s := range []string{"1764158400", "1764158400000", "1764158400000000", "-5", "0", "1.5e9", "99999999999999999999999999999999999999", "1E-130"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		v := ReadTTL(json.Number(s), true, now)
		switch v.Kind {
		case TTLLive:
			if !v.At.After(now) {
				t.Errorf("%q: live at %v", s, v.At)
			}
		case TTLExpired:
			if v.At.After(now) {
				t.Errorf("%q: expired at %v", s, v.At)
			}
		case TTLTooOld:
			if !v.At.Before(now.AddDate(-5, 0, 0)) {
				t.Errorf("%q: too old at %v", s, v.At)
			}
		case TTLMilliseconds, TTLWrongType:
		default:
			t.Errorf("%q: kind %q", s, v.Kind)
		}
		_ = v.Words(now)
	})
}
