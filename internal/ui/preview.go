package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"

	"github.com/dynascope/dynascope/internal/ui/common"
)

// togglePreview shows or hides the preview pane, for every page, and says
// what it did (below 100 columns there is no room for one).
func (m *Model) togglePreview() {
	if !m.hasPreview() || m.w >= common.PreviewMin && !m.listsPreview() {
		// This page has no pane: p does not list itself here, so it does
		// not apply, and says so, as every other key does; the setting
		// stays as it was rather than change out of sight.
		b := m.c.Keys.Preview
		m.sayWhy(b.Help().Key+" "+b.Help().Desc+" does not apply here", noPreviewHere)
		return
	}
	if m.w < common.PreviewMin {
		m.say("no preview below 100 columns: enter opens the row")
		return
	}
	state := "on (p hides it)"
	if m.c.ShowPreview(m.w) {
		m.c.Preview, state = -1, "off (p shows it)"
	} else {
		m.c.Preview = 1
	}
	m.say("preview " + state)
}

// noPreviewHere is why p does nothing on a page with no preview pane.
const noPreviewHere = "this view has no preview pane (the tables, Items, Versions, Changes, entity types, f and : results and comparisons have one)"

// hasPreview reports whether the page on top has a preview pane at some
// width: its keys name p, acting or not (below 100 columns it does not).
func (m *Model) hasPreview() bool {
	var all []key.Binding
	if l, ok := m.top().(common.KeyLister); ok {
		for _, k := range l.HelpKeys() {
			all = append(all, k.Binding)
		}
	}
	for _, g := range m.top().FullHelp() {
		all = append(all, g...)
	}
	return slices.ContainsFunc(all, func(b key.Binding) bool { return sameKeys(b, m.c.Keys.Preview) })
}

// listsPreview reports whether the page on top has a preview for p to
// show or hide: its help lists p where it does.
func (m *Model) listsPreview() bool {
	for _, g := range m.top().FullHelp() {
		for _, b := range g {
			if b.Enabled() && sameKeys(b, m.c.Keys.Preview) {
				return true
			}
		}
	}
	return false
}
