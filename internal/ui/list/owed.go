package list

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/components"
)

// Owed are the rows moves typed past the last row read asked for: keys
// typed faster than the reads (200 j at once on a first screen of 33
// rows) land where they lead once the rows come, rather than stop at the
// last row read and be lost.
type Owed struct{ rows int }

// Move moves g's cursor for key msg (reporting whether it was a move)
// and notes what the rows read so far could not give: only downward
// moves by a row or a page, in the order read (sorted rows have no page
// to come), while more can be read from the start. Any other move, or a
// move that lands, settles what was owed.
func (o *Owed) Move(p *Pager, g *components.Grid, keys keymap.KeyMap, msg tea.KeyPressMsg, sorted bool) bool {
	from := g.Cursor()
	step := 0
	switch {
	case key.Matches(msg, keys.Down):
		step = 1
	case key.Matches(msg, keys.PageDown):
		step = g.Visible()
	}
	if !g.Update(msg) {
		return false
	}
	last := g.Rows() - 1
	o.rows += step
	if step == 0 || sorted || p.GapOpen() || p.Done() || p.Fail.Stopped() || g.Cursor() < last {
		o.rows = 0
		return true
	}
	o.rows -= g.Cursor() - from
	return true
}

// Pay moves g's cursor on by what is owed, as far as the rows read now
// go; the rest stays owed while more can be read.
func (o *Owed) Pay(p *Pager, g *components.Grid) {
	if o.rows <= 0 {
		return
	}
	from := g.Cursor()
	g.SetCursor(from + o.rows)
	o.rows -= g.Cursor() - from
	if p.Done() || p.GapOpen() || p.Fail.Stopped() {
		o.rows = 0
	}
}

// Forget drops what is owed (esc, a new read).
func (o *Owed) Forget() { o.rows = 0 }

// Rows is what is owed.
func (o *Owed) Rows() int { return o.rows }
