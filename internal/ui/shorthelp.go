package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// shortHelp is the help line within width: the page's keys, then ? help
// and q quit, always last (at 80 columns they are what a newcomer needs
// first), the page's keys dropped from its end until the line fits. While
// a text box is open ? and q are text, so the line is the box's keys.
func (m *Model) shortHelp(bindings []key.Binding, width int) string {
	k := m.c.Keys
	typing := m.fatal == nil && (m.top().Capturing() || m.export.naming)
	o, ok := m.top().(common.Overlayer)
	overlay := ok && o.Overlay()
	drawnFor := new(memoKey).bindings(bindings).bindings([]key.Binding{k.Help, k.Quit}).i(width).b(typing).b(overlay).b(m.skeleton != nil).b(m.fatal != nil)
	return m.memo.help.get(drawnFor.String(), func() string { return m.drawShortHelp(bindings, width, typing) })
}

func (m *Model) drawShortHelp(bindings []key.Binding, width int, typing bool) string {
	k := m.c.Keys
	var body, tail []key.Binding
	for _, b := range bindings {
		if !b.Enabled() || !typing && (sameKeys(b, k.Help) || sameKeys(b, k.Quit)) {
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
		if m.skeleton != nil || m.fatal != nil {
			tail = []key.Binding{k.Quit} // connecting, or the error page: ? does not act there
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

// acting turns off the explorer's own keys that a page lists where they
// do nothing now (n and N until a search of this page is kept), so the
// help shows a key only where it acts.
func (m *Model) acting(bs []key.Binding) []key.Binding {
	k := m.c.Keys
	kept := m.search.Active() && m.searchPage == m.top().ID()
	out := make([]key.Binding, 0, len(bs))
	for _, b := range bs {
		if sameKeys(b, k.NextMatch) || sameKeys(b, k.PrevMatch) {
			b = common.On(b, kept)
		}
		out = append(out, b)
	}
	return out
}

// actingFull is acting over ? help's columns.
func (m *Model) actingFull(groups [][]key.Binding) [][]key.Binding {
	out := make([][]key.Binding, len(groups))
	for i, g := range groups {
		out[i] = m.acting(g)
	}
	return out
}

// globalHelp are the explorer's keys ? help lists below the page's, each
// where it acts: > on an item, < and ctrl+i where there is a view to go
// back or forward to, X while a load runs, T in the demo.
func (m *Model) globalHelp() []key.Binding {
	k := m.c.Keys
	sel, ok := m.top().(pages.ItemSelector)
	selected := false
	if ok {
		_, _, selected = sel.SelectedItem()
	}
	_, comparable := m.top().(pages.Comparable)
	return []key.Binding{k.Statement, common.On(k.Compare, comparable), common.On(k.RefFollow, selected), common.On(k.RefBack, len(m.back) > 0), common.On(k.RefForward, len(m.fwd) > 0),
		common.On(k.StopLoad, m.loadRunning()), common.On(k.Tour, m.demo() && !m.onTour())}
}
