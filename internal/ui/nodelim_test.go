package ui

import (
	"strings"
	"testing"
)

// TestTreeNoDelimiter: binary keys where no delimiter repeats (two of
// Blobs' 48 hold a byte 0x23) are listed whole, and the tree says so in
// its title, its request line, its reopen command and the D picker;
// choosing # there splits them, choosing "no delimiter" lists them whole
// again (25.20).
func TestTreeNoDelimiter(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Blobs", PK: "images"})
	h.contains(t, "images · 48 items · all · no delimiter", "• b64:I/4H", "· no delimiter · 2 req")
	if s := h.screen(); strings.Contains(s, "(empty)") || strings.Contains(s, "prefix") {
		t.Fatalf("a binary key split at 0x23:\n%s", s)
	}
	if got := h.m.commandLine(); !strings.HasSuffix(got, "--delimiter none") {
		t.Fatalf("reopens with %q", got)
	}
	before := h.rec.count("Query")
	h.keys("D")
	h.contains(t, "●   no delimiter  0 of 20")
	if h.rec.count("Query") != before {
		t.Fatal("the delimiter picker read something")
	}
	h.keys("up", "up", "up", "up", "up", "up", "up", "enter") // # : split where the keys hold 0x23
	h.contains(t, "images · 2 prefixes · 46 items · all · delimiter #", "▸ (empty)#", "· skip-scan ")
	h.keys("D")
	h.contains(t, "●   #")
	h.keys("down", "down", "down", "down", "down", "down", "down", "enter")
	h.contains(t, "images · 48 items · all · no delimiter", "• b64:I/4H")
}

// TestTreeDelimiterNone: --delimiter none opens a level with every key
// whole, even where a delimiter repeats; so does "no delimiter" in the D
// picker, and reading the level again keeps it (none is a state of its
// own, not "detect again").
func TestTreeDelimiterNone(t *testing.T) {
	whole := func(h *harness) {
		t.Helper()
		h.contains(t, "FRANCE · 63 items · all · no delimiter", "• ILE-DE-FRANCE#PARIS#75001")
		if s := h.screen(); strings.Contains(s, "│ ▸ ") {
			t.Fatalf("a prefix row with no delimiter:\n%s", s)
		}
	}
	whole(newHarness(t, 120, 35, Config{Table: "Locations", PK: "FRANCE", Delimiter: "none"}))
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "FRANCE"})
	h.contains(t, "FRANCE · 4 prefixes · all · delimiter #")
	h.keys("D", "down", "down", "down", "down", "down", "down", "down", "enter")
	whole(h)
	h.keys("r")
	whole(h)
}

// TestTreeDelimiterNoneUnderAPrefix: --prefix with --delimiter none lists
// the keys under the prefix whole, the prefix one step of the breadcrumb,
// and reopens the same way.
func TestTreeDelimiterNoneUnderAPrefix(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#", Delimiter: "none"})
	h.contains(t, "Locations › USA › NY#NEWYORKCITY#", "NY#NEWYORKCITY# · ", "items · all · no delimiter", "• 62700#")
	if got := h.m.commandLine(); !strings.HasSuffix(got, "--prefix 'NY#NEWYORKCITY#' --delimiter none") {
		t.Fatalf("reopens with %q", got)
	}
}
