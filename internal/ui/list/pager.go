package list

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// Pager reads one key query a page at a time for a list: what is loaded,
// what it cost and, for a filtered query, how many items DynamoDB read to
// find the matches. DynamoDB filters after reading, a page at a time, so a
// filtered page can come back empty: the Pager keeps reading by itself
// until the rows asked for are there, the partition ends, or the read has
// spent its budget since the user last asked for more.
//
// It holds a window of rows (window.go): the pages farthest from the
// cursor are let go past DefaultHeldRows and read again, from where each
// was first read, when the cursor comes back to them.
type Pager struct {
	c         *common.Common
	owner     int // the page the answers go to
	Query     domain.KeyQuery
	TableKeys *dynamo.KeySchema // when querying an index
	Head      Rows              // what was read from the start
	headEnd   dynamo.Item       // the head's last row, held or not (where G's read meets it)
	lastKey   dynamo.Item
	Started   bool
	pages     int
	cost      dynamo.Cost
	scanned   int      // items DynamoDB read, before the filter
	fillRCU   float64  // RCU billed since the user last asked for rows
	largest   int      // the largest item read, in bytes at most, which sizes what is left (dynamo.SizedPage)
	readBytes int      // the bytes of the rows read (dynamo.ItemBytes), and
	readRows  int      // the rows: how many a 1 MB page holds (owesHalfPage)
	held      bool     // a filtered read stopped at its budget
	Tail      tailRead // the end, read backwards after G
	limit     int32    // the next page's Limit: 0 for a full 1 MB page
	rows      int      // rows on screen, which size the first page
	MinFirst  int32    // the first page's least Limit (the Time mode's: the sample's newest keys)
	Fail      Failure  // the last read failed or was cancelled
	Req       Request
	Merge     *dynamo.MergedRange // a range merged across prefixes, instead of query's pages
	Again     rereads             // rows let go and read again
	Keep      bool                // let nothing go (a sort of the rows held is on screen)
	// Sift, when not nil, is which rows a read wider than asked lists: a
	// time range over keys in several UTC offsets, read as much wider
	// as they are apart, lists only its own (dynamo.PageRequest.Keep);
	// the title counts both ("3 in range · 5 read").
	Sift   func(dynamo.Item) bool
	Moved  bool // the last answer moved rows (a re-read found a page changed)
	Reread bool // the last answer was a re-read
	// browsed: a key has moved the cursor (or asked for rows) since the
	// list opened. Until then the list reads the screen, no page ahead:
	// the next page is read as the user moves.
	browsed bool
	// readOn is the ReadOnMsg awaited (0: none): a read a key asked for
	// waits one turn of the message loop, so that the keys typed with it
	// (a burst, a paste, a held key) are counted first and the read is
	// sized to where they all lead, not to the first one.
	readOn int
	// askedTo is where the keys led when the awaited read was asked,
	// typedTo where the keys typed since lead: a page move typed while
	// the read waits says a burst is on (keys that reach the model one at
	// a time let the read's turn come between two of them), and the read
	// waits for its end, as for keys all queued (ReadOn).
	askedTo, typedTo int
	typedKeys        int  // the keys typed since the read was asked
	bursting         bool // a burst is being typed: the read waits for its end
	idleTurns        int  // the read's turns since the burst's last key
	// waitOn: the awaited read came back while the keys typed with it
	// still went on (ReadOn): Fill waits one more turn rather than read.
	waitOn bool
}

// ReadOnMsg is a read a key asked for, coming back to its page after the
// keys typed with it (Pager.ReadOn).
type ReadOnMsg struct{ page, id int }

func (m ReadOnMsg) PageID() int { return m.page }

// ReadOn takes a ReadOnMsg: it reports whether it is the one awaited, on
// which the page reads on as its cursor and the keys it owes now say
// (Fill).
//
// When the keys typed since the read was asked moved a screen each (page
// moves typed while it waited), a burst is being typed: the read waits
// turn after turn, until burstIdleTurns pass without a key or the keys owe
// half a page (want), and reads what the same keys queued read. 200 pgdown reaching the model one at a time
// sent a read of 8 screens after the second key, then two more as the
// others came: one round trip more than the same keys queued, for the
// same rows. A single move, a few rows' moves, and keys typed slower than
// the message loop turns read as before.
func (p *Pager) ReadOn(msg ReadOnMsg) bool {
	if msg.id == 0 || msg.id != p.readOn {
		return false
	}
	p.readOn = 0
	quiet := p.typedTo == p.askedTo
	switch {
	case p.typedKeys > 0 && p.rows > 0 && p.typedTo-p.askedTo >= p.typedKeys*p.rows: // page moves
		p.bursting, p.idleTurns = true, 0
	case p.bursting && !quiet:
		p.idleTurns = 0
	case p.bursting && p.idleTurns < burstIdleTurns:
		p.idleTurns++
	case !p.bursting && quiet && p.idleTurns < firstIdleTurns:
		p.idleTurns++ // no key yet: the next may be the burst's second
		p.waitOn = true
		return true
	default:
		p.bursting = false
	}
	p.waitOn = p.bursting
	return true
}

// firstIdleTurns are the turns a first move's read waits without a key
// before it leaves: the loop took the read's turn before the second key
// of 200 pgdown typed one at a time about one time in two, and the read
// left sized to one key. Each turn is a message through the loop, without
// I/O; a single move reads the same rows after them.
const firstIdleTurns = 3

// burstIdleTurns are the turns of the message loop without a key after
// which a burst is over: the loop takes the keys and the read's turn in
// no set order, so one turn without a key says little (200 pgdown typed
// one at a time had a turn without a key within the first ten).
const burstIdleTurns = 24

// burstScreens are the screens the first move reads ahead: 200 j typed
// at once from a first screen of 29 rows land after one Query of 232
// rows (~11 RCU of 350-byte items) instead of three doubling ones, while
// opening still reads one screen.
const burstScreens = 8

func NewPager(c *common.Common, owner int, q domain.KeyQuery) Pager {
	return Pager{c: c, owner: owner, Query: q}
}

// budget is the RCU a filtered read may spend before it waits for the user.
func (p *Pager) budget() float64 {
	if p.c.FilterBudget == nil {
		return 0
	}
	return p.c.FilterBudget(p.Query.Table)
}

// readOnRCU is what a filtered read may spend each time the user asks
// for rows: the budget, or what one item of the largest size read costs
// where that is more. The budget alone paid for no read after a heavy
// item (25 RCU against 5): ↓ read nothing, every ↓ alike.
func (p *Pager) readOnRCU() float64 {
	b := p.budget()
	if b > 0 && p.largest > 0 {
		b = max(b, dynamo.ReadCost(1, p.largest, false))
	}
	return b
}

// readOnWords is readOnRCU as the empty list says it: the budget, or one
// item's cost (the status bar says why), short enough for 80 columns.
func (p *Pager) readOnWords() string {
	if r := p.readOnRCU(); r > p.budget() {
		return common.RCU(r, false)
	}
	return common.Thousands(int(p.budget())) + " RCU"
}

// Next asks for the Next page, unless one is in flight or none is left.
func (p *Pager) Next() tea.Cmd {
	if p.Req.InFlight() || p.Done() {
		return nil
	}
	if !p.Started && !p.filtered() {
		// A filtered page's matches are anyone's guess: its reads are
		// sized by the rate they match (wantLimit), under its budget.
		p.limit = max(dynamo.ScreenLimit(p.rows), p.MinFirst)
	}
	p.Started = true
	p.Tail.reading, p.Tail.failed = false, false
	p.Again.Reading, p.Again.failed = false, false
	ctx, req := p.Req.Start(p.c)
	if p.Merge != nil {
		return mergedPage(ctx, p.owner, req, p.Merge.Clone(), MergePage)
	}
	q, bounded := p.gapBound(p.Query, p.lastKey, p.Tail.lastKey) // after G: up to where the end's read began
	p.Tail.bounded = bounded
	limit := p.limit
	if b, ok := p.budgetLimit(); ok && b > 0 && (limit == 0 || b < limit) {
		limit = b
	}
	if w := p.wantLimit(); w > 0 && (limit == 0 || w < limit) {
		limit = w
	}
	return sizedPage(ctx, p.c.Client, p.owner, req, dynamo.PageRequest{Query: q, Start: p.lastKey, Limit: limit, TableKeys: p.TableKeys, Keep: p.Sift}, p.budget())
}

// sizedPage reads a page as QueryPage does; under a budget, a filtered
// page is read whole and filtered here, and says how large its largest
// item was (dynamo.SizedPage), which sizes the next.
func sizedPage(ctx context.Context, c dynamo.Client, page, req int, r dynamo.PageRequest, budget float64) tea.Cmd {
	return func() tea.Msg {
		p, largest, err := dynamo.SizedPage(ctx, c, r, budget)
		return PageLoadedMsg{page: page, req: req, Result: p, err: err, largest: largest}
	}
}

// wantLimit bounds a filtered read to the items that find two screens of
// matches at the rate its reads so far matched (dynamo.WantItems): a
// filter matching most of a partition fills its screen from about a
// hundred items, not a 1 MB page (160 RCU on the demo's DeviceLogs 9000
// for Level = "ERROR"); one that matched nothing reads whole pages. 0:
// no bound.
func (p *Pager) wantLimit() int32 {
	if !p.filtered() {
		return 0
	}
	matched := p.Head.Len() + p.Tail.Rows.Len()
	return int32(dynamo.WantItems(2*max(p.rows, 1), p.scanned, matched))
}

// budgetLimit is the Limit a filtered read may ask for with what is left
// of its budget (billed, as the status bar counts it), sized as every
// read under a budget is (dynamo.SizedLimit: half of what is left at the
// largest item read so far), so that a page spends past it only on first
// meeting an item larger than any before: 0 for no bound; ok is false
// when what is left pays for no item.
func (p *Pager) budgetLimit() (int32, bool) {
	b := p.readOnRCU()
	if p.Query.Filter == nil || b <= 0 {
		return 0, true
	}
	if p.fillRCU >= b {
		return 0, false
	}
	return dynamo.SizedLimit(b, p.fillRCU, p.largest, p.scanned)
}

// SizeTo notes how many rows show at once, before the first read sizes
// its page by them.
func (p *Pager) SizeTo(rows int) {
	if rows > 0 {
		p.rows = rows
	}
}

// Done reports whether the whole query has been read: a read that failed
// or was cancelled is not Done, whatever it had, nor a list with a gap
// between its two ends.
func (p *Pager) Done() bool {
	return p.Started && p.pages > 0 && len(p.lastKey) == 0 && !p.GapOpen() && !p.Fail.Stopped()
}

// Cancel stops the read in flight at the user's word; the view says so.
func (p *Pager) Cancel() {
	p.readOn = 0
	if p.Req.InFlight() {
		p.Req.Stop()
		p.Fail.Cancel()
	}
}

// Retry reads on from where a failed or cancelled read stopped: the tail
// (after G) or the head.
func (p *Pager) Retry() tea.Cmd {
	if p.Fail.Stopped() && p.pages == 0 {
		p.Started = false // the first page never came: ask for it again
	}
	p.Fail.Clear()
	p.fillRCU, p.held = 0, false
	if p.Again.failed {
		return p.readAgain(p.Again.Tail, p.Again.Seg)
	}
	if p.Tail.failed {
		return p.nextTail()
	}
	return p.Next()
}

// Restart lists q from its start, keeping nothing of what was loaded.
func (p *Pager) Restart(q domain.KeyQuery) tea.Cmd {
	p.Req.Stop()
	*p = Pager{c: p.c, owner: p.owner, Query: q, TableKeys: p.TableKeys, rows: p.rows, Keep: p.Keep, Sift: p.Sift}
	return p.Next()
}

// Loaded takes a page's answer; it reports false for a stale one (a
// cancelled or superseded request) and for a failure, which it reports.
func (p *Pager) Loaded(msg PageLoadedMsg) (bool, tea.Cmd) {
	if !p.Req.Done(msg.req) {
		return false, nil
	}
	p.Moved, p.Reread = false, false
	if msg.err != nil {
		// A request sent is counted whatever it answered, as the tree
		// and the status bar count it (it was "0 req" here, "1 req" there).
		p.cost = p.cost.Add(msg.Result.Cost)
		p.Tail.failed, p.Tail.reading = p.Tail.reading, false
		p.Again.failed, p.Again.Reading = p.Again.Reading, false
		p.Fail.Fail(msg.err)
		return false, common.Report(msg.err, false, p.owner)
	}
	p.Fail.Clear()
	if p.Again.Reading {
		return true, p.readAgainLoaded(msg.Result)
	}
	if msg.merge != nil {
		p.tookMerge(msg.merge)
	}
	p.pages++
	p.cost = p.cost.Add(msg.Result.Cost)
	p.fillRCU += msg.Result.Cost.Billed
	p.largest = max(p.largest, msg.largest)
	p.scanned += msg.Result.Scanned
	for _, it := range msg.Result.Items {
		p.readBytes += dynamo.ItemBytes(it)
	}
	p.readRows += len(msg.Result.Items)
	if p.Tail.reading {
		p.Tail.reading = false
		p.tailLoaded(msg.Result)
		return true, nil
	}
	items, met := p.headMet(msg.Result.Items)
	p.addHead(p.segmentOf(p.lastKey, false, items, msg.Result, met))
	p.lastKey = msg.Result.LastKey
	p.limit = dynamo.GrowLimit(p.limit, msg.Result)
	if met || p.GapOpen() && p.Tail.bounded && !msg.Result.More() {
		p.closeGap() // read up to where the end's read began
	}
	return true, nil
}

// Fill reads on until the rows past cursor Fill the screen: until the user
// first moves, the screen alone (the first read is sized to it); then two
// screens ahead for a plain read (its pages are full), one for a filtered read,
// whose every page costs as much for far fewer rows. A filtered read also
// stops once it has spent its budget, until the user asks again (user: a
// key press).
func (p *Pager) Fill(cursor, visible int, user bool) tea.Cmd {
	waitOn := p.waitOn && !user
	p.waitOn = false
	p.SizeTo(visible)
	p.letGo(cursor, visible)
	if cmd, near := p.readAgainNear(cursor, visible, user); near {
		return cmd // the rows on screen first
	}
	if user && !p.browsed {
		p.browsed = true
		if p.limit > 0 && !p.filtered() {
			// The first move reads burstScreens ahead in one Query: keys
			// typed at once land after one read rather than one per
			// doubling page.
			p.limit = max(p.limit, dynamo.RowsLimit(burstScreens*visible))
		}
	}
	ahead := 2 * visible
	switch {
	case !p.browsed:
		ahead = visible - 1 // the screen: one read, sized to it
	case p.filtered():
		ahead = visible
	}
	if gap := p.GapRow(); gap >= 0 {
		// Near the gap, read into it from the side the cursor is on:
		// backwards when it came up from the end.
		switch {
		case p.Tail.Owed > 0: // rows owed above the end's: read on backwards
			return p.nextTail()
		case cursor == gap && p.Tail.fromAbove:
			return p.Next()
		case cursor >= gap && cursor-visible <= gap: // G read two screens
			return p.nextTail()
		case cursor < gap && cursor+ahead >= gap:
			return p.Next()
		}
		return nil
	}
	if waitOn {
		return p.waitForKeys(cursor + ahead + 1)
	}
	return p.want(cursor+ahead+1, user)
}

func (p *Pager) want(n int, user bool) tea.Cmd {
	if user && p.Fail.Cancelled {
		p.Fail.Clear() // moving on after esc asks to read on
	}
	if p.Head.Len() >= n || p.Done() || p.Fail.Stopped() {
		return nil
	}
	if user {
		p.fillRCU, p.held = 0, false
	}
	if _, ok := p.budgetLimit(); !ok {
		if p.held {
			return nil
		}
		p.held = true
		return p.heldSaid()
	}
	if p.readOn != 0 {
		if user {
			p.typedTo = max(p.typedTo, n)
			p.typedKeys++
		}
		if !user || !p.owesHalfPage(n) {
			return nil // the read is coming, sized once the keys typed with it are in
		}
		// The keys typed at once already owe half a page: twice that is
		// the most one Query returns, so waiting for the rest of them
		// cannot make the read larger, only later. It leaves now, while
		// they are still being taken, as far again as they have gone.
		p.readOn, p.bursting = 0, false
		p.limit = dynamo.RowsLimit(2 * (n - p.Head.Len()))
		return p.Next()
	}
	if user && p.Started && !p.Req.InFlight() && !p.filtered() && p.Merge == nil {
		// Not now: after the keys already typed (ReadOnMsg), which
		// may owe many more rows than this one.
		p.bursting, p.idleTurns = false, 0
		return p.readOnNext(n)
	}
	if need := n - p.Head.Len(); p.Started && !p.Req.InFlight() && p.limit > 0 && need > int(p.limit) {
		p.limit = dynamo.RowsLimit(need) // keys typed ahead: their rows in one read
	}
	return p.Next()
}

// readOnNext asks for the read up to n after the keys typed with it.
func (p *Pager) readOnNext(n int) tea.Cmd {
	p.readOn = p.c.NextID()
	p.askedTo, p.typedTo, p.typedKeys = n, n, 0
	msg := ReadOnMsg{page: p.owner, id: p.readOn}
	return func() tea.Msg { return msg }
}

// waitForKeys is the read up to n put off one more turn, the keys of a
// burst still coming (ReadOn), unless none is owed or one is in flight.
func (p *Pager) waitForKeys(n int) tea.Cmd {
	if p.Head.Len() >= n || p.Done() || p.Fail.Stopped() || p.Req.InFlight() || p.filtered() || p.Merge != nil {
		p.bursting = false
		return p.want(n, false)
	}
	return p.readOnNext(n)
}

// owesHalfPage reports whether the rows up to n that are not read yet
// are half of what a 1 MB page holds at the size of the rows read so far
// (a burst of page moves: 57 pgdown on screens of 29 rows of 316-byte
// items), for a plain read with none in flight.
func (p *Pager) owesHalfPage(n int) bool {
	if p.filtered() || p.Merge != nil || !p.Started || p.Req.InFlight() || p.readRows == 0 {
		return false
	}
	page := dynamo.PageRows(p.readBytes / p.readRows)
	return page > 0 && 2*(n-p.Head.Len()) >= page
}

// heldSaid is the status bar's word as a filtered read stops at its
// budget: how to go on and what it spent first (what a narrow status bar
// keeps), then that the rows listed are those found so far.
func (p *Pager) heldSaid() tea.Cmd {
	more := common.RCU(p.readOnRCU(), false) + " more"
	if p.readOnRCU() > p.budget() {
		more += ", what one item of the largest size read costs"
	}
	text := fmt.Sprintf("At the budget: ↓ reads on · %s spent · %s in %s scanned, the rest not read; ↓ spends up to %s",
		common.RCU(p.fillRCU, p.cost.Estimated), common.Plural(p.Head.Len()+p.Tail.Rows.Len(), "match", "matches"),
		common.Plural(p.scanned, "item", "items"), more)
	return func() tea.Msg { return common.NoticeMsg{Text: text} }
}

// filtered reports whether a filter is applied.
func (p *Pager) filtered() bool { return p.Query.Filter != nil }

// sifted reports whether the read is wider than what is listed (Sift).
func (p *Pager) sifted() bool {
	if p.Merge != nil {
		return p.Merge.Keep != nil
	}
	return p.Sift != nil
}

// State says how much is loaded and whether more follows, for the title:
// for a filtered read, matched against scanned and what that cost.
func (p *Pager) State() string {
	if !p.Started && !p.Fail.Stopped() {
		return "not read yet"
	}
	return stateOf(p.Fail, p.pages > 0, p.Head.Len(), "items", p.loadedState)
}

// loadedState is State once a page has answered.
func (p *Pager) loadedState() string {
	more := p.c.All(p.Query.Table)
	switch {
	case p.held:
		more = fmt.Sprintf("stopped at the %s RCU budget, %.1f spent: ↓ reads on", common.Thousands(int(p.budget())), p.fillRCU)
	case p.Req.InFlight() && p.filtered():
		more = "reading…"
	case p.GapOpen():
		more = "the middle not read yet: scroll into the gap to read it"
	case !p.Done():
		more = "more as you scroll"
	}
	if p.sifted() && !p.filtered() {
		return fmt.Sprintf("%s in range · %s read%s · %s · %s", common.Thousands(p.Head.Len()+p.Tail.Rows.Len()), common.Thousands(p.scanned), p.heldNote(), common.BilledRCU(p.cost), more)
	}
	if !p.filtered() {
		return fmt.Sprintf("%s loaded%s · %s", common.Plural(p.Head.Len()+p.Tail.Rows.Len(), "item", "items"), p.heldNote(), more)
	}
	// The matches listed: those read from the start and, after G, from the end.
	return fmt.Sprintf("%s matched of %s scanned%s · %s · %s", common.Thousands(p.Head.Len()+p.Tail.Rows.Len()), common.Thousands(p.scanned), p.heldNote(), common.BilledRCU(p.cost), more)
}

// Empty says why nothing is listed, once the first page is in ("" while
// reading, or when rows are loaded).
func (p *Pager) Empty(what string) string {
	switch {
	case p.Fail.Stopped() || !p.Started:
		return "" // said by failed and unread
	case p.Head.Len() > 0:
		return ""
	case p.sifted() && !p.filtered() && !p.Done():
		// A page of the wider read can hold none of the range's items:
		// the read goes on before anything is said to be missing.
		return fmt.Sprintf("None in %s yet: %s read, %s. Reading on…", what, common.Plural(p.scanned, "item", "items"), common.BilledRCU(p.cost))
	case p.sifted() && !p.filtered():
		return fmt.Sprintf("No items in %s: %s read, each outside it (%s).", what, common.Plural(p.scanned, "item", "items"), common.BilledRCU(p.cost))
	case !p.filtered():
		if p.Req.InFlight() {
			return ""
		}
		if p.Query.SK.Op == domain.SKNone && what == "this partition" {
			// DynamoDB has no empty partitions: no item has this key.
			return "No item has the partition key " + common.KeyCell(p.Query.PK) + ": there is no such partition."
		}
		return "No items in " + what + "."
	case p.held:
		return fmt.Sprintf("No matches in the first %s scanned (%s; the budget is %s).\n↓ reads another %s; f changes the filter.",
			common.Plural(p.scanned, "item", "items"), common.BilledRCU(p.cost), common.Thousands(int(p.budget())), p.readOnWords())
	case !p.Done():
		return fmt.Sprintf("No matches yet: %s scanned, %s. Reading on…", common.Plural(p.scanned, "item", "items"), common.BilledRCU(p.cost))
	}
	all := "all " + common.Plural(p.scanned, "item", "items") + " in " + what + " were"
	if p.scanned == 1 {
		all = "the 1 item in " + what + " was"
	}
	return fmt.Sprintf("Nothing matches: %s scanned (%s).\nf changes the filter; an empty filter shows everything.", all, common.BilledRCU(p.cost))
}

// Request is the Request line: the query, its filter, and its cost.
func (p *Pager) Request() string {
	if p.Merge != nil {
		return p.mergeRequest()
	}
	here := ""
	if p.filtered() && p.budget() > 0 {
		here = " · filter applied here, items read whole" // dynamo.SizedPage: no FilterExpression is sent under a budget
	}
	return fmt.Sprintf("%s%s · %d req · %s%s", p.Query.Describe(), here, p.cost.Requests, common.BilledRCU(p.cost), p.Again.request())
}

// Failed is the failure where the list's rows would be: alone when nothing
// was loaded, below the rows loaded before otherwise (one line). "" when
// the last read went well.
func (p *Pager) Failed(st *common.Styles, width int) string {
	if !p.Fail.Stopped() {
		return ""
	}
	if p.Head.Len() == 0 {
		return p.Fail.Body(st, 0, "items", width)
	}
	return p.Fail.Below(st, p.Head.Len(), "items", width)
}

// Unread says that the view has not been read, and why not yet.
func (p *Pager) Unread(st *common.Styles, why string) string {
	if p.Started {
		return ""
	}
	return st.Dim.Render("Not read yet: " + why)
}
