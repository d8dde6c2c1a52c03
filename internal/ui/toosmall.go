package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/ui/common"
)

// tooSmallView is the notice shown instead of the explorer below
// MinWidth×MinHeight: the longest wording that fits whole, wrapped, down
// to a bare "q quits" on the tiniest screen; never cut mid-word.
func (m *Model) tooSmallView() string {
	st := &m.styles
	need := fmt.Sprintf("%d×%d here; dynascope needs at least %d×%d.", m.w, m.h, MinWidth, MinHeight)
	short := fmt.Sprintf("%d×%d; needs %d×%d.", m.w, m.h, MinWidth, MinHeight)
	title, text, hint := st.Notice, lipgloss.NewStyle(), st.Dim
	type line struct {
		text  string
		style lipgloss.Style
	}
	for _, wording := range [][]line{
		{{"Terminal too small", title}, {need, text}, {"Enlarge the window, or press q to quit.", hint}},
		{{"Terminal too small", title}, {short, text}, {"Enlarge it, or q quits.", hint}},
		{{"Too small", title}, {short, text}, {"q quits", hint}},
		{{"Too small", title}, {"q quits", hint}},
	} {
		var out []string
		fits := true
		for _, l := range wording {
			for _, w := range strings.Split(common.Wrap(l.text, max(1, m.w)), "\n") {
				fits = fits && ansi.StringWidth(w) <= m.w
				out = append(out, l.style.Render(w))
			}
		}
		if fits && len(out) <= m.h {
			return lipgloss.Place(m.w, m.h, lipgloss.Center, lipgloss.Center, strings.Join(out, "\n"))
		}
	}
	return lipgloss.Place(m.w, m.h, lipgloss.Center, lipgloss.Center, hint.Render(ansi.Truncate("q quits", m.w, "")))
}
