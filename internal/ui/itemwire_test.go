package ui

import (
	"strings"
	"testing"
)

// TestItemHelpNamesWhatDShows: d toggles between plain and DynamoDB JSON,
// so its help names the form it switches to, in the short help and in ?.
func TestItemHelpNamesWhatDShows(t *testing.T) {
	cfg := Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"}
	for _, tc := range []struct {
		keys      []string
		want, not string
	}{
		{[]string{"2", "enter"}, "d DynamoDB JSON", "d plain JSON"},
		{[]string{"2", "enter", "d"}, "d plain JSON", "d DynamoDB JSON"},
		{[]string{"2", "enter", "d", "?"}, "d plain JSON", "d DynamoDB JSON"},
		{[]string{"2", "enter", "d", "d", "?"}, "d DynamoDB JSON", "d plain JSON"},
	} {
		h := newHarness(t, 200, 50, cfg)
		h.keys(tc.keys...)
		scr := strings.Join(strings.Fields(h.screen()), " ")
		if !strings.Contains(scr, tc.want) || strings.Contains(scr, tc.not) {
			t.Errorf("after %v: want %q and not %q in\n%s", tc.keys, tc.want, tc.not, h.screen())
		}
	}
}
