package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/keymap"
)

// ownLiveDemo gives the test a demo of its own with the live workload on,
// writing every few milliseconds.
func ownLiveDemo(t *testing.T) *memory.DB {
	t.Helper()
	db, err := demo.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	savedLoad, savedRun, savedEvery := loadDemo, runLive, liveEvery
	loadDemo = func(context.Context) (*memory.DB, error) { return db, nil }
	runLive, liveEvery = startWorkload, 20*time.Millisecond
	t.Cleanup(func() { loadDemo, runLive, liveEvery = savedLoad, savedRun, savedEvery })
	return db
}

// TestChangesDemoFollowIsLive: `changes --demo --follow` prints the
// demo's fixed history, then its live workload's writes as they come:
// the live order placed, paid, shipped, each once, after the history.
func TestChangesDemoFollowIsLive(t *testing.T) {
	isolateAWS(t)
	ownLiveDemo(t)
	out, errb := &syncBuffer{}, &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"changes", "--demo", "--table", demo.ShopTable, "--pk", demo.StreamCustomer, "--follow"}, out, errb)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), `"Status":"SHIPPED","Total"`) || !strings.Contains(out.String(), `o#20001`) {
		if time.Now().After(deadline) {
			t.Fatalf("no live change: stdout %q, stderr %q", out.String(), errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	var live []string
	for i, c := range changeLines(t, out.String()) {
		if sk, _ := c.Keys["SK"].(string); !strings.HasPrefix(sk, "o#2") { // the history's orders are o#1…
			if live != nil {
				t.Errorf("line %d: history after the live writes: %+v", i, c)
			}
			continue
		}
		if c.Keys["SK"] == "o#20001" {
			live = append(live, fmt.Sprint(c.Event, " ", c.New["Status"]))
		}
	}
	if want := "INSERT PLACED|MODIFY PAID|MODIFY SHIPPED"; !strings.HasPrefix(strings.Join(live, "|"), want) {
		t.Errorf("live changes %q, want them to begin %q, each once", live, want)
	}
}

// TestExplorerDemoIsLive: the explorer on --demo starts the live
// workload once it is connected, under its own context: the live order
// is written while it runs, and nothing after it ends.
func TestExplorerDemoIsLive(t *testing.T) {
	isolateAWS(t)
	db := ownLiveDemo(t)
	ctx, cancel := context.WithCancel(context.Background())
	g := &globals{demo: true}
	g.live = newLiveDemo(ctx)
	if _, err := g.connectExplorer(nil, "", "", nil)(ctx); err != nil {
		t.Fatal(err)
	}
	order := func() map[string]any {
		out, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(demo.ShopTable),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: demo.StreamCustomer}, "SK": &types.AttributeValueMemberS{Value: "o#20001"}}})
		if err != nil {
			t.Fatal(err)
		}
		if out.Item == nil {
			return nil
		}
		return dynamo.PlainItem(out.Item)
	}
	deadline := time.Now().Add(30 * time.Second)
	for order() == nil {
		if time.Now().After(deadline) {
			t.Fatal("the explorer on the demo wrote no live order")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if now := g.live.now(); !now.After(demo.DemoEnd) {
		t.Errorf("the demo's clock stands at %v: live writes are no newer than its history", now)
	}
	cancel()
	time.Sleep(100 * time.Millisecond) // a write under way ends
	before := fmt.Sprint(order())
	time.Sleep(200 * time.Millisecond) // ten steps of the workload, were it still running
	if after := fmt.Sprint(order()); after != before {
		t.Error("the live workload went on after the explorer's context ended")
	}
}

// TestExplorerDemoRangesAsRangeDoes: the explorer's clock on the demo is
// in whole seconds, so that last 15m read in its first second has the
// bounds dynascope range --last 15m gives on the demo (from DemoEnd); a
// second on, both move by that second.
func TestExplorerDemoRangesAsRangeDoes(t *testing.T) {
	isolateAWS(t)
	headless, err := domain.ParseRange("last 15m", demo.DemoEnd, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ elapsed, moved time.Duration }{{0, 0}, {340 * time.Millisecond, 0}, {1500 * time.Millisecond, time.Second}} {
		g := &globals{demo: true, live: &liveDemo{now: func() time.Time { return demo.DemoEnd.Add(tc.elapsed) }}}
		o := &rootOptions{changed: func(string) bool { return false }}
		cfg := o.uiConfig(g, config.Config{}, keymap.Default(), nil)
		explorer, err := domain.ParseRange("last 15m", cfg.Now(), time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		if !explorer.From.Equal(headless.From.Add(tc.moved)) || !explorer.To.Equal(headless.To.Add(tc.moved)) {
			t.Errorf("%v in: last 15m is %v to %v, dynascope range's %v to %v (moved by %v)", tc.elapsed, explorer.From, explorer.To, headless.From, headless.To, tc.moved)
		}
	}
}
