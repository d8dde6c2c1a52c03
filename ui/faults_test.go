package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/dynamo/demo"
	"github.com/dynascope/dynascope/dynamo/dynalitetest"
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
	var h *harness
	var retryScreens []string
	client, _, err := dynamo.Connect(ctx, dynamo.Target{Region: "us-east-1", EndpointURL: proxy.URL, MaxAttempts: 12,
		MaxBackoff: 20 * time.Millisecond, OnRetry: func(attempt int, err error) {
			if h == nil {
				return
			}
			h.m.cfg.Session.NoteRetry(attempt, err)
			// The request is in flight: this is what the screen shows now.
			retryScreens = append(retryScreens, h.screen())
		}})
	if err != nil {
		t.Fatal(err)
	}
	h = newHarness(t, 120, 30, Config{Client: client, Connection: "faulty", Now: func() time.Time { return demo.DemoEnd }})
	h.contains(t, "AuditLog", "Equipment", "Locations")
	h.keys("G", "enter") // Locations
	h.contains(t, "partitions")
	h.keys("/")
	h.typeText("USA")
	h.keys("enter")
	h.contains(t, "53 children", "▸ AK#")
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
