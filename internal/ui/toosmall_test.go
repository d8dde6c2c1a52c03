package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestTooSmallTakesOnlyQuit: behind "Terminal too small" keys drilled in
// and read unseen; now only q and ctrl+c act.
func TestTooSmallTakesOnlyQuit(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Locations", PK: "USA", Now: demoClock})
	h.send(tea.WindowSizeMsg{Width: 40, Height: 10})
	reads := h.rec.count("Query")
	depth := len(h.m.stack)
	h.keys("enter", "down", "enter", "2", "3", "4", "f", "/", "t", "?", "esc", "r", "c", "e")
	if n := h.rec.count("Query") - reads; n != 0 || len(h.m.stack) != depth || h.m.showHelp || h.m.export.naming {
		t.Fatalf("keys acted behind the notice: %d reads, %d pages (was %d), help %v, export %v", n, len(h.m.stack), depth, h.m.showHelp, h.m.export.naming)
	}
	for _, k := range []tea.KeyPressMsg{keyPress("q"), {Code: 'c', Mod: tea.ModCtrl}} {
		_, cmd := h.m.Update(k)
		if cmd == nil {
			t.Fatalf("%s did not quit", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Fatalf("%s did not quit", k)
		}
	}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.contains(t, "Locations › USA", "row 1 of")
}

// TestTooSmallNoticeFits: the notice is whole at any size (at 40 columns
// it was cut), in the longest wording that fits.
func TestTooSmallNoticeFits(t *testing.T) {
	for _, sz := range [][2]int{{59, 24}, {40, 10}, {30, 6}, {16, 3}, {8, 2}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			h := newHarness(t, 100, 30, Config{Now: demoClock})
			h.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			screen := ansi.Strip(h.m.render())
			lines := strings.Split(screen, "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%d lines", len(lines))
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > sz[0] {
					t.Fatalf("a line wider than %d: %q", sz[0], l)
				}
			}
			words := strings.Join(strings.Fields(screen), " ")
			if !strings.Contains(words, "q quits") && !strings.Contains(words, "press q to quit") {
				t.Fatalf("the notice does not say q quits:\n%s", screen)
			}
			if strings.Contains(screen, "…") {
				t.Fatalf("the notice is cut:\n%s", screen)
			}
			h.golden(t)
		})
	}
}
