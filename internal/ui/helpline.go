package ui

// The help line: the list position at its right end, and the help's styles.

import (
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

// withPosition puts the list position at the right end of a help line.
func (m *Model) withPosition(line, pos string) string {
	pos = m.styles.Dim.Render(pos)
	room := m.w - ansi.StringWidth(pos) - 2
	if room < 20 {
		return components.Fit(line, m.w)
	}
	return components.Fit(line, room) + "  " + pos
}

// helpStyles dress the help in the theme's styles.
func helpStyles(st *common.Styles) help.Styles {
	return help.Styles{Ellipsis: st.HelpSep, ShortKey: st.HelpKey, ShortDesc: st.HelpDesc, ShortSeparator: st.HelpSep,
		FullKey: st.HelpKey, FullDesc: st.HelpDesc, FullSeparator: st.HelpSep}
}
