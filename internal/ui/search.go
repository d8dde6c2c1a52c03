package ui

import (
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
)

// searchKey gives a key to the search of the list on top: `/` opens it,
// and while it is typed every key is the search's, so that none acts as a
// command. It reports whether the search took the key.
func (m *Model) searchKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	s, ok := m.top().(common.Searchable)
	if _, own := m.top().(interface{ TypesKeys() }); own || !ok || m.fatal != nil {
		return nil, false
	}
	if m.searchPage != m.top().ID() {
		m.search.Clear() // the search belonged to another page
	}
	if m.search.Active() {
		if cmd, took := m.search.Key(msg, s.List()); took {
			return cmd, true
		}
	}
	if key.Matches(msg, m.c.Keys.Search) && !m.top().Capturing() {
		m.searchPage = m.top().ID()
		return m.search.Start(s.List()), true
	}
	return nil, false
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

// position is "row N of M" for the list on top, "of ≥M" while more can be
// read; "" for a page without a list.
func (m *Model) position() string {
	s, ok := m.top().(common.Searchable)
	if !ok || m.fatal != nil {
		return ""
	}
	if m.waitingForLoad() {
		return "waiting for the load"
	}
	return components.Position(s.List(), s.Unloaded() != "")
}

// withPosition puts the list position at the right end of a help line.
func (m *Model) withPosition(line, pos string) string {
	pos = m.styles.Dim.Render(pos)
	room := m.w - ansi.StringWidth(pos) - 2
	if room < 20 {
		return components.Fit(line, m.w)
	}
	return components.Fit(line, room) + "  " + pos
}

// togglePreview shows or hides the preview pane, for every page, and says
// what it did (below 100 columns there is no room for one).
func (m *Model) togglePreview() {
	if m.w < 100 {
		m.say("no preview below 100 columns: enter opens the row")
		return
	}
	if m.c.ShowPreview(m.w) {
		m.c.Preview = -1
		m.say("preview off (p shows it)")
	} else {
		m.c.Preview = 1
		m.say("preview on (p hides it)")
	}
}

// clock is the status bar's note of a clock that is not the real time
// (the demo's fixed "now", which "last 15m" and "today" count from).
func (m *Model) clock() string {
	if m.cfg.Now == nil {
		return ""
	}
	now := m.cfg.Now()
	if d := time.Since(now); d < time.Minute && d > -time.Minute {
		return ""
	}
	return m.styles.StatusStat.Render("now is " + now.UTC().Format("2006-01-02 15:04 UTC"))
}

// helpStyles dress the help in the theme's styles.
func helpStyles(st *common.Styles) help.Styles {
	return help.Styles{Ellipsis: st.HelpSep, ShortKey: st.HelpKey, ShortDesc: st.HelpDesc, ShortSeparator: st.HelpSep,
		FullKey: st.HelpKey, FullDesc: st.HelpDesc, FullSeparator: st.HelpSep}
}
