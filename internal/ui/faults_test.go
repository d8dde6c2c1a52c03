package ui

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

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

// TestTreeRetryGoesOn: a drill-down cut off by throttling keeps the
// children it found; r goes on after the last of them, and the level ends
// up whole, in fewer requests than starting over.
func TestTreeRetryGoesOn(t *testing.T) {
	ctx := context.Background()
	srv := dynalitetest.Start(t)
	var items []dynamo.Item
	for c := 0; c < 30; c++ {
		for i := 0; i < 150; i++ {
			items = append(items, dynamo.Item{"PK": s("T"), "SK": s(fmt.Sprintf("c%02d#%04d", c, i))})
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
