package pages

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// The tree's count: c reads the level once (dynamo.LevelCount, one
// resumable pass), a budget a run; c again after a stop counts on from
// where it stopped, reading no key twice.

// countedMsg carries the level's counts so far, and with final how the
// run ended. The figures are a snapshot of every child, so no message
// names a child by itself: the end is not a child named "" (a key may
// begin with the delimiter, and so has a child of that name).
type countedMsg struct {
	page, req int
	counts    []dynamo.ChildCount
	cost      dynamo.Cost // of every run of the level's count
	final     bool
	budgetHit bool
	run       float64 // what the run cost as billed (final only)
	sent      bool    // the run sent a request (final only)
	err       error
	next      <-chan countedMsg
}

func (m countedMsg) PageID() int { return m.page }

// counted takes the figures of a count, and its end.
func (t *Tree) counted(msg countedMsg) tea.Cmd {
	if msg.req != t.count.ID() {
		return nil
	}
	t.countCost = msg.cost
	t.takeCounts(msg.counts)
	if !msg.final {
		t.refresh()
		return common.Next(msg.next)
	}
	t.count.Done(msg.req)
	t.countRun = msg.run
	t.refresh()
	if msg.budgetHit && t.toCount > 0 {
		// A count that stopped with every branch counted (the rest
		// from the walk's keys: an index's count reads from the
		// level's start) has nothing for c to count on.
		if !msg.sent {
			// Its reads are sized by the heaviest item read: a budget
			// below one of them reads nothing, however often c is
			// pressed.
			return common.Report(dynamo.Errorf("count", dynamo.KindValidation,
				"start dynascope with a larger --count-budget to count on",
				"the count budget of %g RCU pays for none of the items left", t.budget()), false, t.id)
		}
		return common.Report(t.budgetStop(), false, t.id)
	}
	return common.Report(msg.err, false, t.id)
}

// countHeld counts, with no request, the branches the level's walk read
// whole (a dense level read in stretches): their keys are held
// (dynamo.HeldKeys.Count), so their Items cells need no c; c counts the
// rest.
func (t *Tree) countHeld() {
	if t.held == nil || t.pass != nil {
		return
	}
	for _, c := range t.children {
		if n, ok := t.held.Count(t.req, c.Child); ok && c.HasChildren {
			t.counts[c.Name], t.exact[c.Name] = n, true
		}
	}
}

// heldKeys are the keys read of the level: the count's, where c read
// it to its end (every key, the walk's too), else the walk's.
func (t *Tree) heldKeys() *dynamo.HeldKeys {
	if t.pass != nil {
		if h := t.pass.Held(); h != nil {
			return h
		}
	}
	return t.held
}

// countStopped takes the figures and cost of a count esc stopped from
// its pass (the answers still on their way are dropped), so the request
// line says what it spent; a read still in flight adds to the status bar
// only, until c counts on.
func (t *Tree) countStopped() {
	if t.pass == nil {
		return
	}
	t.countCost = t.pass.Cost()
	t.takeCounts(t.pass.Counts())
	t.refresh()
}

// takeCounts takes a count's figures so far, keeping every exact one the
// level already has: a branch the walk read whole (countHeld) may be read
// again by the count, with its gap's neighbours, and a count stopped
// there (esc, its budget) has only part of it. On dynalite, whose tables
// report no size, USA's AL# 53, AR# 52 and AZ# 115 turned "–" (not
// counted) when a count stopped before it had read them again.
func (t *Tree) takeCounts(counts []dynamo.ChildCount) {
	for _, c := range counts {
		if t.exact[c.Name] && !c.Exact {
			continue
		}
		t.counts[c.Name], t.exact[c.Name] = c.N, c.Exact
	}
}

// notCounted is a branch's Items cell before c counts it: a blank there
// read as nothing, or as none.
const notCounted = "–"

// itemsTitle heads the Items column, saying what its "–" cells wait for
// while any branch is not counted (c counts, or counts on; a sharded
// level counts per shard, so it only says they are not counted).
func (t *Tree) itemsTitle() string {
	if t.count.InFlight() || !t.list.Settled() {
		return "Items" // c acts once the level is listed, and not twice at once
	}
	for _, c := range t.children {
		if c.HasChildren && !t.exact[c.Name] {
			if len(t.shards) > 0 {
				return "Items (not counted)"
			}
			return "Items (c counts)"
		}
	}
	return "Items"
}

// countCell is a branch's Items cell: its count when exact; the figure so
// far marked … when partial; … alone while it is being counted and no
// figure exists yet ("0…" read as none); – when not counted.
func (t *Tree) countCell(c domain.Child) string {
	n, ok := t.counts[c.Name]
	if ok && n > 0 && c.IsItem && t.req.Index == "" && len(t.shards) == 0 {
		// A child that is an item too is counted with it, but the item
		// has a row of its own: the prefix's row counts what lies under
		// its prefix (NY#'s 91, not NY's 92). An index's item may be
		// many entries (its row says ≥1), a sharded level's item one a
		// shard: left in.
		n--
	}
	switch {
	case ok && t.exact[c.Name]:
		return common.Thousands(n)
	case ok && n > 0:
		return common.Thousands(n) + "…"
	case t.count.InFlight():
		return "…"
	}
	return t.c.Styles.Dim.Render(notCounted)
}

// countChildren counts on under the level's branches, from where the
// level's last count stopped, streaming the figures so far, and stops
// once this run's budget (RCU) is spent, keeping what it has.
func countChildren(ctx context.Context, pass *dynamo.LevelCount, budget float64, page, req int, ch chan countedMsg) {
	before := pass.Cost()
	over, err := pass.Run(ctx, budget, func(counts []dynamo.ChildCount, cost dynamo.Cost) {
		select { // a snapshot; skipped when the UI has not caught up
		case ch <- countedMsg{page: page, req: req, counts: counts, cost: cost, next: ch}:
		default:
		}
	})
	cost := pass.Cost()
	ch <- countedMsg{page: page, req: req, counts: pass.Counts(), cost: cost, final: true, budgetHit: over, sent: cost.Requests > before.Requests, run: cost.Billed - before.Billed, err: err}
}

// countOff is why c does not count here now ("" when it does): c is
// shown only where it acts.
func (t *Tree) countOff() string {
	switch {
	case !t.list.Settled():
		return "not counted: the level is still being listed; c again once it is" // c is not kept for later
	case t.count.InFlight():
		return "counting: esc stops it"
	case t.branches == 0:
		return "nothing to count: no prefixes here"
	case t.toCount == 0:
		return "every prefix here is counted"
	}
	return ""
}

// countKey counts under every branch of the level, or counts on from
// where the last count stopped (at its budget, or esc), reading no key
// twice. It never asks first: the run holds the budget, stopping there
// with what it counted (budgetStop), as children --count does; a bound
// from the table's size asked before every count of a small level of a
// big table, which the budget pays for.
func (t *Tree) countKey() tea.Cmd {
	if t.pass == nil {
		// After a dense level's walk, from the keys it held: only what
		// it did not read is read.
		t.pass = dynamo.NewLevelCountFrom(t.c.Client, t.req, t.held)
	}
	ctx, req := t.count.Start(t.c)
	t.refresh() // the branches not counted yet show … while counting
	pass, budget, page := t.pass, t.budget(), t.id
	return common.Stream(64, func(ch chan countedMsg) {
		countChildren(ctx, pass, budget, page, req, ch)
	})
}

// countPast is how far the last c went past its budget (0: within it, or
// by half an RCU at most, the rounding a budget may be passed by).
func (t *Tree) countPast() float64 {
	if past := t.countRun - t.budget(); t.budget() > 0 && past > 0.5 {
		return past
	}
	return 0
}

// budgetStop says, in the status bar, a count stopped at its budget:
// what it spent, what is partial, and how to go on.
func (t *Tree) budgetStop() error {
	exact, branches := 0, 0
	for _, c := range t.children {
		if c.HasChildren {
			branches++
			if t.exact[c.Name] {
				exact++
			}
		}
	}
	// The figures lead and the action ends the message, which a narrow
	// status bar keeps whole (the words between give way first); the
	// hint, which only says more, gives way before it. The figures were
	// in the hint's middle, and cut there at 120 and 200 columns.
	// Where the run went past the budget (an item heavier than any read
	// before it), or stopped well short of it (what was left paid for no
	// item as heavy as the heaviest read), "stopped at" was untrue.
	at, brief := "at", "stopped at"
	switch short := t.budget() - t.countRun; {
	case t.countPast() > 0:
		at = common.RCU(t.countPast(), false) + " past"
		brief = at
	case short >= 1:
		at = common.RCU(short, false) + " short of"
		brief = common.RCU(short, false) + " under"
	}
	err := dynamo.Errorf("count", dynamo.KindValidation,
		fmt.Sprintf("%s in all; those marked … are partial; each c reads on with another %g RCU, reading nothing twice",
			common.BilledRCU(t.countCost), t.budget()),
		"%d of %d counted, stopped %s the count budget of %g RCU; c counts on", exact, branches, at, t.budget())
	return common.Shortened{Err: err, Short: fmt.Sprintf("%d of %d, %s its %g RCU budget; c counts on", exact, branches, brief, t.budget())}
}
