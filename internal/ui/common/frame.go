package common

import (
	"strings"
)

// Frame draws content in a rounded box of exactly w×h cells with a title in
// the top border. Content lines are cut or padded to fit.
func Frame(st *Styles, title, content string, w, h int) string {
	if w < 4 || h < 2 {
		return ""
	}
	inner := w - 4
	border := st.Dim
	top := "╭─"
	if title != "" {
		t := CutWords(title, max(0, w-6)) // a figure never shown in part
		top += " " + st.FrameTitle.Render(t) + " " + border.Render(strings.Repeat("─", max(0, w-5-Width(t))))
	} else {
		top += border.Render(strings.Repeat("─", w-3))
	}
	var b strings.Builder
	b.WriteString(border.Render("╭─") + strings.TrimPrefix(top, "╭─") + border.Render("╮"))
	lines := strings.Split(content, "\n")
	side := border.Render("│") // rendered once: styling is the costly part
	for i := 0; i < h-2; i++ {
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		if Width(line) > inner {
			// Padding (a viewport's, counted by grapheme) is not text: it
			// goes first, without a "…".
			line = strings.TrimRight(line, " ")
		}
		if Width(line) > inner {
			line = Truncate(line, inner, "…")
		}
		line += strings.Repeat(" ", max(0, inner-Width(line)))
		b.WriteString("\n" + side + " " + line + " " + side)
	}
	b.WriteString("\n" + border.Render("╰"+strings.Repeat("─", w-2)+"╯"))
	return b.String()
}
