package ui

// togglePreview shows or hides the preview pane, for every page, and says
// what it did (below 100 columns there is no room for one).
func (m *Model) togglePreview() {
	if m.w < 100 {
		m.say("no preview below 100 columns: enter opens the row")
		return
	}
	on, state := true, "on (p hides it)"
	if m.c.ShowPreview(m.w) {
		m.c.Preview, on, state = -1, false, "off (p shows it)"
	} else {
		m.c.Preview = 1
	}
	if !m.listsPreview() {
		// The setting is every page's, but this one has no pane: "preview
		// on" alone promised one here.
		state = map[bool]string{true: "on", false: "off"}[on] + " for the views that have one; this one has none"
	}
	m.say("preview " + state)
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
