package dynamo_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
)

// streamWriter is what the scripted writes need, on moto and the
// embedded backend alike.
type streamWriter interface {
	dynamo.Client
	CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

type streamBackend struct {
	db      streamWriter
	streams dynamo.StreamsClient
}

var tableSeq atomic.Int64

// streamBackends gives moto (a real Streams server) and the embedded
// backend; moto keeps its tables for the life of the shared server, so
// each test names its own.
func streamBackends(t *testing.T) map[string]streamBackend {
	t.Helper()
	srv := mototest.Shared(t)
	db := memory.New()
	return map[string]streamBackend{
		"moto":   {db: srv.Client(), streams: srv.Streams()},
		"memory": {db: db, streams: db},
	}
}

func createStreamTable(t *testing.T, ctx context.Context, db streamWriter, view types.StreamViewType) string {
	t.Helper()
	name := fmt.Sprintf("Changes%d", tableSeq.Add(1))
	in := &dynamodb.CreateTableInput{
		TableName: aws.String(name),
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
		BillingMode: types.BillingModePayPerRequest,
	}
	if view != "" {
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}
	}
	if _, err := db.CreateTable(ctx, in); mototest.Created(err) != nil {
		t.Fatal(err)
	}
	return name
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
func m(kv ...any) types.AttributeValue {
	out := map[string]types.AttributeValue{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return &types.AttributeValueMemberM{Value: out}
}

// step is one scripted write: an item to put, or a key to delete.
type step struct {
	put    dynamo.Item
	delete dynamo.Item
}

func put(pk, sk string, kv ...any) step {
	it := m(kv...).(*types.AttributeValueMemberM).Value
	it["pk"], it["sk"] = s(pk), s(sk)
	return step{put: it}
}

func del(pk, sk string) step { return step{delete: dynamo.Item{"pk": s(pk), "sk": s(sk)}} }

func apply(t *testing.T, ctx context.Context, db streamWriter, table string, steps ...step) {
	t.Helper()
	for _, st := range steps {
		var err error
		var md middleware.Metadata
		if st.put != nil {
			var out *dynamodb.PutItemOutput
			if out, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: st.put}); err == nil {
				md = out.ResultMetadata
			}
		} else {
			var out *dynamodb.BatchWriteItemOutput
			if out, err = db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				table: {{DeleteRequest: &types.DeleteRequest{Key: st.delete}}}}}); err == nil {
				md = out.ResultMetadata
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if r, ok := retry.GetAttemptResults(md); ok && len(r.Results) > 1 {
			retried.add(table, len(r.Results)-1)
		}
	}
}

// retried counts, a table, the writes apply sent again after a lost
// answer (moto under load): the server may have applied the first, and
// the table's stream then holds a record more than the script wrote.
var retried retriedWrites

type retriedWrites struct {
	mu sync.Mutex
	n  map[string]int
}

func (r *retriedWrites) add(table string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = map[string]int{}
	}
	r.n[table] += n
}

func (r *retriedWrites) of(table string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n[table]
}

// script is puts, updates (a nested value changed, an attribute removed,
// one added) and deletes across three partitions.
var script = []step{
	put("A", "x#1", "n", n("1"), "m", m("a", n("1"), "b", n("2")), "gone", s("soon")),
	put("B", "x#1", "n", n("1")),
	put("A", "y#1", "n", n("1")),
	put("A", "x#1", "n", n("1"), "m", m("a", n("1"), "b", n("3"))),
	put("AB", "x#1", "n", n("1")),
	put("A", "x#1", "n", n("2"), "m", m("a", n("1"), "b", n("3")), "added", &types.AttributeValueMemberBOOL{Value: true}),
	del("B", "x#1"),
	del("A", "y#1"),
	del("A", "x#1"),
}

// changeSummary is a change as the tests compare it: event, sort key, changed.
func changeSummary(c dynamo.Change) string {
	return fmt.Sprintf("%s %s %v", c.Event, c.Keys["sk"].(*types.AttributeValueMemberS).Value, c.Changed)
}

func readChanges(t *testing.T, ctx context.Context, b streamBackend, table string, pk *domain.KeyValue, prefix string) ([]dynamo.Change, dynamo.ChangesStats) {
	t.Helper()
	info, _, err := dynamo.TableStream(ctx, b.db, table)
	if err != nil {
		t.Fatal(err)
	}
	var got []dynamo.Change
	st, err := dynamo.Changes(ctx, b.streams, dynamo.ChangesRequest{Stream: info, PKName: "pk", PK: pk, SKName: "sk", Prefix: prefix},
		func(c dynamo.Change) error { got = append(got, c); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return got, st
}

func TestChangesOfAPartition(t *testing.T) {
	for name, b := range streamBackends(t) {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			table := createStreamTable(t, ctx, b.db, types.StreamViewTypeNewAndOldImages)
			apply(t, ctx, b.db, table, script...)
			pk := domain.S("A")
			got, st := readChanges(t, ctx, b, table, &pk, "")
			// A write sent again may be in the stream twice (retried): a
			// put of the same item again is a MODIFY that changes nothing.
			extra := retried.of(table)
			var sums []string
			var kept []dynamo.Change
			for _, c := range got {
				if sum := changeSummary(c); extra == 0 || !strings.HasPrefix(sum, "MODIFY") || !strings.HasSuffix(sum, " []") {
					sums, kept = append(sums, sum), append(kept, c)
				}
			}
			want := []string{
				"INSERT x#1 [gone m n pk sk]",
				"INSERT y#1 [n pk sk]",
				"MODIFY x#1 [gone m]",
				"MODIFY x#1 [added n]",
				"REMOVE y#1 [n pk sk]",
				"REMOVE x#1 [added m n pk sk]",
			}
			if !slices.Equal(sums, want) {
				t.Fatalf("changes of A:\n got %q\nwant %q", sums, want)
			}
			if st.Scanned < len(script) || st.Scanned > len(script)+extra || st.Matched < len(want) || st.Matched > len(want)+extra || st.GetRecords == 0 {
				t.Errorf("stats = %+v: want %d records scanned (%d writes retried) and GetRecords counted", st, len(script), extra)
			}
			mod := kept[2]
			if mod.Old["gone"] == nil || mod.New["gone"] != nil || !dynamo.SameValue(mod.New["m"], m("a", n("1"), "b", n("3"))) {
				t.Errorf("MODIFY images: old %v new %v", mod.Old, mod.New)
			}
			if kept[0].Old != nil || kept[5].New != nil {
				t.Errorf("an INSERT has no old image and a REMOVE no new one: %v / %v", kept[0].Old, kept[5].New)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Time.Before(got[i-1].Time) {
					t.Errorf("change %d at %s is before change %d at %s", i, got[i].Time, i-1, got[i-1].Time)
				}
			}

			// A prefix of the sort key; then a partition with no change.
			got, _ = readChanges(t, ctx, b, table, &pk, "y#")
			if len(got) != 2 || changeSummary(got[0]) != "INSERT y#1 [n pk sk]" || changeSummary(got[1]) != "REMOVE y#1 [n pk sk]" {
				t.Errorf("changes of A under y#: %v", got)
			}
			none := domain.S("C")
			if got, _ = readChanges(t, ctx, b, table, &none, ""); len(got) != 0 {
				t.Errorf("a partition never written has changes: %v", got)
			}
			all, _ := readChanges(t, ctx, b, table, nil, "")
			if len(all) < len(script) || len(all) > len(script)+extra {
				t.Errorf("the whole table: %d changes, want %d (%d writes retried)", len(all), len(script), extra)
			}
		})
	}
}

func TestChangesNoStream(t *testing.T) {
	for name, b := range streamBackends(t) {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			table := createStreamTable(t, ctx, b.db, "")
			_, _, err := dynamo.TableStream(ctx, b.db, table)
			if err == nil || !strings.Contains(err.Error(), "--stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES") {
				t.Fatalf("a table without a stream: %v", err)
			}
		})
	}
}

// TestChangesKeysOnly: a KEYS_ONLY stream's records carry no images, so
// no change can say what changed.
func TestChangesKeysOnly(t *testing.T) {
	for name, b := range streamBackends(t) {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			table := createStreamTable(t, ctx, b.db, types.StreamViewTypeKeysOnly)
			apply(t, ctx, b.db, table, script[:4]...)
			pk := domain.S("A")
			got, _ := readChanges(t, ctx, b, table, &pk, "")
			if len(got) != 3 {
				t.Fatalf("%d changes, want 3", len(got))
			}
			for _, c := range got {
				if c.Old != nil || c.New != nil || c.Changed != nil {
					t.Errorf("KEYS_ONLY change with images or changed: %+v", c)
				}
			}
		})
	}
}

// TestChangesFollow: following prints each later write once, in order.
func TestChangesFollow(t *testing.T) {
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
			got := make(chan dynamo.Change, 100)
			fctx, stop := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() {
				_, err := dynamo.Changes(fctx, b.streams, dynamo.ChangesRequest{Stream: info, PKName: "pk", PK: &pk, SKName: "sk", Follow: true, Poll: 100 * time.Millisecond},
					func(c dynamo.Change) error { got <- c; return nil })
				done <- err
			}()
			next := func() string {
				select {
				case c := <-got:
					return changeSummary(c)
				case <-ctx.Done():
					t.Fatal("no change arrived")
				}
				return ""
			}
			if a, b := next(), next(); a != "INSERT x#1 [gone m n pk sk]" || b != "INSERT y#1 [n pk sk]" {
				t.Fatalf("before following: %s, %s", a, b)
			}
			for i, st := range script[3:] {
				apply(t, ctx, b.db, table, st)
				want := []string{"MODIFY x#1 [gone m]", "", "MODIFY x#1 [added n]", "", "REMOVE y#1 [n pk sk]", "REMOVE x#1 [added m n pk sk]"}[i]
				if want == "" {
					continue // another partition's write: nothing to print
				}
				if g := next(); g != want {
					t.Fatalf("after write %d: %s, want %s", i+3, g, want)
				}
			}
			stop()
			<-done
			select {
			case c := <-got:
				t.Fatalf("a change printed twice or unasked: %s", changeSummary(c))
			default:
			}
		})
	}
}

// TestChangesFollowBusyShard: following a shard written faster than its
// reads are allowed (5 a second) still reaches the present and goes on:
// catching up stops at the first page past the present rather than
// waiting for an empty answer that never comes; every write arrives
// once, in order.
func TestChangesFollowBusyShard(t *testing.T) {
	for name, b := range streamBackends(t) {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			table := createStreamTable(t, ctx, b.db, types.StreamViewTypeNewAndOldImages)
			info, _, err := dynamo.TableStream(ctx, b.db, table)
			if err != nil {
				t.Fatal(err)
			}
			// Writing goes on until the test ends, whatever its deadline:
			// following must not need a pause in the writes to catch up.
			wctx, stopWriting := context.WithCancel(context.Background())
			writing := make(chan struct{})
			// A write every 20 ms (50 a second, ten a GetRecords the
			// shard allows) keeps every answer non-empty, and the 300 ms
			// before the read hold ~15 of the 50 changes: the rest come
			// by following. At a write every 2 ms the catch-up alone
			// held all 50, so following was never tested: it waited for
			// an empty answer and held every change back (13 of 50 in 60 s
			// on the embedded backend once the writes slowed).
			go func() { // a busy table, until the test has seen enough
				defer close(writing)
				for i := 1; wctx.Err() == nil; i++ {
					if _, err := b.db.PutItem(wctx, &dynamodb.PutItemInput{TableName: aws.String(table),
						Item: dynamo.Item{"pk": s("A"), "sk": s("x"), "n": n(fmt.Sprint(i))}}); err != nil {
						return
					}
					time.Sleep(20 * time.Millisecond)
				}
			}()
			defer func() { stopWriting(); <-writing }()
			time.Sleep(300 * time.Millisecond) // records before the read begins
			pk := domain.S("A")
			got := make(chan dynamo.Change, 10_000)
			fctx, stop := context.WithCancel(ctx)
			defer stop()
			go func() {
				_, _ = dynamo.Changes(fctx, b.streams, dynamo.ChangesRequest{Stream: info, PKName: "pk", PK: &pk, SKName: "sk", Follow: true, Poll: 100 * time.Millisecond},
					func(c dynamo.Change) error { got <- c; return nil })
			}()
			for want := 1; want <= 50; want++ {
				select {
				case c := <-got:
					if c.Old != nil && fmt.Sprint(dynamo.Plain(c.Old["n"])) == fmt.Sprint(dynamo.Plain(c.New["n"])) {
						// A write that changed nothing: moto records one
						// where the SDK retried a put the server had
						// applied (under load); DynamoDB and the embedded
						// backend record none.
						want--
						continue
					}
					if v := dynamo.Plain(c.New["n"]); fmt.Sprint(v) != fmt.Sprint(want) {
						t.Fatalf("change %d holds n=%v: a write lost, repeated or out of order", want, v)
					}
				case <-ctx.Done():
					t.Fatalf("%d changes arrived of 50: following a busy shard never got past catching up", want-1)
				}
			}
		})
	}
}

// TestChangesOfAnItem: a partition key and a whole sort key read that
// item's own changes, and no other's: not a key it begins (x#1 within
// x#10), not the same sort key in another partition.
func TestChangesOfAnItem(t *testing.T) {
	for name, b := range streamBackends(t) {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			table := createStreamTable(t, ctx, b.db, types.StreamViewTypeNewAndOldImages)
			apply(t, ctx, b.db, table, append([]step{put("A", "x#10", "n", n("9"))}, script...)...)
			info, _, err := dynamo.TableStream(ctx, b.db, table)
			if err != nil {
				t.Fatal(err)
			}
			pk, sk := domain.S("A"), domain.S("x#1")
			var sums []string
			_, err = dynamo.Changes(ctx, b.streams, dynamo.ChangesRequest{Stream: info, PKName: "pk", PK: &pk, SKName: "sk", SK: &sk},
				func(c dynamo.Change) error { sums = append(sums, changeSummary(c)); return nil })
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"INSERT x#1 [gone m n pk sk]", "MODIFY x#1 [gone m]", "MODIFY x#1 [added n]", "REMOVE x#1 [added m n pk sk]"}
			if !slices.Equal(sums, want) {
				t.Fatalf("changes of A/x#1:\n got %q\nwant %q", sums, want)
			}
		})
	}
}

// TestChangesThroughAMask: a partition and a prefix given as they were
// shown (in stand-ins) read the partition's real records, and every
// change comes back in stand-ins (keys segment by segment, masked
// values), the same records as without the mask, on both backends.
func TestChangesThroughAMask(t *testing.T) {
	for name, b := range streamBackends(t) {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			table := createStreamTable(t, ctx, b.db, types.StreamViewTypeNewAndOldImages)
			apply(t, ctx, b.db, table, script...)
			mask, err := domain.ParseMask([]string{"pk", "sk", "n"})
			if err != nil {
				t.Fatal(err)
			}
			plain := createStreamTable(t, ctx, b.db, types.StreamViewTypeNewAndOldImages) // masked by nothing
			apply(t, ctx, b.db, plain, script...)
			mc := dynamo.NewMasked(b.db, func(name string) *domain.Mask {
				if name == table {
					return mask
				}
				return nil
			}, nil)
			info, _, err := dynamo.TableStream(ctx, mc, table) // learns the key attributes
			if err != nil {
				t.Fatal(err)
			}
			// The headless commands' client reads one table's changes; the
			// explorer's ("") every table's, each masked by its stream's table.
			for _, through := range []string{table, ""} {
				sc := mc.Streams(b.streams, through)
				read := func(stream dynamo.StreamInfo, pk domain.KeyValue, prefix string) []dynamo.Change {
					var got []dynamo.Change
					_, err := dynamo.Changes(ctx, sc, dynamo.ChangesRequest{Stream: stream, PKName: "pk", PK: &pk, SKName: "sk", Prefix: prefix},
						func(c dynamo.Change) error { got = append(got, c); return nil })
					if err != nil {
						t.Fatal(err)
					}
					return got
				}
				shownA := domain.S(mc.KeyText(table, "pk", "A"))
				got := read(info, shownA, "")
				if len(got) != 6 {
					t.Fatalf("through %q: partition A in stand-ins (%s): %d changes, want 6", through, shownA.Text, len(got))
				}
				for _, c := range got {
					for _, it := range []dynamo.Item{c.Keys, c.Old, c.New} {
						text := fmt.Sprint(dynamo.PlainItem(it))
						if strings.Contains(text, "x#") || strings.Contains(text, "y#") || strings.Contains(text, ":A ") || strings.Contains(text, "n:1") {
							t.Fatalf("through %q: a real value handed on: %s", through, text)
						}
					}
					if pk := c.Keys["pk"].(*types.AttributeValueMemberS).Value; pk != shownA.Text {
						t.Fatalf("through %q: the change's partition shows as %q, the request's as %q", through, pk, shownA.Text)
					}
				}
				if under := read(info, shownA, mc.KeyText(table, "sk", "y#")); len(under) != 2 {
					t.Fatalf("through %q: A under y# in stand-ins: %d changes, want 2", through, len(under))
				}
				if through != "" {
					continue
				}
				// A table the mask does not cover reads as it is.
				pinfo, _, err := dynamo.TableStream(ctx, mc, plain)
				if err != nil {
					t.Fatal(err)
				}
				if got := read(pinfo, domain.S("A"), ""); len(got) != 6 || got[0].Keys["pk"].(*types.AttributeValueMemberS).Value != "A" {
					t.Fatalf("an unmasked table through the explorer's client: %d changes %v", len(got), got)
				}
				// A stream whose ARN names no table is not read: which mask
				// applies is unknown.
				if _, err := dynamo.Changes(ctx, sc, dynamo.ChangesRequest{Stream: dynamo.StreamInfo{ARN: "stream-of-nothing"}, PKName: "pk"},
					func(dynamo.Change) error { return nil }); err == nil || !strings.Contains(err.Error(), "names no table") {
					t.Fatalf("a stream naming no table: %v", err)
				}
			}
		})
	}
}
