package dynamo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
)

// TestChildrenSample: the walk keeps the keys it read, the first of each
// child (of each run of keys of one child), up to dynamo.SampleKeys, at no extra request: what Time and
// Versions decide from on the explorer's tabs. Same answers on both
// backends.
func TestChildrenSample(t *testing.T) {
	cases := []struct {
		prefix string
		want   []string // the sample's start
		n      int
	}{
		{"NY#", []string{"NY#NEWYORKCITY#10001"}, 1},
		{"", []string{"A#", "DEEP#a#0000#x", "GU#HAGATNA#"}, 14},
		{"WIDE#", []string{"WIDE#00000", "WIDE#00001", "WIDE#00002"}, dynamo.SampleKeys},
		{"DEEP#", []string{"DEEP#a#0000#x", "DEEP#b#0001#x", "DEEP#c#0002#x"}, 3},
	}
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "SK", Type: domain.TypeS}}
	for name, c := range hierBackends(t) {
		for _, tc := range cases {
			r := dynamo.ChildrenRequest{Table: "Hier", Key: key, PK: domain.S("H"), Prefix: tc.prefix, Delim: "#"}
			res, err := dynamo.Children(context.Background(), c, r, nil)
			if err != nil {
				t.Fatalf("%s %q: %v", name, tc.prefix, err)
			}
			if len(res.Sample) != tc.n || strings.Join(res.Sample[:len(tc.want)], " ") != strings.Join(tc.want, " ") {
				t.Fatalf("%s %q: sample %q, want %d keys starting %q", name, tc.prefix, res.Sample, tc.n, tc.want)
			}
			last := "\x00"
			for _, k := range res.Sample {
				child, _, _ := domain.ChildOf(tc.prefix, k, "#")
				if !strings.HasPrefix(k, tc.prefix) || child == last {
					t.Fatalf("%s %q: %q is not the first key of a child in %q", name, tc.prefix, k, res.Sample)
				}
				last = child
			}
		}
	}
}
