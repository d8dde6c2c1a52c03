package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// timeInstants straddle the boundaries the cases ask about: the seed's
// 1536019200 (2018-09-04T00:00:00Z) to the second, month and day edges.
func timeInstants() []time.Time {
	edge := time.Unix(1536019200, 0).UTC()
	var out []time.Time
	for _, d := range []time.Duration{-2 * time.Second, -time.Second, -time.Millisecond, 0, time.Millisecond, time.Second, 2 * time.Second} {
		out = append(out, edge.Add(d))
	}
	for _, s := range []string{"2011-07-09T13:00:00Z", "2018-08-29T12:00:00Z", "2018-09-04T01:00:00Z", "2018-07-31T23:59:59Z",
		"2018-08-01T00:00:00Z", "2018-08-31T23:59:59Z", "2018-09-01T00:00:00Z", "2018-09-04T23:59:59Z", "2018-09-05T00:00:00Z",
		"2018-08-29T00:00:00Z", "2018-08-28T23:59:59Z", "2018-09-03T22:30:00Z"} {
		t, _ := time.Parse(time.RFC3339, s)
		out = append(out, t)
	}
	for i := 0; i < 200; i++ {
		out = append(out, time.Date(2018, 8, 15, 0, 0, 0, 0, time.UTC).Add(time.Duration(i)*97*time.Minute+time.Duration(i%7)*time.Second))
	}
	return out
}

// timeEncodings are the partitions of the test tables, one per encoding.
var timeEncodings = []struct {
	pk     string
	number bool
	key    func(time.Time) string
}{
	{"sec", true, func(t time.Time) string { return fmt.Sprint(t.Unix()) }},
	{"ms", true, func(t time.Time) string { return fmt.Sprint(t.UnixMilli()) }},
	{"us", true, func(t time.Time) string { return fmt.Sprint(t.UnixMicro()) }},
	{"iso", false, func(t time.Time) string { return t.Format("2006-01-02T15:04:05Z") }},
	{"isoms", false, func(t time.Time) string { return t.Format("2006-01-02T15:04:05.000Z07:00") }},
	{"offset", false, func(t time.Time) string { return t.In(time.FixedZone("", 2*3600)).Format("2006-01-02T15:04:05Z07:00") }},
	{"naive", false, func(t time.Time) string { return t.Format("2006-01-02T15:04:05") }},
	// Keys written in four UTC offsets (the shop's orders), read wider
	// and kept to the range's own (PageRequest.Keep).
	{"offsets", false, func(t time.Time) string {
		zones := []*time.Location{time.FixedZone("", 2*3600), time.FixedZone("", -5*3600), time.FixedZone("", 5*3600+1800), time.UTC}
		return t.In(zones[(t.Unix()/60+int64(t.Second()))%4]).Format("2006-01-02T15:04:05Z07:00")
	}},
	{"onetable", false, func(t time.Time) string { return fmt.Sprintf("admission#%d#R8", t.UnixMilli()) }},
	{"ulid", false, func(t time.Time) string { return "R#" + ulidOf(t) }},
	{"blog", false, func(t time.Time) string { return t.Format("2006-01-02:15:04:05") }},
	{"composite", false, func(t time.Time) string {
		return []string{"amsg#", "bob#"}[t.Second()%2] + t.Format("2006-01-02:15:04:05")
	}},
	{"leading", false, func(t time.Time) string {
		return t.Format("2006-01-02:15:04:05") + "#" + []string{"amsg", "bob"}[t.Second()%2]
	}},
}

var timesSeeded seededTable

func timesBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	return seededBackends(t, &timesSeeded, func(ctx context.Context, w dynamo.Writer) error {
		items := map[string][]dynamo.Item{}
		for _, e := range timeEncodings {
			table := "TimesS"
			if e.number {
				table = "TimesN"
			}
			seen := map[string]bool{}
			for _, tm := range timeInstants() {
				k := e.key(tm)
				if seen[k] {
					continue
				}
				seen[k] = true
				var sk types.AttributeValue = &types.AttributeValueMemberS{Value: k}
				if e.number {
					sk = &types.AttributeValueMemberN{Value: k}
				}
				items[table] = append(items[table], dynamo.Item{"PK": &types.AttributeValueMemberS{Value: e.pk}, "SK": sk})
			}
		}
		for _, typ := range []types.ScalarAttributeType{"S", "N"} {
			if err := demo.CreateKeyTable(ctx, w, "Times"+string(typ), typ, items["Times"+string(typ)]); err != nil {
				return err
			}
		}
		return nil
	})
}

// TestTimeRangesBothBackends runs every operator on every encoding and
// requires exactly what an oracle over the whole partition selects, the
// same on both backends, newest first.
func TestTimeRangesBothBackends(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2018, 9, 4, 12, 0, 0, 0, time.UTC)
	inputs := []string{
		"< 1536019200", "<= 1536019200", "> 1536019200", ">= 1536019200", "< 2018-09-04T00:00Z", "<= 2018-09-04",
		"> 2018-09-04", ">= 2018-09-04T00:00:00.001Z", "2018-08", "2018-08-29", "2018-09-04T00", "2018-08-29..2018-09-04",
		"between 2018-08-31T23:59:59Z and 2018-09-01T00:00:00Z", "last 15m", "last 24h", "last 7d", "today", "yesterday",
		"< 2018-09-04T02:00+02:00", "2018-09-04T00:00:00Z", "2018-09-04T00:00:00.001Z",
	}
	results := map[string]string{}
	for bname, c := range timesBackends(t) {
		var log strings.Builder
		for _, e := range timeEncodings {
			table, prefixes := "TimesS", []string{""}
			if e.number {
				table = "TimesN"
			}
			switch e.pk {
			case "composite":
				prefixes = []string{"amsg", "bob#"}
			case "onetable":
				prefixes = []string{"admission"}
			case "ulid":
				prefixes = []string{"R#"}
			}
			base := domain.KeyQuery{Table: table, PKName: "PK", PK: domain.S(e.pk), SKName: "SK"}
			for _, prefix := range prefixes {
				sample := base
				if prefix != "" {
					sample.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S(prefix)}
				}
				ts, _, err := dynamo.DetectTimeKeys(ctx, c, sample, nil)
				enc, ok := ts.Enc, ts.OK
				if err != nil || !ok {
					t.Fatalf("%s %s: detect %v %v", bname, e.pk, ok, err)
				}
				if ts.Offsets != (e.pk == "offsets") {
					t.Fatalf("%s %s: keys in several UTC offsets: %v (%s)", bname, e.pk, ts.Offsets, ts.Spread)
				}
				all := readAll(t, c, base)
				for _, in := range inputs {
					r, err := domain.ParseRange(in, now, time.UTC)
					if err != nil {
						t.Fatal(err)
					}
					sk, err := domain.CompileRange(r, enc, prefix)
					if errors.Is(err, domain.ErrEmptyRange) {
						if want := oracle(all, enc, r, prefix); len(want) > 0 {
							t.Errorf("%s %q: said empty, but %v", e.pk, in, want)
						}
						fmt.Fprintf(&log, "%s %s %q: empty\n", e.pk, prefix, in)
						continue
					}
					if err != nil {
						t.Fatalf("%s %q: %v", e.pk, in, err)
					}
					q := base
					q.SK, q.Reverse = sk, true
					var keep func(dynamo.Item) bool
					if ts.Offsets {
						// Keys in several offsets: read as much wider as
						// they are apart, the range's own kept.
						if sk, err = domain.CompileRange(r.Widen(ts.Spread), enc, prefix); err != nil {
							t.Fatalf("%s %q widened: %v", e.pk, in, err)
						}
						q.SK = sk
						keep = func(it dynamo.Item) bool {
							at, ok := enc.KeyTime(it["SK"].(*types.AttributeValueMemberS).Value)
							return ok && r.Holds(at)
						}
					}
					got := readKept(t, c, q, keep)
					want := oracle(all, enc, r, prefix)
					if strings.Join(got, " ") != strings.Join(want, " ") {
						t.Errorf("%s %s %q prefix %q (%s %s):\n got %d %v\nwant %d %v", bname, e.pk, in, prefix, q.Expression(), q.Values(), len(got), got, len(want), want)
					}
					fmt.Fprintf(&log, "%s %s %q: %d\n", e.pk, prefix, in, len(got))
				}
			}
		}
		results[bname] = log.String()
	}
	if results["memory"] != results["dynalite"] {
		t.Error("backends differ")
	}
	// The seed's query, as written: two of the device's three records.
	if !strings.Contains(results["memory"], "sec  \"< 1536019200\": ") {
		t.Fatal("seed case not run")
	}
}

func readAll(t *testing.T, c dynamo.Client, q domain.KeyQuery) []string {
	t.Helper()
	return readKept(t, c, q, nil)
}

// readKept is readAll of the items keep keeps (nil: all), a page at a
// time with a small Limit, so that pages hold none of them.
func readKept(t *testing.T, c dynamo.Client, q domain.KeyQuery, keep func(dynamo.Item) bool) []string {
	t.Helper()
	var out []string
	var start dynamo.Item
	var limit int32
	if keep != nil {
		limit = 7
	}
	for {
		p, err := dynamo.QueryPage(context.Background(), c, dynamo.PageRequest{Query: q, Start: start, Keep: keep, Limit: limit})
		if err != nil {
			t.Fatalf("%s: %v", q.Describe(), err)
		}
		for _, it := range p.Items {
			switch v := it["SK"].(type) {
			case *types.AttributeValueMemberS:
				out = append(out, v.Value)
			case *types.AttributeValueMemberN:
				out = append(out, v.Value)
			}
		}
		if !p.More() {
			return out
		}
		start = p.LastKey
	}
}

// ulidOf is a ULID of t's millisecond, its random part zero.
func ulidOf(t time.Time) string {
	const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	ms := t.UnixMilli()
	b := make([]byte, 10)
	for i := 9; i >= 0; i-- {
		b[i] = crockford[ms%32]
		ms /= 32
	}
	return string(b) + "0000000000000000"
}

// oracle selects from every key what the range means, in key order,
// descending.
func oracle(keys []string, enc domain.TimeEncoding, r domain.TimeRange, prefix string) []string {
	if prefix != "" && !strings.HasSuffix(prefix, enc.Sep) {
		prefix += enc.Sep
	}
	type kt struct {
		k string
		t time.Time
	}
	var sel []kt
	for _, k := range keys {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		tm, ok := enc.KeyTime(k)
		if !ok {
			continue
		}
		var in bool
		switch r.Op {
		case domain.TimeBetween:
			in = !tm.Before(r.From) && !tm.After(r.To)
		case domain.TimeLt:
			in = tm.Before(r.From)
		case domain.TimeLe:
			in = !tm.After(r.From)
		case domain.TimeGt:
			in = tm.After(r.From)
		case domain.TimeGe:
			in = !tm.Before(r.From)
		}
		if in {
			sel = append(sel, kt{k, tm})
		}
	}
	sort.SliceStable(sel, func(i, j int) bool { return sel[i].k > sel[j].k })
	out := make([]string, len(sel))
	for i, s := range sel {
		out[i] = s.k
	}
	return out
}

var idKeysSeeded seededTable

// snowflakeOf is a Twitter Snowflake id of t: its milliseconds since
// 2010-11-04T01:42:54.657Z in the top bits, a worker and sequence below.
func snowflakeOf(t time.Time, seq int64) string {
	return fmt.Sprint((t.UnixMilli()-1288834974657)<<22 | seq&(1<<22-1))
}

// objectIDOf is a MongoDB ObjectId of t: its seconds in 8 hex digits,
// then 16 of a random value and a counter.
func objectIDOf(t time.Time, seq int64) string {
	return fmt.Sprintf("%08x%016x", t.Unix(), uint64(seq)*0x9e3779b97f4a7c15)
}

// Keys holding ids that carry their time, in forms nobody here drew:
// posts keyed POST#<Snowflake id> are 19 digits, which read as epoch
// nanoseconds too (ids made since August 2023 then stand in the future,
// 2037, and a range read them as such, silently); documents keyed
// OID#<ObjectId> were read as no time at all. Each is detected as its id,
// and every range holds what an oracle decoding the ids selects, newest
// first, on both backends.
func TestIDKeysRangeByTheirTime(t *testing.T) {
	now := time.Now().UTC()
	var instants []time.Time
	for i := 0; i < 60; i++ {
		instants = append(instants, time.Date(2024, 4, 20, 0, 0, 0, 0, time.UTC).Add(time.Duration(i)*17*time.Hour+time.Duration(i)*time.Millisecond))
		instants = append(instants, now.Add(-time.Duration(i)*47*time.Second))
	}
	forms := []struct {
		pk, prefix string
		id         func(time.Time, int64) string
		at         func(string) (time.Time, bool)
	}{
		{"u1", "POST#", snowflakeOf, func(id string) (time.Time, bool) {
			var v int64
			_, err := fmt.Sscanf(id, "%d", &v)
			return time.UnixMilli(v>>22 + 1288834974657).UTC(), err == nil
		}},
		{"d1", "OID#", objectIDOf, func(id string) (time.Time, bool) {
			var v int64
			if len(id) != 24 {
				return time.Time{}, false
			}
			_, err := fmt.Sscanf(id[:8], "%x", &v)
			return time.Unix(v, 0).UTC(), err == nil
		}},
	}
	backends := seededBackends(t, &idKeysSeeded, func(ctx context.Context, w dynamo.Writer) error {
		var items []dynamo.Item
		for _, f := range forms {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: f.pk}, "SK": &types.AttributeValueMemberS{Value: "PROFILE"}})
			for i, tm := range instants {
				items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: f.pk}, "SK": &types.AttributeValueMemberS{Value: f.prefix + f.id(tm, int64(i)*7919)}})
			}
		}
		return demo.CreateKeyTable(ctx, w, "IDKeys", "S", items)
	})
	ctx := context.Background()
	for name, c := range backends {
		for _, f := range forms {
			base := domain.KeyQuery{Table: "IDKeys", PKName: "PK", PK: domain.S(f.pk), SKName: "SK"}
			ts, _, err := dynamo.DetectTimeKeys(ctx, c, base, nil)
			if err != nil || !ts.OK {
				t.Errorf("%s %s: no time detected (%v)", name, f.prefix, err)
				continue
			}
			all := readAll(t, c, base)
			for _, in := range []string{"last 15m", "2024-05", "< 2024-05-10", "> 2024-05-20", "today"} {
				r, err := domain.ParseRange(in, now, time.UTC)
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				for i := len(all) - 1; i >= 0; i-- { // newest first
					k := all[i]
					if !strings.HasPrefix(k, f.prefix) {
						continue
					}
					if at, ok := f.at(strings.TrimPrefix(k, f.prefix)); ok && r.Holds(at) {
						want = append(want, k)
					}
				}
				if len(want) == 0 {
					t.Fatalf("%s %q selects nothing: the case tests nothing", f.prefix, in)
				}
				sk, err := domain.CompileRange(r, ts.Enc, f.prefix)
				if err != nil {
					t.Fatalf("%s %s %q as %s: %v", name, f.prefix, in, ts.Enc.Name(), err)
				}
				q := base
				q.SK, q.Reverse = sk, true
				if got := readAll(t, c, q); strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("%s %s %q read as %s (%s %s): %d keys, want %d", name, f.prefix, in, ts.Enc.Name(), q.Expression(), q.Values(), len(got), len(want))
				}
			}
		}
	}
}

var smallOrdersSeeded seededTable

// TestTimeSampleHoldsASmallPartition (issue 37, range): the time sample
// reads no key twice, and where its reads held every item of the
// partition it keeps them (Held), newest first, for range to answer
// from: 15 orders in one read, 23 in two (the oldest read held below
// the newest keys: it read the oldest 20 again, 17 of them a second
// time), 60 as before, in two reads of 20 and nothing held.
func TestTimeSampleHoldsASmallPartition(t *testing.T) {
	ctx := context.Background()
	backends := seededBackends(t, &smallOrdersSeeded, func(ctx context.Context, w dynamo.Writer) error {
		var items []dynamo.Item
		for _, c := range []struct {
			pk string
			n  int
		}{{"C15", 15}, {"C23", 23}, {"C60", 60}} {
			for i := range c.n {
				items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: c.pk},
					"SK":   &types.AttributeValueMemberS{Value: time.Date(2026, 10, 1, i, 0, 0, 0, time.UTC).Format(time.RFC3339)},
					"Note": &types.AttributeValueMemberS{Value: strings.Repeat("o", 100)}})
			}
		}
		return demo.CreateKeyTable(ctx, w, "SmallOrders", "S", items)
	})
	for name, c := range backends {
		for _, tc := range []struct {
			pk             string
			keys, requests int
			held           bool
		}{{"C15", 15, 1, true}, {"C23", 23, 2, true}, {"C60", 40, 2, false}} {
			rec := &sentBack{Client: c}
			q := domain.KeyQuery{Table: "SmallOrders", PKName: "PK", PK: domain.S(tc.pk), SKName: "SK"}
			s, _, err := dynamo.DetectTimeKeys(ctx, rec, q, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !s.OK || len(s.Keys) != tc.keys || rec.requests != tc.requests || rec.items != tc.keys || (s.Held != nil) != tc.held {
				t.Errorf("%s %s: %d keys (ok %v) in %d requests, %d keys sent back, held %d", name, tc.pk, len(s.Keys), s.OK, rec.requests, rec.items, len(s.Held))
				continue
			}
			for i, it := range s.Held {
				if want := time.Date(2026, 10, 1, tc.keys-1-i, 0, 0, 0, time.UTC).Format(time.RFC3339); it["SK"].(*types.AttributeValueMemberS).Value != want || it["Note"] == nil {
					t.Errorf("%s %s: held item %d is %v, want %s whole", name, tc.pk, i, it["SK"], want)
				}
			}
		}
	}
}

// sentBack counts the Queries sent and the items they sent back.
type sentBack struct {
	dynamo.Client
	requests, items int
}

func (s *sentBack) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := s.Client.Query(ctx, in, o...)
	s.requests++
	if out != nil {
		s.items += len(out.Items)
	}
	return out, err
}

var snowflakeNumbersSeeded seededTable

// Tweets keyed by their id as a Number sort key: ids made since August
// 2023 read as epoch nanoseconds in the future, and as such every range
// read nothing; they are detected as Snowflake ids, and every range holds
// what an oracle decoding the ids selects, newest first, on both
// backends, 18-digit ids (before mid-2018) among them.
func TestSnowflakeNumberKeysRangeByTheirTime(t *testing.T) {
	now := time.Now().UTC()
	var ids []int64
	for i := 0; i < 60; i++ {
		for _, tm := range []time.Time{time.Date(2017, 4, 20, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * 17 * 24 * time.Hour), now.Add(-time.Duration(i) * 47 * time.Second)} {
			ids = append(ids, (tm.UnixMilli()-1288834974657)<<22|int64(i)*7919)
		}
	}
	backends := seededBackends(t, &snowflakeNumbersSeeded, func(ctx context.Context, w dynamo.Writer) error {
		var items []dynamo.Item
		for _, id := range ids {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "c1"}, "SK": &types.AttributeValueMemberN{Value: fmt.Sprint(id)}})
		}
		return demo.CreateKeyTable(ctx, w, "TweetIDs", "N", items)
	})
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	ctx := context.Background()
	for name, c := range backends {
		base := domain.KeyQuery{Table: "TweetIDs", PKName: "PK", PK: domain.S("c1"), SKName: "SK"}
		ts, _, err := dynamo.DetectTimeKeys(ctx, c, base, nil)
		if err != nil || !ts.OK || ts.Enc.Kind != domain.TimeSnowflake {
			t.Fatalf("%s: read as %s (%v)", name, ts.Enc.Name(), err)
		}
		for _, in := range []string{"last 15m", "2018", "< 2018-05-10", "> 2019-05-20", "today"} {
			r, err := domain.ParseRange(in, now, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for i := len(ids) - 1; i >= 0; i-- { // newest first
				if r.Holds(time.UnixMilli(ids[i]>>22 + 1288834974657).UTC()) {
					want = append(want, fmt.Sprint(ids[i]))
				}
			}
			if len(want) == 0 {
				t.Fatalf("%q selects nothing: the case tests nothing", in)
			}
			sk, err := domain.CompileRange(r, ts.Enc, "")
			if err != nil {
				t.Fatalf("%s %q: %v", name, in, err)
			}
			q := base
			q.SK, q.Reverse = sk, true
			if got := readAll(t, c, q); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s %q (%s %s): %d keys, want %d", name, in, q.Expression(), q.Values(), len(got), len(want))
			}
		}
	}
}
