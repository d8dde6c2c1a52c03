package dynamo

import (
	"context"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dynascope/dynascope/internal/domain"
)

// A count is one pass over the level at most: its keys are read once, in
// key order, and each is counted for the child it belongs to, so counting
// costs what reading the level costs (a skip-scan then a count of each
// child would read every key the skip-scan read twice, and round each
// child's last read up to a read unit besides). The first read is a whole
// page from the level's start; where it says there is more, the level's
// last key is read (one key, backwards) and the rest, from the page's end
// to that key, is cut by key space into as many stretches as its size by
// the first page's pace fills pages (up to the reads in flight), each read
// at once. A pass stopped by its budget (or an error) keeps where each
// stretch stopped: Run again goes on from there and reads nothing twice.

// CountPass is a level counted in one pass: the children found, the items
// counted under each, and the stretches still to read.
type CountPass struct {
	r      ChildrenRequest
	level  domain.KeyQuery
	binary bool
	delim  string
	detect bool // the delimiter is still to be told from the keys

	mu        sync.Mutex
	started   bool
	stretches []*stretch // in key order, read or not
	counts    map[string]int
	selfItem  bool
	cost      Cost
	scanned   int
	reserved  float64    // RCU the reads in flight may cost
	idle      *sync.Cond // told when a read in flight answers (reserved falls)
	largest   int        // the largest item read, in bytes at most (PageLargest)
	// exact is the largest item read as billed where ItemBytes counts it
	// so (exactSize): what sizes a read to fill the read units it pays.
	exact  int
	maxRun int // the most keys of one child read in a row
	// pace is the key space the first page covered, from paceBase on:
	// where the rest is cut.
	pace     float64
	paceBase string
	held     []string // keys read before the delimiter is told
	// cutAfter: stretches begin after their cut point (a table's keys:
	// see stretch).
	cutAfter bool
	// heldKeys are the keys a walk held, where the pass starts from them
	// (HeldKeys.CountPass); keptRCU is what those it will not read again
	// weigh; spread: its chains were spread.
	heldKeys []string
	keptRCU  float64
	spread   bool
	// kept are the keys counted, where r.HoldKeys asked for them (the
	// explorer's), up to that many bytes (keptBytes; none past it): a
	// child of a level counted whole is entered with no request (Held).
	kept      []string
	keptBytes int
	keptOver  bool
	// heldTo is where endAt held the pass (""; none): it counts nothing
	// past it (a child it cuts is exact up to it, the rest another's), up
	// to heldFrom ("": the level's end), a key past which it reads on.
	heldTo, heldFrom string
}

// stretch is one key range of the level, [from, end) ("" end: to the
// level's end), and how far it is read. On a table (not an index) the
// ranges are (from, end] instead, but the first's [prefix, end] and the
// last's (from, last): a key equal to a cut point is read once, by the
// stretch it ends, and the level's last key, read alone to cut the rest,
// is not read again (keyed ExclusiveStartKey from a cut point, which an
// index's would need the table's key for).
type stretch struct {
	from string
	end  string
	next Item   // ExclusiveStartKey to go on from; nil: from `from`
	at   string // the last key read, "" before any
	walk *domain.ChildWalk
	done bool
	// last is the level's last key, read alone: the stretch ends before
	// it (end is last) and counts it once read to its end.
	last string
	// gap: a stretch a walk did not read (HeldKeys.CountPass), [from, end)
	// where fromIn, else (from, end); "" end: to the level's end. A key
	// equal to its end is held: read below it, never again.
	gap, fromIn bool
	// parts are the gaps a chain reads as one, in key order (the keys
	// between them held, read again); rcu is what its reads cost.
	parts []gapPart
	rcu   float64
	// child is the child of the last key read, run how many keys in a
	// row it read of it; boundTo is the end of the last child a read was
	// held to (allow), read to it: the next read goes past it.
	child   string
	run     int
	boundTo string
}

// gapPart is one gap of a chain, as a gap stretch bounds it.
type gapPart struct {
	from, end string
	fromIn    bool
}

// NewCountPass prepares a count of the level r names (r.Key.SK a string
// or binary key), reading nothing yet.
func NewCountPass(r ChildrenRequest) *CountPass {
	binary := r.Key.SK != nil && r.Key.SK.Type == domain.TypeB
	level := domain.KeyQuery{Table: r.Table, Index: r.Index, PKName: r.Key.PK.Name, PK: r.PK}
	if r.Key.SK != nil {
		level.SKName = r.Key.SK.Name
	}
	if r.Prefix != "" {
		level.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: skValue(r.Prefix, binary)}
	}
	p := &CountPass{r: r, level: level, binary: binary, delim: r.Delim, detect: r.Delim == "" && !r.NoDelim, counts: map[string]int{}, cutAfter: r.TableKeys == nil && r.Index == ""}
	p.idle = sync.NewCond(&p.mu)
	p.stretches = []*stretch{{from: r.Prefix, walk: domain.NewChildWalk(r.Prefix, r.Delim)}}
	return p
}

// Run reads what is left of the level, at most parallel reads at once
// (0: DefaultParallel), spending no more than budget RCU in this run (0:
// no budget) beyond the rounding of one read unit: a count stopped at its
// budget goes on, given another, from where it stopped.
// progress, if not nil, is told the cost so far after every page (one
// call at a time). over: the budget stopped it before the end (Run again
// with a larger budget goes on).
func (p *CountPass) Run(ctx context.Context, c Client, budget float64, parallel int, progress func(Cost)) (over bool, err error) {
	over, err = p.run(ctx, c, budget, parallel, progress)
	p.flush()
	if err == nil {
		err = p.cutByTableDelimiter(ctx, c)
	}
	return over, err
}

func (p *CountPass) run(ctx context.Context, c Client, budget float64, parallel int, progress func(Cost)) (over bool, err error) {
	if parallel <= 0 {
		parallel = DefaultParallel
	}
	if p.r.Key.SK == nil || p.r.Key.SK.Type == domain.TypeN {
		return false, Errorf("count", KindValidation, "count a string or binary sort key's level", "the sort key of %s has no levels to count", p.r.Table)
	}
	if budget > 0 {
		// Reads in parallel only as many as half the budget pays an item
		// of 400 KB each for: an item larger than any read before, met
		// by one of them, is paid by what the others leave.
		parallel = max(min(parallel, int(budget/2/ReadCost(1, MaxItemBytes, false))), 1)
	}
	run := &passRun{p: p, c: c, budget: budget, progress: progress, base: p.Cost().Billed, parallel: parallel}
	if p.started {
		// Under a budget, before any item is sized (a pass from the keys
		// a walk held: its gaps not read yet), one read alone sizes the
		// rest, as a pass's first page does.
		for budget > 0 && p.sizeless() {
			todo := p.pending()
			if len(todo) == 0 {
				break
			}
			if err := run.page(ctx, todo[0]); err != nil || run.isOver() {
				return run.isOver(), err
			}
		}
		if err := run.spreadChains(ctx); err != nil || run.isOver() {
			return run.isOver(), err
		}
		err := run.all(ctx, p.pending(), parallel)
		return run.isOver(), err
	}
	// The first page, alone: most levels end in it.
	first := p.stretches[0]
	if err := run.page(ctx, first); err != nil || run.isOver() || first.done {
		return run.isOver(), err
	}
	if parallel == 1 {
		// Read on from where the first page ended, as the full read
		// does: cut there, its end a read more, billed whole read units.
		err := run.all(ctx, p.pending(), 1)
		return run.isOver(), err
	}
	tail := p.split(first)
	if tail == nil {
		err := run.all(ctx, p.pending(), 1)
		return run.isOver(), err
	}
	// The first stretch reads on to where a page of the same pace ends,
	// while the level's last key is read and the rest cut by it.
	var firstErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		firstErr = run.all(ctx, []*stretch{first}, 1)
	}()
	err = run.cut(ctx, tail, parallel-1)
	if err == nil {
		err = run.all(ctx, p.pending(first), parallel-1)
	}
	wg.Wait()
	if err == nil {
		err = firstErr
	}
	return run.isOver(), err
}

// flush tells the delimiter from the keys held for it, however few,
// once a run stops before enough were read.
func (p *CountPass) flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.detect && len(p.held) > 0 {
		keys := p.held
		p.held = nil
		p.tell(keys, true)
		p.tally(p.stretches[0], keys)
	}
}

// smallChildren says the pass read a whole page of the level (what a
// walk keeps back buys no more than a tenth of one) and every child it
// read, in full or in part, is small: at least 2·listFloor of them
// ended, none read to more than twice a child a walk reads whole rather
// than skips (denseChildRCU), nor all on average. A walk from there
// would list the rest by reading it, as the count does; where a child
// is large so far, it would skip it and list those past it (one of 3,000
// items among 30 of two: 31 children listed under a budget of 5).
func (p *CountPass) smallChildren() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	ended := float64(len(p.counts) - 1)
	return ended >= 2*listFloor && p.cost.Billed >= pageCost(p.largest) && p.cost.Billed <= 2*denseChildRCU*ended &&
		ReadCost(int32(p.maxRun), max(min(p.exact, p.largest), 1), false) <= 2*denseChildRCU
}

// wholePage is the most a whole page costs, from the largest item read
// (pageRCU before any). Under p.mu.
func (p *CountPass) wholePage() float64 {
	if p.largest == 0 {
		return pageRCU
	}
	return pageCost(p.largest)
}

// sizeless says no item has been read yet to size the reads by.
func (p *CountPass) sizeless() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.largest == 0
}

// pending are the stretches not read to their end, but those named.
func (p *CountPass) pending(but ...*stretch) []*stretch {
	p.mu.Lock()
	defer p.mu.Unlock()
	var todo []*stretch
	for _, s := range p.stretches {
		if !s.done && (len(but) == 0 || s != but[0]) {
			todo = append(todo, s)
		}
	}
	return todo
}

// passRun is one Run: its client, budget and whether the budget stopped it.
type passRun struct {
	p        *CountPass
	c        Client
	budget   float64
	base     float64 // what the pass had spent before this run
	parallel int     // reads in flight at most
	progress func(Cost)
	over     bool // under p.mu
}

// all reads the stretches to their ends, parallel at once.
func (run *passRun) all(ctx context.Context, todo []*stretch, parallel int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	next := make(chan *stretch)
	for range min(parallel, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				for !run.finished(s) {
					if err := run.page(ctx, s); err != nil {
						mu.Lock()
						if first == nil {
							first = err
						}
						mu.Unlock()
						cancel()
						break
					}
				}
			}
		}()
	}
feed:
	for _, s := range todo {
		select {
		case next <- s:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	return first
}

// finished says s is read to its end, or the run is over.
func (run *passRun) finished(s *stretch) bool {
	run.p.mu.Lock()
	defer run.p.mu.Unlock()
	return s.done || run.over
}

func (run *passRun) isOver() bool {
	run.p.mu.Lock()
	defer run.p.mu.Unlock()
	return run.over
}

// allow is the Limit of the next read under the budget, shared with the
// other share-1 stretches that will read, and what that read may cost,
// held back from what is left until it answers: a read of n items costs
// at most n times the largest item read so far (budgeted.go), so reads
// in flight at once never spend together more than the budget unless
// they meet an item larger than any before. Before any is read, the
// first read is of one item, unless what is left pays for whole pages.
// ok is false (and the run over) when what is left pays for no item.
// bound, where not "", is the end of the child s is in, which the read
// is held to (boundedRange). Under p.mu.
func (run *passRun) allow(s *stretch, share int) (limit int32, hold float64, bound string, ok bool) {
	p := run.p
	if run.budget <= 0 {
		return 0, 0, "", true
	}
	share = max(min(share, run.parallel), 1)
	left := run.budget - (p.cost.Billed - run.base) - p.reserved
	if share > 1 && left/float64(share) < p.wholePage() {
		// What is left pays no whole page a stretch: the reads go one
		// after another, each sized to all that is left, not to a share
		// of it shrinking as the others read (the 45 children under '/'
		// under a budget of their full read's 273.5: 41 reads, of 70
		// items down to 11, 44 of 45 children counted).
		for p.reserved > 0 && !run.over {
			p.idle.Wait()
		}
		if run.over {
			return 0, 0, "", false
		}
		left, share = run.budget-(p.cost.Billed-run.base)-p.reserved, 1
	}
	// Until a few items are read a read spends at most half of what is
	// left (all of its last read units); after that all of it, at the
	// largest item read so far: a read grows no faster than the items
	// it read before (acrossChildren, withinChild), so only items larger
	// than any read before overspend it. Halving what is left, the reads
	// near a budget's end asked for fewer items each time, each billed
	// whole read units (the tenant under a budget of 100, its projects'
	// tasks: 77, 76, 60, 49, 38, 31, 28, 27, 27 and 25 items).
	use := max(left/2, min(left, 2*minReadUnits))
	if p.scanned >= sizeSample {
		use = left
	}
	each := use / float64(share)
	largest := p.largest
	switch {
	case left/float64(share) >= pageRCU:
		// A whole page costs at most pageRCU, whatever its items weigh:
		// held back whole, it cannot overspend.
		return 0, pageRCU, "", true
	case largest > 0 && left/float64(share) >= p.wholePage():
		// A page reads 1 MB at most, whatever its items weigh, and the
		// item that crosses the line: only an item larger than any read
		// before overspends it. Read so, a level the budget pays is read
		// in the full read's pages, not in reads grown one after another
		// (each billed whole read units: the dense level's 163.5 RCU
		// stopped at a budget of 163.5, 59 of 60 children counted).
		return 0, p.wholePage(), "", true
	case largest == 0:
		// The items' size is not known yet: one item, whatever it
		// weighs (it may overspend by what it weighs beyond the budget).
		if left >= minReadUnits && p.reserved == 0 {
			return 1, minReadUnits, "", true
		}
	default:
		limit = ItemsFor(each, largest, false)
		if share == 1 && p.reserved == 0 && p.scanned >= sizeSample && left >= tailLeftRCU {
			// Read alone, it may spend what is left and the half RCU a
			// budget may be passed by, at the size its items are billed:
			// sized by the margined size and to what is left, the last
			// reads of a level its budget pays stopped a few items short
			// (the dense level under a budget of its full read's 163.5:
			// 1,081 items of the 1,245 past its first page, then 128,
			// then 12, 59 of 60 children counted).
			limit = max(limit, ItemsFor(left+minReadUnits, max(min(p.exact, largest), 1), false))
		}
		grown := p.acrossChildren(largest, left)
		if within, end, ok := p.withinChild(s, largest, left); ok && within > grown {
			grown, bound = within, end
		}
		limit = min(limit, grown)
		if limit < 1 && p.reserved == 0 {
			limit, bound = min(ItemsFor(left, largest, false), 1), ""
			if limit < 1 && p.cost.Billed == run.base {
				// A run's first read: one item, where the budget and the
				// half RCU it may be passed by pay it. Else a budget of
				// what the heaviest item costs (5 RCU, 40 KB) read
				// nothing, run after run (each c said it stopped at its
				// budget).
				limit = min(ItemsFor(left+minReadUnits, largest, false), 1)
			}
		}
		if limit >= 1 {
			return limit, ReadCost(limit, largest, false), bound, true
		}
	}
	run.over = true
	return 0, 0, "", false
}

// tailLeftRCU is the least left under a budget that a read alone sizes
// at the items' billed size and with the half RCU a budget may be passed
// by: below it, that half RCU is what pays for an item a little heavier
// than those read (a library's layout under a budget of 1 spent 2.0).
const tailLeftRCU = 10

// acrossChildren is the most items a read under a budget that may go
// past a child's end asks for: as many as were read outside the longest
// run of one child (items of one child, however many, say nothing of
// the next: a tenant's 1,485 audit records of 100 bytes sized a read
// that met its projects' tasks of 3 KB, 71 RCU of a budget of 50), at
// least a read unit's worth at the largest once a few were, and as many
// as what is left pays for at heavyMargin times the largest (as a read
// within a child grows); a level's first reads grow as grownLimit's do
// from what a read unit holds of items five times the largest
// (tinyLevelLimit). Under p.mu.
func (p *CountPass) acrossChildren(largest int, left float64) int32 {
	if p.scanned < sizeSample {
		return max(grownLimit(p.scanned, largest, left), tinyLevelLimit(largest, left))
	}
	others := max(p.scanned-p.maxRun, 1)
	if others >= sizeSample {
		others = max(others, int(p.unitItems(largest)), int(ItemsFor(left, heavyMargin*largest, false)))
	}
	// A first contact with the next child reads a sample of it, as
	// many items as one read unit holds at sizeSample times the largest
	// read (sizeSample at most), so that the reads within it grow from
	// there: one item, then one, then two, each a read unit, cost a level
	// of five children of 60-byte items (Geo's US|CA|, 7.5 RCU read
	// whole) 4 RCU more than its full read.
	others = max(others, int(min(sizeSample, ItemsFor(minReadUnits, sizeSample*largest, false))))
	return int32(min(others, math.MaxInt32))
}

// withinChild is the most items a read held to the child s is in asks
// for, and that child's end, where the read is to be held there ("": s
// ends before it, which holds the read within the child); ok is false
// where no read is held to a child (the child not known, one key, or
// read to its end): as many as s read of it in a row, as a walk's reads
// grow (Budgeted.Walk), at least a read unit's worth at the largest once
// a few were, or what left pays for at heavyMargin times the largest.
// Under p.mu.
func (p *CountPass) withinChild(s *stretch, largest int, left float64) (limit int32, end string, ok bool) {
	if p.detect || p.delim == "" || s.at == "" || s.run == 0 || p.startOf(s) == nil {
		return 0, "", false
	}
	name, leaf, ok := domain.ChildOf(p.r.Prefix, s.at, p.delim)
	if !ok || leaf || name != s.child {
		return 0, "", false
	}
	under := p.r.Prefix + name + p.delim
	if p.binary {
		b, _ := domain.BytesEnd([]byte(under))
		end = string(b)
	} else {
		end, _ = domain.PrefixEnd(under)
	}
	if end == "" || end <= s.boundTo {
		return 0, "", false
	}
	if (s.end != "" && end >= s.end) || (s.last != "" && end >= s.last) {
		end = "" // s ends within the child
	}
	n := s.run
	if n < sizeSample && left >= floorLeftRCU {
		// A read is billed a whole read unit however few it reads: one,
		// one, then two items of a child of 1 KB items cost a unit each
		// (a home folder's files: 1.5 RCU for 4 KB).
		n = max(n, int(p.unitItems(largest)))
	}
	if n >= sizeSample {
		n = max(n, int(p.unitItems(largest)))
		// As many as what is left pays for were they heavyMargin times
		// the largest read: grown so, a child of many items is read in
		// a few requests, not one doubling after another (a user's 2,500
		// posts: 10 requests, each rounded up to a read unit).
		n = max(n, int(ItemsFor(left, heavyMargin*largest, false)))
	}
	return int32(min(n, math.MaxInt32)), end, true
}

// unitItems is how many items one read unit holds at the largest read
// (largest, with ItemBytes' margin), or as billed where the items read
// were sized exactly (exactSize): a read of fewer is billed a whole unit
// all the same. A margin of 32 bytes sized 67-byte cities as 101: 41 a
// read unit where 61 fit. Under p.mu.
func (p *CountPass) unitItems(largest int) int32 {
	return ItemsFor(minReadUnits, max(min(p.exact, largest), 1), false)
}

// heavyMargin is how many times heavier than the largest read the items
// of a child a read grows in are taken to be, at most.
const heavyMargin = 4

// boundedRange is a read of the level held to end (included): it goes
// on past a key read (ExclusiveStartKey), so the level's start bounds it
// below.
func (p *CountPass) boundedRange(end string) domain.SKCondition {
	if p.r.Prefix == "" {
		return domain.SKCondition{Op: domain.SKLe, A: skValue(end, p.binary)}
	}
	return domain.SKCondition{Op: domain.SKBetween, A: skValue(p.r.Prefix, p.binary), B: skValue(end, p.binary)}
}

// keyOf is the start key of a read that goes on past it: its keys, and
// an index's table keys.
func (p *CountPass) keyOf(it Item) Item {
	names := []string{p.r.Key.PK.Name, p.r.Key.SK.Name}
	if t := p.r.TableKeys; t != nil {
		names = append(names, t.PK.Name)
		if t.SK != nil {
			names = append(names, t.SK.Name)
		}
	}
	return keyOf(it, names)
}

// page reads the next page of s and counts its keys.
func (run *passRun) page(ctx context.Context, s *stretch) error {
	if err := ctx.Err(); err != nil {
		return err // stopped (esc, or another stretch's error): sends nothing more
	}
	p := run.p
	p.mu.Lock()
	if run.over {
		p.mu.Unlock()
		return nil
	}
	active := 0
	for _, o := range p.stretches {
		if !o.done {
			active++
		}
	}
	limit, hold, bound, ok := run.allow(s, active)
	if !ok {
		p.mu.Unlock()
		return nil
	}
	p.reserved += hold
	q := p.level
	q.SK = p.stretchRange(s)
	if bound != "" {
		q.SK = p.boundedRange(bound)
	}
	// Under a budget the items are read whole (billed the same as their
	// keys): their sizes size the next reads.
	req := PageRequest{Query: q, Start: p.startOf(s), Limit: limit, KeysOnly: run.budget <= 0, TableKeys: p.r.TableKeys}
	p.mu.Unlock()

	page, err := QueryPage(ctx, run.c, req)

	p.mu.Lock()
	defer p.mu.Unlock()
	p.reserved -= hold
	p.idle.Broadcast()
	p.cost = p.cost.Add(page.Cost)
	s.rcu += page.Cost.Billed
	p.scanned += page.Scanned
	p.largest = max(p.largest, PageLargest(page.Cost.Billed, false, page.Items, page.Scanned, !req.KeysOnly))
	p.exact = max(p.exact, pageLargest(page.Cost.Billed, false, page.Items, page.Scanned, !req.KeysOnly, true))
	if run.progress != nil {
		defer run.progress(p.cost)
	}
	if err != nil {
		return err
	}
	p.started = true
	keys := make([]string, 0, len(page.Items))
	past := false
	for _, it := range page.Items {
		k, ok := skText(it[p.r.Key.SK.Name])
		if !ok {
			continue
		}
		if s.end != "" && (k > s.end || (k == s.end && !p.endsAt(s))) {
			past = true // the next stretch's
			break
		}
		keys = append(keys, k)
	}
	prev := s.next
	s.next = page.LastKey
	s.done = !page.More() || past
	if bound != "" && s.done {
		// Read to the child's end, not the stretch's: on past it.
		s.done, s.boundTo, s.next = false, bound, prev
		if n := len(page.Items); n > 0 {
			s.next = p.keyOf(page.Items[n-1])
		}
	}
	if s.done && s.last != "" {
		keys = append(keys, s.last) // read alone, counted once
	}
	if p.detect {
		// The delimiter is told from the first keys read, enough of them
		// (a budget's first read may hold one): held until then.
		p.held = append(p.held, keys...)
		if len(p.held) < firstProbeKeys && !s.done {
			if n := len(keys); n > 0 {
				s.at = keys[n-1]
			}
			return nil
		}
		keys, p.held = p.held, nil
		p.tell(keys, false)
	}
	p.tally(s, keys)
	return nil
}

// tell sets the delimiter from keys read; stopped: a run stopped before
// enough were read to see one repeat.
func (p *CountPass) tell(keys []string, stopped bool) {
	if len(keys) == 0 {
		return
	}
	p.delim, _ = domain.DetectDelimiter(trimPrefix(keys, p.r.Prefix))
	if p.delim == "" && stopped && !p.binary {
		p.delim = fewKeysDelimiter(trimPrefix(keys, p.r.Prefix))
	}
	p.detect = false
	for _, o := range p.stretches {
		o.walk.Delim = p.delim
	}
}

// fewKeysDelimiter is the delimiter of a level of which a budget let
// too few keys be read to see one repeat (--count-budget 0.5 reads one):
// the strongest in every key read (Kraków#000: '#'), as a prefix typed by
// hand is read. Keys listed whole would be children no full read finds.
func fewKeysDelimiter(keys []string) string {
	d := ""
	for _, k := range keys {
		if k == "" {
			continue // the item at the prefix
		}
		if d == "" {
			if d, _ = domain.TemplateDelimiter(k); d == "" {
				return ""
			}
		}
		if !strings.Contains(k, d) {
			return ""
		}
	}
	return d
}

// tally counts keys read in order by s, each for its child.
func (p *CountPass) tally(s *stretch, keys []string) {
	p.keep(keys)
	for _, k := range keys {
		if name, _, ok := domain.ChildOf(p.r.Prefix, k, p.delim); ok {
			p.counts[name]++
			if name != s.child {
				s.child, s.run = name, 0
			}
			s.run++
			p.maxRun = max(p.maxRun, s.run)
		} else if k == p.r.Prefix {
			p.selfItem = true
		}
	}
	s.walk.Feed(keys)
	if n := len(keys); n > 0 {
		s.at = keys[n-1]
	}
}

// keep holds the keys counted, as a walk holds the keys it reads
// (keyHold): up to r.HoldKeys bytes of them, none past it.
func (p *CountPass) keep(keys []string) {
	if p.r.HoldKeys <= 0 || p.keptOver {
		return
	}
	for _, k := range keys {
		p.keptBytes += len(k)
	}
	if p.keptBytes > p.r.HoldKeys {
		p.keptOver, p.kept = true, nil
		return
	}
	p.kept = append(p.kept, keys...)
}

// Held are the keys of the level, where the pass read it to its end and
// kept them (r.HoldKeys; nil past the bound, before the end, or where
// no delimiter cuts the level): entering a child, the explorer tells its
// level from them, with no request, as from the keys a walk held
// (HeldKeys.Level). c then enter on ISSUE# read the level twice where
// the count kept none.
func (p *CountPass) Held() *HeldKeys {
	if !p.Done() {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.r.HoldKeys <= 0 || p.keptOver || p.delim == "" {
		return nil
	}
	keys := append([]string(nil), p.kept...)
	sort.Strings(keys)
	return &HeldKeys{prefix: p.r.Prefix, delim: p.delim, keys: compactStrings(keys), runs: []heldRun{{lo: p.r.Prefix, toEnd: true}}}
}

// stretchRange is the sort-key condition of a stretch: BETWEEN its start
// and its end (a key equal to the end is read and passed over, where it
// is not the stretch's: endsAt), or from its start to the level's end;
// the level's own from its start; below the level's last key, read
// alone, after a cut point.
func (p *CountPass) stretchRange(s *stretch) domain.SKCondition {
	atStart := s.from == p.r.Prefix
	switch {
	case s.gap && s.fromIn && s.next == nil && s.end != "" && s.from == "":
		return domain.SKCondition{Op: domain.SKLt, A: skValue(s.end, p.binary)}
	case s.gap && s.fromIn && s.next == nil && s.end != "":
		// From a key not held, which may be one: up to the end, a key
		// there passed over.
		return domain.SKCondition{Op: domain.SKBetween, A: skValue(s.from, p.binary), B: skValue(s.end, p.binary)}
	case s.gap && s.fromIn && s.next == nil:
		return rangeFrom(s.from, p.r.Prefix, p.binary)
	case s.gap && s.end != "":
		// Past a key held (ExclusiveStartKey), below the next one held.
		return domain.SKCondition{Op: domain.SKLt, A: skValue(s.end, p.binary)}
	case s.gap:
		return p.level.SK
	case s.last != "" && (!atStart || s.next != nil):
		// From where it stopped (ExclusiveStartKey), within the level.
		return domain.SKCondition{Op: domain.SKLt, A: skValue(s.last, p.binary)}
	case atStart && s.end == "":
		return p.level.SK
	case atStart && p.r.Prefix == "":
		return domain.SKCondition{Op: domain.SKLe, A: skValue(s.end, p.binary)}
	case s.end == "":
		return rangeFrom(s.from, p.r.Prefix, p.binary)
	}
	return domain.SKCondition{Op: domain.SKBetween, A: skValue(s.from, p.binary), B: skValue(s.end, p.binary)}
}

// endsAt says a key equal to s's end is s's: a table's stretches end at
// their cut point, included, and the next begins after it.
func (p *CountPass) endsAt(s *stretch) bool { return p.cutAfter && s.last == "" && !s.gap }

// startOf is the ExclusiveStartKey of s's next read: where it stopped,
// or on a table its cut point (the first stretch reads from the level's
// start).
func (p *CountPass) startOf(s *stretch) Item {
	if s.gap && !s.fromIn && s.next == nil {
		return Item{p.r.Key.PK.Name: AttributeValue(p.r.PK), p.r.Key.SK.Name: AttributeValue(skValue(s.from, p.binary))}
	}
	if s.next != nil || !p.cutAfter || s.from == p.r.Prefix || s.gap {
		return s.next
	}
	return Item{p.r.Key.PK.Name: AttributeValue(p.r.PK), p.r.Key.SK.Name: AttributeValue(skValue(s.from, p.binary))}
}

// split ends the first stretch where a page at its first page's pace
// would, and hands the rest of the level to a stretch of its own (cut
// further once the level's last key is read). nil: no such end.
func (p *CountPass) split(first *stretch) *stretch {
	p.mu.Lock()
	defer p.mu.Unlock()
	from0, lo := firstKey(first), first.at
	if from0 == "" || lo <= from0 {
		return nil
	}
	base := commonPrefix(from0, lo)
	span := keyPos(lo, base) - keyPos(from0, base)
	end := p.cutKey(keyPos(lo, base)+span, base)
	if end <= domain.After(lo) || keyPos(lo, base)+span >= 1 {
		return nil
	}
	first.end = end
	tail := &stretch{from: end, walk: domain.NewChildWalk(p.r.Prefix, p.delim).From(end)}
	p.stretches = append(p.stretches, tail)
	p.pace = span
	p.paceBase = base
	return tail
}

// cut reads the level's last key and cuts tail, not yet read, into up to
// n stretches by key space, as many as pages at the first page's pace
// would fill; a tail past the last key is done.
func (run *passRun) cut(ctx context.Context, tail *stretch, n int) error {
	p := run.p
	p.mu.Lock()
	hold := ReadCost(1, max(p.largest, 1), false)
	if run.budget > 0 && run.budget-(p.cost.Billed-run.base)-p.reserved < 2*hold {
		p.mu.Unlock()
		return nil // the budget is for the items: the tail is read whole
	}
	p.reserved += hold
	q := p.level
	q.Reverse = true
	p.mu.Unlock()
	page, err := QueryPage(ctx, run.c, PageRequest{Query: q, Limit: 1, KeysOnly: true, TableKeys: p.r.TableKeys})
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reserved -= hold
	p.idle.Broadcast()
	p.cost = p.cost.Add(page.Cost)
	p.largest = max(p.largest, PageLargest(page.Cost.Billed, false, page.Items, page.Scanned, false))
	if err != nil {
		return err
	}
	var hi string
	for _, it := range page.Items {
		hi, _ = skText(it[p.r.Key.SK.Name])
	}
	if hi < tail.from || (p.cutAfter && hi == tail.from) {
		tail.done = true // nothing past the first stretch's end
		if first := p.stretches[0]; p.cutAfter && !first.done && first.next != nil && hi > first.at {
			// It ends before hi, read here, and counts it at its end.
			first.end, first.last = hi, hi
		}
		return nil
	}
	a, b := keyPos(tail.from, p.paceBase), keyPos(hi, p.paceBase)
	if p.pace > 0 {
		n = min(n, int((b-a)/p.pace)+1)
	}
	var points []string
	last := tail.from
	for i := 1; i < n; i++ {
		pt := p.cutKey(a+(b-a)*float64(i)/float64(n), p.paceBase)
		if pt <= last || pt >= hi {
			continue
		}
		points = append(points, pt)
		last = pt
	}
	final := tail
	if len(points) > 0 {
		end := tail.end
		tail.end = points[0]
		for i, pt := range points {
			e := end
			if i+1 < len(points) {
				e = points[i+1]
			}
			final = &stretch{from: pt, end: e, walk: domain.NewChildWalk(p.r.Prefix, p.delim).From(pt)}
			p.stretches = append(p.stretches, final)
		}
		sort.SliceStable(p.stretches, func(i, j int) bool { return p.stretches[i].from < p.stretches[j].from })
	}
	if p.cutAfter && final.end == "" && final.next == nil {
		// The last stretch ends before hi, read here: it counts it once
		// read to its end.
		final.end, final.last = hi, hi
	}
	return nil
}

// firstKey is the first key a stretch read.
func firstKey(s *stretch) string {
	if ch := s.walk.Children(); len(ch) > 0 {
		k := s.walk.Prefix + ch[0].Name
		if !ch[0].IsItem {
			k = ch[0].Prefix
		}
		return k
	}
	return ""
}

// Keys as positions in [0, 1) past a common base: their next posDigits
// bytes as digits of base 256, so that cuts spread evenly over the keys
// between two read ones.
const posDigits = 4

func keyPos(k, base string) float64 {
	pos, scale := 0.0, 1.0
	rest := k[min(len(base), len(k)):]
	for i := 0; i < posDigits; i++ {
		scale /= 256
		if i < len(rest) {
			pos += float64(rest[i]) * scale
		}
	}
	return pos
}

func posKey(pos float64, base string) string {
	b := []byte(base)
	for i := 0; i < posDigits; i++ {
		pos *= 256
		d := min(int(pos), 255)
		pos -= float64(d)
		b = append(b, byte(d))
	}
	for len(b) > len(base)+1 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return string(b)
}

// cutKey is posKey as a key of the level can be sent: a string's as
// valid UTF-8, where a digit of 0x80 or more (names past ASCII: Ω, 東京)
// would otherwise go out as U+FFFD, another key (dynalite refused the
// BETWEEN it made; DynamoDB reads another range). From the first byte
// that is not, the nearest character its lead byte starts.
func (p *CountPass) cutKey(pos float64, base string) string {
	k := posKey(pos, base)
	if p.binary || utf8.ValidString(k) {
		return k
	}
	i := 0
	for i < len(k) {
		r, n := utf8.DecodeRuneInString(k[i:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		i += n
	}
	var r rune
	switch c := k[i]; {
	case c < 0xc2:
		r = 0x80
	case c <= 0xdf:
		r = rune(c&0x1f) << 6
	case c <= 0xef:
		r = max(rune(c&0x0f)<<12, 0x800)
	case c <= 0xf4:
		r = max(rune(c&0x07)<<18, 0x10000)
	default:
		r = utf8.MaxRune
	}
	return k[:i] + string(r)
}

func commonPrefix(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[:i]
}

// Result is the level as read so far: its children in key order (those
// of stretches not read to the end are those found so far), the delimiter
// and the cost of every run.
func (p *CountPass) Result() ChildrenResult {
	p.mu.Lock()
	defer p.mu.Unlock()
	res := ChildrenResult{Delim: p.delim, SelfItem: p.selfItem, Cost: p.cost}
	res.Level = p.level
	res.NoDelim = p.delim == "" && !p.detect
	index := map[string]int{}
	for _, s := range p.stretches {
		for _, ch := range s.walk.Children() {
			if i, ok := index[ch.Name]; ok {
				// A child cut by a stretch's end: one child.
				res.Children[i].IsItem = res.Children[i].IsItem || ch.IsItem
				res.Children[i].HasChildren = res.Children[i].HasChildren || ch.HasChildren
				continue
			}
			index[ch.Name] = len(res.Children)
			res.Children = append(res.Children, ch)
		}
	}
	sort.SliceStable(res.Children, func(i, j int) bool {
		return childFirstKey(res.Children[i], res.Delim) < childFirstKey(res.Children[j], res.Delim)
	})
	return res
}

// Count is the items counted under a child, and whether that is all of
// them: no stretch left to read holds any key of the child.
func (p *CountPass) Count(name string) (n int, exact bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	lo := p.r.Prefix + name
	var hi string
	if p.delim == "" {
		hi = domain.After(lo)
	} else if p.binary {
		end, _ := domain.BytesEnd([]byte(lo + p.delim))
		hi = string(end)
	} else {
		hi, _ = domain.PrefixEnd(lo + p.delim)
	}
	if p.heldBetween(lo, hi) {
		return p.counts[name], false // between where the pass was held and read on
	}
	for _, s := range p.stretches {
		if s.done {
			continue
		}
		pos := s.from
		if s.at != "" {
			pos = domain.After(s.at)
		}
		if s.boundTo != "" && domain.After(s.boundTo) > pos {
			// A read held to a child's end read every key up to it: the
			// child was read whole (B#c0#04 and 05, then nothing up to
			// B#c0$), where counted from the last key read it stood open.
			pos = domain.After(s.boundTo)
		}
		end := s.end
		if end != "" && (p.endsAt(s) || s.last != "") {
			end = domain.After(end) // its end is its own, or counted at its end
		}
		if pos < hi && (end == "" || end > lo) {
			return p.counts[name], false
		}
	}
	return p.counts[name], true
}

// heldBetween says the keys from lo to hi lie between where endAt held
// the pass and where it reads on: another's to count. Under p.mu.
func (p *CountPass) heldBetween(lo, hi string) bool {
	return p.heldTo != "" && lo > p.heldTo && (p.heldFrom == "" || hi <= domain.After(p.heldFrom))
}

// walkOwns says the child name lies whole between where endAt held the
// pass and where it reads on.
func (p *CountPass) walkOwns(name string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	lo := p.r.Prefix + name
	var hi string
	switch {
	case p.delim == "":
		hi = domain.After(lo)
	case p.binary:
		end, _ := domain.BytesEnd([]byte(lo + p.delim))
		hi = string(end)
	default:
		hi, _ = domain.PrefixEnd(lo + p.delim)
	}
	return p.heldBetween(lo, hi)
}

// endAt holds what is left of the pass to keys up to end (a table's
// stretch reads a key equal to its end): what lies past it is counted
// elsewhere (CountListing, from a walk's keys) but the gaps, which the
// pass reads on (past each gap's from, a key, up to its end, "": the
// level's end). false where it cannot: a stretch read past end, or one
// not of a table's keys.
func (p *CountPass) endAt(end string, gaps []keyGap) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.cutAfter || p.detect || !p.started {
		return false
	}
	for _, s := range p.stretches {
		if s.gap || s.last != "" || (!s.done && s.at != "" && s.at > end) {
			return false
		}
	}
	for _, s := range p.stretches {
		switch {
		case s.done:
		case s.from >= end && s.from != p.r.Prefix:
			s.done = true // all of it past end
		case s.end == "" || s.end > end:
			s.end = end
		}
	}
	p.heldTo, p.heldFrom = end, ""
	if len(gaps) > 0 {
		p.heldFrom = gaps[0].from
	}
	for _, g := range gaps {
		// Read on past g.from (a table's stretch begins after its from).
		p.stretches = append(p.stretches, &stretch{from: g.from, end: g.end, walk: domain.NewChildWalk(p.r.Prefix, p.delim).From(g.from)})
	}
	return true
}

// seed has a walk under the budget b go on from what the pass read of
// the level: the items' largest size, how many it read, and the most of
// one child in a row, so that the walk's first read is sized as the
// pass's next would be (from the others' items, past a child's end), not
// one item as a read of a partition nothing was read from.
func (p *CountPass) seed(b *Budgeted) {
	p.mu.Lock()
	defer p.mu.Unlock()
	part := partitionName(p.r.Table, p.r.Index, AttributeValue(p.r.PK))
	if part == "" || p.largest == 0 {
		return
	}
	b.entered = map[string]bool{part: true}
	b.largest, b.scanned, b.maxRun = p.largest, p.scanned, p.maxRun
}

// Done says every key of the level was read.
func (p *CountPass) Done() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.started && p.allDone()
}

// Listed says every child of the level is among those the pass found:
// each range of keys it has not read lies inside one child it found
// (between two keys under that child's prefix), so a count stopped there
// may leave counts open but no child unlisted.
func (p *CountPass) Listed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.started || p.detect || p.delim == "" {
		return p.started && p.allDone()
	}
	for _, s := range p.stretches {
		if s.done {
			continue
		}
		from, end := s.from, s.end
		if s.at != "" {
			from = s.at
		}
		if s.last != "" {
			end = s.last
		}
		if !p.withinOneChild(from, end) {
			return false
		}
	}
	return true
}

// allDone says every stretch was read to its end. Under p.mu.
func (p *CountPass) allDone() bool {
	for _, s := range p.stretches {
		if !s.done {
			return false
		}
	}
	return true
}

// withinOneChild says every key between from and end lies under one
// child's prefix (both keys do): no other child can be there. Under p.mu.
func (p *CountPass) withinOneChild(from, end string) bool {
	if end == "" {
		return false // on to the level's end
	}
	name, leaf, ok := domain.ChildOf(p.r.Prefix, from, p.delim)
	if !ok || leaf {
		return false
	}
	return strings.HasPrefix(end, p.r.Prefix+name+p.delim)
}

// Cost is what every run of the pass has cost.
func (p *CountPass) Cost() Cost {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cost
}
