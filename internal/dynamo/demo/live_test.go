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
