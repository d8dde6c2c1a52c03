package pages

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/ui/list"
)

// sortKey takes s or S on the items list, keeping the cursor on its row.
// It cycles through the columns shown, in their order: never the
// partition key, the same on every row and not a column.
func (p *Items) sortKey(msg tea.KeyPressMsg) {
	attrs := append(p.keyColumns(), p.attrs...)
	at := p.sort.Row(p.grid.Cursor())
	list.SortKeyPressed(&p.sort, msg, p.c.Keys, attrs)
	p.refresh()
	p.grid.SetCursor(p.sort.Line(at))
}

// sortKey takes s or S on the time list; its time column is the sort key.
func (t *Time) sortKey(msg tea.KeyPressMsg) {
	attrs := append([]string{t.base.SKName}, t.stats.columns(t.c, t.info.Name, timeAttrs)...)
	at := t.sort.Row(t.grid.Cursor())
	list.SortKeyPressed(&t.sort, msg, t.c.Keys, attrs)
	t.refresh()
	t.grid.SetCursor(t.sort.Line(at))
}
