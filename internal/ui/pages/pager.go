package pages

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// pager reads one key query a page at a time for a list: what is loaded,
// what it cost and, for a filtered query, how many items DynamoDB read to
// find the matches. DynamoDB filters after reading, a page at a time, so a
// filtered page can come back empty: the pager keeps reading by itself
// until the rows asked for are there, the partition ends, or the read has
// spent its budget since the user last asked for more.
//
// It holds a window of rows (pagerwindow.go): the pages farthest from the
// cursor are let go past DefaultHeldRows and read again, from where each
// was first read, when the cursor comes back to them.
type pager struct {
	c         *common.Common
	owner     int // the page the answers go to
	query     domain.KeyQuery
	tableKeys *dynamo.KeySchema // when querying an index
	head      rowStore          // what was read from the start
	headEnd   dynamo.Item       // the head's last row, held or not (where G's read meets it)
	lastKey   dynamo.Item
	started   bool
	pages     int
	cost      dynamo.Cost
	scanned   int     // items DynamoDB read, before the filter
	fillRCU   float64 // RCU billed since the user last asked for rows
	fillRead  int     // items DynamoDB read since then, which size what is left
	held      bool    // a filtered read stopped at its budget
	tail      tail    // the end, read backwards after G
	limit     int32   // the next page's Limit: 0 for a full 1 MB page
	rows      int     // rows on screen, which size the first page
	minFirst  int32   // the first page's least Limit (the Time mode's: the sample's newest keys)
	fail      failure // the last read failed or was cancelled
	req       request
	merge     *dynamo.MergedRange // a range merged across prefixes, instead of query's pages
	again     rereads             // rows let go and read again
	keep      bool                // let nothing go (a sort of the rows held is on screen)
	moved     bool                // the last answer moved rows (a re-read found a page changed)
	reread    bool                // the last answer was a re-read
	// browsed: a key has moved the cursor (or asked for rows) since the
	// list opened. Until then the list reads the screen, no page ahead:
	// the next page is read as the user moves.
	browsed bool
}

func newPager(c *common.Common, owner int, q domain.KeyQuery) pager {
	return pager{c: c, owner: owner, query: q}
}

// budget is the RCU a filtered read may spend before it waits for the user.
func (p *pager) budget() float64 {
	if p.c.FilterBudget == nil {
		return 0
	}
	return p.c.FilterBudget(p.query.Table)
}

// next asks for the next page, unless one is in flight or none is left.
func (p *pager) next() tea.Cmd {
	if p.req.inFlight() || p.done() {
		return nil
	}
	if !p.started && !p.filtered() {
		// A filtered page's matches are anyone's guess, and its budget
		// bounds what it spends: it reads whole pages.
		p.limit = max(dynamo.ScreenLimit(p.rows), p.minFirst)
	}
	p.started = true
	p.tail.reading, p.tail.failed = false, false
	p.again.reading, p.again.failed = false, false
	ctx, req := p.req.start(p.c)
	if p.merge != nil {
		return mergedPage(ctx, p.owner, req, p.merge.Clone(), timeMergePage)
	}
	q, bounded := p.gapBound(p.query, p.lastKey, p.tail.lastKey) // after G: up to where the end's read began
	p.tail.bounded = bounded
	limit := p.limit
	if b, ok := p.budgetLimit(); ok && b > 0 && (limit == 0 || b < limit) {
		limit = b
	}
	return queryPage(ctx, p.c.Client, p.owner, req, dynamo.PageRequest{Query: q, Start: p.lastKey, Limit: limit, TableKeys: p.tableKeys})
}

// budgetLimit is the Limit a filtered read may ask for with what is left
// of its budget (billed, as the status bar counts it), at the item sizes
// read so far, so that a page never spends past it: 0 for no bound; ok is
// false when what is left pays for no item.
func (p *pager) budgetLimit() (int32, bool) {
	b := p.budget()
	if p.query.Filter == nil || b <= 0 {
		return 0, true
	}
	if p.fillRCU >= b {
		return 0, false
	}
	return dynamo.BudgetLimit(b, p.fillRCU, p.fillRead)
}

// sizeTo notes how many rows show at once, before the first read sizes
// its page by them.
func (p *pager) sizeTo(rows int) {
	if rows > 0 {
		p.rows = rows
	}
}

// done reports whether the whole query has been read: a read that failed
// or was cancelled is not done, whatever it had, nor a list with a gap
// between its two ends.
func (p *pager) done() bool {
	return p.started && p.pages > 0 && len(p.lastKey) == 0 && !p.gapOpen() && !p.fail.stopped()
}

// cancel stops the read in flight at the user's word; the view says so.
func (p *pager) cancel() {
	if p.req.inFlight() {
		p.req.stop()
		p.fail.cancel()
	}
}

// retry reads on from where a failed or cancelled read stopped: the tail
// (after G) or the head.
func (p *pager) retry() tea.Cmd {
	if p.fail.stopped() && p.pages == 0 {
		p.started = false // the first page never came: ask for it again
	}
	p.fail.clear()
	p.fillRCU, p.fillRead, p.held = 0, 0, false
	if p.again.failed {
		return p.readAgain(p.again.tail, p.again.seg)
	}
	if p.tail.failed {
		return p.nextTail()
	}
	return p.next()
}

// restart lists q from its start, keeping nothing of what was loaded.
func (p *pager) restart(q domain.KeyQuery) tea.Cmd {
	p.req.stop()
	*p = pager{c: p.c, owner: p.owner, query: q, tableKeys: p.tableKeys, rows: p.rows, keep: p.keep}
	return p.next()
}

// loaded takes a page's answer; it reports false for a stale one (a
// cancelled or superseded request) and for a failure, which it reports.
func (p *pager) loaded(msg pageLoadedMsg) (bool, tea.Cmd) {
	if !p.req.done(msg.req) {
		return false, nil
	}
	p.moved, p.reread = false, false
	if msg.err != nil {
		p.tail.failed, p.tail.reading = p.tail.reading, false
		p.again.failed, p.again.reading = p.again.reading, false
		p.fail.fail(msg.err)
		return false, report(msg.err, false, p.owner)
	}
	p.fail.clear()
	if p.again.reading {
		return true, p.readAgainLoaded(msg.result)
	}
	if msg.merge != nil {
		p.tookMerge(msg.merge)
	}
	p.pages++
	p.cost = p.cost.Add(msg.result.Cost)
	p.fillRCU += msg.result.Cost.Billed
	p.fillRead += msg.result.Scanned
	p.scanned += msg.result.Scanned
	if p.tail.reading {
		p.tail.reading = false
		p.tailLoaded(msg.result)
		return true, nil
	}
	items, met := p.headMet(msg.result.Items)
	p.addHead(p.segmentOf(p.lastKey, false, items, msg.result, met))
	p.lastKey = msg.result.LastKey
	p.limit = dynamo.GrowLimit(p.limit, msg.result)
	if met || p.gapOpen() && p.tail.bounded && !msg.result.More() {
		p.closeGap() // read up to where the end's read began
	}
	return true, nil
}

// fill reads on until the rows past cursor fill the screen: until the user
// first moves, the screen alone (the first read is sized to it); then two
// screens ahead for a plain read (its pages are full), one for a filtered read,
// whose every page costs as much for far fewer rows. A filtered read also
// stops once it has spent its budget, until the user asks again (user: a
// key press).
func (p *pager) fill(cursor, visible int, user bool) tea.Cmd {
	p.sizeTo(visible)
	p.letGo(cursor, visible)
	if cmd, near := p.readAgainNear(cursor, visible, user); near {
		return cmd // the rows on screen first
	}
	if user {
		p.browsed = true
	}
	ahead := 2 * visible
	switch {
	case !p.browsed:
		ahead = visible - 1 // the screen: one read, sized to it
	case p.filtered():
		ahead = visible
	}
	if gap := p.gapRow(); gap >= 0 {
		// Near the gap, read into it from the side the cursor is on:
		// backwards when it came up from the end.
		switch {
		case cursor == gap && p.tail.fromAbove:
			return p.next()
		case cursor >= gap && cursor-visible <= gap: // G read two screens
			return p.nextTail()
		case cursor < gap && cursor+ahead >= gap:
			return p.next()
		}
		return nil
	}
	return p.want(cursor+ahead+1, user)
}

func (p *pager) want(n int, user bool) tea.Cmd {
	if user && p.fail.cancelled {
		p.fail.clear() // moving on after esc asks to read on
	}
	if p.head.len() >= n || p.done() || p.fail.stopped() {
		return nil
	}
	if user {
		p.fillRCU, p.fillRead, p.held = 0, 0, false
	}
	if _, ok := p.budgetLimit(); !ok {
		p.held = true
		return nil
	}
	return p.next()
}

// filtered reports whether a filter is applied.
func (p *pager) filtered() bool { return p.query.Filter != nil }

// state says how much is loaded and whether more follows, for the title:
// for a filtered read, matched against scanned and what that cost.
func (p *pager) state() string {
	if p.fail.stopped() {
		return p.fail.title(p.head.len(), "items")
	}
	if !p.started {
		return "not read yet"
	}
	if p.pages == 0 {
		return "reading…" // no answer yet: nothing is counted, nothing is all
	}
	more := p.c.All(p.query.Table)
	switch {
	case p.held:
		more = fmt.Sprintf("stopped at the %s RCU budget: ↓ reads on", common.Thousands(int(p.budget())))
	case p.req.inFlight() && p.filtered():
		more = "reading…"
	case p.gapOpen():
		more = "the middle not read yet: scroll into the gap to read it"
	case !p.done():
		more = "more as you scroll"
	}
	if !p.filtered() {
		return fmt.Sprintf("%s loaded%s · %s", common.Plural(p.head.len()+p.tail.rows.len(), "item", "items"), p.heldNote(), more)
	}
	// The matches listed: those read from the start and, after G, from the end.
	return fmt.Sprintf("%s matched of %s scanned%s · %s · %s", common.Thousands(p.head.len()+p.tail.rows.len()), common.Thousands(p.scanned), p.heldNote(), common.BilledRCU(p.cost), more)
}

// empty says why nothing is listed, once the first page is in ("" while
// reading, or when rows are loaded).
func (p *pager) empty(what string) string {
	switch {
	case p.fail.stopped() || !p.started:
		return "" // said by failed and unread
	case p.head.len() > 0:
		return ""
	case !p.filtered():
		if p.req.inFlight() {
			return ""
		}
		if p.query.SK.Op == domain.SKNone && what == "this partition" {
			// DynamoDB has no empty partitions: no item has this key.
			return "No item has the partition key " + keyCell(p.query.PK) + ": there is no such partition."
		}
		return "No items in " + what + "."
	case p.held:
		return fmt.Sprintf("No matches in the first %s scanned (%s; the budget is %s).\n↓ reads another %s RCU; f changes the filter.",
			common.Plural(p.scanned, "item", "items"), common.BilledRCU(p.cost), common.Thousands(int(p.budget())), common.Thousands(int(p.budget())))
	case !p.done():
		return fmt.Sprintf("No matches yet: %s scanned, %s. Reading on…", common.Plural(p.scanned, "item", "items"), common.BilledRCU(p.cost))
	}
	all := "all " + common.Plural(p.scanned, "item", "items") + " in " + what + " were"
	if p.scanned == 1 {
		all = "the 1 item in " + what + " was"
	}
	return fmt.Sprintf("Nothing matches: %s scanned (%s).\nf changes the filter; an empty filter shows everything.", all, common.BilledRCU(p.cost))
}

// request is the request line: the query, its filter, and its cost.
func (p *pager) request() string {
	if p.merge != nil {
		return p.mergeRequest()
	}
	return fmt.Sprintf("%s · %d req · %s%s", p.query.Describe(), p.pages, common.BilledRCU(p.cost), p.again.request())
}

// failed is the failure where the list's rows would be: alone when nothing
// was loaded, below the rows loaded before otherwise (one line). "" when
// the last read went well.
func (p *pager) failed(st *common.Styles, width int) string {
	if !p.fail.stopped() {
		return ""
	}
	if p.head.len() == 0 {
		return p.fail.body(st, 0, "items", width)
	}
	return st.ErrorTitle.Render(common.MiddleCut(common.Sanitize(p.fail.line(p.head.len(), "items")), width))
}

// unread says that the view has not been read, and why not yet.
func (p *pager) unread(st *common.Styles, why string) string {
	if p.started {
		return ""
	}
	return st.Dim.Render("Not read yet: " + why)
}
