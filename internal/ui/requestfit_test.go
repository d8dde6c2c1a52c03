package ui

import (
	"reflect"
	"testing"
)

// TestRequestLineOneWordOver: a request one word too long for its line
// drops its request count (the status bar keeps the session's) rather
// than wrap that word; longer ones still wrap at spaces, whole.
func TestRequestLineOneWordOver(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
		want  []string
	}{
		{"Query T: PK = :pk · 1 req · 0.5 RCU · until 12:00 UTC", 52,
			[]string{"Query T: PK = :pk · 0.5 RCU · until 12:00 UTC"}},
		{"Query T: PK = :pk · 1 req · 0.5 RCU · until 12:00 UTC", 60,
			[]string{"Query T: PK = :pk · 1 req · 0.5 RCU · until 12:00 UTC"}},
		{"Query T: PK = :pk · 12 reqs · 0.5 RCU · from 11:00 to 12:00 UTC", 50,
			[]string{"Query T: PK = :pk · 12 reqs · 0.5 RCU · from", "11:00 to 12:00 UTC"}},
		{"history of A (3 revisions), read with the versions: no further request", 70,
			[]string{"history of A (3 revisions), read with the versions: no further", "request"}},
	} {
		if got := requestLines(tc.text, tc.width); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("requestLines(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
		}
	}
}
