package ui

import (
	"strings"
	"testing"
)

// TestRefBackReturnsWithoutReading: < goes back one move, to the view the
// user left (a mode switch is a move), and shows it as it was: nothing
// between is read again, nor the view itself (25.20).
func TestRefBackReturnsWithoutReading(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations"})
	h.keys("enter")
	h.keys("2", "down", "down")
	items := h.screen()
	h.keys("esc")
	reads := h.rec.count("Query") + h.rec.count("Scan")
	h.keys("<")
	if got := h.screen(); got != items {
		t.Errorf("< after esc did not come back to the items as left:\n%s\nwant\n%s", got, items)
	}
	if n := h.rec.count("Query") + h.rec.count("Scan") - reads; n != 0 {
		t.Errorf("< read %d pages again", n)
	}
	h.keys("1") // back to the tree by a mode key
	reads = h.rec.count("Query") + h.rec.count("Scan")
	h.keys("<")
	if got := h.screen(); !strings.Contains(got, "items loaded") || got != items {
		t.Errorf("< after a mode switch did not come back to the items:\n%s\nwant\n%s", got, items)
	}
	if n := h.rec.count("Query") + h.rec.count("Scan") - reads; n != 0 {
		t.Errorf("< read %d pages again", n)
	}
}

// TestRefBackHistoryLetsGo: the views < can bring back keep what they
// read, and only those: after many moves the explorer holds no more
// pages than its history can reach.
func TestRefBackHistoryLetsGo(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations"})
	h.keys("enter", "2")
	for range maxHistory + 50 {
		h.keys("enter", "esc")
	}
	if n := len(h.m.started); n > maxHistory+10 {
		t.Fatalf("%d pages held after %d moves; the history reaches at most %d", n, 2*(maxHistory+50), maxHistory+10)
	}
}
