package common

import "testing"

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
