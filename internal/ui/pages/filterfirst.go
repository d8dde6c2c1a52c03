package pages

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// filterItems opens q's items with the filter bar first (f on Tree and
// Versions): enter lists them filtered, esc before anything is read goes
// back to where f was pressed, with nothing changed.
func filterItems(c *common.Common, info dynamo.TableInfo, q domain.KeyQuery, note string) tea.Cmd {
	p := NewItems(c, info, q.PK)
	p.pg.Query, p.note, p.escBack = q, note, true
	if q.Index != "" {
		p.pg.TableKeys = &info.Key
	}
	return tea.Batch(open(&filterFirst{p}), p.filter.open(q.Filter))
}

// filterFirst is Items while its filter bar, opened first, has read
// nothing: esc there is back, not "list everything" (Items' own esc
// before its first read, for a bar opened on Items). Once anything is
// read it is Items itself.
type filterFirst struct{ *Items }

func (f *filterFirst) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && f.filter.editing() && !f.pg.Started && key.Matches(k, f.c.Keys.Cancel) {
		f.filter.key(k, f.c.Keys, f.stats.loaded()) // the bar closed as esc closes it
		return f, back
	}
	p, cmd := f.Items.Update(msg)
	if p != common.Page(f.Items) {
		return p, cmd
	}
	if f.pg.Started || !f.filter.editing() {
		f.escBack = false
		return f.Items, cmd // read, or the bar closed: Items from here on
	}
	return f, cmd
}
