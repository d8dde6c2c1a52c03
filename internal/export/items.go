package export

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"math"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
)

// Budget is a read's capacity budget and what the read did. A budgeted
// read asks each page for no more items than what the budget has left
// pays for (0.5 RCU per 4 KB, at the largest item read so far), so it
// stops before overspending, unless a page meets items larger than any
// before it (dynamo.SizedLimit).
type Budget struct {
	MaxRCU  float64 // 0: no limit
	Scanned int
	RCU     float64
	Largest int         // the largest item read, in bytes at most (dynamo.PageLargest)
	Stopped bool        // the budget ran out before the end
	LastKey dynamo.Item // where a stopped read goes on from
}

// next is the Limit the next page may ask for within the budget (0: no
// budget, no bound); ok is false when what is left pays for no item.
func (b *Budget) next() (limit int32, ok bool) {
	if b == nil {
		return 0, true
	}
	return dynamo.SizedLimit(b.MaxRCU, b.RCU, b.Largest, b.Scanned)
}

// count adds a page to what the read did; whole says its items came
// back whole (no filter dropped any).
func (b *Budget) count(p dynamo.Page, whole bool) {
	if b != nil {
		b.Largest = max(b.Largest, dynamo.PageLargest(p.Cost.Billed, false, p.Items, p.Scanned, whole))
		b.Scanned += p.Scanned
		b.RCU += p.Cost.Billed // as DynamoDB bills it: a budget is never overspent
	}
}

// Options shape what Items reads and writes.
type Options struct {
	// Budget, when not nil, stops the read before it is overspent and
	// says so.
	Budget *Budget
	// Start, when not nil, is where the read goes on from (a resumed read).
	Start dynamo.Item
	// Show, when not nil, is what an item read may show: the masked
	// layer's (dynamo.Masked.Shower), stand-ins for masked values.
	Show func(dynamo.Item) dynamo.Item
	// Seen, when not nil, collects the names of the attributes written.
	Seen map[string]bool
	// Each, when not nil, sees every item written, as read (unmasked).
	Each func(dynamo.Item)
	// Sift, when not nil, is what of the items read is written, and in
	// what order: a time range over keys in several UTC offsets is read
	// wider than asked, the items outside it read, not written (nor
	// counted), and those inside put in time order.
	Sift Sift
	// Progress, when not nil, is told after each page how far the read
	// is: items written, pages read and what they cost, billed as
	// DynamoDB bills them (Cost.Billed), as the status bar says it.
	Progress func(items, pages int, cost dynamo.Cost)
}

// progress adds a page to a read's running figures and tells Progress.
func (o Options) progress(items int, pages *int, cost *dynamo.Cost, p *dynamo.Page) {
	if p == nil { // a failed page is no page read
		return
	}
	*pages++
	*cost = cost.Add(p.Cost)
	if o.Progress != nil {
		o.Progress(items, *pages, *cost)
	}
}

// Plain is an item as written: plain JSON values, as Show shows them.
func (o Options) Plain(it dynamo.Item) map[string]any {
	if o.Each != nil {
		o.Each(it)
	}
	if o.Seen != nil {
		for name := range it {
			o.Seen[name] = true
		}
	}
	if o.Show != nil {
		it = o.Show(it)
	}
	return dynamo.PlainItem(it)
}

// Items writes what q returns, up to limit items (0: all), in format
// (jsonl, json or csv) and returns how many items and pages it read.
func Items(ctx context.Context, c dynamo.Client, q domain.KeyQuery, limit int, format string, w io.Writer, terminal bool, opt Options) (items, pages int, err error) {
	if format == "csv" {
		return itemsCSV(ctx, c, q, limit, w, terminal, opt)
	}
	out := NewJSONRows(w, format)
	var cost dynamo.Cost
	err = eachItem(ctx, c, q, limit, opt.Start, opt.Budget, opt.Sift, func(it dynamo.Item) error {
		items++
		return out.Write(opt.Plain(it))
	}, func(p *dynamo.Page) error {
		opt.progress(items, &pages, &cost, p)
		return out.Flush() // a page reaches the reader as it arrives
	})
	if err != nil {
		out.Flush()
		return items, pages, err
	}
	return items, pages, out.Close()
}

// Sift is what a read wider than asked writes of what it reads.
type Sift interface {
	// Take is given each item read, in the order read, and returns the
	// items to write now, in the order to write them.
	Take(dynamo.Item) []dynamo.Item
	// Flush returns what Take still holds: the read ended or stopped.
	Flush() []dynamo.Item
}

// eachItem pages through q, calling item for each item sift gives (nil:
// all; limit counts those) and page after
// each page (after its items; for a failed request, before the error and
// with nil: a failed page is no page read), and keeps none of
// them, so memory stays flat however large
// the partition. With a limit, each Query asks only for the items still
// wanted, so none is read for nothing and no request is made once the
// limit is reached.
func eachItem(ctx context.Context, c dynamo.Client, q domain.KeyQuery, limit int, start dynamo.Item, budget *Budget, sift Sift, item func(dynamo.Item) error, page func(*dynamo.Page) error) error {
	n := 0
	write := func(items []dynamo.Item) error {
		if limit > 0 && len(items) > limit-n {
			items = items[:limit-n]
		}
		for _, it := range items {
			if err := item(it); err != nil {
				return err
			}
			n++
		}
		return nil
	}
	flush := func() error {
		if sift == nil {
			return nil
		}
		return write(sift.Flush())
	}
	for {
		req := dynamo.PageRequest{Query: q, Start: start}
		if limit > 0 && q.Filter == nil && sift == nil { // a filter's Limit would count items read, not matches
			req.Limit = int32(min(limit-n, math.MaxInt32))
		}
		if left, ok := budget.next(); !ok {
			budget.Stopped, budget.LastKey = true, start
			return flush() // what was read stays in order, not all
		} else if left > 0 && (req.Limit == 0 || left < req.Limit) {
			req.Limit = left
		}
		p, err := dynamo.QueryPage(ctx, c, req)
		if err != nil {
			page(nil)
			// What Sift holds was read and paid for: written, in order,
			// before the error (a budget's refusal, a failed read) says
			// the rest is not.
			if ferr := flush(); ferr != nil {
				return ferr
			}
			return err
		}
		kept := p.Items
		if sift != nil {
			kept = nil
			for _, it := range p.Items {
				kept = append(kept, sift.Take(it)...)
			}
		}
		if err := write(kept); err != nil {
			return err
		}
		if !p.More() {
			if err := flush(); err != nil {
				return err
			}
		}
		if err := page(&p); err != nil {
			return err
		}
		budget.count(p, q.Filter == nil) // counts the page, always
		if !p.More() || (limit > 0 && n >= limit) {
			return nil
		}
		start = p.LastKey
	}
}

// itemsCSV reads the items once into a temporary file (the columns are
// the union of every item's attributes, known only at the end), then
// writes the CSV with the key attributes first. The temporary file sits
// beside the export's file and has no name (see createSpool).
func itemsCSV(ctx context.Context, c dynamo.Client, q domain.KeyQuery, limit int, w io.Writer, terminal bool, opt Options) (items, pages int, err error) {
	tmp, done, err := createSpool(spoolDir(w))
	if err != nil {
		return 0, 0, err
	}
	defer done()
	buf := bufio.NewWriter(tmp)
	enc := json.NewEncoder(buf)
	cols := map[string]bool{}
	var cost dynamo.Cost
	err = eachItem(ctx, c, q, limit, opt.Start, opt.Budget, opt.Sift, func(it dynamo.Item) error {
		for name := range it {
			cols[name] = true
		}
		items++
		return enc.Encode(opt.Plain(it))
	}, func(p *dynamo.Page) error {
		opt.progress(items, &pages, &cost, p)
		return nil
	})
	if err != nil {
		return items, pages, err
	}
	if err := buf.Flush(); err != nil {
		return items, pages, err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return items, pages, err
	}
	sc := bufio.NewScanner(tmp)
	sc.Buffer(make([]byte, 1<<20), 8<<20) // an item is at most 400 KB
	each := func(row func(map[string]any) error) error {
		for sc.Scan() {
			it, err := decodePlain(sc.Bytes())
			if err != nil {
				return err
			}
			if err := row(it); err != nil {
				return err
			}
		}
		return sc.Err()
	}
	return items, pages, WriteCSV(w, []string{q.PKName, q.SKName}, cols, each, terminal)
}
