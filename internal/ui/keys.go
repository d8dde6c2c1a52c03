package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// keyHandler takes a key it owns and reports whether it did.
type keyHandler func(m *Model, msg tea.KeyPressMsg) (tea.Cmd, bool)

// keyHandlers are asked in turn, the first to take a key ending its
// journey: while connecting only leaving acts; ctrl+c always quits; then
// what is typed (the export prompt, the search, a page's own text box),
// the error page, an overlay, the mode tabs, the explorer's commands and
// its global keys. A key none takes is the page's.
var keyHandlers = []keyHandler{
	(*Model).connectingKey,
	(*Model).interruptKey,
	(*Model).tooSmallKey,
	(*Model).exportKey,
	(*Model).searchKey,
	(*Model).typingKey,
	(*Model).fatalKey,
	(*Model).overlayKey,
	(*Model).modeKey,
	(*Model).commandKey,
	(*Model).globalKey,
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	m.notice, m.noticeMore, m.noticeResult, m.lastErr = "", "", "", nil // a message stays until the next key
	if !key.Matches(msg, m.c.Keys.Copy) {
		m.realCopy = 0 // only y after y goes on towards the real query
	}
	for _, h := range keyHandlers {
		if cmd, took := h(m, msg); took {
			return cmd
		}
	}
	// Whether the page lists the key is asked before it acts and after:
	// acting may take the key out of its help (c while its count runs) or
	// open what lists it (an overlay).
	before := m.notHere(msg)
	cmd := m.pageKey(msg)
	if m.notice == "" && m.lastErr == nil && before != nil {
		if say := m.notHere(msg); say != nil {
			say()
		}
	}
	return cmd
}

// connectingKey: nothing to act on yet but leaving.
func (m *Model) connectingKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.skeleton == nil {
		return nil, false
	}
	if key.Matches(msg, m.c.Keys.Interrupt) || key.Matches(msg, m.c.Keys.Quit) {
		m.stopConnecting()
		return tea.Quit, true
	}
	return nil, true
}

// interruptKey quits from anywhere, a text box included; ctrl+z
// suspends from anywhere.
func (m *Model) interruptKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, m.c.Keys.Interrupt):
		return tea.Quit, true
	case key.Matches(msg, m.c.Keys.Suspend):
		if m.jobs.suspend() {
			return nil, true
		}
		return tea.Suspend, true
	}
	return nil, false
}

// tooSmallKey: behind "Terminal too small" only q acts; any other key
// would act on a screen the user cannot see (drill in, read unseen).
func (m *Model) tooSmallKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !m.tooSmall() {
		return nil, false
	}
	if key.Matches(msg, m.c.Keys.Quit) {
		return tea.Quit, true
	}
	return nil, true
}

// typingKey gives every key to the page's own text box (filter, range,
// go to) while it has one open: none acts as a command.
func (m *Model) typingKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.fatal != nil || !m.top().Capturing() {
		return nil, false
	}
	return m.pageKey(msg), true
}

// fatalKey: on the error page only r, esc and q act.
func (m *Model) fatalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.fatal == nil {
		return nil, false
	}
	k := m.c.Keys
	switch {
	case key.Matches(msg, k.Refresh):
		page := m.fatal.page
		m.fatal = nil
		return func() tea.Msg { return common.RetryMsg{Page: page} }, true
	case key.Matches(msg, k.Back):
		m.fatal = nil
		if len(m.stack) == 1 {
			return m.startTop(), true // a failed deep link falls back to the tables
		}
		return m.pop(), true
	case key.Matches(msg, k.Quit):
		return tea.Quit, true
	}
	return nil, true
}

// overlayKey: q (and esc over the help) closes what is open over the
// page, and never quits from there. A picker's or prompt's keys are its
// own: ? shows them, and no other key acts on the view beneath it (:, y,
// e acted there, listed by no help while the picker was open).
func (m *Model) overlayKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if key.Matches(msg, m.c.Keys.Quit) || m.showHelp && key.Matches(msg, m.c.Keys.Cancel) {
		return m.closeOverlay()
	}
	if m.overlaid() && !key.Matches(msg, m.c.Keys.Help) && !(m.loadRunning() && key.Matches(msg, m.c.Keys.StopLoad)) {
		return m.pageKey(msg), true
	}
	return nil, false
}

// overlayHelp is ?'s over a picker or a prompt: its own keys, X while a
// load runs (it acts from anywhere), ? and q as they act there. The
// view's beneath do not act over it.
func (m *Model) overlayHelp() [][]key.Binding {
	k := m.c.Keys
	closes := k.Quit
	closes.SetHelp(closes.Help().Key, "close")
	var own [][]key.Binding
	for _, g := range m.top().FullHelp() {
		own = append(own, slices.DeleteFunc(slices.Clone(g), func(b key.Binding) bool { return sameKeys(b, k.Help) || sameKeys(b, k.Quit) }))
	}
	return append(own, []key.Binding{common.On(k.StopLoad, m.loadRunning()), k.Help, closes})
}

// overlaid reports whether the page on top has a picker or a prompt open
// over its rows.
func (m *Model) overlaid() bool {
	o, ok := m.top().(common.Overlayer)
	return ok && o.Overlay() && m.fatal == nil
}

// awsCommand is the aws command y copies for query, and how to name it.
// The demo is in no server: its command reads the demo seeded into a
// local one, never the user's own account.
func (m *Model) awsCommand(query domain.KeyQuery) (cmd, what string) {
	return m.awsCommandOf(func(region, endpoint string) string { return domain.AWSCLICommand(query, region, endpoint, 0) })
}

// awsCommandOf is the command build makes for this connection (its
// region, endpoint and profile), and how to name it.
func (m *Model) awsCommandOf(build func(region, endpoint string) string) (cmd, what string) {
	region, endpoint, what := m.cfg.Region, m.cfg.Endpoint, "the aws command"
	switch {
	case len(m.cfg.Reopen.Data) > 0:
		what += " (it queries the real table, not this data)"
	case m.cfg.Connection == "DEMO" && endpoint == "":
		region, endpoint = demoSeedRegion, demoSeedEndpoint
		what += " (for the demo seeded locally: dynascope seed --endpoint-url " + demoSeedEndpoint + " --region " + demoSeedRegion + ")"
	}
	cmd = build(region, endpoint)
	if m.cfg.Profile != "" {
		cmd += " --profile " + domain.ShellQuote(m.cfg.Profile)
	}
	return cmd, what
}

// copyQuery is y: the query's aws command. On a masked table it holds
// the stand-ins shown; y again asks before copying the real one, which
// holds the values the mask hides, and a third y copies it.
func (m *Model) copyQuery(query domain.KeyQuery) tea.Cmd {
	if m.masked == nil || !m.masked.Masks(query.Table) {
		cmd, what := m.awsCommand(query)
		return common.Copy(cmd, what, cmd, m.c.TmuxBuffer)
	}
	switch m.realCopy {
	case 0:
		m.realCopy = 1
		cmd, what := m.awsCommand(query)
		what = "the aws command with masked values (y again for the real query)" + strings.TrimPrefix(what, "the aws command")
		return common.Copy(cmd, what, cmd, m.c.TmuxBuffer)
	case 1:
		m.realCopy = 2
		m.say("the real query holds the real values of masked attributes: y copies it to the clipboard, any other key does not")
		return nil
	}
	m.realCopy = 0
	cmd, what := m.awsCommand(m.masked.RealQuery(query))
	// The detail line would show the real values on screen: only say
	// what was copied.
	what = "the aws command with the REAL values of masked attributes" + strings.TrimPrefix(what, "the aws command")
	return common.Copy(cmd, what, "", m.c.TmuxBuffer)
}

// commandKey runs the explorer's commands on the view on top: e exports,
// y and Y copy its query, r after a failed request sends it again.
func (m *Model) commandKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.c.Keys
	if key.Matches(msg, k.Compare) {
		if cmd, ok := m.compare(); ok {
			return cmd, true
		}
	}
	if key.Matches(msg, k.Export) && !m.export.running {
		if cmd, ok := m.startExport(); ok {
			return cmd, true
		}
	}
	if c, ok := m.top().(common.Commander); ok && key.Matches(msg, k.Copy) {
		if build, ok := c.AWSCommand(); ok {
			cmd, what := m.awsCommandOf(build)
			return common.Copy(cmd, what, cmd, m.c.TmuxBuffer), true
		}
		m.say(c.NoCommand())
		return nil, true
	}
	if q, ok := m.top().(common.Querier); ok && key.Matches(msg, k.Copy) {
		if query, ok := q.Query(); ok {
			return m.copyQuery(query), true
		}
	}
	if q, ok := m.top().(common.Querier); ok && key.Matches(msg, k.CopyKey) {
		if query, ok := q.Query(); ok {
			code := domain.GoSnippet(query)
			return common.Copy(code, fmt.Sprintf("the Go SDK code for this query (%d lines)", strings.Count(code, "\n")), "", m.c.TmuxBuffer), true
		}
	}
	if n, ok := m.top().(common.NotOneQuery); ok && (key.Matches(msg, k.Export) && !m.export.running || key.Matches(msg, k.Copy, k.CopyKey)) {
		if why := n.NotOneQuery(); why != "" {
			for _, b := range []key.Binding{k.Export, k.Copy, k.CopyKey} {
				if key.Matches(msg, b) {
					m.sayWhy(b.Help().Key+" "+b.Help().Desc+" does not apply here", why)
				}
			}
			return nil, true
		}
	}
	if m.errPage != 0 && m.errPage == m.top().ID() && key.Matches(msg, k.Refresh) {
		// r after a failed request sends it again from where it stopped,
		// keeping what was loaded (rather than the page's own refresh).
		page := m.errPage
		m.lastErr, m.errPage = nil, 0
		return func() tea.Msg { return common.RetryMsg{Page: page} }, true
	}
	return nil, false
}

// globalKey handles the keys every screen shares.
func (m *Model) globalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.c.Keys
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit, true
	case m.loadRunning() && (key.Matches(msg, k.StopLoad) ||
		(len(m.stack) == 1 && !m.top().Loading() && key.Matches(msg, k.Back))): // esc on the first screen
		return m.stopLoad(), true
	case key.Matches(msg, k.RefFollow):
		return m.followReference(), true
	case key.Matches(msg, k.RefBack):
		return m.history(false), true
	case key.Matches(msg, k.RefForward):
		return m.history(true), true
	case m.onTour() && key.Matches(msg, k.Tour):
		// Here already: another tour over it took two esc to leave.
		m.sayWhy(k.Tour.Help().Key+" "+k.Tour.Help().Desc+" does not apply here", "this is the tour")
		return nil, true
	case m.demo() && key.Matches(msg, k.Tour):
		m.showHelp = false
		return m.push(m.newTour("back to " + strings.Join(m.top().Crumbs(), " › "))), true
	case key.Matches(msg, k.Help):
		m.showHelp = !m.showHelp
		w, h := m.bodySize()
		m.top().SetSize(w, h)
		return nil, true
	case key.Matches(msg, k.Preview):
		m.togglePreview()
		return nil, true
	case key.Matches(msg, k.Statement):
		table, index := m.top().Shows()
		return m.pushOver(pages.NewStatement(m.c, table, index)), true
	}
	return nil, false
}

// pageKey hands a key to the page on top.
func (m *Model) pageKey(msg tea.KeyPressMsg) tea.Cmd {
	var cmd tea.Cmd
	m.stack[len(m.stack)-1], cmd = m.top().Update(msg)
	return cmd
}
