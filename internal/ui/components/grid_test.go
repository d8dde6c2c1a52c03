package components

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
)

func testGrid(rows int) Grid {
	st := common.DefaultStyles(true)
	g := NewGrid(&common.Common{Styles: &st, Keys: keymap.Default()})
	g.SetColumns([]Column{{Title: "Revision", Keep: true}, {Title: "Changes"}})
	g.SetRows(rows, func(r, c int) string {
		if c == 0 {
			return fmt.Sprintf("v%d", r)
		}
		return fmt.Sprint(r % 7)
	})
	return g
}

// TestGridPinned: the pinned row stays on top however far the rest
// scroll, and clicks map to the rows shown.
func TestGridPinned(t *testing.T) {
	cases := []struct{ cursor, wantLast int }{{0, 9}, {5, 9}, {500, 500}, {999, 999}}
	for _, c := range cases {
		g := testGrid(1000)
		g.SetPinned(1)
		g.SetSize(40, 11) // a header and 10 rows
		g.SetCursor(c.cursor)
		shown := g.shown()
		if len(shown) != 10 || shown[0] != 0 || shown[9] != c.wantLast {
			t.Fatalf("cursor %d: rows shown %v", c.cursor, shown)
		}
		lines := strings.Split(ansi.Strip(g.View()), "\n")
		if !strings.HasPrefix(lines[1], "v0 ") {
			t.Fatalf("cursor %d: v0 not pinned: %q", c.cursor, lines[1])
		}
		g.Click(1) // the pinned row
		if g.Cursor() != 0 && c.cursor != 0 {
			t.Fatalf("a click on the pinned row selected %d", g.Cursor())
		}
	}
}

// TestGridPinnedTop: on the pinned row the scrolled rows show from
// their start, where ↓ goes next: g from the last row, or a click on the
// pinned row, showed the last rows under it as if they followed it.
func TestGridPinnedTop(t *testing.T) {
	for _, move := range []func(g *Grid){
		func(g *Grid) { g.Update(tea.KeyPressMsg{Code: 'g', Text: "g"}) },
		func(g *Grid) { g.Click(1) },
	} {
		g := testGrid(1000)
		g.SetPinned(1)
		g.SetSize(40, 11)
		g.SetCursor(999)
		move(&g)
		if shown := g.shown(); g.Cursor() != 0 || len(shown) != 10 || shown[1] != 1 || shown[9] != 9 {
			t.Fatalf("on the pinned row (cursor %d) rows shown %v, want 0…9", g.Cursor(), shown)
		}
	}
}

// TestGridRightAlignsNumbers and cuts a key in its middle, never its end.
func TestGridLayout(t *testing.T) {
	st := common.DefaultStyles(true)
	g := NewGrid(&common.Common{Styles: &st, Keys: keymap.Default()})
	g.SetColumns([]Column{{Title: "SK", Keep: true}, {Title: "Size"}, {Title: "Note"}})
	keys := []string{"NY#NEWYORKCITY#62700", "NY#NEWYORKCITY#62700#2"}
	g.SetRows(2, func(r, c int) string {
		switch c {
		case 0:
			return keys[r]
		case 1:
			return []string{"7", "1,234"}[r]
		}
		return "a note that is rather long"
	})
	g.SetSize(40, 3)
	lines := strings.Split(ansi.Strip(g.View()), "\n")
	if !strings.Contains(lines[1], "NY#NEWYORKCITY#62700        7  ") || !strings.Contains(lines[2], "NY#NEWYORKCITY#62700#2  1,234") {
		t.Fatalf("keys whole, numbers right-aligned:\n%s", strings.Join(lines, "\n"))
	}
	// A column of figures with one not known yet ("–") stays a column of
	// figures, aligned on their last digit.
	g.SetRows(2, func(r, c int) string {
		switch c {
		case 0:
			return keys[r]
		case 1:
			return []string{"–", "1,234"}[r]
		}
		return "a note that is rather long"
	})
	lines = strings.Split(ansi.Strip(g.View()), "\n")
	if !strings.Contains(lines[1], "NY#NEWYORKCITY#62700        –  ") || !strings.Contains(lines[2], "NY#NEWYORKCITY#62700#2  1,234") {
		t.Fatalf("a dash among figures, right-aligned:\n%s", strings.Join(lines, "\n"))
	}
	g.SetSize(12, 3) // narrower than the key: its middle goes
	lines = strings.Split(ansi.Strip(g.View()), "\n")
	if !strings.HasSuffix(strings.TrimSpace(lines[2]), "2700#2") || !strings.Contains(lines[2], "…") {
		t.Fatalf("the key's end was cut: %q", lines[2])
	}
}

// TestGridNeverCutsATitle: a column with a short title shows one of its
// titles whole, or is left out where neither fits: never "Size (es…"
// (the tables list at 80 columns).
func TestGridNeverCutsATitle(t *testing.T) {
	st := common.DefaultStyles(true)
	g := NewGrid(&common.Common{Styles: &st, Keys: keymap.Default()})
	g.SetColumns([]Column{{Title: "Table", Keep: true}, {Title: "Indexes"}, {Title: "Size (est.)", Short: "(est.) Size"}})
	g.SetRows(1, func(r, c int) string { return []string{"shop", "LSI byStatus, GSI openOrders", "–"}[c] })
	for _, w := range []int{40, 44, 45, 47, 48, 60} {
		g.SetSize(w, 2)
		header := strings.Split(ansi.Strip(g.View()), "\n")[0]
		if strings.Contains(header, "…") || w >= 48 != strings.Contains(header, "Size (est.)") || w < 48 && strings.Contains(header, "Size") {
			t.Errorf("%d columns: header %q", w, header)
		}
	}
	// With a short title, the column stays where that fits whole.
	g.SetColumns([]Column{{Title: "Table", Keep: true}, {Title: "Indexes"}, {Title: "Size (est.)", Short: "Size"}})
	g.SetSize(45, 2)
	if header := strings.Split(ansi.Strip(g.View()), "\n")[0]; !strings.HasSuffix(strings.TrimSpace(header), "  Size") {
		t.Errorf("45 columns, a short title: header %q", header)
	}
}

// TestGridSelectionCoversTheRow: the selected row is highlighted from its
// first column to the grid's edge in one piece, even where a cell carries
// its own style (a prefix's dim delimiter would end the highlight there).
func TestGridSelectionCoversTheRow(t *testing.T) {
	st := common.DefaultStyles(true)
	g := NewGrid(&common.Common{Styles: &st, Keys: keymap.Default()})
	g.SetColumns([]Column{{Title: "Segment", Keep: true}, {Title: "Kind"}})
	g.SetRows(2, func(r, c int) string {
		if c == 0 {
			return "▸ NY" + st.Dim.Render("#")
		}
		return "prefix"
	})
	g.SetSize(30, 3)
	line := strings.Split(g.View(), "\n")[1]
	want := st.Selected.Render(ansi.Strip(line))
	if line != want || ansi.StringWidth(line) != 30 || !strings.HasPrefix(ansi.Strip(line), "▸ NY#    prefix") {
		t.Fatalf("the selected row is not one highlight across the row:\n%q\nwant\n%q", line, want)
	}
}

// TestGridUsesFreeRoom (25.22, 25.21): a long partition key is held to 48
// cells only while other columns need the room; a number key column (an
// LSI's sort key) is right-aligned like any number.
func TestGridUsesFreeRoom(t *testing.T) {
	st := common.DefaultStyles(true)
	g := NewGrid(&common.Common{Styles: &st, Keys: keymap.Default()})
	g.SetColumns([]Column{{Title: "Partition key"}, {Title: "Sort keys seen"}})
	long := strings.Repeat("tenant-0042#", 8) + "END"
	g.SetRows(1, func(r, c int) string { return []string{long, "3"}[c] })
	g.SetSize(200, 2)
	if line := ansi.Strip(g.View()); !strings.Contains(line, long) {
		t.Fatalf("the key is cut beside free room:\n%s", line)
	}
	g.SetColumns([]Column{{Title: "Price", Keep: true}, {Title: "Name"}})
	g.SetRows(2, func(r, c int) string { return [][]string{{"7", "a"}, {"1,234", "b"}}[r][c] })
	g.SetSize(40, 3)
	lines := strings.Split(ansi.Strip(g.View()), "\n")
	if !strings.HasPrefix(lines[1], "    7  a") {
		t.Fatalf("a number key is left-aligned:\n%s", strings.Join(lines, "\n"))
	}
}

// TestGridNeverCutsANumber: a column of numbers that does not fit whole
// is left out, not cut: "16038684000…" (onetable's admitted, an epoch in
// milliseconds, beside a preview at 200 columns) read as another number.
func TestGridNeverCutsANumber(t *testing.T) {
	st := common.DefaultStyles(true)
	g := NewGrid(&common.Common{Styles: &st, Keys: keymap.Default()})
	g.SetColumns([]Column{{Title: "SK", Keep: true}, {Title: "type"}, {Title: "admitted"}})
	g.SetRows(2, func(r, c int) string {
		return [][]string{{"admission#1603868400000#R1", "Admission", "1603868400000"}, {"admission#1603058400000#R1", "Admission", "1603058400000"}}[r][c]
	})
	for _, w := range []int{26 + 2 + 9 + 2 + 10, 26 + 2 + 9 + 2 + 13, 80} {
		g.SetSize(w, 3)
		view := ansi.Strip(g.View())
		if strings.Contains(view, "160386") && !strings.Contains(view, "1603868400000") || strings.Contains(view, "0…") {
			t.Errorf("%d cells: a number is cut:\n%s", w, view)
		}
		if w >= 26+2+9+2+13 && !strings.Contains(view, "1603868400000") {
			t.Errorf("%d cells: the number is left out where it fits:\n%s", w, view)
		}
	}
}

// TestFitKeyKeepsTheDate: a key cut to fit keeps its date and time
// whole, cutting the parts around it; the rows of a list of readings
// stay apart at 80 columns (25.22).
func TestFitKeyKeepsTheDate(t *testing.T) {
	long := "DEVICE#sensor-0042#READING#2026-10-31T13:00:58.123456Z#temperature#celsius#calibration-run-00017"
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{long, 76, "DEVICE#sensor-0042#READING#2026-10-31T13:00:58.123456Z#temperatu…n-run-00017"},
		{long, 40, "DE…NG#2026-10-31T13:00:58.123456Z#te…017"},
		{"comm#2023-04-01T10:00:00#comm1", 24, "…#2023-04-01T10:00:00#…1"},
		{"JFK#2021-08-01T07:25:00#250#0", 26, "JFK#2021-08-01T07:25:00#…0"},
		{"2026-10-31T13:00:58.123456Z#a-very-long-tail", 34, "2026-10-31T13:00:58.123456Z#a-…ail"},
		{"no date in this rather long key at all", 20, "no date i…key at all"},
		{long, 20, "DEVICE#se…-run-00017"}, // no room for the date: cut in the middle
	} {
		got := FitKey(tc.in, tc.w)
		if got != tc.want || ansi.StringWidth(got) != tc.w {
			t.Errorf("FitKey(%q, %d) = %q (%d cells), want %q", tc.in, tc.w, got, ansi.StringWidth(got), tc.want)
		}
	}
}

// BenchmarkGridView draws a screen of 29 rows of a key and a 300-byte
// value at 120 columns, as every View of the items list does (200 keys
// typed at once: 200 of them).
func BenchmarkGridView(b *testing.B) {
	st := common.DefaultStyles(true)
	g := NewGrid(&common.Common{Styles: &st, Keys: keymap.Default()})
	g.SetColumns([]Column{{Title: "SK", Keep: true}, {Title: "Data"}, {Title: "Status"}})
	data := strings.Repeat("b", 300)
	g.SetRows(5000, func(r, c int) string {
		switch c {
		case 0:
			return fmt.Sprint(r)
		case 1:
			return data
		}
		return "ACTIVE"
	})
	g.SetSize(120, 30)
	for b.Loop() {
		g.SetCursor(g.Cursor() + 29)
		_ = g.View()
	}
}

// TestGridMustColumnBesideALongKey: a column that must show keeps its
// room beside a key wider than the grid (the key is cut in its middle);
// the columns between that do not fit are left out for it.
func TestGridMustColumnBesideALongKey(t *testing.T) {
	st := common.DefaultStyles(true)
	g := NewGrid(&common.Common{Styles: &st, Keys: keymap.Default()})
	g.SetColumns([]Column{{Title: "Segment", Keep: true}, {Title: "Kind"}, {Title: "Items", Must: true}})
	long := strings.Repeat("S", 900) + "#"
	g.SetRows(1, func(r, c int) string { return []string{long, "prefix", "7"}[c] })
	for _, w := range []int{20, 78, 198} {
		g.SetSize(w, 2)
		lines := strings.Split(ansi.Strip(g.View()), "\n")
		if !strings.HasSuffix(strings.TrimRight(lines[0], " "), "Items") || !strings.HasSuffix(strings.TrimRight(lines[1], " "), " 7") {
			t.Errorf("at %d cells the count is not shown:\n%s", w, strings.Join(lines, "\n"))
		}
		if !strings.Contains(lines[1], "…") || !strings.HasPrefix(lines[1], "SSS") {
			t.Errorf("at %d cells the key is not cut in its middle:\n%s", w, strings.Join(lines, "\n"))
		}
	}
}
