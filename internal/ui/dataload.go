package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// loadTickMsg is time to redraw a background load's progress (--data).
type loadTickMsg struct{}

// loadTickEvery is how often the status bar's load progress is redrawn.
const loadTickEvery = 250 * time.Millisecond

func (m *Model) loadTick() tea.Cmd {
	if m.cfg.Load == nil || m.loadSeen.Ended {
		return nil
	}
	return tea.Tick(loadTickEvery, func(time.Time) tea.Msg { return loadTickMsg{} })
}

// loadRunning reports whether data is still loading in the background.
func (m *Model) loadRunning() bool {
	return m.cfg.Load != nil && !m.cfg.Load.Status().Ended
}

// loadTicked redraws the progress; when a table finished or the load
// ended, the tables list reads the counts again.
func (m *Model) loadTicked() tea.Cmd {
	s := m.cfg.Load.Status()
	seen := m.loadSeen
	m.loadSeen = s
	var cmds []tea.Cmd
	if s.TablesDone != seen.TablesDone || s.Tables != seen.Tables || s.Ended != seen.Ended {
		for i, p := range m.stack {
			if _, ok := p.(*pages.Tables); ok {
				var cmd tea.Cmd
				m.stack[i], cmd = p.Update(common.LoadChangedMsg{})
				cmds = append(cmds, cmd)
			}
		}
	}
	if s.Ended && !seen.Ended && s.Err != nil {
		m.remember(said{text: "loading --data failed: " + s.Err.Error(), err: true})
	}
	return tea.Batch(append(cmds, m.loadTick())...)
}

// stopLoad ends the background load: complete tables stay complete, the
// table being loaded keeps what is in, marked partial.
func (m *Model) stopLoad() tea.Cmd {
	m.cfg.Load.Stop()
	m.say("stopping the load: tables complete so far stay complete; the one being loaded keeps what is in, marked PARTIAL")
	return nil
}

// loadView is the connection part of the status bar while --data loads in
// the background or after it stopped or failed: progress, then the label,
// with what is partial or what went wrong.
func (m *Model) loadView() string {
	st := &m.styles
	conn := st.StatusConn.Render(common.Sanitize(m.cfg.Connection))
	if m.cfg.Load == nil {
		return conn
	}
	s := m.cfg.Load.Status()
	skipped := ""
	if s.Skipped > 0 {
		skipped = fmt.Sprintf(" · %s bad skipped", common.Thousands(s.Skipped))
	}
	switch {
	case !s.Ended:
		return st.StatusConn.Render(fmt.Sprintf("loading DATA: files %d/%d · %s items · %.1f MB%s", s.Files, max(s.Files, s.FilesTotal), common.Thousands(s.Items), float64(s.Bytes)/1e6, skipped))
	case s.Err != nil: // what went wrong first: the label may be long
		return st.StatusErr.Render(" load failed: "+common.Sanitize(common.ExplorerWords(s.Err.Error()))+" ") + conn
	case s.Stopped:
		mark := "load stopped"
		if s.Table != "" {
			if l, ok := m.c.TableLoad(s.Table); ok {
				mark = s.Table + " partial: " + common.Thousands(l.Items) + " items loaded, stopped"
			}
		}
		return st.StatusErr.Render(" "+common.Sanitize(mark)+skipped+" ") + conn
	}
	return st.StatusConn.Render(common.Sanitize(m.cfg.Connection + skipped))
}

// pageTable is the table the page on top reads ("" for the tables list and
// the tour).
func (m *Model) pageTable() string {
	table, _ := m.top().Shows()
	return table
}

// waitingForLoad reports whether the page on top is reading a table that
// is still loading: its read waits for the load.
func (m *Model) waitingForLoad() bool {
	table := m.pageTable()
	if table == "" || !m.top().Loading() {
		return false
	}
	l, ok := m.c.TableLoad(table)
	return ok && l.State == dynamo.LoadRunning
}

// waitingView stands where the rows of a page would be while its table is
// still loading: what it waits for and how far the load is, never "no
// items".
func (m *Model) waitingView(w, h int) string {
	table := m.pageTable()
	l, _ := m.c.TableLoad(table)
	st := &m.styles
	k := m.c.Keys
	lines := []string{
		st.Notice.Render(common.Sanitize(fmt.Sprintf("waiting for the load of %s (%s items so far)", table, common.Thousands(l.Items)))),
		"",
		st.Dim.Render("Read once all of it is in: never a part shown as the whole table."),
		"",
		st.Dim.Render(strings.Join([]string{k.Back.Help().Key + " stops waiting", k.StopLoad.Help().Key + " stops the load (what is in is kept, marked partial)"}, " · ")),
	}
	return common.Frame(st, common.Sanitize(table)+" · loading", strings.Join(lines, "\n"), w, h)
}
