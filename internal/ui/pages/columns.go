package pages

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
)

// attrStats counts how often each attribute appears across the loaded rows
// (keys aside), as pages arrive: single-table items are wide and varied,
// so columns come from all of them, not from the first item.
type attrStats struct {
	keys map[string]bool
	freq map[string]int
	rows int
}

func newAttrStats(keys ...string) attrStats {
	s := attrStats{keys: map[string]bool{}, freq: map[string]int{}}
	for _, k := range keys {
		s.keys[k] = true
	}
	return s
}

func (s *attrStats) add(items []dynamo.Item) {
	for _, it := range items {
		for name := range it {
			if !s.keys[name] {
				s.freq[name]++
			}
		}
	}
	s.rows += len(items)
}

// loaded is what the filter bar checks bare words against: every
// attribute of the loaded rows, keys included.
func (s *attrStats) loaded() loadedAttrs {
	return loadedAttrs{rows: s.rows, known: func(name string) bool { return s.keys[name] || s.freq[name] > 0 }}
}

func (s *attrStats) reset() { s.freq, s.rows = map[string]int{}, 0 }

// byFrequency is every attribute seen, most common first, then by name.
func (s *attrStats) byFrequency() []string {
	attrs := make([]string, 0, len(s.freq))
	for name := range s.freq {
		attrs = append(attrs, name)
	}
	sort.Slice(attrs, func(i, j int) bool {
		if s.freq[attrs[i]] != s.freq[attrs[j]] {
			return s.freq[attrs[i]] > s.freq[attrs[j]]
		}
		return attrs[i] < attrs[j]
	})
	return attrs
}

// columns are the grid's attribute columns: the table's chosen ones (the
// picker, or columns in the configuration), else the limit most common.
func (s *attrStats) columns(c *common.Common, table string, limit int) []string {
	if chosen := c.Tables[table].Columns; len(chosen) > 0 {
		return chosen
	}
	all := s.byFrequency()
	return all[:min(len(all), limit)]
}

// columnPicker shows every attribute seen with how often it appears, to
// show, hide and reorder the grid's columns.
type columnPicker struct {
	names []string // shown ones first, in their order, then the rest by frequency
	shown map[string]bool
	stats *attrStats
	grid  components.Grid
}

func newColumnPicker(c *common.Common, stats *attrStats, current []string) *columnPicker {
	p := &columnPicker{shown: map[string]bool{}, stats: stats, grid: components.NewGrid(c)}
	for _, n := range current {
		p.names, p.shown[n] = append(p.names, n), true
	}
	for _, n := range stats.byFrequency() {
		if !p.shown[n] {
			p.names = append(p.names, n)
		}
	}
	p.grid.SetColumns([]components.Column{{Title: "show", Width: 4, Keep: true}, {Title: "attribute", Keep: true}, {Title: "in rows", Keep: true}})
	p.grid.SetRows(len(p.names), p.cell)
	return p
}

func (p *columnPicker) cell(r, col int) string {
	name := p.names[r]
	switch col {
	case 0:
		if p.shown[name] {
			return "[x]"
		}
		return "[ ]"
	case 1:
		return common.Sanitize(name)
	}
	n := p.stats.freq[name]
	if p.stats.rows == 0 {
		return "0"
	}
	return fmt.Sprintf("%s of %s (%d%%)", common.Thousands(n), common.Thousands(p.stats.rows), n*100/p.stats.rows)
}

// pickerResult is what a key in the picker decided.
type pickerResult struct {
	closed bool
	apply  bool
	cols   []string // nil with apply: back to the most common
}

// pickerKeys are the picker's own keys as its header line and its help
// both say them: enter keeps the choice, esc (or C again) cancels.
type pickerKeys struct{ keep, cancel key.Binding }

func columnPickerKeys(k keymap.KeyMap) pickerKeys {
	cancel := key.NewBinding(key.WithKeys(append(slices.Clone(k.Cancel.Keys()), k.Columns.Keys()...)...),
		key.WithHelp(k.Cancel.Help().Key+"/"+k.Columns.Help().Key, k.Cancel.Help().Desc))
	return pickerKeys{keep: renamed(k.Submit, "keep"), cancel: cancel}
}

func (p *columnPicker) key(msg tea.KeyPressMsg, k keymap.KeyMap) pickerResult {
	i := p.grid.Cursor()
	own := columnPickerKeys(k)
	switch {
	case key.Matches(msg, own.keep):
		return pickerResult{closed: true, apply: true, cols: p.chosen()}
	case key.Matches(msg, own.cancel):
		return pickerResult{closed: true}
	case key.Matches(msg, k.Auto):
		return pickerResult{closed: true, apply: true}
	case key.Matches(msg, k.Toggle):
		if len(p.names) > 0 {
			p.shown[p.names[i]] = !p.shown[p.names[i]]
		}
	case key.Matches(msg, k.MoveUp) && i > 0:
		p.names[i-1], p.names[i] = p.names[i], p.names[i-1]
		p.grid.SetCursor(i - 1)
	case key.Matches(msg, k.MoveDown) && i+1 < len(p.names):
		p.names[i+1], p.names[i] = p.names[i], p.names[i+1]
		p.grid.SetCursor(i + 1)
	default:
		p.grid.Update(msg)
	}
	return pickerResult{}
}

// chosen are the shown attributes, in the picker's order.
func (p *columnPicker) chosen() []string {
	var out []string
	for _, n := range p.names {
		if p.shown[n] {
			out = append(out, n)
		}
	}
	return out
}

// layout sizes the picker's list for w×h, below its line of keys.
func (p *columnPicker) layout(w, h int) { p.grid.SetSize(w, max(2, h-1)) }

func (p *columnPicker) view(c *common.Common, w, h int) string {
	k := c.Keys
	var said []string
	for _, b := range p.ownKeys(k) {
		switch {
		case sameBinding(b, k.MoveUp): // K/J move: the line fits 80 columns
			said = append(said, b.Help().Key+"/"+k.MoveDown.Help().Key+" move")
		case sameBinding(b, k.MoveDown):
		default:
			said = append(said, b.Help().Key+" "+b.Help().Desc)
		}
	}
	head := c.Styles.Dim.Render(components.Fit(strings.Join(said, " · "), w))
	st := c.Styles
	if len(p.names) == 0 {
		return head + "\n" + st.Dim.Render("No attributes loaded yet besides the keys.")
	}
	return head + "\n" + p.grid.View()
}

// ownKeys are the picker's keys, each as it acts here; its header line
// and its help say them from this one list.
func (p *columnPicker) ownKeys(k keymap.KeyMap) []key.Binding {
	own := columnPickerKeys(k)
	return []key.Binding{k.Toggle, k.MoveUp, k.MoveDown, own.keep, k.Auto, own.cancel}
}

func (p *columnPicker) help(k keymap.KeyMap) []key.Binding {
	return append([]key.Binding{k.Up, k.Down}, p.ownKeys(k)...)
}

// fullHelp is ?'s: every move of its list, its own keys, and / n N,
// which search the attributes as on every list.
func (p *columnPicker) fullHelp(k keymap.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Moves(), p.ownKeys(k), {k.Search, k.NextMatch, k.PrevMatch}}
}

// pickColumns hands a key to the open picker; when it closes with a
// choice, the choice is kept for the table and refresh redraws the grid.
func pickColumns(picker **columnPicker, c *common.Common, table string, msg tea.KeyPressMsg, refresh func()) tea.Cmd {
	res := (*picker).key(msg, c.Keys)
	if !res.closed {
		return nil
	}
	*picker = nil
	if !res.apply {
		return nil
	}
	cmd := chooseColumns(c, table, res.cols)
	refresh()
	return cmd
}

// chooseColumns records a table's columns for the session and writes them
// to the configuration file (in a command: it is I/O); nil goes back to the
// most common attributes.
func chooseColumns(c *common.Common, table string, cols []string) tea.Cmd {
	if c.Tables == nil {
		c.Tables = map[string]config.TableSettings{}
	}
	ts := c.Tables[table]
	ts.Columns = slices.Clone(cols)
	c.Tables[table] = ts
	what := "columns: " + strings.Join(cols, ", ")
	if len(cols) == 0 {
		what = "columns: the most common attributes"
	}
	save := c.SaveColumns
	if save == nil {
		return func() tea.Msg { return common.NoticeMsg{Text: common.Sanitize(what) + " (for this session)"} }
	}
	return func() tea.Msg {
		path, err := save(table, cols)
		if err != nil {
			return common.NoticeMsg{Text: common.Sanitize(what) + " for this session; not saved: " + common.Sanitize(err.Error())}
		}
		return common.NoticeMsg{Text: common.Sanitize(what) + " · saved for " + common.Sanitize(table) + " in " + common.Sanitize(path)}
	}
}

func sameBinding(a, b key.Binding) bool { return slices.Equal(a.Keys(), b.Keys()) }
