package ui

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/model"
	"github.com/dynascope/dynascope/ui/common"
)

// ExportFunc writes what a query returns to a file (its extension names the
// format: .jsonl, .json or .csv), reporting progress after each page. The
// command line supplies it; the explorer only asks and shows.
type ExportFunc func(ctx context.Context, q model.KeyQuery, path string, progress func(items, pages int, rcu float64)) (items int, err error)

// exportState is an export being named or running.
type exportState struct {
	input   textinput.Model
	naming  bool
	running bool
	cancel  context.CancelFunc
	query   model.KeyQuery
	path    string
	items   int
	pages   int
	rcu     float64
	id      int
	bound   float64 // RCU: at most one eventually consistent read of the table
}

type exportProgressMsg struct {
	id           int
	items, pages int
	rcu          float64
	done         bool
	err          error
	next         chan exportProgressMsg
}

func waitExport(ch chan exportProgressMsg) tea.Cmd {
	return func() tea.Msg { return <-ch }
}

// startNaming asks for the file, with a name made from the view.
func (m *Model) startNaming(q model.KeyQuery) tea.Cmd {
	e := &m.export
	e.input = textinput.New()
	e.input.Prompt = "export to › "
	common.SteadyCursor(&e.input)
	name := fmt.Sprintf("dynascope-%s-%s.jsonl", q.Table, q.PK.Text)
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < 0x20 || r == 0x7f {
			return '_'
		}
		return r
	}, name)
	e.input.SetValue(name)
	e.input.CursorEnd()
	e.naming, e.query, e.bound = true, q, 0
	if sz, ok := m.top().(common.Sizer); ok {
		e.bound = float64(sz.TableSize()) / 4096 * 0.5
	}
	return e.input.Focus()
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

func (m *Model) runExport(path string) tea.Cmd {
	e := &m.export
	if m.cfg.Export == nil {
		m.notice = "export is not available here"
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	e.id++
	e.running, e.cancel, e.path, e.items, e.pages, e.rcu = true, cancel, path, 0, 0, 0
	id, q, run := e.id, e.query, m.cfg.Export
	ch := make(chan exportProgressMsg, 16)
	go func() {
		n, err := run(ctx, q, path, func(items, pages int, rcu float64) {
			select { // progress; skipped when the screen has not caught up
			case ch <- exportProgressMsg{id: id, items: items, pages: pages, rcu: rcu, next: ch}:
			default:
			}
		})
		ch <- exportProgressMsg{id: id, items: n, done: true, err: err, next: ch}
	}()
	return waitExport(ch)
}

func (m *Model) exportProgress(msg exportProgressMsg) tea.Cmd {
	e := &m.export
	if msg.id != e.id {
		return nil
	}
	if !msg.done {
		e.items, e.pages, e.rcu = msg.items, msg.pages, msg.rcu
		return waitExport(msg.next)
	}
	e.running = false
	e.cancel()
	if msg.err != nil {
		m.lastErr = msg.err
		return nil
	}
	m.notice = fmt.Sprintf("exported %s items to %s", common.Thousands(msg.items), e.path)
	return nil
}

// exportLine is the line under the request line while an export is named
// or running, or "".
func (m *Model) exportLine() string {
	e := &m.export
	st := &m.styles
	switch {
	case e.naming:
		cost := "reads all the view lists"
		if e.bound > 0 {
			cost = fmt.Sprintf("at most ~%.0f RCU (the table's size)", e.bound)
		}
		return e.input.View() + st.Dim.Render("  "+cost+" · .jsonl/.json/.csv · esc cancels")
	case e.running:
		return st.Notice.Render(fmt.Sprintf("exporting to %s: %s items, %d pages, %.1f RCU", e.path, common.Thousands(e.items), e.pages, e.rcu)) +
			st.Dim.Render(" · esc cancels")
	}
	return ""
}
