package pages

import (
	"fmt"
	"sort"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// DefaultHeldRows is how many rows a list holds before it lets the pages
// farthest from the cursor go. The SDK decodes a ~350-byte item into about
// 650 bytes, so 50,000 rows are ~33 MB: with the garbage collector's
// headroom the explorer stays under 150 MB however far it scrolls, while
// search and sort still cover some 1,400 screens around the cursor, and a
// page is read again only after scrolling that far away and back.
const DefaultHeldRows = 50_000

// rereads is what a list has read again, for the status bar and the
// request line.
type rereads struct {
	reading bool // the request in flight reads a segment again
	failed  bool // that read failed: r reads it again
	tail    bool // the segment is the tail's
	seg     int
	got     []dynamo.Item // what the re-read has got so far
	spent   dynamo.Cost   // and what it cost
	count   int
	cost    dynamo.Cost
	changed int // re-reads that did not get what was read before
}

// request is the request line's account of re-reads ("" before any).
func (r rereads) request() string {
	if r.count == 0 {
		return ""
	}
	return fmt.Sprintf(" · %s, %s", common.Plural(r.count, "re-read", "re-reads"), common.BilledRCU(r.cost))
}

// heldLimit is the rows held before the farthest are let go (-1: all).
func (p *pager) heldLimit() int {
	switch n := p.c.HeldRows; {
	case n < 0:
		return -1
	case n == 0:
		return DefaultHeldRows
	default:
		return n
	}
}

// heldRows is the rows held now, head and tail.
func (p *pager) heldRows() int { return p.head.held + p.tail.rows.held }

// listedRows is the rows listed, held or not (the gap row aside).
func (p *pager) listedRows() int { return p.head.len() + p.tail.rows.len() }

// heldNote is the title's note of rows let go ("" when all are held).
func (p *pager) heldNote() string {
	if p.heldRows() == p.listedRows() {
		return ""
	}
	return " · " + common.Thousands(p.heldRows()) + " held"
}

// segmentOf is a page's rows as a segment: start is where its read began;
// cut says the rows stop short of the page (where it met the list's other
// end), which a filtered page cannot be read again to.
func (p *pager) segmentOf(start dynamo.Item, back bool, items []dynamo.Item, page dynamo.Page, cut bool) segment {
	seg := segment{start: start, back: back, n: len(items), items: items}
	switch {
	case p.merge != nil: // no one Query reads it again
	case !p.filtered():
		seg.evaluated = int32(len(items))
	case !cut:
		seg.evaluated = int32(page.Scanned)
	}
	return seg
}

func (p *pager) addHead(seg segment) {
	p.head.add(seg)
	if seg.n > 0 {
		p.headEnd, _ = p.head.last()
	}
}

func (p *pager) addTail(seg segment) {
	p.tail.rows.add(seg)
	if seg.n > 0 {
		p.tail.end = seg.items[seg.n-1]
	}
}

// letGo lets the pages farthest from the cursor go while more rows than
// the limit are held; never a page within two screens of the cursor, nor
// one that cannot be read again, nor any while a sort of the rows held is
// shown.
func (p *pager) letGo(cursor, visible int) {
	limit := p.heldLimit()
	if limit < 0 || p.keep || p.heldRows() <= limit {
		return
	}
	type far struct {
		s       *rowStore
		k, dist int
	}
	var fars []far
	for _, s := range []*rowStore{&p.head, &p.tail.rows} {
		for k := range s.segs {
			if s.segs[k].items == nil || !s.segs[k].rereadable() {
				continue
			}
			a, b := p.listRow(s, s.offs[k]), p.listRow(s, s.offs[k+1]-1)
			a, b = min(a, b), max(a, b)
			d := max(a-cursor, cursor-b, 0)
			if d > 2*visible {
				fars = append(fars, far{s, k, d})
			}
		}
	}
	sort.Slice(fars, func(i, j int) bool { return fars[i].dist > fars[j].dist })
	for _, f := range fars {
		if p.heldRows() <= limit {
			break
		}
		seg := &f.s.segs[f.k]
		seg.sum = digest(seg.items) // what a re-read is held to
		f.s.drop(f.k)
	}
}

// readAgainNear reads again the page of a row let go within a screen of
// the cursor, nearest first; near reports whether there is one (then
// nothing else is read before it).
func (p *pager) readAgainNear(cursor, visible int, user bool) (cmd tea.Cmd, near bool) {
	if p.keep || p.heldRows() == p.listedRows() {
		return nil, false
	}
	for d := 0; d <= visible; d++ {
		for _, i := range []int{cursor + d, cursor - d} {
			s, j := p.locate(i)
			if s == nil || !s.letGo(j) {
				continue
			}
			if user && p.fail.cancelled {
				p.fail.clear() // moving on after esc asks to read on
			}
			if p.req.inFlight() || p.fail.stopped() {
				return nil, true
			}
			return p.readAgain(s == &p.tail.rows, s.find(j)), true
		}
	}
	return nil, false
}

// readAgain reads segment k again, as it was first read: from its start,
// in its direction, with its Limit (the items its read evaluated).
func (p *pager) readAgain(tail bool, k int) tea.Cmd {
	seg := &p.store(tail).segs[k]
	p.tail.reading = false
	p.again.reading, p.again.failed, p.again.tail, p.again.seg = true, false, tail, k
	p.again.got, p.again.spent = nil, dynamo.Cost{}
	return p.readAgainFrom(p.againQuery(seg), seg.start, seg.evaluated)
}

func (p *pager) readAgainFrom(q domain.KeyQuery, start dynamo.Item, limit int32) tea.Cmd {
	ctx, req := p.req.start(p.c)
	return queryPage(ctx, p.c.Client, p.owner, req, dynamo.PageRequest{Query: q, Start: start, Limit: limit, TableKeys: p.tableKeys})
}

// againQuery is the query that reads segment seg again, in its direction.
func (p *pager) againQuery(seg *segment) domain.KeyQuery {
	q := p.query
	if seg.back {
		q.Reverse = !q.Reverse
	}
	return q
}

// upTo keeps of a re-read's rows those up to the page's last row as first
// read (reached reports it came to it or past it): rows deleted since
// bring the next page's rows into the re-read, which are that page's.
func (p *pager) upTo(seg *segment, items []dynamo.Item) (kept []dynamo.Item, reached bool) {
	q := p.againQuery(seg)
	if seg.end == nil || q.SKName == "" {
		return items, true
	}
	for i, it := range items {
		if p.sameItem(it, seg.end) {
			return items[:i+1], true
		}
		if p.past(q, it, seg.end) {
			return items[:i], true
		}
	}
	return items, false
}

// past reports whether item it comes after end in q's order (by the sort
// key: items of an index with equal sort keys are not told apart).
func (p *pager) past(q domain.KeyQuery, it, end dynamo.Item) bool {
	c := compareValues(it[q.SKName], end[q.SKName])
	if q.Reverse {
		return c < 0
	}
	return c > 0
}

func (p *pager) store(tail bool) *rowStore {
	if tail {
		return &p.tail.rows
	}
	return &p.head
}

// readAgainLoaded puts a re-read's rows back and says so in the status
// bar: what it cost, and whether the table changed since (then the rows
// shown are what it holds now, and the rows after them move).
func (p *pager) readAgainLoaded(page dynamo.Page) tea.Cmd {
	p.again.reading, p.reread = false, true
	s := p.store(p.again.tail)
	k := p.again.seg
	if k >= len(s.segs) {
		return nil
	}
	seg := &s.segs[k]
	p.again.spent = p.again.spent.Add(page.Cost)
	got, reached := p.upTo(seg, append(p.again.got, page.Items...))
	if !reached && page.More() && !p.past(p.againQuery(seg), page.LastKey, seg.end) {
		// Items written since end the re-read before the page's last
		// row: it reads on to there.
		p.again.reading, p.again.got = true, got
		return p.readAgainFrom(p.againQuery(seg), page.LastKey, seg.evaluated)
	}
	spent := p.again.spent
	a, b := p.listRow(s, s.offs[k]), p.listRow(s, s.offs[k]+seg.n-1)
	a, b = min(a, b), max(a, b)
	before, sum := seg.n, digest(got)
	changed := len(got) != before || sum != seg.sum
	s.refill(k, got)
	seg.sum = sum
	p.again.got = nil
	if k == len(s.segs)-1 && seg.n > 0 {
		if s == &p.head {
			p.headEnd, _ = p.head.last()
		} else {
			p.tail.end = seg.items[seg.n-1]
		}
	}
	p.again.count++
	p.again.cost = p.again.cost.Add(spent)
	text := fmt.Sprintf("re-read rows %s–%s · %s · %s", common.Thousands(a+1), common.Thousands(b+1), common.Plural(spent.Requests, "request", "requests"), common.BilledRCU(spent))
	if changed {
		p.again.changed++
		p.moved = true
		what := "the same number, other values"
		if len(page.Items) != before {
			what = fmt.Sprintf("%s now, %s then", common.Plural(len(page.Items), "row", "rows"), common.Thousands(before))
		}
		text += " · the table changed since they were first read (" + what + "): shown as read now"
	}
	text += fmt.Sprintf(" · %s so far, %s", common.Plural(p.again.count, "re-read", "re-reads"), common.BilledRCU(p.again.cost))
	return func() tea.Msg { return common.NoticeMsg{Text: text} }
}

// letGoCell is what a row let go shows until it is read again.
func (p *pager) letGoCell() string {
	if p.again.failed || p.fail.stopped() {
		return "⋯ let go to save memory: r reads it again"
	}
	return "⋯ let go to save memory: reading it again"
}

// cellNote is what row i shows in its first column when it is no item:
// the gap, or a row let go.
func (p *pager) cellNote(i int) string {
	if i == p.gapRow() {
		return gapCell
	}
	if s, j := p.locate(i); s != nil && s.letGo(j) {
		return p.letGoCell()
	}
	return ""
}

// letGoRow reports whether row i is listed but not held.
func (p *pager) letGoRow(i int) bool {
	s, j := p.locate(i)
	return s != nil && s.letGo(j)
}
