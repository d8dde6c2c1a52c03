package pages

import (
	"context"
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

// childrenFoundMsg carries what the skip-scan found so far; more follow on
// the same channel until done.
type childrenFoundMsg struct {
	page, req int
	children  []dynamo.ShardChild
	self      bool
	delim     string
	noDelim   bool     // the walk found no delimiter repeating (or was asked for none)
	sample    []string // sort keys the walk read, when done
	cost      dynamo.Cost
	done      bool
	err       error
	next      <-chan childrenFoundMsg
	held      *dynamo.HeldKeys // the keys the walk read, when done
}

func (m childrenFoundMsg) PageID() int { return m.page }

// treeRow is a line of the tree: a branch to drill into or an item.
type treeRow struct {
	child  dynamo.ShardChild
	branch bool
	self   bool // the item whose key is the level's prefix itself (PROFILE#)
}

// Tree shows one level of a hierarchical sort key: the distinct next
// segments under a prefix, found by skip-scan without reading the subtree.
type Tree struct {
	c        *common.Common
	id       int
	info     dynamo.TableInfo
	req      dynamo.ChildrenRequest
	shards   []domain.KeyValue // a sharded partition's shards; nil for one
	pattern  string            // the pattern they came from
	levels   []string
	children []dynamo.ShardChild
	self     bool
	sample   []string        // sort keys the walk read: do they hold time, versions?
	counts   map[string]int  // what the count found under each branch so far
	exact    map[string]bool // ... and whether that is all of it
	pass     *dynamo.LevelCount
	cost     dynamo.Cost
	// held are the keys the level's walk read (up to
	// dynamo.HeldKeysBytes): a child it read whole (a dense level's, read
	// in plain stretches) is told from them when entered. told are the
	// keys of the level above that hold this one whole, taken once by
	// Init; fromHeld says the level was listed from them (no request
	// sent). r reads it from the server.
	held      *dynamo.HeldKeys
	told      *dynamo.HeldKeys
	fromHeld  bool
	countCost dynamo.Cost
	// countRun is what the last c spent as billed, which its budget bounds
	// but for items heavier than any read before them (the reads are
	// sized by the heaviest read).
	countRun float64
	// Facts about the whole level, taken as reads arrive (refresh), never
	// on each frame.
	rowsTitle   string // "53 prefixes · 1 item"
	itemsHead   string // the Items column's heading
	branches    int    // the level's prefixes
	toCount     int    // ... whose count is not exact yet
	countBudget float64
	// list is the level's rows as the walk finds its children (each
	// snapshot all it found): reading…, the count, why the walk stopped
	// (r goes on from there).
	list    list.Paged[treeRow]
	get     list.Request // the GetItem of an item enter opens
	count   list.Request
	picker  *picker // the index or delimiter picker, while open
	picking string  // which: "index" or "delimiter"
	w, h    int
}

// TreeOptions are the drill-down's settings: delimiter ("" detects,
// domain.NoDelimiter splits nothing) and level names.
type TreeOptions struct {
	Delim  string
	Levels []string
	Index  string // drill a GSI or LSI instead of the base table
	// CountBudget is this table's count budget (0: the session's).
	CountBudget float64
}

// NewTree returns one level of the hierarchy under prefix.
func NewTree(c *common.Common, info dynamo.TableInfo, pk domain.KeyValue, prefix string, opts TreeOptions) *Tree {
	t := &Tree{c: c, id: c.NextID(), info: info, levels: opts.Levels, counts: map[string]int{}, exact: map[string]bool{}}
	t.list = list.NewPaged(c, list.Words{One: "child", Many: "children", Count: t.countTitle,
		Reading: "the level's children are", More: "more children still being found",
		Loaded: func() int { return len(t.children) }}, nil, t.cell)
	t.req = dynamo.ChildrenRequest{Table: info.Name, Key: info.Key, PK: pk, Prefix: prefix, Delim: opts.Delim, HoldKeys: dynamo.HeldKeysBytes}
	if info.ItemCount > 0 {
		// The first read sized as children sizes it: a dense level in
		// stretches from the second round trip, a small leaf one Query.
		t.req.ItemBytes, t.req.TableItems = info.SizeBytes/info.ItemCount, info.ItemCount
	}
	if opts.Delim == domain.NoDelimiter {
		t.req.Delim, t.req.NoDelim = "", true
	}
	t.countBudget = opts.CountBudget
	t.useIndex(opts.Index)
	t.refresh()
	return t
}

// useIndex points the walk at an index (or the base table for ""),
// keeping the partition value: only indexes keyed by the same attribute
// are offered.
func (t *Tree) useIndex(index string) {
	key, err := t.info.KeyFor(index)
	if err != nil || key.SK == nil {
		index, key = "", t.info.Key
	}
	t.req.Index, t.req.Key, t.req.TableKeys = index, key, nil
	if index != "" {
		t.req.TableKeys = &t.info.Key
	}
}

// delimKey names the table or index the level's delimiter belongs to.
func (t *Tree) delimKey() string {
	if t.req.Index == "" {
		return t.info.Name
	}
	return t.info.Name + "/" + t.req.Index
}

func (t *Tree) budget() float64 {
	if t.countBudget > 0 {
		return t.countBudget
	}
	return t.c.CountBudget
}

func (t *Tree) options() TreeOptions {
	return TreeOptions{Delim: t.delimSetting(), Levels: t.levels, Index: t.req.Index, CountBudget: t.countBudget}
}

// delimSetting is the level's delimiter as a setting: "" while it is to
// be detected, domain.NoDelimiter once the keys are known not to split.
func (t *Tree) delimSetting() string {
	if t.req.NoDelim {
		return domain.NoDelimiter
	}
	return t.req.Delim
}

// delimLabel names the delimiter in the title: "?" while it is to be
// detected.
func (t *Tree) delimLabel() string {
	switch {
	case t.req.NoDelim:
		return "no delimiter"
	case t.req.Delim == "":
		if d := t.foundDelim(); d != "" {
			return "delimiter " + common.Sanitize(d)
		}
		return "delimiter ?"
	}
	return "delimiter " + common.Sanitize(t.req.Delim)
}

// foundDelim is the delimiter the walk cut the children found so far at,
// before its end says it ("" while none is a prefix): "delimiter ?" stood
// over rows already cut at "#" (AK#, AL#…) for as long as a slow walk
// went on, and after it was stopped.
// delimInUse is the delimiter the level is cut at: set, or detected.
func (t *Tree) delimInUse() string {
	if t.req.Delim != "" {
		return t.req.Delim
	}
	return t.foundDelim()
}

func (t *Tree) foundDelim() string {
	for _, c := range t.children {
		lead := t.req.Prefix + c.Name
		if c.HasChildren && len(c.Prefix) > len(lead) && strings.HasPrefix(c.Prefix, lead) {
			return c.Prefix[len(lead):]
		}
	}
	return ""
}

func (t *Tree) setColumns() {
	title := "Segment"
	if depth := len(domain.Segments(t.req.Prefix, t.req.Delim)); depth < len(t.levels) {
		title = t.levels[depth]
	}
	cols := []components.Column{{Title: title, Keep: true}, {Title: "Kind"}, {Title: t.itemsHead, Must: true}}
	if len(t.shards) > 0 {
		cols = append(cols, components.Column{Title: "Shards"})
	}
	t.list.Grid.SetColumns(cols)
}

// countTitle is the title's count of the level's rows: prefixes and
// items, then "finding…" while the walk goes on, or what all means here.
func (t *Tree) countTitle(_ int, more bool) string {
	if more {
		return t.rowsTitle + " · finding…"
	}
	return t.rowsTitle + " · " + t.c.All(t.info.Name)
}

func (t *Tree) Init() tea.Cmd {
	t.children, t.self, t.cost, t.sample, t.held = nil, false, dynamo.Cost{}, nil, nil
	t.counts, t.exact, t.pass, t.countCost, t.countRun = map[string]int{}, map[string]bool{}, nil, dynamo.Cost{}, 0
	t.req.TableDelim = t.c.Delims[t.delimKey()] // as other partitions read since found it
	told := t.told
	t.told, t.fromHeld = nil, told != nil // once: r reads the level from the server
	ctx, req := t.list.Start()
	t.refresh()
	if told != nil {
		return t.tell(told, req)
	}
	return t.streamChildren(ctx, t.req, t.shards, req)
}

// tell lists the level from the keys the level above read (every key
// under this one): no request is sent.
func (t *Tree) tell(held *dynamo.HeldKeys, req int) tea.Cmd {
	res := held.Level(t.req)
	all := make([]dynamo.ShardChild, len(res.Children))
	for i, c := range res.Children {
		all[i] = dynamo.ShardChild{Child: c}
	}
	msg := childrenFoundMsg{page: t.id, req: req, children: all, self: res.SelfItem, delim: res.Delim, sample: res.Sample, done: true, held: res.Held}
	return func() tea.Msg { return msg }
}

// streamChildren is the command that walks r (the walk starts when the
// command runs) and answers with what it finds first.
//
// The walk reads a dense level's rest in plain stretches once its reads
// show children of a few read units, and probes a child at a time where
// they are larger (dynamo/fewtrips.go). Measured with scripts/benchlatency
// at 20 ms a request: 60 airport codes of 80 items, 3 round trips and
// 163 RCU (a full read: 2, 165; probing 13, 38); USA's 53 states, 3 and
// 66.5 RCU (a full read 1, 66.5; probing 13, 34.5); the weighing read
// costs levels of huge children once: 10 of 200 items of 2 KB 9.5 RCU
// (probing 7.5), 25 of 800 items 17 (probing 13).
func (t *Tree) streamChildren(ctx context.Context, r dynamo.ChildrenRequest, shards []domain.KeyValue, req int) tea.Cmd {
	client, page := t.c.Client, t.id
	return common.Stream(64, func(ch chan childrenFoundMsg) {
		runChildren(ctx, client, r, shards, page, req, ch)
	})
}

// resume goes on with an interrupted walk after the children it found,
// keeping them on screen.
func (t *Tree) resume() tea.Cmd {
	r := t.req
	for _, c := range t.children {
		r.Resume = append(r.Resume, c.Child)
	}
	ctx, req := t.list.Next() // counted as found so far, finding on
	t.refresh()
	return t.streamChildren(ctx, r, nil, req)
}

// NewShardedTree drills several shards of one logical partition at once.
func NewShardedTree(c *common.Common, info dynamo.TableInfo, shards []domain.KeyValue, pattern, prefix string, opts TreeOptions) *Tree {
	t := NewTree(c, info, shards[0], prefix, opts)
	t.shards, t.pattern = shards, pattern
	t.req.HoldKeys = 0 // a merged level is entered shard by shard: read again
	t.refresh()
	return t
}

// runChildren runs the skip-scan (of every shard, merged, when sharded)
// and streams snapshots of what it found: children appear as they are
// found, and the last message says done.
func runChildren(ctx context.Context, c dynamo.Client, r dynamo.ChildrenRequest, shards []domain.KeyValue, page, req int, ch chan childrenFoundMsg) {
	var found []dynamo.ShardChild
	index := map[string]int{}
	for _, c := range r.Resume { // a resumed walk shows what it had at once
		index[c.Name] = len(found)
		found = append(found, dynamo.ShardChild{Child: c})
	}
	snapshot := func(child dynamo.ShardChild, cost dynamo.Cost) {
		if i, ok := index[child.Name]; ok {
			found[i] = child
		} else {
			index[child.Name] = len(found)
			found = append(found, child)
		}
		select { // a snapshot; skipped when the UI has not caught up
		case ch <- childrenFoundMsg{page: page, req: req, children: append([]dynamo.ShardChild(nil), found...), cost: cost, next: ch}:
		default:
		}
	}
	all, res, err := dynamo.WalkChildren(ctx, c, r, shards, snapshot)
	ch <- childrenFoundMsg{page: page, req: req, children: all, self: res.SelfItem, delim: res.Delim, noDelim: res.NoDelim, sample: res.Sample, cost: res.Cost, done: true, err: err, next: ch, held: res.Held}
}

func (t *Tree) rows() []treeRow {
	var rows []treeRow
	if t.self && len(t.shards) == 0 {
		// An item keyed by the prefix itself sorts first: a row of its
		// own, which opens it (its key is the prefix plus an empty name).
		rows = append(rows, treeRow{child: dynamo.ShardChild{Child: domain.Child{IsItem: true}}, self: true})
	}
	for _, c := range t.children {
		if c.IsItem {
			rows = append(rows, treeRow{child: c})
		}
		if c.HasChildren {
			rows = append(rows, treeRow{child: c, branch: true})
		}
	}
	return rows
}

// refresh lists the level's rows as the walk and the count left them.
func (t *Tree) refresh() {
	t.facts()
	t.list.Set(t.rows())
}

// facts takes what the title and the Items heading say of the level.
func (t *Tree) facts() {
	t.itemsHead, t.rowsTitle = t.itemsTitle(), t.rowCounts()
	t.branches, t.toCount = 0, 0
	for _, c := range t.children {
		if c.HasChildren {
			t.branches++
			if !t.exact[c.Name] {
				t.toCount++
			}
		}
	}
	t.setColumns() // the Items heading says whether some are not counted
}

// branchDelim is what follows a branch's name in its keys: the level's
// delimiter, or, before the walk's end told it (a walk cancelled early),
// the one the walk cut the child's name at (its Prefix): a cancelled
// level listed ORDER# as "ORDER".
func (t *Tree) branchDelim(c domain.Child) string {
	if t.req.Delim != "" {
		return t.req.Delim
	}
	return strings.TrimPrefix(c.Prefix, t.req.Prefix+c.Name)
}

// cell is a row of the level: a prefix to drill or an item, its kind,
// its count, and the shards that hold it.
func (t *Tree) cell(row treeRow, col int) string {
	st := t.c.Styles
	name := t.keyText(row.child.Name)
	switch {
	case row.self:
		name = t.keyText(t.req.Prefix) + st.Dim.Render(" (the prefix itself)")
	case row.child.Name == "":
		name = st.Dim.Render("(empty)")
	}
	switch col {
	case 0:
		if row.branch {
			return "▸ " + name + st.Dim.Render(common.Sanitize(t.branchDelim(row.child.Child)))
		}
		return "• " + name
	case 1:
		if row.branch {
			return "prefix"
		}
		return "item"
	case 3:
		var names []string
		for _, sh := range row.child.Shards {
			names = append(names, common.KeyCell(sh))
		}
		return strings.Join(names, ", ")
	case 2:
		if !row.branch {
			if t.req.Index != "" {
				// An index's sort keys need not be unique: the row is
				// one key, which any number of the table's items share.
				return "≥1"
			}
			return "1"
		}
		return t.countCell(row.child.Child)
	}
	return ""
}

func (t *Tree) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		return t, t.retry()
	case childrenFoundMsg:
		return t, t.found(msg)
	case countedMsg:
		return t, t.counted(msg)
	case itemReadMsg:
		if !t.get.Done(msg.req) {
			return t, nil
		}
		if msg.err != nil || msg.item == nil {
			return t, common.Report(msg.err, false, t.id)
		}
		return t, open(NewReadItem(t.c, t.info, msg.item)) // the tree sent a GetItem for it
	case tea.KeyPressMsg:
		return t, t.key(msg)
	}
	return t, nil
}

// found takes what the walk found so far, or its end. What a walk
// cancelled by esc still hands over is dropped (its stream read to the
// end): the level stays as it was stopped; only its cost is taken, so
// that the request line says what the walk spent (the probes after the
// last child found, which no snapshot carried), as the status bar does.
func (t *Tree) found(msg childrenFoundMsg) tea.Cmd {
	if msg.req != t.list.Req.ID() {
		return nil
	}
	if !t.list.Req.InFlight() {
		if msg.done {
			if msg.cost.Requests > t.cost.Requests {
				t.cost = msg.cost
			}
			return nil
		}
		return common.Next(msg.next)
	}
	t.children, t.cost = msg.children, msg.cost
	if !msg.done {
		t.facts()
		t.list.Snapshot(msg.req, t.rows())
		return common.Next(msg.next)
	}
	t.self = msg.self
	if msg.err == nil {
		t.held = msg.held
	}
	t.sample = append(t.sample, msg.sample[:min(len(msg.sample), max(0, dynamo.SampleKeys-len(t.sample)))]...)
	t.list.Replace(msg.req, nil, msg.err != nil, msg.err) // the rows follow the delimiter, below
	t.placeSeen(true).remember()                          // for the place's other modes
	if msg.delim != "" && msg.err == nil {
		// The table's (or index's) delimiter, for a partition whose
		// own keys tell none (one key), read without a sample Scan.
		if t.c.Delims == nil {
			t.c.Delims = map[string]string{}
		}
		t.c.Delims[t.delimKey()] = msg.delim
	}
	if t.req.Delim == "" && !t.req.NoDelim && (msg.delim != "" || msg.noDelim) {
		// Detected, as a delimiter or as none: remembered, so a level
		// opened from here or read again is cut the same way.
		t.req.Delim, t.req.NoDelim = msg.delim, msg.noDelim
	}
	t.countHeld()
	t.refresh() // its columns too: the level's name follows the delimiter
	return common.Report(msg.err, false, t.id)
}

// treeKeys are the level's key handlers, asked in turn: the picker while
// open, then stopping and leaving, opening a row, the other modes, the
// level's tools; a key none takes moves the cursor.
var treeKeys = []func(*Tree, tea.KeyPressMsg) (tea.Cmd, bool){
	(*Tree).pickerOpenKey,
	(*Tree).stopKey,
	(*Tree).openKey,
	(*Tree).modeKey,
	(*Tree).toolKey,
}

func (t *Tree) key(msg tea.KeyPressMsg) tea.Cmd {
	for _, h := range treeKeys {
		if cmd, took := h(t, msg); took {
			return cmd
		}
	}
	t.list.Key(msg)
	return nil
}

func (t *Tree) pickerOpenKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if t.picker == nil {
		return nil, false
	}
	return t.pickerKey(msg), true
}

// backKey is esc as the help names it: "cancel" while the level, a count
// or an item is read (stopKey stops it), else back.
func (t *Tree) backKey() key.Binding {
	return list.BackKey(t.c.Keys.Back, &t.list.Req, &t.count, &t.get)
}

// stopKey: esc stops what is being read, or goes back.
func (t *Tree) stopKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := t.c.Keys
	switch {
	case key.Matches(msg, k.Back) && (t.list.Req.InFlight() || t.count.InFlight() || t.get.InFlight()):
		counting := t.count.InFlight()
		if t.list.Cancel() { // the level is cut off where it was
			if !t.canResume() { // r reads from the start, as it says
				t.list.Fail.SetAgain("r reads again")
			}
		}
		t.get.Stop()
		t.count.Stop() // counts cut off stay marked … as partial
		t.refresh()
		if counting {
			t.countStopped()
			return notice("count stopped: c counts on"), true
		}
	case key.Matches(msg, k.Back):
		return back, true
	default:
		return nil, false
	}
	return nil, true
}

// openKey drills into a prefix, or opens an item.
func (t *Tree) openKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	row, ok := t.list.Selected()
	if !key.Matches(msg, t.c.Keys.Open) || !ok {
		return nil, false
	}
	opts := t.options()
	if row.branch && len(t.shards) > 0 {
		return open(NewShardedTree(t.c, t.info, t.shards, t.pattern, row.child.Prefix, opts)), true
	}
	if row.branch {
		next := NewTree(t.c, t.info, t.req.PK, row.child.Prefix, opts)
		next.req.Flat = row.child.Flat // a leaf level by its first keys: one plain read
		if t.exact[row.child.Name] {
			// Counted here (its own item and its subtree): a level that
			// weighs no more than the first read is read in it, one Query.
			next.req.LevelItems = int64(t.counts[row.child.Name])
		}
		if held := t.heldKeys(); held.Whole(row.child.Child) {
			next.told = held // read whole here: told from its keys, no request
		}
		return open(next), true
	}
	if t.req.Index != "" {
		// The index's key is not the table's: list the item (and any
		// under it) from the index, where enter reads it whole.
		return open(NewItemsUnder(t.c, t.info, t.req.PK, t.req.Prefix+row.child.Name, t.req.Index)), true
	}
	r := t.req
	if len(row.child.Shards) > 0 {
		r.PK = row.child.Shards[0] // the first shard that holds it
	}
	ctx, req := t.get.Start(t.c)
	return getItem(ctx, t.c.Client, t.id, req, t.info.Name, dynamo.ChildKey(r, row.child.Child)), true
}

// modeKey opens the level in another mode: items, a filter over them,
// versions, time.
func (t *Tree) modeKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := t.c.Keys
	sharded := len(t.shards) > 0
	switch {
	case sharded && slices.ContainsFunc(t.perShard(), func(b key.Binding) bool { return key.Matches(msg, b) }):
		// Not in the help here (a key shown acts): pressed, it says why.
		return common.Report(dynamo.Errorf("sharded partition", dynamo.KindValidation, "open one shard (/ then its key) for its items and counts",
			"items, counts, filters, times and indexes are per shard"), false, t.id), true
	case key.Matches(msg, k.NextMode):
		return open(NewItemsUnder(t.c, t.info, t.req.PK, t.req.Prefix, t.req.Index)), true
	case key.Matches(msg, k.Filter) && !sharded:
		q, _ := t.Query()
		return filterItems(t.c, t.info, q, ""), true
	case key.Matches(msg, k.Versions) && !sharded:
		return openVersions(t.c, t.info, t.req.PK, t.req.Index), true
	case (key.Matches(msg, k.Range) || key.Matches(msg, k.TimeMode)) && !sharded && t.place().off(ModeTime) != "":
		return refuse(ModeTime, t.place().off(ModeTime)), true
	case (key.Matches(msg, k.Range) || key.Matches(msg, k.TimeMode)) && !sharded:
		return open(NewTime(t.c, t.info, t.req.PK, t.req.Index, t.c.Now)), true
	}
	return nil, false
}

// perShard are the keys that read one partition, which a sharded level
// (several partitions merged) neither shows nor takes.
func (t *Tree) perShard() []key.Binding {
	k := t.c.Keys
	return []key.Binding{k.NextMode, k.Count, k.Filter, k.Range, k.Index}
}

// HelpKeys are the keys the level declines itself, saying why (on a
// sharded level those read per shard; elsewhere c with nothing to count,
// t where no key holds time): never answered as another screen's key.
func (t *Tree) HelpKeys() common.Keys {
	var ks common.Keys
	for _, b := range t.perShard() {
		ks = append(ks, common.More(0, b))
	}
	return ks
}

// acting drops from bs the keys that do not act on this level: on a
// sharded one, those that read one partition.
func (t *Tree) acting(bs []key.Binding) []key.Binding {
	off := t.perShard()
	if len(t.shards) == 0 {
		off = nil
		if t.countOff() != "" {
			off = []key.Binding{t.c.Keys.Count}
		}
		if t.place().off(ModeTime) != "" {
			off = append(off, t.c.Keys.Range) // t says why, as the dimmed tab does; the help does not offer it
		}
	}
	return slices.DeleteFunc(bs, func(b key.Binding) bool {
		return slices.ContainsFunc(off, func(o key.Binding) bool { return slices.Equal(b.Keys(), o.Keys()) })
	})
}

// toolKey: the index and delimiter pickers, counting, reading again.
func (t *Tree) toolKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := t.c.Keys
	switch {
	case key.Matches(msg, k.Index) && len(t.shards) == 0 && len(t.info.Indexes) == 0:
		return notice(noIndexes(t.info)), true
	case key.Matches(msg, k.Index) && len(t.shards) == 0:
		choices, cols := indexChoices(t.info, t.req.Index, t.req.Key.PK.Name)
		t.picker, t.picking = newPicker(t.c, "Read "+common.Sanitize(t.info.Name)+" through", "", cols, choices), "index"
	case key.Matches(msg, k.Count) && len(t.shards) == 0:
		if why := t.countOff(); why != "" {
			return notice(why), true
		}
		return t.countKey(), true
	case key.Matches(msg, k.Entities) && len(t.shards) > 0:
		return common.Report(dynamo.Errorf("sharded partition", dynamo.KindValidation, "open one shard (/ then its key) for its entity types",
			"entity types are per shard"), false, t.id), true
	case key.Matches(msg, k.Entities): // a tree holds keys, not items: the partition is read for them
		return open(NewPartitionEntities(t.c, t.info, t.req.Index, t.req.PK, nil)), true
	case key.Matches(msg, k.Delimiter):
		choices, note := delimiterChoices(t.delimSetting(), t.delimInUse(), t.sampleKeys())
		t.picker, t.picking = newPicker(t.c, "Split the sort keys at", note, []string{"Delimiter", "Keys split", "Sample split"}, choices), "delimiter"
	case key.Matches(msg, k.Refresh) && t.list.Fail.Stopped():
		return t.retry(), true
	case key.Matches(msg, k.Refresh):
		t.count.Stop()
		return t.Init(), true
	default:
		return nil, false
	}
	return nil, true
}

// retry goes on with a walk cut off by an error or esc after the children
// it found, or starts the level again when it found none.
func (t *Tree) retry() tea.Cmd {
	if t.list.Fail.Stopped() && t.canResume() {
		return t.resume()
	}
	return t.Init()
}

// canResume reports whether r after a stop reads on from where the walk
// stopped: it needs the delimiter, and children found before the stop; a
// sharded level, or one whose delimiter was still being found, is walked
// again from its start.
func (t *Tree) canResume() bool {
	return len(t.shards) == 0 && (t.req.Delim != "" || t.req.NoDelim) && len(t.children) > 0
}

// pickerKey handles a key while the index or delimiter picker is open.
func (t *Tree) pickerKey(msg tea.KeyPressMsg) tea.Cmd {
	picked, closed := t.picker.key(msg, t.c.Keys)
	if !closed {
		return nil
	}
	kind := t.picking
	t.picker, t.picking = nil, ""
	if picked < 0 {
		return nil
	}
	if kind == "delimiter" {
		d := domain.NoDelimiter // the row after the delimiters
		if ds := pickerDelimiters(t.delimInUse()); picked < len(ds) {
			d = ds[picked]
		}
		if d == t.delimSetting() {
			return nil
		}
		t.req.Delim, t.req.NoDelim = d, false
		if d == domain.NoDelimiter {
			t.req.Delim, t.req.NoDelim = "", true
		}
		t.setColumns()
		t.count.Stop()
		return t.Init()
	}
	return t.chooseIndex(indexAt(t.info, picked))
}

// chooseIndex reads the partition through another index: in place when
// it is keyed by the same attribute and has a sort key to drill, as items
// when that sort key is a number, and as its partitions otherwise.
func (t *Tree) chooseIndex(name string) tea.Cmd {
	key, err := t.info.KeyFor(name)
	switch {
	case err != nil || name == t.req.Index:
		return nil
	case key.PK.Name == t.req.Key.PK.Name && key.SK != nil && key.SK.Type != domain.TypeN:
		t.useIndex(name)
		t.req.Prefix, t.req.Delim, t.req.NoDelim = "", "", false // another key: start at its top, detect again
		t.setColumns()
		t.count.Stop()
		return t.Init()
	case key.PK.Name == t.req.Key.PK.Name:
		return open(NewItemsUnder(t.c, t.info, t.req.PK, "", name))
	}
	return open(NewIndexPartitions(t.c, t.info, name, TreeOptions{Levels: t.levels, CountBudget: t.countBudget}))
}

// sampleKeys are sort keys already loaded at this level, for the
// delimiter picker's preview: the prefix and each child's name, a prefix
// by a key the walk read under it where it has one ("$board#…" said no
// other delimiter splits keys that hold "_": $board#task_1#…).
func (t *Tree) sampleKeys() []string {
	var keys []string
	for _, c := range t.children {
		if len(keys) == 20 {
			break
		}
		k := t.req.Prefix + c.Name
		if c.HasChildren {
			under := k + t.req.Delim
			k = under + "…"
			for _, s := range t.sample {
				if strings.HasPrefix(s, under) {
					k = s
					break
				}
			}
		}
		keys = append(keys, k)
	}
	return keys
}

func (t *Tree) SetSize(w, h int) {
	t.w, t.h = w, h
	rows := t.h - 2
	t.list.SetSize(t.w-4, rows) // less the failure's line below the children found before

	if t.picker != nil {
		t.picker.layout(t.w, t.h)
	}
}

func (t *Tree) View() string {
	st := t.c.Styles
	title := t.list.Title(t.where()) + " · " + t.delimLabel()
	if t.req.Index != "" {
		title += " · index " + common.Sanitize(t.req.Index)
	}
	body := t.list.View() // a failed read that found nothing says nothing of what is there
	if t.list.Whole() && len(t.children) == 0 {
		switch {
		case t.req.Prefix == "" && !t.self && len(t.shards) == 0:
			// No item has this partition key: it does not exist, which is
			// not an empty partition (DynamoDB has none).
			title = t.where() + " · does not exist"
			body = st.Dim.Render("No item has the partition key " + t.pkText() + ": there is no such partition.\nesc goes back; / on the partitions goes to another.")
		case t.self:
			// The item keyed by the prefix is the level's one row, which
			// enter opens: the row stays on screen.
		default:
			body = st.Dim.Render("Nothing under this prefix.")
		}
	}
	if t.picker != nil {
		return t.picker.view(st, t.w, t.h)
	}
	return common.Frame(st, title, body, t.w, t.h)
}

// rowCounts are the level's rows as the title counts them, named by what
// they count, so that they add up to the rows listed: a name that is both
// an item and a prefix (NY beside NY#) is two rows, one of each ("53
// prefixes · 1 item" over 54 rows). The item keyed by the prefix itself
// (PROFILE#) is a row, so it counts as an item.
func (t *Tree) rowCounts() string {
	prefixes, items := 0, 0
	if t.self && len(t.shards) == 0 {
		items++
	}
	for _, c := range t.children {
		if c.HasChildren {
			prefixes++
		}
		if c.IsItem {
			items++
		}
	}
	one, many := "item", "items"
	if t.req.Index != "" {
		one, many = "item key", "item keys" // shared, it may be several items
	}
	switch {
	case prefixes > 0 && items > 0:
		return common.Plural(prefixes, "prefix", "prefixes") + " · " + common.Plural(items, one, many)
	case items > 0:
		return common.Plural(items, one, many)
	}
	return common.Plural(prefixes, "prefix", "prefixes")
}

func (t *Tree) where() string {
	if t.req.Prefix == "" {
		return t.pkText()
	}
	return t.keyText(t.req.Prefix)
}

// keyText shows a sort key, a prefix or a segment: a binary key's bytes
// as b64:…, the one form binary keys take on screen.
func (t *Tree) keyText(s string) string {
	return common.Sanitize(domain.KeyText(t.req.Key.SK.Type, s))
}

func (t *Tree) pkText() string {
	if len(t.shards) > 0 {
		return common.Sanitize(t.pattern)
	}
	return common.KeyCell(t.req.PK)
}

func (t *Tree) Shows() (table, index string) { return t.info.Name, t.req.Index }

func (t *Tree) Crumbs() []string {
	crumbs := partitionSteps(t.info.Name, t.req.Index, t.pkText())
	segs := domain.Segments(t.req.Prefix, t.req.Delim)
	if t.req.NoDelim && t.req.Prefix != "" {
		segs = []string{t.req.Prefix} // not split: the prefix is one step
	}
	for i, s := range segs {
		s = domain.KeyText(t.req.Key.SK.Type, s)
		if s == "" {
			s = "(empty)" // as its row is labelled (#PROFILE's segment before #): a blank step said nothing
		}
		if i < len(t.levels) {
			s = t.levels[i] + " " + s
		}
		crumbs = append(crumbs, s)
	}
	return crumbs
}

func (t *Tree) ID() int      { return t.id }
func (t *Tree) Mode() string { return "Tree" }
func (t *Tree) Loading() bool {
	return t.list.Req.InFlight() || t.count.InFlight() || t.get.InFlight()
}
func (t *Tree) Capturing() bool { return false }

// Query is the level's query: the whole subtree under the prefix (the
// skip-scan reads parts of it).
func (t *Tree) Query() (domain.KeyQuery, bool) {
	q := domain.KeyQuery{Table: t.info.Name, Index: t.req.Index, PKName: t.req.Key.PK.Name, PK: t.req.PK, SKName: t.req.Key.SK.Name}
	if t.req.Prefix != "" {
		a := domain.S(t.req.Prefix)
		if t.req.Key.SK.Type == domain.TypeB {
			a = domain.B([]byte(t.req.Prefix))
		}
		q.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: a}
	}
	return q, len(t.shards) == 0
}

func (t *Tree) Request() string {
	q, _ := t.Query()
	walk := "skip-scan "
	if t.req.NoDelim {
		walk = "no delimiter · " // every key listed: nothing to skip past
	}
	s := fmt.Sprintf("%s · %s%d req · %s", q.Describe(), walk, t.cost.Requests, common.BilledRCU(t.cost))
	if t.list.Req.InFlight() && t.cost.Requests == 0 {
		// Sent, not answered: "0 req · 0.0 RCU" would say nothing was read.
		s = q.Describe() + " · " + walk + "reading…"
	}
	if t.fromHeld {
		s = q.Describe() + " · no request sent (from the level's read)"
	}
	if len(t.shards) > 0 {
		s = fmt.Sprintf("%d shards of %s, each: %s", len(t.shards), common.Sanitize(t.pattern), s)
	}
	if t.countCost.Requests > 0 {
		s += fmt.Sprintf(" · counts %d req · %s", t.countCost.Requests, common.BilledRCU(t.countCost))
		if past := t.countPast(); past > 0 {
			s += fmt.Sprintf(" (the last c %s past its budget: an item heavier than any before it)", common.RCU(past, false))
		}
	}
	return s
}

func (t *Tree) ShortHelp() []key.Binding {
	k := t.c.Keys
	if t.picker != nil {
		return t.picker.help(k)
	}
	bs := withAgain([]key.Binding{k.Up, k.Down, k.Open, t.backKey(), k.Search, k.NextMode, k.Count}, t.list.AgainKey(1, k.Refresh), k.Help, k.Quit)
	return onRows(k, t.list.Len() > 0, t.acting(stepHelp(k, t.Modes(), t.Mode(), bs)))
}

func (t *Tree) FullHelp() [][]key.Binding {
	if t.picker != nil {
		return t.picker.fullHelp(t.c.Keys)
	}
	k := t.c.Keys
	return onRowsFull(k, t.list.Len() > 0, [][]key.Binding{k.Moves(), {k.Open, t.backKey(), k.Search, k.NextMatch, k.PrevMatch}, modeHelp(k, t.Modes(), t.Mode()),
		t.acting([]key.Binding{k.Filter, k.Range, k.Count, k.Delimiter, indexKey(k.Index, t.info), k.Entities, k.Refresh, k.Copy, k.CopyKey, k.Export}), {k.Help, k.Quit}})
}

// TreeOptionsFor are a table's drill-down settings from the configuration.
func TreeOptionsFor(c *common.Common, table string) TreeOptions {
	ts := c.Tables[table]
	opts := TreeOptions{Delim: ts.Delimiter, CountBudget: ts.CountBudget}
	if ts.Levels != "" {
		d := ts.Delimiter
		if d == "" {
			d, _ = domain.TemplateDelimiter(ts.Levels)
		}
		opts.Levels = domain.LevelNames(ts.Levels, d)
	}
	return opts
}

// DeepLink reopens this level from the command line.
func (t *Tree) DeepLink() []string {
	pk := keyArg(t.req.PK)
	if len(t.shards) > 0 {
		pk = t.pattern
	}
	args := []string{"--table", t.info.Name, "--pk", pk}
	if t.req.Index != "" {
		args = append(args, "--index", t.req.Index)
	}
	if t.req.Prefix != "" {
		args = append(args, "--prefix", domain.KeyText(t.req.Key.SK.Type, t.req.Prefix))
	}
	if d := t.delimSetting(); d != "" {
		args = append(args, "--delimiter", d)
	}
	if len(t.levels) > 0 && t.req.Delim != "" && !t.req.NoDelim {
		// The level names head the column and the crumbs (STATE NY ›
		// CITY …): without them the command opened "Segment".
		args = append(args, "--levels", strings.Join(t.levels, t.req.Delim))
	}
	return args
}

// Loaded is the level's children as listed, with the counts that are
// finished (not those marked … as partial); exporting them reads nothing.
func (t *Tree) Loaded() (common.Loaded, bool) {
	pk := keyArg(t.req.PK)
	if len(t.shards) > 0 {
		pk = t.pattern
	}
	view := []string{t.info.Name, pk}
	if t.req.Prefix != "" {
		view = append(view, strings.TrimSuffix(t.req.Prefix, t.req.Delim))
	}
	// An item row is one item on the base table, as its Items cell says
	// and children --count writes; an index's key may be shared ("≥1"),
	// and a shard pattern's name may stand in several shards.
	items := map[string]bool{}
	for _, c := range t.children {
		if c.IsItem && !c.HasChildren && t.req.Index == "" && len(t.shards) == 0 {
			items[c.Name] = true
		}
	}
	rows := dynamo.ChildRows(t.children, t.req.Key.SK.Type, func(name string) (int, bool) {
		if n, ok := t.counts[name]; ok && t.exact[name] {
			return n, true
		}
		return 1, items[name]
	})
	return common.Loaded{Rows: rows, View: append(view, "children")}, t.list.Settled()
}

// Click selects the clicked row, or asks to open it when already selected
// (the list's frame border is the body's first line).
func (t *Tree) Click(y int) bool { return t.list.Grid.Click(y - 1) }

// TableSize is the table's size in bytes, as DescribeTable gives it.
func (t *Tree) TableSize() int64 { return t.info.SizeBytes }
