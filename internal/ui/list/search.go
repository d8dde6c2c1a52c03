package list

import (
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
)

// Held is a paged list as search sees it: the rows let go far from
// the cursor have no text (they are not read again to be searched), and
// it says how many rows are held.
// NewHeld is the search's view of a paged list shown in g in sort's order.
func NewHeld(g *components.Grid, pg *Pager, sort *Sort) Held { return Held{g, pg, sort} }

type Held struct {
	*components.Grid
	pg   *Pager
	sort *Sort
}

func (l Held) RowText(i int) string {
	if l.pg.LetGoRow(l.sort.Row(i)) {
		return ""
	}
	return l.Grid.RowText(i)
}

// GapRow is the unread gap's row after G (-1: none, or a sort lists the
// rows held in another order).
func (l Held) GapRow() int {
	if l.sort.Attr != "" {
		return -1
	}
	return l.pg.GapRow()
}

// Held is the lines that are rows held (or the gap row): a sort lists
// those only.
func (l Held) Held() int {
	if l.sort.Attr != "" {
		return l.Grid.Rows()
	}
	return l.Grid.Rows() - (l.pg.ListedRows() - l.pg.HeldRows())
}

// Unloaded says what a paged read has not loaded yet ("" once all is).
func (p *Pager) Unloaded() string {
	if p.Done() {
		return ""
	}
	return moreNotRead
}

// moreNotRead is what search has not seen of a list read on as the
// cursor nears its end.
const moreNotRead = "more not read yet (↓ reads on)"

// Empty is the list of a view that lists nothing where its rows would be
// (a mode that found it does not apply): search and the row count see no
// rows, whatever was read to decide it.
var Empty common.List = empty{}

type empty struct{}

func (empty) Rows() int          { return 0 }
func (empty) RowText(int) string { return "" }
func (empty) Cursor() int        { return 0 }
func (empty) SetCursor(int)      {}
