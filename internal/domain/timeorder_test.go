package domain

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestTimeOrderOfKeysInSeveralOffsets: ISO keys in four UTC offsets, read
// in key order either way, come out in time order, holding no more than
// the keys within the offsets' spread of the one read last.
func TestTimeOrderOfKeysInSeveralOffsets(t *testing.T) {
	zones := []*time.Location{time.FixedZone("", 2*3600), time.FixedZone("", -5*3600), time.FixedZone("", 5*3600+1800), time.UTC}
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC)
	var keys []string
	for i := range 2000 {
		at := base.Add(time.Duration(i) * 17 * time.Minute)
		keys = append(keys, at.In(zones[rng.IntN(len(zones))]).Format("2006-01-02T15:04:05Z07:00"))
	}
	instant := func(k string) time.Time {
		at, err := time.Parse(time.RFC3339, k)
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	spread := 10*time.Hour + 30*time.Minute
	for _, newest := range []bool{true, false} {
		read := slices.Clone(keys)
		slices.Sort(read)
		if newest {
			slices.Reverse(read)
		}
		o := TimeOrder[string]{Newest: newest, Spread: spread}
		var got []string
		for _, k := range read {
			got = append(got, o.Push(instant(k), k)...)
		}
		got = append(got, o.Flush()...)
		if len(got) != len(keys) {
			t.Fatalf("newest %v: %d of %d keys out", newest, len(got), len(keys))
		}
		if !slices.IsSortedFunc(got, func(a, b string) int {
			c := instant(a).Compare(instant(b))
			if newest {
				return -c
			}
			return c
		}) {
			t.Errorf("newest %v: not in time order", newest)
		}
		if slices.Equal(got, read) {
			t.Errorf("newest %v: key order is time order here: the case tests nothing", newest)
		}
		// A key 17 minutes from the next: the spread, a second and the
		// key read are at most 39 keys.
		if o.MaxHeld > 39 || o.MaxHeld < 2 {
			t.Errorf("newest %v: held %d at most, want 2..39", newest, o.MaxHeld)
		}
	}
}
