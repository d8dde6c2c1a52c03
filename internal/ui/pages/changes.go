package pages

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

type changesReadMsg struct {
	page, req int
	changes   []dynamo.Change // oldest first
	stats     dynamo.ChangesStats
	err       error
}

func (m changesReadMsg) PageID() int { return m.page }

// readChanges reads the partition's changes from the table's stream, up
// to the present (the demo's own, for the demo).
func readChanges(ctx context.Context, sc dynamo.StreamsClient, page, id int, req dynamo.ChangesRequest) tea.Cmd {
	return func() tea.Msg {
		var got []dynamo.Change
		st, err := dynamo.Changes(ctx, sc, req, func(c dynamo.Change) error { got = append(got, c); return nil })
		return changesReadMsg{page: page, req: id, changes: got, stats: st, err: err}
	}
}

// Changes is a partition's Changes mode: the INSERT, MODIFY and REMOVE
// records of the table's stream for the partition (under its prefix),
// newest first, with what the selected one changed, old → new. A stream
// keeps 24 hours; reading it costs no table capacity.
type Changes struct {
	c      *common.Common
	id     int
	info   dynamo.TableInfo
	pk     domain.KeyValue
	prefix string
	sk     *domain.KeyValue // one item's changes (OfItem): its sort key, or nil
	whole  bool             // every partition's changes (NewTableChanges)
	// list is the changes, newest first, masked: reading…, the count,
	// the read's failure.
	list   list.Paged[dynamo.Change]
	stats  dynamo.ChangesStats
	since  time.Time // where the stream's 24 hours begin
	w, h   int
	follow changesFollow // F: new records as they are written
}

// NewChanges returns the Changes mode of a partition of the table.
func NewChanges(c *common.Common, info dynamo.TableInfo, pk domain.KeyValue, prefix string) *Changes {
	p := &Changes{c: c, id: c.NextID(), info: info, pk: pk, prefix: prefix}
	p.list = list.NewPaged(c, changesWords, []components.Column{{Title: "Time (UTC)", Width: 19}, {Title: "Event", Width: 6},
		{Title: keyTitle(info), Keep: true}, {Title: "Changed"}}, p.cell)
	return p
}

// changesWords are what the list calls the stream's records.
var changesWords = list.Words{One: "change", Many: "changes", Reading: "the stream is",
	Waiting: "Reading the table's stream (24 hours of writes)…",
	Again:   "r reads again"} // r reads the stream's day again whole (Init), never on from esc

// tableChangesHeld bounds what the table-wide view holds to put in
// order: a busy table's day is more than a screen is for, and the view
// says to open one partition instead.
const tableChangesHeld = 50_000

// NewTableChanges returns the Changes view of a whole table: every
// partition's changes, newest first, with their keys.
func NewTableChanges(c *common.Common, info dynamo.TableInfo) *Changes {
	p := &Changes{c: c, id: c.NextID(), info: info, whole: true}
	cols := []components.Column{{Title: "Time (UTC)", Width: 19}, {Title: "Event", Width: 6}, {Title: common.Sanitize(info.Key.PK.Name), Keep: true}}
	if info.Key.SK != nil {
		cols = append(cols, components.Column{Title: common.Sanitize(info.Key.SK.Name), Keep: true})
	}
	p.list = list.NewPaged(c, changesWords, append(cols, components.Column{Title: "Changed"}), p.cell)
	return p
}

// OfItem narrows the view to one item's changes: the partition's item
// with sort key sk (nil: a table with no sort key, whose partition is
// the item).
func (p *Changes) OfItem(sk *domain.KeyValue) *Changes {
	p.sk = sk
	return p
}

// where names what the changes are of: the item's key, or the partition.
func (p *Changes) where() string {
	if p.whole {
		return "all partitions"
	}
	if p.sk != nil {
		return common.KeyCell(p.pk) + " " + common.KeyCell(*p.sk)
	}
	return common.KeyCell(p.pk)
}

// request is the read of the view's changes, up to now.
func (p *Changes) request(now time.Time) dynamo.ChangesRequest {
	r := dynamo.ChangesRequest{Stream: p.info.Stream, PKName: p.info.Key.PK.Name, PK: &p.pk, Prefix: p.prefix, SK: p.sk, Now: now}
	if p.info.Key.SK != nil {
		r.SKName = p.info.Key.SK.Name
	}
	if p.whole {
		r.PK, r.MaxHeld = nil, tableChangesHeld
	}
	return r
}

func keyTitle(info dynamo.TableInfo) string {
	if info.Key.SK != nil {
		return common.Sanitize(info.Key.SK.Name)
	}
	return common.Sanitize(info.Key.PK.Name)
}

func (p *Changes) Init() tea.Cmd {
	ctx, req := p.list.Start()
	now := p.c.Now()
	p.since = now.Add(-dynamo.StreamRetention)
	return readChanges(ctx, p.c.Streams, p.id, req, p.request(now))
}

// cell is a change's row: when, what, the key, what it changed.
func (p *Changes) cell(c dynamo.Change, col int) string {
	switch col {
	case 0:
		return c.Time.UTC().Format("2006-01-02 15:04:05")
	case 1:
		return c.Event
	}
	if p.whole { // the key's columns, then what changed
		names := []string{p.info.Key.PK.Name}
		if p.info.Key.SK != nil {
			names = append(names, p.info.Key.SK.Name)
		}
		if col-2 < len(names) {
			v, _ := dynamo.KeyValueOf(c.Keys[names[col-2]])
			return common.KeyCell(v)
		}
		col = 3
	}
	switch col {
	case 2:
		name := p.info.Key.PK.Name
		if p.info.Key.SK != nil {
			name = p.info.Key.SK.Name
		}
		if v, ok := dynamo.KeyValueOf(c.Keys[name]); ok {
			return common.KeyCell(v)
		}
		return ""
	}
	if c.Changed == nil {
		return "?" // the stream keeps no image to compare
	}
	return common.Sanitize(strings.Join(c.Changed, ", "))
}

func (p *Changes) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		return p, p.Init()
	case changesFollowedMsg:
		return p, p.followed(msg)
	case changesReadMsg:
		newest := make([]dynamo.Change, 0, len(msg.changes))
		for _, c := range slices.Backward(msg.changes) {
			newest = append(newest, c)
		}
		if !p.list.Replace(msg.req, newest, false, msg.err) {
			return p, nil
		}
		p.stats = msg.stats
		if msg.err != nil {
			return p, common.Report(msg.err, false, p.id)
		}
	case tea.KeyPressMsg:
		k := p.c.Keys
		switch {
		case p.follow.on() && (key.Matches(msg, k.Back) || key.Matches(msg, k.Follow)):
			p.follow.req.Stop()
		case key.Matches(msg, k.Follow) && p.canFollow():
			return p, p.startFollow()
		case key.Matches(msg, k.Follow): // the help line leaves it out until then
			return p, notice("F follows from where the stream's read ends: " + map[bool]string{true: "r reads it again first", false: "once it has answered"}[p.list.Fail.Stopped()])
		case key.Matches(msg, k.Back) && p.list.Cancel():
		case key.Matches(msg, k.Back):
			return p, back
		case key.Matches(msg, k.Refresh):
			p.follow.req.Stop() // read again whole: following starts again from F
			p.follow = changesFollow{}
			return p, p.Init()
		default:
			p.list.Key(msg)
		}
	}
	return p, nil
}

func (p *Changes) SetSize(w, h int) {
	p.w, p.h = w, h
	listW, listH, _ := p.listSize()
	p.list.SetSize(listW-4, listH-2)
}

// listSize is the list's frame: beside the diff when wide, above it
// otherwise.
func (p *Changes) listSize() (w, h int, wide bool) {
	w, h = p.w, p.h
	wide = p.c.ShowPreview(p.w)
	if wide {
		w = p.w * 11 / 20
	} else {
		h = max(5, p.h/2)
	}
	return w, h, wide
}

func (p *Changes) View() string {
	st := p.c.Styles
	listW, listH, wide := p.listSize()
	title := p.list.Title(p.where())
	if p.list.Answered() && !p.list.Fail.Stopped() {
		title += " in 24 h"
	}
	body := p.list.View()
	if p.list.Whole() && p.list.Len() == 0 {
		body = st.Dim.Render(components.Fit("No changes since "+p.since.UTC().Format("2006-01-02 15:04")+" UTC: the stream keeps 24 hours.", listW-4))
	}
	if p.prefix != "" {
		title += " · under " + common.Sanitize(p.prefix)
	}
	if p.follow.on() {
		title += " · following · " + fmt.Sprint(p.follow.added) + " new · F or esc stops"
	}
	frame := common.Frame(st, title, body, listW, listH)
	detailW := p.w
	detailH := p.h - listH
	if wide {
		detailW, detailH = p.w-listW, p.h
	}
	detail := common.Frame(st, "Old → new", p.diff(detailW-4), detailW, detailH)
	if wide {
		return joinH(frame, detail)
	}
	return frame + "\n" + detail
}

// diff is what the selected change changed, as the timeline shows a
// revision's, or what its stream cannot say.
func (p *Changes) diff(width int) string {
	st := p.c.Styles
	c, ok := p.list.Selected()
	if !ok {
		return ""
	}
	if c.Changed == nil {
		return st.Dim.Render(components.Fit(common.Sanitize(p.info.Stream.Missing()), width))
	}
	var old, new map[string]any
	if c.Old != nil {
		old = dynamo.PlainItem(c.Old)
	}
	if c.New != nil {
		new = dynamo.PlainItem(c.New)
	}
	return renderDiff(st, domain.Diff(old, new), width)
}

// Shows names the table alone: a stream records the table's writes.
func (p *Changes) Shows() (table, index string) { return p.info.Name, "" }

func (p *Changes) Crumbs() []string {
	if p.whole {
		return []string{p.info.Name, "changes"}
	}
	if p.sk != nil {
		return []string{p.info.Name, common.KeyCell(p.pk), common.KeyCell(*p.sk), "changes"}
	}
	return []string{p.info.Name, common.KeyCell(p.pk), "changes"}
}
func (p *Changes) ID() int         { return p.id }
func (p *Changes) Mode() string    { return ModeChanges }
func (p *Changes) Loading() bool   { return p.list.Req.InFlight() }
func (p *Changes) Capturing() bool { return false }

// list.Request is what reading the stream took: calls, not capacity; and what
// following (F) has read since, as it grows.
func (p *Changes) Request() string {
	listed := fmt.Sprintf("%s · %s · %d GetRecords", common.Plural(p.stats.Shards, "shard", "shards"),
		common.Plural(p.stats.Scanned, "record", "records"), p.stats.GetRecords)
	if p.follow.ran {
		f, word := addStats(p.follow.prior, p.follow.stats), "followed"
		if p.follow.on() {
			word = "following"
		}
		listed = fmt.Sprintf("listed: %s · %s: %d GetRecords · %s", listed, word, f.GetRecords, common.Plural(f.Scanned, "record", "records"))
	}
	return fmt.Sprintf("stream of %s · %s · 0 RCU", common.Sanitize(p.info.Name), listed)
}

func (p *Changes) ShortHelp() []key.Binding  { return p.keys().ShortHelp() }
func (p *Changes) HelpKeys() common.Keys     { return p.keys() }
func (p *Changes) FullHelp() [][]key.Binding { return p.keys().FullHelp() }

// keys are the Changes mode's keys, each where it acts: F once the
// stream has answered whole (or to stop following), / on the records.
func (p *Changes) keys() common.Keys {
	k := p.c.Keys
	rows := p.list.Len() > 0
	ks := moveKeys(k, rows)
	for _, s := range searchKeys(1, k, rows) {
		s.Short = false // in ? help: the help line keeps its room for esc at 80 columns
		ks = append(ks, s)
	}
	follow, back := followingKeys(k, p.follow.on(), followLive(k.Follow).Help().Desc)
	if !p.follow.on() {
		back = p.list.BackKey(back)
	}
	ks = append(ks, common.Line(1, common.On(follow, p.follow.on() || p.canFollow())))
	ks = append(ks, modeKeys(2, k, p.Modes(), p.Mode())...)
	// r last on the help line, where a failure or a cancel puts it: where
	// the row count leaves no room, it gives way first (? help keeps it).
	ks = append(ks, common.Line(1, back), p.list.AgainKey(1, k.Refresh), previewKey(1, p.c, p.w))
	return append(ks, endKeys(3, k)...)
}

// canFollow reports whether F starts following: once the stream has
// answered whole, following from where the read ended.
func (p *Changes) canFollow() bool { return p.list.Settled() && !p.list.Fail.Stopped() }

// followLive is the follow key as the Changes mode's help names it: it
// follows the stream's new records, not new items.
func followLive(b key.Binding) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, "follow live"))
}

func (p *Changes) place() place {
	return place{c: p.c, info: p.info, pk: p.pk, prefix: p.prefix}
}

// The table-wide view is no partition's: Changes is its only mode, the
// others dimmed with the way to them.
func (p *Changes) Modes() []common.ModeTab {
	if p.whole {
		why := "the table's changes are every partition's: open one (esc, then enter) for its tree, items, versions and times"
		return offTabs(p.c.Keys, ModeChanges, why)
	}
	return p.place().modes()
}

func (p *Changes) Place() string {
	if p.whole {
		return p.info.Name + "\x00*changes"
	}
	return p.place().id()
}

func (p *Changes) ModePage(name string) common.Page {
	if p.whole {
		return nil
	}
	return p.place().page(name)
}

// noChanges says why the Changes mode does not apply ("" when it does).
func (p place) noChanges() string {
	switch {
	case p.index != "":
		return "a stream records the table's writes: open the partition on the table"
	case p.info.Stream.ARN == "":
		return "the table has no stream enabled; dynascope changes says how to enable one"
	case p.c.Streams == nil:
		return "this connection cannot read streams"
	}
	return ""
}
