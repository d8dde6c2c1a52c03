package ui

import (
	"fmt"
	"strings"
	"testing"
)

// TestRefusalReasonNeverCut: a mode key refused where its reason does not
// fit the status bar keeps the result whole and points at ?, which shows
// the reason whole; it never ends mid-sentence ("No Versions mode here:
// no sort key here…" at 80×24 on the Workbench's flights, 25.22). Where
// it fits (120×35), the reason is in the bar.
func TestRefusalReasonNeverCut(t *testing.T) {
	const whole = "No Versions mode here: no sort key here begins with v (v0_Audit, v1_Audit…)"
	for _, c := range []struct {
		w, h int
		bar  string
	}{{80, 24, "No Versions mode here · ? says why"}, {120, 35, whole}} {
		t.Run(fmt.Sprintf("%dx%d", c.w, c.h), func(t *testing.T) {
			h := newHarness(t, c.w, c.h, Config{Table: "Workbench", PK: "FLIGHTS#AA"})
			h.keys("3")
			h.said(t, whole)
			lines := strings.Split(h.screen(), "\n")
			status := strings.TrimRight(lines[len(lines)-1], " ")
			if !strings.HasSuffix(status, c.bar) {
				t.Fatalf("status bar %q, want it to end %q", status, c.bar)
			}
			if c.w == 80 {
				h.golden(t)
			}
			h.keys("?")
			h.contains(t, "No Versions mode here: no sort key here begins with v")
		})
	}
}

// TestKeyRefusalNeverCut: a key that does not apply, pressed where the
// status bar has little room (an item at 80 columns), says its result
// whole rather than a reason cut mid-sentence ("modes are…").
func TestKeyRefusalNeverCut(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Table: "Locations", PK: "USA"})
	h.keys("/", "N", "Y", "enter", "enter") // the item NY
	h.contains(t, `"SK": "NY"`)
	for _, k := range []string{"4", "3"} {
		h.keys(k)
		lines := strings.Split(h.screen(), "\n")
		status := strings.TrimRight(lines[len(lines)-1], " ")
		if strings.HasSuffix(status, "…") || !strings.Contains(status, "does not apply here") {
			t.Fatalf("after %s the status bar reads %q: want the refusal's result whole", k, status)
		}
	}
}
