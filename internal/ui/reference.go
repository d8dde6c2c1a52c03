package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// refsFoundMsg answers >: the partitions the selected item's values name.
type refsFoundMsg struct {
	info   dynamo.TableInfo
	looked []dynamo.Reference
	found  []dynamo.Reference
	err    error
}

// refPickedMsg opens one of several references.
type refPickedMsg struct {
	info dynamo.TableInfo
	ref  dynamo.Reference
}

// followReference looks for the partitions the selected item names; the
// reads (one key each) run in a command.
func (m *Model) followReference() tea.Cmd {
	sel, ok := m.top().(pages.ItemSelector)
	var item dynamo.Item
	var info dynamo.TableInfo
	if ok {
		item, info, ok = sel.SelectedItem()
	}
	if !ok {
		// No item here (the tables, partitions, a tree's prefixes): >
		// said nothing.
		b := m.c.Keys.RefFollow.Help()
		m.sayWhy(b.Key+" "+b.Desc+" does not apply here", "it follows a value of the selected item that names a partition (Items, Time mode, an item)")
		return nil
	}
	cands := dynamo.ReferenceCandidates(info, item)
	if len(cands) == 0 {
		m.fail(dynamo.Errorf("follow reference", dynamo.KindNotFound, "> follows an attribute whose value is a partition key of this table or of an index keyed by that attribute",
			"no attribute of this item can name a partition of %s or its indexes", info.Name), 0)
		return nil
	}
	ctx, client := m.c.Context(), m.c.Client
	return func() tea.Msg {
		found, _, err := dynamo.FindReferences(ctx, client, info, cands)
		return refsFoundMsg{info: info, looked: cands, found: found, err: err}
	}
}

// refsFound opens the one partition found, offers a choice of several,
// or says where it looked.
func (m *Model) refsFound(msg refsFoundMsg) tea.Cmd {
	switch {
	case msg.err != nil:
		m.fail(msg.err, 0)
		return nil
	case len(msg.found) == 0:
		m.fail(dynamo.Errorf("follow reference", dynamo.KindNotFound, "looked in "+lookedAt(msg.info, msg.looked),
			"no partition is named by this item's values"), 0)
		return nil
	case len(msg.found) == 1:
		return m.jump(msg.info, msg.found[0])
	}
	return m.pushOver(&refPicker{c: m.c, id: m.c.NextID(), info: msg.info, refs: msg.found, looked: len(msg.looked)})
}

// refLabel names a reference: the attribute and value, and where.
func refLabel(info dynamo.TableInfo, r dynamo.Reference) string {
	where := info.Name
	if r.Index != "" {
		where = "index " + r.Index
	}
	return fmt.Sprintf("%s = %s → %s", r.Attr, r.PK.Literal(), where)
}

func lookedAt(info dynamo.TableInfo, refs []dynamo.Reference) string {
	var parts []string
	for _, r := range refs {
		parts = append(parts, refLabel(info, r))
	}
	return strings.Join(parts, "; ")
}

// jump opens a partition a reference names, remembering the views left
// for < (and ctrl+o), which ctrl+i redoes.
func (m *Model) jump(info dynamo.TableInfo, r dynamo.Reference) tea.Cmd {
	from := m.stack
	if _, picking := m.top().(*refPicker); picking {
		from = from[:len(from)-1] // < comes back to the item, not the choice
	}
	m.back = append(m.back, from)
	if len(m.back) > maxHistory {
		m.back = m.back[1:]
	}
	m.fwd = nil
	m.prune()
	tree := pages.TreeOptionsFor(m.c, info.Name)
	tree.Index = r.Index
	part := pages.NewPartitions(m.c, info.Name, info, tree)
	m.started[part] = true // read only if esc climbs to it
	stack := []common.Page{m.stack[0], part}
	m.stack = stack
	m.lastErr = nil
	return m.push(pages.OpenPartition(m.c, info, r.PK, tree))
}

// maxHistory is how many moves < and ctrl+o can undo.
const maxHistory = 100

// rememberViews notes the views on screen before a move (opening a view,
// climbing out of one), for < and ctrl+o; a new move forgets what ctrl+i
// could redo.
func (m *Model) rememberViews() {
	m.back = append(m.back, slices.Clone(m.stack))
	if len(m.back) > maxHistory {
		m.back = m.back[1:]
	}
	m.fwd = nil
	m.prune()
}

// prune forgets the pages neither on screen nor in the history any more
// (the oldest move dropped, the moves ctrl+i could redo): what they read
// is let go.
func (m *Model) prune() {
	for p := range m.started {
		if !slices.Contains(m.stack, p) {
			m.forget(p)
		}
	}
}

// forget notes that page p has left the screen: it is read afresh if it
// is ever opened again, unless < or ctrl+i can still bring it back, as it
// was, with what it had read.
func (m *Model) forget(p common.Page) {
	for _, stacks := range [][][]common.Page{m.back, m.fwd} {
		for _, stack := range stacks {
			if slices.Contains(stack, p) {
				return
			}
		}
	}
	delete(m.started, p)
}

// history moves back (<, ctrl+o) or forward (ctrl+i) through the views
// shown before: each view opened, climbed out of or reached by following
// a reference.
func (m *Model) history(forward bool) tea.Cmd {
	from, to := &m.back, &m.fwd
	if forward {
		from, to = &m.fwd, &m.back
	}
	if len(*from) == 0 {
		m.say("no view to go " + map[bool]string{false: "back", true: "forward"}[forward] + " to")
		return nil
	}
	left := m.top()
	*to = append(*to, m.stack)
	m.stack = (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	m.lastErr = nil
	if l, ok := left.(common.Leaver); ok && m.top() != left {
		l.Leave() // the view left stops following, as a mode switch stops it
	}
	return m.startTop()
}

// refPicker offers the partitions an item names when several fit.
type refPicker struct {
	c      *common.Common
	id     int
	info   dynamo.TableInfo
	refs   []dynamo.Reference
	looked int // candidates read
	cursor int
	w, h   int
}

func (p *refPicker) ID() int                      { return p.id }
func (p *refPicker) Init() tea.Cmd                { return nil }
func (p *refPicker) SetSize(w, h int)             { p.w, p.h = w, h }
func (p *refPicker) Shows() (table, index string) { return p.info.Name, "" }
func (p *refPicker) Crumbs() []string             { return []string{p.info.Name, "references"} }
func (p *refPicker) Mode() string                 { return "" }
func (p *refPicker) Loading() bool                { return false }
func (p *refPicker) Capturing() bool              { return false }

// Overlay: the picker is a choice over the item, so q closes it (back to
// the item) rather than quitting.
func (p *refPicker) Overlay() bool         { return true }
func (p *refPicker) CloseOverlay() tea.Cmd { return func() tea.Msg { return common.BackMsg{} } }
func (p *refPicker) Request() string {
	return fmt.Sprintf("%s found %s named by the item", common.Plural(p.looked, "one-key Query read", "one-key Query reads"), common.Plural(len(p.refs), "partition", "partitions"))
}

func (p *refPicker) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	keys := p.c.Keys
	switch {
	case key.Matches(k, keys.Up):
		p.cursor = max(0, p.cursor-1)
	case key.Matches(k, keys.Down):
		p.cursor = min(len(p.refs)-1, p.cursor+1)
	case key.Matches(k, keys.Open):
		info, r := p.info, p.refs[p.cursor]
		return p, func() tea.Msg { return refPickedMsg{info: info, ref: r} }
	case key.Matches(k, keys.Back):
		return p, func() tea.Msg { return common.BackMsg{} }
	}
	return p, nil
}

func (p *refPicker) View() string {
	st := p.c.Styles
	lines := []string{st.Dim.Render("This item's values name several partitions:"), ""}
	for i, r := range p.refs {
		line := common.Sanitize(refLabel(p.info, r))
		if i == p.cursor {
			line = st.Selected.Render(line)
		}
		lines = append(lines, line)
	}
	return common.Frame(st, "Follow which reference?", strings.Join(lines, "\n"), p.w, p.h)
}

func (p *refPicker) ShortHelp() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.Up, k.Down, k.Open, k.Back, k.Help, k.Quit}
}

func (p *refPicker) FullHelp() [][]key.Binding {
	return [][]key.Binding{p.ShortHelp()}
}
