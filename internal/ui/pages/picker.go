package pages

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
)

// choice is one line of a picker: its cells, and whether it is what the
// view uses now.
type choice struct {
	cells   []string
	current bool
}

// picker is a small list of choices shown in place of a view's rows (the
// index to read, the delimiter to split keys with), each with what it
// would read first, so that switching is one informed key instead of a
// request per keystroke. Choosing costs nothing until enter.
type picker struct {
	title   string
	note    string
	choices []choice
	grid    components.Grid
}

func newPicker(c *common.Common, title, note string, cols []string, choices []choice) *picker {
	p := &picker{title: title, note: note, choices: choices, grid: components.NewGrid(c)}
	columns := make([]components.Column, len(cols)+1)
	columns[0] = components.Column{Title: " ", Width: 2, Keep: true}
	for i, t := range cols {
		columns[i+1] = components.Column{Title: t, Keep: i == 0}
	}
	p.grid.SetColumns(columns)
	p.grid.SetRows(len(choices), func(r, col int) string {
		if col == 0 {
			if choices[r].current {
				return "●"
			}
			return ""
		}
		return common.Sanitize(choices[r].cells[col-1])
	})
	for i, ch := range choices {
		if ch.current {
			p.grid.SetCursor(i)
		}
	}
	return p
}

// key moves the cursor, or reports the choice made (enter) or that the
// picker was closed (esc): picked is -1 when nothing was chosen.
func (p *picker) key(msg tea.KeyPressMsg, k keymap.KeyMap) (picked int, closed bool) {
	switch {
	case key.Matches(msg, k.Open), key.Matches(msg, k.Submit):
		if len(p.choices) == 0 {
			return -1, true
		}
		return p.grid.Cursor(), true
	case key.Matches(msg, k.Back), key.Matches(msg, k.Cancel):
		return -1, true
	}
	p.grid.Update(msg)
	return -1, false
}

// selectedLines is the selected choice in full, to show below the list
// (columns are cut at 80): at most 3 lines of w-4 cells.
func (p *picker) selectedLines(w int) []string {
	if len(p.choices) == 0 {
		return nil
	}
	cells := p.choices[p.grid.Cursor()].cells
	wrapped := strings.Split(common.Wrap(common.Sanitize(strings.Join(cells, " · ")), max(1, w-4)), "\n")
	return wrapped[:min(len(wrapped), 3)]
}

// layout sizes the picker's list for a frame of w×h: the note above it
// and the selected choice below it take their lines.
func (p *picker) layout(w, h int) {
	lines := 0
	if p.note != "" {
		lines = 1
	}
	if sel := p.selectedLines(w); sel != nil {
		lines += 1 + len(sel)
	}
	p.grid.SetSize(w-4, max(2, min(len(p.choices)+1, h-2-lines)))
}

// view is the picker in a frame of w×h (as laid out).
func (p *picker) view(st *common.Styles, w, h int) string {
	body := ""
	if p.note != "" {
		body = components.Fit(st.Dim.Render(p.note), w-4) + "\n"
	}
	detail := ""
	if sel := p.selectedLines(w); sel != nil {
		for i, l := range sel {
			sel[i] = st.Notice.Render(l)
		}
		detail = "\n\n" + strings.Join(sel, "\n")
	}
	return common.Frame(st, p.title, body+p.grid.View()+detail, w, h)
}

func (p *picker) help(k keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Open, k.Cancel}
}

// fullHelp is ?'s: every move of its list, enter and esc, and / n N,
// which search the choices as on every list (left off the help line,
// where the moves would give way to them at 80 columns).
func (p *picker) fullHelp(k keymap.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Moves(), {k.Open, k.Cancel}, {k.Search, k.NextMatch, k.PrevMatch}}
}

// keysText is a key schema as the picker shows it: "City S · SK S",
// "`g s` S" (a name in backticks where it is no plain word).
func keysText(k dynamo.KeySchema) string {
	s := domain.NameText(k.PK.Name) + " " + string(k.PK.Type)
	if k.SK != nil {
		s += " · " + domain.NameText(k.SK.Name) + " " + string(k.SK.Type)
	}
	return s
}

// projectionText says what an index holds of each item.
func projectionText(ix dynamo.Index) string {
	switch ix.Projection {
	case "ALL":
		return "all attributes"
	case "KEYS_ONLY":
		return "keys only"
	case "INCLUDE":
		return "keys + " + strings.Join(ix.NonKeyAttributes, ", ")
	}
	return strings.ToLower(ix.Projection)
}

// indexFor finds an index of the table by name.
func indexFor(info dynamo.TableInfo, name string) (dynamo.Index, bool) {
	for _, ix := range info.Indexes {
		if ix.Name == name {
			return ix, true
		}
	}
	return dynamo.Index{}, false
}

// partialProjection reports whether items read through index lack
// attributes of the base table's items (an index that is not ALL).
func partialProjection(info dynamo.TableInfo, index string) (dynamo.Index, bool) {
	ix, ok := indexFor(info, index)
	return ix, ok && ix.Projection != "ALL"
}

// indexChoices are the base table and each index, with its keys, its
// projection and what choosing it reads first, from a partition (pk set:
// an index keyed by the same attribute drills the same partition) or from
// the table (every index opens its partitions). pkName is the partition
// key attribute of the partition open now ("" at the table).
func indexChoices(info dynamo.TableInfo, current, pkName string) ([]choice, []string) {
	first := func(key dynamo.KeySchema, _ string) string {
		switch {
		case key.PK.Name == pkName && key.SK != nil && key.SK.Type != domain.TypeN:
			return "this partition's tree (skip-scan)"
		case key.PK.Name == pkName:
			return "this partition's items (1 Query)"
		case key.SK != nil:
			return "its partitions (skip-scan)"
		}
		return fmt.Sprintf("its partitions (keys-only Scan, %s a page)", common.Thousands(scanPageKeys))
	}
	choices := []choice{{cells: []string{info.Name, "table", keysText(info.Key), "all attributes", first(info.Key, "the table")}, current: current == ""}}
	for _, ix := range info.Indexes {
		choices = append(choices, choice{cells: []string{ix.Name, ix.Kind, keysText(ix.Key), projectionText(ix), first(ix.Key, ix.Name)}, current: current == ix.Name})
	}
	return choices, []string{"Name", "Kind", "Keys", "Projection", "Reads first"}
}

// noIndexes is what i says on a table with no index: a picker of one
// row (the table) would offer a choice there is not.
func noIndexes(info dynamo.TableInfo) string {
	return "no indexes: " + common.Sanitize(info.Name) + " has no GSI or LSI, it is read through its own key"
}

// indexKey is i where it picks something: on a table with an index.
func indexKey(b key.Binding, info dynamo.TableInfo) key.Binding {
	return common.On(b, len(info.Indexes) > 0)
}

// indexAt is the index a choice of indexChoices names ("" for the base).
func indexAt(info dynamo.TableInfo, i int) string {
	if i <= 0 || i > len(info.Indexes) {
		return ""
	}
	return info.Indexes[i-1].Name
}

// pickerDelimiters are the delimiters the picker offers: those dynascope
// knows, and the level's own where it is another (::, §, →, detected or
// given), which the picker did not offer: picking on a level cut at ::
// cut it at : or elsewhere, with no way back but esc.
func pickerDelimiters(inUse string) []string {
	if inUse == "" || inUse == domain.NoDelimiter || slices.Contains(domain.Delimiters, inUse) {
		return domain.Delimiters
	}
	return append(slices.Clone(domain.Delimiters), inUse)
}

// delimiterChoices are the delimiters the picker offers (pickerDelimiters
// of inUse), each with how it would split the keys already loaded:
// nothing is read to show them.
func delimiterChoices(current, inUse string, keys []string) ([]choice, string) {
	var choices []choice
	for _, d := range pickerDelimiters(inUse) {
		split, sample := 0, ""
		for _, k := range keys {
			if segs := domain.Segments(k, d); len(segs) > 1 {
				split++
				if sample == "" {
					sample = strings.Join(segs, " › ")
				}
			}
		}
		if sample == "" && len(keys) > 0 {
			sample = "(no split) " + keys[0]
		}
		choices = append(choices, choice{cells: []string{d, fmt.Sprintf("%d of %d", split, len(keys)), sample}, current: d == current})
	}
	// No delimiter: every key a row of its own, nothing split.
	whole := ""
	if len(keys) > 0 {
		whole = "(no split) " + keys[0]
	}
	choices = append(choices, choice{cells: []string{"no delimiter", fmt.Sprintf("0 of %d", len(keys)), whole}, current: current == domain.NoDelimiter})
	note := fmt.Sprintf("how each would split the %s loaded here; enter re-reads the level with it", common.Plural(len(keys), "key", "keys"))
	if len(keys) == 0 {
		note = "no keys loaded here to show a split; enter reads the level with the one chosen"
	}
	return choices, note
}
