package pages

import (
	"fmt"
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
	rows     []partitionRow
	seen     map[string]int
	more     bool // the scan has not reached the table's end
	nextReq  dynamo.PartitionsRequest
	segments int32 // the parallel Scan's segments, once split
	jumps    int
	started  bool
	scanned  int
	pages    int
	auto     int // pages loaded since the user last moved
	req      list.Request
	grid     components.Grid
	tree     TreeOptions
	input    components.TextInput
	inputOn  bool
	inputErr string
	fail     list.Failure // why the scan stopped before the table's end
	index    string       // the GSI or LSI whose partitions these are ("" for the table's)
	picker   *picker      // the index picker, while open
	matches  []int        // loaded rows holding what the go-to box holds
	w, h     int
}

// NewIndexPartitions returns the partitions of one of the table's indexes:
// a keys-only Scan of the index, paged like the table's; a partition opens
// into that index's hierarchy or items.
func NewIndexPartitions(c *common.Common, info dynamo.TableInfo, index string, tree TreeOptions) *Partitions {
	tree.Index, tree.Delim = index, "" // the index's own sort keys: detect their delimiter
	p := NewPartitions(c, info.Name, info, tree)
	p.index = index
	p.grid.SetColumns([]components.Column{{Title: "Partition key (" + p.key().PK.Name + ")"}, {Title: "Sort keys seen"}})
	return p
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
	p := &Partitions{c: c, id: c.NextID(), table: table, info: info, tree: tree, seen: map[string]int{}, grid: components.NewGrid(c)}
	p.grid.SetColumns([]components.Column{{Title: "Partition key"}, {Title: "Sort keys seen"}})
	p.input = components.NewTextInput("partition key › ")
	return p
}

func (p *Partitions) Init() tea.Cmd {
	if p.info.Name == "" {
		ctx, req := p.req.Start(p.c)
		return describeTable(ctx, p.c.Client, p.id, req, p.table)
	}
	return p.next()
}

// next asks for the next step: a keys-only Scan page, or one a segment.
func (p *Partitions) next() tea.Cmd {
	if p.req.InFlight() || (p.started && !p.more && !p.fail.Stopped()) {
		return nil
	}
	if !p.started {
		p.nextReq = dynamo.FirstPartitions(p.table, p.key())
		if p.index != "" {
			p.nextReq = dynamo.FirstIndexPartitions(p.table, p.index, p.key(), p.info.Key)
		}
	}
	p.started = true
	p.fail.Clear()
	ctx, req := p.req.Start(p.c)
	return readPartitions(ctx, p.c.Client, p.id, req, p.nextReq)
}

func (p *Partitions) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		p.auto = 0
		return p, p.Init()
	case tableDescribedMsg:
		if !p.req.Done(msg.req) {
			return p, nil
		}
		if msg.err != nil {
			return p, common.Report(msg.err, true, p.id)
		}
		p.info = msg.info
		return p, p.next()
	case partitionsReadMsg:
		if !p.req.Done(msg.req) {
			return p, nil
		}
		p.add(msg.step) // after an error too: what the reads that succeeded found, and where to resume
		if msg.err != nil {
			p.fail.Fail(msg.err)
			return p, common.Report(msg.err, false, p.id)
		}
		return p, p.prefetch()
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
	switch {
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
		if len(p.rows) > 0 {
			return open(OpenPartition(p.c, p.info, p.rows[p.grid.Cursor()].key, p.tree))
		}
	case key.Matches(msg, p.c.Keys.Refresh) && p.fail.Stopped():
		p.auto = 0
		return p.next() // on from where the scan stopped
	case key.Matches(msg, p.c.Keys.Refresh):
		p.req.Stop()
		p.fail.Clear()
		p.rows, p.seen, p.more, p.started, p.scanned, p.pages, p.jumps, p.segments = nil, map[string]int{}, false, false, 0, 0, 0, 0
		p.refreshRows()
		return p.Init()
	case key.Matches(msg, p.c.Keys.Back) && p.req.InFlight():
		p.req.Stop()
		p.fail.Cancel()
	case key.Matches(msg, p.c.Keys.Back):
		return back
	case key.Matches(msg, p.c.Keys.Bottom) && p.scanning():
		// A Scan has no end to read first: G goes to the last
		// partition scanned so far, and says it is not the table's last.
		p.grid.Update(msg)
		p.auto = 0
		return tea.Batch(notice(fmt.Sprintf("G: the last of %s scanned so far, not the table's last: the scan goes on as you scroll",
			common.Plural(len(p.rows), "partition", "partitions"))), p.prefetch())
	default:
		if p.grid.Update(msg) {
			p.auto = 0
			return p.prefetch()
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
	p.inputErr = ""
	p.matches = p.findLoaded(p.input.Value())
	if len(p.matches) > 0 {
		p.grid.SetCursor(p.matches[0]) // the list follows what is typed
	}
	return cmd
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
	for i, r := range p.rows {
		if strings.Contains(strings.ToLower(r.text), q) {
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
	return p.started && (p.more || p.req.InFlight())
}

// prefetch loads the next page before the cursor reaches the end.
func (p *Partitions) prefetch() tea.Cmd {
	if p.fail.Err != nil {
		return nil // r retries: a failing server is not asked again behind the user's back
	}
	probe := p.nextReq.Probing()
	screen := max(p.grid.Visible(), p.h-4) // before it is drawn: the page less its frame and header
	if p.grid.Cursor() >= len(p.rows)-2*screen && (p.auto < autoPages || probe) {
		p.auto++
		return p.next()
	}
	return nil
}

func (p *Partitions) add(step dynamo.PartitionsStep) {
	p.pages += step.Pages
	p.scanned += step.Keys
	p.jumps += step.Jumps
	p.nextReq, p.more = step.Next, step.More
	if len(step.Next.Segments) > 0 {
		p.segments = step.Next.Segments[0].TotalSegments
	}
	for _, pk := range step.Partitions {
		id := pk.Key.Literal()
		i, ok := p.seen[id]
		if !ok {
			i = len(p.rows)
			p.seen[id] = i
			p.rows = append(p.rows, partitionRow{key: pk.Key, text: common.KeyCell(pk.Key)})
		}
		p.rows[i].keys += pk.Keys
		p.rows[i].more = pk.More
	}
	p.refreshRows()
}

func (p *Partitions) refreshRows() {
	p.grid.SetRows(len(p.rows), func(r, col int) string {
		if col == 0 {
			return p.rows[r].text
		}
		more := ""
		if p.rows[r].more {
			more = "+"
		}
		return common.Thousands(p.rows[r].keys) + more
	})
}

func (p *Partitions) SetSize(w, h int) {
	p.w, p.h = w, h
	h = p.listHeight()
	p.grid.SetSize(p.w-4, h-2-p.fail.LineBelow(len(p.rows)))
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
			if p.more {
				more = " (more not scanned yet)"
			}
			input += "\n" + st.Dim.Render(fmt.Sprintf("%s loaded%s: %s · enter opens the key typed (%s is %s) · esc cancels",
				common.Plural(len(p.rows), "partition", "partitions"), more, found, p.key().PK.Name, p.key().PK.Type))
		}
	}
	state := p.c.All(p.info.Name)
	if p.more || !p.started {
		state = "more: scroll down to scan on"
	}
	title := fmt.Sprintf("%s · %s · %s", p.name(), common.Plural(len(p.rows), "partition", "partitions"), state)
	if p.pages == 0 && !p.fail.Stopped() && (p.req.InFlight() || p.info.Name == "") {
		title = p.name() + " · reading…" // no answer yet: nothing is counted, nothing is all
	}
	body := p.grid.View()
	if p.picker != nil {
		return p.picker.view(st, p.w, h)
	}
	switch {
	case p.fail.Stopped():
		title = p.name() + " · " + p.fail.Title(len(p.rows), "partitions")
		body = p.fail.InPlace(st, p.grid.View(), len(p.rows), "partitions", p.w-4)
	case !p.started && p.info.Name != "":
		title = p.name() + " · partitions not read yet"
		body = st.Dim.Render("Not read yet: r scans the table's partition keys.")
	case p.started && !p.req.InFlight() && len(p.rows) == 0:
		body = st.Dim.Render("This table is empty.")
	}
	out := common.Frame(st, title, body, p.w, h)
	if p.inputOn {
		out += "\n" + common.Frame(st, "Go to partition", input, p.w, 4)
	}
	return out
}

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
func (p *Partitions) ID() int         { return p.id }
func (p *Partitions) Mode() string    { return "" }
func (p *Partitions) Loading() bool   { return p.req.InFlight() }
func (p *Partitions) Capturing() bool { return p.inputOn }

func (p *Partitions) Request() string {
	k := p.key()
	names := k.PK.Name
	if k.SK != nil {
		names += ", " + k.SK.Name
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
	if p.info.Stream.ARN != "" { // named where it reads something
		return []key.Binding{k.Up, k.Down, k.Open, k.GoTo, k.Index, tableChangesKey(k.Changes), k.Back, tableSearchKey(k.Filter), k.Help, k.Quit}
	}
	return []key.Binding{k.Up, k.Down, k.Open, k.GoTo, k.Index, k.Back, tableSearchKey(k.Filter), k.Help, k.Quit}
}

func (p *Partitions) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{k.Moves(), {k.Open, k.GoTo, tableSearchKey(k.Filter), k.Index, k.Entities, tableChangesKey(k.Changes), k.Refresh}, {k.Back, k.Help, k.Quit}}
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
		items.note = "number sort key: no hierarchy to drill"
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
func (p *Partitions) Click(y int) bool { return p.grid.Click(y - 1) }

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
