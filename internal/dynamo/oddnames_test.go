package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// The OddNames table spells its keys the way real tables do and the SDK's
// expression.Name misreads: a reserved word (Date), brackets (s[0]), a dot
// (a.b), a hash (State#Date). Its indexes reuse the table's key attributes:
// an LSI, an inverted GSI (s[0] / Date) and a GSI whose sort key is the
// table's sort key, so every keys-only projection would name an attribute
// twice if it were not de-duplicated.
const oddTable = "OddNames"

var (
	oddTableKey = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "Date", Type: "S"}, SK: &dynamo.KeyAttr{Name: "s[0]", Type: "S"}}
	oddIndexes  = map[string]dynamo.KeySchema{
		"":         oddTableKey,
		"ByState":  {PK: dynamo.KeyAttr{Name: "Date", Type: "S"}, SK: &dynamo.KeyAttr{Name: "State#Date", Type: "S"}},
		"Inverted": {PK: dynamo.KeyAttr{Name: "s[0]", Type: "S"}, SK: &dynamo.KeyAttr{Name: "Date", Type: "S"}},
		"ByStatus": {PK: dynamo.KeyAttr{Name: "Status", Type: "S"}, SK: &dynamo.KeyAttr{Name: "s[0]", Type: "S"}},
		"ByDotted": {PK: dynamo.KeyAttr{Name: "a.b", Type: "S"}, SK: &dynamo.KeyAttr{Name: "s[0]", Type: "S"}},
	}
)

func oddItems() []dynamo.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var out []dynamo.Item
	for d := 1; d <= 3; d++ {
		dev := fmt.Sprintf("dev-%d", d)
		keys := []string{"v0_Doc", "v1_Doc", "v2_Doc", "A#B#1", "A#B#2", "A#C#1", "Z"}
		for i := 0; i < 40; i++ {
			keys = append(keys, fmt.Sprintf("T#2024-01-%02dT%02d:00:00Z", 1+i%28, i%24))
		}
		for i, k := range keys {
			it := dynamo.Item{"Date": s(dev), "s[0]": s(k), "a.b": s(fmt.Sprintf("dot-%d", i%4)),
				"State#Date": s(fmt.Sprintf("%s#2024-02-%02d", []string{"WARN", "OK", "ALARM"}[i%3], 1+i%27)),
				"Status":     s([]string{"OPEN", "DONE"}[i%2]), "Body": s(strings.Repeat("x", 40*i))}
			if strings.HasPrefix(k, "v") {
				it["Body"], it["a.b"], it["State#Date"] = s("same in v0 and v2"), s("dot-v"), s("OK#2024-03-01")
				if k == "v1_Doc" {
					it["Body"] = s("older")
				}
			}
			out = append(out, it)
		}
	}
	return out
}

func createOddTable(ctx context.Context, w dynamo.Writer) error {
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	ks := func(k dynamo.KeySchema) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(k.PK.Name), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(k.SK.Name), KeyType: types.KeyTypeRange}}
	}
	gsi := func(name string, p types.ProjectionType) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: ks(oddIndexes[name]), Projection: &types.Projection{ProjectionType: p}}
	}
	_, err := w.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(oddTable),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{def("Date"), def("s[0]"), def("State#Date"), def("Status"), def("a.b")},
		KeySchema:            ks(oddTableKey),
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("ByState"), KeySchema: ks(oddIndexes["ByState"]),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{gsi("Inverted", types.ProjectionTypeKeysOnly),
			gsi("ByStatus", types.ProjectionTypeAll), gsi("ByDotted", types.ProjectionTypeKeysOnly)},
	})
	if err != nil {
		return err
	}
	if err := demo.WaitActive(ctx, w, oddTable); err != nil {
		return err
	}
	items := oddItems()
	for i := 0; i < len(items); i += 25 {
		var reqs []types.WriteRequest
		for _, it := range items[i:min(i+25, len(items))] {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		}
		if _, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{oddTable: reqs}}); err != nil {
			return err
		}
	}
	return nil
}

var oddSeeded seededTable

func oddBackends(t *testing.T) map[string]dynamo.Client {
	return seededBackends(t, &oddSeeded, createOddTable)
}

func sText(av types.AttributeValue) string {
	if v, ok := av.(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return fmt.Sprintf("<%T>", av)
}

// readAllKeys is the oracle: every item of q read whole, page by page, and
// its sort keys in order.
func readAllKeys(t *testing.T, c dynamo.Client, q domain.KeyQuery) []string {
	t.Helper()
	var keys []string
	var start dynamo.Item
	for {
		p, err := dynamo.QueryPage(context.Background(), c, dynamo.PageRequest{Query: q, Start: start, Limit: 7})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range p.Items {
			keys = append(keys, sText(it[q.SKName]))
		}
		if !p.More() {
			return keys
		}
		start = p.LastKey
	}
}

func childrenOf(keys []string, prefix, delim string) []domain.Child {
	var out []domain.Child
	idx := map[string]int{}
	for _, k := range keys {
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
	return out
}

// TestOddNamesEveryRequest runs children, items, keys-only scans, counts,
// time detection and versions on a table and indexes whose key names are
// reserved words, brackets, dots and hashes, on both backends: each equals
// what a full read computes, and both backends agree.
func TestOddNamesEveryRequest(t *testing.T) {
	ctx := context.Background()
	parts := map[string][]string{"": {"dev-1", "dev-3"}, "ByState": {"dev-2"}, "Inverted": {"A#B#1", "v0_Doc", "T#2024-01-02T01:00:00Z"},
		"ByStatus": {"OPEN", "DONE"}, "ByDotted": {"dot-1"}}
	got := map[string]string{}
	for backend, c := range oddBackends(t) {
		var b strings.Builder
		matched := map[string]int{}
		for _, ix := range []string{"", "ByState", "Inverted", "ByStatus", "ByDotted"} {
			key := oddIndexes[ix]
			var tableKeys *dynamo.KeySchema
			if ix != "" {
				tableKeys = &oddTableKey
			}
			for _, pk := range parts[ix] {
				what := fmt.Sprintf("index=%q pk=%s", ix, pk)
				where := backend + " " + what
				q := domain.KeyQuery{Table: oddTable, Index: ix, PKName: key.PK.Name, PK: domain.S(pk), SKName: key.SK.Name}
				all := readAllKeys(t, c, q)
				if len(all) == 0 {
					t.Fatalf("%s: the full read found nothing", where)
				}
				for _, prefix := range []string{"", "A#", "T#"} {
					res, err := dynamo.Children(ctx, c, dynamo.ChildrenRequest{Table: oddTable, Index: ix, Key: key, TableKeys: tableKeys,
						PK: domain.S(pk), Prefix: prefix, Delim: "#"}, nil)
					if err != nil {
						t.Fatalf("%s prefix %q: children: %v", where, prefix, err)
					}
					if want := sorted(childrenOf(all, prefix, "#")); sorted(res.Children) != want {
						t.Fatalf("%s prefix %q: children\n got %s\nwant %s", where, prefix, sorted(res.Children), want)
					}
					fmt.Fprintf(&b, "%s %q %d children %d requests %.1f RCU\n", what, prefix, len(res.Children), res.Cost.Requests, res.Cost.RCU)
					for _, ch := range res.Children {
						n, err := dynamo.CountChild(ctx, c, dynamo.ChildrenRequest{Table: oddTable, Index: ix, Key: key, PK: domain.S(pk), Prefix: prefix, Delim: "#"}, ch, nil)
						if err != nil {
							t.Fatalf("%s: count %s: %v", where, ch.Name, err)
						}
						want := 0
						for _, k := range all {
							if k == prefix+ch.Name || strings.HasPrefix(k, ch.Prefix) {
								want++
							}
						}
						if n != want {
							t.Fatalf("%s: count %s = %d, want %d", where, ch.Name, n, want)
						}
					}
				}
				// A keys-only read names each key attribute once and returns them all.
				p, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: q, KeysOnly: true, TableKeys: tableKeys, Limit: 5})
				if err != nil {
					t.Fatalf("%s: keys-only query: %v", where, err)
				}
				for _, it := range p.Items {
					for _, k := range []string{key.PK.Name, key.SK.Name, "Date", "s[0]"} {
						if _, ok := it[k]; !ok {
							t.Fatalf("%s: keys-only item %v lacks %s", where, dynamo.WireItem(it), k)
						}
					}
				}
				// A range (BETWEEN, as time ranges send) equals the full read's slice.
				rq := q
				rq.SK = domain.SKCondition{Op: domain.SKBetween, A: domain.S("A#"), B: domain.S("T#2024-01-10")}
				var want []string
				for _, k := range all {
					if k >= "A#" && k <= "T#2024-01-10" {
						want = append(want, k)
					}
				}
				if got := readAllKeys(t, c, rq); strings.Join(got, ",") != strings.Join(want, ",") {
					t.Fatalf("%s: range\n got %v\nwant %v", where, got, want)
				}
				fmt.Fprintf(&b, "%s %d keys\n", what, len(all))
				// Filters on odd names: a dot, a hash, a reserved word, and
				// brackets (the table's sort key, where it is not a key of
				// the schema read).
				for _, f := range []struct {
					attr, expr string
					keep       func(dynamo.Item) bool
				}{
					{"a.b", "`a.b` = \"dot-1\"", func(it dynamo.Item) bool { return sText(it["a.b"]) == "dot-1" }},
					{"State#Date", "begins_with(`State#Date`, \"WARN#\")", func(it dynamo.Item) bool { return strings.HasPrefix(sText(it["State#Date"]), "WARN#") }},
					{"Status", "Status = \"OPEN\"", func(it dynamo.Item) bool { return sText(it["Status"]) == "OPEN" }},
					{"s[0]", "begins_with(`s[0]`, \"A#\")", func(it dynamo.Item) bool { return strings.HasPrefix(sText(it["s[0]"]), "A#") }},
				} {
					flt, err := domain.ParseFilter(f.expr)
					if err != nil {
						t.Fatalf("%s: %v", f.expr, err)
					}
					if f.attr == key.PK.Name || f.attr == key.SK.Name {
						continue // a filter may not name a key of the schema it reads
					}
					whole, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: q})
					if err != nil {
						t.Fatal(err)
					}
					fq := q
					fq.Filter = flt
					p, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: fq})
					if err != nil {
						t.Fatalf("%s filter %s: %v", where, f.expr, err)
					}
					want := 0
					for _, it := range whole.Items {
						if f.keep(it) {
							want++
						}
					}
					matched[f.expr] += len(p.Items)
					if len(p.Items) != want {
						t.Fatalf("%s filter %s: %d items, want %d", where, f.expr, len(p.Items), want)
					}
					fmt.Fprintf(&b, "%s filter %s: %d items\n", what, f.expr, len(p.Items))
				}
			}
			s, err := dynamo.ScanKeysPage(ctx, c, dynamo.PartitionsRequest{Table: oddTable, Index: ix, Key: key, Limit: 10})
			if err != nil {
				t.Fatalf("%s index %q: keys-only scan: %v", backend, ix, err)
			}
			for _, it := range s.Items {
				if len(it) != 2 || it[key.PK.Name] == nil || it[key.SK.Name] == nil {
					t.Fatalf("%s index %q: keys-only scan returned %v", backend, ix, dynamo.WireItem(it))
				}
			}
		}
		for f, n := range matched {
			if n == 0 {
				t.Fatalf("%s: filter %s matched nothing anywhere", backend, f)
			}
		}
		sample, _, err := dynamo.DetectTimeKeys(ctx, c, domain.KeyQuery{Table: oddTable, PKName: "Date", PK: domain.S("dev-1"), SKName: "s[0]",
			SK: domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S("T#")}}, nil)
		if err != nil || !sample.OK {
			t.Fatalf("%s: time keys under s[0] not detected: %v %v", backend, sample.OK, err)
		}
		fmt.Fprintf(&b, "time %+v\n", sample.Enc)
		res, err := dynamo.Versions(ctx, c, dynamo.VersionsRequest{Table: oddTable, Key: oddTableKey, PK: domain.S("dev-2")}, nil)
		if err != nil {
			t.Fatalf("%s: versions: %v", backend, err)
		}
		if len(res.Histories) != 1 || summary(res.Histories[0]) != `Doc current=v0_Doc revisions=2 latest=v2_Doc drift=[]` {
			var all []string
			for _, h := range res.Histories {
				all = append(all, summary(h))
			}
			t.Fatalf("%s: versions under s[0]: %v", backend, all)
		}
		got[backend] = b.String()
	}
	if got["memory"] != got["dynalite"] {
		t.Fatalf("backends differ:\n--- memory\n%s\n--- dynalite\n%s", got["memory"], got["dynalite"])
	}
}
