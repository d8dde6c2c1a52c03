package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// TestSearchEveryList: / searches the loaded rows of a list as it is
// typed; the keys typed never act as commands; n and N step; esc clears.
func TestSearchEveryList(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA"})
	before := h.rec.count("Query")
	h.keys("/")
	h.typeText("NY#") // Y copies Go code outside a search
	h.contains(t, "/NY#", "1 of 1 match", "in all 54 rows")
	if h.m.notice != "" {
		t.Fatalf("a key typed into the search acted: %q", h.m.notice)
	}
	h.keys("enter")
	h.contains(t, "n next · N previous")
	h.keys("esc")
	h.contains(t, "USA · 53 prefixes", "row ") // esc cleared the search, and stayed
	if l := h.m.top().(common.Searchable).List(); !strings.Contains(l.RowText(l.Cursor()), "NY") {
		t.Fatalf("the selection is on %q, not the match", l.RowText(l.Cursor()))
	}
	if n := h.rec.count("Query") - before; n != 0 {
		t.Fatalf("searching made %d Query, want none", n)
	}
	h.keys("enter")
	h.contains(t, "NY# · 5 prefixes")
	if n := h.rec.count("Query") - before; n == 0 {
		t.Fatal("drilling in read nothing")
	}
	h.keys("/")
	h.typeText("e")
	h.keys("enter", "n")
	h.contains(t, "2 of ")
	h.keys("N")
	h.contains(t, "1 of ")

	// Tables: "q" typed into a search is text, not quit.
	h = newHarness(t, 120, 35, Config{})
	h.keys("/")
	h.typeText("equipq")
	h.contains(t, "/equipq", "no match")
	h.clearInput(1)
	h.contains(t, "1 of 1 match", "row 6 of ")
}

// TestSearchPartialList: a search over a list that is not all read says
// what it did not look at.
func TestSearchPartialList(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "DeviceLogs", PK: "9000"})
	h.keys("/")
	h.typeText("INFO")
	h.contains(t, "loaded rows only; more not read yet", "row 1 of ≥")
}

// TestModeTabs: 1–4, tab and shift+tab switch the partition's mode; going
// back to a mode already open reads nothing; a mode that does not apply
// says why and reads nothing.
func TestModeTabs(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Prefix: "NY#"})
	h.contains(t, "1 Tree  2 Items  3 Versions  4 Time", "NY# · 5 prefixes")
	h.keys("2")
	h.contains(t, "items loaded")
	before := h.rec.count("Query")
	h.keys("1")
	h.contains(t, "NY# · 5 prefixes")
	if n := h.rec.count("Query") - before; n != 0 {
		t.Fatalf("going back to the tree read %d pages", n)
	}
	h.keys("tab")
	h.contains(t, "items loaded")
	h.keys("shift+tab")
	h.contains(t, "NY# · 5 prefixes")
	h.keys("2")
	before = h.rec.count("Query")
	h.keys("4") // the loaded sort keys do not read as time: no read
	h.said(t, "No Time mode here: the 20 sort keys read here hold no time")
	h.keys("3")
	h.contains(t, "No Versions mode here")
	if n := h.rec.count("Query") - before; n != 0 {
		t.Fatalf("modes that do not apply read %d pages", n)
	}
	h.keys("?")
	h.contains(t, "Time does not apply here", "Versions does not apply here")
	h.keys("?", "esc")
	h.contains(t, "NY# · 5 prefixes") // the mode the place was opened in

	// A number sort key: no Tree, and 1 says why.
	h = newHarness(t, 120, 35, Config{Table: "DeviceLogs", PK: "123"})
	h.keys("1")
	h.contains(t, "No Tree mode here: a number sort key has no prefixes to drill")
	h.keys("?")
	if strings.Contains(h.screen(), "3 versions") {
		t.Fatal("the help offers versions on a number sort key")
	}
}

// TestItemsLayout: at 80 and 120 columns the sort keys are whole (two
// keys that differ at the end stay apart), the partition key is in the
// title only, numbers are right-aligned, and p shows the preview.
func TestItemsLayout(t *testing.T) {
	for _, w := range []int{80, 120} {
		h := newHarness(t, w, 35, Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"})
		h.keys("2")
		h.contains(t, "NY#NEWYORKCITY#62700 ", "NY#NEWYORKCITY#62700#2", "USA · ")
		if strings.Contains(h.screen(), "USA  NY#") {
			t.Fatalf("%d columns: the partition key repeats on every row:\n%s", w, h.screen())
		}
		if strings.Contains(h.screen(), "╭─ Item") {
			t.Fatalf("%d columns: the preview is on below 140 columns", w)
		}
		h.keys("p")
		if w >= 100 && !strings.Contains(h.screen(), "╭─ Item") {
			t.Fatalf("%d columns: p did not show the preview", w)
		}
	}
}

// TestPageGoldens pins every page at the three common terminal sizes.
func TestPageGoldens(t *testing.T) {
	typed := func(keys ...string) []string { // single keys, then text typed a rune a key
		var out []string
		for _, k := range keys {
			if strings.HasPrefix(k, "type:") {
				out = append(out, strings.Split(k[len("type:"):], "")...)
				continue
			}
			out = append(out, k)
		}
		return out
	}
	pages := []struct {
		name string
		cfg  Config
		keys []string
		// client, when set, is the backend (a failing one, a table of
		// the test's own).
		client func(t *testing.T) dynamo.Client
	}{
		{"tables", Config{}, nil, nil},
		{"partitions", Config{Table: "Locations"}, nil, nil},
		{"tree", Config{Table: "Locations", PK: "USA", Prefix: "NY#"}, nil, nil},
		{"items", Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"}, []string{"2"}, nil},
		{"item", Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"}, []string{"2", "enter"}, nil},
		{"item-wire-help", Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"}, []string{"2", "enter", "d", "?"}, nil},
		{"versions", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}, nil, nil},
		{"timeline", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: demo.DriftedItem}, nil, nil},
		{"timeline-padded", Config{Table: "Equipment", PK: demo.LongHistoryPiece, Versions: "*"}, []string{"enter"}, nil},
		{"time", Config{Table: "DeviceLogs", PK: "123", Range: "2018"}, nil, nil},
		// Every other page and overlay.
		{"tree-top", Config{Table: "Locations", PK: "USA"}, nil, nil},
		{"tree-binary", Config{Table: "Blobs", PK: "images"}, nil, nil},
		{"diff", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: demo.DriftedItem}, []string{"["}, nil},
		{"time-bar", Config{Table: "DeviceLogs", PK: "123"}, []string{"4"}, nil},
		{"time-none", Config{Table: "Locations", PK: "USA", Range: "today"}, nil, nil},
		{"versions-none", Config{Table: "Locations", PK: "FRANCE", Versions: "*"}, nil, nil},
		{"filter-bar", Config{Table: "DeviceLogs", PK: "9000"}, typed("f", "type:Level = ERROR"), nil},
		{"search-line", Config{Table: "Locations", PK: "USA"}, typed("/", "type:NE"), nil},
		{"index-picker", Config{Table: "Locations", PK: "USA"}, []string{"i"}, nil},
		{"partitions-index-picker", Config{Table: "Locations"}, []string{"i"}, nil},
		{"delimiter-picker", Config{Table: "Locations", PK: "USA", Prefix: "NY#"}, []string{"D"}, nil},
		{"column-picker", Config{Table: "DeviceLogs", PK: "9000"}, []string{"C"}, nil},
		{"reference-picker", Config{Table: "Shop", PK: "o#1"}, []string{"tab", ">"}, func(t *testing.T) dynamo.Client { return shopDB(t) }},
		{"count-prompt", Config{Table: "Locations", PK: "USA", CountBudget: 1}, []string{"c"}, nil},
		{"export-prompt", Config{Table: "DeviceLogs", PK: "9000"}, []string{"e"}, nil},
		{"help", Config{Table: "Locations", PK: "USA"}, []string{"?"}, nil},
		{"tour", Config{Tour: true}, nil, nil},
		{"error-page", Config{Table: "Nope"}, nil, nil},
		{"failed-read", Config{Table: "Locations", PK: "USA"}, nil, func(t *testing.T) dynamo.Client {
			f := failAfter("Query", 1, throttled)
			f.Client = demoData(t)
			return f
		}},
	}
	for _, p := range pages {
		for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("%s_%dx%d", p.name, sz[0], sz[1]), func(t *testing.T) {
				cfg := p.cfg
				cfg.Now = demoClock
				if p.client != nil {
					cfg.Client = p.client(t)
				}
				h := newHarness(t, sz[0], sz[1], cfg)
				h.keys(p.keys...)
				checkScreen(t, h, sz[0], p.name)
				h.golden(t)
			})
		}
	}
}

// TestTimelinePinsTheCurrentCopy: on a long history the current copy
// stays on top as the revisions scroll, and the columns keep their width.
func TestTimelinePinsTheCurrentCopy(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Table: "Equipment", PK: demo.LongHistoryPiece, Versions: "*"})
	h.keys("enter")
	header := func() string {
		for _, l := range strings.Split(h.screen(), "\n") {
			if strings.Contains(l, "Revision") {
				return l
			}
		}
		return ""
	}
	first := header()
	for _, k := range []string{"g", "G", "up", "up", "down"} {
		h.keys(k)
		h.contains(t, "★   v0000 current")
		if got := header(); got != first {
			t.Fatalf("after %s the columns moved:\n%s\n%s", k, first, got)
		}
	}
}

// TestTimePresentation: the demo's clock is shown, the request line gives
// the readable times beside the raw ones, formats are named as people say
// them, and the range box shows its whole placeholder.
func TestTimePresentation(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "DeviceLogs", PK: "123", Now: demoClock})
	h.keys("4")
	h.contains(t, "now is 2026-11-01", "Timestamp holds epoch seconds", "range › last 24h · today")
	h.typeText("2018-08-29..2018-09-01")
	h.keys("enter")
	h.contains(t, ":lo=1535500800 :hi=1535846399", "between 2018-08-29 00:00:00 UTC and 2018-09-01 23:59:59 UTC")
	h = newHarness(t, 120, 35, Config{Table: "ChatMessages", PK: "seattle-1", Now: demoClock})
	h.keys("4")
	h.contains(t, "holds date:time after a prefix ending #")
	if strings.Contains(h.screen(), "2006-01-02") {
		t.Fatal("a Go layout is shown as the format")
	}
}

// TestPartitionsGoToSearches: on Partitions / still goes to a key, and
// searches the loaded partitions as it is typed.
func TestPartitionsGoToSearches(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations"})
	h.keys("/")
	h.typeText("us")
	h.contains(t, "1 match among them, the first selected")
	if l := h.m.top().(common.Searchable).List(); !strings.Contains(l.RowText(l.Cursor()), "USA") {
		t.Fatalf("selected %q", l.RowText(l.Cursor()))
	}
	h.clearInput(2)
	h.typeText("USA")
	h.keys("enter")
	h.contains(t, "Locations › USA")
}
