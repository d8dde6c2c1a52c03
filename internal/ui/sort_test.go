package ui

import (
	"strings"
	"testing"
)

// firstRow is the list's first data line (under the frame's top border
// and the column titles).
func (h *harness) firstRow() string { return strings.Split(h.screen(), "\n")[3] }

// TestSortLoadedRows: s cycles the sort through the visible columns, S
// flips it; numbers sort by value; the title says it is the loaded rows,
// not the table; enter opens the row under the cursor.
func TestSortLoadedRows(t *testing.T) {
	h := newHarness(t, 140, 35, Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"})
	h.keys("tab")
	h.contains(t, "18 items loaded")
	for range 6 { // PK, SK, City, DriveThru, OpenedOn, SquareFeet
		h.keys("s")
	}
	h.contains(t, "sorted by SquareFeet ↑ · 18 loaded rows, not the table")
	if !strings.Contains(h.firstRow(), " 929 ") {
		t.Fatalf("the smallest store is not first: %q", h.firstRow())
	}
	h.keys("S")
	h.contains(t, "sorted by SquareFeet ↓")
	if !strings.Contains(h.firstRow(), " 2520 ") {
		t.Fatalf("the largest store is not first: %q", h.firstRow())
	}
	h.keys("g", "enter") // the cursor stays on its row through a sort; g is the first line
	h.contains(t, `"SquareFeet": 2520`)
	h.keys("esc")
	for range 3 { // StreetAddress, Tags, then the load order again
		h.keys("s")
	}
	if strings.Contains(h.screen(), "sorted by") {
		t.Fatal("s after the last column did not go back to the load order")
	}
}

// TestSortTimeList: the Time list sorts too, by an attribute's number.
func TestSortTimeList(t *testing.T) {
	h := newHarness(t, 160, 35, Config{Table: "DeviceLogs", PK: "9000", Range: "last 24h", Now: demoClock})
	h.keys("s", "s")
	h.contains(t, "sorted by ", "loaded rows, not the table")
	h.keys("S")
	h.contains(t, "↓")
}
