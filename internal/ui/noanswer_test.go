package ui

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

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
