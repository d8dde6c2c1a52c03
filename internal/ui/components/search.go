package components

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/ui/common"
)

// Search finds text in a list's loaded rows as it is typed: the selection
// jumps to the first match from where the search started, n and N step
// through the matches, esc clears. It looks only at what is loaded.
type Search struct {
	c       *common.Common
	input   TextInput
	editing bool
	query   string
	origin  int   // the selection when the search began
	matches []int // rows that match, in order
	at      int   // index into matches of the selected match
	rows    int   // the row count matches were found in
}

// NewSearch returns an inactive search.
func NewSearch(c *common.Common) Search {
	return Search{c: c, input: NewTextInput("/")}
}

// Sync finds the matches again where the list's rows changed since the
// last search (more were read): on each message, never while drawing. A
// search that matched nothing selects the first match the new rows bring,
// unless the selection moved since: a name typed before the list reached
// it is found as it arrives.
func (s *Search) Sync(l common.List) {
	if s.Active() && l.Rows() != s.rows {
		none := len(s.matches) == 0
		s.find(l)
		if none && len(s.matches) > 0 && l.Cursor() == s.origin {
			s.jump(l, s.origin)
		}
	}
}

// Active reports whether a search is shown (typed or kept).
func (s *Search) Active() bool { return s.editing || s.query != "" }

// Editing reports whether keys go to the search box.
func (s *Search) Editing() bool { return s.editing }

// Start opens the search box over l.
func (s *Search) Start(l common.List) tea.Cmd {
	s.editing, s.query, s.matches, s.at, s.rows = true, "", nil, 0, 0
	s.origin = l.Cursor()
	s.input.SetValue("")
	return s.input.Focus()
}

// Clear ends the search, keeping the selection where it is.
func (s *Search) Clear() {
	s.editing, s.query, s.matches = false, "", nil
	s.input.Blur()
}

// Key takes a key while the search is shown; it reports whether it used
// it. While typing every key is the search's: none acts as a command.
func (s *Search) Key(msg tea.KeyPressMsg, l common.List) (tea.Cmd, bool) {
	k := s.c.Keys
	if s.editing {
		switch {
		case key.Matches(msg, k.Cancel):
			l.SetCursor(s.origin)
			s.Clear()
		case key.Matches(msg, k.Submit):
			s.editing = false
			s.input.Blur()
			if s.query == "" {
				s.Clear()
			}
		case !IsText(msg) && key.Matches(msg, k.Down): // ↓, never j: j is text
			s.step(l, 1)
		case !IsText(msg) && key.Matches(msg, k.Up):
			s.step(l, -1)
		default:
			var cmd tea.Cmd
			s.input, cmd = s.input.Update(msg)
			s.typed(l)
			return cmd, true
		}
		return nil, true
	}
	if s.query == "" {
		return nil, false
	}
	switch {
	case key.Matches(msg, k.NextMatch):
		s.step(l, 1)
	case key.Matches(msg, k.PrevMatch):
		s.step(l, -1)
	case key.Matches(msg, k.Cancel):
		s.Clear()
	default:
		return nil, false
	}
	return nil, true
}

// typed searches again for what the box holds, if it changed.
func (s *Search) typed(l common.List) {
	if v := s.input.Value(); v != s.query {
		s.query = v
		s.find(l)
		s.jump(l, s.origin)
	}
}

// Typed is what the search box holds; ok is false when it is not open.
func (s *Search) Typed() (string, bool) { return s.input.Value(), s.editing }

// Paste puts pasted text in the search box, as one line, and searches.
func (s *Search) Paste(text string, l common.List) tea.Cmd {
	if !s.editing {
		return nil
	}
	var cmd tea.Cmd
	s.input, cmd = s.input.Paste(text)
	s.typed(l)
	return cmd
}

// find lists the loaded rows that hold the query, ignoring case.
func (s *Search) find(l common.List) {
	s.matches, s.rows = nil, l.Rows()
	q := strings.ToLower(s.query)
	if q == "" {
		return
	}
	for i := range s.rows {
		if strings.Contains(strings.ToLower(l.RowText(i)), q) {
			s.matches = append(s.matches, i)
		}
	}
}

// jump selects the first match at or after row from (wrapping).
func (s *Search) jump(l common.List, from int) {
	if len(s.matches) == 0 {
		l.SetCursor(s.origin)
		return
	}
	s.at = 0
	for i, r := range s.matches {
		if r >= from {
			s.at = i
			break
		}
	}
	l.SetCursor(s.matches[s.at])
}

func (s *Search) step(l common.List, d int) {
	if l.Rows() != s.rows {
		s.find(l) // more rows were loaded since
	}
	if len(s.matches) == 0 {
		return
	}
	cur := l.Cursor()
	if d > 0 {
		s.jump(l, cur+1)
		if s.matches[s.at] <= cur { // wrapped
			s.at = 0
			l.SetCursor(s.matches[0])
		}
		return
	}
	s.at = len(s.matches) - 1
	for i := len(s.matches) - 1; i >= 0; i-- {
		if s.matches[i] < cur {
			s.at = i
			break
		}
	}
	l.SetCursor(s.matches[s.at])
}

// View is the search line: what is typed, the matches, and what the
// search did not look at (unloaded: what the list has not read).
func (s *Search) View(l common.List, unloaded string, width int) string {
	st := s.c.Styles
	line := st.Key.Render("/") + common.Sanitize(s.query)
	if s.editing {
		in := s.input // a copy, sized to what is typed: drawing changes nothing
		in.SetWidth(min(max(8, ansi.StringWidth(s.input.Value())+1), width/2))
		line = in.View()
	}
	var count string
	switch {
	case s.query == "":
		count = "type to search" // the scope says which rows
	case len(s.matches) == 0:
		count = "no match"
	default:
		pos := 0
		for i, r := range s.matches {
			if r == l.Cursor() {
				pos = i + 1
			}
		}
		count = common.Plural(len(s.matches), "match", "matches")
		if pos > 0 {
			count = itoa(pos) + " of " + count
		}
	}
	scope := "in all " + common.Plural(l.Rows(), "row", "rows")
	if unloaded != "" {
		scope = "in the " + common.Plural(l.Rows(), "loaded row", "loaded rows") + " only; " + unloaded
	}
	if h, ok := l.(Holder); ok && h.Held() < l.Rows() {
		scope = "in the " + common.Plural(h.Held(), "row", "rows") + " held of " + itoa(l.Rows()) + " loaded only (the rest let go far from here)"
		if unloaded != "" {
			scope += "; " + unloaded
		}
	}
	keys := "enter keeps · esc clears"
	if !s.editing {
		keys = "n next · N previous · esc clears"
	}
	return Fit(line+"  "+st.Notice.Render(count)+st.Dim.Render(" "+scope+" · "+keys), width)
}

func itoa(n int) string { return common.Thousands(n) }

// Holder is a list that holds only some of its rows, the rest let go to
// save memory until the cursor comes back to them: search looks at the
// rows held, and says so.
type Holder interface{ Held() int }

// Gapped is a list with a stretch not read yet between the rows read
// from its start and those read from its end (after G): GapRow is that
// row (-1 for none).
type Gapped interface{ GapRow() int }

// Position is "row N of M", or "row N of ≥M" while more can be read.
// Past an unread gap the place in the list is not known, only the place
// from its end ("row 3 from the end of ≥40", "last row of ≥40"); on the
// gap row, that it is being read.
func Position(l common.List, more bool) string {
	n := l.Rows()
	if n == 0 {
		if more {
			return "no rows yet"
		}
		return "no rows"
	}
	gap := -1
	if g, ok := l.(Gapped); ok {
		gap = g.GapRow()
	}
	if gap >= 0 {
		c, read := l.Cursor(), n-1 // the gap row is no item
		switch {
		case c < gap:
			return "row " + common.Thousands(c+1) + " of ≥" + common.Thousands(read)
		case c == gap:
			return "in the unread middle · ≥" + common.Thousands(read) + " rows read"
		}
		// Past the gap only the place from the end is known: "row ≥40 of
		// ≥40 · 1 from the end" said it three ways, one of them (≥40)
		// true of every row.
		if n-c == 1 {
			return "last row of ≥" + common.Thousands(read)
		}
		return "row " + common.Thousands(n-c) + " from the end of ≥" + common.Thousands(read)
	}
	of := common.Thousands(n)
	if more {
		of = "≥" + of
	}
	return "row " + common.Thousands(l.Cursor()+1) + " of " + of
}
