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

// DiffResult is what a comparison found and what each side cost. Where a
// side stopped at its budget, the keys compared end at the last one that
// side read: past it, "only-left" or "only-right" would be a guess.
type DiffResult struct {
	Counts      map[domain.DiffStatus]int
	Left, Right SideRead
}

// Stopped says a side ran out of budget before the end: the comparison is
// true as far as it goes, and not whole.
func (r DiffResult) Stopped() bool { return r.Left.Stopped || r.Right.Stopped }

// Cost is what both sides cost together.
func (r DiffResult) Cost() Cost { return r.Left.Cost.Add(r.Right.Cost) }

// Identical reports whether every key compared is the same on both sides.
func (r DiffResult) Identical() bool {
	return r.Counts[domain.Differs] == 0 && r.Counts[domain.OnlyLeft] == 0 && r.Counts[domain.OnlyRight] == 0
}

// DiffItems reads both sides in parallel, page by page, and compares them
// key by key in sort-key order (keys: the table's key attribute names),
// handing each key's comparison to each as soon as both sides have read
// past it: it holds at most a page or two of each side, however large the
// partition. Items are compared as show makes them plain (nil: PlainItem;
// a mask's stand-ins compare as the values they stand for). maxRCU (0:
// none) is split evenly between the sides, each read never asking for
// more than its half pays for, so the comparison never spends more than
// maxRCU.
func DiffItems(ctx context.Context, left, right DiffSide, keys []string, maxRCU float64, show func(Item) map[string]any, each func(domain.KeyDiff) error) (DiffResult, error) {
	if show == nil {
		show = PlainItem
	}
	res := DiffResult{Counts: map[domain.DiffStatus]int{domain.Same: 0, domain.Differs: 0, domain.OnlyLeft: 0, domain.OnlyRight: 0}}
	readCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	l := startSide(readCtx, &wg, left, maxRCU/2, &res.Left)
	r := startSide(readCtx, &wg, right, maxRCU/2, &res.Right)
	err := mergeSides(l, r, left.Query.SKName, func(a, b Item) error {
		it := a
		if it == nil {
			it = b
		}
		var lp, rp map[string]any
		if a != nil {
			lp = show(a)
		}
		if b != nil {
			rp = show(b)
		}
		d := domain.CompareSides(show(keyOf(it, keys)), lp, rp)
		res.Counts[d.Status]++
		return each(d)
	})
	cancel() // a side still reading past where the other stopped
	wg.Wait()
	if err == nil {
		err = ctx.Err()
	}
	return res, err
}

func keyOf(it Item, keys []string) Item {
	k := make(Item, len(keys))
	for _, name := range keys {
		if v, ok := it[name]; ok {
			k[name] = v
		}
	}
	return k
}

// sideStream is one side's pages as they are read.
type sideStream struct {
	pages   chan []Item
	err     error // set before pages is closed
	stopped bool  // set before pages is closed: the budget ended the read
}

// startSide reads every page of one side's query within budget (0: none)
// in a goroutine, handing each page on as it arrives (one read ahead).
func startSide(ctx context.Context, wg *sync.WaitGroup, s DiffSide, budget float64, r *SideRead) *sideStream {
	st := &sideStream{pages: make(chan []Item, 1)}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(st.pages)
		var start Item
		largest, scanned := 0, 0
		for {
			limit, ok := SizedLimit(budget, r.Cost.Billed, largest, scanned)
			if !ok {
				st.stopped, r.Stopped = true, true
				return
			}
			p, err := QueryPage(ctx, s.Client, PageRequest{Query: s.Query, Start: start, Limit: limit})
			r.Cost = r.Cost.Add(p.Cost)
			if err != nil {
				st.err = err
				return
			}
			r.Pages++
			r.Items += len(p.Items)
			largest = max(largest, PageLargest(p.Cost.Billed, false, p.Items, p.Scanned, s.Query.Filter == nil))
			scanned += p.Scanned
			select {
			case st.pages <- p.Items:
			case <-ctx.Done():
				return
			}
			if !p.More() {
				return
			}
			start = p.LastKey
		}
	}()
	return st
}

// cursor walks one side's items across its pages.
type cursor struct {
	s    *sideStream
	buf  []Item
	done bool
}

// head is the side's next item, nil once it is read to its end (or its
// budget's); err is its read's failure.
func (c *cursor) head() (Item, error) {
	for len(c.buf) == 0 && !c.done {
		page, ok := <-c.s.pages
		if !ok {
			c.done = true
			return nil, c.s.err
		}
		c.buf = page
	}
	if len(c.buf) == 0 {
		return nil, nil
	}
	return c.buf[0], nil
}

func (c *cursor) next() { c.buf = c.buf[1:] }

// mergeSides pairs two sides' items, each in ascending sort-key order, by
// key, calling pair(left, right) with nil for the side a key is missing
// from. Once a side that stopped at its budget is read out, nothing more
// is paired: the other side's keys past it may be on it, unread.
func mergeSides(ls, rs *sideStream, sk string, pair func(l, r Item) error) error {
	cmp := func(a, b Item) int {
		if sk == "" {
			return 0 // one item a partition
		}
		if c, ok := compareKeyValues(a[sk], b[sk]); ok {
			return c
		}
		return 0
	}
	lc, rc := &cursor{s: ls}, &cursor{s: rs}
	for {
		l, err := lc.head()
		if err != nil {
			return err
		}
		r, err := rc.head()
		if err != nil {
			return err
		}
		switch {
		case l == nil && r == nil:
			return nil
		case l == nil:
			if ls.stopped {
				return nil
			}
			err = pair(nil, r)
			rc.next()
		case r == nil:
			if rs.stopped {
				return nil
			}
			err = pair(l, nil)
			lc.next()
		default:
			switch c := cmp(l, r); {
			case c < 0:
				err = pair(l, nil)
				lc.next()
			case c > 0:
				err = pair(nil, r)
				rc.next()
			default:
				err = pair(l, r)
				lc.next()
				rc.next()
			}
		}
		if err != nil {
			return err
		}
	}
}
