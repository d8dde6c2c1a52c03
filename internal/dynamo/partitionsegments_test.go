package dynamo_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// wideTable: 64 partitions of 60 to 64 items of ~230 bytes (14 KB, more
// than three read units each): jumped past, a probe each.
var wideTable = partTable{"PartsWide", "S", "S", 64, func(p int) int { return 60 + p%5 }, 0, nil}

var wideSeeded seededTable

func wideBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	return seededBackends(t, &wideSeeded, func(ctx context.Context, w dynamo.Writer) error {
		return createPartTable(ctx, w, wideTable)
	})
}

var wideKey = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}

// scans counts Scan requests and RCU as DynamoDB bills them (at least 0.5
// a read); fail, when set, makes the listed Scan calls (1-based) fail.
type scans struct {
	dynamo.Client
	mu       sync.Mutex
	requests int
	rcu      float64
	fail     map[int]bool
}

func (s *scans) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	s.mu.Lock()
	s.requests++
	n := s.requests
	s.mu.Unlock()
	if s.fail[n] {
		return nil, &smithy.GenericAPIError{Code: "InternalServerError", Message: fmt.Sprintf("scan %d failed on purpose", n)}
	}
	out, err := s.Client.Scan(ctx, in, o...)
	units := 0.0
	if out != nil && out.ConsumedCapacity != nil && out.ConsumedCapacity.CapacityUnits != nil {
		units = *out.ConsumedCapacity.CapacityUnits
	}
	s.mu.Lock()
	s.rcu += max(units, 0.5)
	s.mu.Unlock()
	return out, err
}

// fullPartitions is every partition of a full Scan and its keys.
func fullPartitions(t *testing.T, c dynamo.Client, r dynamo.PartitionsRequest) map[string]int {
	t.Helper()
	full := dynamo.PartitionsRequest{Table: r.Table, Index: r.Index, Key: r.Key, Limit: 1000}
	keys := map[string]int{}
	for {
		p, err := dynamo.ScanKeysPage(context.Background(), c, full)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range p.Items {
			v, _ := dynamo.KeyValueOf(it[r.Key.PK.Name])
			keys[v.Literal()]++
		}
		if !p.More() {
			return keys
		}
		full.Start = p.LastKey
	}
}

// sequential lists as the skip-scan did before it split into segments: a
// read at a time, NextPartitions after each, until want partitions or the
// end; it returns how many it listed.
func sequential(t *testing.T, c dynamo.Client, r dynamo.PartitionsRequest, want int) int {
	t.Helper()
	seen := map[string]bool{}
	for {
		p, err := dynamo.ScanKeysPage(context.Background(), c, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range p.Items {
			v, _ := dynamo.KeyValueOf(it[r.Key.PK.Name])
			seen[v.Literal()] = true
		}
		next, _, ok := dynamo.NextPartitions(r, p)
		if !ok || len(seen) >= want {
			return len(seen)
		}
		r = next
	}
}

// lazily lists from first in calls of ListPartitions asking for want
// partitions each, as the explorer asks for more as the user scrolls,
// resuming after any error from where the call says; it returns each
// partition's keys, the partitions in the order listed, and fails on a
// partition listed twice.
func lazily(t *testing.T, c dynamo.Client, first dynamo.PartitionsRequest, want int) (map[string]int, []string, int) {
	t.Helper()
	keys := map[string]int{}
	var order []string
	r, errs := &first, 0
	for calls := 0; r != nil; calls++ {
		if calls > 1000 {
			t.Fatal("the listing does not end")
		}
		res, err := dynamo.ListPartitions(context.Background(), c, *r, want)
		if err != nil {
			errs++
			if res.Next == nil {
				t.Fatalf("an error without where to resume: %v", err)
			}
		}
		for i, p := range res.Partitions {
			if _, dup := keys[p.Literal()]; dup {
				t.Fatalf("partition %s listed twice", p.Literal())
			}
			keys[p.Literal()] = res.Keys[i]
			order = append(order, p.Literal())
		}
		r = res.Next
	}
	return keys, order, errs
}

type segmentCase struct {
	name  string
	first dynamo.PartitionsRequest
}

func segmentCases(t *testing.T, c dynamo.Client) []segmentCase {
	t.Helper()
	cs := []segmentCase{{"PartsWide", dynamo.FirstPartitions("PartsWide", wideKey)}}
	info, _, err := dynamo.DescribeTable(context.Background(), c, "IndexParts")
	if err != nil {
		t.Fatal(err)
	}
	for _, ix := range []string{"ByString", "ByNumber", "ByBinary", "Inverted", "Local"} {
		k, err := info.KeyFor(ix)
		if err != nil {
			t.Fatal(err)
		}
		first := dynamo.FirstIndexPartitions("IndexParts", ix, k, info.Key)
		cs = append(cs, segmentCase{"IndexParts " + ix, first})
	}
	return cs
}

func indexPartsBackends(t *testing.T) map[string]dynamo.Client {
	return seededBackends(t, &indexParts, func(ctx context.Context, w dynamo.Writer) error {
		if err := createIndexParts(ctx, w); err != nil {
			return err
		}
		_, err := demo.Seed(ctx, w, demo.Options{Tables: []string{demo.ShopTable}})
		return err
	})
}

// TestPartitionsInSegments: where the first read finds partitions to jump
// past, the listing goes on in the segments of a parallel Scan; read
// lazily, a few partitions a call, it lists every partition a full Scan
// finds exactly once, never a key twice, on both backends, for a table
// and for indexes keyed by S, N and B, and costs (as DynamoDB bills it) at
// most the sequential skip-scan's RCU plus a read unit a segment.
func TestPartitionsInSegments(t *testing.T) {
	ctx := context.Background()
	wide := wideBackends(t)
	figures := map[string]string{}
	for name, c := range indexPartsBackends(t) {
		var b strings.Builder
		for _, sc := range segmentCases(t, c) {
			c := c
			if sc.name == "PartsWide" {
				c = wide[name]
			}
			want := fullPartitions(t, c, sc.first)
			step, err := dynamo.ReadPartitions(ctx, c, sc.first)
			if err != nil {
				t.Fatal(err)
			}
			// The first jump goes out alone; the listing splits exactly
			// where the sequential skip-scan jumps a second time, with more
			// to read: small partitions are read in bulk pages, unsplit,
			// and a table ending at the first jump never splits.
			page, err := dynamo.ScanKeysPage(ctx, c, sc.first)
			if err != nil {
				t.Fatal(err)
			}
			next, jumped, _ := dynamo.NextPartitions(sc.first, page)
			if len(step.Next.Segments) > 0 {
				t.Fatalf("%s %s: split into %d segments after the first read, before its jump", name, sc.name, len(step.Next.Segments))
			}
			firstParts, split := len(step.Partitions), false
			if jumped {
				page2, err := dynamo.ScanKeysPage(ctx, c, next)
				if err != nil {
					t.Fatal(err)
				}
				_, jumped2, more := dynamo.NextPartitions(next, page2)
				step2, err := dynamo.ReadPartitions(ctx, c, step.Next)
				if err != nil {
					t.Fatal(err)
				}
				split = len(step2.Next.Segments) > 0
				if split != (jumped2 && more) || split && len(step2.Next.Segments) != dynamo.DefaultParallel {
					t.Fatalf("%s %s: split into %d segments after the first jump; the sequential skip-scan jumps again: %v", name, sc.name, len(step2.Next.Segments), jumped2 && more)
				}
				firstParts += len(step2.Partitions)
			}
			seq := &scans{Client: c}
			sequential(t, seq, sc.first, 1<<30)
			for _, per := range []int{1, 7, 1000} {
				par := &scans{Client: c}
				got, _, _ := lazily(t, par, sc.first, per)
				if len(got) != len(want) {
					t.Fatalf("%s %s (%d a call): listed %d partitions, a full Scan finds %d", name, sc.name, per, len(got), len(want))
				}
				for k, n := range got {
					if _, ok := want[k]; !ok {
						t.Fatalf("%s %s: listed %s, which a full Scan does not find", name, sc.name, k)
					}
					if n < 1 || n > want[k] {
						t.Fatalf("%s %s: %d keys of %s read, it has %d: a key counted twice", name, sc.name, n, k, want[k])
					}
				}
				// Read to the end, each segment ends with a read past its
				// last partition (one in all for the sequential one), and
				// the partitions the first read listed are come across
				// again, a key each, by their segments.
				if most := seq.rcu + 0.5*float64(dynamo.DefaultParallel+firstParts); split && par.rcu > most {
					t.Errorf("%s %s (%d a call): %.1f RCU billed in %d requests, the sequential skip-scan %.1f in %d: over %.1f",
						name, sc.name, per, par.rcu, par.requests, seq.rcu, seq.requests, most)
				}
				if !split && (par.requests != seq.requests || par.rcu != seq.rcu) {
					t.Errorf("%s %s unsplit: %d req %.1f RCU, the sequential skip-scan %d req %.1f RCU", name, sc.name, par.requests, par.rcu, seq.requests, seq.rcu)
				}
				if per == 7 {
					fmt.Fprintf(&b, "%s: %d partitions, split %v, %d req %.1f RCU billed (sequential: %d req %.1f RCU)\n", sc.name, len(got), split, par.requests, par.rcu, seq.requests, seq.rcu)
				}
			}
		}
		figures[name] = b.String()
	}
	if figures["memory"] != figures["dynalite"] {
		t.Errorf("backends differ:\n--- memory\n%s--- dynalite\n%s", figures["memory"], figures["dynalite"])
	}
	t.Logf("\n%s", figures["dynalite"])
}

// gate holds every Scan until as many as a step should send are in
// flight together: reads sent one after another never get there, and the
// step fails at its deadline.
type gate struct {
	dynamo.Client
	mu      sync.Mutex
	want    int
	waiting int
	open    chan struct{}
}

func (g *gate) expect(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.want, g.waiting, g.open = n, 0, make(chan struct{})
}

func (g *gate) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	g.mu.Lock()
	g.waiting++
	if g.waiting == g.want {
		close(g.open)
	}
	open := g.open
	g.mu.Unlock()
	select {
	case <-open:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return g.Client.Scan(ctx, in, o...)
}

// TestPartitionsScreenInFewRounds: a first screen of 29 of PartsWide's 64
// large partitions takes a first read, then steps whose reads (one a
// segment, up to DefaultParallel) are all in flight together: 6 rounds
// at most where the sequential skip-scan took 29, for at most its RCU and
// a read unit a segment, as DynamoDB bills it.
func TestPartitionsScreenInFewRounds(t *testing.T) {
	const screen = 29
	for name, c := range wideBackends(t) {
		first := dynamo.FirstPartitions("PartsWide", wideKey)
		seq := &scans{Client: c}
		if n := sequential(t, seq, first, screen); n < screen {
			t.Fatalf("%s: the sequential skip-scan listed %d", name, n)
		}
		billing := &scans{Client: c}
		g := &gate{Client: billing}
		r, listed, rounds := first, map[string]bool{}, 0
		for len(listed) < screen {
			together := max(1, min(len(r.Segments), dynamo.DefaultParallel))
			g.expect(together)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			step, err := dynamo.ReadPartitions(ctx, g, r)
			cancel()
			if err != nil {
				t.Fatalf("%s: round %d: %v (its %d reads were not in flight together)", name, rounds+1, err, together)
			}
			rounds++
			for _, p := range step.Partitions {
				listed[p.Key.Literal()] = true
			}
			if !step.More {
				break
			}
			r = step.Next
		}
		if rounds > 6 || len(listed) < screen {
			t.Errorf("%s: %d partitions in %d rounds, want %d in 6 at most (sequential: %d)", name, len(listed), rounds, screen, seq.requests)
		}
		// As a screen is asked for: the last step reads only the segments
		// it needs.
		billing = &scans{Client: c}
		res, err := dynamo.ListPartitions(context.Background(), billing, first, screen)
		if err != nil || len(res.Partitions) < screen || res.Next == nil {
			t.Fatalf("%s: a screen: %d partitions, next %v, %v", name, len(res.Partitions), res.Next != nil, err)
		}
		if billing.rcu > seq.rcu+0.5*dynamo.DefaultParallel {
			t.Errorf("%s: a screen of %d cost %.1f RCU billed in %d requests, the sequential skip-scan %.1f in %d", name, len(res.Partitions), billing.rcu, billing.requests, seq.rcu, seq.requests)
		}
		t.Logf("%s: %d partitions in %d rounds; a screen: %d req %.1f RCU billed (sequential: %d req %.1f RCU)", name, len(listed), rounds, billing.requests, billing.rcu, seq.requests, seq.rcu)
	}
}

// TestPartitionsInSegmentsResume: reads that fail among a step's (a
// server error, then a jump refused) leave the listing where it can
// resume: every partition still once, on both backends.
func TestPartitionsInSegmentsResume(t *testing.T) {
	for name, c := range wideBackends(t) {
		first := dynamo.FirstPartitions("PartsWide", wideKey)
		want := fullPartitions(t, c, first)
		failing := &scans{Client: c, fail: map[int]bool{3: true, 5: true, 12: true, 13: true, 30: true}}
		got, _, errs := lazily(t, failing, first, 10)
		if errs < 2 || len(got) != len(want) {
			t.Errorf("%s: after %d failed calls listed %d partitions, want %d after several", name, errs, len(got), len(want))
		}
		for k, n := range got {
			if n > want[k] {
				t.Errorf("%s: %d keys of %s, it has %d", name, n, k, want[k])
			}
		}
		// Every jump of a segment refused: each reads on in plain pages.
		r := &refusing{Client: c, inSegments: true}
		got, _, _ = lazily(t, r, first, 10)
		if r.refused < 2 || len(got) != len(want) {
			t.Errorf("%s: with %d jumps refused listed %d partitions, want %d", name, r.refused, len(got), len(want))
		}
	}
}

// TestPartitionsInSegmentsMarkUnread: a partition shows it has keys not
// read (More) exactly while the listing has not read them: the first
// read's last partition, read again by its segment, and every partition
// jumped past; a partition read to its end never.
func TestPartitionsInSegmentsMarkUnread(t *testing.T) {
	ctx := context.Background()
	for name, c := range wideBackends(t) {
		want := fullPartitions(t, c, dynamo.FirstPartitions("PartsWide", wideKey))
		r, more, keys := dynamo.FirstPartitions("PartsWide", wideKey), map[string]bool{}, map[string]int{}
		for {
			step, err := dynamo.ReadPartitions(ctx, c, r)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range step.Partitions {
				more[p.Key.Literal()] = p.More
				keys[p.Key.Literal()] += p.Keys
			}
			if !step.More {
				break
			}
			r = step.Next
		}
		var wrong []string
		for k, n := range keys {
			if more[k] != (n < want[k]) {
				wrong = append(wrong, fmt.Sprintf("%s %d of %d keys, more %v", k, n, want[k], more[k]))
			}
		}
		sort.Strings(wrong)
		if len(keys) != len(want) || len(wrong) > 0 {
			t.Errorf("%s: %d of %d partitions; marked wrong: %v", name, len(keys), len(want), wrong)
		}
	}
}

var lonelyTable = partTable{"PartsLonely", "S", "S", 1, func(int) int { return 150 }, 0, nil}

var lonelySeeded seededTable

// TestOnePartitionIsTwoReads: a table of one large partition is listed in
// two reads, the first and its jump, which ends the table: the listing
// splits into segments only once the jump finds more (it split after the
// first read: 10 reads, 5.5 RCU billed, for the demo's AuditLog).
func TestOnePartitionIsTwoReads(t *testing.T) {
	backends := seededBackends(t, &lonelySeeded, func(ctx context.Context, w dynamo.Writer) error {
		return createPartTable(ctx, w, lonelyTable)
	})
	for name, c := range backends {
		first := dynamo.FirstPartitions("PartsLonely", wideKey)
		seq := &scans{Client: c}
		sequential(t, seq, first, 1<<30)
		s := &scans{Client: c}
		got, _, _ := lazily(t, s, first, 1000)
		if len(got) != 1 || s.requests != 2 || s.rcu != seq.rcu {
			t.Errorf("%s: %d partitions in %d reads, %.1f RCU billed; want 1 in 2 reads, %.1f RCU as the sequential skip-scan", name, len(got), s.requests, s.rcu, seq.rcu)
		}
	}
}

// keyReads counts each key a Scan returned, by partition and sort key.
type keyReads struct {
	dynamo.Client
	mu   sync.Mutex
	keys map[string]int // "pk\x00sk" literals
	pks  map[string]int // keys read under each partition
}

func (k *keyReads) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	out, err := k.Client.Scan(ctx, in, o...)
	if err != nil {
		return out, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.keys == nil {
		k.keys, k.pks = map[string]int{}, map[string]int{}
	}
	for _, it := range out.Items {
		pk, _ := dynamo.KeyValueOf(it["PK"])
		sk, _ := dynamo.KeyValueOf(it["SK"])
		k.keys[pk.Literal()+"\x00"+sk.Literal()]++
		k.pks[pk.Literal()]++
	}
	return out, err
}

// again is how many keys were read more than once, counting each repeat.
func (k *keyReads) again() int {
	n := 0
	for _, v := range k.keys {
		n += v - 1
	}
	return n
}

// hugeTable: three partitions of 600 keys among 207 of one key (the
// shape of a few busy tenants beside many idle ones).
var hugeTable = partTable{"PartsHuge", "S", "S", 210, func(p int) int {
	if p%70 == 0 {
		return 600
	}
	return 1
}, 0, nil}

var hugeSeeded seededTable

// listSteps lists from first to the end a step at a time, as the
// explorer's partitions page does (each next bulk page cut to rows
// partitions), and returns the keys listed under each partition and how
// many partitions the steps before the split listed.
func listSteps(t *testing.T, c dynamo.Client, first dynamo.PartitionsRequest, rows int) (shown map[string]int, beforeSplit int) {
	t.Helper()
	shown, r, split := map[string]int{}, first, false
	for steps := 0; ; steps++ {
		if steps > 1000 {
			t.Fatal("the listing does not end")
		}
		step, err := dynamo.ReadPartitions(context.Background(), c, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range step.Partitions {
			if _, ok := shown[p.Key.Literal()]; !ok && !split {
				beforeSplit++
			}
			shown[p.Key.Literal()] += p.Keys
		}
		if !step.More {
			return shown, beforeSplit
		}
		r, split = step.Next, split || len(step.Next.Segments) > 0
		r.Rows = rows
	}
}

// TestPartitionsReadEachKeyOnce: a listing reads each key once, and
// reads what its rows show, on both backends. Split into segments, a
// segment's first read is one key, so a partition listed before the
// split is read again by that key only (a probe of a read unit each had
// read 33 keys of Locations' USA and of JAPAN again: 331 keys read for
// the 265 its rows counted). A bulk page that stops in a partition
// larger than those it saw whole reads on past it, not into it (one of
// 600 keys among one-key ones was read 100 keys deeper, to list nothing).
func TestPartitionsReadEachKeyOnce(t *testing.T) {
	wide := wideBackends(t)
	huge := seededBackends(t, &hugeSeeded, func(ctx context.Context, w dynamo.Writer) error {
		return createPartTable(ctx, w, hugeTable)
	})
	const screen = 29
	figures := map[string]string{}
	for _, name := range []string{"memory", "dynalite"} {
		var b strings.Builder
		for _, tc := range []struct {
			table string
			c     dynamo.Client
		}{{"PartsWide", wide[name]}, {"PartsHuge", huge[name]}} {
			first := dynamo.FirstPartitions(tc.table, wideKey)
			want := fullPartitions(t, tc.c, first)
			rec := &keyReads{Client: tc.c}
			shown, beforeSplit := listSteps(t, rec, first, screen)
			listed, read := 0, 0
			for k, n := range shown {
				listed += n
				if n > want[k] {
					t.Errorf("%s %s: %s shows %d keys, it has %d", name, tc.table, k, n, want[k])
				}
			}
			for _, n := range rec.keys {
				read += n
			}
			if len(shown) != len(want) {
				t.Errorf("%s %s: listed %d partitions, a full Scan finds %d", name, tc.table, len(shown), len(want))
			}
			// Read again: at most the one key of each partition listed
			// before the split that its segment's first read finds.
			if again := rec.again(); again > beforeSplit || read != listed+again {
				t.Errorf("%s %s: %d keys read, %d of them again (%d partitions listed before the split), %d shown", name, tc.table, read, again, beforeSplit, listed)
			}
			// No partition read deeper than the listing's first read.
			for k, n := range rec.pks {
				if n > 100 {
					t.Errorf("%s %s: %d keys of %s read, more than a first read's 100", name, tc.table, n, k)
				}
			}
			fmt.Fprintf(&b, "%s: %d partitions, %d keys read (%d again), %d shown\n", tc.table, len(shown), read, rec.again(), listed)
		}
		figures[name] = b.String()
	}
	if figures["memory"] != figures["dynalite"] {
		t.Errorf("backends differ:\n--- memory\n%s--- dynalite\n%s", figures["memory"], figures["dynalite"])
	}
	t.Logf("\n%s", figures["dynalite"])
}
