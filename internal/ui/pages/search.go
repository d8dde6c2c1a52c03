package pages

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// Search lists the items of a whole table (or index) that a filter
// matches: a Scan in parallel segments (dynamo.ReadSearch), or, where the
// filter pins the partition key, a Query of each partition it names
// (dynamo.FilterSearch, planned as a statement is), a step at a time while
// the list wants rows, under the explorer's filter budget. At the budget
// it stops and asks before spending more; after a failure r reads again
// only the segments that failed.
type Search struct {
	c      *common.Common
	id     int
	info   dynamo.TableInfo
	index  string
	filter filterBar
	node   domain.FilterNode // the filter applied (nil before the first)
	// pinned is the filter's plan where it pins the partition key: the
	// search reads those partitions by Query (nil: a Scan of the whole).
	pinned *domain.Plan
	// typed is the plan of the filter typed before the first search (nil:
	// a Scan, or nothing that parses yet): what enter will read.
	typed *domain.Plan
	// scanWhy and typedWhy say why the filter applied (typed) is read by
	// a Scan though it pins the partition key (dynamo.FilterSearch): the
	// request line says so rather than scan the table without a word.
	scanWhy, typedWhy string
	// scanNone and typedNone say the OR branches of the filter applied
	// (typed) that match no item, left out of what is read
	// (dynamo.FilterPlan.NoMatch); refused says why the filter typed
	// matches no item at all: enter reads nothing (domain.NoMatchError).
	scanNone, typedNone, refused string
	// typedHeld says the attributes the filter typed names that the index
	// does not hold (notHeldBy), before enter reads anything.
	typedHeld string
	state     dynamo.SearchState
	begun     bool                    // a search has been asked (state holds it)
	list      list.Paged[dynamo.Item] // the matches found, a step at a time
	stats     attrStats
	keys      []string // the key columns
	attrs     []string // the other columns: the attributes most matches hold
	scanned,
	pages int
	cost    dynamo.Cost
	stopped bool // at the budget, with more to read
	// toEnd: G while more may match, and no key since: the cursor stays
	// on the last match read, the read in flight's last once it answers,
	// and no read is started for it (the reads G set off went on past
	// it: the cursor was left at row 102 of 147).
	toEnd bool
	get   list.Request // an item read whole from the base table (on an index)
	w, h  int
	// A statement's results (: prompt): the statement, its plan and the
	// search it was translated to; no filter bar.
	text     string
	plan     *domain.Plan
	prepared dynamo.SearchRequest
	// held are the items of the whole table another view read (E), which
	// a filter is matched against here, reading nothing (nil: read);
	// fromHeld says the matches listed are of them. r reads the table.
	held     []dynamo.Item
	fromHeld bool
	// earlier says, until the first search, what another view read of the
	// table and what that cost (E's sample): the request line's word on
	// what a Scan of it would cost.
	earlier string
	// via are the steps of the page the search was opened from (E's
	// types, a statement's prompt), told by the root model as it opens
	// (common.Opened): the breadcrumb goes on from them.
	via []string
}

// searchReadMsg is a step of a search.
type searchReadMsg struct {
	page, req int
	step      dynamo.SearchStep
	err       error
}

func (m searchReadMsg) PageID() int { return m.page }

// NewSearch returns the search of a table (index "") or of one of its
// indexes, its filter bar open: nothing is read before a filter is given.
func NewSearch(c *common.Common, info dynamo.TableInfo, index string) *Search {
	s := &Search{c: c, id: c.NextID(), info: info, index: index, filter: newFilterBar()}
	s.setUp()
	return s
}

// NewSearchOf returns the search of a table (or index) through filter n,
// read as soon as the page opens: enter on a type of the table's Entities
// view lists that type's items from the whole table.
func NewSearchOf(c *common.Common, info dynamo.TableInfo, index string, n domain.FilterNode) *Search {
	s := NewSearch(c, info, index)
	s.node = n
	return s
}

// NewSearchOfHeld is NewSearchOf over held, every item of the table (or
// index) another view read whole: the filter is matched against them,
// with no request, where that can be done here (dynamo.MatchHeld); r reads
// the table.
func NewSearchOfHeld(c *common.Common, info dynamo.TableInfo, index string, n domain.FilterNode, held []dynamo.Item) *Search {
	s := NewSearchOf(c, info, index, n)
	s.held = held
	return s
}

// NewStatementResults lists what a PartiQL statement reads: the search
// plan translated it to, read as soon as the page opens.
func NewStatementResults(c *common.Common, info dynamo.TableInfo, text string, plan domain.Plan, r dynamo.SearchRequest) *Search {
	s := &Search{c: c, id: c.NextID(), info: info, index: plan.Index, filter: newFilterBar(),
		text: text, plan: &plan, prepared: r}
	s.setUp()
	return s
}

// setUp makes the matches' list, its columns the keys until matches come.
func (s *Search) setUp() {
	s.keys = s.keyNames()
	s.filter.note = "enter searches the " + s.what() + " · esc goes back"
	s.stats = newAttrStats(s.keys...)
	s.list = list.NewPaged(s.c, list.Words{One: "match", Many: "matches", Count: s.count,
		Reading: "the " + s.what() + " is", More: "the rest not read yet", Waiting: "reading…"}, nil, s.cell)
	s.refresh()
}

// openSearch is f on a partitions list: the search page, typing its filter.
func openSearch(c *common.Common, info dynamo.TableInfo, index string) tea.Cmd {
	s := NewSearch(c, info, index)
	return tea.Batch(open(s), s.filter.open(nil))
}

// budget is what the search may spend before it asks (0: no bound).
func (s *Search) budget() float64 {
	if s.c.FilterBudget == nil {
		return 0
	}
	return s.c.FilterBudget(s.info.Name)
}

// keyNames are the key attributes listed first: the index's, then the
// table's, each once.
func (s *Search) keyNames() []string {
	var names []string
	seen := map[string]bool{}
	add := func(k dynamo.KeySchema) {
		for _, n := range []string{k.PK.Name, skName(k)} {
			if n != "" && !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	if k, err := s.info.KeyFor(s.index); err == nil && s.index != "" {
		add(k)
	}
	add(s.info.Key)
	if s.plan == nil || len(s.plan.Project) == 0 {
		return names
	}
	// A statement's projection: the keys it names, no column left
	// empty for a key every item has but the statement did not ask for.
	asked := map[string]bool{}
	for _, p := range s.plan.Project {
		if len(p) > 0 {
			asked[p[0].Name] = true
		}
	}
	var kept []string
	for _, n := range names {
		if asked[n] {
			kept = append(kept, n)
		}
	}
	return kept
}

// Init reads a statement's results; a filter search waits for its filter.
func (s *Search) Init() tea.Cmd {
	if s.plan != nil && !s.begun {
		return s.startRequest(s.prepared)
	}
	if s.node != nil && !s.begun { // NewSearchOf: its filter given
		return s.start(s.node)
	}
	return nil
}

// start begins a search of the whole table through n, which is shown
// from then on with its values typed against masked attributes as
// stand-ins (the bar, the request line), as the items' filter is.
func (s *Search) start(n domain.FilterNode) tea.Cmd {
	typed := dynamo.TypedFilter(s.c.Client, s.info.Name, n)
	fp, err := dynamo.FilterSearch(s.info, s.index, typed, s.budget(), "explorer")
	if err != nil {
		return notice("Nothing read: " + s.noMatchWords(err))
	}
	s.node = typed
	s.pinned, s.typed, s.scanWhy, s.typedWhy = fp.Plan, nil, fp.WhyScan, ""
	s.scanNone, s.typedNone, s.refused = s.noMatchShown(fp.NoMatch), "", ""
	if matches, ok := dynamo.MatchHeld(s.c.Client, s.info.Name, s.held, s.node); ok && s.held != nil {
		s.showHeld(matches)
		return nil
	}
	return s.startRequest(fp.Request)
}

// noMatchWords is a filter refused for matching no item, in its own
// words (domain.NoMatchError), but where the table is masked: the values
// would show.
func (s *Search) noMatchWords(err error) string {
	var notFetched *dynamo.NotFetchedError
	if errors.As(err, &notFetched) {
		// Where the search can go instead, as the CLI's refusal says it.
		return notFetched.Said + "; the table holds it (esc, i, then f), or filter only on what the index holds"
	}
	var none *domain.NoMatchError
	if !errors.As(err, &none) {
		return err.Error()
	}
	if dynamo.Masks(s.c.Client, s.info.Name) {
		return "the filter compares a key with what no key is (another type than the key's, or empty), so it matches no item (the value would show what the mask hides)"
	}
	return none.SayTo(false, domain.Explorer)
}

// noMatchShown is what the plan says of the OR branches left out, but
// where the table is masked.
func (s *Search) noMatchShown(said string) string {
	if said != "" && dynamo.Masks(s.c.Client, s.info.Name) {
		return "a branch of the filter pins the partition key to what no key is, so it matches no item and is left out (the value would show what the mask hides)"
	}
	return said
}

// showHeld lists the matches among the held items: whole, no request.
func (s *Search) showHeld(matches []dynamo.Item) {
	s.list.Req.Stop()
	s.begun, s.fromHeld, s.pinned, s.scanWhy, s.scanNone = true, true, nil, "", ""
	s.filter.note = "enter searches again · esc keeps the last filter"
	s.scanned, s.pages, s.cost, s.stopped = len(s.held), 0, dynamo.Cost{}, false
	s.stats.reset()
	s.stats.add(matches)
	s.list.Given(matches)
	s.list.Grid.SetCursor(0)
	s.refresh()
}

// planOf is what filter n would be read with: its Query plan where it
// pins the partition key, else nil (a Scan), and why a filter that pins
// it is a Scan all the same.
func (s *Search) planOf(n domain.FilterNode) (dynamo.FilterPlan, error) {
	return dynamo.FilterSearch(s.info, s.index, dynamo.TypedFilter(s.c.Client, s.info.Name, n), 0, "explorer")
}

// queried is the plan of the Queries the search reads (the filter's, or a
// statement's), nil where it scans.
func (s *Search) queried() *domain.Plan {
	if s.plan != nil && s.plan.Operation() == "Query" {
		return s.plan
	}
	if s.plan == nil {
		return s.pinned
	}
	return nil
}

// retype plans the filter typed so far: the line under the bar (and,
// before the first search, the words where the matches will be and the
// request line) say what enter reads.
func (s *Search) retype() {
	if s.plan != nil {
		return
	}
	s.typed, s.typedWhy, s.typedNone, s.refused, s.typedHeld = nil, "", "", "", ""
	if n, err := domain.ParseFilter(strings.TrimSpace(s.filter.input.Value())); err == nil {
		s.typedHeld = s.notHeldBy(n)
		fp, err := s.planOf(n)
		if err != nil {
			s.refused = s.noMatchWords(err)
		}
		s.typed, s.typedWhy, s.typedNone = fp.Plan, fp.WhyScan, s.noMatchShown(fp.NoMatch)
	}
	s.filter.refused = s.refused
	enter, esc := "enter searches the "+s.what(), "esc goes back"
	if s.begun {
		enter, esc = "enter searches again", "esc keeps the last filter"
	}
	switch {
	case s.refused != "":
		enter = "enter reads nothing"
	case s.typed != nil:
		enter = "enter reads " + s.partitions(s.typed) + " by Query"
	case s.typedWhy != "":
		enter = "enter scans the whole " + s.what() + ", not a Query: " + common.Sanitize(s.typedWhy)
	}
	s.filter.note = enter + " · " + esc
}

// partitions names the partitions a plan reads: partition PK = "a", or
// 2 partitions (PK IN ("a", "b")), with its sort-key condition.
func (s *Search) partitions(p *domain.Plan) string {
	if len(p.Queries) == 1 {
		return "partition " + common.Guard(p.KeyCondition())
	}
	return fmt.Sprintf("%d partitions (%s)", len(p.Queries), common.Guard(p.KeyCondition()))
}

// startRequest begins r from its start, forgetting what was found.
func (s *Search) startRequest(r dynamo.SearchRequest) tea.Cmd {
	s.list.Req.Stop()
	st, err := dynamo.StartSearch(r, nil)
	if err != nil {
		return notice("Search not started: " + err.Error())
	}
	s.state, s.begun, s.fromHeld = st, true, false
	s.filter.note = "enter searches again · esc keeps the last filter"
	s.scanned, s.pages, s.cost, s.stopped = 0, 0, dynamo.Cost{}, false
	s.list.Clear()
	s.stats.reset()
	s.list.Grid.SetCursor(0)
	s.refresh()
	return s.read()
}

// read asks for the next step: its matches are added to those found.
func (s *Search) read() tea.Cmd {
	if s.list.Req.InFlight() || !s.begun || s.fromHeld {
		return nil
	}
	ctx, req := s.list.Next()
	// The matches that fill the screen below the cursor and one more:
	// each read is sized to find them (dynamo.SearchState.Want), not to
	// a 1 MB page a segment.
	screen := s.screenRows()
	s.state.Want = max(3*screen-(s.list.Len()-s.list.Grid.Cursor()), screen)
	return readSearch(ctx, s.c.Client, s.id, req, s.state)
}

// screenRows is how many rows a screen of the list shows.
func (s *Search) screenRows() int {
	return max(s.list.Grid.Visible(), s.h-4)
}

func readSearch(ctx context.Context, c dynamo.Client, page, req int, st dynamo.SearchState) tea.Cmd {
	return func() tea.Msg {
		step, err := dynamo.ReadSearch(ctx, c, st)
		return searchReadMsg{page: page, req: req, step: step, err: err}
	}
}

// more reads on while the rows below the cursor do not fill two screens,
// the search has more and neither the budget nor a failure or esc has
// stopped it (r reads on after those).
func (s *Search) more() tea.Cmd {
	screen := s.screenRows()
	if s.stopped || s.list.Fail.Stopped() || !s.list.WantsMore(2*screen, false) {
		return nil
	}
	return s.read()
}

func (s *Search) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		return s, s.read()
	case searchReadMsg:
		st := msg.step
		if !s.list.Answer(msg.req, st.Items, st.Next.More(), msg.err) {
			return s, nil
		}
		s.stats.add(st.Items)
		s.scanned += st.Scanned
		s.pages += st.Pages
		s.cost = s.cost.Add(st.Cost)
		s.state = st.Next // after an error: reads the failed segments again
		s.refresh()
		if s.toEnd {
			s.list.Grid.SetCursor(s.list.Len() - 1)
		}
		if msg.err != nil {
			return s, common.Report(msg.err, false, s.id)
		}
		if st.Stopped {
			s.stopped = true
			return s, notice(s.stopNotice())
		}
		if s.toEnd {
			return s, nil // on the last match read: ↓ reads on
		}
		return s, s.more()
	case itemReadMsg:
		if !s.get.Done(msg.req) {
			return s, nil
		}
		it, cmd := msg.readItem(s.c, s.info, s.id)
		if it == nil {
			return s, cmd
		}
		return s, open(it)
	case tea.KeyPressMsg:
		return s, s.key(msg)
	}
	return s, nil
}

func (s *Search) key(msg tea.KeyPressMsg) tea.Cmd {
	k := s.c.Keys
	if s.filter.editing() {
		res, cmd := s.filter.key(msg, k, s.stats.loaded())
		switch {
		case res.done && res.filter == nil: // the bar stays open: what is typed next is the filter
			return tea.Batch(s.filter.open(nil), notice("A search of the whole "+s.what()+" needs a filter: type one (status = \"FAILED\"), or esc"))
		case res.done && s.refused != "": // it matches no item: the bar stays open, nothing read
			return tea.Batch(s.filter.input.Focus(), notice("Nothing read: "+s.refused))
		case res.done:
			return s.start(res.filter)
		case !s.filter.editing() && !s.begun:
			return back // esc before any search: nothing to show
		}
		s.retype()
		s.layout()
		return cmd
	}
	s.toEnd = false // G again sets it
	switch {
	case key.Matches(msg, k.Bottom) && s.begun && !s.fromHeld && (s.list.More() || s.stopped || s.list.Fail.Stopped()):
		s.list.Key(msg)
		s.toEnd = true
		return notice(s.lastNotice())
	case key.Matches(msg, k.Filter) && s.plan == nil:
		cmd := s.filter.open(s.node)
		s.retype()
		s.layout()
		return cmd
	case key.Matches(msg, k.Open):
		if it, ok := s.list.Selected(); ok {
			return s.openItem(it)
		}
	case key.Matches(msg, k.Refresh) && s.list.Req.InFlight():
		// r r typed to read on twice: the second had started the search
		// again from its start, the matches and the RCU spent lost.
		return notice("Reading: r acts once this read answers; esc stops it")
	case key.Matches(msg, k.Refresh) && s.stopped:
		s.stopped = false
		s.state = s.state.Extend(s.readOnRCU())
		return s.read()
	case key.Matches(msg, k.Refresh) && s.list.Fail.Stopped():
		return s.read() // the segments that failed, from where they stopped
	case key.Matches(msg, k.Refresh) && s.plan != nil:
		return s.startRequest(s.prepared)
	case key.Matches(msg, k.Refresh) && s.node != nil:
		s.held = nil // r reads the table, not the rows held
		return s.start(s.node)
	case key.Matches(msg, k.Back) && s.get.InFlight():
		s.get.Stop()
	default:
		switch s.list.Key(msg) {
		case list.Moved:
			return s.more()
		case list.Ignored:
			if key.Matches(msg, k.Back) {
				return back
			}
		}
	}
	return nil
}

// openItem opens a match: read whole from the base table when the index
// searched, or the statement's SELECT, holds only part of it; a part
// without the table's key opens nothing, and says why (it opened as the
// item, its size that of the part, or failed with the server's word on
// a key missing).
func (s *Search) openItem(it dynamo.Item) tea.Cmd {
	_, partial := partialProjection(s.info, s.index)
	if s.plan != nil && len(s.plan.Project) > 0 {
		partial = true
	}
	if !partial {
		return open(NewItem(s.c, s.info, it))
	}
	var missing []string
	for n := range baseKey(s.info, it) {
		if it[n] == nil {
			missing = append(missing, common.Sanitize(n))
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return notice("No item to open: the SELECT leaves out the table's key (" + strings.Join(missing, ", ") + "); SELECT * or name the key to open items")
	}
	ctx, req := s.get.Start(s.c)
	return getItem(ctx, s.c.Client, s.id, req, s.info.Name, baseKey(s.info, it))
}

// refresh sets the columns: the keys, then the attributes most matches
// hold.
func (s *Search) refresh() {
	var cols []components.Column
	for _, k := range s.keys {
		cols = append(cols, components.Column{Title: common.Sanitize(k), Keep: true})
	}
	s.attrs = s.stats.columns(s.c, s.info.Name, maxColumns)
	for _, a := range s.attrs {
		cols = append(cols, components.Column{Title: common.Sanitize(a)})
	}
	s.list.Grid.SetColumns(cols)
	s.list.Add() // the rows drawn again in them
	s.layout()
}

// cell is a match's value in column col.
func (s *Search) cell(it dynamo.Item, col int) string {
	if col < len(s.keys) {
		return common.Cell(it[s.keys[col]])
	}
	return common.Cell(it[s.attrs[col-len(s.keys)]])
}

func (s *Search) SetSize(w, h int) {
	s.w, s.h = w, h
	s.layout()
}

// layout sizes the list below the filter bar.
func (s *Search) layout() {
	listW, _ := s.listWidth()
	s.list.SetSize(listW-4, s.h-2-len(s.head(listW-4)))
}

func (s *Search) listWidth() (int, bool) {
	if s.c.ShowPreview(s.w) {
		return s.w * 11 / 20, true
	}
	return s.w, false
}

func (s *Search) head(width int) []string {
	return s.filter.lines(s.c.Styles, width, s.node)
}

// name is what is searched: the table, or its index.
func (s *Search) name() string {
	if s.plan != nil {
		return "PartiQL " + common.Sanitize(s.plan.Operation()) + " on " + s.source()
	}
	return s.source()
}

// source is the table, or its index.
func (s *Search) source() string {
	if s.index != "" {
		return common.Sanitize(s.info.Name) + " index " + common.Sanitize(s.index)
	}
	return common.Sanitize(s.info.Name)
}

// count is the title's count of the matches, and how far the search is.
func (s *Search) count(n int, _ bool) string {
	return common.Plural(n, "match", "matches") + " · " + s.progress()
}

// progress says how far the search is, for the title.
func (s *Search) progress() string {
	past := ""
	if o := s.overBudget(); o > 0 {
		past = ", " + common.RCU(o, false) + " past the budget"
	}
	switch {
	case s.stopped && past != "":
		return "stopped " + common.RCU(s.overBudget(), false) + " past the budget: r reads on"
	case s.stopped && s.shortOfBudget() > 0:
		return "stopped " + common.RCU(s.shortOfBudget(), false) + " short of the budget: r reads on"
	case s.stopped:
		return "stopped at the budget: r reads on"
	case s.state.More() && s.list.Req.InFlight():
		return "reading on…" + past // it reads on by itself: nothing to scroll to yet
	case s.state.More():
		return "more: scroll down to read on" + past
	case s.queried() != nil:
		return "all read" + past
	}
	return "whole " + s.what() + " scanned" + past
}

// stopNotice is the status bar's word at the budget: first that it
// stopped, how to go on and what was spent (what a narrow status bar
// keeps, cut after a whole word), then what the list holds is partial.
func (s *Search) stopNotice() string {
	read, rest := s.readWord(), s.rest()
	at := "At the budget"
	if o := s.overBudget(); o > 0 {
		at = "Past the budget by " + common.RCU(o, false)
	} else if short := s.shortOfBudget(); short > 0 {
		at = fmt.Sprintf("Short of the budget by %s, which pays for no item of the largest size read (%s)",
			common.RCU(short, false), common.RCU(s.state.LeastRCU(), false))
	}
	more := common.RCU(s.readOnRCU(), false) + " more"
	if s.readOnRCU() > s.budget() {
		more += ", what one item of the largest size read costs"
	}
	return fmt.Sprintf("%s: r reads on · %s spent · %s in %s %s, %s; r spends up to %s", at,
		common.RCU(s.state.Spent, s.cost.Estimated), common.Plural(s.list.Len(), "match", "matches"),
		common.Plural(s.scanned, "item", "items"), read, rest, more)
}

// lastNotice is what G says where the matches are not all read: the
// row it goes to is the last match read so far, not the table's last,
// and how the search goes on.
func (s *Search) lastNotice() string {
	on := "↓ reads on"
	switch {
	case s.list.Req.InFlight():
		on = "a read in flight adds more below"
	case s.stopped && s.shortOfBudget() > 0:
		on = "short of the budget, r reads on"
	case s.stopped:
		on = "at the budget, r reads on"
	case s.list.Fail.Stopped():
		on = "stopped, r reads on"
	}
	// Short: the status bar at 80 columns keeps it whole.
	return fmt.Sprintf("G: last of %s read, not the %s's: %s", common.Plural(s.list.Len(), "match", "matches"), s.what(), on)
}

// readOnRCU is what r grants after a stop at the budget: the budget, or
// what one item of the largest size read costs where that is more. A
// grant of the budget alone paid for no read after a heavy item (33 RCU
// against 5): the search stopped again at once, and so did every r.
func (s *Search) readOnRCU() float64 {
	return max(s.budget(), s.state.LeastRCU())
}

// rest says what a search that has more to read has not read.
func (s *Search) rest() string {
	if s.queried() != nil {
		return "the rest of the Query not read"
	}
	return "the rest of the " + s.what() + " not read"
}

// readWord is what the request line and the notices call the items read:
// scanned (the whole table or index), or read (by Query).
func (s *Search) readWord() string {
	if s.queried() != nil {
		return "read"
	}
	return "scanned"
}

// what is what a search reads whole: the table, or the index.
func (s *Search) what() string {
	if s.index != "" {
		return "index"
	}
	return "table"
}

// before says, before the first read, what the search reads, what the
// whole of it costs as far as DynamoDB's size figure tells, and where it
// stops.
func (s *Search) before() string {
	if s.refused != "" {
		return "Nothing is read: " + common.Sanitize(s.refused) + "."
	}
	if p := s.typed; p != nil {
		verb, rest := "is", ""
		if len(p.Queries) > 1 {
			verb = "are"
		}
		if p.Filter != nil {
			rest = ", the rest of the filter applied to its items"
		}
		text := fmt.Sprintf("Only %s of %s %s read, by Query%s. Its cost is not known before reading: DynamoDB reports no partition's size. ",
			s.partitions(p), s.source(), verb, rest)
		if s.budget() <= 0 {
			return text + "No budget: it reads on as you scroll down."
		}
		return text + "It stops at the budget (" + common.RCU(s.budget(), false) + ") and asks before reading on."
	}
	text := fmt.Sprintf("Every item of %s is read to find the matches: a Scan in %s, %s. ", s.name(),
		common.Plural(dynamo.SearchSegments(s.info.SizeBytes), "segment", "segments"), wholeCost(s.info, s.index))
	if s.typedHeld != "" {
		text = s.typedHeld + " " + text
	}
	if s.typedWhy != "" {
		// The filter pins the partition key: say why it is no Query.
		text = fmt.Sprintf("Not a Query, though the filter names a partition: %s. ", common.Sanitize(s.typedWhy)) + text
	}
	if s.budget() <= 0 {
		return text + "No budget: it reads on as you scroll down."
	}
	return text + "It stops at the budget (" + common.RCU(s.budget(), false) + ") and asks before reading on."
}

// wholeCost is what reading the whole table (or index) costs, from the
// size DynamoDB last reported for the table: an index's items are no
// larger than its table's, so the table's size bounds it. DynamoDB
// updates the figure about every six hours, and a new table (or dynalite)
// reports 0 B whatever it holds: then the cost is not known. "about", not
// "up to": the search's reads are sized to the screen, and each is billed
// its own bytes rounded up (the demo's Locations, 70.5 RCU, scanned whole
// in 2 reads for 71.0).
func wholeCost(info dynamo.TableInfo, index string) string {
	if info.SizeBytes <= 0 {
		return "its cost not known before reading (DynamoDB reports " + common.Sanitize(info.Name) + " as 0 B; it updates a table's size about every six hours)"
	}
	rcu, size := common.RCU(dynamo.WholeReadRCU(info.SizeBytes), false), common.HumanBytes(info.SizeBytes)
	if index != "" {
		return "at most about " + rcu + " for the whole index (its table's size, " + size + ", as DynamoDB last reported it)"
	}
	return "about " + rcu + " for the whole table (its size, " + size + ", as DynamoDB last reported it)"
}

// wholeShort is wholeCost in the request line's words.
func wholeShort(info dynamo.TableInfo, index string) string {
	switch {
	case info.SizeBytes <= 0:
		return "cost not known (size reported as 0 B)"
	case index != "":
		return "whole index ≤ " + common.RCU(dynamo.WholeReadRCU(info.SizeBytes), false) + " (its table's size)"
	}
	return "whole table ≈ " + common.RCU(dynamo.WholeReadRCU(info.SizeBytes), false)
}

func (s *Search) View() string {
	st := s.c.Styles
	listW, wide := s.listWidth()
	head := s.head(listW - 4)
	what := "Search " + s.name()
	if s.plan != nil {
		what = s.name()
	}
	title := what + " · type a filter"
	if s.begun {
		title = s.list.Title(what)
	}
	n := s.list.Len()
	body := s.list.View()
	switch {
	case s.list.Fail.Stopped():
	case !s.begun && s.plan != nil:
		body = st.Dim.Render("reading…")
	case !s.begun:
		body = st.Dim.Render(common.Wrap(s.before(), max(1, listW-4)))
	case n == 0 && s.list.Whole():
		none := fmt.Sprintf("No item of the %s read matches.", common.Plural(s.scanned, "item", "items"))
		if s.scanned == 0 {
			// Nothing was there to match: said so, not as a filter that
			// matched none of nothing.
			none = s.source() + " holds no items: the Scan read none."
			if s.plan != nil && s.plan.Operation() == "Query" {
				none = "No item is under the statement's key condition: the Query read none."
			}
		}
		if held := s.notHeld(); held != "" {
			none += " " + held
		} else if _, partial := partialProjection(s.info, s.index); partial {
			// Its items hold only what it projects: a filter on anything
			// else matches none of them, whatever the table's items hold.
			none += fmt.Sprintf(" Index %s holds %s: a filter on an attribute it does not hold matches none of its items; the table holds them all (esc, i, then f).",
				common.Sanitize(s.index), projectionWords(s.info, s.index))
		}
		body = st.Dim.Render(common.Wrap(none, max(1, listW-4)))
	case n == 0 && s.stopped:
		none := fmt.Sprintf("No match in the %s %s before the budget: r reads on.", common.Plural(s.scanned, "item", "items"), s.readWord())
		if held := s.notHeld(); held != "" {
			none += " " + held
		}
		body = st.Dim.Render(common.Wrap(none, max(1, listW-4)))
	}
	if len(head) > 0 {
		body = strings.Join(head, "\n") + "\n" + body
	}
	frame := common.Frame(st, title, body, listW, s.h)
	if !wide {
		return frame
	}
	preview := ""
	if it, ok := s.list.Selected(); ok {
		preview = renderJSON(st, it, false, s.w-listW-4)
	}
	return joinH(frame, common.Frame(st, "Item", preview, s.w-listW, s.h))
}

// notHeld says which attributes the filter names that the index searched
// does not project ("" for none, or the table): no item of the index has
// them, so reading on finds no match through them, as scan says on
// stderr. The stopped search had said only "r reads on".
func (s *Search) notHeld() string { return s.notHeldBy(s.node) }

// notHeldBy is notHeld of filter n.
func (s *Search) notHeldBy(n domain.FilterNode) string {
	if s.index == "" || n == nil {
		return ""
	}
	said := s.info.NotHeldSaid(s.index, domain.FilterPaths(n))
	if said == "" {
		return ""
	}
	return common.Sanitize(said + "; the table holds every attribute (esc, i, then f).")
}

// whyScan is why the filter behind the request line (before the first
// search, the one typed) is a Scan though it pins the partition key.
func (s *Search) whyScan() string {
	if !s.begun {
		return s.typedWhy
	}
	return s.scanWhy
}

// noneSaid says, after " · ", the OR branches of the filter behind the
// request line that match no item, left out of what is read ("": none).
func (s *Search) noneSaid() string {
	none := s.scanNone
	if !s.begun {
		none = s.typedNone
	}
	if none == "" {
		return ""
	}
	return " · " + common.Sanitize(none)
}

// Request is the Scan or the Queries behind the list (before the first
// search, what enter reads), what it found and what it cost.
func (s *Search) Request() string {
	var b strings.Builder
	switch {
	case s.fromHeld:
		fmt.Fprintf(&b, "%s: the %s the entity types were read from, filter %s applied here · matched %s · no request (r reads the %s)",
			common.Sanitize(s.info.Name), common.Plural(len(s.held), "item", "items"), common.Guard(domain.FormatFilter(s.node)), common.Thousands(s.list.Len()), s.what())
		return b.String()
	case s.plan == nil && !s.begun && s.refused != "": // what enter reads: nothing
		return "Nothing read: " + common.Sanitize(s.refused)
	case s.plan != nil:
		b.WriteString(planText(*s.plan, s.info, s.prepared, !s.begun || s.pages == 0))
	case !s.begun && s.typed != nil: // what enter reads
		b.WriteString(planText(*s.typed, s.info, dynamo.SearchRequest{}, false) + s.noneSaid() + " · " + partitionCost)
		return b.String()
	case s.pinned != nil:
		b.WriteString(planText(*s.pinned, s.info, s.state.Request, false) + s.noneSaid())
		if s.pages == 0 {
			b.WriteString(" · " + partitionCost)
			return b.String()
		}
	default:
		b.WriteString("Scan " + common.Sanitize(s.info.Name))
		if s.index != "" {
			b.WriteString("  IndexName: " + common.Sanitize(s.index))
		}
		switch {
		case s.node != nil && s.state.Request.FilteredHere(): // no FilterExpression is sent: say what is
			b.WriteString("  filter " + common.Guard(domain.FormatFilter(s.node)) + " · " + filteredHere)
		case s.node != nil:
			b.WriteString("  FilterExpression: " + common.Guard(domain.FormatFilter(s.node)))
		}
		if n := dynamo.SearchSegments(s.info.SizeBytes); n > 1 {
			fmt.Fprintf(&b, "  TotalSegments: %d", n)
		}
		if why := s.whyScan(); why != "" {
			b.WriteString(" · a Scan, not a Query: " + common.Sanitize(why))
		}
		b.WriteString(s.noneSaid())
	}
	if (!s.begun || s.pages == 0) && s.plan == nil {
		b.WriteString(" · " + wholeShort(s.info, s.index))
		if s.earlier != "" && !s.begun {
			b.WriteString(" · " + s.earlier)
		}
		return b.String()
	}
	if !s.begun || s.pages == 0 {
		return b.String()
	}
	read := s.readWord()
	fmt.Fprintf(&b, " · %s %s · matched %s · %s · %s", read, common.Thousands(s.scanned), common.Thousands(s.list.Len()),
		common.Plural(s.cost.Requests, "request", "requests"), common.BilledRCU(s.cost))
	if s.state.Request.MaxRCU > 0 {
		fmt.Fprintf(&b, " · budget %s", common.RCU(s.state.Request.MaxRCU, false))
	}
	if o := s.overBudget(); o > 0 {
		fmt.Fprintf(&b, ", %s past it", common.RCU(o, false))
	}
	return b.String()
}

// shortOfBudget is what a search stopped with left of its budget, where
// that is more than half a read unit (0: none): what is left pays for no
// item of the largest size read. "stopped at the budget" beside 20.5 RCU
// of a 30 RCU budget read as if it were spent.
func (s *Search) shortOfBudget() float64 {
	if m := s.state.Request.MaxRCU; s.stopped && m > 0 && m-s.state.Spent > 0.5 {
		return m - s.state.Spent
	}
	return 0
}

// overBudget is how far the reads went past the budget (0: within it): a
// read sized by the items before it can meet larger ones, and is billed
// whole. "Stopped at the budget" beside 127.5 RCU of 20 was not true.
func (s *Search) overBudget() float64 {
	if m := s.state.Request.MaxRCU; m > 0 && s.state.Spent > m {
		return s.state.Spent - m
	}
	return 0
}

func (s *Search) Shows() (table, index string) { return s.info.Name, s.index }

// OpenedOver files the search under the page it was opened from: a
// type of E's (Shop › entities › search), a statement's prompt
// (Locations › PartiQL › results), a partitions list.
func (s *Search) OpenedOver(below common.Page) { s.via = below.Crumbs() }

// Crumbs go on from the page the search was opened from; a statement's
// results are its results, not its prompt (both said Locations ›
// PartiQL).
func (s *Search) Crumbs() []string {
	last := "search"
	if s.plan != nil {
		last = "results"
	}
	if s.via != nil {
		return append(slices.Clone(s.via), last)
	}
	crumbs := []string{s.info.Name}
	if s.index != "" {
		crumbs = append(crumbs, "index "+s.index)
	}
	if s.plan != nil {
		crumbs = append(crumbs, "PartiQL")
	}
	return append(crumbs, last)
}

func (s *Search) ID() int         { return s.id }
func (s *Search) Mode() string    { return "" }
func (s *Search) Loading() bool   { return s.list.Req.InFlight() || s.get.InFlight() }
func (s *Search) Capturing() bool { return s.filter.editing() }

// Typed is what the filter bar holds, and whether it is open.
func (s *Search) Typed() (string, bool) { return s.filter.input.Value(), s.filter.editing() }

// Paste puts pasted text in the filter bar while it is open.
func (s *Search) Paste(text string) tea.Cmd {
	if !s.filter.editing() {
		return nil
	}
	cmd := s.filter.paste(text)
	s.retype()
	return cmd
}

func (s *Search) ShortHelp() []key.Binding {
	k := s.c.Keys
	if s.filter.editing() {
		return []key.Binding{k.Submit, k.Cancel}
	}
	rows := s.list.Len() > 0
	if s.plan != nil {
		return onRows(k, rows, []key.Binding{k.Up, k.Down, k.Open, k.Search, s.againKey(), k.Copy, k.Export, k.Back, k.Help, k.Quit})
	}
	return onRows(k, rows, []key.Binding{k.Up, k.Down, k.Open, k.Search, k.Filter, s.againKey(), k.Copy, k.Back, k.Help, k.Quit})
}

func (s *Search) FullHelp() [][]key.Binding {
	k := s.c.Keys
	rows, again := s.list.Len() > 0, s.againKey()
	preview := common.On(k.Preview, s.w >= common.PreviewMin)
	if s.plan != nil {
		return onRowsFull(k, rows, [][]key.Binding{k.Moves(), {k.Open, k.Search, k.NextMatch, k.PrevMatch, again, k.Copy, k.Export, preview}, {k.Back, k.Help, k.Quit}})
	}
	return onRowsFull(k, rows, [][]key.Binding{k.Moves(), {k.Open, k.Search, k.NextMatch, k.PrevMatch, k.Filter, again, k.Copy, k.Export, preview}, {k.Back, k.Help, k.Quit}})
}

// AWSCommand is y: the aws command reading what is listed (a Scan with
// the filter, or the Queries of the filter or the statement, one a line).
func (s *Search) AWSCommand() (func(region, endpoint string) string, bool) {
	if dynamo.Masks(s.c.Client, s.info.Name) {
		return nil, false
	}
	if s.plan == nil && s.pinned == nil {
		if s.node == nil {
			return nil, false
		}
		return func(region, endpoint string) string {
			return domain.AWSScanCommand(s.info.Name, s.index, s.node, region, endpoint)
		}, true
	}
	plan := s.plan
	if plan == nil {
		plan = s.pinned
	}
	return func(region, endpoint string) string {
		return domain.AWSPlanCommand(*plan, region, endpoint)
	}, true
}

// DeepLink is the headless command that reads what is listed, for ?:
// scan through the filter, which plans it as f does (dynamo.FilterSearch:
// by Query where the filter pins the partition key, else the Scan), or
// partiql with a statement. Nothing before a filter is given, nor for a
// statement on a masked table: it is kept as typed, real values and all
// (a filter is kept in stand-ins).
func (s *Search) DeepLink() []string {
	switch {
	case s.plan != nil && dynamo.Masks(s.c.Client, s.info.Name):
		return nil
	case s.plan != nil:
		return append([]string{"partiql", s.text}, s.budgetFlag()...)
	case s.node == nil:
		return nil
	}
	args := []string{"scan", "--table", s.info.Name}
	if s.index != "" {
		args = append(args, "--index", s.index)
	}
	return append(append(args, "--filter", domain.FormatFilter(s.node)), s.budgetFlag()...)
}

// budgetFlag is --max-rcu where this search's budget is not the commands'
// default: a search stopped at 20 RCU printed a command that read up to
// 1,000, and one with none a command that stopped at 1,000.
func (s *Search) budgetFlag() []string { return common.MaxRCUFlag(s.budget()) }

// NoCommand says why y copies nothing here.
func (s *Search) NoCommand() string {
	if dynamo.Masks(s.c.Client, s.info.Name) {
		return "No aws command for a search of a masked table: its filter holds the values the mask hides"
	}
	return "No aws command yet: type a filter first (f)"
}

// planText is a statement's plan as the request line and the prompt say
// it: Query on T: KEY · filter F, or Scan T in N segments: its cost ·
// filter F. Once pages are read the line says what they cost, and the
// estimate gives way (cost false), so that the filter keeps its room.
func planText(plan domain.Plan, info dynamo.TableInfo, r dynamo.SearchRequest, cost bool) string {
	on := common.Sanitize(plan.Table)
	if plan.Index != "" {
		on += " index " + common.Sanitize(plan.Index)
	}
	var b strings.Builder
	if plan.Operation() == "Query" {
		b.WriteString("Query on " + on + ": " + common.Guard(plan.KeyCondition()))
		if len(plan.Queries) > 1 {
			fmt.Fprintf(&b, " (%d Queries)", len(plan.Queries))
		}
		if plan.Queries[0].Reverse { // ORDER BY the sort key DESC
			b.WriteString("  (descending)")
		}
	} else {
		fmt.Fprintf(&b, "Scan %s in %s", on, common.Plural(max(r.Segments, 1), "segment", "segments"))
		if cost {
			b.WriteString(": " + planCost(r, plan.Index))
		}
	}
	if plan.Filter != nil {
		b.WriteString(" · filter " + common.Guard(domain.FormatFilter(plan.Filter)))
	}
	if len(plan.Project) > 0 {
		names := make([]string, len(plan.Project))
		for i, p := range plan.Project {
			names[i] = p.String()
		}
		b.WriteString(" · projection " + common.Sanitize(strings.Join(names, ", ")))
	}
	if r.FilteredHere() {
		b.WriteString(" · " + filteredHere)
	}
	if r.Origin == "partiql" && len(plan.NoMatch) > 0 { // a statement's, in its quotes (a filter's: noneLeftOut)
		b.WriteString(" · " + common.Sanitize(plan.SayNoMatch(true, domain.Explorer)))
	}
	return b.String()
}

// planCost is a Scan statement's cost in its plan's words: about the
// whole read's (wholeCost says why not "up to").
func planCost(r dynamo.SearchRequest, index string) string {
	worst, ok := r.WorstCaseRCU()
	if !ok {
		return "cost not known (size reported as 0 B)"
	}
	rcu := common.RCU(worst, false)
	if index != "" {
		return "at most about " + rcu + " (its table's size)"
	}
	return "about " + rcu
}

// partitionCost is what a request line says of a Query's cost before it
// reads: DynamoDB reports a table's size, never a partition's.
const partitionCost = "cost not known before reading (no partition's size is reported)"

// filteredHere is what a request line says of a search under a budget:
// it sends no filter or projection (dynamo.SearchRequest.FilteredHere).
const filteredHere = "applied here, items read whole"

// againKey is r in help: off while a read is in flight, where r only
// says why it waits (offered then, "r search again" promised what r
// would not do).
func (s *Search) againKey() key.Binding {
	return common.On(searchOnKey(s.c.Keys.Refresh, s.stopped || s.list.Fail.Stopped()), !s.list.Req.InFlight())
}

// searchOnKey names what r does: read on past the budget or from where
// esc or a failure stopped the read, or search again.
func searchOnKey(b key.Binding, stopped bool) key.Binding {
	what := "search again"
	if stopped {
		what = "read on"
	}
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, what))
}

// Loaded is the matches found, for e: exporting them reads nothing.
func (s *Search) Loaded() (common.Loaded, bool) {
	if s.list.Req.InFlight() || s.list.Len() == 0 {
		return common.Loaded{}, false
	}
	rows := make([]any, s.list.Len())
	for i, it := range s.list.Rows() {
		rows[i] = dynamo.PlainItem(it)
	}
	kind := "search"
	if s.plan != nil {
		kind = "partiql"
	}
	noun := "items"
	if s.state.More() { // stopped at the budget, or not scrolled to the end
		noun = "items (the matches so far; " + s.rest() + ")"
	}
	return common.Loaded{Rows: dynamo.Rows{Noun: noun, First: s.keys, Rows: rows}, View: []string{s.info.Name, s.index, kind}}, true
}

// Click selects the clicked row (below the frame's border and the bar).
func (s *Search) Click(y int) bool { return s.list.Grid.Click(y - 1 - len(s.head(s.w))) }

// TableSize is the table's size, as DescribeTable gives it.
func (s *Search) TableSize() int64 { return s.info.SizeBytes }

// Rows are the matches found so far.
func (s *Search) Rows() []dynamo.Item { return s.list.Rows() }
