package ui

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// TestNoGoroutineOutsideCommands: the explorer's code starts goroutines
// only inside common.Stream (the command that starts a streamed read when
// the program runs it) and in what runs under it. A go statement in Init
// or Update would start a read before any command ran ("no I/O in
// Update").
func TestNoGoroutineOutsideCommands(t *testing.T) {
	allowed := map[string]string{
		"common/stream.go:Stream": "the command that starts a stream",
		"jobs_unix.go:watchJobs":  "waits for signals (SIGTSTP, SIGQUIT), reads nothing",
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			where := filepath.ToSlash(path) + ":" + fn.Name.Name
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok && allowed[where] == "" {
					t.Errorf("%s: a goroutine started in %s: start reads with common.Stream", fset.Position(g.Pos()), where)
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// programKey marks the program's context in TestReadsUnderTheProgramsContext.
type programKey struct{}

// contextCheck notes every read made outside the program's context.
type contextCheck struct {
	dynamo.Client
	mu      sync.Mutex
	outside []string
}

func (c *contextCheck) check(ctx context.Context, op string) {
	if ctx.Value(programKey{}) == nil {
		c.mu.Lock()
		c.outside = append(c.outside, op)
		c.mu.Unlock()
	}
}

func (c *contextCheck) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.check(ctx, "Query")
	return c.Client.Query(ctx, in, o...)
}

func (c *contextCheck) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	c.check(ctx, "Scan")
	return c.Client.Scan(ctx, in, o...)
}

func (c *contextCheck) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.check(ctx, "GetItem")
	return c.Client.GetItem(ctx, in, o...)
}

func (c *contextCheck) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	c.check(ctx, "DescribeTable")
	return c.Client.DescribeTable(ctx, in, o...)
}

func (c *contextCheck) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	c.check(ctx, "ListTables")
	return c.Client.ListTables(ctx, in, o...)
}

// TestReadsUnderTheProgramsContext: every read the explorer makes (a deep
// link, the tree, a count, an export, items, a reference, a time range)
// runs under the program's context, so quitting ends it; none under a
// context of its own.
func TestReadsUnderTheProgramsContext(t *testing.T) {
	ctx := context.WithValue(context.Background(), programKey{}, true)
	cc := &contextCheck{Client: demoData(t)}
	h := newHarnessIn(t, ctx, 160, 30, Config{Client: cc, Table: "Locations", PK: "USA", Prefix: "NY#"})
	h.keys("c") // the tree
	h.contains(t, "MAPLEVIEW#")
	h.keys("c") // count
	h.keys("e", "enter")
	h.said(t, "exported")
	h.keys("tab") // items
	h.contains(t, "items loaded")
	h.keys(">") // follow a reference, found or not

	h = newHarnessIn(t, ctx, 160, 30, Config{Client: cc, Table: "AuditLog", PK: demo.AuditStream, Now: func() time.Time { return demo.DemoEnd }})
	h.keys("t")
	h.typeText("last 24h")
	h.keys("enter")
	h.contains(t, "items loaded")
	h.keys("e", "enter")
	h.said(t, "exported")
	if len(cc.outside) > 0 {
		t.Fatalf("reads outside the program's context: %v", cc.outside)
	}
}

// TestRequestLinesBillAsTheStatusBar: a read that found nothing is
// reported at 0 RCU by the embedded backend (as by dynalite), and billed
// 0.5 by DynamoDB. Every view's request line says what the status bar says,
// "0.5 RCU est.", where they used to say the server's 0.0 beside it.
func TestRequestLinesBillAsTheStatusBar(t *testing.T) {
	f, err := domain.ParseFilter(`Status = "FAIL"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cfg  Config
		want []string
	}{
		{"items, filtered", Config{Table: "DeviceLogs", PK: "999999", Filter: f},
			[]string{"· 1 req · 0.5 RCU est.", "(0.5 RCU est.)"}},
		{"time", Config{Table: "DeviceLogs", PK: "999999", Range: "< 1536019200", Now: demoClock},
			[]string{"· 1 req · 0.5 RCU est."}},
		// the keys under v, and a page of the partition looked at for a
		// name-first family (DOC#d1#v1): two empty reads (what was looked
		// for is wrapped to the frame)
		{"versions", Config{Table: "Equipment", PK: "nothing-here", Versions: "*"},
			[]string{"· 2 req · 1.0 RCU est.", "looked for {name}#v{n}, {name}_v{n} or {name}#VERSION#{n}", "partition holds no key."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 200, 40, c.cfg)
			scr := h.screen()
			if !strings.Contains(scr, "req · 0.5 RCU est. ·") && !strings.Contains(scr, "req · 1.0 RCU est. ·") {
				t.Fatalf("the status bar does not bill the empty read:\n%s", scr)
			}
			for _, w := range c.want {
				if !strings.Contains(scr, w) {
					t.Errorf("%q not on screen:\n%s", w, scr)
				}
			}
			if strings.Contains(scr, "0.0 RCU") {
				t.Errorf("the server's 0.0 RCU shown beside the bill:\n%s", scr)
			}
		})
	}
}

// sentLimits records each Query's Limit (0: none).
type sentLimits struct {
	*recorder
	mu   sync.Mutex
	sent []int32
}

func (l *sentLimits) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	l.mu.Lock()
	if in.Limit != nil {
		l.sent = append(l.sent, *in.Limit)
	} else {
		l.sent = append(l.sent, 0)
	}
	l.mu.Unlock()
	return l.recorder.Query(ctx, in, o...)
}

// TestFirstScreenIsOneQuery: opening a partition's items at each size
// reads one page sized to the screen (its rows and a few), and nothing
// ahead until the user moves (it read a second page of two screens before
// anyone pressed a key: 60 rows for the 17 on screen at 80×24); the first
// move reads on ahead. The harness draws between messages as the program
// does: without a drawing the grid had no height, and the old read ahead
// never showed.
func TestFirstScreenIsOneQuery(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			l := &sentLimits{recorder: record(demoData(t))}
			h := newHarness(t, size[0], size[1], Config{Client: l, Table: "Locations", PK: "USA"})
			l.mu.Lock()
			before := len(l.sent)
			l.mu.Unlock()
			h.keys("2")
			h.contains(t, "items loaded")
			l.mu.Lock()
			sent := append([]int32(nil), l.sent[before:]...)
			l.mu.Unlock()
			rows := size[1] - 7
			if len(sent) != 1 || int(sent[0]) < rows || int(sent[0]) > rows+8 {
				t.Fatalf("opening sent Limits %v for about %d rows on screen\n%s", sent, rows, h.screen())
			}
			h.keys("down")
			l.mu.Lock()
			after := len(l.sent)
			l.mu.Unlock()
			if after != before+2 {
				t.Errorf("the first move sent %d more Queries; want 1, the page ahead", after-before-1)
			}
		})
	}
}

// TestBurstLandsWhereItLeads (37.6): keys typed faster than the reads
// (200 j at once on the first screen, every key in before any read comes
// back) land on the row they lead to: the rows they pass are read as they
// come, in reads sized to where the keys lead rather than one per doubling.
// Before, every key past the first screen's last row was lost: the cursor
// stopped at row 33 of the 33 read. G then 199 k (every k in before G's
// read from the end answers) lands 200 rows from the end, read backwards
// in one more Query: before, the k's stopped at the unread gap and were
// lost, on the screen-first build and on one that read whole pages alike.
// The first key's read waits for the keys typed with it (list.ReadOnMsg):
// before, it read 8 screens ahead for the first key, then what the others
// owed, one round trip more (200 pgdown: 4 round trips where reading
// whole pages takes 2).
func TestBurstLandsWhereItLeads(t *testing.T) {
	for _, c := range []struct {
		first string // typed first, in the same burst
		key   string
		n     int
		want  string
		reads int
		// least: the least Limit of the first Query, sized to where every
		// key typed leads (the screen's rows held aside), not to the
		// first key's read-ahead (8 screens, 136 rows).
		least int32
	}{{"", "j", 200, "row 201 of", 1, 180}, {"", "pgdown", 30, "row 511 of", 1, 490}, {"", "pgdown", 200, "row 3,401 of", 1, 3350}, {"G", "k", 199, "row 200 from the end of ≥", 2, 0}} {
		t.Run(c.first+c.key, func(t *testing.T) {
			cfg := Config{Table: "Locations", PK: "USA"}
			var db dynamo.Client = demoData(t)
			if c.first == "G" {
				cfg = Config{Table: "T", PK: "p"}
				db = keysDB(t, manyKeys(3000)...)
			}
			l := &sentLimits{recorder: record(db)}
			cfg.Client = l
			h := newHarness(t, 80, 24, cfg)
			h.keys("2")
			h.contains(t, "items loaded", "row 1 of")
			l.mu.Lock()
			before := len(l.sent)
			l.mu.Unlock()
			var cmds []tea.Cmd
			if c.first != "" {
				_, cmd := h.m.Update(keyPress(c.first))
				cmds = append(cmds, cmd)
			}
			for range c.n { // all typed before any read answers
				_, cmd := h.m.Update(keyPress(c.key))
				cmds = append(cmds, cmd)
			}
			h.run(tea.Batch(cmds...))
			h.contains(t, c.want)
			l.mu.Lock()
			sent := append([]int32(nil), l.sent[before:]...)
			l.mu.Unlock()
			if len(sent) > c.reads+1 { // the reads to land, and the screen ahead of it
				t.Errorf("the burst sent %d Queries (Limits %v); want at most %d", len(sent), sent, c.reads+1)
			}
			if len(sent) > 0 && sent[0] != 0 && sent[0] < c.least {
				t.Errorf("the burst's first Query read %d rows (Limits %v); want at least %d, where the keys typed lead", sent[0], sent, c.least)
			}
		})
	}
}

// TestPageMovesTypedAtOnceReadWhileTyped (37.6): page moves typed at
// once, each taken before any read answers (as 200 pgdown reach the model
// before the first read's answer), send their read as soon as they owe
// half a 1 MB page: twice that is the most one Query returns, so it cannot
// grow by waiting for the rest of the keys, and it is read while they are
// taken. 200 pgdown past the first screen of 5,000 ~316-byte items
// (~1.6 MB) then land after two Queries, the first out after about 60
// keys; before, nothing left until every key was in, and the two Queries
// came after the keys (the burst took 1.25× a build reading a whole page
// first, at 50 ms a request). A short burst still waits for all its keys:
// 20 pgdown owe a sixth of a page, read in one Query after the last.
func TestPageMovesTypedAtOnceReadWhileTyped(t *testing.T) {
	db := burstTable(t)
	for _, c := range []struct {
		n         int
		want      string
		whileKeys bool // a Query leaves before the last key
	}{{200, "row 5,000 of 5,000", true}, {20, "row 561 of ≥", false}} {
		t.Run(fmt.Sprint(c.n), func(t *testing.T) {
			l := &sentLimits{recorder: record(db)}
			h := newHarness(t, 120, 35, Config{Client: l, Table: "Burst", PK: "burst"})
			h.contains(t, "items loaded", "row 1 of")
			sent := func() []int32 {
				l.mu.Lock()
				defer l.mu.Unlock()
				return append([]int32(nil), l.sent...)
			}
			before, leftAt := len(sent()), 0
			var answers []tea.Msg // queued behind the keys, as the keys reach the model first
			for i := range c.n {
				_, cmd := h.m.Update(keyPress("pgdown"))
				answers = append(answers, runAll(cmd)...)
				if leftAt == 0 && len(sent()) > before {
					leftAt = i + 1
				}
			}
			for _, msg := range answers {
				h.send(msg)
			}
			h.contains(t, c.want)
			burst := sent()[before:]
			if c.whileKeys && (leftAt == 0 || leftAt == c.n) {
				t.Errorf("no Query left while the %d keys were taken (Limits %v): the read waited for every key", c.n, burst)
			}
			if !c.whileKeys && leftAt != 0 {
				t.Errorf("a Query left at key %d of %d (Limits %v): a short burst's read waits for all its keys", leftAt, c.n, burst)
			}
			if len(burst) > 2 {
				t.Errorf("the burst sent %d Queries (Limits %v); want 2: a page, then the rest", len(burst), burst)
			}
		})
	}
}

// TestPageMovesTypedOneAtATimeReadAsQueued (37.6): page moves that reach
// the model one at a time, as Bubble Tea delivers typed keys, the read's
// turn (list.ReadOnMsg) taken between two of them, read what the same keys
// queued read: the read waits while page moves keep coming, until they
// stop or owe half a page. Before, the read left on its turn after the
// second key, 8 screens, then two more as the others came: 200 pgdown
// took three Queries where queued keys take two (1.31–1.42× a build
// reading a whole page first, at 50 ms a request). A single page move, a
// short burst and j's read as before: one Query after their keys.
func TestPageMovesTypedOneAtATimeReadAsQueued(t *testing.T) {
	db := burstTable(t)
	for _, c := range []struct {
		key     string
		n       int
		lag     int // the keys taken between a key and its read's turn
		want    string
		queries int
		least   int32 // the first Query's least Limit (0: a whole page)
	}{{"pgdown", 200, 1, "row 5,000 of 5,000", 2, 0}, {"pgdown", 200, 0, "row 5,000 of 5,000", 2, 0}, {"pgdown", 20, 1, "row 561 of ≥", 1, 560},
		{"pgdown", 1, 0, "row 29 of ≥", 1, 0}, {"j", 200, 0, "row 201 of ≥", 2, 224}, {"j", 200, 1, "row 201 of ≥", 2, 224}} {
		t.Run(fmt.Sprint(c.key, c.n, "lag", c.lag), func(t *testing.T) {
			l := &sentLimits{recorder: record(db)}
			h := newHarness(t, 120, 35, Config{Client: l, Table: "Burst", PK: "burst"})
			h.contains(t, "items loaded", "row 1 of")
			l.mu.Lock()
			before := len(l.sent)
			l.mu.Unlock()
			// One read's turn is taken after each key, lag keys after the
			// key that asked for it (the loop takes keys and turns in no
			// set order); the reads' answers come after the keys, the
			// reads being slower.
			var turns [][]tea.Msg
			var answers []tea.Msg
			take := func(cmd tea.Cmd) {
				var turn []tea.Msg
				for _, msg := range runAll(cmd) {
					if _, ok := msg.(list.ReadOnMsg); ok {
						turn = append(turn, msg)
					} else {
						answers = append(answers, msg)
					}
				}
				turns = append(turns, turn)
			}
			for range c.n {
				_, cmd := h.m.Update(keyPress(c.key))
				take(cmd)
				if len(turns) > c.lag {
					due := turns[0]
					turns = turns[1:]
					for _, msg := range due {
						_, cmd := h.m.Update(msg)
						take(cmd)
					}
				}
			}
			for _, turn := range turns {
				answers = append(turn, answers...)
			}
			for _, msg := range answers {
				h.send(msg)
			}
			h.contains(t, c.want)
			l.mu.Lock()
			burst := append([]int32(nil), l.sent[before:]...)
			l.mu.Unlock()
			if len(burst) > c.queries || len(burst) == 0 {
				t.Fatalf("the burst sent %d Queries (Limits %v); want %d, as the same keys queued", len(burst), burst, c.queries)
			}
			if c.least > 0 && burst[0] != 0 && burst[0] < c.least || c.least == 0 && c.n > 1 && burst[0] != 0 && burst[0] < 1000 {
				t.Errorf("the burst's first Query read %d rows (Limits %v); want at least %d, where the keys typed lead", burst[0], burst, c.least)
			}
			t.Logf("typed one at a time: Limits %v", burst)
			if c.key != "pgdown" {
				return // j's read as before
			}
			// Never more than the same keys queued read.
			typed, _ := h.m.cfg.Session.Totals()
			q := newHarness(t, 120, 35, Config{Client: record(db), Table: "Burst", PK: "burst"})
			q.contains(t, "items loaded", "row 1 of")
			var cmds []tea.Cmd
			for range c.n {
				_, cmd := q.m.Update(keyPress(c.key))
				cmds = append(cmds, cmd)
			}
			q.run(tea.Batch(cmds...))
			q.contains(t, c.want)
			queued, _ := q.m.cfg.Session.Totals()
			t.Logf("%.1f RCU typed one at a time, %.1f queued", typed.RCU, queued.RCU)
			if typed.RCU > queued.RCU {
				t.Errorf("typed one at a time, the keys cost %.1f RCU; queued, %.1f", typed.RCU, queued.RCU)
			}
		})
	}
}

// runAll runs cmd's commands at once, as the program does on goroutines
// of their own, and returns their messages undelivered.
func runAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var msgs []tea.Msg
		for _, c := range msg {
			msgs = append(msgs, runAll(c)...)
		}
		return msgs
	default:
		return []tea.Msg{msg}
	}
}

// TestEndScreenIsOneQuery: G reads the last screen backwards from the
// end, one Query sized to the screen, and nothing more until the user
// moves.
func TestEndScreenIsOneQuery(t *testing.T) {
	l := &sentLimits{recorder: record(demoData(t))}
	h := newHarness(t, 80, 24, Config{Client: l, Table: "Locations", PK: "USA"})
	h.keys("2")
	l.mu.Lock()
	before := len(l.sent)
	l.mu.Unlock()
	h.keys("G")
	l.mu.Lock()
	sent := append([]int32(nil), l.sent[before:]...)
	l.mu.Unlock()
	if len(sent) != 1 || sent[0] < 17 || sent[0] > 25 {
		t.Fatalf("G sent Limits %v for 17 rows on screen\n%s", sent, h.screen())
	}
	h.contains(t, "the middle not read yet")
}

// manyTables is an embedded backend holding n empty tables.
func manyTables(t testing.TB, n int) *memory.DB {
	db := memory.New()
	for i := range n {
		_, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{
			TableName:            aws.String(fmt.Sprintf("T%05d", i)),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
			BillingMode:          types.BillingModePayPerRequest,
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// A model of 10,000 tables froze the explorer: every table was described
// at once, each answer redrawn. The list is one ListTables (paged as
// DynamoDB pages it), and a DescribeTable only for the rows on screen, as
// they come into view.
func TestTablesListDescribesOnlyWhatShows(t *testing.T) {
	const n = 10000
	db := manyTables(t, n)
	t0 := time.Now()
	h := newHarness(t, 100, 30, Config{Client: db})
	opened := time.Since(t0)
	h.contains(t, "T00000", "PK S")
	first := h.rec.count("DescribeTable")
	if first == 0 || first > 30 {
		t.Fatalf("%d DescribeTable for a screen of 30 rows", first)
	}
	if lists := h.rec.count("ListTables"); lists > n/100+1 {
		t.Fatalf("%d ListTables pages for %d tables", lists, n)
	}
	t1 := time.Now()
	h.keys("end")
	key := time.Since(t1)
	h.contains(t, "T09999")
	if d := h.rec.count("DescribeTable"); d > 2*first+2 {
		t.Fatalf("%d DescribeTable after jumping to the end", d)
	}
	t.Logf("%d tables: opened in %s (%d DescribeTable), end key %s (%d DescribeTable in all)", n, opened.Round(time.Millisecond),
		first, key.Round(time.Millisecond), h.rec.count("DescribeTable"))
}

// TestTablesFirstScreenAfterTheFirstPage (37.5): the table list shows
// its first screen after the first ListTables page, describing only the
// rows on screen, and reads the rest behind it: until the listing ends
// the title and the position say ≥; then G reaches the last table and /
// finds one of the last page.
func TestTablesFirstScreenAfterTheFirstPage(t *testing.T) {
	db := manyTables(t, 300)
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			rec := record(db)
			metered := dynamo.NewMetered(rec)
			metered.Since = fixedLatency
			h := harnessFor(t, New(Config{Client: metered, Session: metered.Session, Connection: "DEMO"}), rec)
			var first string
			h.d.Handled = func(tea.Msg) {
				if first == "" && rec.count("ListTables") == 1 && strings.Contains(h.screen(), "T00000") {
					first = h.screen()
				}
			}
			h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			h.run(h.m.Init())
			if first == "" {
				t.Fatalf("no screen showed tables after the first ListTables page:\n%s", h.screen())
			}
			if !strings.Contains(first, "Tables · ≥100, listing on") || !strings.Contains(first, "of ≥100") {
				t.Errorf("the first screen does not say the list goes on:\n%s", first)
			}
			if n := rec.count("ListTables"); n != 3 {
				t.Errorf("%d ListTables requests for 300 tables", n)
			}
			if d := rec.count("DescribeTable"); d == 0 || d > size[1] {
				t.Errorf("%d DescribeTable for a screen of %d lines", d, size[1])
			}
			h.contains(t, "Tables · 300", "row 1 of 300")
			h.keys("G")
			h.contains(t, "T00299", "row 300 of 300")
			h.keys("g", "/")
			h.typeText("T00250")
			h.keys("enter")
			h.contains(t, "row 251 of 300")
		})
	}
}

// TestTablesGWhileListing: G pressed while ListTables pages still arrive
// goes to the last table listed so far and follows the list to its end
// (it had stayed on row 100 of 300), describing the screen it ends on,
// not those it passes; a move after it stays where it is. A name searched
// for before the page holding it arrived is selected when it does (the
// search had said "1 match" and stayed on row 1).
func TestTablesGWhileListing(t *testing.T) {
	db := manyTables(t, 300)
	for _, tc := range []struct {
		keys []string
		text string // typed after keys, then enter
		want string
	}{{[]string{"G"}, "", "row 300 of 300"}, {[]string{"G", "up"}, "", "row 99 of 300"}, {[]string{"/"}, "T00250", "row 251 of 300"}} {
		rec := record(db)
		h := harnessFor(t, New(Config{Client: db, Connection: "DEMO"}), rec)
		pressed := false
		h.d.Handled = func(tea.Msg) {
			if !pressed && strings.Contains(h.screen(), "T00000") {
				pressed = true // on the first screen, the list's first page: keys typed while the rest is read
				h.keys(tc.keys...)
				if tc.text != "" {
					h.typeText(tc.text)
					h.keys("enter")
				}
			}
		}
		h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		h.run(h.m.Init())
		if !pressed {
			t.Fatal("no first screen")
		}
		h.contains(t, "Tables · 300", tc.want)
		if tc.want == "row 300 of 300" {
			h.contains(t, "T00299")
		}
		// The first screen's, and the one it ends on: not those passed by.
		if d := rec.count("DescribeTable"); d > 2*24 {
			t.Errorf("%v while listing: %d DescribeTable for two screens of 24 lines", tc.keys, d)
		}
	}
}

// TestTablesSearchDescribesWhatItShows: a search (/) that scrolls the
// table list describes the tables it brings into view, as a key does (it
// left them "…" until the cursor next moved, and the request line counted
// the first screen's descriptions as "the rows shown").
func TestTablesSearchDescribesWhatItShows(t *testing.T) {
	db := manyTables(t, 300)
	rec := record(db)
	h := harnessFor(t, New(Config{Client: db, Connection: "DEMO"}), rec)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	h.run(h.m.Init())
	h.contains(t, "Tables · 300", "DescribeTable × 17 (the tables shown so far)")
	h.keys("/")
	h.typeText("T00250")
	h.contains(t, "row 251 of 300")
	for _, line := range strings.Split(h.screen(), "\n") {
		if strings.HasPrefix(line, "│ T00250") && !strings.Contains(line, "PK S") {
			t.Fatalf("the table the search scrolled to is not described:\n%s", h.screen())
		}
	}
}

// TestPartitionsFirstScreenReadsWhatItShows: a table of 300 small
// partitions (20 items of 200 bytes each) is listed in bulk pages cut to
// the rows the screen lacks, not 1,000 keys: the first screen costs about
// what it shows (it had read 1,100 keys, 29.5 RCU, for 16 rows at 80×24;
// now 18 RCU), scrolling reads on, and G and / still work on what was
// read.
func TestPartitionsFirstScreenReadsWhatItShows(t *testing.T) {
	ctx := context.Background()
	db := memory.New()
	var items []dynamo.Item
	for p := range 300 {
		for i := range 20 {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: fmt.Sprintf("S%03d", p)},
				"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("K%02d", i)}, "Data": &types.AttributeValueMemberS{Value: strings.Repeat("d", 200)}})
		}
	}
	if err := demo.CreateKeyTable(ctx, db, "Small", "S", items); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {120, 35}} {
		m := dynamo.NewMetered(db)
		h := newHarness(t, size[0], size[1], Config{Client: m, Table: "Small"})
		total, _ := m.Session.Totals()
		rows := len(partitionRowsRE.FindAllString(h.screen(), -1))
		t.Logf("%dx%d: %d requests, %.1f RCU, %d rows on screen", size[0], size[1], total.Requests, total.RCU, rows)
		// Two screens of rows below the cursor (what the list reads ahead),
		// and a partition more, at 20 keys of about 215 bytes each: 0.55
		// RCU a partition, 0.6 with the rounding.
		if most := float64(2*rows+2) * 0.6; total.RCU > most || rows == 0 {
			t.Errorf("%dx%d: the first screen cost %.1f RCU for %d rows (at most %.1f)", size[0], size[1], total.RCU, rows, most)
		}
		h.contains(t, "more: scroll down to scan on")
		h.keys("G")
		h.said(t, "G: the last of")
		h.keys("g", "/")
		h.typeText("S")
		h.keys("enter")
	}
}

var partitionRowsRE = regexp.MustCompile(`│ S\d{3}\s+\d+\+?\s`)

// TestPartitionsFirstScreenPricedAtTableSize: the first screen of a
// table's partitions, where DescribeTable reports the table's size (the
// embedded backend does), costs what main measured on tables of like
// items, and on the boto3 "shop" table's shape (12 partitions of small
// items, one beginning with six of 108-266 KB) no longer reads the heavy
// partition whole: 127 RCU before, now a one-key probe a partition and
// one heavy item. Every partition is listed, none with more keys than it
// holds, with all of them where no "+" says some are unread; the heavy
// one as "1+".
func TestPartitionsFirstScreenPricedAtTableSize(t *testing.T) {
	ctx := context.Background()
	db := memory.New()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	tables := map[string][]dynamo.Item{}
	for p, n := range []int{7, 70, 13, 26, 13, 8, 13, 13, 50, 1, 14, 10} {
		for i := range n {
			data := strings.Repeat("d", 40)
			if p == 3 && i < 6 {
				data = strings.Repeat("h", []int{204084, 218942, 265992, 112258, 110555, 109010}[i])
			}
			tables["Shop"] = append(tables["Shop"], dynamo.Item{"PK": s(fmt.Sprintf("H%02d", p)), "SK": s(fmt.Sprintf("K%03d", i)), "Data": s(data)})
		}
	}
	for p := range 40 {
		for i := range 50 + (p*7)%21 {
			tables["Tiny"] = append(tables["Tiny"], dynamo.Item{"PK": s(fmt.Sprintf("mid-%02d", p)), "SK": s(fmt.Sprintf("K%03d", i))})
		}
	}
	for p := range 300 {
		tables["Ones"] = append(tables["Ones"], dynamo.Item{"PK": s(fmt.Sprintf("one-%03d", p)), "SK": s("A"), "Data": s(strings.Repeat("d", 100))})
	}
	for p := range 100 {
		for i := range 3 {
			tables["KB"] = append(tables["KB"], dynamo.Item{"PK": s(fmt.Sprintf("mk-%03d", p)), "SK": s(fmt.Sprintf("K%03d", i)), "Data": s(strings.Repeat("d", 2000))})
		}
	}
	for name, items := range tables {
		if err := demo.CreateKeyTable(ctx, db, name, "S", items); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		table string
		size  [2]int
		rcu   float64 // at most: main's figure on tables of like items
		shows []string
	}{
		// Shop: the README's figure (31 RCU, not 127).
		{"Shop", [2]int{80, 24}, 31.0, []string{"12 partitions · all", "row 1 of 12"}},
		{"Shop", [2]int{120, 35}, 31.0, []string{"12 partitions · all"}},
		{"Tiny", [2]int{80, 24}, 4.0, []string{"33 partitions · more"}},
		{"Tiny", [2]int{120, 35}, 5.0, []string{"40 partitions · all"}},
		{"Ones", [2]int{80, 24}, 1.5, []string{"100 partitions · more"}},
		{"Ones", [2]int{120, 35}, 1.5, []string{"100 partitions · more"}},
		// 2 KB items: a first read cut to the table's mean had cost 33.
		{"KB", [2]int{80, 24}, 25.0, []string{"34 partitions · more"}},
		{"KB", [2]int{120, 35}, 50.0, []string{"67 partitions · more"}},
	} {
		m := dynamo.NewMetered(db)
		h := newHarness(t, tc.size[0], tc.size[1], Config{Client: m, Table: tc.table})
		total, _ := m.Session.Totals()
		t.Logf("%s at %dx%d: %d requests, %.1f RCU", tc.table, tc.size[0], tc.size[1], total.Requests, total.RCU)
		if total.RCU > tc.rcu {
			t.Errorf("%s at %dx%d: the first screen cost %.1f RCU, at most %.1f", tc.table, tc.size[0], tc.size[1], total.RCU, tc.rcu)
		}
		h.contains(t, tc.shows...)
		if tc.table != "Shop" {
			continue
		}
		holds := map[string]int{}
		for _, it := range tables["Shop"] {
			holds[it["PK"].(*types.AttributeValueMemberS).Value]++
		}
		for _, row := range regexp.MustCompile(`│ (H\d\d)\s+(\d+)(\+?)\s`).FindAllStringSubmatch(h.screen(), -1) {
			n, _ := strconv.Atoi(row[2])
			if n > holds[row[1]] || row[3] == "" && n != holds[row[1]] {
				t.Errorf("%s: %s shows %s%s keys, it holds %d", tc.table, row[1], row[2], row[3], holds[row[1]])
			}
			if row[1] == "H03" && row[2]+row[3] != "1+" {
				t.Errorf("%s: the heavy partition shows %s%s keys: read past its first, want 1+", tc.table, row[2], row[3])
			}
		}
	}
}

// failScans fails the Scan calls it lists (1-based).
type failScans struct {
	dynamo.Client
	mu   sync.Mutex
	n    int
	fail map[int]bool
}

func (f *failScans) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	f.mu.Lock()
	f.n++
	n := f.n
	f.mu.Unlock()
	if f.fail[n] {
		return nil, &smithy.GenericAPIError{Code: "InternalServerError", Message: "scan failed on purpose"}
	}
	return f.Client.Scan(ctx, in, o...)
}

var partitionRowRE = regexp.MustCompile(`│ (W\d\d)\s+(\d+)(\+?)\s`)

// TestPartitionsPageInSegments: a table of large partitions is listed in
// parallel Scan segments; two of a step's reads fail, r reads those again
// and the list goes on as the user scrolls: every partition once, and a
// partition shows + exactly while keys of it are unread.
func TestPartitionsPageInSegments(t *testing.T) {
	ctx := context.Background()
	db := memory.New()
	sizes := map[string]int{}
	var items []dynamo.Item
	for p := range 48 {
		pk := fmt.Sprintf("W%02d", p)
		sizes[pk] = 40 + p%3
		for i := range sizes[pk] {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk},
				"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("S%03d", i)}, "Data": &types.AttributeValueMemberS{Value: strings.Repeat("d", 300)}})
		}
	}
	if err := demo.CreateKeyTable(ctx, db, "Wide", "S", items); err != nil {
		t.Fatal(err)
	}
	// The first read, then a step of 8 segments' reads: two of them fail.
	h := newHarness(t, 100, 30, Config{Client: &failScans{Client: db, fail: map[int]bool{3: true, 7: true}}, Table: "Wide"})
	h.contains(t, "read failed", "r retries", "TotalSegments: 8")
	h.keys("r")
	for range 50 {
		if strings.Contains(h.screen(), "48 partitions · all") {
			break
		}
		h.keys("pgdown")
	}
	h.contains(t, "48 partitions · all")
	// Every row, from the top: each partition once, + exactly while keys
	// of it are unread.
	h.keys("g")
	rows := map[string]bool{}
	for range 10 {
		for _, m := range partitionRowRE.FindAllStringSubmatch(h.screen(), -1) {
			if rows[m[1]] {
				continue
			}
			rows[m[1]] = true
			n, _ := strconv.Atoi(m[2])
			if n < 1 || n > sizes[m[1]] || (m[3] == "+") != (n < sizes[m[1]]) {
				t.Errorf("%s: %s%s keys seen, it has %d", m[1], m[2], m[3], sizes[m[1]])
			}
		}
		h.keys("pgdown")
	}
	if len(rows) != 48 {
		t.Errorf("%d partitions shown, want 48", len(rows))
	}
}

// windowRows is the partition the window tests scroll through, and
// windowHeld the rows they let a list hold: a few pages of it.
const (
	windowRows = 2000
	windowHeld = 300
)

// windowBackend is the window tests' table on one backend, and a writer
// to change it under the explorer.
type windowBackend struct {
	client dynamo.Client
	writer dynamo.Writer
	table  string
}

// windowBackends makes a table of windowRows items in partition P, on
// the embedded backend and on dynalite (a table of the test's own there).
func windowBackends(t *testing.T) map[string]windowBackend {
	t.Helper()
	ctx := context.Background()
	mem := memory.New()
	dl := dynalitetest.Start(t).Client()
	table := "Window"
	out := map[string]windowBackend{"memory": {mem, mem, table}, "dynalite": {dl, dl, table}}
	for name, b := range out {
		if _, err := b.writer.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(table), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}}}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for range 100 { // dynalite makes a table ACTIVE a moment after
			if info, _, err := dynamo.DescribeTable(ctx, b.client, table); err == nil && info.Status == "ACTIVE" {
				break
			}
		}
		var puts []types.WriteRequest
		for i := range windowRows {
			puts = append(puts, types.WriteRequest{PutRequest: &types.PutRequest{Item: windowItem(i, "first")}})
		}
		writeAll(t, b, puts)
	}
	return out
}

func windowItem(i int, note string) dynamo.Item {
	return dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("ITEM#%05d", i)},
		"Note": &types.AttributeValueMemberS{Value: note}, "N": &types.AttributeValueMemberN{Value: strconv.Itoa(i)}}
}

func writeAll(t *testing.T, b windowBackend, reqs []types.WriteRequest) {
	t.Helper()
	for len(reqs) > 0 {
		n := min(25, len(reqs))
		out, err := b.writer.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{b.table: reqs[:n]}})
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(out.UnprocessedItems[b.table], reqs[n:]...)
	}
}

// plainRead is the partition as one plain read, page after page, gives
// it: each row's sort key and note.
func plainRead(t *testing.T, b windowBackend) []string {
	t.Helper()
	q := domain.KeyQuery{Table: b.table, PKName: "PK", PK: domain.S("P"), SKName: "SK"}
	var rows []string
	var start dynamo.Item
	for {
		p, err := dynamo.QueryPage(context.Background(), b.client, dynamo.PageRequest{Query: q, Start: start})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range p.Items {
			rows = append(rows, rowOf(it))
		}
		if !p.More() {
			return rows
		}
		start = p.LastKey
	}
}

func rowOf(it dynamo.Item) string {
	return it["SK"].(*types.AttributeValueMemberS).Value + " " + it["Note"].(*types.AttributeValueMemberS).Value
}

// limits remembers the largest Limit a Query asked for: the largest page.
// The walk reads in parallel (a level's last key beside its probes), so
// the figure is guarded.
type limits struct {
	dynamo.Client
	mu      sync.Mutex
	biggest int32
}

func (l *limits) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	l.mu.Lock()
	l.biggest = max(l.biggest, aws.ToInt32(in.Limit))
	l.mu.Unlock()
	return l.Client.Query(ctx, in, o...)
}

// largest is the largest Limit asked for so far.
func (l *limits) largest() int32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.biggest
}

// openWindow opens partition P's items with the small window.
func openWindow(t *testing.T, b windowBackend) *harness {
	h := newHarness(t, 120, 35, Config{Client: b.client, Table: b.table, PK: "P", HeldRows: windowHeld})
	h.keys("tab") // the tree first, then the items
	h.contains(t, "row 1 of ≥")
	return h
}

// openWindowPaged is openWindow, with the largest page asked for known:
// what the window may hold past its size is the pages the screen is on.
func openWindowPaged(t *testing.T, b windowBackend) (*harness, *limits) {
	l := &limits{Client: b.client}
	h := newHarness(t, 120, 35, Config{Client: l, Table: b.table, PK: "P", HeldRows: windowHeld})
	h.keys("tab") // the tree first, then the items
	h.contains(t, "row 1 of ≥")
	return h, l
}

func (h *harness) list() common.List { return h.m.top().(common.Searchable).List() }

// held is the rows the list on top holds.
func (h *harness) held() int { return h.list().(components.Holder).Held() }

var rowPos = regexp.MustCompile(`row ([\d,]+) of ≥?([\d,]+)`)

// checkRow holds the selected row, its number on screen and the row count
// to the plain read.
func (h *harness) checkRow(t *testing.T, want []string, total int) {
	t.Helper()
	cur := h.list().Cursor()
	it, _, ok := h.m.top().(interface {
		SelectedItem() (dynamo.Item, dynamo.TableInfo, bool)
	}).SelectedItem()
	if !ok {
		t.Fatalf("row %d is not held on screen:\n%s", cur, h.screen())
	}
	if got := rowOf(it); got != want[cur] {
		t.Fatalf("row %d is %q, a plain read has %q", cur, got, want[cur])
	}
	m := rowPos.FindStringSubmatch(h.screen())
	if m == nil || m[1] != common.Thousands(cur+1) {
		t.Fatalf("row %d: the position says %v", cur, m)
	}
	if total > 0 && m[2] != common.Thousands(total) {
		t.Fatalf("the position says %s rows, want %d", m[2], total)
	}
}

// TestWindowLetsGoAndReadsAgain: scrolling through a partition twice the
// window's size and back, the list holds at most the window (and a page),
// every row the cursor lands on is the row a plain read has at that
// number, each page let go is read again by one Query from its start, and
// the status bar counts the re-reads and their RCU.
func TestWindowLetsGoAndReadsAgain(t *testing.T) {
	for name, b := range windowBackends(t) {
		t.Run(name, func(t *testing.T) {
			want := plainRead(t, b)
			h, l := openWindowPaged(t, b)
			maxHeld := 0
			for range 400 {
				h.keys("pgdown")
				maxHeld = max(maxHeld, h.held())
				h.checkRow(t, want, 0)
				if strings.Contains(h.screen(), "loaded · ") && strings.Contains(h.screen(), " held · all") {
					break
				}
			}
			h.contains(t, "2,000 items loaded · ", " held · all")
			bound := windowHeld + 2*int(l.largest()) // the pages on screen are never let go
			if maxHeld > bound || maxHeld >= windowRows {
				t.Fatalf("held up to %d rows with a window of %d and pages of up to %d", maxHeld, windowHeld, l.largest())
			}
			queries := h.rec.count("Query")
			h.checkRow(t, want, windowRows)
			rereads := 0
			for h.list().Cursor() > 0 {
				h.keys("pgup")
				h.checkRow(t, want, windowRows)
				if len(h.m.said) > 0 && strings.HasPrefix(h.m.said[len(h.m.said)-1].text, "re-read rows ") {
					rereads = strings.Count(strings.Join(saidTexts(h), "\n"), "re-read rows ")
				}
				if h.held() > bound {
					t.Fatalf("held %d rows scrolling back", h.held())
				}
			}
			if rereads == 0 {
				t.Fatal("nothing was read again scrolling back")
			}
			h.said(t, " re-reads so far, ")
			last := h.m.said[len(h.m.said)-1].text
			if !regexp.MustCompile(`^re-read rows 1–[\d,]+ · 1 request · [\d.]+ RCU · \d+ re-reads so far, [\d.]+ RCU$`).MatchString(last) {
				t.Fatalf("the status bar said %q", last)
			}
			n, _ := strconv.Atoi(regexp.MustCompile(`(\d+) re-reads so far`).FindStringSubmatch(last)[1])
			if got := h.rec.count("Query") - queries; got != n {
				t.Fatalf("%d Queries for %d re-reads", got, n)
			}
			if !strings.Contains(h.m.top().Request(), fmt.Sprintf(" · %d re-reads, ", n)) {
				t.Fatalf("the request line does not count the re-reads: %s", h.m.top().Request())
			}
			if strings.Contains(h.screen(), "let go to save memory") {
				t.Fatalf("a row let go is on screen:\n%s", h.screen())
			}
		})
	}
}

func saidTexts(h *harness) []string {
	var out []string
	for _, s := range h.m.said {
		out = append(out, s.text)
	}
	return out
}

// TestWindowGapClosesOverRowsLetGo: after scrolling down part way, G
// reads the end backwards; scrolling up from the end lets the end go and
// the head's last pages too, and the gap still closes where the two reads
// meet: every row on the way up to the top is the plain read's row at
// that number, and the list is then whole.
func TestWindowGapClosesOverRowsLetGo(t *testing.T) {
	for name, b := range windowBackends(t) {
		t.Run(name, func(t *testing.T) {
			want := plainRead(t, b)
			h, l := openWindowPaged(t, b)
			for h.list().Cursor() < 700 {
				h.keys("pgdown")
			}
			h.keys("G")
			h.contains(t, "the middle not read yet")
			for h.list().Cursor() > 0 {
				h.keys("pgup")
				if !strings.Contains(h.screen(), "the middle not read yet") {
					h.checkRow(t, want, windowRows)
				}
				if h.held() > windowHeld+2*int(l.largest()) {
					t.Fatalf("held %d rows", h.held())
				}
			}
			h.contains(t, "2,000 items loaded · ", " held · all")
			if !strings.Contains(strings.Join(saidTexts(h), "\n"), "re-read rows ") {
				t.Fatal("no page let go was read again")
			}
			for range 3 {
				h.keys("G")
				h.checkRow(t, want, windowRows)
				h.keys("g")
				h.checkRow(t, want, windowRows)
			}
		})
	}
}

// TestWindowSaysATableChanged: items deleted, written and changed where a
// page was let go: its re-read shows what the table holds now, up to
// where the page ended (the next page's rows are not shown twice, nor
// items written at its end left out), says the table changed and how, and
// the rows after it move with it: every row is then the plain read's.
func TestWindowSaysATableChanged(t *testing.T) {
	for name, b := range windowBackends(t) {
		t.Run(name, func(t *testing.T) {
			h := openWindow(t, b)
			for h.list().Cursor() < 1500 {
				h.keys("pgdown")
			}
			key := func(sk string) dynamo.Item {
				return dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: sk}}
			}
			written := func(sk string) dynamo.Item {
				it := windowItem(0, "written")
				it["SK"] = &types.AttributeValueMemberS{Value: sk}
				return it
			}
			// In the first page: three items go, one changes, and four are
			// written, two of them past the page's last row (ITEM#00053).
			writeAll(t, b, []types.WriteRequest{
				{DeleteRequest: &types.DeleteRequest{Key: key("ITEM#00003")}},
				{DeleteRequest: &types.DeleteRequest{Key: key("ITEM#00004")}},
				{DeleteRequest: &types.DeleteRequest{Key: key("ITEM#00005")}},
				{PutRequest: &types.PutRequest{Item: windowItem(1, "changed")}},
				{PutRequest: &types.PutRequest{Item: written("ITEM#00010x")}},
				{PutRequest: &types.PutRequest{Item: written("ITEM#00020x")}},
				{PutRequest: &types.PutRequest{Item: written("ITEM#00053x")}},
			})
			h.keys("g")
			h.said(t, "the table changed since they were first read (")
			h.said(t, "): shown as read now")
			now := plainRead(t, b)
			h.contains(t, "ITEM#00001", "changed", "ITEM#00002", "ITEM#00006", "ITEM#00010x")
			if strings.Contains(h.screen(), "ITEM#00003") {
				t.Fatalf("a deleted item is shown:\n%s", h.screen())
			}
			for range 400 {
				h.checkRow(t, now, 0)
				if h.list().Cursor() == len(now)-1 {
					break
				}
				h.keys("down")
				if h.list().Cursor() > 80 {
					h.keys("pgdown")
				}
			}
			h.keys("G")
			h.checkRow(t, now, len(now))
		})
	}
}

// TestWindowSortAndSearchSayHeldRows: with rows let go, a sort orders the
// rows held and says so, and nothing is let go while it is shown; search
// looks at the rows held and says so.
func TestWindowSortAndSearchSayHeldRows(t *testing.T) {
	b := windowBackends(t)["memory"]
	h := openWindow(t, b)
	for h.list().Cursor() < 1500 {
		h.keys("pgdown")
	}
	held := h.held()
	h.keys("/")
	for _, r := range "ITEM#0000" {
		h.keys(string(r))
	}
	h.contains(t, "no match", "rows held of ", "loaded only (the rest let go far from here)")
	h.keys("esc")
	for range 4 { // SK, N, Note… until a column of the items
		h.keys("s")
		if strings.Contains(h.screen(), "sorted by N ") {
			break
		}
	}
	h.contains(t, "sorted by N ↑ · the "+common.Thousands(held)+" rows held of ")
	h.keys("g")
	if !strings.Contains(h.firstRow(), "ITEM#0") || h.list().Rows() != held {
		t.Fatalf("the sort lists %d rows, %d are held:\n%s", h.list().Rows(), held, h.screen())
	}
}

// TestWindowTimeList: the Time list shares the window: scrolled to the
// oldest of 20,000 points and back to the newest, it holds a part of
// them, and every row the cursor lands on is the plain read's, newest
// first, on both backends.
func TestWindowTimeList(t *testing.T) {
	ctx := context.Background()
	dl := dynalitetest.Start(t).Client()
	if _, err := demo.Seed(ctx, dl, demo.Options{Tables: []string{"Metrics"}}); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]dynamo.Client{"memory": demoData(t), "dynalite": dl} {
		t.Run(name, func(t *testing.T) {
			q := domain.KeyQuery{Table: "Metrics", PKName: "Series", PK: domain.S(demo.MetricsSeries), SKName: "TS", Reverse: true}
			var want []string
			var start dynamo.Item
			for {
				p, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: q, Start: start})
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range p.Items {
					want = append(want, it["TS"].(*types.AttributeValueMemberN).Value)
				}
				if start = p.LastKey; !p.More() {
					break
				}
			}
			h := newHarness(t, 140, 35, Config{Client: c, Table: "Metrics", PK: demo.MetricsSeries, HeldRows: 2000, Now: demoClock})
			h.keys("4", "esc") // Time mode, the range bar left
			check := func() {
				t.Helper()
				cur := h.list().Cursor()
				it, _, ok := h.m.top().(interface {
					SelectedItem() (dynamo.Item, dynamo.TableInfo, bool)
				}).SelectedItem()
				if !ok || it["TS"].(*types.AttributeValueMemberN).Value != want[cur] {
					t.Fatalf("row %d is %v, a plain read has %s:\n%s", cur, it["TS"], want[cur], h.screen())
				}
			}
			for range 2000 {
				h.keys("pgdown")
				check()
				if strings.Contains(h.screen(), " held · all") {
					break
				}
			}
			h.contains(t, "20,000 items loaded · ", " held · all", "newest first")
			for h.list().Cursor() > 0 {
				h.keys("pgup")
				check()
			}
			h.said(t, " re-reads so far, ")
		})
	}
}

// TestWindowReReadFails: a re-read that fails says so where its rows
// would be, and in the title, and r reads the page again.
func TestWindowReReadFails(t *testing.T) {
	b := windowBackends(t)["memory"]
	f := &failing{Client: b.client, op: "Query", after: 1 << 30, err: throttled}
	want := plainRead(t, b)
	h := newHarness(t, 120, 35, Config{Client: f, Table: b.table, PK: "P", HeldRows: windowHeld})
	h.keys("tab")
	for h.list().Cursor() < 1500 {
		h.keys("pgdown")
	}
	f.mu.Lock()
	f.after = f.calls // every Query fails from here
	f.mu.Unlock()
	h.keys("g")
	h.contains(t, "⋯ let go to save memory: r reads it again", "read failed after 3 attempts", "r retries")
	if _, _, ok := h.m.top().(interface {
		SelectedItem() (dynamo.Item, dynamo.TableInfo, bool)
	}).SelectedItem(); ok {
		t.Fatal("a row let go is selectable as an item")
	}
	f.mu.Lock()
	f.after = 1 << 30
	f.mu.Unlock()
	h.keys("r")
	h.checkRow(t, want, 0)
	h.said(t, "re-read rows 1–")
	if strings.Contains(h.screen(), "let go to save memory") {
		t.Fatalf("rows still let go after r:\n%s", h.screen())
	}
}

// spending sums what every Query is billed: the server's figure, at
// least 0.5 a read.
type spending struct {
	seedable
	mu  sync.Mutex
	rcu float64
}

func (s *spending) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := s.seedable.Query(ctx, in, o...)
	units := 0.0
	if out != nil && out.ConsumedCapacity != nil && out.ConsumedCapacity.CapacityUnits != nil {
		units = *out.ConsumedCapacity.CapacityUnits
	}
	s.mu.Lock()
	s.rcu += max(units, 0.5)
	s.mu.Unlock()
	return out, err
}

// TestFilterBudgetNeverOverspent: a filtered read of 10 KB items with
// nothing matching stops at its budget having spent no more than it
// (half an RCU of rounding at most), each ↓ another budget's worth: the
// pages are sized to what is left, where a whole 1 MB page (128 RCU here)
// used to go out with 44 left.
func TestFilterBudgetNeverOverspent(t *testing.T) {
	tbl := seedPage7(t, memory.New())
	s := &spending{seedable: tbl.client.(seedable)}
	f, _ := domain.ParseFilter(page7Filter)
	const budget = 300
	h := newHarness(t, 100, 30, Config{Client: s, Table: "Page7", PK: "P", Filter: f,
		FilterBudget: func(string) float64 { return budget }})
	h.contains(t, "stopped at the 300 RCU budget")
	if s.rcu > budget+0.5 || s.rcu < budget-10 {
		t.Fatalf("the read stopped having spent %.1f RCU billed, with a budget of %d", s.rcu, budget)
	}
	before := s.rcu
	h.keys("down")
	h.contains(t, "stopped at the 300 RCU budget")
	if spent := s.rcu - before; spent > budget+0.5 || strings.Contains(h.screen(), tbl.matches[0]) {
		t.Fatalf("↓ spent %.1f RCU more, with a budget of %d", spent, budget)
	}
}

// heavyReads records what each Query of the Heavy partition is billed
// (the server's figure, at least 0.5 a read) and which items it read, by
// their number in the partition (SK item#NNNN, read forwards).
type heavyReads struct {
	seedable
	mu    sync.Mutex
	reads []heavyRead
}

type heavyRead struct {
	rcu         float64
	first, last int // the items read, first to last
}

func (s *heavyReads) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := s.seedable.Query(ctx, in, o...)
	if out == nil {
		return out, err
	}
	units := 0.0
	if out.ConsumedCapacity != nil && out.ConsumedCapacity.CapacityUnits != nil {
		units = *out.ConsumedCapacity.CapacityUnits
	}
	first := 0
	if sk, ok := in.ExclusiveStartKey["SK"].(*types.AttributeValueMemberS); ok {
		n, _ := strconv.Atoi(strings.TrimPrefix(sk.Value, "item#"))
		first = n + 1
	}
	s.mu.Lock()
	s.reads = append(s.reads, heavyRead{rcu: max(units, 0.5), first: first, last: first + int(out.ScannedCount) - 1})
	s.mu.Unlock()
	return out, err
}

// heavyItem: one item in ten of the Heavy partition weighs 30 KB, the
// rest about 200 bytes; the heavy ones come in runs of ten, as keys group
// them (a user's attachments, a day's reports).
func heavyItem(i int) bool { return i%100 >= 60 && i%100 < 70 }

// TestFilterBudgetSizedByTheLargest: a filtered read of a partition where
// one item in ten weighs 30 KB among 200-byte ones, nothing matching,
// spends each budget (the first, then each ↓'s) within 0.5 RCU of it,
// but for the read that first meets a 30 KB item (larger than any
// before: it may spend what those items weigh). Sized by the mean RCU an
// item (a 200-byte sample said 4 KB, then ~3 KB), a read asked for items
// that the next run of 30 KB ones made cost several RCU past the budget;
// sized by the largest item read (dynamo.SizedLimit, items read whole and
// filtered here) it cannot. On the embedded backend and dynalite.
func TestFilterBudgetSizedByTheLargest(t *testing.T) {
	const n = 400
	var items []dynamo.Item
	for i := range n {
		pad := strings.Repeat("s", 150)
		if heavyItem(i) {
			pad = strings.Repeat("h", 30_000)
		}
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("item#%04d", i)},
			"Status": &types.AttributeValueMemberS{Value: "PASS"}, "Pad": &types.AttributeValueMemberS{Value: pad}})
	}
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, w := range backends {
		if err := demo.CreateKeyTable(context.Background(), w, "Heavy", types.ScalarAttributeTypeS, items); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, budget := range []float64{5, 20} {
			t.Run(fmt.Sprintf("%s/%g RCU", name, budget), func(t *testing.T) {
				rec := &heavyReads{seedable: w}
				f, _ := domain.ParseFilter(page7Filter)
				h := newHarness(t, 100, 30, Config{Client: rec, Table: "Heavy", PK: "P", Filter: f,
					FilterBudget: func(string) float64 { return budget }})
				stop := fmt.Sprintf("stopped at the %g RCU budget", budget)
				h.contains(t, stop+", ", " spent: ↓ reads on")
				// No FilterExpression is sent under a budget: the request
				// line says the filter is applied here.
				if !strings.Contains(strings.Join(strings.Fields(h.screen()), " "), "filter applied here, items read whole") {
					t.Errorf("the request line does not say the filter is applied here:\n%s", h.screen())
				}
				met := false // a 30 KB item read
				from := 0
				for round := 0; round < 8; round++ {
					if round > 0 {
						h.keys("down")
						h.contains(t, stop)
					}
					rec.mu.Lock()
					reads := rec.reads[from:]
					from = len(rec.reads)
					rec.mu.Unlock()
					spent, allowed := 0.0, budget+0.5
					for _, r := range reads {
						spent += r.rcu
						heavy := 0
						for i := r.first; i <= r.last; i++ {
							if heavyItem(i) {
								heavy++
							}
						}
						if heavy > 0 && !met {
							// First contact: what its 30 KB items weigh, 0.5 RCU a 4 KB.
							met, allowed = true, allowed+float64(heavy)*4
						}
					}
					if len(reads) == 0 || spent > allowed {
						t.Fatalf("budget %d: %d reads spent %.1f RCU billed (at most %.1f allowed): %+v\n%s", round+1, len(reads), spent, allowed, reads, h.screen())
					}
					t.Logf("budget %d: %d reads of items %d–%d spent %.1f RCU billed (at most %.1f allowed)", round+1, len(reads), reads[0].first, reads[len(reads)-1].last, spent, allowed)
					if reads[len(reads)-1].last >= n-1 {
						break
					}
				}
			})
		}
	}
}

// TestGKeepsTheCondition: G's first read from the end keeps the list's
// sort-key condition. It took the gap's bound in its place, so a Time
// range's end showed the partition's oldest items (last 24h on AuditLog
// ending at 2026-10-22) and a prefix's items ended past the prefix.
func TestGKeepsTheCondition(t *testing.T) {
	t.Run("time range", func(t *testing.T) {
		h := newHarness(t, 80, 24, Config{Table: "AuditLog", PK: "prod-api", Range: "last 24h", Now: demoClock})
		h.keys("j", "G")
		screen := h.screen()
		h.contains(t, "the middle not read yet")
		for _, d := range regexp.MustCompile(`20\d\d-\d\d-\d\dT`).FindAllString(screen, -1) {
			if d != "2026-10-31T" {
				t.Fatalf("a row of %s in the last 24h before 2026-11-01 00:00:\n%s", strings.TrimSuffix(d, "T"), screen)
			}
		}
	})
	t.Run("prefix", func(t *testing.T) {
		h := newHarness(t, 80, 24, Config{Table: "Locations", PK: "USA", Prefix: "NY#"})
		h.keys("2", "G") // from the first screen: a move first would read ahead past the 91 items
		screen := h.screen()
		h.contains(t, "the middle not read yet")
		for _, k := range regexp.MustCompile(`│ ([A-Z]{2}#)`).FindAllStringSubmatch(screen, -1) {
			if k[1] != "NY#" {
				t.Fatalf("a key under %s in the items of NY#:\n%s", k[1], screen)
			}
		}
	})
}
