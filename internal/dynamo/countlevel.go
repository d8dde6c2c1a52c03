package dynamo

import (
	"context"
	"errors"
	"math"
	"sort"
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/dynascope/dynascope/internal/domain"
)

// CountProgress is one child's running or final count, and what all the
// counts have cost so far.
type CountProgress struct {
	Child string
	N     int
	Final bool
	Cost  Cost
}

// CountChildren counts the items under each child (the child's own item
// and its subtree) in one pass over the level: the children, in key
// order, are cut into up to parallel runs of neighbours (0:
// DefaultParallel), and each run is read once, keys only, every key
// counted for the child it belongs to. Counting child by child would read
// as much and round every child's last read up to a read unit besides
// (USA's 53 states: 79.5 RCU against 66.5 for the whole level); a run of
// one child is a Select COUNT. progress is told (one call at a time)
// after every page. With a budget (RCU, 0: none) the runs are read one
// after another, each page asking for no more items than what is left
// pays for, so the count stops before overspending (by at most the
// rounding of one read unit): over is then true, and the children not
// told Final were not counted to the end. The first error stops the rest.
func CountChildren(ctx context.Context, c Client, r ChildrenRequest, children []domain.Child, parallel int, budget float64, progress func(CountProgress)) (over bool, err error) {
	if parallel <= 0 {
		parallel = DefaultParallel
	}
	if budget > 0 {
		parallel = 1 // a budget is held by reading one page at a time
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cl := &levelCount{c: c, r: r, budget: budget, progress: progress, counts: map[string]int{}}
	runs := countRuns(children, parallel)
	var wg sync.WaitGroup
	next := make(chan []domain.Child)
	for range min(parallel, len(runs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for run := range next {
				if e := cl.countRun(ctx, run); e != nil {
					cl.mu.Lock()
					if err == nil && !cl.over {
						err = e
					}
					cl.mu.Unlock()
					cancel()
				}
			}
		}()
	}
feed:
	for _, run := range runs {
		select {
		case next <- run:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	return cl.over, err
}

// levelCount is what the runs of one count share.
type levelCount struct {
	c        Client
	r        ChildrenRequest
	budget   float64
	progress func(CountProgress)

	mu      sync.Mutex
	cost    Cost
	scanned int
	largest int // the largest item read, at most (PageLargest)
	counts  map[string]int
	over    bool
}

// countRuns cuts children (in key order) into at most n runs of
// neighbours, as even as can be.
func countRuns(children []domain.Child, n int) [][]domain.Child {
	var runs [][]domain.Child
	for i := 0; i < len(children); {
		size := (len(children) - i + (n - len(runs)) - 1) / (n - len(runs))
		runs = append(runs, children[i:i+size])
		i += size
	}
	return runs
}

// countRun reads one run of neighbouring children once and counts their
// keys.
func (cl *levelCount) countRun(ctx context.Context, run []domain.Child) error {
	r := cl.r
	binary := r.Key.SK.Type == domain.TypeB
	q := domain.KeyQuery{Table: r.Table, Index: r.Index, PKName: r.Key.PK.Name, PK: r.PK, SKName: r.Key.SK.Name}
	first, last := run[0], run[len(run)-1]
	from := r.Prefix + first.Name // the item, if any, comes before its subtree
	if !first.IsItem {
		from = first.Prefix
	}
	to := domain.After(r.Prefix + last.Name)
	if last.HasChildren {
		if binary {
			end, _ := domain.BytesEnd([]byte(last.Prefix))
			to = string(end)
		} else {
			to, _ = domain.PrefixEnd(last.Prefix)
		}
	}
	// BETWEEN is inclusive: a key equal to the end is read and passed over.
	q.SK = domain.SKCondition{Op: domain.SKBetween, A: skValue(from, binary), B: skValue(to, binary)}
	single := len(run) == 1 && !run[0].IsItem && r.Index == ""
	listed := map[string]bool{}
	for _, ch := range run {
		listed[ch.Name] = true
	}
	delim := r.Delim
	if delim == "" && first.HasChildren {
		delim = first.Prefix[len(r.Prefix)+len(first.Name):]
	}
	var start Item
	for {
		// Under a budget the items are read whole (billed the same as
		// their keys): their sizes size the next reads.
		req := PageRequest{Query: q, Start: start, KeysOnly: cl.budget <= 0, TableKeys: r.TableKeys}
		if !cl.allow(&req) {
			return nil
		}
		var page Page
		var err error
		if single && cl.budget <= 0 {
			page, err = CountPage(ctx, cl.c, req)
		} else {
			page, err = QueryPage(ctx, cl.c, req)
		}
		cl.mu.Lock()
		cl.cost = cl.cost.Add(page.Cost)
		cl.scanned += page.Scanned
		cl.largest = max(cl.largest, PageLargest(page.Cost.Billed, false, page.Items, page.Scanned, !req.KeysOnly))
		if err != nil {
			cl.mu.Unlock()
			return err
		}
		touched := map[string]bool{}
		if single {
			cl.counts[first.Name] += page.Count
			touched[first.Name] = true
		}
		for _, it := range page.Items {
			k, ok := skText(it[r.Key.SK.Name])
			if !ok || k >= to {
				continue
			}
			if name, _, ok := domain.ChildOf(r.Prefix, k, delim); ok && listed[name] {
				cl.counts[name]++
				touched[name] = true
			}
		}
		done := !page.More()
		for _, ch := range run {
			if touched[ch.Name] || done {
				cl.progress(CountProgress{Child: ch.Name, N: cl.counts[ch.Name], Final: done, Cost: cl.cost})
			}
		}
		cl.mu.Unlock()
		if done {
			return nil
		}
		start = page.LastKey
	}
}

// allow sets the page's Limit to what the budget has left (at the
// largest item read so far: SizedLimit), or reports false, and marks the
// count over, when that pays for no item.
func (cl *levelCount) allow(req *PageRequest) bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.over {
		return false
	}
	limit, ok := SizedLimit(cl.budget, cl.cost.Billed, cl.largest, cl.scanned)
	if !ok {
		cl.over = true
		return false
	}
	req.Limit = limit
	return true
}

// pageRCU is the most one read can cost: a Query or Scan reads at most
// 1 MB and the item that crosses the line (400 KB at most), 0.5 RCU per
// 4 KB.
const pageRCU = (pageBytes + 400*1024) / readUnitBytes * 0.5

// pageCost is the most a whole page costs where no item is larger than
// largest bytes: 1 MB and the item that crosses the line.
func pageCost(largest int) float64 {
	return ReadCost(1, pageBytes+largest, false)
}

// ListReserve is the part of a count's budget (RCU, 0: none) kept to
// list what the count does not reach: where the budget pays no whole
// page, a count read from the level's start may stop inside its first
// child and list none of the others (a tenant's 1,485 audit records
// under a budget of 10), where a walk lists them for about half an RCU
// each. A tenth of it, at least 2.5 RCU (five children) and at most
// half, which the count goes on with once the walk has listed the rest;
// none where the budget pays a whole page, or where half of it pays no
// read (the count's first read tells the delimiter the walk goes on
// with). Half of it was kept before: a level the budget fitted whole
// was counted with half, walked, and counted on (the tenant's 74.5 RCU
// under a budget of 100: 80.0 RCU in 29 requests, where now 78.5 in 22
// and no walk). Where the count stopped past a whole page of small
// children (CountPass.smallChildren), CountListing gives it to the count.
func ListReserve(budget float64) float64 {
	if budget/2 < minReadUnits || budget >= pageRCU {
		return 0
	}
	return min(budget/2, max(listFloor, budget/10))
}

// listFloor is the least ListReserve keeps: a walk's skips past five
// children.
const listFloor = 2.5

// ListedCount is a level counted under a budget (CountListing): the
// count, and the children past those it found that a walk listed where
// it stopped.
type ListedCount struct {
	Pass *CountPass
	Rest []domain.Child
	// Over: the budget stopped the count; Partial: the level is not
	// listed whole (the walk stopped too, or none listed what the count
	// left unread).
	Over, Partial bool
	// walked are the items under each child of Rest, where the walk read
	// the level whole from where it began (its keys held): the count
	// then reads only up to there, and counts these from the walk's keys.
	walked map[string]int
	// held are the keys the walk read, and walkReq its level: a child
	// it read whole past its first run of keys (a skip that
	// read on to the level's end: BA after B's first keys) is counted
	// from them where the count did not reach it.
	held    *HeldKeys
	walkReq ChildrenRequest
	listed  map[string]domain.Child // the children listed, by name
}

// CountListing counts the level r names under budget RCU (0: none),
// keeping ListReserve of it to list what the count does not reach: the
// count reads from the level's start (in key order, where the budget
// pays no whole page) with the rest of it; stopped there, a walk under
// what is left lists the children past those the count found, and the
// count goes on with what the walk left. A budget that pays the walk
// lists every child, where the count alone listed the one it stopped
// in. Every read spends from the one budget, and no key is read twice
// where the walk read the rest of the level whole (a level of small
// children, which it reads in pages rather than skip): the count goes
// on only to where the walk began, and counts the rest from the walk's
// keys. A walk that skipped leaves its gaps to the count, which reads
// on from where it stopped.
func CountListing(ctx context.Context, c Client, r ChildrenRequest, budget float64) (ListedCount, error) {
	l := ListedCount{Pass: NewCountPass(r)}
	reserve := ListReserve(budget)
	var err error
	l.Over, err = l.Pass.Run(ctx, c, budget-reserve, 0, nil)
	if err != nil || !l.Over || reserve == 0 {
		// No walk lists what the count did not reach: the level is listed
		// whole only where what it left unread lies inside children found.
		l.Partial = l.Over && !l.Pass.Listed()
		return l, err
	}
	if l.Pass.smallChildren() {
		// A walk lists a level of small children by reading it whole
		// (plain stretches), as the count does: what it keeps back is
		// the count's to go on with, so a budget that pays the level's
		// full read counts it whole (the dense level under its full
		// read's 163.5 RCU stopped, 55 of 60 children counted).
		if l.Over, err = l.Pass.Run(ctx, c, budget-l.Pass.Cost().Billed, 0, nil); err != nil || !l.Over {
			return l, err
		}
	}
	res := l.Pass.Result()
	walkReq := r
	walkReq.Delim, walkReq.NoDelim, walkReq.Resume = res.Delim, res.NoDelim, res.Children
	if r.Index == "" && r.TableKeys == nil {
		walkReq.HoldKeys, walkReq.holdResumed = HeldKeysBytes, true
	}
	walk := &Budgeted{Client: c, Max: budget - l.Pass.Cost().Billed, Walk: true}
	l.Pass.seed(walk)
	found, err := Children(ctx, walk, walkReq, nil)
	spent, stopped := walk.Spent()
	var spentErr *BudgetSpentError
	if l.Partial = stopped || errors.As(err, &spentErr); err != nil && !l.Partial {
		return l, err
	}
	l.Rest, err = found.Children, nil
	if !l.Partial && walkReq.HoldKeys > 0 {
		l.countWalked(found.Held)
		l.held, l.walkReq = found.Held, walkReq
		l.listed = map[string]domain.Child{}
		for _, ch := range append(l.Pass.Result().Children, l.Rest...) {
			l.listed[ch.Name] = ch
		}
	}
	if left := budget - l.Pass.Cost().Billed - spent; !l.Partial && left >= minReadUnits && !l.Pass.Done() {
		l.Over, err = l.Pass.Run(ctx, c, left, 0, nil)
	} else if l.walked != nil && l.Pass.Done() {
		l.Over = false
	}
	if err == nil && l.Over && !l.Partial && l.allCounted() {
		l.Over = false // what the count did not reach, the walk read whole
	}
	return l, err
}

// allCounted says every child listed is counted exactly.
func (l ListedCount) allCounted() bool {
	for _, ch := range l.Children().Children {
		if _, exact := l.Count(ch.Name); !exact {
			return false
		}
	}
	return true
}

// countWalked counts the children the walk read whole from its keys
// held, from where it began to the end of the key space it read without
// a gap (the level's end, or a key it read: the count reads on past it),
// and holds the count to where the walk began. Each later stretch the
// walk read without a gap (a page read whole past a child it skipped)
// is counted from its keys too, and the count reads only the gaps
// between them: read on to the level's end from the first gap, it read
// those keys again (58 children of 1 to 200 items under a budget of their
// full read's 107.5 RCU + 0.5: 96 keys read twice).
func (l *ListedCount) countWalked(h *HeldKeys) {
	if h == nil || len(h.runs) == 0 || l.Pass.r.HoldKeys > 0 {
		return // the pass's keys kept would not be the level's (CountPass.Held)
	}
	isKey := func(k string) bool {
		j := sort.SearchStrings(h.keys, k)
		return j < len(h.keys) && h.keys[j] == k
	}
	run := h.runs[0]
	from := run.lo
	var held []heldRun // the runs counted from the walk's keys, run first
	var gaps []keyGap  // what the count reads on: past a run's last key, to the next run's start
	if run.toEnd {
		held = append(held, run)
	} else {
		if !isKey(run.hi) || run.hi <= from {
			return // its end is no key read: the count could not read on past it
		}
		held = append(held, run)
		gap := keyGap{from: run.hi}
		for _, r := range h.runs[1:] {
			if r.lo <= gap.from || (!r.toEnd && (!isKey(r.hi) || r.hi <= r.lo)) {
				break // read on through it: the count reads past no key of its end
			}
			gaps = append(gaps, keyGap{from: gap.from, end: r.lo})
			held = append(held, r)
			if r.toEnd {
				gap.from = ""
				break
			}
			gap.from = r.hi
		}
		if gap.from != "" {
			gaps = append(gaps, gap)
		}
	}
	p := l.Pass
	if !p.endAt(from, gaps) {
		return
	}
	l.walked = map[string]int{}
	for _, k := range h.keys {
		if !heldIn(held, k) {
			continue // the count's: a table's stretch reads its end, and on past it
		}
		if name, _, ok := domain.ChildOf(p.r.Prefix, k, h.delim); ok {
			l.walked[name]++
		}
	}
}

// keyGap is key space a count reads on a table: past from (a key), up to
// end (included; "": the level's end).
type keyGap struct{ from, end string }

// heldIn says k lies in one of the runs, past its start (a key equal to
// it is the stretch's that ends there) and up to its end.
func heldIn(runs []heldRun, k string) bool {
	for _, r := range runs {
		if k > r.lo && (r.toEnd || k <= r.hi) {
			return true
		}
	}
	return false
}

// Count is the items counted under a child, and whether that is all of
// them: the count's, or the walk's where it read the child whole.
func (l ListedCount) Count(name string) (n int, exact bool) {
	if l.walked != nil && l.Pass.walkOwns(name) {
		return l.walked[name], true
	}
	n, exact = l.Pass.Count(name)
	if exact && l.walked != nil {
		n += l.walked[name] // a child the walk began or ended in: the count's and the walk's keys
	}
	if ch, ok := l.listed[name]; ok && !exact && l.held != nil && l.held.delim != "" {
		if !ch.HasChildren {
			// An item with nothing under it as listed: nothing under it
			// at all where the walk read the key space its subtree takes
			// (a leaf level's one item, the walk on past it to the end).
			ch.HasChildren, ch.Prefix = true, l.walkReq.Prefix+ch.Name+l.held.delim
		}
		if held, whole := l.held.Count(l.walkReq, ch); whole {
			return held, true // every key under it read by the walk
		}
	}
	return n, exact
}

// Children are the level's children as listed: the count's, then those
// the walk found past them.
func (l ListedCount) Children() ChildrenResult {
	res := l.Pass.Result()
	seen := map[string]bool{}
	for _, ch := range res.Children {
		seen[ch.Name] = true
	}
	for _, ch := range l.Rest {
		if !seen[ch.Name] {
			res.Children = append(res.Children, ch)
		}
	}
	sort.SliceStable(res.Children, func(i, j int) bool {
		return childFirstKey(res.Children[i], res.Delim) < childFirstKey(res.Children[j], res.Delim)
	})
	return res
}

// SizedLimit is the Limit of the next page of a read, one page after
// another, that may spend no more than budget RCU (0: no budget, no
// bound), spent so far, the largest item it read at most largest bytes
// (PageLargest; 0: none read yet), of scanned items. While what is left
// pays for a whole page, none (a page costs at most pageRCU whatever its
// items weigh); before any item is read, one; after, as many as half of
// what is left pays for at the largest size (all of it for one item),
// and no more than grownLimit, so that a page does not overspend unless
// it meets items larger than any before it, and then by what they weigh.
// ok is false when what is left pays for no item.
func SizedLimit(budget, spent float64, largest, scanned int) (limit int32, ok bool) {
	if budget <= 0 {
		return 0, true
	}
	left := budget - spent
	switch {
	case left >= pageRCU:
		return 0, true
	case largest <= 0:
		return 1, left >= minReadUnits
	}
	n := ItemsFor(max(left/2, min(left, 2*minReadUnits)), largest, false)
	n = min(n, grownLimit(scanned, largest, left))
	if n < 1 {
		n = min(ItemsFor(left, largest, false), 1)
	}
	return n, n >= 1
}

// grownLimit is the most items a read under a budget asks for after
// scanned were read, the largest largest bytes, left RCU left: as many as
// were read before (a sample of few items may miss the heavier ones,
// which come in runs where keys group them), but never fewer than one
// read unit holds at the largest size (a read is billed one unit however
// few it reads) once sizeSample items were read or what is left bears
// items several times larger than the sample (up to 2·left+1 times, within
// half an RCU). Before that the sample may be one item of another kind
// (the item keyed by the prefix itself, 50 bytes, before children of
// 230): with 0.5 RCU left a read unit's worth at its size read 51 items,
// 1.5 RCU.
func grownLimit(scanned, largest int, left float64) int32 {
	floor := 0
	if scanned >= sizeSample || left >= floorLeftRCU {
		floor = int(ItemsFor(minReadUnits, largest, false))
	}
	return int32(min(max(scanned, floor, 1), math.MaxInt32))
}

// tinyLevelLimit is the least a count's read under a budget asks for
// once an item is read, where at least a read unit is left: as many items
// as one read unit holds were they five times the largest read (the
// sample grownLimit fears may be of another kind: the item at the prefix,
// 50 bytes, before children of 230), so that the read costs one unit on
// the same assumption grownLimit's floor makes. Grown from one item, a
// read unit apiece, a level of 3 items (0.5 RCU read whole) stopped at a
// budget of 1 RCU, and one of 94 (1.5 RCU) at 2.
func tinyLevelLimit(largest int, left float64) int32 {
	if left < minReadUnits || largest <= 0 {
		return 0
	}
	return ItemsFor(minReadUnits, 5*largest, false)
}

const (
	// sizeSample is the fewest items read whose largest sizes a read unit.
	sizeSample = 4
	// floorLeftRCU is what left bears a read unit's worth of items up to
	// five times larger than the sample's largest.
	floorLeftRCU = 2.0
)

// BudgetLimit is the Limit of a read that may spend no more than what is
// left of budget RCU, spent so far over scanned items (0: no budget, no
// bound): 0.5 RCU per 4 KB at the item sizes read so far (an upper bound,
// as every read is rounded up). Before any item is read their size is
// unknown: a read of one item, unless what is left pays for a whole page
// (then no guess can overspend it), where a guess of 1 KB an item let the
// first read of 40 KB items spend 40 times the budget. ok is false when
// what is left pays for no item. The mean is no bound of the next items
// where a few are far larger than the rest (30 KB among 200 bytes):
// SizedLimit sizes from the largest, and every read under a budget uses
// it (the explorer's filtered fill too: SizedPage).
func BudgetLimit(budget, spent float64, scanned int) (limit int32, ok bool) {
	if budget <= 0 {
		return 0, true
	}
	left := budget - spent
	if scanned == 0 || spent <= 0 {
		switch {
		case left >= pageRCU:
			return 0, true
		case left >= 0.5:
			return 1, true
		}
		return 0, false
	}
	size := spent * 8192 / float64(scanned)
	n := math.Floor(left * 8192 / size)
	if n < 1 {
		return 0, false
	}
	return int32(min(n, math.MaxInt32)), true
}

// SizedPage is QueryPage for a read under a budget (budget > 0; 0: none)
// that sizes its pages by SizedLimit, and largest is its bound of the
// largest item the page read (PageLargest), in bytes. A filtered read
// under a budget asks for whole items and applies its filter here
// (SetLocalMatcher), as a budgeted search does: DynamoDB bills every
// item read the same either way, and only so is the size of each item
// billed known (a filter dropping items on the server leaves only the
// page's total, which bounds its largest item by the sum of all it
// dropped). Without a budget, a filter or a matcher, the filter is sent.
func SizedPage(ctx context.Context, c Client, r PageRequest, budget float64) (page Page, largest int, err error) {
	var local func(Item) (Item, bool)
	if budget > 0 && r.Query.Filter != nil && !r.KeysOnly && localMatcher != nil {
		cond, err := FilterCondition(r.Query.Filter)
		if err != nil {
			return Page{}, 0, Errorf("filter", KindValidation, "see the filter syntax in dynascope items --help", "%v", err)
		}
		expr, err := expression.NewBuilder().WithFilter(cond).Build()
		if err != nil {
			return Page{}, 0, Errorf("build query", KindValidation, "check the filter's values", "%v", err)
		}
		if local, err = localMatcher(expr.Filter(), nil, unescapeNames(expr.Names()), expr.Values()); err != nil {
			return Page{}, 0, Errorf("filter", KindValidation, "see the filter syntax in dynascope items --help", "%v", err)
		}
		r.Query.Filter = nil // whole items, filtered below
	}
	page, err = QueryPage(ctx, c, r)
	if err != nil {
		return page, 0, err
	}
	whole := r.Query.Filter == nil && !r.KeysOnly
	largest = PageLargest(page.Cost.Billed, false, page.Items, page.Scanned, whole)
	if local != nil {
		var kept []Item
		for _, it := range page.Items {
			if m, ok := local(it); ok {
				kept = append(kept, m)
			}
		}
		page.Items, page.Count = kept, len(kept)
	}
	return page, largest, nil
}
