package dynamo_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

var middleSeeded seededTable

// createMiddle: AUDIT# and ZETA# times, 30 each, and 8 EVENT# times
// between them.
func createMiddle(ctx context.Context, w dynamo.Writer) error {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	at := time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 30 {
		items = append(items, dynamo.Item{"PK": s("p"), "SK": s("AUDIT#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))},
			dynamo.Item{"PK": s("p"), "SK": s("ZETA#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))})
	}
	for i := range 8 {
		items = append(items, dynamo.Item{"PK": s("p"), "SK": s("EVENT#" + at.AddDate(-1, 0, i).Format(time.RFC3339))})
	}
	return demo.CreateKeyTable(ctx, w, "Middle", "S", items)
}

// TestDetectTimeSeesEveryPrefix (26.2): a partition of three prefixes
// holding times (AUDIT#, EVENT#, ZETA#): the newest 20 and the oldest 20
// keys are all AUDIT# and ZETA# and agree on one form, so detection stops
// there, at two keys-only reads, and the range still reads every prefix:
// the prefixes are the drill-down's, not the sample's.
func TestDetectTimeSeesEveryPrefix(t *testing.T) {
	backends := seededBackends(t, &middleSeeded, createMiddle)
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "SK", Type: domain.TypeS}}
	for name, c := range backends {
		q := domain.KeyQuery{Table: "Middle", PKName: "PK", PK: domain.S("p"), SKName: "SK"}
		s, cost, err := dynamo.DetectTimeKeys(context.Background(), c, q, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !s.OK || !s.Enc.NeedsPrefix() || len(s.Skipped) != 0 {
			t.Fatalf("%s: no time seen in %d keys %q", name, len(s.Keys), s.Keys)
		}
		// The newest and the oldest 20: 2 keys-only requests of 0.5 RCU
		// (the walk between them cost 3 more, for the same answer).
		if cost.Requests != 2 || cost.RCU != 1 {
			t.Fatalf("%s: cost %+v", name, cost)
		}
		prefixes, _, err := dynamo.TimePrefixes(context.Background(), c, dynamo.ChildrenRequest{Table: "Middle", Key: key, PK: q.PK}, s.Enc, s)
		if err != nil || !slices.Equal(prefixes, []string{"AUDIT#", "EVENT#", "ZETA#"}) {
			t.Fatalf("%s: prefixes %q (%v)", name, prefixes, err)
		}
	}
}

var walkedSeeded seededTable

// TestDetectTimeWalksUntilSettled (26.2): when the two ends do not settle
// a form (the newest 20 keys are ZETA# notes and times, half each, the
// oldest AAA# notes and AUDIT# times: 20 of 40 is no quorum, and ZETA#'s
// 10 of 20 none within it, so its prefixes do not settle it either),
// detection samples the prefixes between them, 3 keys from each end of
// each, and stops as soon as the sample settles: after EVENT1#–EVENT4#
// (44 times of 64 keys), never reading EVENT5#.
func TestDetectTimeWalksUntilSettled(t *testing.T) {
	backends := seededBackends(t, &walkedSeeded, func(ctx context.Context, w dynamo.Writer) error {
		s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
		var items []dynamo.Item
		at := time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC)
		for i := range 30 {
			items = append(items, dynamo.Item{"PK": s("p"), "SK": s("AUDIT#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))})
		}
		for i := range 10 {
			items = append(items, dynamo.Item{"PK": s("p"), "SK": s(fmt.Sprintf("AAA#note-%02d", i))},
				dynamo.Item{"PK": s("p"), "SK": s(fmt.Sprintf("ZETA#zz-note-%02d", i))},
				dynamo.Item{"PK": s("p"), "SK": s("ZETA#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))},
				dynamo.Item{"PK": s("p"), "SK": s("ZETA#" + at.Add(time.Duration(i+10)*time.Hour).Format(time.RFC3339))})
		}
		for p := 1; p <= 6; p++ {
			for i := range 8 {
				items = append(items, dynamo.Item{"PK": s("p"), "SK": s(fmt.Sprintf("EVENT%d#", p) + at.AddDate(-1, p, i).Format(time.RFC3339))})
			}
		}
		// q: the same ends, and sixteen prefixes of two times each.
		for i := range 30 {
			items = append(items, dynamo.Item{"PK": s("q"), "SK": s("AUDIT#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))})
		}
		for i := range 10 {
			items = append(items, dynamo.Item{"PK": s("q"), "SK": s(fmt.Sprintf("AAA#note-%02d", i))},
				dynamo.Item{"PK": s("q"), "SK": s(fmt.Sprintf("ZETA#zz-note-%02d", i))},
				dynamo.Item{"PK": s("q"), "SK": s("ZETA#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))},
				dynamo.Item{"PK": s("q"), "SK": s("ZETA#" + at.Add(time.Duration(i+10)*time.Hour).Format(time.RFC3339))})
		}
		for p := 1; p <= 16; p++ {
			for i := range 2 {
				items = append(items, dynamo.Item{"PK": s("q"), "SK": s(fmt.Sprintf("EVENT%02d#", p) + at.AddDate(-1, p, i).Format(time.RFC3339))})
			}
		}
		return demo.CreateKeyTable(ctx, w, "Walked", "S", items)
	})
	for name, c := range backends {
		q := domain.KeyQuery{Table: "Walked", PKName: "PK", PK: domain.S("p"), SKName: "SK"}
		s, cost, err := dynamo.DetectTimeKeys(context.Background(), c, q, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !s.OK || !s.Enc.NeedsPrefix() || len(s.Skipped) != 20 {
			t.Fatalf("%s: detected %v %q, skipped %d of %d keys", name, s.OK, s.Enc.Name(), len(s.Skipped), len(s.Keys))
		}
		walked := map[string]int{}
		for _, k := range s.Keys {
			if p, _, ok := strings.Cut(k, "#"); ok && strings.HasPrefix(p, "EVENT") {
				walked[p]++
			}
		}
		if len(walked) != 4 || walked["EVENT1"] != 6 || walked["EVENT4"] != 6 || walked["EVENT5"] != 0 {
			t.Fatalf("%s: EVENT keys sampled %v", name, walked)
		}
		// The two ends, then past AUDIT# and EVENT1#–EVENT3# (each next
		// prefix's oldest 3) and each EVENT#'s newest 3: 10 requests.
		if cost.Requests != 10 || cost.RCU != 5 {
			t.Fatalf("%s: cost %+v", name, cost)
		}
		// Prefixes of two keys: each read of 3 holds one whole and the
		// next's first key, so no prefix is read from its other end, and
		// each read starts past every key read before: one request a
		// step, 7 steps to settle (41 times of 61 keys), where reading
		// each prefix from both ends made 18.
		q.PK = domain.S("q")
		s, cost, err = dynamo.DetectTimeKeys(context.Background(), c, q, nil)
		if err != nil || !s.OK || len(s.Skipped) != 20 || len(s.Keys) != 61 {
			t.Fatalf("%s: q: detected %v, skipped %d of %d keys (%v)", name, s.OK, len(s.Skipped), len(s.Keys), err)
		}
		if cost.Requests != 9 || cost.RCU != 4.5 {
			t.Fatalf("%s: q: cost %+v", name, cost)
		}
	}
}

var profileSeeded seededTable

// TestTimePrefixesSkipTimeless (26.2): PROFILE#, PROFILE#email and
// PROFILE#phone beside PHOTO#<ULID> keys. The sample read PROFILE# whole
// (the newest keys run from it into PHOTO#) and none of it is a time, and
// the keys between its two reads are all PHOTO#: the prefixes are known
// without a walk, PHOTO# alone. With ALBUM# times below PHOTO#, the gap
// between the reads may hold any prefix and is walked, and PROFILE# is
// still left out. A sample whose reads are unknown leaves PROFILE# out
// too, as the walk read it whole (it was kept, a Query for nothing). So
// is onetable's account# beside Event#{time} and invoice#{time}#{ulid}
// in the gap between the sample's reads: the walk reads it whole, and
// names it as left out (the explorer queried it, a third prefix).
func TestTimePrefixesSkipTimeless(t *testing.T) {
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "SK", Type: domain.TypeS}}
	for name, c := range shapeBackends(t) {
		ctx := context.Background()
		q := domain.KeyQuery{Table: demo.ShapesTable, PKName: "PK", PK: domain.S(demo.PhotosPK), SKName: "SK", Reverse: true}
		s, _, err := dynamo.DetectTimeKeys(ctx, c, q, nil)
		if err != nil || !s.OK {
			t.Fatalf("%s: %v %v", name, s.OK, err)
		}
		if !s.WholePrefix("PROFILE#") || s.WholePrefix("PHOTO#") {
			t.Fatalf("%s: PROFILE# whole %v, PHOTO# whole %v", name, s.WholePrefix("PROFILE#"), s.WholePrefix("PHOTO#"))
		}
		prefixes, cost, err := dynamo.TimePrefixes(ctx, c, dynamo.ChildrenRequest{Table: demo.ShapesTable, Key: key, PK: q.PK}, s.Enc, s)
		if err != nil || !slices.Equal(prefixes, []string{"PHOTO#"}) || cost.Requests != 0 {
			t.Fatalf("%s: prefixes %q, %d requests (%v)", name, prefixes, cost.Requests, err)
		}
		prefixes, left, cost, err := dynamo.TimePrefixesLeft(ctx, c, dynamo.ChildrenRequest{Table: demo.ShapesTable, Key: key, PK: q.PK}, s.Enc, dynamo.TimeSample{Keys: s.Keys})
		if err != nil || !slices.Equal(prefixes, []string{"PHOTO#"}) || !slices.Equal(left, []string{"PROFILE#"}) || cost.Requests == 0 {
			t.Fatalf("%s: prefixes from keys alone %q, left out %q, %d requests (%v)", name, prefixes, left, cost.Requests, err)
		}
	}
	backends := seededBackends(t, &profileSeeded, func(ctx context.Context, w dynamo.Writer) error {
		s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
		items := []dynamo.Item{{"PK": s("u"), "SK": s("PROFILE#")}, {"PK": s("u"), "SK": s("PROFILE#email")}}
		at := time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC)
		for i := range 30 {
			items = append(items, dynamo.Item{"PK": s("u"), "SK": s("ALBUM#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))},
				dynamo.Item{"PK": s("u"), "SK": s("PHOTO#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))})
		}
		// m: 30 keys under two prefixes, which the newest and the oldest
		// 20 read all of: the reads meet, and no prefix is searched for.
		for i := range 15 {
			items = append(items, dynamo.Item{"PK": s("m"), "SK": s("A#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))},
				dynamo.Item{"PK": s("m"), "SK": s("Z#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))})
		}
		// a: onetable's account# between 40 Event# and 30 invoice# times.
		items = append(items, dynamo.Item{"PK": s("a"), "SK": s("account#")})
		for i := range 40 {
			items = append(items, dynamo.Item{"PK": s("a"), "SK": s("Event#" + at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))})
		}
		for i := range 30 {
			items = append(items, dynamo.Item{"PK": s("a"), "SK": s(fmt.Sprintf("invoice#%s#01M8F94VKBJMDPCZNVPZYP1H%02d", at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339), i))})
		}
		return demo.CreateKeyTable(ctx, w, "Profiles", "S", items)
	})
	for name, c := range backends {
		ctx := context.Background()
		q := domain.KeyQuery{Table: "Profiles", PKName: "PK", PK: domain.S("u"), SKName: "SK"}
		s, _, err := dynamo.DetectTimeKeys(ctx, c, q, nil)
		if err != nil || !s.OK || len(s.Skipped) != 2 {
			t.Fatalf("%s: %v %q (%v)", name, s.OK, s.Skipped, err)
		}
		prefixes, cost, err := dynamo.TimePrefixes(ctx, c, dynamo.ChildrenRequest{Table: "Profiles", Key: key, PK: q.PK}, s.Enc, s)
		if err != nil || !slices.Equal(prefixes, []string{"ALBUM#", "PHOTO#"}) || cost.Requests == 0 {
			t.Fatalf("%s: prefixes %q, %d requests (%v)", name, prefixes, cost.Requests, err)
		}
		q.PK = domain.S("m")
		if s, _, err = dynamo.DetectTimeKeys(ctx, c, q, nil); err != nil || !s.OK {
			t.Fatalf("%s: m: %v (%v)", name, s.OK, err)
		}
		prefixes, cost, err = dynamo.TimePrefixes(ctx, c, dynamo.ChildrenRequest{Table: "Profiles", Key: key, PK: q.PK}, s.Enc, s)
		if err != nil || !slices.Equal(prefixes, []string{"A#", "Z#"}) || cost.Requests != 0 {
			t.Fatalf("%s: m: prefixes %q, %d requests (%v)", name, prefixes, cost.Requests, err)
		}
		q.PK = domain.S("a")
		if s, _, err = dynamo.DetectTimeKeys(ctx, c, q, nil); err != nil || !s.OK || s.WholePrefix("account#") {
			t.Fatalf("%s: a: %v, account# in the sample %v (%v)", name, s.OK, s.WholePrefix("account#"), err)
		}
		prefixes, left, _, err := dynamo.TimePrefixesLeft(ctx, c, dynamo.ChildrenRequest{Table: "Profiles", Key: key, PK: q.PK}, s.Enc, s)
		if err != nil || !slices.Equal(prefixes, []string{"Event#", "invoice#"}) || !slices.Equal(left, []string{"account#"}) {
			t.Fatalf("%s: a: prefixes %q, left out %q (%v)", name, prefixes, left, err)
		}
	}
}

// TestWholePrefixFromReads: what a sample's reads show of a prefix.
func TestWholePrefixFromReads(t *testing.T) {
	q := domain.KeyQuery{Table: "T", PKName: "PK", PK: domain.S("p"), SKName: "SK"}
	for _, c := range []struct {
		name   string
		q      domain.KeyQuery
		keys   []string // newest first, the whole of q
		prefix string
		whole  bool
	}{
		{"at the top, closed below", q, []string{"Z#2", "Z#1", "A#1"}, "Z#", true},
		{"at the bottom, read to the end", q, []string{"Z#2", "A#2", "A#1"}, "A#", true},
		{"absent", q, []string{"Z#2", "A#1"}, "M#", false},
		{"under a begins_with, its own prefix", domain.KeyQuery{Table: "T", PKName: "PK", PK: domain.S("p"), SKName: "SK", SK: domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S("A#")}}, []string{"A#x#2", "A#x#1", "A#1"}, "A#x#", true},
		{"under a begins_with, a prefix above it", domain.KeyQuery{Table: "T", PKName: "PK", PK: domain.S("p"), SKName: "SK", SK: domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S("A#x#")}}, []string{"A#x#2", "A#x#1"}, "A#", false},
		{"a range of keys says nothing", domain.KeyQuery{Table: "T", PKName: "PK", PK: domain.S("p"), SKName: "SK", SK: domain.SKCondition{Op: domain.SKGe, A: domain.S("A")}}, []string{"Z#2", "A#1"}, "Z#", false},
	} {
		if got := dynamo.WholeTimeSample(c.q, c.keys, false).WholePrefix(c.prefix); got != c.whole {
			t.Errorf("%s: WholePrefix(%q) = %v, want %v", c.name, c.prefix, got, c.whole)
		}
	}
}

// TestDetectFromFirstPage (26.2): the explorer's first page is the
// sample's newest keys: detection from it reads the oldest keys alone (or
// nothing, when the page held the partition whole), and samples exactly
// the keys headless detection does.
func TestDetectFromFirstPage(t *testing.T) {
	backends := seededBackends(t, &middleSeeded, createMiddle)
	for name, c := range backends {
		ctx := context.Background()
		q := domain.KeyQuery{Table: "Middle", PKName: "PK", PK: domain.S("p"), SKName: "SK", Reverse: true}
		headless, _, err := dynamo.DetectTimeKeys(ctx, c, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		page, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: q, KeysOnly: true})
		if err != nil || page.More() {
			t.Fatalf("%s: %v", name, err)
		}
		var all []string
		for _, it := range page.Items {
			kv, _ := dynamo.KeyValueOf(it["SK"])
			all = append(all, kv.Text)
		}
		for _, first := range []dynamo.FirstKeys{{Keys: all[:29], More: true}, {Keys: all}} {
			s, cost, err := dynamo.DetectTimeKeysFrom(ctx, c, q, nil, &first)
			want := 1
			if !first.More {
				want = 0
			}
			if err != nil || cost.Requests != want || !slices.Equal(s.Keys, headless.Keys) || s.Enc != headless.Enc || s.OK != headless.OK || s.Total != headless.Total {
				t.Fatalf("%s: from %d keys (more %v): %d requests, %d keys sampled, %q (%v); headless %d keys, %q",
					name, len(first.Keys), first.More, cost.Requests, len(s.Keys), s.Enc.Name(), err, len(headless.Keys), headless.Enc.Name())
			}
		}
	}
}
