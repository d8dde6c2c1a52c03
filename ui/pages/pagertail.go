package pages

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/dynamo"
)

// G jumps to the end of a list in one read: a reverse query of a screen's
// worth, kept as the pager's tail, with a gap row between what was read
// from the start and what was read from the end. Scrolling up from the end
// reads on backwards; the gap closes when the two reads meet.

// tail is the end of a list read backwards: items[0] is the last item.
type tail struct {
	items   []dynamo.Item
	lastKey dynamo.Item // where the backward read goes on
	started bool
	reading bool // the request in flight reads the tail
	failed  bool // the last backward read failed: a retry reads it again
	limit   int32
	merge   *dynamo.MergedRange // a merged range's end: its merge from the end
}

// gapOpen reports whether a stretch of the list between the start and the
// end has not been read.
func (p *pager) gapOpen() bool { return p.tail.started }

// rowCount is the rows listed: the head, the gap row, the tail.
func (p *pager) rowCount() int {
	if !p.gapOpen() {
		return len(p.items)
	}
	return len(p.items) + 1 + len(p.tail.items)
}

// gapRow is the gap's row index (-1 when there is none).
func (p *pager) gapRow() int {
	if !p.gapOpen() {
		return -1
	}
	return len(p.items)
}

// row is the item listed at i; ok is false for the gap row.
func (p *pager) row(i int) (dynamo.Item, bool) {
	switch {
	case i < 0:
		return nil, false
	case i < len(p.items):
		return p.items[i], true
	case !p.gapOpen() || i == len(p.items):
		return nil, false
	}
	j := len(p.tail.items) - 1 - (i - len(p.items) - 1)
	if j < 0 || j >= len(p.tail.items) {
		return nil, false
	}
	return p.tail.items[j], true
}

// jumpEnd reads the last screen of the list, backwards from its end, unless
// the whole list is loaded (then G moves there as it always did).
func (p *pager) jumpEnd() tea.Cmd {
	if p.done() || p.gapOpen() {
		return nil
	}
	p.tail = tail{started: true, limit: dynamo.ScreenLimit(p.rows)}
	if p.filtered() {
		p.tail.limit = 0
	}
	if p.merge != nil {
		p.tail.merge = p.merge.FromEnd(p.tail.limit)
	}
	return p.nextTail()
}

// nextTail reads on backwards from the tail's earliest item.
func (p *pager) nextTail() tea.Cmd {
	if p.req.inFlight() || !p.gapOpen() {
		return nil
	}
	q := p.query
	q.Reverse = !q.Reverse
	p.tail.reading, p.tail.failed = true, false
	ctx, req := p.req.start(p.c.NextID)
	if p.tail.merge != nil {
		return mergedPage(ctx, p.owner, req, p.tail.merge.Clone(), p.tailTake())
	}
	return queryPage(ctx, p.c.Client, p.owner, req, dynamo.PageRequest{Query: q, Start: p.tail.lastKey, Limit: p.tail.limit, TableKeys: p.tableKeys})
}

// tailLoaded takes a backward page; when it reaches what the head has read
// (or the list's start), the gap closes: the overlap is dropped and the
// list is whole.
func (p *pager) tailLoaded(page dynamo.Page) {
	p.tail.lastKey = page.LastKey
	p.tail.limit = dynamo.GrowLimit(p.tail.limit, page)
	for _, it := range page.Items {
		if p.inHead(it) {
			p.closeGap()
			return
		}
		p.tail.items = append(p.tail.items, it)
	}
	if !page.More() {
		p.items = nil // the tail read the whole list back to its start
		p.closeGap()
	}
}

// headMet reports whether a forward page reached the tail, and keeps only
// the part before it.
func (p *pager) headMet(items []dynamo.Item) ([]dynamo.Item, bool) {
	if !p.gapOpen() || len(p.tail.items) == 0 {
		return items, false
	}
	first := p.tail.items[len(p.tail.items)-1]
	for i, it := range items {
		if p.sameItem(it, first) {
			return items[:i], true
		}
	}
	return items, false
}

// inHead reports whether a backward read has reached the head: pages are
// contiguous, so the first item of the head it meets is the head's last.
func (p *pager) inHead(it dynamo.Item) bool {
	return len(p.items) > 0 && p.sameItem(p.items[len(p.items)-1], it)
}

// closeGap joins head and tail: the list is whole and read to its end.
func (p *pager) closeGap() {
	for i := len(p.tail.items) - 1; i >= 0; i-- {
		p.items = append(p.items, p.tail.items[i])
	}
	p.tail = tail{}
	p.lastKey = nil
	p.started = true
}

// sameItem compares two items' primary keys (the table's, which are
// unique even on an index).
func (p *pager) sameItem(a, b dynamo.Item) bool {
	names := []string{p.query.PKName, p.query.SKName}
	if p.tableKeys != nil {
		names = append(names, p.tableKeys.PK.Name)
		if p.tableKeys.SK != nil {
			names = append(names, p.tableKeys.SK.Name)
		}
	}
	for _, n := range names {
		if n == "" {
			continue
		}
		x, ok1 := dynamo.KeyValueOf(a[n])
		y, ok2 := dynamo.KeyValueOf(b[n])
		if ok1 != ok2 || x.Literal() != y.Literal() {
			return false
		}
	}
	return true
}
