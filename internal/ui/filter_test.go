package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// page7Table is a partition of 1,000 items of about 10 KB (about 100 to a
// 1 MB page) in which only the items of the seventh page match
// Status = "FAIL": a filtered read comes back empty six times first.
type page7Table struct {
	client  dynamo.Client
	matches []string // the SKs of page 7, in order
	scanned int      // the items of pages 1 to 7
}

const page7Filter = `Status = "FAIL"`

// seedable is a backend the test can write to: memory or dynalite.
type seedable interface {
	dynamo.Client
	dynamo.Writer
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, o ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
}

func seedPage7(t *testing.T, w seedable) page7Table {
	ctx := context.Background()
	var items []dynamo.Item
	pad := strings.Repeat("x", 10_000)
	for i := range 1000 {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("item#%04d", i)},
			"Status": &types.AttributeValueMemberS{Value: "PASS"}, "Pad": &types.AttributeValueMemberS{Value: pad}})
	}
	if err := demo.CreateKeyTable(ctx, w, "Page7", types.ScalarAttributeTypeS, items); err != nil {
		t.Fatal(err)
	}
	// Find page 7 as DynamoDB pages the partition, then mark its items
	// (FAIL is as long as PASS: the pages stay where they were).
	q := domain.KeyQuery{Table: "Page7", PKName: "PK", PK: domain.S("P"), SKName: "SK"}
	var start dynamo.Item
	var tbl page7Table
	for page := 1; ; page++ {
		p, err := dynamo.QueryPage(ctx, w, dynamo.PageRequest{Query: q, Start: start})
		if err != nil {
			t.Fatal(err)
		}
		tbl.scanned += len(p.Items)
		if page == 7 {
			for _, it := range p.Items {
				it["Status"] = &types.AttributeValueMemberS{Value: "FAIL"}
				if _, err := w.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Page7"), Item: it}); err != nil {
					t.Fatal(err)
				}
				tbl.matches = append(tbl.matches, it["SK"].(*types.AttributeValueMemberS).Value)
			}
			break
		}
		if !p.More() {
			t.Fatalf("the partition has only %d pages", page)
		}
		start = p.LastKey
	}
	if len(tbl.matches) < 60 {
		t.Fatalf("page 7 holds %d items; the test wants two screens of them", len(tbl.matches))
	}
	tbl.client = w
	return tbl
}

func page7Backends(t *testing.T) map[string]page7Table {
	return map[string]page7Table{
		"memory":   seedPage7(t, memory.New()),
		"dynalite": seedPage7(t, dynalitetest.Start(t).Client()),
	}
}

// TestFilterFillsFromPage7: the only matches sit on page 7, and the view
// still fills: the page reads on by itself through six empty pages, and
// says how many items it scanned to find what it shows.
func TestFilterFillsFromPage7(t *testing.T) {
	for name, tbl := range page7Backends(t) {
		t.Run(name, func(t *testing.T) {
			f, _ := domain.ParseFilter(page7Filter)
			h := newHarness(t, 100, 30, Config{Client: tbl.client, Table: "Page7", PK: "P", Filter: f})
			scr := h.screen()
			visible := 0
			for i, sk := range tbl.matches {
				if strings.Contains(scr, sk) {
					visible++
				} else if i < 20 {
					t.Errorf("match %s is not on the screen", sk)
				}
			}
			if visible < 20 {
				t.Fatalf("only %d matches on the screen:\n%s", visible, scr)
			}
			if strings.Contains(scr, "PASS") {
				t.Errorf("a non-matching item is listed:\n%s", scr)
			}
			// page 7 holds two screens and more: no eighth read yet
			if q := h.rec.count("Query"); q != 7 {
				t.Errorf("%d Query requests, want 7", q)
			}
			// Its reads are sized by the rate they match (a first of 100
			// items, then whole pages while nothing matched): what it
			// scanned past the six empty pages all matched.
			m := regexp.MustCompile(`(\d+) matched of ([\d,]+) scanned`).FindStringSubmatch(scr)
			if m == nil {
				t.Fatalf("the title says no matched of scanned:\n%s", scr)
			}
			matched, _ := strconv.Atoi(m[1])
			scanned, _ := strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
			if empty := tbl.scanned - len(tbl.matches); matched < 2*20 || scanned > tbl.scanned || matched != scanned-empty {
				t.Errorf("%d matched of %d scanned: past the %d items of the empty pages every item matches", matched, scanned, empty)
			}
			h.contains(t, "RCU", "filter › "+page7Filter,
				`filter Status = "FAIL"`) // the request line
		})
	}
}

// TestFilterFirstScreenReadsWhatItShows: a partition's filter that
// matches most of its items fills the screen from about a hundred of
// them, not a 1 MB page (2,000 items of 1 KB: 126.5 RCU for one screen),
// on dynalite and the embedded backend; read on to its end it lists every
// match once.
func TestFilterFirstScreenReadsWhatItShows(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	items := make([]dynamo.Item, 2000)
	want := 0
	for i := range items {
		status := "PASS"
		if i%5 == 0 {
			status = "FAIL"
		} else {
			want++
		}
		items[i] = dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("job#%04d", i)), "Status": s(status), "Pad": s(strings.Repeat("p", 1000))}
	}
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		if err := demo.CreateKeyTable(context.Background(), db, "Dense", types.ScalarAttributeTypeS, items); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			f, _ := domain.ParseFilter(`Status = "PASS"`)
			h := newHarness(t, 80, 24, Config{Client: db, Table: "Dense", PK: "P", Filter: f})
			spent, _ := h.m.cfg.Session.Billed()
			h.contains(t, "job#0001", "matched of")
			if spent > 15 {
				t.Fatalf("the first screen of a filter matching 80%% of 1 KB items cost %.1f RCU:\n%s", spent, h.screen())
			}
			for range 300 {
				if !strings.Contains(h.screen(), "more as you scroll") {
					break
				}
				h.keys("pgdown")
			}
			h.contains(t, common.Thousands(want)+" matched of 2,000 scanned")
			total, _ := h.m.cfg.Session.Billed()
			t.Logf("%s: first screen %.1f RCU, to the end %.1f RCU in %d Queries", name, spent, total, h.rec.count("Query"))
		})
	}
}

// TestFilterBudgetHoldsThenReadsOn: a filtered read stops at its budget
// with nothing found, says so, and reads on a budget at a time when asked.
// Under 175 RCU left its pages are sized by the largest item read
// (dynamo.SizedLimit: half of what is left at a time), so a budget takes
// a few more requests than the two whole pages the mean asked for.
func TestFilterBudgetHoldsThenReadsOn(t *testing.T) {
	tbl := seedPage7(t, memory.New())
	f, _ := domain.ParseFilter(page7Filter)
	h := newHarness(t, 100, 30, Config{Client: tbl.client, Table: "Page7", PK: "P", Filter: f,
		FilterBudget: func(string) float64 { return 300 }})
	first := h.rec.count("Query")
	if first < 2 || first > 12 {
		t.Fatalf("%d Query requests before the budget stopped the read", first)
	}
	h.contains(t, "No matches in the first", "the budget is 300", "↓ reads another 300 RCU", "stopped at the 300 RCU budget")
	// The status bar says it too (issue #37): how to go on, what was
	// spent, and that what is listed is partial (it said nothing).
	h.said(t, "At the budget: ↓ reads on · ")
	h.said(t, " spent · 0 matches in ")
	h.said(t, " items scanned, the rest not read; ↓ spends up to 300.0 RCU more")
	h.keys("down")
	second := h.rec.count("Query")
	if second <= first || strings.Contains(h.screen(), tbl.matches[0]) {
		t.Fatalf("↓ read %d more pages (from %d): want another budget's worth, short of page 7:\n%s", second-first, first, h.screen())
	}
	h.keys("down")
	h.contains(t, tbl.matches[0], tbl.matches[10])
	if strings.Contains(h.screen(), "No matches") {
		t.Fatalf("matches found but the empty note stayed:\n%s", h.screen())
	}
}

// heavyThenFailing is one partition P: an item of 100 KB that does not
// match Status = "FAIL" (sort key a), then n small ones that do.
func heavyThenFailing(n int) []dynamo.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	items := []dynamo.Item{{"PK": s("P"), "SK": s("a"), "Status": s("OK"), "Blob": s(strings.Repeat("x", 100_000))}}
	for i := range n {
		items = append(items, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("b%02d", i)), "Status": s("FAIL")})
	}
	return items
}

// TestFilterBudgetReadsOnPastAHeavyItem: ↓ after a filtered read
// stopped at its budget reads on even where the budget pays for no item
// of the largest size read. On a walk of a partition of 200-300 KB items
// before small ones at --max-rcu 5, the first item cost 25 RCU; ↓ then
// read nothing, and the title said "stopped at the 5 RCU budget, 0.0
// spent: ↓ reads on", every ↓ alike. ↓ now grants what one item of the
// largest size costs where that is more than the budget, and says so.
func TestFilterBudgetReadsOnPastAHeavyItem(t *testing.T) {
	const budget = 5.0
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		t.Run(name, func(t *testing.T) {
			items := heavyThenFailing(4)
			if err := demo.CreateKeyTable(context.Background(), db, "HeavyFirst", "S", items); err != nil {
				t.Fatal(err)
			}
			f, _ := domain.ParseFilter(`Status = "FAIL"`)
			h := newHarness(t, 120, 35, Config{Client: db, Table: "HeavyFirst", PK: "P", Filter: f, FilterBudget: func(string) float64 { return budget }})
			least := common.RCU(dynamo.ReadCost(1, dynamo.ItemBytes(items[0]), false), false)
			h.contains(t, "stopped at the 5 RCU budget", "↓ reads another "+least)
			h.said(t, "↓ spends up to "+least+" more")
			for i := 0; i < 10 && !strings.Contains(h.screen(), "4 matched"); i++ {
				before := h.rec.count("Query")
				h.keys("down")
				if h.rec.count("Query") == before {
					t.Fatalf("↓ read nothing (%d-th ↓):\n%s", i+1, h.screen())
				}
				if strings.Contains(h.screen(), "0.0 spent") {
					t.Fatalf("the title says nothing was spent:\n%s", h.screen())
				}
			}
			h.contains(t, "4 matched of 5 scanned")
		})
	}
}

// TestFilterBarErrorKeepsRows: a syntax error points at its column, the
// bar keeps the text, and the rows listed stay.
func TestFilterBarErrorKeepsRows(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "9000"})
	h.contains(t, "items loaded")
	loaded := strings.SplitN(strings.SplitN(h.screen(), " items loaded", 2)[0], "9000 · ", 2)[1]
	before := h.rec.count("Query")
	h.keys("f")
	h.typeText(`Level = "ERROR" and Temperature >`)
	h.keys("enter")
	h.contains(t, "^ expected a value", "filter › Level", loaded+" items loaded")
	for _, line := range strings.Split(h.screen(), "\n") {
		if i := strings.Index(line, "^ expected"); i >= 0 {
			// "│ " + "filter › " + the 33 characters before column 34
			if col := len([]rune(line[:i])); col != 2+9+33 {
				t.Fatalf("the caret stands at %d, not under column 34:\n%s", col, h.screen())
			}
		}
	}
	if h.rec.count("Query") != before {
		t.Fatal("a filter that does not parse was sent")
	}
	h.golden(t)
	h.keys("backspace", "backspace")
	h.typeText(`> 30`)
	h.keys("enter")
	h.contains(t, "matched of", `filter Level = "ERROR" and Temperature > 30`)
	for _, line := range strings.Split(h.screen(), "\n") {
		if strings.Contains(line, "evt-9000-") && !strings.Contains(line, "ERROR") {
			t.Fatalf("a row that does not match: %s", line)
		}
	}
	// ? shows the command line that reopens this filtered view
	h.keys("?")
	h.contains(t, `this view: dynascope --demo --table DeviceLogs --pk 9000 --filter 'Level = "ERROR" and Temperature`)
	h.keys("?")
	// f then an empty bar shows everything again
	h.keys("f", "ctrl+u", "enter")
	h.contains(t, " items loaded · ") // read again, sized to the screen as it is now
	if strings.Contains(h.screen(), "matched") {
		t.Fatalf("an empty bar still filters:\n%s", h.screen())
	}
}

// TestFilterBarErrorSaysTheTextOnce: backslashes typed are shown once
// in the error as in the box (the parser quotes them, as the headless
// --filter says: '\\'), and the caret stands under the mistake after
// them: a new user's walk saw "unexpected '\\\\'" with the caret a cell
// right of the mistake for every backslash before it.
func TestFilterBarErrorSaysTheTextOnce(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Table: "DeviceLogs", PK: "9000"})
			h.keys("f")
			h.typeText(`Level = "a\\b" and \x`)
			h.keys("enter")
			h.contains(t, `filter › Level = "a\\b" and \x`, `unexpected '\\': names with such characters go in backticks`)
			lines := strings.Split(h.screen(), "\n")
			box := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "filter › ") })
			at := strings.Index(lines[box+1], "^")
			if at < 0 { // no room for the message beside a caret: the column
				h.contains(t, "✗ column 20: unexpected")
				return
			}
			if want := ansi.StringWidth(lines[box][:strings.Index(lines[box], `\x`)]); ansi.StringWidth(lines[box+1][:at]) != want {
				t.Fatalf("the caret is at cell %d, the mistake at %d:\n%s", ansi.StringWidth(lines[box+1][:at]), want, h.screen())
			}
		})
	}
}

// TestFilterOnTheKeyAppliedHere: f naming the Query's own sort key
// (which DynamoDB refuses in a FilterExpression) lists the matches: the
// explorer's filtered read is budgeted, its items read whole and the
// filter applied here, so nothing is sent that the server refuses. The
// count is the truth's: USA's keys after "WY#" (a reverted change had
// refused this filter and read nothing).
func TestFilterOnTheKeyAppliedHere(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA"})
	h.keys("2")
	h.contains(t, "items loaded")
	h.keys("f")
	h.typeText(`SK > "WY#"`)
	h.keys("enter")
	h.contains(t, "matched of", `filter SK > "WY#"`)
	if strings.Contains(h.screen(), "ValidationException") || strings.Contains(h.screen(), "failed") {
		t.Fatalf("the key's filter was sent to the server:\n%s", h.screen())
	}
	// The truth, as a key condition says it.
	out, err := demoData(t).Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String("Locations"),
		KeyConditionExpression: aws.String("PK = :p AND SK > :s"), Select: types.SelectCount,
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "USA"}, ":s": &types.AttributeValueMemberS{Value: "WY#"}}})
	if err != nil || out.Count == 0 || len(out.LastEvaluatedKey) > 0 {
		t.Fatalf("the truth: %v, %v", out, err)
	}
	h.contains(t, fmt.Sprintf("%d matched of", out.Count))
}

// TestFilterFromTreeAndVersions: f on a drill-down level or the versions
// list filters the items behind it.
func TestFilterFromTreeAndVersions(t *testing.T) {
	h := newHarness(t, 200, 30, Config{Table: "Locations", PK: "USA", Prefix: "NY#"})
	h.keys("f")
	h.typeText(`DriveThru = true`)
	h.keys("enter")
	h.contains(t, "matched of", `begins_with(SK, :prefix)`, `:prefix="NY#"`, "filter DriveThru = true")
	h.keys("esc")
	h.contains(t, "Tree")

	h = newHarness(t, 200, 30, Config{Table: "Equipment", PK: "Equipment_1", Versions: "*"})
	h.keys("f")
	h.typeText(`attribute_exists(Findings)`)
	h.keys("enter")
	h.contains(t, "revisions", "matched of", `:prefix="v"`, "filter attribute_exists(Findings)")

	// esc in the bar, before anything is read, goes back to where f was
	// pressed with nothing changed (not to the items under the prefix,
	// unfiltered), and sends nothing.
	for _, tc := range []struct {
		name, title string
		cfg         Config
	}{
		{"versions", "versioned items", Config{Table: "Equipment", PK: "Equipment_1", Versions: "*"}},
		{"tree", "Tree", Config{Table: "Locations", PK: "USA", Prefix: "NY#"}},
	} {
		t.Run("esc from "+tc.name, func(t *testing.T) {
			h := newHarness(t, 120, 35, tc.cfg)
			before, sent := h.screen(), h.rec.count("Query")
			h.keys("f")
			h.contains(t, "esc goes back")
			if strings.Contains(h.screen(), "esc lists everything") {
				t.Fatalf("the bar opened from %s says esc lists everything; esc goes back:\n%s", tc.name, h.screen())
			}
			h.typeText("x = 1")
			h.keys("esc")
			if h.screen() != before || h.rec.count("Query") != sent {
				t.Fatalf("esc in the filter bar opened from %s left it (or read): before\n%s\nafter\n%s", tc.name, before, h.screen())
			}
			h.contains(t, tc.title)
		})
	}
}

// TestColumnPicker: C lists every attribute seen with how often it
// appears; hiding, moving and enter change the grid, and the choice is
// written to the configuration file for the table.
func TestColumnPicker(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte("# mine\ntheme = \"dark\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	save := func(table string, cols []string) (string, error) {
		text, err := os.ReadFile(path)
		if err != nil {
			return "", err
		}
		out, err := config.SetTableColumns(string(text), table, cols)
		if err != nil {
			return "", err
		}
		return path, os.WriteFile(path, []byte(out), 0o600)
	}
	h := newHarness(t, 220, 30, Config{Table: "DeviceLogs", PK: "9000", SaveColumns: save})
	h.contains(t, "EventID", "Level", "Message", "Temperature")
	h.keys("C")
	h.contains(t, "Columns of DeviceLogs", "[x]", "(100%)")
	h.golden(t)
	// hide the first, move the second above it, keep
	h.keys("space", "down", "K", "enter")
	h.contains(t, "saved for DeviceLogs in "+path)
	data, _ := os.ReadFile(path)
	c, err := config.ParseConfig(string(data))
	if err != nil {
		t.Fatal(err)
	}
	cols := c.Table("DeviceLogs").Columns
	if len(cols) != 3 || !strings.HasPrefix(string(data), "# mine\ntheme = \"dark\"\n") {
		t.Fatalf("saved %v in\n%s", cols, data)
	}
	scr := h.screen()
	header := ""
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, "Timestamp") && strings.Contains(l, cols[0]) { // the partition key is in the title
			header = l
			break
		}
	}
	for _, c := range cols {
		if !strings.Contains(header, c) {
			t.Errorf("column %s not in the header %q", c, header)
		}
	}
	// the new choice holds for the table's other views (the time mode)
	h.keys("t", "esc")
	h.contains(t, cols[0])
	// a: back to the most common
	h.keys("esc", "C", "a")
	data, _ = os.ReadFile(path)
	if strings.Contains(string(data), "columns") {
		t.Fatalf("a did not clear the saved columns:\n%s", data)
	}
}

// TestColumnPickerSaysItsKeysOnce: the picker's header line and its help
// line name enter alike, and list C, which closes it as esc does.
func TestColumnPickerSaysItsKeysOnce(t *testing.T) {
	h := newHarness(t, 220, 30, Config{Table: "DeviceLogs", PK: "9000"})
	h.contains(t, "EventID")
	h.keys("C")
	h.contains(t, "Columns of DeviceLogs")
	scr := h.screen()
	for _, want := range []string{"enter keep", "esc/C cancel"} {
		if n := strings.Count(scr, want); n != 2 {
			t.Errorf("%q is on %d lines, not on the picker's header and help lines both:\n%s", want, n, scr)
		}
	}
	if strings.Contains(scr, "enter go") || strings.Contains(scr, "enter keeps") {
		t.Errorf("enter is named two ways:\n%s", scr)
	}
	h.keys("space", "C")
	if strings.Contains(h.screen(), "Columns of DeviceLogs") {
		t.Fatalf("C did not close the picker:\n%s", h.screen())
	}
	h.contains(t, "EventID")
}

// TestFilterBareWordHint: an unquoted word on the value side that names no
// attribute of the loaded rows gets a hint in place, before anything is
// read; enter again applies the filter as written; a quoted value or a real
// attribute gets none.
func TestFilterBareWordHint(t *testing.T) {
	h := newHarness(t, 160, 30, Config{Table: "DeviceLogs", PK: "9000"})
	h.contains(t, "items loaded")
	before := h.rec.count("Query")
	h.keys("f")
	h.typeText("Level = ERROR")
	h.keys("enter")
	h.contains(t, `? no attribute ERROR in the `, ` loaded items: did you mean "ERROR"?`, "compares with an attribute ERROR.", "filter › Level = ERROR")
	if n := h.rec.count("Query") - before; n != 0 {
		t.Fatalf("the hint cost %d Query requests; it comes before anything is read", n)
	}
	h.keys("enter") // as written, after all
	h.contains(t, "matched of")
	if h.rec.count("Query") == before {
		t.Fatal("enter again did not apply the filter")
	}
	h.keys("f", "ctrl+u")
	h.typeText(`Level = "ERROR"`)
	h.keys("enter")
	if strings.Contains(h.screen(), "no attribute") {
		t.Fatalf("a quoted value got the hint:\n%s", h.screen())
	}
	h.keys("f", "ctrl+u")
	h.typeText(`Level = Message`)
	h.keys("enter")
	if strings.Contains(h.screen(), "no attribute") {
		t.Fatalf("an attribute of the loaded rows got the hint:\n%s", h.screen())
	}
}

// firstRow is the list's first data line (under the frame's top border
// and the column titles).
func (h *harness) firstRow() string { return strings.Split(h.screen(), "\n")[3] }

// TestSortLoadedRows: s cycles the sort through the visible columns, S
// flips it; numbers sort by value; the title says it is the loaded rows,
// not the table; enter opens the row under the cursor.
func TestSortLoadedRows(t *testing.T) {
	h := newHarness(t, 140, 35, Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"})
	h.keys("tab")
	h.contains(t, "18 items loaded")
	h.keys("s") // the first column shown: SK, not the PK the title names once
	h.contains(t, "sorted by SK ↑")
	for range 4 { // City, DriveThru, OpenedOn, SquareFeet
		h.keys("s")
	}
	h.contains(t, "sorted by SquareFeet ↑ · 18 loaded rows, not the table")
	if !strings.Contains(h.firstRow(), " 929 ") {
		t.Fatalf("the smallest store is not first: %q", h.firstRow())
	}
	h.keys("S")
	h.contains(t, "sorted by SquareFeet ↓")
	if !strings.Contains(h.firstRow(), " 2520 ") {
		t.Fatalf("the largest store is not first: %q", h.firstRow())
	}
	h.keys("g", "enter") // the cursor stays on its row through a sort; g is the first line
	h.contains(t, `"SquareFeet": 2520`)
	h.keys("esc")
	for range 3 { // StreetAddress, Tags, then the load order again
		h.keys("s")
	}
	if strings.Contains(h.screen(), "sorted by") {
		t.Fatal("s after the last column did not go back to the load order")
	}
}

// TestSortedTitleSaysReadOrder: a list sorted by a column says the order
// its rows were read in as that, not as the rows' order: Items flipped
// (o) and sorted by SK ↑ said "sorted by SK ↑ · … · descending" beside
// rows shown ascending; Time mode's "newest first" beside rows sorted.
func TestSortedTitleSaysReadOrder(t *testing.T) {
	for _, c := range []struct {
		cfg        Config
		keys       []string
		read, said string
	}{
		{Config{Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#"}, []string{"tab", "o", "s"}, "read descending", " · descending"},
		{Config{Table: "DeviceLogs", PK: "9000", Range: "last 24h", Now: demoClock}, []string{"s", "s"}, "read newest first", " · newest first"},
	} {
		h := newHarness(t, 200, 50, c.cfg)
		h.keys(c.keys...)
		title := strings.Split(h.screen(), "\n")[1]
		if !strings.Contains(title, "sorted by ") || !strings.Contains(title, c.read) || strings.Contains(title, c.said) {
			t.Errorf("%s: the title of sorted rows: %q, want %q, never %q", c.cfg.Table, title, c.read, c.said)
		}
	}
}

// TestSortTimeList: the Time list sorts too, by an attribute's number.
func TestSortTimeList(t *testing.T) {
	h := newHarness(t, 160, 35, Config{Table: "DeviceLogs", PK: "9000", Range: "last 24h", Now: demoClock})
	h.keys("s", "s")
	h.contains(t, "sorted by ", "loaded rows, not the table")
	h.keys("S")
	h.contains(t, "↓")
}

// seedSearchTable writes "Wide": 40 partitions of 30 items of about 1 KB,
// every 37th with Status = "FAIL", and returns the matches' keys as a
// filtered full read computed here finds them.
func seedSearchTable(t *testing.T, w seedable) map[string]bool {
	t.Helper()
	ctx := context.Background()
	var items []dynamo.Item
	pad := strings.Repeat("y", 1000)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for p := range 40 {
		for i := range 30 {
			status := "PASS"
			if (p*30+i)%37 == 0 {
				status = "FAIL"
			}
			items = append(items, dynamo.Item{"PK": s(fmt.Sprintf("acct#%02d", p)), "SK": s(fmt.Sprintf("job#%03d", i)), "Status": s(status), "Pad": s(pad)})
		}
	}
	if err := demo.CreateKeyTable(ctx, w, "Wide", types.ScalarAttributeTypeS, items); err != nil {
		t.Fatal(err)
	}
	// the filtered full read: every item, filtered here
	want := map[string]bool{}
	var start dynamo.Item
	for {
		out, err := w.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("Wide"), ExclusiveStartKey: start})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			if it["Status"].(*types.AttributeValueMemberS).Value == "FAIL" {
				want[it["PK"].(*types.AttributeValueMemberS).Value+" "+it["SK"].(*types.AttributeValueMemberS).Value] = true
			}
		}
		if len(out.LastEvaluatedKey) == 0 {
			break
		}
		start = out.LastEvaluatedKey
	}
	return want
}

// searchRows are the keys the search page has found.
func searchRows(t *testing.T, h *harness) map[string]bool {
	t.Helper()
	s, ok := h.m.top().(*pages.Search)
	if !ok {
		t.Fatalf("the page on top is %T, not the search", h.m.top())
	}
	got := map[string]bool{}
	for _, it := range s.Rows() {
		k := it["PK"].(*types.AttributeValueMemberS).Value + " " + it["SK"].(*types.AttributeValueMemberS).Value
		if got[k] {
			t.Errorf("%s listed twice", k)
		}
		got[k] = true
	}
	return got
}

// TestTableSearchMatchesAFilteredFullRead (39.3): f on a table's
// partitions list filters the whole table: the matches listed, once read
// to the end, are those of a filtered full read, at every size, on
// dynalite and the embedded backend; the request line says the Scan,
// scanned and matched, and what it cost.
func TestTableSearchMatchesAFilteredFullRead(t *testing.T) {
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		want := seedSearchTable(t, db)
		for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, size[0], size[1]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Wide", FilterBudget: func(string) float64 { return 0 }})
				before, _ := h.m.cfg.Session.Billed()
				scans := h.rec.count("Scan")
				h.keys("f")
				h.contains(t, "filter › ")
				h.typeText(`Status = "FAIL"`)
				h.keys("enter")
				for range 100 {
					if strings.Contains(h.screen(), "whole table scanned") {
						break
					}
					h.keys("pgdown")
				}
				h.contains(t, "whole table scanned", "Scan Wide", "FilterExpression: Status = \"FAIL\"", "scanned 1,200", fmt.Sprintf("matched %d", len(want)), "RCU")
				spent, _ := h.m.cfg.Session.Billed()
				t.Logf("whole search without a budget: %.1f RCU billed, %d Scan requests", spent-before, h.rec.count("Scan")-scans)
				got := searchRows(t, h)
				for k := range want {
					if !got[k] {
						t.Errorf("%s matches and is not listed", k)
					}
				}
				for k := range got {
					if !want[k] {
						t.Errorf("%s is listed and does not match", k)
					}
				}
				if strings.Contains(h.screen(), "PASS") {
					t.Errorf("a non-matching item is on screen:\n%s", h.screen())
				}
				h.keys("g")
				h.contains(t, fmt.Sprintf("row 1 of %d", len(want))) // the whole table read: no ≥
				h.keys("enter")
				h.contains(t, `"FAIL"`) // the item view of the first match
			})
		}
	}
}

// TestTableSearchFirstScreenReadsWhatItShows: a table-wide search whose
// filter matches most items fills its first screen from about a hundred
// items, not a 1 MB page (1,200 items of 1 KB at 80×24: 13 RCU, the
// README's figure, where the page cost 126.5), on dynalite and the
// embedded backend; read on to the end it lists every match once.
func TestTableSearchFirstScreenReadsWhatItShows(t *testing.T) {
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		fails := seedSearchTable(t, db)
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, 80, 24, Config{Client: db, Table: "Wide"})
			before, _ := h.m.cfg.Session.Billed()
			h.keys("f")
			h.typeText(`Status = "PASS"`)
			h.keys("enter")
			spent, _ := h.m.cfg.Session.Billed()
			h.contains(t, "acct#", "PASS", "scanned 1")
			if spent-before > 13 {
				t.Fatalf("the first screen of a filter matching 97%% of 1 KB items cost %.1f RCU:\n%s", spent-before, h.screen())
			}
			for range 200 {
				if strings.Contains(h.screen(), "whole table scanned") {
					break
				}
				h.keys("pgdown")
			}
			h.contains(t, "whole table scanned", "matched "+common.Thousands(1200-len(fails)))
			total, _ := h.m.cfg.Session.Billed()
			t.Logf("%s: first screen %.1f RCU, to the end %.1f RCU in %d Scans", name, spent-before, total-before, h.rec.count("Scan"))
			if got := searchRows(t, h); len(got) != 1200-len(fails) {
				t.Fatalf("%d matches listed, want %d", len(got), 1200-len(fails))
			}
		})
	}
	// The demo's DeviceLogs, Level = "ERROR" (one item in six): 3.0 RCU,
	// the CHANGELOG's figure, where a 1 MB page a segment cost 160.
	h := newHarness(t, 80, 24, Config{Table: "DeviceLogs"})
	before, _ := h.m.cfg.Session.Billed()
	h.keys("f")
	h.typeText(`Level = "ERROR"`)
	h.keys("enter")
	h.contains(t, "ERROR", "matched")
	if spent, _ := h.m.cfg.Session.Billed(); spent-before > 3 {
		t.Fatalf("the first screen of Level = \"ERROR\" on DeviceLogs cost %.1f RCU:\n%s", spent-before, h.screen())
	}
}

// TestTableSearchCancelled: esc on a table-wide search stops the Scan in
// flight and says so where the matches would be (never "No item … matches"
// or a total); nothing is read behind the user's back after it, and r reads
// on from where it stopped to the same matches a whole read finds.
func TestTableSearchCancelled(t *testing.T) {
	db := memory.New()
	want := seedSearchTable(t, db)
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Wide", FilterBudget: func(string) float64 { return 0 }})
	h.keys("f")
	h.typeText(`Status = "FAIL"`)
	if _, cmd := h.m.Update(keyPress("enter")); cmd == nil { // the first Scan, held
		t.Fatal("enter read nothing")
	}
	scans := h.rec.count("Scan")
	h.keys("esc")
	h.contains(t, "Search Wide · read cancelled · nothing loaded · r reads on", "read cancelled", "r read on")
	if strings.Contains(h.screen(), "search again") { // r reads on from where esc stopped
		t.Fatalf("the help says r searches again after esc:\n%s", h.screen())
	}
	if strings.Contains(h.screen(), "No item") || strings.Contains(h.screen(), "whole table scanned") {
		t.Fatalf("a cancelled search looks read:\n%s", h.screen())
	}
	h.keys("down", "pgdown", "G")
	if n := h.rec.count("Scan") - scans; n != 0 {
		t.Fatalf("%d Scans after esc, before r", n)
	}
	h.keys("r")
	for range 100 {
		if strings.Contains(h.screen(), "whole table scanned") {
			break
		}
		h.keys("pgdown")
	}
	h.contains(t, "whole table scanned", "scanned 1,200", fmt.Sprintf("matched %d", len(want)))
	if got := searchRows(t, h); len(got) != len(want) {
		t.Fatalf("%d matches after r, want %d", len(got), len(want))
	}
}

// TestTableSearchReadingOnSaysSo: while a table-wide search reads on by
// itself (its first page matched nothing the screen could show), the
// title says it is reading, not "more: scroll down to read on" over a
// list with no row to scroll to; once the reads stop there, it says how
// to go on.
func TestTableSearchReadingOnSaysSo(t *testing.T) {
	db := memory.New()
	seedSearchTable(t, db)
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Wide", FilterBudget: func(string) float64 { return 0 }})
	h.keys("f")
	h.typeText(`Status = "NOPE"`)
	_, cmd := h.m.Update(keyPress("enter"))
	if cmd == nil {
		t.Fatal("enter read nothing")
	}
	if _, next := h.m.Update(cmd()); next == nil { // the first page answered, the next read held
		t.Fatalf("the first page, which matched nothing, read on to nothing:\n%s", h.screen())
	}
	h.contains(t, "Search Wide · 0 matches · reading on…", "reading…", "scanned 162")
	if strings.Contains(h.screen(), "scroll down") {
		t.Fatalf("a search reading on by itself asks to scroll:\n%s", h.screen())
	}
	h.keys("esc")
	h.contains(t, "Search Wide · read cancelled · nothing loaded · r reads on")
}

// TestTableSearchGGoesToTheLastMatchRead: G on a table-wide search's
// matches goes to the last match read, and stays on it: the reads it
// started went on past it (a Scan has no end to read first), the cursor
// left at row 102 of 147. It says the table is not all read; a read in
// flight when G is typed brings the cursor to its last match; after the
// budget stop G says r reads on. On dynalite and the embedded backend.
func TestTableSearchGGoesToTheLastMatchRead(t *testing.T) {
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		seedSearchTable(t, db)
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, 80, 24, Config{Client: db, Table: "Wide", FilterBudget: func(string) float64 { return 40 }})
			h.keys("f")
			h.typeText(`Status = "PASS"`)
			h.keys("enter")
			scans := h.rec.count("Scan")
			h.keys("G")
			n := len(searchRows(t, h))
			h.contains(t, fmt.Sprintf("row %d of ≥%d", n, n))
			h.said(t, fmt.Sprintf("G: last of %d matches read, not the table's: ↓ reads on", n))
			if got := h.rec.count("Scan") - scans; got != 0 {
				t.Fatalf("G read %d Scans past the last match read", got)
			}
			// A read in flight when G is typed: its matches arrive, and
			// the cursor goes on to the last of them.
			_, cmd := h.m.Update(keyPress("down")) // reads on, held
			if cmd == nil {
				t.Fatal("↓ on the last match read read nothing")
			}
			h.keys("G")
			h.said(t, "a read in flight adds more below")
			h.run(cmd)
			before := n
			if n = len(searchRows(t, h)); n <= before {
				t.Fatalf("the read in flight added no match: %d, then %d", before, n)
			}
			h.contains(t, fmt.Sprintf("row %d of ", n))
			// At the budget's stop: the last match read, and r reads on.
			for range 200 {
				if strings.Contains(h.screen(), "stopped at the budget") {
					break
				}
				h.keys("pgdown")
			}
			h.keys("g", "G")
			n = len(searchRows(t, h))
			h.contains(t, fmt.Sprintf("row %d of ≥%d", n, n))
			h.said(t, fmt.Sprintf("G: last of %d matches read, not the table's: at the budget, r reads on", n))
		})
	}
}

// TestIndexSearchMatchesAFilteredFullRead (39.3): f on an index's
// partitions list searches the index: its matches are those of a
// filtered full read of the index.
func TestIndexSearchMatchesAFilteredFullRead(t *testing.T) {
	ctx := context.Background()
	db := demoData(t)
	want := map[string]bool{}
	var start dynamo.Item
	for {
		out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("Locations"), IndexName: aws.String("ByCity"), ExclusiveStartKey: start})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			if c, ok := it["City"].(*types.AttributeValueMemberS); ok && strings.HasPrefix(c.Value, "NEW") {
				want[it["PK"].(*types.AttributeValueMemberS).Value+" "+it["SK"].(*types.AttributeValueMemberS).Value] = true
			}
		}
		if len(out.LastEvaluatedKey) == 0 {
			break
		}
		start = out.LastEvaluatedKey
	}
	h := newHarness(t, 120, 35, Config{Table: "Locations", Index: "ByCity", FilterBudget: func(string) float64 { return 0 }})
	h.keys("f")
	h.typeText(`begins_with(City, "NEW")`)
	h.keys("enter")
	for range 200 {
		if strings.Contains(h.screen(), "whole index scanned") {
			break
		}
		h.keys("pgdown")
	}
	h.contains(t, "Search Locations index ByCity", "IndexName: ByCity")
	got := searchRows(t, h)
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d matches, want %d", len(got), len(want))
	}
	for k := range want {
		if !got[k] {
			t.Errorf("%s matches and is not listed", k)
		}
	}
}

// TestIndexSearchSaysAnAttributeItDoesNotHold: f on an index's
// partitions through an attribute the index does not project matches
// none of its items: stopped at the budget, or at its end, the screen
// says so and where it is held, as scan says on stderr, and so do the
// words before the read (it said only "No match in the 250 items
// scanned before the budget: r reads on").
func TestIndexSearchSaysAnAttributeItDoesNotHold(t *testing.T) {
	for _, budget := range []float64{5, 0} {
		h := newHarness(t, 120, 35, Config{Table: "Locations", Index: "ByCity", FilterBudget: func(string) float64 { return budget }})
		h.keys("f")
		h.typeText(`DriveThru = true`)
		if s := flat(h.screen()); !strings.Contains(s, "DriveThru is not in index ByCity") {
			t.Errorf("budget %g: before the read the search does not say the index lacks DriveThru:\n%s", budget, h.screen())
		}
		h.keys("enter")
		for range 50 {
			if strings.Contains(h.screen(), "whole index scanned") || strings.Contains(h.screen(), "stopped at the budget") {
				break
			}
			h.keys("pgdown")
		}
		h.contains(t, "0 matches")
		if s := flat(h.screen()); !strings.Contains(s, "DriveThru is not in index ByCity (it holds its keys and StreetAddress): no item read from it has it; the table holds every attribute") {
			t.Errorf("budget %g: the empty search does not say the index lacks DriveThru:\n%s", budget, h.screen())
		}
	}
}

// TestStatementSaysAWhereAttributeTheIndexDoesNotHold: a statement on an
// index whose WHERE names an attribute the index does not project says so
// in its plan, as partiql does on stderr; only the SELECT list's were
// said, and a Scan of ByCity by DriveThru read on to no match.
func TestStatementSaysAWhereAttributeTheIndexDoesNotHold(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Table: "Locations"})
		h.keys(":", "ctrl+u")
		h.typeText(`SELECT * FROM "Locations"."ByCity" WHERE DriveThru = true AND OpenedOn > '2010'`)
		if s := flat(h.screen()); !strings.Contains(s, `DriveThru, OpenedOn are not in index ByCity (it holds its keys and StreetAddress): no item read from it has them; FROM "Locations" reads the table's items`) {
			t.Errorf("%dx%d: the plan does not say the index lacks DriveThru and OpenedOn:\n%s", size[0], size[1], h.screen())
		}
	}
}

// TestStatementQueryPlanIsNotTheTablesCost: a statement whose WHERE pins
// the partition key is a Query: its plan says its cost is not known
// before reading, the table's size only bounding it, as f's search says
// of a Query; it said "about 70.5 RCU to read the whole table", as a
// Scan's does.
func TestStatementQueryPlanIsNotTheTablesCost(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Table: "Locations"})
		h.keys(":")
		h.typeText(` PK = 'JAPAN'`)
		s := flat(h.screen())
		if !strings.Contains(s, "Plan: Query on Locations") || !strings.Contains(s, "its cost not known before reading") || strings.Contains(s, "to read the whole table") {
			t.Errorf("%dx%d: a Query's plan says the table's cost:\n%s", size[0], size[1], h.screen())
		}
		h.keys("ctrl+u")
		h.typeText(`* FROM "Locations" WHERE City = 'OMAHA'`)
		if s := flat(h.screen()); !strings.Contains(s, "about 70.5 RCU to read the whole table") {
			t.Errorf("%dx%d: a Scan's plan does not say the table's cost:\n%s", size[0], size[1], h.screen())
		}
	}
}

// TestTableSearchStopsAtTheBudget (39.3): the table-wide search spends at
// most its budget (RCU billed at the recording client, 0.5 over at most),
// says it stopped and how to go on; r reads on a budget at a time, to
// the same matches as a read without a budget.
func TestTableSearchStopsAtTheBudget(t *testing.T) {
	const budget = 40.0
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		want := seedSearchTable(t, db)
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, 120, 35, Config{Client: db, Table: "Wide", FilterBudget: func(string) float64 { return budget }})
			before, _ := h.m.cfg.Session.Billed()
			scans := h.rec.count("Scan")
			h.keys("f")
			h.typeText(`Status = "FAIL"`)
			h.keys("enter")
			spent, _ := h.m.cfg.Session.Billed()
			if spent-before > budget+0.5 || spent-before < budget/2 {
				t.Fatalf("the search spent %.1f RCU under a %.0f RCU budget", spent-before, budget)
			}
			t.Logf("first stop: %.1f RCU billed under a %.0f RCU budget", spent-before, budget)
			h.contains(t, "stopped at the budget: r reads on", "row 1 of ≥")
			// The status bar says what was spent, that the list is partial,
			// and how to go on (it said only "r reads on" and the spend).
			h.said(t, fmt.Sprintf("At the budget: r reads on · %.1f RCU spent · %d matches in ", spent-before, len(searchRows(t, h))))
			h.said(t, " items scanned, the rest of the table not read; r spends up to 40.0 RCU more")
			// Exported now, the matches are said to be those found so far.
			h.exportTo(t, t.TempDir(), "dynascope-Wide-search.jsonl", "already loaded: 0 RCU")
			h.said(t, fmt.Sprintf("exported %d items (the matches so far; the rest of the table not read) · to ", len(searchRows(t, h))))
			// Under the budget no FilterExpression is sent (whole items are
			// read and filtered here): the request line says so, and keeps
			// the filter typed.
			h.contains(t, `Scan Wide  filter Status = "FAIL" · applied here, items read whole`)
			if strings.Contains(h.screen(), "FilterExpression") {
				t.Fatalf("the request line says a FilterExpression was sent under the budget:\n%s", h.screen())
			}
			for i := 0; i < 20 && !strings.Contains(h.screen(), "whole table scanned"); i++ {
				from, _ := h.m.cfg.Session.Billed()
				h.keys("r")
				for range 50 {
					if s := h.screen(); strings.Contains(s, "whole table scanned") || strings.Contains(s, "stopped at the budget") {
						break
					}
					h.keys("pgdown")
				}
				to, _ := h.m.cfg.Session.Billed()
				if to-from > budget+0.5 {
					t.Fatalf("r spent %.1f RCU for a %.0f RCU budget", to-from, budget)
				}
			}
			got := searchRows(t, h)
			if len(got) != len(want) {
				t.Fatalf("%d matches after reading on, want %d", len(got), len(want))
			}
			all, _ := h.m.cfg.Session.Billed()
			t.Logf("whole search in budgeted steps: %.1f RCU billed, %d Scan requests", all-before, h.rec.count("Scan")-scans)
			for k := range want {
				if !got[k] {
					t.Errorf("%s matches and is not listed", k)
				}
			}
		})
	}
}

// TestSearchReadOnTypedTwice: r typed again while the read it asked for
// is in flight (r r, to read on twice) leaves that read alone and says
// so: it started the search again from its start, on a walk of an
// ElectroDB table at --max-rcu 1, back to "scanned 2", the matches and
// the RCU spent before lost. Nor does help offer r while it waits.
func TestSearchReadOnTypedTwice(t *testing.T) {
	const budget = 5.0
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		seedSearchTable(t, db)
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, 120, 35, Config{Client: db, Table: "Wide", FilterBudget: func(string) float64 { return budget }})
			h.keys("f")
			h.typeText(`Status = "FAIL"`)
			h.keys("enter")
			h.contains(t, "stopped at the budget: r reads on")
			first := h.m.top().Request()
			_, readOn := h.m.Update(keyPress("r"))
			// While that read is in flight, r only says why it waits:
			// neither the help line nor ? offers it.
			line := helpLine(h)
			_, help := h.m.Update(keyPress("?"))
			full := h.screen()
			_, unhelp := h.m.Update(keyPress("?"))
			for _, offer := range []string{"r read on", "r search again"} {
				if strings.Contains(line, offer) || strings.Contains(strings.Join(strings.Fields(full), " "), offer) {
					t.Errorf("%q is offered while the read is in flight:\n%s\n%s", offer, line, full)
				}
			}
			_, again := h.m.Update(keyPress("r")) // before the read r asked for answers
			h.run(tea.Batch(readOn, help, unhelp, again))
			spent := regexp.MustCompile(`scanned (\d+)`)
			was, now := spent.FindStringSubmatch(first), spent.FindStringSubmatch(h.m.top().Request())
			if was == nil || now == nil || atoiT(t, now[1]) <= atoiT(t, was[1]) {
				t.Fatalf("r r did not read on from the first stop:\nthen %s\nnow  %s", first, h.m.top().Request())
			}
			if !slices.ContainsFunc(h.m.said, func(m said) bool { return strings.HasPrefix(m.text, "Reading: r acts once this read answers") }) {
				t.Errorf("the second r said nothing: %v", h.m.said)
			}
		})
	}
}

func atoiT(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestTableSearchPastTheBudgetSaysSo: where a read sized by the small
// items before it meets larger ones (a table whose size is not reported:
// dynalite's, or one newer than DynamoDB's six-hourly count), the search
// is billed past its budget; the title, the request line and the status
// bar say by how much, never "stopped at the budget" beside 127.5 RCU of
// 20 (a new user's walk on dynalite).
func TestTableSearchPastTheBudgetSaysSo(t *testing.T) {
	const budget = 20.0
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		t.Run(name, func(t *testing.T) {
			s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
			var items []dynamo.Item
			for i := range 50 {
				items = append(items, dynamo.Item{"PK": s(fmt.Sprintf("a%02d", i)), "SK": s("x"), "Status": s("OK")})
			}
			for i := range 4 {
				items = append(items, dynamo.Item{"PK": s(fmt.Sprintf("h%d", i)), "SK": s("x"), "Status": s("FAIL"), "Blob": s(strings.Repeat("x", 230_000))})
			}
			if err := demo.CreateKeyTable(context.Background(), db, "Heavy", "S", items); err != nil {
				t.Fatal(err)
			}
			h := newHarness(t, 120, 35, Config{Client: uncounted{db}, Table: "Heavy", FilterBudget: func(string) float64 { return budget }})
			before, _ := h.m.cfg.Session.Billed()
			h.keys("f")
			h.typeText(`Status = "FAIL"`)
			h.keys("enter")
			spent, _ := h.m.cfg.Session.Billed()
			t.Logf("%.1f RCU billed under a %.0f RCU budget", spent-before, budget)
			if spent-before <= budget {
				if strings.Contains(h.screen(), "past the budget") {
					t.Fatalf("within the budget, the search says it went past it:\n%s", h.screen())
				}
				return
			}
			over := common.RCU(spent-before-budget, false)
			h.contains(t, over+" past the budget", "budget 20.0 RCU, "+over+" past it")
			if strings.Contains(h.screen(), "stopped "+over+" past the budget: r reads on") {
				h.said(t, "Past the budget by "+over+": r reads on · ")
			}
			if strings.Contains(h.screen(), "stopped at the budget") {
				t.Fatalf("the search says it stopped at the budget, %s past it:\n%s", over, h.screen())
			}
		})
	}
}

// TestTableSearchReadsOnPastAHeavyItem: r after a stop reads on even
// where the budget pays for no item of the largest size read. On a
// walk of a table with 100-300 KB items among small ones at --max-rcu 5,
// r extended the budget by 5 RCU, which one such item (33 RCU) outweighs:
// the search stopped again without a request, "r reads on" and "r spends
// up to 5.0 RCU more" on screen, and every r after it did the same. Now r
// grants what one item of the largest size costs where that is more than
// the budget, and the status bar says so before it is pressed.
func TestTableSearchReadsOnPastAHeavyItem(t *testing.T) {
	const budget = 5.0
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		t.Run(name, func(t *testing.T) {
			// One partition: a Scan reads it in sort-key order, the heavy
			// item first, on both backends.
			items := heavyThenFailing(6)
			if err := demo.CreateKeyTable(context.Background(), db, "OneHeavy", "S", items); err != nil {
				t.Fatal(err)
			}
			h := newHarness(t, 120, 35, Config{Client: uncounted{db}, Table: "OneHeavy", FilterBudget: func(string) float64 { return budget }})
			h.keys("f")
			h.typeText(`Status = "FAIL"`)
			h.keys("enter")
			h.contains(t, "past the budget: r reads on")
			// One item of the largest size read (100 KB: 12.5 RCU) is what
			// r must grant to read anything: the notice says so.
			least := common.RCU(dynamo.ReadCost(1, dynamo.ItemBytes(items[0]), false), false)
			h.said(t, "r spends up to "+least+" more")
			scanned := regexp.MustCompile(`scanned (\d+)`)
			for i := 0; i < 20 && !strings.Contains(h.screen(), "whole table scanned"); i++ {
				was := scanned.FindStringSubmatch(h.m.top().Request())
				from, _ := h.m.cfg.Session.Billed()
				h.keys("r")
				now := scanned.FindStringSubmatch(h.m.top().Request())
				if was == nil || now == nil || atoiT(t, now[1]) <= atoiT(t, was[1]) && !strings.Contains(h.screen(), "whole table scanned") {
					t.Fatalf("r read nothing on (%d-th r):\nthen %v\nnow  %s", i+1, was, h.screen())
				}
				if to, _ := h.m.cfg.Session.Billed(); to-from > dynamo.ReadCost(1, dynamo.ItemBytes(items[0]), false) {
					t.Fatalf("r spent %.1f RCU, more than it said", to-from)
				}
			}
			h.contains(t, "6 matches", "whole table scanned")
		})
	}
}

// TestTableSearchSizedByTheTableSize: the explorer's table-wide search
// under a budget is sized by the table's size too (DescribeTable's), as
// the scan command is: a table of a 100 KB item and a 2 KB one, read in
// that order, is read whole within a 20 RCU budget, as no item not read
// yet can be larger than what the first leaves of the table. Without the
// table's size the second read was sized by the 100 KB item, which the
// 7.5 RCU left could not pay for: the search stopped one item short, as
// it still does where DescribeTable reports no size (dynalite).
func TestTableSearchSizedByTheTableSize(t *testing.T) {
	const budget = 20.0
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		t.Run(name, func(t *testing.T) {
			s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
			items := []dynamo.Item{
				{"PK": s("P"), "SK": s("a"), "Status": s("PASS"), "Pad": s(strings.Repeat("a", 100_000))},
				{"PK": s("P"), "SK": s("b"), "Status": s("FAIL"), "Pad": s(strings.Repeat("b", 2_000))},
			}
			if err := demo.CreateKeyTable(context.Background(), db, "Two", types.ScalarAttributeTypeS, items); err != nil {
				t.Fatal(err)
			}
			h := newHarness(t, 120, 35, Config{Client: db, Table: "Two", FilterBudget: func(string) float64 { return budget }})
			before, _ := h.m.cfg.Session.Billed()
			h.keys("f")
			h.typeText(`Status = "FAIL"`)
			h.keys("enter")
			spent, _ := h.m.cfg.Session.Billed()
			info, _, err := dynamo.DescribeTable(context.Background(), db, "Two")
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("table size %d bytes (DescribeTable): %.1f RCU billed under a %.0f RCU budget", info.SizeBytes, spent-before, budget)
			if info.SizeBytes > 0 {
				h.contains(t, "whole table scanned")
			} else {
				// No size reported (dynalite, or DynamoDB before its
				// six-hourly update): nothing bounds the second item,
				// which the 7.5 RCU left after the first may not pay for:
				// the search stopped short of the budget, and says so
				// ("stopped at the budget" read as if it were spent).
				left := common.RCU(budget-(spent-before), false)
				h.contains(t, "stopped "+left+" short of the budget: r reads on")
				h.said(t, "Short of the budget by "+left+", which pays for no item of the largest size read (12.5 RCU): r reads on · ")
				h.keys("G")
				h.said(t, "short of the budget, r reads on")
			}
			if spent-before > budget+0.5 {
				t.Fatalf("the search spent %.1f RCU under a %.0f RCU budget", spent-before, budget)
			}
		})
	}
}

// TestStatementPlanShownThenRun (39.3): : opens a PartiQL SELECT prompt
// on the open table; the plan (Query on X, or Scan: up to N RCU) shows
// before anything is read, enter runs it, and its results are those of a
// filtered full read, on dynalite and the embedded backend, at every
// size; y copies the aws command and enter opens an item.
func TestStatementPlanShownThenRun(t *testing.T) {
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		want := seedSearchTable(t, db)
		inAcct := map[string]bool{}
		for k := range want {
			if strings.HasPrefix(k, "acct#01 ") {
				inAcct[k] = true
			}
		}
		for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			for _, c := range []struct {
				where, plan string
				want        map[string]bool
			}{
				{`Status = 'FAIL'`, "Scan Wide in 1 segment: ", want},
				{`PK = 'acct#01' AND Status = 'FAIL'`, `Query on Wide: PK = "acct#01"`, inAcct},
				// ORDER BY the sort key DESC: the plan says the order (it
				// said nothing, and the results came newest first).
				{`PK = 'acct#01' AND Status = 'FAIL' ORDER BY SK DESC`, `Query on Wide: PK = "acct#01"  (descending)`, inAcct},
				// A whole statement typed after the prefill takes its
				// place (it read as a WHERE beginning with SELECT).
				{`SELECT * FROM "Wide" WHERE PK = 'acct#01' AND Status = 'FAIL'`, `Query on Wide: PK = "acct#01"`, inAcct},
				// WHERE typed after the prefill's WHERE is one WHERE (it
				// was "expected a comparison after WHERE").
				{`WHERE PK = 'acct#01' AND Status = 'FAIL'`, `Query on Wide: PK = "acct#01"`, inAcct},
			} {
				t.Run(fmt.Sprintf("%s/%dx%d/%s", name, size[0], size[1], c.plan[:4]), func(t *testing.T) {
					h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Wide", FilterBudget: func(string) float64 { return 0 }})
					h.keys(":")
					h.contains(t, `SELECT › * FROM "Wide" WHERE`)
					// enter is offered for what it does now: nothing while the
					// WHERE is empty; "run" once the plan shows (it said
					// "plan, then run" beside a plan enter runs).
					if l := helpLine(h); strings.Contains(l, "enter") {
						t.Errorf("the help line offers enter where it does nothing: %q", l)
					}
					h.typeText(c.where)
					scans, queries := h.rec.count("Scan"), h.rec.count("Query")
					h.contains(t, "Plan: ", "enter runs it")
					if l := helpLine(h); !strings.HasPrefix(l, "enter run • esc cancel") {
						t.Errorf("the help line beside a plan shown: %q", l)
					}
					if strings.Contains(h.screen(), "SELECT › SELECT") || strings.Contains(h.screen(), "WHERE SELECT") || strings.Contains(h.screen(), "WHERE WHERE") {
						t.Fatalf("a whole statement typed after the prefill:\n%s", h.screen())
					}
					if !strings.Contains(h.m.top().Request(), c.plan) {
						t.Fatalf("the plan is not %q: %s\n%s", c.plan, h.m.top().Request(), h.screen())
					}
					if h.rec.count("Scan") != scans || h.rec.count("Query") != queries {
						t.Fatal("the prompt read items before enter")
					}
					// It described the table for the plan, a request the
					// status bar counts: "nothing read yet" would deny it.
					if req := h.m.top().Request(); h.rec.count("DescribeTable") == 0 || !strings.HasPrefix(req, "no item read yet, 1 DescribeTable for the plan") {
						t.Fatalf("%d DescribeTable, the request line says %q", h.rec.count("DescribeTable"), req)
					}
					h.keys("enter")
					for range 100 {
						if s := h.screen(); strings.Contains(s, "whole table scanned") || strings.Contains(s, "all read") {
							break
						}
						h.keys("pgdown")
					}
					got := searchRows(t, h)
					if len(got) != len(c.want) {
						t.Fatalf("%d results, want %d\n%s", len(got), len(c.want), h.screen())
					}
					for k := range c.want {
						if !got[k] {
							t.Errorf("%s matches and is not listed", k)
						}
					}
					h.keys("g", "y")
					h.said(t, "aws dynamodb "+strings.ToLower(c.plan[:4]))
					h.keys("enter")
					h.contains(t, `"FAIL"`)
				})
			}
		}
	}
}

// costTable writes a table Ledger of 120 items of about 1 KB, every
// tenth FAIL, with an index ByStatus on Status holding every attribute,
// and Flagged on Flag, keys only, which every fifteenth item has.
func costTable(t *testing.T, db seedable) {
	t.Helper()
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Ledger"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"},
			{AttributeName: aws.String("SK"), AttributeType: "S"}, {AttributeName: aws.String("Status"), AttributeType: "S"}, {AttributeName: aws.String("Flag"), AttributeType: "S"}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByStatus"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("Status"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("Flagged"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("Flag"), KeyType: types.KeyTypeHash}},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}); err != nil {
		t.Fatal(err)
	}
	if err := demo.WaitActive(ctx, db, "Ledger"); err != nil {
		t.Fatal(err)
	}
	for i := range 120 {
		status := "PASS"
		if i%10 == 0 {
			status = "FAIL"
		}
		it := dynamo.Item{"PK": s(fmt.Sprintf("acct#%02d", i%12)), "SK": s(fmt.Sprintf("job#%03d", i)), "Status": s(status), "Pad": s(strings.Repeat("p", 1000))}
		if i%15 == 0 {
			it["Flag"] = s("y")
		}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Ledger"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}

// flat is a screen's words in order, without the frames' borders, so that
// a sentence wrapped across lines reads whole.
func flat(screen string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╮", " ", "╰", " ", "╯", " ", "─", " ").Replace(screen)), " ")
}

// TestStatementCountsItsOwnDescribes: the prompt's request line counts
// the DescribeTables of this plan apart from those of the statements
// typed before it: planned on LibOneTable after a plan on LibElectro, it
// said "2 DescribeTables for the plan", one of them for the other table.
func TestStatementCountsItsOwnDescribes(t *testing.T) {
	h := newHarness(t, 120, 35, Config{})
	h.keys(":")
	h.typeText(`SELECT * FROM "Locations" WHERE PK = 'USA'`)
	h.keys("enter")
	h.contains(t, "Plan: ")
	if req := h.m.top().Request(); !strings.HasPrefix(req, "no item read yet, 1 DescribeTable for the plan") {
		t.Fatalf("after one plan the request line says %q", req)
	}
	h.keys("ctrl+u")
	h.typeText(`SELECT * FROM "Geography" WHERE PK = 'USA'`)
	h.keys("enter")
	h.contains(t, "Plan: ")
	if n := h.rec.count("DescribeTable"); n < 2 {
		t.Fatalf("%d DescribeTable for two tables", n)
	}
	if req := h.m.top().Request(); !strings.HasPrefix(req, "no item read yet, 1 DescribeTable for this plan, 2 in all") {
		t.Fatalf("a plan on a second table: the request line says %q", req)
	}
	h.keys("ctrl+u")
	h.typeText(`SELECT * FROM`)
	if req := h.m.top().Request(); !strings.HasPrefix(req, "no item read yet, 2 DescribeTables (Geography, Locations)") {
		t.Fatalf("a statement that does not parse: the request line says %q", req)
	}
}

// TestStatementFromTheTourNamesNoTable: : on the demo's tour opens an
// empty prompt: it opened holding SELECT * FROM "Tour" WHERE, and enter
// asked DynamoDB to describe a table named Tour.
func TestStatementFromTheTourNamesNoTable(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Tour: true})
	h.contains(t, "Demo tour")
	described := h.rec.count("DescribeTable")
	h.keys(":")
	h.contains(t, "PartiQL")
	if strings.Contains(h.screen(), `"Tour"`) || strings.Contains(h.screen(), "no such table") {
		t.Fatalf("the prompt opened on the tour names it as a table:\n%s", h.screen())
	}
	if n := h.rec.count("DescribeTable") - described; n != 0 {
		t.Fatalf("%d DescribeTable before anything was typed", n)
	}
}

// TestStatementOpensOnWhatThePageShows: : opens on the table and the
// index the page on top reads, as the page names them, never its first
// crumb: on an index, or a partition of one, it named the table alone
// (enter then read the table), and a table named PartiQL or Tables
// opened an empty prompt, its crumb taken for the prompt's or the list's.
func TestStatementOpensOnWhatThePageShows(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", Index: "ByCity"})
	h.contains(t, "Locations index ByCity · ")
	h.keys(":")
	h.contains(t, `* FROM "Locations"."ByCity" WHERE`, "Tables › Locations › index ByCity › PartiQL")
	h.keys("esc", "enter")
	h.contains(t, "index ByCity", "Query Locations index ByCity")
	h.keys(":")
	h.contains(t, `* FROM "Locations"."ByCity" WHERE`)

	db := memory.New()
	item := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "a"}, "SK": &types.AttributeValueMemberS{Value: "b"}}
	for _, name := range []string{"PartiQL", "Tables"} {
		if err := demo.CreateKeyTable(context.Background(), db, name, types.ScalarAttributeTypeS, []dynamo.Item{item}); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"PartiQL", "Tables"} {
		h := newHarness(t, 120, 35, Config{Client: db, Table: name})
		h.contains(t, name+" · 1 partition")
		h.keys(":")
		h.contains(t, `* FROM "`+name+`" WHERE`)
	}
}

// TestStatementOpensOnItsTable: : on a table's partitions list opens the
// box holding SELECT * FROM "table" WHERE, which is not yet a statement:
// it said "column 26: expected an attribute name" before a key was
// typed, the breadcrumb left the table out, and the request line counted
// the table's DescribeTable "for earlier plans" where there was none.
func TestStatementOpensOnItsTable(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Table: "Locations"})
		h.contains(t, "partitions")
		h.keys(":")
		h.contains(t, `* FROM "Locations" WHERE`, "type the condition after WHERE", "Tables › Locations › PartiQL")
		if strings.Contains(h.screen(), "column ") || strings.Contains(h.screen(), "expected") {
			t.Fatalf("%dx%d: the box as it opened is shown as an error:\n%s", size[0], size[1], h.screen())
		}
		if req := h.m.top().Request(); !strings.HasPrefix(req, "no item read yet, 1 DescribeTable (Locations)") || strings.Contains(req, "earlier") {
			t.Fatalf("%dx%d: the request line says %q", size[0], size[1], req)
		}
		h.typeText(`City = 'OMAHA'`)
		h.contains(t, "Plan: Scan Locations")
		h.keys("ctrl+u")
		h.typeText(`* FROM "Locations" WHERE`)
		h.contains(t, "column ") // typed, it is an error, said where
	}
}

// TestSearchCommandKeepsTheBudget: the command ? prints for f's search
// and a statement reads under the explorer's budget: --max-rcu where it
// is not the commands' default (a search stopped at 20 RCU printed a
// command that reads up to 1,000).
func TestSearchCommandKeepsTheBudget(t *testing.T) {
	for _, c := range []struct {
		budget float64
		flag   string
	}{{20, " --max-rcu 20"}, {12.5, " --max-rcu 12.5"}, {0, " --max-rcu none"}, {DefaultFilterBudget, ""}} {
		for _, statement := range []bool{false, true} {
			budget := c.budget
			h := newHarness(t, 200, 50, Config{Table: "Locations", FilterBudget: func(string) float64 { return budget }})
			h.contains(t, "partitions")
			want := `dynascope scan --demo --table Locations --filter 'City = "OMAHA"'` + c.flag
			if statement {
				h.keys(":")
				h.typeText(` City = 'OMAHA'`)
				want = `dynascope partiql --demo 'SELECT * FROM "Locations" WHERE  City = '\''OMAHA'\'''` + c.flag
			} else {
				h.keys("f")
				h.typeText(`City = "OMAHA"`)
			}
			h.keys("enter")
			h.contains(t, "OMAHA")
			if line := h.m.commandLine(); line != want {
				t.Errorf("budget %g: ? prints\n%s\nwant\n%s", budget, line, want)
			}
		}
	}
}

// TestSearchCostIsAboutTheTablesSize: the demo's Locations, 70.5 RCU
// by its size, is scanned whole by f's search in 2 reads billed 71.0 RCU
// (each read its own bytes rounded up): the words before the read say
// "about 70.5 RCU", and a statement's plan the same; they said "up to
// 70.5 RCU" and "worst case 70.5 RCU", which the read then passed.
func TestSearchCostIsAboutTheTablesSize(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations"})
	h.keys("f")
	h.typeText(`City = "NEWYORKCITY"`)
	if s := flat(h.screen()); !strings.Contains(s, "about 70.5 RCU for the whole table") || strings.Contains(s, "up to 70.5") {
		t.Fatalf("before the search:\n%s", h.screen())
	}
	h.keys("enter")
	h.contains(t, "whole table scanned")
	if req := h.m.top().Request(); !strings.Contains(req, "scanned 5,325 · matched 18 · 2 requests · 71.0 RCU") {
		t.Fatalf("the whole scan: %q", req)
	}
	h.keys("esc", ":", "ctrl+u")
	h.typeText(`* FROM "Locations" WHERE City = 'NEWYORKCITY'`)
	if s := flat(h.screen()); !strings.Contains(s, "Scan Locations in 1 segment: about 70.5 RCU") || !strings.Contains(s, "about 70.5 RCU to read the whole table") ||
		strings.Contains(s, "up to 70.5") || strings.Contains(s, "worst case") {
		t.Fatalf("the statement's plan:\n%s", h.screen())
	}
}

// TestSearchSaysWhatTheWholeReadCosts: before f's search or a statement
// reads, what the whole table (or index) costs is said from the size
// DynamoDB reported: "about N RCU" for a table, "at most about N RCU"
// for an index, which its table's size bounds (about: each read is billed
// its own bytes rounded up, TestSearchCostIsAboutTheTablesSize); where the size reported is 0 B
// (dynalite, or DynamoDB before its six-hourly update: a table of 2,000
// items, 277 RCU to scan, was said to cost "up to 0.0 RCU"), that the
// cost is not known. An index's search, read to its end, says the whole
// index was scanned, not the table.
func TestSearchSaysWhatTheWholeReadCosts(t *testing.T) {
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		costTable(t, db)
		info, _, err := dynamo.DescribeTable(context.Background(), db, "Ledger")
		if err != nil {
			t.Fatal(err)
		}
		rcu := fmt.Sprintf("%.1f RCU", dynamo.WholeReadRCU(info.SizeBytes))
		for _, c := range []struct {
			index, from, whole     string // the whole read's words, size reported
			request, plan, scanned string
		}{
			{"", `"Ledger"`, "about " + rcu + " for the whole table", "whole table ≈ " + rcu, "Scan Ledger in 1 segment: about " + rcu, "whole table scanned"},
			{"ByStatus", `"Ledger"."ByStatus"`, "at most about " + rcu + " for the whole index", "whole index ≤ " + rcu + " (its table's size)",
				"Scan Ledger index ByStatus in 1 segment: at most about " + rcu + " (its table's size)", "whole index scanned"},
		} {
			for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
				t.Run(fmt.Sprintf("%s/%s/%dx%d", name, c.index, size[0], size[1]), func(t *testing.T) {
					whole, request, plan, worst := c.whole, c.request, c.plan, "about "+rcu+" to read the whole table"
					if info.SizeBytes == 0 {
						whole, request = "its cost not known before reading (DynamoDB reports Ledger as 0 B", "cost not known (size reported as 0 B)"
						plan, _, _ = strings.Cut(plan, ": ")
						plan += ": cost not known (size reported as 0 B)"
						worst = "cost of the whole table not known (DynamoDB reports it as 0 B)"
					}
					h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Ledger", Index: c.index, FilterBudget: func(string) float64 { return 50 }})
					h.keys("f")
					if s := flat(h.screen()); !strings.Contains(s, whole) || strings.Contains(s, "0.0 RCU for") {
						t.Fatalf("before the search, the screen does not say %q:\n%s", whole, h.screen())
					}
					if req := h.m.top().Request(); !strings.Contains(req, request) || strings.Contains(req, " 0.0 RCU") {
						t.Fatalf("the request line says %q, not %q", req, request)
					}
					// begins_with pins no key: on ByStatus, Status = "FAIL"
					// reads its partition by Query (TestTableSearchPinnedKeyReadsByQuery).
					h.typeText(`begins_with(Status, "FAIL")`)
					h.keys("enter")
					for range 20 {
						if strings.Contains(h.screen(), c.scanned) {
							break
						}
						h.keys("pgdown")
					}
					h.contains(t, c.scanned, "matched 12")
					h.keys("esc", ":", "ctrl+u")
					h.typeText(`* FROM ` + c.from + ` WHERE Pad <> 'x'`)
					if req := h.m.top().Request(); !strings.Contains(req, plan) {
						t.Fatalf("the plan says %q, not %q", req, plan)
					}
					if s := flat(h.screen()); !strings.Contains(s, worst) {
						t.Fatalf("the prompt does not say %q:\n%s", worst, h.screen())
					}
					// Once read, the request line says what the reads cost,
					// and the estimate gives way to the filter: at 80
					// columns the line was cut at "filter …".
					h.keys("enter")
					est, _, _ := strings.Cut(plan, " in 1 segment")
					if req := h.m.top().Request(); !strings.HasPrefix(req, est+` in 1 segment · filter Pad <> "x"`) || !strings.Contains(req, " · scanned ") {
						t.Fatalf("after the read the request line says %q", req)
					}
					h.contains(t, `filter Pad <> "x"`)
				})
			}
		}
	}
}

// TestSearchFilterBarSaysWhatItsKeysDo: the line under a table search's
// filter bar says what enter and esc do there, not the items' "empty
// clears · esc undoes" (an empty filter searches nothing, esc before the
// first search goes back); enter on an empty bar keeps it open, so what
// is typed next is the filter (it closed the bar under "type a filter",
// and the keys typed then acted on the list).
func TestSearchFilterBarSaysWhatItsKeysDo(t *testing.T) {
	db := memory.New()
	seedSearchTable(t, db)
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Wide"})
			h.keys("f")
			h.contains(t, "enter searches the table · esc goes back", `filter › status = "FAILED" and attempts > 3 · begins_with(email, "ops@")`)
			if strings.Contains(h.screen(), "· s ") || strings.Contains(h.screen(), "· siz") && !strings.Contains(h.screen(), "size(payload) > 1000") {
				t.Fatalf("the bar's examples are cut inside one:\n%s", h.screen())
			}
			h.keys("enter")
			h.said(t, "A search of the whole table needs a filter")
			if !h.m.top().Capturing() {
				t.Fatalf("enter on an empty filter closed the bar:\n%s", h.screen())
			}
			h.typeText(`Status = "FAIL"`)
			h.keys("enter")
			h.contains(t, "matched ")
			h.keys("f")
			h.contains(t, "enter searches again · esc keeps the last filter")
			if strings.Contains(h.screen(), "empty clears") {
				t.Fatalf("the search's bar says an empty filter clears:\n%s", h.screen())
			}
			h.keys("esc")
			h.contains(t, `filter › Status = "FAIL"   (f to change)`)
		})
	}
}

// TestStatementOnAKeysOnlyIndex: a statement on an index that does not
// hold what it selects says so in its plan, on dynalite and the embedded
// backend, and its results show the columns it asked for: "SELECT PK,
// Pad" on a keys-only index listed empty Flag and SK columns (keys every
// item has, not asked for) and no word on why Pad was nowhere. enter on
// a row the SELECT cut reads the whole item by its key, or where the
// SELECT left the key out says so: it opened the part as the item ("size
// 9 B", Key: acct=<unset>), or failed with "SerializationException".
func TestStatementOnAKeysOnlyIndex(t *testing.T) {
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		costTable(t, db)
		for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, size[0], size[1]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Ledger"})
				h.keys(":", "ctrl+u")
				h.typeText(`PK, Pad FROM "Ledger"."Flagged" WHERE Flag = 'y'`)
				if s := flat(h.screen()); !strings.Contains(s, `Pad is not in index Flagged (it holds its keys only): no item read from it has it; FROM "Ledger" reads the table's items`) {
					t.Fatalf("the plan does not say Pad is not in the index:\n%s", h.screen())
				}
				h.keys("enter")
				h.contains(t, "8 matches · all read")
				lines := strings.Split(h.screen(), "\n")
				header := strings.Fields(strings.Trim(lines[2], "│ "))
				if len(header) == 0 || header[0] != "PK" || slices.Contains(header, "SK") || slices.Contains(header, "Flag") {
					t.Fatalf("the columns are %q, not those asked for:\n%s", header, h.screen())
				}
				// A row without the table's key opens nothing, and says why.
				gets := h.rec.count("GetItem")
				h.keys("enter")
				h.said(t, "No item to open: the SELECT leaves out the table's key (SK); SELECT * or name the key to open items")
				if _, ok := h.m.top().(*pages.Search); !ok || h.rec.count("GetItem") != gets {
					t.Fatalf("enter on a part without its key left the results (%T) or read (%d GetItem)", h.m.top(), h.rec.count("GetItem")-gets)
				}
				// A part of the table's items with their key: enter reads
				// the whole item (it opened the part, sized as the item).
				h.keys("esc", ":", "ctrl+u")
				h.typeText(`PK, SK FROM "Ledger" WHERE PK = 'acct#00'`)
				h.keys("enter", "enter")
				h.contains(t, `"Pad": "pppp`)
				if h.rec.count("GetItem") != gets+1 {
					t.Fatalf("%d GetItem to open a projected row, want 1", h.rec.count("GetItem")-gets)
				}
			})
		}
	}
}

// TestIndexSearchSaysWhatTheIndexHolds: a search of a keys-only index
// that matches nothing says the index holds keys only, and which
// attribute of the filter it does not hold, on dynalite and
// the embedded backend: 'No item of the 8 items read matches' read as if
// no item of the table did, where a flagged item's Status was FAIL.
func TestIndexSearchSaysWhatTheIndexHolds(t *testing.T) {
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		costTable(t, db)
		for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, size[0], size[1]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Ledger", Index: "Flagged"})
				h.keys("f")
				h.typeText(`Status = "FAIL"`)
				h.keys("enter")
				if s := flat(h.screen()); !strings.Contains(s, "No item of the 8 items read matches. Status is not in index Flagged (it holds its keys only): no item read from it has it; the table holds every attribute (esc, i, then f).") {
					t.Fatalf("the empty search does not say what the index holds:\n%s", h.screen())
				}
			})
		}
	}
}

// TestSearchOfNothingSaysThereWasNothing: a table-wide search of an empty
// table says the table holds no items, and a statement's Query under a key
// that holds none says so, on dynalite and the embedded backend; both said
// 'No item of the 0 items read matches', a filter matching none of nothing.
func TestSearchOfNothingSaysThereWasNothing(t *testing.T) {
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		if err := demo.CreateKeyTable(context.Background(), db, "Bare", types.ScalarAttributeTypeS, nil); err != nil {
			t.Fatal(err)
		}
		t.Run(name+"/filter", func(t *testing.T) {
			h := newHarness(t, 80, 24, Config{Client: db, Table: "Bare"})
			h.keys("f")
			h.typeText(`Status = "FAIL"`)
			h.keys("enter")
			if s := flat(h.screen()); !strings.Contains(s, "Bare holds no items: the Scan read none.") || strings.Contains(s, "of the 0 items") {
				t.Fatalf("the search of an empty table does not say it is empty:\n%s", h.screen())
			}
		})
		t.Run(name+"/statement", func(t *testing.T) {
			h := newHarness(t, 120, 35, Config{Client: db, Table: "Bare"})
			h.keys(":")
			h.send(keyPress("ctrl+u"))
			h.typeText(`SELECT * FROM "Bare" WHERE PK = 'nobody'`)
			h.keys("enter")
			if s := flat(h.screen()); !strings.Contains(s, "No item is under the statement's key condition: the Query read none.") {
				t.Fatalf("an empty Query's results do not say nothing was under the key:\n%s", h.screen())
			}
		})
	}
}

// TestStatementRefusedReadsNothing (39.3): a statement that is not a
// SELECT, or does not parse, says what is wrong and where, and enter
// reads nothing.
func TestStatementRefusedReadsNothing(t *testing.T) {
	db := memory.New()
	seedSearchTable(t, db)
	for _, text := range []string{`DELETE FROM "Wide" WHERE PK = 'acct#01'`, `UPDATE "Wide" SET a = 1`, `* FROM "Wide" WHERE Status = `} {
		h := newHarness(t, 120, 35, Config{Client: db, Table: "Wide"})
		before := h.rec.count("Scan") + h.rec.count("Query")
		h.keys(":")
		h.send(keyPress("ctrl+u"))
		h.typeText(text)
		h.keys("enter")
		s := h.screen()
		if !strings.Contains(s, "column") && !strings.Contains(s, "writes") {
			t.Errorf("%q: no refusal on screen:\n%s", text, s)
		}
		if n := h.rec.count("Scan") + h.rec.count("Query"); n != before {
			t.Errorf("%q: %d reads", text, n-before)
		}
		if _, ok := h.m.top().(*pages.Statement); !ok {
			t.Errorf("%q: the prompt closed on enter: %T", text, h.m.top())
		}
	}
	// What DynamoDB would refuse in a condition: said with the plan,
	// nothing read, with no budget too (the filter would be sent).
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Wide", FilterBudget: func(string) float64 { return 0 }})
	before := h.rec.count("Scan") + h.rec.count("Query")
	h.keys(":")
	h.send(keyPress("ctrl+u"))
	h.typeText(`* FROM "Wide" WHERE PK = 'acct#01' OR attribute_type(Status, 'Q')`)
	h.keys("enter")
	h.contains(t, "Invalid attribute type name found; type: Q")
	if n := h.rec.count("Scan") + h.rec.count("Query"); n != before {
		t.Errorf("a condition DynamoDB refuses: %d reads", n-before)
	}
	// A table that is not there: said when enter describes it, nothing read.
	h = newHarness(t, 120, 35, Config{Client: db})
	h.keys(":")
	h.typeText(`* FROM "Nope" WHERE a = 1`)
	h.contains(t, "enter describes Nope to plan it (nothing is read)")
	h.keys("enter")
	h.contains(t, "Cannot plan it:", "enter asks again")
	if n := h.rec.count("Scan") + h.rec.count("Query"); n != 0 {
		t.Errorf("%d reads for a table that is not there", n)
	}
	// A table whose name holds a dot, unquoted: FROM a.b is index b of
	// table a, and the prompt says so (it said "no such table").
	h = newHarness(t, 120, 35, Config{Client: db})
	h.keys(":")
	h.typeText(`* FROM Orders.v2 WHERE a = 1`)
	h.keys("enter")
	if s := flat(h.screen()); !strings.Contains(s, `Cannot plan it: no table Orders: FROM Orders.v2 reads index v2 of table Orders; a name with a dot goes in double quotes, FROM "Orders.v2"`) {
		t.Fatalf("an unquoted dotted name is not explained:\n%s", h.screen())
	}
}

// TestStatementErrorCaretUnderItsColumn: the caret under a statement
// that does not parse stands under the column's cell, wide characters
// counted as the terminal draws them; where the statement is longer than
// the box (which then shows its end) no caret is drawn, only the column:
// at 80 columns a caret at column 106 was drawn past the frame, cut to
// "…", and under wide characters it pointed before the mistake.
func TestStatementErrorCaretUnderItsColumn(t *testing.T) {
	db := memory.New()
	seedSearchTable(t, db)
	for _, c := range []struct {
		text  string
		caret bool
	}{
		{`* FROM "Wide" WHERE PK = 'acct' AND bogus(x)`, true},
		{`* FROM "Wide" WHERE PK = '北京北京' AND bogus(x)`, true},
		{`* FROM "Wide" WHERE PK = 'a\b\c' AND bogus(x)`, true}, // a backslash one cell, as the box shows it
		{`* FROM "Wide" WHERE PK = 'acct#01' AND Status = 'FAIL' AND Pad > 'a' AND SK > 'job' AND Pad <> 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' AND bogus(x)`, false},
	} {
		for _, size := range [][2]int{{80, 24}, {120, 35}} {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], c.text[len(c.text)-20:]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Wide"})
				h.keys(":", "ctrl+u")
				h.typeText(c.text)
				lines := strings.Split(h.screen(), "\n")
				box := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "SELECT › ") })
				if box < 0 || box+2 >= len(lines) {
					t.Fatalf("no prompt:\n%s", h.screen())
				}
				under := lines[box+1]
				if !c.caret {
					if strings.Contains(under, "^") || strings.Contains(under, "…") {
						t.Fatalf("a caret under a scrolled box:\n%s", h.screen())
					}
					h.contains(t, "column ")
					return
				}
				at := strings.Index(under, "^")
				if at < 0 {
					t.Fatalf("no caret:\n%s", h.screen())
				}
				// under the function the error names (bogus is not a function …)
				if want := ansi.StringWidth(lines[box][:strings.Index(lines[box], "bogus(")]); ansi.StringWidth(under[:at]) != want {
					t.Fatalf("the caret is at cell %d, bogus at %d:\n%s", ansi.StringWidth(under[:at]), want, h.screen())
				}
			})
		}
	}
}

// TestTableSearchRetriesOnlyTheFailedSegment (39.3): a table-wide search
// in two segments whose first Scan fails says so where its rows would be;
// r reads that segment again from where it was, the other going on, so
// every match is listed once, as a filtered full read finds them.
func TestTableSearchRetriesOnlyTheFailedSegment(t *testing.T) {
	ctx := context.Background()
	db := memory.New()
	var items []dynamo.Item
	pad := strings.Repeat("z", 1000)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	want := 0
	for i := range 9000 {
		status := "PASS"
		if i%101 == 0 {
			status, want = "FAIL", want+1
		}
		items = append(items, dynamo.Item{"PK": s(fmt.Sprintf("p%04d", i%900)), "SK": s(fmt.Sprintf("s%02d", i/900)), "Status": s(status), "Pad": s(pad)})
	}
	if err := demo.CreateKeyTable(ctx, db, "Big", types.ScalarAttributeTypeS, items); err != nil {
		t.Fatal(err)
	}
	if n := dynamo.SearchSegments(9000 * 1030); n < 2 {
		t.Fatalf("the table is read in %d segment", n)
	}
	fs := &failScans{Client: db, fail: map[int]bool{}}
	h := newHarness(t, 120, 35, Config{Client: fs, Table: "Big", FilterBudget: func(string) float64 { return 0 }})
	fs.mu.Lock()
	fs.fail[fs.n+1] = true // the search's first Scan
	fs.mu.Unlock()
	h.keys("f")
	h.typeText(`Status = "FAIL"`)
	h.keys("enter")
	h.contains(t, "read failed", "r retries")
	h.keys("r")
	for range 200 {
		if strings.Contains(h.screen(), "whole table scanned") {
			break
		}
		h.keys("pgdown")
	}
	h.contains(t, "whole table scanned", "TotalSegments: 2", "scanned 9,000")
	if got := searchRows(t, h); len(got) != want {
		t.Fatalf("%d matches, want %d", len(got), want)
	}
}

// pinnedMatches are the keys of the demo table's items (through index,
// "" for the table) whose attr is value for each attr given, by a plain
// Scan filtered here: what a search through the same filter lists.
func pinnedMatches(t *testing.T, table, index string, want map[string]string) map[string]bool {
	t.Helper()
	return demoMatches(t, table, index, func(it dynamo.Item) bool {
		for attr, v := range want {
			if s, ok := it[attr].(*types.AttributeValueMemberS); !ok || s.Value != v {
				return false
			}
		}
		return true
	})
}

// demoMatches are the keys of the demo table's items (through index)
// that match says match, by a plain Scan.
func demoMatches(t *testing.T, table, index string, match func(dynamo.Item) bool) map[string]bool {
	t.Helper()
	in := &dynamodb.ScanInput{TableName: aws.String(table)}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	out := map[string]bool{}
	for {
		page, err := demoData(t).Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			if !match(it) {
				continue
			}
			out[it["PK"].(*types.AttributeValueMemberS).Value+" "+it["SK"].(*types.AttributeValueMemberS).Value] = true
		}
		if in.ExclusiveStartKey = page.LastEvaluatedKey; len(page.LastEvaluatedKey) == 0 {
			return out
		}
	}
}

// TestTableSearchPinnedKeyReadsByQuery (39.3): f on a partitions list
// whose filter pins the partition key (the table's, or an index's) reads
// that partition by Query, planned as : plans the same WHERE. Before the
// read, the bar's note, the words where the matches will be and the
// request line say Query on the key and that its cost is not known
// (never the table's size as the partition's: it said "Every item of
// Locations is read … a Scan … up to 70.5 RCU for the whole table", and
// scanned 5,325 items); no Scan is sent, the matches are those of a
// filtered full read, "read N · matched M" counts what the Query read,
// the title says all read, not the whole table scanned; ? prints the
// scan command, which plans the same Query, enter opens a match; at every
// size (goldens).
func TestTableSearchPinnedKeyReadsByQuery(t *testing.T) {
	for _, c := range []struct {
		name, index, filter string
		want                map[string]string
		note, plan, command string
	}{
		{"table", "", `PK = "USA" and City = "OMAHA"`, map[string]string{"PK": "USA", "City": "OMAHA"},
			`enter reads partition PK = "USA" by Query`, `Query on Locations: PK = "USA" · filter City = "OMAHA"`,
			`dynascope scan --demo --table Locations --filter 'PK = "USA" and City = "OMAHA"' --max-rcu none`},
		{"index", "ByCity", `City = "OMAHA"`, map[string]string{"City": "OMAHA"},
			`enter reads partition City = "OMAHA" by Query`, `Query on Locations index ByCity: City = "OMAHA"`,
			`dynascope scan --demo --table Locations --index ByCity --filter 'City = "OMAHA"' --max-rcu none`},
	} {
		want := pinnedMatches(t, "Locations", c.index, c.want)
		for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, size[0], size[1]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], Config{Table: "Locations", Index: c.index, FilterBudget: func(string) float64 { return 0 }})
				scans, queries := h.rec.count("Scan"), h.rec.count("Query")
				before, _ := h.m.cfg.Session.Billed()
				h.keys("f")
				h.typeText(c.filter)
				s := h.m.top().(*pages.Search)
				if note, _ := s.Typed(); note != c.filter {
					t.Fatalf("the bar holds %q", note)
				}
				screen := flat(h.screen())
				if !strings.Contains(screen, "Its cost is not known before reading") || strings.Contains(screen, "Every item") || strings.Contains(screen, "whole table") {
					t.Fatalf("before the read the screen does not say a Query of unknown cost:\n%s", h.screen())
				}
				if size[0] >= 120 && !strings.Contains(screen, c.note) {
					t.Fatalf("the bar's note does not say %q:\n%s", c.note, h.screen())
				}
				if req := h.m.top().Request(); !strings.HasPrefix(req, c.plan) || !strings.Contains(req, "cost not known before reading") || strings.Contains(req, "whole table") {
					t.Fatalf("before the read the request line says %q", req)
				}
				h.keys("enter")
				for range 100 {
					if strings.Contains(h.screen(), "all read") {
						break
					}
					h.keys("pgdown")
				}
				h.contains(t, fmt.Sprintf("%d matches · all read", len(want)))
				if n := h.rec.count("Scan") - scans; n != 0 || h.rec.count("Query") == queries {
					t.Fatalf("%d Scans and %d Queries for a filter that pins the key", n, h.rec.count("Query")-queries)
				}
				got := searchRows(t, h)
				if len(got) != len(want) || len(want) == 0 {
					t.Fatalf("%d matches, want %d", len(got), len(want))
				}
				for k := range want {
					if !got[k] {
						t.Errorf("%s matches and is not listed", k)
					}
				}
				spent, _ := h.m.cfg.Session.Billed()
				req := h.m.top().Request()
				if !strings.HasPrefix(req, c.plan) || !strings.Contains(req, fmt.Sprintf("matched %d", len(want))) || !strings.Contains(req, " · read ") || strings.Contains(req, "scanned") {
					t.Fatalf("after the read the request line says %q", req)
				}
				t.Logf("%s: %d matches for %.1f RCU, %d Queries: %s", c.filter, len(got), spent-before, h.rec.count("Query")-queries, req)
				h.keys("f") // the bar opened again says what enter reads
				if size[0] >= 120 {
					h.contains(t, c.note+" · esc keeps the last filter")
				}
				h.keys("esc", "g")
				h.golden(t)
				// y copies the Query it read, not a Scan.
				build, ok := h.m.top().(*pages.Search).AWSCommand()
				if !ok || !strings.HasPrefix(build("us-east-1", ""), "aws dynamodb query") {
					t.Fatalf("y copies no aws dynamodb query (%v)", ok)
				}
				h.keys("?")
				if s := flat(h.screen()); !strings.Contains(s, "this view: "+c.command) {
					t.Fatalf("? does not print %s:\n%s", c.command, h.screen())
				}
				h.keys("?", "enter")
				h.contains(t, `"City": "OMAHA"`) // the item view of the first match
			})
		}
	}
}

// TestTableSearchPinnedToNoKeyReadsNothing: f whose filter pins the
// partition key to what no key is (a number for a string key, an empty
// key) matches no item: the line under the bar, the words where the
// matches will be and the request line say so and what to write, and
// enter reads nothing (it scanned the whole table), on dynalite and the
// embedded backend, at every size. An OR branch so pinned is left out,
// said, and the other branch read by Query.
func TestTableSearchPinnedToNoKeyReadsNothing(t *testing.T) {
	dl := dynalitetest.Start(t).Client()
	if _, err := demo.Seed(context.Background(), dl, demo.Options{Tables: []string{"Locations"}}); err != nil {
		t.Fatal(err)
	}
	for name, db := range map[string]dynamo.Client{"memory": demoData(t), "dynalite": dl} {
		for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			for _, c := range []struct{ filter, why string }{
				{`PK = 5 and City = "OMAHA"`, `PK is a string key, so PK = 5 matches no item: write PK = "5"`},
				{`City = "OMAHA" and PK = ""`, `PK = "" matches no item: a partition key is never empty; write the key's value`},
				{`PK = "USA" and SK > 5`, `SK is a string key, so SK > 5 matches no item: write SK > "5"`},
			} {
				h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Locations", FilterBudget: func(string) float64 { return 0 }})
				scans, queries := h.rec.count("Scan"), h.rec.count("Query")
				h.keys("f")
				h.typeText(c.filter)
				screen := flat(h.screen())
				if !strings.Contains(screen, "✗ "+c.why[:30]) || !strings.Contains(screen, "enter reads nothing") {
					t.Fatalf("%s %dx%d %s: the bar does not say it matches nothing:\n%s", name, size[0], size[1], c.filter, h.screen())
				}
				if size[0] >= 120 && !strings.Contains(screen, "Nothing is read: "+c.why) {
					t.Fatalf("%s %dx%d %s: the screen does not say nothing is read, and why:\n%s", name, size[0], size[1], c.filter, h.screen())
				}
				if req := h.m.top().Request(); req != "Nothing read: "+c.why {
					t.Fatalf("%s %s: before enter the request line says %q", name, c.filter, req)
				}
				h.keys("enter")
				if n, q := h.rec.count("Scan")-scans, h.rec.count("Query")-queries; n != 0 || q != 0 {
					t.Fatalf("%s %s: %d Scans, %d Queries for a filter that matches nothing", name, c.filter, n, q)
				}
				if s, ok := h.m.top().(*pages.Search); !ok || !editing(s) {
					t.Fatalf("%s %s: the bar closed on a filter that matches nothing", name, c.filter)
				}
				h.contains(t, "Nothing read: ")
			}
			// One OR branch pins the key to what no key is: left out, the
			// other branch's partition read by Query, and said.
			h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Locations", FilterBudget: func(string) float64 { return 0 }})
			scans := h.rec.count("Scan")
			h.keys("f")
			h.typeText(`PK = 5 or (PK = "USA" and City = "OMAHA")`)
			said := `PK is a string key, so PK = 5 matches no item: write PK = "5"; that branch is left out, the rest read`
			if req := h.m.top().Request(); !strings.HasPrefix(req, `Query on Locations: PK = "USA"`) || !strings.Contains(req, said) {
				t.Fatalf("%s: before the read the request line says %q", name, req)
			}
			h.keys("enter")
			for range 100 {
				if strings.Contains(h.screen(), "all read") {
					break
				}
				h.keys("pgdown")
			}
			want := pinnedMatches(t, "Locations", "", map[string]string{"PK": "USA", "City": "OMAHA"})
			h.contains(t, fmt.Sprintf("%d matches · all read", len(want)))
			if n := h.rec.count("Scan") - scans; n != 0 {
				t.Fatalf("%s: %d Scans: the branch that matches nothing scanned the table", name, n)
			}
			if req := h.m.top().Request(); !strings.HasPrefix(req, `Query on Locations: PK = "USA"`) || !strings.Contains(req, said) {
				t.Fatalf("%s: after the read the request line says %q", name, req)
			}
		}
	}
	// A filter that pins no key says nothing of the kind.
	h := newHarness(t, 220, 50, Config{Table: "Locations", FilterBudget: func(string) float64 { return 0 }})
	h.keys("f")
	h.typeText(`City = "OMAHA"`)
	if req := h.m.top().Request(); strings.Contains(req, "not a Query") || strings.Contains(req, "matches no item") {
		t.Fatalf("a filter that pins no key: %q", req)
	}
}

// editing reports whether s's filter bar is open.
func editing(s *pages.Search) bool {
	_, open := s.Typed()
	return open
}

// TestTableSearchPinnedKeyStopsAndGoesOn (39.3): a search that reads its
// partition by Query stops at the budget (RCU billed at the recording
// client) and says so in the Query's words (items read, the rest of the
// Query not read: never scanned, or the table), exports the matches so
// far as such, and r reads on a budget at a time to every match; esc
// mid-read cancels, and r reads on from there; / finds a loaded match
// and enter opens it.
func TestTableSearchPinnedKeyStopsAndGoesOn(t *testing.T) {
	const budget = 10.0
	const filter = `PK = "USA" and DriveThru = true`
	want := demoMatches(t, "Locations", "", func(it dynamo.Item) bool {
		b, ok := it["DriveThru"].(*types.AttributeValueMemberBOOL)
		return it["PK"].(*types.AttributeValueMemberS).Value == "USA" && ok && b.Value
	})
	h := newHarness(t, 120, 35, Config{Table: "Locations", FilterBudget: func(string) float64 { return budget }})
	scans := h.rec.count("Scan")
	before, _ := h.m.cfg.Session.Billed()
	h.keys("f")
	h.typeText(filter)
	h.keys("enter")
	for range 50 { // it reads while the rows below the cursor do not fill two screens
		if strings.Contains(h.screen(), "stopped at the budget") {
			break
		}
		h.keys("pgdown")
	}
	spent, _ := h.m.cfg.Session.Billed()
	if spent-before > budget+0.5 || spent-before < budget/2 {
		t.Fatalf("the search spent %.1f RCU under a %.0f RCU budget", spent-before, budget)
	}
	h.contains(t, "stopped at the budget: r reads on", " of ≥")
	h.said(t, " items read, the rest of the Query not read; r spends up to 10.0 RCU more")
	req := h.m.top().Request()
	if !strings.HasPrefix(req, `Query on Locations: PK = "USA" · filter DriveThru = true · applied here, items read whole · read `) ||
		!strings.Contains(req, "budget 10.0 RCU") || strings.Contains(req, "scanned") {
		t.Fatalf("at the budget the request line says %q", req)
	}
	h.exportTo(t, t.TempDir(), "dynascope-Locations-search.jsonl", "already loaded: 0 RCU")
	h.said(t, fmt.Sprintf("exported %d items (the matches so far; the rest of the Query not read) · to ", len(searchRows(t, h))))
	for i := 0; i < 20 && !strings.Contains(h.screen(), "all read"); i++ {
		from, _ := h.m.cfg.Session.Billed()
		h.keys("r")
		for range 50 {
			if s := h.screen(); strings.Contains(s, "all read") || strings.Contains(s, "stopped at the budget") {
				break
			}
			h.keys("pgdown")
		}
		if to, _ := h.m.cfg.Session.Billed(); to-from > budget+0.5 {
			t.Fatalf("r spent %.1f RCU for a %.0f RCU budget", to-from, budget)
		}
	}
	if got := searchRows(t, h); len(got) != len(want) || h.rec.count("Scan") != scans {
		t.Fatalf("%d matches after reading on, want %d; %d Scans", len(got), len(want), h.rec.count("Scan")-scans)
	}
	all, _ := h.m.cfg.Session.Billed()
	t.Logf("%s in %.0f RCU steps: %d matches, %.1f RCU billed", filter, budget, len(want), all-before)

	// esc while the first Query is in flight, then r.
	h = newHarness(t, 120, 35, Config{Table: "Locations", FilterBudget: func(string) float64 { return 0 }})
	h.keys("f")
	h.typeText(filter)
	if _, cmd := h.m.Update(keyPress("enter")); cmd == nil { // the first Query, held
		t.Fatal("enter read nothing")
	}
	queries := h.rec.count("Query")
	h.keys("esc")
	h.contains(t, "Search Locations · read cancelled · nothing loaded · r reads on")
	h.keys("down", "pgdown", "G")
	if n := h.rec.count("Query") - queries; n != 0 {
		t.Fatalf("%d Queries after esc, before r", n)
	}
	h.keys("r")
	for range 100 {
		if strings.Contains(h.screen(), "all read") {
			break
		}
		h.keys("pgdown")
	}
	if got := searchRows(t, h); len(got) != len(want) {
		t.Fatalf("%d matches after r, want %d", len(got), len(want))
	}
	h.keys("g", "/")
	h.typeText("NE#OMAHA#54228")
	h.keys("enter", "enter")
	h.contains(t, `"SK": "NE#OMAHA#54228`)
}

// A search pinned to a partition whose key holds control characters says
// the key on its request line as the filter writes it (ctl\x01\x1b[31m),
// which typed back finds the same partition; the line said
// "ctl\\x01\\x1b[31m", its escapes escaped again, which names another key.
func TestTableSearchRequestLineSaysTheKeyAsTyped(t *testing.T) {
	db := memory.New()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	items := []dynamo.Item{
		{"PK": s("ctl\x01\x1b[31m"), "SK": s("a"), "Status": s("FAIL")},
		{"PK": s("ctl\x01\x1b[31m"), "SK": s("b"), "Status": s("PASS")},
		{"PK": s("plain"), "SK": s("a"), "Status": s("FAIL")},
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Odd", types.ScalarAttributeTypeS, items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Odd"})
	h.keys("f")
	h.typeText(`PK = "ctl\x01\x1b[31m" and Status = "FAIL"`)
	h.keys("enter")
	h.contains(t, "1 match")
	if req := h.m.top().Request(); !strings.HasPrefix(req, `Query on Odd: PK = "ctl\x01\x1b[31m" · filter Status = "FAIL"`) {
		t.Fatalf("the request line says %q", req)
	}
}

// A table search's filter is said on its bar and request line as typed
// ("tab\there", `we\ird`), which typed back finds the same items: both
// said "tab\\there", the filter's own escape escaped again, which is a
// backslash and "there" to the filter; a Query's filter too.
func TestTableSearchFilterSaidAsTyped(t *testing.T) {
	db := memory.New()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	items := []dynamo.Item{
		{"PK": s("a"), "SK": s("a"), "Note": s("tab\there\x1b"), "we\\ird": s("x")},
		{"PK": s("b"), "SK": s("b"), "Note": s("tab\there\x1b")},
		{"PK": s("c"), "SK": s("c"), "Note": s("plain")},
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Odd", types.ScalarAttributeTypeS, items); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ typed, matches, request string }{
		{"Note = \"tab\\there\\x1b\" or `we\\ird` = \"x\"", "2 matches", "Scan Odd  filter Note = \"tab\\there\\x1b\" or `we\\ird` = \"x\""},
		{"PK = \"b\" and Note = \"tab\\there\\x1b\"", "1 match", "Query on Odd: PK = \"b\" · filter Note = \"tab\\there\\x1b\""},
	} {
		h := newHarness(t, 200, 35, Config{Client: db, Table: "Odd"})
		h.keys("f")
		h.typeText(c.typed)
		h.keys("enter")
		h.contains(t, c.matches, "filter › "+c.typed+"   (f to change)")
		if req := h.m.top().Request(); !strings.HasPrefix(req, c.request) {
			t.Errorf("typed %s, the request line says %q", c.typed, req)
		}
	}
}

// TestStatementBackFromItsResultsSaysTheyRead: esc from a statement's
// results comes back to its prompt, whose request line says the run read
// the items; it said "no item read yet" of a statement that had just
// read 57. Typed otherwise, the statement shown has read nothing.
func TestStatementBackFromItsResultsSaysTheyRead(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Table: "Locations"})
		h.keys(":")
		h.typeText(` PK = 'USA' AND begins_with(SK, 'NE#')`)
		h.keys("enter")
		h.contains(t, "57 matches")
		h.keys("esc")
		if _, ok := h.m.top().(*pages.Statement); !ok {
			t.Fatalf("%dx%d: esc did not come back to the prompt:\n%s", size[0], size[1], h.screen())
		}
		if req := h.m.top().Request(); !strings.HasPrefix(req, "run: its results read the items, enter runs it again, 1 DescribeTable for the plan") {
			t.Errorf("%dx%d: back from the results, the prompt says %q", size[0], size[1], req)
		}
		h.keys("backspace")
		if req := h.m.top().Request(); !strings.HasPrefix(req, "no item read yet") {
			t.Errorf("%dx%d: another statement typed, the prompt says %q", size[0], size[1], req)
		}
	}
}

// TestLocalIndexSearchSaysWhereToSearch: f on a local index that holds
// keys only, naming an attribute it does not hold, is refused before any
// read (DynamoDB would read it from the table item by item), and says
// where the search can go instead, as a keys-only GSI's empty search
// does: it said "Nothing read: …, which dynascope does not" and no more.
func TestLocalIndexSearchSaysWhereToSearch(t *testing.T) {
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		loansTable(t, db)
		for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, size[0], size[1]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Loans", Index: "ByDay"})
				before := h.rec.count("Scan") + h.rec.count("Query")
				h.keys("f")
				h.typeText(`renewals = 3`)
				h.keys("enter")
				h.contains(t, "renewals is not in local index ByDay")
				if s := flat(h.screen()); !strings.Contains(s, "esc, i, then f") {
					t.Fatalf("the refusal does not say where to search:\n%s", h.screen())
				}
				if n := h.rec.count("Scan") + h.rec.count("Query"); n != before {
					t.Fatalf("a refused search read %d times", n-before)
				}
				// The bar's refusal, cut to three lines at 80 columns, says
				// it is cut: it ended "or filter only on", as if whole.
				for _, line := range strings.Split(h.screen(), "\n") {
					if strings.HasSuffix(strings.TrimRight(strings.TrimSuffix(strings.TrimRight(line, " "), "│"), " "), "filter only on") {
						t.Fatalf("a refusal cut without a mark:\n%s", h.screen())
					}
				}
			})
		}
	}
}

// loansTable writes a table Loans of 24 items with a local index ByDay
// on day that holds keys only.
func loansTable(t *testing.T, db seedable) {
	t.Helper()
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Loans"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"},
			{AttributeName: aws.String("sk"), AttributeType: "S"}, {AttributeName: aws.String("day"), AttributeType: "S"}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("ByDay"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("day"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}); err != nil {
		t.Fatal(err)
	}
	if err := demo.WaitActive(ctx, db, "Loans"); err != nil {
		t.Fatal(err)
	}
	for i := range 24 {
		it := dynamo.Item{"pk": s(fmt.Sprintf("m%d", i%3)), "sk": s(fmt.Sprintf("loan#%02d", i)), "day": s(fmt.Sprintf("2025-03-%02d", i+1)),
			"renewals": &types.AttributeValueMemberN{Value: fmt.Sprint(i % 4)}}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Loans"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}
