package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

var noDelimBin, noDelimText seededTable

// TestChildrenNoDelimiter: where no delimiter repeats in the first keys
// read, the walk says so (NoDelim, Delim "") and lists every key whole, a
// leaf: binary keys are never split at a byte 0x23, and text keys after
// the first page are not split at a '#' the first page did not have
// (25.20). Asked for none, it splits nothing either. Both backends.
func TestChildrenNoDelimiter(t *testing.T) {
	bin := []string{"\x01\x02", "\x05#\x00", "\x07\x08", "\x09\xff", "\x0a#", "\x0b\x00\x01"}
	var text []string
	for i := 0; i < 12; i++ {
		text = append(text, fmt.Sprintf("doc%02d", i)) // the first page: no delimiter
	}
	text = append(text, "z#1", "z#2", "zz#1")
	binKey := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "B"}}
	textKey := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	seed := func(table, typ string, keys []string) func(context.Context, dynamo.Writer) error {
		return func(ctx context.Context, w dynamo.Writer) error {
			var items []dynamo.Item
			for _, k := range keys {
				var sk types.AttributeValue = &types.AttributeValueMemberS{Value: k}
				if typ == "B" {
					sk = &types.AttributeValueMemberB{Value: []byte(k)}
				}
				items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": sk})
			}
			return demo.CreateKeyTable(ctx, w, table, types.ScalarAttributeType(typ), items)
		}
	}
	binBackends := seededBackends(t, &noDelimBin, seed("NoDelimBin", "B", bin))
	textBackends := seededBackends(t, &noDelimText, seed("NoDelimText", "S", text))
	cases := []struct {
		name    string
		backend map[string]dynamo.Client
		r       dynamo.ChildrenRequest
		want    []string
	}{
		{"binary, detected", binBackends, dynamo.ChildrenRequest{Table: "NoDelimBin", Key: binKey, PK: domain.S("p")}, bin},
		{"text, detected", textBackends, dynamo.ChildrenRequest{Table: "NoDelimText", Key: textKey, PK: domain.S("p")}, text},
		{"text, asked for none", textBackends, dynamo.ChildrenRequest{Table: "NoDelimText", Key: textKey, PK: domain.S("p"), NoDelim: true}, text},
		{"text under z, none", textBackends, dynamo.ChildrenRequest{Table: "NoDelimText", Key: textKey, PK: domain.S("p"), Prefix: "z", NoDelim: true}, []string{"z#1", "z#2", "zz#1"}},
	}
	for _, tc := range cases {
		for name, c := range tc.backend {
			for _, parallel := range []int{1, 0} {
				r := tc.r
				r.Parallel = parallel
				res, err := dynamo.Children(context.Background(), c, r, nil)
				if err != nil {
					t.Fatalf("%s on %s: %v", tc.name, name, err)
				}
				if res.Delim != "" || !res.NoDelim {
					t.Errorf("%s on %s: delimiter %q, none %v; want none", tc.name, name, res.Delim, res.NoDelim)
				}
				var got []string
				for _, ch := range res.Children {
					if !ch.IsItem || ch.HasChildren {
						t.Errorf("%s on %s: %+v is not a leaf", tc.name, name, ch)
					}
					got = append(got, r.Prefix+ch.Name)
				}
				if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tc.want) {
					t.Errorf("%s on %s (parallel %d): children\n%q\nwant every key whole\n%q", tc.name, name, parallel, got, tc.want)
				}
			}
		}
	}
	// An empty level tells nothing: no delimiter detected, and none
	// decided either (a later read detects again).
	for name, c := range textBackends {
		res, err := dynamo.Children(context.Background(), c, dynamo.ChildrenRequest{Table: "NoDelimText", Key: textKey, PK: domain.S("p"), Prefix: "q"}, nil)
		if err != nil || len(res.Children) != 0 || res.Delim != "" || res.NoDelim {
			t.Errorf("empty level on %s: %+v, %v", name, res, err)
		}
	}
}

var tableDelim seededTable

// TestDelimiterBelongsToTheTable: a partition whose own keys tell no
// delimiter (one key, STORE#1) is cut by the table's ('#', from a sample
// of its keys, or as the caller knows it, with no read), by the walk and
// by the one-pass count alike; shards of one room are all cut when the
// first holds one key; keys that hold no delimiter stay whole.
func TestDelimiterBelongsToTheTable(t *testing.T) {
	parts := map[string][]string{
		"many": {"A#1", "A#2", "B#1", "C#1"}, "one": {"STORE#1"}, "plain": {"alpha", "beta"},
		"room-1": {"x#1"}, "room-2": {"x#2", "y#1"}, "room-3": {"y#2", "z#1", "z#2"},
	}
	backends := seededBackends(t, &tableDelim, partitionsTable("TableDelim", parts))
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	ctx := context.Background()
	names := func(cs []domain.Child) string {
		var out []string
		for _, c := range cs {
			out = append(out, fmt.Sprintf("%s/%v/%v", c.Name, c.IsItem, c.HasChildren))
		}
		return strings.Join(out, " ")
	}
	for name, c := range backends {
		for _, tc := range []struct{ pk, tableDelim, delim, want string }{
			{"one", "", "#", "STORE/false/true"},
			{"one", "#", "#", "STORE/false/true"},
			{"plain", "", "", "alpha/true/false beta/true/false"},
		} {
			r := dynamo.ChildrenRequest{Table: "TableDelim", Key: key, PK: domain.S(tc.pk), TableDelim: tc.tableDelim}
			b := &billed{Client: c}
			res, err := dynamo.Children(ctx, b, r, nil)
			if err != nil || res.Delim != tc.delim || names(res.Children) != tc.want || res.NoDelim != (tc.delim == "") {
				t.Errorf("%s %s (table's %q): delim %q, %s, %v", name, tc.pk, tc.tableDelim, res.Delim, names(res.Children), err)
			}
			if tc.tableDelim != "" && b.requests != 1 {
				t.Errorf("%s %s: the table's delimiter, known, took %d requests", name, tc.pk, b.requests)
			}
			pass := dynamo.NewCountPass(r)
			if _, err := pass.Run(ctx, c, 0, 0, nil); err != nil {
				t.Fatal(err)
			}
			if got := pass.Result(); got.Delim != tc.delim || names(got.Children) != tc.want {
				t.Errorf("%s %s (table's %q): the count's delim %q, %s", name, tc.pk, tc.tableDelim, got.Delim, names(got.Children))
			}
			if n, exact := pass.Count(res.Children[0].Name); n != 1 || !exact {
				t.Errorf("%s %s: the count of %s: %d, exact %v", name, tc.pk, res.Children[0].Name, n, exact)
			}
		}
		shards := []domain.KeyValue{domain.S("room-1"), domain.S("room-2"), domain.S("room-3")}
		merged, res, err := dynamo.ShardedChildren(ctx, c, dynamo.ChildrenRequest{Table: "TableDelim", Key: key}, shards, nil)
		var got []domain.Child
		for _, m := range merged {
			got = append(got, m.Child)
		}
		if err != nil || res.Delim != "#" || names(got) != "x/false/true y/false/true z/false/true" {
			t.Errorf("%s: the room's shards: delim %q, %s, %v", name, res.Delim, names(got), err)
		}
	}
}
