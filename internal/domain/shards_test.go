package domain

import (
	"strings"
	"testing"
)

func TestExpandPartitions(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{"seattle-{1..4}", "seattle-1 seattle-2 seattle-3 seattle-4", ""},
		{"room-{01..03}", "room-01 room-02 room-03", ""},
		{"{a,b}-{1..2}", "a-1 a-2 b-1 b-2", ""},
		{"plain", "plain", ""},
		{`lit\{x\}`, "lit{x}", ""},
		{"x{1..", "", "never closed"},
		{"x}", "", "closes nothing"},
		{"{4..1}", "", "backwards"},
		{"{a..b}", "", "whole numbers"},
		{"{}", "", "empty"},
		{"{1..2000}", "", "more than"},
		{"{1..40}{1..40}", "", "more than 1000"},
	} {
		got, err := ExpandPartitions(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(got, " ") != tc.want {
			t.Errorf("%q = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if !IsPattern("seattle-{1..4}") || IsPattern(`a\{b`) || IsPattern("plain") {
		t.Error("IsPattern")
	}
}

// FuzzExpandPartitions: any text expands within the bound or is refused
// with a message; never a panic or an empty expansion.
func FuzzExpandPartitions(f *testing.F) {
	for _, s := range []string{"seattle-{1..4}", "{a,b}", "{01..10}", `\{`, "{", "}", "{1..999999999999}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := ExpandPartitions(s)
		if err != nil {
			if !strings.Contains(err.Error(), "pattern") {
				t.Fatalf("error without context: %v", err)
			}
			return
		}
		if len(out) == 0 || len(out) > MaxShards {
			t.Fatalf("%q expanded to %d", s, len(out))
		}
	})
}
