package pages

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// DiffPicker is what = opens: the other side to compare with, another
// connection (configured environments, the profiles of ~/.aws/config)
// or another table of this one; enter compares.
type DiffPicker struct {
	c    *common.Common
	id   int
	info dynamo.TableInfo
	q    domain.KeyQuery
	list list.Paged[diffChoice] // the configured sides, then this connection's other tables
	// way is the breadcrumb of the place compared, as the page = was
	// pressed on names it (an item under a search's steps).
	way    []string
	w, hgt int
}

// diffChoice is one other side: a connection (side) with the same table,
// or another table of this connection.
type diffChoice struct {
	side  common.Side
	table string
	kind  string           // "table", or where the connection comes from
	key   dynamo.KeySchema // a table's key, once described
	other bool             // a table keyed otherwise: the comparison refuses it
}

// tablesNamedMsg is this connection's tables, for the picker, with the
// keys of those described (a table not described is checked when
// compared).
type tablesNamedMsg struct {
	page, req int
	names     []string
	keys      map[string]dynamo.KeySchema
	err       error
}

// diffPickDescribed bounds the tables the picker describes to tell those
// keyed otherwise: a DescribeTable each, free of RCU but a request.
const diffPickDescribed = 100

func (m tablesNamedMsg) PageID() int { return m.page }

// NewDiffPicker offers the other sides q (on info's table) can be
// compared with.
func NewDiffPicker(c *common.Common, info dynamo.TableInfo, q domain.KeyQuery) *DiffPicker {
	p := &DiffPicker{c: c, id: c.NextID(), info: info, q: q}
	p.list = list.NewPaged(c, list.Words{One: "side", Many: "sides", Reading: "this connection's tables are",
		Waiting: "reading the tables of this connection…",
		Empty:   "Nothing to compare with: this connection has no other table, and no environment or profile is configured."},
		// As wide as what each says: held to 56 cells, "another key, not
		// comparable: DocumentID S · DocumentInfo S" was cut in its
		// middle beside a table column with room to spare. Where both do
		// not fit (80 columns), the table's name stays whole.
		[]components.Column{{Title: "Compare with", Keep: true}, {Title: "Table", Keep: true}}, p.cell)
	p.list.Grid.SetRowStyle(func(r int) *lipgloss.Style {
		if r < p.list.Len() && p.list.Row(r).other {
			return &p.c.Styles.Dim
		}
		return nil
	})
	for _, s := range c.AgainstChoices {
		p.list.Add(diffChoice{side: s, table: info.Name, kind: "connection"})
	}
	return p
}

// Init lists this connection's tables: each other one is a side too,
// listed after the configured sides, described to tell those keyed
// otherwise (the comparison refuses them).
func (p *DiffPicker) Init() tea.Cmd {
	ctx, req := p.list.Next()
	c, id, self := p.c.Client, p.id, p.info.Name
	return func() tea.Msg {
		names, _, err := dynamo.ListTables(ctx, c)
		keys := map[string]dynamo.KeySchema{}
		for _, n := range names {
			if n == self || len(keys) == diffPickDescribed || ctx.Err() != nil {
				continue
			}
			if info, _, err := dynamo.DescribeTable(ctx, c, n); err == nil {
				keys[n] = info.Key
			}
		}
		return tablesNamedMsg{page: id, req: req, names: names, keys: keys, err: err}
	}
}

func (p *DiffPicker) cell(ch diffChoice, col int) string {
	if col == 1 {
		return common.Sanitize(ch.table)
	}
	switch {
	case ch.other:
		return "another key, not comparable: " + common.Sanitize(keyText(ch.key))
	case ch.kind == "table":
		return "another table of this connection"
	}
	return common.Sanitize(ch.side.Label)
}

func (p *DiffPicker) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case tablesNamedMsg:
		var tables, others []diffChoice
		for _, n := range msg.names {
			if n == p.info.Name || msg.err != nil {
				continue
			}
			ch := diffChoice{side: common.Side{Label: "table " + n}, table: n, kind: "table"}
			if k, ok := msg.keys[n]; ok && !sameKey(k, p.info.Key) {
				ch.key, ch.other = k, true
				others = append(others, ch) // listed last, dimmed: enter says why
				continue
			}
			tables = append(tables, ch)
		}
		tables = append(tables, others...)
		if !p.list.Answer(msg.req, tables, false, msg.err) {
			return p, nil
		}
		if msg.err != nil {
			return p, common.Report(msg.err, false, p.id)
		}
	case common.RetryMsg:
		return p, p.Init()
	case tea.KeyPressMsg:
		k := p.c.Keys
		switch {
		case key.Matches(msg, k.Back):
			p.list.Req.Stop()
			return p, back
		case key.Matches(msg, k.Open):
			ch, ok := p.list.Selected()
			switch {
			case ok && ch.other: // the comparison's own refusal, before any read
				return p, common.Report(anotherKey(ch.table, ch.key, p.info), false, p.id)
			case ok:
				d := NewDiff(p.c, p.info, p.q, ch.side, ch.table)
				d.place = p.place()
				return p, open(d)
			}
		default:
			p.list.Key(msg)
		}
	}
	return p, nil
}

func (p *DiffPicker) SetSize(w, h int) {
	p.w, p.hgt = w, h
	p.list.SetSize(w-4, h-2)
}

func (p *DiffPicker) View() string {
	title := "Compare " + common.Sanitize(p.describe()) + " with…"
	return common.Frame(p.c.Styles, title, p.list.View(), p.w, p.hgt)
}

// describe names what is compared: the partition, a prefix, one item.
func (p *DiffPicker) describe() string {
	return strings.Join(comparedPlace(p.info.Name, p.q), " › ")
}

func (p *DiffPicker) Shows() (table, index string) { return p.info.Name, p.q.Index }

// OpenedOver takes the breadcrumb of the place compared from the page
// = was pressed on.
func (p *DiffPicker) OpenedOver(below common.Page) { p.way = below.Crumbs() }

func (p *DiffPicker) Crumbs() []string {
	return append(p.place(), "=")
}

// place is the breadcrumb to what is compared: the page's beneath, else
// (opened alone) the query's.
func (p *DiffPicker) place() []string {
	if p.way != nil {
		return slices.Clone(p.way)
	}
	return comparedPlace(p.info.Name, p.q)
}
func (p *DiffPicker) ID() int         { return p.id }
func (p *DiffPicker) Mode() string    { return "" }
func (p *DiffPicker) Loading() bool   { return p.list.Req.InFlight() }
func (p *DiffPicker) Capturing() bool { return false }

// Request says what the picker read, and what enter will.
func (p *DiffPicker) Request() string {
	read := "ListTables, DescribeTable each (for the other tables and their keys) · "
	if p.otherSelected() {
		// enter refuses it before any read: "enter reads … on both
		// sides" promised a comparison of a table keyed otherwise.
		return read + "the selected table has another key: enter says why and reads nothing"
	}
	return read + "enter reads " + common.Sanitize(p.q.Expression()) + " on both sides, within the count budget"
}

// otherSelected reports whether the selected row is a table keyed
// otherwise, which enter refuses.
func (p *DiffPicker) otherSelected() bool {
	ch, ok := p.list.Selected()
	return ok && ch.other
}

// openKey is enter as it acts on the selected row: it compares, or on a
// table keyed otherwise says why not.
func (p *DiffPicker) openKey() key.Binding {
	o := p.c.Keys.Open
	o.SetHelp(o.Help().Key, "compare")
	if p.otherSelected() {
		o.SetHelp(o.Help().Key, "why not")
	}
	return o
}

func (p *DiffPicker) ShortHelp() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.Up, k.Down, p.openKey(), k.Search, k.Back, k.Help, k.Quit}
}

// FullHelp lists every move of the list (pgdn, g, G moved, unlisted).
func (p *DiffPicker) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{k.Moves(), {p.openKey(), k.Search, k.NextMatch, k.PrevMatch, k.Back}, {k.Help, k.Quit}}
}
