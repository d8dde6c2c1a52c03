package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// realLocations are values of the masked attributes of the demo's
// Locations (PK, SK, City, StreetAddress) that must never show.
var realLocations = []string{"USA", "FRANCE", "NEWYORKCITY", "OMAHA", "10001", "10019", "6th Ave", "Broadway", "ILE-DE-FRANCE"}

// noReal fails when text holds a masked value.
func noReal(t *testing.T, where, text string) {
	t.Helper()
	for _, v := range realLocations {
		if strings.Contains(text, v) {
			t.Fatalf("%s shows the masked value %q:\n%s", where, v, text)
		}
	}
}

// sent presses a key and returns every message it led to, as text (what
// a copy put on the clipboard among them).
func (h *harness) sent(name string) string {
	var b strings.Builder
	h.press(name, func(msg tea.Msg) bool {
		fmt.Fprintf(&b, "%v\n", msg)
		return true
	})
	return b.String()
}

// press presses a key and runs every message it leads to through the
// model, each seen first by each; each returning false stops there (the
// message is not sent).
func (h *harness) press(name string, each func(tea.Msg) bool) {
	_, cmd := h.m.Update(keyPress(name))
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			if !each(msg) {
				return
			}
			_, next := h.m.Update(msg)
			queue = append(queue, next)
		}
	}
}

var maskLocations = []string{"PK", "SK", "City", "StreetAddress"}

// TestMaskEveryPage walks every page of a masked table, at each size the
// layout must fit, and greps every frame, copy and help for the real
// values; requests still read the real partition (the tree finds the
// states, the item opens).
func TestMaskEveryPage(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Mask: maskLocations})
			frame := func(where string) {
				t.Helper()
				noReal(t, where, h.screen())
			}
			for range 7 { // Locations
				h.keys("down")
			}
			h.keys("enter")
			frame("the partitions list")
			h.contains(t, "MASKED", "‹m")
			h.keys("enter") // the first partition's tree
			frame("the tree")
			h.contains(t, "prefixes · ", "· all · delimiter", "▸ ‹m")
			h.keys("enter") // a state
			frame("a state's children")
			h.keys("enter", "enter") // a city, a zip
			frame("deeper")
			h.keys("esc", "esc", "tab") // the items
			frame("the items")
			h.contains(t, "items loaded")
			h.keys("enter")
			frame("the item")
			h.contains(t, "attributes · plain JSON")
			noReal(t, "the copied item", h.sent("y"))
			noReal(t, "the copied key", h.sent("Y"))
			h.keys("d")
			frame("the item as DynamoDB JSON")
			noReal(t, "the copied item (DynamoDB JSON)", h.sent("y"))
			h.keys("esc")
			noReal(t, "the copied aws command", h.sent("y"))
			noReal(t, "the copied Go code", h.sent("Y"))
			h.keys("?")
			frame("help")
			h.contains(t, "(values masked)")
			h.keys("?", "4")
			frame("time mode")
			h.keys("esc", "3")
			frame("versions")
		})
	}
}

// TestMaskDeepLinkAndGolden: a deep link's partition and prefix show as
// stand-ins, yet read the real level; the golden holds no real value.
func TestMaskDeepLinkAndGolden(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Mask: maskLocations, Table: "Locations", PK: "USA", Prefix: "NY#"})
	noReal(t, "the deep-linked level", h.screen())
	h.contains(t, "5 prefixes", "MASKED")
	if strings.Contains(h.screen(), "NY#") {
		t.Fatal("the prefix shows")
	}
	h.golden(t)
}

// TestMaskPerTableAndUnseen: a table's mask = [...] masks it alone (with
// the flag's); a mask naming what no item has is a note, not an error.
func TestMaskPerTableAndUnseen(t *testing.T) {
	tables := map[string]config.TableSettings{"Locations": {Mask: []string{"PK", "Emial"}}}
	h := newHarness(t, 120, 30, Config{Tables: tables, Table: "Locations", PK: "USA"})
	noReal(t, "a configured mask", strings.ReplaceAll(h.screen(), "NEWYORKCITY", ""))
	h.contains(t, "MASKED")
	if strings.Contains(h.screen(), "Emial") {
		t.Fatal("a keys-only read said the mask names nothing")
	}
	h.keys("tab")
	h.contains(t, "mask: no item read has Emial")
	// The tour lists no table: masked as the tables list is, its crumb
	// never taken for a table (Tour, which no mask names, hid the badge).
	h.keys("T")
	h.contains(t, "Demo tour", "MASKED")
	h = newHarness(t, 120, 30, Config{Tables: tables, Table: "DeviceLogs", PK: "123"})
	if strings.Contains(h.screen(), "MASKED") {
		t.Fatal("an unmasked table says MASKED")
	}
	h.contains(t, "123")
}

// TestMaskExport: e writes stand-ins, never the real values.
func TestMaskExport(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, 160, 30, Config{Mask: maskLocations, Table: "Locations", PK: "FRANCE"})
	h.keys("tab")
	h.keys("e")
	h.clearInput(80)
	path := filepath.Join(dir, "france.jsonl")
	h.typeText(path)
	h.keys("enter")
	h.contains(t, "exported ")
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 {
		t.Fatalf("export: %v", err)
	}
	noReal(t, "the export", string(data))
	if !strings.Contains(string(data), "‹m") {
		t.Fatalf("no stand-ins in the export:\n%s", data)
	}
}

// TestMaskGoToPartition: a partition typed at / opens under its stand-in
// and reads the real one.
func TestMaskGoToPartition(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Mask: maskLocations, Table: "Locations"})
	h.keys("/")
	h.typeText("FRANCE")
	h.keys("enter")
	h.contains(t, "prefixes · ", "· all · delimiter", "▸ ‹m")
	noReal(t, "a typed partition", h.screen())
}

// TestMaskGoldens: each kind of page under --mask, as goldens that hold
// no masked value (the versions and timeline with masked attributes in
// their copies, the stand-ins equal where the values are, so drift still
// reads right).
func TestMaskGoldens(t *testing.T) {
	equipment := []string{"PK", "Auditor", "Notes", "Checks.brakes.pressure"}
	for _, c := range []struct {
		name string
		mask []string
		cfg  Config
		keys []string
		real []string
		// renumber: the page reads in parallel (the partitions' Scan
		// segments), so stand-ins are numbered in the order the answers
		// came; the golden numbers them in the order shown.
		renumber bool
	}{
		{"partitions", maskLocations, Config{Table: "Locations"}, nil, realLocations, true},
		{"items", maskLocations, Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"}, []string{"tab"}, realLocations, false},
		{"item", maskLocations, Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"}, []string{"tab", "enter"}, realLocations, false},
		{"item-wire", maskLocations, Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"}, []string{"tab", "enter", "d"}, realLocations, false},
		{"versions", equipment, Config{Table: "Equipment", PK: "Equipment_1", Versions: "*"}, nil, []string{"Equipment_1", "Auditor-", "Audit revision"}, false},
		{"timeline", equipment, Config{Table: "Equipment", PK: "Equipment_1", Versions: "*"}, []string{"down", "enter"}, []string{"Equipment_1", "Auditor-", "Audit revision"}, false},
		{"time", []string{"Text", "ChatRoomID"}, Config{Table: "ChatMessages", PK: "portland", Index: "ByTime", Range: "2018-08-29"}, nil, []string{"portland", "Hello from the blog", "ship it", "lgtm"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Mask, cfg.Now = c.mask, demoClock
			h := newHarness(t, 120, 30, cfg)
			h.keys(c.keys...)
			for _, v := range c.real {
				if strings.Contains(h.screen(), v) {
					t.Fatalf("shows %q:\n%s", v, h.screen())
				}
			}
			h.contains(t, "MASKED", "‹m")
			if c.renumber {
				h.goldenOf(t, renumbered(h.screen()))
				return
			}
			h.golden(t)
		})
	}
}

var standInRE = regexp.MustCompile(`‹m[0-9]+›`)

// renumbered is screen with its stand-ins numbered in the order they
// first appear on it, the same value the same number still, each padded
// to the width it had so that the columns stay where they were.
func renumbered(screen string) string {
	ids := map[string]string{}
	return standInRE.ReplaceAllStringFunc(screen, func(s string) string {
		if _, ok := ids[s]; !ok {
			ids[s] = fmt.Sprintf("‹m%d›", len(ids)+1)
		}
		return ids[s] + strings.Repeat(" ", len(s)-len(ids[s]))
	})
}

// On a masked table y copies the query with its stand-ins; the real query
// is one more y away, and that y first says it holds real values and asks:
// only a third y copies it. Any other key in between starts over.
func TestMaskCopyRealQueryAsksFirst(t *testing.T) {
	f, err := domain.ParseFilter(`City = "OMAHA"`)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 200, 50, Config{Mask: maskLocations, Table: "Locations", PK: "USA", Filter: f})
	h.loadAll()
	first := h.sent("y")
	noReal(t, "the first y", first)
	if !strings.Contains(first, "‹m") {
		t.Fatalf("the first y copied no masked query:\n%s", first)
	}
	noReal(t, "the first y's note", h.screen())
	h.contains(t, "with masked values (y again for the real query)")
	asked := h.sent("y")
	noReal(t, "the second y", asked)
	noReal(t, "the second y's question", h.screen())
	if !strings.Contains(h.m.notice, "the real query holds the real values of masked attributes: y copies it") {
		t.Fatalf("the second y did not ask: %q", h.m.notice)
	}
	real := h.sent("y")
	for _, v := range []string{"USA", "OMAHA"} {
		if !strings.Contains(real, v) {
			t.Fatalf("the confirmed copy does not hold the real %q:\n%s", v, real)
		}
	}
	noReal(t, "the note after the real copy", h.screen())
	h.contains(t, "with the REAL values of masked")

	// y, another key, y: the masked query again, never the real one.
	h.sent("y")
	h.keys("down")
	h.sent("y")
	noReal(t, "y after another key", h.sent("down")+h.sent("y"))
}

// typedSecret is typed into filters on masked attributes: no item holds
// it, so only the typed text could show it.
const typedSecret = "Secret Lane 7"

// TestMaskEveryPageTypedValues walks every page of masked tables at the
// three sizes (tables, partitions, tree, items, item, versions,
// timeline, time, `?` help), with values typed against masked attributes
// in the filters of the items and the versions, and
// greps every frame for the planted values, typed ones included.
func TestMaskEveryPageTypedValues(t *testing.T) {
	typed := func(attr string) string { return attr + ` = "` + typedSecret + `"` }
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel() // each size its own model; the demo is only read
			var h *harness
			var planted []string
			frame := func(where string) {
				t.Helper()
				screen := h.screen()
				for _, v := range append([]string{typedSecret}, planted...) {
					if strings.Contains(screen, v) {
						t.Fatalf("%s shows the masked value %q:\n%s", where, v, screen)
					}
				}
			}

			h, planted = newHarness(t, size[0], size[1], Config{Mask: maskLocations}), realLocations
			frame("the tables")
			for range 7 { // Locations
				h.keys("down")
			}
			h.keys("enter")
			frame("the partitions list")
			h.keys("enter")
			frame("the tree")
			h.keys("tab")
			frame("the items")
			h.keys("f")
			h.typeText(`City = "OMAHA" or ` + typed("StreetAddress"))
			// While typing, the text box holds what is typed: the mask
			// applies once it is entered.
			h.keys("enter")
			h.loadAll()
			frame("the items filtered on masked attributes")
			h.contains(t, "‹m")
			h.keys("?")
			frame("help over the filtered items")
			h.keys("?", "f")
			frame("the filter bar reopened")
			h.keys("esc", "enter")
			frame("the item")

			h = newHarness(t, size[0], size[1], Config{Table: "Equipment", PK: demo.DriftedPiece, Mask: []string{"PK", "Status", "Findings"}})
			// Findings' values only: the partition key and the statuses
			// are also in Notes and Checks, which are not masked.
			planted = []string{"hydraulic leak", "needs re-inspection", "loose bolt", "worn belt", "label faded"}
			h.keys("3")
			h.loadAll()
			frame("versions")
			h.contains(t, "‹m")
			h.keys("?")
			frame("help over the versions")
			h.keys("?", "down", "enter")
			frame("a timeline")
			h.keys("esc", "f")
			h.typeText(typed("Status"))
			h.keys("enter")
			h.loadAll()
			frame("the versions' filter")
			h.keys("?")
			frame("help over the versions' filter")

			h = newHarness(t, size[0], size[1], Config{Table: "DeviceLogs", PK: "123", Now: demoClock, Mask: []string{"Message", "Level"}})
			planted = []string{"heartbeat", "sensor read", "door open", "temp spike", "boot", "INFO", "WARN", "ERROR"}
			h.keys("4")
			h.loadAll()
			frame("time")
			h.contains(t, "‹m")
		})
	}
}

// A filter typed against masked attributes leaked its values on the
// filter bar, the request line, `?`'s command and the y copy. Once
// entered, a typed value is a stand-in everywhere it shows, and the read
// still asks for what was typed.
func TestMaskTypedFilter(t *testing.T) {
	f, err := domain.ParseFilter(`City = "OMAHA" or StreetAddress = "Broadway"`)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 35, Config{Mask: maskLocations, Table: "Locations", PK: "USA", Filter: f})
	h.loadAll()
	screen := h.screen()
	noReal(t, "the filtered list", screen)
	if !strings.Contains(screen, "‹m") || strings.Contains(screen, "no items") {
		t.Fatalf("the filtered read found nothing, or shows no stand-in:\n%s", screen)
	}
	noReal(t, "the y copy", h.sent("y"))
	h.keys("?")
	noReal(t, "help", h.screen())
	h.keys("?")
	h.keys("f") // the filter bar, open to edit: its text is stand-ins too
	noReal(t, "the filter bar", h.screen())
	h.keys("enter") // applied again as shown: the same read
	h.loadAll()
	noReal(t, "the filter applied again", h.screen())
	if got := h.screen(); strings.Contains(got, "no items") {
		t.Fatalf("the stand-ins applied again read nothing:\n%s", got)
	}
}

// TestMaskCountsTheStandIns: counting a masked level counts the real
// keys and shows each figure on its stand-in's row: every prefix counted,
// exact, and no real value on screen.
func TestMaskCountsTheStandIns(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Mask: maskLocations, CountBudget: 1000})
			for range 7 { // Locations
				h.keys("down")
			}
			h.keys("enter", "enter") // the first partition's tree
			h.contains(t, "Items (c counts)", "▸ ‹m")
			h.keys("c")
			scr := h.screen()
			noReal(t, "the counted tree", scr)
			if strings.Contains(scr, "c counts") || strings.Contains(scr, "…") || strings.Contains(scr, "–") {
				t.Fatalf("a masked branch left uncounted:\n%s", scr)
			}
		})
	}
}

// TestMaskTypedSearchAndStatement: values typed in real text on the
// table-wide search (f on the partitions list) and in a statement's WHERE
// (:) find the real items through the client the pages hold (the 22
// stores of OMAHA, as unmasked), and once entered show only as
// stand-ins: the rows, the filter bar, the request line and `?`. The
// search showed the filter as typed on its bar and request line.
func TestMaskTypedSearchAndStatement(t *testing.T) {
	for _, tc := range []struct{ name, key, typed string }{
		{"search", "f", `City = "OMAHA"`},
		{"search by Query", "f", `PK = "USA" and City = "OMAHA"`}, // the key pinned by its stand-in
		{"statement", ":", `PK = 'USA' AND City = 'OMAHA'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 160, 35, Config{Mask: maskLocations, Table: "Locations"})
			h.keys(tc.key)
			h.typeText(tc.typed)
			h.keys("enter")
			h.loadAll()
			screen := h.screen()
			noReal(t, "the results", screen)
			if !strings.Contains(screen, "‹m") || !strings.Contains(screen, "Locations · 22 matches") { // as unmasked
				t.Fatalf("the typed values found nothing, or show no stand-in:\n%s", screen)
			}
			h.keys("?")
			noReal(t, "help", h.screen())
		})
	}
}
