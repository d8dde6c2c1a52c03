package ui

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
