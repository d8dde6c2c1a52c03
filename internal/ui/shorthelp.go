package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/ui/common"
)

// shortHelp is the help line within width: the page's keys, then ? help
// and q quit, always last (at 80 columns they are what a newcomer needs
// first), the page's keys dropped from its end until the line fits. While
// a text box is open ? and q are text, so the line is the box's keys.
func (m *Model) shortHelp(bindings []key.Binding, width int) string {
	k := m.c.Keys
	typing := m.fatal == nil && m.top().Capturing()
	var body, tail []key.Binding
	for _, b := range bindings {
		if !typing && (sameKeys(b, k.Help) || sameKeys(b, k.Quit)) {
			continue
		}
		body = append(body, b)
	}
	if !typing {
		quit := k.Quit
		if o, ok := m.top().(common.Overlayer); ok && o.Overlay() && m.fatal == nil {
			quit.SetHelp(quit.Help().Key, "close") // q over a picker closes it, as esc
		}
		tail = []key.Binding{k.Help, quit}
		if m.skeleton != nil {
			tail = []key.Binding{k.Quit} // connecting: only leaving acts
		}
	}
	m.help.SetWidth(0) // no cut of its own: the page's keys give way whole
	defer m.help.SetWidth(m.w)
	fits := func(bs []key.Binding) (string, bool) {
		view := m.help.ShortHelpView(append(slices.Clip(bs), tail...))
		return view, ansi.StringWidth(view) <= width
	}
	if view, ok := fits(body); ok {
		return view
	}
	// The moves go first (everyone tries the arrows), then the page's
	// keys from its end.
	body = slices.DeleteFunc(body, func(b key.Binding) bool {
		return slices.ContainsFunc(k.Moves(), func(mv key.Binding) bool { return sameKeys(b, mv) })
	})
	for {
		view, ok := fits(body)
		if ok || len(body) == 0 {
			return view
		}
		body = body[:len(body)-1]
	}
}

func sameKeys(a, b key.Binding) bool { return slices.Equal(a.Keys(), b.Keys()) }
