// Package components holds the explorer's reusable widgets.
package components

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/ui/common"
)

// Column is a grid column: a title and a width in cells (0: share the rest).
type Column struct {
	Title string
	// Short is the title where Title does not fit whole ("Size" for
	// "Size (est.)"), and where neither does the column is left out;
	// "": Title, cut where it must be.
	Short string
	Width int
	Keep  bool // shrunk only when the other columns cannot give more
	// Must is never left out: the keys are narrowed to make its room (a
	// tree's Items beside a 900-character segment, which otherwise took
	// the row, the counts c made with it).
	Must bool
}

// title is c's title in w cells: Title, or Short where only it fits.
func (c Column) title(w int) string {
	if common.Width(c.Title) > w && c.Short != "" {
		return c.Short
	}
	return c.Title
}

// titleWidth is the fewest cells that show c's title whole.
func (c Column) titleWidth() int {
	if c.Short != "" {
		return min(common.Width(c.Short), common.Width(c.Title))
	}
	return common.Width(c.Title)
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
	pinned         int // the first rows, shown whatever the scroll
}

// SetPinned keeps the first n rows on screen while the rest scroll (the
// current copy above a thousand revisions).
func (g *Grid) SetPinned(n int) {
	g.pinned = n
	g.clamp()
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

// RowText is row i's cells as plain text, for search.
func (g *Grid) RowText(i int) string {
	if i < 0 || i >= g.rows {
		return ""
	}
	cells := make([]string, len(g.cols))
	for c := range g.cols {
		cells[c] = ansi.Strip(g.cell(i, c))
	}
	return strings.Join(cells, "  ")
}

// Visible is how many rows fit.
func (g *Grid) Visible() int { return max(1, g.height-1) }

func (g *Grid) clamp() {
	g.cursor = max(0, min(g.cursor, g.rows-1))
	pin := min(g.pinned, g.rows)
	vis := max(1, g.Visible()-pin) // the scrolled rows below the pinned
	if g.cursor >= pin {
		if g.cursor < g.offset {
			g.offset = g.cursor
		}
		if g.cursor >= g.offset+vis {
			g.offset = g.cursor - vis + 1
		}
	} else {
		// On a pinned row the rest show from their start, where ↓ goes
		// next: g from v1000 left v0999 and v1000 under the pinned
		// v0000, read as the revisions after it.
		g.offset = pin
	}
	g.offset = max(pin, min(g.offset, g.rows-vis))
}

// Shown are the rows on screen, in order: the pinned, then the scrolled.
func (g *Grid) Shown() []int { return g.shown() }

// shown are the rows on screen, in order: the pinned, then the scrolled.
func (g *Grid) shown() []int {
	var out []int
	pin := min(g.pinned, g.rows)
	for r := 0; r < pin && len(out) < g.Visible(); r++ {
		out = append(out, r)
	}
	for r := g.offset; r < g.rows && len(out) < g.Visible(); r++ {
		out = append(out, r)
	}
	return out
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
	shown := g.shown()
	if y < 1 || y > len(shown) {
		return false
	}
	row := shown[y-1]
	if row == g.cursor {
		return true
	}
	g.cursor = row
	g.clamp()
	return false
}

// minCol is the narrowest a column other than a key is shown: narrower,
// it is left out rather than cut to a stub.
const minCol = 6

// widths fits the columns to the grid. Key columns (Keep) get their
// widest visible cell; the others follow in order at their own width
// while they fit, the last one that fits (its title whole) takes what is
// left, and the rest are left out: a readable few beat every column cut to "fal…". Only when
// the keys alone are too wide is a key narrowed (and cut in its middle).
func (g *Grid) widths() []int {
	natural := make([]int, len(g.cols))
	full := make([]int, len(g.cols)) // before the cap at 48
	for i, c := range g.cols {
		if c.Width > 0 {
			natural[i] = c.Width
			continue
		}
		natural[i] = common.Width(c.Title)
		for _, r := range g.shown() {
			natural[i] = max(natural[i], common.Width(g.cell(r, i)))
		}
		full[i] = natural[i]
		if !c.Keep {
			natural[i] = min(natural[i], 48)
		}
	}
	out := make([]int, len(g.cols))
	left := g.width
	for i, c := range g.cols {
		if c.Keep {
			out[i] = natural[i]
			left -= natural[i] + 2
		}
	}
	left += 2 // no gap before the first column
	// The room the columns that must show take after the keys, each at
	// its own width (at most 48): pending[i] is what those after i take.
	pending := make([]int, len(g.cols)+1)
	for i := len(g.cols) - 1; i >= 0; i-- {
		pending[i] = pending[i+1]
		if c := g.cols[i]; c.Must && !c.Keep {
			pending[i] += natural[i] + 2
		}
	}
	for left < pending[0] { // the keys are too wide: narrow the widest
		widest := -1
		for i, c := range g.cols {
			if c.Keep && out[i] > minCol && (widest < 0 || out[i] > out[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		out[widest]--
		left++
	}
	for i, c := range g.cols {
		if c.Keep {
			continue
		}
		room := left - 2 - pending[i+1]
		if !c.Must && pending[i+1] > 0 && room < min(minCol, natural[i]) {
			continue // left out for a column that must show after it
		}
		// A column with a short title shows at least one of its titles
		// whole: "Size (es…" is left out with the columns after it. An
		// attribute's column keeps the room it had ("StreetAddr…" still
		// names it, and its values are what is read).
		need := minCol
		if c.Short != "" {
			need = max(minCol, c.titleWidth())
		}
		if room < min(need, natural[i]) {
			break
		}
		if room < natural[i] && room < g.widestCell(i) && g.numeric(i) {
			// A number cut reads as another number ("16038684000…" of
			// an epoch in milliseconds): left out, as too narrow a column
			// (its title may be cut: "Tempe…" above 17.1 says no figure).
			break
		}
		out[i] = min(natural[i], room)
		left -= out[i] + 2
	}
	// Room left over goes to the columns held to 48 cells, in order: a
	// long partition key is not cut beside free space.
	for i := range g.cols {
		if left <= 0 {
			break
		}
		if out[i] > 0 && full[i] > out[i] {
			more := min(full[i]-out[i], left)
			out[i] += more
			left -= more
		}
	}
	return out
}

// Wanted is the width the grid needs to show every visible cell whole:
// a page with room to spare (beside a preview) can give it that much.
func (g *Grid) Wanted() int {
	total := 0
	for i, c := range g.cols {
		w := c.Width
		if w == 0 {
			w = common.Width(c.Title)
			for _, r := range g.shown() {
				w = max(w, common.Width(g.cell(r, i)))
			}
		}
		if i > 0 {
			total += 2
		}
		total += w
	}
	return total
}

// widestCell is the width of column i's widest visible cell.
func (g *Grid) widestCell(i int) int {
	w := 0
	for _, r := range g.shown() {
		w = max(w, common.Width(g.cell(r, i)))
	}
	return w
}

// numeric reports whether every non-empty visible cell of column i is a
// number (or "–", no figure), so that the column is right-aligned: a
// tree's counts, some not counted yet, stay aligned on their last digit.
func (g *Grid) numeric(i int) bool {
	any := false
	for _, r := range g.shown() {
		s := strings.TrimSuffix(ansi.Strip(g.cell(r, i)), "…")
		if s == "" || s == "–" {
			continue
		}
		for j, ch := range s {
			if !(ch >= '0' && ch <= '9' || ch == ',' || ch == '.' || (j == 0 && ch == '-')) {
				return false
			}
		}
		any = true
	}
	return any
}

// FitKey fits a key cell to w cells: cut in its middle (FitMiddle), or,
// where it holds a date, around the date, which is kept whole
// (cutAroundTime).
func FitKey(s string, w int) string {
	if w >= 3 && common.Width(s) > w {
		if cut, ok := cutAroundTime(s, w); ok {
			return cut + strings.Repeat(" ", max(0, w-common.Width(cut)))
		}
	}
	return FitMiddle(s, w)
}

// FitMiddle cuts s to w cells in its middle, keeping its start and its
// end: two sort keys that differ only at the end stay apart.
func FitMiddle(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := common.Width(s)
	if sw <= w {
		return s + strings.Repeat(" ", w-sw)
	}
	if w < 3 {
		return common.Truncate(s, w, "")
	}
	head := (w - 1) / 2
	tail := w - 1 - head
	return common.Truncate(s, head, "") + "…" + common.TruncateLeft(s, sw-tail)
}

// FitRight pads s on the left to w cells (numbers), cutting it like Fit.
func FitRight(s string, w int) string {
	if common.Width(s) >= w {
		return Fit(s, w)
	}
	return strings.Repeat(" ", w-common.Width(s)) + s
}

// Fit truncates or pads s to exactly w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if common.Width(s) > w {
		s = common.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", max(0, w-common.Width(s)))
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
	right := make([]bool, len(g.cols))
	var hdr []string
	for i, c := range g.cols {
		if ws[i] > 0 {
			right[i] = g.numeric(i) // a number sort key (an LSI's) too
			if right[i] {
				hdr = append(hdr, FitRight(c.title(ws[i]), ws[i]))
			} else {
				hdr = append(hdr, Fit(c.title(ws[i]), ws[i]))
			}
		}
	}
	b.WriteString(st.Header.Render(Fit(strings.Join(hdr, "  "), g.width)))
	shown := g.shown()
	for i := range g.Visible() {
		b.WriteByte('\n')
		if i >= len(shown) {
			b.WriteString(strings.Repeat(" ", g.width))
			continue
		}
		r := shown[i]
		var cells []string
		for i, c := range g.cols {
			switch {
			case ws[i] <= 0:
			case right[i]:
				cells = append(cells, FitRight(g.cell(r, i), ws[i]))
			case c.Keep:
				cells = append(cells, FitKey(g.cell(r, i), ws[i]))
			default:
				cells = append(cells, Fit(g.cell(r, i), ws[i]))
			}
		}
		line := Fit(strings.Join(cells, "  "), g.width)
		if r == g.cursor {
			// Plain text under the selection: a styled cell (the dim
			// delimiter of a prefix) would end the highlight part way.
			b.WriteString(st.Selected.Render(ansi.Strip(line)))
		} else if s := g.styleOf(r); s != nil {
			b.WriteString(s.Render(line))
		} else {
			b.WriteString(line) // the terminal's own colour: no styling cost per row
		}
	}
	return b.String()
}
