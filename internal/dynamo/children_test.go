package dynamo_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// hierTable is a table of edge cases for the drill-down.
func hierItems() []dynamo.Item {
	var keys []string
	keys = append(keys, "NE#OMAHA#68118", "NY", "NY#NEWYORKCITY#10001", "NY#NEWYORKCITY#10019", "NY!", "NYC#X",
		"A##B", "A#", "A#C", "GU#HAGATNA#", "ÎLE-DE-FRANCE#PARIS#75001", "ZÜRICH#Zürich#8001", "Z#", "~",
		strings.Repeat("L", 500)+"#"+strings.Repeat("M", 500)+"#end")
	for i := 0; i < 10500; i++ { // one level with 10,500 children
		keys = append(keys, fmt.Sprintf("WIDE#%05d", i))
	}
	for i := 0; i < 3000; i++ { // a few children with deep subtrees
		keys = append(keys, fmt.Sprintf("DEEP#%c#%04d#x", 'a'+i%3, i))
	}
	var out []dynamo.Item
	for _, k := range keys {
		out = append(out, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "H"}, "SK": &types.AttributeValueMemberS{Value: k}})
	}
	return out
}

var hierSeeded seededTable

func hierBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	return seededBackends(t, &hierSeeded, func(ctx context.Context, w dynamo.Writer) error {
		return demo.CreateKeyTable(ctx, w, "Hier", "S", hierItems())
	})
}

// plainPages is how many requests a plain paged query of the subtree under
// prefix takes.
// requestBound is what Children may spend: no more than a plain read plus
// its probe, or, where children each outlast the probe, one read per child,
// the final read past the last, and a re-probe every 16 jumps.
func requestBound(plain, children int) int {
	return max(plain+1, children+1+(children+15)/16)
}

func plainPages(t *testing.T, c dynamo.Client, table string, pk domain.KeyValue, prefix string) int {
	t.Helper()
	q := domain.KeyQuery{Table: table, PKName: "PK", PK: pk, SKName: "SK"}
	if prefix != "" {
		q.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S(prefix)}
	}
	n := 0
	var start dynamo.Item
	for {
		p, err := dynamo.QueryPage(context.Background(), c, dynamo.PageRequest{Query: q, Start: start})
		if err != nil {
			t.Fatal(err)
		}
		n++
		if !p.More() {
			return n
		}
		start = p.LastKey
	}
}

// fullRead is the oracle: every key of the partition read, children collected.
func fullRead(t *testing.T, c dynamo.Client, table, pkName string, pk domain.KeyValue, prefix, delim string) []domain.Child {
	return fullReadSK(t, c, table, pkName, "SK", pk, prefix, delim)
}

func fullReadSK(t *testing.T, c dynamo.Client, table, pkName, skName string, pk domain.KeyValue, prefix, delim string) []domain.Child {
	t.Helper()
	var out []domain.Child
	idx := map[string]int{}
	var start dynamo.Item
	for {
		p, err := dynamo.QueryPage(context.Background(), c, dynamo.PageRequest{Query: domain.KeyQuery{Table: table, PKName: pkName, PK: pk, SKName: skName}, Start: start})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range p.Items {
			k := it[skName].(*types.AttributeValueMemberS).Value
			name, leaf, ok := domain.ChildOf(prefix, k, delim)
			if !ok {
				continue
			}
			i, seen := idx[name]
			if !seen {
				i = len(out)
				idx[name] = i
				out = append(out, domain.Child{Name: name, Prefix: prefix + name + delim})
			}
			if leaf {
				out[i].IsItem = true
			} else {
				out[i].HasChildren = true
			}
		}
		if !p.More() {
			return out
		}
		start = p.LastKey
	}
}

// listed is children as a walk lists them, in its order (Flat, a hint
// from the keys each walk happened to read, left out).
func listed(cs []domain.Child) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%q/%q/%v/%v", c.Name, c.Prefix, c.IsItem, c.HasChildren))
	}
	return strings.Join(parts, " ")
}

func sorted(cs []domain.Child) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%q/%v/%v", c.Name, c.IsItem, c.HasChildren))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// bothWalks walks r one read after another and with reads in parallel,
// requires the same children in the same order from both, and the
// parallel walk's RCU within 10% (and one probe) of the sequential's.
func bothWalks(t *testing.T, c dynamo.Client, r dynamo.ChildrenRequest) (dynamo.ChildrenResult, dynamo.Cost, dynamo.Cost) {
	t.Helper()
	walk := func(parallel int) (dynamo.ChildrenResult, dynamo.Cost) {
		m := dynamo.NewMetered(c)
		r.Parallel = parallel
		res, err := dynamo.Children(context.Background(), m, r, nil)
		if err != nil {
			t.Fatalf("%q (parallel %d): %v", r.Prefix, parallel, err)
		}
		total, _ := m.Session.Totals()
		return res, total
	}
	seq, seqCost := walk(1)
	par, parCost := walk(0)
	if listed(seq.Children) != listed(par.Children) || seq.SelfItem != par.SelfItem {
		t.Fatalf("%q: parallel walk found\n%v\nsequential\n%v", r.Prefix, par.Children, seq.Children)
	}
	// Reads out at once may find nothing (a guess past the last child, a
	// stretch of a cut level with no child of its own): each costs a
	// read unit, and no more.
	if parCost.RCU > seqCost.RCU*1.1+0.5+0.5*float64(par.Wasted) {
		t.Errorf("%q: parallel walk spent %.1f RCU (%d reads unused), sequential %.1f", r.Prefix, parCost.RCU, par.Wasted, seqCost.RCU)
	}
	return seq, seqCost, parCost
}

func TestChildrenEdgeCasesBothBackends(t *testing.T) {
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	prefixes := []string{"", "NY#", "NY#NEWYORKCITY#", "A#", "GU#", "GU#HAGATNA#", "ÎLE-DE-FRANCE#", "WIDE#", "DEEP#", "DEEP#b#",
		strings.Repeat("L", 500) + "#", "Z#", "NOPE#"}
	results := map[string]string{}
	for name, c := range hierBackends(t) {
		var b strings.Builder
		for _, p := range prefixes {
			r := dynamo.ChildrenRequest{Table: "Hier", Key: key, PK: domain.S("H"), Prefix: p, Delim: "#"}
			res, total, par := bothWalks(t, c, r)
			want := fullRead(t, c, "Hier", "PK", domain.S("H"), p, "#")
			if sorted(res.Children) != sorted(want) {
				t.Fatalf("%s prefix %q:\n got %s\nwant %s", name, p, sorted(res.Children), sorted(want))
			}
			if plain := plainPages(t, c, "Hier", domain.S("H"), p); total.Requests > requestBound(plain, len(res.Children)) {
				t.Errorf("%s %q: %d requests for %d children, a plain query takes %d", name, p, total.Requests, len(res.Children), plain)
			}
			fmt.Fprintf(&b, "%q: %d children, self=%v, %d req, %.1f RCU; parallel %d req, %.1f RCU\n", p, len(res.Children), res.SelfItem, total.Requests, total.RCU, par.Requests, par.RCU)
		}
		results[name] = b.String()
	}
	if results["memory"] != results["dynalite"] {
		t.Fatalf("backends differ:\n--- memory\n%s--- dynalite\n%s", results["memory"], results["dynalite"])
	}
	t.Logf("\n%s", results["dynalite"])
}

func TestChildrenDetectsDelimiterAndRejectsNumbers(t *testing.T) {
	ctx := context.Background()
	db, err := demo.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	info, _, err := dynamo.DescribeTable(ctx, db, "ChatMessages")
	if err != nil {
		t.Fatal(err)
	}
	res, err := dynamo.Children(ctx, db, dynamo.ChildrenRequest{Table: "ChatMessages", Key: info.Key, PK: domain.S("portland")}, nil)
	if err != nil || res.Delim != "#" || len(res.Children) == 0 {
		t.Fatalf("chat: delim %q, %d children, %v", res.Delim, len(res.Children), err)
	}
	logs, _, _ := dynamo.DescribeTable(ctx, db, "DeviceLogs")
	_, err = dynamo.Children(ctx, db, dynamo.ChildrenRequest{Table: "DeviceLogs", Key: logs.Key, PK: domain.N("123")}, nil)
	if dynamo.KindOf(err) != dynamo.KindValidation || !strings.Contains(err.Error(), "no hierarchy") {
		t.Fatalf("number sort key: %v", err)
	}
}

// TestChildrenDemoHierarchies: every prefix of the demo's Locations and the
// first levels of Geography give what a full read gives.
func TestChildrenDemoHierarchies(t *testing.T) {
	ctx := context.Background()
	db, err := demo.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		table, pk string
		depth     int
	}{{"Locations", "USA", 3}, {"Locations", "FRANCE", 3}, {"Locations", "SWITZERLAND", 3}, {"Geography", demo.GeographyPartition, 2}} {
		info, _, _ := dynamo.DescribeTable(ctx, db, tc.table)
		var visit func(prefix string, depth int)
		n, over := 0, 0
		visit = func(prefix string, depth int) {
			res, total, _ := bothWalks(t, db, dynamo.ChildrenRequest{Table: tc.table, Key: info.Key, PK: domain.S(tc.pk), Prefix: prefix, Delim: "#"})
			n++
			plain := plainPages(t, db, tc.table, domain.S(tc.pk), prefix)
			if total.Requests > requestBound(plain, len(res.Children)) {
				t.Errorf("%s/%s %q: %d requests for %d children, a plain query takes %d", tc.table, tc.pk, prefix, total.Requests, len(res.Children), plain)
			}
			if total.Requests > plain+1 {
				over++
			}
			if want := fullRead(t, db, tc.table, "PK", domain.S(tc.pk), prefix, "#"); sorted(res.Children) != sorted(want) {
				t.Fatalf("%s/%s %q:\n got %s\nwant %s", tc.table, tc.pk, prefix, sorted(res.Children), sorted(want))
			}
			if depth == 0 {
				return
			}
			for _, c := range res.Children {
				if c.HasChildren {
					visit(c.Prefix, depth-1)
				}
			}
		}
		visit("", tc.depth)
		t.Logf("%s/%s: %d prefixes match the full read; %d took more requests than a plain read plus a probe", tc.table, tc.pk, n, over)
	}
}

func TestShardedChildren(t *testing.T) {
	ctx := context.Background()
	db, err := demo.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	info, _, _ := dynamo.DescribeTable(ctx, db, "ChatMessages")
	names, err := domain.ExpandPartitions("seattle-{1..4}")
	if err != nil {
		t.Fatal(err)
	}
	var shards []domain.KeyValue
	for _, n := range names {
		shards = append(shards, domain.S(n))
	}
	merged, res, err := dynamo.ShardedChildren(ctx, db, dynamo.ChildrenRequest{Table: "ChatMessages", Key: info.Key}, shards, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Every user posts in every shard: the merge lists each user once,
	// with the four shards.
	want := map[string]bool{}
	for _, pk := range shards {
		for _, c := range fullReadSK(t, db, "ChatMessages", "ChatRoomID", "MessageID", pk, "", "#") {
			want[c.Name] = true
		}
	}
	if len(merged) != len(want) || res.Delim != "#" {
		t.Fatalf("merged %d children (%q), want %d", len(merged), res.Delim, len(want))
	}
	for i, c := range merged {
		if !want[c.Name] || len(c.Shards) != 4 || (i > 0 && merged[i-1].Name+"#" >= c.Name+"#") {
			t.Fatalf("child %d: %+v", i, c)
		}
	}
}

var keyOrderSeeded seededTable

// TestChildrenInKeyOrder: the walk, a counting pass and a merge of shards
// list children in the order of their keys, as a full read meets them,
// where a name holds a character that sorts before the delimiter (a b#…,
// a!#… and a"x#… come before a#…): the count and the merge sorted by
// name alone, so children --count listed a, a b, a! where children
// listed a b, a!, a.
func TestChildrenInKeyOrder(t *testing.T) {
	var items []dynamo.Item
	for _, pk := range []string{"K-1", "K-2"} {
		for _, sk := range []string{"a#1", "a#2", "a b#1", "a!#1", "a\"x#1", "a\x01#1", "b#1", "b", "b c"} {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}})
		}
	}
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	ctx := context.Background()
	for name, c := range seededBackends(t, &keyOrderSeeded, func(ctx context.Context, w dynamo.Writer) error {
		return demo.CreateKeyTable(ctx, w, "KeyOrder", "S", items)
	}) {
		want := listed(fullRead(t, c, "KeyOrder", "PK", domain.S("K-1"), "", "#"))
		r := dynamo.ChildrenRequest{Table: "KeyOrder", Key: key, PK: domain.S("K-1"), Delim: "#"}
		walk, err := dynamo.Children(ctx, c, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		pass := dynamo.NewCountPass(r)
		if _, err := pass.Run(ctx, c, 0, 0, nil); err != nil {
			t.Fatal(err)
		}
		merged, _, err := dynamo.ShardedChildren(ctx, c, r, []domain.KeyValue{domain.S("K-1"), domain.S("K-2")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var shards []domain.Child
		for _, m := range merged {
			shards = append(shards, m.Child)
		}
		for what, got := range map[string][]domain.Child{"walk": walk.Children, "count": pass.Result().Children, "shards": shards} {
			if g := listed(got); g != want {
				t.Errorf("%s %s:\n got %s\nwant %s", name, what, g, want)
			}
		}
	}
}

// TestBeforeKey: the bound a stretch ending at the level's last key (read
// already) stops at is below that key, above every other key (a sort key
// holds at most 1,024 bytes; a string's are UTF-8), and itself a key.
func TestBeforeKey(t *testing.T) {
	for _, tc := range []struct {
		k      string
		binary bool
		below  []string // keys below k, each at most the bound
	}{
		{"sJ6J7eHWFP|v|10", false, []string{"sJ6J7eHWFP|v|1", "sJ6J7eHWFP|v|0\U0010FFFF", "sJ6J7eHWFP|v|0zzzz"}},
		{"a\u0000", false, []string{"a"}},
		{"\ue000", false, []string{"\ud7ff\U0010FFFF"}},
		{"東京#01", false, []string{"東京#0", "東京#00", "東京#00\U0010FFFF\U0010FFFF"}},
		{"\x01\xfe\x00", true, []string{"\x01\xfe", "\x01\xfd\xff\xff"}},
		{"\x01\x23\x07", true, []string{"\x01\x23\x06\xff\xff\xff"}},
	} {
		got, ok := dynamo.BeforeKey(tc.k, tc.binary)
		if !ok || got >= tc.k || len(got) > dynamo.MaxSKValueBytes || (!tc.binary && !utf8.ValidString(got)) {
			t.Errorf("%q: %q (%d bytes), %v", tc.k, got, len(got), ok)
			continue
		}
		for _, b := range tc.below {
			if b >= tc.k {
				t.Fatalf("%q is not below %q", b, tc.k)
			}
			if b > got {
				t.Errorf("%q: %q lies between the bound and the key", tc.k, b)
			}
		}
	}
}

var otherDelimSeeded seededTable

// TestChildrenOtherDelimiters: keys cut by a mark outside domain.Delimiters
// (§, →) or by a pair (::) are walked at it, detected from the keys or
// asked for, and the walk lists what a full read lists, at the top level
// and below it. Detected, a multi-byte mark was no delimiter (every key a
// leaf) and :: was two with an empty level between. Both backends.
func TestChildrenOtherDelimiters(t *testing.T) {
	parts := map[string][]string{
		"sect":   {"Alpha§x§1", "Alpha§x§2", "Alpha§y§1", "Alpha§", "Beta§z§1", "Beta§§2"},
		"arrow":  {"root→m→i", "root→m→j", "root→n→i", "home→n→k", "home"},
		"dcolon": {"Mod::A::f", "Mod::A::g", "Mod::B::h", "Pkg::A::f", "Pkg::C"},
	}
	backends := seededBackends(t, &otherDelimSeeded, partitionsTable("OtherDelims", parts))
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	for _, tc := range []struct{ pk, delim, below string }{
		{"sect", "§", "Alpha§"},
		{"arrow", "→", "root→"},
		{"dcolon", "::", "Mod::"},
	} {
		for name, c := range backends {
			for _, asked := range []string{"", tc.delim} {
				for _, prefix := range []string{"", tc.below} {
					r := dynamo.ChildrenRequest{Table: "OtherDelims", Key: key, PK: domain.S(tc.pk), Prefix: prefix, Delim: asked}
					if prefix != "" && asked == "" {
						continue // below the top level the caller names the delimiter it drilled by
					}
					res, err := dynamo.Children(context.Background(), c, r, nil)
					if err != nil {
						t.Fatalf("%s on %s: %v", tc.pk, name, err)
					}
					if res.Delim != tc.delim {
						t.Errorf("%s on %s (asked %q): delimiter %q, want %q", tc.pk, name, asked, res.Delim, tc.delim)
					}
					want := fullReadSK(t, c, "OtherDelims", "PK", "SK", domain.S(tc.pk), prefix, tc.delim)
					for i := range res.Children {
						res.Children[i].Flat = false // a hint of how to read the level below, no fact of this one
					}
					if fmt.Sprintf("%+v", res.Children) != fmt.Sprintf("%+v", want) {
						t.Errorf("%s on %s (asked %q) under %q:\n got %+v\nwant %+v", tc.pk, name, asked, prefix, res.Children, want)
					}
				}
			}
		}
	}
}
