package dynamo_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
)

// TestChangesFollowProgress: following hands its running figures to
// Progress after the read up to the present and after each read of the
// open shards, never going back, so a view can show what following has
// cost as it grows; what Changes returns at the end is at least the last.
func TestChangesFollowProgress(t *testing.T) {
	for name, b := range streamBackends(t) {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			table := createStreamTable(t, ctx, b.db, types.StreamViewTypeNewAndOldImages)
			apply(t, ctx, b.db, table, script[:3]...)
			info, _, err := dynamo.TableStream(ctx, b.db, table)
			if err != nil {
				t.Fatal(err)
			}
			pk := domain.S("A")
			reports := make(chan dynamo.ChangesStats, 1000)
			fctx, stop := context.WithCancel(ctx)
			done := make(chan dynamo.ChangesStats, 1)
			go func() {
				st, _ := dynamo.Changes(fctx, b.streams, dynamo.ChangesRequest{Stream: info, PKName: "pk", PK: &pk, SKName: "sk", Follow: true,
					Poll: 100 * time.Millisecond, Progress: func(st dynamo.ChangesStats) { reports <- st }}, func(dynamo.Change) error { return nil })
				done <- st
			}()
			var last dynamo.ChangesStats
			next := func() dynamo.ChangesStats {
				t.Helper()
				select {
				case st := <-reports:
					if st.GetRecords < last.GetRecords || st.Scanned < last.Scanned || st.Matched < last.Matched {
						t.Fatalf("the figures went back: %+v after %+v", st, last)
					}
					last = st
					return st
				case <-ctx.Done():
					t.Fatal("no figures reported")
				}
				return last
			}
			first := next()
			if first.Matched != 2 || first.GetRecords < 1 || first.Shards < 1 {
				t.Fatalf("after the read up to the present: %+v, want 2 matched", first)
			}
			for next().GetRecords < first.GetRecords+2 { // two reads of the open shards reported
			}
			apply(t, ctx, b.db, table, script[3])
			for next().Matched < 3 {
			}
			stop()
			if end := <-done; end.GetRecords < last.GetRecords || end.Matched < last.Matched {
				t.Fatalf("returned %+v, less than reported %+v", end, last)
			}
		})
	}
}
