package ui

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

func TestTablesPage(t *testing.T) {
	h := newHarness(t, 100, 30, Config{})
	h.contains(t, "Locations", "PK S · SK S", "GSI ByCity, LSI BySquareFeet", "READ-ONLY", "DEMO")
	h.golden(t)
}

func TestTablesPageWide(t *testing.T) {
	h := newHarness(t, 140, 30, Config{}) // the preview is on from 140 columns
	h.keys("down", "down")                // ChatMessages
	h.contains(t, "GSI ByTime", "partition key  ChatRoomID")
	h.golden(t)
}

func TestPartitionsPage(t *testing.T) {
	h := newHarness(t, 100, 30, Config{})
	for i := 0; i < 7; i++ { // Locations
		h.keys("down")
	}
	h.keys("enter")
	// The first 100 keys hold one partition: the first jump past it goes
	// out alone and finds a second, so the listing goes on in the 8
	// segments of a parallel Scan, read at once, each finding its first
	// partition with a read of one key, then jumping past the rest of
	// each partition's keys with probes of one read unit (33 keys, sized
	// from what the first read cost): six partitions in sixteen reads (a
	// segment holding none reads nothing once, USA's and JAPAN's read one
	// key again), 171 keys, in four round trips. Their first reads were
	// probes: 331 keys, 66 of them read twice.
	h.contains(t, "Tables › Locations", "USA", "6 partitions · all", "Scan Locations  TotalSegments: 8", "16 pages · 171 keys")
	h.golden(t)
	for i := 0; i < 3; i++ {
		h.keys("down")
	}
	h.contains(t, "FRANCE")
}

func TestItemsPageDeepLinkOneQuery(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Locations", PK: "USA"})
	h.contains(t, "53 prefixes", "▸ AK#", "delimiter #", "Tree")
	before := h.rec.count("Query")
	h.keys("tab") // the Items mode of the same partition
	if q := h.rec.count("Query") - before; q != 1 {
		t.Fatalf("the first screen of a partition took %d Query requests, want 1", q)
	}
	if s := h.rec.count("Scan"); s != 0 {
		t.Fatalf("a deep link to a partition scanned the table (%d Scans)", s)
	}
	h.contains(t, "Locations › USA", `Query Locations: PK = :pk   :pk="USA"`, "AK#")
	h.golden(t)
}

func TestItemsPageWidePreview(t *testing.T) {
	h := newHarness(t, 140, 32, Config{Table: "DeviceLogs", PK: "123"})
	h.contains(t, "1310216400", "1535544000", "1536022800", `"Timestamp": 1310216400`, "all · ascending")
	h.golden(t)
}

func TestItemsFlipOrder(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "123"})
	h.keys("o")
	s := h.screen()
	if strings.Index(s, "1536022800") > strings.Index(s, "1310216400") {
		t.Fatalf("o did not reverse the order:\n%s", s)
	}
	h.contains(t, "descending")
}

func TestItemPage(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Equipment", PK: "Equipment_1"})
	h.keys("tab", "down", "enter") // Items mode; v0_Audit, after metadata
	// Opened from the rows loaded: no GetItem, but the table's TTL is
	// asked for, and the request line says so (it said "no request sent"
	// while the status bar counted the DescribeTimeToLive).
	h.contains(t, `"Checks": {`, "from the rows already loaded, no GetItem sent", "its table's TTL: DescribeTimeToLive")
	h.golden(t)
	h.keys("d")
	h.contains(t, `"S": "Auditor-Grace"`, "DynamoDB JSON")
	h.keys("esc")
	h.contains(t, "items loaded")
}

func TestGoToPartition(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "DeviceLogs"})
	h.keys("/", "x", "enter")
	h.contains(t, `"x" is not a number`)
	h.keys("backspace", "1", "2", "3", "enter")
	h.contains(t, "DeviceLogs › 123", "1536022800")
}

func TestTooSmall(t *testing.T) {
	h := newHarness(t, 50, 12, Config{})
	h.contains(t, "Terminal too small", "50×12", "60×15")
	h.golden(t)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.contains(t, "Locations")
}

func TestMissingTableErrorPage(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Nope"})
	h.contains(t, "no such table", "What to do", "dynascope tables")
	// The help line names the error page's keys as the page does, and
	// only those that act there (r retry, esc back, q quit).
	h.contains(t, "r retry • esc back • q quit")
	if strings.Contains(h.screen(), "refresh") {
		t.Fatalf("the error page's help says r refresh where the page says r retry:\n%s", h.screen())
	}
	h.golden(t)
	h.keys("esc")
	h.contains(t, "Locations", "GSI ByCity")
}

func TestBadDeepLinkKeepsWorking(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "abc"})
	h.said(t, `partition key: "abc" is not a number`)
	h.contains(t, `partition key: "abc" is not`, "DeviceLogs")
	h.keys("enter")
	h.contains(t, "items loaded")
}

func TestHelpToggle(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Locations", PK: "USA"})
	h.keys("?")
	h.contains(t, "next mode", "page down", "delimiter", "count")
	h.keys("?")
	h.contains(t, "• ? help • q quit")
}

func TestUnreachableEndpoint(t *testing.T) {
	c, _, err := dynamo.Connect(context.Background(), dynamo.Target{Region: "us-east-1", EndpointURL: "http://127.0.0.1:1", MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "x")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "y")
	h := newHarness(t, 100, 30, Config{Client: c, Connection: "us-east-1 · http://127.0.0.1:1"})
	h.contains(t, "cannot reach 127.0.0.1:1 (region us-east-1)", "check the endpoint")
	h.keys("r")
	h.contains(t, "cannot reach 127.0.0.1:1 (region us-east-1)")
}

// TestItemDataIsEscaped: terminal control in item data never reaches the
// screen raw.
func TestItemDataIsEscaped(t *testing.T) {
	db := memory.New()
	ctx := context.Background()
	for _, def := range demo.Tables() {
		if *def.TableName == "Equipment" {
			if _, err := db.CreateTable(ctx, def); err != nil {
				t.Fatal(err)
			}
		}
	}
	evil := "\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b[31mred\u202egnp.exe\x00"
	put(t, db, "Equipment", map[string]string{"PK": "P", "SK": "v0_" + evil, "Notes": evil, "Name\x1b[1m": "x"})
	h := newHarness(t, 140, 30, Config{Client: db, Table: "Equipment", PK: "P", Delimiter: "#"})
	if raw := h.m.render(); strings.Contains(raw, "\x1b]52") {
		t.Fatal("raw OSC 52 reached the tree")
	}
	h.keys("tab")
	raw := h.m.render()
	for _, bad := range []string{"\x1b]52", "\x1b[2J", "\u202e", "\x00", "\x07"} {
		if strings.Contains(raw, bad) {
			t.Fatalf("raw %q reached the screen", bad)
		}
	}
	h.contains(t, `v0_\x1b]52;c;ZXZpbA==`)
	h.keys("enter")
	h.contains(t, `\u001b]52;c;ZXZpbA==\u0007`, `\u202e`)
	raw = h.m.render()
	for _, bad := range []string{"\x1b]52", "\x1b[2J", "\u202e", "\x00"} {
		if strings.Contains(raw, bad) {
			t.Fatalf("raw %q reached the item view", bad)
		}
	}
}

// TestEndToEndOnDynalite runs the explorer on a real server.
func TestEndToEndOnDynalite(t *testing.T) {
	srv := dynalitetest.Start(t)
	c := srv.Client()
	if _, err := demo.Seed(context.Background(), c, demo.Options{Tables: []string{"Equipment"}}); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 100, 30, Config{Client: c, Connection: "dynalite"})
	h.contains(t, "Equipment", "PK S · SK S")
	h.keys("enter")
	h.contains(t, "Equipment_")
	h.keys("enter")
	h.contains(t, "prefixes", "Tree")
	before := h.rec.count("Query")
	h.keys("tab")
	h.contains(t, "items loaded", "v0_Audit")
	if q := h.rec.count("Query") - before; q != 1 {
		t.Fatalf("%d queries for the first screen", q)
	}
}

// TestSmokeProgram runs the real program loop on each page.
func TestSmokeProgram(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		keys []string
		want string
	}{
		{"tables", Config{}, nil, "GSI ByCity"},
		{"partitions", Config{Table: "Locations"}, nil, "USA"},
		{"tree", Config{Table: "Locations", PK: "USA"}, nil, "prefix"},
		{"items", Config{Table: "DeviceLogs", PK: "123"}, nil, "items loaded"},
		{"item", Config{Table: "DeviceLogs", PK: "123"}, []string{"enter"}, "EventID"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			smoke(t, tc.cfg, tc.keys, tc.want)
		})
	}
}

func TestTreeDrillDown(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Locations", PK: "USA", Prefix: "NY#"})
	h.contains(t, "Locations › USA › NY", "NEWYORKCITY", `begins_with(SK, :prefix)   :pk="USA" :prefix="NY#"`, "skip-scan")
	h.golden(t)
	h.keys("down", "enter") // NEWYORKCITY
	h.contains(t, "NY#NEWYORKCITY# · 5 prefixes · 11 items", "row 1 of 16", "• 10001", "• 10019", "▸ 62700#")
	h.keys("enter") // 10001 is an item: GetItem, then the item view
	h.contains(t, "#675 6th Ave", "GetItem Locations")
	h.keys("esc", "esc")
	h.contains(t, "NY# · 5 prefixes")
	h.keys("esc") // climbs to the top level, loaded now
	h.contains(t, "53 prefixes", "▸ AK#")
}

func TestTreeCountsAndDelimiter(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#", Levels: "STATE#CITY#ZIP"})
	h.contains(t, "ZIP", "DEMO Locations › USA › STATE NY › CITY NEWYORKCITY   1 Tree  2 Items") // DEMO in the name's place: the crumbs and the tab names fit
	h.keys("c")
	h.contains(t, "62700#  prefix      1") // counts right-aligned under Items; the item 62700 has its own row
	before := h.rec.count("Query")
	h.keys("D") // a picker, each delimiter with its split of the loaded keys: nothing read
	h.contains(t, "Split the sort keys at", "how each would split the", "NY › NEWYORKCITY › 10001", "11 of 11", "0 of 11     (no split) NY#NEWYORKCITY#10001")
	if h.rec.count("Query") != before {
		t.Fatal("the delimiter picker read something")
	}
	h.keys("down", "enter") // | : the keys have none, so each key is one item
	h.contains(t, "delimiter |")
}

// TestDelimiterPickerSplitsRealKeys: the picker's preview of a prefix
// splits a sort key the walk read under it, not the prefix drawn with
// "…": on an ElectroDB partition ($board#task_1#status_done#task_t000)
// it said "_ 0 of 1 (no split) $board#…" of keys that hold "_".
func TestDelimiterPickerSplitsRealKeys(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	items := []dynamo.Item{{"PK": s("$taskapp#project_p1"), "SK": s("$board#project_1")}}
	for i := range 6 {
		items = append(items, dynamo.Item{"PK": s("$taskapp#project_p1"), "SK": s(fmt.Sprintf("$board#task_1#status_done#task_t%03d", i))})
	}
	db := memory.New()
	if err := demo.CreateKeyTable(context.Background(), db, "Electro", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Electro", PK: "$taskapp#project_p1"})
	h.contains(t, "▸ $board#")
	h.keys("D")
	h.contains(t, "Split the sort keys at")
	for _, l := range strings.Split(h.screen(), "\n") {
		if f := strings.Fields(strings.Trim(l, "│ ●")); len(f) > 0 && f[0] == "_" && strings.Contains(l, "(no split)") {
			t.Fatalf("keys that hold _ said not to split at it: %q\n%s", l, h.screen())
		}
	}
}

func TestTreeOnNumberKeysShowsItems(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "123"})
	h.contains(t, "items loaded", "Items", "no hierarchy to drill (a number sort key)")
}

func TestTreeShards(t *testing.T) {
	h := newHarness(t, 110, 30, Config{Table: "ChatMessages", PK: "seattle-{1..4}"})
	h.contains(t, "ChatMessages › seattle-{1..4}", "▸ amsg#", "seattle-1, seattle-2, seattle-3, seattle-4", "4 shards of seattle-{1..4}")
	h.golden(t)
	h.keys("enter")
	h.contains(t, "amsg# · ", "3,306 items", "seattle-")
	h.keys("tab")
	h.said(t, "no other mode applies here")
	h.keys("2")
	h.said(t, "No Items mode here: open one shard")
}

func TestGoToShardPattern(t *testing.T) {
	h := newHarness(t, 110, 30, Config{Table: "ChatMessages"})
	h.keys("/")
	for _, r := range "seattle-{1..2}" {
		h.keys(string(r))
	}
	h.keys("enter")
	h.contains(t, "seattle-1, seattle-2")
}

func TestTreeOnIndex(t *testing.T) {
	h := newHarness(t, 110, 30, Config{Table: "ChatMessages", PK: "portland", Index: "ByTime"})
	h.contains(t, "index ByTime", "Query ChatMessages index ByTime: ChatRoomID = :pk", "▸ 2018-")
	h.keys("i") // the picker: the base table and ByTime, what each reads first
	h.contains(t, "Read ChatMessages through", "table", "ChatRoomID S · MessageID S", "ByTime", "GSI", "ChatRoomID S · TimeUser S",
		"all attributes", "this partition's tree (skip-scan)")
	h.keys("up", "enter") // back to the base table: users first
	h.contains(t, "▸ amsg#")
	h.keys("i", "down", "enter")
	h.contains(t, "index ByTime")
}

func TestCountBudget(t *testing.T) {
	// The demo's Geography table is ~1.9 MB, over the budget: c counts at
	// once, never asking first, and stops at the budget.
	h := newHarness(t, 100, 30, Config{Table: "Geography", PK: "PLACE", CountBudget: 20})
	h.keys("c")
	h.said(t, "stopped at the count budget of 20 RCU")
	h.contains(t, "…")
	// A branch the count never reached is not counted ("–": c counts
	// it), not "0…", which read as none found so far.
	if screen := h.screen(); strings.Contains(screen, " 0…") {
		t.Fatalf("a branch never counted shows 0…:\n%s", screen)
	}
}

// TestCountBudgetStopFitsTheStatusBar: where the status bar is narrow
// (80 columns beside an endpoint's name), a count stopped at its budget
// keeps what to do and cuts the words before it at a word; wider, the
// figures after it keep their last clause (it read "count: stopped
// …RCU; c counts on", and at 200 columns "51 of 53 coun…ads on").
func TestCountBudgetStopFitsTheStatusBar(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Table: "Geography", PK: "PLACE", CountBudget: 20, Connection: "us-east-1 · http://127.0.0.1:20541"})
		h.keys("c")
		h.said(t, "stopped at the count budget of 20 RCU")
		lines := strings.Split(h.screen(), "\n")
		bar := lines[len(lines)-1]
		if !strings.HasSuffix(strings.TrimRight(bar, " "), "; c counts on") && !strings.HasSuffix(strings.TrimRight(bar, " "), "reading nothing twice") {
			t.Errorf("%dx%d: the status bar does not end with what to do:\n%s", size[0], size[1], bar)
		}
		t.Logf("%dx%d: %s", size[0], size[1], bar)
		if cut := regexp.MustCompile(`\pL…\pL|\pL …\pL`).FindString(bar); cut != "" {
			t.Errorf("%dx%d: the status bar cuts a word (%q):\n%s", size[0], size[1], cut, bar)
		}
	}
	// On the demo, at 120 and 200 columns, the figures are whole, and
	// what gives way is the hint, a whole clause at a time (the figures
	// were in the hint, cut out of its middle: "— 2.0 RCU spent…reading
	// nothing twice").
	for _, size := range [][2]int{{120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Table: "Geography", PK: "PLACE", CountBudget: 2})
		h.keys("c")
		lines := strings.Split(h.screen(), "\n")
		bar := lines[len(lines)-1]
		if !regexp.MustCompile(`count: \d+ of 20 counted, stopped at the count budget of 2 RCU; c counts on( — |\s*$)`).MatchString(bar) ||
			regexp.MustCompile(`\S…\S`).MatchString(strings.ReplaceAll(bar, "marked … are", "")) {
			t.Errorf("%dx%d: the count's stop: %s", size[0], size[1], bar)
		}
	}
}

// TestCountUnderABudgetTheLevelFits (issue 37.1): c under a count
// budget a little past the level's full read counts every branch in one
// go, for no more than the full read, less what the walk read: four
// branches of 600 items of 100 bytes, which the walk skips. It spent
// 32.0 RCU where the full read is 31.0, in reads that began each branch
// one item at a time and halved what was left.
func TestCountUnderABudgetTheLevelFits(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for c := range 4 {
		for i := range 600 {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"},
				"SK":   &types.AttributeValueMemberS{Value: fmt.Sprintf("%c#%04d", 'A'+c, i)},
				"Data": &types.AttributeValueMemberS{Value: strings.Repeat("d", 90)}})
		}
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Fits", "S", items); err != nil {
		t.Fatal(err)
	}
	full, _ := fullReadRCU(t, db, "Fits", "PK", "p")
	budget := math.Ceil(full * 1.05)
	b := &billing{Client: db}
	h := newHarness(t, 120, 35, Config{Client: b, Table: "Fits", PK: "p", CountBudget: budget})
	h.contains(t, "A#", "D#")
	walked := b.spent()
	h.keys("c")
	counted := b.spent() - walked
	scr := h.screen()
	for _, said := range h.m.said {
		if strings.Contains(said.whole(), "count budget") {
			t.Errorf("stopped at the count budget of %g (the level's full read %.1f RCU): %s", budget, full, said.whole())
		}
	}
	if strings.Contains(scr, "…") || strings.Contains(scr, "c counts") || !regexp.MustCompile(`A#\s+prefix\s+600\s`).MatchString(scr) {
		t.Errorf("a count left partial under a budget of %g (full read %.1f RCU):\n%s", budget, full, scr)
	}
	if counted > full {
		t.Errorf("the count spent %.1f RCU after the walk's %.1f; the level's full read is %.1f", counted, walked, full)
	}
	t.Logf("full read %.1f RCU; walk %.1f; count under %g: %.1f RCU", full, walked, budget, counted)
}

func TestConfiguredTableSettings(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Tables: map[string]config.TableSettings{"Locations": {Levels: "STATE#CITY#ZIP", CountBudget: 0.5}}})
	for i := 0; i < 7; i++ { // Locations
		h.keys("down")
	}
	h.keys("enter", "enter") // its first partition, USA
	h.contains(t, "STATE", "53 prefixes")
	h.keys("c") // the configured budget holds the count: it stops there
	h.said(t, "stopped at the count budget of 0.5 RCU")
}

// billing sums what every Query is billed (the server's figure, at least
// 0.5 a read), as DynamoDB bills it.
type billing struct {
	dynamo.Client
	mu  sync.Mutex
	rcu float64
}

func (b *billing) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := b.Client.Query(ctx, in, o...)
	units := 0.0
	if out != nil && out.ConsumedCapacity != nil && out.ConsumedCapacity.CapacityUnits != nil {
		units = *out.ConsumedCapacity.CapacityUnits
	}
	if out == nil && errors.Is(err, context.Canceled) {
		// Stopped (esc) before the backend read anything: not billed.
		return out, err
	}
	b.mu.Lock()
	b.rcu += max(units, 0.5)
	b.mu.Unlock()
	return out, err
}

func (b *billing) spent() float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rcu
}

// countsLine is the request line's "counts N req · X RCU" figure.
var countsLine = regexp.MustCompile(`counts (\d+) req · ([\d.]+) RCU`)

// TestCountOnResumesWhereItStopped: c after a count stopped at its budget
// counts on from where it stopped, spending at most another budget and
// reading no key twice (all its runs together cost no more than one read
// of the level); finished counts are exact (no …), the request line's
// count figure climbs with what was billed, and the status bar says what
// was spent, what is partial and how to go on.
func TestCountOnResumesWhereItStopped(t *testing.T) {
	const budget = 100
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			b := &billing{Client: demoData(t)}
			h := newHarness(t, size[0], size[1], Config{Client: b, Table: "Geography", PK: "PLACE", CountBudget: budget})
			walked := b.spent()
			h.keys("c") // counted at once, though the table is larger than the budget
			h.said(t, "stopped at the count budget of 100 RCU")
			h.said(t, "; c counts on")
			h.said(t, "each c reads on with another 100 RCU")
			h.said(t, "marked … are partial")
			runs := 1
			for ; runs < 10 && strings.Contains(h.m.said[len(h.m.said)-1].whole(), "count budget"); runs++ {
				before := b.spent()
				h.keys("c") // no question again: it counts on
				if spent := b.spent() - before; spent > budget+0.5 {
					t.Fatalf("run %d spent %.1f RCU of a %d RCU budget", runs+1, spent, budget)
				}
				m := countsLine.FindStringSubmatch(strings.Join(strings.Fields(h.screen()), " "))
				if m == nil {
					t.Fatalf("no count figure on the request line:\n%s", h.screen())
				}
				if shown, _ := strconv.ParseFloat(m[2], 64); math.Abs(shown-(b.spent()-walked)) > 0.05 {
					t.Fatalf("the request line says counts cost %.1f RCU; %.1f were billed", shown, b.spent()-walked)
				}
			}
			if runs < 2 {
				t.Fatalf("the count never stopped at its budget")
			}
			scr := h.screen()
			if strings.Contains(scr, "…") || strings.Contains(scr, "c counts") {
				t.Fatalf("counted to the end, yet counts are marked partial:\n%s", scr)
			}
			// A stretch's last read is rounded up to a read unit: at most
			// half an RCU for each read beyond a full read's.
			full, fullReqs := fullReadRCU(t, demoData(t), "Geography", "PK", "PLACE")
			m := countsLine.FindStringSubmatch(strings.Join(strings.Fields(h.screen()), " "))
			reqs, _ := strconv.Atoi(m[1])
			if counted := b.spent() - walked; counted > full+0.5*float64(reqs-fullReqs+1) {
				t.Fatalf("%d runs of the count spent %.1f RCU in %d requests; one read of the level is %.1f in %d", runs, counted, reqs, full, fullReqs)
			}
			t.Logf("walk %.1f RCU; %d runs of the count %.1f RCU in %d requests; one read of the level %.1f RCU in %d", walked, runs, b.spent()-walked, reqs, full, fullReqs)
		})
	}
}

// fullReadRCU is what a plain Query of the whole partition is billed,
// and in how many requests.
func fullReadRCU(t *testing.T, c dynamo.Client, table, pkName, pk string) (float64, int) {
	t.Helper()
	var rcu float64
	reqs := 0
	req := dynamo.PageRequest{Query: domain.KeyQuery{Table: table, PKName: pkName, PK: domain.S(pk)}}
	for {
		page, err := dynamo.QueryPage(context.Background(), c, req)
		if err != nil {
			t.Fatal(err)
		}
		rcu += page.Cost.Billed
		reqs++
		if req.Start = page.LastKey; !page.More() {
			return rcu, reqs
		}
	}
}

// TestCountOfTheEmptyChildEnds: in a partition where keys begin with the
// delimiter (#META#…, as published layouts write their metadata item),
// the (empty)# branch is counted like any other and ends exact, never
// left at 0… (the count's end message had named the child ""). Its walk
// read the level whole: every figure is told from the keys held, and c
// has nothing left to count.
func TestCountOfTheEmptyChildEnds(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for _, sk := range []string{"#META#1", "#META#2", "ORDER#1", "ORDER#2", "ORDER#3"} {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "acct"}, "SK": &types.AttributeValueMemberS{Value: sk}})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Meta", "S", items); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Meta", PK: "acct"})
			// The walk's one read holds every key: both branches are
			// counted from them, with no count read, and c has nothing
			// left to count.
			h.contains(t, "(empty)#", "ORDER#")
			h.keys("c")
			h.contains(t, "every prefix here is counted")
			scr := h.screen()
			if !regexp.MustCompile(`\(empty\)#\s+prefix\s+2\s`).MatchString(scr) || !regexp.MustCompile(`ORDER#\s+prefix\s+3\s`).MatchString(scr) {
				t.Fatalf("the counts of (empty)# and ORDER# are not 2 and 3:\n%s", scr)
			}
			if strings.Contains(scr, "…") || strings.Contains(scr, "c counts") {
				t.Fatalf("a count left partial:\n%s", scr)
			}
		})
	}
}

// TestCountingShowsNoZero: while a count runs, a branch with no figure
// yet shows … alone (0… read as none found so far), one with a figure
// shows it marked …, and the title's row count is the rows listed.
func TestCountingShowsNoZero(t *testing.T) {
	zero := regexp.MustCompile(`\s0…`)
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Table: "Geography", PK: "PLACE", CountBudget: 1000})
			h.contains(t, "20 prefixes", "row 1 of 20")
			waiting, snapshots := 0, 0
			h.d.Handled = func(msg tea.Msg) {
				scr := h.screen()
				if zero.MatchString(scr) {
					t.Fatalf("a branch counted so far shows 0…:\n%s", scr)
				}
				if !strings.Contains(scr, "20 prefixes") || !strings.Contains(scr, "of 20") {
					t.Fatalf("the title and the row count disagree while counting:\n%s", scr)
				}
				if regexp.MustCompile(`prefix\s+…\s`).MatchString(scr) {
					waiting++
				}
				snapshots++
			}
			h.keys("c")
			h.d.Handled = nil
			if waiting == 0 {
				t.Fatalf("no branch waiting for its figure showed … in %d frames", snapshots)
			}
			h.contains(t, "1,248")
			if strings.Contains(h.screen(), "…") {
				t.Fatalf("a count left partial:\n%s", h.screen())
			}
		})
	}
}

// TestShardedTreeShowsOnlyKeysThatAct: on a sharded partition (several
// partitions merged) counting, filtering, the time range and the index
// picker read one partition: they are in neither help, and pressed they
// say why and read nothing, where c, f and t used to be offered and do
// nothing.
func TestShardedTreeShowsOnlyKeysThatAct(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Table: "ChatMessages", PK: "seattle-{1..4}", Now: demoClock})
			h.contains(t, "4 shards of seattle-{1..4}")
			line := helpLine(h)
			var listed []string
			for _, g := range h.m.top().FullHelp() {
				for _, b := range g {
					listed = append(listed, b.Help().Key)
				}
			}
			for _, b := range h.m.top().ShortHelp() {
				listed = append(listed, b.Help().Key)
			}
			for _, k := range []string{"c", "f", "t", "i", "tab"} {
				if strings.Contains(line, k+" ") && regexp.MustCompile(`(^|• )`+k+` `).MatchString(line) || slices.Contains(listed, k) {
					t.Errorf("%s shown on a sharded level: %q, %v", k, line, listed)
				}
				if k == "tab" {
					continue // the mode switch says no other mode applies
				}
				reads := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem")
				h.keys(k)
				h.said(t, "open one shard")
				if n := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem") - reads; n != 0 {
					t.Errorf("%s read %d times", k, n)
				}
				h.contains(t, "4 shards of seattle-{1..4}")
			}
			if !strings.Contains(line, "? help") {
				t.Errorf("the help line lost ? help: %q", line)
			}
		})
	}
}

// TestCountShownOnlyWhereItActs: c is in the help only where it counts
// something: not on a level of items alone, nor once every prefix is
// counted; pressed there, it says why and reads nothing.
func TestCountShownOnlyWhereItActs(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			for _, c := range []struct {
				cfg  Config
				keys []string
				why  string
			}{
				{Config{Table: "Blobs", PK: "images"}, nil, "nothing to count: no prefixes here"},
				{Config{Table: "Geography", PK: "PLACE", CountBudget: 1000}, []string{"c"}, "every prefix here is counted"},
			} {
				h := newHarness(t, size[0], size[1], c.cfg)
				h.keys(c.keys...)
				if line := helpLine(h); strings.Contains(line, "c count") {
					t.Errorf("%s: c in the help: %q", c.cfg.Table, line)
				}
				reads := h.rec.count("Query") + h.rec.count("Scan")
				h.keys("c")
				h.contains(t, c.why)
				if n := h.rec.count("Query") + h.rec.count("Scan") - reads; n != 0 {
					t.Errorf("%s: c read %d times", c.cfg.Table, n)
				}
			}
		})
	}
}

// TestTreeTitleAgreesWithRowsWhileFinding: while the walk finds children,
// the title's prefixes and items add up to the rows listed, frame by
// frame, as they do once it ends.
func TestTreeTitleAgreesWithRowsWhileFinding(t *testing.T) {
	title := regexp.MustCompile(`(\d+) (prefix|prefixes|item|items)(?: · (\d+) (?:item|items))? · `)
	rows := regexp.MustCompile(`row \d+ of ≥?(\d+)`)
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			frames, finding := 0, 0
			check := func(scr string) {
				tm, rm := title.FindStringSubmatch(scr), rows.FindStringSubmatch(scr)
				if tm == nil || rm == nil {
					return // before the first child
				}
				a, _ := strconv.Atoi(tm[1])
				b, _ := strconv.Atoi(tm[3])
				if n, _ := strconv.Atoi(rm[1]); a+b != n {
					t.Fatalf("the title counts %d rows, the list %d:\n%s", a+b, n, scr)
				}
				frames++
				if strings.Contains(scr, "finding…") {
					finding++
				}
			}
			h := newHarness(t, size[0], size[1], Config{Table: "Locations"})
			h.d.Handled = func(tea.Msg) { check(h.screen()) }
			h.keys("enter") // USA: 53 prefixes and an item, found a few at a time
			h.d.Handled = nil
			h.contains(t, "53 prefixes · 1 item · all")
			check(h.screen())
			if finding == 0 {
				t.Fatalf("no frame while finding, of %d with rows", frames)
			}
		})
	}
}

// TestTreeItemOpenedWhileFindingLetsTheWalkFinish: enter on an item
// found while the level is still being walked reads the item beside the
// walk, which goes on: back on the level, its children are all found.
// (The GetItem took the walk's request: the walk was cancelled without a
// word, and the level said "finding…" for good, with nothing read.)
func TestTreeItemOpenedWhileFindingLetsTheWalkFinish(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations"})
	var held tea.Cmd
	h.press("enter", func(msg tea.Msg) bool { // USA: hold the walk once its item is listed
		if fmt.Sprintf("%T", msg) == "pages.childrenFoundMsg" && strings.Contains(h.screen(), "· 1 item · finding…") {
			held = func() tea.Msg { return msg } // the walk goes on from it
			return false
		}
		return true
	})
	if held == nil {
		t.Fatalf("the walk never listed the item while finding:\n%s", h.screen())
	}
	l := h.list()
	item := -1
	for i := range l.Rows() {
		if strings.Contains(l.RowText(i), "item") && !strings.Contains(l.RowText(i), "prefix") {
			item = i
		}
	}
	if item < 0 {
		t.Fatalf("no item row:\n%s", h.screen())
	}
	l.SetCursor(item)
	h.keys("enter")
	h.contains(t, "Item") // the item read and opened
	h.keys("esc")
	h.run(held)
	h.contains(t, "USA · 53 prefixes · 1 item · all")
}

// TestCountStoppedByEscCountsOn: esc stops a count where it is, says
// so and how to go on; c then counts on to exact figures, for no more
// than one read of the level.
func TestCountStoppedByEscCountsOn(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			b := &billing{Client: demoData(t)}
			h := newHarness(t, size[0], size[1], Config{Client: b, Table: "Geography", PK: "PLACE", CountBudget: 1000})
			walked := b.spent()
			snapshots := 0
			h.d.Drop = func(msg tea.Msg) bool { // the count's answers after its first stay unread: it is in flight
				if fmt.Sprintf("%T", msg) == "pages.countedMsg" {
					snapshots++
					return snapshots > 1
				}
				return false
			}
			h.keys("c")
			h.d.Drop = nil
			h.keys("esc")
			h.contains(t, "count stopped: c counts on", "Geography › PLACE")
			m := countsLine.FindStringSubmatch(strings.Join(strings.Fields(h.screen()), " "))
			// Reads in flight when esc stopped the count land later: the
			// request line says what had answered, never more.
			if shown, _ := strconv.ParseFloat(m[2], 64); shown == 0 || shown > b.spent()-walked+0.05 {
				t.Fatalf("stopped, the request line says counts cost %.1f RCU; %.1f were billed", shown, b.spent()-walked)
			}
			h.keys("c")
			scr := h.screen()
			if strings.Contains(scr, "…") || strings.Contains(scr, "c counts") {
				t.Fatalf("counts left partial after counting on:\n%s", scr)
			}
			full, fullReqs := fullReadRCU(t, demoData(t), "Geography", "PK", "PLACE")
			m = countsLine.FindStringSubmatch(strings.Join(strings.Fields(scr), " "))
			reqs, _ := strconv.Atoi(m[1])
			if shown, _ := strconv.ParseFloat(m[2], 64); math.Abs(shown-(b.spent()-walked)) > 0.05 {
				t.Fatalf("counted on, the request line says counts cost %.1f RCU; %.1f were billed", shown, b.spent()-walked)
			}
			if counted := b.spent() - walked; counted > full+0.5*float64(reqs-fullReqs+1) {
				t.Fatalf("the count stopped and counted on spent %.1f RCU in %d requests; one read of the level is %.1f in %d", counted, reqs, full, fullReqs)
			}
		})
	}
}

// TestCountOnIndex: a level read through an index counts through it,
// every prefix to an exact figure.
func TestCountOnIndex(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "ChatMessages", PK: "portland", Index: "ByTime", CountBudget: 1000})
	h.contains(t, "index ByTime", "▸ 2018-", "Items (c counts)")
	h.keys("c")
	if scr := h.screen(); strings.Contains(scr, "…") || strings.Contains(scr, "c counts") || strings.Contains(scr, "–") {
		t.Fatalf("an index level left uncounted:\n%s", scr)
	}
	h.contains(t, "counts 1 req")
}

// TestIndexLevelReadWholeCountsItsChildren: a level of an index its walk
// read whole (ELMHAVEN's 54 entries through ByCity, one Query) counts
// its children from what it read, as the base table's does: its entries
// (an index's sort keys need not be unique, so each is told by the
// table's key it carries), as children --index … --count counts them;
// and c reads nothing more. Each child said "–" and c read the level
// again (0.5 RCU). Drilled in, the level below, told from the keys held,
// is counted too, with no request.
func TestIndexLevelReadWholeCountsItsChildren(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "ELMHAVEN", Index: "ByCity"})
	h.contains(t, "index ByCity", "▸ CA", "▸ MO", "▸ VT")
	for name, want := range map[string]string{"CA": "22", "MO": "24", "VT": "8"} {
		if !regexp.MustCompile(`▸ ` + name + `#\s+prefix\s+` + want + `\b`).MatchString(h.screen()) {
			t.Fatalf("%s not counted %s from the walk's read:\n%s", name, want, h.screen())
		}
	}
	queries := h.rec.count("Query")
	h.keys("c")
	h.said(t, "every prefix here is counted")
	if n := h.rec.count("Query") - queries; n != 0 {
		t.Fatalf("c read %d Queries more where the walk read the level whole", n)
	}
	h.keys("enter") // CA#
	if n := h.rec.count("Query") - queries; n != 0 {
		t.Fatalf("CA# read %d Queries, told from the keys held", n)
	}
	if scr := h.screen(); strings.Contains(scr, "–") || strings.Contains(scr, "c counts") {
		t.Fatalf("CA#'s children not counted from the keys held:\n%s", scr)
	}
	// A leaf's rows are keys of the index, which several of the table's
	// items may share: each said "1".
	h.keys("enter") // CA#ELMHAVEN#
	if scr := h.screen(); !regexp.MustCompile(`• \S+\s+item\s+≥1\b`).MatchString(scr) || regexp.MustCompile(`item\s+1\b`).MatchString(scr) ||
		!strings.Contains(scr, "15 item keys") {
		t.Fatalf("an index's item rows claim one item each:\n%s", scr)
	}
}

// TestIndexCountStoppedWithEveryBranchCounted: an index's count reads
// from the level's start (its walk's keys cannot seed it); where its
// budget stops it past the child the walk cut, every branch is counted
// (the rest from the walk's keys), and the status bar says so, not "c
// counts on" for a c that then counts nothing.
func TestIndexCountStoppedWithEveryBranchCounted(t *testing.T) {
	db := memory.New()
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Tags"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"},
			{AttributeName: aws.String("GP"), AttributeType: "S"}, {AttributeName: aws.String("GS"), AttributeType: "S"}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByTag"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("GP"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("GS"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}); err != nil {
		t.Fatal(err)
	}
	// 15 tags, X{c}# with c*7+1 entries, each sort key shared by several.
	for c := range 15 {
		for i := range c*7 + 1 {
			it := dynamo.Item{"PK": s(fmt.Sprintf("p%d", c*1000+i)), "GP": s("g"), "GS": s(fmt.Sprintf("X%02d#%03d", c, i%5))}
			if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tags"), Item: it}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Its size withheld, as dynalite's: the walk's first read is short,
	// and cuts X02.
	h := newHarness(t, 120, 35, Config{Client: uncounted{db}, Table: "Tags", PK: "g", Index: "ByTag", CountBudget: 2})
	h.contains(t, "index ByTag", "▸ X14#")
	h.keys("c")
	scr := h.screen()
	for c := range 15 {
		if !regexp.MustCompile(fmt.Sprintf(`▸ X%02d#\s+prefix\s+%d\b`, c, c*7+1)).MatchString(scr) {
			t.Fatalf("X%02d# not counted %d:\n%s", c, c*7+1, scr)
		}
	}
	if len(h.m.said) > 0 && strings.Contains(h.m.said[len(h.m.said)-1].whole(), "c counts on") {
		t.Fatalf("every branch counted, yet: %v", h.m.said[len(h.m.said)-1].whole())
	}
	queries := h.rec.count("Query")
	h.keys("c")
	h.said(t, "every prefix here is counted")
	if n := h.rec.count("Query") - queries; n != 0 {
		t.Fatalf("c read %d Queries more with every prefix counted", n)
	}
}

// TestCountSaysWhyItReadsNothing: every c either reads on or says why it
// cannot. Under a count budget below the level's heaviest items (40 KB,
// 5 RCU) beside small ones, c reads nothing: the status bar says the
// budget pays for none of them, not "c counts on" for a c that never will.
func TestCountSaysWhyItReadsNothing(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for c := range 20 {
		v := strings.Repeat("q", 100)
		if c%4 == 0 {
			v = strings.Repeat("z", 40000)
		}
		for i := range 10 {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "mixed"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("M%02d#%02d", c, i)}, "v": &types.AttributeValueMemberS{Value: v}})
		}
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Heavy", "S", items); err != nil {
		t.Fatal(err)
	}
	for _, budget := range []float64{2, 5} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			h := newHarness(t, 120, 35, Config{Client: uncounted{db}, Table: "Heavy", PK: "mixed", CountBudget: budget})
			h.contains(t, "mixed · 20 prefixes")
			for press := range 5 {
				queries := h.rec.count("Query")
				h.keys("c")
				if h.rec.count("Query") > queries {
					continue
				}
				said := ""
				if n := len(h.m.said); n > 0 {
					said = h.m.said[n-1].whole()
				}
				if !strings.Contains(said, "pays for none of the items left") {
					t.Fatalf("c number %d read nothing and said %q", press+1, said)
				}
			}
		})
	}
}

// ttlDB is a table with Time to Live on "expiresAt" whose items hold
// every kind of TTL value, and one item past 300 KB.
func ttlDB(t *testing.T) *memory.DB {
	t.Helper()
	db := memory.New()
	ctx := context.Background()
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Sessions"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("Sessions"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expiresAt"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v int64) types.AttributeValue {
		return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
	}
	now := demoClock()
	for _, it := range []dynamo.Item{
		{"PK": s("u"), "SK": s("a-live"), "expiresAt": n(now.Add(3*time.Hour + 20*time.Minute).Unix())},
		{"PK": s("u"), "SK": s("b-expired"), "expiresAt": n(now.Add(-50 * time.Hour).Unix())},
		{"PK": s("u"), "SK": s("c-millis"), "expiresAt": n(now.Add(time.Hour).UnixMilli())},
		{"PK": s("u"), "SK": s("d-string"), "expiresAt": s("1700000000")},
		{"PK": s("u"), "SK": s("e-big"), "blob": s(strings.Repeat("x", 310*1024))},
	} {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Sessions"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestItemShowsTTLAndSize: the item view says what the table's TTL
// attribute means for this item at the demo's clock, and the item's
// billed size, warning past 300 KB; DescribeTimeToLive is read once for
// the table, however many items are opened.
func TestItemShowsTTLAndSize(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Sessions", PK: "u", Client: ttlDB(t), Now: demoClock})
	h.keys("2", "enter")
	h.contains(t, "TTL expiresAt: expires in 3h 20m", "size ")
	for _, want := range []string{
		"TTL expiresAt: expired 2d 2h ago, not yet deleted",
		"TTL expiresAt: never: milliseconds",
		"TTL expiresAt: never: a String",
		"no TTL attribute",
	} {
		h.keys("esc", "down", "enter")
		h.contains(t, want)
	}
	h.contains(t, "size 310.0 KB of the 400 KB limit: 78%")
	if n := h.rec.count("DescribeTimeToLive"); n != 1 {
		t.Errorf("DescribeTimeToLive read %d times for one table, want once", n)
	}
}

// TestItemFactsWithoutTTLOrValues: on dynalite, which has no Time to
// Live, the item view says the table has none (the same item on the
// embedded backend without TTL says the same); under --mask it says
// neither a size nor a TTL it cannot know from stand-ins.
func TestItemFactsWithoutTTLOrValues(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	items := []dynamo.Item{{"PK": s("u"), "SK": s("a"), "expiresAt": &types.AttributeValueMemberN{Value: "1700000000"}}}
	dl := dynalitetest.Start(t).Client()
	mem := memory.New()
	for _, w := range []dynamo.Writer{dl, mem} {
		if err := demo.CreateKeyTable(context.Background(), w, "Plain", "S", items); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range map[string]dynamo.Client{"dynalite": dl, "memory": mem} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, 120, 35, Config{Client: c, Table: "Plain", PK: "u", Now: demoClock})
			h.keys("2", "enter")
			h.contains(t, "size 17 B · no TTL on Plain")
		})
	}
	h := newHarness(t, 120, 35, Config{Client: ttlDB(t), Table: "Sessions", PK: "u", Now: demoClock, Mask: []string{"expiresAt"}})
	h.keys("2", "enter")
	h.contains(t, "size not shown: values are masked · TTL expiresAt: masked, not read")
}

// TestCountPastItsBudgetSaysSo: c whose reads, sized by 600-byte items,
// meet a 21 KB one finishes past its budget (DynamoDB bills whole items);
// the request line says by how much, where it showed the cost alone, as
// if the budget had held.
func TestCountPastItsBudgetSaysSo(t *testing.T) {
	db := heavyChildren(t)
	past := 0
	for _, budget := range []float64{5, 10, 20, 30, 40, 60} {
		h, spent := countHeavy(t, db, 200, 50, budget)
		said := strings.Contains(h.screen(), "past its budget")
		if said != (spent > budget+0.5) {
			t.Errorf("budget %g: c spent %.1f RCU, the screen says past it: %v\n%s", budget, spent, said, h.screen())
		}
		if said {
			past++
			want := fmt.Sprintf("the last c %.1f RCU past its budget", spent-budget)
			if !strings.Contains(h.screen(), want) {
				t.Errorf("budget %g: c spent %.1f RCU; no %q:\n%s", budget, spent, want, h.screen())
			}
		}
		// A stop says where it stopped: at the budget, past it, or short
		// of it (what was left paid for no item as heavy as the heaviest
		// read: 47.0 of 60 said "stopped at the count budget").
		if scr := h.screen(); strings.Contains(scr, "c counts on") {
			at := "stopped at the count budget"
			switch {
			case spent > budget+0.5:
				at = fmt.Sprintf("stopped %.1f RCU past the count budget", spent-budget)
			case spent <= budget-1:
				at = fmt.Sprintf("stopped %.1f RCU short of the count budget", budget-spent)
			}
			if !strings.Contains(scr, at) {
				t.Errorf("budget %g: c spent %.1f RCU and stopped; no %q:\n%s", budget, spent, at, scr)
			}
		}
		t.Logf("budget %g: c %.1f RCU", budget, spent)
		if testing.Verbose() {
			scr := strings.Split(h.screen(), "\n")
			t.Log(strings.Join(scr[len(scr)-3:], "\n"))
		}
	}
	if past == 0 {
		t.Error("no c went past its budget: the case no longer tests the line")
	}
}

// heavyChildren is a partition of four children of 100 items of 600 B,
// one 200 KB item among the third's: a count meets it past its budget.
func heavyChildren(t *testing.T) *memory.DB {
	t.Helper()
	db := memory.New()
	var items []dynamo.Item
	for c := range 4 {
		for i := range 100 {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"},
				"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("c%d#%03d", c, i)},
				"d":  &types.AttributeValueMemberS{Value: strings.Repeat("x", 600)}})
		}
	}
	items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"},
		"SK": &types.AttributeValueMemberS{Value: "c2#050x"}, "d": &types.AttributeValueMemberS{Value: strings.Repeat("y", 200000)}})
	if err := demo.CreateKeyTable(context.Background(), db, "Heavy", "S", items); err != nil {
		t.Fatal(err)
	}
	return db
}

// countHeavy opens heavyChildren's partition at w×h under a count
// budget and presses c: the explorer, and what c spent (billed).
func countHeavy(t *testing.T, db *memory.DB, w, h int, budget float64) (*harness, float64) {
	t.Helper()
	b := &billing{Client: db}
	hs := newHarness(t, w, h, Config{Client: b, Table: "Heavy", PK: "p", CountBudget: budget})
	hs.contains(t, "c0#", "c3#")
	walked := b.spent()
	hs.keys("c")
	hs.contains(t, "counts ")
	return hs, b.spent() - walked
}

// TestCountStopKeepsItsFiguresAtEveryWidth: a count stopped past (or
// short of) its budget says, in the status bar at 80, 120 and 200
// columns, how many it counted, by how much it went past or fell short,
// and the budget: words give way, not figures. At 80 columns the line
// had read "count: 2 of 4 counted, stopped 24.0 RCU past…; c counts on",
// the budget it went past gone.
func TestCountStopKeepsItsFiguresAtEveryWidth(t *testing.T) {
	db := heavyChildren(t)
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		for _, budget := range []float64{20, 60} {
			h, spent := countHeavy(t, db, size[0], size[1], budget)
			lines := strings.Split(h.screen(), "\n")
			bar := lines[len(lines)-1]
			figures := []string{fmt.Sprintf("%g RCU", budget), "c counts on"}
			switch {
			case spent > budget+0.5:
				figures = append(figures, fmt.Sprintf("%.1f RCU past", spent-budget))
			case spent <= budget-1:
				figures = append(figures, fmt.Sprintf("%.1f RCU", budget-spent))
			default:
				t.Fatalf("%dx%d budget %g: c spent %.1f, neither past nor short: the case no longer tests the line", size[0], size[1], budget, spent)
			}
			if !regexp.MustCompile(`count: \d+ of 4`).MatchString(bar) {
				figures = append(figures, "N of 4")
			}
			for _, f := range figures {
				if !strings.Contains(bar, f) {
					t.Errorf("%dx%d budget %g (c spent %.1f): no %q in the status bar:\n%s", size[0], size[1], budget, spent, f, bar)
				}
			}
		}
	}
}

// TestPrefixOfADoubledDelimiter: --prefix 'Mod::' opens the level cut at
// '::', as children --prefix 'Mod::' lists it and as the tree listed it
// from the level above; the explorer cut it at ':' (TemplateDelimiter),
// each child named with half the delimiter.
func TestPrefixOfADoubledDelimiter(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for _, k := range []string{"Mod::alpha::1", "Mod::alpha::2", "Mod::beta::1", "Mod::gamma"} {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: k}})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Colons", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Colons", PK: "p", Prefix: "Mod::"})
	h.contains(t, "alpha::", "beta::", "gamma")
	// Its breadcrumb is the one level above (Mod), not Mod, then an
	// empty level between the colons.
	if scr := h.screen(); !strings.Contains(scr, "2 prefixes · 1 item") || !strings.Contains(scr, "delimiter ::") || strings.Contains(scr, "(empty)") {
		t.Errorf("Mod:: is not cut at '::':\n%s", scr)
	}
}

// TestDelimiterPickerOffersTheLevelsOwn: on a level cut at a delimiter
// outside the ones dynascope knows (::, detected), D offers it, marked
// as the one in use, and picking it keeps the level as it is; it offered
// only # | / : . - _, so a pick cut the level elsewhere.
func TestDelimiterPickerOffersTheLevelsOwn(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for _, k := range []string{"Mod::alpha::1", "Mod::alpha::2", "Mod::beta::1", "Top::x::1", "Top::y::2"} {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: k}})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Colons", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Colons", PK: "p"})
	h.contains(t, "Mod::", "Top::", "delimiter ::")
	h.keys("D")
	h.contains(t, "Split the sort keys at")
	row := -1
	for i, l := range strings.Split(h.screen(), "\n") {
		if f := strings.Fields(strings.Trim(l, "│ ●▸")); len(f) > 0 && f[0] == "::" {
			row = i
		}
	}
	if row < 0 {
		t.Fatalf("the picker does not offer the level's ::\n%s", h.screen())
	}
	// The row before "no delimiter", the last: down to it, up one, enter.
	h.keys("G", "up", "enter")
	h.contains(t, "Mod::", "Top::", "delimiter ::")
}
