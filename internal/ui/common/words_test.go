package common

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

func TestExplorerWords(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"is the server running? check --endpoint-url and --region", "is the server running? check the endpoint and the region"},
		{"export to x.csv: --output: open x.csv: permission denied", "export to x.csv: the file: open x.csv: permission denied"},
		{"set AWS_PROFILE or pass --profile, or try --demo", "set AWS_PROFILE or pass the profile, or try the demo"},
		{"--some-new-flag is wrong", "some new flag is wrong"},
		{"a - b -- c", "a - b -- c"},
		{"no flags here", "no flags here"},
	} {
		if got := ExplorerWords(c.in); got != c.want {
			t.Errorf("ExplorerWords(%q) = %q, want %q", c.in, got, c.want)
		}
		if strings.Contains(ExplorerWords(c.in), "--") && c.in != "a - b -- c" {
			t.Errorf("%q still names a flag", c.in)
		}
	}
}

func TestMiddleCut(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"query Wide: ThrottlingException — wait and retry", 21, "query Wide… and retry"},
		{"abcdef", 5, "ab…ef"},
		{"\x1b[31mabcdef\x1b[0m", 5, "ab…ef"},
		{"abcdef", 1, "a"},
	} {
		got := MiddleCut(c.in, c.width)
		if ansi.Strip(got) != c.want || ansi.StringWidth(got) > c.width {
			t.Errorf("MiddleCut(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}

// TestClauseCut: a status-bar error or hint cut at its clauses keeps its
// last (what to do) whole and cuts the words before it after a whole
// word, never mid-word ("count: stopped …RCU; c counts on" was a middle
// cut); where the last clause is too long, the end from a clause's or
// word's start.
func TestClauseCut(t *testing.T) {
	const stop = "count: stopped at the count budget of 2 RCU; c counts on"
	const hint = " — 2.0 RCU spent counting in all; 51 of 53 counted, those marked … are partial; each c reads on with another 2 RCU, reading nothing twice"
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{stop, 80, stop},
		{stop, 32, "count: stopped at…; c counts on"},
		{hint, 96, " — 2.0 RCU spent counting in all…; each c reads on with another 2 RCU, reading nothing twice"},
		{hint, 45, " — 2.0 RCU spent…reading nothing twice"},
		{"no clause here at all", 12, "no…at all"},
		{"follow reference: no attribute of this item can name a partition of Bin or its indexes", 60,
			"follow reference: no…a partition of Bin or its indexes"},
		{"nowordbreakshereatall", 12, MiddleCut("nowordbreakshereatall", 12)},
	} {
		got := ClauseCut(c.in, c.width)
		if got != c.want || ansi.StringWidth(got) > c.width {
			t.Errorf("ClauseCut(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
	// Where no whole word fits before the end kept, it says it cannot
	// (the status bar leaves the hint out): it had read "— 2.0 RC…twice".
	if got, ok := ClauseCutWords(hint, 16); ok {
		t.Errorf("ClauseCutWords(hint, 16) = %q, cut at words", got)
	}
}

// TestLatencyThreeFigures (25.21): a duration is said to three figures at
// most, never 1.9864s.
func TestLatencyThreeFigures(t *testing.T) {
	for d, want := range map[time.Duration]string{
		1986400 * time.Microsecond: "1.99s",
		12345 * time.Microsecond:   "12ms",
		1234567 * time.Nanosecond:  "1.2ms",
		34 * time.Second:           "34s",
		420 * time.Microsecond:     "400µs",
		20 * time.Microsecond:      "<50µs", // rounded, "0s": as if no time
	} {
		if got := Latency(d); got != want {
			t.Errorf("Latency(%v) = %s, want %s", d, got, want)
		}
	}
}

// TestWrapFitsItsWidth: no wrapped line is wider than asked, where a word
// ends exactly at the width (ansi.Wrap keeps the space after it), and a
// word is never broken at a hyphen ("--" and "table" of a command to
// copy); only a word wider than a line is cut.
func TestWrapFitsItsWidth(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
	}{
		{"dynascope --region us-east-1 --endpoint-url http://127.0.0.1:18400 --table shop --pk 'DOC#invoice-1' --delimiter _", 69},
		{"between 2026-03-01 00:00:00 UTC and 2026-03-31 23:59:59 UTC", 20},
		{"日本太郎 CUSTOMER#日本太郎 x", 9},
		{"column 46: DynamoDB's PartiQL has no LIMIT: drop it, and bound the read with --max-rcu", 76},
		{"abc def ghi", 3},
		{"abc def ghi", 7},
		{"a very long sentence, wrapped at a width where nothing ends exactly", 20},
	} {
		for _, l := range strings.Split(Wrap(c.text, c.width), "\n") {
			if w := ansi.StringWidth(l); w > c.width {
				t.Errorf("Wrap(%q, %d): line %q is %d wide", c.text, c.width, l, w)
			}
		}
		if got := strings.Join(strings.Fields(Wrap(c.text, c.width)), " "); got != c.text && !wider(c.text, c.width) {
			t.Errorf("Wrap(%q, %d) lost or split words: %q", c.text, c.width, got)
		}
	}
	if got := Wrap("a --table b", 4); got != "a\n--ta\nble\nb" && got != "a\n--ta\nble b" {
		t.Errorf("a word wider than the line: %q", got)
	}
}

// wider reports a text holding a word wider than width (cut, by design).
func wider(text string, width int) bool {
	for _, w := range strings.Fields(text) {
		if ansi.StringWidth(w) > width {
			return true
		}
	}
	return false
}

// TestCutPath: a detail that ends in a file's path keeps the file's
// name whole, its folders cut; any other is cut in its middle.
func TestCutPath(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{" · to /tmp/cut/exports/dynascope-shop-partiql.jsonl", 40, " · to /tmp…/dynascope-shop-partiql.jsonl"},
		{" · to /tmp/x.jsonl", 30, " · to /tmp/x.jsonl"},
		{" · sent as a Query of one partition", 20, " · sent a… partition"},
		{" · to /tmp/a-very-long-file-name-indeed.jsonl", 24, " · to …name-indeed.jsonl"}, // the name alone too wide
	} {
		got := CutPath(c.in, c.width)
		if got != c.want || ansi.StringWidth(got) > c.width {
			t.Errorf("CutPath(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}

// TestCutWords: a note too wide is cut after a whole phrase, or where
// its first does not fit, after a whole word, never inside a figure.
func TestCutWords(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"At the budget: r reads on · 20.0 RCU spent, the matches partial", 35, "At the budget: r reads on…"},
		{"At the budget: r reads on · 20.0 RCU spent, the matches partial", 44, "At the budget: r reads on · 20.0 RCU spent…"},
		{"At the budget: r reads on · 20.0 RCU spent, the matches partial", 25, "At the budget: r reads…"},
		{"16 tables loaded before · r retries · ascending", 33, "16 tables loaded before…"},
		// A phrase is never cut inside a clause: what its end says is left
		// out with it (it was "number sort key…" of "number sort key: no
		// hierarchy to drill", now said the other way round).
		{"9000 · 20 items loaded · more as you scroll · ascending · no hierarchy to drill (a number sort key)", 74,
			"9000 · 20 items loaded · more as you scroll · ascending…"},
		// Else the next phrase's whole clauses: the fact, not its how.
		{"USA · 40 items loaded · the middle not read yet: scroll into the gap to read it · ascending", 74,
			"USA · 40 items loaded · the middle not read yet…"},
		{"Audit#PART-7 · 3 revisions · drifted · v0_ differs from v3_: Findings, Status", 74,
			"Audit#PART-7 · 3 revisions · drifted · v0_ differs from v3_: Findings…"},
		{"fits", 10, "fits"},
		{"unbreakable-word here", 5, "unbr…"},
	} {
		got := CutWords(c.in, c.width)
		if got != c.want || ansi.StringWidth(got) > c.width {
			t.Errorf("CutWords(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}

// TestWidthAsAnsi: Width and the cuts agree with ansi's on
// every width, for plain ASCII (measured by its length) and for what
// takes ansi's walk: escapes, controls, wide and combining characters.
func TestWidthAsAnsi(t *testing.T) {
	for _, s := range []string{"", "a", "PK#0042", strings.Repeat("b", 300), "a b~", "\x1b[2m#\x1b[0mSK", "tab\there",
		"日本語のキー", "e\u0301te", "mixed 日本 ascii", "…cut", "a…b…", "…\u0301", "12…" + strings.Repeat("x", 40) + "  …"} {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, ansi says %d", s, got, want)
		}
		for w := -1; w <= len(s)+2; w++ {
			for _, tail := range []string{"", "…"} {
				if got, want := Truncate(s, w, tail), ansi.Truncate(s, w, tail); got != want {
					t.Errorf("Truncate(%q, %d, %q) = %q, ansi says %q", s, w, tail, got, want)
				}
			}
			if got, want := TruncateLeft(s, w), ansi.TruncateLeft(s, w, ""); got != want {
				t.Errorf("TruncateLeft(%q, %d) = %q, ansi says %q", s, w, got, want)
			}
		}
	}
}
