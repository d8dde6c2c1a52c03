package ui

// The help line: the list position at its right end, and the help's styles.

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
)

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

// withPosition is the help with the list position at the right end of
// its last line, never wider than the terminal, whatever the bindings add
// up to. The position moves with every key, the help beside it seldom:
// the help is kept fitted to the room the position leaves.
func (m *Model) withPosition(view, pos string) string {
	if pos == "" {
		return m.fitHelp(view, m.w)
	}
	pos = m.styles.Dim.Render(pos)
	room := m.w - ansi.StringWidth(pos) - 2
	if room < 20 {
		return m.memo.helpLine.get(new(memoKey).s(view).i(m.w).i(m.w).String(), func() string { return m.fitHelp(view, m.w) })
	}
	return m.memo.helpLine.get(new(memoKey).s(view).i(m.w).i(room).String(), func() string { return m.fitHelp(view, room) }) + "  " + pos
}

// fitHelp is the help fitted to the terminal, its last line to last
// cells.
func (m *Model) fitHelp(view string, last int) string {
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		lines[i] = components.Fit(l, m.w)
		if i == len(lines)-1 {
			lines[i] = components.Fit(l, last)
		}
	}
	return strings.Join(lines, "\n")
}

// helpStyles dress the help in the theme's styles.
func helpStyles(st *common.Styles) help.Styles {
	return help.Styles{Ellipsis: st.HelpSep, ShortKey: st.HelpKey, ShortDesc: st.HelpDesc, ShortSeparator: st.HelpSep,
		FullKey: st.HelpKey, FullDesc: st.HelpDesc, FullSeparator: st.HelpSep}
}
