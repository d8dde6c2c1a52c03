package dynamo_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
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

// idsTable holds time-ordered ids the demo does not: UUIDv7 keys alone,
// and KSUIDs after a prefix, beside a header item.
const idsTable = "ShapeIDs"

func idItems() []dynamo.Item {
	r := rand.New(rand.NewPCG(9, 62))
	var items []dynamo.Item
	add := func(pk, sk string) {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}})
	}
	add("uuid", "header")
	add("ksuid", "header")
	start := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 300 {
		at := start.Add(time.Duration(i) * 29 * time.Hour)
		ms := at.UnixMilli()
		b := make([]byte, 16)
		for j := range b {
			b[j] = byte(r.IntN(256))
		}
		for j := 0; j < 6; j++ {
			b[j] = byte(ms >> (40 - 8*j))
		}
		b[6] = 0x70 | b[6]&0x0f
		b[8] = 0x80 | b[8]&0x3f
		h := fmt.Sprintf("%x", b)
		add("uuid", h[:8]+"-"+h[8:12]+"-"+h[12:16]+"-"+h[16:20]+"-"+h[20:])
		v := new(big.Int).Lsh(big.NewInt(at.Unix()-1400000000), 128)
		v.Or(v, new(big.Int).SetBytes(b))
		const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		k := make([]byte, 27)
		m := new(big.Int)
		for j := 26; j >= 0; j-- {
			v.DivMod(v, big.NewInt(62), m)
			k[j] = base62[m.Int64()]
		}
		add("ksuid", "evt#"+string(k))
	}
	return items
}

// grammarTable holds the shapes published layouts write that only the key
// grammar reads: a time anywhere in a key, in any form people write.
const grammarTable = "ShapeGrammar"

// grammarItems writes, for each shape, 300 items 29 hours apart from
// 2021-01-01, beside an item that is not a time.
func grammarItems() []dynamo.Item {
	var items []dynamo.Item
	add := func(pk, sk string) {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}})
	}
	add("onetable", "patient#P1")
	add("phone", "P#512-777-7777#profile")
	add("compact", "metadata")
	add("basic", "Metadata")
	add("days", "DAY#")
	add("nanos", "evt#x")
	start := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 300 {
		at := start.Add(time.Duration(i) * 29 * time.Hour)
		add("onetable", fmt.Sprintf("admission#%d#R%d", at.UnixMilli(), i%9)) // dynamodb-onetable's Date in a value template
		add("phone", "P#512-777-7777#"+at.Format("2006-01-02T15:04:05")+[]string{"-D", "-1", "-22"}[i%3])
		add("compact", at.Format("2006-01-02T150405"))
		add("basic", at.Format("20060102T150405Z")+fmt.Sprintf("#%d", i))
		add("days", "DAY#"+at.Format("20060102")+fmt.Sprintf("#%03d", i))
		add("nanos", fmt.Sprintf("evt#%d", at.UnixNano()))
	}
	return items
}

// shapeBackends holds the demo's Workbench tables and the ids table on
// both backends.
func shapeBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	ctx := context.Background()
	opts := demo.Options{Tables: []string{demo.ShapesTable, demo.OrdersTable}}
	mem := memory.New()
	if _, err := demo.Seed(ctx, mem, opts); err != nil {
		t.Fatal(err)
	}
	if err := demo.CreateKeyTable(ctx, mem, idsTable, "S", idItems()); err != nil {
		t.Fatal(err)
	}
	if err := demo.CreateKeyTable(ctx, mem, grammarTable, "S", grammarItems()); err != nil {
		t.Fatal(err)
	}
	dl := dynalitetest.Shared(t).Client()
	if _, err := dl.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(grammarTable)}); err != nil {
		if err := demo.CreateKeyTable(ctx, dl, grammarTable, "S", grammarItems()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := dl.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(idsTable)}); err != nil {
		if _, err := demo.Seed(ctx, dl, opts); err != nil {
			t.Fatal(err)
		}
		if err := demo.CreateKeyTable(ctx, dl, idsTable, "S", idItems()); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]dynamo.Client{"memory": mem, "dynalite": dl}
}

type keyedTime struct {
	key string
	at  time.Time
}

// TestShapesRangeOnBothBackends: on every shape applications write
// (ORIGIN#time#fare#seat, a header beside two events, PHOTO#<ULID> beside
// PROFILE# items, yyyyMMdd numbers, UUIDv7, prefix#KSUID), a month's range
// read as dynascope reads it (one Query, or one per prefix merged) lists
// exactly what a full read filtered by decoded time lists, newest first;
// the requests and RCU of each are logged for the record.
func TestShapesRangeOnBothBackends(t *testing.T) {
	figures := map[string][]string{}
	for _, tc := range []rangeCase{
		{"flights", demo.ShapesTable, "PK", "SK", demo.FlightsPK, false, "2021-08", "prefix#2006-01-02T15:04:05#…", 1},
		{"complaint", demo.ShapesTable, "PK", "SK", demo.ComplaintPK, false, "2023-04", "prefix#2006-01-02T15:04:05#…", 1},
		{"photos", demo.ShapesTable, "PK", "SK", demo.PhotosPK, false, "2021-03", "prefix#ULID", 3},
		{"photos-edge", demo.ShapesTable, "PK", "SK", demo.PhotosPK, false, "between 2021-06-01 and 2021-07-15T12:00", "prefix#ULID", 3},
		{"orders", demo.OrdersTable, "CustomerId", "OrderCreationDate", demo.OrdersCustomer, true, "2015-03", "20060102 (a number)", 0},
		{"orders-open", demo.OrdersTable, "CustomerId", "OrderCreationDate", demo.OrdersCustomer, true, "after 2015-12-20", "20060102 (a number)", 0},
		{"uuidv7", idsTable, "PK", "SK", "uuid", false, "2021-03", "UUIDv7", 1},
		{"ksuid", idsTable, "PK", "SK", "ksuid", false, "2021-03", "prefix#KSUID", 1},
		{"onetable epoch ms in text", grammarTable, "PK", "SK", "onetable", false, "2021-03", "prefix#epoch milliseconds#…", 1},
		{"text right after the time", grammarTable, "PK", "SK", "phone", false, "2021-03", "prefix#2006-01-02T15:04:05…", 1},
		{"compact ISO", grammarTable, "PK", "SK", "compact", false, "2021-03", "2006-01-02T150405", 1},
		{"ISO basic", grammarTable, "PK", "SK", "basic", false, "2021-03", "20060102T150405Z0700#…", 1},
		{"yyyyMMdd in text", grammarTable, "PK", "SK", "days", false, "2021-03", "prefix#20060102#…", 1},
		{"epoch ns in text", grammarTable, "PK", "SK", "nanos", false, "2021-03", "prefix#epoch nanoseconds", 1},
	} {
		for name, c := range shapeBackends(t) {
			figures[name] = append(figures[name], rangeAgainstFullRead(t, name, c, tc, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)))
		}
	}
	// The closing note's table, per backend (go test -v -run
	// TestShapesRangeOnBothBackends ./internal/dynamo): figures, never
	// asserted. Detection is paid once before any range (the explorer
	// pays one request less: its first page is the newest keys).
	for _, name := range []string{"memory", "dynalite"} {
		t.Logf("%s (requests / RCU):\n| shape (items in range) | template read | detection | range | full read |\n|---|---|---|---|---|\n%s", name, strings.Join(figures[name], "\n"))
	}
}

// rangeCase is one shape's partition, its range, and what detection
// must find there.
type rangeCase struct {
	name, table, pkName, skName, pk string
	number                          bool
	rng                             string
	enc                             string // the encoding detected
	skipped                         int    // keys detection leaves out
}

// rangeAgainstFullRead detects the partition's time form, reads the range
// as range and the Time mode read it (one Query, or one per prefix
// merged), and checks it lists exactly what a full read filtered by
// decoded time lists, newest first; it returns the figures' table row.
func rangeAgainstFullRead(t *testing.T, name string, c dynamo.Client, tc rangeCase, now time.Time) string {
	t.Helper()
	ctx := context.Background()
	skType := domain.TypeS
	if tc.number {
		skType = domain.TypeN
	}
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: tc.pkName, Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: tc.skName, Type: skType}}
	base := domain.KeyQuery{Table: tc.table, PKName: tc.pkName, PK: domain.S(tc.pk), SKName: tc.skName, Reverse: true}
	sample, detected, err := dynamo.DetectTimeKeys(ctx, c, base, nil)
	if err != nil || !sample.OK || sample.Enc.Name() != tc.enc || len(sample.Skipped) != tc.skipped {
		t.Fatalf("%s %s: detected %v %q skipped %q (%v), want %q and %d skipped", name, tc.name, sample.OK, sample.Enc.Name(), sample.Skipped, err, tc.enc, tc.skipped)
	}
	enc := sample.Enc
	r, err := domain.ParseRange(tc.rng, now, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	// The full read, filtered by decoded time: a key's instant, or where
	// the keys name whole periods (days, hours, months), any of its
	// period.
	full := dynamo.NewMetered(c)
	var want []keyedTime
	lo, hi := r.From, r.To
	switch r.Op {
	case domain.TimeGt:
		lo, hi = r.From.Add(time.Nanosecond), domain.MaxInstant
	case domain.TimeGe:
		hi = domain.MaxInstant
	case domain.TimeLt:
		lo, hi = domain.MinInstant, r.From.Add(-time.Nanosecond)
	case domain.TimeLe:
		lo, hi = domain.MinInstant, r.From
	}
	var start dynamo.Item
	for {
		page, err := dynamo.QueryPage(ctx, full, dynamo.PageRequest{Query: base, Start: start})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			kv, _ := dynamo.KeyValueOf(it[tc.skName])
			if at, ok := enc.KeyTime(kv.Text); ok && !at.Before(domain.MinInstant) && !at.After(hi) && periodEnd(enc, at).After(lo) {
				want = append(want, keyedTime{kv.Text, at})
			}
		}
		if start = page.LastKey; !page.More() {
			break
		}
	}
	// The range, as range and the Time mode read it.
	ranged := dynamo.NewMetered(c)
	var got []keyedTime
	var items []dynamo.Item
	if enc.NeedsPrefix() {
		m, err := dynamo.RangeAcross(ctx, ranged, dynamo.ChildrenRequest{Table: tc.table, Key: key, PK: base.PK}, base, r, enc, 0, nil, sample)
		if err != nil {
			t.Fatal(err)
		}
		if items, err = m.Take(ctx, 1<<20); err != nil {
			t.Fatal(err)
		}
	} else {
		q := base
		if q.SK, err = domain.CompileRange(r, enc, ""); err != nil {
			t.Fatal(err)
		}
		for start = nil; ; {
			page, err := dynamo.QueryPage(ctx, ranged, dynamo.PageRequest{Query: q, Start: start})
			if err != nil {
				t.Fatal(err)
			}
			items = append(items, page.Items...)
			if start = page.LastKey; !page.More() {
				break
			}
		}
	}
	for _, it := range items {
		kv, _ := dynamo.KeyValueOf(it[tc.skName])
		at, ok := enc.KeyTime(kv.Text)
		if !ok {
			t.Fatalf("%s %s: %q is not a time, and the range listed it", name, tc.name, kv.Text)
		}
		got = append(got, keyedTime{kv.Text, at})
	}
	for i := 1; i < len(got); i++ {
		if got[i].at.After(got[i-1].at) {
			t.Fatalf("%s %s: not newest first: %s after %s", name, tc.name, got[i].key, got[i-1].key)
		}
	}
	keys := func(l []keyedTime) []string {
		var out []string
		for _, k := range l {
			out = append(out, k.key)
		}
		slices.Sort(out)
		return out
	}
	if len(want) == 0 || !slices.Equal(keys(got), keys(want)) {
		t.Fatalf("%s %s %q: the range lists %d keys, the filtered full read %d", name, tc.name, tc.rng, len(got), len(want))
	}
	rt, _ := ranged.Session.Totals()
	ft, _ := full.Session.Totals()
	return fmt.Sprintf("| %s %s (%d) | %s | %d / %.1f | %d / %.1f | %d / %.1f |", tc.name, tc.rng, len(got), enc.TimeFormat(), detected.Requests, detected.RCU, rt.Requests, rt.RCU, ft.Requests, ft.RCU)
}

// timeSplitTable holds keys whose times hold the tree's delimiter (#36):
// ISO times under event: (some with events below them, beside an hour's
// summary that is no time), the blog's user#2018-08-29:12:00:00, and
// partition:offset pairs, whose offsets read as times of day (12:34).
var timeSplitSeeded seededTable

func timeSplitItems() []dynamo.Item {
	var items []dynamo.Item
	add := func(pk, sk string) {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}})
	}
	start := time.Date(2023, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range 120 {
		at := start.Add(time.Duration(i) * 37 * time.Minute).Format(time.RFC3339)
		add("iso", "event:"+at)
		if i%4 == 0 {
			for n := range 3 {
				add("iso", fmt.Sprintf("event:%s:%d", at, n))
			}
		}
		add("blog", fmt.Sprintf("user%d#%s", i%5, start.Add(time.Duration(i)*97*time.Minute).Format("2006-01-02:15:04:05")))
		add("kafka", fmt.Sprintf("%d:%d", i%12, 5+i*7))
	}
	for h := range 6 {
		hour := start.Add(time.Duration(h) * time.Hour)
		add("mixed", "event:"+hour.Format("2006-01-02T15")+":summary")
		add("mixed", "event:"+hour.Format("2006-01-02T15")+":1")
		for m := range 4 {
			add("mixed", "event:"+hour.Add(time.Duration(m)*15*time.Minute).Format(time.RFC3339))
		}
	}
	return items
}

// TestTreeKeepsTimesWhole: on dynalite and the embedded backend, each
// level of these partitions, the delimiter given (:) or detected, lists
// the children a full read lists, one read after another and in
// parallel, for no more requests than the bound every level keeps; a
// time is one child, never pieces cut at its colons (the walk cut
// event:2023-11-01T00:00:00Z into 2023-11-01T00, 00 and 00Z), and
// partition:offset keys still split at ':'.
func TestTreeKeepsTimesWhole(t *testing.T) {
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	backends := seededBackends(t, &timeSplitSeeded, func(ctx context.Context, w dynamo.Writer) error {
		return demo.CreateKeyTable(ctx, w, "TimeSplit", "S", timeSplitItems())
	})
	figures := map[string]string{}
	for name, c := range backends {
		var b strings.Builder
		for _, tc := range []struct{ pk, delim string }{{"iso", ":"}, {"iso", ""}, {"blog", ":"}, {"kafka", ":"}, {"kafka", ""}, {"mixed", ":"}} {
			levels := map[string][]domain.Child{}
			var visit func(prefix, delim string)
			visit = func(prefix, delim string) {
				r := dynamo.ChildrenRequest{Table: "TimeSplit", Key: key, PK: domain.S(tc.pk), Prefix: prefix, Delim: delim}
				res, total, par := bothWalks(t, c, r)
				want := fullRead(t, c, "TimeSplit", "PK", domain.S(tc.pk), prefix, res.Delim)
				if sorted(res.Children) != sorted(want) {
					t.Fatalf("%s %s %q (%q):\n got %s\nwant %s", name, tc.pk, prefix, res.Delim, sorted(res.Children), sorted(want))
				}
				if plain := plainPages(t, c, "TimeSplit", domain.S(tc.pk), prefix); total.Requests > requestBound(plain, len(res.Children)) {
					t.Errorf("%s %s %q: %d requests for %d children, a plain query takes %d", name, tc.pk, prefix, total.Requests, len(res.Children), plain)
				}
				fmt.Fprintf(&b, "%s %q by %q: %d children, %d req, %.1f RCU; parallel %d req, %.1f RCU\n", tc.pk, prefix, res.Delim, len(res.Children), total.Requests, total.RCU, par.Requests, par.RCU)
				levels[prefix] = res.Children
				for _, ch := range res.Children {
					if ch.HasChildren {
						visit(ch.Prefix, res.Delim)
					}
				}
			}
			visit("", tc.delim)
			names := func(prefix string) []string {
				var out []string
				for _, ch := range levels[prefix] {
					out = append(out, ch.Name)
				}
				return out
			}
			switch tc.pk {
			case "iso":
				ev := names("event:")
				if len(ev) != 120 || ev[0] != "2023-11-01T00:00:00Z" || ev[1] != "2023-11-01T00:37:00Z" {
					t.Fatalf("%s %s by %q: event: lists %d children %q…, not the 120 times", name, tc.pk, tc.delim, len(ev), ev[:min(3, len(ev))])
				}
				if got := names("event:2023-11-01T00:00:00Z:"); !slices.Equal(got, []string{"0", "1", "2"}) {
					t.Fatalf("%s: below the first time: %q", name, got)
				}
			case "blog":
				if got := names(""); len(got) != 120 || got[0] != "user0#2023-11-01:00:00:00" {
					t.Fatalf("%s blog: %d children %q…; want the 120 keys whole", name, len(got), got[:min(3, len(got))])
				}
			case "kafka":
				if got := names(""); len(got) != 12 || !slices.Contains(got, "10") {
					t.Fatalf("%s kafka by %q: top level %q; want the 12 partitions", name, tc.delim, got)
				}
			case "mixed":
				got := names("event:")
				if len(got) != 30 || !slices.Contains(got, "2023-11-01T05") || !slices.Contains(got, "2023-11-01T05:45:00Z") {
					t.Fatalf("%s mixed: %d children %q; want each hour and its four times", name, len(got), got)
				}
				// An hour's count is its own keys, not the times that
				// begin with it too (6, counted by begins_with).
				r := dynamo.ChildrenRequest{Table: "TimeSplit", Key: key, PK: domain.S("mixed"), Prefix: "event:", Delim: ":"}
				for _, ch := range levels["event:"] {
					want := 1 // a time, an item
					if !strings.Contains(ch.Name, ":") {
						want = 2 // an hour: its summary and its 1
					}
					if n, err := dynamo.CountChild(context.Background(), c, r, ch, nil); err != nil || n != want {
						t.Fatalf("%s mixed: %s counts %d, want %d (%v)", name, ch.Name, n, want, err)
					}
				}
			}
		}
		figures[name] = b.String()
	}
	if figures["memory"] != figures["dynalite"] {
		t.Fatalf("backends differ:\n--- memory\n%s--- dynalite\n%s", figures["memory"], figures["dynalite"])
	}
	t.Logf("\n%s", figures["dynalite"])
}

// periodEnd is the first instant after the period a key at at names (a
// day, an hour, an ISO week, a month), or just after at where the keys
// name instants.
func periodEnd(enc domain.TimeEncoding, at time.Time) time.Time {
	switch u := enc.Unit(); {
	case u < time.Hour:
		return at.Add(time.Nanosecond)
	case u >= 28*24*time.Hour:
		return at.AddDate(0, 1, 0)
	case u == 7*24*time.Hour:
		return at.AddDate(0, 0, 7)
	case u >= 24*time.Hour:
		return at.AddDate(0, 0, 1)
	default:
		return at.Add(u)
	}
}
