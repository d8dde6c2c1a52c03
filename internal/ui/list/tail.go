package list

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/components"
)

// G jumps to the end of a list in one read: a reverse query of a screen's
// worth, kept as the pager's tail, with a gap row between what was read
// from the start and what was read from the end. Scrolling up from the end
// reads on backwards; the gap closes when the two reads meet.

// tailRead is the end of a list read backwards: its row 0 is the last item.
type tailRead struct {
	Rows    Rows
	end     dynamo.Item // its earliest row, held or not (where the head's read meets it)
	lastKey dynamo.Item // where the backward read goes on
	started bool
	reading bool // the request in flight reads the tail
	failed  bool // the last backward read failed: a retry reads it again
	limit   int32
	merge   *dynamo.MergedRange // a merged range's end: its merge from the end
	// fromAbove: the cursor reached the gap row from the rows read from
	// the start, so the gap is read forwards.
	fromAbove bool
	// bounded: the read in flight into the gap stops at the other end's
	// first key read, so an answer with no more closes the gap.
	bounded bool
	// Owed: rows moves typed above the rows read from the end asked for
	// (k typed while G's read is in flight): the next backward read
	// brings them and the screen above them in one.
	Owed int
}

// gapBound is q (a read into the gap) bounded by far, the key where the
// read from the other end began: every sort-key condition is an interval
// holding both ends' keys, so the keys between them are the gap whatever
// the condition, and a read bounded so never reads an item twice. On an
// index, whose sort keys repeat, the bound takes in the key itself (the
// table's keys tell the one item read twice apart, as before). ok is
// false where no bound applies (no gap, a merged range, no key yet). A
// read with no start key (start: G's first read from the end) keeps its
// condition whole: the bound would take the place of the condition's
// own end (a Time range read back to the partition's oldest item, a
// prefix's items to keys outside it), and the read stops where it meets
// the other end's rows instead.
func (p *Pager) gapBound(q domain.KeyQuery, start, far dynamo.Item) (domain.KeyQuery, bool) {
	if !p.GapOpen() || p.Merge != nil || far == nil || q.SKName == "" {
		return q, false
	}
	if start == nil && q.SK.Op != domain.SKNone {
		return q, false
	}
	kv, ok := dynamo.KeyValueOf(far[q.SKName])
	if !ok {
		return q, false
	}
	op := map[bool]domain.SKOp{false: domain.SKLt, true: domain.SKGt}[q.Reverse] // the way this read goes
	if p.TableKeys != nil {
		op = map[bool]domain.SKOp{false: domain.SKLe, true: domain.SKGe}[q.Reverse]
	}
	q.SK = domain.SKCondition{Op: op, A: kv}
	return q, true
}

// StopAtGap keeps a move of the cursor (from row from to the grid's
// cursor now) from crossing the unread gap after G: a burst of page-downs
// sent while a read is in flight would land past rows never read. The
// cursor stops on the gap row, which reads it from the side it came from.
// g and G (jump) go to their end as they say.
func (p *Pager) StopAtGap(g *components.Grid, from int, jump bool) {
	gap, to := p.GapRow(), g.Cursor()
	if gap < 0 || jump {
		return
	}
	switch {
	case (from < gap || from == gap && p.Tail.fromAbove) && to > gap:
		g.SetCursor(gap) // on the gap row while it is read from above
		p.Tail.fromAbove = true
	case (from > gap || from == gap && !p.Tail.fromAbove) && to < gap:
		g.SetCursor(gap)
		p.Tail.fromAbove = false
	case to == gap:
		p.Tail.fromAbove = from < gap
	}
}

// PastGap reports whether row cursor is placed from the end: in the rows
// read from the end, or on the gap row reached from below.
func (p *Pager) PastGap(cursor int) bool {
	gap := p.GapRow()
	return gap >= 0 && (cursor > gap || cursor == gap && !p.Tail.fromAbove)
}

// GapOpen reports whether a stretch of the list between the start and the
// end has not been read.
func (p *Pager) GapOpen() bool { return p.Tail.started }

// RowCount is the rows listed: the head, the gap row, the tail.
func (p *Pager) RowCount() int {
	if !p.GapOpen() {
		return p.Head.Len()
	}
	return p.Head.Len() + 1 + p.Tail.Rows.Len()
}

// GapRow is the gap's row index (-1 when there is none).
func (p *Pager) GapRow() int {
	if !p.GapOpen() {
		return -1
	}
	return p.Head.Len()
}

// Row is the item listed at i; ok is false for the gap Row and for a Row
// let go.
func (p *Pager) Row(i int) (dynamo.Item, bool) {
	s, j := p.locate(i)
	if s == nil {
		return nil, false
	}
	return s.At(j)
}

// locate is the store row i is in and its place there (nil for the gap
// row and past the ends).
func (p *Pager) locate(i int) (*Rows, int) {
	n := p.Head.Len()
	switch {
	case i < 0:
		return nil, 0
	case i < n:
		return &p.Head, i
	case !p.GapOpen() || i == n:
		return nil, 0
	}
	j := p.Tail.Rows.Len() - 1 - (i - n - 1)
	if j < 0 {
		return nil, 0
	}
	return &p.Tail.Rows, j
}

// listRow is where row j of store s is listed (the inverse of locate).
func (p *Pager) listRow(s *Rows, j int) int {
	if s == &p.Head {
		return j
	}
	return p.Head.Len() + 1 + p.Tail.Rows.Len() - 1 - j
}

// JumpEnd reads the last screen of the list, backwards from its end, unless
// the whole list is loaded (then G moves there as it always did).
func (p *Pager) JumpEnd() tea.Cmd {
	if p.Done() || p.GapOpen() {
		return nil
	}
	p.Tail = tailRead{started: true, limit: dynamo.ScreenLimit(p.rows), Rows: Rows{backwards: true}}
	if p.filtered() {
		p.Tail.limit = 0
	}
	if p.Merge != nil {
		p.Tail.merge = p.Merge.FromEnd(p.Tail.limit)
	}
	return p.nextTail()
}

// nextTail reads on backwards from the tail's earliest item.
func (p *Pager) nextTail() tea.Cmd {
	if p.Req.InFlight() || !p.GapOpen() {
		return nil
	}
	if need := p.Tail.Owed + p.rows; p.Tail.Owed > 0 && p.Tail.limit > 0 && need > int(p.Tail.limit) {
		p.Tail.limit = dynamo.RowsLimit(need) // keys typed ahead: their rows in one read
	}
	q := p.Query
	q.Reverse = !q.Reverse
	q, p.Tail.bounded = p.gapBound(q, p.Tail.lastKey, p.lastKey)
	p.Tail.reading, p.Tail.failed = true, false
	p.Again.Reading, p.Again.failed = false, false
	ctx, req := p.Req.Start(p.c)
	if p.Tail.merge != nil {
		return mergedPage(ctx, p.owner, req, p.Tail.merge.Clone(), p.tailTake())
	}
	return QueryPage(ctx, p.c.Client, p.owner, req, dynamo.PageRequest{Query: q, Start: p.Tail.lastKey, Limit: p.Tail.limit, TableKeys: p.TableKeys, Keep: p.Sift})
}

// tailLoaded takes a backward page; when it reaches what the head has read
// (or the list's start), the gap closes: the overlap is dropped and the
// list is whole.
func (p *Pager) tailLoaded(page dynamo.Page) {
	start := p.Tail.lastKey
	p.Tail.lastKey = page.LastKey
	p.Tail.limit = dynamo.GrowLimit(p.Tail.limit, page)
	for i, it := range page.Items {
		if p.inHead(it) {
			p.addTail(p.segmentOf(start, true, page.Items[:i], page, true))
			p.closeGap()
			return
		}
	}
	p.addTail(p.segmentOf(start, true, page.Items, page, false))
	switch {
	case !page.More() && p.Tail.bounded: // read back to where the head's read ended
		p.closeGap()
	case !page.More():
		p.Head = Rows{} // the tail read the whole list back to its start
		p.closeGap()
	}
}

// headMet reports whether a forward page reached the tail, and keeps only
// the part before it.
func (p *Pager) headMet(items []dynamo.Item) ([]dynamo.Item, bool) {
	if !p.GapOpen() || p.Tail.end == nil {
		return items, false
	}
	for i, it := range items {
		if p.sameItem(it, p.Tail.end) {
			return items[:i], true
		}
	}
	return items, false
}

// inHead reports whether a backward read has reached the head: pages are
// contiguous, so the first item of the head it meets is the head's last.
func (p *Pager) inHead(it dynamo.Item) bool {
	return p.headEnd != nil && p.sameItem(p.headEnd, it)
}

// closeGap joins head and tail: the list is whole and read to its end.
// The tail's pages join the head as they are, read backwards: each is
// read again, when let go, as it was read.
func (p *Pager) closeGap() {
	for k := len(p.Tail.Rows.Segs) - 1; k >= 0; k-- {
		p.Head.add(p.Tail.Rows.Segs[k])
	}
	p.Tail = tailRead{}
	p.headEnd = nil
	p.lastKey = nil
	p.Started = true
}

// sameItem compares two items' primary keys (the table's, which are
// unique even on an index).
func (p *Pager) sameItem(a, b dynamo.Item) bool {
	names := []string{p.Query.PKName, p.Query.SKName}
	if p.TableKeys != nil {
		names = append(names, p.TableKeys.PK.Name)
		if p.TableKeys.SK != nil {
			names = append(names, p.TableKeys.SK.Name)
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
