package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

// The cases of issue 28: levels whose shape is not the sparse benchmark's.
// Partition "airports" of table Bench is a dense level of names that do not
// count up (60 airport codes, 80 items each); USA is the demo's Locations
// partition (53 states of ~95 small items).

// airports are the dense level's children: real IATA codes, so the leading
// letters crowd as they do in life.
var airports = []string{"ABQ", "ALB", "ANC", "ATL", "AUS", "BDL", "BNA", "BOS", "BUF", "BUR", "BWI", "CLE", "CLT", "CMH", "CVG",
	"DCA", "DEN", "DFW", "DTW", "EWR", "FLL", "HNL", "IAD", "IAH", "IND", "JAX", "JFK", "KOA", "LAS", "LAX", "LGA", "LIH", "MCI",
	"MCO", "MDW", "MIA", "MKE", "MSP", "MSY", "OAK", "OGG", "ONT", "ORD", "ORF", "PDX", "PHL", "PHX", "PIT", "RDU", "RIC", "SAN",
	"SAT", "SEA", "SFO", "SJC", "SLC", "SMF", "SNA", "STL", "TPA"}

const airportItems = 80 // items under each code

// seedLevels writes the dense level.
func seedLevels(ctx context.Context, c *dynamodb.Client, payload int) error {
	data := s(fmt.Sprintf("%0*d", payload-50, 0))
	var items []dynamo.Item
	for _, code := range airports {
		for i := range airportItems {
			items = append(items, dynamo.Item{"PK": s("airports"), "SK": s(fmt.Sprintf("%s#FLIGHT#%04d", code, i)), "Data": data})
		}
	}
	// Large items: 10 children of 200 items of 2 KB, 4 MB (four pages).
	big := s(strings.Repeat("y", 2000))
	for ch := range 10 {
		for i := range 200 {
			items = append(items, dynamo.Item{"PK": s("big"), "SK": s(fmt.Sprintf("C%02d#%04d", ch, i)), "Data": big})
		}
	}
	items = append(items, shapeItems(data)...)
	// 300 children of 1 item again, in a table of their own: a table
	// DescribeTable says weighs less than a first read (fewItemsKeys).
	// Created first: it is active by the time Bench is written.
	if err := createTable(ctx, c, "Ones", "S"); err != nil {
		return err
	}
	if err := writeAll(ctx, c, "Bench", items); err != nil {
		return err
	}
	var ones []dynamo.Item
	for _, it := range items {
		if it["PK"].(*types.AttributeValueMemberS).Value == "ones" {
			ones = append(ones, it)
		}
	}
	return writeAll(ctx, c, "Ones", ones)
}

// Level shapes none of the cases above chose (issue 37's hidden check,
// as internal/dynamo's TestUnseenShapesCostWhatTheyList builds them):
// names that neither count up nor share a pattern.
var shapes = []level{
	{"45 × 110 × 450 B under '/'", "Bench", "slash", benchKey, "/"},
	{"12 × 150 × 2.5 KB", "Bench", "wide2k", benchKey, ""},
	{"300 children of 1 item", "Bench", "ones", benchKey, ""},
	{"3 × 3,000 items", "Bench", "three", benchKey, ""},
}

// shapeName is the n-th of a run of names drawn from a fixed sequence.
func shapeName(seed, n, length int) string {
	x := uint32(seed*7919 + n*104729 + 1)
	b := make([]byte, length)
	for i := range b {
		x = x*1664525 + 1013904223
		b[i] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[x>>24%62]
	}
	return string(b)
}

func shapeItems(data types.AttributeValue) []dynamo.Item {
	var items []dynamo.Item
	add := func(pk, sk string, v types.AttributeValue) {
		items = append(items, dynamo.Item{"PK": s(pk), "SK": s(sk), "Data": v})
	}
	for ch := range 45 {
		for i := range 110 {
			add("slash", fmt.Sprintf("%s/part-%03d.log", shapeName(1, ch, 6), i), data)
		}
	}
	wide := s(strings.Repeat("w", 2500))
	for ch := range 12 {
		for i := range 150 {
			add("wide2k", fmt.Sprintf("%s#LINE#%04d", shapeName(2, ch, 10), i), wide)
		}
	}
	small := s(strings.Repeat("o", 80))
	for ch := range 300 {
		add("ones", shapeName(3, ch, 8)+"#profile", small)
	}
	tiny := s(strings.Repeat("t", 40))
	for ch := range 3 {
		for i := range 3000 {
			add("three", fmt.Sprintf("%s#EVT#%05d", shapeName(4, ch, 5), i), tiny)
		}
	}
	return items
}

// levelItemBytes is a level's average item size: what DescribeTable's
// figures give children on DynamoDB (dynalite gives none).
func levelItemBytes(ctx context.Context, c dynamo.Client, q domain.KeyQuery) int64 {
	bytes, _ := levelSize(ctx, c, q)
	return bytes
}

// levelSize is a level's average item size and its item count.
func levelSize(ctx context.Context, c dynamo.Client, q domain.KeyQuery) (bytes, items int64) {
	var n, sum int64
	var start dynamo.Item
	for {
		p, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: q, Start: start})
		if err != nil {
			fail(err)
		}
		for _, it := range p.Items {
			n, sum = n+1, sum+int64(dynamo.ItemBytes(it))
		}
		if !p.More() {
			return sum / max(n, 1), n
		}
		start = p.LastKey
	}
}

var locationsKey = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}

// level is one level measured: its children, counted, beside a full read.
type level struct {
	what  string
	table string
	pk    string
	key   dynamo.KeySchema
	delim string // "#" unless given
}

func (l level) request() dynamo.ChildrenRequest {
	d := l.delim
	if d == "" {
		d = "#"
	}
	return dynamo.ChildrenRequest{Table: l.table, Key: l.key, PK: domain.S(l.pk), Delim: d}
}

func (l level) query() domain.KeyQuery {
	return domain.KeyQuery{Table: l.table, PKName: l.key.PK.Name, PK: domain.S(l.pk), SKName: l.key.SK.Name}
}

// runLevels measures the dense level, USA, counting, the first screen and
// the budgeted reads.
func runLevels(ctx context.Context, c dynamo.Client, t *table) {
	levels := []level{
		{"sparse (25 children)", "Bench", "sparse", benchKey, ""},
		{"dense (60 codes)", "Bench", "airports", benchKey, ""},
		{"USA (53 states)", "Locations", "USA", locationsKey, ""},
		{"leaf (100 items)", "Bench", "leaf", benchKey, ""},
		{"large (10 × 200 × 2 KB)", "Bench", "big", benchKey, ""},
	}
	levels = append(levels, shapes...)
	floors := map[string]figure{}
	for _, lv := range levels {
		floor := measure(c, lv.what, "full read", func(m dynamo.Client) string {
			return fullRead(ctx, m, lv.query())
		})
		floors[lv.what] = floor
		t.add(floor)
		r := lv.request()
		if lv.pk == "leaf" {
			// Opened as the explorer opens it: from the level above, whose
			// walk read LEAF#'s first keys and marked it Flat.
			top, err := dynamo.Children(ctx, c, r, nil)
			if err != nil || len(top.Children) != 1 {
				fail(fmt.Errorf("the level above the leaf: %v", err))
			}
			r.Prefix, r.Flat = top.Children[0].Prefix, top.Children[0].Flat
		}
		t.add(versus(measure(c, lv.what, "children", func(m dynamo.Client) string {
			res, err := dynamo.Children(ctx, m, r, nil)
			if res.Guessed > 0 {
				return fmt.Sprintf("%s, %d guessed (%d unused)", children(len(res.Children), err), res.Guessed, res.Wasted)
			}
			return children(len(res.Children), err)
		}), floor))
		if lv.pk == "leaf" {
			// Opened directly (children --prefix LEAF#): nothing read
			// above it, the first probe sized from the table's average
			// item size as the command sizes it (issue 37.4).
			direct := dynamo.ChildrenRequest{Table: r.Table, Key: r.Key, PK: r.PK, Prefix: r.Prefix, Delim: r.Delim}
			if info, _, err := dynamo.DescribeTable(ctx, c, lv.table); err == nil && info.ItemCount > 0 {
				direct.ItemBytes = info.SizeBytes / info.ItemCount
			}
			t.add(versus(measure(c, lv.what, "children --prefix, directly", func(m dynamo.Client) string {
				res, err := dynamo.Children(ctx, m, direct, nil)
				return children(len(res.Children), err)
			}), floor))
		}
		if lv.pk != "leaf" {
			// The item size known, as children sizes the first read from
			// DescribeTable on DynamoDB (dynalite gives none): the level's
			// average stands in for the table's.
			sized := r
			var items int64
			sized.ItemBytes, items = levelSize(ctx, c, lv.query())
			t.add(versus(measure(c, lv.what, fmt.Sprintf("children, size known (%d B)", sized.ItemBytes), func(m dynamo.Client) string {
				res, err := dynamo.Children(ctx, m, sized, nil)
				return children(len(res.Children), err)
			}), floor))
			// Its count known too, as the explorer knows it opening a
			// child it counted (LevelItems): a level that weighs no more
			// than the first read is read in it.
			counted := sized
			counted.LevelItems = items
			t.add(versus(measure(c, lv.what, "children, size and count known", func(m dynamo.Client) string {
				res, err := dynamo.Children(ctx, m, counted, nil)
				return children(len(res.Children), err)
			}), floor))
			if lv.pk == "ones" {
				// In a table of its own, its count known too (DescribeTable
				// on DynamoDB; dynalite gives none): the level's own stand in.
				own := sized
				own.Table, own.TableItems = "Ones", 300
				t.add(versus(measure(c, lv.what, "children, a table of its own, count known", func(m dynamo.Client) string {
					res, err := dynamo.Children(ctx, m, own, nil)
					return children(len(res.Children), err)
				}), floor))
			}
			// The walk before issue 37.3: a probe a child, never read in
			// plain stretches.
			t.add(versus(measure(c, lv.what, "children, probing only", func(m dynamo.Client) string {
				fr := r
				fr.Probe = true
				res, err := dynamo.Children(ctx, m, fr, nil)
				return children(len(res.Children), err)
			}), floor))
		}
	}
	for _, lv := range append([]level{levels[0], levels[1], levels[2], levels[4]}, shapes...) {
		res, err := dynamo.Children(ctx, c, lv.request(), nil)
		if err != nil {
			fail(err)
		}
		t.add(versus(measure(c, lv.what, "c from nothing", func(m dynamo.Client) string {
			return countLevel(ctx, dynamo.NewLevelCount(m, lv.request()), len(res.Children))
		}), floors[lv.what]))
		// The explorer's c: after a walk sized as the explorer sizes it
		// that held the keys it read, only what it left unread.
		held := lv.request()
		held.ItemBytes, held.HoldKeys = levelItemBytes(ctx, c, lv.query()), dynamo.HeldKeysBytes
		walked, err := dynamo.Children(ctx, c, held, nil)
		if err != nil {
			fail(err)
		}
		held.Delim = walked.Delim
		t.add(versus(measure(c, lv.what, "c after the walk (keys held)", func(m dynamo.Client) string {
			return countLevel(ctx, dynamo.NewLevelCountFrom(m, held, walked.Held), len(walked.Children))
		}), floors[lv.what]))
		t.add(versus(measure(c, lv.what, "children --count", func(m dynamo.Client) string {
			return countPass(ctx, m, lv.request(), 0)
		}), floors[lv.what]))
		for _, budget := range []float64{1, 5} {
			t.add(measure(c, lv.what, fmt.Sprintf("--count --count-budget %g", budget), func(m dynamo.Client) string {
				return countPass(ctx, m, lv.request(), budget)
			}))
		}
	}
	runTableList(ctx, c, t)
	for _, rows := range []int{29, 38} {
		t.add(measure(c, fmt.Sprintf("first screen of %d rows", rows), "as the pager reads", func(m dynamo.Client) string {
			return firstScreen(ctx, m, partitionQuery("sparse"), rows)
		}))
	}
	filtered := partitionQuery("sparse")
	var err error
	if filtered.Filter, err = domain.ParseFilter(`Data = "none"`); err != nil {
		fail(err)
	}
	for _, budget := range []float64{1, 5} {
		t.add(measure(c, fmt.Sprintf("filter, --max-rcu %g", budget), "items", func(m dynamo.Client) string {
			b := &export.Budget{MaxRCU: budget}
			n, _, err := export.Items(ctx, m, filtered, 0, "jsonl", io.Discard, false, export.Options{Budget: b})
			if err != nil {
				return err.Error()
			}
			return fmt.Sprintf("%d matched, %d read, stopped=%v", n, b.Scanned, b.Stopped)
		}))
	}
}

// fullRead reads every item of q in 1 MB pages.
func fullRead(ctx context.Context, m dynamo.Client, q domain.KeyQuery) string {
	n := 0
	var start dynamo.Item
	for {
		p, err := dynamo.QueryPage(ctx, m, dynamo.PageRequest{Query: q, Start: start})
		if err != nil {
			return err.Error()
		}
		n += len(p.Items)
		if !p.More() {
			return fmt.Sprintf("%d items", n)
		}
		start = p.LastKey
	}
}

// countLevel counts every child's items, as the explorer's c does: one
// resumable pass over the level (dynamo.LevelCount), from nothing or,
// after the level's walk, from the keys it held (reading only what it
// left unread).
func countLevel(ctx context.Context, lc *dynamo.LevelCount, children int) string {
	over, err := lc.Run(ctx, 0, nil)
	if err != nil {
		return err.Error()
	}
	n, exact := 0, 0
	for _, c := range lc.Counts() {
		n += c.N
		if c.Exact {
			exact++
		}
	}
	return fmt.Sprintf("%d items, %d of %d counted, over=%v", n, exact, children, over)
}

// tableCount is how many tables the table list's case adds (issue 37:
// 300 tables are three ListTables pages read one after another).
const tableCount = 300

// seedTables adds tableCount empty tables, for the table list's case.
func seedTables(ctx context.Context, c *dynamodb.Client) error {
	for i := range tableCount {
		if err := createTable(ctx, c, fmt.Sprintf("List%03d", i), ""); err != nil {
			return err
		}
	}
	return nil
}

// runTableList measures the table list: every ListTables page, beside
// the first page alone (what the first screen needs).
func runTableList(ctx context.Context, c dynamo.Client, t *table) {
	floor := measure(c, fmt.Sprintf("table list (%d+ tables)", tableCount), "first ListTables page", func(m dynamo.Client) string {
		n := 0
		_, err := dynamo.ListTablePages(ctx, m, 0, func(names []string, _ dynamo.Cost) bool { n = len(names); return false })
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%d tables on the first page", n)
	})
	t.add(floor)
	t.add(versus(measure(c, fmt.Sprintf("table list (%d+ tables)", tableCount), "every page", func(m dynamo.Client) string {
		names, _, err := dynamo.ListTables(ctx, m)
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%d tables", len(names))
	}), floor))
}

// countPass lists and counts the level in one pass, as children --count
// does.
func countPass(ctx context.Context, m dynamo.Client, r dynamo.ChildrenRequest, budget float64) string {
	r.Delim = ""
	pass := dynamo.NewCountPass(r)
	over, err := pass.Run(ctx, m, budget, 0, nil)
	if err != nil {
		return err.Error()
	}
	res := pass.Result()
	n, exact := 0, 0
	for _, ch := range res.Children {
		c, ok := pass.Count(ch.Name)
		n += c
		if ok {
			exact++
		}
	}
	return fmt.Sprintf("%d items, %d of %d children exact, over=%v", n, exact, len(res.Children), over)
}

// versus puts f's figures beside its floor's as ratios.
func versus(f, floor figure) figure {
	ratio := func(a, b float64) string {
		if b == 0 {
			return "–"
		}
		return fmt.Sprintf("%.2f", a/b)
	}
	f.note += fmt.Sprintf("; ÷ %s: requests %s, RCU %s, round trips %s, wall %s", floor.how,
		ratio(float64(f.cost.Requests), float64(floor.cost.Requests)), ratio(f.billed, floor.billed),
		ratio(float64(f.trips), float64(floor.trips)), ratio(f.wall.Seconds(), floor.wall.Seconds()))
	return f
}

// firstScreen reads as the items pager does for a screen of rows: pages
// sized by ScreenLimit and GrowLimit until it holds the screen (the rows
// below it are read as the user moves).
func firstScreen(ctx context.Context, m dynamo.Client, q domain.KeyQuery, rows int) string {
	want := rows
	limit := dynamo.ScreenLimit(rows)
	n := 0
	var start dynamo.Item
	for n < want {
		p, err := dynamo.QueryPage(ctx, m, dynamo.PageRequest{Query: q, Start: start, Limit: limit})
		if err != nil {
			return err.Error()
		}
		n += len(p.Items)
		if !p.More() {
			break
		}
		start, limit = p.LastKey, dynamo.GrowLimit(limit, p)
	}
	return fmt.Sprintf("%d rows read for %d shown", n, rows)
}
