package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/export"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// TestVersionsList: 3 opens the partition's Versions mode; the drifted
// item is flagged, from one Query.
func TestVersionsList(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Equipment", PK: demo.DriftedPiece})
	openVersionsMode(t, h)
	h.contains(t, "Equipment_1 · 2 versioned items · 1 drifted", "Audit#PART-7", "⚠ v0_ differs from v3_: Findings, Status",
		`begins_with(SK, :prefix)   :pk="Equipment_1" :prefix="v"`)
	h.golden(t)
}

// TestVersionsSortByColumn: s and S sort the versioned items by the
// columns shown, as the items list sorts its rows; the title says so, and
// enter opens the history on the cursor's line.
func TestVersionsSortByColumn(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Equipment", PK: demo.DriftedPiece})
	h.keys("3", "s")
	h.contains(t, "sorted by Item ↑")
	h.keys("S")
	h.contains(t, "sorted by Item ↓")
	if first := h.firstRow(); !strings.Contains(first, "Audit#PART-7") {
		t.Fatalf("descending by name, Audit#PART-7 is not first: %q", first)
	}
	h.keys("g", "enter")
	h.contains(t, "Audit#PART-7 · 3 revisions")
}

// openVersionsMode presses 3 and requires the list to take one Query.
func openVersionsMode(t *testing.T, h *harness) {
	t.Helper()
	before := h.rec.count("Query")
	h.keys("3")
	if n := h.rec.count("Query") - before; n != 1 {
		t.Fatalf("versions list took %d Query, want 1", n)
	}
}

// TestVersionsTimelineDiff steps through a drifted item's revisions.
func TestVersionsTimelineDiff(t *testing.T) {
	h := newHarness(t, 100, 40, Config{Table: "Equipment", PK: demo.DriftedPiece})
	h.keys("3", "down", "enter")
	before := h.rec.count("Query") + h.rec.count("GetItem")
	h.contains(t, "Audit#PART-7 · 3 revisions · drifted", "v0 current", "Diff v2 → v3", "~ Status", `"FAIL"`)
	// Under "Δ vs prev" the current copy's count is against the newest
	// revision, and says so.
	if line := lineWith(h.screen(), "v0 current"); !strings.Contains(line, " vs v3") {
		t.Fatalf("the current copy's Δ does not say what it is against: %q", line)
	}
	h.golden(t)
	h.keys("[") // v2 against v1
	h.contains(t, "Diff v1 → v2", "Δ vs prev")
	h.keys("0") // v2 against v0_
	h.contains(t, "Diff v0 → v2", "comparing each revision with the current copy (v0_", "Δ vs v0")
	h.keys("0", "[", "[") // the pinned v0_, against the newest
	h.contains(t, "Diff v3 → v0", `~ Status  "FAIL" → "PASS"`)
	h.keys("[") // nothing before the pinned current copy: it says so
	h.said(t, "[/← prev revision does not apply here: the current copy (v0_) is first; ]/→ steps to the oldest revision")
	h.keys("m", "]", "]", "]") // mark v0_, compare v3 with it
	h.contains(t, "Diff v0 → v3 · against the marked v0", "Δ vs v0", "◆")
	h.keys("]") // the newest: it says so and stays
	h.said(t, "]/→ next revision does not apply here: v3 is the newest revision")
	h.contains(t, "Diff v0 → v3 · against the marked v0")
	h.keys("m") // mark v3 itself: it is not compared with itself
	h.contains(t, "v3 is the marked revision", "marked")
	if n := h.rec.count("Query") + h.rec.count("GetItem") - before; n != 0 {
		t.Fatalf("stepping made %d requests", n)
	}
	h.keys("enter") // the item view of v3, as read
	h.contains(t, "v3_Audit#PART-7", "hydraulic leak")
}

func TestVersionsTimelineWide(t *testing.T) {
	h := newHarness(t, 140, 36, Config{Table: "Equipment", PK: demo.DriftedPiece})
	h.keys("3", "down", "enter")
	h.golden(t)
}

func TestVersionsMissingCurrentAndLong(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Equipment", PK: demo.MissingCurrentPiece})
	h.keys("3")
	h.contains(t, "missing", "⚠ v0_ is missing")
	h.keys("enter", "g")
	h.contains(t, "v0_ missing", "No current copy")

	h = newHarness(t, 100, 30, Config{Table: "Equipment", PK: demo.LongHistoryPiece})
	h.keys("3")
	h.contains(t, "v0000", "v1000", "1,000")
	h.keys("enter")
	h.contains(t, "Audit · 1,000 revisions", "Diff v0999 → v1000")
	h.keys("G")
}

func TestVersionsNone(t *testing.T) {
	// The tree's walk saw every top-level key: none can be a revision.
	h := newHarness(t, 100, 30, Config{Table: "Locations", PK: "FRANCE"})
	before := h.rec.count("Query")
	h.keys("3")
	h.said(t, "No Versions mode here: no sort key here begins with v")
	if n := h.rec.count("Query") - before; n != 0 {
		t.Fatalf("a mode that does not apply read %d pages", n)
	}
	// Asked for by name, the list reads and says it found none.
	h = newHarness(t, 100, 30, Config{Table: "Locations", PK: "FRANCE", Versions: "*"})
	h.contains(t, "No Versions mode here")
	h.keys("esc")
	h.contains(t, "Tree")
	// A number sort key is the version itself, unless its numbers are times.
	h = newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "123"})
	before = h.rec.count("Query")
	h.keys("3")
	h.said(t, "No Versions mode here: the numbers in this sort key (1310216400…) are no run of versions 0, 1, 2…")
	if n := h.rec.count("Query") - before; n != 0 {
		t.Fatalf("a mode that does not apply read %d pages", n)
	}
}

// TestDeepLinks: --versions and --range open the view they name.
func TestDeepLinks(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"})
	h.contains(t, "2 versioned items · 1 drifted")
	h = newHarness(t, 100, 30, Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: demo.DriftedItem})
	h.contains(t, "Audit#PART-7 · 3 revisions · drifted", "Diff v2 → v3")
	h.keys("esc")
	h.contains(t, "2 versioned items")
	h.keys("esc")
	h.contains(t, "Tree") // the partition waited beneath
	h = newHarness(t, 100, 30, Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "Nope"})
	h.said(t, `no versioned item "Nope"`)
	h.contains(t, "2 versioned items")
	h = newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200", Now: demoClock})
	h.contains(t, "2 items loaded", "Timestamp < :sk   :pk=123 :sk=1536019200", "time › < 1536019200")
	h = newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200", Now: demoClock,
		Tables: map[string]config.TableSettings{"DeviceLogs": {TimeFormat: "epoch-s"}}})
	h.contains(t, "2 items loaded")
}

// TestHelpShowsTheCommandLine: ? shows the command that reopens the view,
// and that command opens it (each deep link checked in TestDeepLinks).
func TestHelpShowsTheCommandLine(t *testing.T) {
	h := newHarness(t, 160, 40, Config{Table: "Locations", PK: "USA", Prefix: "NY#"})
	h.keys("?")
	h.contains(t, "this view: dynascope --demo --table Locations --pk USA --prefix 'NY#' --delimiter '#'")
	// The level names (the tour opens Locations with them) are in it: it
	// left them out, and the command opened "Segment" where "STATE" was.
	h = newHarness(t, 160, 40, Config{Table: "Locations", PK: "USA", Prefix: "NY#", Levels: "STATE#CITY#ZIP"})
	h.contains(t, "STATE NY", "CITY ")
	h.keys("?")
	h.contains(t, "this view: dynascope --demo --table Locations --pk USA --prefix 'NY#' --delimiter '#' --levels 'STATE#CITY#ZIP'")
	h = newHarness(t, 160, 40, Config{Table: "Locations", PK: "USA", Versions: "*"})
	h.keys("?")
	h.contains(t, "this view: dynascope --demo --table Locations --pk USA --versions")
	h = newHarness(t, 160, 40, Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: demo.DriftedItem, Region: "eu-west-1", Connection: "x",
		Reopen: export.Connection{Region: "eu-west-1"}})
	h.keys("?")
	h.contains(t, "this view: dynascope --region eu-west-1 --table Equipment --pk Equipment_1 --versions 'Audit#PART-7'")
	h = newHarness(t, 160, 40, Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200", Now: demoClock})
	h.keys("?")
	h.contains(t, "this view: dynascope --demo --table DeviceLogs --pk 123 --range '< 1536019200'")
}

// TestMouse: the wheel scrolls any list; a click selects a row, a second
// click opens it, in every list (tables, tree, items, versions, timeline,
// time).
func TestMouse(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Now: demoClock})
	click := func(y int) { h.screen(); h.send(tea.MouseClickMsg{X: 10, Y: y, Button: tea.MouseLeft}) } // the real program draws before each event
	wheel := func(b tea.MouseButton) { h.send(tea.MouseWheelMsg{X: 10, Y: 10, Button: b}) }
	// Tables: the header is line 0, the frame border 1, the grid header 2,
	// so the first table is on line 3.
	click(3 + 5) // Equipment
	h.contains(t, "Table")
	click(3 + 5)
	h.contains(t, "Equipment · ") // its partitions
	h.keys("/")
	h.typeText(demo.DriftedPiece)
	h.keys("enter")
	h.contains(t, "Tree")
	before := h.m.render() // raw: the selection is in the styling
	wheel(tea.MouseWheelDown)
	if h.m.render() == before {
		t.Fatal("the wheel did not move the tree")
	}
	wheel(tea.MouseWheelUp)
	if h.m.render() != before {
		t.Fatal("the wheel did not move the tree")
	}
	click(3 + 1) // v0_
	click(3 + 1)
	h.contains(t, "Equipment_1 › v0", "v0_ · 2 items")
	h.keys("esc", "3")
	click(3 + 1) // Audit#PART-7
	click(3 + 1)
	h.contains(t, "Audit#PART-7 · 3 revisions")
	click(3) // the pinned v0_
	h.contains(t, "Diff v3 → v0")
	h.keys("esc", "esc", "esc", "esc", "esc")
	h = newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "123", Now: demoClock})
	h.keys("t", "esc") // the bar closes; the list takes clicks
	h.contains(t, "3 items loaded")
	// frame 1, bar 2, note 3, blank 4, sparkline 5, grid header 6: rows from 7.
	click(7 + 2)
	click(7 + 2)
	h.contains(t, "evt-123-000000", "attributes")
}

// TestReboundKeys: keys from the configuration drive the explorer and its
// help.
func TestReboundKeys(t *testing.T) {
	keys := keymap.Default()
	if err := keys.Apply(map[string][]string{"versions": {"v"}, "down": {"ctrl+n", "down"}}); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 30, Config{Table: "Equipment", PK: demo.DriftedPiece, Keys: keys})
	h.contains(t, "v Versions", "ctrl+n down") // the tab names the rebound key
	h.keys("v")
	h.contains(t, "2 versioned items")
	h.keys("3") // the old key no longer does it
	h.contains(t, "2 versioned items")
}

// TestConfiguredShards: a logical partition named in the configuration
// opens all its shards, from --pk and from /.
func TestConfiguredShards(t *testing.T) {
	tables := map[string]config.TableSettings{"ChatMessages": {Shards: map[string]string{"seattle": "seattle-{1..4}"}}}
	h := newHarness(t, 120, 30, Config{Table: "ChatMessages", PK: "seattle", Tables: tables})
	h.contains(t, "4 shards of seattle-{1..4}")
	h = newHarness(t, 120, 30, Config{Table: "ChatMessages", Tables: tables})
	h.keys("/")
	h.typeText("seattle")
	h.keys("enter")
	h.contains(t, "4 shards of seattle-{1..4}")
}

// TestVersionsConfiguredPattern: a table's version_pattern from the
// configuration drives Versions mode: one begins_with(SK, "rev#") Query,
// drift in the table's spelling, the timeline from what was read, and ?
// gives a command that reopens it without the configuration.
func TestVersionsConfiguredPattern(t *testing.T) {
	tables := map[string]config.TableSettings{demo.PolicyTable: {VersionPattern: demo.PolicyPattern}}
	h := newHarness(t, 100, 30, Config{Table: demo.PolicyTable, PK: demo.PolicyDrifted, Tables: tables})
	openVersionsMode(t, h)
	h.contains(t, "POL-1001 · 2 versioned items · 1 drifted", "⚠ rev#0 differs from rev#2: Limit", "rev#3",
		`begins_with(SK, :prefix)   :pk="POL-1001" :prefix="rev#"`)
	h.golden(t)
	h.keys("enter")
	h.contains(t, "Coverage · 2 revisions · drifted", "rev#0 current", "Diff rev#1 → rev#2", "~ Limit")
	h.contains(t, "0 compare with rev#0") // the help in the table's spelling, no v0_
	if strings.Contains(h.screen(), "v0_") {
		t.Fatal("v0_ shown on a rev# table")
	}
	h.keys("0")
	h.contains(t, "comparing each revision with the current copy (rev#0", "Δ vs v0")
	if got := h.m.commandLine(); got != "dynascope --demo --table Policies --pk POL-1001 --version-pattern 'rev#{n}#{name}' --versions Coverage" {
		t.Errorf("? shows %q", got)
	}

	// Without the pattern the same partition has no versions.
	h = newHarness(t, 100, 30, Config{Table: demo.PolicyTable, PK: demo.PolicyDrifted})
	h.keys("3")
	h.said(t, "No Versions mode here: no sort key here begins with v")
}

// TestVersionsPatternWithoutName: a pattern with no {name} makes one
// history per partition, named by its form.
func TestVersionsPatternWithoutName(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for _, sk := range []string{"doc|0", "doc|1", "doc|2", "meta"} {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: sk}})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Docs", "S", items); err != nil {
		t.Fatal(err)
	}
	tables := map[string]config.TableSettings{"Docs": {VersionPattern: "doc|{n}"}}
	h := newHarness(t, 100, 30, Config{Client: db, Table: "Docs", PK: "P", Versions: "*", Tables: tables})
	h.contains(t, "P · 1 versioned item", "(doc|{n})  doc|0", `:prefix="doc|"`)
	h.keys("enter")
	h.contains(t, "(doc|{n}) · 2 revisions", "doc|0 current")
}

// TestVersionsNumberSortKey: a number sort key is the version itself in
// the explorer too: storage-service's every version kept (0 the first),
// and a 0 kept as the current copy, drifted; the timeline opens.
func TestVersionsNumberSortKey(t *testing.T) {
	db := memory.New()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v int) types.AttributeValue { return &types.AttributeValueMemberN{Value: fmt.Sprint(v)} }
	items := []dynamo.Item{
		{"PK": s("digitised/b1"), "SK": n(0), "payload": s("a")}, {"PK": s("digitised/b1"), "SK": n(1), "payload": s("b")},
		{"PK": s("Equipment#1"), "SK": n(0), "State": s("STALE"), "Latest": n(2)},
		{"PK": s("Equipment#1"), "SK": n(1), "State": s("S1")}, {"PK": s("Equipment#1"), "SK": n(2), "State": s("S2")},
	}
	if err := demo.CreateKeyTable(context.Background(), db, "NumberVersions", "N", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 30, Config{Client: db, Table: "NumberVersions", PK: "Equipment#1", Versions: "*"})
	h.contains(t, "Equipment#1 · 1 versioned item · 1 drifted", "⚠ 0 differs from 2: State")
	h.keys("enter")
	h.contains(t, "2 revisions · drifted", "0 current")
	h = newHarness(t, 120, 30, Config{Client: db, Table: "NumberVersions", PK: "digitised/b1", Versions: "*"})
	h.contains(t, "digitised/b1 · 1 versioned item", "✓")
	h.keys("enter")
	h.contains(t, "2 revisions", "★   newest is current")
	if strings.Contains(h.screen(), "missing") {
		t.Errorf("every version kept, and a current copy said missing:\n%s", h.screen())
	}
	h.keys("g")
	h.contains(t, "No current copy kept apart", "the newest, 1, is the item as it is")
}

// TestVersionsBareWithPointer: AWS's v0…vN are a versioned item in the
// explorer too; the Latest pointer is not drift, the lagging copy is, and
// the timeline opens.
func TestVersionsBareWithPointer(t *testing.T) {
	h := newHarness(t, 120, 30, Config{Table: demo.PartVersionsTable, PK: demo.LaggingPart})
	openVersionsMode(t, h)
	h.contains(t, "Part#3 · 1 versioned item · 1 drifted", "(vN)", "⚠ v0 says Latest=2 but v2 does not exist")
	h.keys("enter")
	h.contains(t, "1 revision · drifted", "v0 current")
	h = newHarness(t, 120, 30, Config{Table: demo.PartVersionsTable, PK: "Part#1"})
	openVersionsMode(t, h)
	h.contains(t, "Part#1 · 1 versioned item", "(vN)", "✓")
	if strings.Contains(h.screen(), "drifted") {
		t.Errorf("a healthy Latest is drift:\n%s", h.screen())
	}
}

// TestVersionsZeroWhileMarked: 0 compares with the current copy whatever
// is marked (it did nothing while a revision was marked), and m on the
// marked row unmarks, said in the help and in a message.
func TestVersionsZeroWhileMarked(t *testing.T) {
	h := newHarness(t, 130, 40, Config{Table: "Equipment", PK: demo.DriftedPiece})
	h.keys("3", "down", "enter", "[") // v2
	h.keys("m")                       // mark v2
	h.said(t, "comparing each revision with the marked v2 · m on it unmarks, 0 compares with the current copy")
	h.contains(t, "m unmark", "Δ vs v2")
	h.keys("]") // v3 against the marked v2
	h.contains(t, "Diff v2 → v3 · against the marked v2", "m mark to compare")
	h.keys("0")
	h.contains(t, "Diff v0 → v3 · against the current copy", "Δ vs v0")
	h.said(t, "comparing each revision with the current copy (v0_")
	if strings.Contains(h.screen(), "◆") {
		t.Fatalf("still marked after 0:\n%s", h.screen())
	}
	h.keys("m", "m") // mark v3, then unmark it on its row
	h.said(t, "unmarked: comparing each revision with the current copy")
	h.contains(t, "Δ vs v0")
}

// TestVersionsLongDriftHasRoom: at 200 columns a drift naming many
// attributes is shown whole; the preview beside it gives up the room.
func TestVersionsLongDriftHasRoom(t *testing.T) {
	db := memory.New()
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Audits"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}}}); err != nil {
		t.Fatal(err)
	}
	names := []string{"Brakes", "Findings", "Firmware", "Inspector", "Notes", "Score", "Status", "Wiring"} // as the drift sorts them
	for _, sk := range []string{"v0_Audit", "v1_Audit", "v2_Audit"} {
		it := dynamo.Item{"PK": s("machine-1"), "SK": s(sk)}
		for _, n := range names {
			v := "old"
			if sk == "v2_Audit" {
				v = "new"
			}
			it[n] = s(v)
		}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Audits"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarness(t, 200, 50, Config{Table: "Audits", PK: "machine-1", Versions: "*", Client: db, Now: demoClock})
	want := "v0_ differs from v2_: " + strings.Join(names, ", ")
	want = strings.Join(strings.Fields(want), " ")
	h.contains(t, want, "Current copy")
}

// TestVersionsLabelsWhole: a revision numbered by Unix time is shown
// whole in the Latest column at every size: it was cut to "v17000000…",
// which reads as another number (Workbench RELEASES: v1700000000).
func TestVersionsLabelsWhole(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Table: "Workbench", PK: "RELEASES", Versions: "*", Now: demoClock})
			h.contains(t, "RELEASES · 1 versioned item", "v0            v1700000000      3  ✓")
		})
	}
}

// TestVersionsProbedOnce: where nothing read tells whether revision keys
// exist (a filtered list), 3 sends one Limit-1 keys-only begins_with read;
// none found, it refuses with the reason the tree would give and the tab
// is dimmed from then on, 3 again reading nothing; one found, Versions
// opens (25.11).
func TestVersionsProbedOnce(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "AuditLog", PK: "prod-api", Filter: mustFilter(t, `Action = "deploy"`)})
	versions := func() string {
		t.Helper()
		return h.m.top().(common.Moded).Modes()[2].Off
	}
	if off := versions(); off != "" {
		t.Fatalf("a filtered list already decided Versions: %q", off)
	}
	before := h.rec.count("Query")
	h.keys("3")
	if n := h.rec.count("Query") - before; n != 1 {
		t.Fatalf("3 sent %d Query requests, want one probe", n)
	}
	h.said(t, "No Versions mode here: no sort key here begins with v (v0_Audit, v1_Audit…)")
	if off := versions(); !strings.Contains(off, "no sort key here begins with v") {
		t.Fatalf("the tab stays undecided after the probe: %q", off)
	}
	before = h.rec.count("Query")
	h.keys("3")
	if n := h.rec.count("Query") - before; n != 0 {
		t.Fatalf("3 on the dimmed tab sent %d Query requests", n)
	}

	// tab stepping onto an undecided Versions probes it, and goes on to
	// the next mode when it does not apply.
	h = newHarness(t, 120, 35, Config{Table: "AuditLog", PK: "prod-api", Filter: mustFilter(t, `Action = "deploy"`)})
	h.keys("tab")
	if got := h.m.top().Mode(); got != "Time" {
		t.Fatalf("tab from a filtered list past Versions opened %s\n%s", got, h.screen())
	}

	h = newHarness(t, 120, 35, Config{Table: demo.PartVersionsTable, PK: "Part#1", Filter: mustFilter(t, `attribute_exists(SK)`)})
	h.keys("3")
	if got := h.m.top().Mode(); got != "Versions" {
		t.Fatalf("a partition with revision keys: 3 opened %s\n%s", got, h.screen())
	}
}

// indexVersionsDB is bare versions (ID / Version) of three parts of one
// team, with GSIs keyed Team / Version: ByTeam holds everything,
// ByTeamKeys keys + State.
func indexVersionsDB(t *testing.T) *memory.DB {
	t.Helper()
	ctx := context.Background()
	db := memory.New()
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	ks := func(pk, sk string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(sk), KeyType: types.KeyTypeRange}}
	}
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("IndexVersions"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{def("ID"), def("Version"), def("Team")},
		KeySchema:            ks("ID", "Version"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("ByTeam"), KeySchema: ks("Team", "Version"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("ByTeamKeys"), KeySchema: ks("Team", "Version"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"State"}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, k := range [][3]string{{"Part#1", "v0", "B"}, {"Part#1", "v1", "A"}, {"Part#1", "v2", "B"}, {"Part#2", "v0", "X"}, {"Part#2", "v1", "Y"}} {
		it := map[string]types.AttributeValue{"ID": s(k[0]), "Version": s(k[1]), "Team": s("t1"), "State": s(k[2]), "Owner": s("ops")}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("IndexVersions"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestVersionsOnIndex: 3 on an index's partition lists its versioned
// items by the base table's key (two parts share the index's v0, v1); an
// index holding keys + State says drift is not judged, and enter on a
// revision reads it whole from the table.
func TestVersionsOnIndex(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Client: indexVersionsDB(t), Table: "IndexVersions", Index: "ByTeamKeys", PK: "t1"})
	openVersionsMode(t, h)
	h.contains(t, "index ByTeamKeys · t1 · 2 versioned items", "ID", "Part#1", "Part#2",
		"index ByTeamKeys holds keys + State: drift not judged", "Query IndexVersions index ByTeamKeys: Team = :pk")
	h.golden(t)
	if got := h.m.commandLine(); got != "dynascope --demo --table IndexVersions --pk t1 --index ByTeamKeys --versions" {
		t.Errorf("? shows %q", got)
	}
	h.keys("down", "enter") // Part#2's timeline, from what was read
	h.contains(t, "ID Part#2 · (vN) · 1 revision", "ID Part#2 from index ByTeamKeys's versions", "v1")
	if got := h.m.commandLine(); got != "dynascope --demo --table IndexVersions --pk t1 --index ByTeamKeys --versions" {
		t.Errorf("the timeline's ? shows %q: a name is not one history on an index", got)
	}
	gets := h.rec.count("GetItem")
	h.keys("enter") // v1, whole from the table
	if n := h.rec.count("GetItem") - gets; n != 1 {
		t.Fatalf("opening a revision of a KEYS+ index sent %d GetItem, want 1", n)
	}
	h.contains(t, `"Owner": "ops"`, `GetItem IndexVersions  Key: ID="Part#2" Version="v1"`)
	h.keys("esc", "esc", "esc") // the item, the timeline, the versions: the index's partition
	h.contains(t, "index ByTeamKeys")

	h = newHarness(t, 100, 30, Config{Client: indexVersionsDB(t), Table: "IndexVersions", Index: "ByTeam", PK: "t1"})
	openVersionsMode(t, h)
	h.contains(t, "index ByTeam · t1 · 2 versioned items · 1 drifted", "v0 differs from v1: State")
	h.keys("down", "enter", "enter") // an index holding everything: no GetItem
	if n := h.rec.count("GetItem"); n != 0 {
		t.Fatalf("opening a revision of an ALL index sent %d GetItem", n)
	}
	h.contains(t, `"Owner": "ops"`)
}

// TestVersionsOnIndexFits: the index's versions list and a timeline fit
// 80×24, 120×35 and 200×50, with the projection's note on screen.
func TestVersionsOnIndexFits(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Client: indexVersionsDB(t), Table: "IndexVersions", Index: "ByTeamKeys", PK: "t1"})
		for _, keys := range [][]string{{"3"}, {"down", "enter"}} {
			h.keys(keys...)
			h.contains(t, "Part#")
			lines := strings.Split(h.screen(), "\n")
			if len(lines) != size[1] {
				t.Errorf("%v at %dx%d: %d lines", keys, size[0], size[1], len(lines))
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%v at %dx%d: a line of %d cells: %q", keys, size[0], size[1], w, l)
				}
			}
		}
	}
}

// TestVersionsOnIndexDeepLink: --index with --versions opens the index's
// versions, as its ? line prints them.
func TestVersionsOnIndexDeepLink(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Client: indexVersionsDB(t), Table: "IndexVersions", Index: "ByTeamKeys", PK: "t1", Versions: "*"})
	h.contains(t, "index ByTeamKeys · t1 · 2 versioned items", "Part#2")
	h.keys("esc") // the index's partition beneath
	h.contains(t, "index ByTeamKeys")
}

// TestTimelineShowsEveryRevisionThatFits: a short history is never
// scrolled, whatever row the cursor opens on; at 80×24 the four rows of
// the drifted item (v0, v1, v2, v3) are all shown.
func TestTimelineShowsEveryRevisionThatFits(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 35}} {
		h := newHarness(t, sz[0], sz[1], Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: demo.DriftedItem, Now: demoClock})
		h.contains(t, "v0 current", "v1_Audit#PART-7", "v2_Audit#PART-7", "v3_Audit#PART-7")
	}
}

// TestTimelineDiffSaysWhatItLeavesOut: at 80×24 the diff pane under
// the revisions holds fewer lines than Equipment_69's Audit v2 → v3 (9
// changes, then v3's item): its last line says how many it leaves out.
// The frame cut them silently: "9 changed" stood over eight changes.
func TestTimelineDiffSaysWhatItLeavesOut(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Table: "Equipment", PK: "Equipment_69", Versions: "Audit", Now: demoClock})
	h.keys("up") // v3, against v2
	h.contains(t, "Diff v2 → v3", "9 changed · 0 added · 0 removed", "more lines, not shown at this height")
	h = newHarness(t, 200, 50, Config{Table: "Equipment", PK: "Equipment_69", Versions: "Audit", Now: demoClock})
	h.keys("up")
	if scr := h.screen(); strings.Contains(scr, "not shown at this height") || !strings.Contains(scr, `~ Status  "PASS" → "PENDING"`) {
		t.Fatalf("a pane with room for the whole diff:\n%s", scr)
	}
}

// TestTimelineNamesTheCurrentCopyAsSpelled: on a zero-padded history
// (v0000_Audit beside v0001_Audit) 0's help and the diff's title name
// v0000_, the key as the table holds it, not v0_.
func TestTimelineNamesTheCurrentCopyAsSpelled(t *testing.T) {
	h := newHarness(t, 200, 50, Config{Table: "Equipment", PK: demo.LongHistoryPiece, Versions: "*", Now: demoClock})
	h.keys("enter")
	h.contains(t, "0 compare with v0000_")
	h.keys("down", "0")
	h.contains(t, "the current copy (v0000_)")
}

// TestVersionsSpeltByTheGrammar: revisions spelt v00001.profile open in
// Versions with nothing configured: the key grammar reads their spelling,
// and the command that reopens the view names it.
func TestVersionsSpeltByTheGrammar(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for i, name := range []string{"Ada L", "Ada L.", "Ada"} {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "historical.u1"},
			"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("v%05d.profile", i+1)}, "name": &types.AttributeValueMemberS{Value: name}})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "HistoricalProfiles", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 100, 30, Config{Client: db, Table: "HistoricalProfiles", PK: "historical.u1"})
	h.keys("3")
	h.contains(t, "historical.u1 · 1 versioned item", "profile")
	h.keys("enter")
	h.contains(t, "profile · 3 revisions", "v00003")
	if got := h.m.commandLine(); !strings.Contains(got, "--version-pattern 'v{n}.{name}' --versions profile") {
		t.Errorf("? shows %q", got)
	}
}

// lineWith is the first line of screen holding s ("" when none does).
func lineWith(screen, s string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// TestVersionsCurrentWord: an item whose current copy is kept under a
// word (DOC#d1#LATEST beside DOC#d1#v1…v7, no v0) lists that key as its
// current copy, at 80 and 120 columns: no "missing"; its timeline pins
// it as current and 0 compares with it by that key.
func TestVersionsCurrentWord(t *testing.T) {
	db := memory.New()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for _, kv := range [][2]string{{"DOC#d1#v1", "a"}, {"DOC#d1#v3", "b"}, {"DOC#d1#v7", "c"}, {"DOC#d1#LATEST", "c"},
		{"DOC#d2#v1", "a"}, {"DOC#d2#v2", "b"}, {"DOC#d2#current", "a"}, {"DOC#news#LATEST", "n"}} {
		items = append(items, dynamo.Item{"PK": s("tenant#1"), "SK": s(kv[0]), "title": s(kv[1])})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Docs", "S", items); err != nil {
		t.Fatal(err)
	}
	tables := map[string]config.TableSettings{"Docs": {VersionPattern: "DOC#{name}#v{n}"}}
	for _, size := range [][2]int{{80, 24}, {120, 35}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Docs", PK: "tenant#1", Versions: "*", Tables: tables, Now: demoClock})
			h.contains(t, "tenant#1 · 2 versioned items · 2 drifted", "DOC#d1#LATEST", "DOC#d2#current")
			if strings.Contains(h.screen(), "missing") || strings.Contains(h.screen(), "news") {
				t.Fatalf("a word's copy is not current:\n%s", h.screen())
			}
			h.keys("enter")
			h.contains(t, "d1 · 3 revisions", "DOC#d1#LATEST current", "0 compare with DOC#d1#LATEST")
		})
	}
}

// TestVersionsCurrentWordLeading: an item whose current copy's word leads
// its key (LATEST_Audit beside v1_Audit, v2_Audit; LATEST#DOC#d1 beside
// v1#DOC#d1 under the pattern v{n}#{name}) lists that key as its current
// copy, read apart, at 80 and 120 columns: it said "v0_ missing"; its
// timeline pins it as current.
func TestVersionsCurrentWordLeading(t *testing.T) {
	db := memory.New()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for _, kv := range [][3]string{{"P", "v1_Audit", "a"}, {"P", "v2_Audit", "b"}, {"P", "LATEST_Audit", "b"},
		{"Q", "v1#DOC#d1", "a"}, {"Q", "v2#DOC#d1", "b"}, {"Q", "LATEST#DOC#d1", "b"}} {
		items = append(items, dynamo.Item{"PK": s(kv[0]), "SK": s(kv[1]), "title": s(kv[2])})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Lead", "S", items); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {120, 35}} {
		for _, tc := range []struct{ pk, pattern, current, item string }{
			{"P", "", "LATEST_Audit", "Audit · 2 revisions"},
			{"Q", "v{n}#{name}", "LATEST#DOC#d1", "DOC#d1 · 2 revisions"},
		} {
			t.Run(fmt.Sprintf("%s/%dx%d", tc.pk, size[0], size[1]), func(t *testing.T) {
				tables := map[string]config.TableSettings{"Lead": {VersionPattern: tc.pattern}}
				h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Lead", PK: tc.pk, Versions: "*", Tables: tables, Now: demoClock})
				h.contains(t, tc.pk+" · 1 versioned item", tc.current, "LATEST… or CURRENT… (upper, lower and title case) · 7 req")
				if strings.Contains(h.screen(), "missing") {
					t.Fatalf("the leading word's copy is not current:\n%s", h.screen())
				}
				h.keys("enter")
				h.contains(t, tc.item, tc.current+" current")
			})
		}
	}
}

// TestVersionsFindsNameFirstFamily: a partition whose revisions are spelt
// with the name first (DOC#d1#v1, DOC#d1#v2, DOC#d2#v1, DOC#d2#v2) and no
// version_pattern: the Versions mode is not dimmed where its items were
// all loaded, and lists the family it finds, saying how on the request
// line ("No Versions mode here" before). An order's items stay no
// versions.
func TestVersionsFindsNameFirstFamily(t *testing.T) {
	db := memory.New()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for _, kv := range [][2]string{{"docs", "DOC#d1#v0"}, {"docs", "DOC#d1#v1"}, {"docs", "DOC#d1#v2"}, {"docs", "DOC#d2#v1"}, {"docs", "DOC#d2#v2"}, {"docs", "META"},
		{"orders", "ORDER#o1#ITEM#1"}, {"orders", "ORDER#o1#ITEM#2"}, {"orders", "ORDER#o2#ITEM#1"}, {"orders", "ORDER#o2#ITEM#2"}} {
		items = append(items, dynamo.Item{"PK": s(kv[0]), "SK": s(kv[1]), "title": s("x")})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Family", "S", items); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {120, 35}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Family", PK: "docs", Now: demoClock})
			h.keys("2")
			h.loadAll()
			if off := h.m.top().(common.Moded).Modes()[2].Off; off != "" {
				t.Fatalf("Versions dimmed over DOC#d1#v1…: %q", off)
			}
			h.keys("3")
			h.contains(t, "docs · 2 versioned items", "DOC#d2  missing", "spelt {name}#v{n}: read by it")
			h = newHarness(t, size[0], size[1], Config{Client: db, Table: "Family", PK: "orders", Now: demoClock})
			h.keys("2")
			h.loadAll()
			if off := h.m.top().(common.Moded).Modes()[2].Off; !strings.Contains(off, "no sort key here begins with v") {
				t.Fatalf("Versions not dimmed over an order's items: %q", off)
			}
		})
	}
}

// TestVersionsLongCurrentKey: a current copy kept under a long word key
// (DOC#quarterly-report-2026-emea-finance#LATEST, 44 cells) is cut in its
// middle where the Current column (at most 32 cells) cannot hold it, so
// the word that says it is the current copy stays: it was cut at its
// end, "DOC#quarterly-report-2026-emea-…", at every size.
func TestVersionsLongCurrentKey(t *testing.T) {
	db := memory.New()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	const name = "DOC#quarterly-report-2026-emea-finance"
	var items []dynamo.Item
	for _, sk := range []string{name + "#v1", name + "#v2", name + "#LATEST"} {
		items = append(items, dynamo.Item{"PK": s("tenant#1"), "SK": s(sk), "title": s("x")})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Docs", "S", items); err != nil {
		t.Fatal(err)
	}
	tables := map[string]config.TableSettings{"Docs": {VersionPattern: "{name}#v{n}"}}
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Docs", PK: "tenant#1", Versions: "*", Tables: tables, Now: demoClock})
		h.contains(t, "tenant#1 · 1 versioned item")
		row := lineWith(h.screen(), "quarterly")
		if !strings.Contains(row, name+"#LATEST") && !strings.Contains(row, "…") || !strings.Contains(row, "#LATEST") {
			t.Errorf("%v: the current key is cut without a mark, or loses its word:\n%s", size, h.screen())
		}
	}
}
