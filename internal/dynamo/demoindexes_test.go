package dynamo_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// indexedDemoTables are the demo tables that have indexes, whatever the
// demo holds when the test runs.
func indexedDemoTables() []string {
	var out []string
	for _, def := range demo.Tables() {
		if len(def.GlobalSecondaryIndexes)+len(def.LocalSecondaryIndexes) > 0 {
			out = append(out, aws.ToString(def.TableName))
		}
	}
	return out
}

var indexedSeeded seededTable

func indexedBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	opts := demo.Options{Tables: indexedDemoTables()}
	return seededBackends(t, &indexedSeeded, func(ctx context.Context, w dynamo.Writer) error {
		_, err := demo.Seed(ctx, w, opts)
		return err
	})
}

// keyText is a key value as comparable text.
func keyText(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberB:
		return string(v.Value)
	}
	return fmt.Sprintf("<%T>", av)
}

// readKeys pages q to the end (whole items, Limit per page) and returns its
// sort keys in order, and what it cost.
func readKeys(t *testing.T, c dynamo.Client, q domain.KeyQuery, limit int32) ([]string, dynamo.Cost) {
	t.Helper()
	var keys []string
	var cost dynamo.Cost
	var start dynamo.Item
	for {
		p, err := dynamo.QueryPage(context.Background(), c, dynamo.PageRequest{Query: q, Start: start, Limit: limit})
		cost = cost.Add(p.Cost)
		if err != nil {
			t.Fatalf("%s index %q: %v", q.Table, q.Index, err)
		}
		for _, it := range p.Items {
			keys = append(keys, keyText(it[q.SKName]))
		}
		if !p.More() {
			return keys, cost
		}
		start = p.LastKey
	}
}

// partitionsOf lists the distinct partition values a keys-only scan of the
// table or index finds, paged as the partitions screen pages it.
func partitionsOf(t *testing.T, c dynamo.Client, table, index string, key dynamo.KeySchema) ([]types.AttributeValue, int) {
	t.Helper()
	seen := map[string]bool{}
	var out []types.AttributeValue
	var start dynamo.Item
	n := 0
	for {
		p, err := dynamo.ScanKeysPage(context.Background(), c, dynamo.PartitionsRequest{Table: table, Index: index, Key: key, Start: start, Limit: 100})
		if err != nil {
			t.Fatalf("%s index %q: keys-only scan: %v", table, index, err)
		}
		for _, it := range p.Items {
			n++
			if len(it) != 1+btoi(key.SK != nil) {
				t.Fatalf("%s index %q: keys-only scan returned %v", table, index, dynamo.WireItem(it))
			}
			pk := it[key.PK.Name]
			if id := dynamo.TypeOf(pk) + keyText(pk); !seen[id] {
				seen[id] = true
				out = append(out, pk)
			}
		}
		if !p.More() {
			return out, n
		}
		start = p.LastKey
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestDemoIndexesEqualFullRead: on every index of every demo table (and
// the table itself), the partitions list, each partition's pages forwards
// and backwards, the drill-down's children and BETWEEN / begins_with ranges
// equal what a full read computes, on dynalite and on the embedded
// backend, at the same cost.
func TestDemoIndexesEqualFullRead(t *testing.T) {
	ctx := context.Background()
	tables := indexedDemoTables()
	if len(tables) == 0 {
		t.Fatal("no demo table has an index")
	}
	got := map[string]string{}
	for backend, c := range indexedBackends(t) {
		var b strings.Builder
		for _, table := range tables {
			info, _, err := dynamo.DescribeTable(ctx, c, table)
			if err != nil {
				t.Fatal(err)
			}
			schemas := []dynamo.Index{{Name: "", Key: info.Key}}
			schemas = append(schemas, info.Indexes...)
			for _, ix := range schemas {
				where := fmt.Sprintf("%s %s index %q", backend, table, ix.Name)
				var tableKeys *dynamo.KeySchema
				if ix.Name != "" {
					tableKeys = &info.Key
				}
				parts, scanned := partitionsOf(t, c, table, ix.Name, ix.Key)
				fmt.Fprintf(&b, "%s index %q: %d partitions from %d keys\n", table, ix.Name, len(parts), scanned)
				sort.Slice(parts, func(i, j int) bool { return keyText(parts[i]) < keyText(parts[j]) })
				if len(parts) > 4 { // the first two and the last two
					parts = append(parts[:2:2], parts[len(parts)-2:]...)
				}
				for _, pkv := range parts {
					pk, _ := dynamo.KeyValueOf(pkv)
					q := domain.KeyQuery{Table: table, Index: ix.Name, PKName: ix.Key.PK.Name, PK: pk}
					if ix.Key.SK == nil {
						continue
					}
					q.SKName = ix.Key.SK.Name
					all, fullCost := readKeys(t, c, q, 0)
					// Items: small pages forwards and backwards.
					paged, _ := readKeys(t, c, q, 7)
					if strings.Join(paged, "\x00") != strings.Join(all, "\x00") {
						t.Fatalf("%s pk %s: pages of 7 differ from the full read", where, keyText(pkv))
					}
					rq := q
					rq.Reverse = true
					back, _ := readKeys(t, c, rq, 5)
					for i, j := 0, len(back)-1; i < j; i, j = i+1, j-1 {
						back[i], back[j] = back[j], back[i]
					}
					if len(back) != len(all) {
						t.Fatalf("%s pk %s: %d keys backwards, %d forwards", where, keyText(pkv), len(back), len(all))
					}
					// Ranges: BETWEEN two held keys is the slice between them.
					lo, hi := len(all)/4, len(all)*3/4
					first := lo
					for first > 0 && all[first-1] == all[lo] {
						first--
					}
					last := hi
					for last+1 < len(all) && all[last+1] == all[hi] {
						last++
					}
					bq := q
					bq.SK = domain.SKCondition{Op: domain.SKBetween, A: skOf(ix.Key.SK.Type, all[lo]), B: skOf(ix.Key.SK.Type, all[hi])}
					if between, _ := readKeys(t, c, bq, 0); strings.Join(between, "\x00") != strings.Join(all[first:last+1], "\x00") {
						t.Fatalf("%s pk %s: BETWEEN %q AND %q gave %d keys, the full read %d", where, keyText(pkv), all[lo], all[hi], len(between), last+1-first)
					}
					fmt.Fprintf(&b, "  %s: %d keys, %d requests %.1f RCU\n", keyText(pkv), len(all), fullCost.Requests, fullCost.RCU)
					if ix.Key.SK.Type == domain.TypeN {
						continue // numbers have no hierarchy
					}
					// Children, top level and one level down, and begins_with.
					res, err := dynamo.Children(ctx, c, dynamo.ChildrenRequest{Table: table, Index: ix.Name, Key: ix.Key, TableKeys: tableKeys, PK: pk}, nil)
					if err != nil {
						t.Fatalf("%s pk %s: children: %v", where, keyText(pkv), err)
					}
					if want := sorted(childrenOf(all, "", res.Delim)); sorted(res.Children) != want {
						t.Fatalf("%s pk %s: children\n got %s\nwant %s", where, keyText(pkv), sorted(res.Children), want)
					}
					fmt.Fprintf(&b, "    %d children (%q) in %d requests %.1f RCU\n", len(res.Children), res.Delim, res.Cost.Requests, res.Cost.RCU)
					for _, ch := range res.Children[:min(len(res.Children), 2)] {
						if !ch.HasChildren {
							continue
						}
						sub, err := dynamo.Children(ctx, c, dynamo.ChildrenRequest{Table: table, Index: ix.Name, Key: ix.Key, TableKeys: tableKeys, PK: pk,
							Prefix: ch.Prefix, Delim: res.Delim}, nil)
						if err != nil {
							t.Fatalf("%s pk %s prefix %q: children: %v", where, keyText(pkv), ch.Prefix, err)
						}
						if want := sorted(childrenOf(all, ch.Prefix, res.Delim)); sorted(sub.Children) != want {
							t.Fatalf("%s pk %s prefix %q: children\n got %s\nwant %s", where, keyText(pkv), ch.Prefix, sorted(sub.Children), want)
						}
						pq := q
						pq.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: skOf(ix.Key.SK.Type, ch.Prefix)}
						var want []string
						for _, k := range all {
							if strings.HasPrefix(k, ch.Prefix) {
								want = append(want, k)
							}
						}
						if got, _ := readKeys(t, c, pq, 0); strings.Join(got, "\x00") != strings.Join(want, "\x00") {
							t.Fatalf("%s pk %s: begins_with %q gave %d keys, the full read %d", where, keyText(pkv), ch.Prefix, len(got), len(want))
						}
						fmt.Fprintf(&b, "    %q: %d children in %d requests\n", ch.Prefix, len(sub.Children), sub.Cost.Requests)
					}
				}
			}
		}
		got[backend] = b.String()
	}
	if got["memory"] != got["dynalite"] {
		t.Fatalf("backends differ:\n--- memory\n%s--- dynalite\n%s", got["memory"], got["dynalite"])
	}
	t.Logf("\n%s", got["dynalite"])
}

func skOf(typ domain.KeyType, text string) domain.KeyValue {
	switch typ {
	case domain.TypeN:
		return domain.N(text)
	case domain.TypeB:
		return domain.B([]byte(text))
	}
	return domain.S(text)
}
