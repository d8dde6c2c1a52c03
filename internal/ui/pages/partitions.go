package pages

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

type partitionRow struct {
	key  domain.KeyValue
	text string
	keys int  // sort keys seen so far under it
	more bool // keys of it not read: jumped past, or not read yet
}

// Partitions lists a table's partition keys by skip-scan (small keys-only
// Scans that jump past each partition's keys, or bulk pages where
// partitions are small; large ones in parallel Scan segments, so the list
// is in scan order within each segment), loaded as the cursor nears the
// end, and takes a key to go to.
type Partitions struct {
	c        *common.Common
	id       int
	table    string
	info     dynamo.TableInfo
	list     list.Paged[partitionRow] // the partition keys, a scan step at a time
	seen     map[string]int           // a partition's row, by its key
	nextReq  dynamo.PartitionsRequest
	segments int32 // the parallel Scan's segments, once split
	jumps    int
	scanned  int
	pages    int
	auto     int // pages loaded since the user last moved
	// toEnd: G while the scan went on, and no key since: the cursor
	// follows the last partition read, and where the scan ends there
	// the status bar says so (it stayed on the row G found, under
	// "all", beside "not the table's last").
	toEnd    bool
	desc     list.Request // the DescribeTable of a table opened without it
	tree     TreeOptions
	input    components.TextInput
	inputOn  bool
	inputErr string
	index    string  // the GSI or LSI whose partitions these are ("" for the table's)
	picker   *picker // the index picker, while open
	matches  []int   // loaded rows holding what the go-to box holds
	w, h     int
}

// NewIndexPartitions returns the partitions of one of the table's indexes:
// a keys-only Scan of the index, paged like the table's; a partition opens
// into that index's hierarchy or items.
func NewIndexPartitions(c *common.Common, info dynamo.TableInfo, index string, tree TreeOptions) *Partitions {
	tree.Index, tree.Delim = index, "" // the index's own sort keys: detect their delimiter
	p := NewPartitions(c, info.Name, info, tree)
	p.index = index
	p.setColumns()
	return p
}

// setColumns names the columns by the key scanned: an index's partition
// key by its name; where there is no sort key, the keys seen in a
// partition are its items (it read "Sort keys seen" there).
func (p *Partitions) setColumns() {
	k := p.key()
	first, second := "Partition key", "Sort keys seen"
	if p.index != "" {
		first += " (" + k.PK.Name + ")"
	}
	if k.PK.Name != "" && k.SK == nil {
		second = "Items"
	}
	p.list.Grid.SetColumns([]components.Column{{Title: first, Keep: true}, {Title: second, Must: true}})
}

// key is the key schema scanned: the table's, or its index's.
func (p *Partitions) key() dynamo.KeySchema {
	if k, err := p.info.KeyFor(p.index); err == nil && p.index != "" {
		return k
	}
	return p.info.Key
}

// NewPartitions returns the partitions page of a table; info may be empty,
// in which case the page describes the table first.
func NewPartitions(c *common.Common, table string, info dynamo.TableInfo, tree TreeOptions) *Partitions {
	p := &Partitions{c: c, id: c.NextID(), table: table, info: info, tree: tree, seen: map[string]int{}}
	p.list = list.NewPaged(c, list.Words{One: "partition", Many: "partitions", Count: p.count,
		Reading: "the partition keys are", More: "more partitions not scanned yet (↓ scans on)",
		NotRead: "r scans the table's partition keys.", Empty: "This table is empty."},
		nil, partitionCell)
	p.setColumns()
	p.input = components.NewTextInput("partition key › ")
	return p
}

// count is the title's count of the partitions scanned, and whether the
// scan reached the table's end.
func (p *Partitions) count(n int, more bool) string {
	state := p.c.All(p.info.Name)
	if more {
		state = "more: scroll down to scan on"
	}
	return common.Plural(n, "partition", "partitions") + " · " + state
}

func (p *Partitions) Init() tea.Cmd {
	if p.info.Name == "" {
		ctx, req := p.desc.Start(p.c)
		return describeTable(ctx, p.c.Client, p.id, req, p.table)
	}
	return p.next()
}

// next asks for the next step: a keys-only Scan page, or one a segment.
func (p *Partitions) next() tea.Cmd {
	if p.list.Req.InFlight() || (p.list.Began() && p.list.Whole()) {
		return nil
	}
	var ctx context.Context
	var req int
	if p.list.Began() {
		ctx, req = p.list.Next()
		p.nextReq.Rows = p.rowsWanted()
	} else {
		p.nextReq = dynamo.FirstPartitions(p.table, p.key()).WithTableSize(p.info.SizeBytes, p.info.ItemCount)
		if p.index != "" {
			p.nextReq = dynamo.FirstIndexPartitions(p.table, p.index, p.key(), p.info.Key) // an index's size is not in TableInfo
		}
		ctx, req = p.list.Start()
	}
	return readPartitions(ctx, p.c.Client, p.id, req, p.nextReq)
}

func (p *Partitions) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		p.auto = 0
		return p, p.Init()
	case tableDescribedMsg:
		if !p.desc.Done(msg.req) {
			return p, nil
		}
		if msg.err != nil {
			return p, common.Report(msg.err, true, p.id)
		}
		p.info = msg.info
		p.setColumns()
		return p, p.next()
	case partitionsReadMsg:
		if !p.list.Answer(msg.req, nil, msg.step.More, msg.err) {
			return p, nil
		}
		p.add(msg.step) // after an error too: what the reads that succeeded found, and where to resume
		if msg.err != nil {
			p.toEnd = false
			return p, common.Report(msg.err, false, p.id)
		}
		if p.toEnd {
			p.list.Grid.SetCursor(p.list.Len() - 1)
			if !p.scanning() {
				p.toEnd = false
				return p, notice(fmt.Sprintf("G: the last of %s, the whole table scanned", common.Plural(p.list.Len(), "partition", "partitions")))
			}
		}
		return p, p.prefetch(false)
	case tea.KeyPressMsg:
		return p, p.keyPressed(msg)
	}
	return p, nil
}

// keyPressed takes a key on the partitions list: the go-to box and the index
// picker first, then the list's own keys and its moves.
func (p *Partitions) keyPressed(msg tea.KeyPressMsg) tea.Cmd {
	if p.inputOn {
		return p.updateInput(msg)
	}
	if p.picker != nil {
		return p.pickerKey(msg)
	}
	p.toEnd = false // G again sets it
	switch {
	case key.Matches(msg, p.c.Keys.Index) && p.info.Name != "" && len(p.info.Indexes) == 0:
		return notice(noIndexes(p.info))
	case key.Matches(msg, p.c.Keys.Index) && p.info.Name != "":
		choices, cols := indexChoices(p.info, p.index, "")
		p.picker = newPicker(p.c, "Read "+common.Sanitize(p.table)+" through", "", cols, choices)
	case key.Matches(msg, p.c.Keys.Entities) && p.info.Name != "":
		return open(NewEntities(p.c, p.info, p.index))
	case key.Matches(msg, p.c.Keys.GoTo):
		p.inputOn, p.inputErr = true, ""
		p.input.SetValue("")
		return p.input.Focus()
	case key.Matches(msg, p.c.Keys.Changes):
		return p.openChanges()
	case key.Matches(msg, p.c.Keys.Filter) && p.info.Name != "":
		return openSearch(p.c, p.info, p.index) // the whole table through a filter
	case key.Matches(msg, p.c.Keys.Open):
		if row, ok := p.list.Selected(); ok {
			return open(OpenPartition(p.c, p.info, row.key, p.tree))
		}
	case key.Matches(msg, p.c.Keys.Refresh) && p.info.Name == "":
		return p.Init() // the table is described first
	case key.Matches(msg, p.c.Keys.Refresh) && p.list.Fail.Stopped():
		p.auto = 0
		return p.next() // on from where the scan stopped
	case key.Matches(msg, p.c.Keys.Refresh):
		p.list.Clear()
		p.seen, p.scanned, p.pages, p.jumps, p.segments = map[string]int{}, 0, 0, 0, 0
		return p.Init()
	case key.Matches(msg, p.c.Keys.Back) && p.desc.InFlight():
		p.desc.Stop()
		p.list.Fail.Cancel()
	case key.Matches(msg, p.c.Keys.Bottom) && p.scanning():
		// A Scan has no end to read first: G goes to the last
		// partition scanned so far, and says it is not the table's last.
		p.list.Key(msg)
		p.auto, p.toEnd = 0, true
		return tea.Batch(notice(fmt.Sprintf("G: the last of %s scanned so far, not the table's last: the scan goes on as you scroll",
			common.Plural(p.list.Len(), "partition", "partitions"))), p.prefetch(true))
	default:
		switch p.list.Key(msg) { // esc cancels the scan in flight
		case list.Moved:
			p.auto = 0
			return p.prefetch(true)
		case list.Ignored:
			if key.Matches(msg, p.c.Keys.Back) {
				return back
			}
		}
	}
	return nil
}

func (p *Partitions) updateInput(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, p.c.Keys.Cancel):
		p.inputOn = false
		p.input.Blur()
		return nil
	case key.Matches(msg, p.c.Keys.Submit) && p.shardPattern() != "":
		page, err := OpenShards(p.c, p.info, p.shardPattern(), p.tree)
		if err != nil {
			p.inputErr = err.Error()
			return nil
		}
		p.inputOn = false
		p.input.Blur()
		return open(page)
	case key.Matches(msg, p.c.Keys.Submit):
		v, err := domain.ParseKeyValue(p.key().PK.Type, p.input.Value())
		if err != nil {
			p.inputErr = err.Error()
			return nil
		}
		if p.input.Value() == "" {
			p.inputErr = "type a partition key value or a pattern such as seattle-{1..4}, then enter (esc cancels)"
			return nil
		}
		p.inputOn = false
		p.input.Blur()
		if v.Type != domain.TypeB { // typed, yet shown as its stand-in from here on where masked
			v.Text = dynamo.TypedKey(p.c.Client, p.info.Name, p.info.Key.PK.Name, v.Text)
		}
		return open(OpenPartition(p.c, p.info, v, p.tree))
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	p.followTyped()
	return cmd
}

// followTyped selects the first loaded partition holding what the go-to
// box holds: the list follows what is typed (or pasted).
func (p *Partitions) followTyped() {
	p.inputErr = ""
	p.matches = p.findLoaded(p.input.Value())
	if len(p.matches) > 0 {
		p.list.Grid.SetCursor(p.matches[0])
	}
}

// findLoaded are the loaded partitions whose key holds text, ignoring
// case: the go-to box searches what is listed as it is typed, and enter
// still goes to the key typed, loaded or not.
func (p *Partitions) findLoaded(text string) []int {
	if text == "" {
		return nil
	}
	q := strings.ToLower(text)
	var out []int
	for i := range p.list.Len() {
		if strings.Contains(strings.ToLower(p.list.Row(i).text), q) {
			out = append(out, i)
		}
	}
	return out
}

// scanPageKeys bounds each Scan page of the partitions of a table or index
// without a sort key (read in plain pages, dynamo's bulk pages): a Scan
// reads whole items however few partitions they hold, so small pages keep
// each step's cost small.
const scanPageKeys = 1000

// autoPages is how many bulk pages load without the user asking: enough
// to fill a screen, never a whole table behind their back. Probes (one
// read unit each, a partition each) fill the screen without counting.
const autoPages = 3

// scanning reports whether the scan has begun and not reached the
// table's end.
func (p *Partitions) scanning() bool {
	return p.list.Began() && (p.list.More() || p.list.Req.InFlight())
}

// prefetch loads the next page before the cursor reaches the end (user:
// the user moved, which reads on after esc too).
func (p *Partitions) prefetch(user bool) tea.Cmd {
	screen := max(p.list.Grid.Visible(), p.h-4) // before it is drawn: the page less its frame and header
	if p.list.WantsMore(2*screen, user) && (p.auto < autoPages || p.nextReq.Probing()) {
		p.auto++
		return p.next()
	}
	return nil
}

// rowsWanted is how many more partitions fill two screens below the
// cursor (what prefetch reads on for): a bulk page is sized to them.
func (p *Partitions) rowsWanted() int {
	screen := max(p.list.Grid.Visible(), p.h-4)
	return max(p.list.Grid.Cursor()+2*screen-p.list.Len(), 1)
}

func (p *Partitions) add(step dynamo.PartitionsStep) {
	p.pages += step.Pages
	p.scanned += step.Keys
	p.jumps += step.Jumps
	p.nextReq = step.Next
	if len(step.Next.Segments) > 0 {
		p.segments = step.Next.Segments[0].TotalSegments
	}
	for _, pk := range step.Partitions {
		id := pk.Key.Literal()
		i, ok := p.seen[id]
		if !ok {
			i = p.list.Len()
			p.seen[id] = i
			p.list.Add(partitionRow{key: pk.Key, text: common.KeyCell(pk.Key)})
		}
		r := p.list.Row(i)
		r.keys += pk.Keys
		r.more = pk.More
	}
}

// partitionCell is a partition's row: its key, and the sort keys seen
// under it ("+": some not read).
func partitionCell(r partitionRow, col int) string {
	if col == 0 {
		return r.text
	}
	more := ""
	if r.more {
		more = "+"
	}
	return common.Thousands(r.keys) + more
}

func (p *Partitions) SetSize(w, h int) {
	p.w, p.h = w, h
	h = p.listHeight()
	p.list.SetSize(p.w-4, h-2)
	if p.picker != nil {
		p.picker.layout(p.w, h)
	}
}

// listHeight is the list's height: the go-to box takes 4 lines while open.
func (p *Partitions) listHeight() int {
	if p.inputOn {
		return p.h - 4
	}
	return p.h
}

func (p *Partitions) View() string {
	st := p.c.Styles
	h := p.listHeight()
	var input string
	if p.inputOn {
		input = p.input.View()
		if p.inputErr != "" {
			input += "\n" + st.ErrorTitle.Render(p.inputErr)
		} else {
			found := "no match among them"
			switch {
			case p.input.Value() == "":
				found = "type to search them"
			case len(p.matches) > 0:
				found = common.Plural(len(p.matches), "match", "matches") + " among them, the first selected"
			}
			more := ""
			if p.list.More() {
				more = " (more not scanned yet)"
			}
			// What enter does first: a narrow box cuts the end, and the
			// match selected is not what enter opens.
			input += "\n" + st.Dim.Render(fmt.Sprintf("enter opens the key typed (%s is %s) · %s loaded%s: %s · esc cancels",
				p.key().PK.Name, p.key().PK.Type, common.Plural(p.list.Len(), "partition", "partitions"), more, found))
		}
	}
	if p.picker != nil {
		return p.picker.view(st, p.w, h)
	}
	title, body := p.list.Title(p.name()), p.list.View()
	if p.info.Name == "" && !p.list.Fail.Stopped() { // the table is being described
		title, body = p.name()+" · reading…", p.list.Grid.View()
	}
	out := common.Frame(st, title, body, p.w, h)
	if p.inputOn {
		out += "\n" + common.Frame(st, "Go to partition", input, p.w, 4)
	}
	return out
}

func (p *Partitions) Shows() (table, index string) { return p.table, p.index }

func (p *Partitions) Crumbs() []string {
	if p.index != "" {
		return []string{p.table, "index " + p.index}
	}
	return []string{p.table}
}

// name is what the title calls the list: the table, or the table's index.
func (p *Partitions) name() string {
	if p.index != "" {
		return common.Sanitize(p.table) + " index " + common.Sanitize(p.index)
	}
	return common.Sanitize(p.table)
}

// pickerKey handles a key while the index picker is open: the choice
// opens that index's partitions (or the table's), on top of this list.
func (p *Partitions) pickerKey(msg tea.KeyPressMsg) tea.Cmd {
	picked, closed := p.picker.key(msg, p.c.Keys)
	if !closed {
		return nil
	}
	p.picker = nil
	name := indexAt(p.info, picked)
	if picked < 0 || name == p.index {
		return nil
	}
	tree := p.tree
	tree.Index = ""
	if name == "" {
		return open(NewPartitions(p.c, p.table, p.info, tree))
	}
	return open(NewIndexPartitions(p.c, p.info, name, tree))
}

// DeepLink reopens the list from the command line.
func (p *Partitions) DeepLink() []string {
	if p.index != "" {
		return []string{"--table", p.table, "--index", p.index}
	}
	return []string{"--table", p.table}
}

// HeadlessLink is the command that prints this list as JSON lines, read
// the same way: the table's (or index's) partitions, as many as are
// listed where more are not yet read (--limit: the command without it
// read on to the table's end, or its budget, a list this is not).
func (p *Partitions) HeadlessLink() []string {
	link := append([]string{"partitions"}, p.DeepLink()...)
	if n := p.list.Len(); n > 0 && !p.list.Whole() {
		link = append(link, "--limit", strconv.Itoa(n))
	}
	return link
}

func (p *Partitions) ID() int         { return p.id }
func (p *Partitions) Mode() string    { return "" }
func (p *Partitions) Loading() bool   { return p.list.Req.InFlight() || p.desc.InFlight() }
func (p *Partitions) Capturing() bool { return p.inputOn }

func (p *Partitions) Request() string {
	k := p.key()
	names := domain.NameText(k.PK.Name)
	if k.SK != nil {
		names += ", " + domain.NameText(k.SK.Name)
	}
	table := p.table
	if p.index != "" {
		table += "  IndexName: " + p.index
	}
	if p.segments > 0 {
		table += fmt.Sprintf("  TotalSegments: %d", p.segments)
	}
	return fmt.Sprintf("Scan %s  ProjectionExpression: %s  (keys only) · %s · %s read · %s past a partition's keys",
		table, names, common.Plural(p.pages, "page", "pages"), common.Plural(p.scanned, "key", "keys"), common.Plural(p.jumps, "jump", "jumps"))
}

func (p *Partitions) ShortHelp() []key.Binding {
	k := p.c.Keys
	if p.inputOn {
		return []key.Binding{k.Submit, k.Cancel}
	}
	if p.picker != nil {
		return p.picker.help(k)
	}
	// r, where a failure or a cancel offers it, before esc: at 80 columns
	// the keys after it give way first.
	bs := []key.Binding{k.Up, k.Down, k.Open, k.GoTo, indexKey(k.Index, p.info), p.changesKey()}
	return onRows(k, p.list.Len() > 0, withAgain(bs, p.list.AgainKey(1, k.Refresh), p.backKey(), tableSearchKey(k.Filter), k.Help, k.Quit))
}

// changesKey is 5 in help only where it opens the table's changes (a
// stream this connection reads): listed without one, it only said why not.
func (p *Partitions) changesKey() key.Binding {
	return common.On(tableChangesKey(p.c.Keys.Changes), (place{c: p.c, info: p.info}).noChanges() == "")
}

func (p *Partitions) FullHelp() [][]key.Binding {
	if p.picker != nil {
		return p.picker.fullHelp(p.c.Keys)
	}
	k := p.c.Keys
	return onRowsFull(k, p.list.Len() > 0, [][]key.Binding{k.Moves(), {k.Open, k.GoTo, tableSearchKey(k.Filter), indexKey(k.Index, p.info), k.Entities, p.changesKey(), p.list.AgainKey(1, k.Refresh).Binding}, {p.backKey(), k.Help, k.Quit}})
}

// backKey is esc as the help names it: "cancel" while the table is
// described or scanned (esc stops it, and the list stays), else back.
func (p *Partitions) backKey() key.Binding {
	return list.BackKey(p.c.Keys.Back, &p.list.Req, &p.desc)
}

// tableSearchKey names what f does on the partitions list.
func tableSearchKey(b key.Binding) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, "filter table"))
}

// tableChangesKey names what 5 does on the partitions list.
func tableChangesKey(b key.Binding) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, "table's changes"))
}

// openChanges is 5 on the partitions list: every partition's changes from
// the table's stream; or why there are none to read, reading nothing.
func (p *Partitions) openChanges() tea.Cmd {
	if p.info.Name == "" {
		return notice("No Changes yet: the table is still being described")
	}
	if why := (place{c: p.c, info: p.info}).noChanges(); why != "" {
		return notice("No Changes here: " + why)
	}
	return open(NewTableChanges(p.c, p.info))
}

// OpenPartition is a partition's first view: the hierarchy where the sort
// key is a string or binary, the items where it is a number or absent.
func OpenPartition(c *common.Common, info dynamo.TableInfo, pk domain.KeyValue, tree TreeOptions) common.Page {
	key, err := info.KeyFor(tree.Index)
	if err != nil {
		key = info.Key
	}
	if key.SK != nil && key.SK.Type != domain.TypeN {
		return NewTree(c, info, pk, "", tree)
	}
	items := NewItemsUnder(c, info, pk, "", tree.Index)
	if key.SK != nil {
		items.note = "no hierarchy to drill (a number sort key)" // what it means first: a narrow title cuts the end
	}
	return items
}

// OpenShards opens a sharded partition given as a pattern (seattle-{1..4}):
// its shards' hierarchies merged.
func OpenShards(c *common.Common, info dynamo.TableInfo, pattern string, tree TreeOptions) (common.Page, error) {
	names, err := domain.ExpandPartitions(pattern)
	if err != nil {
		return nil, err
	}
	if info.Key.SK == nil || info.Key.SK.Type == domain.TypeN {
		return nil, fmt.Errorf("shards are drilled by their sort-key hierarchy, and %s has none; open one shard", info.Name)
	}
	shards := make([]domain.KeyValue, 0, len(names))
	for _, n := range names {
		v, err := domain.ParseKeyValue(info.Key.PK.Type, n)
		if err != nil {
			return nil, err
		}
		shards = append(shards, v)
	}
	return NewShardedTree(c, info, shards, pattern, "", tree), nil
}

// Click selects the clicked row, or asks to open it when already selected
// (the list's frame border is the body's first line).
func (p *Partitions) Click(y int) bool { return p.list.Grid.Click(y - 1) }

// shardPattern is the pattern typed at /, or the one the configuration
// names for the logical partition typed; "" for a plain key.
func (p *Partitions) shardPattern() string {
	v := p.input.Value()
	if pattern, ok := p.c.Tables[p.table].ShardPattern(v); ok {
		return pattern
	}
	if domain.IsPattern(v) {
		return v
	}
	return ""
}
