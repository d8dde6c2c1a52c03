package list

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

// GapCell marks the rows between the start and the end not read yet.
const GapCell = "⋯ not read yet"

// rereads is what a list has read again, for the status bar and the
// request line.
type rereads struct {
	Reading bool // the request in flight reads a segment again
	failed  bool // that read failed: r reads it again
	Tail    bool // the segment is the tail's
	Seg     int
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
func (p *Pager) heldLimit() int {
	switch n := p.c.HeldRows; {
	case n < 0:
		return -1
	case n == 0:
		return DefaultHeldRows
	default:
		return n
	}
}

// HeldRows is the rows held now, head and tail.
func (p *Pager) HeldRows() int { return p.Head.held + p.Tail.Rows.held }

// ListedRows is the rows listed, held or not (the gap row aside).
func (p *Pager) ListedRows() int { return p.Head.Len() + p.Tail.Rows.Len() }

// heldNote is the title's note of rows let go ("" when all are held).
func (p *Pager) heldNote() string {
	if p.HeldRows() == p.ListedRows() {
		return ""
	}
	return " · " + common.Thousands(p.HeldRows()) + " held"
}

// segmentOf is a page's rows as a segment: start is where its read began;
// cut says the rows stop short of the page (where it met the list's other
// end), which a filtered page cannot be read again to.
func (p *Pager) segmentOf(start dynamo.Item, back bool, items []dynamo.Item, page dynamo.Page, cut bool) segment {
	seg := segment{start: start, back: back, n: len(items), items: items}
	switch {
	case p.Merge != nil: // no one Query reads it again
	case !p.filtered():
		seg.evaluated = int32(len(items))
	case !cut:
		seg.evaluated = int32(page.Scanned)
	}
	return seg
}

func (p *Pager) addHead(seg segment) {
	p.Head.add(seg)
	if seg.n > 0 {
		p.headEnd, _ = p.Head.last()
	}
}

func (p *Pager) addTail(seg segment) {
	p.Tail.Rows.add(seg)
	if seg.n > 0 {
		p.Tail.end = seg.items[seg.n-1]
	}
}

// letGo lets the pages farthest from the cursor go while more rows than
// the limit are held; never a page within two screens of the cursor, nor
// one that cannot be read again, nor any while a sort of the rows held is
// shown.
func (p *Pager) letGo(cursor, visible int) {
	limit := p.heldLimit()
	if limit < 0 || p.Keep || p.HeldRows() <= limit {
		return
	}
	type far struct {
		s       *Rows
		k, dist int
	}
	var fars []far
	for _, s := range []*Rows{&p.Head, &p.Tail.Rows} {
		for k := range s.Segs {
			if s.Segs[k].items == nil || !s.Segs[k].rereadable() {
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
		if p.HeldRows() <= limit {
			break
		}
		seg := &f.s.Segs[f.k]
		seg.sum = digest(seg.items) // what a re-read is held to
		f.s.drop(f.k)
	}
}

// readAgainNear reads again the page of a row let go within a screen of
// the cursor, nearest first; near reports whether there is one (then
// nothing else is read before it).
func (p *Pager) readAgainNear(cursor, visible int, user bool) (cmd tea.Cmd, near bool) {
	if p.Keep || p.HeldRows() == p.ListedRows() {
		return nil, false
	}
	for d := 0; d <= visible; d++ {
		for _, i := range []int{cursor + d, cursor - d} {
			s, j := p.locate(i)
			if s == nil || !s.letGo(j) {
				continue
			}
			if user && p.Fail.Cancelled {
				p.Fail.Clear() // moving on after esc asks to read on
			}
			if p.Req.InFlight() || p.Fail.Stopped() {
				return nil, true
			}
			return p.readAgain(s == &p.Tail.Rows, s.find(j)), true
		}
	}
	return nil, false
}

// readAgain reads segment k again, as it was first read: from its start,
// in its direction, with its Limit (the items its read evaluated).
func (p *Pager) readAgain(tail bool, k int) tea.Cmd {
	seg := &p.store(tail).Segs[k]
	p.Tail.reading = false
	p.Again.Reading, p.Again.failed, p.Again.Tail, p.Again.Seg = true, false, tail, k
	p.Again.got, p.Again.spent = nil, dynamo.Cost{}
	return p.readAgainFrom(p.againQuery(seg), seg.start, seg.evaluated)
}

func (p *Pager) readAgainFrom(q domain.KeyQuery, start dynamo.Item, limit int32) tea.Cmd {
	ctx, req := p.Req.Start(p.c)
	return QueryPage(ctx, p.c.Client, p.owner, req, dynamo.PageRequest{Query: q, Start: start, Limit: limit, TableKeys: p.TableKeys, Keep: p.Sift})
}

// againQuery is the query that reads segment seg again, in its direction.
func (p *Pager) againQuery(seg *segment) domain.KeyQuery {
	q := p.Query
	if seg.back {
		q.Reverse = !q.Reverse
	}
	return q
}

// upTo keeps of a re-read's rows those up to the page's last row as first
// read (reached reports it came to it or past it): rows deleted since
// bring the next page's rows into the re-read, which are that page's.
func (p *Pager) upTo(seg *segment, items []dynamo.Item) (kept []dynamo.Item, reached bool) {
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
func (p *Pager) past(q domain.KeyQuery, it, end dynamo.Item) bool {
	c := CompareValues(it[q.SKName], end[q.SKName])
	if q.Reverse {
		return c < 0
	}
	return c > 0
}

func (p *Pager) store(tail bool) *Rows {
	if tail {
		return &p.Tail.Rows
	}
	return &p.Head
}

// readAgainLoaded puts a re-read's rows back and says so in the status
// bar: what it cost, and whether the table changed since (then the rows
// shown are what it holds now, and the rows after them move).
func (p *Pager) readAgainLoaded(page dynamo.Page) tea.Cmd {
	p.Again.Reading, p.Reread = false, true
	s := p.store(p.Again.Tail)
	k := p.Again.Seg
	if k >= len(s.Segs) {
		return nil
	}
	seg := &s.Segs[k]
	p.Again.spent = p.Again.spent.Add(page.Cost)
	got, reached := p.upTo(seg, append(p.Again.got, page.Items...))
	if !reached && page.More() && !p.past(p.againQuery(seg), page.LastKey, seg.end) {
		// Items written since end the re-read before the page's last
		// row: it reads on to there.
		p.Again.Reading, p.Again.got = true, got
		return p.readAgainFrom(p.againQuery(seg), page.LastKey, seg.evaluated)
	}
	spent := p.Again.spent
	a, b := p.listRow(s, s.offs[k]), p.listRow(s, s.offs[k]+seg.n-1)
	a, b = min(a, b), max(a, b)
	before, sum := seg.n, digest(got)
	changed := len(got) != before || sum != seg.sum
	s.refill(k, got)
	seg.sum = sum
	p.Again.got = nil
	if k == len(s.Segs)-1 && seg.n > 0 {
		if s == &p.Head {
			p.headEnd, _ = p.Head.last()
		} else {
			p.Tail.end = seg.items[seg.n-1]
		}
	}
	p.Again.count++
	p.Again.cost = p.Again.cost.Add(spent)
	text := fmt.Sprintf("re-read rows %s–%s · %s · %s", common.Thousands(a+1), common.Thousands(b+1), common.Plural(spent.Requests, "request", "requests"), common.BilledRCU(spent))
	if changed {
		p.Again.changed++
		p.Moved = true
		what := "the same number, other values"
		if len(page.Items) != before {
			what = fmt.Sprintf("%s now, %s then", common.Plural(len(page.Items), "row", "rows"), common.Thousands(before))
		}
		text += " · the table changed since they were first read (" + what + "): shown as read now"
	}
	text += fmt.Sprintf(" · %s so far, %s", common.Plural(p.Again.count, "re-read", "re-reads"), common.BilledRCU(p.Again.cost))
	return func() tea.Msg { return common.NoticeMsg{Text: text} }
}

// letGoCell is what a row let go shows until it is read again.
func (p *Pager) letGoCell() string {
	if p.Again.failed || p.Fail.Stopped() {
		return "⋯ let go to save memory: r reads it again"
	}
	return "⋯ let go to save memory: reading it again"
}

// CellNote is what row i shows in its first column when it is no item:
// the gap, or a row let go.
func (p *Pager) CellNote(i int) string {
	if i == p.GapRow() {
		return GapCell
	}
	if s, j := p.locate(i); s != nil && s.letGo(j) {
		return p.letGoCell()
	}
	return ""
}

// LetGoRow reports whether row i is listed but not held.
func (p *Pager) LetGoRow(i int) bool {
	s, j := p.locate(i)
	return s != nil && s.letGo(j)
}
