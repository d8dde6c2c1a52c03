package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// stop is one pattern of the demo data and the view that shows it, as
// the deep-link fields of Config.
type stop struct {
	title, about string
	open         Config // Table, PK, Prefix, Levels, Index, Versions, Range
	pattern      string // the table's version pattern, where not v0_Name
}

// tourStops are the patterns the demo holds (docs/patterns.md), in the order
// a presenter would show them; every demo table is at least one stop. A
// stop keeps its key once given (1 is always Locations, 9 AuditLog): new
// stops go at the end.
var tourStops = []stop{
	{"Starbucks hierarchy", "Locations: PK country, SK STATE#CITY#ZIP; drill country › state › city › zip",
		Config{Table: "Locations", PK: "USA", Levels: "STATE#CITY#ZIP"}, ""},
	{"Deep geography", "Geography: [country]#[region]#[state]#[county]#[city]#[neighborhood], six levels",
		Config{Table: "Geography", PK: demo.GeographyPartition, Levels: "COUNTRY#REGION#STATE#COUNTY#CITY#NEIGHBORHOOD"}, ""},
	{"Audit versions with drift", "Equipment: v0_ current copies beside v1_, v2_… revisions; " + demo.DriftedItem + " drifted (red)",
		Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}, ""},
	{"Device logs < 1536019200", "DeviceLogs: Unix-time sort keys, the blog's query of device 123",
		Config{Table: "DeviceLogs", PK: fmt.Sprint(demo.SeedDevice), Range: "< 1536019200"}, ""},
	{"Chat user#datetime", "ChatMessages: MessageID user_name#yyyy-MM-dd:HH:mm:ss, amsg's messages",
		Config{Table: "ChatMessages", PK: "portland", Prefix: "amsg#"}, ""},
	{"Chat's reversed index", "ChatMessages index ByTime: datetime#user_name, one day of the room",
		Config{Table: "ChatMessages", PK: "portland", Index: "ByTime", Range: "2018-08-29"}, ""},
	{"Sharded hot partition", "ChatMessages: the seattle room split into seattle-1…4, drilled as one",
		Config{Table: "ChatMessages", PK: "seattle-{1..4}"}, ""},
	{"Revisions spelt rev#{n}#{name}", "Policies: another version layout, with a drifted clause",
		Config{Table: demo.PolicyTable, PK: demo.PolicyDrifted, Versions: "*"}, demo.PolicyPattern},
	{"An audit log over time", "AuditLog: ISO-time sort keys, the last 24 hours of prod-api",
		Config{Table: "AuditLog", PK: "prod-api", Range: "last 24h"}, ""},
	{"Online shop, overloaded indexes", "Shop: customers, orders, products in one table; GSI1, GSI2, Inverted; > on an order follows them",
		Config{Table: demo.ShopTable, PK: "c#001"}, ""},
	{"Device states before the time", "StateLog: State#Date keys, several states, each before its time",
		Config{Table: demo.StateTable, PK: demo.StateDevice}, ""},
	{"Versions v0…vN with a Latest pointer", "VersionNums: v0 holds Latest; " + demo.LaggingPart + "'s v0 points at a version never written",
		Config{Table: demo.PartVersionsTable, PK: demo.LaggingPart, Versions: "*"}, ""},
	{"Time-based versions beside Metadata", "VersionTimes: ISO-timed states of one part next to its Metadata item",
		Config{Table: demo.PartStatesTable, PK: demo.StatePart}, ""},
	{"A history of 1,000 revisions", fmt.Sprintf("Equipment: %s's Audit, the current copy and %s revisions", demo.LongHistoryPiece, common.Thousands(demo.LongHistoryRevisions)),
		Config{Table: "Equipment", PK: demo.LongHistoryPiece, Versions: "Audit"}, ""},
	{"Documents v_0 beside v_1…v_N", "Documents: v_0 copies the newest of v_1…v_N, beside metadata items",
		Config{Table: "Documents", PK: "doc-0001", Versions: "*"}, ""},
	{"Revisions numbered by Unix time", demo.ShapesTable + ": v1700000000_Rel is newer than v1_Rel; v2_ is not a revision",
		Config{Table: demo.ShapesTable, PK: demo.ReleasesPK, Versions: "*"}, ""},
	{"Metrics in epoch milliseconds", "Metrics: a point a minute keyed by epoch ms; the last 6 hours of " + demo.MetricsSeries,
		Config{Table: "Metrics", PK: demo.MetricsSeries, Range: "last 6h"}, ""},
	{"Flights ORIGIN#time#fare#seat", demo.ShapesTable + ": the time after the origin; one day merged across JFK, LAX, SEA",
		Config{Table: demo.ShapesTable, PK: demo.FlightsPK, Range: "2021-08-01"}, ""},
	{"Photos keyed by ULIDs", demo.ShapesTable + ": PHOTO#<ULID> read as times, beside PROFILE# items; March 2021",
		Config{Table: demo.ShapesTable, PK: demo.PhotosPK, Range: "PHOTO# 2021-03"}, ""},
	{"A header item beside its events", demo.ShapesTable + ": metadata beside comm#time#id events; Time leaves it out, says so",
		Config{Table: demo.ShapesTable, PK: demo.ComplaintPK, Range: "2023-04"}, ""},
	{"Orders keyed by yyyyMMdd numbers", demo.OrdersTable + ": dates as numbers (20150301) read as days; March 2015",
		Config{Table: demo.OrdersTable, PK: demo.OrdersCustomer, Range: "2015-03"}, ""},
	{"Binary sort keys", "Blobs: B-typed sort keys, written b64:…, drilled like any other",
		Config{Table: "Blobs", PK: "images"}, ""},
	{"What changed, live", "Shop's stream: c#001's writes, newest first, old → new; F follows the demo's live orders",
		Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Changes: true}, ""},
}

// tourPickedMsg asks the root to open a stop of the tour.
type tourPickedMsg struct{ stop stop }

// tourPage is the demo's opening screen: each pattern the demo holds and
// one key to open it at the right view. The list scrolls under the
// cursor where the terminal is too short for it.
type tourPage struct {
	c      *common.Common
	id     int
	cursor int
	top    int // the first stop shown
	w, h   int
	back   string // where esc goes: the tables, or the view T was pressed on
	// read is what the session has read so far: its requests and the
	// tables the table list named (the tour itself reads nothing).
	read func() (requests, tables int)
	// labels are the stops' direct keys, and pickKey binds them all.
	labels  []string
	pickKey key.Binding
}

func newTour(c *common.Common, back string, read func() (requests, tables int)) *tourPage {
	labels := tourLabels(c.Keys, len(tourStops))
	return &tourPage{c: c, id: c.NextID(), back: back, read: read, labels: labels,
		pickKey: key.NewBinding(key.WithKeys(labels...), key.WithHelp(strings.Join(labelSpans(labels), " "), "open"))}
}

// tourLabels are the keys that open stops directly: 1–9, then the letters
// that no key the tour or the explorer around it takes (by default g, h,
// j, k, l, p and q are skipped), as many as there are stops. A stop past
// them has none: the cursor reaches it.
func tourLabels(k keymap.KeyMap, n int) []string {
	taken := []key.Binding{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.Open, k.Back,
		k.Quit, k.Interrupt, k.Help, k.Tour, k.Preview, k.StopLoad, k.RefFollow, k.RefBack, k.RefForward}
	var labels []string
	for _, r := range "123456789abcdefghijklmnopqrstuvwxyz" {
		if len(labels) == n {
			break
		}
		s := string(r)
		if !slices.ContainsFunc(taken, func(b key.Binding) bool { return slices.Contains(b.Keys(), s) }) {
			labels = append(labels, s)
		}
	}
	return labels
}

// labelSpans name the labels as runs people read, "1–9" and "a–u" (the
// letters skipped inside a run are the keys shown beside each stop).
func labelSpans(labels []string) []string {
	var groups [2][]string
	for _, l := range labels {
		g := 1
		if l >= "1" && l <= "9" {
			g = 0
		}
		groups[g] = append(groups[g], l)
	}
	var spans []string
	for _, g := range groups {
		switch len(g) {
		case 0:
		case 1:
			spans = append(spans, g[0])
		default:
			spans = append(spans, g[0]+"–"+g[len(g)-1])
		}
	}
	return spans
}

func (p *tourPage) ID() int                      { return p.id }
func (p *tourPage) Init() tea.Cmd                { return nil }
func (p *tourPage) SetSize(w, h int)             { p.w, p.h = w, h; p.follow() }
func (p *tourPage) Shows() (table, index string) { return "", "" } // lists patterns, no table
func (p *tourPage) Crumbs() []string             { return []string{"Tour"} }
func (p *tourPage) Mode() string                 { return "" }
func (p *tourPage) Loading() bool                { return false }
func (p *tourPage) Capturing() bool              { return false }

// Request names what was read before the tour (the table list, by the
// preflight) beside the session's request count, never "nothing read"
// beside "1 req".
func (p *tourPage) Request() string {
	reqs, tables := p.read()
	switch {
	case reqs == 0:
		return "nothing read yet: pick a pattern"
	case tables == 0:
		return fmt.Sprintf("read so far: %s · the tour reads nothing: pick a pattern", common.Plural(reqs, "request", "requests"))
	}
	return fmt.Sprintf("read so far: the table list (ListTables: %s), %s in all · the tour reads nothing: pick a pattern",
		common.Plural(tables, "table", "tables"), common.Plural(reqs, "request", "requests"))
}

func (p *tourPage) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	keys := p.c.Keys
	_, rows := p.layout()
	switch {
	case key.Matches(k, keys.Up):
		p.cursor = max(0, p.cursor-1)
	case key.Matches(k, keys.Down):
		p.cursor = min(len(tourStops)-1, p.cursor+1)
	case key.Matches(k, keys.PageUp):
		p.cursor = max(0, p.cursor-rows)
	case key.Matches(k, keys.PageDown):
		p.cursor = min(len(tourStops)-1, p.cursor+rows)
	case key.Matches(k, keys.Top):
		p.cursor = 0
	case key.Matches(k, keys.Bottom):
		p.cursor = len(tourStops) - 1
	case key.Matches(k, keys.Open):
		return p, p.pick(p.cursor)
	case key.Matches(k, keys.Back):
		return p, func() tea.Msg { return common.BackMsg{} }
	case key.Matches(k, p.pickKey):
		if n := slices.Index(p.labels, k.String()); n >= 0 {
			return p, p.pick(n)
		}
	}
	p.follow()
	return p, nil
}

func (p *tourPage) pick(n int) tea.Cmd {
	s := tourStops[n]
	return func() tea.Msg { return tourPickedMsg{stop: s} }
}

// Click selects the stop clicked (y is the line within the page, the
// frame's border first); a click on the selected stop opens it.
func (p *tourPage) Click(y int) bool {
	l, rows := p.layout()
	i := y - 1
	if l.head {
		i -= 2 // the heading and the blank line under it
	}
	if i < 0 || i >= rows || p.top+i >= len(tourStops) {
		return false
	}
	if p.top+i == p.cursor {
		return true
	}
	p.cursor = p.top + i
	return false
}

// tourLayout is what the tour draws around its list. The richest layout
// that leaves the whole list room is drawn; where none does, the last,
// with the list scrolling under the cursor.
type tourLayout struct{ head, opens, longClock bool }

// The flags that open the stop stay in every layout, 80×24 included: the
// list scrolls under the cursor before they go.
var tourLayouts = []tourLayout{{head: true, opens: true, longClock: true}, {head: true, opens: true}, {opens: true}}

// lines counts the layout's lines besides the list: the line under the
// list (blank, or how many stops are out of sight), the selected stop's
// description, the clock and the keys, then what the layout adds.
func (l tourLayout) lines() int {
	n := 4
	if l.head {
		n += 2 // the heading and a blank line
	}
	if l.opens {
		n++ // the flags that open the stop
	}
	if l.longClock {
		n += 2 // a blank line, and the clock told in two lines
	}
	return n
}

// layout picks the layout for the frame's height and how many stops of
// the list it shows.
func (p *tourPage) layout() (tourLayout, int) {
	inner := p.h - 2 // the frame's borders
	for _, l := range tourLayouts {
		if len(tourStops)+l.lines() <= inner {
			return l, len(tourStops)
		}
	}
	l := tourLayouts[len(tourLayouts)-1]
	return l, max(1, inner-l.lines())
}

// follow scrolls the list the least that keeps the cursor in sight.
func (p *tourPage) follow() {
	_, rows := p.layout()
	if p.cursor < p.top {
		p.top = p.cursor
	}
	if p.cursor >= p.top+rows {
		p.top = p.cursor - rows + 1
	}
	p.top = max(0, min(p.top, len(tourStops)-rows))
}

func (p *tourPage) View() string {
	st := p.c.Styles
	l, rows := p.layout()
	titleW, tableW := 0, 0
	for _, s := range tourStops {
		titleW = max(titleW, ansi.StringWidth(s.title))
		tableW = max(tableW, ansi.StringWidth(s.open.Table))
	}
	var lines []string
	if l.head {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("What the demo's %d tables hold, each pattern one key away:", tourTables())), "")
	}
	for i := p.top; i < min(len(tourStops), p.top+rows); i++ {
		s, label := tourStops[i], " "
		if i < len(p.labels) {
			label = p.labels[i]
		}
		title := s.title + strings.Repeat(" ", titleW-ansi.StringWidth(s.title))
		if i == p.cursor {
			table := s.open.Table + strings.Repeat(" ", tableW-ansi.StringWidth(s.open.Table))
			lines = append(lines, st.Selected.Render(label+"  "+title+"  "+table))
		} else {
			lines = append(lines, st.Key.Render(label)+"  "+title+"  "+st.Dim.Render(s.open.Table))
		}
	}
	lines = append(lines, st.Dim.Render(p.outOfSight(rows)))
	sel := tourStops[p.cursor]
	lines = append(lines, st.Notice.Render("› ")+sel.about)
	if l.opens {
		lines = append(lines, st.Dim.Render("  opens: "+strings.Join(tourArgs(sel), " ")))
	}
	spans := labelSpans(p.labels)
	end := demo.DemoEnd.Format("2006-01-02 15:04 UTC")
	if l.longClock {
		lines = append(lines, "", st.Dim.Render(fmt.Sprintf("The demo's clock starts at %s (its data ends there),", end)),
			st.Dim.Render("so 'last 24h' and every range count back from then, on any day."),
			st.Dim.Render("enter, "+strings.Join(spans, " or ")+" opens · T brings this tour back from any view · esc: "+p.back))
	} else {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("Clock starts at %s (data's end): ranges count from there.", end)),
			st.Dim.Render(components.Fit("enter/"+strings.Join(spans, "/")+" open · T: this tour, from anywhere · esc: "+p.back, p.w-4)))
	}
	return common.Frame(st, "Demo tour", strings.Join(lines, "\n"), p.w, p.h)
}

// outOfSight says how many stops the scrolled list hides above and below
// it ("" when it shows them all).
func (p *tourPage) outOfSight(rows int) string {
	above, below := p.top, max(0, len(tourStops)-p.top-rows)
	var parts []string
	if above > 0 {
		parts = append(parts, fmt.Sprintf("↑ %d more above", above))
	}
	if below > 0 {
		parts = append(parts, fmt.Sprintf("↓ %d more below", below))
	}
	return strings.Join(parts, " · ")
}

// tourTables counts the tables the stops open.
func tourTables() int {
	seen := map[string]bool{}
	for _, s := range tourStops {
		seen[s.open.Table] = true
	}
	return len(seen)
}

// tourArgs are the flags that open a stop from the command line.
func tourArgs(s stop) []string {
	c := s.open
	args := []string{"--table", c.Table, "--pk", domain.ShellQuote(c.PK)}
	for _, f := range [][2]string{{"--prefix", c.Prefix}, {"--index", c.Index}, {"--levels", c.Levels}, {"--range", c.Range}, {"--version-pattern", s.pattern}} {
		if f[1] != "" {
			args = append(args, f[0], domain.ShellQuote(f[1]))
		}
	}
	switch c.Versions {
	case "":
	case "*":
		args = append(args, "--versions")
	default: // a timeline: the item's name
		args = append(args, "--versions", domain.ShellQuote(c.Versions))
	}
	if c.Changes {
		args = append(args, "then 5") // no flag opens the Changes mode: its key on the partition does
	}
	return args
}

// whyNotHere: the tour is a list, but of stops, each with its own key;
// "no list to search" was not true of it.
func (p *tourPage) whyNotHere(action string) string {
	if action != "search" {
		return ""
	}
	return fmt.Sprintf("the tour's %d stops are opened by their keys (%s); esc: the tables, where / searches", len(tourStops), p.pickKey.Help().Key)
}

func (p *tourPage) ShortHelp() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.Up, k.Down, k.Open, p.pickKey, k.Back, k.Help, k.Quit}
}

func (p *tourPage) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Open, p.pickKey, k.Back}, {k.Help, k.Quit}}
}

// openStop opens a stop of the tour as its deep link would, from a fresh
// stack: esc climbs to its partitions, then the tables.
func (m *Model) openStop(s stop) tea.Cmd {
	if t, ok := m.top().(*tourPage); ok {
		m.tour = tourReturn{page: t}
	}
	o := s.open
	m.cfg.Table, m.cfg.PK, m.cfg.Prefix, m.cfg.Levels = o.Table, o.PK, o.Prefix, o.Levels
	m.cfg.Index, m.cfg.Versions, m.cfg.Range, m.cfg.Filter, m.cfg.Delimiter = o.Index, o.Versions, o.Range, nil, ""
	m.cfg.Changes = o.Changes
	if s.pattern != "" {
		tables := map[string]config.TableSettings{}
		for name, ts := range m.c.Tables {
			tables[name] = ts
		}
		ts := tables[o.Table]
		if ts.VersionPattern == "" {
			ts.VersionPattern = s.pattern
		}
		tables[o.Table] = ts
		m.c.Tables, m.cfg.Tables = tables, tables
	}
	for _, p := range m.stack {
		delete(m.started, p)
	}
	m.stack = m.stack[:1]
	m.fatal, m.lastErr, m.showHelp = nil, nil, false
	return m.Init()
}

// demo reports whether the explorer shows the demo data.
func (m *Model) demo() bool { return m.cfg.Connection == "DEMO" }

// onTour reports whether the page on top is the tour, where T has
// nothing to open.
func (m *Model) onTour() bool {
	_, ok := m.top().(*tourPage)
	return ok
}

// newTour is the tour over the stack as it is: esc goes back, and what
// the session read so far is told.
func (m *Model) newTour(back string) *tourPage {
	return newTour(m.c, back, func() (int, int) {
		total, _ := m.cfg.Session.Totals()
		tables := 0
		if t, ok := m.stack[0].(*pages.Tables); ok {
			tables = t.Known()
		}
		return total.Requests, tables
	})
}

// tourReturn is the tour a stop was opened from, for esc to come back to
// from the view it opened (nil page: none); depth counts the views opened
// from that view since, which esc climbs out of first.
type tourReturn struct {
	page  *tourPage
	depth int
}

// opened notes a view opened over the stop's.
func (r *tourReturn) opened() {
	if r.page != nil {
		r.depth++
	}
}

// backToTour is esc on the view a tour stop opened: back to the tour,
// over the tables, as it was. It reports whether esc went there.
func (m *Model) backToTour() (tea.Cmd, bool) {
	if _, onTour := m.top().(*tourPage); onTour || m.tour.page == nil {
		return nil, false // esc on a tour (T's) goes where it says
	}
	if m.tour.depth > 0 {
		m.tour.depth--
		return nil, false
	}
	t := m.tour.page
	m.tour = tourReturn{}
	m.leave()
	for _, p := range m.stack[1:] {
		m.forget(p)
	}
	m.stack = append(m.stack[:1], t)
	m.lastErr = nil
	return m.startTop(), true
}
