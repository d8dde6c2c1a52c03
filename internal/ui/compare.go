package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/ui/pages"
)

// compare opens what = offers on a partition, a prefix or an item: the
// other sides to compare it with. It reports whether the page on top is
// one = acts on (elsewhere the key says where it does).
func (m *Model) compare() (tea.Cmd, bool) {
	c, ok := m.top().(pages.Comparable)
	if !ok {
		return nil, false
	}
	q, info, why := c.Compared()
	if why != "" {
		m.sayWhy("No comparison here", why)
		return nil, true
	}
	return m.pushOver(pages.NewDiffPicker(m.c, info, q)), true
}
