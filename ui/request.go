package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/ui/common"
	"github.com/dynascope/dynascope/ui/components"
)

// requestLines is the request behind the view, never cut at a value: on
// one line when it fits, wrapped onto a second when not, and only when two
// lines are not enough, shortened in its middle (? shows it whole).
func requestLines(text string, width int) []string {
	avail := width - 2 // "▸ "
	if avail < 10 {
		return []string{components.Fit(text, max(0, avail))}
	}
	if ansi.StringWidth(text) <= avail {
		return []string{text}
	}
	lines := strings.Split(ansi.Wrap(text, avail, " "), "\n")
	if len(lines) <= 2 {
		return lines
	}
	return strings.Split(ansi.Hardwrap(components.FitMiddle(text, 2*avail), avail, true), "\n")[:2]
}

// request renders the request line(s).
func (m *Model) request() string {
	st := &m.styles
	if line := m.exportLine(); line != "" {
		return components.Fit(line, m.w)
	}
	lines := requestLines(common.Sanitize(m.top().Request()), m.w)
	for i, l := range lines {
		lead := st.RequestLabel.Render("▸ ")
		if i > 0 {
			lead = "  "
		}
		lines[i] = components.Fit(lead+st.Request.Render(l), m.w)
	}
	return strings.Join(lines, "\n")
}

// requestHeight is how many lines the request takes.
func (m *Model) requestHeight() int {
	if m.exportLine() != "" || m.tooSmall() {
		return 1
	}
	return len(requestLines(common.Sanitize(m.top().Request()), m.w))
}
