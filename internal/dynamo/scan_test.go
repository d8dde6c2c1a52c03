package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// searchTable: 40 customers of 15 orders each, 120 to 900 bytes an item
// (about 64 RCU read whole), every 7th FAILED, some with a nested region
// and tags; a GSI ByStatus (status, SK).
const searchTable = "SearchOrders"

var searchSeeded seededTable

func searchBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	return seededBackends(t, &searchSeeded, createSearchTable)
}

func searchItem(c, o int) dynamo.Item {
	n := c*15 + o
	status := "OK"
	if n%7 == 0 {
		status = "FAILED"
	}
	it := dynamo.Item{
		"PK":       &types.AttributeValueMemberS{Value: fmt.Sprintf("c#%02d", c)},
		"SK":       &types.AttributeValueMemberS{Value: fmt.Sprintf("o#%02d", o)},
		"status":   &types.AttributeValueMemberS{Value: status},
		"attempts": &types.AttributeValueMemberN{Value: strconv.Itoa(n % 6)},
		"Data":     &types.AttributeValueMemberS{Value: strings.Repeat("d", 100+(n*37)%800)},
	}
	if n%3 == 0 {
		region := "us"
		if n%2 == 0 {
			region = "eu"
		}
		it["detail"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"region": &types.AttributeValueMemberS{Value: region}}}
	}
	if n%5 == 0 {
		it["tags"] = &types.AttributeValueMemberSS{Value: []string{"urgent", fmt.Sprintf("t%d", n%4)}}
	}
	return it
}

func createSearchTable(ctx context.Context, w dynamo.Writer) error {
	s := func(name string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(pk, sk string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(sk), KeyType: types.KeyTypeRange}}
	}
	_, err := w.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(searchTable), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{s("PK"), s("SK"), s("status")},
		KeySchema:            key("PK", "SK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByStatus"), KeySchema: key("status", "SK"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	if err != nil {
		return err
	}
	if err := demo.WaitActive(ctx, w, searchTable); err != nil {
		return err
	}
	var reqs []types.WriteRequest
	for c := range 40 {
		for o := range 15 {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: searchItem(c, o)}})
			if len(reqs) < 25 {
				continue
			}
			for len(reqs) > 0 {
				out, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{searchTable: reqs}})
				if err != nil {
					return err
				}
				reqs = out.UnprocessedItems[searchTable]
			}
		}
	}
	return nil
}

// searchCase is a filter and the same test written in Go, applied to a
// full read.
type searchCase struct {
	filter string
	match  func(dynamo.Item) bool
}

var searchCases = []searchCase{
	{`status = "FAILED"`, func(it dynamo.Item) bool { return str(it, "status") == "FAILED" }},
	{`attempts > 3 and detail.region = "eu"`, func(it dynamo.Item) bool {
		n, _ := strconv.Atoi(it["attempts"].(*types.AttributeValueMemberN).Value)
		m, ok := it["detail"].(*types.AttributeValueMemberM)
		return n > 3 && ok && str(m.Value, "region") == "eu"
	}},
	{`contains(tags, "urgent") or begins_with(SK, "o#1")`, func(it dynamo.Item) bool {
		_, tagged := it["tags"]
		return tagged || strings.HasPrefix(str(it, "SK"), "o#1")
	}},
}

// filtered is c's filter parsed, and the items of all it matches.
func (c searchCase) filtered(t *testing.T, all []dynamo.Item) (domain.FilterNode, []dynamo.Item) {
	t.Helper()
	filter, err := domain.ParseFilter(c.filter)
	if err != nil {
		t.Fatal(err)
	}
	var want []dynamo.Item
	for _, it := range all {
		if c.match(it) {
			want = append(want, it)
		}
	}
	return filter, want
}

// wholeTable is every item of the table, by a plain Scan, each key once.
func wholeTable(t *testing.T, c dynamo.Client) []dynamo.Item {
	t.Helper()
	var items []dynamo.Item
	in := &dynamodb.ScanInput{TableName: aws.String(searchTable)}
	for {
		out, err := c.Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			return items
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

func itemKey(it dynamo.Item) string { return str(it, "PK") + "/" + str(it, "SK") }

// orderOf is the items' keys in the order read.
func orderOf(items []dynamo.Item) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, itemKey(it))
	}
	return out
}

func keysOf(items []dynamo.Item) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, itemKey(it))
	}
	sort.Strings(out)
	return out
}

// searchRecorder adds up the RCU of the Scans and Queries it passes on,
// as DynamoDB bills them (at least 0.5 a read).
type searchRecorder struct {
	dynamo.Client
	mu  sync.Mutex
	rcu float64
	// limits is each request's Limit (0: none), in the order sent.
	limits []int32
}

func (r *searchRecorder) limit(l *int32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.limits = append(r.limits, aws.ToInt32(l))
}

func (r *searchRecorder) add(cc *types.ConsumedCapacity) {
	units := 0.0
	if cc != nil && cc.CapacityUnits != nil {
		units = *cc.CapacityUnits
	}
	r.mu.Lock()
	r.rcu += max(units, 0.5)
	r.mu.Unlock()
}

func (r *searchRecorder) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	r.limit(in.Limit)
	out, err := r.Client.Scan(ctx, in, o...)
	if err == nil {
		r.add(out.ConsumedCapacity)
	}
	return out, err
}

func (r *searchRecorder) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	r.limit(in.Limit)
	out, err := r.Client.Query(ctx, in, o...)
	if err == nil {
		r.add(out.ConsumedCapacity)
	}
	return out, err
}

// searchToEnd runs r in runs of at most r.MaxRCU each, every run after a
// stop resumed from the token the stop gave (as `scan --resume` does), and
// returns every match and the RCU each run spent at the client.
func searchToEnd(t *testing.T, c dynamo.Client, r dynamo.SearchRequest) (items []dynamo.Item, runs []float64) {
	t.Helper()
	var from *dynamo.SearchPosition
	for range 400 {
		rec := &searchRecorder{Client: c}
		s, err := dynamo.StartSearch(r, from)
		if err != nil {
			t.Fatal(err)
		}
		for s.More() {
			step, err := dynamo.ReadSearch(context.Background(), rec, s)
			if err != nil {
				t.Fatal(err)
			}
			items = append(items, step.Items...)
			s = step.Next
			if step.Stopped {
				break
			}
		}
		runs = append(runs, rec.rcu)
		if !s.More() {
			return items, runs
		}
		token := dynamo.SearchToken(r.Fingerprint(), s.Position())
		if from, err = dynamo.ParseSearchToken(token, r.Fingerprint()); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no end after 400 runs")
	return nil, nil
}

// TestSearchEqualsFilteredFullRead: a search finds what a full read
// filtered here finds, each item once, in one segment or several, with
// or without a budget, resumed after every stop; no run spends more than
// its budget and half a read unit.
func TestSearchEqualsFilteredFullRead(t *testing.T) {
	for name, c := range searchBackends(t) {
		all := wholeTable(t, c)
		for _, tc := range searchCases {
			filter, want := tc.filtered(t, all)
			for _, segments := range []int{1, 3, 8} {
				for _, budget := range []float64{0, 9, 2.5} {
					r := dynamo.SearchRequest{Table: searchTable, Filter: filter, Segments: segments, MaxRCU: budget}
					got, runs := searchToEnd(t, c, r)
					label := fmt.Sprintf("%s %q segments=%d budget=%g", name, tc.filter, segments, budget)
					if g, w := keysOf(got), keysOf(want); strings.Join(g, " ") != strings.Join(w, " ") {
						t.Errorf("%s: %d matches, want %d", label, len(g), len(w))
					}
					for i, rcu := range runs {
						if budget > 0 && rcu > budget+0.5 {
							t.Errorf("%s: run %d spent %.1f RCU", label, i+1, rcu)
						}
					}
					if budget > 0 && len(runs) < 2 {
						t.Errorf("%s: %d runs: the budget never stopped a read", label, len(runs))
					}
				}
			}
		}
	}
}

// TestSearchReadsForTheMatchesWanted: the explorer wants a few screens
// of matches (SearchState.Want), not 1 MB pages a segment: its first
// step reads about a hundred items in all, later steps what the rate
// seen needs, a filter that matched nothing in them reads on in whole
// pages, and the steps to the end find what a full read filtered finds,
// each item once.
func TestSearchReadsForTheMatchesWanted(t *testing.T) {
	const want = 10
	for name, c := range searchBackends(t) {
		all := wholeTable(t, c)
		cases := append(searchCases[:len(searchCases):len(searchCases)], searchCase{`status = "NO SUCH"`, func(dynamo.Item) bool { return false }})
		for _, tc := range cases {
			filter, wanted := tc.filtered(t, all)
			for _, segments := range []int{1, 3} {
				for _, budget := range []float64{0, 400} {
					label := fmt.Sprintf("%s %q segments=%d budget=%g", name, tc.filter, segments, budget)
					rec := &searchRecorder{Client: c}
					s, err := dynamo.StartSearch(dynamo.SearchRequest{Table: searchTable, Filter: filter, Segments: segments, MaxRCU: budget}, nil)
					if err != nil {
						t.Fatal(err)
					}
					var got []dynamo.Item
					for step := 0; s.More(); step++ {
						s.Want = want
						sent := len(rec.limits)
						st, err := dynamo.ReadSearch(context.Background(), rec, s)
						if err != nil {
							t.Fatal(err)
						}
						if step == 0 {
							total := int32(0)
							for _, l := range rec.limits[sent:] {
								if l == 0 {
									t.Fatalf("%s: the first step reads a whole page (no Limit) for %d matches", label, want)
								}
								total += l
							}
							if total > 100 || st.Scanned > 100 {
								t.Fatalf("%s: the first step asks for %d items and reads %d, for %d matches", label, total, st.Scanned, want)
							}
						}
						if step == 1 && s.Matched == 0 && budget == 0 {
							for _, l := range rec.limits[sent:] {
								if l != 0 {
									t.Errorf("%s: nothing matched in %d items, and the next read asks for %d items, not a page", label, s.Scanned, l)
								}
							}
						}
						got = append(got, st.Items...)
						s = st.Next
						if st.Stopped {
							s = s.Extend(budget)
						}
					}
					if g, w := keysOf(got), keysOf(wanted); strings.Join(g, " ") != strings.Join(w, " ") {
						t.Errorf("%s: %d matches, want %d", label, len(g), len(w))
					}
				}
			}
		}
	}
}

// TestWantItems: the items a filtered read reads for the matches wanted:
// a first read, then the rate seen with a margin, whole pages (0) where
// nothing matched or the rate needs more than any page holds, never a
// count that overflows a request's Limit.
func TestWantItems(t *testing.T) {
	for _, c := range []struct{ want, scanned, matched, items int }{
		{0, 0, 0, 0},
		{10, 0, 0, 100},
		{90, 0, 0, 180},
		{30, 100, 0, 0},
		{30, 100, 20, 225},
		{30, 100, 100, 50},
		{30, 1_000_000_000, 1, 0},
	} {
		if got := dynamo.WantItems(c.want, c.scanned, c.matched); got != c.items {
			t.Errorf("WantItems(%d, %d, %d) = %d, want %d", c.want, c.scanned, c.matched, got, c.items)
		}
	}
}

// TestSearchQueriesAndIndex: Query streams (a statement's pinned keys)
// and a Scan of an index find what the full read filtered finds;
// projected items hold only the projected paths.
func TestSearchQueriesAndIndex(t *testing.T) {
	filter, _ := domain.ParseFilter(`attempts >= 2`)
	for name, c := range searchBackends(t) {
		all := wholeTable(t, c)
		var wantQ, wantIx []dynamo.Item
		for _, it := range all {
			n, _ := strconv.Atoi(it["attempts"].(*types.AttributeValueMemberN).Value)
			if pk := str(it, "PK"); n >= 2 && (pk == "c#03" || pk == "c#17") {
				wantQ = append(wantQ, it)
			}
			if str(it, "status") == "FAILED" && n >= 2 {
				wantIx = append(wantIx, it)
			}
		}
		queries := []domain.KeyQuery{
			{Table: searchTable, PKName: "PK", PK: domain.S("c#03"), SKName: "SK"},
			{Table: searchTable, PKName: "PK", PK: domain.S("c#17"), SKName: "SK"},
			{Table: searchTable, PKName: "PK", PK: domain.S("c#99"), SKName: "SK"},
		}
		proj := []domain.Path{{{Name: "PK"}}, {{Name: "SK"}}, {{Name: "detail"}, {Name: "region"}}, {{Name: "detail"}}}
		for _, budget := range []float64{0, 1.5} {
			got, runs := searchToEnd(t, c, dynamo.SearchRequest{Table: searchTable, Filter: filter, Queries: queries, Project: proj, MaxRCU: budget})
			if g, w := keysOf(got), keysOf(wantQ); strings.Join(g, " ") != strings.Join(w, " ") {
				t.Errorf("%s queries budget=%g: %v, want %v", name, budget, g, w)
			}
			if order := strings.Join(orderOf(got), " "); order != strings.Join(keysOf(wantQ), " ") {
				t.Errorf("%s queries budget=%g: read in order %s, want partition by partition in sort-key order", name, budget, order)
			}
			for _, it := range got {
				for attr := range it {
					if attr != "PK" && attr != "SK" && attr != "detail" {
						t.Fatalf("%s: projected item holds %s", name, attr)
					}
				}
			}
			for i, rcu := range runs {
				if budget > 0 && rcu > budget+0.5 {
					t.Errorf("%s queries: run %d spent %.1f RCU", name, i+1, rcu)
				}
			}
		}
		desc := append([]domain.KeyQuery(nil), queries...)
		for i := range desc {
			desc[i].Reverse = true
		}
		got, _ := searchToEnd(t, c, dynamo.SearchRequest{Table: searchTable, Filter: filter, Queries: desc, MaxRCU: 2})
		var want []string
		for _, pk := range []string{"c#03", "c#17"} {
			w := keysOf(wantQ)
			for i := len(w) - 1; i >= 0; i-- {
				if strings.HasPrefix(w[i], pk+"/") {
					want = append(want, w[i])
				}
			}
		}
		if strings.Join(orderOf(got), " ") != strings.Join(want, " ") {
			t.Errorf("%s queries reversed: read in order %v, want %v", name, orderOf(got), want)
		}
		region, _ := domain.ParseFilter(`detail.region = "eu" and size(tags) >= 2`)
		got, _ = searchToEnd(t, c, dynamo.SearchRequest{Table: searchTable, Filter: region, Segments: 2, Project: []domain.Path{{{Name: "SK"}}, {{Name: "PK"}}, {{Name: "detail"}}}})
		var wantRegion []dynamo.Item
		for _, it := range all {
			if m, ok := it["detail"].(*types.AttributeValueMemberM); ok && str(m.Value, "region") == "eu" && it["tags"] != nil {
				wantRegion = append(wantRegion, it)
			}
		}
		if g, w := keysOf(got), keysOf(wantRegion); len(w) == 0 || strings.Join(g, " ") != strings.Join(w, " ") {
			t.Errorf("%s: a filter on a projected map: %d matches, want %d", name, len(g), len(w))
		}
		// A statement whose every OR branch pins PK: one Query a value,
		// the whole WHERE (which names PK) applied here, budget or none;
		// sent as a Query's filter, both backends refuse it, as DynamoDB.
		st, err := domain.ParsePartiQL(`SELECT * FROM SearchOrders WHERE PK = 'c#03' OR (PK = 'c#17' AND attempts >= 2)`)
		if err != nil {
			t.Fatal(err)
		}
		info, _, err := dynamo.DescribeTable(context.Background(), c, searchTable)
		if err != nil {
			t.Fatal(err)
		}
		var wantOr []dynamo.Item
		for _, it := range all {
			n, _ := strconv.Atoi(it["attempts"].(*types.AttributeValueMemberN).Value)
			if pk := str(it, "PK"); pk == "c#03" || pk == "c#17" && n >= 2 {
				wantOr = append(wantOr, it)
			}
		}
		for _, budget := range []float64{0, 1.5} {
			plan, r, err := dynamo.StatementSearch(info, st, budget)
			if err != nil || len(plan.Queries) != 2 || !r.FilterHere {
				t.Fatalf("%s: %v: %d Queries, filter here %v", name, err, len(plan.Queries), r.FilterHere)
			}
			got, _ := searchToEnd(t, c, r)
			if g, w := keysOf(got), keysOf(wantOr); strings.Join(g, " ") != strings.Join(w, " ") {
				t.Errorf("%s OR branches budget=%g: %d matches, want %d", name, budget, len(g), len(w))
			}
			if budget == 0 {
				r.FilterHere = false
				s, _ := dynamo.StartSearch(r, nil)
				if _, err := dynamo.ReadSearch(context.Background(), c, s); !dynamo.Refused(err) {
					t.Errorf("%s: a Query's filter naming its partition key: %v, want it refused", name, err)
				}
			}
		}
		// A first partition that holds nothing leaves the next unsized:
		// its first read is still of one item, not a stop with 1.5 of 2
		// RCU left and nothing read (as a run stopped before).
		first := dynamo.SearchRequest{Table: searchTable, MaxRCU: 2, Queries: []domain.KeyQuery{
			{Table: searchTable, PKName: "PK", PK: domain.S("nobody"), SKName: "SK"},
			{Table: searchTable, PKName: "PK", PK: domain.S("c#03"), SKName: "SK"}}}
		s, _ := dynamo.StartSearch(first, nil)
		scanned := 0
		for s.More() {
			step, err := dynamo.ReadSearch(context.Background(), c, s)
			if err != nil || step.Stopped {
				break
			}
			scanned, s = scanned+step.Scanned, step.Next
		}
		if scanned == 0 {
			t.Errorf("%s: Queries of an empty partition then c#03 under 2 RCU: a run read no item of c#03", name)
		}
		ixFilter, _ := domain.ParseFilter(`status = "FAILED" and attempts >= 2`)
		got, _ = searchToEnd(t, c, dynamo.SearchRequest{Table: searchTable, Index: "ByStatus", Filter: ixFilter, Segments: 4, MaxRCU: 4})
		if g, w := keysOf(got), keysOf(wantIx); strings.Join(g, " ") != strings.Join(w, " ") {
			t.Errorf("%s index: %d matches, want %d", name, len(g), len(w))
		}
	}
}

// TestSearchTokenRefusedByAnotherRead: a token is refused by a read of
// another filter, table or segment count, and read back whole by its own.
func TestSearchTokenRefusedByAnotherRead(t *testing.T) {
	f1, _ := domain.ParseFilter(`status = "FAILED"`)
	f2, _ := domain.ParseFilter(`status = "OK"`)
	r := dynamo.SearchRequest{Table: searchTable, Filter: f1, Segments: 3}
	streams := []dynamo.SearchStream{{Done: true}, {Start: dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "c#01"}, "SK": &types.AttributeValueMemberS{Value: "o#02"}}}, {}}
	sizing := dynamo.SearchSizing{RCU: 12.5, Items: 300}
	token := dynamo.SearchToken(r.Fingerprint(), dynamo.SearchPosition{Streams: streams, Sizing: sizing})
	pos, err := dynamo.ParseSearchToken(token, r.Fingerprint())
	if err != nil {
		t.Fatal(err)
	}
	if back := pos.Streams; len(back) != 3 || !back[0].Done || str(back[1].Start, "SK") != "o#02" || back[2].Start != nil || back[2].Done || pos.Sizing != sizing {
		t.Fatalf("token read back as %+v", pos)
	}
	for _, other := range []dynamo.SearchRequest{
		{Table: searchTable, Filter: f2, Segments: 3},
		{Table: "Other", Filter: f1, Segments: 3},
		{Table: searchTable, Filter: f1, Segments: 4},
		{Table: searchTable, Index: "ByStatus", Filter: f1, Segments: 3},
	} {
		if _, err := dynamo.ParseSearchToken(token, other.Fingerprint()); err == nil {
			t.Errorf("token accepted by %+v", other)
		}
	}
	if _, err := dynamo.ParseSearchToken("not-a-token", r.Fingerprint()); err == nil {
		t.Error("garbage accepted as a token")
	}
}

// TestSearchGoesOnAfterAFailedRead: a step whose reads partly fail keeps
// what the others found, and its Next reads the failed ones again (what a
// token given after the failure resumes): nothing lost, nothing twice.
func TestSearchGoesOnAfterAFailedRead(t *testing.T) {
	filter, _ := domain.ParseFilter(`status = "FAILED"`)
	for name, c := range searchBackends(t) {
		var want []dynamo.Item
		for _, it := range wholeTable(t, c) {
			if str(it, "status") == "FAILED" {
				want = append(want, it)
			}
		}
		failing := &scans{Client: c, fail: map[int]bool{2: true, 3: true, 7: true}}
		s, _ := dynamo.StartSearch(dynamo.SearchRequest{Table: searchTable, Filter: filter, Segments: 4, MaxRCU: 8}, nil)
		var got []dynamo.Item
		failures := 0
		for s.More() {
			step, err := dynamo.ReadSearch(context.Background(), failing, s)
			got = append(got, step.Items...)
			if err != nil {
				failures++
			}
			s = step.Next
			if step.Stopped {
				s = s.Extend(8) // as the explorer goes on
			}
		}
		if g, w := keysOf(got), keysOf(want); failures == 0 || strings.Join(g, " ") != strings.Join(w, " ") {
			t.Errorf("%s: %d failures, %d matches, want %d", name, failures, len(g), len(w))
		}
	}
}

// failingAt answers its nth Scan (1-based) with err instead of the
// backend's answer.
type failingAt struct {
	dynamo.Client
	mu  sync.Mutex
	n   int
	at  int
	err error
}

func (f *failingAt) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	f.mu.Lock()
	f.n++
	n := f.n
	f.mu.Unlock()
	if n == f.at {
		return nil, f.err
	}
	return f.Client.Scan(ctx, in, o...)
}

// TestSearchRefusedReadIsNotResumed: a read the server refused for what
// it asked (a filter it refuses, on each backend; a ValidationException,
// a table gone, access denied) is Refused, so no token is offered to
// read it again; a read throttled, timed out or cancelled is not, and
// going on from the step's Next reads the rest, each match once.
func TestSearchRefusedReadIsNotResumed(t *testing.T) {
	bad, _ := domain.ParseFilter(`attribute_type(status, "Q")`)
	filter, _ := domain.ParseFilter(`status = "FAILED"`)
	ctx := context.Background()
	for name, c := range searchBackends(t) {
		// The backend's own refusal: no budget, so the filter is sent.
		s, _ := dynamo.StartSearch(dynamo.SearchRequest{Table: searchTable, Filter: bad}, nil)
		if _, err := dynamo.ReadSearch(ctx, c, s); err == nil || !dynamo.Refused(err) {
			t.Errorf("%s: a filter the server refuses: %v, Refused %v", name, err, dynamo.Refused(err))
		}
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := dynamo.ReadSearch(cancelled, c, s); err == nil || dynamo.Refused(err) {
			t.Errorf("%s: a cancelled read: %v, Refused %v", name, err, dynamo.Refused(err))
		}
		var want []dynamo.Item
		for _, it := range wholeTable(t, c) {
			if str(it, "status") == "FAILED" {
				want = append(want, it)
			}
		}
		for _, tc := range []struct {
			err     error
			refused bool
		}{
			{&smithy.GenericAPIError{Code: "ValidationException", Message: "The provided starting key is invalid"}, true},
			{&smithy.GenericAPIError{Code: "AccessDeniedException", Message: "not authorized to perform: dynamodb:Scan"}, true},
			{&types.ResourceNotFoundException{Message: aws.String("Requested resource not found")}, true},
			{&smithy.GenericAPIError{Code: "ThrottlingException", Message: "Rate of requests exceeds the allowed throughput"}, false},
			{&smithy.GenericAPIError{Code: "ProvisionedThroughputExceededException", Message: "throughput exceeded"}, false},
			{context.DeadlineExceeded, false},
			{context.Canceled, false},
		} {
			f := &failingAt{Client: c, at: 3, err: tc.err}
			s, _ := dynamo.StartSearch(dynamo.SearchRequest{Table: searchTable, Filter: filter, Segments: 4, MaxRCU: 8}, nil)
			var got []dynamo.Item
			var failed error
			for s.More() {
				step, err := dynamo.ReadSearch(ctx, f, s)
				got = append(got, step.Items...)
				s = step.Next
				if err != nil && failed == nil {
					failed = err
					if dynamo.Refused(err) {
						break
					}
				}
				if step.Stopped {
					s = s.Extend(8)
				}
			}
			if failed == nil || dynamo.Refused(failed) != tc.refused {
				t.Errorf("%s %v: failed with %v, Refused %v, want %v", name, tc.err, failed, dynamo.Refused(failed), tc.refused)
				continue
			}
			if g, w := keysOf(got), keysOf(want); !tc.refused && strings.Join(g, " ") != strings.Join(w, " ") {
				t.Errorf("%s %v: resumed, %d matches, want %d", name, tc.err, len(g), len(w))
			}
		}
	}
}

// variedTable: 800 items of 100 to 6,100 bytes, evenly spread: an
// average of the first few items read is no bound on the next ones.
const variedTable = "SearchVaried"

var variedSeeded seededTable

func variedBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	return seededBackends(t, &variedSeeded, func(ctx context.Context, w dynamo.Writer) error {
		_, err := w.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(variedTable), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}}})
		if err != nil {
			return err
		}
		if err := demo.WaitActive(ctx, w, variedTable); err != nil {
			return err
		}
		r := rand.New(rand.NewPCG(39, 1))
		var reqs []types.WriteRequest
		for i := range 800 {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: dynamo.Item{
				"PK":   &types.AttributeValueMemberS{Value: fmt.Sprintf("p%04d", i)},
				"n":    &types.AttributeValueMemberN{Value: strconv.Itoa(i)},
				"Data": &types.AttributeValueMemberS{Value: strings.Repeat("v", 100+r.IntN(6000))},
			}}})
			for len(reqs) == 25 || i == 799 && len(reqs) > 0 {
				out, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{variedTable: reqs}})
				if err != nil {
					return err
				}
				reqs = out.UnprocessedItems[variedTable]
			}
		}
		return nil
	})
}

// TestSearchBudgetHoldsOnVariedItems: where item sizes vary (100 to
// 6,100 bytes) no run spends more than its budget and half a read unit,
// and the runs together find every match once. Reads sized by the
// average of the items read before, each as large as the budget allows,
// overspent by 1 to 2 RCU here.
func TestSearchBudgetHoldsOnVariedItems(t *testing.T) {
	filter, _ := domain.ParseFilter(`n >= 700`)
	for name, c := range variedBackends(t) {
		for _, segments := range []int{1, 4} {
			for _, budget := range []float64{5, 20} {
				got, runs := searchToEnd(t, c, dynamo.SearchRequest{Table: variedTable, Filter: filter, Segments: segments, MaxRCU: budget})
				if len(got) != 100 || len(keysOf(got)) != 100 {
					t.Errorf("%s segments=%d budget=%g: %d matches, want 100", name, segments, budget, len(got))
				}
				for i, rcu := range runs {
					if rcu > budget+0.5 {
						t.Errorf("%s segments=%d budget=%g: run %d of %d spent %.1f RCU", name, segments, budget, i+1, len(runs), rcu)
					}
				}
			}
		}
	}
}

// fewSampledTable is one partition of 300 items whose first (in sort-key
// order) is tiny and the rest 400 to 3,000 bytes, the largest among the
// first eight: what the largest of one item, or of four, tells of the
// rest.
const fewSampledTable = "FewSampled"

var fewSampledSeeded seededTable

func fewSampledBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	return seededBackends(t, &fewSampledSeeded, func(ctx context.Context, w dynamo.Writer) error {
		sizes := []int{900, 3000, 1600, 400, 2400, 1200, 2800, 700}
		items := make([]dynamo.Item, 300)
		for i := range items {
			size := 10
			if i > 0 {
				size = sizes[(i-1)%len(sizes)]
			}
			items[i] = dynamo.Item{
				"PK":   &types.AttributeValueMemberS{Value: "p"},
				"SK":   &types.AttributeValueMemberN{Value: strconv.Itoa(i)},
				"Data": &types.AttributeValueMemberS{Value: strings.Repeat("f", size)},
			}
		}
		return demo.CreateKeyTable(ctx, w, fewSampledTable, types.ScalarAttributeTypeN, items)
	})
}

// TestSearchBudgetHoldsFromAFewItems: a search that has read one item,
// or a few, does not size a read by their largest: no run spends more
// than its budget and half a read unit where the largest item is among
// the first eight, and the runs find every item once. A read unit's
// worth at the size of the first item (10 bytes of data) read 77 items
// of 1.6 KB on average, 16.5 RCU of a budget of 5; so it did on a table
// of log-normal sizes (53 items, 7 RCU of 5).
func TestSearchBudgetHoldsFromAFewItems(t *testing.T) {
	q := []domain.KeyQuery{{Table: fewSampledTable, PKName: "PK", PK: domain.S("p"), SKName: "SK"}}
	for name, c := range fewSampledBackends(t) {
		for _, budget := range []float64{3, 5, 7.5, 20} {
			got, runs := searchToEnd(t, c, dynamo.SearchRequest{Table: fewSampledTable, Queries: q, MaxRCU: budget})
			once := map[string]bool{}
			for _, it := range got {
				if n, ok := it["SK"].(*types.AttributeValueMemberN); ok {
					once[n.Value] = true
				}
			}
			if len(got) != 300 || len(once) != 300 {
				t.Errorf("%s budget=%g: %d items (%d keys), want 300", name, budget, len(got), len(once))
			}
			for i, rcu := range runs {
				if rcu > budget+0.5 {
					t.Errorf("%s budget=%g: run %d of %d spent %.1f RCU", name, budget, i+1, len(runs), rcu)
				}
			}
		}
	}
}

// The heavy-tailed shapes a budget is held on: 300 items of 100 to 300
// bytes, among which none, every tenth one of 30 KB, or three (1%) of
// 300 KB; every fifth is grp "x" (what the filtered searches match).
var heavyShapes = []struct {
	table string
	heavy func(i int) int // an item's Data size, 0: small
}{
	{"HeavyNone", func(int) int { return 0 }},
	{"HeavyTenth", func(i int) int { return map[bool]int{true: 30 << 10}[i%10 == 3] }},
	{"HeavyHundredth", func(i int) int { return map[bool]int{true: 300 << 10}[i%100 == 41] }},
}

var heavySeeded seededTable

func heavyBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	return seededBackends(t, &heavySeeded, func(ctx context.Context, w dynamo.Writer) error {
		for _, sh := range heavyShapes {
			_, err := w.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(sh.table), BillingMode: types.BillingModePayPerRequest,
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}}})
			if err != nil {
				return err
			}
			if err := demo.WaitActive(ctx, w, sh.table); err != nil {
				return err
			}
			r := rand.New(rand.NewPCG(39, 2))
			var reqs []types.WriteRequest
			for i := range 300 {
				size := sh.heavy(i)
				if size == 0 {
					size = 100 + r.IntN(200)
				}
				grp := "y"
				if i%5 == 0 {
					grp = "x"
				}
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: dynamo.Item{
					"PK":   &types.AttributeValueMemberS{Value: fmt.Sprintf("p%04d", i)},
					"grp":  &types.AttributeValueMemberS{Value: grp},
					"Data": &types.AttributeValueMemberS{Value: strings.Repeat("h", size)},
				}}})
				for len(reqs) == 10 || i == 299 && len(reqs) > 0 {
					out, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{sh.table: reqs}})
					if err != nil {
						return err
					}
					reqs = out.UnprocessedItems[sh.table]
				}
			}
		}
		return nil
	})
}

// sizeRecorder is a searchRecorder that also tells, for each run, how
// much more than the budget an item larger than any read before it may
// have spent: the cost of each such item read whole.
type sizeRecorder struct {
	searchRecorder
	seen  *int    // the largest item read before this step, over every run
	step  int     // the largest item read in this step
	fresh float64 // the cost of this run's items larger than any before their step
}

func (r *sizeRecorder) meet(items []dynamo.Item) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, it := range items {
		if b := dynamo.ItemBytes(it); b > *r.seen {
			r.fresh += float64((b+4095)/4096) * 0.5
			r.step = max(r.step, b)
		}
	}
}

// stepDone makes the items of the step just read seen.
func (r *sizeRecorder) stepDone() { *r.seen = max(*r.seen, r.step) }

func (r *sizeRecorder) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	out, err := r.searchRecorder.Scan(ctx, in, o...)
	if err == nil {
		r.meet(out.Items)
	}
	return out, err
}

// TestSearchBudgetHoldsOnHeavyTails (#39): on items of 100 bytes among
// items of 30 KB or 300 KB, with or without a filter, in 1, 4 or 8
// segments, no run spends more than its budget and half a read unit,
// unless it met items larger than any read before its step (the first
// read of all, or the first heavy one), and then by no more than those
// items cost; a search resumed until it ends finds every match once. Reads
// sized by the mean of the items read overspent budgets of 5 to 100 RCU
// here by 2.5 to 11 RCU. It logs budget → the most a run spent.
func TestSearchBudgetHoldsOnHeavyTails(t *testing.T) {
	filter, _ := domain.ParseFilter(`grp = "x"`)
	for name, c := range heavyBackends(t) {
		for _, sh := range heavyShapes {
			for _, f := range []domain.FilterNode{nil, filter} {
				for _, budget := range []float64{1, 5, 20, 100} {
					most, exceptions, runsAll := 0.0, 0, 0
					for _, segments := range []int{1, 4, 8} {
						label := fmt.Sprintf("%s %s filter=%v segments=%d budget=%g", name, sh.table, f != nil, segments, budget)
						r := dynamo.SearchRequest{Table: sh.table, Filter: f, Segments: segments, MaxRCU: budget}
						seen := 0
						var from *dynamo.SearchPosition
						var got []dynamo.Item
						ended := false
						for run := 0; run < 40 && !ended; run++ {
							rec := &sizeRecorder{searchRecorder: searchRecorder{Client: c}, seen: &seen}
							s, err := dynamo.StartSearch(r, from)
							if err != nil {
								t.Fatal(err)
							}
							for s.More() {
								step, err := dynamo.ReadSearch(context.Background(), rec, s)
								if err != nil {
									t.Fatal(err)
								}
								rec.stepDone()
								got = append(got, step.Items...)
								s = step.Next
								if step.Stopped {
									break
								}
							}
							runsAll++
							most = max(most, rec.rcu)
							if rec.rcu > budget+0.5 {
								exceptions++
								if rec.rcu > budget+0.5+rec.fresh {
									t.Errorf("%s: run %d spent %.1f RCU, items larger than any before cost %.1f", label, run+1, rec.rcu, rec.fresh)
								}
							}
							if ended = !s.More(); ended || rec.rcu == 0 {
								break // the end, or a budget that pays for no item of the largest size read
							}
							from = &dynamo.SearchPosition{Streams: s.Position().Streams, Sizing: s.Position().Sizing}
						}
						if ended {
							want := 0
							if f == nil {
								want = 300
							} else {
								want = 60
							}
							if len(got) != want || len(keysOf(got)) != want {
								t.Errorf("%s: %d matches, want %d", label, len(got), want)
							}
						}
					}
					t.Logf("%-8s %-14s filter=%-5v budget %5g → at most %6.1f RCU a run (%d runs, %d over by a larger item)", name, sh.table, f != nil, budget, most, runsAll, exceptions)
				}
			}
		}
	}
}

// The table nobody here has seen (#39): 3,000 items of about 300 bytes
// with three heavy ones (50, 120 and 200 KB) among them, a binary sort
// key, partition keys in several scripts and with control characters,
// attribute names that are reserved words or hold "-", "." or spaces,
// nested maps and lists, string, number and binary sets, binary, NULL
// and BOOL values; a sparse GSI (every tenth item), a GSI on a number,
// an LSI on a number half the items hold.
const hostileTable = "Hostile-Table.v2"

var hostileSeeded seededTable

func hostileBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	return seededBackends(t, &hostileSeeded, createHostileTable)
}

// hostileHeavy are the heavy items' numbers and their Data sizes.
var hostileHeavy = map[int]int{1234: 50 << 10, 1777: 120 << 10, 2468: 200 << 10}

var hostileNames = []string{"Zoë", "李小龍", `O'Brien "Ob"`, "comma, here", "new\nline", "bell\a and \x1b[31mred", "\u202ertl", "plain"}

func hostileItem(i int) dynamo.Item {
	S := func(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
	N := func(n int) types.AttributeValue { return &types.AttributeValueMemberN{Value: strconv.Itoa(n)} }
	pk := fmt.Sprintf("p#%02d", i%60)
	if i%7 == 0 {
		pk = fmt.Sprintf("ü日本\t%02d", i%60)
	}
	data := 100 + (i*37)%300
	if h, ok := hostileHeavy[i]; ok {
		data = h
	}
	it := dynamo.Item{
		"PK":         S(pk),
		"SK":         &types.AttributeValueMemberB{Value: []byte{byte(i >> 8), byte(i), 0, 0xff}},
		"n":          N(i),
		"status":     S([]string{"OK", "FAILED", "RETRY"}[i%3]),
		"a.b":        N(i % 10),
		"first name": S(hostileNames[i%len(hostileNames)]),
		"size":       N(i % 50),
		"flag":       &types.AttributeValueMemberBOOL{Value: i%2 == 0},
		"nested": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"list": &types.AttributeValueMemberL{Value: []types.AttributeValue{S("x"), N(i % 4), &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"deep": S(fmt.Sprintf("y%d", i%10))}}}},
			"k-1":  &types.AttributeValueMemberBOOL{Value: i%3 == 0},
		}},
		"Data": S(strings.Repeat("d", data)),
	}
	if i%2 == 0 {
		it["order-id"] = S(fmt.Sprintf("o-%d", i))
	}
	if i%4 == 0 {
		it["tags"] = &types.AttributeValueMemberSS{Value: []string{fmt.Sprintf("t%d", i%5), "all"}}
	}
	if i%6 == 0 {
		it["nums"] = &types.AttributeValueMemberNS{Value: []string{strconv.Itoa(i % 3), strconv.Itoa(i%3 + 10)}}
	}
	if i%5 == 0 {
		it["blob"] = &types.AttributeValueMemberB{Value: []byte{0, byte(i), 0xfe, '\n'}}
	}
	if i%9 == 0 {
		it["bins"] = &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, byte(i)}}}
	}
	if i%13 == 0 {
		it["nothing"] = &types.AttributeValueMemberNULL{Value: true}
	}
	if i%10 == 0 {
		it["gpk"], it["gsk"] = S(fmt.Sprintf("g%d", i%3)), N(i)
	}
	if i%4 != 3 {
		it["num"] = N(i % 40)
	}
	if i%2 == 1 {
		it["when"] = N(i * 7 % 1000)
	}
	return it
}

func createHostileTable(ctx context.Context, w dynamo.Writer) error {
	def := func(name string, t types.ScalarAttributeType) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: t}
	}
	key := func(pk, sk string) []types.KeySchemaElement {
		k := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
		if sk != "" {
			k = append(k, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
		}
		return k
	}
	all := &types.Projection{ProjectionType: types.ProjectionTypeAll}
	_, err := w.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(hostileTable), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{def("PK", types.ScalarAttributeTypeS), def("SK", types.ScalarAttributeTypeB),
			def("gpk", types.ScalarAttributeTypeS), def("gsk", types.ScalarAttributeTypeN), def("num", types.ScalarAttributeTypeN), def("when", types.ScalarAttributeTypeN)},
		KeySchema: key("PK", "SK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("Sparse"), KeySchema: key("gpk", "gsk"), Projection: all},
			{IndexName: aws.String("by-num.1"), KeySchema: key("num", ""), Projection: all},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("ByWhen"), KeySchema: key("PK", "when"), Projection: all}},
	})
	if err != nil {
		return err
	}
	if err := demo.WaitActive(ctx, w, hostileTable); err != nil {
		return err
	}
	var reqs []types.WriteRequest
	for i := range 3000 {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: hostileItem(i)}})
		for len(reqs) == 25 || i == 2999 && len(reqs) > 0 {
			out, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{hostileTable: reqs}})
			if err != nil {
				return err
			}
			reqs = out.UnprocessedItems[hostileTable]
		}
	}
	return nil
}

// hostile reads an item's attributes for the test's own matching.
type hostile dynamo.Item

func (h hostile) num(name string) (int, bool) {
	v, ok := h[name].(*types.AttributeValueMemberN)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v.Value)
	return n, err == nil
}

func (h hostile) n() int { n, _ := h.num("n"); return n }

func (h hostile) s(name string) string { return str(dynamo.Item(h), name) }

func (h hostile) has(name string) bool { _, ok := h[name]; return ok }

func (h hostile) nested() map[string]types.AttributeValue {
	return h["nested"].(*types.AttributeValueMemberM).Value
}

func (h hostile) list(i int) types.AttributeValue {
	return h.nested()["list"].(*types.AttributeValueMemberL).Value[i]
}

func (h hostile) tags() []string {
	if v, ok := h["tags"].(*types.AttributeValueMemberSS); ok {
		return v.Value
	}
	return nil
}

// hostileCase is a filter on the table or an index, and the same test
// written here in Go (an item of the index holds its keys).
type hostileCase struct {
	index, filter string
	match         func(hostile) bool
}

var hostileCases = []hostileCase{
	{"", `status = "FAILED"`, func(h hostile) bool { return h.s("status") == "FAILED" }},
	{"", `status <> "OK"`, func(h hostile) bool { return h.s("status") != "OK" }},
	{"", `n < 100`, func(h hostile) bool { return h.n() < 100 }},
	{"", `n <= 100`, func(h hostile) bool { return h.n() <= 100 }},
	{"", `n > 2900`, func(h hostile) bool { return h.n() > 2900 }},
	{"", `n >= 2990`, func(h hostile) bool { return h.n() >= 2990 }},
	{"", `n between 1230 and 1240`, func(h hostile) bool { return h.n() >= 1230 && h.n() <= 1240 }},
	{"", `status in ("RETRY", "FAILED") and n < 30`, func(h hostile) bool { return h.s("status") != "OK" && h.n() < 30 }},
	{"", `attribute_exists(tags)`, func(h hostile) bool { return h.has("tags") }},
	{"", `attribute_not_exists(blob)`, func(h hostile) bool { return !h.has("blob") }},
	{"", `attribute_type(nothing, "NULL")`, func(h hostile) bool { return h.has("nothing") }},
	{"", `attribute_type(SK, "B") and attribute_type(bins, "BS")`, func(h hostile) bool { return h.has("bins") }},
	{"", `begins_with(PK, "ü日本` + "\t" + `1")`, func(h hostile) bool { return strings.HasPrefix(h.s("PK"), "ü日本\t1") }},
	{"", `contains(tags, "t1")`, func(h hostile) bool { return slices.Contains(h.tags(), "t1") }},
	{"", "contains(`first name`, \"ë\")", func(h hostile) bool { return strings.Contains(h.s("first name"), "ë") }},
	{"", `size(Data) > 1000`, func(h hostile) bool { return len(h.s("Data")) > 1000 }},
	{"", "`a.b` = 3 and n < 200", func(h hostile) bool { a, _ := h.num("a.b"); return a == 3 && h.n() < 200 }},
	{"", "`order-id` = \"o-42\"", func(h hostile) bool { return h.s("order-id") == "o-42" }},
	{"", `nested.list[1] = 2`, func(h hostile) bool { return h.list(1).(*types.AttributeValueMemberN).Value == "2" }},
	{"", `nested.list[2].deep = "y7"`, func(h hostile) bool {
		return str(h.list(2).(*types.AttributeValueMemberM).Value, "deep") == "y7"
	}},
	{"", "nested.`k-1` = true and n < 300", func(h hostile) bool {
		return h.nested()["k-1"].(*types.AttributeValueMemberBOOL).Value && h.n() < 300
	}},
	{"", `not (flag = true)`, func(h hostile) bool { return h.n()%2 == 1 }},
	{"", "`size` >= 45 or n = 0", func(h hostile) bool { s, _ := h.num("size"); return s >= 45 || h.n() == 0 }},
	{"", `contains(nums, 10)`, func(h hostile) bool { return h.has("nums") && h.n()%3 == 0 }},
	{"", "`first name` = \"new\\nline\"", func(h hostile) bool { return h.s("first name") == "new\nline" }},
	{"", "`first name` = \"bell\a and \x1b[31mred\"", func(h hostile) bool { return h.s("first name") == "bell\a and \x1b[31mred" }},
	{"", `size(tags) = 2 and flag = false`, func(h hostile) bool { return false }},
	{"", `n < 0`, func(h hostile) bool { return false }},
	{"", `attribute_exists(n)`, func(h hostile) bool { return true }},
	{"", `flag = true and status = "OK" or n = 5`, func(h hostile) bool { return h.n()%2 == 0 && h.s("status") == "OK" || h.n() == 5 }},
	{"", `nothing = null`, func(h hostile) bool { return h.has("nothing") }},
	{"Sparse", `gpk = "g1"`, func(h hostile) bool { return h.s("gpk") == "g1" }},
	{"Sparse", `gsk between 100 and 500`, func(h hostile) bool { n, _ := h.num("gsk"); return n >= 100 && n <= 500 }},
	{"Sparse", `attribute_exists(gpk)`, func(h hostile) bool { return true }},
	{"Sparse", `attribute_not_exists(gsk)`, func(h hostile) bool { return false }},
	{"by-num.1", `num = 7`, func(h hostile) bool { n, _ := h.num("num"); return n == 7 }},
	{"by-num.1", `num in (1, 2, 3) and status = "OK"`, func(h hostile) bool {
		n, _ := h.num("num")
		return n >= 1 && n <= 3 && h.s("status") == "OK"
	}},
	{"ByWhen", `when > 990`, func(h hostile) bool { n, _ := h.num("when"); return n > 990 }},
	{"ByWhen", `size(Data) >= 51200`, func(h hostile) bool { return len(h.s("Data")) >= 51200 }},
}

// hostileIndexKeys are the attributes an item of each index holds.
var hostileIndexKeys = map[string][]string{"": nil, "Sparse": {"gpk", "gsk"}, "by-num.1": {"num"}, "ByWhen": {"when"}}

func hostileKey(it dynamo.Item) string {
	return fmt.Sprintf("%q/%x", str(it, "PK"), it["SK"].(*types.AttributeValueMemberB).Value)
}

// costRecorder records what every Scan cost as the server reported it
// (consumed) and as DynamoDB bills it (billed: at least 0.5 a read, and
// no less than the items sent back weigh), and which items it met whose
// size no item read in an earlier step reached (fresh: they may pass the
// budget, physically unknowable before they are read).
type costRecorder struct {
	dynamo.Client
	mu               sync.Mutex
	requests         int
	consumed, billed float64
	seen             *int // the largest item read in an earlier step, over every run
	step             int
	fresh            []string
	freshRCU         float64
}

func (r *costRecorder) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	out, err := r.Client.Scan(ctx, in, o...)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests++
	if err != nil {
		return out, err
	}
	units := 0.0
	if out.ConsumedCapacity != nil && out.ConsumedCapacity.CapacityUnits != nil {
		units = *out.ConsumedCapacity.CapacityUnits
	}
	r.consumed += units
	bytes := 0
	for _, it := range out.Items {
		b := dynamo.ItemBytes(it)
		bytes += b
		if b > *r.seen {
			r.fresh = append(r.fresh, hostileKey(it))
			r.freshRCU += float64((b+4095)/4096) * 0.5
			r.step = max(r.step, b)
		}
	}
	r.billed += max(units, float64(max((bytes+4095)/4096, 1))*0.5)
	return out, nil
}

// requestRecorder keeps each Query's Limit (0: none), billed RCU and
// the cost of its heaviest item read alone, in the order answered.
type requestRecorder struct {
	dynamo.Client
	mu       sync.Mutex
	limits   []int32
	rcus     []float64
	heaviest []float64
}

func (r *requestRecorder) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := r.Client.Query(ctx, in, o...)
	if err == nil {
		billed, _ := dynamo.BilledRCU(aws.ToFloat64(out.ConsumedCapacity.CapacityUnits), out.Items, false)
		most := 0
		for _, it := range out.Items {
			most = max(most, dynamo.ItemBytes(it))
		}
		r.mu.Lock()
		r.limits, r.rcus = append(r.limits, aws.ToInt32(in.Limit)), append(r.rcus, billed)
		r.heaviest = append(r.heaviest, dynamo.ReadCost(1, most, false))
		r.mu.Unlock()
	}
	return out, err
}

// pastBudget says where a run the recorder saw spent past its budget
// (and half a read unit) by more than one item of the read that passed
// it, or went on reading past it: "" where it did not.
func (r *requestRecorder) pastBudget(budget float64) string {
	run := 0.0
	for i, rcu := range r.rcus {
		if run+rcu > budget+0.5 && (run+rcu > budget+0.5+r.heaviest[i] || run > budget+0.5) {
			return fmt.Sprintf("request %d (Limit %d) spent %.1f RCU past %.1f of a budget of %g: more than one item (%.1f RCU) past it", i+1, r.limits[i], rcu, run, budget, r.heaviest[i])
		}
		run += rcu
	}
	return ""
}

// heavyRunsTable is one partition p: six blobs of 108-266 KB, 40 items of
// 40 bytes, the six blobs again and 40 small items again (the shop's
// partition of blobs, twice).
const heavyRunsTable = "HeavyRuns"

var heavyRunsSeeded seededTable

func heavyRunsBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	return seededBackends(t, &heavyRunsSeeded, func(ctx context.Context, w dynamo.Writer) error {
		blobs := heavyAt(0)
		var items []dynamo.Item
		for i := range 92 {
			data := strings.Repeat("d", 40)
			if b := blobs(0, i%46); b > 0 {
				data = strings.Repeat("h", b)
			}
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"},
				"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("s%03d", i)}, "Data": &types.AttributeValueMemberS{Value: data}})
		}
		return demo.CreateKeyTable(ctx, w, heavyRunsTable, types.ScalarAttributeTypeS, items)
	})
}

// TestSearchBudgetHoldsAcrossPartitions (#39, #37): a statement's Queries
// read at a budget on the boto3 shop's shape (partitions of 40-byte items,
// p003 beginning with six blobs of 108-266 KB, then twenty small items),
// and on a partition of blobs and small items twice over, each run after
// a stop granted what the explorer's r grants (the budget, or one item of
// the size that sizes the next read where that is more), resumed from a
// token (headless --resume) or extended (r): a run spends past its grant
// by no more than one item, and the small items after the blobs take no
// press of their own beyond one, not one each. Sized by the items of the
// partitions read before, the read that entered p003 met five blobs (128
// RCU of a budget of 5); sized by the heaviest item ever read, the rest
// took 51 presses of r, one item each; sized by the small items after
// the blobs alone, a read met the second six (94 RCU past a grant of 33).
// Unbudgeted and whole-page reads ask for no Limit, as before.
func TestSearchBudgetHoldsAcrossPartitions(t *testing.T) {
	queries := func(table string, pks ...string) []domain.KeyQuery {
		var qs []domain.KeyQuery
		for _, pk := range pks {
			qs = append(qs, domain.KeyQuery{Table: table, PKName: "PK", PK: domain.S(pk), SKName: "SK"})
		}
		return qs
	}
	cases := []struct {
		name    string
		queries []domain.KeyQuery
		items   int
		blobs   int // each costs more than the budgets: a press each at most
	}{
		{"heavy second", queries("PartsHeavy", "p001", "p003", "p008"), 70 + 26 + 50, 6},
		{"heavy first", queries("PartsHeavy", "p003", "p008"), 26 + 50, 6},
		{"heavy alone", queries("PartsHeavy", "p003"), 26, 6},
		{"heavy twice", queries(heavyRunsTable, "p"), 92, 12},
	}
	heavyRuns := heavyRunsBackends(t)
	for name, parts := range partBackends(t) {
		for _, tc := range cases {
			c := parts
			if tc.queries[0].Table == heavyRunsTable {
				c = heavyRuns[name]
			}
			r := dynamo.SearchRequest{Table: tc.queries[0].Table, Queries: tc.queries, Origin: "partiql"}
			for _, budget := range []float64{0, 1000} {
				r.MaxRCU = budget
				rec := &requestRecorder{Client: c}
				s, _ := dynamo.StartSearch(r, nil)
				for s.More() {
					step, err := dynamo.ReadSearch(context.Background(), rec, s)
					if err != nil {
						t.Fatal(err)
					}
					s = step.Next
				}
				if slices.ContainsFunc(rec.limits, func(l int32) bool { return l != 0 }) {
					t.Errorf("%s %s budget=%g: Limits %v, want none (whole pages)", name, tc.name, budget, rec.limits)
				}
			}
			for _, budget := range []float64{5, 20} {
				for _, resume := range []bool{true, false} {
					label := fmt.Sprintf("%s %s budget=%g resume=%v", name, tc.name, budget, resume)
					r.MaxRCU = budget
					s, _ := dynamo.StartSearch(r, nil)
					var got []dynamo.Item
					runs, requests, spent := 0, 0, 0.0
					for grant := budget; runs < 200; runs++ {
						rec := &requestRecorder{Client: c}
						for s.More() {
							step, err := dynamo.ReadSearch(context.Background(), rec, s)
							if err != nil {
								t.Fatal(err)
							}
							got = append(got, step.Items...)
							s = step.Next
							if step.Stopped {
								break
							}
						}
						if past := rec.pastBudget(grant); past != "" {
							t.Errorf("%s: run %d's %s", label, runs+1, past)
						}
						for _, rcu := range rec.rcus {
							spent += rcu
						}
						requests += len(rec.rcus)
						if !s.More() {
							break
						}
						grant = max(budget, s.LeastRCU())
						if resume {
							r.MaxRCU = grant
							from, err := dynamo.ParseSearchToken(dynamo.SearchToken(r.Fingerprint(), s.Position()), r.Fingerprint())
							if err != nil {
								t.Fatal(err)
							}
							s, _ = dynamo.StartSearch(r, from)
						} else {
							s = s.Extend(grant)
						}
					}
					if len(got) != tc.items || len(keysOf(got)) != len(slices.Compact(keysOf(got))) {
						t.Errorf("%s: %d items (%d keys), want %d once each", label, len(got), len(slices.Compact(keysOf(got))), tc.items)
					}
					if runs > tc.blobs+1 {
						t.Errorf("%s: %d presses of r to read on, want %d at most: one a blob, the small items after them in one", label, runs, tc.blobs+1)
					}
					t.Logf("%s: %d presses, %d requests, %.1f RCU", label, runs, requests, spent)
				}
			}
		}
	}
}

// TestSearchOnATableNobodyHasSeen (#39): on the hostile table, on dynalite
// and the embedded backend, every filter (each operator of the grammar,
// on the table and each index, matching nothing and everything), in 1, 3
// and 8 segments and as many as the table's size calls for, unbudgeted
// and at 50, 7.5 and 1 RCU resumed from a token (as text) after every
// stop, finds what a full read matched here finds, each item once; each
// run's billed RCU is within its budget and half a read unit but where
// it met items larger than any read in a step before (the first read,
// the heavy ones: named, and the excess no more than they cost); the
// steps' requests and RCU are what the client saw; every token is refused
// by another table, index, filter or segment count.
func TestSearchOnATableNobodyHasSeen(t *testing.T) {
	ctx := context.Background()
	t0 := time.Now()
	for name, c := range hostileBackends(t) {
		t.Logf("%s seeded at %v", name, time.Since(t0))
		info, _, err := dynamo.DescribeTable(ctx, c, hostileTable)
		if err != nil {
			t.Fatal(err)
		}
		all := map[string][]hostile{}
		for _, it := range wholeTableOf(t, c, hostileTable) {
			for index, keys := range hostileIndexKeys {
				if !slices.ContainsFunc(keys, func(k string) bool { _, ok := it[k]; return !ok }) {
					all[index] = append(all[index], hostile(it))
				}
			}
		}
		if len(all[""]) != 3000 || len(all["Sparse"]) != 300 {
			t.Fatalf("%s: %d items, %d in Sparse", name, len(all[""]), len(all["Sparse"]))
		}
		mixed := 0 // tokens whose segments stopped at different points
		for k, tc := range hostileCases {
			filter, err := domain.ParseFilter(tc.filter)
			if err != nil {
				t.Fatalf("%q: %v", tc.filter, err)
			}
			var want []string
			for _, h := range all[tc.index] {
				if tc.match(h) {
					want = append(want, hostileKey(dynamo.Item(h)))
				}
			}
			sort.Strings(want)
			// Every filter unbudgeted in every segment count; under a
			// budget (a heavy item met, a run reads an item or a few at a
			// time: thousands of requests) a rotation of filters, segment
			// counts and budgets, fewer on dynalite.
			segs := []int{1, 3, 8, dynamo.SearchSegments(info.SizeBytes)}
			var runs []hostileRun
			for i, s := range segs {
				if name == "memory" || i == k%4 {
					runs = append(runs, hostileRun{s, 0})
				}
			}
			runs = append(runs, hostileBudgeted(name, k, segs)...)
			for _, rn := range runs {
				label := fmt.Sprintf("%s index=%q %q segments=%d budget=%g", name, tc.index, tc.filter, rn.segments, rn.budget)
				r := dynamo.SearchRequest{Table: hostileTable, Index: tc.index, Filter: filter, Segments: rn.segments, MaxRCU: rn.budget, Origin: "scan", TableBytes: info.SizeBytes}
				got, m := hostileToEnd(t, c, r, label)
				mixed += m
				if g := keysOfHostile(got); strings.Join(g, " ") != strings.Join(want, " ") {
					t.Errorf("%s: %d matches (%d distinct), want %d", label, len(got), len(g), len(want))
				}
			}
		}
		if mixed == 0 {
			t.Errorf("%s: no token held segments stopped at different points", name)
		}
		t.Logf("%s done at %v", name, time.Since(t0))
	}
}

type hostileRun struct {
	segments int
	budget   float64
}

// hostileBudgeted are the budgeted runs of the k-th case.
func hostileBudgeted(backend string, k int, segs []int) []hostileRun {
	budgets := []float64{50, 7.5, 1}
	if backend == "dynalite" {
		if k%13 != 0 {
			return nil
		}
		return []hostileRun{{segs[(k/13)%4], budgets[(k/13)%3]}}
	}
	if k%3 != 0 {
		return nil
	}
	return []hostileRun{{segs[(k/3)%4], budgets[(k/3)%3]}}
}

func keysOfHostile(items []dynamo.Item) []string {
	seen := map[string]bool{}
	var out []string
	for _, it := range items {
		if k := hostileKey(it); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// hostileToEnd runs r to its end, each run after a stop resumed from the
// token (text) the stop gave, and checks each run's cost; it returns the
// matches and how many tokens held segments stopped at different points.
// A run whose budget pays for no item of the largest size read stops
// before reading, saying what the next read needs (LeastRCU): the next
// run is given that, as `scan` says to.
func hostileToEnd(t *testing.T, c dynamo.Client, r dynamo.SearchRequest, label string) (items []dynamo.Item, mixed int) {
	t.Helper()
	var from *dynamo.SearchPosition
	seen, total, requests := 0, 0.0, 0
	budget := r.MaxRCU
	for n := 0; n < 20000; n++ {
		rec := &costRecorder{Client: c, seen: &seen}
		run := r
		run.MaxRCU = budget
		s, err := dynamo.StartSearch(run, from)
		if err != nil {
			t.Fatal(err)
		}
		var cost dynamo.Cost
		for s.More() {
			step, err := dynamo.ReadSearch(context.Background(), rec, s)
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			seen = max(seen, rec.step)
			cost = cost.Add(step.Cost)
			items = append(items, step.Items...)
			s = step.Next
			if step.Stopped {
				break
			}
		}
		if cost.Requests != rec.requests || !near(cost.RCU, rec.consumed) || !near(cost.Billed, rec.billed) || !near(s.Spent, rec.billed) {
			t.Errorf("%s: run %d counted %d requests, %.2f RCU consumed, %.2f billed (%.2f spent); the client saw %d, %.2f, %.2f",
				label, n+1, cost.Requests, cost.RCU, cost.Billed, s.Spent, rec.requests, rec.consumed, rec.billed)
		}
		if budget > 0 && rec.billed > budget+0.5 {
			if len(rec.fresh) == 0 || rec.billed > budget+0.5+rec.freshRCU {
				t.Errorf("%s: run %d billed %.1f RCU of %g; items larger than any read before: %v (%.1f RCU)", label, n+1, rec.billed, budget, rec.fresh, rec.freshRCU)
			} else {
				t.Logf("%s: run %d billed %.1f RCU of %g: it met items larger than any read before, %v (%.1f RCU)", label, n+1, rec.billed, budget, rec.fresh, rec.freshRCU)
			}
		}
		total, requests = total+rec.billed, requests+rec.requests
		if !s.More() {
			t.Logf("%s: %d runs, %d requests, %.1f RCU billed in all", label, n+1, requests, total)
			return items, mixed
		}
		budget = r.MaxRCU
		if rec.requests == 0 {
			if s.LeastRCU() <= run.MaxRCU {
				t.Fatalf("%s: run %d read nothing at %g RCU, though one item of the largest size read costs %g", label, n+1, run.MaxRCU, s.LeastRCU())
			}
			budget = math.Ceil(s.LeastRCU())
		}
		token := dynamo.SearchToken(r.Fingerprint(), s.Position())
		done := 0
		for _, st := range s.Streams {
			if st.Done {
				done++
			}
		}
		if done > 0 && done < len(s.Streams) {
			mixed++
		}
		if from, err = dynamo.ParseSearchToken(token, r.Fingerprint()); err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		for i := range 4 {
			o := r
			switch i {
			case 0:
				o.Table = "Other"
			case 1:
				o.Index += "2"
			case 2:
				o.Segments++
			default:
				o.Filter = domain.Not{X: r.Filter}
			}
			if _, err := dynamo.ParseSearchToken(token, o.Fingerprint()); err == nil {
				t.Fatalf("%s: the token is taken by a read of %+v", label, o)
			}
		}
	}
	t.Fatalf("%s: no end after 20000 runs", label)
	return nil, 0
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// wholeTableOf is every item of table, by a plain Scan.
func wholeTableOf(t *testing.T, c dynamo.Client, table string) []dynamo.Item {
	t.Helper()
	var items []dynamo.Item
	in := &dynamodb.ScanInput{TableName: aws.String(table)}
	for {
		out, err := c.Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			return items
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// TestSearchReadsASmallTableOnASmallBudget (#39): where the table's size
// is known and under 400 KB (it bounds every item before any is read), a
// budget that pays for no item of that size still reads: one item first,
// then sized by what it weighs. Both reads stopped before their first
// request, a search at 0.0 RCU with a token that read nothing again (a
// loop for whoever resumed it), a Budgeted client with a BudgetSpentError.
func TestSearchReadsASmallTableOnASmallBudget(t *testing.T) {
	for name, c := range searchBackends(t) {
		all := wholeTable(t, c)
		var size int64
		for _, it := range all {
			size += int64(dynamo.ItemBytes(it))
		}
		if size >= dynamo.MaxItemBytes || size < 100<<10 {
			t.Fatalf("%s: the table weighs %d bytes", name, size)
		}
		for _, segments := range []int{1, 3} {
			for _, budget := range []float64{1, 2.5} {
				got, runs := searchToEnd(t, c, dynamo.SearchRequest{Table: searchTable, Segments: segments, MaxRCU: budget, TableBytes: size})
				if len(keysOf(got)) != len(all) || len(got) != len(all) {
					t.Errorf("%s segments=%d budget=%g: %d items in %d runs, want %d", name, segments, budget, len(got), len(runs), len(all))
				}
			}
		}
		b := &dynamo.Budgeted{Client: c, Max: 1, TableBytes: size}
		out, err := b.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(searchTable), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		if err != nil || len(out.Items) != 1 {
			t.Errorf("%s: a Budgeted scan at 1 RCU of a %d-byte table: %v", name, size, err)
		}
	}
}

// TestSearchRefusesWhatDynamoDBRefuses (#39): a filter DynamoDB refuses
// (a number it cannot hold, an attribute_type of no type, BETWEEN bounds
// in the wrong order, an attribute compared with itself) fails the search with or without a budget, on both
// backends, and Check says so before any request. Under a budget the
// filter is applied here by the embedded backend's evaluator, which took
// 1e400 and "Q" and matched nothing: a typo read as "no match" (and
// attempts = attempts, every item that has it).
func TestSearchRefusesWhatDynamoDBRefuses(t *testing.T) {
	for name, c := range searchBackends(t) {
		for _, f := range []string{`attempts = 1e400`, `attempts < 123456789012345678901234567890123456789012`, `attempts > 1e-131`, `attribute_type(status, "Q")`, `attempts between 5 and 1`, `attempts = attempts`} {
			filter, err := domain.ParseFilter(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, budget := range []float64{0, 5} {
				r := dynamo.SearchRequest{Table: searchTable, Filter: filter, MaxRCU: budget}
				s, _ := dynamo.StartSearch(r, nil)
				step, err := dynamo.ReadSearch(context.Background(), c, s)
				if err == nil {
					t.Errorf("%s %q budget=%g: %d items, %v", name, f, budget, len(step.Items), err)
				}
				if err := r.Check(); err == nil {
					t.Errorf("%s %q budget=%g: Check found nothing wrong", name, f, budget)
				}
			}
		}
	}
}

// TestSearchSmallBudgetOnAKnownSize: where the table's size is known
// (DynamoDB and the embedded backend report it; given here on both) and
// more than the budget pays for, the first read is still one item,
// which sizes the rest: a budget of 1 RCU on 300 small items (about 60
// KB) reads them all, run after run, none over its budget and half a
// read unit. It read nothing before, stopping at the same place on
// every --resume.
func TestSearchSmallBudgetOnAKnownSize(t *testing.T) {
	for name, c := range heavyBackends(t) {
		var size int64
		in := &dynamodb.ScanInput{TableName: aws.String("HeavyNone")}
		for {
			page, err := c.Scan(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range page.Items {
				size += int64(dynamo.ItemBytes(it))
			}
			if in.ExclusiveStartKey = page.LastEvaluatedKey; len(page.LastEvaluatedKey) == 0 {
				break
			}
		}
		for _, segments := range []int{1, 4} {
			got, runs := searchToEnd(t, c, dynamo.SearchRequest{Table: "HeavyNone", Segments: segments, MaxRCU: 1, TableBytes: size})
			if len(got) != 300 || len(keysOf(got)) != 300 {
				t.Errorf("%s segments=%d: %d items, want 300", name, segments, len(got))
			}
			for i, rcu := range runs {
				if rcu > 1.5 {
					t.Errorf("%s segments=%d: run %d of %d spent %.1f RCU", name, segments, i+1, len(runs), rcu)
				}
			}
		}
	}
}

// TestSearchWorstCaseHolds: a search read to its end without a budget
// spends no more than its plan's worst case, from the table's size (here
// the sum of its items' sizes, as DescribeTable reports it): in one
// segment or several, each rounding its reads up on its own, and in
// Queries, each at least half a unit however few items it reads.
func TestSearchWorstCaseHolds(t *testing.T) {
	for name, c := range heavyBackends(t) {
		for _, sh := range heavyShapes {
			var size int64
			in := &dynamodb.ScanInput{TableName: aws.String(sh.table)}
			for {
				page, err := c.Scan(context.Background(), in)
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range page.Items {
					size += int64(dynamo.ItemBytes(it))
				}
				if in.ExclusiveStartKey = page.LastEvaluatedKey; len(page.LastEvaluatedKey) == 0 {
					break
				}
			}
			var queries []domain.KeyQuery
			for i := range 30 {
				queries = append(queries, domain.KeyQuery{Table: sh.table, PKName: "PK", PK: domain.S(fmt.Sprintf("p%04d", i*3))})
			}
			for _, r := range []dynamo.SearchRequest{
				{Table: sh.table, TableBytes: size},
				{Table: sh.table, TableBytes: size, Segments: 7},
				{Table: sh.table, TableBytes: size, Queries: queries},
			} {
				worst, ok := r.WorstCaseRCU()
				_, runs := searchToEnd(t, c, r)
				if !ok || len(runs) != 1 || runs[0] > worst {
					t.Errorf("%s %s segments=%d queries=%d: spent %v RCU, worst case %.1f (%v)", name, sh.table, r.Segments, len(r.Queries), runs, worst, ok)
				}
			}
		}
	}
}

// TestFilterSearchPinnedKeyReadsByQuery (#39.3): a table search whose
// filter pins the partition key (=, IN, an OR of equalities; on an index,
// the index's key) is planned as a statement is, and reads those
// partitions by Query, a sort-key condition as its key condition: it
// finds what the Scan of the whole table through the same filter finds,
// with or without a budget, for a fraction of its RCU at the client (a
// condition on a key no key condition can say, SK <> "o#01", applied
// here to the partition's items). A filter that pins no key is the Scan
// it was; one that pins it to what no key is (another type, empty)
// matches nothing: refused, or, as one OR branch, left out.
func TestFilterSearchPinnedKeyReadsByQuery(t *testing.T) {
	info := func(c dynamo.Client) dynamo.TableInfo {
		t.Helper()
		in, _, err := dynamo.DescribeTable(context.Background(), c, searchTable)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	for name, c := range searchBackends(t) {
		ti := info(c)
		for _, tc := range []struct {
			index, filter, keyCondition string
			queries                     int
		}{
			{"", `PK = "c#03" and attempts >= 2`, `PK = "c#03"`, 1},
			{"", `PK in ("c#03", "c#17", "c#99") and status = "FAILED"`, `PK IN ("c#03", "c#17", "c#99")`, 3},
			{"", `(PK = "c#05" or PK = "c#06") and begins_with(SK, "o#1")`, `PK IN ("c#05", "c#06") AND begins_with(SK, "o#1")`, 2},
			{"", `"c#07" = PK and SK between "o#03" and "o#09" and contains(tags, "urgent")`, `PK = "c#07" AND SK BETWEEN "o#03" AND "o#09"`, 1},
			{"ByStatus", `status = "FAILED" and attempts > 1`, `status = "FAILED"`, 1},
			// A condition on a key no key condition can say: the
			// partition read (within the sort-key condition there is),
			// the whole filter applied here.
			{"", `PK = "c#03" and SK <> "o#01"`, `PK = "c#03"`, 1},
			{"", `PK = "c#03" and begins_with(SK, "o#") and not begins_with(SK, "o#1")`, `PK = "c#03" AND begins_with(SK, "o#")`, 1},
		} {
			filter, err := domain.ParseFilter(tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			for _, budget := range []float64{0, 2.5} {
				label := fmt.Sprintf("%s %s %q budget=%g", name, tc.index, tc.filter, budget)
				fp, err := dynamo.FilterSearch(ti, tc.index, filter, budget, "explorer")
				plan, r, why := fp.Plan, fp.Request, fp.WhyScan
				if err != nil || plan == nil || why != "" || len(r.Queries) != tc.queries || plan.KeyCondition() != tc.keyCondition {
					t.Fatalf("%s: planned %+v, want %d Queries on %s", label, plan, tc.queries, tc.keyCondition)
				}
				scan := dynamo.SearchRequest{Table: searchTable, Index: tc.index, Filter: filter, Segments: 1, MaxRCU: budget}
				got, byQuery := searchToEnd(t, c, r)
				want, byScan := searchToEnd(t, c, scan)
				if g, w := keysOf(got), keysOf(want); len(w) == 0 || strings.Join(g, " ") != strings.Join(w, " ") {
					t.Errorf("%s: the Queries found %d items, the Scan %d", label, len(g), len(w))
				}
				q, s := sum(byQuery), sum(byScan)
				t.Logf("%s: %d matches; Query %.1f RCU in %d runs, Scan %.1f RCU in %d runs", label, len(got), q, len(byQuery), s, len(byScan))
				if q > s/4 {
					t.Errorf("%s: the Queries cost %.1f RCU, the Scan %.1f", label, q, s)
				}
			}
		}
		// A Scan where the filter pins the partition key says why: never
		// a partition's read turned into a table's without a word.
		for f, why := range map[string]string{
			`status = "FAILED"`:                "",
			`PK = "c#03" or status = "FAILED"`: "",
		} {
			filter, _ := domain.ParseFilter(f)
			if fp, err := dynamo.FilterSearch(ti, "", filter, 0, "explorer"); err != nil || fp.Plan != nil || len(fp.Request.Queries) != 0 || fp.Request.Filter == nil || fp.Request.Segments < 1 || fp.WhyScan != why {
				t.Errorf("%s %q: planned %+v (%v), want the Scan through the whole filter (why %q)", name, f, fp, err, why)
			}
		}
		// A filter that pins the partition key to what no key is matches
		// no item: refused, never a Scan of the table (no request: the
		// counting client sees none); an OR branch of it is left out, the
		// rest read as planned.
		for f, want := range map[string]string{
			`PK = 3 and status = "FAILED"`: `PK is a string key, so PK = 3 matches no item: write PK = "3"`,
			`PK = "" and attempts > 1`:     `PK = "" matches no item: a partition key is never empty; write the key's value`,
			`status = "FAILED" and PK = 3`: `PK is a string key, so PK = 3 matches no item: write PK = "3"`,
		} {
			filter, _ := domain.ParseFilter(f)
			var none *domain.NoMatchError
			if fp, err := dynamo.FilterSearch(ti, "", filter, 0, "explorer"); !errors.As(err, &none) || none.Say(false) != want {
				t.Errorf("%s %q: planned %+v (%v), want it refused: %s", name, f, fp.Request, err, want)
			}
		}
		filter, _ := domain.ParseFilter(`PK = 3 or PK = "c#03"`)
		fp, err := dynamo.FilterSearch(ti, "", filter, 0, "explorer")
		if err != nil || fp.Plan == nil || fp.Plan.KeyCondition() != `PK = "c#03"` || fp.NoMatch != `PK is a string key, so PK = 3 matches no item: write PK = "3"; that branch is left out, the rest read` {
			t.Fatalf("%s: planned %+v (%v), want the Query of c#03 and the branch said", name, fp, err)
		}
		m := &scanCounter{Client: c}
		got, _ := searchToEnd(t, m, fp.Request)
		pinned, _ := domain.ParseFilter(`PK = "c#03"`)
		want, _ := searchToEnd(t, c, dynamo.SearchRequest{Table: searchTable, Filter: pinned, Segments: 1})
		if g, w := keysOf(got), keysOf(want); len(w) == 0 || strings.Join(g, " ") != strings.Join(w, " ") {
			t.Errorf("%s: the Query found %d items, the partition holds %d", name, len(g), len(w))
		}
		if m.scans != 0 || m.queries == 0 {
			t.Errorf("%s: %d Scans, %d Queries: a branch that matches nothing scanned the table", name, m.scans, m.queries)
		}
	}
}

// scanCounter counts the Scans and Queries that reach the backend.
type scanCounter struct {
	dynamo.Client
	scans, queries int
}

func (c *scanCounter) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	c.scans++
	return c.Client.Scan(ctx, in, o...)
}

func (c *scanCounter) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.queries++
	return c.Client.Query(ctx, in, o...)
}

func sum(xs []float64) float64 {
	total := 0.0
	for _, x := range xs {
		total += x
	}
	return total
}

// TestSearchOfALocalIndexRefusesWhatItDoesNotHold: a filter or a
// statement on a local index that projects less than ALL, naming what
// it does not hold, is refused before any read (DynamoDB would read it
// from the table item by item; a budgeted read asks for the index's
// items whole and filters them here, so it matched nothing), saying
// what it holds; what it holds, the table, a GSI (which DynamoDB reads
// no further either) and an index projecting ALL are planned as before.
func TestSearchOfALocalIndexRefusesWhatItDoesNotHold(t *testing.T) {
	key := func(pk, sk string) dynamo.KeySchema {
		return dynamo.KeySchema{PK: dynamo.KeyAttr{Name: pk, Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: sk, Type: domain.TypeS}}
	}
	info := dynamo.TableInfo{Name: "Loans", Key: key("pk", "sk"), Indexes: []dynamo.Index{
		{Name: "by-day", Kind: "LSI", Key: key("pk", "day"), Projection: "KEYS_ONLY"},
		{Name: "by-week", Kind: "LSI", Key: key("pk", "week"), Projection: "INCLUDE", NonKeyAttributes: []string{"renewals"}},
		{Name: "by-all", Kind: "LSI", Key: key("pk", "month"), Projection: "ALL"},
		{Name: "gsi1", Kind: "GSI", Key: key("book", "day"), Projection: "KEYS_ONLY"},
	}}
	for _, tc := range []struct{ index, filter, refused string }{
		{"by-day", `renewals = 3`, "renewals is not in local index by-day (it holds its keys only): DynamoDB would read it from the table item by item, each read billed apart, which dynascope does not"},
		{"by-day", `pk = "m0" and (renewals = 3 or size(notes.text) > 2)`, "renewals, notes are not in local index by-day (it holds its keys only): DynamoDB would read them from the table"},
		{"by-week", `pk = "m0" and renewals = 3 and late = true`, "late is not in local index by-week (it holds its keys and renewals)"},
		{"by-day", `pk = "m0" and day > "2025-03" and sk <> "loan#01"`, ""},
		{"by-week", `renewals = 3`, ""},
		{"by-all", `renewals = 3`, ""},
		{"gsi1", `renewals = 3`, ""},
		{"", `renewals = 3`, ""},
	} {
		filter, err := domain.ParseFilter(tc.filter)
		if err != nil {
			t.Fatal(err)
		}
		_, err = dynamo.FilterSearch(info, tc.index, filter, 0, "scan")
		var nf *dynamo.NotFetchedError
		if got := errors.As(err, &nf); got != (tc.refused != "") || got && !strings.Contains(nf.Said, tc.refused) || !got && err != nil {
			t.Errorf("%s %q: %v, want refused %q", tc.index, tc.filter, err, tc.refused)
		}
		st := domain.Statement{Table: "Loans", Index: tc.index, Where: filter}
		_, _, err = dynamo.StatementSearch(info, st, 0)
		var pe *domain.PartiQLError
		if got := errors.As(err, &pe); got != (tc.refused != "") || got && !strings.Contains(pe.Msg, tc.refused) || got && !strings.HasSuffix(pe.Msg, `: read the table, FROM "Loans", or name only what the index holds`) {
			t.Errorf("statement on %s %q: %v, want refused %q", tc.index, tc.filter, err, tc.refused)
		}
	}
	// A projection names what it reads too.
	st := domain.Statement{Table: "Loans", Index: "by-day", Project: []domain.Path{{{Name: "pk"}}, {{Name: "renewals"}}}}
	if _, _, err := dynamo.StatementSearch(info, st, 0); err == nil || !strings.Contains(err.Error(), "renewals is not in local index by-day") {
		t.Errorf("SELECT pk, renewals FROM the local index: %v", err)
	}
}
