package ui

import (
	"reflect"
	"strings"
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

// TestRequestLineKeepsNumbersWithTheirWords: a wrap never ends a line
// with a number whose word starts the next ("following: 13" / "GetRecords",
// "skip-scan 4" / "req"), nor a label with its figure on the next line.
func TestRequestLineKeepsNumbersWithTheirWords(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
		want  []string
	}{
		{"stream of Shop · listed: 1 shard · 11 records · 2 GetRecords · following: 13 GetRecords · 13 records · 0 RCU", 80,
			[]string{"stream of Shop · listed: 1 shard · 11 records · 2 GetRecords ·", "following: 13 GetRecords · 13 records · 0 RCU"}},
		{"stream of Shop · listed: 1 shard · 10 records · 2 GetRecords · following: 6 GetRecords · 12 records · 0 RCU", 80,
			[]string{"stream of Shop · listed: 1 shard · 10 records · 2 GetRecords ·", "following: 6 GetRecords · 12 records · 0 RCU"}},
		{`Query Locations: PK = :pk AND begins_with(SK, :prefix)   :pk="‹m2›" :prefix="‹m1›#" · skip-scan 4 req · 2.5 RCU`, 100,
			[]string{`Query Locations: PK = :pk AND begins_with(SK, :prefix)   :pk="‹m2›" :prefix="‹m1›#" · skip-scan`, "4 req · 2.5 RCU"}},
		{"Scan Locations  IndexName: ByCity  ProjectionExpression: City, SK  (keys only) · 4 pages · 3,100 keys read · 0 jumps past a partition's keys", 100,
			[]string{"Scan Locations  IndexName: ByCity  ProjectionExpression: City, SK  (keys only) · 4 pages ·", "3,100 keys read · 0 jumps past a partition's keys"}},
	} {
		got := requestLines(tc.text, tc.width)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("requestLines(%q, %d) =\n%q, want\n%q", tc.text, tc.width, got, tc.want)
		}
		for _, l := range got[:len(got)-1] {
			f := strings.Fields(l)
			if last := f[len(f)-1]; figure.MatchString(last) || label.MatchString(last) {
				t.Errorf("a line ends with %q, its word on the next: %q", last, got)
			}
		}
	}
}
