package dynamo_test

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
)

// layoutBackends holds the demo's AWS layouts (the shop, the device state
// log, bare and time-based versions) on both backends.
func layoutBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	ctx := context.Background()
	opts := demo.Options{Tables: []string{demo.ShopTable, demo.StateTable, demo.PartVersionsTable, demo.PartStatesTable}}
	mem := memory.New()
	if _, err := demo.Seed(ctx, mem, opts); err != nil {
		t.Fatal(err)
	}
	dl := dynalitetest.Shared(t).Client()
	if _, err := dl.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(demo.PartStatesTable)}); err != nil {
		if _, err := demo.Seed(ctx, dl, opts); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]dynamo.Client{"memory": mem, "dynalite": dl}
}

// TestBareVersionsAndPointer: AWS's v0…vN with Latest on v0 are found by
// default; Latest is the pointer, not drift, and the lagging copy (v0 says
// Latest=2, v2 never written) is named.
func TestBareVersionsAndPointer(t *testing.T) {
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "ID", Type: "S"}, SK: &dynamo.KeyAttr{Name: "Version", Type: "S"}}
	want := map[string]string{
		"Part#1":         ` current=v0 revisions=12 latest=v12 drift=[] pointer=Latest`,
		"Part#2":         ` current=v0 revisions=3 latest=v3 drift=[] pointer=Latest`,
		demo.LaggingPart: ` current=v0 revisions=1 latest=v1 drift=["v0 says Latest=2 but v2 does not exist" "v0 differs from v1: State, Time"] pointer=Latest`,
	}
	costs := map[string]string{}
	for name, c := range layoutBackends(t) {
		var b strings.Builder
		for _, pk := range []string{"Part#1", "Part#2", demo.LaggingPart} {
			m := dynamo.NewMetered(c)
			res, err := dynamo.Versions(context.Background(), m, dynamo.VersionsRequest{Table: demo.PartVersionsTable, Key: key, PK: domain.S(pk)}, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", name, pk, err)
			}
			if len(res.Histories) != 1 {
				t.Fatalf("%s %s: %d histories", name, pk, len(res.Histories))
			}
			h := res.Histories[0]
			if got := summary(h) + " pointer=" + h.Pointer; got != want[pk] || h.FormName() != "v1" {
				t.Errorf("%s %s:\n got %s\nwant %s", name, pk, got, want[pk])
			}
			total, _ := m.Session.Totals()
			fmt.Fprintf(&b, "%s %d req %.1f RCU\n", pk, total.Requests, total.RCU)
		}
		// The item's history opens by GetItem of v0 and the same Query.
		h, _, err := dynamo.ItemHistory(context.Background(), c, dynamo.VersionsRequest{Table: demo.PartVersionsTable, Key: key, PK: domain.S("Part#2")}, nil)
		if err != nil || h.Current == nil || h.Current.Key != "v0" || len(h.Revisions) != 3 {
			t.Errorf("%s: item history %s %v", name, summary(h), err)
		}
		costs[name] = b.String()
	}
	if costs["memory"] != costs["dynalite"] {
		t.Errorf("costs differ:\n%s\n%s", costs["memory"], costs["dynalite"])
	}
}

// TestDriftIgnore: an attribute the table's drift_ignore names is left out
// of the comparison with the newest revision.
func TestDriftIgnore(t *testing.T) {
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "ID", Type: "S"}, SK: &dynamo.KeyAttr{Name: "Version", Type: "S"}}
	c := layoutBackends(t)["memory"]
	req := dynamo.VersionsRequest{Table: demo.PartVersionsTable, Key: key, PK: domain.S(demo.LaggingPart), Ignore: []string{"State", "Time"}}
	res, err := dynamo.Versions(context.Background(), c, req, nil)
	if err != nil || len(res.Histories) != 1 || strings.Join(res.Histories[0].Drift, "|") != "v0 says Latest=2 but v2 does not exist" {
		t.Fatalf("%+v %v", res.Histories, err)
	}
}

// TestTimeBesideMetadata: AWS's time-based versions keep a Metadata item
// beside ISO times; detection skips it and says so, and ranges leave it
// out, the same on both backends.
func TestTimeBesideMetadata(t *testing.T) {
	base := domain.KeyQuery{Table: demo.PartStatesTable, PKName: "ID", PK: domain.S(demo.StatePart), SKName: "SK"}
	results := map[string]string{}
	for name, c := range layoutBackends(t) {
		s, _, err := dynamo.DetectTimeKeys(context.Background(), c, base, nil)
		if err != nil || !s.OK || s.Enc.Name() != "2006-01-02T15:04:05" || s.Note() != "1 of 40 keys is not a time: Metadata" {
			t.Fatalf("%s: %+v %q %v", name, s.Enc, s.Note(), err)
		}
		var log strings.Builder
		all := readAll(t, c, base)
		now := time.Date(2020, 11, 12, 22, 0, 0, 0, time.UTC)
		for _, in := range []string{"last 1h", "> 2020-11-12T21:00", ">= 2020-11-12", "< 2020-11-12T20:10", "<= 2020-11-13", "2020-11-12", "2020-11"} {
			r, err := domain.ParseRange(in, now, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			q := base
			if q.SK, err = domain.CompileRange(r, s.Enc, ""); err != nil {
				t.Fatal(err)
			}
			q.Reverse = true
			got, want := readAll(t, c, q), oracle(all, s.Enc, r, "")
			if strings.Join(got, " ") != strings.Join(want, " ") || strings.Contains(strings.Join(got, " "), "Metadata") {
				t.Errorf("%s %q (%s): got %d %v, want %d", name, in, q.Values(), len(got), got, len(want))
			}
			fmt.Fprintf(&log, "%q %d\n", in, len(got))
		}
		results[name] = log.String()
	}
	if results["memory"] != results["dynalite"] {
		t.Errorf("backends differ:\n%s\n%s", results["memory"], results["dynalite"])
	}
}

// stateTimes reads every key of a partition with its time, newest first
// across prefixes: what a merged range must return.
func stateOracle(t *testing.T, c dynamo.Client, base domain.KeyQuery, enc domain.TimeEncoding, r domain.TimeRange) []string {
	t.Helper()
	type kt struct {
		k  string
		tm time.Time
	}
	var sel []kt
	for _, k := range readAllSK(t, c, base) {
		tm, ok := enc.KeyTime(k)
		if !ok {
			continue
		}
		in := false
		switch r.Op {
		case domain.TimeBetween:
			in = !tm.Before(r.From) && !tm.After(r.To)
		case domain.TimeGe:
			in = !tm.Before(r.From)
		case domain.TimeLt:
			in = tm.Before(r.From)
		}
		if in {
			sel = append(sel, kt{k, tm})
		}
	}
	sort.SliceStable(sel, func(i, j int) bool {
		if !sel[i].tm.Equal(sel[j].tm) {
			return sel[i].tm.After(sel[j].tm)
		}
		return sel[i].k < sel[j].k
	})
	out := make([]string, len(sel))
	for i, s := range sel {
		out[i] = s.k
	}
	return out
}

func readAllSK(t *testing.T, c dynamo.Client, q domain.KeyQuery) []string {
	t.Helper()
	var out []string
	var start dynamo.Item
	for {
		p, err := dynamo.QueryPage(context.Background(), c, dynamo.PageRequest{Query: q, Start: start})
		if err != nil {
			t.Fatalf("%s: %v", q.Describe(), err)
		}
		for _, it := range p.Items {
			out = append(out, it[q.SKName].(*types.AttributeValueMemberS).Value)
		}
		if !p.More() {
			return out
		}
		start = p.LastKey
	}
}

// TestMergedRangeAcrossStates: a device's STATE#time log read as one
// range, newest first across every state, with the prefixes found by the
// drill-down's skip-scan; lazily, so a screenful costs a page a state.
func TestMergedRangeAcrossStates(t *testing.T) {
	ctx := context.Background()
	tableKey := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "DeviceID", Type: "S"}, SK: &dynamo.KeyAttr{Name: "State#Date", Type: "S"}}
	base := domain.KeyQuery{Table: demo.StateTable, PKName: "DeviceID", PK: domain.S(demo.StateDevice), SKName: "State#Date", Reverse: true}
	now := time.Date(2020, 4, 26, 0, 0, 0, 0, time.UTC)
	results := map[string]string{}
	for name, c := range layoutBackends(t) {
		s, _, err := dynamo.DetectTimeKeys(ctx, c, base, nil)
		if err != nil || !s.OK || s.Enc.Place != domain.TimeAfter {
			t.Fatalf("%s: detect %+v %v", name, s, err)
		}
		prefixes, found, err := dynamo.TimePrefixes(ctx, c, dynamo.ChildrenRequest{Table: demo.StateTable, Key: tableKey, PK: base.PK}, s.Enc, s)
		if err != nil || strings.Join(prefixes, " ") != "NORMAL# WARNING1# WARNING2# WARNING3#" {
			t.Fatalf("%s: prefixes %q %v", name, prefixes, err)
		}
		var log strings.Builder
		fmt.Fprintf(&log, "prefixes: %d req %.1f RCU\n", found.Requests, found.RCU)
		for _, in := range []string{"2020-04-24", "last 24h", ">= 2020-04-24T20:00", "< 2020-04-24T18:00", "2020-04"} {
			r, err := domain.ParseRange(in, now, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			for _, pageSize := range []int32{0, 7} {
				m, err := dynamo.NewMergedRange(c, base, prefixes, r, s.Enc, pageSize, nil)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for {
					it, err := m.Next(ctx)
					if err != nil {
						t.Fatal(err)
					}
					if it == nil {
						break
					}
					got = append(got, it["State#Date"].(*types.AttributeValueMemberS).Value)
				}
				want := stateOracle(t, c, base, s.Enc, r)
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("%s %q page %d:\n got %d %v\nwant %d %v", name, in, pageSize, len(got), got, len(want), want)
				}
				fmt.Fprintf(&log, "%q page %d: %d items, %d req %.1f RCU\n", in, pageSize, len(got), m.Cost.Requests, m.Cost.RCU)
			}
		}
		// Lazy: the first screenful reads one page of each state, no more.
		r, _ := domain.ParseRange("2020-04", now, time.UTC)
		m, _ := dynamo.NewMergedRange(c, base, prefixes, r, s.Enc, 20, nil)
		for range 20 {
			if _, err := m.Next(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if m.Pages != len(prefixes) {
			t.Errorf("%s: the first 20 items took %d pages, want one a state (%d)", name, m.Pages, len(prefixes))
		}
		results[name] = log.String()
	}
	if results["memory"] != results["dynalite"] {
		t.Errorf("backends differ:\n%s\n%s", results["memory"], results["dynalite"])
	}
	t.Logf("merged ranges on dynalite:\n%s", results["dynalite"])
}

// TestRangeAcrossStatesReadsNoSampledItemTwice: a device's state log
// ranged across its states where the page of the partition stands in
// for the walk (newest first, sized from the sample): the page reads on
// past the newest items detection read whole, not them again (they were
// read twice: the page took 2.5 RCU in the CLI where it takes 2.0), and
// the range lists what the full read filtered by time lists, both ways.
func TestRangeAcrossStatesReadsNoSampledItemTwice(t *testing.T) {
	ctx := context.Background()
	tableKey := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "DeviceID", Type: "S"}, SK: &dynamo.KeyAttr{Name: "State#Date", Type: "S"}}
	now := time.Date(2020, 4, 26, 0, 0, 0, 0, time.UTC)
	r, err := domain.ParseRange("2020-04-24", now, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range layoutBackends(t) {
		for _, reverse := range []bool{true, false} {
			base := domain.KeyQuery{Table: demo.StateTable, PKName: "DeviceID", PK: domain.S(demo.StateDevice), SKName: "State#Date", Reverse: reverse}
			rec := &libSortKeys{billed: billed{Client: c}, skName: "State#Date"}
			s, _, err := dynamo.DetectTimeKeys(ctx, rec, base, nil)
			if err != nil || !s.OK {
				t.Fatalf("%s: detect %+v %v", name, s, err)
			}
			m, err := dynamo.RangeAcross(ctx, rec, dynamo.ChildrenRequest{Table: demo.StateTable, Key: tableKey, PK: base.PK}, base, r, s.Enc, 0, nil, s)
			if err != nil {
				t.Fatal(err)
			}
			items, err := m.Take(ctx, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			got, want := sortKeyTexts(items, "State#Date"), stateOracle(t, c, base, s.Enc, r)
			if !reverse { // the oracle lists newest first
				slices.Sort(got)
				slices.Sort(want)
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s reverse=%v: %d items, the full read filtered %d", name, reverse, len(got), len(want))
			}
			if !reverse {
				continue // the page reads from the oldest end, which detection read keys only
			}
			for _, k := range s.Keys[:min(len(s.Keys), dynamo.TimeSampleKeys)] {
				if n := rec.seen[k]; n != 1 {
					t.Errorf("%s: %s, of the sample's newest, read %d times (%d requests %.1f RCU in all)", name, k, n, rec.requests, rec.rcu)
				}
			}
		}
	}
}

// TestMergedRangeCostFigures prints what a merged multi-prefix range costs
// beside the per-prefix queries it replaces (one `range --sk-prefix P` a
// state, merged by hand), on 4 states × 800 items of about 1.5 KB: the
// whole range, and a first screen of 50. Figures, not limits: it checks
// only that both read the same items, and that the merge reads nothing
// the per-prefix queries do not, beyond finding the prefixes.
func TestMergedRangeCostFigures(t *testing.T) {
	ctx := context.Background()
	states := []string{"ERROR", "NORMAL", "WARNING1", "WARNING2"}
	pad := strings.Repeat("x", 1500)
	var items []dynamo.Item
	start := time.Date(2020, 4, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3200 {
		at := start.Add(time.Duration(i) * 7 * time.Minute)
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "d#1"},
			"SK":  &types.AttributeValueMemberS{Value: states[(i*7)%len(states)] + "#" + at.Format("2006-01-02T15:04:05")},
			"Pad": &types.AttributeValueMemberS{Value: pad}})
	}
	mem := memory.New()
	dl := dynalitetest.Shared(t).Client()
	for _, w := range []dynamo.Writer{mem, dl} {
		if err := demo.CreateKeyTable(ctx, w, "MergeCost", "S", items); err != nil {
			t.Fatal(err)
		}
	}
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	base := domain.KeyQuery{Table: "MergeCost", PKName: "PK", PK: domain.S("d#1"), SKName: "SK", Reverse: true}
	r, _ := domain.ParseRange("2020-04-01..2020-04-30", start, time.UTC)
	figures, shapes := map[string]string{}, map[string]string{}
	for name, c := range map[string]dynamo.Client{"memory": mem, "dynalite": dl} {
		var shape strings.Builder
		s, _, err := dynamo.DetectTimeKeys(ctx, c, base, nil)
		if err != nil || !s.OK {
			t.Fatalf("%s: detect %v", name, err)
		}
		prefixes, found, err := dynamo.TimePrefixes(ctx, c, dynamo.ChildrenRequest{Table: "MergeCost", Key: key, PK: base.PK}, s.Enc, s)
		if err != nil || len(prefixes) != len(states) {
			t.Fatalf("%s: prefixes %v %v", name, prefixes, err)
		}
		var b strings.Builder
		for _, screen := range []int{0, 50} {
			// Per prefix, as `range --sk-prefix P [--limit 50]` would.
			var perItems int
			var per dynamo.Cost
			for _, p := range prefixes {
				q := base
				q.SK, _ = domain.CompileRange(r, s.Enc, p)
				var from dynamo.Item
				for {
					page, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: q, Start: from, Limit: int32(screen)})
					if err != nil {
						t.Fatal(err)
					}
					per, perItems = per.Add(page.Cost), perItems+len(page.Items)
					if !page.More() || screen > 0 {
						break
					}
					from = page.LastKey
				}
			}
			m, err := dynamo.NewMergedRange(c, base, prefixes, r, s.Enc, int32(screen), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := perItems
			if screen > 0 {
				want = screen
			}
			got, err := m.Take(ctx, want)
			if err != nil || len(got) != want {
				t.Fatalf("%s: merged %d items (%v), want %d", name, len(got), err, want)
			}
			if screen == 0 && (m.Cost.Requests != per.Requests || m.Cost.RCU != per.RCU) {
				t.Errorf("%s: the merge read %d req %.1f RCU, the per-prefix queries %d req %.1f RCU", name, m.Cost.Requests, m.Cost.RCU, per.Requests, per.RCU)
			}
			what := "whole range"
			if screen > 0 {
				what = fmt.Sprintf("first %d", screen)
			}
			fmt.Fprintf(&b, "%-12s per-prefix queries: %3d req %7.1f RCU (%d items, 4 lists to merge by hand) · merged: %3d req %7.1f RCU + finding the prefixes %d req %.1f RCU (%d items, one list)\n",
				what, per.Requests, per.RCU, perItems, m.Cost.Requests, m.Cost.RCU, found.Requests, found.RCU, len(got))
			fmt.Fprintf(&shape, "%s %d %d %d %d %d\n", what, per.Requests, perItems, m.Cost.Requests, found.Requests, len(got))
		}
		figures[name], shapes[name] = b.String(), shape.String()
	}
	// Requests and items agree; RCU of 1.5 KB items differ by 0.5 between
	// the backends (the embedded backend's rounding), which is not this
	// test's to judge.
	if shapes["memory"] != shapes["dynalite"] {
		t.Errorf("backends differ:\n%s\n%s", figures["memory"], figures["dynalite"])
	}
	t.Logf("4 states × 800 items of ~1.5 KB, range 2020-04-01..2020-04-30\ndynalite:\n%smemory:\n%s", figures["dynalite"], figures["memory"])
}

// TestLayoutIndexes: the shop's overloaded GSI1 (its sort key the
// table's), the inverted index and the state log's EscalatedTo index list
// children and ranges as a full read computes them, on both backends.
func TestLayoutIndexes(t *testing.T) {
	ctx := context.Background()
	shopKey := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	stateKey := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "DeviceID", Type: "S"}, SK: &dynamo.KeyAttr{Name: "State#Date", Type: "S"}}
	for _, tc := range []struct {
		table, index string
		key, table0  dynamo.KeySchema
		pk           string
	}{
		{demo.ShopTable, "GSI1", dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}, shopKey, "status#DELIVERED"},
		{demo.ShopTable, "Inverted", dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "SK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "PK", Type: "S"}}, shopKey, "p#1003"},
		{demo.StateTable, demo.StateIndex, dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "EscalatedTo", Type: "S"}, SK: &dynamo.KeyAttr{Name: "State#Date", Type: "S"}}, stateKey, "Sara"},
	} {
		for name, c := range layoutBackends(t) {
			tk := tc.table0
			res, err := dynamo.Children(ctx, c, dynamo.ChildrenRequest{Table: tc.table, Index: tc.index, Key: tc.key, TableKeys: &tk, PK: domain.S(tc.pk), Delim: "#"}, nil)
			if err != nil {
				t.Errorf("%s %s %s children: %v", name, tc.table, tc.index, err)
				continue
			}
			q := domain.KeyQuery{Table: tc.table, Index: tc.index, PKName: tc.key.PK.Name, PK: domain.S(tc.pk), SKName: tc.key.SK.Name}
			keys := readAllSK(t, c, q)
			want := map[string]bool{}
			for _, k := range keys {
				if n, _, ok := domain.ChildOf("", k, "#"); ok {
					want[n] = true
				}
			}
			var got []string
			for _, ch := range res.Children {
				got = append(got, ch.Name)
			}
			wantNames := slices.Sorted(maps.Keys(want))
			if strings.Join(got, " ") != strings.Join(wantNames, " ") || len(keys) == 0 {
				t.Errorf("%s %s %s: children %q, a full read of %d keys gives %q", name, tc.table, tc.index, got, len(keys), wantNames)
			}
		}
	}
	// A merged range on the index keyed EscalatedTo / State#Date, with the
	// base table's keys to page by.
	stateIndexKey := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "EscalatedTo", Type: "S"}, SK: &dynamo.KeyAttr{Name: "State#Date", Type: "S"}}
	base := domain.KeyQuery{Table: demo.StateTable, Index: demo.StateIndex, PKName: "EscalatedTo", PK: domain.S("Sara"), SKName: "State#Date", Reverse: true}
	r, _ := domain.ParseRange("2020-04", time.Date(2020, 5, 1, 0, 0, 0, 0, time.UTC), time.UTC)
	counts := map[string]int{}
	for name, c := range layoutBackends(t) {
		s, _, err := dynamo.DetectTimeKeys(ctx, c, base, &stateKey)
		if err != nil || !s.OK {
			t.Fatalf("%s: detect on the index: %v", name, err)
		}
		prefixes, _, err := dynamo.TimePrefixes(ctx, c, dynamo.ChildrenRequest{Table: demo.StateTable, Index: demo.StateIndex, Key: stateIndexKey, TableKeys: &stateKey, PK: base.PK}, s.Enc, s)
		if err != nil || len(prefixes) == 0 {
			t.Fatalf("%s: prefixes on the index %v %v", name, prefixes, err)
		}
		m, err := dynamo.NewMergedRange(c, base, prefixes, r, s.Enc, 5, &stateKey)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			it, err := m.Next(ctx)
			if err != nil {
				t.Fatalf("%s: merged range on the index: %v", name, err)
			}
			if it == nil {
				break
			}
			got = append(got, it["State#Date"].(*types.AttributeValueMemberS).Value)
		}
		if want := stateOracle(t, c, base, s.Enc, r); strings.Join(got, " ") != strings.Join(want, " ") || len(got) == 0 {
			t.Errorf("%s: merged range on the index:\n got %v\nwant %v", name, got, want)
		}
		counts[name] = len(got)
	}
	if counts["memory"] != counts["dynalite"] {
		t.Errorf("backends differ: %v", counts)
	}
}

// publishedTable holds further published key layouts (#36): each in its
// own partition, 120 items 17h07m01s apart from 2023-11-01, some beside a
// header item that is not a time.
const publishedTable = "PublishedShapes"

// publishedShape is one published layout: its partition, how it writes
// the i-th key at t, a header key ("" for none), and the encoding
// detection must find.
type publishedShape struct {
	name, pk string
	write    func(t time.Time, i int) string
	header   string
	enc      string
}

var publishedShapes = []publishedShape{
	// AWS IoT time series: the reading's ISO time with milliseconds.
	{"IoT ISO ms", "device#d1", func(t time.Time, _ int) string { return t.Format("2006-01-02T15:04:05.000Z") }, "", "2006-01-02T15:04:05.000Z07:00"},
	{"TS#<epoch s>", "sensor#s1", func(t time.Time, _ int) string { return fmt.Sprintf("TS#%d", t.Unix()) }, "META", "prefix#epoch seconds"},
	{"yyyy/MM/dd", "LOG#app", func(t time.Time, i int) string { return "LOG#" + t.Format("2006/01/02") + fmt.Sprintf("#%04d", i) }, "", "prefix#2006/01/02#…"},
	{"yyyyMMddHHmmss", "CUSTOMER#c1", func(t time.Time, _ int) string { return "ORDER#" + t.Format("20060102150405") }, "PROFILE", "prefix#20060102150405"},
	// The DynamoDB Book's e-commerce orders: #ORDER#<KSUID> beside the customer.
	{"#ORDER#KSUID", "CUSTOMER#alexdebrie", func(t time.Time, i int) string { return "#ORDER#" + testKSUID(t, i) }, "CUSTOMER#alexdebrie", "prefix#KSUID"},
	{"date and time with a space", "USER#u1", func(t time.Time, _ int) string { return "LOGIN#" + t.Format("2006-01-02 15:04:05") }, "USER#u1", "prefix#2006-01-02 15:04:05"},
	{"ISO at +05:30", "TZ#ist", func(t time.Time, _ int) string {
		return t.In(time.FixedZone("", 5*3600+1800)).Format("2006-01-02T15:04:05-07:00")
	}, "", "2006-01-02T15:04:05Z07:00"},
	{"date then id", "STORE#1", func(t time.Time, i int) string { return t.Format("2006-01-02") + fmt.Sprintf("#order-%d", i) }, "", "2006-01-02#…"},
	{"microseconds", "ROOM#r1", func(t time.Time, i int) string {
		return "MSG#" + t.Add(time.Duration(i*37)*time.Microsecond).Format("2006-01-02T15:04:05.000000Z")
	}, "", "prefix#2006-01-02T15:04:05.000000Z07:00"},
	{"after a colon", "user:42", func(t time.Time, _ int) string { return "event:" + t.Format("2006-01-02T15:04:05Z") }, "", "prefix:2006-01-02T15:04:05Z07:00"},
	{"lower-case ULID", "INBOX#u1", func(t time.Time, i int) string { return "MSG#" + strings.ToLower(testULID(t, i)) }, "", "prefix#ULID"},
	{"hour bucket", "METRIC#cpu", func(t time.Time, _ int) string { return "H#" + t.Format("2006-01-02T15") }, "META", "prefix#2006-01-02T15"},
	{"yyyyMMddHHmm", "ACCT#9", func(t time.Time, i int) string { return "TXN#" + t.Format("200601021504") + fmt.Sprintf("#%d", i) }, "", "prefix#200601021504#…"},
	{"after a dash", "ORDERS", func(t time.Time, _ int) string { return "order-" + t.Format("2006-01-02T15:04:05Z") }, "", "prefix-2006-01-02T15:04:05Z07:00"},
	{"two constants then ISO", "ALARMS#d1", func(t time.Time, i int) string {
		return "ALARM#" + []string{"CRITICAL", "WARN"}[i%2] + "#" + t.Format("2006-01-02T15:04:05Z")
	}, "", "prefix#2006-01-02T15:04:05Z07:00"},
	{"epoch ms, text right after", "GAME#g1", func(t time.Time, i int) string { return fmt.Sprintf("%d-%c", t.UnixMilli(), 'a'+i%6) }, "", "epoch milliseconds…"},
	{"month bucket", "BILL#a1", func(t time.Time, i int) string { return "MONTH#" + t.Format("2006-01") + fmt.Sprintf("#inv-%d", i) }, "", "prefix#2006-01#…"},
	{"after a point", "sess.1", func(t time.Time, _ int) string { return "click." + t.Format("2006-01-02T15:04:05Z") }, "", "prefix.2006-01-02T15:04:05Z07:00"},
	{"two levels after dashes", "SENSOR#1", func(t time.Time, i int) string {
		return "reading-" + []string{"temp", "hum"}[i%2] + "-" + t.Format("2006-01-02T15:04:05Z")
	}, "", "prefix-2006-01-02T15:04:05Z07:00"},
	{"two levels after colons", "user:7", func(t time.Time, i int) string {
		return "evt:" + []string{"login", "logout"}[i%2] + ":" + t.Format("2006-01-02T15:04:05Z")
	}, "", "prefix:2006-01-02T15:04:05Z07:00"},
	{"ISO week rollup", "REPORT#r1", func(t time.Time, i int) string {
		y, w := t.ISOWeek()
		return fmt.Sprintf("WEEK#%04d-W%02d#%d", y, w, i)
	}, "", "prefix#2006-Www#…"},
	// Java's SimpleDateFormat Z: +0000, +0530 without a colon.
	{"Java +0000", "APP#java", func(t time.Time, _ int) string { return "LOG#" + t.Format("2006-01-02T15:04:05.000") + "+0000" }, "META", "prefix#2006-01-02T15:04:05.000-0700"},
	{"offset +0530 without a colon", "APP#ist", func(t time.Time, _ int) string {
		return "EVT#" + t.In(time.FixedZone("", 5*3600+1800)).Format("2006-01-02T15:04:05-0700")
	}, "", "prefix#2006-01-02T15:04:05Z0700"},
	{"backup-yyyyMMdd-HHmmss", "BACKUPS", func(t time.Time, _ int) string { return "backup-" + t.Format("20060102-150405") }, "", "prefix-20060102-150405"},
	{"epoch seconds with a fraction in text", "sensor#s2", func(t time.Time, i int) string { return fmt.Sprintf("TS#%d.%03d", t.Unix(), i%1000) }, "META", "prefix#epoch seconds…"},
	{"dotted date", "DIARY#1", func(t time.Time, i int) string { return "D#" + t.Format("2006.01.02") + fmt.Sprintf("#%d", i) }, "", "prefix#2006.01.02#…"},
	{"three levels, then ISO ms", "TENANT#t1", func(t time.Time, i int) string {
		return "LOG#" + []string{"api", "web"}[i%2] + "#" + []string{"INFO", "ERROR"}[i/2%2] + "#" + t.Format("2006-01-02T15:04:05.000Z")
	}, "", "prefix#2006-01-02T15:04:05.000Z07:00"},
}

// testULID is a ULID of t's millisecond with a filler drawn from i.
func testULID(t time.Time, i int) string {
	const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	b := make([]byte, 26)
	ms := t.UnixMilli()
	for j := 9; j >= 0; j-- {
		b[j] = crockford[ms%32]
		ms /= 32
	}
	for j := 10; j < 26; j++ {
		b[j] = crockford[(i*7+j*13)%32]
	}
	return string(b)
}

// testKSUID is a KSUID of t's second with a payload drawn from i.
func testKSUID(t time.Time, i int) string {
	const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	v := new(big.Int).Lsh(big.NewInt(t.Unix()-1400000000), 128)
	v.Or(v, new(big.Int).SetUint64(uint64(i)*0x9E3779B97F4A7C15))
	k := make([]byte, 27)
	m := new(big.Int)
	for j := 26; j >= 0; j-- {
		v.DivMod(v, big.NewInt(62), m)
		k[j] = base62[m.Int64()]
	}
	return string(k)
}

func publishedItems() []dynamo.Item {
	var items []dynamo.Item
	add := func(pk, sk string) {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}})
	}
	start := time.Date(2023, 11, 1, 0, 0, 0, 0, time.UTC)
	for _, s := range publishedShapes {
		if s.header != "" {
			add(s.pk, s.header)
		}
		for i := range 120 {
			add(s.pk, s.write(start.Add(time.Duration(i)*(17*time.Hour+7*time.Minute+time.Second)), i))
		}
	}
	return items
}

// publishedBackends holds the published layouts on the embedded backend,
// dynalite and moto.
func publishedBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	ctx := context.Background()
	mem := memory.New()
	if err := demo.CreateKeyTable(ctx, mem, publishedTable, "S", publishedItems()); err != nil {
		t.Fatal(err)
	}
	out := map[string]dynamo.Client{"memory": mem}
	for name, c := range map[string]*dynamodb.Client{"dynalite": dynalitetest.Shared(t).Client(), "moto": mototest.Shared(t).Client()} {
		if _, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(publishedTable)}); err != nil {
			if err := demo.CreateKeyTable(ctx, mototest.Seeding(c), publishedTable, "S", publishedItems()); err != nil {
				t.Fatal(err)
			}
		}
		out[name] = c
	}
	return out
}

// TestPublishedLayoutsRange: on published layouts no earlier test holds
// (a time after any separator, yyyy/MM/dd, hour buckets, yyyyMMddHHmm,
// lower-case ULIDs, #ORDER#<KSUID>, …), detection finds the time with no
// flags and a month, an open end and the last 30 days read as range reads
// them list exactly what a full read filtered by decoded time lists, on
// the embedded backend, dynalite and moto alike. Figures are logged
// (go test -v -run TestPublishedLayoutsRange ./internal/dynamo).
func TestPublishedLayoutsRange(t *testing.T) {
	now := time.Date(2024, 1, 20, 0, 0, 0, 0, time.UTC)
	figures := map[string][]string{}
	backends := publishedBackends(t)
	for _, s := range publishedShapes {
		skipped := 0
		if s.header != "" {
			skipped = 1
		}
		for _, rng := range []string{"2024-01", "before 2023-12-15", "last 30d"} {
			for _, name := range []string{"memory", "dynalite", "moto"} {
				tc := rangeCase{s.name, publishedTable, "PK", "SK", s.pk, false, rng, s.enc, skipped}
				figures[name] = append(figures[name], rangeAgainstFullRead(t, name, backends[name], tc, now))
			}
		}
	}
	for _, name := range []string{"memory", "dynalite", "moto"} {
		t.Logf("%s (requests / RCU):\n| shape (items in range) | template read | detection | range | full read |\n|---|---|---|---|---|\n%s", name, strings.Join(figures[name], "\n"))
	}
	// Across prefixes, the plan the range chooses lists what one Query a
	// prefix merged lists, in the same order both ways, and costs no more
	// than the full read on these 120-item partitions (the embedded
	// backend and dynalite bill as DynamoDB does; moto bills 1.0 a read).
	for _, s := range publishedShapes {
		for _, rng := range []string{"2024-01", "before 2023-12-15", "last 30d"} {
			for _, name := range []string{"memory", "dynalite"} {
				tc := rangeCase{s.name, publishedTable, "PK", "SK", s.pk, false, rng, s.enc, 0}
				plan, perPrefix, full := mergePlansAgree(t, name, backends[name], tc, now)
				if plan.Requests > max(full.Requests, 1) || plan.RCU > full.RCU || plan.Requests > perPrefix.Requests || plan.RCU > perPrefix.RCU {
					t.Errorf("%s %s %q: the range costs %d / %.1f, one Query a prefix %d / %.1f, the full read %d / %.1f",
						name, s.name, rng, plan.Requests, plan.RCU, perPrefix.Requests, perPrefix.RCU, full.Requests, full.RCU)
				}
			}
		}
	}
}

// mergePlansAgree reads tc's range across its prefixes as range does
// (RangeAcross: the cheaper plan) and as one Query a prefix merged
// (TimePrefixes, NewMergedRange), newest and oldest first, and checks
// they list the same keys in the same order; from the end (G) and taken
// a few at a time too. It returns the newest-first costs of both and of
// a full read of the partition (none for a partition whose time needs
// no prefix).
func mergePlansAgree(t *testing.T, name string, c dynamo.Client, tc rangeCase, now time.Time) (plan, perPrefix, full dynamo.Cost) {
	t.Helper()
	ctx := context.Background()
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: tc.pkName, Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: tc.skName, Type: domain.TypeS}}
	r, err := domain.ParseRange(tc.rng, now, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	keysOf := func(items []dynamo.Item) []string {
		var out []string
		for _, it := range items {
			kv, _ := dynamo.KeyValueOf(it[tc.skName])
			out = append(out, kv.Text)
		}
		return out
	}
	for _, reverse := range []bool{true, false} {
		base := domain.KeyQuery{Table: tc.table, PKName: tc.pkName, PK: domain.S(tc.pk), SKName: tc.skName, Reverse: reverse}
		sample, _, err := dynamo.DetectTimeKeys(ctx, c, base, nil)
		if err != nil || !sample.OK {
			t.Fatalf("%s %s: %v", name, tc.name, err)
		}
		if !sample.Enc.NeedsPrefix() {
			return
		}
		req := dynamo.ChildrenRequest{Table: tc.table, Key: key, PK: base.PK}
		planned := dynamo.NewMetered(c)
		m, err := dynamo.RangeAcross(ctx, planned, req, base, r, sample.Enc, 0, nil, sample)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Take(ctx, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if reverse {
			plan, _ = planned.Session.Totals()
		}
		each := dynamo.NewMetered(c)
		prefixes, _, err := dynamo.TimePrefixes(ctx, each, req, sample.Enc, sample)
		if err != nil {
			t.Fatal(err)
		}
		old, err := dynamo.NewMergedRange(each, base, prefixes, r, sample.Enc, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := old.Take(ctx, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(keysOf(got), keysOf(want)) {
			t.Fatalf("%s %s %q reverse=%v: the range lists\n%q\none Query a prefix merged lists\n%q", name, tc.name, tc.rng, reverse, keysOf(got), keysOf(want))
		}
		back, err := m.FromEnd(0).Take(ctx, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		b := keysOf(back)
		slices.Reverse(b)
		if !slices.Equal(b, keysOf(want)) {
			t.Fatalf("%s %s %q reverse=%v: from the end it lists %q", name, tc.name, tc.rng, reverse, keysOf(back))
		}
		// Five at a time, as a screen takes them, on a copy taken first.
		m, err = dynamo.RangeAcross(ctx, c, req, base, r, sample.Enc, 5, nil, sample)
		if err != nil {
			t.Fatal(err)
		}
		var fives []dynamo.Item
		for {
			cp := m.Clone()
			page, err := cp.Take(ctx, 5)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Take(ctx, 5); err != nil {
				t.Fatal(err)
			}
			if fives = append(fives, page...); len(page) < 5 {
				break
			}
		}
		if !slices.Equal(keysOf(fives), keysOf(want)) {
			t.Fatalf("%s %s %q reverse=%v: five at a time it lists %q", name, tc.name, tc.rng, reverse, keysOf(fives))
		}
		if reverse {
			perPrefix, _ = each.Session.Totals()
			whole := dynamo.NewMetered(c)
			for start := dynamo.Item(nil); ; {
				page, err := dynamo.QueryPage(ctx, whole, dynamo.PageRequest{Query: base, Start: start})
				if err != nil {
					t.Fatal(err)
				}
				if start = page.LastKey; !page.More() {
					break
				}
			}
			full, _ = whole.Session.Totals()
		}
	}
	return plan, perPrefix, full
}

// publishedRevisions are published revision spellings, each in its own
// partition of publishedRevisionsTable, with the --version-pattern a user
// gives ("" for none: read by the usual templates or inferred), and the
// histories and revisions versions must find. Where a pattern is needed,
// the templates the partition's keys read as suggest it.
var publishedRevisions = []struct {
	name, pk string
	keys     []string
	pattern  string
	want     string // name:revisions, …
}{
	{"guide v0_ with part ids", "Equip#1", []string{"v0_Audit", "v1_Audit", "v2_Audit", "v0_Audit#PART-1", "v1_Audit#PART-1"}, "", "Audit:2, Audit#PART-1:1"},
	{"blog v_0 beside metadata", "doc-9", []string{"metadata", "permissions", "v_0", "v_1", "v_2"}, "", ":2"},
	{"bare, zero-padded", "ACCOUNT#1", []string{"v0000", "v0001", "v0002", "v0003"}, "", ":3"},
	{"v{n}#{name}", "DOC#1", []string{"v0#Audit", "v1#Audit", "v2#Audit", "v3#Audit"}, "", "Audit:3"},
	{"v{n}.{name} history", "historical.u2", []string{"v00001.settings", "v00002.settings", "v00003.settings"}, "", "settings:3"},
	{"event store {aggregate}#{seq}", "ORDER#1", []string{"EVENT#000001", "EVENT#000002", "EVENT#000003", "SNAPSHOT"}, "EVENT#{n}", ":3"},
	{"config VERSION#{n}", "CFG#1", []string{"VERSION#0", "VERSION#1", "VERSION#2"}, "VERSION#{n}", ":2"},
	{"name first {name}#v{n}", "POLICY#1", []string{"Privacy#v0", "Privacy#v1", "Terms#v0", "Terms#v1", "Terms#v2"}, "{name}#v{n}", "Privacy:1, Terms:2"},
}

const publishedRevisionsTable = "PublishedRevisions"

// TestPublishedRevisions: published revision spellings are read by the
// usual templates or inferred with no flags, or by the --version-pattern
// the partition's key templates suggest, the same on the embedded
// backend, dynalite and moto.
func TestPublishedRevisions(t *testing.T) {
	ctx := context.Background()
	var items []dynamo.Item
	for _, l := range publishedRevisions {
		for i, k := range l.keys {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: l.pk}, "SK": &types.AttributeValueMemberS{Value: k},
				"body": &types.AttributeValueMemberS{Value: fmt.Sprint(i)}})
		}
	}
	mem := memory.New()
	if err := demo.CreateKeyTable(ctx, mem, publishedRevisionsTable, "S", items); err != nil {
		t.Fatal(err)
	}
	clients := map[string]dynamo.Client{"memory": mem}
	for name, c := range map[string]*dynamodb.Client{"dynalite": dynalitetest.Shared(t).Client(), "moto": mototest.Shared(t).Client()} {
		if _, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(publishedRevisionsTable)}); err != nil {
			if err := demo.CreateKeyTable(ctx, mototest.Seeding(c), publishedRevisionsTable, "S", items); err != nil {
				t.Fatal(err)
			}
		}
		clients[name] = c
	}
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	for _, l := range publishedRevisions {
		var p *domain.VersionPattern
		if l.pattern != "" {
			if got := domain.SuggestVersionPattern(l.keys, "#"); got != l.pattern {
				t.Errorf("%s: the templates %q suggest %q, want %q", l.name, domain.InferTemplates(l.keys, "#"), got, l.pattern)
			}
			var err error
			if p, err = domain.ParseVersionPattern(l.pattern); err != nil {
				t.Fatal(err)
			}
		}
		for name, c := range clients {
			res, err := dynamo.Versions(ctx, c, dynamo.VersionsRequest{Table: publishedRevisionsTable, Key: key, PK: domain.S(l.pk), Pattern: p}, nil)
			var got []string
			for _, h := range res.Histories {
				got = append(got, fmt.Sprintf("%s:%d", h.Name, len(h.Revisions)))
			}
			if err != nil || strings.Join(got, ", ") != l.want {
				t.Errorf("%s %s: %q %v, want %q", name, l.name, got, err, l.want)
			}
		}
	}
}

// TestPublishedEntities: entity types of published single-table designs,
// named by a discriminator where items carry one (Amplify's __typename,
// an entityType attribute) and by key templates where they do not (the
// DynamoDB Book's GitHub and e-commerce designs, a game's
// #METADATA#{id}), counted exactly on all three backends.
func TestPublishedEntities(t *testing.T) {
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	designs := map[string]struct {
		items []dynamo.Item
		want  string // count of each type, sorted
	}{}
	var gh []dynamo.Item
	for _, o := range []string{"alexdebrie", "aws", "serverless"} {
		gh = append(gh, dynamo.Item{"PK": s("ACCOUNT#" + o), "SK": s("ACCOUNT#" + o), "Name": s(o)})
		for _, r := range []string{"dynamodb-book", "site"} {
			repo := "REPO#" + o + "#" + r
			gh = append(gh, dynamo.Item{"PK": s(repo), "SK": s(repo), "Stars": s("3")})
			for i := 1; i <= 3; i++ {
				gh = append(gh, dynamo.Item{"PK": s(repo), "SK": s(fmt.Sprintf("ISSUE#%010d", i)), "Title": s("t")})
			}
			for _, u := range []string{"ana", "bob"} {
				gh = append(gh, dynamo.Item{"PK": s(repo), "SK": s("STAR#" + u), "At": s("2024")})
			}
		}
	}
	designs["GitHubDesign"] = struct {
		items []dynamo.Item
		want  string
	}{gh, "3 6 12 18"}
	var shop []dynamo.Item
	for _, c := range []string{"alice", "bob", "carol", "dan"} {
		shop = append(shop, dynamo.Item{"PK": s("CUSTOMER#" + c), "SK": s("CUSTOMER#" + c), "Email": s(c + "@example.com")})
		for o := range 3 {
			id := fmt.Sprintf("%s%04x", c[:1], o*7919)
			shop = append(shop, dynamo.Item{"PK": s("CUSTOMER#" + c), "SK": s("#ORDER#" + id), "Total": s("5")})
			for k := range 2 {
				item := fmt.Sprintf("ORDER#%s#ITEM#%d", id, k)
				shop = append(shop, dynamo.Item{"PK": s(item), "SK": s(item), "Qty": s("1")})
			}
		}
	}
	designs["ShopDesign"] = struct {
		items []dynamo.Item
		want  string
	}{shop, "4 12 24"}
	var game []dynamo.Item
	for g := range 3 {
		game = append(game, dynamo.Item{"PK": s(fmt.Sprintf("GAME#%04d", g)), "SK": s(fmt.Sprintf("#METADATA#%04d", g)), "map": s("m")})
		for _, u := range []string{"ann", "ben", "cid"} {
			game = append(game, dynamo.Item{"PK": s(fmt.Sprintf("GAME#%04d", g)), "SK": s("USER#" + u), "score": s("1")})
		}
	}
	for _, u := range []string{"ann", "ben", "cid", "dee"} {
		game = append(game, dynamo.Item{"PK": s("USER#" + u), "SK": s("#METADATA#" + u), "email": s("e")})
	}
	designs["GameDesign"] = struct {
		items []dynamo.Item
		want  string
	}{game, "3 4 9"}
	var typed []dynamo.Item
	for i := range 4 {
		typed = append(typed, dynamo.Item{"PK": s(fmt.Sprintf("USER#%d", i)), "SK": s("PROFILE"), "entityType": s("User")})
	}
	for i := range 6 {
		typed = append(typed, dynamo.Item{"PK": s(fmt.Sprintf("USER#%d", i%4)), "SK": s(fmt.Sprintf("ORDER#%d", i)), "entityType": s("Order")})
	}
	for i := range 5 {
		typed = append(typed, dynamo.Item{"PK": s(fmt.Sprintf("POST#%d", i)), "SK": s("POST"), "__typename": s("Post")})
	}
	designs["TypedDesign"] = struct {
		items []dynamo.Item
		want  string
	}{typed, "4 5 6"}
	// paszin/dynamodb-entities' highscore: a player's name alone in the
	// partition key, DATE#{time}, SCORE#{zero-padded points} and STATS.
	var scores []dynamo.Item
	for p, u := range []string{"paszin", "alice", "bob"} {
		for i := range 4 {
			at := time.Date(2024, 12, 12, 14, 36, 22, 0, time.UTC).Add(time.Duration(p*7+i) * 26 * time.Hour)
			points := fmt.Sprint(512 + 1009*i + 31*p)
			scores = append(scores, dynamo.Item{"PK": s(u), "SK": s("DATE#" + at.Format("2006-01-02T15:04:05+00:00")), "points": &types.AttributeValueMemberN{Value: points}})
			scores = append(scores, dynamo.Item{"PK": s(u), "SK": s(fmt.Sprintf("SCORE#%06s", points)), "points": &types.AttributeValueMemberN{Value: points}, "GSI_1": s("SCORE")})
		}
		scores = append(scores, dynamo.Item{"PK": s(u), "SK": s("STATS"), "playCount": &types.AttributeValueMemberN{Value: "4"}})
	}
	designs["HighscoreDesign"] = struct {
		items []dynamo.Item
		want  string
	}{scores, "3 12 12"}
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	mem := memory.New()
	clients := map[string]dynamo.Client{"memory": mem}
	remote := map[string]*dynamodb.Client{"dynalite": dynalitetest.Shared(t).Client(), "moto": mototest.Shared(t).Client()}
	for table, d := range designs {
		if err := demo.CreateKeyTable(ctx, mem, table, "S", d.items); err != nil {
			t.Fatal(err)
		}
		for name, c := range remote {
			if _, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}); err != nil {
				if err := demo.CreateKeyTable(ctx, mototest.Seeding(c), table, "S", d.items); err != nil {
					t.Fatal(err)
				}
			}
			clients[name] = c
		}
	}
	for table, d := range designs {
		for name, c := range clients {
			res, err := dynamo.ReadEntities(ctx, c, dynamo.EntitiesRequest{Table: table, Key: key, MaxRCU: dynamo.DefaultEntitiesBudget, SizeBytes: 1 << 10, ItemCount: int64(len(d.items))})
			var counts []int
			var names []string
			for _, e := range res.Entities {
				counts = append(counts, e.Count)
				names = append(names, fmt.Sprintf("%s=%d %s/%s [%s]", e.Name, e.Count, e.KeyTemplates["pk"], e.KeyTemplates["sk"], e.Discriminator))
				if !e.CountExact {
					t.Errorf("%s %s: %s counted by a sample", name, table, e.Name)
				}
			}
			slices.Sort(counts)
			if err != nil || strings.Trim(fmt.Sprint(counts), "[]") != d.want {
				t.Errorf("%s %s: %v %v, want counts %s", name, table, names, err, d.want)
			}
			if table == "HighscoreDesign" && !strings.Contains(strings.Join(names, "; "), "SCORE=12 {alice|bob|paszin}/SCORE#{n} []") {
				t.Errorf("%s: the scores are a type of their own, by the sort keys' delimiter: %v", name, names)
			}
			if table == "TypedDesign" && !strings.Contains(strings.Join(names, "; "), "Post=5 POST#{n}/POST [__typename]") {
				t.Errorf("%s: Amplify's __typename beside entityType: %v", name, names)
			}
			if name == "memory" {
				t.Logf("%s: %s", table, strings.Join(names, "; "))
			}
		}
	}
}

const rangeLargeTable = "RangeAcrossLarge"

// TestRangeAcrossLargePartition: on a partition of 4,500 items under
// three prefixes (AUDIT#, EVENT#, METRIC#, times a few hours apart), the
// range across them costs no more than one Query a prefix merged, never
// becomes a read of the partition, and lists what that merge lists, on
// the embedded backend and dynalite. Figures are logged.
func TestRangeAcrossLargePartition(t *testing.T) {
	ctx := context.Background()
	var items []dynamo.Item
	start := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	body := strings.Repeat("x", 150)
	for _, p := range []string{"AUDIT#", "EVENT#", "METRIC#"} {
		for i := range 1500 {
			at := start.Add(time.Duration(i)*(5*time.Hour+47*time.Minute) + time.Duration(len(p))*time.Minute)
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "big"}, "SK": &types.AttributeValueMemberS{Value: p + at.Format("2006-01-02T15:04:05Z")},
				"body": &types.AttributeValueMemberS{Value: body}})
		}
	}
	// A bursty partition, whose sampled ends are sparse and whose middle
	// is not: the page tried stops short, and the range goes on one
	// Query a prefix from where it stopped.
	for _, p := range []string{"A#", "B#", "C#"} {
		for i := range 300 {
			step := 30 * time.Minute
			if i < 25 || i >= 275 {
				step = 20 * 24 * time.Hour
			}
			at := start.Add(time.Duration(i)*step + time.Duration(len(p))*time.Minute)
			if i >= 275 {
				at = start.Add(time.Duration(i-275)*step + 400*24*time.Hour + time.Duration(len(p))*time.Minute)
			} else if i >= 25 {
				at = start.Add(500*24*time.Hour + time.Duration(i)*step)
			}
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "bursty"}, "SK": &types.AttributeValueMemberS{Value: p + at.Format("2006-01-02T15:04:05Z")},
				"body": &types.AttributeValueMemberS{Value: body}})
		}
	}
	mem := memory.New()
	if err := demo.CreateKeyTable(ctx, mem, rangeLargeTable, "S", items); err != nil {
		t.Fatal(err)
	}
	backends := map[string]dynamo.Client{"memory": mem}
	dl := dynalitetest.Shared(t).Client()
	if _, err := dl.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(rangeLargeTable)}); err != nil {
		if err := demo.CreateKeyTable(ctx, dl, rangeLargeTable, "S", items); err != nil {
			t.Fatal(err)
		}
	}
	backends["dynalite"] = dl
	now := time.Date(2024, 1, 20, 0, 0, 0, 0, time.UTC)
	var figures []string
	for _, name := range []string{"memory", "dynalite"} {
		for _, rng := range []string{"2023-06", "2023-06-15", "last 30d", "before 2023-01-20"} {
			tc := rangeCase{"large", rangeLargeTable, "PK", "SK", "big", false, rng, "", 0}
			plan, perPrefix, full := mergePlansAgree(t, name, backends[name], tc, now)
			if plan.Requests > perPrefix.Requests || plan.RCU > perPrefix.RCU || plan.RCU >= full.RCU {
				t.Errorf("%s %q: the range costs %d / %.1f, one Query a prefix %d / %.1f, the full read %d / %.1f",
					name, rng, plan.Requests, plan.RCU, perPrefix.Requests, perPrefix.RCU, full.Requests, full.RCU)
			}
			figures = append(figures, fmt.Sprintf("| %s %s | %d / %.1f | %d / %.1f | %d / %.1f |", name, rng, plan.Requests, plan.RCU, perPrefix.Requests, perPrefix.RCU, full.Requests, full.RCU))
		}
	}
	for _, name := range []string{"memory", "dynalite"} {
		for _, rng := range []string{"2024-05", "2024-05-20", "before 2023-06-01"} {
			tc := rangeCase{"bursty", rangeLargeTable, "PK", "SK", "bursty", false, rng, "", 0}
			plan, perPrefix, full := mergePlansAgree(t, name, backends[name], tc, now)
			figures = append(figures, fmt.Sprintf("| %s bursty %s | %d / %.1f | %d / %.1f | %d / %.1f |", name, rng, plan.Requests, plan.RCU, perPrefix.Requests, perPrefix.RCU, full.Requests, full.RCU))
		}
	}
	t.Logf("requests / RCU, detection not counted:\n| range | chosen plan | one Query a prefix | full read |\n|---|---|---|---|\n%s", strings.Join(figures, "\n"))
}
