package list

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
)

func pagedCommon() *common.Common {
	n := 0
	st := common.DefaultStyles(true)
	return &common.Common{NextID: func() int { n++; return n }, Keys: keymap.Default(), Styles: &st}
}

func newNames(c *common.Common, w Words) Paged[string] {
	return NewPaged(c, w, []components.Column{{Title: "Name"}}, func(s string, _ int) string { return s })
}

func names(from, n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("n%03d", from+i))
	}
	return out
}

// TestPagedCountsWhatItSays: the title never counts before the first
// answer, never gives a total while more may come, and after a failure or
// esc says so with what was loaded before; where the rows would be, the
// failure or cancel is drawn (below the rows loaded, or alone).
func TestPagedCountsWhatItSays(t *testing.T) {
	words := Words{One: "table", Many: "tables", Empty: "No tables here.", NotRead: "r lists them."}
	boom := errors.New("boom")
	type page struct {
		rows []string
		more bool
		err  error
	}
	for _, tc := range []struct {
		name      string
		pages     []page // answered in turn; the last read is left as it stands
		inFlight  bool   // a read asked for after them, unanswered
		cancel    bool   // esc after
		title     string
		body      string // in the rows' place
		unloaded  bool
		wantsMore bool
	}{
		{name: "never read", title: "T · tables not read yet", body: "Not read yet: r lists them.", unloaded: true},
		{name: "reading", inFlight: true, title: "T · reading…", unloaded: true},
		{name: "partial", pages: []page{{names(0, 3), true, nil}}, title: "T · ≥3 tables", body: "n002", unloaded: true, wantsMore: true},
		{name: "partial, next in flight", pages: []page{{names(0, 3), true, nil}}, inFlight: true, title: "T · ≥3 tables", unloaded: true},
		{name: "whole", pages: []page{{names(0, 3), true, nil}, {names(3, 1), false, nil}}, title: "T · 4 tables", body: "n003"},
		{name: "whole and empty", pages: []page{{nil, false, nil}}, title: "T · 0 tables", body: "No tables here."},
		{name: "failed first", pages: []page{{nil, true, boom}}, title: "T · read failed · nothing loaded · r retries", body: "boom", unloaded: true},
		{name: "failed after some", pages: []page{{names(0, 2), true, nil}, {nil, true, boom}},
			title: "T · read failed · 2 tables loaded before · r retries", body: "read failed: boom · 2 tables loaded before", unloaded: true},
		{name: "cancelled first", inFlight: true, cancel: true, title: "T · read cancelled · nothing loaded · r reads on", body: "read cancelled", unloaded: true},
		{name: "cancelled after some", pages: []page{{names(0, 2), true, nil}}, inFlight: true, cancel: true,
			title: "T · read cancelled · 2 tables loaded before · r reads on", body: "n001", unloaded: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newNames(pagedCommon(), words)
			l.SetSize(60, 10)
			for i, p := range tc.pages {
				var id int
				if i == 0 {
					_, id = l.Start()
				} else {
					_, id = l.Next()
				}
				if !l.Answer(id, p.rows, p.more, p.err) {
					t.Fatalf("page %d's answer was dropped", i)
				}
			}
			if tc.inFlight {
				if len(tc.pages) == 0 {
					l.Start()
				} else {
					l.Next()
				}
			}
			if tc.cancel && !l.Cancel() {
				t.Fatal("esc found no read in flight")
			}
			if got := l.Title("T"); got != tc.title {
				t.Errorf("title %q, want %q", got, tc.title)
			}
			if body := ansi.Strip(l.View()); !strings.Contains(body, tc.body) {
				t.Errorf("the rows' place does not say %q:\n%s", tc.body, body)
			}
			if got := l.Unloaded() != ""; got != tc.unloaded {
				t.Errorf("Unloaded %q: want said %v", l.Unloaded(), tc.unloaded)
			}
			if got := l.WantsMore(l.Len(), false); got != tc.wantsMore {
				t.Errorf("WantsMore %v, want %v", got, tc.wantsMore)
			}
		})
	}
}

// TestPagedPosition: "row N of ≥M" while more may come or the read
// stopped, "of M" once the list is whole.
func TestPagedPosition(t *testing.T) {
	l := newNames(pagedCommon(), Words{One: "table", Many: "tables"})
	l.SetSize(40, 10)
	_, id := l.Start()
	l.Answer(id, names(0, 5), true, nil)
	l.Grid.SetCursor(2)
	if got := components.Position(l.List(), l.Unloaded() != ""); got != "row 3 of ≥5" {
		t.Errorf("partial: %q", got)
	}
	_, id = l.Next()
	l.Answer(id, names(5, 2), false, nil)
	if got := components.Position(l.List(), l.Unloaded() != ""); got != "row 3 of 7" {
		t.Errorf("whole: %q", got)
	}
	_, id = l.Start() // a refresh: the rows stay until its answer, and are not all
	if got := components.Position(l.List(), l.Unloaded() != ""); got != "row 3 of ≥7" || l.Title("T") != "T · reading…" {
		t.Errorf("refreshing: %q, %q", got, l.Title("T"))
	}
	l.Answer(id, nil, true, errors.New("boom"))
	if l.Len() != 7 {
		t.Errorf("a failed refresh dropped the rows it had: %d", l.Len())
	}
	_, id = l.Start()
	l.Answer(id, names(0, 1), false, nil)
	if l.Len() != 1 || components.Position(l.List(), l.Unloaded() != "") != "row 1 of 1" {
		t.Errorf("a refresh's answer did not replace the rows: %d", l.Len())
	}
}

// TestPagedAsksForMoreOnce: moving near the end of a list with more asks
// for the next page once, not again while it is read; a stale answer is
// dropped; after esc only a move asks again, after a failure nothing does.
func TestPagedAsksForMoreOnce(t *testing.T) {
	c := pagedCommon()
	l := newNames(c, Words{One: "table", Many: "tables"})
	l.SetSize(40, 6) // 5 rows on screen
	_, id := l.Start()
	l.Answer(id, names(0, 20), true, nil)
	down := tea.KeyPressMsg{Code: tea.KeyDown}
	asked := 0
	var last int
	for range 19 {
		if l.Key(down) != Moved {
			t.Fatal("↓ did not move")
		}
		if l.WantsMore(10, true) {
			asked++
			_, last = l.Next()
		}
	}
	if asked != 1 || l.Grid.Cursor() != 19 {
		t.Fatalf("asked %d times for the next page by row %d", asked, l.Grid.Cursor()+1)
	}
	if l.Answer(last-1, names(99, 1), true, nil) {
		t.Error("a stale answer was taken")
	}
	if l.Key(tea.KeyPressMsg{Code: tea.KeyEscape}) != Cancelled || l.Key(tea.KeyPressMsg{Code: tea.KeyEscape}) != Ignored {
		t.Fatal("esc did not cancel the read in flight once")
	}
	if l.WantsMore(10, false) || !l.WantsMore(10, true) {
		t.Error("after esc: more read without a move, or not on one")
	}
	_, id = l.Next()
	l.Answer(id, nil, true, errors.New("boom"))
	if l.WantsMore(100, true) {
		t.Error("a failing read is asked again without r")
	}
}

// TestPagedPartsOfOneRead: rows found on the way of one read are listed
// and counted as "≥" at once; the read's answer makes the list whole;
// parts of a superseded read are dropped.
func TestPagedPartsOfOneRead(t *testing.T) {
	l := newNames(pagedCommon(), Words{One: "child", Many: "children"})
	l.SetSize(40, 10)
	_, old := l.Start()
	_, id := l.Start() // r before the first read answered
	if l.Part(old, names(50, 1)) {
		t.Error("a superseded read's part was taken")
	}
	if !l.Part(id, names(0, 2)) || l.Title("T") != "T · ≥2 children" || l.Unloaded() == "" {
		t.Errorf("after a part: %q, %q", l.Title("T"), l.Unloaded())
	}
	l.Part(id, names(2, 1))
	if !l.Answer(id, nil, false, nil) || l.Title("T") != "T · 3 children" || l.Unloaded() != "" || l.Len() != 3 {
		t.Errorf("after the answer: %q, %q, %d rows", l.Title("T"), l.Unloaded(), l.Len())
	}
}

// TestPagedWholeAnswers: a list read whole says what it is waiting for
// where its rows would be; an answer that is every row so far replaces
// the rows (its failure keeps what it read before it, said below them);
// a walk's snapshots replace each other, counted "≥" until the answer;
// rows given by another view's read are whole at once; a failure counts
// what Words.Loaded counts.
func TestPagedWholeAnswers(t *testing.T) {
	c := pagedCommon()
	children := 1
	l := newNames(c, Words{One: "child", Many: "children", Waiting: "Walking the level…", Loaded: func() int { return children }})
	l.SetSize(60, 10)
	_, old := l.Start()
	if body := ansi.Strip(l.View()); !strings.Contains(body, "Walking the level…") || l.Title("T") != "T · reading…" {
		t.Errorf("before the first answer: %q, %q", l.Title("T"), body)
	}
	_, id := l.Start()
	if l.Snapshot(old, names(0, 9)) {
		t.Error("a superseded walk's snapshot was taken")
	}
	l.Snapshot(id, names(0, 2))
	l.Snapshot(id, names(0, 3))
	if l.Len() != 3 || l.Title("T") != "T · ≥3 children" {
		t.Errorf("after two snapshots: %d rows, %q", l.Len(), l.Title("T"))
	}
	if !l.Replace(id, names(0, 2), true, errors.New("boom")) || l.Len() != 2 {
		t.Fatalf("a failed whole answer did not list what it read: %d", l.Len())
	}
	if got := l.Title("T"); got != "T · read failed · 1 child loaded before · r retries" {
		t.Errorf("failure counts Words.Loaded: %q", got)
	}
	if body := ansi.Strip(l.View()); !strings.Contains(body, "n001") || !strings.Contains(body, "boom") {
		t.Errorf("the rows read before the failure are not above it:\n%s", body)
	}
	g := newNames(c, Words{One: "revision", Many: "revisions", Waiting: "never shown"})
	g.SetSize(60, 10)
	g.Given(names(0, 4))
	if g.Title("T") != "T · 4 revisions" || g.Unloaded() != "" || !g.Whole() {
		t.Errorf("given rows: %q, %q", g.Title("T"), g.Unloaded())
	}
	g.Set([]string{"b", "a"})
	if r, _ := g.Selected(); r != "b" || g.Len() != 2 {
		t.Errorf("Set did not list the rows in their new order: %v", g.Rows())
	}
}

// TestPagedCountsWhileItReads: a list that counts what it found while it
// reads (a comparison) says its count with "reading…" while the read goes
// on, then the count alone, or the count and the failure or cancel; while
// a read is in flight with nothing listed, Words.Waiting is said where the
// rows would be, and Rows are the rows in the order they came.
func TestPagedCountsWhileItReads(t *testing.T) {
	count := func(n int, more bool) string {
		if more {
			return fmt.Sprintf("%d differ", n)
		}
		return fmt.Sprintf("%d differ · done", n)
	}
	l := newNames(pagedCommon(), Words{One: "key", Many: "keys", Count: count, Waiting: "reading both sides…"})
	l.SetSize(40, 10)
	_, id := l.Start()
	if got := l.TitleCounting("vs X"); got != "vs X · 0 differ · reading…" {
		t.Errorf("before the first part: %q", got)
	}
	if body := ansi.Strip(l.View()); !strings.Contains(body, "reading both sides…") {
		t.Errorf("nothing listed while reading, not said:\n%s", body)
	}
	l.Part(id, names(0, 2))
	if got := l.TitleCounting("vs X"); got != "vs X · 2 differ · reading…" {
		t.Errorf("after a part: %q", got)
	}
	if body := ansi.Strip(l.View()); strings.Contains(body, "reading both sides…") || !strings.Contains(body, "n001") {
		t.Errorf("rows listed, still waiting:\n%s", body)
	}
	l.Answer(id, names(2, 1), false, nil)
	if got := l.TitleCounting("vs X"); got != "vs X · 3 differ · done" {
		t.Errorf("answered: %q", got)
	}
	if got := strings.Join(l.Rows(), ","); got != "n000,n001,n002" {
		t.Errorf("rows %s", got)
	}
	_, id = l.Start()
	l.Part(id, names(0, 1))
	l.Cancel()
	if got := l.TitleCounting("vs X"); got != "vs X · 1 differ · done · read cancelled · 1 key loaded before · r reads on" {
		t.Errorf("cancelled: %q", got)
	}
}
