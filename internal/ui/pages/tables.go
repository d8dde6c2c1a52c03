package pages

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// Tables lists the tables with their keys, indexes, item counts and sizes.
type Tables struct {
	c       *common.Common
	id      int
	list    list.Paged[string] // the table names, a ListTables page at a time
	infos   map[string]dynamo.TableInfo
	pending int
	desc    list.Request // the DescribeTable calls, answered under one id
	descCtx context.Context
	asked   map[string]bool // tables described or being described
	counts  string          // loadCounts, taken when the list or a load changes
	w, h    int
	given   []string // the list's first page already read (the command line's preflight), for Init to use once
	givenAt string   // where the list goes on after given
	// toEnd: G was pressed while the list was still being read, and the
	// cursor has not moved since: each page listed takes it to the new
	// last table, so G reaches the list's end, not the last page's.
	toEnd bool
}

// NewTables returns the tables page.
func NewTables(c *common.Common) *Tables {
	t := &Tables{c: c, id: c.NextID(), infos: map[string]dynamo.TableInfo{}}
	t.list = list.NewPaged(c, list.Words{One: "table", Many: "tables", Count: t.count,
		Reading: "the table list is", More: "more tables still being listed",
		Again: "r reads again"}, // r lists the tables from the first (Init)
		[]components.Column{{Title: "Table", Keep: true}, {Title: "Keys", Keep: true}, {Title: "Indexes"}, {Title: "Items (est.)", Short: "Items"}, {Title: "Size (est.)", Short: "Size"}}, t.cell)
	return t
}

// count is the title's count: "≥100, listing on" while ListTables pages
// are still read behind the first, and the tables not (yet) whole.
func (t *Tables) count(n int, more bool) string {
	if more {
		return fmt.Sprintf("≥%d, listing on", n) + t.counts
	}
	return fmt.Sprint(n) + t.counts
}

// Listed hands over the table list's first page read before the page
// starts, and where the list goes on ("" when that was all), so that Init
// shows it without listing it again and reads the rest behind it.
func (t *Tables) Listed(names []string, next string) { t.given, t.givenAt = names, next }

// Known is how many tables the table list read so far named (0 before it).
func (t *Tables) Known() int { return max(t.list.Len(), len(t.given)) }

func (t *Tables) Init() tea.Cmd {
	ctx, req := t.list.Start()
	if names, next := t.given, t.givenAt; names != nil {
		t.given, t.givenAt = nil, "" // r and retries list again
		return func() tea.Msg { return tablesListedMsg{page: t.id, req: req, names: names, next: next} }
	}
	return listTables(ctx, t.c.Client, t.id, req, "", 0)
}

func (t *Tables) selected() (string, bool) { return t.list.Selected() }

// Update handles msg, then describes the tables that came into view (by
// a key, a search, a click or a resize) and were not yet described.
func (t *Tables) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	cmd := t.update(msg)
	return t, tea.Batch(cmd, t.describeShown())
}

func (t *Tables) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.RetryMsg:
		return t.Init()
	case common.LoadChangedMsg:
		// A table finished loading (or the load ended): its count and
		// size are read again, and tables created meanwhile listed.
		return t.Init()
	case tablesListedMsg:
		return t.listed(msg)
	case tableDescribedMsg:
		if msg.req != t.desc.ID() {
			return nil
		}
		if t.pending > 0 {
			if t.pending--; t.pending == 0 {
				t.desc.Stop()
			}
		}
		if msg.err != nil {
			delete(t.asked, msg.name) // asked again when next in view
			if dynamo.KindOf(msg.err) == dynamo.KindCancelled {
				return nil
			}
			return common.Report(msg.err, false, t.id)
		}
		t.infos[msg.info.Name] = msg.info
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, t.c.Keys.Open):
			if name, ok := t.selected(); ok {
				return open(NewPartitions(t.c, name, t.infos[name], TreeOptionsFor(t.c, name)))
			}
		case key.Matches(msg, t.c.Keys.Changes):
			return t.openChanges()
		case key.Matches(msg, t.c.Keys.Refresh):
			return t.Init()
		case key.Matches(msg, t.c.Keys.Back) && (t.list.Req.InFlight() || t.desc.InFlight()):
			t.list.Cancel() // said where the rows are, with those listed
			t.desc.Stop()
			t.pending = 0
			t.asked = nil // no more describing until r
		default:
			if t.list.Key(msg) == list.Moved {
				t.toEnd = key.Matches(msg, t.c.Keys.Bottom) && t.list.More()
			}
		}
	}
	return nil
}

// listed takes a page of the table list: the first shows at once, and
// the next is read behind it (G and / see the list as it arrives).
func (t *Tables) listed(msg tablesListedMsg) tea.Cmd {
	names := msg.names
	if msg.err != nil {
		names = nil // a refused page (its cursor repeats) lists nothing
	}
	if !t.list.Answer(msg.req, names, msg.err == nil && msg.next != "", msg.err) {
		return nil
	}
	if msg.from == "" && msg.err == nil { // a failed list again keeps the rows it had
		// A DescribeTable only for the rows on screen, as they come
		// into view: 10,000 tables are 10,000 requests (and as many
		// redraws) nobody looks at.
		t.desc.Stop()
		t.asked, t.pending = map[string]bool{}, 0
	}
	if msg.err != nil {
		return common.Report(msg.err, t.list.Len() == 0, t.id)
	}
	t.counts = t.loadCounts()
	if t.toEnd {
		t.list.Grid.SetCursor(t.list.Len() - 1)
	}
	if msg.next == "" {
		t.toEnd = false
		return nil
	}
	ctx, req := t.list.Next()
	return listTables(ctx, t.c.Client, t.id, req, msg.next, t.list.Len())
}

// sizeGrid fits the list to the page: the preview takes two fifths of a
// wide one.
func (t *Tables) sizeGrid() {
	t.list.SetSize(t.listWidth()-4, t.h-2)
}

// listWidth is the list's width, beside the preview when wide.
func (t *Tables) listWidth() int {
	if t.c.ShowPreview(t.w) {
		return t.w * 3 / 5
	}
	return t.w
}

// SelectionMoved describes the tables a search scrolled into view.
func (t *Tables) SelectionMoved() tea.Cmd { return t.describeShown() }

// describeShown describes the tables on screen not yet asked about.
func (t *Tables) describeShown() tea.Cmd {
	if !t.list.Answered() || t.asked == nil || t.toEnd && t.list.More() {
		// G while listing: the screens it passes on the way to the end
		// show for a page's read each; only the last is described.
		return nil
	}
	var shown []int
	if t.h > 0 {
		t.sizeGrid()
		shown = t.list.Grid.Shown()
	} else {
		// Listed before the first size: a screenful of the first rows.
		shown = nil
		for r := range min(t.list.Len(), 60) {
			shown = append(shown, r)
		}
	}
	var cmds []tea.Cmd
	for _, r := range shown {
		name := *t.list.Row(r)
		if t.asked[name] {
			continue
		}
		if t.pending == 0 {
			t.descCtx, _ = t.desc.Start(t.c)
		}
		t.asked[name] = true
		t.pending++
		cmds = append(cmds, describeTable(t.descCtx, t.c.Client, t.id, t.desc.ID(), name))
	}
	return tea.Batch(cmds...)
}

func keyText(k dynamo.KeySchema) string {
	s := fmt.Sprintf("%s %s", domain.NameText(k.PK.Name), k.PK.Type)
	if k.SK != nil {
		s += fmt.Sprintf(" · %s %s", domain.NameText(k.SK.Name), k.SK.Type)
	}
	return s
}

func indexText(ixs []dynamo.Index) string {
	var parts []string
	for _, ix := range ixs {
		parts = append(parts, ix.Kind+" "+ix.Name)
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

// cell is a table's row: its keys and indexes once described, its
// item count and size (DynamoDB's estimates, or a --data load's state).
func (t *Tables) cell(name string, col int) string {
	info, ok := t.infos[name]
	switch col {
	case 0:
		return common.Sanitize(name)
	case 1:
		if ok {
			return keyText(info.Key)
		}
		return "…"
	case 2:
		if ok {
			return indexText(info.Indexes)
		}
	case 3:
		if l, loading := t.c.TableLoad(name); loading {
			return loadCell(l)
		}
		if ok && unreported(info) {
			return "–" // 0 items and 0 bytes: a fresh count, not an empty table
		}
		if ok {
			return common.Thousands(int(info.ItemCount))
		}
	case 4:
		if l, loading := t.c.TableLoad(name); loading && l.State == dynamo.LoadRunning {
			return "…" // still growing
		}
		if ok && unreported(info) {
			return "–"
		}
		if ok {
			return common.HumanBytes(info.SizeBytes)
		}
	}
	return ""
}

// unreported: DescribeTable says 0 items in 0 bytes, which is what
// DynamoDB (and dynalite) say of a table whose count has not been taken
// yet (it is taken about every six hours), not only of an empty one.
// Nothing is read to find out which.
func unreported(info dynamo.TableInfo) bool { return info.ItemCount == 0 && info.SizeBytes == 0 }

// loadCell is the Items cell of a table not (yet) whole: how many items
// are in and why it is not complete.
func loadCell(l dynamo.TableLoad) string {
	switch l.State {
	case dynamo.LoadRunning:
		return "loading… " + common.Thousands(l.Items)
	case dynamo.LoadStopped:
		return "PARTIAL " + common.Thousands(l.Items)
	}
	return "FAILED"
}

// loadCounts says how many of the listed tables are not whole, by why:
// " · 1 loading · 1 partial".
func (t *Tables) loadCounts() string {
	var n [4]int
	for i := range t.list.Len() {
		if l, ok := t.c.TableLoad(*t.list.Row(i)); ok {
			n[l.State]++
		}
	}
	s := ""
	for _, c := range []struct {
		state dynamo.LoadState
		word  string
	}{{dynamo.LoadRunning, "loading"}, {dynamo.LoadStopped, "partial"}, {dynamo.LoadFailed, "failed"}} {
		if n[c.state] > 0 {
			s += fmt.Sprintf(" · %d %s", n[c.state], c.word)
		}
	}
	return s
}

func (t *Tables) SetSize(w, h int) {
	t.w, t.h = w, h
	t.sizeGrid()
}

func (t *Tables) View() string {
	wide := t.c.ShowPreview(t.w)
	listW := t.listWidth()
	body := t.list.View()
	if t.list.Whole() && t.list.Len() == 0 {
		body = t.c.Styles.Dim.Render(t.emptyText())
	}
	list := common.Frame(t.c.Styles, t.list.Title("Tables"), body, listW, t.h)
	if !wide {
		return list
	}
	return joinH(list, common.Frame(t.c.Styles, "Table", t.preview(), t.w-listW, t.h))
}

// emptyText says why there are no tables, and what to try: files opened
// with --data have their own causes, never the region or the endpoint.
func (t *Tables) emptyText() string {
	if t.c.Load == nil {
		return "No tables here. Check the region and the endpoint, or try the demo (dynascope --demo)."
	}
	switch s := t.c.Load.Status(); {
	case s.Err != nil:
		return "No tables: loading --data failed: " + common.Sanitize(s.Err.Error())
	case !s.Ended:
		return "No tables yet: --data is still loading."
	case s.Stopped:
		return "No tables: the --data load was stopped before any table was in."
	}
	return "No tables in the --data files: check the paths (a DynamoDB export's folder, a NoSQL Workbench model, or aws dynamodb scan output)."
}

func (t *Tables) preview() string {
	name, ok := t.selected()
	if !ok {
		return ""
	}
	info, ok := t.infos[name]
	if !ok {
		return t.c.Styles.Dim.Render("describing " + common.Sanitize(name) + "…")
	}
	st := t.c.Styles
	lines := []string{
		st.FrameTitle.Render(common.Sanitize(info.Name)) + "  " + st.Dim.Render(info.Status),
		"",
		st.Dim.Render("partition key  ") + st.Key.Render(info.Key.PK.Name) + " " + st.TypeTag.Render(string(info.Key.PK.Type)),
	}
	if info.Key.SK != nil {
		lines = append(lines, st.Dim.Render("sort key       ")+st.Key.Render(info.Key.SK.Name)+" "+st.TypeTag.Render(string(info.Key.SK.Type)))
	}
	if mark := t.c.LoadMark(name); mark != "" {
		lines = append(lines, st.ErrorTitle.Render(common.Sanitize(mark)))
		if l, _ := t.c.TableLoad(name); l.Err != nil {
			lines = append(lines, st.ErrorBody.Render(common.Sanitize(common.ExplorerWords(l.Err.Error()))))
		}
		lines = append(lines, "")
	}
	// DescribeTable's counts are DynamoDB's estimate, not a count: said so,
	// wrapped to the pane (cut at 120 columns, it read "counted yet reads 0
	// whether …").
	if unreported(info) {
		lines = append(lines, st.Dim.Render("items          ")+st.Dim.Render("– not reported"),
			st.Dim.Render("size           ")+st.Dim.Render("– not reported"))
		lines = append(lines, t.note("DynamoDB reports 0 items and 0 bytes: its estimate is updated about every 6 hours, and a table it has not counted yet reads 0 whether it holds items or not")...)
	} else {
		lines = append(lines, st.Dim.Render("items          ")+"~"+common.Thousands(int(info.ItemCount)),
			st.Dim.Render("size           ")+"~"+common.HumanBytes(info.SizeBytes))
		lines = append(lines, t.note("DynamoDB's estimate, updated about every 6 hours")...)
	}
	// The stream is DescribeTable's too: whether Changes can be read here.
	if info.Stream.ARN != "" {
		lines = append(lines, st.Dim.Render("stream         ")+common.Sanitize(info.Stream.View), "")
	} else {
		lines = append(lines, st.Dim.Render("stream         none: no Changes"), "")
	}
	for _, ix := range info.Indexes {
		lines = append(lines, st.Header.Render(ix.Kind+" "+ix.Name), "  "+keyText(ix.Key)+"  "+st.Dim.Render(strings.ToLower(ix.Projection)))
	}
	return strings.Join(lines, "\n")
}

// note is a dimmed remark under the details' values, wrapped to the
// pane's width beneath them.
func (t *Tables) note(text string) []string {
	const indent = "               "
	width := max(20, t.w-t.listWidth()-4-len(indent))
	var out []string
	for _, l := range strings.Split(common.Wrap(text, width), "\n") {
		out = append(out, t.c.Styles.Dim.Render(indent+l))
	}
	return out
}

func (t *Tables) Shows() (table, index string) { return "", "" }
func (t *Tables) Crumbs() []string             { return []string{"Tables"} }
func (t *Tables) ID() int                      { return t.id }
func (t *Tables) Mode() string                 { return "" }
func (t *Tables) Loading() bool                { return t.list.Req.InFlight() || t.desc.InFlight() }
func (t *Tables) Capturing() bool              { return false }

func (t *Tables) Request() string {
	return fmt.Sprintf("ListTables, then DescribeTable × %d (the tables shown so far)", len(t.infos))
}

func (t *Tables) ShortHelp() []key.Binding {
	k := t.c.Keys
	return onRows(k, t.list.Len() > 0, withAgain([]key.Binding{k.Up, k.Down, k.Open, k.Search}, t.list.AgainKey(1, k.Refresh), k.Help, k.Quit))
}

func (t *Tables) FullHelp() [][]key.Binding {
	k := t.c.Keys
	return onRowsFull(k, t.list.Len() > 0, [][]key.Binding{k.Moves(), {k.Open, k.Search, k.NextMatch, k.PrevMatch, t.changesKey(), t.list.AgainKey(1, k.Refresh).Binding, common.On(k.Preview, t.w >= common.PreviewMin)}, {k.Help, k.Quit}})
}

// changesKey is 5 in help only where it opens the selected table's
// changes: listed over a table without a stream, it only said why not.
func (t *Tables) changesKey() key.Binding {
	name, ok := t.selected()
	info, described := t.infos[name]
	return common.On(tableChangesKey(t.c.Keys.Changes), ok && described && (place{c: t.c, info: info}).noChanges() == "")
}

// openChanges is 5 on a table: every partition's changes from its stream,
// as on its partitions list; or why there are none, reading nothing.
func (t *Tables) openChanges() tea.Cmd {
	name, ok := t.selected()
	if !ok {
		return nil
	}
	info, ok := t.infos[name]
	if !ok {
		return notice("No Changes yet: " + common.Sanitize(name) + " is still being described")
	}
	if why := (place{c: t.c, info: info}).noChanges(); why != "" {
		return notice("No Changes here: " + why)
	}
	return open(NewTableChanges(t.c, info))
}

// Click selects the clicked row, or asks to open it when already selected
// (the list's frame border is the body's first line).
func (p *Tables) Click(y int) bool { return p.list.Grid.Click(y - 1) }
