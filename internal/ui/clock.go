package ui

import "time"

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
