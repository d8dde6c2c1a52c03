package ui

import (
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// TestKeysThatDoNotApplySayWhy: a key bound elsewhere, pressed where it
// does not apply, says why in the status bar (it did nothing, silently),
// as 1–4 do for a dimmed mode; and reads nothing.
func TestKeysThatDoNotApplySayWhy(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		keys []string
		key  string
		want string
	}{
		{"D on items", Config{Table: "DeviceLogs", PK: "123"}, nil, "D", "D delimiter does not apply here: it splits the sort keys in Tree mode (1)"},
		{"i on items", Config{Table: "DeviceLogs", PK: "123"}, nil, "i", "i index does not apply here"},
		{"c on items", Config{Table: "DeviceLogs", PK: "123"}, nil, "c", "c count does not apply here: it counts a Tree level's children (1)"},
		{"m on items", Config{Table: "DeviceLogs", PK: "123"}, nil, "m", "m mark to compare does not apply here: it marks a revision in an item's version timeline"},
		{"[ on items", Config{Table: "DeviceLogs", PK: "123"}, nil, "[", "prev revision does not apply here"},
		{"z on items", Config{Table: "DeviceLogs", PK: "123"}, nil, "z", "z UTC/local does not apply here: it switches the times of Time mode (4)"},
		{"F on items", Config{Table: "DeviceLogs", PK: "123"}, nil, "F", "F follow new items does not apply here: it follows new items in Time mode (4) and new changes in Changes mode (5)"},
		{"X on items", Config{Table: "DeviceLogs", PK: "123"}, nil, "X", "X stop loading does not apply here: nothing is loading"},
		{"f on the tables", Config{}, nil, "f", "f filter does not apply here"},
		{"2 on the tables", Config{}, nil, "2", "2 items does not apply here: modes are a partition's"},
		{"d on the tree", Config{Table: "Locations", PK: "USA"}, nil, "d", "d DynamoDB JSON does not apply here: it shows an item as DynamoDB JSON in the item view"},
		{"m on the versions", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}, nil, "m", "m mark to compare does not apply here"},
		{"/ on the item", Config{Table: "DeviceLogs", PK: "123"}, []string{"enter"}, "/", "/ search does not apply here: this view has no list to search"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Now = demoClock
			h := newHarness(t, 120, 35, cfg)
			h.keys(c.keys...)
			before := h.screen()
			reads := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem")
			h.keys(c.key)
			h.said(t, c.want)
			h.contains(t, "does not apply here")
			if n := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem") - reads; n != 0 {
				t.Fatalf("%s read %d times", c.key, n)
			}
			if strings.Split(before, "\n")[0] != strings.Split(h.screen(), "\n")[0] {
				t.Fatalf("%s moved elsewhere:\n%s", c.key, h.screen())
			}
		})
	}
}

// TestKeysThatApplySayNothing: a page's own keys, and moves, say nothing.
func TestKeysThatApplySayNothing(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Now: demoClock})
	for _, k := range []string{"down", "j", "k", "g", "G", "D", "esc", "i", "esc"} {
		h.keys(k)
		if strings.Contains(h.screen(), "does not apply") {
			t.Fatalf("%s said it does not apply:\n%s", k, h.screen())
		}
	}
}
