package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// tableAt opens the table at row n of the tables screen.
func tableAt(h *harness, n int) {
	for range n {
		h.keys("down")
	}
	h.keys("enter")
}

// TestIndexesFromTheTableScreen: every index of every demo table is
// reached from the table screen with i: the picker lists the base table
// and each GSI and LSI with keys, projection and what it reads first;
// choosing one lists that index's partitions (a keys-only skip-scan of the
// index), a partition opens into its tree or items, which show the base
// table's keys, an item is read whole from the base table, and esc climbs
// back to the index's partitions.
func TestIndexesFromTheTableScreen(t *testing.T) {
	h := newHarness(t, 120, 35, Config{})
	tableAt(h, 7) // Locations
	h.contains(t, "Locations · ")
	scans := h.rec.count("Scan")
	h.keys("i")
	h.contains(t, "Read Locations through", "ByCity", "GSI", "City S · SK S", "keys + StreetAddress", "BySquareFeet", "LSI", "PK S · SquareFeet N",
		"its partitions (skip-scan)")
	if h.rec.count("Scan") != scans {
		t.Fatal("the picker read something")
	}
	h.golden(t)
	h.keys("down", "enter") // ByCity
	h.contains(t, "Tables › Locations › index ByCity", "Locations index ByCity · ", "Partition key (City)", "BAYVIEW",
		"Scan Locations  IndexName: ByCity  ProjectionExpression: City, SK  (keys only)")
	h.keys("enter") // BAYVIEW: ByCity's sort key is the table's, a hierarchy
	h.contains(t, "BAYVIEW · 4 prefixes", "index ByCity", "▸ KY#", "Query Locations index ByCity: City = :pk")
	h.keys("tab")                                                                                                  // its items, with the table's keys beside the index's
	h.contains(t, "BAYVIEW · ", "SK                      PK      StreetAddress", "AB#BAYVIEW#03793        CANADA") // City, the same on every row, in the title
	// The index named once in the title, with what it lacks, whole at 120.
	h.contains(t, "ascending · index ByCity holds only keys + StreetAddress ─")
	gets := h.rec.count("GetItem")
	h.keys("enter") // read whole from the table, by its key
	if h.rec.count("GetItem")-gets != 1 {
		t.Fatalf("opening an item of a KEYS+ index sent %d GetItem, want 1", h.rec.count("GetItem")-gets)
	}
	h.contains(t, "7 attributes", `"SquareFeet": 1100`, `GetItem Locations  Key: PK="CANADA" SK="AB#BAYVIEW#03793"`)
	h.keys("esc", "esc", "esc") // the item, the items, the tree: back to ByCity's partitions
	h.contains(t, "Locations index ByCity · ")

	h.keys("i", "down", "down", "enter") // BySquareFeet, an LSI: the table's partitions, sorted by a number
	h.contains(t, "Locations index BySquareFeet · ", "Partition key (PK)", "USA")
	h.keys("enter")
	h.contains(t, "items loaded", "index BySquareFeet", "SquareFeet", "Query Locations index BySquareFeet: PK = :pk")
	h.keys("esc", "esc", "esc", "esc") // back to the tables
	h.contains(t, "ChatMessages")

	h.keys("g")
	tableAt(h, 2) // ChatMessages
	h.keys("i", "down", "enter")
	h.contains(t, "ChatMessages index ByTime · ", "Partition key (ChatRoomID)")
	h.keys("enter")
	h.contains(t, "index ByTime", "Query ChatMessages index ByTime: ChatRoomID = :pk")
	h.keys("3") // versions on an index, where its sort key holds none: the walk saw every top key
	h.said(t, "No Versions mode here: no sort key here begins with v")
	h.contains(t, "index ByTime", "Query ChatMessages index ByTime: ChatRoomID = :pk")
}

// TestNoIndexesSaysSo: on a table with no GSI or LSI, i opens no picker
// of one row (the table itself, a choice there is not): it says there is
// no index, and the help does not offer it; on the partitions list and
// in the tree.
func TestNoIndexesSaysSo(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"partitions", Config{Table: "DeviceLogs"}},
		{"tree", Config{Table: "Equipment", PK: demo.DriftedPiece}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 120, 35, tc.cfg)
			if strings.Contains(h.screen(), "i index") {
				t.Fatalf("the help offers i on a table with no index:\n%s", h.screen())
			}
			h.keys("i")
			h.said(t, "no indexes: "+tc.cfg.Table+" has no GSI or LSI, it is read through its own key")
			if strings.Contains(h.screen(), "through") && strings.Contains(h.screen(), "Reads first") {
				t.Fatalf("i opened a picker of one row:\n%s", h.screen())
			}
		})
	}
}

// TestIndexDeepLink: --index alone opens the index's partitions, the
// table's beneath; an index that does not exist is said so. ? on either
// list shows, under the command that reopens it, the headless partitions
// command that lists the same; a partition's view shows none.
func TestIndexDeepLink(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Locations", Index: "ByCity"})
	h.contains(t, "Locations index ByCity · ", "BAYVIEW")
	if h.m.commandLine() != "dynascope --demo --table Locations --index ByCity" {
		t.Errorf("? shows %q", h.m.commandLine())
	}
	h.golden(t)
	h.keys("?")
	h.contains(t, "this view: dynascope --demo --table Locations --index ByCity", "as JSON:   dynascope partitions --demo --table Locations --index ByCity")
	h.keys("?", "esc")
	h.contains(t, "Locations · ", "USA")
	h.keys("?")
	h.contains(t, "as JSON:   dynascope partitions --demo --table Locations")
	h.keys("?", "enter", "?")
	if strings.Contains(h.screen(), "as JSON:") {
		t.Errorf("a partition's tree shows a partitions command:\n%s", h.screen())
	}
	h = newHarness(t, 100, 30, Config{Table: "Locations", Index: "Nope"})
	h.contains(t, `table Locations has no index "Nope"`, "press i on the table for its indexes")
}

// TestPartitionsHeadlessStandsForTheList: the headless command ? shows
// under a partitions list stands for that list: where it has more to
// read, --limit as many as it lists (the command without it read on to
// the index's end: 57 on screen, every city printed), and the explorer's
// --max-rcu where it is not the default, as the reopening command
// carries it. A list read whole has no --limit.
func TestPartitionsHeadlessStandsForTheList(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Locations", Index: "ByCity", FilterBudget: func(string) float64 { return 50 }})
	h.contains(t, "Locations index ByCity · ", "BAYVIEW")
	p := h.m.top().(*pages.Partitions)
	want := fmt.Sprintf("dynascope partitions --demo --table Locations --index ByCity --limit %d --max-rcu 50", p.List().Rows())
	if got := h.m.headlessLine(); got != want {
		t.Errorf("? shows %q, want %q", got, want)
	}
	h.keys("esc")
	h.contains(t, "Locations · ", "USA")
	if got := h.m.headlessLine(); got != "dynascope partitions --demo --table Locations --max-rcu 50" {
		t.Errorf("the table's six partitions, read whole: ? shows %q", got)
	}
}

// TestPickersFit: the index and delimiter pickers fit 80×24, 120×35 and
// 200×50, a golden each at 80×24.
func TestPickersFit(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		for _, c := range []struct {
			name string
			cfg  Config
			key  string
		}{
			{"index", Config{Table: "Locations", PK: "USA"}, "i"},
			{"delimiter", Config{Table: "Locations", PK: "USA", Prefix: "NY#"}, "D"},
			{"table-index", Config{Table: "ChatMessages", Index: "ByTime"}, "i"},
		} {
			h := newHarness(t, size[0], size[1], c.cfg)
			h.keys(c.key)
			h.contains(t, map[string]string{"i": "Read ", "D": "Split the sort keys at"}[c.key])
			lines := strings.Split(h.screen(), "\n")
			if len(lines) != size[1] {
				t.Errorf("%s at %dx%d: %d lines", c.name, size[0], size[1], len(lines))
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%s at %dx%d: a line of %d cells: %q", c.name, size[0], size[1], w, l)
				}
			}
			if size[0] == 80 {
				t.Run(c.name, func(t *testing.T) { h.golden(t) })
			}
		}
	}
}

// TestEveryDemoIndexFromTheTableScreen: from the table screen, i reaches
// every GSI and LSI of every demo table: its partitions, then the first of
// them, read through the index with the base table's keys shown.
func TestEveryDemoIndexFromTheTableScreen(t *testing.T) {
	ctx := context.Background()
	db := demoData(t)
	names, _, err := dynamo.ListTables(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	reached := 0
	for row, name := range names {
		info, _, err := dynamo.DescribeTable(ctx, db, name)
		if err != nil {
			t.Fatal(err)
		}
		for i, ix := range info.Indexes {
			t.Run(name+"/"+ix.Name, func(t *testing.T) {
				h := newHarness(t, 120, 35, Config{})
				tableAt(h, row)
				h.keys("i")
				for range i + 1 {
					h.keys("down")
				}
				h.keys("enter")
				h.contains(t, name+" index "+ix.Name+" · ", "Partition key ("+ix.Key.PK.Name+")", "IndexName: "+ix.Name)
				h.keys("enter")
				h.contains(t, "index "+ix.Name)
				s := h.screen()
				if !strings.Contains(s, "items loaded") {
					h.keys("tab") // the tree's items
				}
				h.contains(t, info.Key.PK.Name) // the base table's key is always listed
				reached++
			})
		}
	}
	if reached < 7 {
		t.Fatalf("reached %d indexes; the demo has at least 7", reached)
	}
}

// TestTimeOnAnIndexShowsTheTableKeys: Time mode on an index lists the
// base table's partition key (which device an escalated state belongs to)
// beside the time and the index's sort key.
func TestTimeOnAnIndexShowsTheTableKeys(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: demo.StateTable, PK: "Sara", Index: demo.StateIndex, Range: "2020-04", Now: demoClock})
	h.contains(t, "Time (UTC)            State#Date                    DeviceID", "d#12345", "EscalatedTo = :pk", "read once, cheaper than a Query each")
}

// TestIndexesOnDynalite: the same walk on a real DynamoDB-compatible
// server: every index of Locations, Shop and StateLog is reached from the
// table screen, its partitions scanned and the first one opened through it.
func TestIndexesOnDynalite(t *testing.T) {
	ctx := context.Background()
	srv := dynalitetest.Start(t)
	tables := []string{"Locations", demo.ShopTable, demo.StateTable}
	if _, err := demo.Seed(ctx, srv.Client(), demo.Options{Tables: tables}); err != nil {
		t.Fatal(err)
	}
	client := srv.Client()
	names, _, err := dynamo.ListTables(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	reached := 0
	for row, name := range names {
		info, _, err := dynamo.DescribeTable(ctx, client, name)
		if err != nil {
			t.Fatal(err)
		}
		for i, ix := range info.Indexes {
			t.Run(name+"/"+ix.Name, func(t *testing.T) {
				h := newHarness(t, 120, 35, Config{Client: client})
				tableAt(h, row)
				h.keys("i")
				for range i + 1 {
					h.keys("down")
				}
				h.keys("enter")
				h.contains(t, name+" index "+ix.Name+" · ", "Partition key ("+ix.Key.PK.Name+")")
				h.keys("enter")
				h.contains(t, "index "+ix.Name)
				for _, bad := range []string{"read failed", "Nothing under this prefix", "No items"} {
					if strings.Contains(h.screen(), bad) {
						t.Fatalf("%s through %s on dynalite:\n%s", bad, ix.Name, h.screen())
					}
				}
				reached++
			})
		}
	}
	if reached < 6 {
		t.Fatalf("reached %d indexes on dynalite, want 6", reached)
	}
}
