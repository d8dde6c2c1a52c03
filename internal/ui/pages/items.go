package pages

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// maxColumns bounds the grid's attribute columns; the item view shows all.
const maxColumns = 8

// Items lists a partition in sort-key order, one Query page at a time: the
// first page fills the screen, the next is fetched before the cursor gets
// to the end of what is loaded. f filters it (DynamoDB's condition syntax,
// sent as a FilterExpression) and C picks its columns.
type Items struct {
	c     *common.Common
	id    int
	info  dynamo.TableInfo
	pg    list.Pager
	stats attrStats
	attrs []string // grid attribute columns
	note  string   // said in the title, e.g. why there is no tree
	// escBack: the filter bar was opened first from another view (f on
	// Tree or Versions) and nothing is read yet: esc goes back there,
	// not "lists everything".
	escBack bool
	filter  filterBar
	picker  *columnPicker // open while choosing columns
	sort    list.Sort     // s/S: the loaded rows' order on screen
	owed    list.Owed     // moves typed past the rows read, made as they come
	get     list.Request  // reading an item whole from the base table (on an index)
	grid    components.Grid
	w, h    int
	// exported is how many items e read of the query listed, read to its
	// end (0: none): the title says it beside the rows it holds, which
	// are fewer ("31 items loaded" after "exported 61 items"). gen counts
	// the queries listed, so that an export of one before says nothing.
	exported, gen int
}

// NewItems returns the items page of one partition.
func NewItems(c *common.Common, info dynamo.TableInfo, pk domain.KeyValue) *Items {
	q := domain.KeyQuery{Table: info.Name, PKName: info.Key.PK.Name, PK: pk}
	keys := []string{info.Key.PK.Name}
	if info.Key.SK != nil {
		q.SKName = info.Key.SK.Name
		keys = append(keys, info.Key.SK.Name)
	}
	id := c.NextID()
	return &Items{c: c, id: id, info: info, pg: list.NewPager(c, id, q), stats: newAttrStats(keys...), filter: newFilterBar(), grid: components.NewGrid(c)}
}

// NewItemsUnder returns the items whose sort key begins with prefix, in
// order: the Items mode of a drill-down level.
func NewItemsUnder(c *common.Common, info dynamo.TableInfo, pk domain.KeyValue, prefix, index string) *Items {
	p := NewItems(c, info, pk)
	q := &p.pg.Query
	if key, err := info.KeyFor(index); err == nil && index != "" {
		q.Index, q.PKName = index, key.PK.Name
		q.SKName = ""
		if key.SK != nil {
			q.SKName = key.SK.Name
		}
		p.pg.TableKeys = &info.Key
		p.stats.keys[key.PK.Name] = true
		if key.SK != nil {
			p.stats.keys[key.SK.Name] = true
		}
	}
	if prefix != "" {
		a := domain.S(prefix)
		if key, err := info.KeyFor(index); err == nil && key.SK != nil && key.SK.Type == domain.TypeB {
			a = domain.B([]byte(prefix)) // a binary key's prefix is bytes
		}
		q.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: a}
	}
	return p
}

// Filter applies a filter from the start (a deep link's --filter).
func (p *Items) Filter(n domain.FilterNode) {
	p.pg.Query.Filter = dynamo.TypedFilter(p.c.Client, p.pg.Query.Table, n)
}

func (p *Items) Init() tea.Cmd {
	if p.filter.editing() {
		return nil // the filter comes first
	}
	return p.pg.Next()
}

func (p *Items) reset(q domain.KeyQuery) tea.Cmd {
	p.gen++
	p.exported = 0
	p.grid.SetCursor(0)
	p.owed.Forget()
	p.stats.reset()
	cmd := p.pg.Restart(q)
	p.refresh()
	return cmd
}

func (p *Items) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		return p, p.pg.Retry()
	case list.PageLoadedMsg:
		// Rows read from the end go in above the cursor when it is past
		// the gap: it keeps its place counted from the end.
		fromEnd := -1
		if p.pg.PastGap(p.grid.Cursor()) {
			fromEnd = p.pg.RowCount() - 1 - p.grid.Cursor()
		}
		ok, cmd := p.pg.Loaded(msg)
		if !ok {
			if p.pg.Fail.Stopped() {
				p.owed.Forget() // r reads on; the keys typed were for then
			}
			return p, cmd
		}
		if !p.pg.Reread { // a page read again was counted when first read
			p.stats.add(msg.Result.Items)
		}
		p.placeSeen(true).remember() // for the place's other modes
		p.refresh()
		if fromEnd >= 0 {
			p.grid.SetCursor(p.pg.RowCount() - 1 - fromEnd)
		}
		p.owed.Pay(&p.pg, &p.grid)
		return p, tea.Batch(cmd, p.prefetch(false))
	case list.ReadOnMsg:
		if p.pg.ReadOn(msg) {
			return p, p.prefetch(false)
		}
		return p, nil
	case itemReadMsg:
		if !p.get.Done(msg.req) {
			return p, nil
		}
		it, cmd := msg.readItem(p.c, p.info, p.id)
		if it == nil {
			return p, cmd
		}
		return p, open(it)
	case tea.KeyPressMsg:
		return p, p.key(msg)
	}
	return p, nil
}

// openItem opens the selected item: read whole from the base table by its
// key (one GetItem) when the index it was listed from holds only part of it.
func (p *Items) openItem(it dynamo.Item) tea.Cmd {
	if _, partial := partialProjection(p.info, p.pg.Query.Index); !partial {
		return open(NewItem(p.c, p.info, it))
	}
	ctx, req := p.get.Start(p.c)
	return getItem(ctx, p.c.Client, p.id, req, p.info.Name, baseKey(p.info, it))
}

// baseKey is an item's key in the base table.
func baseKey(info dynamo.TableInfo, it dynamo.Item) dynamo.Item {
	k := dynamo.Item{info.Key.PK.Name: it[info.Key.PK.Name]}
	if info.Key.SK != nil {
		k[info.Key.SK.Name] = it[info.Key.SK.Name]
	}
	return k
}

// itemsKeys are the list's key handlers, asked in turn: the filter bar
// and the column picker while open, opening a row or the end, the other
// modes, the list's tools, stopping and leaving; a key none takes moves
// the cursor.
var itemsKeys = []func(*Items, tea.KeyPressMsg) (tea.Cmd, bool){
	(*Items).editKey,
	(*Items).openKey,
	(*Items).modeKey,
	(*Items).toolKey,
	(*Items).stopKey,
}

func (p *Items) key(msg tea.KeyPressMsg) tea.Cmd {
	for _, h := range itemsKeys {
		if cmd, took := h(p, msg); took {
			p.owed.Forget()
			return cmd
		}
	}
	k := p.c.Keys
	from := p.grid.Cursor()
	if p.owed.Move(&p.pg, &p.grid, k, msg, p.sort.Attr != "") {
		if p.sort.Attr == "" {
			p.pg.StopAtGap(&p.grid, from, key.Matches(msg, k.Top, k.Bottom))
		}
		return p.prefetch(true)
	}
	return nil
}

// editKey gives every key to the filter bar or the column picker while
// one is open.
func (p *Items) editKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case p.filter.editing():
		res, cmd := p.filter.key(msg, p.c.Keys, p.stats.loaded())
		if !res.done {
			if !p.filter.editing() && !p.pg.Started {
				return p.pg.Next(), true // esc before the first read: list everything
			}
			return cmd, true
		}
		q := p.pg.Query
		q.Filter = dynamo.TypedFilter(p.c.Client, q.Table, res.filter)
		return p.reset(q), true
	case p.picker != nil:
		return pickColumns(&p.picker, p.c, p.info.Name, msg, p.refresh), true
	}
	return nil, false
}

// openKey: enter opens the row; G reads the end.
func (p *Items) openKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := p.c.Keys
	switch {
	case key.Matches(msg, k.Open):
		if it, ok := p.pg.Row(p.sort.Row(p.grid.Cursor())); ok {
			return p.openItem(it), true
		}
		return nil, true
	case key.Matches(msg, k.Bottom) && !p.pg.Done() && !p.pg.GapOpen() && p.pg.Started:
		// The end in one read, backwards, rather than every page to it.
		cmd := p.pg.JumpEnd()
		p.refresh()
		p.grid.SetCursor(p.pg.RowCount() - 1)
		return cmd, true
	}
	return nil, false
}

// modeKey opens the partition's versions or its Time mode.
func (p *Items) modeKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := p.c.Keys
	timeKey := key.Matches(msg, k.Range) || key.Matches(msg, k.TimeMode)
	switch {
	case key.Matches(msg, k.Versions):
		return openVersions(p.c, p.info, p.pg.Query.PK, p.pg.Query.Index), true
	case timeKey && p.place().off(ModeTime) != "":
		return refuse(ModeTime, p.place().off(ModeTime)), true
	case timeKey:
		t := NewTime(p.c, p.info, p.pg.Query.PK, p.pg.Query.Index, p.c.Now)
		t.Under(p.place().prefix) // the prefix listed stays (25.19)
		t.Filter(p.pg.Query.Filter)
		return open(t), true
	}
	return nil, false
}

// toolKey: the filter, columns, order, sort, and reading again.
func (p *Items) toolKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := p.c.Keys
	switch {
	case key.Matches(msg, k.Filter):
		return p.filter.open(p.pg.Query.Filter), true
	case key.Matches(msg, k.Columns):
		p.picker = newColumnPicker(p.c, &p.stats, p.attrs)
	case key.Matches(msg, k.Entities):
		return open(NewPartitionEntities(p.c, p.info, p.pg.Query.Index, p.pg.Query.PK, p.heldRows())), true
	case key.Matches(msg, k.Flip) && !p.keyOrdered():
		return func() tea.Msg {
			return common.NoticeMsg{Text: "No order to flip here", Why: "no sort key here, so the items come in no key order"}
		}, true
	case key.Matches(msg, k.Flip):
		q := p.pg.Query
		q.Reverse = !q.Reverse
		return p.reset(q), true
	case key.Matches(msg, k.Refresh) && p.pg.Fail.Stopped():
		return p.pg.Retry(), true // on from where it stopped, keeping the rows
	case key.Matches(msg, k.Sort), key.Matches(msg, k.SortFlip):
		p.sortKey(msg)
	case key.Matches(msg, k.Refresh):
		return p.reset(p.pg.Query), true
	default:
		return nil, false
	}
	return nil, true
}

// stopKey: esc stops what is being read, or goes back (tab too, on a
// prefix's items: back to its tree).
func (p *Items) stopKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := p.c.Keys
	switch {
	case key.Matches(msg, k.Back) && p.get.InFlight():
		p.get.Stop()
	case key.Matches(msg, k.Back) && p.pg.Req.InFlight():
		p.pg.Cancel()
	case key.Matches(msg, k.Back), key.Matches(msg, k.NextMode) && p.pg.Query.SK.Op == domain.SKBeginsWith:
		return back, true
	default:
		return nil, false
	}
	return nil, true
}

// prefetch reads on until the screen past where the cursor is going is
// full (the keys typed past the rows read count); user says a key asked
// for it (a new filter budget).
func (p *Items) prefetch(user bool) tea.Cmd {
	p.pg.Tail.Owed = max(-p.owed.Rows(), 0) // k typed past the rows read from the end
	return p.pg.Fill(p.grid.Cursor()+max(p.owed.Rows(), 0), p.grid.Visible(), user)
}

// refresh recomputes the columns: the keys, then the table's chosen
// attributes or those most common across the loaded rows.
func (p *Items) refresh() {
	// The partition key read is the same on every row: the title says it
	// once. An index's sort key, then always the base table's keys (which
	// item it is).
	keys := p.keyColumns()
	var cols []components.Column
	for _, k := range keys {
		cols = append(cols, components.Column{Title: common.Sanitize(k), Keep: true})
	}
	p.attrs = p.stats.columns(p.c, p.info.Name, maxColumns)
	for _, a := range p.attrs {
		cols = append(cols, components.Column{Title: common.Sanitize(a)})
	}
	p.grid.SetColumns(cols)
	p.pg.Keep = p.sort.Attr != ""
	p.sort.ApplyRows(p.pg.RowCount(), p.pg.Row, p.pg.LetGoRow)
	p.grid.SetRows(p.sort.Lines(p.pg.RowCount()), func(r, col int) string {
		it, ok := p.pg.Row(p.sort.Row(r))
		if !ok {
			if col == 0 {
				return p.pg.CellNote(p.sort.Row(r))
			}
			return ""
		}
		if col < len(keys) {
			return common.Cell(it[keys[col]])
		}
		return common.Cell(it[p.attrs[col-len(keys)]])
	})
}

// keyColumns are the key attributes shown as columns: keyNames but the
// partition key read, which the title says once.
func (p *Items) keyColumns() []string {
	var keys []string
	for _, k := range p.keyNames() {
		if k != p.pg.Query.PKName {
			keys = append(keys, k)
		}
	}
	return keys
}

// keyNames are the key attributes listed first: the index's (when read
// through one), then the base table's, each once.
func (p *Items) keyNames() []string {
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
	if k, err := p.info.KeyFor(p.pg.Query.Index); err == nil && p.pg.Query.Index != "" {
		add(k)
	}
	add(p.info.Key)
	return names
}

func skName(k dynamo.KeySchema) string {
	if k.SK == nil {
		return ""
	}
	return k.SK.Name
}

// projectionNote says what an index holds of each item where it lacks
// some of it, for the title.
func projectionNote(info dynamo.TableInfo, index string) string {
	ix, partial := partialProjection(info, index)
	if !partial {
		return ""
	}
	return "index " + common.Sanitize(ix.Name) + " holds only " + projectionText(ix) // enter reads the whole item, GetItem on its request line
}

func (p *Items) SetSize(w, h int) {
	p.w, p.h = w, h
	p.pg.SizeTo(h - 4) // the frame, the header, a line of slack
	listW, _ := p.listWidth()
	head := p.head(listW - 4)
	p.grid.SetSize(listW-4, p.h-2-len(head)-p.pg.Fail.LineBelow(p.pg.Head.Len()))
	if p.picker != nil {
		p.picker.layout(listW-4, p.h-2-len(head))
	}
}

// listWidth is the list's width: beside the preview when wide.
func (p *Items) listWidth() (int, bool) {
	if p.c.ShowPreview(p.w) {
		return p.w * 11 / 20, true
	}
	return p.w, false
}

// head is the filter bar (and its error or note while typed): the lines
// above the grid.
func (p *Items) head(width int) []string {
	return p.filter.lines(p.c.Styles, width, p.pg.Query.Filter)
}

func (p *Items) View() string {
	st := p.c.Styles
	listW, wide := p.listWidth()
	head := p.head(listW - 4)
	order := "ascending"
	if p.pg.Query.Reverse {
		order = "descending"
	}
	if p.sort.Attr != "" {
		order = "read " + order // the rows shown are in the sort's order
	}
	if !p.keyOrdered() {
		order = "" // no sort key: no order to claim
	}
	title := common.KeyCell(p.pg.Query.PK) + " · " + p.pg.State()
	if p.exported > 0 && !p.pg.Done() {
		// Before the order: a narrow frame cuts the end.
		title += " · e read all " + common.Thousands(p.exported) + ", not kept here"
	}
	if order != "" {
		title += " · " + order
	}
	if ix := p.pg.Query.Index; ix != "" {
		// Which index is read, not only on the request line; once, with
		// what it lacks of each item where it does.
		what := "index " + common.Sanitize(ix)
		if note := projectionNote(p.info, ix); note != "" {
			what = note
		}
		title += " · " + what
	}
	if p.note != "" {
		title += " · " + p.note
	}
	if sorted := p.sort.Title(p.pg.HeldRows(), p.pg.ListedRows()); sorted != "" {
		title = sorted + " · " + title // first: a narrow frame cuts the end
	}
	body := p.grid.View()
	if why := p.pg.Empty("this partition"); why != "" {
		body = st.Dim.Render(why)
	}
	if f := p.pg.Failed(st, listW-4); f != "" {
		body = f
		if p.pg.Head.Len() > 0 { // the rows loaded before, and below them why no more
			body = p.grid.View() + "\n" + f
		}
	}
	esc := "esc lists everything"
	if p.escBack {
		esc = "esc goes back"
	}
	if u := p.pg.Unread(st, "enter applies the filter, "+esc); u != "" {
		body = u
	}
	if p.picker != nil {
		title = "Columns of " + common.Sanitize(p.info.Name) + " · every attribute in the " + common.Thousands(p.stats.rows) + " rows loaded"
		body = p.picker.view(p.c, listW-4, p.h-2-len(head))
	}
	if len(head) > 0 {
		body = strings.Join(head, "\n") + "\n" + body
	}
	list := common.Frame(st, title, body, listW, p.h)
	if !wide {
		return list
	}
	preview := ""
	if it, ok := p.pg.Row(p.sort.Row(p.grid.Cursor())); ok {
		preview = renderJSON(st, it, false, p.w-listW-4)
	}
	return joinH(list, common.Frame(st, "Item", preview, p.w-listW, p.h))
}

func (p *Items) Shows() (table, index string) { return p.info.Name, p.pg.Query.Index }

func (p *Items) Crumbs() []string {
	crumbs := partitionSteps(p.info.Name, p.pg.Query.Index, common.KeyCell(p.pg.Query.PK))
	if p.pg.Query.SK.Op == domain.SKBeginsWith {
		crumbs = append(crumbs, common.Sanitize(p.pg.Query.SK.A.Arg())+"…")
	}
	return crumbs
}
func (p *Items) ID() int         { return p.id }
func (p *Items) Mode() string    { return "Items" }
func (p *Items) Loading() bool   { return p.pg.Req.InFlight() || p.get.InFlight() }
func (p *Items) Capturing() bool { return p.filter.editing() }

func (p *Items) Request() string { return p.pg.Request() }

func (p *Items) ShortHelp() []key.Binding {
	k := p.c.Keys
	switch {
	case p.filter.editing():
		return []key.Binding{k.Submit, k.Cancel}
	case p.picker != nil:
		return p.picker.help(k)
	}
	return p.keys().ShortHelp()
}

func (p *Items) HelpKeys() common.Keys { return p.keys() }
func (p *Items) FullHelp() [][]key.Binding {
	if p.picker != nil {
		return p.picker.fullHelp(p.c.Keys)
	}
	return p.keys().FullHelp()
}

// keyOrdered reports whether the items come in a sort key's order, which
// o flips: a table (or index) with no sort key has none.
func (p *Items) keyOrdered() bool { return p.pg.Query.SKName != "" }

// keys are the items list's keys, each where it acts: those on rows
// where some are listed, t where the Time mode applies.
func (p *Items) keys() common.Keys {
	k := p.c.Keys
	rows := p.pg.RowCount() > 0
	tabs := p.Modes()
	timeOn := false
	for _, t := range tabs {
		timeOn = timeOn || (t.Name == ModeTime && t.Off == "")
	}
	ks := moveKeys(k, rows)
	ks = append(ks, common.Line(1, common.On(k.Open, rows)))
	ks = append(ks, searchKeys(1, k, rows)...)
	ks = append(ks, common.Line(1, k.Filter), common.More(1, k.Columns), common.More(1, common.On(k.Flip, p.keyOrdered())),
		common.More(1, common.On(k.Sort, rows)), common.More(1, common.On(k.SortFlip, rows)), previewKey(1, p.c, p.w))
	ks = append(ks, modeKeys(2, k, tabs, p.Mode())...)
	ks = append(ks, common.More(3, common.On(k.Range, timeOn)), common.More(3, k.Entities), p.pg.Fail.AgainKey(3, k.Refresh), common.More(3, k.Copy),
		common.More(3, k.CopyKey), common.More(3, k.Export), common.Line(4, p.backKey()))
	return append(ks, endKeys(4, k)...)
}

// backKey is esc as the help names it: "cancel" while an item or a page
// is read (esc stops it), else back.
func (p *Items) backKey() key.Binding {
	return list.BackKey(p.c.Keys.Back, &p.pg.Req, &p.get)
}

// heldRows are the rows the list holds now, in its order (the gap's and
// those let go left out): what E names the types of.
func (p *Items) heldRows() []dynamo.Item {
	out := []dynamo.Item{}
	for i := range p.pg.RowCount() {
		if it, ok := p.pg.Row(i); ok {
			out = append(out, it)
		}
	}
	return out
}

// Query is what the page lists.
func (p *Items) Query() (domain.KeyQuery, bool) { return p.pg.Query, true }

// DeepLink reopens the partition (at the prefix) from the command line.
func (p *Items) DeepLink() []string {
	args := []string{"--table", p.info.Name, "--pk", keyArg(p.pg.Query.PK)}
	if p.pg.Query.Index != "" {
		args = append(args, "--index", p.pg.Query.Index)
	}
	if p.pg.Query.SK.Op == domain.SKBeginsWith {
		args = append(args, "--prefix", p.pg.Query.SK.A.Arg())
	}
	if p.pg.Query.Filter != nil {
		args = append(args, "--filter", domain.FormatFilter(p.pg.Query.Filter))
	}
	return args
}

// ExportStarted is told of an export of the query listed: it returns
// what to call with the items the export wrote, all the query returns.
func (p *Items) ExportStarted() func(items int) {
	gen := p.gen
	return func(items int) {
		if p.gen == gen {
			p.exported = items
		}
	}
}

// LinkNote: no flag opens Items where the sort key is a string or binary
// (--pk opens the Tree there, --filter the items filtered): the command
// reopens the place, and 2 the items.
func (p *Items) LinkNote() string {
	if p.pg.Query.Filter != nil {
		return ""
	}
	key, err := p.info.KeyFor(p.pg.Query.Index)
	if err != nil || key.SK == nil || key.SK.Type == domain.TypeN {
		return "" // OpenPartition opens Items itself
	}
	return "it opens in Tree mode; 2 lists these items"
}

// keyArg is a key value as typed on the command line (binary as b64:…).
func keyArg(v domain.KeyValue) string { return v.Arg() }

// Click selects the clicked row, or asks to open it when already selected
// (the list's frame border is the body's first line, then the filter bar).
func (p *Items) Click(y int) bool {
	if p.picker != nil {
		return false
	}
	return p.grid.Click(y - 1 - len(p.head(p.w)))
}

// TableSize is the table's size in bytes, as DescribeTable gives it.
func (p *Items) TableSize() int64 { return p.info.SizeBytes }

// readItem is what a list does with the answer to the GetItem that reads
// an item listed from an index holding part of it: report a failure, or
// an item the base table no longer has, or open what was read.
func (m itemReadMsg) readItem(c *common.Common, info dynamo.TableInfo, page int) (*Item, tea.Cmd) {
	if m.err != nil {
		return nil, common.Report(m.err, false, page)
	}
	if m.item == nil {
		return nil, common.Report(dynamo.Errorf("get item", dynamo.KindNotFound, "the index is eventually consistent: it may list an item deleted since", "the base table has no item with this key"), false, page)
	}
	return NewReadItem(c, info, m.item), nil
}
