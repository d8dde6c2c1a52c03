package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// keysDB is a table "T" (PK, SK strings) holding the given sort keys under
// partition "p".
func keysDB(t testing.TB, sks ...string) *memory.DB {
	t.Helper()
	db := memory.New()
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("T"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}}}); err != nil {
		t.Fatal(err)
	}
	for _, sk := range sks {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("T"), Item: dynamo.Item{"PK": s("p"), "SK": s(sk)}}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestTreeTitleCountsRows (25.6): the tree's title counts its rows by
// what they are: 11 items, 5 of them also prefixes, are 16 rows, "5
// prefixes · 11 items", never "11 children · 5 items".
func TestTreeTitleCountsRows(t *testing.T) {
	var sks []string
	for i := range 11 {
		sks = append(sks, fmt.Sprintf("k%02d", i))
		if i < 5 {
			sks = append(sks, fmt.Sprintf("k%02d#x", i))
		}
	}
	h := newHarness(t, 120, 35, Config{Table: "T", PK: "p", Client: keysDB(t, sks...)})
	h.contains(t, "p · 5 prefixes · 11 items · all", "row 1 of 16")
	h = newHarness(t, 120, 35, Config{Table: "T", PK: "p", Client: keysDB(t, "a#1", "b#1")})
	h.contains(t, "p · 2 prefixes · all", "row 1 of 2")
	h = newHarness(t, 120, 35, Config{Table: "T", PK: "p", Client: keysDB(t, "a#1", "b#1", "c")})
	h.contains(t, "p · 2 prefixes · 1 item · all", "row 1 of 3")
}

// peeker calls look before every read reaches the backend: the screen as
// it stands while that read is in flight.
type peeker struct {
	dynamo.Client
	look func()
}

func (p *peeker) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	p.look()
	return p.Client.Query(ctx, in, o...)
}

func (p *peeker) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	p.look()
	return p.Client.ListTables(ctx, in, o...)
}

func (p *peeker) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	p.look()
	return p.Client.Scan(ctx, in, o...)
}

// firstScreens opens cfg at 120×35 after keys, and returns the screen as
// it stood when the first read after the keys was sent.
func firstScreen(t *testing.T, cfg Config, keys ...string) string {
	t.Helper()
	var h *harness
	var first *string
	armed := len(keys) == 0
	p := &peeker{Client: demoData(t)}
	p.look = func() {
		if armed && first == nil && h != nil {
			s := h.screen()
			first = &s
		}
	}
	cfg.Client, cfg.Now, cfg.Connection = p, demoClock, "DEMO"
	rec := record(cfg.Client)
	metered := dynamo.NewMetered(rec)
	cfg.Client, cfg.Session = metered, metered.Session
	h = harnessFor(t, New(cfg), rec)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 35})
	h.run(h.m.Init())
	armed = true
	h.keys(keys...)
	if first == nil {
		t.Fatal("no read seen")
	}
	return *first
}

// finalCount is a row count that says the list is all read: "no rows"
// (not "no rows yet"), or "of M" without ≥.
var finalCount = regexp.MustCompile(`no rows *\n|no rows$|row [\d,]+ of [\d,]+`)

// TestTitlesBeforeTheFirstAnswer (25.7): while a view's first read is in
// flight its title says "reading…", never a count or "all".
func TestTitlesBeforeTheFirstAnswer(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		keys []string
	}{
		{"tables", Config{}, []string{"r"}}, // the first page is the preflight's: r reads it again
		{"partitions", Config{Table: "Locations"}, nil},
		{"tree", Config{Table: "Locations", PK: "USA"}, nil},
		{"items", Config{Table: "Locations", PK: "USA"}, []string{"2"}},
		{"versions", Config{Table: "Equipment", PK: demo.DriftedPiece}, []string{"3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := firstScreen(t, c.cfg, c.keys...)
			title := strings.Split(s, "\n")[1]
			if !strings.Contains(title, "reading…") || strings.Contains(title, " 0 ") || strings.Contains(title, "· all") {
				t.Fatalf("before the first answer the title says more than reading…:\n%s", s)
			}
			// The row count agrees with the title: nothing counted yet,
			// never "no rows" (an empty list) or a final "of M".
			if pos := finalCount.FindString(s); pos != "" {
				t.Fatalf("before the first answer the row count says %q:\n%s", pos, s)
			}
		})
	}
}

// TestTitlesWhileReadAgain: a list read again (r) says reading… in its
// title until the answer, as before the first one, and its row count
// "of ≥M": never the last answer's count, which says the list is whole
// while it is being read.
func TestTitlesWhileReadAgain(t *testing.T) {
	for _, c := range []struct {
		name, mode, answer, before string
		cfg                        Config
	}{
		{"versions", "3", "pages.versionsLoadedMsg", "versioned item", Config{Table: "Equipment", PK: demo.DriftedPiece}},
		{"changes", "5", "pages.changesReadMsg", "changes in 24 h", Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Now: func() time.Time { return demo.DemoEnd }}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := demoData(t)
			c.cfg.Client, c.cfg.Streams = db, db
			h := newHarness(t, 120, 35, c.cfg)
			h.keys(c.mode)
			h.contains(t, c.before)
			h.press("r", func(msg tea.Msg) bool { return fmt.Sprintf("%T", msg) != c.answer })
			title := strings.Split(h.screen(), "\n")[1]
			if !strings.Contains(title, "reading…") || strings.Contains(title, c.before) {
				t.Fatalf("read again, the title says more than reading…:\n%s", h.screen())
			}
			if pos := finalCount.FindString(h.screen()); pos != "" { // the rows kept are not all
				t.Fatalf("read again, the row count says %q:\n%s", pos, h.screen())
			}
		})
	}
}

// TestTourSaysWhatWasRead (25.14, 25.11): the tour's request line names
// what the preflight read (the table list) beside the session's count,
// never "nothing read" beside "1 req"; esc says where it goes, and goes
// there: the tables from the start, back to the view T was pressed on.
func TestTourSaysWhatWasRead(t *testing.T) {
	rec := record(demoData(t))
	metered := dynamo.NewMetered(rec)
	cfg := Config{Connection: "DEMO", Tour: true, Now: demoClock, Connect: func(ctx context.Context) (Connected, error) {
		names, _, err := dynamo.ListTables(ctx, metered)
		return Connected{Client: metered, Session: metered.Session, TableNames: names}, err
	}}
	h := harnessFor(t, New(cfg), rec)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 35})
	h.run(h.m.Init())
	h.contains(t, "Demo tour", "1 req ·", "read so far: the table list (ListTables: ", "tables), 1 request in all", "esc: the tables")
	if strings.Contains(h.screen(), "nothing read") {
		t.Fatalf("nothing read beside 1 req:\n%s", h.screen())
	}
	h.keys("3")
	h.contains(t, "versioned item")
	h.keys("T")
	h.contains(t, "Demo tour", "esc: back to Equipment › ")
	h.keys("esc")
	h.contains(t, "versioned item")
}

// TestMaskOneStandInPerValue (25.12, 27.18): a masked key is the same
// stand-ins, segment by segment as the README says, in the grid, the item
// view, its copy and the breadcrumb, also when the table's description
// came from the command line's preflight (around the masked client).
func TestMaskOneStandInPerValue(t *testing.T) {
	info, _, err := dynamo.DescribeTable(context.Background(), demoData(t), "Locations")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"described by the explorer", "described by the preflight"} {
		t.Run(name, func(t *testing.T) {
			cfg := Config{Mask: maskLocations, Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#", Now: demoClock}
			if name == "described by the preflight" {
				cfg.Info = &info
			}
			h := newHarness(t, 120, 30, cfg)
			h.keys("tab")
			segmented := regexp.MustCompile(`‹m\d+›#‹m\d+›#‹m\d+›`)
			grid := segmented.FindString(strings.Split(h.screen(), "\n")[3])
			if grid == "" {
				t.Fatalf("the grid's sort key is not masked segment by segment:\n%s", h.screen())
			}
			h.keys("enter")
			h.contains(t, `"SK": "`+grid+`"`, "› "+grid)
			if copied := h.sent("y"); !strings.Contains(copied, grid) {
				t.Fatalf("the copy holds another stand-in than %s:\n%s", grid, copied)
			}
		})
	}
}

// TestTimeKeepsTheDrilledPrefix (25.19): from portland › amsg#, 4 lists
// amsg's messages (not everyone's) and says so; a range typed there runs
// under amsg#; 1 goes back to the tree where it was.
func TestTimeKeepsTheDrilledPrefix(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "ChatMessages", PK: "portland", Prefix: "amsg#", Now: demoClock})
	h.keys("4")
	h.contains(t, "portland › amsg# · ", "under amsg#, drilled in the tree", `:prefix="amsg#"`)
	rows := strings.Split(h.screen(), "\n")[5:15]
	for _, r := range rows {
		if strings.Contains(r, "msg#") && !strings.Contains(r, "amsg#") {
			t.Fatalf("another user's message listed under amsg#:\n%s", h.screen())
		}
	}
	h.keys("t")
	h.clearInput(40)
	h.typeText("2018-08")
	h.keys("enter")
	h.contains(t, "portland › amsg# · ", `amsg#2018-08`)
	h.keys("1")
	h.contains(t, "amsg# · ", " · delimiter ")
	h.keys("2", "t") // t from Items under the prefix keeps it too
	h.contains(t, "portland › amsg# · ", "under amsg#, drilled in the tree")
	// At every size the line under the bar says the prefix kept and the
	// key's time format: at 80 columns the prefix's whole note pushed the
	// format out ("under amsg#, drilled in the tree (esc, then 4…").
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Table: "ChatMessages", PK: "portland", Prefix: "amsg#", Now: demoClock})
		h.keys("4")
		info := strings.Split(h.screen(), "\n")[3]
		if !strings.Contains(info, "under amsg#") || !strings.Contains(info, "MessageID holds ") || !strings.Contains(info, "(detected)") {
			t.Errorf("%dx%d: the line under the bar: %q", size[0], size[1], info)
		}
	}
}

// manyKeys are n sort keys k00000… under partition "p".
func manyKeys(n int) []string {
	var sks []string
	for i := range n {
		sks = append(sks, fmt.Sprintf("k%05d", i))
	}
	return sks
}

// TestPageDownsAfterGStopAtTheGap (25.9): after G, a burst of page-downs
// from the top (sent while the read is in flight) stops at the unread
// gap and reads it, never jumping to the rows read from the end; the row
// number says where the cursor is in the partition where that is known.
func TestPageDownsAfterGStopAtTheGap(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Table: "T", PK: "p", Client: keysDB(t, manyKeys(3000)...)})
	h.keys("2", "G")
	h.contains(t, "k02999")
	// It is the last row, of a list of at least the rows read: all that
	// is known ("row ≥40 of ≥40 · 1 from the end" said it three ways).
	if pos := h.m.position(); !regexp.MustCompile(`^last row of ≥[0-9,]+$`).MatchString(pos) {
		t.Fatalf("after G the row number claims a place it cannot know: %q", pos)
	}
	h.keys("k", "k")
	if pos := h.m.position(); !regexp.MustCompile(`^row 3 from the end of ≥[0-9,]+$`).MatchString(pos) {
		t.Fatalf("two rows up from the last: %q", pos)
	}
	h.keys("g")
	h.contains(t, "row 1 of ≥")
	var cmds []tea.Cmd
	for range 30 {
		_, cmd := h.m.Update(keyPress("pgdown"))
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		h.run(c)
	}
	s := h.screen()
	if strings.Contains(s, "k02999") || strings.Contains(s, "k029") {
		t.Fatalf("the page-downs jumped the gap to the end:\n%s", s)
	}
	h.keys("down")
	if pos := h.m.position(); strings.Contains(pos, "from the end") || strings.Contains(pos, "last row") {
		t.Fatalf("the cursor is past the gap: %q\n%s", pos, h.screen())
	}
}

// parityDB is keysDB's table with n items, each with Odd = yes or no.
func parityDB(t testing.TB, n int) *memory.DB {
	t.Helper()
	db := keysDB(t)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for i := range n {
		odd := map[bool]string{true: "yes", false: "no"}[i%2 == 1]
		if _, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("T"),
			Item: dynamo.Item{"PK": s("p"), "SK": s(fmt.Sprintf("k%05d", i)), "Odd": s(odd), "Pad": s(strings.Repeat("x", 2000))}}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestFilteredCountsFollowTheRowsAfterG (25.8): a filtered list's matched
// count is the rows listed, those read from the end after G included; and
// filling the gap never reads an item twice: scrolled from the top to the
// end, what was scanned is the partition, once.
func TestFilteredCountsFollowTheRowsAfterG(t *testing.T) {
	const n = 3000
	f, err := domain.ParseFilter(`Odd = "yes"`)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 80, 24, Config{Table: "T", PK: "p", Filter: f, Client: parityDB(t, n)})
	h.keys("G")
	matched := regexp.MustCompile(`([\d,]+) matched of ([\d,]+) scanned`)
	count := func() (int, int) {
		m := matched.FindStringSubmatch(h.screen())
		if m == nil {
			t.Fatalf("no matched count:\n%s", h.screen())
		}
		var a, b int
		fmt.Sscan(strings.ReplaceAll(m[1], ",", ""), &a)
		fmt.Sscan(strings.ReplaceAll(m[2], ",", ""), &b)
		return a, b
	}
	rows := h.m.top().(common.Searchable).List().Rows() - 1 // less the gap row
	if got, _ := count(); got != rows {
		t.Fatalf("%d matched over %d rows:\n%s", got, rows, h.screen())
	}
	h.keys("g")
	for range 400 {
		if strings.Contains(h.screen(), "· all ·") {
			break
		}
		h.keys("pgdown")
	}
	got, scanned := count()
	if got != n/2 || scanned != n {
		t.Fatalf("read to the end: %d matched of %d scanned, want %d of %d (an item read twice)\n%s", got, scanned, n/2, n, h.screen())
	}
}

// TestCurrentCopyNoDifferenceFromItself (25.11): under "Δ vs v0" the
// current copy's row shows no difference count (it is v0).
func TestCurrentCopyNoDifferenceFromItself(t *testing.T) {
	h := newHarness(t, 100, 40, Config{Table: "Equipment", PK: demo.DriftedPiece})
	h.keys("3", "down", "enter", "0")
	h.contains(t, "Δ vs v0")
	if regexp.MustCompile(`★ +v0 current +\d`).MatchString(h.screen()) {
		t.Fatalf("the current copy differs from itself:\n%s", h.screen())
	}
}

// TestStrictRangeDescribedAsAfter (25.11): a strict "> day" leaves the
// day's last key out: the request line starts at the next day's first
// second, in the range grammar's words ("since", which the bar reads back
// to the same condition), never "from" the day's last second.
func TestStrictRangeDescribedAsAfter(t *testing.T) {
	h := newHarness(t, 200, 50, Config{Table: "DeviceLogs", PK: "123", Range: "> 2018-09-01", Now: demoClock})
	h.contains(t, "since 2018-09-02 00:00:00 UTC", "Timestamp >= :sk", ":sk=1535846400")
	if strings.Contains(h.screen(), "from 2018-09-01 23:59:59") {
		t.Fatalf("a strict bound described as from:\n%s", h.screen())
	}
}

// TestPickersShowTheirOwnPosition (25.11): an open picker's row number
// counts its choices, not the list beneath.
func TestPickersShowTheirOwnPosition(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		keys []string
	}{
		{"index", Config{Table: "Locations", PK: "USA"}, []string{"i"}},
		{"delimiter", Config{Table: "Locations", PK: "USA", Prefix: "NY#"}, []string{"D"}},
		{"columns", Config{Table: "DeviceLogs", PK: "9000"}, []string{"C"}},
		{"partitions' index", Config{Table: "Locations"}, []string{"i"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 120, 35, c.cfg)
			list := h.m.position()
			h.keys(c.keys...)
			pos := h.m.position()
			if pos == list || strings.Contains(pos, "≥") {
				t.Fatalf("the picker shows the list's position %q (before: %q):\n%s", pos, list, h.screen())
			}
		})
	}
}

// TestVersionsDecisionSameOnEveryPath (25.11): on the tour's AuditLog
// stop, 3 ends in "No Versions mode here", the words the dimmed tab says
// when the partition is reached through the tree.
func TestVersionsDecisionSameOnEveryPath(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Tour: true, Now: demoClock})
	h.keys("9", "3")
	h.contains(t, "No Versions mode here")
	h = newHarness(t, 120, 35, Config{Table: "AuditLog", PK: "prod-api", Now: demoClock})
	h.keys("3")
	h.said(t, "No Versions mode here")
}

// TestExportNameFitsAndPromptKeepsText (27.19, 25.20, 25.21): a 2 KB key
// still gets a default file name a file system takes (its start and a
// hash); a name refused leaves the prompt open with the text typed, the
// reason said; the message names the folder written to.
func TestExportNameFitsAndPromptKeepsText(t *testing.T) {
	long := strings.Repeat("é", 480) // 960 bytes: a sort key takes 1,024
	h := newHarness(t, 120, 35, Config{Table: "T", PK: "p", Prefix: long + "#", Client: keysDB(t, long+"#x", long+"#y")})
	h.contains(t, "row 1 of 2")
	h.keys("e")
	name := h.m.export.input.Value()
	if len(name) > 255 || !strings.HasPrefix(name, "dynascope-T-p-é") || !strings.HasSuffix(name, ".jsonl") || !utf8.ValidString(name) {
		t.Fatalf("the default name (%d bytes): %q", len(name), name)
	}
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope", name)
	h.m.export.input.SetValue(missing)
	h.keys("enter")
	h.contains(t, "export to › ")
	if !strings.Contains(fmt.Sprint(h.m.lastErr), "does not exist") {
		t.Fatalf("the refusal is not said: %v", h.m.lastErr)
	}
	if got := h.m.export.input.Value(); got != missing || !h.m.export.naming {
		t.Fatalf("the prompt lost the text typed: %q", got)
	}
	h.m.export.input.SetValue(filepath.Join(dir, strings.Repeat("a", 294)+".jsonl"))
	h.keys("enter")
	if !strings.Contains(fmt.Sprint(h.m.lastErr), "the file name is 300 bytes: file systems take at most 255") {
		t.Fatalf("a name too long is not said as such: %v", h.m.lastErr)
	}
	h.m.export.input.SetValue(filepath.Join(dir, name))
	h.keys("enter")
	h.said(t, "exported 2 children · to "+filepath.Join(dir, name))
	if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// TestLocalTimeNamesItsZone (25.21): z shows local times under the zone's
// name, not "local" alone.
func TestLocalTimeNamesItsZone(t *testing.T) {
	was := time.Local
	time.Local = time.FixedZone("CET", 3600)
	defer func() { time.Local = was }()
	h := newHarness(t, 120, 35, Config{Table: "DeviceLogs", PK: "123", Range: "2018", Now: demoClock})
	h.keys("z")
	h.contains(t, "Time (CET)", "times in local time, CET")
}

// wideItemDB is keysDB's table with one item "k" of attrs attributes a0000…,
// and a long Note.
func wideItemDB(t testing.TB, attrs int) *memory.DB {
	t.Helper()
	db := keysDB(t)
	it := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: "k"},
		"Note": &types.AttributeValueMemberS{Value: strings.Repeat("long words ", 40) + "END"}}
	for i := range attrs {
		it[fmt.Sprintf("a%04d", i)] = &types.AttributeValueMemberN{Value: fmt.Sprint(i)}
	}
	if _, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("T"), Item: it}); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestItemViewMarksCutValues (27.17): a value wider than the panel ends in
// "…" and keeps its type tag, at every size; a revision opened from a
// timeline is under the Versions tab, not Items (25.21).
func TestItemViewMarksCutValues(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, sz[0], sz[1], Config{Table: "T", PK: "p", Client: wideItemDB(t, 3)})
		h.keys("2", "enter")
		var line string
		for _, l := range strings.Split(h.screen(), "\n") {
			if strings.Contains(l, `"Note"`) {
				line = l
			}
		}
		if !regexp.MustCompile(`…"?  S +│$`).MatchString(line) || strings.Contains(line, "END") {
			t.Fatalf("%dx%d: the cut value is not marked, or lost its type:\n%q", sz[0], sz[1], line)
		}
	}
	h := newHarness(t, 100, 40, Config{Table: "Equipment", PK: demo.DriftedPiece})
	h.keys("3", "down", "enter", "enter")
	if got := h.m.top().Mode(); got != "Versions" {
		t.Fatalf("a revision opened from its timeline is under %q", got)
	}
}

// BenchmarkItemViewKey (27.17) measures a key and a frame on the item view
// of a 5,000-attribute item: rendered once, then only the lines shown.
func BenchmarkItemViewKey(b *testing.B) {
	h := newHarness(b, 120, 35, Config{Table: "T", PK: "p", Client: wideItemDB(b, 5000)})
	h.keys("2", "enter")
	b.ResetTimer()
	for i := range b.N {
		h.keys([]string{"down", "up"}[i%2])
		_ = h.m.render()
	}
}

// TestReopenKeepsIndexAndPrefix (25.22): ?'s reopen command holds the
// index and the prefix of the view, Time mode's included.
func TestReopenKeepsIndexAndPrefix(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		keys []string
		want []string
	}{
		{Config{Table: "ChatMessages", PK: "portland", Prefix: "amsg#"}, []string{"4"}, []string{"--prefix 'amsg#'"}},
		{Config{Table: "ChatMessages", PK: "portland", Prefix: "amsg#", Range: "2018-08"}, nil, []string{"--prefix 'amsg#'", "--range 2018-08"}},
		{Config{Table: "ChatMessages", PK: "portland", Index: "ByTime", Range: "2018-08-29"}, nil, []string{"--index ByTime", "--range 2018-08-29"}},
	} {
		h := newHarness(t, 200, 50, c.cfg)
		h.keys(c.keys...)
		line := h.m.commandLine()
		for _, w := range c.want {
			if !strings.Contains(line, w) {
				t.Errorf("%+v: the reopen command lacks %q: %s", c.cfg, w, line)
			}
		}
	}
}

// TestTitleNamesTheIndex (25.20): the index read is named in the title of
// every view reading it, not only on the request line.
func TestTitleNamesTheIndex(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		keys []string
	}{
		{Config{Table: "ChatMessages", PK: "portland", Index: "ByTime", Range: "2018-08-29"}, nil},
		{Config{Table: "ChatMessages", PK: "portland", Index: "ByTime"}, []string{"2"}},
		{Config{Table: "Locations", PK: "BAYVIEW", Index: "ByCity"}, nil},
	} {
		h := newHarness(t, 200, 50, c.cfg)
		h.keys(c.keys...)
		title := strings.Split(h.screen(), "\n")[1]
		if !strings.Contains(title, "index "+c.cfg.Index) {
			t.Errorf("%+v: the title does not name the index:\n%s", c.cfg, h.screen())
		}
	}
}

// TestTableCountsSaidToBeEstimates (25.20): DescribeTable's item counts
// and sizes are labelled DynamoDB's estimate, updated about every 6 hours.
func TestTableCountsSaidToBeEstimates(t *testing.T) {
	h := newHarness(t, 200, 50, Config{})
	h.contains(t, "Items (est.)", "DynamoDB's estimate, updated about every 6 hours")
}

// uncounted is a server that reports every table as dynalite (and a fresh
// DynamoDB table) does: 0 items in 0 bytes, whatever it holds.
type uncounted struct{ dynamo.Client }

func (u uncounted) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	out, err := u.Client.DescribeTable(ctx, in, o...)
	if err == nil && out.Table != nil {
		t := *out.Table
		t.ItemCount, t.TableSizeBytes = aws.Int64(0), aws.Int64(0)
		out = &dynamodb.DescribeTableOutput{Table: &t}
	}
	return out, err
}

// TestTableDetailsNoteWhole: the details' remark on DynamoDB's counts is
// wrapped to the pane, whole at every width it shows at; at 120 columns
// (p) it was cut line by line: "DynamoDB reports 0 items and…", "counted
// yet reads 0 whether …".
func TestTableDetailsNoteWhole(t *testing.T) {
	for _, c := range []struct {
		client dynamo.Client
		note   string
	}{
		{uncounted{demoData(t)}, "DynamoDB reports 0 items and 0 bytes: its estimate is updated about every 6 hours, and a table it has not counted yet reads 0 whether it holds items or not"},
		{demoData(t), "DynamoDB's estimate, updated about every 6 hours"},
	} {
		for _, size := range [][2]int{{120, 35}, {200, 50}} {
			h := newHarness(t, size[0], size[1], Config{Client: c.client})
			if size[0] < 140 {
				h.keys("p")
			}
			var details []string
			for _, l := range strings.Split(h.screen(), "\n") {
				if _, right, ok := strings.Cut(l, "││"); ok {
					right = strings.TrimSpace(strings.TrimSuffix(strings.TrimRight(right, " "), "│"))
					if strings.HasSuffix(right, "…") {
						t.Errorf("%v: a line of the details is cut: %q", size, right)
					}
					details = append(details, right)
				}
			}
			if got := strings.Join(strings.Fields(strings.Join(details, " ")), " "); !strings.Contains(got, c.note) {
				t.Errorf("%v: the details do not say %q whole:\n%s", size, c.note, h.screen())
			}
		}
	}
}

// TestTableCountsNotReportedAreNotZero (35.15): a table DescribeTable
// reports as 0 items in 0 bytes reads "–" in the list and "not reported"
// in its details, never as empty; nothing is read to find out.
func TestTableCountsNotReportedAreNotZero(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Client: uncounted{demoData(t)}})
		s := h.screen()
		row := ""
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "Locations") {
				row, _, _ = strings.Cut(l, "││") // the list's side, not the details'
			}
		}
		if strings.Contains(s, "Items (est.)") && !strings.Contains(row, "–") || regexp.MustCompile(`\s0\s`).MatchString(row) {
			t.Errorf("%v: the row of a table not counted reads as a count: %q\n%s", size, row, s)
		}
		if size[0] == 200 && !strings.Contains(s, "not reported") {
			t.Errorf("%v: the details do not say the count is not reported:\n%s", size, s)
		}
		if n := h.rec.count("Scan") + h.rec.count("Query"); n != 0 {
			t.Errorf("%v: %d reads to find out", size, n)
		}
	}
}

// TestGoToMissingPartitionSaysSo (25.20): / on the partitions with a key
// no item has opens a view that says there is no such partition, never
// an empty one.
func TestGoToMissingPartitionSaysSo(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations"})
	h.keys("/")
	h.typeText("ATLANTIS")
	h.keys("enter")
	h.contains(t, "ATLANTIS · does not exist", "No item has the partition key ATLANTIS: there is no such partition.")
	h.keys("2")
	h.contains(t, "No item has the partition key ATLANTIS")
}

// TestJumpOutsideTheRangeSaysWhy (25.20): @ a time outside the rows
// listed selects the nearest row and says why.
func TestJumpOutsideTheRangeSaysWhy(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "AuditLog", PK: "prod-api", Range: "last 24h", Now: demoClock})
	h.keys("t")
	h.clearInput(40)
	h.typeText("@ 2020-01-01")
	h.keys("enter")
	h.said(t, "is beyond the last row of this range")
	h.keys("t")
	h.clearInput(40)
	h.typeText("@ 2030-01-01")
	h.keys("enter")
	h.said(t, "is past the first row listed")
}

// TestFollowPastRangeSaysSo (25.20): F on a range that ended in the past
// says nothing new can fall in it, rather than polling without a word.
func TestFollowPastRangeSaysSo(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "DeviceLogs", PK: "123", Range: "2018", Now: demoClock})
	h.keys("F")
	h.said(t, "in the past: nothing new can fall in it")
	if strings.Contains(h.screen(), "following ·") {
		t.Fatalf("following a range that ended:\n%s", h.screen())
	}
}

// TestTreeCountsBesideALongSegment: a segment wider than the screen (a
// 900-character sort key) leaves the Items column its room, at every
// size: the key column took the row and with it the counts, while the
// status bar said "every prefix here is counted" (dynalite, a new user's
// walk on a table of odd keys).
func TestTreeCountsBesideALongSegment(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for _, sk := range []string{strings.Repeat("S", 900) + "#tail", "a#1", "a#2", "b#x"} {
		items = append(items, dynamo.Item{"PK": s("p"), "SK": s(sk)})
	}
	for name, db := range map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()} {
		if err := demo.CreateKeyTable(context.Background(), db, "Odd", "S", items); err != nil {
			t.Fatal(err)
		}
		for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, size[0], size[1]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Odd", PK: "p"})
				h.contains(t, "p · 3 prefixes · all")
				if !strings.Contains(h.screen(), "c counts") {
					h.keys("c") // counted already: c says so
					h.said(t, "every prefix here is counted")
				}
				want := map[string]string{"a#": "2", "b#": "1", "tail": "1"} // the long one ends …S#
				for _, l := range strings.Split(h.screen(), "\n") {
					f := strings.Fields(strings.Trim(l, "│ "))
					if !strings.HasPrefix(l, "│") || len(f) < 3 || f[0] != "▸" {
						continue
					}
					key := f[1]
					if strings.HasPrefix(key, "SSS") {
						key = "tail"
					}
					if n := f[len(f)-1]; want[key] != n {
						t.Errorf("%s shows %q for its items, want %s: %q", key, n, want[key], l)
					}
					delete(want, key)
				}
				if len(want) > 0 {
					t.Fatalf("rows not shown with their counts %v:\n%s", want, h.screen())
				}
			})
		}
	}
}

// TestTreeWalkNamesTheDelimiterItCuts: while a walk goes on (and once
// it is stopped) the title names the delimiter its rows are cut at: it
// said "delimiter ?" over AK#, AL#… until the walk's end (a new user's
// walk behind a slow link).
func TestTreeWalkNamesTheDelimiterItCuts(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			cfg := Config{Table: "Locations", PK: "USA", Connection: "DEMO"}
			rec := record(demoData(t))
			metered := dynamo.NewMetered(rec)
			cfg.Client, cfg.Session = metered, metered.Session
			h := harnessFor(t, New(cfg), rec)
			snapshots := 0
			h.d.Drop = func(msg tea.Msg) bool { // the walk's first snapshot only: it goes on
				if fmt.Sprintf("%T", msg) == "pages.childrenFoundMsg" {
					snapshots++
					return snapshots > 1
				}
				_, tick := msg.(loadTickMsg)
				return tick
			}
			h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			h.run(h.m.Init())
			h.contains(t, "finding…", "▸ AK#")
			if s := h.screen(); !strings.Contains(s, "delimiter #") || strings.Contains(s, "delimiter ?") {
				t.Fatalf("the walk's rows are cut at #; the title says:\n%s", s)
			}
			h.keys("esc")
			h.contains(t, "read cancelled", "delimiter #")
		})
	}
}

// TestTreeCountWhileListingSaysToPressAgain: c while the level is still
// being walked counts nothing and is not kept for later; the status bar
// said "c counts once the level is listed", which stayed there over a
// level listed in full with nothing counted, as a promise.
func TestTreeCountWhileListingSaysToPressAgain(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations"})
	var held tea.Cmd
	h.press("enter", func(msg tea.Msg) bool { // USA: hold the walk once it lists a child
		if fmt.Sprintf("%T", msg) == "pages.childrenFoundMsg" && strings.Contains(h.screen(), "finding…") {
			held = func() tea.Msg { return msg }
			return false
		}
		return true
	})
	if held == nil {
		t.Fatalf("the walk never listed a child while finding:\n%s", h.screen())
	}
	queries := h.rec.count("Query")
	h.keys("c")
	h.said(t, "not counted: the level is still being listed; c again once it is")
	h.run(held)
	h.contains(t, "53 prefixes · 1 item · all", "Items (c counts)")
	if n := h.rec.count("Query") - queries; !regexp.MustCompile(`AZ#\s+prefix\s+–`).MatchString(h.screen()) {
		t.Fatalf("c while listing counted once listed (%d Queries):\n%s", n, h.screen())
	}
	h.keys("c")
	if !regexp.MustCompile(`AZ#\s+prefix\s+115`).MatchString(h.screen()) {
		t.Fatalf("c again, once listed, did not count:\n%s", h.screen())
	}
}

// TestTreeItemsNotCounted: a branch's Items cell before c counts it says
// so ("–", under a heading naming c) instead of a blank that read as
// nothing, or none; counted, the figures stand alone under "Items"; a
// sharded level, where c counts per shard, only says they are not counted.
func TestTreeItemsNotCounted(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Table: "Locations", PK: "USA"})
	h.contains(t, "Kind    Items (c counts)")
	if !regexp.MustCompile(`AZ#\s+prefix\s+–`).MatchString(h.screen()) { // AK… are counted from the walk's keys
		t.Fatalf("AZ, not counted, does not say so:\n%s", h.screen())
	}
	h.keys("c")
	h.contains(t, "prefix     56")
	if s := h.screen(); strings.Contains(s, "(c counts)") || strings.Contains(s, "–") {
		t.Fatalf("counted, the column still says not counted:\n%s", s)
	}

	// t (no key holds time) and c (every child counted) say why the
	// level declines them, and only that.
	for _, k := range []string{"t", "c"} {
		before := len(h.m.said)
		h.keys(k)
		if len(h.m.said) == before {
			t.Errorf("%s on a level that declines it said nothing", k)
		}
		for _, s := range h.m.said[before:] {
			if strings.Contains(s.whole(), "does not apply here: it") {
				t.Errorf("%s on a tree level was answered as another screen's key: %q", k, s.whole())
			}
		}
	}

	h = newHarness(t, 120, 35, Config{Table: "ChatMessages", PK: "seattle-{1..4}"})
	h.contains(t, "Items (not counted)")
	if strings.Contains(h.screen(), "(c counts)") {
		t.Fatalf("a sharded level offers c, which it refuses:\n%s", h.screen())
	}
	// c (and f, t, i) there say they act per shard, and only that: each
	// was also answered as another screen's key, "c count does not apply
	// here: it counts a Tree level's children (1)", on a tree level.
	for _, k := range []string{"c", "f", "t", "i"} {
		before := len(h.m.said)
		h.keys(k)
		h.said(t, "per shard")
		for _, s := range h.m.said[before:] {
			if strings.Contains(s.whole(), "does not apply here") {
				t.Errorf("%s on a sharded level said %q", k, s.whole())
			}
		}
	}
}
