package pages

import (
	"encoding/base64"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/model"
	"github.com/dynascope/dynascope/ui/common"
	"github.com/dynascope/dynascope/ui/components"
)

// maxColumns bounds the grid's attribute columns; the item view shows all.
const maxColumns = 8

// Items lists a partition in sort-key order, one Query page at a time: the
// first page fills the screen, the next is fetched before the cursor gets
// to the end of what is loaded. f filters it (DynamoDB's condition syntax,
// sent as a FilterExpression) and C picks its columns.
type Items struct {
	c      *common.Common
	id     int
	info   dynamo.TableInfo
	pg     pager
	stats  attrStats
	attrs  []string // grid attribute columns
	note   string   // said in the title, e.g. why there is no tree
	filter filterBar
	picker *columnPicker // open while choosing columns
	grid   components.Grid
	w, h   int
}

// NewItems returns the items page of one partition.
func NewItems(c *common.Common, info dynamo.TableInfo, pk model.KeyValue) *Items {
	q := model.KeyQuery{Table: info.Name, PKName: info.Key.PK.Name, PK: pk}
	keys := []string{info.Key.PK.Name}
	if info.Key.SK != nil {
		q.SKName = info.Key.SK.Name
		keys = append(keys, info.Key.SK.Name)
	}
	id := c.NextID()
	return &Items{c: c, id: id, info: info, pg: newPager(c, id, q), stats: newAttrStats(keys...), filter: newFilterBar(), grid: components.NewGrid(c)}
}

// NewItemsUnder returns the items whose sort key begins with prefix, in
// order: the Items mode of a drill-down level.
func NewItemsUnder(c *common.Common, info dynamo.TableInfo, pk model.KeyValue, prefix, index string) *Items {
	p := NewItems(c, info, pk)
	q := &p.pg.query
	if key, err := info.KeyFor(index); err == nil && index != "" {
		q.Index, q.PKName = index, key.PK.Name
		q.SKName = ""
		if key.SK != nil {
			q.SKName = key.SK.Name
		}
		p.pg.tableKeys = &info.Key
	}
	if prefix != "" {
		q.SK = model.SKCondition{Op: model.SKBeginsWith, A: model.S(prefix)}
	}
	return p
}

// filterItems opens q's items with the filter bar open: f on a page that
// lists something other than items (a drill-down level's children, the
// versions list) filters the items behind it.
func filterItems(c *common.Common, info dynamo.TableInfo, q model.KeyQuery, note string) tea.Cmd {
	p := NewItems(c, info, q.PK)
	p.pg.query, p.note = q, note
	if q.Index != "" {
		p.pg.tableKeys = &info.Key
	}
	return tea.Batch(open(p), p.filter.open(q.Filter))
}

// Filter applies a filter from the start (a deep link's --filter).
func (p *Items) Filter(n model.FilterNode) { p.pg.query.Filter = n }

func (p *Items) Init() tea.Cmd {
	if p.filter.editing() {
		return nil // the filter comes first
	}
	return p.pg.next()
}

func (p *Items) reset(q model.KeyQuery) tea.Cmd {
	p.grid.SetCursor(0)
	p.stats.reset()
	cmd := p.pg.restart(q)
	p.refresh()
	return cmd
}

func (p *Items) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		return p, p.pg.next()
	case pageLoadedMsg:
		n := len(p.pg.items)
		ok, cmd := p.pg.loaded(msg)
		if !ok {
			return p, cmd
		}
		p.stats.add(p.pg.items[n:])
		p.refresh()
		return p, p.prefetch(false)
	case tea.KeyPressMsg:
		return p, p.key(msg)
	}
	return p, nil
}

func (p *Items) key(msg tea.KeyPressMsg) tea.Cmd {
	k := p.c.Keys
	if p.filter.editing() {
		res, cmd := p.filter.key(msg, k)
		if !res.done {
			if !p.filter.editing() && !p.pg.started {
				return p.pg.next() // esc before the first read: list everything
			}
			return cmd
		}
		q := p.pg.query
		q.Filter = res.filter
		return p.reset(q)
	}
	if p.picker != nil {
		return pickColumns(&p.picker, p.c, p.info.Name, msg, p.refresh)
	}
	items := p.pg.items
	switch {
	case key.Matches(msg, k.Open):
		if len(items) > 0 {
			return open(NewItem(p.c, p.info, items[p.grid.Cursor()]))
		}
	case key.Matches(msg, k.Filter):
		return p.filter.open(p.pg.query.Filter)
	case key.Matches(msg, k.Columns):
		p.picker = newColumnPicker(p.c, &p.stats, p.attrs)
	case key.Matches(msg, k.Versions) && p.pg.query.Index == "":
		return openVersions(p.c, p.info, p.pg.query.PK)
	case key.Matches(msg, k.Range), key.Matches(msg, k.TimeMode):
		t := NewTime(p.c, p.info, p.pg.query.PK, p.pg.query.Index, p.c.Now)
		t.Filter(p.pg.query.Filter)
		return open(t)
	case key.Matches(msg, k.Flip):
		q := p.pg.query
		q.Reverse = !q.Reverse
		return p.reset(q)
	case key.Matches(msg, k.Refresh):
		return p.reset(p.pg.query)
	case key.Matches(msg, k.Back) && p.pg.req.inFlight():
		p.pg.req.stop()
	case key.Matches(msg, k.Back), key.Matches(msg, k.NextMode) && p.pg.query.SK.Op == model.SKBeginsWith:
		return back
	default:
		if p.grid.Update(msg) {
			return p.prefetch(true)
		}
	}
	return nil
}

// prefetch reads on until the screen past the cursor is full; user says
// a key asked for it (a new filter budget).
func (p *Items) prefetch(user bool) tea.Cmd {
	return p.pg.fill(p.grid.Cursor(), p.grid.Visible(), user)
}

// refresh recomputes the columns: the keys, then the table's chosen
// attributes or those most common across the loaded rows.
func (p *Items) refresh() {
	// The partition key is the same on every row: the title says it once.
	var keys []string
	var cols []components.Column
	if p.pg.query.Index != "" {
		keys = []string{p.info.Key.PK.Name}
		cols = []components.Column{{Title: p.info.Key.PK.Name, Keep: true}}
	}
	if p.info.Key.SK != nil {
		keys = append(keys, p.info.Key.SK.Name)
		cols = append(cols, components.Column{Title: p.info.Key.SK.Name, Keep: true})
	}
	p.attrs = p.stats.columns(p.c, p.info.Name, maxColumns)
	for _, a := range p.attrs {
		cols = append(cols, components.Column{Title: common.Sanitize(a)})
	}
	p.grid.SetColumns(cols)
	p.grid.SetRows(len(p.pg.items), func(r, col int) string {
		it := p.pg.items[r]
		if col < len(keys) {
			return common.Cell(it[keys[col]])
		}
		return common.Cell(it[p.attrs[col-len(keys)]])
	})
}

func (p *Items) SetSize(w, h int) { p.w, p.h = w, h }

// head is the filter bar (and its error or note while typed): the lines
// above the grid.
func (p *Items) head(width int) []string {
	return p.filter.lines(p.c.Styles, width, p.pg.query.Filter)
}

func (p *Items) View() string {
	st := p.c.Styles
	listW := p.w
	wide := p.c.ShowPreview(p.w)
	if wide {
		listW = p.w * 11 / 20
	}
	head := p.head(listW - 4)
	p.grid.SetSize(listW-4, p.h-2-len(head))
	order := "ascending"
	if p.pg.query.Reverse {
		order = "descending"
	}
	title := fmt.Sprintf("%s · %s · %s", keyCell(p.pg.query.PK), p.pg.state(), order)
	if p.note != "" {
		title += " · " + p.note
	}
	body := p.grid.View()
	if why := p.pg.empty("this partition"); why != "" {
		body = st.Dim.Render(why)
	}
	if p.picker != nil {
		title = "Columns of " + common.Sanitize(p.info.Name) + " · every attribute in the " + common.Thousands(p.stats.rows) + " rows loaded"
		body = p.picker.view(st, listW-4, p.h-2-len(head))
	}
	if len(head) > 0 {
		body = strings.Join(head, "\n") + "\n" + body
	}
	list := common.Frame(st, title, body, listW, p.h)
	if !wide {
		return list
	}
	preview := ""
	if len(p.pg.items) > 0 {
		preview = renderJSON(st, p.pg.items[p.grid.Cursor()], false, p.w-listW-4)
	}
	return joinH(list, common.Frame(st, "Item", preview, p.w-listW, p.h))
}

func (p *Items) Crumbs() []string {
	crumbs := []string{p.info.Name, keyCell(p.pg.query.PK)}
	if p.pg.query.SK.Op == model.SKBeginsWith {
		crumbs = append(crumbs, common.Sanitize(p.pg.query.SK.A.Text)+"…")
	}
	return crumbs
}
func (p *Items) ID() int         { return p.id }
func (p *Items) Mode() string    { return "Items" }
func (p *Items) Loading() bool   { return p.pg.req.inFlight() }
func (p *Items) Capturing() bool { return p.filter.editing() }

func (p *Items) Request() string { return p.pg.request() }

func (p *Items) ShortHelp() []key.Binding {
	k := p.c.Keys
	switch {
	case p.filter.editing():
		return []key.Binding{k.Submit, k.Cancel}
	case p.picker != nil:
		return p.picker.help(k)
	}
	return []key.Binding{k.Up, k.Down, k.Open, k.Search, k.Filter, k.NextMode, k.Back, k.Help, k.Quit}
}

func (p *Items) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{k.Moves(), {k.Open, k.Search, k.NextMatch, k.PrevMatch, k.Filter, k.Columns, k.Flip, k.Preview}, modeHelp(k, p.Modes()), {k.Range, k.Refresh, k.Copy, k.CopyKey, k.Export}, {k.Back, k.Help, k.Quit}}
}

// Query is what the page lists.
func (p *Items) Query() (model.KeyQuery, bool) { return p.pg.query, true }

// DeepLink reopens the partition (at the prefix) from the command line.
func (p *Items) DeepLink() []string {
	args := []string{"--table", p.info.Name, "--pk", keyArg(p.pg.query.PK)}
	if p.pg.query.Index != "" {
		args = append(args, "--index", p.pg.query.Index)
	}
	if p.pg.query.SK.Op == model.SKBeginsWith {
		args = append(args, "--prefix", p.pg.query.SK.A.Text)
	}
	if p.pg.query.Filter != nil {
		args = append(args, "--filter", model.FormatFilter(p.pg.query.Filter))
	}
	return args
}

// keyArg is a key value as typed on the command line (binary as base64).
func keyArg(v model.KeyValue) string {
	if v.Type == model.TypeB {
		return base64.StdEncoding.EncodeToString(v.Bytes)
	}
	return v.Text
}

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
