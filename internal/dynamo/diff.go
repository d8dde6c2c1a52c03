package dynamo

import (
	"context"
	"sync"

	"github.com/dynascope/dynascope/internal/domain"
)

// DiffSide is one side of a comparison: where it reads and the query it
// asks there (the same key condition on both sides; the table may differ).
type DiffSide struct {
	Client Client
	Query  domain.KeyQuery
}

// SideRead is what reading one side took.
type SideRead struct {
	Items   int
	Pages   int
	Cost    Cost
	Stopped bool // its half of the budget ran out before the end
}

// DiffResult is a comparison of two sides, key by key in sort-key order.
// Where a side stopped at its budget, Keys holds only the keys up to the
// last one that side read: past it, "only-left" or "only-right" would be
// a guess.
type DiffResult struct {
	Keys        []domain.KeyDiff
	Left, Right SideRead
}

// Stopped says a side ran out of budget before the end: the comparison is
// true as far as it goes, and not whole.
func (r DiffResult) Stopped() bool { return r.Left.Stopped || r.Right.Stopped }

// Cost is what both sides cost together.
func (r DiffResult) Cost() Cost { return r.Left.Cost.Add(r.Right.Cost) }

// DiffItems reads both sides in parallel, page by page, and compares them
// key by key (keys: the table's key attribute names) as show makes them
// plain (nil: PlainItem; a mask's stand-ins compare as the values they
// stand for). maxRCU (0: none) is split evenly between the sides, each
// read never asking for more than its half pays for, so the comparison
// never spends more than maxRCU.
func DiffItems(ctx context.Context, left, right DiffSide, keys []string, maxRCU float64, show func(Item) map[string]any) (DiffResult, error) {
	if show == nil {
		show = PlainItem
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		res            DiffResult
		litems, ritems []Item
		lerr, rerr     error
		wg             sync.WaitGroup
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		litems, res.Left, lerr = readSide(ctx, left, maxRCU/2)
		if lerr != nil {
			cancel()
		}
	}()
	go func() {
		defer wg.Done()
		ritems, res.Right, rerr = readSide(ctx, right, maxRCU/2)
		if rerr != nil {
			cancel()
		}
	}()
	wg.Wait()
	if lerr != nil {
		return res, lerr
	}
	if rerr != nil {
		return res, rerr
	}
	res.Keys = pairSides(litems, ritems, left.Query.SKName, keys, res.Left.Stopped, res.Right.Stopped, show)
	return res, nil
}

// readSide reads every page of one side's query, within budget (0: none).
func readSide(ctx context.Context, s DiffSide, budget float64) ([]Item, SideRead, error) {
	var (
		items   []Item
		r       SideRead
		start   Item
		scanned int
	)
	for {
		req := PageRequest{Query: s.Query, Start: start}
		limit, ok := BudgetLimit(budget, r.Cost.Billed, scanned)
		if !ok {
			r.Stopped = true
			return items, r, nil
		}
		req.Limit = limit
		p, err := QueryPage(ctx, s.Client, req)
		if err != nil {
			return items, r, err
		}
		r.Pages++
		r.Cost = r.Cost.Add(p.Cost)
		scanned += p.Scanned
		items = append(items, p.Items...)
		r.Items = len(items)
		if !p.More() {
			return items, r, nil
		}
		start = p.LastKey
	}
}

// pairSides merges two sides' items, each in ascending sort-key order, by
// key, and compares each pair. A side that stopped early bounds the keys
// compared at the last one it read.
func pairSides(left, right []Item, sk string, keys []string, lstop, rstop bool, show func(Item) map[string]any) []domain.KeyDiff {
	cmp := func(a, b Item) int {
		if sk == "" {
			return 0 // one item a partition
		}
		if c, ok := compareKeyValues(a[sk], b[sk]); ok {
			return c
		}
		return 0
	}
	var bound Item
	tighter := func(side []Item, stopped bool) {
		if !stopped {
			return
		}
		if len(side) == 0 {
			bound = Item{} // read nothing: nothing can be compared
			return
		}
		last := side[len(side)-1]
		if bound == nil || (len(bound) > 0 && cmp(last, bound) < 0) {
			bound = last
		}
	}
	tighter(left, lstop)
	tighter(right, rstop)
	within := func(it Item) bool {
		if bound == nil {
			return true
		}
		return len(bound) > 0 && cmp(it, bound) <= 0
	}
	keyOf := func(it Item) map[string]any {
		k := make(Item, len(keys))
		for _, name := range keys {
			if v, ok := it[name]; ok {
				k[name] = v
			}
		}
		return show(k)
	}
	var out []domain.KeyDiff
	add := func(l, r Item) {
		it := l
		if it == nil {
			it = r
		}
		if !within(it) {
			return
		}
		var lp, rp map[string]any
		if l != nil {
			lp = show(l)
		}
		if r != nil {
			rp = show(r)
		}
		out = append(out, domain.CompareSides(keyOf(it), lp, rp))
	}
	i, j := 0, 0
	for i < len(left) || j < len(right) {
		switch {
		case j >= len(right):
			add(left[i], nil)
			i++
		case i >= len(left):
			add(nil, right[j])
			j++
		default:
			switch c := cmp(left[i], right[j]); {
			case c < 0:
				add(left[i], nil)
				i++
			case c > 0:
				add(nil, right[j])
				j++
			default:
				add(left[i], right[j])
				i++
				j++
			}
		}
	}
	return out
}
