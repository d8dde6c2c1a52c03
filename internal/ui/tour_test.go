package ui

import (
	"strings"
	"testing"
)

// TestTourOpensEachStop: --demo opens on the tour; each stop's key opens
// its view, reading its table; esc from a stop climbs to its partitions,
// and from the tour goes to the tables.
func TestTourOpensEachStop(t *testing.T) {
	want := []string{"53 prefixes", "20 prefixes", "versioned item", "2 items", " · delimiter ", "ByTime", "shards of seattle-{1..4}", "versioned item", "AuditLog",
		" · delimiter ", " · delimiter ", "versioned item", " · delimiter "}
	for i, s := range tourStops {
		h := newHarness(t, 120, 35, Config{Tour: true, Now: demoClock})
		h.contains(t, "Demo tour", s.title, "2026-11-01 00:00 UTC")
		h.keys(string(tourKeys[i]))
		if strings.Contains(h.screen(), "Demo tour") {
			t.Fatalf("stop %d did not open:\n%s", i+1, h.screen())
		}
		h.contains(t, "Tables › "+s.open.Table, want[i])
		if strings.Contains(h.screen(), "Something went wrong") {
			t.Fatalf("stop %d failed:\n%s", i+1, h.screen())
		}
	}
}

func TestTourKeys(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
	h.golden(t)
	if h.rec.count("Scan")+h.rec.count("Query") != 0 {
		t.Fatal("the tour read before anything was picked")
	}
	h.keys("down", "down", "enter")
	h.contains(t, "Equipment", "versioned items")
	h.keys("?")
	h.contains(t, "T demo tour")
	h.keys("T")
	h.contains(t, "Demo tour")
	h.keys("esc") // back where T was pressed
	h.contains(t, "versioned items")
	h = newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
	h.keys("esc")
	h.contains(t, "Locations", "READ-ONLY")
	if strings.Contains(h.screen(), "Demo tour") {
		t.Fatal("esc stayed on the tour")
	}
}
