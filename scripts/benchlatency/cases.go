package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
)

// partitionCount is how many small partitions the Parts table holds.
const partitionCount = 200

// screenRows is the list's height on a 120×35 terminal.
const screenRows = 29

var benchKey = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}

// seed writes the cases: in table Bench, partition "sparse" (n items under
// 25 top-level children), "leaf" (one level of 100 items) and "wide" (one
// level of 10,000 children); in table Parts, 200 partitions of 20 items.
func seed(ctx context.Context, c *dynamodb.Client, n, payload int) error {
	for _, t := range []string{"Bench", "Parts"} {
		if err := createTable(ctx, c, t, "S"); err != nil {
			return err
		}
	}
	data := strings.Repeat("x", payload)
	var items []dynamo.Item
	for i := range n {
		child := i * 25 / n
		items = append(items, dynamo.Item{"PK": s("sparse"), "SK": s(fmt.Sprintf("C%02d#R%02d#%07d", child, i%10, i)), "Data": s(data)})
	}
	for i := range 100 {
		items = append(items, dynamo.Item{"PK": s("leaf"), "SK": s(fmt.Sprintf("LEAF#%03d", i)), "Data": s(data)})
	}
	for i := range 10000 {
		items = append(items, dynamo.Item{"PK": s("wide"), "SK": s(fmt.Sprintf("W#%05d", i)), "Data": s("w")})
	}
	if err := writeAll(ctx, c, "Bench", items); err != nil {
		return err
	}
	items = items[:0]
	for p := range partitionCount {
		for i := range 20 {
			items = append(items, dynamo.Item{"PK": s(fmt.Sprintf("part-%03d", p)), "SK": s(fmt.Sprintf("ITEM#%02d", i)), "Data": s(data)})
		}
	}
	return writeAll(ctx, c, "Parts", items)
}

func partitionQuery(pk string) domain.KeyQuery {
	return domain.KeyQuery{Table: "Bench", PKName: "PK", PK: domain.S(pk), SKName: "SK"}
}

// run measures every case; gItems is the size of G's own partition (0:
// not seeded).
func run(ctx context.Context, c dynamo.Client, gItems int) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Minute) // a million items walked forward at 0 ms takes minutes
	defer cancel()
	t := newTable()
	defer t.flush()

	// A first screen of the sparse partition's items.
	t.add(measure(c, "items: first screen", "1 MB page", func(m dynamo.Client) string {
		p, err := dynamo.QueryPage(ctx, m, dynamo.PageRequest{Query: partitionQuery("sparse")})
		return rows(len(p.Items), err)
	}))
	t.add(measure(c, "items: first screen", "sized to it", func(m dynamo.Client) string {
		p, err := dynamo.QueryPage(ctx, m, dynamo.PageRequest{Query: partitionQuery("sparse"), Limit: dynamo.ScreenLimit(screenRows)})
		return rows(len(p.Items), err)
	}))

	for _, lv := range []struct{ what, pk, prefix string }{
		{"children: 25 sparse", "sparse", ""}, {"children: 100-item leaf", "leaf", "LEAF#"}, {"children: 10,000", "wide", "W#"},
	} {
		for _, way := range []struct {
			how      string
			parallel int
		}{{"sequential", 1}, {"parallel", 0}} {
			t.add(measure(c, lv.what, way.how, func(m dynamo.Client) string {
				res, err := dynamo.Children(ctx, m, dynamo.ChildrenRequest{Table: "Bench", Key: benchKey, PK: domain.S(lv.pk), Prefix: lv.prefix, Delim: "#", Parallel: way.parallel}, nil)
				if res.Guessed > 0 {
					return fmt.Sprintf("%s, %d guessed (%d unused)", children(len(res.Children), err), res.Guessed, res.Wasted)
				}
				return children(len(res.Children), err)
			}))
		}
	}

	res, err := dynamo.Children(ctx, c, dynamo.ChildrenRequest{Table: "Bench", Key: benchKey, PK: domain.S("sparse"), Delim: "#"}, nil)
	if err != nil {
		fail(err)
	}
	t.add(measure(c, "counts: 25 children", "sequential", func(m dynamo.Client) string {
		total := 0
		for _, ch := range res.Children {
			n, err := dynamo.CountChild(ctx, m, dynamo.ChildrenRequest{Table: "Bench", Key: benchKey, PK: domain.S("sparse"), Delim: "#"}, ch, nil)
			if err != nil {
				return err.Error()
			}
			total += n
		}
		return fmt.Sprintf("%d items", total)
	}))
	t.add(measure(c, "counts: 25 children", "parallel", func(m dynamo.Client) string {
		total := map[string]int{}
		_, err := dynamo.CountChildren(ctx, m, dynamo.ChildrenRequest{Table: "Bench", Key: benchKey, PK: domain.S("sparse"), Delim: "#"}, res.Children, 0, 0,
			func(p dynamo.CountProgress) { total[p.Child] = p.N })
		if err != nil {
			return err.Error()
		}
		n := 0
		for _, c := range total {
			n += c
		}
		return fmt.Sprintf("%d items", n)
	}))

	t.add(measure(c, "G: last screen", "forward pages", func(m dynamo.Client) string {
		return walkToEnd(ctx, m, partitionQuery("sparse"))
	}))
	t.add(measure(c, "G: last screen", "one reverse read", func(m dynamo.Client) string {
		return readEnd(ctx, m, partitionQuery("sparse"))
	}))

	// A key range: the first screen of C05#… through C07#….
	rangeQuery := partitionQuery("sparse")
	rangeQuery.SK = domain.SKCondition{Op: domain.SKBetween, A: domain.S("C05#"), B: domain.S("C07$")}
	t.add(measure(c, "range: first screen", "1 MB page", func(m dynamo.Client) string {
		p, err := dynamo.QueryPage(ctx, m, dynamo.PageRequest{Query: rangeQuery})
		return rows(len(p.Items), err)
	}))
	t.add(measure(c, "range: first screen", "sized to it", func(m dynamo.Client) string {
		p, err := dynamo.QueryPage(ctx, m, dynamo.PageRequest{Query: rangeQuery, Limit: dynamo.ScreenLimit(screenRows)})
		return rows(len(p.Items), err)
	}))

	runPartitions(ctx, c, t)
	runEnd(ctx, c, t, gItems)
	runBursts(c, t, 1, "")
}

// plainPartitions reads 1,000-key Scan pages until a screen of partitions
// is seen, the table ends, or maxPages pages are read (0: no bound).
func plainPartitions(ctx context.Context, m dynamo.Client, r dynamo.PartitionsRequest, maxPages int) string {
	seen := map[string]bool{}
	r.Limit = 1000
	for n := 1; ; n++ {
		p, err := dynamo.ScanKeysPage(ctx, m, r)
		if err != nil {
			return err.Error()
		}
		for _, it := range p.Items {
			seen[text(it[r.Key.PK.Name])] = true
		}
		if !p.More() || len(seen) >= screenRows || n == maxPages {
			return fmt.Sprintf("%d partitions", len(seen))
		}
		r.Start = p.LastKey
	}
}

func rows(n int, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%d rows", n)
}

func children(n int, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%d children", n)
}

func lastKey(items []dynamo.Item) string {
	if len(items) == 0 {
		return "nothing"
	}
	return text(items[len(items)-1]["SK"])
}

func text(av types.AttributeValue) string {
	if v, ok := dynamo.KeyValueOf(av); ok {
		return v.Text
	}
	return ""
}
