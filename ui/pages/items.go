package pages

import (
	"encoding/base64"
	"fmt"
	"sort"

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
// to the end of what is loaded.
type Items struct {
	c       *common.Common
	id      int
	info    dynamo.TableInfo
	query   model.KeyQuery
	items   []dynamo.Item
	lastKey dynamo.Item
	started bool
	pages   int
	cost    dynamo.Cost
	attrs   []string // grid attribute columns, most common first
	note    string   // said in the title, e.g. why there is no tree
	req     request
	grid    components.Grid
	w, h    int
}

// NewItems returns the items page of one partition.
func NewItems(c *common.Common, info dynamo.TableInfo, pk model.KeyValue) *Items {
	q := model.KeyQuery{Table: info.Name, PKName: info.Key.PK.Name, PK: pk}
	if info.Key.SK != nil {
		q.SKName = info.Key.SK.Name
	}
	return &Items{c: c, id: c.NextID(), info: info, query: q, grid: components.NewGrid(c)}
}

// NewItemsUnder returns the items whose sort key begins with prefix, in
// order: the Items mode of a drill-down level.
func NewItemsUnder(c *common.Common, info dynamo.TableInfo, pk model.KeyValue, prefix, index string) *Items {
	p := NewItems(c, info, pk)
	if key, err := info.KeyFor(index); err == nil && index != "" {
		p.query.Index, p.query.PKName = index, key.PK.Name
		p.query.SKName = ""
		if key.SK != nil {
			p.query.SKName = key.SK.Name
		}
	}
	if prefix != "" {
		p.query.SK = model.SKCondition{Op: model.SKBeginsWith, A: model.S(prefix)}
	}
	return p
}

func (p *Items) Init() tea.Cmd { return p.next() }

func (p *Items) next() tea.Cmd {
	if p.req.inFlight() || (p.started && len(p.lastKey) == 0) {
		return nil
	}
	p.started = true
	ctx, req := p.req.start(p.c.NextID)
	return queryPage(ctx, p.c.Client, p.id, req, dynamo.PageRequest{Query: p.query, Start: p.lastKey})
}

func (p *Items) reset() tea.Cmd {
	p.req.stop()
	p.items, p.lastKey, p.started, p.pages, p.cost, p.attrs = nil, nil, false, 0, dynamo.Cost{}, nil
	p.grid.SetCursor(0)
	p.refresh()
	return p.next()
}

func (p *Items) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		return p, p.next()
	case pageLoadedMsg:
		if !p.req.done(msg.req) {
			return p, nil
		}
		if msg.err != nil {
			return p, report(msg.err, false, p.id)
		}
		p.pages++
		p.cost = p.cost.Add(msg.result.Cost)
		p.items = append(p.items, msg.result.Items...)
		p.lastKey = msg.result.LastKey
		p.refresh()
		return p, p.prefetch()
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, p.c.Keys.Open):
			if len(p.items) > 0 {
				return p, open(NewItem(p.c, p.info, p.items[p.grid.Cursor()]))
			}
		case key.Matches(msg, p.c.Keys.Versions) && p.query.Index == "":
			return p, openVersions(p.c, p.info, p.query.PK)
		case key.Matches(msg, p.c.Keys.Range), key.Matches(msg, p.c.Keys.TimeMode):
			return p, open(NewTime(p.c, p.info, p.query.PK, p.query.Index, p.c.Now))
		case key.Matches(msg, p.c.Keys.Flip):
			p.query.Reverse = !p.query.Reverse
			return p, p.reset()
		case key.Matches(msg, p.c.Keys.Refresh):
			return p, p.reset()
		case key.Matches(msg, p.c.Keys.Back) && p.req.inFlight():
			p.req.stop()
		case key.Matches(msg, p.c.Keys.Back), key.Matches(msg, p.c.Keys.NextMode) && p.query.SK.Op == model.SKBeginsWith:
			return p, back
		default:
			if p.grid.Update(msg) {
				return p, p.prefetch()
			}
		}
	}
	return p, nil
}

func (p *Items) prefetch() tea.Cmd {
	if p.grid.Cursor() >= len(p.items)-2*p.grid.Visible() {
		return p.next()
	}
	return nil
}

// refresh recomputes the columns: the keys, then the attributes most
// common across the loaded rows (not just the first item's).
func (p *Items) refresh() {
	keys := map[string]bool{p.info.Key.PK.Name: true}
	cols := []components.Column{{Title: p.info.Key.PK.Name, Keep: true}}
	if p.info.Key.SK != nil {
		keys[p.info.Key.SK.Name] = true
		cols = append(cols, components.Column{Title: p.info.Key.SK.Name, Keep: true})
	}
	attrs := commonAttrs(p.items, keys, len(p.items), maxColumns)
	p.attrs = attrs
	for _, a := range attrs {
		cols = append(cols, components.Column{Title: common.Sanitize(a)})
	}
	p.grid.SetColumns(cols)
	nkeys := len(keys)
	p.grid.SetRows(len(p.items), func(r, col int) string {
		it := p.items[r]
		switch {
		case col == 0:
			return common.Cell(it[p.info.Key.PK.Name])
		case col == 1 && nkeys == 2:
			return common.Cell(it[p.info.Key.SK.Name])
		}
		return common.Cell(it[p.attrs[col-nkeys]])
	})
}

func (p *Items) SetSize(w, h int) { p.w, p.h = w, h }

func (p *Items) View() string {
	st := p.c.Styles
	listW := p.w
	wide := p.w >= 120
	if wide {
		listW = p.w * 11 / 20
	}
	p.grid.SetSize(listW-4, p.h-2)
	state := "all"
	if len(p.lastKey) > 0 || !p.started {
		state = "more as you scroll"
	}
	order := "ascending"
	if p.query.Reverse {
		order = "descending"
	}
	title := fmt.Sprintf("%s · %s items loaded · %s · %s", keyCell(p.query.PK), common.Thousands(len(p.items)), state, order)
	if p.note != "" {
		title += " · " + p.note
	}
	body := p.grid.View()
	if p.started && !p.req.inFlight() && len(p.items) == 0 {
		body = st.Dim.Render("No items in this partition.")
	}
	list := common.Frame(st, title, body, listW, p.h)
	if !wide {
		return list
	}
	preview := ""
	if len(p.items) > 0 {
		preview = renderJSON(st, p.items[p.grid.Cursor()], false, p.w-listW-4)
	}
	return joinH(list, common.Frame(st, "Item", preview, p.w-listW, p.h))
}

func (p *Items) Crumbs() []string {
	crumbs := []string{p.info.Name, keyCell(p.query.PK)}
	if p.query.SK.Op == model.SKBeginsWith {
		crumbs = append(crumbs, common.Sanitize(p.query.SK.A.Text)+"…")
	}
	return crumbs
}
func (p *Items) ID() int         { return p.id }
func (p *Items) Mode() string    { return "Items" }
func (p *Items) Loading() bool   { return p.req.inFlight() }
func (p *Items) Capturing() bool { return false }

func (p *Items) Request() string {
	return fmt.Sprintf("%s · %d req · %.1f RCU", p.query.Describe(), p.pages, p.cost.RCU)
}

func (p *Items) ShortHelp() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.Up, k.Down, k.Open, k.Flip, k.Range, k.Back, k.Help, k.Quit}
}

func (p *Items) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{k.Moves(), {k.Open, k.Flip, k.Versions, k.Range, k.Refresh, k.Copy, k.CopyKey, k.Export}, {k.Back, k.Help, k.Quit}}
}

// Query is what the page lists.
func (p *Items) Query() (model.KeyQuery, bool) { return p.query, true }

// DeepLink reopens the partition (at the prefix) from the command line.
func (p *Items) DeepLink() []string {
	args := []string{"--table", p.info.Name, "--pk", keyArg(p.query.PK)}
	if p.query.Index != "" {
		args = append(args, "--index", p.query.Index)
	}
	if p.query.SK.Op == model.SKBeginsWith {
		args = append(args, "--prefix", p.query.SK.A.Text)
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
// (the list's frame border is the body's first line).
func (p *Items) Click(y int) bool { return p.grid.Click(y - 1) }

// TableSize is the table's size in bytes, as DescribeTable gives it.
func (p *Items) TableSize() int64 { return p.info.SizeBytes }

// commonAttrs are the attribute names most common in the first sample
// items (keys aside), most common first, then by name; at most limit.
func commonAttrs(items []dynamo.Item, keys map[string]bool, sample, limit int) []string {
	freq := map[string]int{}
	for _, it := range items[:min(sample, len(items))] {
		for name := range it {
			if !keys[name] {
				freq[name]++
			}
		}
	}
	attrs := make([]string, 0, len(freq))
	for name := range freq {
		attrs = append(attrs, name)
	}
	sort.Slice(attrs, func(i, j int) bool {
		if freq[attrs[i]] != freq[attrs[j]] {
			return freq[attrs[i]] > freq[attrs[j]]
		}
		return attrs[i] < attrs[j]
	})
	return attrs[:min(len(attrs), limit)]
}
