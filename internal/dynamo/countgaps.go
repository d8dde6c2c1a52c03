package dynamo

import (
	"context"
	"sort"
	"sync"

	"github.com/dynascope/dynascope/internal/domain"
)

// c after a walk reads the gaps the walk left (HeldKeys.CountPass). Those
// a probe apart are chained, each chain one stretch, so a skip-scanned
// level costs no more requests than a count from nothing: but one chain
// read page after page takes a round trip a page. So the first page of
// every stretch goes out at once, and a chain that goes on is then cut at
// its gaps' bounds into as many stretches as its pace (what its first
// page cost over the gaps it covered) says fill most of a page each, read
// at once: about the trips of a count from nothing, in fewer requests.

// spreadRCU is what a chain's stretch is meant to read: most of a page,
// so that one that holds more than its pace said still ends in one.
const spreadRCU = 0.8 * stretchRCU

// spreadChains reads the first page of every stretch not read yet, at
// once, then spreads the chains that go on (once a pass).
func (run *passRun) spreadChains(ctx context.Context) error {
	p := run.p
	p.mu.Lock()
	chained := false
	for _, s := range p.stretches {
		chained = chained || (!s.done && len(s.parts) > 1)
	}
	if p.spread || !chained {
		p.spread = true
		p.mu.Unlock()
		return nil
	}
	p.spread = true
	var todo []*stretch
	for _, s := range p.stretches {
		if !s.done && s.next == nil && s.rcu == 0 {
			todo = append(todo, s)
		}
	}
	p.mu.Unlock()
	if err := run.firstPages(ctx, todo); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range append([]*stretch(nil), p.stretches...) {
		// A first page cut short (a budget's Limit) tells no page's pace.
		if !s.done && len(s.parts) > 1 && s.next != nil && s.rcu >= stretchRCU/2 {
			p.spreadChain(s, run.room())
		}
	}
	return nil
}

// room is how many more stretches may read at once: as many as reads
// run at once (a count from nothing cuts as many), and under a budget as
// many as what is left pays whole pages for, each held back as the
// others read (allow: n of them need 2n-1 pages left), so that spreading
// never cuts their pages short, and more requests go out. Under p.mu.
func (run *passRun) room() int {
	p := run.p
	active := 0
	for _, s := range p.stretches {
		if !s.done {
			active++
		}
	}
	most := run.parallel
	if run.budget > 0 {
		left := run.budget - (p.cost.Billed - run.base) - p.reserved
		most = min(most, int((left/pageRCU+1)/2))
	}
	return most - active
}

// firstPages reads one page of each stretch, run.parallel at once.
func (run *passRun) firstPages(ctx context.Context, todo []*stretch) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	slots := make(chan struct{}, max(run.parallel, 1))
	for _, s := range todo {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			if err := run.page(ctx, s); err != nil {
				mu.Lock()
				if first == nil {
					first = err
					cancel()
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

// spreadChain ends chain s, its first page read, after as many of its
// gaps as its pace says fill spreadRCU, and hands the rest to stretches
// of that many gaps each, room of them at most (each stretch's last
// page is short: more stretches than a count from nothing cuts would send
// more requests than it); the keys held between
// two of them, no longer read, are counted again from the keys held.
// Under p.mu.
func (p *CountPass) spreadChain(s *stretch, room int) {
	parts := s.parts
	j := 0 // the gap the chain's read stopped in (or before)
	for j < len(parts) && parts[j].end != "" && parts[j].end <= s.at {
		j++
	}
	if j == 0 {
		// Its first page ended in its first gap: gaps of a page or more,
		// each stretch's short last page a request a count from nothing
		// may not send (it reads such a level in about as many stretches
		// as pages). Two stretches: half the round trips.
		room = min(room, 1)
	}
	if j >= len(parts)-1 || room < 1 {
		return
	}
	each := max(1, int(spreadRCU/(s.rcu/(float64(j)+0.5))))
	if ahead := len(parts) - j; ahead > each*(room+1) {
		each = (ahead + room) / (room + 1) // room more stretches, and s
	}
	keep := j + each - 1
	if keep >= len(parts)-1 {
		return
	}
	s.end, s.parts = parts[keep].end, parts[:keep+1:keep+1]
	rest, end := parts[keep+1:], parts[keep].end
	for len(rest) > 0 {
		g := rest[:min(each, len(rest))]
		rest = rest[len(g):]
		p.separator(end, g[0].from, +1)
		ns := &stretch{from: g[0].from, fromIn: g[0].fromIn, end: g[len(g)-1].end, gap: true, parts: g, walk: domain.NewChildWalk(p.r.Prefix, p.delim).From(g[0].from)}
		if !ns.fromIn {
			ns.at = ns.from // read past it
		}
		p.stretches = append(p.stretches, ns)
		end = ns.end
	}
}

// separator adds sign to the count of each key held in [lo, hi]: -1
// where a chain reads them again (counted then), +1 where it no longer
// does.
func (p *CountPass) separator(lo, hi string, sign int) {
	for i := sort.SearchStrings(p.heldKeys, lo); i < len(p.heldKeys) && p.heldKeys[i] <= hi; i++ {
		if name, _, ok := domain.ChildOf(p.r.Prefix, p.heldKeys[i], p.delim); ok {
			p.counts[name] += sign
		}
	}
}
