package ui

import (
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// TestModesThatDoNotApplyCostNothing: the skip-scan's own keys (and the
// keys of items loaded to the end) decide Time and Versions: a mode they
// rule out is dimmed with its reason, and its key reads nothing; where
// the keys hold time (STATE#time, user#datetime, prefixes only at the
// top) Time still opens, with one request.
func TestModesThatDoNotApplyCostNothing(t *testing.T) {
	cases := []struct {
		name     string
		cfg      Config
		keys     []string // to reach the place
		key      string   // the mode's key
		off      string   // the tab's reason; "" when the mode applies
		requests int      // Query requests the key sends
	}{
		{"prefixes only: Time", Config{Table: "Locations", PK: "USA", Prefix: "NY#"}, nil, "4", "the 5 sort keys read here hold no time", 0},
		{"prefixes only: t", Config{Table: "Locations", PK: "USA", Prefix: "NY#"}, nil, "t", "the 5 sort keys read here hold no time", 0},
		{"partition top: Time", Config{Table: "Locations", PK: "USA"}, nil, "4", "the 20 sort keys read here hold no time", 0},
		{"partition top: Versions", Config{Table: "Locations", PK: "FRANCE"}, nil, "3", "no sort key here begins with v (v0_Audit, v1_Audit…)", 0},
		{"all items loaded: Versions", Config{Table: "Locations", PK: "FRANCE"}, []string{"2", "load all"}, "3", "no sort key here begins with v", 0},
		{"the tree's keys, in Items", Config{Table: "Locations", PK: "USA"}, []string{"2"}, "3", "no sort key here begins with v", 0},
		// The first page (the sample's newest keys, never read twice),
		// then the oldest 20 keys; the two agree on one form, so no
		// prefix between them is sampled (26.2: was 8 and 12).
		{"STATE#time", Config{Table: demo.StateTable, PK: demo.StateDevice}, nil, "4", "", 2},
		{"user#datetime", Config{Table: "ChatMessages", PK: "portland"}, nil, "4", "", 2},
		{"ORIGIN#time#fare#seat beside metadata", Config{Table: demo.ShapesTable, PK: demo.FlightsPK}, nil, "4", "", 2},
		{"PHOTO#<ULID> beside PROFILE#", Config{Table: demo.ShapesTable, PK: demo.PhotosPK}, nil, "4", "", 2},
		{"a header beside two events, read whole", Config{Table: demo.ShapesTable, PK: demo.ComplaintPK}, nil, "4", "", 1},
		{"yyyyMMdd numbers", Config{Table: demo.OrdersTable, PK: demo.OrdersCustomer}, nil, "4", "", 2},
		{"versions at the top", Config{Table: demo.PartVersionsTable, PK: "Part#1"}, []string{"1"}, "3", "", -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 120, 35, c.cfg)
			for _, k := range c.keys {
				if k == "load all" {
					h.loadAll()
					continue
				}
				h.keys(k)
			}
			moded, ok := h.m.top().(common.Moded)
			if !ok {
				t.Fatalf("no modes on:\n%s", h.screen())
			}
			tab := map[string]int{"3": 2, "4": 3, "t": 3}[c.key]
			if got := moded.Modes()[tab].Off; c.off == "" && got != "" || c.off != "" && !strings.Contains(got, c.off) {
				t.Fatalf("tab %s: off %q, want %q\n%s", moded.Modes()[tab].Name, got, c.off, h.screen())
			}
			before := h.rec.count("Query")
			h.keys(c.key)
			if n := h.rec.count("Query") - before; c.requests >= 0 && n != c.requests {
				t.Fatalf("%s sent %d Query requests, want %d\n%s", c.key, n, c.requests, h.screen())
			}
			if c.off != "" {
				h.said(t, "mode here: "+c.off)
				h.keys("?")
				h.contains(t, "does not apply here: "+c.off)
			}
		})
	}
}

// TestCountsSayOneAndAgreeWithRows: a title's counts add up to the rows
// listed (NY beside NY#: 53 prefixes · 1 item, 54 rows), and a count of
// one is said in the singular.
func TestCountsSayOneAndAgreeWithRows(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA"})
	h.contains(t, "USA · 53 prefixes · 1 item · all", "row 1 of 54")
	h = newHarness(t, 120, 35, Config{Table: "Blobs"})
	h.contains(t, "Blobs · 1 partition · all", "(keys only) · 1 page · 48 keys read · 0 jumps past")
	h.keys("enter")
	h.contains(t, "images · 2 prefixes · 46 items · all", "row 1 of 48")
	h.keys("2", "enter")
	h.contains(t, "b64:AP4A · 3 attributes")
	if s := h.screen(); strings.Contains(s, "1 pages") || strings.Contains(s, "1 items") || strings.Contains(s, "1 partitions") {
		t.Fatalf("a plural for one:\n%s", s)
	}
}
