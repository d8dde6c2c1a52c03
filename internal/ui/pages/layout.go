package pages

import "strings"

// joinH puts two panes of equal height side by side. Both are built to
// exact widths, so lines are simply concatenated (lipgloss.JoinHorizontal
// would measure every line again on each frame).
func joinH(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	for i := 0; i < max(len(la), len(lb)); i++ {
		if i > 0 {
			out.WriteByte('\n')
		}
		if i < len(la) {
			out.WriteString(la[i])
		}
		if i < len(lb) {
			out.WriteString(lb[i])
		}
	}
	return out.String()
}
