package ui

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// countingStreams counts the GetRecords calls that reach the backend.
type countingStreams struct {
	dynamo.StreamsClient
	getRecords atomic.Int64
}

func (c *countingStreams) GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, o ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	c.getRecords.Add(1)
	return c.StreamsClient.GetRecords(ctx, in, o...)
}

// TestChangesLeaveStopsFollowing: leaving the Changes tab while F follows
// (a mode's number, tab, shift+tab, or < back to the view before) cancels
// the reader: no GetRecords is sent after the switch, where the reader
// used to poll every second until quit.
func TestChangesLeaveStopsFollowing(t *testing.T) {
	for _, leave := range []string{"2", "tab", "shift+tab", "<"} {
		t.Run(leave, func(t *testing.T) {
			db := ordersTable(t)
			putOrder(t, db, "c1", "o1", "PLACED")
			sc := &countingStreams{StreamsClient: db}
			h := newHarness(t, 120, 35, Config{Client: db, Streams: sc, Table: "Orders", PK: "c1"})
			h.keys("5")
			h.contains(t, "c1 · 1 change in 24 h")
			d := h.driver()
			d.key("F")
			d.until(t, 10*time.Second, func(s string) bool { return strings.Contains(s, "following") })
			// Following polls: wait until it has asked at least once more.
			for at := sc.getRecords.Load(); sc.getRecords.Load() <= at+1; {
				time.Sleep(50 * time.Millisecond)
			}
			d.key(leave)
			if h.m.top().Mode() == "Changes" {
				t.Fatalf("%s did not leave the Changes tab:\n%s", leave, h.screen())
			}
			time.Sleep(300 * time.Millisecond) // a call under way when it was cancelled ends
			after := sc.getRecords.Load()
			time.Sleep(2500 * time.Millisecond) // the reader polls every second
			if n := sc.getRecords.Load() - after; n != 0 {
				t.Fatalf("the stream was read %d more times after %s left the Changes tab", n, leave)
			}
		})
	}
}
