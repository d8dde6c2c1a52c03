package ui

import (
	"strings"
	"testing"
)

// TestHeaderKeepsTabNames: at 80 columns a long breadcrumb gives up its
// middle ("Tables", then the steps between the table and the last) and
// the tabs keep their names.
func TestHeaderKeepsTabNames(t *testing.T) {
	tabs := "1 Tree  2 Items  3 Versions  4 Time  5 Changes"
	for _, tc := range []struct {
		cfg   Config
		crumb string
	}{
		{Config{Table: "Locations", PK: "USA"}, "dynascope Locations › USA "},
		{Config{Table: "Locations", PK: "USA", Prefix: "NY#"}, "dynascope Locations › USA › NY "},
		{Config{Table: "DeviceLogs", PK: "123", Range: "2018"}, "dynascope DeviceLogs › … › 2018 "},
	} {
		h := newHarness(t, 80, 24, tc.cfg)
		top := strings.Split(h.screen(), "\n")[0]
		if !strings.HasPrefix(top, tc.crumb) || !strings.Contains(top, tabs) {
			t.Errorf("top line %q: want it to start %q and hold %q", top, tc.crumb, tabs)
		}
	}
}
