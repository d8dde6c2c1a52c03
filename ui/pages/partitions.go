package pages

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/model"
	"github.com/dynascope/dynascope/ui/common"
	"github.com/dynascope/dynascope/ui/components"
)

type partitionRow struct {
	key  model.KeyValue
	text string
	keys int // sort keys seen so far under it
}

// Partitions lists a table's partition keys from keys-only Scan pages,
// loaded as the cursor nears the end, and takes a key to go to.
type Partitions struct {
	c        *common.Common
	id       int
	table    string
	info     dynamo.TableInfo
	rows     []partitionRow
	seen     map[string]int
	lastKey  dynamo.Item
	started  bool
	scanned  int
	pages    int
	auto     int // pages loaded since the user last moved
	req      request
	grid     components.Grid
	tree     TreeOptions
	input    components.TextInput
	inputOn  bool
	inputErr string
	matches  []int // loaded rows holding what the go-to box holds
	w, h     int
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
		ctx, req := p.req.start(p.c.NextID)
		return describeTable(ctx, p.c.Client, p.id, req, p.table)
	}
	return p.next()
}

// next asks for the next keys-only Scan page.
func (p *Partitions) next() tea.Cmd {
	if p.req.inFlight() || (p.started && len(p.lastKey) == 0) {
		return nil
	}
	p.started = true
	ctx, req := p.req.start(p.c.NextID)
	return scanKeys(ctx, p.c.Client, p.id, req, dynamo.PartitionsRequest{Table: p.table, Key: p.info.Key, Start: p.lastKey, Limit: scanPageKeys})
}

func (p *Partitions) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		return p, p.Init()
	case tableDescribedMsg:
		if !p.req.done(msg.req) {
			return p, nil
		}
		if msg.err != nil {
			return p, report(msg.err, true, p.id)
		}
		p.info = msg.info
		return p, p.next()
	case pageLoadedMsg:
		if !p.req.done(msg.req) {
			return p, nil
		}
		if msg.err != nil {
			return p, report(msg.err, false, p.id)
		}
		p.add(msg.result)
		return p, p.prefetch()
	case tea.KeyPressMsg:
		if p.inputOn {
			return p, p.updateInput(msg)
		}
		switch {
		case key.Matches(msg, p.c.Keys.GoTo):
			p.inputOn, p.inputErr = true, ""
			p.input.SetValue("")
			return p, p.input.Focus()
		case key.Matches(msg, p.c.Keys.Open):
			if len(p.rows) > 0 {
				return p, open(OpenPartition(p.c, p.info, p.rows[p.grid.Cursor()].key, p.tree))
			}
		case key.Matches(msg, p.c.Keys.Refresh):
			p.req.stop()
			p.rows, p.seen, p.lastKey, p.started, p.scanned, p.pages = nil, map[string]int{}, nil, false, 0, 0
			p.refreshRows()
			return p, p.Init()
		case key.Matches(msg, p.c.Keys.Back) && p.req.inFlight():
			p.req.stop()
		case key.Matches(msg, p.c.Keys.Back):
			return p, back
		default:
			if p.grid.Update(msg) {
				p.auto = 0
				return p, p.prefetch()
			}
		}
	}
	return p, nil
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
		v, err := model.ParseKeyValue(p.info.Key.PK.Type, p.input.Value())
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

// scanPageKeys bounds each Scan page: a Scan reads whole items however few
// partitions they hold, so small pages keep each step's cost small.
const scanPageKeys = 1000

// autoPages is how many pages load without the user asking: enough to fill
// a screen, never a whole table behind their back.
const autoPages = 3

// prefetch loads the next page before the cursor reaches the end.
func (p *Partitions) prefetch() tea.Cmd {
	if p.grid.Cursor() >= len(p.rows)-2*p.grid.Visible() && p.auto < autoPages {
		p.auto++
		return p.next()
	}
	return nil
}

func (p *Partitions) add(pg dynamo.Page) {
	p.pages++
	p.scanned += len(pg.Items)
	p.lastKey = pg.LastKey
	for _, it := range pg.Items {
		v, ok := dynamo.KeyValueOf(it[p.info.Key.PK.Name])
		if !ok {
			continue
		}
		id := v.Literal()
		if i, ok := p.seen[id]; ok {
			p.rows[i].keys++
			continue
		}
		p.seen[id] = len(p.rows)
		p.rows = append(p.rows, partitionRow{key: v, text: keyCell(v), keys: 1})
	}
	p.refreshRows()
}

// keyCell shows a key value: strings and numbers as they are, binaries base64.
func keyCell(v model.KeyValue) string {
	if v.Type == model.TypeB {
		return v.Literal()
	}
	return common.Sanitize(v.Text)
}

func (p *Partitions) refreshRows() {
	p.grid.SetRows(len(p.rows), func(r, col int) string {
		if col == 0 {
			return p.rows[r].text
		}
		more := ""
		if len(p.lastKey) > 0 {
			more = "+"
		}
		return common.Thousands(p.rows[r].keys) + more
	})
}

func (p *Partitions) SetSize(w, h int) { p.w, p.h = w, h }

func (p *Partitions) View() string {
	st := p.c.Styles
	h := p.h
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
				found = plural(len(p.matches), "match", "matches") + " among them, the first selected"
			}
			more := ""
			if len(p.lastKey) > 0 {
				more = " (more not scanned yet)"
			}
			input += "\n" + st.Dim.Render(fmt.Sprintf("%s loaded%s: %s · enter opens the key typed (%s is %s) · esc cancels",
				plural(len(p.rows), "partition", "partitions"), more, found, p.info.Key.PK.Name, p.info.Key.PK.Type))
		}
		h -= 4
	}
	p.grid.SetSize(p.w-4, h-2)
	state := "all"
	if len(p.lastKey) > 0 || !p.started {
		state = "more: scroll down to scan on"
	}
	title := fmt.Sprintf("%s · %s · %s", common.Sanitize(p.table), plural(len(p.rows), "partition", "partitions"), state)
	body := p.grid.View()
	if p.started && !p.req.inFlight() && len(p.rows) == 0 {
		body = st.Dim.Render("This table is empty.")
	}
	out := common.Frame(st, title, body, p.w, h)
	if p.inputOn {
		out += "\n" + common.Frame(st, "Go to partition", input, p.w, 4)
	}
	return out
}

func (p *Partitions) Crumbs() []string { return []string{p.table} }
func (p *Partitions) ID() int          { return p.id }
func (p *Partitions) Mode() string     { return "" }
func (p *Partitions) Loading() bool    { return p.req.inFlight() }
func (p *Partitions) Capturing() bool  { return p.inputOn }

func (p *Partitions) Request() string {
	names := p.info.Key.PK.Name
	if p.info.Key.SK != nil {
		names += ", " + p.info.Key.SK.Name
	}
	return fmt.Sprintf("Scan %s  ProjectionExpression: %s  (keys only) · %d pages · %s keys read",
		p.table, names, p.pages, common.Thousands(p.scanned))
}

func (p *Partitions) ShortHelp() []key.Binding {
	k := p.c.Keys
	if p.inputOn {
		return []key.Binding{k.Submit, k.Cancel}
	}
	return []key.Binding{k.Up, k.Down, k.Open, k.GoTo, k.Back, k.Help, k.Quit}
}

func (p *Partitions) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{k.Moves(), {k.Open, k.GoTo, k.Refresh}, {k.Back, k.Help, k.Quit}}
}

// OpenPartition is a partition's first view: the hierarchy where the sort
// key is a string or binary, the items where it is a number or absent.
func OpenPartition(c *common.Common, info dynamo.TableInfo, pk model.KeyValue, tree TreeOptions) common.Page {
	key, err := info.KeyFor(tree.Index)
	if err != nil {
		key = info.Key
	}
	if key.SK != nil && key.SK.Type != model.TypeN {
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
	names, err := model.ExpandPartitions(pattern)
	if err != nil {
		return nil, err
	}
	if info.Key.SK == nil || info.Key.SK.Type == model.TypeN {
		return nil, fmt.Errorf("shards are drilled by their sort-key hierarchy, and %s has none; open one shard", info.Name)
	}
	shards := make([]model.KeyValue, 0, len(names))
	for _, n := range names {
		v, err := model.ParseKeyValue(info.Key.PK.Type, n)
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
	if model.IsPattern(v) {
		return v
	}
	return ""
}
