package ui

import (
	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// connectedMsg answers Config.Connect.
type connectedMsg struct {
	conn Connected
	err  error
}

// skeletonPage is the first frame, drawn before any request: where the
// explorer connects, with a spinner where the list will be. It sits on
// top of the stack until Config.Connect answers.
type skeletonPage struct {
	c     *common.Common
	id    int
	to    string // where: the connection's label
	table string // the table opened directly, if any
	spin  func() string
	w, h  int
}

func newSkeleton(c *common.Common, to, table string, spin func() string) *skeletonPage {
	return &skeletonPage{c: c, id: c.NextID(), to: to, table: table, spin: spin}
}

func (p *skeletonPage) ID() int                               { return p.id }
func (p *skeletonPage) Init() tea.Cmd                         { return nil }
func (p *skeletonPage) Update(tea.Msg) (common.Page, tea.Cmd) { return p, nil }
func (p *skeletonPage) SetSize(w, h int)                      { p.w, p.h = w, h }
func (p *skeletonPage) Mode() string                          { return "" }
func (p *skeletonPage) Loading() bool                         { return true }
func (p *skeletonPage) Capturing() bool                       { return false }
func (p *skeletonPage) ShortHelp() []key.Binding              { return []key.Binding{p.c.Keys.Quit} }
func (p *skeletonPage) FullHelp() [][]key.Binding             { return [][]key.Binding{{p.c.Keys.Quit}} }
func (p *skeletonPage) Shows() (table, index string)          { return "", "" } // nothing read yet
func (p *skeletonPage) Crumbs() []string {
	if p.table != "" {
		return []string{p.table}
	}
	return nil // the header says Tables already
}
func (p *skeletonPage) title() string {
	if p.table != "" {
		return p.table
	}
	return "Tables"
}

// Request names the one read the connection makes before anything shows.
func (p *skeletonPage) Request() string {
	if p.table != "" {
		return "DescribeTable " + p.table + ", once: the view opens on its answer"
	}
	return "ListTables (its first page), once: the tables screen opens on its answer"
}

func (p *skeletonPage) View() string {
	st := p.c.Styles
	to := p.to
	switch to {
	case "":
		to = "AWS"
	case "DEMO":
		to = "the demo database"
	}
	body := st.Notice.Render(p.spin()) + " connecting to " + common.Sanitize(to) + "…"
	return common.Frame(st, p.title(), body, p.w, p.h)
}

// connect runs Config.Connect in a command, cancelled if the user quits
// first.
func (m *Model) connect() tea.Cmd {
	base := m.ctx
	if base == nil {
		base = context.Background()
	}
	ctx, cancel := context.WithCancel(base)
	m.cancelConnect = cancel
	connect := m.cfg.Connect
	return func() tea.Msg {
		conn, err := connect(ctx)
		return connectedMsg{conn: conn, err: err}
	}
}

// stopConnecting ends Connect's context (its requests, if still running).
func (m *Model) stopConnecting() {
	if m.cancelConnect != nil {
		m.cancelConnect()
	}
}

// connected takes the connection and the preflight's answer, drops the
// skeleton and opens the first screen; a failed connection ends the
// explorer, and Run returns the error for the command line to print.
func (m *Model) connected(msg connectedMsg) tea.Cmd {
	if m.skeleton == nil {
		return nil
	}
	m.stopConnecting()
	if msg.err != nil {
		m.startErr = msg.err
		return tea.Quit
	}
	for i, p := range m.stack {
		if p == common.Page(m.skeleton) {
			m.stack = append(m.stack[:i], m.stack[i+1:]...)
			break
		}
	}
	m.skeleton = nil
	c := msg.conn
	if c.Session != nil {
		m.cfg.Session = c.Session
	}
	if c.Connection != "" {
		m.cfg.Connection = c.Connection
	}
	if c.Environment != nil {
		m.cfg.Environment = c.Environment
	}
	m.resolved(c)
	m.cfg.CostEstimated = c.CostEstimated
	m.cfg.Info, m.cfg.TableNames, m.cfg.TablesNext = c.Info, c.TableNames, c.TablesNext
	if c.Streams != nil {
		m.cfg.Streams = c.Streams
	}
	if c.AgainstChoices != nil {
		m.c.AgainstChoices = c.AgainstChoices
	}
	m.useClient(c.Client)
	return m.open()
}

// useClient reads through c, masked where the flags or the configuration
// say so.
func (m *Model) useClient(c dynamo.Client) {
	m.cfg.Client = c
	if masked, err := masking(m.cfg); err != nil {
		m.fatal = &fatal{err: dynamo.Errorf("--mask", dynamo.KindValidation, "write --mask Email,Owner.phone", "%v", err)}
	} else if masked != nil {
		m.masked, m.cfg.Client = masked, masked
	}
	m.c.Client = m.cfg.Client
	m.c.Streams = m.cfg.Streams
	if m.c.Streams == nil {
		m.c.Streams = dynamo.StreamsOf(c) // the embedded backend serves both APIs
	}
	if _, counted := m.c.Streams.(dynamo.MeteredStreams); !counted && m.c.Streams != nil && m.cfg.Session != nil {
		m.c.Streams = dynamo.MeteredStreams{StreamsClient: m.c.Streams, Session: m.cfg.Session} // counted in the status bar
	}
	m.c.Streams = m.masked.Streams(m.c.Streams, "") // each table's changes come in its stand-ins
}

// resolved takes the region, endpoint and profile the connection used
// for the aws commands y copies, and the command ? prints, where it
// names them.
func (m *Model) resolved(c Connected) {
	for _, f := range []struct {
		to *string
		v  string
	}{{&m.cfg.Region, c.Region}, {&m.cfg.Endpoint, c.Endpoint}, {&m.cfg.Profile, c.Profile}} {
		if f.v != "" {
			*f.to = f.v
		}
	}
	if c.Reopen != nil {
		m.cfg.Reopen = *c.Reopen
	}
}
