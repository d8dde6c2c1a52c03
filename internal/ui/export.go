package ui

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
)

// exportJob is one export, once the file is named.
type exportJob func(ctx context.Context, path string, progress func(items, pages int, cost dynamo.Cost)) (int, error)

// exportState is an export being named or running.
type exportState struct {
	input   components.TextInput
	naming  bool
	running bool
	cancel  context.CancelFunc
	job     exportJob
	// done is told the items a query's export wrote (nil: none to tell,
	// or an export of rows already loaded).
	done func(items int)
	noun string // what is exported: items, children, …
	cost string // what it will cost, said while naming
	path string
	// dir is where a relative file name is written ("": the working
	// directory). Tests point it at their temporary directory, so that
	// the suite never writes into the source tree.
	dir   string
	items int
	pages int
	spent dynamo.Cost // the export's reads, billed as the status bar bills them
	id    int
}

type exportProgressMsg struct {
	id           int
	items, pages int
	cost         dynamo.Cost
	done         bool
	err          error
	where        string // the file written, with its folder (when done)
	next         <-chan exportProgressMsg
}

// startExport asks for a file for the page on top: what it has loaded
// (children, versioned items, revisions), else what its query returns.
// It reports whether the page has anything to export.
func (m *Model) startExport() (tea.Cmd, bool) {
	if ex, ok := m.top().(common.Exportable); ok {
		return m.exportLoaded(ex), true
	}
	q, ok := m.top().(common.Querier)
	if !ok {
		return nil, false
	}
	query, ok := q.Query()
	if !ok {
		return nil, false
	}
	cost := "reads all the view lists"
	if sz, ok := m.top().(common.Sizer); ok && sz.TableSize() > 0 {
		cost = fmt.Sprintf("at most ~%.0f RCU (the table's size)", float64(sz.TableSize())/4096*0.5)
	}
	job := func(ctx context.Context, path string, progress func(int, int, dynamo.Cost)) (int, error) {
		return export.QueryToFile(ctx, m.cfg.Client, query, path, export.Options{Progress: progress})
	}
	cmd := m.startNaming([]string{query.Table, query.PK.Text}, "items", cost, job)
	if c, ok := m.top().(common.ExportCounter); ok {
		m.export.done = c.ExportStarted()
	}
	return cmd, true
}

// exportLoaded exports what the page has read: no request, no RCU.
func (m *Model) exportLoaded(ex common.Exportable) tea.Cmd {
	loaded, ok := ex.Loaded()
	if !ok {
		m.say("still reading: export once the list is complete")
		return nil
	}
	job := func(_ context.Context, path string, _ func(int, int, dynamo.Cost)) (int, error) {
		return export.RowsToFile(loaded.Rows, path)
	}
	return m.startNaming(loaded.View, loaded.Rows.Noun, "already loaded: 0 RCU", job)
}

// startNaming asks for the file, with a name made from the view.
func (m *Model) startNaming(view []string, noun, cost string, job exportJob) tea.Cmd {
	e := &m.export
	e.input = components.NewTextInput("export to › ")
	parts := []string{"dynascope"}
	for _, v := range view {
		if v != "" {
			parts = append(parts, v)
		}
	}
	name := exportName(parts)
	e.input.SetValue(name)
	e.input.CursorEnd()
	e.naming, e.job, e.noun, e.cost, e.done = true, job, noun, cost, nil
	return e.input.Focus()
}

// exportNamingKeys are the help line while the file is named: every
// other key is text in the name (? and q too).
func exportNamingKeys(k keymap.KeyMap) []key.Binding {
	submit := k.Submit
	submit.SetHelp(submit.Help().Key, "export")
	return []key.Binding{submit, k.Cancel}
}

// exportKey handles keys while an export is named or running; it reports
// whether it took the key.
func (m *Model) exportKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	e := &m.export
	k := m.c.Keys
	switch {
	case e.running && key.Matches(msg, k.Back):
		e.cancel()
		return nil, true
	case !e.naming:
		return nil, false
	case key.Matches(msg, k.Cancel):
		e.naming = false
		return nil, true
	case key.Matches(msg, k.Submit):
		e.naming = false
		return m.runExport(strings.TrimSpace(e.input.Value())), true
	}
	var cmd tea.Cmd
	e.input, cmd = e.input.Update(msg)
	return cmd, true
}

// runExport starts the export in its command, under the program's
// context: quitting stops it.
func (m *Model) runExport(path string) tea.Cmd {
	e := &m.export
	ctx, cancel := context.WithCancel(m.c.Context())
	e.id++
	e.running, e.cancel, e.path, e.items, e.pages, e.spent = true, cancel, path, 0, 0, dynamo.Cost{}
	id, job := e.id, e.job
	file := path
	if e.dir != "" && !filepath.IsAbs(path) {
		file = filepath.Join(e.dir, path)
	}
	return common.Stream(16, func(ch chan exportProgressMsg) {
		n, err := job(ctx, file, func(items, pages int, cost dynamo.Cost) {
			select { // progress; skipped when the screen has not caught up
			case ch <- exportProgressMsg{id: id, items: items, pages: pages, cost: cost, next: ch}:
			default:
			}
		})
		where, aerr := filepath.Abs(file) // the folder said, not only the name typed
		if aerr != nil {
			where = file
		}
		ch <- exportProgressMsg{id: id, items: n, done: true, err: err, where: where, next: ch}
	})
}

func (m *Model) exportProgress(msg exportProgressMsg) tea.Cmd {
	e := &m.export
	if msg.id != e.id {
		return nil
	}
	if !msg.done {
		e.items, e.pages, e.spent = msg.items, msg.pages, msg.cost
		return common.Next(msg.next)
	}
	e.running = false
	e.cancel()
	if msg.err != nil {
		m.fail(msg.err, 0)
		var bad *export.TargetError
		if errors.As(msg.err, &bad) && msg.items == 0 {
			e.naming = true // the name was refused: the prompt again, the text kept
			return e.input.Focus()
		}
		return nil
	}
	if e.done != nil {
		e.done(msg.items)
	}
	noun := e.noun
	if msg.items == 1 {
		noun = singular(noun)
	}
	// The count first; the file after, cut in its middle where the line
	// is short, so that its name stays.
	m.sayMore(fmt.Sprintf("exported %s %s", common.Thousands(msg.items), noun), "to "+msg.where)
	return nil
}

// exportLine is the line under the request line while an export is named
// or running, or "".
func (m *Model) exportLine() string {
	e := &m.export
	st := &m.styles
	switch {
	case e.naming:
		// The hint sheds its details before its ends: what it costs and
		// that esc cancels stay whole at 80 columns.
		in := e.input.View()
		room := max(0, m.w-ansi.StringWidth(in))
		short, _, _ := strings.Cut(e.cost, " (")
		figure := short[strings.LastIndex(short, ": ")+1:] // "already loaded: 0 RCU" → " 0 RCU"
		hint := ""
		for _, hint = range []string{"  " + e.cost + " · .jsonl/.json/.csv · esc cancels", "  " + e.cost + " · esc cancels", "  " + short + " · esc cancels",
			" " + figure + " · esc cancels", "  esc cancels"} {
			if ansi.StringWidth(hint) <= room {
				break
			}
		}
		return in + st.Dim.Render(common.MiddleCut(hint, room))
	case e.running:
		return st.Notice.Render(fmt.Sprintf("exporting to %s: %s %s, %s, %s", e.path, common.Thousands(e.items), e.noun, common.Plural(e.pages, "page", "pages"), common.BilledRCU(e.spent))) +
			st.Dim.Render(" · esc cancels")
	}
	return ""
}

// maxExportName is the longest default file name offered, in bytes: file
// systems take 255, and a 2 KB key would make a name no export could
// create.
const maxExportName = 200

// exportName is the default file name for a view: its parts joined,
// without path separators or controls, and where that is too long, its
// start and a hash of the whole, so that two long keys still differ.
func exportName(parts []string) string {
	base := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < 0x20 || r == 0x7f {
			return '_'
		}
		return r
	}, strings.Join(parts, "-"))
	const ext = ".jsonl"
	if len(base)+len(ext) <= maxExportName {
		return base + ext
	}
	sum := sha256.Sum256([]byte(base))
	tail := "-" + hex.EncodeToString(sum[:])[:12]
	cut := maxExportName - len(ext) - len(tail)
	for cut > 0 && !utf8.RuneStart(base[cut]) {
		cut-- // never half a character
	}
	return base[:cut] + tail + ext
}

// singular is a row noun for one row: "1 item", never "1 items".
func singular(noun string) string {
	first, rest, _ := strings.Cut(noun, " (")
	switch {
	case first == "children":
		first = "child"
	case strings.HasSuffix(first, "s"):
		first = strings.TrimSuffix(first, "s")
	}
	if rest != "" {
		return first + " (" + rest
	}
	return first
}
