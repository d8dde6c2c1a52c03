package ui

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// failing is the demo's data behind a server that answers the first
// `after` calls of operation op, then fails every one with err.
type failing struct {
	dynamo.Client
	op    string
	after int
	err   error
	mu    sync.Mutex
	calls int
}

func failAfter(op string, after int, err error) *failing {
	return &failing{op: op, after: after, err: err}
}

func (f *failing) fails(op string) bool {
	if op != f.op {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return f.calls > f.after
}

func (f *failing) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	if f.fails("ListTables") {
		return nil, f.err
	}
	return f.Client.ListTables(ctx, in, o...)
}

func (f *failing) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	if f.fails("Query") {
		return nil, f.err
	}
	return f.Client.Query(ctx, in, o...)
}

func (f *failing) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	if f.fails("Scan") {
		return nil, f.err
	}
	return f.Client.Scan(ctx, in, o...)
}

func (f *failing) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	if f.fails("GetItem") {
		return nil, f.err
	}
	return f.Client.GetItem(ctx, in, o...)
}

// throttled is what the SDK returns when throttling outlasts its retries.
var throttled = &retry.MaxAttemptsError{Attempt: 3, Err: &smithy.GenericAPIError{Code: "ThrottlingException", Message: "Rate of requests exceeds the allowed throughput."}}

// timeout is what an attempt nobody answered ends with.
type timeout struct{}

func (timeout) Error() string {
	return "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
}
func (timeout) Timeout() bool   { return true }
func (timeout) Temporary() bool { return true }

var _ net.Error = timeout{}

var silent = &retry.MaxAttemptsError{Attempt: 3, Err: &url.Error{Op: "Post", URL: "http://127.0.0.1:8000/", Err: timeout{}}}

// TestFailedViews: every page whose read failed says so where its rows
// would be and in its title (what failed, after how many attempts, what was
// loaded before, that r retries), never "no items", "nothing under this
// prefix", "empty" or a total; at 80×24, a golden each. A request that
// failed is counted on the request line, in the items as in the tree
// ("1 req": one was sent; the items said "0 req").
func TestFailedViews(t *testing.T) {
	for _, c := range []struct {
		name  string
		cfg   Config
		fail  *failing
		keys  []string
		want  []string
		never []string
	}{
		{name: "tables", fail: failAfter("ListTables", 1, throttled), keys: []string{"r"},
			want: []string{"Tables · read failed after 3 attempts", "r retries", "16 tables loaded before"}, never: []string{"No tables here"}},
		{name: "partitions", cfg: Config{Table: "Locations"}, fail: failAfter("Scan", 0, throttled),
			want: []string{"Locations · read failed after 3 attempts", "nothing loaded · r retries", "ThrottlingException"}, never: []string{"empty", "0 partitions", "enter open"}},
		{name: "tree", cfg: Config{Table: "Locations", PK: "USA"}, fail: failAfter("Query", 1, throttled),
			want: []string{"read failed after 3 attempts", "4 children loaded before · r retries"}, never: []string{"Nothing under this prefix", " · all"}},
		{name: "tree-nothing", cfg: Config{Table: "Locations", PK: "USA"}, fail: failAfter("Query", 0, throttled),
			want: []string{"read failed after 3 attempts: ThrottlingException", "nothing loaded · r retries"}, never: []string{"Nothing under this prefix", "0 children", "enter open", "/ search"}},
		{name: "items", cfg: Config{Table: "DeviceLogs", PK: "9000"}, fail: failAfter("Query", 1, throttled), keys: []string{"G"},
			want: []string{"read failed after 3 attempts", "items loaded before · r retries"}, never: []string{"No items", " · all"}},
		{name: "items-nothing", cfg: Config{Table: "DeviceLogs", PK: "9000"}, fail: failAfter("Query", 0, throttled),
			want: []string{"read failed after 3 attempts: ThrottlingException: Rate of requests", "nothing loaded · r retries"}, never: []string{"No items", "0 items loaded"}},
		{name: "versions", cfg: Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}, fail: failAfter("Query", 0, throttled),
			want: []string{"read failed after 3 attempts", "r retries"}, never: []string{"No Versions mode here", "0 versioned items"}},
		{name: "time", cfg: Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200", Now: demoClock}, fail: failAfter("Query", 0, throttled),
			want: []string{"read failed after 3 attempts", "r retries"}, never: []string{"Nothing", "0 items loaded"}},
		{name: "time-prefixes", cfg: Config{Table: demo.StateTable, PK: demo.StateDevice, Range: "2020-04-24", Now: demoClock}, fail: failAfter("Query", 1, throttled),
			want: []string{"read failed after 3 attempts", "r retries"}, never: []string{" 0 items loaded", "newest first across"}},
		{name: "no-answer", cfg: Config{Table: "DeviceLogs", PK: "9000"}, fail: failAfter("Query", 0, silent),
			want: []string{"9000 · no answer from 127.0.0.1:8000 (3 attempts) · nothing loaded…", "│ no answer from 127.0.0.1:8000 (3 attempts)"}, never: []string{"No items"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.fail.Client = demoData(t)
			c.cfg.Client = c.fail
			h := newHarness(t, 80, 24, c.cfg)
			h.keys(c.keys...)
			h.contains(t, c.want...)
			for _, s := range c.never {
				if strings.Contains(h.screen(), s) {
					t.Errorf("a failed read shows %q:\n%s", s, h.screen())
				}
			}
			h.golden(t)
		})
	}
}

// TestFailedViewOffersNoRowKeys: a list whose read failed before any row
// (partitions, a tree level) does not offer the keys that act on
// a row, on its help line or in ? help, and / there says why it does
// nothing rather than open a search of "0 loaded rows".
func TestFailedViewOffersNoRowKeys(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		fail *failing
	}{
		{"partitions", Config{Table: "Locations"}, failAfter("Scan", 0, throttled)},
		{"tree", Config{Table: "Locations", PK: "USA"}, failAfter("Query", 0, throttled)},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.fail.Client = demoData(t)
			c.cfg.Client = c.fail
			h := newHarness(t, 80, 24, c.cfg)
			h.contains(t, "nothing loaded · r retries")
			k := h.m.c.Keys
			var offered []string
			for _, b := range h.m.top().ShortHelp() {
				offered = append(offered, b.Help().Key+" "+b.Help().Desc)
			}
			for _, g := range h.m.top().FullHelp() {
				for _, b := range g {
					offered = append(offered, b.Help().Key+" "+b.Help().Desc)
				}
			}
			for _, b := range append(k.Moves(), k.Open, k.Search, k.NextMatch) {
				if slices.Contains(offered, b.Help().Key+" "+b.Help().Desc) {
					t.Errorf("%q offered with no row listed: %q", b.Help().Key+" "+b.Help().Desc, offered)
				}
			}
			if c.name == "partitions" {
				return // / goes to a partition key there, read or not
			}
			h.keys("/")
			if h.m.searching() || !strings.Contains(h.screen(), "has nothing to search: no row is listed here") {
				t.Fatalf("/ with no row listed:\n%s", h.screen())
			}
		})
	}
}

// TestFailedReadRetries: r after a failure reads on from where the read
// stopped, and the view no longer says it failed.
func TestFailedReadRetries(t *testing.T) {
	f := failAfter("Query", 0, throttled)
	f.Client = demoData(t)
	h := newHarness(t, 100, 30, Config{Client: f, Table: "DeviceLogs", PK: "9000"})
	h.contains(t, "nothing loaded · r retries")
	f.mu.Lock()
	f.after = 1 << 30
	f.mu.Unlock()
	h.keys("r")
	h.contains(t, "items loaded · more as you scroll")
	if strings.Contains(h.screen(), "failed") {
		t.Fatalf("the failure stayed after the retry worked:\n%s", h.screen())
	}
}

// TestStatusMessages: the newest message wins (a success after an error is
// shown), an error stays until the next key, messages never name a flag,
// and ? lists the last ten, newest first.
func TestStatusMessages(t *testing.T) {
	h := newHarness(t, 200, 40, Config{Table: "DeviceLogs", PK: "9000"})
	h.send(errMsg(dynamo.Errorf("export to out.csv", dynamo.KindOther, "pick another file, or check --output", "--output: open out.csv: permission denied")))
	h.contains(t, "export to out.csv: the file: open out.csv: permission denied — pick another file, or check the file")
	if strings.Contains(h.screen(), "--output") {
		t.Fatalf("a message names a flag:\n%s", h.screen())
	}
	h.send(noticeMsg("exported 53 items to out2.csv"))
	h.contains(t, "exported 53 items to out2.csv")
	if strings.Contains(h.screen(), "permission denied") {
		t.Fatal("the older error hid the newer success")
	}
	h.send(errMsg(errors.New("later failure")))
	h.contains(t, "later failure")
	h.keys("down")
	if strings.Contains(h.screen(), "later failure") {
		t.Fatal("the error stayed past the next key")
	}
	for i := range 12 {
		h.send(noticeMsg("note " + string(rune('a'+i))))
	}
	h.keys("?")
	s := h.screen()
	if !strings.Contains(s, "last messages, newest first:") || !strings.Contains(s, "  note l") || strings.Contains(s, "  note b") {
		t.Fatalf("? does not show the last ten messages:\n%s", s)
	}
	if strings.Index(s, "  note l") > strings.Index(s, "  note c") {
		t.Fatalf("? lists the messages oldest first:\n%s", s)
	}
}

func errMsg(err error) common.ErrorMsg { return common.ErrorMsg{Err: err} }

func noticeMsg(s string) common.NoticeMsg { return common.NoticeMsg{Text: s} }

// TestCancelledAndUnreadViews: a read cancelled with esc says so in the
// title and under the rows it had (never "all" or a total); a list never
// read says so instead of looking empty. 80×24 goldens.
func TestCancelledAndUnreadViews(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Table: "DeviceLogs", PK: "9000"})
	_, cmd := h.m.Update(keyPress("G")) // the next page is asked for; hold its answer
	if cmd == nil {
		t.Fatal("no request in flight")
	}
	h.keys("esc")
	h.contains(t, "read cancelled · ", " items loaded before · r reads on")
	if strings.Contains(h.screen(), " · all") {
		t.Fatalf("a cancelled read looks complete:\n%s", h.screen())
	}
	t.Run("items", func(t *testing.T) { h.golden(t) })

	h = newHarness(t, 80, 24, Config{Table: "Locations", PK: "USA"})
	p := h.m.stack[1] // the partitions list waiting beneath the deep link, never read
	p.SetSize(80, 20)
	if v := p.View(); !strings.Contains(v, "partitions not read yet") || !strings.Contains(v, "Not read yet: r scans") {
		t.Fatalf("an unread list does not say so:\n%s", v)
	}
}

// TestCancelledReadsAgainSaysSo: where r reads a cancelled list from its
// start (Versions, Changes, Tables), esc says "r reads again", never "r
// reads on", and r does what it says: the whole list again.
func TestCancelledReadsAgainSaysSo(t *testing.T) {
	now := func() time.Time { return demo.DemoEnd }
	for _, tc := range []struct {
		name  string
		cfg   Config
		open  []string
		title string // the list's title, then its state
		again string // what the list holds once read again
	}{
		{"versions", Config{Table: "Equipment", PK: demo.DriftedPiece}, []string{"3"}, "Versions", "Audit#PART-7"},
		{"changes", Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: demoData(t), Now: now}, []string{"5"}, "Changes", "MODIFY"},
		{"tables", Config{}, nil, "Tables", "Locations"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 120, 35, tc.cfg)
			h.keys(tc.open...)
			if _, cmd := h.m.Update(keyPress("r")); cmd == nil { // read again: its answer held, in flight
				t.Fatal("r sent nothing")
			}
			h.keys("esc")
			h.contains(t, "read cancelled · ", "r reads again")
			if strings.Contains(h.screen(), "r reads on") {
				t.Fatalf("%s says r reads on; r reads it from the start:\n%s", tc.name, h.screen())
			}
			h.keys("r")
			h.contains(t, tc.again)
			if strings.Contains(h.screen(), "read cancelled") {
				t.Fatalf("r did not read %s again:\n%s", tc.name, h.screen())
			}
		})
	}
}

// TestListsOfferRAsTheirTitleSays: every list offers r through the list
// core (list.Paged.AgainKey): in ? help while its read is whole, on the
// help line once a read failed or was cancelled, named as the title says
// what r does. Tables, Changes, Entities and the comparison offered
// "r refresh" on the help line whatever their state, beside a title
// saying "r reads again" or "r retries"; the partitions list left r to ?
// beside a title saying "r retries".
func TestListsOfferRAsTheirTitleSays(t *testing.T) {
	now := func() time.Time { return demo.DemoEnd }
	mem := comparedTables(t)
	// held opens what the last key opens with its read held in flight.
	held := func(k string) func(h *harness) {
		return func(h *harness) {
			_, cmd := h.m.Update(keyPress(k))
			if cmd == nil {
				t.Fatalf("%s sent nothing", k)
			}
			if k == "enter" { // the comparison's page opens, then reads
				h.m.Update(cmd())
			}
		}
	}
	for _, tc := range []struct {
		name      string
		cfg       Config
		open      []string
		read      func(h *harness) // a read again, held in flight
		cancelled string           // r on the help line after esc
		fail      func() *failing  // a read that fails (nil: none tried)
		failOpen  []string
	}{
		{"tables", Config{}, nil, held("r"), "r read again", func() *failing { return failAfter("ListTables", 1, throttled) }, []string{"r"}},
		{"partitions", Config{Table: "Locations"}, nil, held("r"), "r read on", func() *failing { return failAfter("Scan", 0, throttled) }, nil},
		{"entities", Config{Table: "Shop", Now: demoClock}, []string{"E"}, held("r"), "r read again", func() *failing { return failAfter("Scan", 1, throttled) }, []string{"E"}},
		{"changes", Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: demoData(t), Now: now}, []string{"5"}, held("r"), "r read again", nil, nil},
		{"comparison", Config{Client: mem, Table: "Orders", PK: "p", Now: demoClock}, []string{"="}, held("enter"), "r compare again", nil, nil},
	} {
		for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", tc.name, size[0], size[1]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], tc.cfg)
				h.keys(tc.open...)
				if tc.name != "comparison" { // its list is not open yet
					if line := helpLine(h); strings.Contains(" "+line, " r ") {
						t.Errorf("a whole list offers r on the help line: %q", line)
					}
					h.keys("?")
					if full := strings.Join(strings.Fields(h.screen()), " "); !strings.Contains(full, "r refresh") {
						t.Errorf("? lacks r refresh:\n%s", full)
					}
					h.keys("?")
				}
				tc.read(h)
				h.keys("esc")
				h.contains(t, "read cancelled")
				if line := helpLine(h); !strings.Contains(line, tc.cancelled) {
					t.Errorf("after esc the help line does not say %q: %q", tc.cancelled, line)
				}
				if tc.fail == nil {
					return
				}
				f := tc.fail()
				f.Client = demoData(t)
				cfg := tc.cfg
				cfg.Client = f
				h = newHarness(t, size[0], size[1], cfg)
				h.keys(tc.failOpen...)
				if !strings.Contains(h.screen(), "read failed after 3 attempts") {
					t.Fatalf("no failure:\n%s", h.screen())
				}
				if line := helpLine(h); !strings.Contains(line, "r retry") {
					t.Errorf("after a failure the help line does not say r retry: %q", line)
				}
			})
		}
	}
}

// TestEntitiesRequestLineSaysHowTheReadEnded: the entity types' request
// line said "Scan Shop: whole (it costs less than 100 RCU)" after a read
// that failed, was cancelled, or had not answered yet (walk14 noticed it).
// It says which, "whole" only of a read that answered, and figures only
// where they are this read's (a read again showed the last one's).
func TestEntitiesRequestLineSaysHowTheReadEnded(t *testing.T) {
	requestLine := func(h *harness) string { return firstLineWith(h.screen(), "Scan Shop") }
	h := newHarness(t, 120, 35, Config{Table: "Shop", Now: demoClock})
	h.keys("E")
	if line := requestLine(h); !strings.Contains(line, "Scan Shop: whole") {
		t.Fatalf("a whole read's request line: %q\n%s", line, h.screen())
	}
	if _, cmd := h.m.Update(keyPress("r")); cmd == nil {
		t.Fatal("r sent nothing")
	}
	if line := requestLine(h); !strings.HasSuffix(line, "Scan Shop: reading…") {
		t.Errorf("before the answer: %q", line)
	}
	h.keys("esc")
	if line := requestLine(h); !strings.HasSuffix(line, "Scan Shop: cancelled, not read whole") {
		t.Errorf("after esc: %q", line)
	}
	f := failAfter("Scan", 1, throttled)
	f.Client = demoData(t)
	h = newHarness(t, 120, 35, Config{Client: f, Table: "Shop", Now: demoClock})
	h.keys("E")
	if line := requestLine(h); !strings.Contains(line, "Scan Shop: failed, not read whole · 1 req") {
		t.Errorf("after a failure: %q\n%s", line, h.screen())
	}
}

// comparedTables is an embedded backend holding Orders and OrdersRight,
// two tables of the same keys to compare.
func comparedTables(t *testing.T) *memory.DB {
	t.Helper()
	mem := memory.New()
	for _, tc := range []struct {
		table string
		right bool
	}{{"Orders", false}, {"OrdersRight", true}} {
		if err := demo.CreateKeyTable(context.Background(), mem, tc.table, "S", compareItems(tc.right)); err != nil {
			t.Fatal(err)
		}
	}
	return mem
}

// firstLineWith is the first line of s holding sub, or "".
func firstLineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// TestTreeRequestLineBeforeTheAnswer: while a level's first read has not
// answered, the request line says it is reading, not "skip-scan 0 req ·
// 0.0 RCU" (a walk that read nothing and cost nothing); once it answers,
// its figures. walk14 saw it on a server that hangs.
func TestTreeRequestLineBeforeTheAnswer(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA"})
	_, cmd := h.m.Update(keyPress("r"))
	if cmd == nil {
		t.Fatal("r sent nothing")
	}
	if s := flat(h.screen()); strings.Contains(s, "skip-scan 0 req") || !strings.Contains(s, "skip-scan reading…") {
		t.Fatalf("the request line before the answer:\n%s", h.screen())
	}
	h.keys("r") // read again, to the end
	if s := flat(h.screen()); !strings.Contains(s, "skip-scan 2 req") {
		t.Fatalf("the request line after the answer:\n%s", h.screen())
	}
}

// TestEscSaysCancelWhileReading: while a list's read is in flight, esc
// stops it and the page stays, and the help says "esc cancel"; once it
// has answered, esc goes back and the help says so. The help said "esc
// back" throughout, on a tree level or the items of a server that
// hangs as on every list.
func TestEscSaysCancelWhileReading(t *testing.T) {
	mem := comparedTables(t)
	for _, tc := range []struct {
		name string
		cfg  Config
		open []string
		read string // the key that starts the read held in flight
	}{
		{"tree", Config{Table: "Locations", PK: "USA"}, nil, "r"},
		{"partitions", Config{Table: "Locations"}, nil, "r"},
		{"items", Config{Table: "DeviceLogs", PK: "9000"}, nil, "r"},
		{"time", Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200", Now: demoClock}, nil, "r"},
		{"versions", Config{Table: "Equipment", PK: demo.DriftedPiece}, []string{"3"}, "r"},
		{"entities", Config{Table: "Shop", Now: demoClock}, []string{"E"}, "r"},
		{"changes", Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: demoData(t), Now: func() time.Time { return demo.DemoEnd }}, []string{"5"}, "r"},
		{"comparison", Config{Client: mem, Table: "Orders", PK: "p", Now: demoClock}, []string{"="}, "enter"},
	} {
		for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", tc.name, size[0], size[1]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], tc.cfg)
				h.keys(tc.open...)
				_, cmd := h.m.Update(keyPress(tc.read))
				if cmd == nil {
					t.Fatalf("%s sent nothing", tc.read)
				}
				if tc.read == "enter" { // the comparison's page opens, then reads
					h.m.Update(cmd())
				}
				// At 80 columns a page's later keys may give way (versions'
				// esc does); where esc is listed, it says what it does.
				if line := helpLine(h); strings.Contains(line, "esc back") || size[0] > 80 && !strings.Contains(line, "esc cancel") {
					t.Errorf("while reading the help line does not say esc cancel: %q", line)
				}
				h.keys("esc")
				h.contains(t, "read cancelled")
				if line := helpLine(h); strings.Contains(line, "esc cancel") {
					t.Errorf("with nothing in flight the help line says esc cancel: %q", line)
				}
			})
		}
	}
}

// TestExplorerThroughFaults walks the explorer's flows (tables, partitions,
// the tree, items, versions, a time range) through a proxy that fails 29%
// of requests: every screen still shows what it should, the status bar says
// when it is retrying and why, and nothing but reads is ever sent.
func TestExplorerThroughFaults(t *testing.T) {
	ctx := context.Background()
	srv := dynalitetest.Start(t)
	if _, err := demo.Seed(ctx, srv.Client(), demo.Options{Tables: []string{"Equipment", "AuditLog", "Locations"}}); err != nil {
		t.Fatal(err)
	}
	proxy := dynalitetest.NewFaultProxy(srv.Endpoint, 7)
	proxy.Slow = 50 * time.Millisecond
	defer proxy.Close()
	for f, r := range map[dynalitetest.Fault]float64{
		dynalitetest.FaultPTEE: 0.04, dynalitetest.FaultThrottling: 0.04, dynalitetest.FaultRequestLimit: 0.04,
		dynalitetest.FaultHTTP500: 0.04, dynalitetest.FaultHTTP503: 0.04, dynalitetest.FaultSlow: 0.03,
		dynalitetest.FaultReset: 0.03, dynalitetest.FaultTruncated: 0.03,
	} {
		proxy.Set(f, r)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	// OnRetry runs on the SDK's goroutine, as in the program: it only
	// notes the retry in the session; the screen is drawn on the test's
	// goroutine after each message (a retry stays on it for a while).
	var session atomic.Pointer[dynamo.Session]
	var retries atomic.Int64
	client, _, err := dynamo.Connect(ctx, dynamo.Target{Region: "us-east-1", EndpointURL: proxy.URL, MaxAttempts: 12,
		MaxBackoff: 20 * time.Millisecond, OnRetry: func(attempt int, err error) {
			if s := session.Load(); s != nil {
				s.NoteRetry(attempt, err)
				retries.Add(1)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 30, Config{Client: client, Connection: "faulty", Now: func() time.Time { return demo.DemoEnd }})
	session.Store(h.m.cfg.Session)
	var retryScreens []string
	seen := int64(0)
	h.d.Handled = func(tea.Msg) {
		if n := retries.Load(); n != seen {
			seen = n
			retryScreens = append(retryScreens, h.screen())
		}
	}
	h.contains(t, "AuditLog", "Equipment", "Locations")
	h.keys("G", "enter") // Locations
	h.contains(t, "partitions")
	h.keys("/")
	h.typeText("USA")
	h.keys("enter")
	h.contains(t, "53 prefixes", "▸ AK#")
	h.keys("enter") // AK
	h.contains(t, "AK#")
	h.keys("tab")
	h.contains(t, "items loaded", "AK#")
	for range 40 {
		h.keys("pgdown")
	}
	h.keys("esc", "esc", "esc", "esc")
	h.keys("g", "down", "enter") // Equipment
	h.keys("/")
	h.typeText(demo.DriftedPiece)
	h.keys("enter", "3")
	h.contains(t, "2 versioned items · 1 drifted", "⚠ v0_ differs")
	h.keys("esc", "esc", "esc", "g", "enter") // AuditLog
	h.keys("/")
	h.typeText(demo.AuditStream)
	h.keys("enter", "t")
	h.typeText("last 24h")
	h.keys("enter")
	h.loadAll()
	h.contains(t, "278 items loaded")

	for op := range proxy.Operations() {
		if !map[string]bool{"ListTables": true, "DescribeTable": true, "Query": true, "Scan": true, "GetItem": true}[op] {
			t.Errorf("the explorer sent %s", op)
		}
	}
	saw := false
	for _, s := range retryScreens {
		if strings.Contains(s, "retrying (attempt") && strings.Contains(s, "failed: ") {
			saw = true
			break
		}
	}
	if !saw {
		t.Fatalf("the status bar never said it was retrying (%d retries)", len(retryScreens))
	}
	t.Logf("operations %v; injected %v; %d retries shown", proxy.Operations(), proxy.Injected(), len(retryScreens))
}

// TestDebugLogHoldsNoSecrets: what the session writes to the opt-in debug
// log (--debug-log, opened by the command line: its file rules are
// cli's TestDebugLogFiles) has a line per request and retry, and never the
// credentials.
func TestDebugLogHoldsNoSecrets(t *testing.T) {
	ctx := context.Background()
	srv := dynalitetest.Start(t)
	if _, err := demo.Seed(ctx, srv.Client(), demo.Options{Tables: []string{"Equipment"}}); err != nil {
		t.Fatal(err)
	}
	proxy := dynalitetest.NewFaultProxy(srv.Endpoint, 3)
	defer proxy.Close()
	proxy.Set(dynalitetest.FaultThrottling, 0.3)
	const keyID, secret, token = "AKIADYNASCOPETEST01", "dynascope/Test+Secret/Key0123456789abcdef", "SessionTokenDynascopeTest"
	t.Setenv("AWS_ACCESS_KEY_ID", keyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
	t.Setenv("AWS_SESSION_TOKEN", token)
	var session *dynamo.Session
	client, _, err := dynamo.Connect(ctx, dynamo.Target{Region: "us-east-1", EndpointURL: proxy.URL, MaxAttempts: 12,
		MaxBackoff: 10 * time.Millisecond, OnRetry: func(a int, err error) { session.NoteRetry(a, err) }})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 100, 30, Config{Client: client, Connection: "debug"})
	session = h.m.cfg.Session
	var mu sync.Mutex
	var logged strings.Builder
	session.Log = func(format string, v ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(&logged, format+"\n", v...)
	}
	h.keys("enter")
	h.contains(t, "Equipment_")
	h.keys("enter", "tab", "3")
	mu.Lock()
	text := logged.String()
	mu.Unlock()
	for _, s := range []string{keyID, secret, token, "Test+Secret"} {
		if strings.Contains(text, s) {
			t.Fatalf("the debug log holds %q:\n%s", s, text)
		}
	}
	if !strings.Contains(text, "Query Equipment:") || !strings.Contains(text, "retrying (attempt") {
		t.Fatalf("the debug log lacks requests or retries:\n%s", text)
	}
	t.Logf("%d lines, e.g. %q", strings.Count(text, "\n"), strings.SplitN(text, "\n", 2)[0])
}

// TestEscCancelsAndLateAnswersAreDropped: esc cancels the page's request
// through its context; the answer that comes back later is dropped, and
// what was loaded stays.
func TestEscCancelsAndLateAnswersAreDropped(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "9000"})
	loaded := func() string {
		s := h.screen()
		i := strings.Index(s, " items loaded")
		return s[strings.LastIndex(s[:i], " ")+1 : i]
	}
	first := loaded()
	// G goes to the end of what is loaded, which asks for the next page;
	// hold that request's command instead of running it.
	_, cmd := h.m.Update(keyPress("G"))
	if cmd == nil || !h.m.anyLoading() {
		t.Fatal("no request in flight")
	}
	h.send(keyPress("esc")) // cancels at once
	if h.m.anyLoading() || h.m.top().Mode() != "Items" {
		t.Fatal("esc did not cancel, or left the page")
	}
	h.run(cmd) // the late answer arrives: dropped
	if got := loaded(); got != first || !strings.Contains(h.screen(), "read cancelled · "+first+" items loaded before · r reads on") {
		t.Fatalf("after a cancelled page: %s items loaded (was %s), and the title should say it was cancelled\n%s", got, first, h.screen())
	}
	h.keys("G") // asked again, the next page loads
	if loaded() == first {
		t.Fatal("the next page did not load after the cancel")
	}

	t.Run("partitions", func(t *testing.T) {
		// The partitions list scans on as the cursor nears its end: esc
		// cancels that scan, says so with what was listed, and stays; its
		// late answer is dropped, and a move reads on.
		db := memory.New()
		items := make([]dynamo.Item, 3000)
		for j := range items {
			items[j] = dynamo.Item{"PK": s(fmt.Sprintf("p#%05d", j)), "SK": s("x")}
		}
		if err := demo.CreateKeyTable(context.Background(), db, "Many", "S", items); err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, 120, 35, Config{Client: db, Table: "Many"})
		listed := func() string {
			s := h.screen()
			i := strings.Index(s, " partitions")
			return s[strings.LastIndex(s[:i], " ")+1 : i]
		}
		first := listed()
		var cmd tea.Cmd
		for range 200 { // down until the next scan step is asked for; hold it
			if _, cmd = h.m.Update(keyPress("j")); cmd != nil && h.m.anyLoading() {
				break
			}
		}
		if !h.m.anyLoading() {
			t.Fatal("no scan step in flight")
		}
		h.send(keyPress("esc"))
		if h.m.anyLoading() || len(h.m.stack) != 2 {
			t.Fatal("esc did not cancel the scan, or left the list")
		}
		h.run(cmd)
		h.contains(t, "read cancelled · "+first+" partitions loaded before · r reads on", "of ≥"+first)
		h.keys("j", "j", "j") // the failure's line took a row: the end is as near
		if listed() == first {
			t.Fatalf("a move after esc did not scan on:\n%s", h.screen())
		}

		// A table opened before it was described is described first: esc
		// cancels that too, and r describes it again, then scans.
		h = newHarness(t, 120, 35, Config{})
		_, cmd = h.m.Update(common.OpenMsg{Page: pages.NewPartitions(h.m.c, "Locations", dynamo.TableInfo{}, pages.TreeOptions{})})
		if !h.m.anyLoading() {
			t.Fatal("no DescribeTable in flight")
		}
		h.contains(t, "Locations · reading…")
		h.send(keyPress("esc"))
		h.run(cmd)
		h.contains(t, "Locations · read cancelled · nothing loaded · r reads on")
		h.keys("r")
		h.contains(t, "Locations · 6 partitions · all")
	})
}

// TestRetryFromWhereItStopped: when throttling outlasts the retries, the
// status bar says so and that r retries; what was loaded stays; r sends
// the failed page again, and the partition ends up complete, no row twice.
func TestRetryFromWhereItStopped(t *testing.T) {
	ctx := context.Background()
	srv := dynalitetest.Start(t)
	dl := srv.Client()
	seedWide(t, dl, 3000, 1000) // 3 MB: three pages
	proxy := dynalitetest.NewFaultProxy(srv.Endpoint, 5)
	defer proxy.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	client, _, err := dynamo.Connect(ctx, dynamo.Target{Region: "us-east-1", EndpointURL: proxy.URL, MaxAttempts: 2, MaxBackoff: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 160, 30, Config{Client: client, Table: "Wide", PK: "W"})
	h.keys("tab") // the items, in pages growing to 1 MB
	h.contains(t, "items loaded · more as you scroll")
	proxy.Set(dynalitetest.FaultThrottling, 1)
	h.keys("G") // the next page is asked for, and fails twice
	h.contains(t, "ThrottlingException", "read failed after 2 attempts", "items loaded before · r retries")
	first := h.screen()
	proxy.Clear()
	h.keys("r")
	if h.screen() == first {
		t.Fatal("r did not load the page that failed")
	}
	h.loadAll()
	h.keys("G")
	h.contains(t, "3,000 items loaded · all", "w#02999")
	if strings.Contains(h.screen(), "ThrottlingException") {
		t.Fatal("the error stayed after the retry worked")
	}
}

// seedWide writes n items of about size bytes into table Wide, partition W.
func seedWide(t *testing.T, w dynamo.Writer, n, size int) {
	t.Helper()
	pad := strings.Repeat("x", size)
	items := make([]dynamo.Item, n)
	for j := range items {
		items[j] = dynamo.Item{"PK": s("W"), "SK": s(fmt.Sprintf("w#%05d", j)), "Pad": s(pad)}
	}
	if err := demo.CreateKeyTable(context.Background(), w, "Wide", "S", items); err != nil {
		t.Fatal(err)
	}
}

// blockingQueries is the demo's data behind a server whose Query calls
// after the first `after` wait until they are cancelled: a read still in
// flight when esc is pressed.
type blockingQueries struct {
	dynamo.Client
	after   int32
	calls   atomic.Int32
	blocked atomic.Bool
}

func (b *blockingQueries) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	if b.calls.Add(1) > b.after {
		b.blocked.Store(true)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return b.Client.Query(ctx, in, o...)
}

// TestTreeCancelSaysWhatRDoes: esc on a drill-down cut off before its
// delimiter was found keeps the children found, and says r reads the
// level again (r walks it from its start: it cannot go on without the
// delimiter), never "r reads on"; its children are named as the level
// read whole names them (AK#, not AK).
func TestTreeCancelSaysWhatRDoes(t *testing.T) {
	// The walk's first read (a first page at the table's item size)
	// answers, finding AK to AZ; the rest of the level, read from the
	// second round trip, waits until cancelled.
	bq := &blockingQueries{Client: demoData(t), after: 1}
	h := newHarness(t, 120, 35, Config{Client: bq, Table: "Locations"})
	d := h.driver()
	d.key("enter") // USA
	d.until(t, 10*time.Second, func(s string) bool { return bq.blocked.Load() && strings.Contains(s, "▸ AK") })
	d.key("esc")
	// The title names the delimiter the rows are cut at (it said
	// "delimiter ?" over AK#…), though r walks the level from its start.
	h.contains(t, "read cancelled", "loaded before · r reads again", "delimiter #")
	// The children keep the delimiter the walk cut them at, as the level
	// read whole lists them (it listed "▸ AK").
	h.contains(t, "▸ AK#")
	if strings.Contains(h.screen(), "r reads on") {
		t.Fatalf("r would walk the level again, the screen says it reads on:\n%s", h.screen())
	}
	// The walk's end, cancelled, still says what it spent: every Query it
	// sent, not those up to the last child it found.
	spent := regexp.MustCompile(`skip-scan ([0-9]+) req`)
	d.until(t, 10*time.Second, func(s string) bool {
		m := spent.FindStringSubmatch(s)
		n, _ := strconv.Atoi(m[1])
		return n > int(bq.after)
	})
}

// TestTreeRetryGoesOn: a drill-down cut off by throttling keeps the
// children it found; r goes on after the last of them, and the level ends
// up whole, in fewer requests than starting over.
func TestTreeRetryGoesOn(t *testing.T) {
	ctx := context.Background()
	srv := dynalitetest.Start(t)
	var items []dynamo.Item
	// Children of 150 items of ~330 bytes, larger than a dense child (8
	// read units), so the walk probes them one by one.
	pad := s(strings.Repeat("x", 300))
	for c := 0; c < 30; c++ {
		for i := 0; i < 150; i++ {
			items = append(items, dynamo.Item{"PK": s("T"), "SK": s(fmt.Sprintf("c%02d#%04d", c, i)), "Data": pad})
		}
	}
	if err := demo.CreateKeyTable(ctx, srv.Client(), "Sparse", "S", items); err != nil {
		t.Fatal(err)
	}
	proxy := dynalitetest.NewFaultProxy(srv.Endpoint, 9)
	defer proxy.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	client, _, err := dynamo.Connect(ctx, dynamo.Target{Region: "us-east-1", EndpointURL: proxy.URL, MaxAttempts: 2, MaxBackoff: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	proxy.FailAfter(12, dynalitetest.FaultThrottling) // DescribeTable, then 11 reads of the walk
	h := newHarness(t, 160, 40, Config{Client: client, Table: "Sparse", PK: "T", Delimiter: "#"})
	h.contains(t, "ThrottlingException", "children loaded before · r retries", "▸ c00#")
	partial := h.screen()
	if strings.Contains(partial, "c29#") {
		t.Fatal("the walk was not cut off")
	}
	proxy.Clear()
	before := proxy.Operations()["Query"]
	h.keys("r")
	h.contains(t, "30 prefixes", "▸ c00#", "▸ c29#")
	// One read per child left and one past the last, plus the reads sent
	// ahead on a guess that the end made useless: starting over would
	// read the children already found again.
	found := len(regexp.MustCompile(`▸ c\d\d#`).FindAllString(partial, -1))
	if n := proxy.Operations()["Query"] - before; n > 30-found+1+dynamo.DefaultParallel-1 {
		t.Fatalf("going on took %d Query after %d children were found: it started over", n, found)
	}
}

// TestExplorerSilentServerEnds: when the server stops answering in the
// middle of a session, the read the explorer was waiting for ends, with
// an error naming the endpoint, the attempt deadline and the attempts,
// within the bound the connection states: the explorer never spins until
// esc.
func TestExplorerSilentServerEnds(t *testing.T) {
	ctx := context.Background()
	srv := dynalitetest.Start(t)
	if _, err := demo.Seed(ctx, srv.Client(), demo.Options{Tables: []string{"Locations"}}); err != nil {
		t.Fatal(err)
	}
	proxy := dynalitetest.NewFaultProxy(srv.Endpoint, 1)
	proxy.Slow = time.Hour // a slow answer that never comes
	defer proxy.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	target := dynamo.Target{Region: "us-east-1", EndpointURL: proxy.URL, Timeout: 300 * time.Millisecond}
	if d, err := time.ParseDuration(os.Getenv("DYNASCOPE_SILENT_TIMEOUT")); err == nil {
		target.Timeout = d // to measure the bound at the default: DYNASCOPE_SILENT_TIMEOUT=10s
	}
	client, _, err := dynamo.Connect(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	// The table list is read before the server falls silent, with the
	// default deadline: 300 ms is the silent read's, and a starved machine
	// (dynalite is a node process) took longer for the list and failed
	// the setup, not the check.
	setup, _, err := dynamo.Connect(ctx, dynamo.Target{Region: "us-east-1", EndpointURL: proxy.URL})
	if err != nil {
		t.Fatal(err)
	}
	sw := &switched{before: setup, after: client}
	h := newHarness(t, 200, 40, Config{Client: sw, Connection: "silent", Now: func() time.Time { return demo.DemoEnd }})
	h.contains(t, "Locations")
	sw.switchOver()
	proxy.FailAfter(0, dynalitetest.FaultSlow)
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		h.keys("enter") // open Locations: DescribeTable and the partitions' first page
	}()
	select {
	case <-done:
	case <-time.After(target.GiveUpAfter() + 10*time.Second):
		t.Fatalf("the read was still waiting after %v", time.Since(start))
	}
	took := time.Since(start)
	var silent *dynamo.NoAnswerError
	if !errors.As(h.m.lastErr, &silent) || silent.Endpoint != proxy.URL || silent.Timeout != target.Timeout || silent.Attempts != 3 {
		t.Fatalf("the read ended with %v, want no answer from %s after %v (3 attempts)", h.m.lastErr, proxy.URL, target.Timeout)
	}
	h.contains(t, "no answer from")
	if want := "(3 attempts, each given " + dynamo.Seconds(target.Timeout) + ")"; !strings.Contains(h.screen(), want) {
		t.Fatalf("the view does not say how long it waited (%q):\n%s", want, h.screen())
	}
	t.Logf("the explorer's read gave up after %v (bound %v): %v", took.Round(time.Millisecond), target.GiveUpAfter(), h.m.lastErr)
}

// switched sends every call to before until switchOver, then to after.
type switched struct {
	before, after dynamo.Client
	over          atomic.Bool
}

func (s *switched) switchOver() { s.over.Store(true) }

func (s *switched) c() dynamo.Client {
	if s.over.Load() {
		return s.after
	}
	return s.before
}

func (s *switched) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	return s.c().ListTables(ctx, in, o...)
}

func (s *switched) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	return s.c().DescribeTable(ctx, in, o...)
}

func (s *switched) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return s.c().Query(ctx, in, o...)
}

func (s *switched) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return s.c().Scan(ctx, in, o...)
}

func (s *switched) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return s.c().GetItem(ctx, in, o...)
}

// refusingQueries answers every Query as DynamoDB answered the keys-only
// projection that named an index's shared key twice.
type refusingQueries struct{ dynamo.Client }

func (refusingQueries) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, &smithy.GenericAPIError{Code: "ValidationException", Fault: smithy.FaultClient,
		Message: "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [PK], path two: [PK]"}
}

// TestTreeFailedReadIsNotEmpty: a drill-down whose first read fails says
// so where the children would be, never "Nothing under this prefix".
func TestTreeFailedReadIsNotEmpty(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Client: refusingQueries{demoData(t)}, Table: "Locations", PK: "USA", Delimiter: "#"})
		h.contains(t, "USA · read failed · nothing loaded · r retries", "read failed: ValidationException")
		if s := h.screen(); strings.Contains(s, "Nothing under this prefix") {
			t.Fatalf("a failed read shown as an empty level:\n%s", s)
		}
	}
}

// TestRefusalReasonNeverCut: a mode key refused where its reason does not
// fit the status bar keeps the result whole and points at ?, which shows
// the reason whole; it never ends mid-sentence ("No Versions mode here:
// no sort key here…" at 80×24 on the Workbench's flights, 25.22). Where
// it fits (120×35), the reason is in the bar.
func TestRefusalReasonNeverCut(t *testing.T) {
	const whole = "No Versions mode here: no sort key here begins with v (v0_Audit, v1_Audit…)"
	for _, c := range []struct {
		w, h int
		bar  string
	}{{80, 24, "No Versions mode here · ? says why"}, {120, 35, whole}} {
		t.Run(fmt.Sprintf("%dx%d", c.w, c.h), func(t *testing.T) {
			h := newHarness(t, c.w, c.h, Config{Table: "Workbench", PK: "FLIGHTS#AA"})
			h.keys("3")
			h.said(t, whole)
			lines := strings.Split(h.screen(), "\n")
			status := strings.TrimRight(lines[len(lines)-1], " ")
			if !strings.HasSuffix(status, c.bar) {
				t.Fatalf("status bar %q, want it to end %q", status, c.bar)
			}
			if c.w == 80 {
				h.golden(t)
			}
			h.keys("?")
			h.contains(t, "No Versions mode here: no sort key here begins with v")
		})
	}
}

// TestRefusalReasonNotCutInAList: a refusal's reason is cut only where a
// clause ends (";"), never at a comma of a list, which leaves a reason
// that says something else: = in Versions mode at 120x35 read "it
// compares a partition · ? says why", on a partition; s on the tables
// "it sorts the rows of a partition's items (2)", without versions and
// Time mode.
func TestRefusalReasonNotCutInAList(t *testing.T) {
	for _, c := range []struct {
		w, h   int
		cfg    Config
		keys   []string
		result string
	}{
		{120, 35, Config{Table: "Equipment", PK: "Equipment_1"}, []string{"3", "="}, "= compare does not apply here"},
		{80, 24, Config{Table: "Equipment", PK: "Equipment_1"}, []string{"3", "="}, "= compare does not apply here"},
		{80, 24, Config{}, []string{"s"}, "s sort loaded rows does not apply here"},
	} {
		t.Run(fmt.Sprintf("%dx%d %v", c.w, c.h, c.keys), func(t *testing.T) {
			h := newHarness(t, c.w, c.h, c.cfg)
			h.keys(c.keys...)
			whole := h.m.said[len(h.m.said)-1].whole()
			if !strings.HasPrefix(whole, c.result+": ") {
				t.Fatalf("the newest message is %q, want %q and its reason", whole, c.result)
			}
			lines := strings.Split(h.screen(), "\n")
			status := strings.TrimRight(lines[len(lines)-1], " ")
			if !strings.HasSuffix(status, whole) && !strings.HasSuffix(status, c.result+" · ? says why") {
				t.Fatalf("status bar %q: want %q whole or %q", status, whole, c.result+" · ? says why")
			}
		})
	}
}

// TestKeyRefusalNeverCut: a key that does not apply, pressed where the
// status bar has little room (an item at 80 columns), says its result
// whole rather than a reason cut mid-sentence ("modes are…").
func TestKeyRefusalNeverCut(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Table: "Locations", PK: "USA"})
	h.keys("/", "N", "Y", "enter", "enter") // the item NY
	h.contains(t, `"SK": "NY"`)
	for _, k := range []string{"4", "3"} {
		h.keys(k)
		lines := strings.Split(h.screen(), "\n")
		status := strings.TrimRight(lines[len(lines)-1], " ")
		if strings.HasSuffix(status, "…") || !strings.Contains(status, "does not apply here") {
			t.Fatalf("after %s the status bar reads %q: want the refusal's result whole", k, status)
		}
	}
}

// TestCancelledViewsOfferRWhereTheirTitleDoes: a list whose read esc
// cancelled says in its title what r does, and its help line offers r
// in the same words, as the search's does; Items, Versions, Time and the
// Tree left r to ? while their titles said "r reads on" or "r reads
// again". A list
// read to its end does not put r on the help line.
func TestCancelledViewsOfferRWhereTheirTitleDoes(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		open []string
		key  string // the key whose read esc cancels
		say  string // the title's words, then the help line's
		help string
	}{
		{"items", Config{Table: "Locations", PK: "USA"}, nil, "2", "r reads on", "r read on"},
		{"versions", Config{Table: "Equipment", PK: demo.DriftedPiece}, nil, "3", "r reads again", "r read again"},
		{"time", Config{Table: "DeviceLogs", PK: "123", Now: demoClock}, nil, "4", "r reads on", "r read on"},
		{"tree", Config{Table: "Locations", PK: "USA"}, nil, "r", "r reads", "r read"},
	} {
		for _, size := range [][2]int{{100, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", tc.name, size[0], size[1]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], tc.cfg)
				h.keys(tc.open...)
				if _, cmd := h.m.Update(keyPress(tc.key)); cmd == nil { // its answer held, in flight
					t.Fatal("no read sent")
				}
				h.keys("esc")
				h.contains(t, "read cancelled", tc.say)
				if !strings.Contains(ansi.Strip(h.m.helpView()), tc.help) {
					t.Errorf("the help line does not offer %q:\n%s", tc.help, h.screen())
				}
				h.keys("r")
				if strings.Contains(ansi.Strip(h.m.helpView()), tc.help) || strings.Contains(h.screen(), "read cancelled") {
					t.Errorf("read again, the help line still offers %q:\n%s", tc.help, h.screen())
				}
			})
		}
	}
}
