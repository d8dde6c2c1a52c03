package common

import (
	"image/color"
	"math"
	"testing"

	"charm.land/lipgloss/v2"
)

// TestStylesFor: NO_COLOR keeps the selection and drift visible without
// colour; high contrast selects with full foreground/background.
func TestStylesFor(t *testing.T) {
	if s := StylesFor("auto", true, true); !s.Selected.GetReverse() || !s.Drift.GetUnderline() {
		t.Error("NO_COLOR: the selection must be reversed and drift underlined")
	}
	if s := StylesFor("auto", true, false); s.Selected.GetReverse() {
		t.Error("colour terminals select with a background, not reverse")
	}
	hc := StylesFor("high-contrast", true, false)
	if hc.Selected.GetBackground() == StylesFor("dark", true, false).Selected.GetBackground() || !hc.Drift.GetUnderline() {
		t.Error("high contrast is not higher contrast")
	}
	if StylesFor("light", true, false).Cell.GetForeground() == StylesFor("dark", true, false).Cell.GetForeground() {
		t.Error("light and dark themes look the same")
	}
}

// TestShortHelpContrast: the short help (keys, what they do, the dots
// between) is readable on the terminal's own background and on the
// theme's status bar, in the dark and the light theme: WCAG contrast of
// at least 4.5:1.
func TestShortHelpContrast(t *testing.T) {
	for _, c := range []struct {
		name     string
		dark     bool
		terminal string
	}{{"dark", true, "#000000"}, {"dark", true, "#1e1e1e"}, {"light", false, "#ffffff"}} {
		s := StylesFor(c.name, c.dark, false)
		backgrounds := map[string]color.Color{"terminal " + c.terminal: lipgloss.Color(c.terminal), "status bar": s.StatusBar.GetBackground()}
		for part, st := range map[string]lipgloss.Style{"key": s.HelpKey, "description": s.HelpDesc, "separator": s.HelpSep} {
			for bgName, bg := range backgrounds {
				r := contrast(st.GetForeground(), bg)
				t.Logf("%s theme, %s on %s: %.2f:1", c.name, part, bgName, r)
				if r < 4.5 {
					t.Errorf("%s theme: the short help's %s on the %s is %.2f:1, under 4.5:1", c.name, part, bgName, r)
				}
			}
		}
	}
}

// contrast is WCAG 2's contrast ratio of two colours.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}
