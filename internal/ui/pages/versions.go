package pages

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

type versionsLoadedMsg struct {
	page, req int
	result    dynamo.VersionsResult
	err       error
}

func (m versionsLoadedMsg) PageID() int { return m.page }

func loadVersions(ctx context.Context, c dynamo.Client, page, req int, r dynamo.VersionsRequest) tea.Cmd {
	return func() tea.Msg {
		res, err := dynamo.Versions(ctx, c, r, nil)
		return versionsLoadedMsg{page: page, req: req, result: res, err: err}
	}
}

// Versions is a partition's Versions mode: its versioned logical items
// (v0_Audit beside v1_Audit, v2_Audit…), each with its current copy, its
// newest revision and its drift, drifted ones in red. enter opens the
// item's timeline, from what was read: no further request.
type Versions struct {
	c        *common.Common
	id       int
	info     dynamo.TableInfo
	req      dynamo.VersionsRequest
	res      dynamo.VersionsResult
	listW    int    // the list's width, as laid out (SetSize)
	currentW int    // the Current column's width (gridColumns)
	open     string // a logical item whose timeline opens once loaded
	// list is the histories in their order on screen: reading…, the
	// count, why the read stopped before the partition's end.
	list list.Paged[domain.History]
	sort list.Sort // s/S: the histories' order on screen
	w, h int
}

// OpenItem opens the timeline of the logical item name once the versions
// are read (a deep link: --versions NAME).
func (v *Versions) OpenItem(name string) { v.open = name }

// openVersions opens the Versions mode of a partition of the table or of
// index (""), or says why it has none.
func openVersions(c *common.Common, info dynamo.TableInfo, pk domain.KeyValue, index string) tea.Cmd {
	keys, _ := info.KeyFor(index)
	if !dynamo.VersionedKey(keys) {
		on := info.Name
		if index != "" {
			on = "index " + index
		}
		return common.Report(dynamo.Errorf("versions", dynamo.KindValidation, dynamo.VersionKeysHint,
			"%s has no string or number sort key, so no versions", on), false, 0)
	}
	return open(NewVersionsOn(c, info, pk, index))
}

// NewVersionsOn returns the Versions mode of a partition of index (""
// for the table): its sort key holds the revisions, and the base table's
// partition key tells apart the items sharing its keys.
func NewVersionsOn(c *common.Common, info dynamo.TableInfo, pk domain.KeyValue, index string) *Versions {
	v := &Versions{c: c, id: c.NextID(), info: info,
		req: dynamo.VersionsRequest{Table: info.Name, Key: info.Key, PK: pk, Pattern: c.Tables[info.Name].Versions(), Ignore: c.Tables[info.Name].DriftIgnore}}
	if ix, ok := indexFor(info, index); ok {
		v.req.Key, v.req.Index, v.req.TableKeys = ix.Key, &ix, &info.Key
	}
	v.list = list.NewPaged(c, list.Words{One: "versioned item", Many: "versioned items", Reading: "the versions are",
		Waiting: "Reading the partition's revision keys (v…)…",
		Again:   "r reads again"}, v.gridColumns(nil), v.cell) // after esc, r lists the versions from the start (Init)
	v.list.Grid.SetRowStyle(func(r int) *lipgloss.Style {
		if r < v.list.Len() && v.list.Row(r).Drifted() {
			return &v.c.Styles.Drift
		}
		return nil
	})
	return v
}

// gridColumns are the list's columns for the histories hs: Current and
// Latest as wide as their widest label (at least 12 and 10 cells, at most
// 32): a revision numbered by Unix time, v1700000000, was cut to
// "v17000000…", another number. A current copy's key wider than that is
// cut in its middle (cell), keeping the word that ends it.
func (v *Versions) gridColumns(hs []domain.History) []components.Column {
	current, latest := 12, 10
	for _, h := range hs {
		if h.Current != nil {
			current = max(current, common.Width(common.Sanitize(h.Current.Label())))
		}
		if l := h.Latest(); l != nil {
			latest = max(latest, common.Width(common.Sanitize(l.Label())))
		}
	}
	v.currentW = min(current, 32)
	cols := []components.Column{{Title: "Item", Keep: true}, {Title: "Current", Width: v.currentW}, {Title: "Latest", Width: min(latest, 32)},
		{Title: "Revs", Width: 5}, {Title: "Drift"}}
	if v.owned() {
		cols = append([]components.Column{{Title: common.Sanitize(v.info.Key.PK.Name), Width: 14}}, cols...)
	}
	return cols
}

func (v *Versions) Init() tea.Cmd {
	ctx, req := v.list.Start()
	return loadVersions(ctx, v.c.Client, v.id, req, v.req)
}

// owned reports whether histories are told apart by the base table's
// partition key (an index keyed by another attribute), shown first.
func (v *Versions) owned() bool {
	return v.req.Index != nil && v.req.Index.Key.PK.Name != v.info.Key.PK.Name
}

// indexName is the index read, "" on the table.
func (v *Versions) indexName() string {
	if v.req.Index == nil {
		return ""
	}
	return v.req.Index.Name
}

// refresh lists the histories read in the sort's order.
func (v *Versions) refresh() {
	hs := v.res.Histories
	v.sort.Apply(v.sortable())
	rows := make([]domain.History, len(hs))
	for i := range rows {
		rows[i] = hs[v.sort.Row(i)]
	}
	v.list.Grid.SetColumns(v.gridColumns(hs))
	v.list.Set(rows)
}

// cell is a history's row: its name, current copy, newest revision, how
// many, and its drift.
func (v *Versions) cell(h domain.History, col int) string {
	if v.owned() {
		if col == 0 {
			return common.Sanitize(h.Owner)
		}
		col--
	}
	switch col {
	case 0:
		return common.Sanitize(historyName(h))
	case 1:
		if h.Current == nil {
			return "missing"
		}
		// DOC#quarterly-rep…-finance#LATEST: cut at its end, the word
		// that says it is the current copy was lost.
		return common.MiddleCut(common.Sanitize(h.Current.Label()), max(v.currentW, 12))
	case 2:
		if l := h.Latest(); l != nil {
			return common.Sanitize(l.Label())
		}
		return "—"
	case 3:
		return common.Thousands(len(h.Revisions))
	}
	if !h.Drifted() {
		return "✓"
	}
	return "⚠ " + common.Sanitize(strings.Join(h.Drift, "; "))
}

// selected is the history on the cursor's line.
func (v *Versions) selected() domain.History {
	h, _ := v.list.Selected()
	return h
}

// columns are the columns shown, by title: what s sorts by, in order.
func (v *Versions) columns() []string {
	cols := []string{"Item", "Current", "Latest", "Revs", "Drift"}
	if v.owned() {
		cols = append([]string{v.info.Key.PK.Name}, cols...)
	}
	return cols
}

// sortable are the histories as rows of their columns, for list.Sort
// (nil unsorted): revision numbers and counts as numbers, the rest as
// shown.
func (v *Versions) sortable() []dynamo.Item {
	if v.sort.Attr == "" {
		return nil
	}
	items := make([]dynamo.Item, len(v.res.Histories))
	for i, h := range v.res.Histories {
		it := dynamo.Item{"Item": &types.AttributeValueMemberS{Value: historyName(h)},
			"Revs":  &types.AttributeValueMemberN{Value: fmt.Sprint(len(h.Revisions))},
			"Drift": &types.AttributeValueMemberS{Value: strings.Join(h.Drift, "; ")}}
		if h.Current != nil {
			it["Current"] = &types.AttributeValueMemberS{Value: h.Current.Label()}
		}
		if l := h.Latest(); l != nil {
			it["Latest"] = &types.AttributeValueMemberN{Value: fmt.Sprint(l.Num)}
		}
		if v.owned() {
			it[v.info.Key.PK.Name] = &types.AttributeValueMemberS{Value: h.Owner}
		}
		items[i] = it
	}
	return items
}

// historyName names a history in lists and titles; one spelt without a
// name (v_1, or a pattern with no {name}) by its form.
func historyName(h domain.History) string {
	switch {
	case h.Name != "":
		return h.Name
	case h.Form == domain.FormPattern:
		return "(" + h.FormName() + ")"
	case h.Form == domain.FormBare:
		return "(vN)"
	}
	return "(v_N)"
}

func (v *Versions) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		if v.res.Stopped != nil { // cut off by an error: go on from there
			r := v.req
			r.Resume = &v.res
			ctx, req := v.list.Start()
			return v, loadVersions(ctx, v.c.Client, v.id, req, r)
		}
		return v, v.Init()
	case versionsLoadedMsg:
		if !v.list.Replace(msg.req, msg.result.Histories, false, msg.err) {
			return v, nil
		}
		v.res = msg.result
		if v.req.Pattern == nil && msg.result.Pattern != nil {
			v.req.Pattern = msg.result.Pattern // the key grammar's spelling (v{n}.{name}): the command that reopens the view names it
		}
		v.refresh() // in the sort's order
		v.layout()
		if msg.err != nil {
			return v, common.Report(msg.err, false, v.id)
		}
		if name := v.open; name != "" {
			v.open = ""
			for i, h := range v.res.Histories {
				if h.Name == name {
					v.list.Grid.SetCursor(v.sort.Line(i))
					return v, open(v.timeline(h))
				}
			}
			return v, common.Report(dynamo.Errorf("versions", dynamo.KindNotFound, "pick one from the list",
				"no versioned item %q in this partition", name), false, v.id)
		}
	case tea.KeyPressMsg:
		k := v.c.Keys
		switch {
		case key.Matches(msg, k.Back) && v.list.Cancel():
		case key.Matches(msg, k.Back), key.Matches(msg, k.NextMode), key.Matches(msg, k.Versions):
			return v, back
		case key.Matches(msg, k.Refresh) && v.list.Fail.Err != nil:
			return v.Update(common.RetryMsg{Page: v.id}) // on from where it stopped
		case key.Matches(msg, k.Refresh):
			return v, v.Init()
		case key.Matches(msg, k.Open) && v.list.Len() > 0:
			return v, open(v.timeline(v.selected()))
		case key.Matches(msg, k.Sort), key.Matches(msg, k.SortFlip):
			at := v.sort.Row(v.list.Grid.Cursor())
			list.SortKeyPressed(&v.sort, msg, k, v.columns())
			v.refresh()
			v.list.Grid.SetCursor(v.sort.Line(at))
		case key.Matches(msg, k.Filter):
			if q, ok := v.Query(); ok {
				return v, filterItems(v.c, v.info, q, "revisions")
			}
		default:
			v.list.Key(msg)
		}
	}
	return v, nil
}

func (v *Versions) timeline(h domain.History) *Timeline {
	t := NewTimeline(v.c, v.info, v.req.PK, h, v.res.Raw)
	t.index = v.indexName()
	return t
}

func (v *Versions) SetSize(w, h int) {
	v.w, v.h = w, h
	v.listW = v.w
	if v.c.ShowPreview(v.w) {
		v.listW = v.w * 11 / 20
		// A long drift takes room from the preview, which keeps three
		// tenths of the width: the drift is the reason to be here.
		v.list.SetSize(v.listW-4, v.h-2) // the rows shown decide the width
		v.listW = min(max(v.listW, v.list.Grid.Wanted()+4), v.w-v.w*3/10)
	}
	v.layout()
}

// layout gives the list its room: a line less for the projection's note
// below the rows (the list takes its failure's line itself).
func (v *Versions) layout() {
	rows := v.h - 2
	if v.req.ProjectionNote() != "" && !v.list.Fail.Stopped() {
		rows = v.h - 3
	}
	v.list.SetSize(v.listW-4, rows)
}

func (v *Versions) View() string {
	st := v.c.Styles
	listW, wide := v.listW, v.c.ShowPreview(v.w)
	drifted := 0
	for _, h := range v.res.Histories {
		if h.Drifted() {
			drifted++
		}
	}
	title := v.list.Title(common.KeyCell(v.req.PK))
	if ix := v.indexName(); ix != "" {
		title = "index " + common.Sanitize(ix) + " · " + title
	}
	if drifted > 0 {
		title += fmt.Sprintf(" · %d drifted", drifted)
	}
	if sorted := v.sort.Title(len(v.res.Histories), len(v.res.Histories)); sorted != "" {
		title = sorted + " · " + title // first: a narrow frame cuts the end
	}
	body := v.list.View()
	switch note := v.req.ProjectionNote(); {
	case v.list.Whole() && v.list.Len() == 0:
		like := "v0_Name, v1_Name, v001_Name, v_0 or v0…vN.\nWhere revisions are spelt another way (rev#3#Terms),\nset version_pattern = \"rev#{n}#{name}\" for the table\nin the configuration."
		if p := v.req.Pattern; p != nil {
			like = common.Sanitize(p.String()) + "\n(the table's version_pattern)."
		}
		// The words a dimmed Versions tab says elsewhere: the decision is
		// the same whichever way the view was reached, only read here.
		looked := ""
		if v.res.Found != "" {
			// Wrapped: the frame cut it before its ": none" at 80 and
			// 120 columns once it named every spelling looked for.
			looked = "\n" + common.Wrap(common.Sanitize(v.res.Found)+".", max(20, listW-4))
		}
		body = st.Dim.Render("No Versions mode here: no sort key here is a revision key like\n" + like + looked + "\nesc goes back to the partition.")
	case note != "" && v.list.Answered() && !v.list.Fail.Stopped():
		body += "\n" + st.Dim.Render(components.Fit(common.Sanitize(note), listW-4))
	}
	frame := common.Frame(st, title, body, listW, v.h)
	if !wide {
		return frame
	}
	preview := ""
	if h, ok := v.list.Selected(); ok {
		preview = historySummary(st, h, v.w-listW-4)
	}
	return joinH(frame, common.Frame(st, "Current copy", preview, v.w-listW, v.h))
}

// historySummary is the drift, then the current copy.
func historySummary(st *common.Styles, h domain.History, width int) string {
	var lines []string
	for _, d := range h.Drift {
		lines = append(lines, st.Drift.Render(components.Fit("⚠ "+common.Sanitize(d), width)))
	}
	if h.Current == nil {
		lines = append(lines, st.Dim.Render("No current copy ("+common.Sanitize(h.Stub(0))+")."))
	} else {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, renderPlain(st, h.Current.Item, width))
	}
	return strings.Join(lines, "\n")
}

func (v *Versions) Shows() (table, index string) { return v.info.Name, v.indexName() }

func (v *Versions) Crumbs() []string {
	return append(partitionSteps(v.info.Name, v.indexName(), common.KeyCell(v.req.PK)), "versions")
}
func (v *Versions) ID() int         { return v.id }
func (v *Versions) Mode() string    { return "Versions" }
func (v *Versions) Loading() bool   { return v.list.Req.InFlight() }
func (v *Versions) Capturing() bool { return false }

func (v *Versions) Request() string {
	level, _ := v.Query()
	apart := ""
	for _, note := range []string{v.res.Found, v.res.ApartNote()} {
		if note != "" && len(v.res.Histories) > 0 { // else said where the rows would be
			apart += " · " + note
		}
	}
	return fmt.Sprintf("%s%s · %d req · %s", level.Describe(), apart, v.res.Cost.Requests, common.BilledRCU(v.res.Cost))
}

func (v *Versions) ShortHelp() []key.Binding  { return v.keys().ShortHelp() }
func (v *Versions) HelpKeys() common.Keys     { return v.keys() }
func (v *Versions) FullHelp() [][]key.Binding { return v.keys().FullHelp() }

// keys are the Versions mode's keys, each where it acts: on the rows
// once some are listed, the filter where there is a query to filter,
// export once the read has answered.
func (v *Versions) keys() common.Keys {
	k := v.c.Keys
	rows := v.list.Len() > 0
	_, query := v.Query()
	ks := moveKeys(k, rows)
	ks = append(ks, common.Line(1, common.On(k.Open, rows)))
	ks = append(ks, searchKeys(1, k, rows)...)
	ks = append(ks, common.Line(1, common.On(k.Filter, query)), common.More(1, common.On(k.Sort, rows)),
		common.More(1, common.On(k.SortFlip, rows)), previewKey(1, v.c, v.w))
	ks = append(ks, modeKeys(2, k, v.Modes(), v.Mode())...)
	ks = append(ks, common.Line(1, v.list.BackKey(k.Back)), v.list.AgainKey(3, k.Refresh), common.More(3, common.On(k.Copy, query)),
		common.More(3, common.On(k.CopyKey, query)), common.More(3, common.On(k.Export, v.list.Settled())))
	return append(ks, endKeys(4, k)...)
}

// Query is the partition's revision keys.
func (v *Versions) Query() (domain.KeyQuery, bool) {
	if v.req.Key.SK == nil {
		return domain.KeyQuery{}, false
	}
	return dynamo.HistoryQuery(v.req), true
}

// DeepLink reopens the Versions mode from the command line.
func (v *Versions) DeepLink() []string {
	return versionsLink(v.info.Name, v.indexName(), v.req.PK, v.req.Pattern, "--versions")
}

// versionsLink is the command line of the Versions mode: the pattern too,
// when the table has one, so that the command works without the
// configuration.
func versionsLink(table, index string, pk domain.KeyValue, p *domain.VersionPattern, versions ...string) []string {
	args := []string{"--table", table, "--pk", keyArg(pk)}
	if index != "" {
		args = append(args, "--index", index)
	}
	if p != nil {
		args = append(args, "--version-pattern", p.String())
	}
	return append(args, versions...)
}

// Loaded is the versioned items as listed; exporting them reads nothing.
func (v *Versions) Loaded() (common.Loaded, bool) {
	view := []string{v.info.Name, keyArg(v.req.PK), "versions"}
	return common.Loaded{Rows: dynamo.HistoryRows(v.res.Histories), View: view}, v.list.Settled()
}

// Click selects the clicked row, or asks to open it when already selected
// (the list's frame border is the body's first line).
func (v *Versions) Click(y int) bool { return v.list.Grid.Click(y - 1) }

// TableSize is the table's size in bytes, as DescribeTable gives it.
func (v *Versions) TableSize() int64 { return v.info.SizeBytes }
