package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestPasteLandsInEveryInput: a bracketed paste lands in the focused
// box, whichever it is, as one line (newlines as spaces, controls
// dropped); the program turns bracketed paste on, and it was dropped.
func TestPasteLandsInEveryInput(t *testing.T) {
	for _, in := range textInputs {
		t.Run(in.name, func(t *testing.T) {
			cfg := in.cfg
			cfg.Now = demoClock
			h := newHarness(t, 120, 35, cfg)
			h.keys(in.open...)
			h.send(tea.PasteMsg{Content: "OK#1\r\nq j\tk\x1b[31m\x07?"})
			got, ok := h.m.typedText()
			if want := "OK#1 q j k[31m?"; !ok || !strings.HasSuffix(got, want) {
				t.Fatalf("pasted into %s: the box holds %q (open: %v), want it to end with %q\n%s", in.name, got, ok, want, h.screen())
			}
		})
	}
}

// TestPasteOutsideAnInputIsNoKeys: a paste with no box open is not taken
// as keys (a pasted q does not quit, j does not move) and says where
// pasted text goes.
func TestPasteOutsideAnInputIsNoKeys(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Now: demoClock})
	before := h.screen()
	h.send(tea.PasteMsg{Content: "jjjq"})
	if _, ok := h.m.typedText(); ok {
		t.Fatal("a box opened")
	}
	h.said(t, "pasted text goes in a text box")
	if !strings.Contains(before, "row 1 of") || !strings.Contains(h.screen(), "row 1 of") {
		t.Fatalf("the cursor moved:\n%s", h.screen())
	}
}

// TestSearchTypesJAndK: / takes j and k as text (/shopk searched "shop").
func TestSearchTypesJAndK(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Now: demoClock})
	h.keys("/", "s", "h", "o", "p", "k", "j")
	if got, _ := h.m.typedText(); got != "shopkj" {
		t.Fatalf("the search holds %q, want shopkj", got)
	}
	h.keys("esc", "/", "W", "A", "down")
	if got, _ := h.m.typedText(); got != "WA" {
		t.Fatalf("↓ typed into the search: %q", got)
	}
}
