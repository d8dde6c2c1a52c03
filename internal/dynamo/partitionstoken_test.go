package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// TestPartitionsTokenGoesOn: a listing whose next request goes through a
// resume token after every call (as partitions --resume passes it from
// one run to the next) lists what the listing kept in memory lists: the
// same partitions in the same order with the same keys, for a table and
// for indexes keyed by S, N and B, split into segments or not, on both
// backends. A token is refused on another table's listing, and cut short.
func TestPartitionsTokenGoesOn(t *testing.T) {
	wide := wideBackends(t)
	for name, c := range indexPartsBackends(t) {
		for _, sc := range segmentCases(t, c) {
			c := c
			if sc.name == "PartsWide" {
				c = wide[name]
			}
			for _, per := range []int{1, 7} {
				kept, keptOrder, _ := lazily(t, c, sc.first, per)
				var order []string
				keys := map[string]int{}
				r := &sc.first
				for calls := 0; r != nil; calls++ {
					if calls > 1000 {
						t.Fatal("the listing does not end")
					}
					res, err := dynamo.ListPartitions(context.Background(), c, *r, per)
					if err != nil {
						t.Fatal(err)
					}
					for i, p := range res.Partitions {
						order = append(order, p.Literal())
						keys[p.Literal()] = res.Keys[i]
					}
					r = nil
					if res.Next != nil {
						token := dynamo.PartitionsToken(*res.Next)
						if !dynamo.PartitionsTokenWhole(token) || dynamo.PartitionsTokenWhole(token[:len(token)-2]) {
							t.Fatalf("%s %s: the token's checksum does not hold it", name, sc.name)
						}
						next, err := dynamo.ResumePartitions(sc.first, token)
						if err != nil {
							t.Fatalf("%s %s: %v", name, sc.name, err)
						}
						r = &next
					}
				}
				if strings.Join(order, " ") != strings.Join(keptOrder, " ") || fmt.Sprint(keys) != fmt.Sprint(kept) {
					t.Errorf("%s %s (%d a call): through tokens\n%v\n%v\nkept in memory\n%v\n%v", name, sc.name, per, order, keys, keptOrder, kept)
				}
			}
		}
	}
	first := dynamo.FirstPartitions("PartsWide", wideKey)
	res, err := dynamo.ListPartitions(context.Background(), wide["memory"], first, 3)
	if err != nil || res.Next == nil {
		t.Fatalf("%v, next %v", err, res.Next)
	}
	token := dynamo.PartitionsToken(*res.Next)
	if _, err := dynamo.ResumePartitions(dynamo.FirstPartitions("Other", wideKey), token); err == nil || !strings.Contains(err.Error(), "another table") {
		t.Errorf("a token of PartsWide on Other: %v", err)
	}
	if _, err := dynamo.ResumePartitions(first, token[:len(token)/2]); err == nil {
		t.Error("a token cut in half is taken")
	}
}
