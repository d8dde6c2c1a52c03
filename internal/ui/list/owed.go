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
// last row read and be lost. Below zero, they are rows owed above the
// rows read from the end (k typed while G's read is in flight), read on
// backwards.
type Owed struct{ rows int }

// Move moves g's cursor for key msg (reporting whether it was a move)
// and notes what the rows read so far could not give: downward moves by
// a row or a page, in the order read (sorted rows have no page to come),
// while more can be read from the start; upward ones from the rows read
// from the end into the unread gap above them. Any other move, or a move
// that lands, settles what was owed.
func (o *Owed) Move(p *Pager, g *components.Grid, keys keymap.KeyMap, msg tea.KeyPressMsg, sorted bool) bool {
	from := g.Cursor()
	step := 0
	switch {
	case key.Matches(msg, keys.Down):
		step = 1
	case key.Matches(msg, keys.PageDown):
		step = g.Visible()
	case key.Matches(msg, keys.Up):
		step = -1
	case key.Matches(msg, keys.PageUp):
		step = -g.Visible()
	}
	if !g.Update(msg) {
		return false
	}
	if step < 0 {
		o.up(p, from, step, sorted)
		return true
	}
	last := g.Rows() - 1
	o.rows = max(o.rows, 0) + step
	if step == 0 || sorted || p.GapOpen() || p.Done() || p.Fail.Stopped() || g.Cursor() < last {
		o.rows = 0
		return true
	}
	o.rows -= g.Cursor() - from
	return true
}

// up notes an upward move of step rows from row from: past the gap row
// (the row above those read from the end, where the cursor stops) it is
// owed, and read on backwards.
func (o *Owed) up(p *Pager, from, step int, sorted bool) {
	gap := p.GapRow()
	if sorted || gap < 0 || !p.PastGap(from) || p.Fail.Stopped() {
		o.rows = 0
		return
	}
	o.rows = min(from+min(o.rows, 0)+step-gap, 0)
}

// Pay moves g's cursor on by what is owed, as far as the rows read now
// go; the rest stays owed while more can be read.
func (o *Owed) Pay(p *Pager, g *components.Grid) {
	if o.rows < 0 {
		from := g.Cursor()
		g.SetCursor(max(from+o.rows, p.GapRow(), 0)) // no further than the gap row
		o.rows -= g.Cursor() - from
		if !p.GapOpen() || p.Fail.Stopped() {
			o.rows = 0
		}
		return
	}
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

// Rows is what is owed: below the rows read (more than 0) or above those
// read from the end (less).
func (o *Owed) Rows() int { return o.rows }
