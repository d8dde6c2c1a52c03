package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// MinWidth and MinHeight are the smallest terminal the layout fits.
const (
	MinWidth  = 60
	MinHeight = 15
)

// fatal is a failure that leaves the page with nothing to show.
type fatal struct {
	err  error
	page int // the page to retry; 0 for the deep link
}

// deepLinkedMsg answers the DescribeTable behind --table/--pk.
type deepLinkedMsg struct {
	info dynamo.TableInfo
	err  error
}

// Model is the explorer's root: a stack of pages under one header, request
// line, help and status bar.
type Model struct {
	cfg      Config
	c        *common.Common
	styles   common.Styles
	stack    []common.Page
	started  map[common.Page]bool
	w, h     int
	help     help.Model
	showHelp bool
	spin     spinner.Model
	spinning bool
	lastErr  error
	errPage  int    // the page whose request failed: r retries it from where it stopped
	notice   string // a passing note for the status bar (what y copied)
	// noticeMore is the note's detail, shown after it where there is room.
	noticeMore string
	// noticeResult is the note's result, when the note is the result and
	// why (a refusal): the bar never cuts the reason mid-sentence.
	noticeResult string
	said         []said // the last messages, for ?
	export       exportState
	fatal        *fatal
	nextID       int
	masked       *dynamo.Masked // nil unless values are masked
	// realCopy is how far y has gone towards copying the real query of
	// a masked table: 1 after the masked copy, 2 once it asked to confirm.
	realCopy int
	back     [][]common.Page // the views before each move: opening, climbing out, following a reference (<, ctrl+o)
	fwd      [][]common.Page // views come back from (ctrl+i)
	search   components.Search
	// searchPage is the page the search belongs to: it ends when another
	// page is on top.
	searchPage int
	// skeleton is the first frame while Config.Connect runs (nil after).
	skeleton      *skeletonPage
	cancelConnect context.CancelFunc
	startErr      error             // Connect's failure, for Run to return
	ctx           context.Context   // Run's: Connect's requests end with it
	loadSeen      dynamo.LoadStatus // the background load as last drawn
	jobs          *jobControl       // ctrl+z, SIGTSTP, SIGQUIT (nil: none, as in tests)
	tour          tourReturn        // where esc goes from a view the tour opened
	memo          frameMemo         // the frame's parts as last drawn
}

// New returns the explorer's root model.
func New(cfg Config) *Model {
	m := &Model{cfg: cfg, styles: common.StylesFor(cfg.Theme, true, os.Getenv("NO_COLOR") != ""), started: map[common.Page]bool{}, w: 100, h: 30}
	if m.cfg.Session == nil {
		m.cfg.Session = &dynamo.Session{}
	}
	m.c = &common.Common{Styles: &m.styles, Keys: cfg.Keys, NextID: func() int { m.nextID++; return m.nextID },
		CountBudget: cfg.CountBudget, Tables: cfg.Tables, Now: cfg.Now, FilterBudget: cfg.FilterBudget, SaveColumns: cfg.SaveColumns, HeldRows: cfg.HeldRows,
		TmuxBuffer: cfg.TmuxBuffer, Load: cfg.Load, Against: cfg.Against, AgainstChoices: cfg.AgainstChoices}
	m.c.Here = m.here
	if cfg.Connect == nil {
		m.useClient(cfg.Client)
	}
	if m.c.FilterBudget == nil {
		m.c.FilterBudget = func(string) float64 { return DefaultFilterBudget }
	}
	if m.c.Keys.Quit.Keys() == nil {
		m.c.Keys = keymap.Default()
	}
	if m.c.Now == nil {
		m.c.Now = time.Now
	}
	if m.c.CountBudget <= 0 {
		m.c.CountBudget = DefaultCountBudget
	}
	m.help = help.New()
	m.help.Styles = helpStyles(&m.styles)
	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	m.stack = []common.Page{pages.NewTables(m.c)}
	if cfg.Tour && cfg.Table == "" {
		m.stack = append(m.stack, m.newTour("the tables")) // read only then
	}
	if cfg.Connect != nil {
		m.skeleton = newSkeleton(m.c, cfg.Connection, cfg.Table, func() string { return m.spin.View() })
		m.stack = append(m.stack, m.skeleton)
	}
	m.search = components.NewSearch(m.c)
	return m
}

// Init asks for the terminal's background and starts the first screen,
// or connects first (drawing the skeleton meanwhile).
func (m *Model) Init() tea.Cmd {
	if m.skeleton != nil {
		return tea.Batch(tea.RequestBackgroundColor, m.loadTick(), m.connect())
	}
	return tea.Batch(tea.RequestBackgroundColor, m.loadTick(), m.open())
}

// open starts the first screen: the deep link, or the page on top.
func (m *Model) open() tea.Cmd {
	var cmds []tea.Cmd
	if names := m.cfg.TableNames; names != nil {
		m.cfg.TableNames = nil // handed over once: r lists again
		if t, ok := m.stack[0].(*pages.Tables); ok {
			t.Listed(names, m.cfg.TablesNext)
		}
	}
	if m.cfg.Info != nil && m.cfg.Info.Name == m.cfg.Table {
		info := *m.cfg.Info
		cmds = append(cmds, func() tea.Msg { return deepLinkedMsg{info: info} })
	} else if m.cfg.Table != "" {
		ctx, client, table := m.c.Context(), m.cfg.Client, m.cfg.Table
		cmds = append(cmds, func() tea.Msg {
			info, _, err := dynamo.DescribeTable(ctx, client, table)
			return deepLinkedMsg{info: info, err: err}
		})
	} else {
		cmds = append(cmds, m.startTop())
	}
	return tea.Batch(cmds...)
}

func (m *Model) top() common.Page { return m.stack[len(m.stack)-1] }

// startTop runs the top page's Init the first time it is shown.
func (m *Model) startTop() tea.Cmd {
	p := m.top()
	p.SetSize(m.bodySize())
	if m.started[p] {
		return nil
	}
	m.started[p] = true
	return p.Init()
}

func (m *Model) push(p common.Page) tea.Cmd {
	m.stack = append(m.stack, p)
	return m.startTop()
}

// pushOver opens p over the page on top, as a view that page opens: esc
// from it comes back there, and on a tour stop's view not to the tour.
// A page whose place is partly the one beneath (common.Opened) is told
// which it is here, and only here.
func (m *Model) pushOver(p common.Page) tea.Cmd {
	if o, ok := p.(common.Opened); ok {
		o.OpenedOver(m.top())
	}
	m.tour.opened()
	return m.push(p)
}

func (m *Model) pop() tea.Cmd {
	if len(m.stack) == 1 {
		return nil
	}
	m.leave()
	m.forget(m.top())
	m.stack = m.stack[:len(m.stack)-1]
	m.lastErr = nil
	return m.startTop()
}

// Update routes messages: keys to the focused page, answers to the page
// that asked, everything else to the root.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.layout()
	if m.anyLoading() && !m.spinning {
		m.spinning = true
		cmd = tea.Batch(cmd, m.spin.Tick)
	}
	return m, cmd
}

// layout sizes the page on top for the screen after every message: its
// body's size follows the terminal's, the help shown and the request
// line's height, which any message may change. Never while drawing: View
// only draws.
func (m *Model) layout() {
	if len(m.stack) == 0 {
		return
	}
	m.top().SetSize(m.bodySize())
	if s, ok := m.top().(common.Searchable); ok && m.searching() {
		m.search.Sync(s.List())
	}
}

func (m *Model) anyLoading() bool {
	for _, p := range m.stack {
		if p.Loading() {
			return true
		}
	}
	return false
}

// update takes a message: the terminal's (size, colour, keys, the mouse),
// the explorer's own (connecting, pages opened and closed, notices,
// failures), else the answer of a page, or the page on top's.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	if cmd, took := m.terminalMsg(msg); took {
		return cmd
	}
	if cmd, took := m.explorerMsg(msg); took {
		return cmd
	}
	var cmd tea.Cmd
	m.stack[len(m.stack)-1], cmd = m.top().Update(msg)
	return cmd
}

// terminalMsg takes what the terminal sends: its size and background,
// the spinner's tick, keys, pastes and the mouse.
func (m *Model) terminalMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resized(msg)
		return nil, true
	case tea.BackgroundColorMsg:
		m.styles = common.StylesFor(m.cfg.Theme, msg.IsDark(), os.Getenv("NO_COLOR") != "")
		m.help.Styles = helpStyles(&m.styles)
		m.memo.forget()
		return nil, true
	case tea.ModeReportMsg:
		// The renderer counts cells by grapheme once the terminal keeps
		// mode 2027 (as Bubble Tea reads this report): lines are measured
		// as it counts, and laid out again.
		if msg.Mode == ansi.ModeUnicodeCore && (msg.Value == ansi.ModeSet || msg.Value == ansi.ModeReset || msg.Value == ansi.ModePermanentlySet) {
			common.CountGraphemes(true)
			m.memo.forget()
			m.layout()
		}
		return nil, true
	case spinner.TickMsg:
		if !m.anyLoading() {
			m.spinning = false
			return nil, true
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return cmd, true
	case tea.KeyPressMsg:
		return m.key(msg), true
	case tea.PasteMsg:
		return m.paste(msg.Content), true
	case tea.ResumeMsg:
		return tea.RequestWindowSize, true // back from ctrl+z: the size may have changed meanwhile
	case tea.MouseWheelMsg:
		return m.wheel(msg), true
	case tea.MouseClickMsg:
		return m.click(msg), true
	}
	return nil, false
}

// resized lays every page out for the terminal's new size.
func (m *Model) resized(msg tea.WindowSizeMsg) {
	m.w, m.h = msg.Width, msg.Height
	m.help.SetWidth(msg.Width)
	w, h := m.bodySize()
	for _, p := range m.stack {
		p.SetSize(w, h)
	}
}

// explorerMsg takes the explorer's own messages: the connection, the
// deep link, the tour, references, pages opened and closed, an export's
// progress, the status bar's notices and failures, and pages' answers.
func (m *Model) explorerMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case connectedMsg:
		return m.connected(msg), true
	case deepLinkedMsg:
		return m.openDeepLink(msg), true
	case loadTickMsg:
		return m.loadTicked(), true
	case tourPickedMsg:
		return m.openStop(msg.stop), true
	case refsFoundMsg:
		return m.refsFound(msg), true
	case refPickedMsg:
		return m.jump(msg.info, msg.ref), true
	case common.OpenMsg:
		m.lastErr = nil
		m.rememberViews()
		return m.pushOver(msg.Page), true
	case common.BackMsg:
		if len(m.stack) > 1 {
			m.rememberViews()
		}
		if cmd, ok := m.backToTour(); ok {
			return cmd, true
		}
		return m.pop(), true
	case exportProgressMsg:
		return m.exportProgress(msg), true
	case pages.VersionsProbedMsg:
		return m.versionsProbed(msg), true
	case common.NoticeMsg:
		m.noticed(msg)
		return nil, true
	case common.ErrorMsg:
		m.failed(msg)
		return nil, true
	case common.RetryMsg:
		if msg.Page == 0 {
			return m.Init(), true
		}
		return m.route(msg), true
	case common.Routed:
		return m.route(msg), true
	}
	return nil, false
}

// noticed puts a page's notice in the status bar.
func (m *Model) noticed(msg common.NoticeMsg) {
	if msg.Why != "" {
		m.sayWhy(msg.Text, msg.Why)
		return
	}
	m.sayMore(msg.Text, msg.Detail)
}

// failed shows a page's failure: the error page for a fatal one, the
// status bar otherwise.
func (m *Model) failed(msg common.ErrorMsg) {
	if msg.Fatal {
		m.fatal = &fatal{err: msg.Err, page: msg.Page}
		return
	}
	m.fail(msg.Err, msg.Page)
}

// route hands a page's answer to that page, wherever it is in the stack.
func (m *Model) route(msg common.Routed) tea.Cmd {
	for i, p := range m.stack {
		if p.ID() == msg.PageID() {
			var cmd tea.Cmd
			m.stack[i], cmd = p.Update(msg)
			return cmd
		}
	}
	return nil // the page that asked is gone
}

// closeOverlay closes what is open over the page (the help, a picker, a
// prompt) as esc would: q there must never quit. It reports whether
// there was one.
func (m *Model) closeOverlay() (tea.Cmd, bool) {
	if m.showHelp {
		m.showHelp = false
		w, h := m.bodySize()
		m.top().SetSize(w, h)
		return nil, true
	}
	if o, ok := m.top().(common.Overlayer); ok && o.Overlay() {
		return o.CloseOverlay(), true
	}
	return nil, false
}

// openDeepLink opens what the command line named (--table, --index,
// --pk, --prefix and a mode), each level above it waiting in the stack,
// read only if esc climbs to it.
func (m *Model) openDeepLink(msg deepLinkedMsg) tea.Cmd {
	if msg.err != nil {
		m.fatal = &fatal{err: msg.err}
		return nil
	}
	if m.masked != nil {
		m.masked.Learn(msg.info) // a preflight's description never passed the mask
	}
	tree := m.deepLinkTree()
	part := pages.NewPartitions(m.c, msg.info.Name, msg.info, tree)
	m.stack = append(m.stack, part)
	if m.cfg.PK == "" && m.cfg.Index != "" { // the index's partitions, the table's beneath
		if _, err := msg.info.KeyFor(m.cfg.Index); err != nil {
			m.fatal = &fatal{err: dynamo.Errorf("open index", dynamo.KindNotFound, "press i on the table for its indexes", "%v", err)}
			return nil
		}
		return m.push(pages.NewIndexPartitions(m.c, msg.info, m.cfg.Index, tree))
	}
	if m.cfg.PK == "" {
		return m.startTop()
	}
	// part waits unscanned beneath: startTop scans it if esc climbs to it.
	return m.openDeepPartition(msg.info, part, tree)
}

// deepLinkTree is the tree's options from the command line: its
// delimiter, index and level names.
func (m *Model) deepLinkTree() pages.TreeOptions {
	tree := pages.TreeOptions{Delim: m.cfg.Delimiter, Index: m.cfg.Index}
	if m.cfg.Levels != "" {
		d := m.cfg.Delimiter
		if d == "" || d == domain.NoDelimiter {
			d, _ = domain.TemplateDelimiter(m.cfg.Levels)
		}
		tree.Levels = domain.LevelNames(m.cfg.Levels, d)
	}
	return tree
}

// openDeepPartition opens --pk (a key, or a pattern of shards) above the
// table's partitions list, part; a key that does not parse is said, and
// the list is shown instead.
func (m *Model) openDeepPartition(info dynamo.TableInfo, part common.Page, tree pages.TreeOptions) tea.Cmd {
	if p, ok := m.c.Tables[info.Name].ShardPattern(m.cfg.PK); ok {
		m.cfg.PK = p // a sharded partition named in the configuration
	}
	if domain.IsPattern(m.cfg.PK) {
		page, err := pages.OpenShards(m.c, info, m.cfg.PK, tree)
		if err != nil {
			m.fail(dynamo.Errorf("partition key pattern", dynamo.KindValidation, "write ranges as {1..4} and lists as {a,b}", "%v", err), 0)
			return part.Init()
		}
		return m.push(page)
	}
	key, err := info.KeyFor(m.cfg.Index)
	if err != nil {
		m.fatal = &fatal{err: dynamo.Errorf("--index", dynamo.KindNotFound, "`dynascope tables` lists each table's indexes", "%v", err)}
		return nil
	}
	pk, err := domain.ParseKeyValue(key.PK.Type, m.cfg.PK)
	if err != nil {
		m.fail(dynamo.Errorf("partition key", dynamo.KindValidation, "pick a partition from the list, or press / to type one", "%v", err), 0)
		return part.Init()
	}
	if key.SK != nil {
		prefix, err := domain.ParseKeyText(key.SK.Type, m.cfg.Prefix)
		if err != nil {
			m.fail(dynamo.Errorf("--prefix", dynamo.KindValidation, "write a binary prefix as b64: and its base64", "%v", err), 0)
			return part.Init()
		}
		m.cfg.Prefix = prefix
	}
	return m.openDeepMode(info, m.maskDeepLink(info, key, pk), tree)
}

// openDeepMode opens the partition in the mode the command line named
// (--changes, --versions, --range, --filter), or at --prefix in its tree.
func (m *Model) openDeepMode(info dynamo.TableInfo, pk domain.KeyValue, tree pages.TreeOptions) tea.Cmd {
	first := pages.OpenPartition(m.c, info, pk, tree)
	moded, _ := first.(common.Moded)
	var next common.Page
	switch {
	case m.cfg.Changes && moded != nil && moded.ModePage(pages.ModeChanges) != nil:
		next = moded.ModePage(pages.ModeChanges)
	case m.cfg.Versions != "":
		v := pages.NewVersionsOn(m.c, info, pk, m.cfg.Index)
		if m.cfg.Versions != "*" {
			v.OpenItem(m.cfg.Versions)
		}
		next = v
	case m.cfg.Range != "":
		t := pages.NewTime(m.c, info, pk, m.cfg.Index, m.c.Now)
		t.Under(m.cfg.Prefix)
		t.StartWith(m.cfg.Range)
		t.Filter(m.cfg.Filter)
		next = t
	case m.cfg.Filter != nil:
		items := pages.NewItemsUnder(m.c, info, pk, m.cfg.Prefix, m.cfg.Index)
		items.Filter(m.cfg.Filter)
		next = items
	case m.cfg.Prefix == "":
		return m.push(first)
	}
	m.stack = append(m.stack, first) // loaded only if esc climbs to it
	if next != nil {
		return m.push(next)
	}
	return m.openDeepPrefix(info, pk, tree)
}

// openDeepPrefix opens the tree at --prefix, each ancestor level waiting
// in the stack.
func (m *Model) openDeepPrefix(info dynamo.TableInfo, pk domain.KeyValue, tree pages.TreeOptions) tea.Cmd {
	d := tree.Delim
	if d == "" {
		d, _ = domain.PrefixDelimiter(m.cfg.Prefix)
		tree.Delim = d
	}
	var segs []string // no delimiter: the prefix is one level, no ancestors
	if d != domain.NoDelimiter {
		segs = domain.Segments(m.cfg.Prefix, d)
	}
	for i := 1; i < len(segs); i++ {
		m.stack = append(m.stack, pages.NewTree(m.c, info, pk, strings.Join(segs[:i], d)+d, tree))
	}
	return m.push(pages.NewTree(m.c, info, pk, m.cfg.Prefix, tree))
}

// chrome is how many lines the header, request line, help and status take.
func (m *Model) chrome() int {
	helpLines := 1
	if m.showHelp {
		helpLines = lipgloss.Height(m.helpView())
	}
	return 2 + m.requestRows() + helpLines
}

func (m *Model) bodySize() (int, int) { return m.w, max(3, m.h-m.chrome()) }

// fullHelp is the help's columns of keys; where they do not all fit
// across the terminal (80 columns), every key flows in lines instead,
// rather than the columns past the edge being dropped behind "…".
func (m *Model) fullHelp(groups [][]key.Binding) string {
	m.help.SetWidth(0)
	view := m.help.FullHelpView(groups)
	m.help.SetWidth(m.w)
	if lipgloss.Width(view) <= m.w {
		return view
	}
	st := &m.styles
	sep := st.HelpSep.Render(" • ")
	var lines []string
	line, width := "", 0
	for _, g := range groups {
		for _, b := range g {
			if !b.Enabled() || b.Help().Key == "" {
				continue
			}
			item := st.HelpKey.Render(b.Help().Key) + " " + st.HelpDesc.Render(b.Help().Desc)
			w := ansi.StringWidth(b.Help().Key) + 1 + ansi.StringWidth(b.Help().Desc)
			if width > 0 && width+3+w > m.w {
				lines, line, width = append(lines, line), "", 0
			}
			if width > 0 {
				line, width = line+sep, width+3
			}
			line, width = line+item, width+w
		}
	}
	return strings.Join(append(lines, line), "\n")
}

func (m *Model) helpView() string {
	p := m.top()
	pos := ""
	if !m.showHelp {
		pos = m.position()
	}
	// The short help leaves room for the position and drops the bindings
	// that do not fit whole.
	room := m.w
	if pos != "" {
		room = max(20, m.w-ansi.StringWidth(pos)-3)
	}
	short := m.acting(p.ShortHelp())
	if m.fatal != nil {
		short = m.fatalHelp()
	}
	if m.loadRunning() {
		short = append([]key.Binding{m.c.Keys.StopLoad}, short...) // first: it fits at any width
	}
	if m.export.naming && m.fatal == nil {
		short = exportNamingKeys(m.c.Keys)
	}
	view := m.shortHelp(short, room)
	if m.searching() {
		view = m.searchLine(m.w - ansi.StringWidth(pos) - 3)
	}
	if m.showHelp {
		if m.overlaid() {
			view = m.fullHelp(m.actingFull(m.overlayHelp()))
		} else {
			view = m.fullHelp(m.actingFull(p.FullHelp()))
			if extra := m.help.ShortHelpView(m.globalHelp()); extra != "" {
				view += "\n" + extra
			}
			if reasons := m.modeReasons(); len(reasons) > 0 {
				view += "\n" + strings.Join(reasons, "\n")
			}
			if _, ok := p.(common.Querier); ok {
				view = m.wholeRequest(m.estimated(p.Request())) + m.styles.Dim.Render("y copies it as an aws dynamodb command, Y as Go code") + "\n" + view
			}
		}
		if legend := m.statusLegend(); legend != "" {
			view += "\n" + legend
		}
		if line := m.headlessLine(); line != "" && !m.overlaid() {
			view = m.wholeCommand(headlessLead, line, "") + "\n" + view
		}
		if line := m.commandLine(); line != "" && !m.overlaid() {
			view = m.wholeCommand(commandLead, line, m.commandNote()) + "\n" + view
		}
		// The messages take the room left, at most half the screen: the
		// view stays in sight.
		room := min(m.h/2, m.h-2-m.requestRows()-3-lipgloss.Height(view))
		if said := m.messagesView(room); said != "" {
			view += "\n" + said
		}
	}
	return m.withPosition(view, pos)
}

// wholeRequest is the request line for ?, wrapped rather than cut: the
// request line above the help shortens its middle past two lines. At most
// wholeRequestLines lines, so the help never pushes the list off screen.
func (m *Model) wholeRequest(req string) string {
	if req == "" {
		return ""
	}
	const wholeRequestLines = 8
	lines := strings.Split(common.Wrap(common.Guard(req), max(20, m.w-2)), "\n") // at spaces: a value cut only where wider than a line
	if len(lines) > wholeRequestLines {
		lines = append(lines[:wholeRequestLines-1], "…")
	}
	out := m.styles.Dim.Render("the request, whole:") + "\n"
	for _, l := range lines {
		out += "  " + m.styles.Request.Render(l) + "\n"
	}
	return out
}

// wheel scrolls whatever is on top by three lines, as its own keys would.
func (m *Model) wheel(msg tea.MouseWheelMsg) tea.Cmd {
	if m.fatal != nil || m.tooSmall() {
		return nil
	}
	var code rune
	switch msg.Button {
	case tea.MouseWheelUp:
		code = tea.KeyUp
	case tea.MouseWheelDown:
		code = tea.KeyDown
	default:
		return nil
	}
	var cmds []tea.Cmd
	for range 3 {
		cmds = append(cmds, m.key(tea.KeyPressMsg{Code: code}))
	}
	return tea.Batch(cmds...)
}

// click selects a row of the list on top; a click on the selected row
// opens it, as enter does.
func (m *Model) click(msg tea.MouseClickMsg) tea.Cmd {
	c, ok := m.top().(common.Clicker)
	if !ok || msg.Button != tea.MouseLeft || m.fatal != nil || m.tooSmall() || m.top().Capturing() {
		return nil
	}
	if c.Click(msg.Y - 1) { // the header line is above the body
		return m.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	}
	return nil
}

// The local server a copied aws command of the demo reads: where the README
// has dynascope seed write the demo tables.
const (
	demoSeedEndpoint = "http://localhost:8000"
	demoSeedRegion   = "us-east-1"
)

// commandLine is the dynascope command that reopens the current view: the
// explorer's flags, or a headless command (a link that begins with its
// name: scan, partiql) with the connection's flags after its name.
func (m *Model) commandLine() string {
	l, ok := m.top().(common.Linker)
	if !ok {
		return ""
	}
	link := l.DeepLink()
	if len(link) == 0 {
		return ""
	}
	sub := ""
	if !strings.HasPrefix(link[0], "-") {
		sub, link = link[0], link[1:]
	}
	if sub == "" {
		link = append(link, m.budgetFlags()...)
	}
	return export.Command(sub, m.cfg.Reopen, link...)
}

// headlessLine is the headless command that prints what the view on top
// lists ("" where none does), with the connection's flags after its name.
func (m *Model) headlessLine() string {
	h, ok := m.top().(common.Headlesser)
	if !ok {
		return ""
	}
	link := h.HeadlessLink()
	if len(link) == 0 {
		return ""
	}
	// The explorer's --max-rcu, where told, as the reopening command
	// carries it: the headless read then stops where this one would.
	link = append(link, common.MaxRCUFlag(m.c.FilterBudget(m.pageTable()))...)
	return export.Command(link[0], m.cfg.Reopen, link[1:]...)
}

// budgetFlags are the explorer's budgets where they are not the default:
// a view opened under --count-budget 2 printed a command whose c counted
// up to 1,000 RCU. (A search's headless command names its own --max-rcu.)
func (m *Model) budgetFlags() []string {
	var flags []string
	if b := m.c.CountBudget; b != DefaultCountBudget {
		flags = append(flags, "--count-budget", strconv.FormatFloat(b, 'f', -1, 64))
	}
	return append(flags, common.MaxRCUFlag(m.c.FilterBudget(m.pageTable()))...)
}

// commandNote is what ? says under the command that reopens the view:
// that its values are stand-ins where a mask is on (said beside it, not
// in it: pasted, the command is the command alone), and the page's note.
func (m *Model) commandNote() string {
	var notes []string
	if b, _ := m.maskBadge(); b != "" {
		notes = append(notes, "(values masked)")
	}
	if n, ok := m.top().(common.LinkNoter); ok && n.LinkNote() != "" {
		notes = append(notes, n.LinkNote())
	}
	if line := m.commandLine(); common.Guard(line) != line {
		// A key holding a control or an invisible character is shown
		// escaped (\x1b, \u200b): typed as shown, the command names
		// another partition, and it cannot be shown raw.
		notes = append(notes, "(a value holds characters shown escaped: typed as shown it reads other text)")
	}
	return strings.Join(notes, " ")
}

// View draws the whole screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "dynascope"
	return v
}

// tooSmall reports whether the screen only holds the too-small notice.
func (m *Model) tooSmall() bool { return m.w < MinWidth || m.h < MinHeight }

func (m *Model) render() string {
	if m.tooSmall() {
		return m.tooSmallView()
	}
	w, h := m.bodySize()
	body := m.top().View()
	if m.fatal == nil && m.waitingForLoad() {
		body = m.waitingView(w, h)
	}
	if m.fatal != nil {
		body = m.fatalView(w, h)
	}
	parts := []string{m.header(), body, m.requestLine(), m.helpView(), m.statusBar()}
	return strings.Join(parts, "\n")
}

// fitCrumbs shortens a breadcrumb to width cells from its middle: the
// constant "Tables" goes first, shown as "…" where that fits ("… ›
// Locations › USA"), else dropped alone rather than a step that says
// something; then the steps between the table and the last step, one by
// one from the left, into one "…". The table and the last step stay
// whole; ok is false when even that does not fit.
func fitCrumbs(crumbs []string, sep string, width int, tables bool) (string, bool) {
	tries := [][]string{crumbs}
	if tables && len(crumbs) > 1 {
		crumbs = crumbs[1:]
		tries = append(tries, append([]string{"…"}, crumbs...), crumbs)
	}
	for k := 2; k < len(crumbs); k++ {
		tries = append(tries, append([]string{crumbs[0], "…"}, crumbs[k:]...))
	}
	for _, try := range tries {
		if path := strings.Join(try, sep); ansi.StringWidth(path) <= width {
			return path, true
		}
	}
	return "", false
}

// wholeLastCrumb is left (brand and breadcrumb) in room cells, the
// breadcrumb cut whole steps at a time from its left so that its last
// step stays whole: "DEMO … › CUSTOMER#chloé", else, where no
// environment's label must stay (DEMO is in the status bar too), "… ›
// CUSTOMER#chloé" or the step alone. Only a last step wider than room
// is cut, from its start.
func wholeLastCrumb(left, brand string, crumbs []string, sep string, room int, keepBrand bool) string {
	if len(crumbs) > 0 {
		last := crumbs[len(crumbs)-1]
		tries := []string{brand + "…" + sep + last}
		if !keepBrand {
			tries = append(tries, "…"+sep+last, last)
		}
		for _, try := range tries {
			if ansi.StringWidth(try) <= room {
				return try
			}
		}
	}
	return ansi.TruncateLeft(left, ansi.StringWidth(left)-room+1, "…")
}

func (m *Model) drawHeader() string {
	st := &m.styles
	sep := st.CrumbSep.Render(" › ")
	crumbs := []string{}
	if len(m.stack) > 1 {
		crumbs = append(crumbs, st.Crumb.Render("Tables"))
	}
	cs := m.top().Crumbs()
	table := m.pageTable()
	for i, c := range cs {
		mark := ""
		if i == 0 && table != "" {
			if lm := m.c.LoadMark(table); lm != "" {
				mark = " " + st.StatusErr.Render(common.Sanitize(lm))
			}
		}
		if i == len(cs)-1 {
			crumbs = append(crumbs, st.CrumbActive.Render(common.Guard(c))+mark)
		} else {
			crumbs = append(crumbs, st.Crumb.Render(common.Guard(c))+mark)
		}
	}
	path := strings.Join(crumbs, sep)
	env := m.environmentLabel()
	conn := st.Crumb.Render(common.Sanitize(m.cfg.Connection))
	if env != "" {
		conn = env + " " + conn
	}
	left := st.Brand.Render("dynascope") + st.CrumbSep.Render(" ─ ") + conn + st.CrumbSep.Render(" ─ ") + path
	right := m.tabs(tabsNamed)
	brand := ""
	if m.w-ansi.StringWidth(left)-ansi.StringWidth(right) < 1 {
		// Tight: the connection is in the status bar anyway, and so
		// goes first, then the program's name (the user knows it); the
		// environment's label (or DEMO) stays, in the name's place: it
		// says which data this is.
		brand = m.shortConnection()
		if name := st.Brand.Render("dynascope") + " "; brand == "" && ansi.StringWidth(name+path)+ansi.StringWidth(right) < m.w {
			brand = name // the program's name is the first word to go
		}
		left = brand + path
		// Then the breadcrumb's middle gives way (its table and its
		// last step stay), so the tabs keep their names; only when even
		// those do not fit do the tabs shrink to their numbers: first
		// those dimmed (a number alone there names no mode the user can
		// open: the ones that act keep their names), then all but the
		// active one.
		for shrink := tabsNamed; ; shrink++ {
			right = m.tabs(shrink)
			room := m.w - ansi.StringWidth(brand) - ansi.StringWidth(right) - 1
			if room >= ansi.StringWidth(path) {
				break
			}
			if short, ok := fitCrumbs(crumbs, sep, room, len(m.stack) > 1); ok {
				left = brand + short
				break
			}
			if shrink == tabsNumbered {
				break
			}
		}
	}
	gap := m.w - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 && right != "" {
		// The tabs stay whole: the breadcrumb gives way, from its start,
		// a whole step at a time ("… › CUSTOMER#chloé", never
		// "…OMER#chloé"); only a last step too wide alone is cut.
		room := m.w - ansi.StringWidth(right) - 1
		if room < 10 {
			return components.Fit(left, m.w)
		}
		left = wholeLastCrumb(left, brand, crumbs, sep, room, m.environmentLabel() != "")
		gap = m.w - ansi.StringWidth(left) - ansi.StringWidth(right)
	}
	if gap < 1 {
		return components.Fit(left, m.w)
	}
	return left + strings.Repeat(" ", gap) + right
}

func (m *Model) drawStatusBar() string {
	st := &m.styles
	total, last := m.cfg.Session.Totals()
	conn := m.environmentLabel() + m.loadView()
	ro := st.StatusReadOnly.Render("READ-ONLY")
	// CostEstimated: computed for data that is not in DynamoDB. Billed's
	// estimate: the server reported less than DynamoDB bills (dynalite's
	// empty reads), so DynamoDB's figure is shown, marked as an estimate.
	shown, est := m.shownRCU(total.RCU)
	figures := fmt.Sprintf("%s req · %s", common.Thousands(total.Requests), common.RCU(shown, est))
	stats, noLatency := st.StatusStat.Render(figures+" · last "+common.Latency(last)), st.StatusStat.Render(figures)
	if total.Requests == 0 {
		stats = noLatency // no request answered yet: "last 0s" timed none
	}
	spin, spinAlone := "", ""
	if m.anyLoading() {
		spin, spinAlone = st.StatusStat.Render(m.spin.View()+" loading"), st.StatusStat.Render(m.spin.View())
		if m.skeleton != nil {
			spin = st.StatusStat.Render(m.spin.View() + " connecting")
		}
		if why, ok := m.cfg.Session.Retrying(); ok {
			spin = st.StatusStat.Render(m.spin.View()) + st.StatusErr.Render(" "+why+" ")
			spinAlone = spin // why it waits is the point
		}
	}
	clock := ""
	if m.notice == "" && m.lastErr == nil {
		clock = m.clock() // a message needs the room more
	}
	badge := ""
	if b, _ := m.maskBadge(); b != "" {
		badge = st.StatusMasked.Render(b)
	}
	// Too narrow for every figure: the last latency gives way, then the
	// demo's clock, then the spinner's word, each whole, before the line is cut (a cut figure lies:
	// "last 38m…" reads as minutes, "00:0…" as another time).
	var line string
	for _, figures := range []string{stats + clock + spin, noLatency + clock + spin, noLatency + spin, noLatency + spinAlone} {
		left := m.statusLeft(conn+ro+badge, figures, spinAlone)
		line = left + m.statusMessage(max(0, m.w-ansi.StringWidth(left)))
		if ansi.StringWidth(line) <= m.w {
			break
		}
	}
	if ansi.StringWidth(line) > m.w {
		line = ansi.Truncate(line, m.w, "…")
	}
	return line + st.StatusBar.Render(strings.Repeat(" ", max(0, m.w-ansi.StringWidth(line))))
}

// fatalHelp is the error page's keys, the only ones that act there
// (fatalKey), in the words the page says them: r retry, esc back.
func (m *Model) fatalHelp() []key.Binding {
	k := m.c.Keys
	retry := k.Refresh
	retry.SetHelp(retry.Help().Key, "retry")
	return []key.Binding{retry, k.Back}
}

func (m *Model) fatalView(w, h int) string {
	st := &m.styles
	var lines []string
	var e *dynamo.Error
	if errors.As(m.fatal.err, &e) {
		// In the explorer's words: a flag it names is said as what it
		// stands for (--region: the region).
		lines = append(lines, st.ErrorTitle.Render(common.Sanitize(common.ExplorerWords(e.Msg))), "", st.ErrorBody.Render(common.Sanitize(common.ExplorerWords(e.Op))))
		if e.Hint != "" {
			hint := common.Wrap("What to do: "+common.Sanitize(common.ExplorerWords(e.Hint)), max(20, w-4))
			first, rest, _ := strings.Cut(hint, "\n")
			lines = append(lines, "", st.Notice.Render("What to do: ")+st.ErrorBody.Render(strings.TrimPrefix(first, "What to do: ")))
			if rest != "" {
				lines = append(lines, st.ErrorBody.Render(rest))
			}
		}
	} else {
		lines = append(lines, st.ErrorTitle.Render(common.Sanitize(common.ExplorerWords(m.fatal.err.Error()))))
	}
	lines = append(lines, "", st.Dim.Render("r retry · esc back · q quit"))
	return common.Frame(st, "Something went wrong", strings.Join(lines, "\n"), w, h)
}
