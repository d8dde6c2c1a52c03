package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestRequestLinesNeverCutAValue(t *testing.T) {
	long := `Query Locations: PK = :pk AND begins_with(SK, :prefix)   :pk="ARGENTINA" :prefix="ARGENTINA#EAST#LALA#LASANCOUNTY#ALTORGRANDE#" · 1 req · 0.5 RCU`
	huge := `Query T: PK = :pk AND begins_with(SK, :prefix)   :pk="P" :prefix="` + strings.Repeat("SEGMENT#", 40) + `END#" · 1 req · 0.5 RCU`
	cases := []struct {
		name    string
		text    string
		width   int
		lines   int
		whole   []string // must appear unbroken (joined back)
		elided  bool
		wantEnd string
	}{
		{"fits", "Query T: PK = :pk   :pk=\"A\" · 1 req · 0.5 RCU", 80, 1, []string{`:pk="A"`}, false, "0.5 RCU"},
		{"120: one line", long, 160, 1, []string{`:prefix="ARGENTINA#EAST#LALA#LASANCOUNTY#ALTORGRANDE#"`}, false, "0.5 RCU"},
		{"80: wraps, the value whole", long, 80, 2, []string{`:prefix="ARGENTINA#EAST#LALA#LASANCOUNTY#ALTORGRANDE#"`}, false, "0.5 RCU"},
		{"never at a hyphen", `Query AuditLog: Stream = :pk AND At BETWEEN :lo AND :hi   :pk="prod-api" :lo="2026-10-31T00:00:00Z" :hi="9999-12-31T23:59:59Z"  (descending) · 1 req · 2.5 RCU`, 120, 2, []string{`:hi="9999-12-31T23:59:59Z"`}, false, "2.5 RCU"},
		{"longer than two lines: the middle goes", huge, 80, 2, []string{"Query T: PK = :pk"}, true, "0.5 RCU"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := requestLines(c.text, c.width)
			if len(got) != c.lines {
				t.Fatalf("%d lines, want %d: %q", len(got), c.lines, got)
			}
			for _, l := range got {
				if ansi.StringWidth(l) > c.width-2 {
					t.Fatalf("line %q wider than %d", l, c.width-2)
				}
			}
			joined := strings.Join(got, " ")
			for _, w := range c.whole {
				if !strings.Contains(joined, w) {
					t.Fatalf("%q cut: %q", w, got)
				}
			}
			if strings.Contains(joined, "…") != c.elided {
				t.Fatalf("elided %v, want %v: %q", !c.elided, c.elided, got)
			}
			if !strings.HasSuffix(strings.TrimSpace(got[len(got)-1]), c.wantEnd) {
				t.Fatalf("does not end in %q: %q", c.wantEnd, got)
			}
		})
	}
}
