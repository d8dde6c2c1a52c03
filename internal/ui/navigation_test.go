package ui

import (
	"context"
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// TestGReadsTheEndInOneRead: G on a partition not read to its end sends
// one reverse Query of a screen and shows the last rows under a gap row;
// scrolling up from the end reads backwards until the two reads meet, and
// the list is then whole: every item once, in order.
func TestGReadsTheEndInOneRead(t *testing.T) {
	db := memory.New()
	seedWide(t, db, 2000, 100)
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Wide", PK: "W"})
	h.keys("tab")
	h.contains(t, "items loaded · more as you scroll", "w#00000")
	before := h.rec.count("Query")
	h.keys("G")
	if n := h.rec.count("Query") - before; n != 1 {
		t.Fatalf("G sent %d Query requests, want 1", n)
	}
	h.contains(t, "w#01999", "the middle not read yet")
	scrollBackThroughGap(t, h, "2,000 items loaded · all")
	// Walk the whole list down from the top: every key once, in order.
	h.keys("g")
	seen := 0
	for range 400 {
		for _, line := range strings.Split(h.screen(), "\n") {
			if i := strings.Index(line, "w#"); i >= 0 {
				var n int
				if _, err := fmt.Sscanf(line[i:], "w#%05d", &n); err == nil && n == seen {
					seen++
				}
			}
		}
		if seen == 2000 {
			break
		}
		h.keys("pgdown")
	}
	if seen != 2000 {
		t.Fatalf("walking down the joined list found keys in order up to w#%05d", seen)
	}
}

const gapText = "⋯ not read yet"

// scrollBackThroughGap presses pgup from the end until the reads from
// both ends meet (the title says want, "N items loaded · all"), and
// checks that the gap row went with it.
func scrollBackThroughGap(t *testing.T, h *harness, want string) {
	t.Helper()
	for range 300 {
		if strings.Contains(h.screen(), want) {
			break
		}
		h.keys("pgup")
	}
	h.contains(t, want)
	if strings.Contains(h.screen(), gapText) {
		t.Fatal("the gap row stayed after the reads met")
	}
}

// TestDeepLinkReusesThePreflight: a table described by the command line's
// preflight is not described again.
func TestDeepLinkReusesThePreflight(t *testing.T) {
	db := demoData(t)
	info, _, err := dynamo.DescribeTable(context.Background(), db, "Locations")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 100, 30, Config{Client: db, Table: "Locations", Info: &info})
	h.contains(t, "USA")
	if n := h.rec.count("DescribeTable"); n != 0 {
		t.Fatalf("the explorer described the table again (%d DescribeTable)", n)
	}
}

// TestRefBackReturnsWithoutReading: < goes back one move, to the view the
// user left (a mode switch is a move), and shows it as it was: nothing
// between is read again, nor the view itself (25.20).
func TestRefBackReturnsWithoutReading(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations"})
	h.keys("enter")
	h.keys("2", "down", "down")
	items := h.screen()
	h.keys("esc")
	reads := h.rec.count("Query") + h.rec.count("Scan")
	h.keys("<")
	if got := h.screen(); got != items {
		t.Errorf("< after esc did not come back to the items as left:\n%s\nwant\n%s", got, items)
	}
	if n := h.rec.count("Query") + h.rec.count("Scan") - reads; n != 0 {
		t.Errorf("< read %d pages again", n)
	}
	h.keys("1") // back to the tree by a mode key
	reads = h.rec.count("Query") + h.rec.count("Scan")
	h.keys("<")
	if got := h.screen(); !strings.Contains(got, "items loaded") || got != items {
		t.Errorf("< after a mode switch did not come back to the items:\n%s\nwant\n%s", got, items)
	}
	if n := h.rec.count("Query") + h.rec.count("Scan") - reads; n != 0 {
		t.Errorf("< read %d pages again", n)
	}
}

// TestRefBackHistoryLetsGo: the views < can bring back keep what they
// read, and only those: after many moves the explorer holds no more
// pages than its history can reach.
func TestRefBackHistoryLetsGo(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations"})
	h.keys("enter", "2")
	for range maxHistory + 50 {
		h.keys("enter", "esc")
	}
	if n := len(h.m.started); n > maxHistory+10 {
		t.Fatalf("%d pages held after %d moves; the history reaches at most %d", n, 2*(maxHistory+50), maxHistory+10)
	}
}

// TestFollowReferenceToIndex: > on a store follows its City to the ByCity
// index's partition (the one value that names a partition); < comes back
// to the item, ctrl+i goes forward again.
func TestFollowReferenceToIndex(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"})
	h.keys("tab", "enter")
	h.contains(t, `"City": "NEWYORKCITY"`)
	h.keys(">")
	h.contains(t, "Locations › index ByCity › NEWYORKCITY")
	h.keys("<")
	h.contains(t, `"City": "NEWYORKCITY"`)
	h.send(tea.KeyPressMsg{Code: 'i', Mod: tea.ModCtrl})
	h.contains(t, "index ByCity")
	h.send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	h.contains(t, "attributes · plain JSON")
	h.keys("<") // the list the item was opened from
	h.contains(t, "NY#NEWYORKCITY#")
	if strings.Contains(h.screen(), "attributes · plain JSON") {
		t.Fatal("< did not leave the item for the list it was opened from")
	}
	h.keys("<", "<", "<", "<") // past where the session began
	h.contains(t, "no view to go back to")
}

// TestHistoryOfViews: ctrl+o and ctrl+i step back and forward through
// every view shown (opened or climbed out of), not only references.
func TestHistoryOfViews(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA"})
	h.keys("enter") // into the first state
	h.contains(t, "AK# · 3 prefixes")
	h.keys("esc")
	h.send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	h.contains(t, "AK# · 3 prefixes")
	h.send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	if strings.Contains(h.screen(), "AK# · 3 prefixes") {
		t.Fatal("ctrl+o did not go back to the partition's top level")
	}
	h.send(tea.KeyPressMsg{Code: 'i', Mod: tea.ModCtrl})
	h.contains(t, "AK# · 3 prefixes")
}

// TestFollowReferenceNoneSaysWhere: an item naming no partition says
// where it looked.
func TestFollowReferenceNoneSaysWhere(t *testing.T) {
	h := newHarness(t, 200, 35, Config{Table: "Equipment", PK: "Equipment_2"})
	h.keys("tab", "enter", ">")
	h.contains(t, "no partition is named by this item's values", "looked in Model = \"X-197\" → Equipment")
	h = newHarness(t, 200, 35, Config{Table: "DeviceLogs", PK: "123"})
	h.keys("enter", ">")
	h.contains(t, "looked in Temperature = 26.5 → DeviceLogs") // numbers name number keys
}

// TestFollowReferencePicker: an item naming two partitions (an index's
// GSI1-PK and another attribute naming a table partition) offers both.
func TestFollowReferencePicker(t *testing.T) {
	h := newHarness(t, 120, 30, Config{Client: shopDB(t), Table: "Shop", PK: "o#1"})
	h.keys("tab", ">")
	h.contains(t, "Follow which reference?", "GSI1-PK = \"c#12345\" → index GSI1", "Customer = \"c#12345\" → Shop")
	h.keys("down", "enter")
	h.contains(t, "Shop › c#12345")
	if strings.Contains(h.screen(), "index GSI1") {
		t.Fatal("the second choice opened the index")
	}
	h.keys("<")
	h.contains(t, "o#1")
}

// shopDB holds an order (o#1) whose item names a customer twice: through
// the index GSI1's partition key and a plain attribute.
func shopDB(t *testing.T) *memory.DB {
	db := memory.New()
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Shop"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"},
			{AttributeName: aws.String("SK"), AttributeType: "S"}, {AttributeName: aws.String("GSI1-PK"), AttributeType: "S"}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("GSI1"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("GSI1-PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}); err != nil {
		t.Fatal(err)
	}
	for _, it := range []dynamo.Item{
		{"PK": s("o#1"), "SK": s("order"), "GSI1-PK": s("c#12345"), "Customer": s("c#12345")},
		{"PK": s("c#12345"), "SK": s("profile"), "Name": s("Ada")},
	} {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Shop"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// collectionDB holds an employee's assignments as ElectroDB writes a
// clustered collection: $assignments#employee_1 (the employee) before
// $assignments#status_<s>#due_<iso, lower case>#task_<id>#task_1.
func collectionDB(t *testing.T) *memory.DB {
	db := memory.New()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	items := []dynamo.Item{{"PK": s("$taskapp#employee_emp0"), "SK": s("$assignments#employee_1"), "__edb_e__": s("employee")}}
	start := time.Date(2020, 9, 1, 0, 0, 0, 0, time.UTC)
	for i := range 15 {
		due := strings.ToLower(start.Add(time.Duration(i) * 93 * time.Hour).Format("2006-01-02T15:04:05.000Z"))
		items = append(items, dynamo.Item{"PK": s("$taskapp#employee_emp0"), "__edb_e__": s("task"),
			"SK": s(fmt.Sprintf("$assignments#status_open#due_%s#task_tsk%03d#task_1", due, 3*i))})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Assignments", types.ScalarAttributeTypeS, items); err != nil {
		t.Fatal(err)
	}
	return db
}

// opensIn checks what ? says under the command of the view h shows
// about where it opens ("": nothing, it opens this view).
func opensIn(t *testing.T, h *harness, want string) {
	t.Helper()
	h.keys("?")
	screen := h.screen()
	h.keys("?")
	said := strings.Contains(screen, "it opens in")
	if want == "" && said || want != "" && !strings.Contains(screen, want) {
		t.Errorf("? under the command: want %q\n%s", want, screen)
	}
}

// TestTimeWithNoRangeSaysWhereItsCommandOpens: Time with no range has no
// flag of its own (--range takes one), so ? says under its command that
// it opens the partition's first mode, and 4 from there; it printed the
// command as "this view", which opens Items (ascending) on DeviceLogs
// and the Tree on ChatMessages. With a range the command opens Time.
func TestTimeWithNoRangeSaysWhereItsCommandOpens(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		keys []string
		want string
	}{
		{Config{Table: "DeviceLogs", PK: "123", Now: demoClock}, []string{"4", "esc"}, "it opens in Items mode; 4 lists it by time"},
		{Config{Table: "ChatMessages", PK: "seattle-1", Now: demoClock}, []string{"4", "esc"}, "it opens in Tree mode; 4 lists it by time"},
		{Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200", Now: demoClock}, nil, ""},
	} {
		h := newHarness(t, 160, 40, tc.cfg)
		h.keys(tc.keys...) // esc closes the range bar Time opens on
		if _, ok := h.m.top().(*pages.Time); !ok {
			t.Fatalf("not in Time:\n%s", h.screen())
		}
		opensIn(t, h, tc.want)
	}
}

// TestReopenCommands walks to every kind of view that prints a command at
// ? (the tree at its top and under a prefix, items, filtered items, an
// index, Versions mode, a timeline, a table's own version spelling, a time
// range, one of a prefix of composite keys, a sharded partition, a table's and an index's search, a
// statement's results; a partitions list's headless command beside its
// own) and keeps those commands in a golden file.
// The command line's TestReopenCommandsRun runs each one and checks that
// it opens a view whose ? prints the same command.
func TestReopenCommands(t *testing.T) {
	var lines []string
	note := func(h *harness) {
		t.Helper()
		line := h.m.commandLine()
		if line == "" {
			t.Fatalf("no command for this view:\n%s", h.screen())
		}
		lines = append(lines, line)
	}
	h := newHarness(t, 160, 40, Config{Table: "Locations", PK: "USA"})
	note(h) // the tree at the partition's top
	h.keys("/")
	h.typeText("NY#") // the prefix, not the item NY beside it
	h.keys("enter", "enter")
	note(h) // a level under a prefix
	opensIn(t, h, "")
	h.keys("tab")
	note(h) // its items
	// No flag opens Items on a string sort key: ? says the command opens
	// the Tree, and the key from there (it printed the Tree's command as
	// this view's).
	opensIn(t, h, "it opens in Tree mode; 2 lists these items")
	h.keys("3")
	note(h) // Versions mode

	h = newHarness(t, 160, 40, Config{Table: "DeviceLogs", PK: "9000", Filter: mustFilter(t, `Level = "ERROR"`)})
	note(h) // filtered items
	opensIn(t, h, "")

	h = newHarness(t, 160, 40, Config{Table: "Locations", PK: "BAYVIEW", Index: "ByCity"})
	note(h) // an index

	// A partitions list prints, under the command that reopens it, the
	// headless one that lists the same partitions (TestClaims runs it).
	headless := func(h *harness) {
		t.Helper()
		line := h.m.headlessLine()
		if line == "" {
			t.Fatalf("no headless command for this view:\n%s", h.screen())
		}
		lines = append(lines, line)
	}
	h = newHarness(t, 160, 40, Config{Table: "Locations", Index: "ByCity"})
	note(h) // an index's partitions
	headless(h)
	h.keys("esc")
	note(h) // the table's
	headless(h)

	h = newHarness(t, 160, 40, Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: demo.DriftedItem})
	note(h) // a timeline, its name with a # in it

	tables := map[string]config.TableSettings{demo.PolicyTable: {VersionPattern: demo.PolicyPattern}}
	h = newHarness(t, 160, 40, Config{Table: demo.PolicyTable, PK: demo.PolicyDrifted, Tables: tables})
	openVersionsMode(t, h)
	h.keys("enter")
	note(h) // a table's own spelling, without the configuration

	h = newHarness(t, 160, 40, Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200", Now: demoClock})
	note(h) // a time range

	h = newHarness(t, 160, 40, Config{Table: "ChatMessages", PK: "seattle-1", Range: "amsg# 2018-08", Now: demoClock})
	note(h) // a time range of one prefix of composite keys, as the bar takes it

	h = newHarness(t, 160, 40, Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200", Now: demoClock,
		Tables: map[string]config.TableSettings{"DeviceLogs": {TimeFormat: "epoch-s"}}})
	note(h) // a time range read by the configuration's time format

	h = newHarness(t, 160, 40, Config{Table: "ChatMessages", PK: "seattle-{1..4}"})
	note(h) // a sharded partition

	// Opened under budgets of its own: the command keeps them (it
	// dropped --count-budget, so its c counted up to 1,000 RCU).
	budget50 := func(string) float64 { return 50 }
	h = newHarness(t, 160, 40, Config{Table: "Locations", PK: "USA", CountBudget: 2, FilterBudget: budget50})
	note(h) // the tree under --count-budget 2 --max-rcu 50
	h = newHarness(t, 160, 40, Config{Table: "Locations", CountBudget: 2, FilterBudget: func(string) float64 { return 0 }})
	note(h) // the partitions, under --max-rcu none

	// A table search (f on the partitions list) and a statement print the
	// headless command that reads the same: scan through the filter (by
	// Query where it pins the partition key, as f reads it), partiql with
	// the statement.
	for _, c := range []struct{ keys, text string }{
		{"f", `City = "CEDARVILLE" and DriveThru = true`},
		{"f", `PK = "USA" and City = "OMAHA"`},
		{":", `PK = 'USA' AND begins_with(SK, 'NE#OMAHA')`},
	} {
		h = newHarness(t, 160, 40, Config{Table: "Locations"})
		h.keys(c.keys)
		h.typeText(c.text)
		h.keys("enter")
		note(h)
	}
	h = newHarness(t, 160, 40, Config{Table: "Locations", Index: "ByCity"})
	h.keys("f")
	h.typeText(`begins_with(City, "CEDAR")`)
	h.keys("enter")
	note(h) // an index's search

	golden.RequireEqual(t, []byte(strings.Join(lines, "\n")+"\n"))
}

func mustFilter(t *testing.T, s string) domain.FilterNode {
	t.Helper()
	n, err := domain.ParseFilter(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestNewPagesTakeAnyKey: the bound keys, and some that are not, on the
// tour, a masked partition (with > and < among them) and a sorted Time
// list, at 80×24: no panic, and the frame still fits. (F waits for polls,
// which a synchronous driver cannot; TestFollowInTimeMode drives it.)
func TestNewPagesTakeAnyKey(t *testing.T) {
	var presses []tea.KeyPressMsg
	for _, b := range []string{"up", "down", "enter", "left", "right", "backspace", "tab", "pgdown", "space"} {
		presses = append(presses, keyPress(b))
	}
	for _, r := range "jkgGsStTxyYdecfoCiDV34?<>[]m0zr/1d9" {
		presses = append(presses, keyPress(string(r)))
	}
	presses = append(presses, tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}, tea.KeyPressMsg{Code: 'i', Mod: tea.ModCtrl})
	for _, cfg := range []Config{
		{Tour: true},
		{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#", Mask: maskLocations},
		{Table: "DeviceLogs", PK: "123", Range: "last 24h"},
	} {
		cfg.Now = demoClock
		h := newHarness(t, 80, 24, cfg)
		for _, p := range presses {
			h.send(p)
			if lines := len(splitLines(h.screen())); lines != 24 {
				t.Fatalf("after %q the screen is %d lines", p.String(), lines)
			}
		}
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if r == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// randomKeys are every bound key (but F; E and = open the entities and the
// comparison), the editing keys of the text boxes
// (alt+d crashed bubbles' input) and some text.
var randomKeys = func() []tea.KeyPressMsg {
	var ks []tea.KeyPressMsg
	for _, code := range []rune{tea.KeyUp, tea.KeyDown, tea.KeyLeft, tea.KeyRight, tea.KeyPgUp, tea.KeyPgDown, tea.KeyHome, tea.KeyEnd,
		tea.KeyEnter, tea.KeyEscape, tea.KeyTab, tea.KeyBackspace, tea.KeyDelete} {
		ks = append(ks, tea.KeyPressMsg{Code: code})
	}
	ks = append(ks, tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, tea.KeyPressMsg{Code: tea.KeySpace, Text: " "},
		tea.KeyPressMsg{Code: 'd', Mod: tea.ModAlt}, tea.KeyPressMsg{Code: tea.KeyDelete, Mod: tea.ModAlt},
		tea.KeyPressMsg{Code: 'b', Mod: tea.ModAlt}, tea.KeyPressMsg{Code: 'f', Mod: tea.ModAlt},
		tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}, tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}, tea.KeyPressMsg{Code: 'k', Mod: tea.ModCtrl})
	// Not F: following polls on a timer, which this synchronous harness
	// would wait on for ever (TestFollowInTimeMode covers it).
	for _, r := range "jkgGlh12345V/nNfto[]m0cCsSiDp><yYerzdaxKJE=#\"é世-:" {
		ks = append(ks, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return ks
}()

// TestRandomKeysEveryPage presses a few thousand seeded random keys on
// every page at the three common sizes: no panic, and every frame fits
// the terminal. A failure names the seed and the keys that led to it.
func TestRandomKeysEveryPage(t *testing.T) {
	starts := []struct {
		name string
		cfg  Config
	}{
		{"tables", Config{}},
		{"partitions", Config{Table: "Locations"}},
		{"tree", Config{Table: "Locations", PK: "USA"}},
		{"items", Config{Table: "DeviceLogs", PK: "123"}},
		{"versions", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}},
		{"timeline", Config{Table: "Equipment", PK: demo.LongHistoryPiece, Versions: "Audit#PART-7"}},
		{"time", Config{Table: "DeviceLogs", PK: "123", Range: "last 7d"}},
		{"changes", Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: demoData(t)}},
		// 5 opens the table's changes; enter, 2, enter an item with its own.
		{"table changes", Config{Table: demo.ShopTable, Streams: demoData(t)}},
		// A list whose every read fails: keys on a list with no row (/, enter, c, r).
		{"failed tree", Config{Client: &failing{Client: demoData(t), op: "Query", err: throttled}, Table: "Locations", PK: "USA"}},
		{"failed partitions", Config{Client: &failing{Client: demoData(t), op: "Scan", err: throttled}, Table: "Locations"}},
	}
	sizes := [][2]int{{80, 24}, {120, 35}, {200, 50}}
	keysPerRun := 800
	if testing.Short() {
		keysPerRun = 150
	}
	for i, s := range starts {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel() // each page its own model; the demo is only read
			seed := int64(1700 + i)
			r := rand.New(rand.NewSource(seed))
			for _, sz := range sizes {
				cfg := s.cfg
				cfg.Now = demoClock
				h := newHarness(t, sz[0], sz[1], cfg)
				var pressed []string
				for n := 0; n < keysPerRun; n++ {
					k := randomKeys[r.Intn(len(randomKeys))]
					pressed = append(pressed, k.String())
					func() {
						defer func() {
							if e := recover(); e != nil {
								t.Fatalf("seed %d at %dx%d: panic %v after keys %q", seed, sz[0], sz[1], e, pressed[max(0, len(pressed)-30):])
							}
						}()
						h.send(k)
						checkScreen(t, h, sz[0], fmt.Sprintf("seed %d at %dx%d after %q", seed, sz[0], sz[1], pressed[max(0, len(pressed)-30):]))
						if got := len(splitLines(h.m.render())); got != sz[1] && !h.m.tooSmall() {
							t.Fatalf("seed %d at %dx%d: %d lines after %q", seed, sz[0], sz[1], got, pressed[max(0, len(pressed)-30):])
						}
					}()
				}
			}
		})
	}
}

// textInputs are every text box of the explorer and the keys that open
// it from a view.
var textInputs = []struct {
	name string
	cfg  Config
	open []string
}{
	{"search", Config{Table: "Locations", PK: "USA"}, []string{"/"}},
	{"search-items", Config{Table: "DeviceLogs", PK: "123"}, []string{"/"}},
	{"go-to", Config{Table: "Locations"}, []string{"/"}},
	{"filter", Config{Table: "DeviceLogs", PK: "123"}, []string{"f"}},
	{"table-filter", Config{Table: "Locations"}, []string{"f"}},
	{"statement", Config{Table: "Locations"}, []string{":"}},
	{"range", Config{Table: "DeviceLogs", PK: "123", Range: "last 7d"}, []string{"t", "ctrl+u"}},
	{"time-filter", Config{Table: "DeviceLogs", PK: "123", Range: "last 7d"}, []string{"f"}},
	{"export", Config{Table: "DeviceLogs", PK: "123"}, []string{"e"}},
}

// typedRunes are the characters typed into the boxes: every key bound to
// an action, and some text.
const typedRunes = "jkgGlhLH1234V/nNfto[]m0cCsSiDp><yYerzdaxKJqQ?TXFe#\"'é世-_ :=.{}"

// TestRandomTextEveryInput types seeded random text into every text box
// at the three sizes: every key typed is text, none acts as a command
// (j and k moved the search's cursor: /shopk searched for "shop").
func TestRandomTextEveryInput(t *testing.T) {
	runes := []rune(typedRunes)
	for i, in := range textInputs {
		t.Run(in.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(int64(2500 + i)))
			for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
				cfg := in.cfg
				cfg.Now = demoClock
				h := newHarness(t, sz[0], sz[1], cfg)
				h.keys(in.open...)
				var typed []rune
				for range 12 + r.Intn(12) {
					typed = append(typed, runes[r.Intn(len(runes))])
				}
				for _, c := range typed {
					h.send(tea.KeyPressMsg{Code: c, Text: string(c)})
				}
				if got, ok := h.m.typedText(); !ok || !strings.HasSuffix(got, string(typed)) {
					t.Fatalf("at %dx%d typed %q, the box holds %q (open: %v)\n%s", sz[0], sz[1], string(typed), got, ok, h.screen())
				}
			}
		})
	}
}

// quits reports whether a key press asks the program to quit.
func (h *harness) quits(name string) bool {
	quit := false
	h.press(name, func(msg tea.Msg) bool {
		_, quit = msg.(tea.QuitMsg)
		return !quit
	})
	return quit
}

// TestQClosesOverlays: q over a picker, a prompt or the help closes it as
// esc does, and never quits; q on the page beneath still quits.
func TestQClosesOverlays(t *testing.T) {
	cases := append(overlays(), overlay{"help", locations(""), []string{"?"}, "this view:"})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 120, 35, c.cfg(t))
			before := h.screen()
			h.keys(c.open...)
			h.contains(t, c.want)
			if h.quits("q") {
				t.Fatalf("q quit with the %s open", c.name)
			}
			if s := h.screen(); s == "" || strings.Contains(s, c.want) {
				t.Fatalf("q left the %s open:\n%s", c.name, s)
			}
			if c.name != "reference picker" && c.name != "time column picker" && h.screen() != before {
				t.Fatalf("q did not come back to the page as it was:\n%s\nbefore:\n%s", h.screen(), before)
			}
			if !h.quits("q") {
				t.Fatal("q with nothing open did not quit")
			}
		})
	}
}

// overlay is a picker or a prompt a page opens over its rows: how to
// open it, and what it shows while open.
type overlay struct {
	name string
	cfg  func(t *testing.T) Config
	open []string
	want string // on screen while open
}

// overlays are every picker and prompt the explorer opens over a page.
func overlays() []overlay {
	return []overlay{
		{"index picker", locations(""), []string{"i"}, "Read Locations through"},
		{"delimiter picker", locations("NY#"), []string{"D"}, "Split the sort keys at"},
		{"partitions index picker", func(*testing.T) Config { return Config{Table: "Locations"} }, []string{"i"}, "Read Locations through"},
		{"column picker", func(*testing.T) Config { return Config{Table: "DeviceLogs", PK: "9000"} }, []string{"C"}, "Columns of DeviceLogs"},
		{"time column picker", func(*testing.T) Config { return Config{Table: "DeviceLogs", PK: "9000"} }, []string{"4", "esc", "C"}, "space show/hide"},
		{"reference picker", func(t *testing.T) Config { return Config{Client: shopDB(t), Table: "Shop", PK: "o#1"} }, []string{"tab", ">"}, "Follow which reference?"},
	}
}

// TestHelpOverOverlays: ? over a picker or a prompt shows its keys, not
// the help of the page beneath (whose keys do not act over it: : opened
// a statement from under the index picker), and closes with ? or esc as
// the help does elsewhere, the picker still open.
func TestHelpOverOverlays(t *testing.T) {
	for _, c := range overlays() {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 120, 35, c.cfg(t))
			h.keys(c.open...)
			h.contains(t, c.want)
			for _, closing := range []string{"?", "esc"} {
				h.keys("?")
				h.contains(t, c.want, "q close", "esc")
				if strings.Contains(c.name, "picker") && c.name != "reference picker" {
					// Its list's every move, and / which searches it.
					full := strings.Join(strings.Fields(h.screen()), " ")
					for _, want := range []string{"/ search", "pgdn page down", "G last"} {
						if !strings.Contains(full, want) {
							t.Errorf("? over the %s lacks %q, which acts there:\n%s", c.name, want, h.screen())
						}
					}
				}
				for _, beneath := range []string{"this view:", "PartiQL", "refresh", "next mode", "q quit"} {
					if strings.Contains(h.screen(), beneath) {
						t.Fatalf("? over the %s shows the page's %q:\n%s", c.name, beneath, h.screen())
					}
				}
				h.keys(closing)
				h.contains(t, c.want)
				if h.m.showHelp {
					t.Fatalf("%s left the help open over the %s:\n%s", closing, c.name, h.screen())
				}
			}
			h.keys(":")
			h.contains(t, c.want)
			if strings.Contains(h.screen(), "SELECT") {
				t.Fatalf(": over the %s opened a statement:\n%s", c.name, h.screen())
			}
			if c.name == "count prompt" {
				// c and esc alone: enter opened a child from under it.
				before := h.screen()
				h.keys("j", "enter", "/")
				if h.screen() != before || h.m.searching() {
					t.Fatalf("keys acted under the count's question:\n%s", h.screen())
				}
			}
		})
	}
}

func locations(prefix string) func(*testing.T) Config {
	return func(*testing.T) Config { return Config{Table: "Locations", PK: "USA", Prefix: prefix} }
}

// TestPasteLandsInEveryInput: a bracketed paste lands in the focused
// box, whichever it is, as one line (newlines as spaces, controls
// dropped); the program turns bracketed paste on, and it was dropped.
func TestPasteLandsInEveryInput(t *testing.T) {
	for _, in := range textInputs {
		t.Run(in.name, func(t *testing.T) {
			cfg := in.cfg
			cfg.Now = demoClock
			h := newHarness(t, 120, 35, cfg)
			h.keys(in.open...)
			h.send(tea.PasteMsg{Content: "OK#1\r\nq j\tk\x1b[31m\x07?"})
			got, ok := h.m.typedText()
			if want := "OK#1 q j k[31m?"; !ok || !strings.HasSuffix(got, want) {
				t.Fatalf("pasted into %s: the box holds %q (open: %v), want it to end with %q\n%s", in.name, got, ok, want, h.screen())
			}
		})
	}
}

// TestPasteOutsideAnInputIsNoKeys: a paste with no box open is not taken
// as keys (a pasted q does not quit, j does not move) and says where
// pasted text goes.
func TestPasteOutsideAnInputIsNoKeys(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Now: demoClock})
	before := h.screen()
	h.send(tea.PasteMsg{Content: "jjjq"})
	if _, ok := h.m.typedText(); ok {
		t.Fatal("a box opened")
	}
	h.said(t, "pasted text goes in a text box")
	if !strings.Contains(before, "row 1 of") || !strings.Contains(h.screen(), "row 1 of") {
		t.Fatalf("the cursor moved:\n%s", h.screen())
	}
}

// TestSearchTypesJAndK: / takes j and k as text (/shopk searched "shop").
func TestSearchTypesJAndK(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Now: demoClock})
	h.keys("/", "s", "h", "o", "p", "k", "j")
	if got, _ := h.m.typedText(); got != "shopkj" {
		t.Fatalf("the search holds %q, want shopkj", got)
	}
	h.keys("esc", "/", "W", "A", "down")
	if got, _ := h.m.typedText(); got != "WA" {
		t.Fatalf("↓ typed into the search: %q", got)
	}
}

// tourWant is what each stop's view shows of its pattern, by title.
var tourWant = map[string]string{
	"Starbucks hierarchy":                  "53 prefixes",
	"Deep geography":                       "20 prefixes",
	"Audit versions with drift":            "versioned item",
	"Device logs < 1536019200":             "2 items",
	"Chat user#datetime":                   " · delimiter ",
	"Chat's reversed index":                "ByTime",
	"Sharded hot partition":                "shards of seattle-{1..4}",
	"Revisions spelt rev#{n}#{name}":       "versioned item",
	"An audit log over time":               "AuditLog",
	"Online shop, overloaded indexes":      " · delimiter ",
	"Device states before the time":        " · delimiter ",
	"Versions v0…vN with a Latest pointer": "versioned item",
	"Time-based versions beside Metadata":  " · delimiter ",
	"A history of 1,000 revisions":         "Audit · 1,000 revisions",
	"Documents v_0 beside v_1…v_N":         "(v_N)  v_0",
	"Revisions numbered by Unix time":      "Rel   v0",
	"Metrics in epoch milliseconds":        "TS holds epoch milliseconds",
	"Flights ORIGIN#time#fare#seat":        "SEA#2021-08-01T20:00:00#950#1",
	"Photos keyed by ULIDs":                "SK holds ULIDs (time-ordered ids) after a prefix",
	"A header item beside its events":      "comm#2023-04-30T12:05:41#comm2",
	"Orders keyed by yyyyMMdd numbers":     "dates written as numbers",
	"Binary sort keys":                     "b64:AP4A",
	"What changed, live":                   "c#001 · 9 changes in 24 h",
}

// TestTourOpensEachStop: --demo opens on the tour; each stop's key opens
// its view, reading its table, with rows and no failure, showing its
// pattern; the flags the tour prints reopen the same view.
func TestTourOpensEachStop(t *testing.T) {
	if len(tourWant) != len(tourStops) {
		t.Fatalf("%d stops, %d checked", len(tourStops), len(tourWant))
	}
	labels := tourLabels(keymap.Default(), len(tourStops))
	for i, s := range tourStops {
		t.Run(s.title, func(t *testing.T) {
			h := newHarness(t, 120, 35, Config{Tour: true, Now: demoClock, Streams: demoData(t)})
			h.contains(t, "Demo tour", "2026-11-01 00:00 UTC")
			h.keys(labels[i])
			if strings.Contains(h.screen(), "Demo tour") {
				t.Fatalf("stop %s did not open:\n%s", labels[i], h.screen())
			}
			h.contains(t, "› "+s.open.Table, tourWant[s.title]) // "Tables" gives way where an index's step needs the room
			if h.m.fatal != nil || h.m.lastErr != nil || strings.Contains(h.screen(), "Something went wrong") {
				t.Fatalf("stop %s failed: %v %v\n%s", labels[i], h.m.fatal, h.m.lastErr, h.screen())
			}
			if s.open.Changes {
				// The Changes mode: no flag opens it (the stop says 5),
				// and the stream's records are its rows.
				if h.m.top().Mode() != pages.ModeChanges || h.rec.count("Query")+h.rec.count("Scan") != 0 {
					t.Fatalf("stop %s: not the Changes mode, or it read the table:\n%s", labels[i], h.screen())
				}
				return
			}
			list, ok := h.m.top().(common.Searchable)
			if !ok || list.List().Rows() == 0 {
				t.Fatalf("stop %s opened no rows:\n%s", labels[i], h.screen())
			}
			// The flags under the list reopen this view: ? prints them.
			line := h.m.commandLine()
			args := tourArgs(s)
			for j := 0; j < len(args); j++ {
				pair := args[j]
				if j+1 < len(args) && !strings.HasPrefix(args[j+1], "--") {
					pair, j = pair+" "+args[j+1], j+1
				}
				if strings.HasPrefix(pair, "--version-pattern ") {
					continue // how the view names what it shows, not where it is
				}
				if !strings.Contains(line+" ", " "+pair+" ") {
					t.Errorf("the tour opens with %q; the view reopens with %q", strings.Join(args, " "), line)
				}
			}
		})
	}
}

// TestTourHoldsEveryTable (25.23, 26.7): every demo table is a stop, and
// so are the 1,000-revision history and each key shape published models
// write (flights ORIGIN#time#fare#seat, photos by ULID, a header item
// beside events, yyyyMMdd numbers, revisions numbered by Unix time).
func TestTourHoldsEveryTable(t *testing.T) {
	opened := map[string]bool{}
	for _, s := range tourStops {
		opened[s.open.Table] = true
		opened[s.open.Table+" "+s.open.PK] = true
	}
	var want []string
	for _, tb := range demo.Tables() {
		want = append(want, *tb.TableName)
	}
	want = append(want, "Equipment "+demo.LongHistoryPiece, demo.ShapesTable+" "+demo.FlightsPK, demo.ShapesTable+" "+demo.PhotosPK,
		demo.ShapesTable+" "+demo.ComplaintPK, demo.ShapesTable+" "+demo.ReleasesPK, demo.OrdersTable+" "+demo.OrdersCustomer)
	for _, w := range want {
		if !opened[w] {
			t.Errorf("no stop of the tour opens %s", w)
		}
	}
	h := newHarness(t, 200, 50, Config{Tour: true, Now: demoClock})
	h.contains(t, fmt.Sprintf("What the demo's %d tables hold", len(demo.Tables())))
}

// TestTourKeysSkipTakenOnes: the direct keys are 1–9 then the letters no
// other key of the tour takes; a letter rebound to move the cursor is
// skipped, so that it still moves it (and j, no longer down, opens a stop).
func TestTourKeysSkipTakenOnes(t *testing.T) {
	got := strings.Join(tourLabels(keymap.Default(), len(tourStops)), "")
	if got != "123456789abcdefimnorstu" {
		t.Fatalf("the tour's keys: %s", got)
	}
	if spans := labelSpans(tourLabels(keymap.Default(), len(tourStops))); !slices.Equal(spans, []string{"1–9", "a–u"}) {
		t.Fatalf("named as %v", spans)
	}
	km := keymap.Default()
	km.Down = key.NewBinding(key.WithKeys("down", "a"), key.WithHelp("↓/a", "down"))
	if got := strings.Join(tourLabels(km, len(tourStops)), ""); got != "123456789bcdefijmnorstu" {
		t.Fatalf("with a bound to down: %s", got)
	}
	h := newHarness(t, 120, 35, Config{Tour: true, Now: demoClock, Keys: km})
	h.keys("a")
	h.contains(t, "Demo tour", "› Geography")
	h.keys("b")
	h.contains(t, "Tables › Shop")
}

// TestTourScrollsAt80x24: the list is longer than 80×24 holds; it scrolls
// with the cursor, says how many stops are out of sight, and keeps the
// selected stop, its key and its description on screen all the way down
// and back up; the lines under the list stay.
func TestTourScrollsAt80x24(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
	labels := tourLabels(keymap.Default(), len(tourStops))
	h.contains(t, "↓ ", " more below", "enter/1–9/a–u open", "esc: the tables")
	see := func(i int) {
		t.Helper()
		s := tourStops[i]
		h.contains(t, labels[i]+"  "+s.title, "› "+s.about[:20], "Clock starts at", "enter/1–9/a–u open", "opens: "+strings.Join(tourArgs(s), " ")[:20], "T: this tour, from anywhere")
	}
	for i := range tourStops {
		see(i)
		h.keys("down")
	}
	h.contains(t, "↑ ", " more above")
	if strings.Contains(h.screen(), "more below") {
		t.Fatalf("at the last stop, stops below:\n%s", h.screen())
	}
	for i := len(tourStops) - 1; i >= 0; i-- {
		see(i)
		h.keys("k")
	}
	h.keys("pgdown")
	if h.m.top().(*tourPage).cursor == 0 {
		t.Fatal("pgdown did not move")
	}
	h.keys("G")
	see(len(tourStops) - 1)
	h.keys("g")
	see(0)
}

// TestTourEscComesBack: esc from a view a stop opened comes back to the
// tour, where it was; a view opened from that view is climbed out of
// first; esc on the tour then goes to the tables.
func TestTourEscComesBack(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
	h.keys("down", "down", "enter")
	if _, ok := h.m.top().(*tourPage); ok {
		t.Fatalf("the stop did not open:\n%s", h.screen())
	}
	h.keys("2", "enter") // its items, then one item
	h.contains(t, "attributes")
	h.keys("esc")
	if _, ok := h.m.top().(*tourPage); ok {
		t.Fatalf("esc from a view opened over the stop's went to the tour:\n%s", h.screen())
	}
	h.keys("esc")
	tour, ok := h.m.top().(*tourPage)
	if !ok || tour.cursor != 2 {
		t.Fatalf("esc from the stop's view did not come back to the tour where it was:\n%s", h.screen())
	}
	h.keys("esc")
	h.contains(t, "Locations", "GSI ByCity")
}

// TestTourEscFromAViewOverTheStop: views that keys open straight over a
// stop's view (the statement prompt, the compare picker) are climbed out
// of first, as a view a page opens is: esc on `:` went to the tour.
func TestTourEscFromAViewOverTheStop(t *testing.T) {
	for _, key := range []string{":", "="} {
		h := newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
		h.keys("enter")
		stop := h.m.top()
		if _, ok := stop.(*tourPage); ok {
			t.Fatalf("the stop did not open:\n%s", h.screen())
		}
		h.keys(key)
		if h.m.top() == stop {
			t.Fatalf("%s opened nothing over the stop:\n%s", key, h.screen())
		}
		h.keys("esc")
		if h.m.top() != stop {
			t.Errorf("esc from what %s opened went to %T, not back to the stop's view:\n%s", key, h.m.top(), h.screen())
		}
		h.keys("esc")
		if _, ok := h.m.top().(*tourPage); !ok {
			t.Errorf("esc from the stop's view after %s went to %T, not the tour", key, h.m.top())
		}
	}
}

// TestTourGoldens: the tour with its cursor on the last stop, scrolled
// where the list does not fit.
func TestTourGoldens(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			h := newHarness(t, sz[0], sz[1], Config{Tour: true, Now: demoClock})
			h.keys("G")
			checkScreen(t, h, sz[0], "tour")
			h.golden(t)
		})
	}
}

func TestTourKeys(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
	h.golden(t)
	if h.rec.count("Scan")+h.rec.count("Query") != 0 {
		t.Fatal("the tour read before anything was picked")
	}
	h.keys("down", "down", "enter")
	h.contains(t, "Equipment", "versioned items")
	h.keys("?")
	h.contains(t, "T demo tour")
	h.keys("T")
	h.contains(t, "Demo tour")
	h.keys("esc") // back where T was pressed
	h.contains(t, "versioned items")
	h = newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
	// T on the tour is not offered and opens no second tour: esc left it
	// for the tour beneath.
	h.keys("?")
	if strings.Contains(h.screen(), "T demo tour") {
		t.Fatalf("the tour's help offers T:\n%s", h.screen())
	}
	h.keys("?", "T")
	h.contains(t, "this is the tour")
	h.keys("esc")
	h.contains(t, "Locations", "READ-ONLY")
	if strings.Contains(h.screen(), "Demo tour") {
		t.Fatal("esc stayed on the tour")
	}
}

// TestTourClicks: a click selects the stop under it, in the scrolled list
// too; a second click opens it; a click off the list does nothing.
func TestTourClicks(t *testing.T) {
	click := func(h *harness, y int) { h.screen(); h.send(tea.MouseClickMsg{X: 10, Y: y, Button: tea.MouseLeft}) }
	h := newHarness(t, 120, 35, Config{Tour: true, Now: demoClock})
	click(h, 4) // the title bar, the border, then the stops (no room for a heading): the third
	h.contains(t, "Demo tour", "› Equipment: v0_")
	click(h, 0) // the title bar over the list
	h.contains(t, "Demo tour", "› Equipment: v0_")
	click(h, 30) // under the list
	h.contains(t, "Demo tour", "› Equipment: v0_")
	click(h, 4)
	h.contains(t, "Tables › Equipment › "+demo.DriftedPiece, "versioned item")

	h = newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
	h.keys("G") // scrolled: the list's first line is the eleventh stop (the flags that open it stay under the list)
	click(h, 2)
	h.contains(t, "› StateLog: State#Date keys")
	click(h, 2)
	h.contains(t, "StateLog › d#12345")
}

// TestLeafLevelOpensInOneRead: the partition's walk read LEAF's first
// keys, items with nothing below them: opening LEAF# reads its 1,000 items
// in one Query, as a plain read of it would, where a probe first took two
// (28.5). NEST#, the level's last child, the walk read whole to the
// level's last key (read alone): entered, it is told from its keys, with
// no request. (LEAF holds more keys than the walk's first read, which
// would otherwise hold it whole too, and another partition makes the
// table weigh more than that read, which would otherwise ask for all of
// it.) r reads it in one Query.
func TestLeafLevelOpensInOneRead(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for i := range 1000 {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("LEAF#%04d", i)}})
		for j := range 3 {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "q"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("LEAF#%d%04d", j, i)}})
		}
		if i < 100 {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("NEST#%02d#%d", i/10, i%10)}})
		}
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Leafy", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Leafy", PK: "p"})
	for _, c := range []struct {
		keys    []string
		prefix  string
		queries int
	}{
		{[]string{"enter"}, "LEAF#", 1},
		{[]string{"esc", "down", "enter"}, "NEST#", 0}, // held whole by the walk (37.1)
		{[]string{"r"}, "NEST#", 1},                    // from the server: a first page, here the whole level (37.4)
	} {
		before := h.rec.count("Query")
		h.keys(c.keys...)
		screen := h.screen()
		if got := h.rec.count("Query") - before; got != c.queries || !strings.Contains(screen, fmt.Sprintf(`:prefix="%s"`, c.prefix)) {
			t.Fatalf("opening %s sent %d Queries; want %d\n%s", c.prefix, got, c.queries, screen)
		}
	}
}

// TestCountedLevelOpensInOneRead (37.3): a child c counted, whose count
// says its level weighs no more than a first read (ONES: 300 children of
// one item of ~100 B, in a table of 3,300 items), opens in one Query, the
// full read, where a first read cut at 256 keys took two round trips;
// what it lists is what the level opened with no count known lists.
func TestCountedLevelOpensInOneRead(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	add := func(sk string, size int) {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: sk},
			"Data": &types.AttributeValueMemberS{Value: strings.Repeat("d", size)}})
	}
	for i := range 3000 {
		add(fmt.Sprintf("AAA#%05d", i), 40) // fills the top level's first read: ONES is probed, not read whole
	}
	for i := range 300 {
		add(fmt.Sprintf("ONES#%03x%05d#profile", i*2654435761%4096, i), 60)
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Counted", "S", items); err != nil {
		t.Fatal(err)
	}
	direct := newHarness(t, 120, 35, Config{Client: db, Table: "Counted", PK: "p", Prefix: "ONES#"})
	direct.contains(t, "ONES# · 300 prefixes")
	if n := direct.rec.count("Query"); n != 2 {
		t.Fatalf("ONES# opened with no count known sent %d Queries; want 2 (a first read of 256 keys, then the rest)", n)
	}
	// The same children (their Items cells aside: a level read whole
	// is counted from its keys).
	names := func(screen string) string {
		var out []string
		for _, row := range strings.Split(rowsOf(screen), "\n") {
			out = append(out, strings.Fields(row)[2])
		}
		return strings.Join(out, " ")
	}
	h := newHarness(t, 160, 35, Config{Client: db, Table: "Counted", PK: "p"})
	h.contains(t, "2 prefixes")
	h.keys("c")
	if rows := strings.Join(strings.Fields(rowsOf(h.screen())), " "); !strings.Contains(rows, "▸ ONES# prefix 300") {
		t.Fatalf("ONES# after c: %s", rows)
	}
	before := h.rec.count("Query")
	h.keys("down", "enter")
	// c read the level whole and kept its keys: ONES# is told from them
	// (TestCountedChildEnteredFromItsRead); r reads it from the server,
	// its count known.
	h.contains(t, "ONES# · 300 prefixes", `:prefix="ONES#" · no request sent (from the level's read)`)
	if n := h.rec.count("Query") - before; n != 0 {
		t.Fatalf("ONES#, counted whole, opened in %d Queries; want none\n%s", n, h.screen())
	}
	told := names(h.screen())
	before = h.rec.count("Query")
	h.keys("r")
	h.contains(t, "ONES# · 300 prefixes", `:prefix="ONES#" · skip-scan`)
	if n := h.rec.count("Query") - before; n != 1 {
		t.Fatalf("ONES#, counted 300, read again in %d Queries; want 1\n%s", n, h.screen())
	}
	if got := names(h.screen()); got != told {
		t.Fatalf("ONES# read again lists\n%s\ntold from the count's keys\n%s", got, told)
	}
	if got, want := names(h.screen()), names(direct.screen()); got != want {
		t.Fatalf("ONES# opened counted lists\n%s\nopened directly\n%s", got, want)
	}
}

// TestCountedChildEnteredFromItsRead (37.2): c on a repository's top
// level (GitHub's REPO#: 400 issues the walk skipped past, PRs, stars)
// reads the level once and keeps its keys; enter on ISSUE# then sends no
// request (it read the level's 400 issues again, as much as c had read),
// and lists what reading it from the server (r) lists. Through a mask
// the count keeps no keys (they are real): enter reads the level.
func TestCountedChildEnteredFromItsRead(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	add := func(sk string, size int) {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "REPO#alexdebrie#dynamodb-book"}, "SK": &types.AttributeValueMemberS{Value: sk},
			"Data": &types.AttributeValueMemberS{Value: strings.Repeat("d", size)}})
	}
	add("REPO#alexdebrie#dynamodb-book", 100)
	for i := range 400 {
		add(fmt.Sprintf("ISSUE#%07d", i+1), 200)
	}
	for i := range 30 {
		add(fmt.Sprintf("PR#%07d", i+1), 150)
	}
	for i := range 20 {
		add(fmt.Sprintf("STAR#user%d", i), 40)
	}
	if err := demo.CreateKeyTable(context.Background(), db, "GitHub", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 160, 35, Config{Client: db, Table: "GitHub", PK: "REPO#alexdebrie#dynamodb-book"})
	h.contains(t, "4 prefixes")
	h.keys("c")
	h.contains(t, "▸ ISSUE#")
	if rows := strings.Join(strings.Fields(rowsOf(h.screen())), " "); !strings.Contains(rows, "▸ ISSUE# prefix 400") {
		t.Fatalf("ISSUE# after c: %s", rows)
	}
	before := h.rec.count("Query")
	h.keys("enter") // ISSUE#, the first row
	h.contains(t, "ISSUE# · 400 items", `:prefix="ISSUE#" · no request sent (from the level's read)`)
	if n := h.rec.count("Query") - before; n != 0 {
		t.Fatalf("ISSUE#, counted whole by c, entered with %d Queries; want none\n%s", n, h.screen())
	}
	told := rowsOf(h.screen())
	h.keys("r")
	h.contains(t, "ISSUE# · 400 items", `:prefix="ISSUE#" · `)
	if got := rowsOf(h.screen()); got != told {
		t.Fatalf("ISSUE# from the server lists\n%s\nfrom the count's keys\n%s", got, told)
	}
}

// TestDenseLevelEnteredFromItsRead (37.3): USA's walk read its dense
// level whole (in plain stretches): entering AK, and a city under it,
// sends no request, and the request line says so; what is listed is what
// reading the level from the server lists (r), and the status bar's
// session figures do not move. AZ, which the walk's first read cut into,
// is read.
func TestDenseLevelEnteredFromItsRead(t *testing.T) {
	h := newHarness(t, 160, 35, Config{Table: "Locations", PK: "USA", Now: demoClock})
	h.contains(t, "USA · 53 prefixes · 1 item · all", "skip-scan 2 req · 66.5 RCU")
	status := func() string { lines := strings.Split(h.screen(), "\n"); return lines[len(lines)-1] }
	before, session := h.rec.count("Query"), status()
	// The states read whole are counted from their keys, with no count
	// read (c found AK 56, AL 53, AZ 115); AZ, cut by the first read, is
	// left to c.
	row := func(name string) string {
		for _, l := range strings.Split(h.screen(), "\n") {
			if strings.HasPrefix(l, "│ ▸ "+name+"#") {
				return strings.Join(strings.Fields(l), " ")
			}
		}
		return ""
	}
	if ak, al, az := row("AK"), row("AL"), row("AZ"); ak != "│ ▸ AK# prefix 56 │" || al != "│ ▸ AL# prefix 53 │" || az != "│ ▸ AZ# prefix – │" {
		t.Fatalf("the states read whole, counted from their keys: %q, %q, %q", ak, al, az)
	}
	h.contains(t, "Items (c counts)")
	h.keys("enter") // AK
	told := h.screen()
	h.contains(t, "AK# · 3 prefixes · all", "▸ CEDARVILLE#", "▸ MILLVILLE#", `:prefix="AK#" · no request sent (from the level's read)`)
	h.keys("enter") // CEDARVILLE
	h.contains(t, "CEDARVILLE# · ", `:prefix="AK#CEDARVILLE#" · no request sent (from the level's read)`)
	if n := h.rec.count("Query") - before; n != 0 || status() != session {
		t.Fatalf("entering two levels read whole sent %d Query; the status bar went from %q to %q", n, session, status())
	}
	h.keys("esc", "r") // AK from the server
	h.contains(t, "AK# · 3 prefixes · all", `:prefix="AK#" · skip-scan 1 req`)
	if got, want := rowsOf(h.screen()), rowsOf(told); got != want {
		t.Fatalf("AK from the server lists\n%s\nfrom the keys held\n%s", got, want)
	}
	h.keys("esc")
	h.contains(t, "USA · 53 prefixes")
	for range 3 {
		h.keys("down")
	}
	before = h.rec.count("Query")
	h.keys("enter") // AZ, cut by the walk's first read
	h.contains(t, "AZ# · ", `:prefix="AZ#" · skip-scan`)
	if h.rec.count("Query") == before {
		t.Fatal("AZ, which the walk did not read whole, was told from its keys")
	}
}

// TestCountAfterTheWalkReadsItsGaps (37.1): c on USA after its walk counts
// from the keys the walk held, reading only what it did not — the rest
// of AZ, which its first read cut into: one Query, where a count from
// nothing read the level again (66.5 RCU). AZ shows 115, the states
// counted from their keys are unchanged, and the request line and the
// status bar say what c spent. A count budget stops it, and c goes on.
func TestCountAfterTheWalkReadsItsGaps(t *testing.T) {
	h := newHarness(t, 160, 35, Config{Table: "Locations", PK: "USA", Now: demoClock})
	h.contains(t, "USA · 53 prefixes · 1 item · all", "skip-scan 2 req · 66.5 RCU", "3 req · 66.5 RCU")
	rows := func() string {
		var out []string
		for _, l := range strings.Split(h.screen(), "\n") {
			if strings.HasPrefix(l, "│ ▸ ") {
				out = append(out, strings.Join(strings.Fields(l), " "))
			}
		}
		return strings.Join(out, "\n")
	}
	walked := rows()
	if !strings.Contains(walked, "▸ AZ# prefix – │") {
		t.Fatalf("AZ, cut by the walk's first read, counted before c:\n%s", walked)
	}
	before := h.rec.count("Query")
	h.keys("c")
	h.contains(t, "skip-scan 2 req · 66.5 RCU · counts 1 req · 0.5 RCU", "4 req · 67.0 RCU")
	if n := h.rec.count("Query") - before; n != 1 {
		t.Fatalf("c after the walk sent %d Query, want 1 (the rest of AZ)", n)
	}
	if got, want := rows(), strings.Replace(walked, "▸ AZ# prefix – │", "▸ AZ# prefix 115 │", 1); got != want {
		t.Fatalf("after c:\n%s\nwant\n%s", got, want)
	}

	// Under a count budget of 1 RCU its reads are sized by the items
	// the walk read: the rest of AZ in two reads, one c (its first read
	// of one item, to size them, stopped it at 101 of 115, and c again
	// took 3 requests, 1.5 RCU in all).
	h = newHarness(t, 160, 35, Config{Table: "Locations", PK: "USA", Now: demoClock, CountBudget: 1})
	h.keys("c") // never asked first: the budget holds the count
	h.contains(t, "skip-scan 2 req · 66.5 RCU · counts 2 req · 1.0 RCU", "5 req · 67.5 RCU")
	if got, want := rows(), strings.Replace(walked, "▸ AZ# prefix – │", "▸ AZ# prefix 115 │", 1); got != want {
		t.Fatalf("after c under a budget of 1 RCU:\n%s\nwant\n%s", got, want)
	}

	// A budget of half an RCU is said as such (it read "0 RCU").
	h = newHarness(t, 160, 35, Config{Table: "Locations", PK: "USA", Now: demoClock, CountBudget: 0.5})
	h.keys("c")
	h.said(t, "stopped at the count budget of 0.5 RCU")
}

// TestCountOfAPrefixBesideItsItem: a child that is an item and a prefix
// (A beside A#000…) has two rows; the item's says 1 and the prefix's
// counts only what lies under the prefix, so the two add up to the
// child's count (the demo's NY and NY#: 1 and 91, NY# having said 92).
func TestCountOfAPrefixBesideItsItem(t *testing.T) {
	h := newHarness(t, 120, 80, Config{Table: "Locations", PK: "USA", Now: demoClock})
	h.contains(t, "USA · 53 prefixes · 1 item · all")
	if rows := strings.Join(strings.Fields(rowsOf(h.screen())), " "); !strings.Contains(rows, "• NY item 1 │ │ ▸ NY# prefix 91 │") {
		t.Fatalf("NY and NY#:\n%s", rowsOf(h.screen()))
	}

	db := memory.New()
	var items []dynamo.Item
	for _, name := range []string{"A", "AB", "ABC"} {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "pref"}, "SK": &types.AttributeValueMemberS{Value: name}})
		for i := range 7 {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "pref"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("%s#%03d", name, i)}})
		}
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Prefixes", "S", items); err != nil {
		t.Fatal(err)
	}
	h = newHarness(t, 120, 35, Config{Client: db, Table: "Prefixes", PK: "pref"})
	h.contains(t, "pref · 3 prefixes · 3 items · all")
	h.keys("c")
	rows := strings.Join(strings.Fields(rowsOf(h.screen())), " ")
	for _, name := range []string{"A", "AB", "ABC"} {
		if want := "• " + name + " item 1 │ │ ▸ " + name + "# prefix 7 │"; !strings.Contains(rows, want) {
			t.Fatalf("want %q in\n%s", want, rowsOf(h.screen()))
		}
	}
}

// TestCountStoppedKeepsTheWalksCounts: the branches a walk read whole are
// counted from its keys; a count that reads them again with their gap's
// neighbours and stops there (its budget, or esc) keeps those figures.
// On a table that reports no size (dynalite's, here the demo's with its
// size withheld) a new user's walk saw USA's AL# 53, AR# 52 and AZ# 115
// turn "–" when a count stopped before it had read them again.
func TestCountStoppedKeepsTheWalksCounts(t *testing.T) {
	rows := func(h *harness) map[string]string {
		out := map[string]string{}
		for _, l := range strings.Split(h.screen(), "\n") {
			if f := strings.Fields(strings.Trim(l, "│ ")); len(f) == 4 && f[0] == "▸" {
				out[f[1]] = f[3]
			}
		}
		return out
	}
	for _, budget := range []float64{0.5, 1, 2} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			h := newHarness(t, 120, 70, Config{Client: uncounted{demoData(t)}, Table: "Locations", PK: "USA", CountBudget: budget})
			walked := rows(h)
			if walked["AL#"] != "53" || walked["AR#"] != "52" || walked["AZ#"] != "115" {
				t.Fatalf("the walk did not count AL#, AR#, AZ# from its keys: %v", walked)
			}
			h.keys("c")
			h.said(t, "stopped at the count budget")
			stopped := rows(h)
			for name, n := range walked {
				if n != "–" && stopped[name] != n {
					t.Errorf("%s: %s after the walk, %s once a count stopped at %g RCU", name, n, stopped[name], budget)
				}
			}
			for runs := 0; strings.Contains(h.screen(), "c counts"); runs++ {
				if runs > 500 {
					t.Fatalf("c never counted the level to its end:\n%s", h.screen())
				}
				h.keys("c")
			}
			if all := rows(h); all["AK#"] != "56" || all["CA#"] != "73" || all["AZ#"] != "115" {
				t.Errorf("counted on to the end: %v", all)
			}
		})
	}
}

// TestCountNeverAsksAndHoldsItsBudget: c counts at once wherever the
// table's size is over the count budget, as children --count does, and
// the budget holds the run: it reads at most the budget (and a read's
// rounding), then stops with the status bar's line, or counts the level
// whole where the budget pays for it. It asked first ("Count?", up to
// the table's size over the budget), before every count of a small
// level of a big table, which the budget pays for: USA at 10 RCU, whose
// walk left only the rest of AZ, 0.5 RCU.
func TestCountNeverAsksAndHoldsItsBudget(t *testing.T) {
	for _, tc := range []struct {
		what    string
		cfg     Config
		stopped bool // at the budget, else counted to the end
	}{
		{"USA after its walk, budget 10", Config{Table: "Locations", PK: "USA", CountBudget: 10}, false},
		{"USA after its walk, budget 1", Config{Table: "Locations", PK: "USA", CountBudget: 1}, false},
		{"Geography's countries after the walk, budget 20", Config{Table: "Geography", PK: "PLACE", CountBudget: 20}, true},
		{"USA masked, no keys held, budget 20", Config{Table: "Locations", Mask: maskLocations, CountBudget: 20}, true},
	} {
		t.Run(tc.what, func(t *testing.T) {
			b := &billing{Client: demoData(t)}
			tc.cfg.Client, tc.cfg.Now = b, demoClock
			h := newHarness(t, 160, 35, tc.cfg)
			if tc.cfg.PK == "" {
				h.keys("enter") // the first partition, USA
				h.contains(t, "Items (c counts)")
			}
			walked := b.spent()
			h.keys("c")
			scr := h.screen()
			if strings.Contains(scr, "Count?") || strings.Contains(scr, "counts anyway") {
				t.Fatalf("c asked before counting:\n%s", scr)
			}
			if spent := b.spent() - walked; spent > tc.cfg.CountBudget+0.5 {
				t.Fatalf("c read %.1f RCU over the %g RCU budget", spent, tc.cfg.CountBudget)
			}
			stopped := false
			for _, said := range h.m.said {
				stopped = stopped || strings.Contains(said.whole(), "stopped at the count budget")
			}
			if stopped != tc.stopped {
				t.Fatalf("stopped at the budget %v, want %v:\n%s", stopped, tc.stopped, scr)
			}
			if !tc.stopped && (strings.Contains(scr, "…") || strings.Contains(scr, "c counts") || !regexp.MustCompile(`AZ#\s+prefix\s+115\s`).MatchString(scr)) {
				t.Fatalf("c did not count the level at once:\n%s", scr)
			}
			t.Logf("c read %.1f RCU under a budget of %g", b.spent()-walked, tc.cfg.CountBudget)
		})
	}
}

// rowsOf are a screen's rows of children (▸ and •).
func rowsOf(screen string) string {
	var rows []string
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "│ ▸ ") || strings.HasPrefix(l, "│ • ") {
			rows = append(rows, strings.TrimSpace(l))
		}
	}
	return strings.Join(rows, "\n")
}

// TestTreeKeyStartingWithTheDelimiter: dynamodb-toolbox's #PROFILE
// beside ADDR#… and alice#…: its segment before # is empty. The tree
// labels it "(empty)#", counted 1 as children counts it (name "",
// prefix "#"); enter opens the prefix # (PROFILE, an item), the
// breadcrumb naming the step "(empty)", where it was blank
// ("p › " and nothing), and enter there opens #PROFILE.
func TestTreeKeyStartingWithTheDelimiter(t *testing.T) {
	db := keysDB(t, "#PROFILE", "ADDR#home", "ADDR#work", "alice#2025-03-02T15:18:53", "alice#2025-03-04T10:00:00")
	info, _, err := dynamo.DescribeTable(context.Background(), db, "T")
	if err != nil {
		t.Fatal(err)
	}
	r := dynamo.ChildrenRequest{Table: "T", Key: info.Key, PK: domain.S("p")}
	res, err := dynamo.Children(context.Background(), db, r, nil)
	if err != nil || len(res.Children) != 3 || res.Children[0].Name != "" || res.Children[0].Prefix != "#" {
		t.Fatalf("children: %+v, %v", res.Children, err)
	}
	r.Delim = res.Delim
	if n, err := dynamo.CountChild(context.Background(), db, r, res.Children[0], nil); n != 1 || err != nil {
		t.Fatalf("children counts %d under #, %v", n, err)
	}
	h := newHarness(t, 80, 24, Config{Table: "T", PK: "p", Client: db})
	h.contains(t, "p · 3 prefixes · all")
	if !regexp.MustCompile(`▸ \(empty\)#\s+prefix\s+1\b`).MatchString(h.screen()) {
		t.Fatalf("#PROFILE's prefix not labelled (empty)# and counted 1:\n%s", h.screen())
	}
	h.keys("enter")
	h.contains(t, "# · 1 item · all", "• PROFILE", `:prefix="#"`, "T › p › (empty)")
	h.keys("enter")
	h.contains(t, `"#PROFILE"`)
}

// TestTreeItemAtPrefix (26.5): on the demo's USER#ada, PROFILE# is both an
// item and the prefix of PROFILE#email and PROFILE#phone. Its level lists
// the item as a row of its own, counted among the items of the title
// (three rows, three items), and enter on that row opens the item.
func TestTreeItemAtPrefix(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: demo.ShapesTable, PK: demo.PhotosPK})
	h.contains(t, "USER#ada · 2 prefixes · all", "PHOTO#", "PROFILE#", "row 1 of 2")
	h.keys("down", "enter")
	h.contains(t, "PROFILE# · 3 items · all", "PROFILE# (the prefix itself)", "email", "phone", "row 1 of 3")
	h.keys("enter")
	h.contains(t, `"Name"`, `"Ada"`)

	// ORDER# alone: its level holds only the item keyed by the prefix.
	h = newHarness(t, 120, 35, Config{Table: "T", PK: "p", Client: keysDB(t, "ORDER#", "USER#1")})
	h.contains(t, "p · 2 prefixes · all", "row 1 of 2")
	h.keys("enter")
	h.contains(t, "ORDER# · 1 item · all", "ORDER# (the prefix itself)", "row 1 of 1")
	h.keys("enter")
	h.contains(t, `"SK": "ORDER#"`)
}

// TestTreeNoDelimiter: binary keys where no delimiter repeats (two of
// Blobs' 48 hold a byte 0x23) are listed whole, and the tree says so in
// its title, its request line, its reopen command and the D picker;
// choosing # there splits them, choosing "no delimiter" lists them whole
// again (25.20).
func TestTreeNoDelimiter(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Blobs", PK: "images"})
	// 1 request (its first read, sized by the table's item size, holds
	// the 48): binary keys are never cut by a text delimiter the user
	// did not pick, so no sample Scan of the table's keys is made for them.
	h.contains(t, "images · 48 items · all · no delimiter", "• b64:I/4H", "· no delimiter · 1 req")
	if n := h.rec.count("Scan"); n != 0 {
		t.Fatalf("%d Scans to tell a binary table's delimiter", n)
	}
	if s := h.screen(); strings.Contains(s, "(empty)") || strings.Contains(s, "prefix") {
		t.Fatalf("a binary key split at 0x23:\n%s", s)
	}
	if got := h.m.commandLine(); !strings.HasSuffix(got, "--delimiter none") {
		t.Fatalf("reopens with %q", got)
	}
	before := h.rec.count("Query")
	h.keys("D")
	h.contains(t, "●   no delimiter  0 of 20")
	if h.rec.count("Query") != before {
		t.Fatal("the delimiter picker read something")
	}
	h.keys("up", "up", "up", "up", "up", "up", "up", "enter") // # : split where the keys hold 0x23
	h.contains(t, "images · 2 prefixes · 46 items · all · delimiter #", "▸ (empty)#", "· skip-scan ")
	h.keys("D")
	h.contains(t, "●   #")
	h.keys("down", "down", "down", "down", "down", "down", "down", "enter")
	h.contains(t, "images · 48 items · all · no delimiter", "• b64:I/4H")
}

// TestTreeDelimiterNone: --delimiter none opens a level with every key
// whole, even where a delimiter repeats; so does "no delimiter" in the D
// picker, and reading the level again keeps it (none is a state of its
// own, not "detect again").
func TestTreeDelimiterNone(t *testing.T) {
	whole := func(h *harness) {
		t.Helper()
		h.contains(t, "FRANCE · 63 items · all · no delimiter", "• ILE-DE-FRANCE#PARIS#75001")
		if s := h.screen(); strings.Contains(s, "│ ▸ ") {
			t.Fatalf("a prefix row with no delimiter:\n%s", s)
		}
	}
	whole(newHarness(t, 120, 35, Config{Table: "Locations", PK: "FRANCE", Delimiter: "none"}))
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "FRANCE"})
	h.contains(t, "FRANCE · 4 prefixes · all · delimiter #")
	h.keys("D", "down", "down", "down", "down", "down", "down", "down", "enter")
	whole(h)
	h.keys("r")
	whole(h)
}

// TestTreeDelimiterNoneUnderAPrefix: --prefix with --delimiter none lists
// the keys under the prefix whole, the prefix one step of the breadcrumb,
// and reopens the same way.
func TestTreeDelimiterNoneUnderAPrefix(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#", Delimiter: "none"})
	h.contains(t, "Locations › USA › NY#NEWYORKCITY#", "NY#NEWYORKCITY# · ", "items · all · no delimiter", "• 62700#")
	if got := h.m.commandLine(); !strings.HasSuffix(got, "--prefix 'NY#NEWYORKCITY#' --delimiter none") {
		t.Fatalf("reopens with %q", got)
	}
}

// binDB holds a table keyed by two binaries, the sort keys split at '#'
// into a small hierarchy: b64:AP4= is the partition 00 fe.
func binDB(t *testing.T) *memory.DB {
	db := memory.New()
	ctx := context.Background()
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Bin"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "B"}, {AttributeName: aws.String("SK"), AttributeType: "B"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		BillingMode:          types.BillingModePayPerRequest}); err != nil {
		t.Fatal(err)
	}
	for _, sk := range []string{"\x01\xff#\x02", "\x01\xff#\x03", "\x05#\x00\x10", "\x07"} {
		it := dynamo.Item{"PK": &types.AttributeValueMemberB{Value: []byte{0, 0xfe}}, "SK": &types.AttributeValueMemberB{Value: []byte(sk)},
			"Blob": &types.AttributeValueMemberB{Value: []byte{0xde, 0xad}}}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Bin"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestBinaryKeysOneForm walks a table keyed by binaries through every
// page: partitions, tree, a drilled level, items, the item, the request
// line, the help's reopen command and the tree's export rows. A binary is
// shown one way, b64: and its base64 (what --pk and --prefix accept),
// never as escaped bytes or bare base64; the reopen command opens the
// same view again.
func TestBinaryKeysOneForm(t *testing.T) {
	escaped := regexp.MustCompile(`\\x[0-9a-f]{2}|\\u00|"AP4="|"3q0="`)
	check := func(h *harness, page string, want ...string) {
		t.Helper()
		s := h.screen()
		if m := escaped.FindString(s); m != "" {
			t.Fatalf("%s shows a binary as %q, not b64:…:\n%s", page, m, s)
		}
		h.contains(t, want...)
	}
	h := newHarness(t, 120, 35, Config{Client: binDB(t), Table: "Bin"})
	check(h, "partitions", "b64:AP4=")
	h.keys("enter")
	check(h, "tree", "Bin › b64:AP4=", "▸ b64:Af8=", "▸ b64:BQ==", "• b64:Bw==", `:pk=b64:AP4=`)
	if got := h.m.commandLine(); got != "dynascope --demo --table Bin --pk b64:AP4= --delimiter '#'" {
		t.Fatalf("tree reopens with %q", got)
	}
	h.keys("enter")
	check(h, "drilled tree", "Bin › b64:AP4= › b64:Af8=", "b64:Af8j · 2 items", "• b64:Ag==", `:prefix=b64:Af8j`)
	if got := h.m.commandLine(); !strings.Contains(got, "--pk b64:AP4= --prefix b64:Af8j") {
		t.Fatalf("drilled tree reopens with %q", got)
	}
	h.keys("2")
	check(h, "items", "b64:Af8jAg==", "b64:3q0=")
	h.keys("enter")
	check(h, "item", `"SK": "b64:Af8jAg=="`, `"Blob": "b64:3q0="`, "Key: PK=b64:AP4= SK=b64:Af8jAg==")
	h.keys("?")
	check(h, "help", "b64:AP4=")

	// The reopen command's values read back as the same keys.
	for _, arg := range []string{"b64:AP4=", "AP4="} {
		v, err := domain.ParseKeyValue(domain.TypeB, arg)
		if err != nil || string(v.Bytes) != "\x00\xfe" {
			t.Fatalf("--pk %s reads as %v, %v", arg, v, err)
		}
	}
	h = newHarness(t, 120, 35, Config{Client: binDB(t), Table: "Bin", PK: "b64:AP4=", Prefix: "b64:Af8j", Delimiter: "#"})
	check(h, "deep link", "Bin › b64:AP4= › b64:Af8=", "b64:Af8j · 2 items", "• b64:Ag==", "• b64:Aw==")
}

// TestBinaryKeyRefusalSaysTheExplorersWay: f or : pinning a binary
// partition key to text matches no item, and the explorer says how to
// open that partition with its own keys, not with a command line's
// flags (it said "read that partition with dynascope items --pk …");
// what it says works.
func TestBinaryKeyRefusalSaysTheExplorersWay(t *testing.T) {
	const way = "open partition b64:AP4= from the table's partitions list (/ b64:AP4= goes to it)"
	for _, c := range []struct{ key, text string }{{"f", `PK = "AP4="`}, {":", `SELECT * FROM Bin WHERE PK = 'AP4='`}} {
		h := newHarness(t, 120, 35, Config{Client: binDB(t), Table: "Bin"})
		h.keys(c.key)
		h.typeText(c.text)
		h.keys("enter")
		h.contains(t, "matches no item")
		if scr := strings.Join(strings.Fields(h.screen()), " "); !strings.Contains(scr, way) || strings.Contains(scr, "dynascope items") {
			t.Errorf("%s %s: the refusal does not say the explorer's way:\n%s", c.key, c.text, h.screen())
		}
	}
	h := newHarness(t, 120, 35, Config{Client: binDB(t), Table: "Bin"})
	h.keys("/")
	h.typeText("b64:AP4=")
	h.keys("enter", "enter")
	h.contains(t, "Bin › b64:AP4=")
}

// longKeysDB holds readings whose sort keys are longer than 80 columns,
// a time of day in their middle: DEVICE#…#2026-10-31T13:00:58.123456Z#….
func longKeysDB(t *testing.T) *memory.DB {
	db := memory.New()
	ctx := context.Background()
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Long"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		BillingMode:          types.BillingModePayPerRequest}); err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		sk := fmt.Sprintf("DEVICE#sensor-0042#READING#2026-10-31T13:%02d:58.123456Z#temperature#celsius#calibration-run-00017", i)
		it := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "site#berlin-7"}, "SK": &types.AttributeValueMemberS{Value: sk},
			"Value": &types.AttributeValueMemberN{Value: fmt.Sprint(20 + i%5)}, "Status": &types.AttributeValueMemberS{Value: "ok"}}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Long"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestLongKeysKeepTheirTime: in the item list, a sort key too long for
// the terminal is cut around its date and time, not through them: at
// 80×24 every row still shows its own minute (the middle cut showed
// DEVICE#sensor-0042#READING#2026-10-31…perature#… on every row, 25.22).
func TestLongKeysKeepTheirTime(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Client: longKeysDB(t), Table: "Long", PK: "site#berlin-7"})
			h.keys("2")
			h.contains(t, "2026-10-31T13:00:58.123456Z", "2026-10-31T13:01:58.123456Z", "2026-10-31T13:15:58.123456Z")
			if strings.Contains(h.screen(), "2026-10-31…") {
				t.Fatalf("a key cut through its time:\n%s", h.screen())
			}
			h.golden(t)
		})
	}
}

// TestGOnPartitionsStillScannedSaysSo: a Scan has no end to read first,
// so the first G on a partitions list still being scanned goes to the last
// partition scanned so far; it says that is not the table's last, rather
// than stopping there as if it were the end (25.20).
func TestGOnPartitionsStillScannedSaysSo(t *testing.T) {
	db := memory.New()
	items := make([]dynamo.Item, 3000)
	for j := range items {
		items[j] = dynamo.Item{"PK": s(fmt.Sprintf("p#%05d", j)), "SK": s("x")}
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Many", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Many"})
	h.contains(t, "more: scroll down to scan on")
	h.keys("G")
	h.said(t, "scanned so far, not the table's last")
}

// TestGOnPartitionsEndsWhereTheScanEnds: G on a partitions list still
// being scanned reads on; where that read reaches the table's end, the
// cursor goes to the table's last partition and the status bar says so.
// On a walk of an ElectroDB table of 64 partitions at 80x24, G left the
// cursor on row 50 of 64 under "all", the status bar still saying "the
// last of 50 partitions scanned so far, not the table's last".
func TestGOnPartitionsEndsWhereTheScanEnds(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for j := range 64 {
		for k := range 2 {
			items = append(items, dynamo.Item{"PK": s(fmt.Sprintf("p#%03d", j)), "SK": s(fmt.Sprintf("x%d", k))})
		}
	}
	if err := demo.CreateKeyTable(context.Background(), db, "SixtyFour", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 80, 24, Config{Client: db, Table: "SixtyFour"})
	h.contains(t, "more: scroll down to scan on")
	h.keys("G")
	h.contains(t, "64 partitions · all", "row 64 of 64")
	h.said(t, "G: the last of 64 partitions, the whole table scanned")
	// A move after G leaves the cursor where the user put it.
	h = newHarness(t, 80, 24, Config{Client: db, Table: "SixtyFour"})
	h.contains(t, "more: scroll down to scan on")
	_, cmd := h.m.Update(keyPress("G"))
	_, up := h.m.Update(keyPress("k"))
	h.run(tea.Batch(cmd, up))
	if strings.Contains(h.screen(), "row 64 of 64") {
		t.Fatalf("the cursor moved after k to the end:\n%s", h.screen())
	}
}

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
		// f filters the whole table from its partitions list too: the
		// reason named only a partition's items and Time mode.
		{"f on the tables", Config{}, nil, "f", "f filter does not apply here: it filters a partition's items (2), Time mode (4) or, from a table's partitions, the whole table"},
		{"2 on the tables", Config{}, nil, "2", "2 items does not apply here: modes switch a partition's list: open one, or esc back to one"},
		// On a revision's timeline and an item, within a partition, it
		// said "modes are a partition's (open one)".
		{"1 on the timeline", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}, []string{"enter"}, "1", "1 tree does not apply here: modes switch a partition's list: open one, or esc back to one"},
		{"tab on the item", Config{Table: "DeviceLogs", PK: "123"}, []string{"enter"}, "tab", "tab next mode does not apply here: modes switch a partition's list: open one, or esc back to one"},
		{"d on the tree", Config{Table: "Locations", PK: "USA"}, nil, "d", "d DynamoDB JSON does not apply here: it shows an item as DynamoDB JSON in the item view"},
		{"m on the versions", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}, nil, "m", "m mark to compare does not apply here"},
		{"/ on the item", Config{Table: "DeviceLogs", PK: "123"}, []string{"enter"}, "/", "/ search does not apply here: this view has no list to search"},
		{"= on the tables", Config{}, nil, "=", "= compare does not apply here: it compares a partition, a prefix (1, 2) or an item with another environment or table"},
		// E and > said nothing where they do not apply (a new user's walk:
		// the tables, an item, a revision's timeline; > on every list of
		// keys), and n on the tables, whose / had found nothing yet.
		{"E on the tables", Config{}, nil, "E", "E entity types does not apply here: it lists the entity types of a table (its partitions) or of a partition (Tree, Items)"},
		{"E on the item", Config{Table: "DeviceLogs", PK: "123"}, []string{"enter"}, "E", "E entity types does not apply here"},
		{"E on the versions", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}, nil, "E", "E entity types does not apply here"},
		{"> on the tables", Config{}, nil, ">", "> follow reference does not apply here: it follows a value of the selected item that names a partition (Items, Time mode, an item)"},
		{"> on the partitions", Config{Table: "Locations"}, nil, ">", "> follow reference does not apply here"},
		{"> on the tree", Config{Table: "Locations", PK: "USA"}, nil, ">", "> follow reference does not apply here"},
		{"n on the tables", Config{}, nil, "n", "n next match does not apply here: no search yet (/ searches the rows first)"},
		// t on a partition's versions said it opens the range bar "from a
		// partition", which Versions is a view of.
		{"t on the versions", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}, nil, "t", "t time range does not apply here: it opens Time mode's range bar from a partition's Tree or Items (1, 2), or in Time mode (4)"},
		// 5 and w said nothing where they do not apply (a new user's
		// walk: a table's entity types, a revision's timeline, a tree).
		{"5 on the entity types", Config{Table: "Shop"}, []string{"E"}, "5", "5 changes does not apply here: it opens the changes of a partition (5), of a table (from its list or its partitions) or of an item"},
		{"5 on the timeline", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}, []string{"enter"}, "5", "5 changes does not apply here"},
		{"w on the tree", Config{Table: "Locations", PK: "USA"}, nil, "w", "w wrap long values does not apply here: it wraps an item's long values in the item view (enter on a row)"},
		{"w on the tables", Config{}, nil, "w", "w wrap long values does not apply here"},
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
		{"prefixes only: Time", Config{Table: "Locations", PK: "USA", Prefix: "NY#"}, nil, "4", "the 5 sort keys sampled here hold no time", 0},
		{"prefixes only: t", Config{Table: "Locations", PK: "USA", Prefix: "NY#"}, nil, "t", "the 5 sort keys sampled here hold no time", 0},
		{"partition top: Time", Config{Table: "Locations", PK: "USA"}, nil, "4", "the 20 sort keys sampled here hold no time", 0},
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
		// The tour's AuditLog stop opens Time: its first page, newest
		// first, ends the keys before v (25.11), as the tree's walk does.
		{"the tour's AuditLog, in Time", Config{Table: "AuditLog", PK: "prod-api", Range: "last 24h"}, nil, "3", "no sort key here begins with v (v0_Audit, v1_Audit…)", 0},
		{"AuditLog, Time then Items", Config{Table: "AuditLog", PK: "prod-api", Range: "last 24h"}, []string{"2"}, "3", "no sort key here begins with v", 0},
		{"AuditLog, in the tree", Config{Table: "AuditLog", PK: "prod-api"}, nil, "3", "no sort key here begins with v (v0_Audit, v1_Audit…)", 0},
		{"versions, in Time", Config{Table: demo.PartVersionsTable, PK: "Part#1"}, []string{"4"}, "3", "", -1},
		// An ElectroDB collection: the whole top level is one child, whose
		// first key is the employee, and the tasks' due times follow. One
		// key is no sample: Time opens and finds them.
		{"a collection's parent first", Config{Client: collectionDB(t), Table: "Assignments", PK: "$taskapp#employee_emp0"}, nil, "4", "", -1},
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
	h.contains(t, "images · 48 items · all · no delimiter", "row 1 of 48") // no delimiter repeats: every key a row
	h.keys("2", "enter")
	h.contains(t, "b64:AP4A · 3 attributes")
	if s := h.screen(); strings.Contains(s, "1 pages") || strings.Contains(s, "1 items") || strings.Contains(s, "1 partitions") {
		t.Fatalf("a plural for one:\n%s", s)
	}
}

// TestTreeDelimiterIsTheTables: a partition holding one key (a country
// with one store) is cut by the table's delimiter, not listed whole as
// "no delimiter": opened alone, by a sample of the table's keys; opened
// after another partition of the table was split, by that delimiter,
// with no read beyond its own.
func TestTreeDelimiterIsTheTables(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for pk, sks := range map[string][]string{"usa": {"STORE#1", "STORE#2", "WAREHOUSE#1"}, "monaco": {"STORE#1"}} {
		for _, sk := range sks {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}})
		}
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Stores", "S", items); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Stores", PK: "monaco"})
			h.contains(t, "monaco · 1 prefix · all · delimiter #", "▸ STORE#")
			h = newHarness(t, size[0], size[1], Config{Client: db, Table: "Stores", PK: "usa"})
			h.contains(t, "usa · 2 prefixes · all · delimiter #", "▸ WAREHOUSE#")
			h.keys("esc") // the table's partitions
			h.contains(t, "monaco")
			queries, scans := h.rec.count("Query"), h.rec.count("Scan")
			h.keys("/")
			for _, r := range "monaco" {
				h.keys(string(r))
			}
			h.keys("enter")
			if !strings.Contains(h.screen(), "monaco · 1 prefix") {
				h.keys("enter") // the go-to lands on the row: enter opens it
			}
			h.contains(t, "monaco · 1 prefix · all · delimiter #", "▸ STORE#")
			if q, s := h.rec.count("Query")-queries, h.rec.count("Scan")-scans; s != 0 || q > 2 {
				t.Fatalf("the level of one key took %d Queries and %d Scans, with the table's delimiter known", q, s)
			}
		})
	}
}

// TestBreadcrumbSaysTheWay: the top line names the way to the page on
// top, and its tab the mode that page is in, whichever way it was
// reached: a statement's results are under its prompt, not the prompt
// (both said Locations › PartiQL); a search of an entity type is under
// the types (it left out the entities step); an item opened from a
// table's search is under the search
// (it showed Locations › USA › … with a lone Items tab, as if from the
// partition's Items); the compare picker names the item it compares (it
// dropped it), under the way to it; a statement that stops parsing as a
// word is typed keeps the table it names (it fell back to Tables ›
// PartiQL); an item opened from the Tree or Time is in that mode (each
// said Items), one from a timeline under its steps; a partition read
// through an index is under the index (Locations › BAYVIEW named a
// partition the table does not have).
func TestBreadcrumbSaysTheWay(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		go_  func(h *harness)
		way  string // the breadcrumb, whole where the line has room
		last string // its last step, at every width
		tab  string // the lone tab beside it ("" none, "*" a partition's tabs)
	}{
		{"item of a table's search", Config{Table: "Locations"}, func(h *harness) {
			h.keys("f")
			h.typeText(`begins_with(SK, "NY#")`)
			h.keys("enter", "enter")
		}, "Locations › search › USA › NY#MAPLEVIEW#62991", "NY#MAPLEVIEW#62991", ""},
		{"compare picker of a search's item", Config{Table: "Locations"}, func(h *harness) {
			h.keys("f")
			h.typeText(`begins_with(SK, "NY#")`)
			h.keys("enter", "enter", "=")
		}, "Locations › search › USA › NY#MAPLEVIEW#62991 › =", "=", ""},
		{"compare picker of an item", Config{Table: "Equipment", PK: demo.DriftedPiece}, func(h *harness) {
			h.keys("2", "enter", "=")
		}, "Equipment › " + demo.DriftedPiece + " › metadata › =", "=", ""},
		{"statement not parsing yet", Config{}, func(h *harness) {
			h.keys(":")
			h.typeText(`* FROM "Locations" WHERE PK = 'USA' AND`)
		}, "Tables › Locations › PartiQL", "PartiQL", ""},
		{"statement's results", Config{Table: "Locations"}, func(h *harness) {
			h.keys(":")
			h.typeText(` PK = 'USA'`)
			h.keys("enter", "enter")
		}, "Tables › Locations › PartiQL › results", "results", ""},
		{"item of a statement's results", Config{Table: "Locations"}, func(h *harness) {
			h.keys(":")
			h.typeText(` PK = 'USA'`)
			h.keys("enter", "enter", "enter")
		}, "Locations › PartiQL › results › USA › AK#CEDARVILLE#11700", "AK#CEDARVILLE#11700", ""},
		{"search of an entity type", Config{Table: "Shop", Now: demoClock}, func(h *harness) {
			h.keys("E", "down", "enter")
		}, "Tables › Shop › entities › search", "search", ""},
		{"search of a table", Config{Table: "Shop", Now: demoClock}, func(h *harness) {
			h.keys("f")
		}, "Tables › Shop › search", "search", ""},
		{"item of the tree", Config{Table: "Documents", PK: "doc-0001"}, func(h *harness) {
			h.keys("enter")
		}, "Documents › doc-0001 › metadata", "metadata", "Tree"},
		{"item of a time range", Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200", Now: demoClock}, func(h *harness) {
			h.keys("enter")
		}, "DeviceLogs › 123 › 1535544000", "1535544000", "Time"},
		{"revision of a timeline", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: demo.DriftedItem}, func(h *harness) {
			h.keys("down", "enter")
		}, "Equipment › " + demo.DriftedPiece + " › versions › " + demo.DriftedItem + " › v3_" + demo.DriftedItem, "v3_" + demo.DriftedItem, "Versions"},
		{"tree of an index's partition", Config{Table: "Locations", Index: "ByCity", PK: "BAYVIEW"}, func(h *harness) {},
			"Locations › index ByCity › BAYVIEW", "BAYVIEW", "*"},
		{"items of an index's partition", Config{Table: "Locations", Index: "ByCity", PK: "BAYVIEW"}, func(h *harness) {
			h.keys("2")
		}, "Locations › index ByCity › BAYVIEW", "BAYVIEW", "*"},
		{"time of an index's partition", Config{Table: "ChatMessages", Index: "ByTime", PK: "seattle-1", Now: demoClock}, func(h *harness) {
			h.keys("4", "esc")
		}, "ChatMessages › index ByTime › seattle-1 › time", "time", "*"},
	} {
		for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", tc.name, size[0], size[1]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], tc.cfg)
				tc.go_(h)
				top := strings.TrimRight(strings.SplitN(h.screen(), "\n", 2)[0], " ")
				if size[0] > 80 && !strings.Contains(top, tc.way) {
					t.Errorf("the top line does not say %q:\n%s", tc.way, h.screen())
				}
				if !strings.Contains(top, tc.last) {
					t.Errorf("the top line lacks its last step %q:\n%s", tc.last, h.screen())
				}
				tabs := h.m.tabs(tabsNamed)
				if got := strings.TrimSpace(ansi.Strip(tabs)); tc.tab != "*" && got != tc.tab {
					t.Errorf("the tab says %q, not %q:\n%s", got, tc.tab, h.screen())
				}
			})
		}
	}
}
