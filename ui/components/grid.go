// Package components holds the explorer's reusable widgets.
package components

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/ui/common"
)

// Column is a grid column: a title and a width in cells (0: share the rest).
type Column struct {
	Title string
	Width int
	Keep  bool // shrunk only when the other columns cannot give more
}

// Grid is a virtualized table: it asks for the cells of visible rows only,
// so a hundred thousand loaded rows cost no more to draw than thirty.
type Grid struct {
	c              *common.Common
	cols           []Column
	rows           int
	cell           func(row, col int) string
	cursor, offset int
	width, height  int
	rowStyle       func(row int) *lipgloss.Style
}

// SetRowStyle styles whole rows other than the cursor's (drifted versions
// in red); nil, or a nil answer, leaves a row in the terminal's colour.
func (g *Grid) SetRowStyle(f func(row int) *lipgloss.Style) { g.rowStyle = f }

// NewGrid returns an empty grid.
func NewGrid(c *common.Common) Grid { return Grid{c: c} }

// SetColumns sets the columns.
func (g *Grid) SetColumns(cols []Column) { g.cols = cols }

// Columns returns the columns.
func (g *Grid) Columns() []Column { return g.cols }

// SetRows sets how many rows there are and how to render a cell.
func (g *Grid) SetRows(n int, cell func(row, col int) string) {
	g.rows, g.cell = n, cell
	g.clamp()
}

// SetSize sets the grid's size, the header line included.
func (g *Grid) SetSize(w, h int) {
	g.width, g.height = w, h
	g.clamp()
}

// Cursor is the selected row.
func (g *Grid) Cursor() int { return g.cursor }

// SetCursor selects a row.
func (g *Grid) SetCursor(i int) {
	g.cursor = i
	g.clamp()
}

// Rows is the number of rows.
func (g *Grid) Rows() int { return g.rows }

// Visible is how many rows fit.
func (g *Grid) Visible() int { return max(1, g.height-1) }

func (g *Grid) clamp() {
	g.cursor = max(0, min(g.cursor, g.rows-1))
	vis := g.Visible()
	if g.cursor < g.offset {
		g.offset = g.cursor
	}
	if g.cursor >= g.offset+vis {
		g.offset = g.cursor - vis + 1
	}
	g.offset = max(0, min(g.offset, g.rows-vis))
}

// Update moves the cursor; it reports whether the key was a movement.
func (g *Grid) Update(msg tea.Msg) bool {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false
	}
	keys := g.c.Keys
	switch {
	case key.Matches(k, keys.Up):
		g.cursor--
	case key.Matches(k, keys.Down):
		g.cursor++
	case key.Matches(k, keys.PageUp):
		g.cursor -= g.Visible()
	case key.Matches(k, keys.PageDown):
		g.cursor += g.Visible()
	case key.Matches(k, keys.Top):
		g.cursor = 0
	case key.Matches(k, keys.Bottom):
		g.cursor = g.rows - 1
	default:
		return false
	}
	g.clamp()
	return true
}

// Click handles a click on line y of the grid (0 is its header): a click
// on the selected row reports open; on another row it selects that row.
func (g *Grid) Click(y int) (open bool) {
	row := g.offset + y - 1
	if y < 1 || y > g.Visible() || row >= g.rows {
		return false
	}
	if row == g.cursor {
		return true
	}
	g.cursor = row
	g.clamp()
	return false
}

// widths fits the columns to the grid: each as wide as its widest visible
// cell (fixed widths as given), then the widest shrunk until all fit.
func (g *Grid) widths() []int {
	out := make([]int, len(g.cols))
	for i, c := range g.cols {
		if c.Width > 0 {
			out[i] = c.Width
			continue
		}
		out[i] = ansi.StringWidth(c.Title)
		for r := g.offset; r < min(g.rows, g.offset+g.Visible()); r++ {
			out[i] = max(out[i], ansi.StringWidth(g.cell(r, i)))
		}
		out[i] = min(out[i], 48)
	}
	total := func() int {
		t := 0
		for _, w := range out {
			t += w
		}
		return t + 2*(len(out)-1)
	}
	for total() > g.width {
		widest := -1
		for _, keep := range []bool{false, true} {
			for i := range out {
				if g.cols[i].Keep == keep && out[i] > 4 && (widest < 0 || out[i] > out[widest]) {
					widest = i
				}
			}
			if widest >= 0 {
				break
			}
		}
		if widest < 0 {
			out[len(out)-1] = max(0, out[len(out)-1]-(total()-g.width))
			break
		}
		out[widest]--
	}
	return out
}

// Fit truncates or pads s to exactly w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}

// View renders the header and the visible rows.
func (g *Grid) styleOf(r int) *lipgloss.Style {
	if g.rowStyle == nil {
		return nil
	}
	return g.rowStyle(r)
}

func (g *Grid) View() string {
	st := g.c.Styles
	ws := g.widths()
	var b strings.Builder
	var hdr []string
	for i, c := range g.cols {
		if ws[i] > 0 {
			hdr = append(hdr, Fit(c.Title, ws[i]))
		}
	}
	b.WriteString(st.Header.Render(Fit(strings.Join(hdr, "  "), g.width)))
	vis := g.Visible()
	for r := g.offset; r < g.offset+vis; r++ {
		b.WriteByte('\n')
		if r >= g.rows {
			b.WriteString(strings.Repeat(" ", g.width))
			continue
		}
		var cells []string
		for i := range g.cols {
			if ws[i] > 0 {
				cells = append(cells, Fit(g.cell(r, i), ws[i]))
			}
		}
		line := Fit(strings.Join(cells, "  "), g.width)
		if r == g.cursor {
			b.WriteString(st.Selected.Render(line))
		} else if s := g.styleOf(r); s != nil {
			b.WriteString(s.Render(line))
		} else {
			b.WriteString(line) // the terminal's own colour: no styling cost per row
		}
	}
	return b.String()
}
