package pages

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// timeMergePage is how many items a merged range takes a read, and how
// many each prefix's Query asks for: about a screen.
const timeMergePage = 50

// prefixesFoundMsg is the prefixes the time follows in a partition.
type prefixesFoundMsg struct {
	page, req int
	prefixes  []string
	err       error
}

func (m prefixesFoundMsg) PageID() int { return m.page }

func findTimePrefixes(ctx context.Context, c dynamo.Client, page, req int, r dynamo.ChildrenRequest, enc domain.TimeEncoding, sample dynamo.TimeSample) tea.Cmd {
	return func() tea.Msg {
		prefixes, _, err := dynamo.TimePrefixes(ctx, c, r, enc, sample)
		return prefixesFoundMsg{page: page, req: req, prefixes: prefixes, err: err}
	}
}

// mergedPage takes the next items of a merged range, on a copy of the
// merge that the answer carries back: the page's own merge is never
// changed by the command.
func mergedPage(ctx context.Context, page, req int, m *dynamo.MergedRange, n int) tea.Cmd {
	return func() tea.Msg {
		before := m.Cost
		items, err := m.Take(ctx, n)
		spent := dynamo.Cost{Requests: m.Cost.Requests - before.Requests, RCU: m.Cost.RCU - before.RCU,
			Billed: m.Cost.Billed - before.Billed, Latency: m.Cost.Latency - before.Latency}
		spent.Estimated = spent.Billed > spent.RCU // as billed: each read's at least what the server said
		p := dynamo.Page{Items: items, Cost: spent}
		if !m.Done() {
			p.LastKey = dynamo.Item{"": nil} // more to take: what the pager reads as not done
		}
		return pageLoadedMsg{page: page, req: req, result: p, err: err, merge: m}
	}
}

// tookMerge keeps the merge an answer carried back: the tail's when the
// answer was a read from the end (G), the head's otherwise.
func (p *pager) tookMerge(m *dynamo.MergedRange) {
	if p.tail.reading {
		p.tail.merge = m
		return
	}
	p.merge = m
}

// tailTake is how many items a read from a merged range's end takes: the
// screen's worth its queries ask for (G: one request a prefix), or the
// head's page under a filter, whose queries read whole pages.
func (p *pager) tailTake() int {
	if p.tail.limit > 0 {
		return int(p.tail.limit)
	}
	return timeMergePage
}

// restartMerged lists a merged range from its start.
func (p *pager) restartMerged(q domain.KeyQuery, m *dynamo.MergedRange) tea.Cmd {
	p.req.stop()
	*p = pager{c: p.c, owner: p.owner, query: q, tableKeys: p.tableKeys, merge: m}
	return p.next()
}

// mergeRequest is the request line of a merged range: every prefix's
// Query has the first one's shape.
func (p *pager) mergeRequest() string {
	q := p.merge.Queries[0]
	return fmt.Sprintf("%d Queries merged by time (%s), each %s %s · %d req · %s",
		len(p.merge.Queries), strings.Join(p.merge.Prefixes, " "), q.Expression(), q.Values(), p.cost.Requests, common.BilledRCU(p.cost))
}

// findPrefixes starts the search for the prefixes before the time, for a
// range typed without one; the range runs when they are found.
func (t *Time) findPrefixes(r domain.TimeRange, text string) tea.Cmd {
	t.waiting = &pendingRange{r: r, text: text}
	if t.prefixes != nil {
		return t.runMerged(t.pg.query)
	}
	key, _ := t.info.KeyFor(t.base.Index)
	ctx, req := t.find.start(t.c)
	return findTimePrefixes(ctx, t.c.Client, t.id, req, dynamo.ChildrenRequest{Table: t.info.Name, Index: t.base.Index, Key: key, TableKeys: t.tableKeys(), PK: t.base.PK}, t.enc, t.timeSample())
}

// pendingRange is a range typed without a prefix, merged across them all.
type pendingRange struct {
	r    domain.TimeRange
	text string
}

func (t *Time) prefixesFound(msg prefixesFoundMsg) tea.Cmd {
	if !t.find.done(msg.req) {
		return nil
	}
	if msg.err != nil {
		// Shown where the rows would be, not only in the status bar; r
		// looks for the prefixes again.
		t.pg.fail.fail(msg.err)
		return report(msg.err, false, t.id)
	}
	if len(msg.prefixes) == 0 {
		t.inputErr = fmt.Sprintf("no prefix before the time found here: type one first, e.g. amsg%s last 24h", t.enc.Sep)
		return nil
	}
	t.prefixes = msg.prefixes
	return t.runMerged(t.pg.query)
}

// runMerged lists the waiting range across every prefix, newest first (or
// oldest, as q is ordered), with q's filter.
func (t *Time) runMerged(q domain.KeyQuery) tea.Cmd {
	base := t.base
	base.Reverse, base.Filter = q.Reverse, q.Filter
	m, err := dynamo.NewMergedRange(t.c.Client, base, t.prefixes, t.waiting.r, t.enc, timeMergePage, t.tableKeys())
	if err != nil {
		t.inputErr = err.Error()
		return nil
	}
	t.rangeTxt = t.waiting.text
	t.times, t.spark = nil, sparkCache{}
	t.stats.reset()
	t.grid.SetCursor(0)
	cmd := t.pg.restartMerged(base, m)
	t.refresh()
	return cmd
}
