package ui

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
)

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
