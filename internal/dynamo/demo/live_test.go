package demo

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
)

// liveChanges runs n steps of the live workload on a fresh demo, a minute
// apart on its clock, and reads what its streams recorded after DemoEnd:
// Shop's StreamCustomer and StateLog's StateDevice, as "EVENT key attr=value".
func liveChanges(t *testing.T, n int) []string {
	t.Helper()
	ctx := context.Background()
	db, err := Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	at := DemoEnd
	w := NewWorkload(db, func() time.Time { return at })
	for range n {
		at = at.Add(time.Minute)
		if err := w.Step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, r := range []struct{ table, pkName, pk, skName, attr string }{
		{ShopTable, "PK", StreamCustomer, "SK", "Status"}, {StateTable, "DeviceID", StateDevice, "State#Date", "Reading"}} {
		stream, _, err := dynamo.TableStream(ctx, db, r.table)
		if err != nil {
			t.Fatal(err)
		}
		pk := domain.KeyValue{Type: domain.TypeS, Text: r.pk}
		_, err = dynamo.Changes(ctx, db, dynamo.ChangesRequest{Stream: stream, PKName: r.pkName, PK: &pk, SKName: r.skName,
			Since: DemoEnd.Add(time.Second), Now: at}, func(c dynamo.Change) error {
			got = append(got, fmt.Sprintf("%s %s %s %v=%v", c.Time.Format("15:04"), c.Event, dynamo.Plain(c.Keys[r.skName]), r.attr, dynamo.Plain(c.New[r.attr])))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return got
}

// TestLiveWorkload: the live workload's writes reach the demo's streams:
// an order placed, paid, shipped and delivered, then the next one placed,
// and the device reporting between; the same writes in every run.
func TestLiveWorkload(t *testing.T) {
	got := liveChanges(t, 10)
	if len(got) != 10 {
		t.Fatalf("%d live changes, want 10:\n%s", len(got), strings.Join(got, "\n"))
	}
	want := []string{"00:01 INSERT o#20001 Status=PLACED", "00:03 MODIFY o#20001 Status=PAID", "00:05 MODIFY o#20001 Status=SHIPPED",
		"00:07 MODIFY o#20001 Status=DELIVERED", "00:09 INSERT o#20002 Status=PLACED"}
	if !reflect.DeepEqual(got[:5], want) {
		t.Errorf("the order's live changes:\n%s\nwant\n%s", strings.Join(got[:5], "\n"), strings.Join(want, "\n"))
	}
	for _, c := range got[5:] {
		if !strings.Contains(c, " INSERT ") || !strings.Contains(c, "Reading=") {
			t.Errorf("not a device report: %s", c)
		}
	}
	if again := liveChanges(t, 10); !reflect.DeepEqual(got, again) {
		t.Errorf("two runs differ:\n%s\n---\n%s", strings.Join(got, "\n"), strings.Join(again, "\n"))
	}
}

// TestClockInWholeSeconds: the demo's clock moves in whole seconds, so
// that a range the explorer reads in its first second ("last 15m") has
// the bounds dynascope range gives on the demo, whose present is
// DemoEnd; a second on, they move by that second.
func TestClockInWholeSeconds(t *testing.T) {
	headless, err := domain.ParseRange("last 15m", DemoEnd, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		elapsed time.Duration
		moved   time.Duration
	}{{0, 0}, {340 * time.Millisecond, 0}, {999 * time.Millisecond, 0}, {1500 * time.Millisecond, time.Second}} {
		now := ClockAt(tc.elapsed)
		if now.Nanosecond() != 0 {
			t.Errorf("%v in: the clock reads %v, with a part of a second", tc.elapsed, now)
		}
		explorer, err := domain.ParseRange("last 15m", now, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		if !explorer.From.Equal(headless.From.Add(tc.moved)) || !explorer.To.Equal(headless.To.Add(tc.moved)) {
			t.Errorf("%v in: last 15m is %v to %v, dynascope range's %v to %v (moved by %v)", tc.elapsed, explorer.From, explorer.To, headless.From, headless.To, tc.moved)
		}
	}
}
