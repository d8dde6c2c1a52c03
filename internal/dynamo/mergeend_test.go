package dynamo_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

var mergeEnd seededTable

// mergeEndItems is a STATE#time log over four states, 600 items 7
// minutes apart, with every tenth time written under a second state too:
// ties across prefixes, which the merge from the end must break the
// other way round.
func mergeEndItems() []dynamo.Item {
	states := []string{"ERROR", "NORMAL", "WARNING1", "WARNING2"}
	start := time.Date(2020, 4, 1, 0, 0, 0, 0, time.UTC)
	var items []dynamo.Item
	for i := range 600 {
		at := start.Add(time.Duration(i) * 7 * time.Minute).Format("2006-01-02T15:04:05")
		sts := []string{states[(i*3)%4]}
		if i%10 == 0 {
			sts = append(sts, states[(i*3+1)%4])
		}
		for _, st := range sts {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "d#1"},
				"SK": &types.AttributeValueMemberS{Value: st + "#" + at}})
		}
	}
	return items
}

// TestMergedRangeFromEnd: G on a range merged across prefixes reads the
// last screen with one reverse Query a prefix; reading on backwards until
// it meets what was read from the start gives, head then tail reversed,
// exactly the whole merged read in order (ties included), newest first
// and oldest first, on both backends.
func TestMergedRangeFromEnd(t *testing.T) {
	ctx := context.Background()
	items := mergeEndItems()
	backends := seededBackends(t, &mergeEnd, func(ctx context.Context, w dynamo.Writer) error {
		return demo.CreateKeyTable(ctx, w, "MergeEnd", "S", items)
	})
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	now := time.Date(2020, 4, 30, 0, 0, 0, 0, time.UTC)
	sk := func(it dynamo.Item) string { return it["SK"].(*types.AttributeValueMemberS).Value }
	const screen = 54
	for name, c := range backends {
		base := domain.KeyQuery{Table: "MergeEnd", PKName: "PK", PK: domain.S("d#1"), SKName: "SK", Reverse: true}
		s, _, err := dynamo.DetectTimeKeys(ctx, c, base, nil)
		if err != nil || !s.OK {
			t.Fatalf("%s: detect %+v %v", name, s, err)
		}
		prefixes, _, err := dynamo.TimePrefixes(ctx, c, dynamo.ChildrenRequest{Table: "MergeEnd", Key: key, PK: base.PK}, s.Enc, s)
		if err != nil || len(prefixes) != 4 {
			t.Fatalf("%s: prefixes %v %v", name, prefixes, err)
		}
		for _, tc := range []struct {
			newestFirst bool
			rng         string
			head        int // items read from the start before G
		}{{true, "2020-04", 100}, {false, "2020-04", 100}, {true, "< 2020-04-02T12:00", 30}, {false, ">= 2020-04-03", 0}} {
			r, err := domain.ParseRange(tc.rng, now, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			base.Reverse = tc.newestFirst
			whole, err := dynamo.NewMergedRange(c, base, prefixes, r, s.Enc, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			all, err := whole.Take(ctx, len(items)+1)
			if err != nil || len(all) < 2*screen {
				t.Fatalf("%s %q: the whole range read %d items (%v)", name, tc.rng, len(all), err)
			}
			m, _ := dynamo.NewMergedRange(c, base, prefixes, r, s.Enc, 50, nil)
			head, err := m.Take(ctx, tc.head)
			if err != nil {
				t.Fatal(err)
			}
			end := m.FromEnd(screen)
			tail, err := end.Take(ctx, screen)
			if err != nil {
				t.Fatal(err)
			}
			if end.Cost.Requests != len(prefixes) {
				t.Errorf("%s %q newest first %v: G took %d requests, want one a prefix (%d)", name, tc.rng, tc.newestFirst, end.Cost.Requests, len(prefixes))
			}
			// Backwards until the reads meet, as the gap row fills.
			met := false
			for !met {
				more, err := end.Take(ctx, screen)
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range more {
					if len(head) > 0 && sk(it) == sk(head[len(head)-1]) {
						met = true
						break
					}
					tail = append(tail, it)
				}
				if len(more) < screen {
					met = true
				}
			}
			slices.Reverse(tail)
			got := append(head, tail...)
			var g, w []string
			for _, it := range got {
				g = append(g, sk(it))
			}
			for _, it := range all {
				w = append(w, sk(it))
			}
			if strings.Join(g, " ") != strings.Join(w, " ") {
				t.Errorf("%s %q newest first %v: head and tail joined differ from the whole read:\n got %d %v\nwant %d %v", name, tc.rng, tc.newestFirst, len(g), g, len(w), w)
			}
		}
	}
}

var mergeOffsets seededTable

// TestMergedRangeKeepsTheRangeAsked: a range merged across prefixes over
// keys written in four UTC offsets (STATE#2020-04-03T10:00:00-05:00),
// read as much wider as they are apart, takes exactly the items whose
// instant is in the range asked (Keep), from the start and from the end
// (G), in pages of 7 that hold none of them, on both backends.
func TestMergedRangeKeepsTheRangeAsked(t *testing.T) {
	ctx := context.Background()
	zones := []*time.Location{time.FixedZone("", 2*3600), time.FixedZone("", -5*3600), time.FixedZone("", 5*3600+1800), time.UTC}
	start := time.Date(2020, 4, 1, 0, 0, 0, 0, time.UTC)
	var items []dynamo.Item
	at := map[string]time.Time{}
	for i := range 300 {
		tm := start.Add(time.Duration(i) * 37 * time.Minute)
		k := []string{"ERROR", "NORMAL"}[i%2] + "#" + tm.In(zones[(i/2)%4]).Format(time.RFC3339)
		at[k] = tm
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "d#1"}, "SK": &types.AttributeValueMemberS{Value: k}})
	}
	backends := seededBackends(t, &mergeOffsets, func(ctx context.Context, w dynamo.Writer) error {
		return demo.CreateKeyTable(ctx, w, "MergeOffsets", "S", items)
	})
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	sk := func(it dynamo.Item) string { return it["SK"].(*types.AttributeValueMemberS).Value }
	now := time.Date(2020, 4, 30, 0, 0, 0, 0, time.UTC)
	for name, c := range backends {
		base := domain.KeyQuery{Table: "MergeOffsets", PKName: "PK", PK: domain.S("d#1"), SKName: "SK", Reverse: true}
		s, _, err := dynamo.DetectTimeKeys(ctx, c, base, nil)
		if err != nil || !s.OK || !s.Offsets {
			t.Fatalf("%s: detect %+v %v", name, s, err)
		}
		prefixes, _, err := dynamo.TimePrefixes(ctx, c, dynamo.ChildrenRequest{Table: "MergeOffsets", Key: key, PK: base.PK}, s.Enc, s)
		if err != nil || len(prefixes) != 2 {
			t.Fatalf("%s: prefixes %v %v", name, prefixes, err)
		}
		for _, in := range []string{"2020-04-03", "< 2020-04-02T12:00", "> 2020-04-06"} {
			asked, err := domain.ParseRange(in, now, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for k, tm := range at {
				if asked.Holds(tm) {
					want = append(want, k)
				}
			}
			slices.Sort(want)
			keep := func(it dynamo.Item) bool { return asked.Holds(at[sk(it)]) }
			for _, fromEnd := range []bool{false, true} {
				m, err := dynamo.NewMergedRange(c, base, prefixes, asked.Widen(s.Spread), s.Enc, 7, nil)
				if err != nil {
					t.Fatal(err)
				}
				m.Keep = keep
				if fromEnd {
					m = m.FromEnd(7)
				}
				got, err := m.Take(ctx, len(items)+1)
				if err != nil {
					t.Fatal(err)
				}
				var g []string
				for _, it := range got {
					g = append(g, sk(it))
				}
				slices.Sort(g)
				if strings.Join(g, " ") != strings.Join(want, " ") || m.Scanned <= len(g) {
					t.Errorf("%s %q from the end %v: took %d of %d scanned, want %d:\n got %v\nwant %v", name, in, fromEnd, len(g), m.Scanned, len(want), g, want)
				}
			}
		}
	}
}
