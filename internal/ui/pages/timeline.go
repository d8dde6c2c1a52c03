package pages

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// Timeline is one logical item's history: the v0_ copy pinned on top and
// highlighted (red when it drifted), then every revision in numeric order.
// Stepping ([ ] ← →) shows each revision and its diff against the one
// before; m marks a revision to compare the selection with instead (m on
// it unmarks), and 0 compares the selection with v0_, marked or not.
type Timeline struct {
	c     *common.Common
	id    int
	info  dynamo.TableInfo
	pk    domain.KeyValue
	index string // the index the history was read from ("" the table)
	get   list.Request
	h     domain.History
	raw   map[string]dynamo.Item // revisions as read, by sort key
	// list is the revisions, row 0 the current copy (nil when missing),
	// given by the versions' read: counted, nothing in flight.
	list   list.Paged[revisionRow]
	mark   int  // row compared against; -1: the previous revision
	vsZero bool // compare with v0_
	deltaW int  // digits a count of changes can take, so the counts line up
	w, hgt int
}

// revisionRow is a line of the timeline: its place (what it is compared
// with depends on it) and its revision.
type revisionRow struct {
	r   int
	rev *domain.Revision
}

// NewTimeline returns the timeline of a history already read.
func NewTimeline(c *common.Common, info dynamo.TableInfo, pk domain.KeyValue, h domain.History, raw map[string]dynamo.Item) *Timeline {
	t := &Timeline{c: c, id: c.NextID(), info: info, pk: pk, h: h, raw: raw, mark: -1}
	t.list = list.NewPaged(c, list.Words{One: "revision", Many: "revisions",
		Count: func(int, bool) string { return common.Plural(len(h.Revisions), "revision", "revisions") }}, nil, t.cell)
	rows := []revisionRow{{0, h.Current}}
	for i := range h.Revisions {
		rows = append(rows, revisionRow{i + 1, &h.Revisions[i]})
	}
	t.list.Given(rows)
	t.list.Grid.SetPinned(1) // the current copy stays on top
	t.setColumns()
	t.list.Grid.SetRowStyle(func(r int) *lipgloss.Style {
		if r == 0 {
			if h.Drifted() {
				return &t.c.Styles.Drift
			}
			return &t.c.Styles.Pinned
		}
		return nil
	})
	if t.list.Len() > 1 {
		t.list.Grid.SetCursor(t.list.Len() - 1) // the newest revision first
	}
	return t
}

// keptApart: the history keeps no current copy by design (a number key's
// every version, historical.u1's past revisions), so none is missing.
func (t *Timeline) keptApart() bool {
	return t.h.Current == nil && t.h.Pattern != nil && t.h.Pattern.HistoryOnly() && t.h.Latest() != nil
}

// rev is row r's revision (nil: the current copy is missing).
func (t *Timeline) rev(r int) *domain.Revision { return t.list.Row(r).rev }

// cursor is the selected row.
func (t *Timeline) cursor() int { return t.list.Grid.Cursor() }

// setColumns sizes the columns once from every revision, so that they
// keep their width as the list scrolls, and titles Changes by what it
// counts.
func (t *Timeline) setColumns() {
	revW, keyW := len("Revision"), len("Sort key")
	attrs := 0
	for _, row := range t.list.Rows() {
		if row.rev != nil {
			attrs = max(attrs, len(row.rev.Item))
		}
	}
	t.deltaW = len(fmt.Sprint(2 * attrs)) // a diff names at most the attributes of both sides
	for _, row := range t.list.Rows() {
		revW = max(revW, len(t.cell(row, 1)))
		keyW = max(keyW, len(t.cell(row, 3)))
	}
	changesW := max(7, len(t.changesTitle()), lipgloss.Width(t.cell(*t.list.Row(0), 2)))
	t.list.Grid.SetColumns([]components.Column{{Title: " ", Width: 2}, {Title: "Revision", Width: revW, Keep: true},
		{Title: t.changesTitle(), Width: changesW}, {Title: "Sort key", Width: keyW}})
}

// comparison says what each revision is compared with, once: in the
// diff's title and the Changes column's.
func (t *Timeline) comparison() string {
	switch {
	case t.mark >= 0:
		if rev := t.rev(t.mark); rev != nil {
			return "the marked " + common.Sanitize(rev.Label())
		}
		return "the marked revision"
	case t.vsZero:
		return "the current copy (" + common.Sanitize(t.zero()) + ")"
	}
	return "the revision before"
}

func (t *Timeline) changesTitle() string {
	switch {
	case t.mark >= 0 && t.rev(t.mark) != nil:
		return "Δ vs " + common.Sanitize(t.rev(t.mark).Label())
	case t.vsZero:
		return "Δ vs v0"
	}
	return "Δ vs prev"
}

func (t *Timeline) cell(row revisionRow, col int) string {
	r, rev := row.r, row.rev
	switch col {
	case 0:
		switch {
		case r == t.mark:
			return "◆"
		case r == 0:
			return "★"
		}
		return ""
	case 1:
		if rev == nil && t.keptApart() {
			return "newest is current"
		}
		if rev == nil {
			return common.Sanitize(t.h.Stub(0)) + " missing"
		}
		if r == 0 {
			return common.Sanitize(rev.Label()) + " current"
		}
		return common.Sanitize(rev.Label())
	case 2:
		if r == t.mark {
			return "marked"
		}
		if r == 0 && t.vsZero && t.mark < 0 {
			return "" // the current copy: no difference from itself under "Δ vs v0"
		}
		base := t.before(r)
		if rev == nil || base == nil || base == rev {
			return ""
		}
		n := fmt.Sprintf("%*d", t.deltaW, len(domain.Diff(t.strip(base.Item), t.strip(rev.Item))))
		if r == 0 && t.mark < 0 && !t.vsZero {
			// The current copy has no revision before it: it is compared
			// with the newest, and says so under "Δ vs prev".
			return n + " vs " + common.Sanitize(base.Label())
		}
		return n
	}
	if rev == nil {
		return ""
	}
	return common.Sanitize(rev.Key)
}

// before is what row r is compared with: the marked row, v0_, or the
// revision before it (the current copy compares with the newest).
func (t *Timeline) before(r int) *domain.Revision {
	switch {
	case t.mark >= 0 && t.mark != r:
		return t.rev(t.mark)
	case t.vsZero && r != 0:
		return t.rev(0)
	case r == 0:
		return t.h.Latest()
	case r == 1:
		return nil
	}
	return t.rev(r - 1)
}

// strip leaves the key attributes out: they differ by design.
func (t *Timeline) strip(item map[string]any) map[string]any {
	out := make(map[string]any, len(item))
	for k, v := range item {
		if k != t.info.Key.PK.Name && (t.info.Key.SK == nil || k != t.info.Key.SK.Name) {
			out[k] = v
		}
	}
	return out
}

func (t *Timeline) Init() tea.Cmd { return nil }

// rawOf is a revision as read (from the index, on an index).
func (t *Timeline) rawOf(rev *domain.Revision) dynamo.Item {
	return t.raw[dynamo.RawKey(t.h.Owner, rev.Key)]
}

// openRevision opens a revision: read whole from the base table by its
// key (one GetItem) when the index it was read from holds part of it.
func (t *Timeline) openRevision(it dynamo.Item) tea.Cmd {
	if _, partial := partialProjection(t.info, t.index); !partial {
		return open(NewItem(t.c, t.info, it))
	}
	ctx, req := t.get.Start(t.c)
	return getItem(ctx, t.c.Client, t.id, req, t.info.Name, baseKey(t.info, it))
}

func (t *Timeline) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	if msg, ok := msg.(itemReadMsg); ok {
		if !t.get.Done(msg.req) {
			return t, nil
		}
		it, cmd := msg.readItem(t.c, t.info, t.id)
		if it == nil {
			return t, cmd
		}
		return t, open(it)
	}
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return t, nil
	}
	k := t.c.Keys
	switch {
	case key.Matches(km, k.PrevRev, k.NextRev) && t.list.Len() < 2:
		b := k.PrevRev
		if key.Matches(km, k.NextRev) {
			b = k.NextRev
		}
		return t, t.noStep(b, "this history has one row: nothing to step to")
	case key.Matches(km, k.PrevRev):
		if t.cursor() == 0 {
			return t, t.noStep(k.PrevRev, "the current copy ("+common.Sanitize(t.zero())+") is first; "+k.NextRev.Help().Key+" steps to the oldest revision")
		}
		t.list.Grid.SetCursor(max(0, t.cursor()-1))
	case key.Matches(km, k.NextRev):
		if t.cursor() == t.list.Len()-1 {
			return t, t.noStep(k.NextRev, t.newest()+" is the newest revision")
		}
		t.list.Grid.SetCursor(min(t.list.Len()-1, t.cursor()+1))
	case key.Matches(km, k.Mark):
		return t, t.markKey()
	case key.Matches(km, k.Diff0):
		// 0 compares with the current copy whatever is marked (the mark
		// is let go); pressed again, with the revision before.
		if t.mark >= 0 {
			t.mark, t.vsZero = -1, true
		} else {
			t.vsZero = !t.vsZero
		}
		t.setColumns()
		return t, notice("comparing each revision with " + t.comparison())
	case key.Matches(km, k.Back):
		return t, back
	case key.Matches(km, k.Open):
		if rev := t.rev(t.cursor()); rev != nil && t.rawOf(rev) != nil {
			return t, t.openRevision(t.rawOf(rev))
		}
	default:
		t.list.Key(km)
	}
	return t, nil
}

func (t *Timeline) SetSize(w, h int) {
	t.w, t.hgt = w, h
	listW, _, gridH, _ := t.listSize()
	t.list.SetSize(listW-4, gridH)
}

// listSize is the list's frame and its rows' height: beside the diff when
// wide; stacked, a third of the height, or all its rows where they fit in
// half of it (frame and header are 3 lines), so a short history never
// hides a revision behind a scroll.
func (t *Timeline) listSize() (listW, listH, gridH int, wide bool) {
	wide = t.c.ShowPreview(t.w)
	n := t.list.Len()
	listW, listH = t.w, min(t.hgt/3, n+3)
	if n+3 <= t.hgt/2 {
		listH = n + 3
	}
	if wide {
		listW, listH = t.w*2/5, t.hgt
	}
	listH = max(listH, 5)
	gridH = listH - 2
	if wide && t.h.Drifted() {
		gridH = max(3, gridH-len(t.h.Drift)-1) // room for the drift below
	}
	return listW, listH, gridH, wide
}

func (t *Timeline) View() string {
	st := t.c.Styles
	listW, listH, _, wide := t.listSize()
	title := t.list.Title(common.Sanitize(historyName(t.h)))
	if t.h.Owner != "" { // on an index: whose history, by the base table's key
		title = common.Sanitize(domain.NameText(t.info.Key.PK.Name)+" "+t.h.Owner) + " · " + title
	}
	if t.h.Drifted() {
		title += " · drifted"
	}
	body := t.list.View()
	if t.h.Drifted() {
		var d []string
		for _, x := range t.h.Drift {
			d = append(d, st.Drift.Render(components.Fit("⚠ "+common.Sanitize(x), listW-4)))
		}
		if wide {
			body += "\n\n" + strings.Join(d, "\n")
		} else {
			title += " · " + common.Sanitize(t.h.Drift[0])
		}
	}
	frame := common.Frame(st, title, body, listW, listH)
	rw, rh := t.w, t.hgt-listH
	if wide {
		rw, rh = t.w-listW, t.hgt
	}
	r := t.cursor()
	rev, base := t.rev(r), t.before(r)
	dtitle := "Diff"
	var lines []string
	switch {
	case rev == nil && t.keptApart():
		dtitle = "No current copy kept apart"
		lines = append(lines, st.Dim.Render("Every version is kept under its own number: the newest, "+common.Sanitize(t.h.Latest().Label())+", is the item as it is."))
	case rev == nil:
		zero := common.Sanitize(t.h.Stub(0))
		dtitle = zero + " missing"
		lines = append(lines, st.Drift.Render("No current copy ("+zero+") of this item."))
		for _, x := range t.h.Drift {
			lines = append(lines, st.Drift.Render(components.Fit("⚠ "+common.Sanitize(x), rw-4)))
		}
	case r == t.mark:
		dtitle = common.Sanitize(rev.Label()) + " is the marked revision: pick another to compare with it"
		lines = append(lines, renderPlain(st, t.strip(rev.Item), rw-4))
	case base == nil:
		dtitle = common.Sanitize(rev.Key) + " · the first revision"
		lines = append(lines, renderPlain(st, t.strip(rev.Item), rw-4))
	default:
		against := t.comparison()
		if r == 0 && t.mark < 0 {
			against = "the newest revision"
		}
		dtitle = "Diff " + common.Sanitize(base.Label()) + " → " + common.Sanitize(rev.Label()) + " · against " + against
		lines = append(lines, renderDiff(st, domain.Diff(t.strip(base.Item), t.strip(rev.Item)), rw-4))
		lines = append(lines, "", st.Dim.Render(common.Sanitize(rev.Key)+":"), renderPlain(st, t.strip(rev.Item), rw-4))
	}
	diff := common.Frame(st, dtitle, paneLines(st, strings.Join(lines, "\n"), rh-2), rw, rh)
	if wide {
		return joinH(frame, diff)
	}
	return frame + "\n" + diff
}

// paneLines fits content to a pane of rows, its last row saying how many
// lines it leaves out: the frame cut them without a word, and "9 changed"
// stood over eight changes.
func paneLines(st *common.Styles, content string, rows int) string {
	lines := strings.Split(content, "\n")
	if rows < 1 || len(lines) <= rows {
		return content
	}
	left := len(lines) - (rows - 1)
	return strings.Join(lines[:rows-1], "\n") + "\n" + st.Dim.Render(fmt.Sprintf("… %d more lines, not shown at this height", left))
}

// renderDiff shows changes a line each: ~ changed old → new, + added,
// - removed, values as compact JSON.
func renderDiff(st *common.Styles, cs []domain.Change, width int) string {
	if len(cs) == 0 {
		return st.Dim.Render("No differences (key attributes aside).")
	}
	counts := map[domain.ChangeKind]int{}
	for _, c := range cs {
		counts[c.Kind]++
	}
	lines := []string{st.Dim.Render(fmt.Sprintf("%d changed · %d added · %d removed", counts[domain.Changed], counts[domain.Added], counts[domain.Removed]))}
	for _, c := range cs {
		path := common.Sanitize(c.Path)
		var line string
		var s lipgloss.Style
		switch c.Kind {
		case domain.Added:
			line, s = "+ "+path+"  "+compact(c.New), st.Added
		case domain.Removed:
			line, s = "- "+path+"  "+compact(c.Old), st.Removed
		default:
			line, s = "~ "+path+"  "+compact(c.Old)+" → "+compact(c.New), st.Changed
		}
		lines = append(lines, s.Render(components.Fit(line, width)))
	}
	return strings.Join(lines, "\n")
}

// compact is a value as one line of JSON, sanitized.
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return common.SanitizeJSON(string(b))
}

// renderPlain shows plain values as coloured JSON.
func renderPlain(st *common.Styles, item map[string]any, width int) string {
	b, err := json.MarshalIndent(item, "", "  ")
	if err != nil {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		lines[i] = colorLine(st, components.Fit(common.SanitizeJSON(l), width))
	}
	return strings.Join(lines, "\n")
}

func (t *Timeline) Shows() (table, index string) { return t.info.Name, t.index }

func (t *Timeline) Crumbs() []string {
	if t.index != "" {
		return append(partitionSteps(t.info.Name, t.index, common.KeyCell(t.pk)), "versions", historyName(t.h)+" "+t.h.Owner)
	}
	return append(partitionSteps(t.info.Name, "", common.KeyCell(t.pk)), "versions", historyName(t.h))
}
func (t *Timeline) ID() int         { return t.id }
func (t *Timeline) Mode() string    { return "Versions" }
func (t *Timeline) Loading() bool   { return false }
func (t *Timeline) Capturing() bool { return false }

func (t *Timeline) Request() string {
	read := "the partition's versions"
	if t.index != "" {
		read = "index " + t.index + "'s versions"
		if t.h.Owner != "" {
			read = domain.NameText(t.info.Key.PK.Name) + " " + t.h.Owner + " from " + read
		}
	}
	return fmt.Sprintf("history of %s (%s), read with %s: no further request", historyName(t.h), common.Plural(len(t.h.Revisions), "revision", "revisions"), read)
}

// markKey marks the selected revision to compare every other with, or
// unmarks it when it is the one marked.
func (t *Timeline) markKey() tea.Cmd {
	if t.mark == t.cursor() {
		t.mark = -1
		t.setColumns()
		return notice("unmarked: comparing each revision with " + t.comparison())
	}
	t.mark = t.cursor()
	t.setColumns()
	return notice("comparing each revision with " + t.comparison() + " · m on it unmarks, 0 compares with the current copy")
}

// noStep says why [ or ] does not move: the list ends there, as a key
// that does not apply says why.
func (t *Timeline) noStep(b key.Binding, why string) tea.Cmd {
	return func() tea.Msg {
		return common.NoticeMsg{Text: b.Help().Key + " " + b.Help().Desc + " does not apply here", Why: why}
	}
}

// newest names the last row's revision.
func (t *Timeline) newest() string {
	if rev := t.rev(t.list.Len() - 1); rev != nil {
		return common.Sanitize(rev.Label())
	}
	return "this"
}

// mark is the m key's help: on the marked row it unmarks.
func (t *Timeline) markHelp() key.Binding {
	b := t.c.Keys.Mark
	if t.mark >= 0 && t.mark == t.cursor() {
		return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, "unmark"))
	}
	return b
}

// zero names the current copy as its key spells it (v0000_ beside
// v0001_), not in the form's plain spelling (v0_).
func (t *Timeline) zero() string {
	if t.h.Current != nil {
		return t.h.Current.Stub()
	}
	return t.h.Stub(0)
}

// diff0 is the 0 key's help in the table's own spelling of the current
// copy (v0_, rev#0#…).
func (t *Timeline) diff0() key.Binding {
	b := t.c.Keys.Diff0
	what := "compare with " + common.Sanitize(t.zero())
	if t.vsZero && t.mark < 0 {
		what = "compare with the one before"
	}
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, what))
}

func (t *Timeline) ShortHelp() []key.Binding  { return t.keys().ShortHelp() }
func (t *Timeline) HelpKeys() common.Keys     { return t.keys() }
func (t *Timeline) FullHelp() [][]key.Binding { return t.keys().FullHelp() }

// keys are the timeline's keys, each where it acts: 0 and m first on the
// help line ([ and ] move as ↑ and ↓ do), stepping where there is more
// than one row, enter where the selected revision was read.
func (t *Timeline) keys() common.Keys {
	k := t.c.Keys
	steps := t.list.Len() > 1
	rev := t.rev(t.cursor())
	ks := common.Keys{common.Line(1, common.On(t.diff0(), steps)), common.Line(1, common.On(t.markHelp(), rev != nil && steps)),
		common.Line(1, common.On(k.PrevRev, steps)), common.Line(1, common.On(k.NextRev, steps))}
	for _, m := range moveKeys(k, steps) {
		m.Short = false
		ks = append(ks, m)
	}
	ks = append(ks, common.Line(3, common.On(k.Open, rev != nil && t.rawOf(rev) != nil)))
	for _, s := range searchKeys(2, k, true) {
		s.Short = false
		ks = append(ks, s)
	}
	ks = append(ks, previewKey(2, t.c, t.w), common.More(3, k.Export), common.Line(3, k.Back), common.Line(3, k.Help), common.More(3, k.Quit))
	return ks
}

// DeepLink reopens this timeline from the command line.
func (t *Timeline) DeepLink() []string {
	if t.h.Owner != "" {
		// On an index a name is not one history (two base items can share
		// it): reopen the list it was picked from.
		return versionsLink(t.info.Name, t.index, t.pk, t.h.Pattern, "--versions")
	}
	if strings.HasPrefix(t.h.Name, "-") || t.h.Name == "" {
		// A name that reads as a flag stays joined to --versions.
		return versionsLink(t.info.Name, t.index, t.pk, t.h.Pattern, "--versions="+t.h.Name)
	}
	return versionsLink(t.info.Name, t.index, t.pk, t.h.Pattern, "--versions", t.h.Name)
}

// Loaded is the item's revisions as items, the current copy first, as
// read with the partition's versions: exporting them reads nothing.
func (t *Timeline) Loaded() (common.Loaded, bool) {
	view := []string{t.info.Name, keyArg(t.pk), t.h.Name, "revisions"}
	rows := dynamo.RevisionRows(t.h, t.info.Key)
	if t.h.Current != nil { // the title counts revisions; the file holds the current copy too
		rows.Noun = "items (the current copy and " + common.Plural(len(t.h.Revisions), "revision", "revisions") + ")"
	}
	return common.Loaded{Rows: rows, View: view}, true
}

// Click selects the clicked row, or asks to open it when already selected
// (the list's frame border is the body's first line).
func (t *Timeline) Click(y int) bool { return t.list.Grid.Click(y - 1) }
