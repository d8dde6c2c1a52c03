package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// A level's round trips, counted without a clock: the walk runs in a
// synctest bubble where every Query takes one second of the bubble's fake
// time once the server has answered it, so reads sent together answer
// together and the seconds the walk took are its waves of reads, one sent
// after another's answer (the bench's round trips, at any latency). The
// server is asked from outside the bubble, on a context of its own: the
// network (dynalite's) is no bubble's, and while it answers the bubble's
// clock stands still.

// tripTime is a Query's time in the bubble.
const tripTime = time.Second

// trips runs walk on c and says in how many round trips its reads went.
func trips(t *testing.T, c dynamo.Client, walk func(dynamo.Client)) int {
	t.Helper()
	calls, answers := make(chan outsideCall), make(chan chan struct{})
	defer close(calls)
	go func() {
		for {
			select {
			case call, ok := <-calls:
				if !ok {
					return
				}
				go func() {
					defer close(call.done)
					call.run()
				}()
			case answers <- make(chan struct{}):
			}
		}
	}()
	n := 0
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		walk(&waved{Client: c, calls: calls, answers: answers})
		n = int(time.Since(start) / tripTime)
	})
	return n
}

// outsideCall is a Query sent from outside the bubble; done, made there
// too (answers), is closed once it answered: waiting for it keeps the
// bubble's clock still.
type outsideCall struct {
	run  func()
	done chan struct{}
}

// waved is a client whose Queries each take tripTime of the bubble's time.
type waved struct {
	dynamo.Client
	calls   chan outsideCall
	answers chan chan struct{}
}

func (w *waved) Query(_ context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	var out *dynamodb.QueryOutput
	var err error
	done := <-w.answers
	w.calls <- outsideCall{run: func() { out, err = w.Client.Query(context.Background(), in, o...) }, done: done}
	<-done
	time.Sleep(tripTime)
	return out, err
}

// TestLevelRoundTrips (37.3): a level's walk takes few round trips
// where the full read does, at far less RCU where its children are
// large, every key read once. Children of at least four read units (12
// of 150 items of 2.5 KB; 45 of 110 items of 420 B under '/') are cut into
// a stretch a child, each walked at once: the first took 12 round trips,
// one child after another, where reading the level whole takes 5; the
// second 45. A dense level of names of 0–9, A–Z and a–z is cut across
// all three, not only the digits its first names begin with (45 children
// of 110 items of 280 B: 4 round trips, 3 where the item size is known,
// where the full read takes 2). The other shapes hold what they took: a dense level in
// about the full read's, a leaf in one.
func TestLevelRoundTrips(t *testing.T) {
	ctx := context.Background()
	level, located, unseen := levelBackends(t), indexedBackends(t), unseenBackends(t)
	dense := seededBackends(t, &denseSlashSeeded, func(ctx context.Context, w dynamo.Writer) error {
		return demo.CreateKeyTable(ctx, w, "Files", "S", denseSlashItems())
	})
	demos := seededBackends(t, &tripDemoSeeded, func(ctx context.Context, w dynamo.Writer) error {
		_, err := demo.Seed(ctx, w, demo.Options{Tables: []string{"Workbench", "ChatMessages"}})
		return err
	})
	shapes := []struct {
		what, table, pk, delim string
		backends               map[string]dynamo.Client
		// trips bounds the walk's round trips, the size unknown and known;
		// share its RCU billed, as a share of the full read's.
		trips [2]int
		share float64
	}{
		{"12 children of 150 items of 2.5 KB", "Shapes", "wide", "#", unseen, [2]int{6, 5}, 0.05},
		{"45 children of 110 items of 420 B under '/'", "Shapes", "slash", "/", unseen, [2]int{15, 15}, 0.15},
		{"45 children of 110 items of 280 B under '/'", "Files", "slash", "/", dense, [2]int{3, 2}, 1},
		{"60 codes of 80 items", "Airports", "airports", "#", level, [2]int{3, 2}, 1},
		{"USA's 53 states", "Locations", "USA", "#", located, [2]int{3, 2}, 1},
		{"10 children of 200 items of 2 KB", "Airports", "big", "#", level, [2]int{4, 4}, 0.05},
		{"300 children of one item", "Shapes", "sparse", "#", unseen, [2]int{2, 2}, 1.15},
		{"3 children of 3,000 items", "Shapes", "huge", "#", unseen, [2]int{3, 3}, 0.1},
		{"one child of 100 items", "Airports", "leaf", "#", level, [2]int{2, 1}, 1},
		{"a chat room's 6 users", "ChatMessages", "seattle-1", "#", demos, [2]int{5, 4}, 0.12},
		{"FLIGHTS#AA's 3 airports and its metadata", "Workbench", "FLIGHTS#AA", "#", demos, [2]int{4, 4}, 0.3},
	}
	for _, sh := range shapes {
		for name, c := range sh.backends {
			info, _, err := dynamo.DescribeTable(ctx, c, sh.table)
			if err != nil {
				t.Fatal(err)
			}
			key := info.Key
			full := &everyKey{billed: billed{Client: c}, sk: key.SK.Name}
			var want []domain.Child
			fullTrips := trips(t, full, func(m dynamo.Client) {
				want = fullReadSK(t, m, sh.table, key.PK.Name, key.SK.Name, domain.S(sh.pk), "", sh.delim)
			})
			for i, known := range []bool{false, true} {
				r := dynamo.ChildrenRequest{Table: sh.table, Key: key, PK: domain.S(sh.pk), Delim: sh.delim}
				if known {
					r.ItemBytes = levelItemBytes(t, c, r)
				}
				walk := &everyKey{billed: billed{Client: c}, sk: key.SK.Name}
				var res dynamo.ChildrenResult
				n := trips(t, walk, func(m dynamo.Client) { res, err = dynamo.Children(ctx, m, r, nil) })
				if err != nil || sorted(res.Children) != sorted(want) {
					t.Fatalf("%s, %s, size known %v: %v:\n got %s\nwant %s", sh.what, name, known, err, sorted(res.Children), sorted(want))
				}
				// The level's last key may be read twice: alone, to end the
				// walk, and by the probe that ends it (FLIGHTS#AA's metadata).
				if k, some := walk.twice(true); k > 0 {
					t.Errorf("%s, %s, size known %v: %d keys read twice: %v", sh.what, name, known, k, some)
				}
				if n > sh.trips[i] || walk.rcu > sh.share*full.rcu {
					t.Errorf("%s, %s, size known %v: %d round trips (at most %d), %d requests, %.1f RCU (at most %.1f); the full read %d round trips, %.1f RCU",
						sh.what, name, known, n, sh.trips[i], walk.requests, walk.rcu, sh.share*full.rcu, fullTrips, full.rcu)
				}
				t.Logf("%s, %s, size known %v: %d round trips, %d requests, %.1f RCU; the full read %d, %d, %.1f", sh.what, name, known, n, walk.requests, walk.rcu, fullTrips, full.requests, full.rcu)
			}
		}
	}
}

var denseSlashSeeded, tripDemoSeeded seededTable

// levelItemBytes is the mean size of the items of r's partition.
func levelItemBytes(t *testing.T, c dynamo.Client, r dynamo.ChildrenRequest) int64 {
	t.Helper()
	q := domain.KeyQuery{Table: r.Table, PKName: r.Key.PK.Name, PK: r.PK, SKName: r.Key.SK.Name}
	var n, sum int64
	var start dynamo.Item
	for {
		p, err := dynamo.QueryPage(context.Background(), c, dynamo.PageRequest{Query: q, Start: start})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range p.Items {
			n, sum = n+1, sum+int64(dynamo.ItemBytes(it))
		}
		if !p.More() {
			return sum / max(n, 1)
		}
		start = p.LastKey
	}
}

// denseSlashItems are 45 children of 110 items of ~280 B under '/',
// named as the bench's (scripts/benchlatency): six characters of 0–9,
// A–Z and a–z, the first few beginning with digits.
func denseSlashItems() []dynamo.Item {
	var out []dynamo.Item
	data := strings.Repeat("0", 250)
	for c := range 45 {
		for i := range 110 {
			out = append(out, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "slash"},
				"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("%s/part-%03d.log", shapeName(1, c, 6), i)}, "Data": &types.AttributeValueMemberS{Value: data}})
		}
	}
	return out
}
