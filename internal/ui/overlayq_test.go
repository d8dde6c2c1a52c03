package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// quits reports whether a key press asks the program to quit.
func (h *harness) quits(name string) bool {
	quit := false
	h.press(name, func(msg tea.Msg) bool {
		_, quit = msg.(tea.QuitMsg)
		return !quit
	})
	return quit
}

// TestQClosesOverlays: q over a picker, a prompt or the help closes it as
// esc does, and never quits; q on the page beneath still quits.
func TestQClosesOverlays(t *testing.T) {
	cases := []struct {
		name string
		cfg  func(t *testing.T) Config
		open []string
		want string // on screen while open
	}{
		{"index picker", locations(""), []string{"i"}, "Read Locations through"},
		{"delimiter picker", locations("NY#"), []string{"D"}, "Split the sort keys at"},
		{"partitions index picker", func(*testing.T) Config { return Config{Table: "Locations"} }, []string{"i"}, "Read Locations through"},
		{"column picker", func(*testing.T) Config { return Config{Table: "DeviceLogs", PK: "9000"} }, []string{"C"}, "Columns of DeviceLogs"},
		{"time column picker", func(*testing.T) Config { return Config{Table: "DeviceLogs", PK: "9000"} }, []string{"4", "esc", "C"}, "space show/hide"},
		{"reference picker", func(t *testing.T) Config { return Config{Client: shopDB(t), Table: "Shop", PK: "o#1"} }, []string{"tab", ">"}, "Follow which reference?"},
		{"count prompt", func(*testing.T) Config { return Config{Table: "Locations", PK: "USA", CountBudget: 1} }, []string{"c"}, "Count?"},
		{"help", locations(""), []string{"?"}, "this view:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 120, 35, c.cfg(t))
			before := h.screen()
			h.keys(c.open...)
			h.contains(t, c.want)
			if h.quits("q") {
				t.Fatalf("q quit with the %s open", c.name)
			}
			if s := h.screen(); s == "" || strings.Contains(s, c.want) {
				t.Fatalf("q left the %s open:\n%s", c.name, s)
			}
			if c.name != "reference picker" && c.name != "time column picker" && h.screen() != before {
				t.Fatalf("q did not come back to the page as it was:\n%s\nbefore:\n%s", h.screen(), before)
			}
			if !h.quits("q") {
				t.Fatal("q with nothing open did not quit")
			}
		})
	}
}

func locations(prefix string) func(*testing.T) Config {
	return func(*testing.T) Config { return Config{Table: "Locations", PK: "USA", Prefix: prefix} }
}
