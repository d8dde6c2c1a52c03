package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/ui/common"
)

// searchKey gives a key to the search of the list on top: `/` opens it,
// and while it is typed every key is the search's, so that none acts as a
// command. It reports whether the search took the key.
func (m *Model) searchKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	s, ok := m.top().(common.Searchable)
	if p, has := m.top().(interface{ TypesKeys() bool }); has && p.TypesKeys() {
		m.search.Clear() // one kept over a picker closed since
		return nil, false
	}
	if !ok || m.fatal != nil {
		return nil, false
	}
	if m.searchPage != m.top().ID() {
		m.search.Clear() // the search belonged to another page
	}
	if m.search.Active() {
		if cmd, took := m.search.Key(msg, s.List()); took {
			return tea.Batch(cmd, m.searchMoved()), true
		}
	}
	if key.Matches(msg, m.c.Keys.Search) && !m.top().Capturing() {
		if s.List().Rows() == 0 { // a search of no rows would say "0 loaded rows" and find nothing
			b := m.c.Keys.Search.Help()
			m.sayWhy(b.Key+" "+b.Desc+" has nothing to search", "no row is listed here")
			return nil, true
		}
		m.searchPage = m.top().ID()
		return m.search.Start(s.List()), true
	}
	return nil, false
}

// searchMoved tells the page on top that the search moved its selection,
// where the page reads what comes into view (the tables list describes
// the tables a search scrolled to, not only those a key or click did).
func (m *Model) searchMoved() tea.Cmd {
	if p, ok := m.top().(common.SelectionFollower); ok {
		return p.SelectionMoved()
	}
	return nil
}

// searching reports whether the search line is shown for the page on top.
func (m *Model) searching() bool {
	return m.search.Active() && m.searchPage == m.top().ID() && m.fatal == nil
}

// searchLine is the search line, in place of the short help.
func (m *Model) searchLine(width int) string {
	s := m.top().(common.Searchable)
	return m.search.View(s.List(), s.Unloaded(), width)
}
