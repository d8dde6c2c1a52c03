package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestNewPagesTakeAnyKey: the bound keys, and some that are not, on the
// tour, a masked partition (with > and < among them) and a sorted Time
// list, at 80×24: no panic, and the frame still fits. (F waits for polls,
// which a synchronous driver cannot; TestFollowInTimeMode drives it.)
func TestNewPagesTakeAnyKey(t *testing.T) {
	var presses []tea.KeyPressMsg
	for _, b := range []string{"up", "down", "enter", "left", "right", "backspace", "tab", "pgdown", "space"} {
		presses = append(presses, keyPress(b))
	}
	for _, r := range "jkgGsStTxyYdecfoCiDV34?<>[]m0zr/1d9" {
		presses = append(presses, keyPress(string(r)))
	}
	presses = append(presses, tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}, tea.KeyPressMsg{Code: 'i', Mod: tea.ModCtrl})
	for _, cfg := range []Config{
		{Tour: true},
		{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#", Mask: maskLocations},
		{Table: "DeviceLogs", PK: "123", Range: "last 24h"},
	} {
		cfg.Now = demoClock
		h := newHarness(t, 80, 24, cfg)
		for _, p := range presses {
			h.send(p)
			if lines := len(splitLines(h.screen())); lines != 24 {
				t.Fatalf("after %q the screen is %d lines", p.String(), lines)
			}
		}
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if r == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
