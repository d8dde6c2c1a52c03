package ui

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
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
	// NY, read whole by USA's walk, is listed from the keys it read.
	h.contains(t, "NY# · 5 prefixes", "no request sent")
	if n := h.rec.count("Query") - before; n != 0 {
		t.Fatalf("drilling into a level read whole made %d Query, want none", n)
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

// TestEveryListSearchedWithItsPosition: every list (UX.md: "Every list
// shows row N of M") shows its position on the help line, and / opens the
// search of its rows there, the keys typed going to the search (on the
// partitions, / is their own go-to a key); esc leaves it.
func TestEveryListSearchedWithItsPosition(t *testing.T) {
	shop := Config{Table: demo.ShopTable, Now: demoClock}
	stream := Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: demoData(t), Now: func() time.Time { return demo.DemoEnd }}
	sides := memory.New() // two tables of one key that differ
	for _, tc := range []struct {
		table string
		right bool
	}{{"Orders", false}, {"OrdersRight", true}} {
		if err := demo.CreateKeyTable(context.Background(), sides, tc.table, "S", compareItems(tc.right)); err != nil {
			t.Fatal(err)
		}
	}
	orders := Config{Client: sides, Table: "Orders", PK: "p", Now: demoClock}
	for _, c := range []struct {
		name string
		cfg  Config
		keys []string
	}{
		{"tables", Config{}, nil},
		{"partitions", Config{Table: "Locations"}, nil},
		{"partitions' index picker", Config{Table: "Locations"}, []string{"i"}},
		{"tree", Config{Table: "Locations", PK: "USA"}, nil},
		{"delimiter picker", Config{Table: "Locations", PK: "USA", Prefix: "NY#"}, []string{"D"}},
		{"index picker", Config{Table: "Locations", PK: "USA"}, []string{"i"}},
		{"items", Config{Table: "DeviceLogs", PK: "123"}, []string{"2"}},
		{"column picker", Config{Table: "DeviceLogs", PK: "9000"}, []string{"C"}},
		{"versions", Config{Table: "Equipment", PK: demo.DriftedPiece}, []string{"3"}},
		{"timeline", Config{Table: "Equipment", PK: demo.DriftedPiece}, []string{"3", "enter"}},
		{"time range", Config{Table: "DeviceLogs", PK: "123"}, []string{"4", "esc"}}, // esc: the range bar, open on 4
		{"changes", stream, []string{"5"}},
		{"entities", shop, []string{"E"}},
		{"search", shop, []string{"E", "enter"}},
		{"compare picker", orders, []string{"="}},
		{"compare", orders, []string{"=", "enter"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 120, 35, c.cfg)
			h.keys(c.keys...)
			if pos := h.m.position(); !strings.HasPrefix(pos, "row ") {
				t.Fatalf("the position is %q:\n%s", pos, h.screen())
			}
			before := h.screen()
			h.keys("/")
			switch {
			case h.quits("q"): // q quits outside a search
				t.Fatalf("q typed after / quits:\n%s", h.screen())
			case c.name == "partitions": // its own go-to a key
				if h.screen() == before {
					t.Fatalf("/ did nothing:\n%s", h.screen())
				}
			case !h.m.searching() || !strings.Contains(h.screen(), "/q"):
				t.Fatalf("/ opened no search:\n%s", h.screen())
			}
		})
	}
}

// TestSearchPartialList: a search over a list that is not all read says
// what it did not look at.
func TestSearchPartialList(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "DeviceLogs", PK: "9000"})
	h.keys("/")
	h.typeText("INFO")
	h.contains(t, "loaded rows only; more not read yet", "row 1 of ≥")

	// A table search stopped at its budget: / says once which rows it
	// looks at, whole at 120 columns (it said "type to search the loaded
	// rows in the 49 loaded rows only; the rest of the table, not read y…").
	db := memory.New()
	seedSearchTable(t, db)
	h = newHarness(t, 120, 35, Config{Client: db, Table: "Wide", FilterBudget: func(string) float64 { return 40 }})
	h.keys("f")
	h.typeText(`Status = "FAIL"`)
	h.keys("enter", "/")
	h.contains(t, "type to search in the ", " loaded rows only; the rest not read yet · enter keeps · esc clears")
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
	h.said(t, "No Time mode here: the 20 sort keys sampled here hold no time")
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

	// At 80 columns with a long breadcrumb the tabs shrink, but a mode
	// that acts keeps its name: only the dimmed ones (they do not apply,
	// and say why when pressed) go to their numbers while that fits.
	h = newHarness(t, 80, 24, Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200"})
	header := strings.Split(h.screen(), "\n")[0]
	for _, want := range []string{"< 1536019200", "2 Items", "4 Time"} {
		if !strings.Contains(header, want) {
			t.Fatalf("the header at 80 columns lacks %q: %q", want, header)
		}
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
		{"entities", Config{Table: "Shop"}, []string{"E"}, nil},
		{"delimiter-picker", Config{Table: "Locations", PK: "USA", Prefix: "NY#"}, []string{"D"}, nil},
		{"column-picker", Config{Table: "DeviceLogs", PK: "9000"}, []string{"C"}, nil},
		{"reference-picker", Config{Table: "Shop", PK: "o#1"}, []string{"tab", ">"}, func(t *testing.T) dynamo.Client { return shopDB(t) }},
		{"count-stopped", Config{Table: "Geography", PK: "PLACE", CountBudget: 1}, []string{"c"}, nil},
		{"export-prompt", Config{Table: "DeviceLogs", PK: "9000"}, []string{"e"}, nil},
		{"table-search", Config{Table: "Locations", FilterBudget: func(string) float64 { return 20 }}, typed("f", `type:City = "NEWYORKCITY"`, "enter"), nil},
		{"partiql", Config{Table: "Locations"}, typed(":", "type:PK = 'USA' AND begins_with(SK, 'NY#')"), nil},
		{"partiql-results", Config{Table: "Locations"}, typed(":", "type:PK = 'USA' AND begins_with(SK, 'NY#')", "enter"), nil},
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
// searches the loaded partitions as it is typed; what enter does (it
// opens the key typed, not the match selected) is said first, whole at
// 80 columns.
func TestPartitionsGoToSearches(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Table: "Locations"})
	h.keys("/")
	h.typeText("us")
	h.contains(t, "enter opens the key typed (PK is S) · ")
	h = newHarness(t, 120, 35, Config{Table: "Locations"})
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

// TestPartitionKeysKeepTheirEnds: partition keys too wide for the list
// give up their middle, as sort keys do: ElectroDB's
// $mallstoredirectory#cityid_atlanta1#mallid_eastpointe#storeid_… were
// cut at the end at 80 columns, every row the same text.
func TestPartitionKeysKeepTheirEnds(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for i := range 5 {
		pk := fmt.Sprintf("$mallstoredirectory#cityid_atlanta1#mallid_eastpointe#storeid_lattelarrys%d", 10+i)
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: "$mallstore_1"}})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Mall", types.ScalarAttributeTypeS, items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 80, 24, Config{Client: db, Table: "Mall"})
	h.contains(t, "Sort keys seen", "$mallstoredirectory#", "storeid_lattelarrys10", "storeid_lattelarrys14")
}

// TestHeaderKeepsTabNames: at 80 columns a long breadcrumb gives up its
// middle ("Tables", then the steps between the table and the last), a
// cut shown as "…", and the tabs keep their names; DEMO, or the
// environment's label, stays in the program's name's place; without
// one, the program's name goes before any step or tab name.
func TestHeaderKeepsTabNames(t *testing.T) {
	tabs := "1 Tree  2 Items  3 Versions  4 Time  5 Changes"
	for _, tc := range []struct {
		cfg   Config
		crumb string
	}{
		{Config{Table: "Locations", PK: "USA"}, "DEMO Tables › Locations › USA "},
		{Config{Table: "Locations", PK: "USA", Prefix: "NY#"}, "DEMO … › Locations › USA › NY "},
		{Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#", Connection: "us-east-1 · http://127.0.0.1:20580"}, "Locations › … › NEWYORKCITY "},
		{Config{Table: "DeviceLogs", PK: "123", Range: "2018"}, "DEMO DeviceLogs › … › 2018 "},
		{Config{Table: "Locations", PK: "USA", Connection: "profile prod · eu-west-1", Environment: prodEnvironment}, " PROD  Tables › Locations › USA "},
	} {
		h := newHarness(t, 80, 24, tc.cfg)
		top := strings.Split(h.screen(), "\n")[0]
		if !strings.HasPrefix(top, tc.crumb) || !strings.Contains(top, tabs) {
			t.Errorf("top line %q: want it to start %q and hold %q", top, tc.crumb, tabs)
		}
	}
}

// TestHeaderCutsWholeCrumbs: a breadcrumb too long even without its
// middle gives way a whole step at a time from its left, the last step
// whole ("… › CUSTOMER#chloé…"), never cut inside a step
// ("…OMER#chloé"), at every size.
func TestHeaderCutsWholeCrumbs(t *testing.T) {
	for _, pk := range []string{
		"CUSTOMER#chloé-" + strings.Repeat("x", 36) + "#END", // table and last too wide together, the last alone not
		"CUSTOMER#chloé-" + strings.Repeat("x", 38) + "#END", // "DEMO … › " and the last too wide at 80, "… › " and the last not
	} {
		for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			h := newHarness(t, size[0], size[1], Config{Table: "Locations", PK: pk})
			top := strings.Split(h.screen(), "\n")[0]
			left := strings.TrimSpace(top[:strings.Index(top, "1 Tree")])
			crumbs := strings.Split(strings.TrimPrefix(left, "DEMO "), " › ")
			for _, c := range crumbs {
				if c != "…" && c != "Tables" && c != "Locations" && c != pk && !strings.HasPrefix(c, "dynascope") {
					t.Errorf("%dx%d: a step shown in part, %q: %q", size[0], size[1], c, top)
				}
			}
			if crumbs[len(crumbs)-1] != pk {
				t.Errorf("%dx%d: the last step is not whole: %q", size[0], size[1], top)
			}
		}
	}
}

// TestHeaderNamesAnItemOnce: in a table keyed by its partition key
// alone, the item's step of the breadcrumb does not repeat the
// partition's (it read "Users › user-006 › user-006").
func TestHeaderNamesAnItemOnce(t *testing.T) {
	db := usersDB(t)
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Users", PK: "user-006"})
		h.contains(t, "Ana")
		h.keys("enter")
		h.contains(t, "user-006 · 2 attributes")
		top := strings.Split(h.screen(), "\n")[0]
		if strings.Count(top, "user-006") != 1 || !strings.Contains(top, "user-006 › item") {
			t.Errorf("%dx%d: the item's breadcrumb: %q", size[0], size[1], top)
		}
	}
}

// TestItemsWithoutASortKeyClaimNoOrder: a partition of a table with no
// sort key has no order: its title claimed "ascending", and o offered
// in ? read it again "descending", for nothing; its partitions list
// headed its count "Sort keys seen".
func TestItemsWithoutASortKeyClaimNoOrder(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Client: usersDB(t), Table: "Users", PK: "user-006"})
	h.contains(t, "Ana", "user-006 · 1 item loaded · all ─")
	queries := h.rec.count("Query")
	h.keys("o")
	h.said(t, "No order to flip here")
	if n := h.rec.count("Query") - queries; n != 0 || strings.Contains(h.screen(), "scending") {
		t.Fatalf("o read %d queries:\n%s", n, h.screen())
	}
	h.keys("?")
	if strings.Contains(h.screen(), "flip order") {
		t.Fatalf("? offers o:\n%s", h.screen())
	}
	// Its partitions count its items, not sort keys it has none of.
	h = newHarness(t, 120, 35, Config{Client: usersDB(t), Table: "Users"})
	h.contains(t, "Partition key  Items", "user-006")
	if strings.Contains(h.screen(), "Sort keys") {
		t.Fatalf("a table with no sort key lists sort keys:\n%s", h.screen())
	}
}

// usersDB holds Users, keyed by its partition key alone, one item.
func usersDB(t *testing.T) *memory.DB {
	t.Helper()
	db := memory.New()
	ctx := context.Background()
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Users"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Users"), Item: dynamo.Item{"id": s("user-006"), "name": s("Ana")}}); err != nil {
		t.Fatal(err)
	}
	return db
}

// prodEnvironment is a configured environment the connection matches.
func prodEnvironment() *config.Environment {
	return &config.Environment{Label: "PROD", Color: "red", Profile: "prod"}
}

// TestEnvironmentLabel: a configured environment's label is on the top
// line and in the status bar at every size, on every page; an
// environment named by its account shows from the frame after it
// matched.
func TestEnvironmentLabel(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			var matched *config.Environment
			h := newHarness(t, sz[0], sz[1], Config{Table: "Locations", PK: "USA", Now: demoClock,
				Connection: "profile prod · eu-west-1", Environment: func() *config.Environment { return matched }})
			if strings.Contains(h.screen(), "PROD") {
				t.Fatalf("a label before the environment matched:\n%s", h.screen())
			}
			matched = prodEnvironment()
			for _, keys := range [][]string{nil, {"2"}, {"enter"}, {"?"}} {
				h.keys(keys...)
				checkScreen(t, h, sz[0], "environment")
				lines := strings.Split(h.screen(), "\n")
				if !strings.Contains(lines[0], " PROD ") || !strings.HasPrefix(lines[len(lines)-1], " PROD ") {
					t.Fatalf("after %v: the label is not on the top line and at the start of the status bar:\n%s", keys, h.screen())
				}
				if keys == nil {
					h.golden(t)
				}
			}
		})
	}
}

// TestRequestLineOneWordOver: a request one word too long for its line
// drops its request count (the status bar keeps the session's) rather
// than wrap that word; longer ones still wrap at spaces, whole.
func TestRequestLineOneWordOver(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
		want  []string
	}{
		{"Query T: PK = :pk · 1 req · 0.5 RCU · until 12:00 UTC", 52,
			[]string{"Query T: PK = :pk · 0.5 RCU · until 12:00 UTC"}},
		{"Query T: PK = :pk · 1 req · 0.5 RCU · until 12:00 UTC", 60,
			[]string{"Query T: PK = :pk · 1 req · 0.5 RCU · until 12:00 UTC"}},
		{"Query T: PK = :pk · 12 reqs · 0.5 RCU · from 11:00 to 12:00 UTC", 50,
			[]string{"Query T: PK = :pk · 12 reqs · 0.5 RCU · from", "11:00 to 12:00 UTC"}},
		{"history of A (3 revisions), read with the versions: no further request", 70,
			[]string{"history of A (3 revisions), read with the versions: no further", "request"}},
	} {
		if got := requestLines(tc.text, tc.width); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("requestLines(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
		}
	}
}

// TestRequestLineKeepsNumbersWithTheirWords: a wrap never ends a line
// with a number whose word starts the next ("following: 13" / "GetRecords",
// "skip-scan 4" / "req"), nor a label with its figure on the next line.
func TestRequestLineKeepsNumbersWithTheirWords(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
		want  []string
	}{
		{"stream of Shop · listed: 1 shard · 11 records · 2 GetRecords · following: 13 GetRecords · 13 records · 0 RCU", 80,
			[]string{"stream of Shop · listed: 1 shard · 11 records · 2 GetRecords ·", "following: 13 GetRecords · 13 records · 0 RCU"}},
		{"stream of Shop · listed: 1 shard · 10 records · 2 GetRecords · following: 6 GetRecords · 12 records · 0 RCU", 80,
			[]string{"stream of Shop · listed: 1 shard · 10 records · 2 GetRecords ·", "following: 6 GetRecords · 12 records · 0 RCU"}},
		{`Query Locations: PK = :pk AND begins_with(SK, :prefix)   :pk="‹m2›" :prefix="‹m1›#" · skip-scan 4 req · 2.5 RCU`, 100,
			[]string{`Query Locations: PK = :pk AND begins_with(SK, :prefix)   :pk="‹m2›" :prefix="‹m1›#" · skip-scan`, "4 req · 2.5 RCU"}},
		{"Scan Locations  IndexName: ByCity  ProjectionExpression: City, SK  (keys only) · 4 pages · 3,100 keys read · 0 jumps past a partition's keys", 100,
			[]string{"Scan Locations  IndexName: ByCity  ProjectionExpression: City, SK  (keys only) · 4 pages ·", "3,100 keys read · 0 jumps past a partition's keys"}},
		// A figure after its word stays with it: "matched" ended a line at
		// 120 columns and "16" began the next.
		{"Scan ledger.v2  IndexName: by-amount  filter amount > 99000 · applied here, items read whole · scanned 2,000 · matched 16 · 3 requests · 277.5 RCU · budget 1000.0 RCU", 118,
			[]string{"Scan ledger.v2  IndexName: by-amount  filter amount > 99000 · applied here, items read whole · scanned 2,000 ·", "matched 16 · 3 requests · 277.5 RCU · budget 1000.0 RCU"}},
		// Narrower than two lines, but three when wrapped at its words: it
		// was cut hard, "scanned 2" ending a line and "20 · matched 11"
		// starting the next (a new user's walk at 80 columns).
		{`Scan shop  filter status = "OPEN" · applied here, items read whole · scanned 220 · matched 11 · 4 requests · 127.5 RCU · budget 20.0 RCU, 107.5 RCU past it`, 80,
			nil},
	} {
		if tc.want == nil {
			got := requestLines(tc.text, tc.width)
			words := strings.Fields(tc.text)
			for _, l := range got {
				for _, w := range strings.Fields(l) {
					if w != "…" && !slices.Contains(words, w) {
						t.Errorf("requestLines(%q, %d) = %q: %q is no word of the request, cut", tc.text, tc.width, got, w)
					}
				}
				if ansi.StringWidth(l) > tc.width-2 {
					t.Errorf("a line wider than %d: %q", tc.width-2, l)
				}
			}
			if len(got) != 2 {
				t.Errorf("requestLines(%q, %d) = %q, want two lines", tc.text, tc.width, got)
			}
			continue
		}
		got := requestLines(tc.text, tc.width)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("requestLines(%q, %d) =\n%q, want\n%q", tc.text, tc.width, got, tc.want)
		}
		for _, l := range got[:len(got)-1] {
			f := strings.Fields(l)
			if last := f[len(f)-1]; figure().MatchString(last) || label().MatchString(last) {
				t.Errorf("a line ends with %q, its word on the next: %q", last, got)
			}
		}
	}
}

// TestTooSmallTakesOnlyQuit: behind "Terminal too small" keys drilled in
// and read unseen; now only q and ctrl+c act.
func TestTooSmallTakesOnlyQuit(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Locations", PK: "USA", Now: demoClock})
	h.send(tea.WindowSizeMsg{Width: 40, Height: 10})
	reads := h.rec.count("Query")
	depth := len(h.m.stack)
	h.keys("enter", "down", "enter", "2", "3", "4", "f", "/", "t", "?", "esc", "r", "c", "e")
	if n := h.rec.count("Query") - reads; n != 0 || len(h.m.stack) != depth || h.m.showHelp || h.m.export.naming {
		t.Fatalf("keys acted behind the notice: %d reads, %d pages (was %d), help %v, export %v", n, len(h.m.stack), depth, h.m.showHelp, h.m.export.naming)
	}
	for _, k := range []tea.KeyPressMsg{keyPress("q"), {Code: 'c', Mod: tea.ModCtrl}} {
		_, cmd := h.m.Update(k)
		if cmd == nil {
			t.Fatalf("%s did not quit", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Fatalf("%s did not quit", k)
		}
	}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.contains(t, "Locations › USA", "row 1 of")
}

// TestTooSmallNoticeFits: the notice is whole at any size (at 40 columns
// it was cut), in the longest wording that fits.
func TestTooSmallNoticeFits(t *testing.T) {
	for _, sz := range [][2]int{{59, 24}, {40, 10}, {30, 6}, {16, 3}, {8, 2}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			h := newHarness(t, 100, 30, Config{Now: demoClock})
			h.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			screen := ansi.Strip(h.m.render())
			lines := strings.Split(screen, "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%d lines", len(lines))
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > sz[0] {
					t.Fatalf("a line wider than %d: %q", sz[0], l)
				}
			}
			words := strings.Join(strings.Fields(screen), " ")
			if !strings.Contains(words, "q quits") && !strings.Contains(words, "press q to quit") {
				t.Fatalf("the notice does not say q quits:\n%s", screen)
			}
			if strings.Contains(screen, "…") {
				t.Fatalf("the notice is cut:\n%s", screen)
			}
			h.golden(t)
		})
	}
}

// helpPages are a view of every page, and keys that reach it.
var helpPages = []struct {
	name string
	cfg  Config
	keys []string
}{
	{"tables", Config{}, nil},
	{"tour", Config{Tour: true}, nil},
	{"partitions", Config{Table: "Locations"}, nil},
	{"tree", Config{Table: "Locations", PK: "USA"}, nil},
	{"items", Config{Table: "DeviceLogs", PK: "123"}, nil},
	{"item", Config{Table: "DeviceLogs", PK: "123"}, []string{"enter"}},
	{"item+stream", Config{Table: demo.ShopTable, PK: demo.StreamCustomer}, []string{"2", "enter"}},
	{"versions", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}, nil},
	{"timeline", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: demo.DriftedItem}, nil},
	{"time", Config{Table: "DeviceLogs", PK: "123", Range: "last 7d"}, nil},
	{"index-picker", Config{Table: "Locations", PK: "USA"}, []string{"i"}},
	{"columns", Config{Table: "DeviceLogs", PK: "123"}, []string{"C"}},
}

// helpLine is the short help, the line above the status bar.
func helpLine(h *harness) string {
	lines := strings.Split(h.screen(), "\n")
	return strings.TrimRight(lines[len(lines)-2], " ")
}

// TestShortHelpEndsWithHelpAndQuit: at every width from 60 the short
// help's last keys are ? help and q quit (q close over a picker), the
// page's own keys giving way first; at 80 columns it never said either
// outside the tour.
func TestShortHelpEndsWithHelpAndQuit(t *testing.T) {
	var at80 []string
	for _, p := range helpPages {
		t.Run(p.name, func(t *testing.T) {
			for _, w := range []int{60, 67, 80, 99, 120, 160, 200} {
				cfg := p.cfg
				cfg.Now = demoClock
				if p.name == "item+stream" { // the embedded backend serves its stream
					db := demoData(t)
					cfg.Client, cfg.Streams = db, db
				}
				h := newHarness(t, w, 24, cfg)
				h.keys(p.keys...)
				line := helpLine(h)
				quit := "q quit"
				if strings.HasSuffix(p.name, "picker") || p.name == "columns" {
					quit = "q close"
				}
				body, _, _ := strings.Cut(line, "   ") // the position, at the right
				if !strings.HasSuffix(strings.TrimSpace(body), "? help • "+quit) {
					t.Fatalf("at %d columns the help line does not end with ? help • %s:\n%q", w, quit, line)
				}
				if w == 80 {
					at80 = append(at80, fmt.Sprintf("%-12s %s", p.name, line))
				}
			}
		})
	}
	golden.RequireEqual(t, []byte(strings.Join(at80, "\n")+"\n"))
}

// TestShortHelpWhileTyping: in a text box ? and q are text, so the help
// line does not offer them.
func TestShortHelpWhileTyping(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Table: "DeviceLogs", PK: "123", Now: demoClock})
	h.keys("f")
	if line := helpLine(h); strings.Contains(line, "q quit") || !strings.Contains(line, "esc cancel") {
		t.Fatalf("help line while typing a filter: %q", line)
	}
}

func TestRequestLinesNeverCutAValue(t *testing.T) {
	long := `Query Locations: PK = :pk AND begins_with(SK, :prefix)   :pk="ARGENTINA" :prefix="ARGENTINA#EAST#LALA#LASANCOUNTY#ALTORGRANDE#" · 1 req · 0.5 RCU`
	huge := `Query T: PK = :pk AND begins_with(SK, :prefix)   :pk="P" :prefix="` + strings.Repeat("SEGMENT#", 40) + `END#" · 1 req · 0.5 RCU`
	ranged := `Query DeviceLogs: DeviceID = :pk AND Timestamp BETWEEN :lo AND :hi   :pk=123 :lo=1793490361 :hi=1793491260  (descending) · 1 req · 0.5 RCU est. · between 2026-10-31 23:46:01 UTC and 2026-11-01 00:01:00 UTC`
	cases := []struct {
		name    string
		text    string
		width   int
		lines   int
		whole   []string // must appear unbroken (joined back)
		elided  bool
		wantEnd string
	}{
		{"fits", "Query T: PK = :pk   :pk=\"A\" · 1 req · 0.5 RCU", 80, 1, []string{`:pk="A"`}, false, "0.5 RCU"},
		{"120: one line", long, 160, 1, []string{`:prefix="ARGENTINA#EAST#LALA#LASANCOUNTY#ALTORGRANDE#"`}, false, "0.5 RCU"},
		{"80: wraps, the value whole", long, 80, 2, []string{`:prefix="ARGENTINA#EAST#LALA#LASANCOUNTY#ALTORGRANDE#"`}, false, "0.5 RCU"},
		{"never at a hyphen", `Query AuditLog: Stream = :pk AND At BETWEEN :lo AND :hi   :pk="prod-api" :lo="2026-10-31T00:00:00Z" :hi="9999-12-31T23:59:59Z"  (descending) · 1 req · 2.5 RCU`, 120, 2, []string{`:hi="9999-12-31T23:59:59Z"`}, false, "2.5 RCU"},
		{"longer than two lines: the middle goes", huge, 80, 2, []string{"Query T: PK = :pk"}, true, "0.5 RCU"},
		{"no figure left without its word", `Query on Locations: PK = "JAPAN" AND begins_with(SK, "TOKYO") · read 24 · matched 24 · 1 request · 0.5 RCU · budget 1000.0 RCU`, 60, 2, []string{"matched 24"}, true, "1000.0 RCU"},
		{"longer than two lines: cut between words", ranged, 80, 2, []string{"Query DeviceLogs:", "between 2026-10-31 23:46:01 UTC and 2026-11-01 00:01:00 UTC"}, true, "00:01:00 UTC"},
		// The cut falls between clauses: it fell inside one ("filter
		// flagged = "yes" · applied …" / "read whole · scanned 21").
		{"longer than two lines: cut between clauses", `Scan ledger.v2  IndexName: sparse-flagged  filter flagged = "yes" · applied here, items read whole · scanned 21 · matched 21 · 1 request · 0.5 RCU · budget 1000.0 RCU`, 80, 2,
			[]string{`filter flagged = "yes" … scanned 21 · matched 21`}, true, "1000.0 RCU"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := requestLines(c.text, c.width)
			if len(got) != c.lines {
				t.Fatalf("%d lines, want %d: %q", len(got), c.lines, got)
			}
			for _, l := range got {
				if ansi.StringWidth(l) > c.width-2 {
					t.Fatalf("line %q wider than %d", l, c.width-2)
				}
			}
			joined := strings.Join(got, " ")
			for _, w := range c.whole {
				if !strings.Contains(joined, w) {
					t.Fatalf("%q cut: %q", w, got)
				}
			}
			if f := strings.Fields(got[len(got)-1]); len(got) == 2 && c.elided && figure().MatchString(f[0]) && f[1] == "·" {
				t.Fatalf("the second line starts with a figure without its word: %q", got)
			}
			for _, w := range strings.Fields(joined) { // shortened between words: none shown cut ("1 req" as "q")
				if w != "…" && !slices.Contains(strings.Fields(c.text), w) {
					t.Fatalf("%q is no word of the request, cut: %q", w, got)
				}
			}
			if strings.Contains(joined, "…") != c.elided {
				t.Fatalf("elided %v, want %v: %q", !c.elided, c.elided, got)
			}
			if !strings.HasSuffix(strings.TrimSpace(got[len(got)-1]), c.wantEnd) {
				t.Fatalf("does not end in %q: %q", c.wantEnd, got)
			}
		})
	}
}

// TestStatusCutsADetailAtItsEnd: a note's detail that does not fit has
// its command cut at its end, after whole words, the phrases after it
// whole, unless it ends in a file's path (an export's name stays whole):
// y on a PartiQL Query's results at 200x50 read "aws dynamodb query
// --table-name LibOneTable …pastes the tmux buffer", the command and the
// key that pastes it both gone.
func TestStatusCutsADetailAtItsEnd(t *testing.T) {
	tmux := func(context.Context, string) error { return nil }
	for _, sz := range [][2]int{{120, 35}, {200, 50}, {280, 50}} {
		h := newHarness(t, sz[0], sz[1], Config{Table: "Locations", PK: "USA", TmuxBuffer: tmux})
		h.keys("2", "y")
		h.said(t, "sent to the clipboard and a tmux buffer: the aws command")
		lines := strings.Split(h.screen(), "\n")
		status := strings.TrimRight(lines[len(lines)-1], " ")
		if sz[0] == 280 && !strings.HasSuffix(status, "prefix ] pastes the tmux buffer · by OSC 52 (unconfirmed)") {
			t.Errorf("%v: the status bar does not end with how to paste it: %q", sz, status)
		}
		if i := strings.Index(status, "…"); i >= 0 && i+len("…") != len(status) && !strings.HasPrefix(status[i+len("…"):], " · ") {
			t.Errorf("%v: the status bar is cut inside a phrase: %q", sz, status)
		}
	}
}

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

// TestItemHelpNamesWhatDShows: d toggles between plain and DynamoDB JSON,
// so its help names the form it switches to, in the short help and in ?.
func TestItemHelpNamesWhatDShows(t *testing.T) {
	cfg := Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"}
	for _, tc := range []struct {
		keys      []string
		want, not string
	}{
		{[]string{"2", "enter"}, "d DynamoDB JSON", "d plain JSON"},
		{[]string{"2", "enter", "d"}, "d plain JSON", "d DynamoDB JSON"},
		{[]string{"2", "enter", "d", "?"}, "d plain JSON", "d DynamoDB JSON"},
		{[]string{"2", "enter", "d", "d", "?"}, "d DynamoDB JSON", "d plain JSON"},
	} {
		h := newHarness(t, 200, 50, cfg)
		h.keys(tc.keys...)
		scr := strings.Join(strings.Fields(h.screen()), " ")
		if !strings.Contains(scr, tc.want) || strings.Contains(scr, tc.not) {
			t.Errorf("after %v: want %q and not %q in\n%s", tc.keys, tc.want, tc.not, h.screen())
		}
	}
}

// TestItemLongValues: a value too long for the item view is cut with
// "…", and w wraps it so that it reads whole in the explorer (escaped,
// as every value), w again cuts it; where nothing is cut w is not
// offered, and says why. Every line, a 👍🏽 (a thumb and a skin tone: two
// cells counted by grapheme, four rune by rune, as tmux and Bubble Tea's
// renderer count them) or a 北 on a wrap's edge included, keeps the
// frame's width, its right border on it.
func TestItemLongValues(t *testing.T) {
	mem := memory.New()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	long := "The quick brown fox; " + strings.Repeat("then it ran through the forest 北京 again, ", 6) + "bell\x07 THE END"
	items := []dynamo.Item{
		{"PK": s("p"), "SK": s("long"), "long": s(long), "thumb": s("ok 👍🏽 done")},
		{"PK": s("p"), "SK": s("short"), "v": s("x")},
	}
	if err := demo.CreateKeyTable(context.Background(), mem, "Notes", "S", items); err != nil {
		t.Fatal(err)
	}
	frameHolds := func(t *testing.T, h *harness, w int) {
		t.Helper()
		for i, l := range strings.Split(h.screen(), "\n") {
			if n := ansi.WcWidth.StringWidth(l); n > w || strings.HasPrefix(l, "│") && (n != w || !strings.HasSuffix(l, "│")) {
				t.Fatalf("line %d is %d cells, not the frame's %d:\n%s", i, n, w, h.screen())
			}
		}
	}
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			h := newHarness(t, sz[0], sz[1], Config{Client: mem, Table: "Notes", PK: "p", Now: demoClock})
			h.keys("2", "enter")
			h.contains(t, `"thumb": "ok 👍🏽 done"`, "…  S")
			frameHolds(t, h, sz[0])
			if !strings.Contains(helpLine(h), "w wrap long values") {
				t.Errorf("w is not offered over a value cut:\n%s", h.screen())
			}
			h.keys("w")
			h.contains(t, "long values wrapped", `\u0007`, ` THE END",  S`)
			if strings.Contains(h.screen(), "…  S") || !strings.Contains(helpLine(h), "w cut long values") {
				t.Errorf("w did not wrap the long value:\n%s", h.screen())
			}
			frameHolds(t, h, sz[0])
			h.keys("w")
			h.contains(t, "…  S")
			h.keys("esc", "down", "enter")
			h.contains(t, `"v": "x"`)
			if strings.Contains(helpLine(h), "w wrap") {
				t.Errorf("w is offered where nothing is cut:\n%s", h.screen())
			}
			h.keys("w")
			h.said(t, "Nothing to wrap")
		})
	}
}

// TestHelpShowsOnlyKeysThatAct: the help line and ? list a key only where
// it acts, derived from each page's keys: a Versions list with no rows
// offered enter, / and the moves; n and N were listed before any search,
// > where no item is selected, < and ctrl+i with no view to go to.
func TestHelpShowsOnlyKeysThatAct(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "FRANCE", Versions: "*", Now: demoClock})
	h.contains(t, "No Versions mode here")
	line := helpLine(h)
	for _, absent := range []string{"enter open", "/ search", "↑/k up"} {
		if strings.Contains(line, absent) {
			t.Errorf("an empty Versions list offers %q: %q", absent, line)
		}
	}
	if !strings.Contains(line, "esc back") {
		t.Errorf("esc back left the help line: %q", line)
	}
	h.keys("?")
	for _, absent := range []string{"next match", "follow reference", "forward", " open "} {
		if strings.Contains(h.screen(), absent) {
			t.Errorf("? lists %q where it does nothing:\n%s", absent, h.screen())
		}
	}
	h.keys("?")

	h = newHarness(t, 120, 35, Config{Table: "Equipment", PK: demo.DriftedPiece, Now: demoClock})
	h.keys("3")
	h.keys("?")
	h.contains(t, " open ", " search ", "</ctrl+o back")
	if strings.Contains(h.screen(), "next match") {
		t.Errorf("? lists n before any search:\n%s", h.screen())
	}
	h.keys("?", "/")
	h.typeText("Audit")
	h.keys("enter", "?")
	h.contains(t, "next match")

	// A tree whose keys hold no time does not offer t (the Time mode is
	// dimmed, with its reason); one whose keys do, does.
	h = newHarness(t, 200, 50, Config{Table: "Equipment", PK: "Equipment_1", Now: demoClock})
	h.contains(t, "Equipment_1 · 4 prefixes")
	h.keys("?")
	if strings.Contains(h.screen(), "t time range") {
		t.Errorf("? offers t where no key holds time:\n%s", h.screen())
	}
	h = newHarness(t, 200, 50, Config{Table: "AuditLog", PK: "prod-api", Now: demoClock})
	h.keys("1", "?")
	h.contains(t, "t time range")
}

// TestHelpOffersWhatActsOnEveryPage: a new user's walk through every
// page, pressing what ? lists: each page lists a key where it acts and
// not where it does not, as the others do. The tables list and the
// search listed p below 100 columns (p only said "no preview"); the
// search left out /, which searched its rows; the item listed 5 with no
// stream (its help line did not) and left out y and Y; a range merged
// across prefixes listed e, which did nothing; Entities left out p,
// which moves the attributes beside the types.
func TestHelpOffersWhatActsOnEveryPage(t *testing.T) {
	search := func(h *harness) {
		h.keys("f")
		h.typeText(`Level = "ERROR"`)
		h.keys("enter")
		h.contains(t, "matched")
	}
	entities := func(h *harness) { h.keys("E"); h.contains(t, "entity type") }
	shop := func(h *harness) {
		h.keys("/")
		h.typeText(demo.ShopTable)
		h.keys("enter")
		h.contains(t, "1 of 1 match")
	}
	item := func(h *harness) { h.contains(t, "items loaded"); h.keys("enter"); h.contains(t, "attributes") }
	merged := func(h *harness) {
		h.keys("t")
		h.typeText("2020-04-24")
		h.keys("enter")
		h.contains(t, "across 4 prefixes")
	}
	for _, tc := range []struct {
		name   string
		w, h   int
		cfg    Config
		walk   func(*harness)
		line   []string // on the help line
		listed []string // in ? help
		absent []string // in neither
	}{
		{"tables 80", 80, 24, Config{}, nil, nil, []string{"/ search", "r refresh"}, []string{"p preview", "5 table's changes"}},
		{"tables 120", 120, 35, Config{}, nil, nil, []string{"p preview"}, []string{"5 table's changes"}},
		// 5 is listed over a table whose stream it reads, not over one
		// without, where it only says why not.
		{"tables, one with a stream", 120, 35, Config{Streams: demoData(t)}, shop, nil, []string{"5 table's changes"}, nil},
		{"tables, a stream not selected", 120, 35, Config{Streams: demoData(t)}, nil, nil, nil, []string{"5 table's changes"}},
		{"partitions without a stream", 120, 35, Config{Table: "Locations", Streams: demoData(t)}, nil, nil, []string{"f filter table"}, []string{"5 table's changes"}},
		{"partitions with a stream", 120, 35, Config{Table: demo.ShopTable, Streams: demoData(t)}, nil, nil, []string{"5 table's changes"}, nil},
		{"search 80", 80, 24, Config{Table: "DeviceLogs"}, search, []string{"/ search"}, []string{"/ search", "f filter"}, []string{"p preview"}},
		{"search 120", 120, 35, Config{Table: "DeviceLogs"}, search, []string{"/ search"}, []string{"/ search", "p preview"}, nil},
		{"item without a stream", 120, 35, Config{Table: "DeviceLogs", PK: "9000"}, item, []string{"y copy"}, []string{"y copy", "Y copy key", "d DynamoDB JSON"}, []string{"5 its changes"}},
		{"entities 80", 80, 24, Config{Table: "Locations"}, entities, nil, []string{"/ search"}, []string{"p preview"}},
		{"entities 120", 120, 35, Config{Table: "Locations"}, entities, nil, []string{"/ search", "p preview"}, nil},
		// The comparison's picker moved by pgdn, g and G, listed nowhere.
		{"compare picker", 120, 35, Config{Table: "Locations", PK: "USA"}, func(h *harness) { h.keys("=") }, nil, []string{"pgdn page down", "G last", "enter compare"}, nil},
		{"range across prefixes", 120, 30, Config{Table: demo.StateTable, PK: demo.StateDevice, Now: demoClock}, merged, nil, []string{"t time range"}, []string{"e export", "y copy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.w, tc.h, tc.cfg)
			if tc.walk != nil {
				tc.walk(h)
			}
			line := helpLine(h)
			for _, want := range tc.line {
				if !strings.Contains(line, want) {
					t.Errorf("the help line lacks %q: %q", want, line)
				}
			}
			h.keys("?")
			full := strings.Join(strings.Fields(h.screen()), " ") // "p     preview" in ?'s columns
			h.keys("?")
			for _, want := range tc.listed {
				if !strings.Contains(full, want) {
					t.Errorf("? lacks %q, which acts here:\n%s", want, full)
				}
			}
			for _, absent := range tc.absent {
				if strings.Contains(full, absent) || strings.Contains(line, absent) {
					t.Errorf("%q is offered where it does nothing:\n%s", absent, full)
				}
			}
		})
	}
}

// TestKeysThatDoNotActSayWhyTruly: a key that does nothing where it is
// pressed says why, and the reason is true of the page it is pressed on:
// e on an item said "nothing to export yet" (an item is never exported),
// / on the tour "this view has no list to search";
// e and y on a range merged across prefixes said nothing; > on an item
// naming no partition said so only in the status bar, cut in its middle,
// and ? did not keep it.
func TestKeysThatDoNotActSayWhyTruly(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "DeviceLogs", PK: "9000"})
	h.contains(t, "items loaded")
	h.keys("enter")
	h.contains(t, "attributes")
	h.keys("e")
	h.said(t, "e export does not apply here: it exports the rows of a partition's modes (1–4) or of a search (f, :)")
	h.keys(">")
	h.said(t, "no partition is named by this item's values")
	h.keys("?")
	h.contains(t, "last messages")
	if !strings.Contains(h.screen(), h.m.said[len(h.m.said)-1].whole()) {
		t.Errorf("? does not keep what > said (%q):\n%s", h.m.said[len(h.m.said)-1].whole(), h.screen())
	}
	h.keys("?")

	// p on a page with no preview pane does not list itself there: it
	// does not apply, says why, and leaves the setting as it was.
	h = newHarness(t, 120, 35, Config{Table: "Locations"})
	h.keys("p")
	h.said(t, "p preview does not apply here: this view has no preview pane")
	if h.m.c.Preview != 0 {
		t.Fatalf("p on a page with no preview changed the setting to %d", h.m.c.Preview)
	}
	h.keys("E")
	h.contains(t, "entity type")
	h.keys("p") // 120 columns: off by default, p shows it
	h.said(t, "preview on (p hides it)")
	// Below 100 columns a view that has a pane has no room for it; one
	// that has none at any width says so, not "below 100 columns".
	h = newHarness(t, 80, 24, Config{Table: "DeviceLogs", PK: "9000"})
	h.contains(t, "items loaded")
	h.keys("p")
	h.said(t, "no preview below 100 columns")
	h.keys("enter", "p")
	h.said(t, "p preview does not apply here: this view has no preview pane")

	// The tour is a list (of stops): "no list to search" was not true of it.
	h = newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
	h.keys("/")
	h.said(t, "/ search does not apply here: the tour's 23 stops are opened by their keys (1–9 a–u); esc: the tables, where / searches")

	h = newHarness(t, 120, 30, Config{Table: demo.StateTable, PK: demo.StateDevice, Now: demoClock})
	h.keys("t")
	h.typeText("2020-04-24")
	h.keys("enter")
	h.contains(t, "across 4 prefixes")
	for _, k := range []string{"e", "y", "Y"} {
		before := len(h.m.said)
		h.keys(k)
		if len(h.m.said) == before {
			t.Fatalf("%s on a merged range said nothing:\n%s", k, h.screen())
		}
		h.said(t, "this range is read across 4 prefixes, not as one query")
	}
}

// TestHelpKeepsTheCommandWhole: at 80×24, ? wraps the command that
// reopens the view, never cuts it, and says what the status bar's
// figures are, and why its RCU is an estimate where it says "est.".
func TestHelpKeepsTheCommandWhole(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		est  string
	}{
		{"billed", Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#", Levels: "STATE#CITY#ZIP"}, ""},
		{"estimated", Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#", CostEstimated: true}, "RCU est.: the data is not in DynamoDB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 80, 24, tc.cfg)
			h.keys("?")
			checkScreen(t, h, 80, "help")
			cmd := h.m.commandLine()
			var joined []string
			for _, l := range strings.Split(h.screen(), "\n") {
				joined = append(joined, strings.TrimSpace(l))
			}
			if !strings.Contains(strings.Join(joined, " "), "this view: "+cmd) {
				t.Errorf("? does not show %q whole:\n%s", cmd, h.screen())
			}
			flat := strings.Join(joined, " ")
			if !strings.Contains(flat, "status bar: requests · the RCU DynamoDB bills for them · the last request's latency") {
				t.Errorf("? does not say what the status bar's figures are:\n%s", h.screen())
			}
			if tc.est != "" && !strings.Contains(flat, tc.est) || tc.est == "" && strings.Contains(flat, "RCU est.:") {
				t.Errorf("est. explained: want %q:\n%s", tc.est, h.screen())
			}
			if last := strings.Split(h.screen(), "\n"); !strings.Contains(last[len(last)-1], " · last ") {
				t.Errorf("the latency has no label: %q", last[len(last)-1])
			}
		})
	}
}

// TestStatusBarFiguresWhole: where the session's figures do not all fit
// (a long endpoint at 80 columns), the last latency gives way whole, then
// the demo's clock, rather than the line cutting one ("last 38m…" read as
// minutes, "now is 2026-11-01 00:0…"); where they fit, all are there.
func TestStatusBarFiguresWhole(t *testing.T) {
	for _, tc := range []struct {
		w             int
		latency, time bool
	}{{80, false, false}, {120, true, true}, {200, true, true}} {
		t.Run(fmt.Sprint(tc.w), func(t *testing.T) {
			h := newHarness(t, tc.w, 24, Config{Table: "Locations", Connection: "us-east-1 · http://localhost:18731", Now: demoClock})
			lines := strings.Split(h.screen(), "\n")
			status := strings.TrimRight(lines[len(lines)-1], " ")
			if strings.Contains(status, "…") {
				t.Fatalf("the status bar cuts a figure: %q", status)
			}
			if strings.Contains(status, " · last ") != tc.latency || strings.Contains(status, "now is 2026-11-01 00:00 UTC") != tc.time {
				t.Fatalf("latency %v, clock %v wanted: %q", tc.latency, tc.time, status)
			}
		})
	}
}

// TestStatusKeepsTheMessageWhole: at 80 columns a message too long to sit
// beside the session's figures is shown whole in their place, its end
// (what to do) included; the figures come back with the next key.
func TestStatusKeepsTheMessageWhole(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Now: demoClock})
	h.keys("X")
	lines := strings.Split(h.screen(), "\n")
	status := lines[len(lines)-1]
	if !strings.Contains(status, "X stop loading does not apply here: nothing is loading") {
		t.Fatalf("the message is cut: %q", status)
	}
	h.keys("down")
	lines = strings.Split(h.screen(), "\n")
	if status := lines[len(lines)-1]; !strings.Contains(status, " req · ") {
		t.Fatalf("the figures did not come back: %q", status)
	}
}

// TestFrameKeptIsFrameDrawn: the parts of the frame kept from one key to
// the next (header, request line, help line, status bar) are what drawing
// them again makes, after every key of a walk through the pages, modes,
// help, search, a resize and a failure; and a burst of page-downs draws
// the help and the header once, only the position beside them moving.
func TestFrameKeptIsFrameDrawn(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Now: demoClock})
	walk := [][]string{{"enter"}, {"enter"}, {"tab"}, {"2"}, {"3"}, {"1"}, {"pgdown"}, {"j"}, {"G"}, {"g"},
		{"?"}, {"?"}, {"/"}, {"e"}, {"enter"}, {"n"}, {"esc"}, {"enter"}, {"esc"}, {"esc"}, {"esc"}}
	for i, keys := range walk {
		if i == 8 {
			h.send(tea.WindowSizeMsg{Width: 120, Height: 35})
		}
		h.keys(keys...)
		_ = h.screen() // checks the parts kept against the same drawn again
	}

	h = newHarness(t, 120, 35, Config{Client: burstTable(t), Table: "Burst", PK: "burst"})
	h.loadAll()
	_ = h.screen()
	headers, helps := h.m.memo.header.draws, h.m.memo.helpLine.draws
	widths := map[int]bool{}
	for range 20 {
		h.keys("pgdown")
		widths[len(h.m.position())] = true
		_ = h.m.render()
	}
	h.contains(t, "row 561 of 5,000")
	// The position's width changes at 2 and 3 digits: the help beside it
	// is fitted again then, and only then.
	if n := h.m.memo.header.draws - headers; n != 0 {
		t.Errorf("20 page-downs drew the header %d times, want 0", n)
	}
	if n := h.m.memo.helpLine.draws - helps; n > len(widths) {
		t.Errorf("20 page-downs drew the help line %d times, want at most %d (once a width of the position)", n, len(widths))
	}
}
