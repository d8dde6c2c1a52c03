package dynamo_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// followBackends makes an empty log table, keyed Device (S) / At (S, an
// ISO time after an optional prefix), on both backends.
func followBackends(t *testing.T, table string) map[string]interface {
	dynamo.Client
	dynamo.Writer
} {
	t.Helper()
	ctx := context.Background()
	out := map[string]interface {
		dynamo.Client
		dynamo.Writer
	}{"memory": memory.New(), "dynalite": dynalitetest.Shared(t).Client()}
	for name, c := range out {
		_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName: aws.String(table),
			AttributeDefinitions: []types.AttributeDefinition{
				{AttributeName: aws.String("Device"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("At"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("Device"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("At"), KeyType: types.KeyTypeRange}},
			BillingMode: types.BillingModePayPerRequest,
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// dynalite creates tables asynchronously: a write before ACTIVE
		// fails with ResourceNotFoundException on a loaded machine.
		if err := demo.WaitActive(ctx, c, table); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return out
}

func putLog(t *testing.T, w dynamo.Writer, table, device, at string) {
	t.Helper()
	_, err := w.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		table: {{PutRequest: &types.PutRequest{Item: dynamo.Item{
			"Device": &types.AttributeValueMemberS{Value: device},
			"At":     &types.AttributeValueMemberS{Value: at},
		}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
}

// collector gathers what Follow emits, for the test to wait on.
type collector struct {
	mu    sync.Mutex
	keys  []string
	polls int
}

func (c *collector) emit(it dynamo.Item) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keys = append(c.keys, it["At"].(*types.AttributeValueMemberS).Value)
	return nil
}

func (c *collector) poll(dynamo.FollowStats) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.polls++
}

// waitPolls waits until n more polls have run (bounded, so a broken
// Follow fails the test rather than hanging it).
func (c *collector) waitPolls(t *testing.T, n int) []string {
	t.Helper()
	c.mu.Lock()
	target := c.polls + n
	c.mu.Unlock()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		if c.polls >= target {
			keys := append([]string(nil), c.keys...)
			c.mu.Unlock()
			return keys
		}
		c.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("follow stopped polling")
	return nil
}

// follow runs dynamo.Follow on c in the background, what it emits and
// each poll into col; the channel answers once it returns.
func (col *collector) follow(ctx context.Context, c dynamo.Client, r dynamo.FollowRequest) <-chan error {
	done := make(chan error, 1)
	go func() { done <- dynamo.Follow(ctx, c, r, col.emit, col.poll) }()
	return done
}

// TestFollowEachNewItemOnce: on both backends, follow sees every item
// written after it started exactly once, within two polls of its write,
// including one written late with a key older than the newest (inside
// the overlap window), and never an item of another prefix or one older
// than the window.
func TestFollowEachNewItemOnce(t *testing.T) {
	enc, ok := domain.DetectTime([]string{"amsg#2026-11-01T10:00:00Z"}, false)
	if !ok {
		t.Fatal("ISO composite keys not detected")
	}
	for name, c := range followBackends(t, "FollowLog") {
		t.Run(name, func(t *testing.T) {
			const table = "FollowLog"
			putLog(t, c, table, "d1", "amsg#2026-11-01T10:00:00Z")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			col := &collector{}
			done := col.follow(ctx, c, dynamo.FollowRequest{
				Query:  domain.KeyQuery{Table: table, PKName: "Device", PK: domain.S("d1"), SKName: "At"},
				Enc:    enc,
				Prefix: "amsg",
				Newest: "amsg#2026-11-01T10:00:00Z", Overlap: 5 * time.Second, Interval: 50 * time.Millisecond,
			})
			if got := col.waitPolls(t, 1); len(got) != 0 {
				t.Fatalf("the item already shown was emitted again: %v", got)
			}
			putLog(t, c, table, "d1", "amsg#2026-11-01T10:00:10Z")
			putLog(t, c, table, "d1", "bmsg#2026-11-01T10:00:11Z") // another prefix
			putLog(t, c, table, "d2", "amsg#2026-11-01T10:00:12Z") // another partition
			// Each new item is emitted within two polls of its write.
			if got, want := col.waitPolls(t, 2), []string{"amsg#2026-11-01T10:00:10Z"}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("two polls after the first write, emitted %v, want %v", got, want)
			}
			putLog(t, c, table, "d1", "amsg#2026-11-01T10:00:20Z")
			if got, want := col.waitPolls(t, 2), []string{"amsg#2026-11-01T10:00:10Z", "amsg#2026-11-01T10:00:20Z"}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("two polls after the second write, emitted %v, want %v", got, want)
			}
			putLog(t, c, table, "d1", "amsg#2026-11-01T10:00:17Z") // late, inside the overlap
			putLog(t, c, table, "d1", "amsg#2026-11-01T10:00:05Z") // late, before the window
			got := col.waitPolls(t, 3)
			want := []string{"amsg#2026-11-01T10:00:10Z", "amsg#2026-11-01T10:00:20Z", "amsg#2026-11-01T10:00:17Z"}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("emitted %v, want %v", got, want)
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("cancelling follow: %v", err)
			}
		})
	}
}

// TestFollowKeysInSeveralOffsets: on both backends, where the keys are
// written in several UTC offsets, follow emits a new item whose key, in
// an offset behind the one the bound is written in, sorts below it
// (10:03-05:00 is 15:03 UTC, after the newest shown, 15:00 UTC), and
// not an old one whose key, in an offset ahead, sorts above it
// (15:30+05:30 is 10:00 UTC).
func TestFollowKeysInSeveralOffsets(t *testing.T) {
	d := domain.DetectTimeSample([]string{"2026-11-01T15:00:00+00:00", "2026-11-01T10:00:00-05:00", "2026-11-01T20:30:00+05:30"}, false)
	if !d.OK || d.Spread != 10*time.Hour+30*time.Minute {
		t.Fatalf("keys in three offsets: %+v", d)
	}
	for name, c := range followBackends(t, "FollowOffsets") {
		t.Run(name, func(t *testing.T) {
			const table = "FollowOffsets"
			putLog(t, c, table, "d1", "2026-11-01T15:00:00+00:00")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			col := &collector{}
			done := col.follow(ctx, c, dynamo.FollowRequest{
				Query:  domain.KeyQuery{Table: table, PKName: "Device", PK: domain.S("d1"), SKName: "At"},
				Enc:    d.Enc,
				Newest: "2026-11-01T15:00:00+00:00", Overlap: 5 * time.Second, Interval: 50 * time.Millisecond,
				Spread: d.Spread,
			})
			if got := col.waitPolls(t, 1); len(got) != 0 {
				t.Fatalf("the item already shown was emitted again: %v", got)
			}
			putLog(t, c, table, "d1", "2026-11-01T10:03:00-05:00") // new: 15:03 UTC
			putLog(t, c, table, "d1", "2026-11-01T15:30:00+05:30") // old: 10:00 UTC
			if got, want := col.waitPolls(t, 2), []string{"2026-11-01T10:03:00-05:00"}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("emitted %v, want %v", got, want)
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("cancelling follow: %v", err)
			}
		})
	}
}

// TestFollowBacksOff: with nothing arriving the poll interval doubles from
// FollowFast to FollowSlow, and returns to FollowFast when items come.
func TestFollowBacksOff(t *testing.T) {
	got := []time.Duration{}
	next := dynamo.FollowFast
	for _, busy := range []bool{false, false, false, false, false, true} {
		next = dynamo.NextFollowInterval(0, next, busy)
		got = append(got, next)
	}
	want := []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second, time.Second}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("intervals %v, want %v", got, want)
	}
	if dynamo.NextFollowInterval(3*time.Second, time.Second, false) != 3*time.Second {
		t.Fatal("a fixed --interval changed")
	}
}

// After one poll a rate per minute is a guess (17,671–41,490 requests/min
// were claimed): until a minute has passed, what was spent so far is said,
// as DynamoDB bills it (a poll that found nothing, reported as 0.0 RCU,
// is billed 0.5: "1 requests, 0.0 RCU so far" was said).
func TestFollowRatesFromAMinute(t *testing.T) {
	now := time.Now()
	st := dynamo.FollowStats{Started: now.Add(-time.Second), Cost: dynamo.Cost{Requests: 1, RCU: 0, Billed: 0.5}}
	if got := st.Rates(now); got != "1 request, 0.5 RCU so far" {
		t.Errorf("after a second, one empty poll: %q", got)
	}
	st.Cost = dynamo.Cost{Requests: 3, RCU: 1.5, Billed: 1.5}
	if got := st.Rates(now); got != "3 requests, 1.5 RCU so far" {
		t.Errorf("after a second: %q", got)
	}
	st.Started = now.Add(-2 * time.Minute)
	if got := st.Rates(now); got != "2 requests/min · 0.8 RCU/min" {
		t.Errorf("after two minutes: %q", got)
	}
}
