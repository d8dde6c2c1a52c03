package dynamo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestSampledPrefixesLoseNothing (26.2): on random partitions of a few
// prefixes (times, notes, both, items at the prefix itself, a header),
// the prefixes a range is merged across, taken from the sample where it
// tells them (knownPrefixes, timeless prefixes left out), give exactly the
// items of the full read whose key is a time in the range.
func TestSampledPrefixesLoseNothing(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(26, 2))
	db := memory.New()
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "SK", Type: domain.TypeS}}
	names := []string{"ALBUM", "B", "EVT", "PHOTO", "PROFILE", "Z", "m"}
	at := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	var items []dynamo.Item
	const partitions = 60
	for p := range partitions {
		pk := &types.AttributeValueMemberS{Value: fmt.Sprint("p", p)}
		add := func(sk string) {
			items = append(items, dynamo.Item{"PK": pk, "SK": &types.AttributeValueMemberS{Value: sk}})
		}
		if r.IntN(2) == 0 {
			add("metadata")
		}
		for _, name := range names {
			switch r.IntN(4) {
			case 0: // absent
			case 1: // notes only, perhaps an item at the prefix
				if r.IntN(2) == 0 {
					add(name + "#")
				}
				for i := range r.IntN(5) + 1 {
					add(fmt.Sprintf("%s#note-%d", name, i))
				}
			default: // times, perhaps beside notes
				for range r.IntN(40) + 1 {
					add(name + "#" + at.Add(time.Duration(r.IntN(365*24))*time.Hour).Format(time.RFC3339))
				}
				if r.IntN(3) == 0 {
					add(name + "#zz-note")
				}
			}
		}
	}
	if err := demo.CreateKeyTable(ctx, db, "Random", "S", items); err != nil {
		t.Fatal(err)
	}
	rng, err := domain.ParseRange("between 2021-03 and 2021-10", at, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	checked, known, skipped, once := 0, 0, 0, 0
	for p := range partitions {
		base := domain.KeyQuery{Table: "Random", PKName: "PK", PK: domain.S(fmt.Sprint("p", p)), SKName: "SK", Reverse: true}
		s, _, err := dynamo.DetectTimeKeys(ctx, db, base, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !s.OK || !s.Enc.NeedsPrefix() {
			continue
		}
		checked++
		var want []string
		page, err := dynamo.QueryPage(ctx, db, dynamo.PageRequest{Query: base})
		if err != nil || page.More() {
			t.Fatalf("p%d: full read %v", p, err)
		}
		for _, it := range page.Items {
			kv, _ := dynamo.KeyValueOf(it["SK"])
			if tm, ok := s.Enc.KeyTime(kv.Text); ok && !tm.Before(rng.From) && !tm.After(rng.To) {
				want = append(want, kv.Text)
			}
		}
		prefixes, cost, err := dynamo.TimePrefixes(ctx, db, dynamo.ChildrenRequest{Table: "Random", Key: key, PK: base.PK}, s.Enc, s)
		if err != nil {
			t.Fatal(err)
		}
		walked, _, err := dynamo.TimePrefixes(ctx, db, dynamo.ChildrenRequest{Table: "Random", Key: key, PK: base.PK}, s.Enc, dynamo.TimeSample{Keys: s.Keys})
		if err != nil {
			t.Fatal(err)
		}
		if cost.Requests == 0 {
			known++
		}
		if len(prefixes) < len(walked) {
			skipped++
		}
		var got []string
		if len(prefixes) > 0 {
			m, err := dynamo.NewMergedRange(db, base, prefixes, rng, s.Enc, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			ranged, err := m.Take(ctx, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range ranged {
				kv, _ := dynamo.KeyValueOf(it["SK"])
				got = append(got, kv.Text)
			}
		}
		// The plan range chooses (one read of the partition where that
		// costs less) lists the same, in the same order, both ways.
		for _, reverse := range []bool{true, false} {
			b := base
			b.Reverse = reverse
			m, err := dynamo.RangeAcross(ctx, db, dynamo.ChildrenRequest{Table: "Random", Key: key, PK: base.PK}, b, rng, s.Enc, 0, nil, s)
			if err != nil {
				t.Fatal(err)
			}
			planned, err := m.Take(ctx, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			var each []dynamo.Item
			if len(prefixes) > 0 {
				old, err := dynamo.NewMergedRange(db, b, prefixes, rng, s.Enc, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				if each, err = old.Take(ctx, 1<<20); err != nil {
					t.Fatal(err)
				}
			}
			keys := func(items []dynamo.Item) []string {
				var out []string
				for _, it := range items {
					kv, _ := dynamo.KeyValueOf(it["SK"])
					out = append(out, kv.Text)
				}
				return out
			}
			if !slices.Equal(keys(planned), keys(each)) {
				t.Fatalf("p%d reverse=%v (read once: %v): the chosen plan lists\n%q\none Query a prefix\n%q", p, reverse, m.ReadOnce, keys(planned), keys(each))
			}
			if m.ReadOnce {
				once++
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("p%d: prefixes %q: the range lists %d keys, the filtered full read %d", p, prefixes, len(got), len(want))
		}
	}
	// Both ways of knowing were taken: prefixes from the sample alone,
	// and prefixes the sample read whole without a time left out.
	if checked < partitions/2 || known == 0 || skipped == 0 || once == 0 {
		t.Fatalf("%d partitions held times, %d had their prefixes from the sample, %d had a prefix left out, %d ranges were read once", checked, known, skipped, once)
	}
	t.Logf("%d partitions, %d ranges read once (of %d)", checked, once, 2*checked)
}
