package list

import (
	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
)

// Paged is a list whose rows are not one key query (the tables, a table's
// partitions, a walk's children, a statement's answers): rows of type T
// arriving a page at a time (or in one answer), under one Status. It owns
// what every such list shows the same way: the grid and its cursor, the
// title's count ("reading…" before the first answer, "≥" while more may
// come, the failure or cancel with what was loaded), the failure or cancel
// drawn where the rows would be, esc cancelling the read in flight, when
// the cursor is near enough the end to read on, and what search and the
// position ("row N of ≥M") see. A page adds its columns (cell), its reads
// and its own keys.
//
// The page keeps a Paged by value in its own struct and never copies it
// after NewPaged: the grid reads its rows through it.
type Paged[T any] struct {
	Status // the read in flight, and why the last one stopped
	// Grid draws the rows; its cursor is the selection.
	Grid  components.Grid
	words Words
	c     *common.Common
	cell  func(row T, col int) string
	rows  []T
	more  bool // more may come: a next page, or the rest of the answer
	fresh bool // the next answer replaces the rows (a read from the start)
	began bool // a read has been started since the list was made or cleared
	w, h  int  // the room the rows have, the failure's line included
}

// Words is what a list calls its rows, for its title, search and the
// place where its rows would be.
type Words struct {
	One, Many string // "partition", "partitions"
	// Count is the title's count of n rows answered, more while more may
	// come: nil says "3 partitions", and "≥3 partitions" while more may.
	Count func(n int, more bool) string
	// Reading is what is still being read before the first answer, for
	// search: "the table list is" (… still being read).
	Reading string
	// More is what search has not seen while more may come: "more
	// partitions not scanned yet (↓ scans on)".
	More string
	// NotRead is what the list says where its rows would be before any
	// read ("r scans the table's partition keys"); "" for a list read as
	// it opens.
	NotRead string
	// Empty is what it says there when the whole answer is no rows.
	Empty string
	// Waiting is what it says there while a read is in flight and no
	// row is listed, before the first answer too ("Reading the table's
	// stream…", "reading both sides…"); "" draws the empty grid.
	Waiting string
	// Loaded counts what a failure says was loaded before it, when a row
	// is not one of Many (nil: the rows listed).
	Loaded func() int
	// Again is what a cancel says r does where r reads from the start,
	// not on from where esc stopped the read ("r compares again"); ""
	// says "r reads on".
	Again string
}

// NewPaged returns an empty list with cols, whose cells cell draws.
func NewPaged[T any](c *common.Common, w Words, cols []components.Column, cell func(row T, col int) string) Paged[T] {
	g := components.NewGrid(c)
	g.SetColumns(cols)
	return Paged[T]{c: c, Grid: g, words: w, cell: cell}
}

// Start begins a read from the start (a refresh too), cancelling one in
// flight: the rows listed stay until its first answer replaces them, and
// the title says "reading…" until then.
func (l *Paged[T]) Start() (context.Context, int) {
	l.began, l.fresh, l.answered = true, true, false
	return l.Status.Start(l.c)
}

// Next begins the read of the next page: its rows are added to those
// listed.
func (l *Paged[T]) Next() (context.Context, int) {
	l.began = true
	return l.Status.Start(l.c)
}

// Answer takes the answer to request id: its rows (added, or in place of
// those listed for a read's first answer), whether more may come after
// them, and its error (rows read before it are kept). It reports false
// for a stale answer, which the page drops.
func (l *Paged[T]) Answer(id int, rows []T, more bool, err error) bool {
	if !l.Status.Answer(id, err) {
		return false
	}
	if l.fresh && err == nil { // a failed read again keeps the rows it had
		l.rows, l.fresh = nil, false
	}
	l.more = more
	l.Add(rows...)
	return true
}

// Part takes rows that request id found on its way (a walk's children,
// a stream's records): listed at once, counted as "≥", while the read
// goes on to its Answer. It reports false for a stale one.
func (l *Paged[T]) Part(id int, rows []T) bool {
	if id != l.Req.ID() || !l.Req.InFlight() {
		return false
	}
	if l.fresh {
		l.rows, l.fresh = nil, false
	}
	l.answered, l.more = true, true
	l.Add(rows...)
	return true
}

// Cancel stops the read in flight (esc), reporting whether there was one.
func (l *Paged[T]) Cancel() bool {
	if !l.Status.Cancel() {
		return false
	}
	l.layout()
	return true
}

// Clear lets go of every row and any read, as a list never read.
func (l *Paged[T]) Clear() {
	l.Req.Stop()
	l.Fail.Clear()
	l.rows, l.more, l.fresh, l.began, l.answered = nil, false, false, false, false
	l.Add()
}

// Add lists rows after those listed (rows a page found outside an
// answer, or after changing some in place with Row).
func (l *Paged[T]) Add(rows ...T) {
	l.rows = append(l.rows, rows...)
	l.Grid.SetRows(len(l.rows), func(r, col int) string { return l.cell(l.rows[r], col) })
	l.layout()
}

// Len is how many rows are listed.
func (l *Paged[T]) Len() int { return len(l.rows) }

// Row is row i, to read or change in place (a partition seen again adds
// its keys).
func (l *Paged[T]) Row(i int) *T { return &l.rows[i] }

// Selected is the row under the cursor; false when none is listed.
func (l *Paged[T]) Selected() (T, bool) {
	if len(l.rows) == 0 {
		var zero T
		return zero, false
	}
	return l.rows[l.Grid.Cursor()], true
}

// Began reports whether a read was started since the list was made or
// cleared.
func (l *Paged[T]) Began() bool { return l.began }

// More reports whether more rows may come after those listed: before the
// first read, while its first answer is awaited, and while the last
// answer said more follow.
func (l *Paged[T]) More() bool { return !l.began || !l.answered || l.more }

// Whole reports whether the list holds every row: the last answer said
// none follow, and no read failed or was cancelled since.
func (l *Paged[T]) Whole() bool { return !l.More() && !l.Fail.Stopped() }

// Did is what Key did with a key.
type Did int

const (
	Ignored   Did = iota // not a key of the list: the page's own, or nothing
	Moved                // the cursor moved
	Cancelled            // esc cancelled the read in flight
)

// Key takes the list's own keys: esc cancels the read in flight, the moves
// move the cursor (g, G, pgdn across the rows listed so far).
func (l *Paged[T]) Key(msg tea.KeyPressMsg) Did {
	switch {
	case key.Matches(msg, l.c.Keys.Back) && l.Cancel():
		return Cancelled
	case l.Grid.Update(msg):
		return Moved
	}
	return Ignored
}

// WantsMore reports whether the cursor is within ahead rows of the end of
// a list that may have more, with no read in flight: the page reads the
// next page. It asks once a read: not again while that page is read,
// never after a failure (r retries: a failing server is not asked again
// behind the user's back), and after esc only when the user moved (user).
func (l *Paged[T]) WantsMore(ahead int, user bool) bool {
	if !l.began || !l.more || l.Req.InFlight() || l.Fail.Err != nil || (l.Fail.Cancelled && !user) {
		return false
	}
	return l.Grid.Cursor() >= len(l.rows)-ahead
}

// Title is the list's title: name, then "reading…" before the first
// answer (nothing is counted, nothing is all), the failure or cancel with
// what was loaded, or the count (Words.Count).
func (l *Paged[T]) Title(name string) string {
	return name + " · " + l.state()
}

// TitleCounting is the title of a list that counts what it has found
// while it reads (a comparison's keys: "3 differ · 1 same"): name, then
// Words.Count of the rows so far, with "reading…" while the read goes on
// (Count's more), or the failure or cancel after it. Count must be set.
func (l *Paged[T]) TitleCounting(name string) string {
	switch {
	case l.Fail.Stopped():
		return name + " · " + l.words.Count(len(l.rows), false) + " · " + l.failure().Title(len(l.rows), l.words.Many)
	case l.Req.InFlight():
		return name + " · " + l.words.Count(len(l.rows), true) + " · reading…"
	}
	return name + " · " + l.words.Count(len(l.rows), false)
}

func (l *Paged[T]) state() string {
	if !l.began && l.words.NotRead != "" && !l.Fail.Stopped() {
		return l.words.Many + " not read yet"
	}
	return stateOf(l.failure(), l.answered, l.loaded(), l.words.Many, l.count)
}

// count is the title's count of the rows answered.
func (l *Paged[T]) count() string {
	switch {
	case l.words.Count != nil:
		return l.words.Count(len(l.rows), l.more)
	case l.more:
		return "≥" + common.Plural(len(l.rows), l.words.One, l.words.Many)
	}
	return common.Plural(len(l.rows), l.words.One, l.words.Many)
}

// SetSize gives the rows w×h cells (their header included): the grid
// takes them, less a line for a failure below the rows loaded before it.
func (l *Paged[T]) SetSize(w, h int) {
	l.w, l.h = w, h
	l.layout()
}

// layout sizes the grid when its room or the failure's line changes.
func (l *Paged[T]) layout() {
	l.Grid.SetSize(l.w, l.h-l.Fail.LineBelow(l.loaded()))
}

// View is what the list shows where its rows are: the rows; the failure or
// cancel (alone, or below the rows loaded before it); why nothing was
// read yet; or Words.Empty when the whole answer is no rows.
func (l *Paged[T]) View() string {
	st := l.c.Styles
	switch {
	case l.Fail.Stopped():
		return l.failure().InPlace(st, l.Grid.View(), l.loaded(), l.words.Many, l.w)
	case !l.began && l.words.NotRead != "":
		return st.Dim.Render("Not read yet: " + l.words.NotRead)
	case (l.began && !l.answered || l.Req.InFlight()) && len(l.rows) == 0 && l.words.Waiting != "":
		return st.Dim.Render(l.words.Waiting)
	case l.Whole() && len(l.rows) == 0 && l.words.Empty != "":
		return st.Dim.Render(l.words.Empty)
	}
	return l.Grid.View()
}

// List is the list as search and the position see it.
func (l *Paged[T]) List() common.List { return &l.Grid }

// Unloaded says what search and the position have not seen ("" once the
// list is whole): a stopped read, the first answer awaited, or more to
// come (Words.More).
func (l *Paged[T]) Unloaded() string {
	switch s := l.Status.Unloaded(l.words.Reading); {
	case s != "":
		return s
	case !l.more:
		return ""
	case l.words.More != "":
		return l.words.More
	}
	return moreNotRead
}

// AgainKey is r in the list's help, as its failure's title says it
// (Failure.AgainKey).
func (l *Paged[T]) AgainKey(group int, r key.Binding) common.Key {
	return l.failure().AgainKey(group, r)
}

// BackKey is esc in the list's help (Key stops a read in flight:
// Request.BackKey).
func (l *Paged[T]) BackKey(back key.Binding) key.Binding { return l.Req.BackKey(back) }
