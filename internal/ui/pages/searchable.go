package pages

import (
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
)

// What each list's search looks at (common.Searchable): its grid's loaded
// rows, and what it has not read yet.

func (t *Tables) List() common.List { return &t.grid }
func (t *Tables) Unloaded() string {
	if !t.loaded {
		return "the table list is still loading"
	}
	return ""
}

// A picker open over a list is what the cursor moves in: its rows are
// what the position counts and search looks at.

func (t *Tree) List() common.List {
	if t.picker != nil {
		return &t.picker.grid
	}
	return &t.grid
}
func (t *Tree) Unloaded() string {
	switch {
	case t.picker != nil:
		return ""
	case !t.loaded:
		return "more children still being found"
	case t.partial:
		return "the walk stopped part way (r goes on)"
	}
	return ""
}

func (p *Items) List() common.List {
	if p.picker != nil {
		return &p.picker.grid
	}
	return heldList{&p.grid, &p.pg, &p.sort}
}
func (p *Items) Unloaded() string {
	if p.picker != nil {
		return ""
	}
	return p.pg.unloaded()
}

func (t *Time) List() common.List {
	if t.picker != nil {
		return &t.picker.grid
	}
	return heldList{&t.grid, &t.pg, &t.sort}
}
func (t *Time) Unloaded() string {
	if t.picker != nil {
		return ""
	}
	return t.pg.unloaded()
}

func (v *Versions) List() common.List { return &v.grid }
func (v *Versions) Unloaded() string {
	if !v.loaded {
		return "the versions are still loading"
	}
	return ""
}

func (t *Timeline) List() common.List { return &t.grid }
func (t *Timeline) Unloaded() string  { return "" }

// heldList is a paged list as search sees it: the rows let go far from
// the cursor have no text (they are not read again to be searched), and
// it says how many rows are held.
type heldList struct {
	*components.Grid
	pg   *pager
	sort *rowSort
}

func (l heldList) RowText(i int) string {
	if l.pg.letGoRow(l.sort.row(i)) {
		return ""
	}
	return l.Grid.RowText(i)
}

// GapRow is the unread gap's row after G (-1: none, or a sort lists the
// rows held in another order).
func (l heldList) GapRow() int {
	if l.sort.attr != "" {
		return -1
	}
	return l.pg.gapRow()
}

// Held is the lines that are rows held (or the gap row): a sort lists
// those only.
func (l heldList) Held() int {
	if l.sort.attr != "" {
		return l.Grid.Rows()
	}
	return l.Grid.Rows() - (l.pg.listedRows() - l.pg.heldRows())
}

// unloaded says what a paged read has not loaded yet ("" once all is).
func (p *pager) unloaded() string {
	if p.done() {
		return ""
	}
	return "more not read yet (↓ reads on)"
}

func (p *Partitions) List() common.List {
	if p.picker != nil {
		return &p.picker.grid
	}
	return &p.grid
}
func (p *Partitions) Unloaded() string {
	if p.picker == nil && (!p.started || p.more) {
		return "more partitions not scanned yet (↓ scans on)"
	}
	return ""
}

// TypesKeys marks the partitions' own / (go to a key, searching what is
// loaded as it is typed), which the explorer's search leaves alone.
func (p *Partitions) TypesKeys() {}
