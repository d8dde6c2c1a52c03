package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestStatusSaysTheResultFirst: a copy's note starts with what happened
// and, where it does not fit, loses its end, not its middle ("sent the
// item as DynamoDB JSON (291 b…ed a tmux buffer"); ? shows every kept
// message whole, wrapped, newest first, at the three sizes.
func TestStatusSaysTheResultFirst(t *testing.T) {
	tmux := func(context.Context, string) error { return nil }
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			h := newHarness(t, sz[0], sz[1], Config{Table: "DeviceLogs", PK: "123", TmuxBuffer: tmux, Now: demoClock})
			h.keys("enter", "d", "y")
			lines := strings.Split(h.screen(), "\n")
			status := lines[len(lines)-1]
			if !strings.Contains(status, "sent to the clipboard") || strings.Contains(status, "b…ed") {
				t.Fatalf("the status bar: %q", status)
			}
			h.said(t, "sent to the clipboard and a tmux buffer: the item as DynamoDB JSON (")
			h.said(t, "prefix ] pastes the tmux buffer · by OSC 52 (unconfirmed)")
			for range 6 { // twelve messages: ? keeps the last ten
				h.keys("Y", "y")
			}
			h.keys("?")
			h.contains(t, "last messages, newest first:")
			if sz[0] >= 120 && !strings.Contains(strings.Join(strings.Fields(h.screen()), " "), "by OSC 52 (unconfirmed)") {
				t.Fatalf("? does not show the messages whole:\n%s", h.screen())
			}
			h.golden(t)
		})
	}
}
