package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
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
// a presenter would show them.
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
}

// tourKeys label the stops: 1–9, then letters.
const tourKeys = "123456789abcd"

// tourPickedMsg asks the root to open a stop of the tour.
type tourPickedMsg struct{ stop stop }

// tourPage is the demo's opening screen: each pattern the demo holds and
// one key to open it at the right view.
type tourPage struct {
	c      *common.Common
	id     int
	cursor int
	w, h   int
	back   string // where esc goes: the tables, or the view T was pressed on
	// read is what the session has read so far: its requests and the
	// tables the table list named (the tour itself reads nothing).
	read func() (requests, tables int)
}

func newTour(c *common.Common, back string, read func() (requests, tables int)) *tourPage {
	return &tourPage{c: c, id: c.NextID(), back: back, read: read}
}

func (p *tourPage) ID() int          { return p.id }
func (p *tourPage) Init() tea.Cmd    { return nil }
func (p *tourPage) SetSize(w, h int) { p.w, p.h = w, h }
func (p *tourPage) Crumbs() []string { return []string{"Tour"} }
func (p *tourPage) Mode() string     { return "" }
func (p *tourPage) Loading() bool    { return false }
func (p *tourPage) Capturing() bool  { return false }

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
	switch {
	case key.Matches(k, keys.Up):
		p.cursor = max(0, p.cursor-1)
	case key.Matches(k, keys.Down):
		p.cursor = min(len(tourStops)-1, p.cursor+1)
	case key.Matches(k, keys.Top):
		p.cursor = 0
	case key.Matches(k, keys.Bottom):
		p.cursor = len(tourStops) - 1
	case key.Matches(k, keys.Open):
		return p, p.pick(p.cursor)
	case key.Matches(k, keys.Back):
		return p, func() tea.Msg { return common.BackMsg{} }
	case key.Matches(k, tourPick):
		if n := strings.IndexRune(tourKeys, k.Code); n >= 0 && n < len(tourStops) {
			return p, p.pick(n)
		}
	}
	return p, nil
}

// tourPick is the digit that opens a stop directly: 1 is the first.
var tourPick = key.NewBinding(key.WithKeys(strings.Split(tourKeys, "")...), key.WithHelp("1–9 a–d", "open"))

func (p *tourPage) pick(n int) tea.Cmd {
	s := tourStops[n]
	return func() tea.Msg { return tourPickedMsg{stop: s} }
}

func (p *tourPage) View() string {
	st := p.c.Styles
	var stops []string
	for i, s := range tourStops {
		label := string(tourKeys[i])
		if i == p.cursor {
			stops = append(stops, st.Selected.Render(label+"  "+s.title))
		} else {
			stops = append(stops, st.Key.Render(label)+"  "+s.title)
		}
	}
	sel := tourStops[p.cursor]
	head := []string{st.Dim.Render("What the demo holds, each one key away:"), ""}
	opens := st.Dim.Render("  opens: " + strings.Join(tourArgs(sel), " "))
	clock := []string{"", st.Dim.Render(fmt.Sprintf("The demo's clock is fixed at %s (its data ends there),", demo.DemoEnd.Format("2006-01-02 15:04 UTC"))),
		st.Dim.Render("so 'last 24h' and every range count back from then, on any day.")}
	keys := st.Dim.Render("enter, 1–9 or a–d opens · T (also in ? help) comes back here · esc: " + p.back)
	lines := append(append(append(head, stops...), "", st.Notice.Render("› ")+sel.about, opens), append(clock, keys)...)
	if len(lines) > p.h-2 { // a small terminal: the essentials only
		clock = []string{st.Dim.Render(fmt.Sprintf("Clock fixed at %s (data's end): ranges count from there.", demo.DemoEnd.Format("2006-01-02 15:04 UTC")))}
		keys = st.Dim.Render(components.Fit("enter/1–9/a–d open · T (in ? help) returns here · esc: "+p.back, p.w-4))
		lines = append(append(stops, "", st.Notice.Render("› ")+sel.about), append(clock, keys)...)
	}
	return common.Frame(st, "Demo tour", strings.Join(lines, "\n"), p.w, p.h)
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
	if c.Versions != "" {
		args = append(args, "--versions")
	}
	return args
}

func (p *tourPage) ShortHelp() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.Up, k.Down, k.Open, tourPick, k.Back, k.Help, k.Quit}
}

func (p *tourPage) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom}, {k.Open, tourPick, k.Back}, {k.Help, k.Quit}}
}

// openStop opens a stop of the tour as its deep link would, from a fresh
// stack: esc climbs to its partitions, then the tables.
func (m *Model) openStop(s stop) tea.Cmd {
	o := s.open
	m.cfg.Table, m.cfg.PK, m.cfg.Prefix, m.cfg.Levels = o.Table, o.PK, o.Prefix, o.Levels
	m.cfg.Index, m.cfg.Versions, m.cfg.Range, m.cfg.Filter, m.cfg.Delimiter = o.Index, o.Versions, o.Range, nil, ""
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
