package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/ui/common"
)

// paste puts a bracketed paste in the focused text box (the export
// prompt, the search, a page's own box), as one line; with none focused
// it is dropped, and said so: a paste is never taken as keys.
func (m *Model) paste(text string) tea.Cmd {
	switch {
	case m.export.naming:
		var cmd tea.Cmd
		m.export.input, cmd = m.export.input.Paste(text)
		return cmd
	case m.searching() && m.search.Editing():
		return m.search.Paste(text, m.top().(common.Searchable).List())
	case m.fatal == nil && m.top().Capturing():
		if b, ok := m.top().(common.TextBox); ok {
			return b.Paste(text)
		}
	}
	m.say("pasted text goes in a text box: / searches, f filters")
	return nil
}

// typedText is what the focused text box holds; ok is false when no box
// is focused.
func (m *Model) typedText() (string, bool) {
	switch {
	case m.export.naming:
		return m.export.input.Value(), true
	case m.searching() && m.search.Editing():
		return m.search.Typed()
	case m.fatal == nil && m.top().Capturing():
		if b, ok := m.top().(common.TextBox); ok {
			return b.Typed()
		}
	}
	return "", false
}
