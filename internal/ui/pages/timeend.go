package pages

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// G in Time mode works as on Items: the other end of the range (the oldest
// when newest come first) in one reverse read of a screen, under a gap row
// that fills as the cursor scrolls back into it; g is the top, which stays
// loaded. A range merged across prefixes reads its end the same way: one
// reverse Query a prefix, merged backwards (dynamo.MergedRange.FromEnd).

// canJumpEnd reports whether G should read the end backwards.
func (t *Time) canJumpEnd() bool {
	return t.pg.Started && !t.pg.Done() && !t.pg.GapOpen()
}

// jumpEnd reads the last screen backwards and puts the cursor on it.
func (t *Time) jumpEnd() tea.Cmd {
	cmd := t.pg.JumpEnd()
	t.refresh()
	t.grid.SetCursor(t.pg.RowCount() - 1)
	return cmd
}

// rowsFromEnd is the cursor's place counted from the end when it is past
// the gap (-1 otherwise): rows read backwards go in above it.
func (t *Time) rowsFromEnd() int {
	if t.pg.PastGap(t.grid.Cursor()) {
		return t.pg.RowCount() - 1 - t.grid.Cursor()
	}
	return -1
}

func (t *Time) keepFromEnd(fromEnd int) {
	if fromEnd >= 0 {
		t.grid.SetCursor(t.pg.RowCount() - 1 - fromEnd)
	}
}

// timeAt is row r's key time: parsed once for the head, on demand for the
// few tail rows drawn.
func (t *Time) timeAt(r int, it dynamo.Item) time.Time {
	if r < t.pg.Head.Len() && r < len(t.times) && !t.times[r].IsZero() {
		return t.times[r]
	}
	tm, _ := t.keyTime(it) // a row read again, or the tail's
	return tm
}

// loadedTimes is every loaded key time, head then tail (the sparkline's
// span includes the end read by G).
func (t *Time) loadedTimes() []time.Time {
	if t.pg.Tail.Rows.Len() == 0 {
		return t.times
	}
	all := append([]time.Time(nil), t.times...)
	t.pg.Tail.Rows.Each(func(it dynamo.Item) bool {
		tm, _ := t.keyTime(it)
		all = append(all, tm)
		return true
	})
	return all
}
