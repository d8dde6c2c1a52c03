package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

// readOps are the only operations dynascope's flows may send.
var readOps = map[string]bool{"ListTables": true, "DescribeTable": true, "Query": true, "Scan": true, "GetItem": true, "BatchGetItem": true}

// faultRates are injected together: 29% of requests fail one way or another.
var faultRates = map[dynalitetest.Fault]float64{
	dynalitetest.FaultPTEE: 0.04, dynalitetest.FaultThrottling: 0.04, dynalitetest.FaultRequestLimit: 0.04,
	dynalitetest.FaultHTTP500: 0.04, dynalitetest.FaultHTTP503: 0.04, dynalitetest.FaultSlow: 0.03,
	dynalitetest.FaultReset: 0.03, dynalitetest.FaultTruncated: 0.03,
}

type retryLog struct {
	mu      sync.Mutex
	reasons map[string]int
}

func (l *retryLog) note(_ int, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	msg := err.Error()
	for _, k := range []string{"ProvisionedThroughputExceeded", "ThrottlingException", "RequestLimitExceeded", "InternalServerError",
		"ServiceUnavailable", "connection reset", "EOF"} {
		if strings.Contains(msg, k) {
			l.reasons[k]++
			return
		}
	}
	l.reasons["other: "+msg]++
}

// faultyClient connects through a fault proxy in front of the shared
// dynalite, with the adaptive retryer and short backoffs.
func faultyClient(t *testing.T, attempts int) (dynamo.Client, *dynalitetest.FaultProxy, *retryLog) {
	t.Helper()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	proxy := dynalitetest.NewFaultProxy(dynalitetest.Shared(t).Endpoint, 42)
	proxy.Slow = 50 * time.Millisecond
	t.Cleanup(proxy.Close)
	log := &retryLog{reasons: map[string]int{}}
	c, _, err := dynamo.Connect(context.Background(), dynamo.Target{Region: "us-east-1", EndpointURL: proxy.URL,
		MaxAttempts: attempts, MaxBackoff: 20 * time.Millisecond, OnRetry: log.note})
	if err != nil {
		t.Fatal(err)
	}
	return c, proxy, log
}

func checkReadOnly(t *testing.T, p *dynalitetest.FaultProxy) {
	t.Helper()
	for op := range p.Operations() {
		if !readOps[op] {
			t.Errorf("a flow sent %s", op)
		}
	}
}

// TestFlowsThroughFaults drives paging, drill-down, counts, versions and
// ranges through injected faults and requires exactly the results of the
// same flows sent straight to dynalite.
func TestFlowsThroughFaults(t *testing.T) {
	ctx := context.Background()
	direct := hierBackends(t)["dynalite"]
	timesBackends(t)
	backends(t) // the demo's Equipment on dynalite
	faulty, proxy, log := faultyClient(t, 12)
	for f, r := range faultRates {
		proxy.Set(f, r)
	}
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	flows := map[string]func(c dynamo.Client) string{
		"paging 13,518 keys in pages of 200": func(c dynamo.Client) string {
			var keys []string
			var start dynamo.Item
			for {
				p, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: domain.KeyQuery{Table: "Hier", PKName: "PK", PK: domain.S("H"), SKName: "SK"}, Start: start, Limit: 200})
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range p.Items {
					keys = append(keys, sk(it))
				}
				if !p.More() {
					break
				}
				start = p.LastKey
			}
			seen := map[string]bool{}
			for _, k := range keys {
				if seen[k] {
					t.Errorf("duplicate %q", k)
				}
				seen[k] = true
			}
			return fmt.Sprintf("%d keys, first %q, last %q", len(keys), keys[0], keys[len(keys)-1])
		},
		"drill-down": func(c dynamo.Client) string {
			var b strings.Builder
			for _, p := range []string{"", "WIDE#", "DEEP#", "NY#"} {
				res, err := dynamo.Children(ctx, c, dynamo.ChildrenRequest{Table: "Hier", Key: key, PK: domain.S("H"), Prefix: p, Delim: "#"}, nil)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "%q: %d children %s\n", p, len(res.Children), sorted(res.Children)[:min(200, len(sorted(res.Children)))])
			}
			return b.String()
		},
		"counts": func(c dynamo.Client) string {
			n, err := dynamo.CountChild(ctx, c, dynamo.ChildrenRequest{Table: "Hier", Key: key, PK: domain.S("H"), Delim: "#"},
				domain.Child{Name: "WIDE", Prefix: "WIDE#", HasChildren: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprint(n)
		},
		"versions": func(c dynamo.Client) string {
			r := versionsReq(demo.LongHistoryPiece, "Audit")
			r.PageLimit = 100
			h, _, err := dynamo.ItemHistory(ctx, c, r, nil)
			if err != nil {
				t.Fatal(err)
			}
			return summary(h)
		},
		"ranges": func(c dynamo.Client) string {
			rg, _ := domain.ParseRange("2018-08-20..2018-09-04", time.Now(), time.UTC)
			enc, _ := domain.DetectTime([]string{"2018-08-29T12:00:00Z"}, false)
			cond, _ := domain.CompileRange(rg, enc, "")
			return strings.Join(readAll(t, c, domain.KeyQuery{Table: "TimesS", PKName: "PK", PK: domain.S("iso"), SKName: "SK", SK: cond, Reverse: true}), " ")
		},
	}
	names := make([]string, 0, len(flows))
	for n := range flows {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		want := flows[name](direct)
		got := flows[name](faulty)
		if got != want {
			t.Errorf("%s through faults:\n got %.300s\nwant %.300s", name, got, want)
		}
	}
	checkReadOnly(t, proxy)
	injected := proxy.Injected()
	total := 0
	for _, n := range proxy.Operations() {
		total += n
	}
	for f := range faultRates {
		if injected[f] == 0 {
			t.Errorf("%s was never injected", f)
		}
	}
	t.Logf("%d requests reached the proxy; injected %v; retries by reason %v", total, injected, log.reasons)
}

// TestRetriesRunOut: when throttling outlasts the retries, the error says
// so and what to do, and what was read before is kept.
func TestRetriesRunOut(t *testing.T) {
	ctx := context.Background()
	backends(t)
	faulty, proxy, _ := faultyClient(t, 3)
	r := versionsReq(demo.LongHistoryPiece, "Audit")
	r.PageLimit = 100
	pages := 0
	res, err := dynamo.Versions(ctx, faulty, r, func(dynamo.VersionsResult) {
		if pages++; pages == 2 {
			proxy.Set(dynalitetest.FaultThrottling, 1) // from the third page on
		}
	})
	if dynamo.KindOf(err) != dynamo.KindThrottled || !strings.Contains(err.Error(), "ThrottlingException") {
		t.Fatalf("error %v (%s)", err, dynamo.KindOf(err))
	}
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Hint == "" {
		t.Fatalf("no hint in %v", err)
	}
	if len(res.Histories) != 1 || len(res.Histories[0].Revisions) != 199 || res.Pages != 2 {
		t.Fatalf("kept %d pages, %+v", res.Pages, res.Histories)
	}
	if ops := proxy.Operations()["Query"]; ops != 2+3 {
		t.Fatalf("%d Query requests, want 2 pages and 3 attempts at the third", ops)
	}

	proxy.Clear()
	proxy.Set(dynalitetest.FaultExpired, 1)
	before := proxy.Operations()["GetItem"]
	_, _, err = dynamo.ItemHistory(ctx, faulty, r, nil)
	if dynamo.KindOf(err) != dynamo.KindCredentials || proxy.Operations()["GetItem"] != before+1 {
		t.Fatalf("expired token: %v (%s), %d attempts", err, dynamo.KindOf(err), proxy.Operations()["GetItem"]-before)
	}
	checkReadOnly(t, proxy)
}
