package ui

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/ui/common"
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
// prefix", "empty" or a total; at 80×24, a golden each.
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
			want: []string{"Locations · read failed after 3 attempts", "nothing loaded · r retries", "ThrottlingException"}, never: []string{"empty", "0 partitions"}},
		{name: "tree", cfg: Config{Table: "Locations", PK: "USA"}, fail: failAfter("Query", 1, throttled),
			want: []string{"read failed after 3 attempts", "1 child loaded before · r retries"}, never: []string{"Nothing under this prefix", " · all"}},
		{name: "tree-nothing", cfg: Config{Table: "Locations", PK: "USA"}, fail: failAfter("Query", 0, throttled),
			want: []string{"read failed after 3 attempts: ThrottlingException", "nothing loaded · r retries"}, never: []string{"Nothing under this prefix", "0 children"}},
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
			want: []string{"9000 · no answer from 127.0.0.1:8000 (3 attempts) · nothing loaded · r re", "│ no answer from 127.0.0.1:8000 (3 attempts)"}, never: []string{"No items"}},
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
