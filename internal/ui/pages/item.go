package pages

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// Item shows one item as JSON, plain or in DynamoDB's form, scrollable.
type Item struct {
	c        *common.Common
	id       int
	info     dynamo.TableInfo
	item     dynamo.Item
	wire     bool
	wrap     bool // long values wrapped, not cut (w)
	cut      bool // a line is cut (or, wrapped, would be) at this width: w shows more
	req      list.Request
	fail     list.Failure // why reading it again failed: what is shown is the copy read before
	read     bool         // read by GetItem; false: taken from a list's loaded rows
	ttlAsked bool         // this view asked for its table's TTL (DescribeTimeToLive)
	vp       viewport.Model
	w, h     int
	mode     string // the mode tab it belongs to: that of the list it was opened from
	// via are the steps of the list it was opened from where that list
	// is no partition's mode (a search, a timeline): the item is under
	// them.
	via []string
	// shown is what the viewport holds, rendered once for the item, its
	// form and its width: a 5,000-attribute item is not rendered again
	// on every key.
	shown struct {
		gen, width int
		wire, wrap bool
	}
	gen int // bumped when the item is read again
	// changes are the item's own changes from the table's stream, shown
	// under its value.
	changes itemChanges
	ttlErr  error // why the table's Time to Live could not be read
	// factLines are the item's size and TTL, wrapped to the width.
	factLines string
}

// NewReadItem is the page of an item a GetItem just read (the request
// line shows that read).
func NewReadItem(c *common.Common, info dynamo.TableInfo, item dynamo.Item) *Item {
	it := NewItem(c, info, item)
	it.read = true
	return it
}

// NewItem returns the page of an item already read; `r` reads it again.
func NewItem(c *common.Common, info dynamo.TableInfo, item dynamo.Item) *Item {
	return &Item{c: c, id: c.NextID(), info: info, item: item, vp: viewport.New(), mode: ModeItems, gen: 1}
}

// OpenedOver files the item under the mode of the list it was opened
// from (an item of the Tree is in Tree, one of a search's matches in
// none), and, where that list is no partition's mode, under its steps
// (table › search › partition › item).
func (p *Item) OpenedOver(below common.Page) {
	p.mode = below.Mode()
	if _, moded := below.(common.Moded); !moded {
		p.via = below.Crumbs()
	}
}

// Init reads the item's changes from the stream, after its first frame:
// the item itself is already read.
func (p *Item) Init() tea.Cmd { return tea.Batch(p.readChanges(), p.readTTL()) }

func (p *Item) key() dynamo.Item {
	k := dynamo.Item{p.info.Key.PK.Name: p.item[p.info.Key.PK.Name]}
	if p.info.Key.SK != nil {
		k[p.info.Key.SK.Name] = p.item[p.info.Key.SK.Name]
	}
	return k
}

func (p *Item) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		ctx, req := p.req.Start(p.c)
		return p, tea.Batch(getItem(ctx, p.c.Client, p.id, req, p.info.Name, p.key()), p.retryChanges())
	case changesReadMsg:
		return p, p.changesRead(msg)
	case ttlReadMsg:
		p.ttlRead(msg)
	case itemReadMsg:
		if !p.req.Done(msg.req) {
			return p, nil
		}
		p.fail.Fail(msg.err)
		if msg.err != nil {
			return p, common.Report(msg.err, false, p.id)
		}
		if msg.item == nil {
			return p, common.Report(dynamo.Errorf("get item", dynamo.KindNotFound, "it was deleted since it was listed", "the item no longer exists"), false, p.id)
		}
		p.item, p.read = msg.item, true
		p.gen++
	case tea.KeyPressMsg:
		k := p.c.Keys
		switch {
		case key.Matches(msg, k.Wire):
			p.wire = !p.wire
		case key.Matches(msg, k.Wrap) && !p.cut && !p.wrap:
			return p, func() tea.Msg {
				return common.NoticeMsg{Text: "Nothing to wrap", Why: "every value is shown whole at this width"}
			}
		case key.Matches(msg, k.Wrap):
			p.wrap = !p.wrap
		case key.Matches(msg, k.Copy):
			// The item as shown: plain JSON, or DynamoDB JSON after d.
			form, doc := "plain JSON", map[string]any(dynamo.PlainItem(p.item))
			if p.wire {
				form, doc = "DynamoDB JSON", dynamo.WireItem(p.item)
			}
			return p, copyJSON(p.c, doc, "the item as "+form)
		case key.Matches(msg, k.CopyKey):
			key := dynamo.PlainItem(p.key())
			if p.wire {
				return p, copyJSON(p.c, dynamo.WireItem(p.key()), "the key as DynamoDB JSON")
			}
			return p, copyJSON(p.c, key, "the key")
		case key.Matches(msg, k.Refresh):
			ctx, req := p.req.Start(p.c)
			p.ttlErr = nil // asked again, as the item is
			return p, tea.Batch(getItem(ctx, p.c.Client, p.id, req, p.info.Name, p.key()), p.readChanges(), p.readTTL())
		case key.Matches(msg, k.Changes):
			return p, p.openChanges()
		case key.Matches(msg, k.Back) && p.req.InFlight():
			p.req.Stop()
			p.fail.Cancel()
		case key.Matches(msg, k.Back):
			return p, back
		case key.Matches(msg, k.Up):
			p.vp.ScrollUp(1)
		case key.Matches(msg, k.Down):
			p.vp.ScrollDown(1)
		case key.Matches(msg, k.PageUp):
			p.vp.PageUp()
		case key.Matches(msg, k.PageDown):
			p.vp.PageDown()
		case key.Matches(msg, k.Top):
			p.vp.GotoTop()
		case key.Matches(msg, k.Bottom):
			p.vp.GotoBottom()
		}
	}
	return p, nil
}

func (p *Item) SetSize(w, h int) {
	p.w, p.h = w, h
	p.vp.SetWidth(w - 4)
	// The facts over the JSON wrap rather than lose a word at 80 columns.
	p.factLines = ""
	if h >= 8 { // a short view (under ? help) keeps its lines for the JSON
		p.factLines = common.Wrap(p.facts(), max(1, w-4))
	}
	p.vp.SetHeight(h - p.chrome())
	if below := p.changesHeight(); p.h-below >= p.chrome()+4 {
		p.vp.SetHeight(p.h - below - p.chrome()) // the item's changes below it
	}
	if p.shown.gen != p.gen || p.shown.width != p.w || p.shown.wire != p.wire || p.shown.wrap != p.wrap {
		var json string
		json, p.cut = renderJSONLines(p.c.Styles, p.item, p.wire, p.w-4, p.wrap)
		p.vp.SetContent(json)
		p.shown.gen, p.shown.width, p.shown.wire, p.shown.wrap = p.gen, p.w, p.wire, p.wrap
	}
}

// chrome is the lines around the JSON: the frame's two and the facts.
func (p *Item) chrome() int {
	if p.factLines == "" {
		return 2
	}
	return 3 + strings.Count(p.factLines, "\n")
}

func (p *Item) View() string {
	form := "plain JSON"
	if p.wire {
		form = "DynamoDB JSON"
	}
	if p.wrap && p.cut {
		form += " · long values wrapped"
	}
	title := fmt.Sprintf("%s · %s · %s", p.crumb(), common.Plural(len(p.item), "attribute", "attributes"), form)
	if p.fail.Stopped() {
		// The copy read before stays in view, said to be that.
		title = p.crumb() + " · " + strings.Replace(p.fail.Title(1, "copy"), "1 copy loaded before", "the copy read before", 1)
	}
	body := p.vp.View()
	if p.factLines != "" {
		body = p.factLines + "\n" + body
	}
	below := p.changesHeight()
	if p.h-below < p.chrome()+4 { // too short for both: the item comes first
		return common.Frame(p.c.Styles, title, body, p.w, p.h)
	}
	return common.Frame(p.c.Styles, title, body, p.w, p.h-below) + "\n" + p.changesView(p.w, below)
}

func (p *Item) crumb() string {
	if p.info.Key.SK != nil {
		if v, ok := dynamo.KeyValueOf(p.item[p.info.Key.SK.Name]); ok {
			return common.KeyCell(v)
		}
	}
	if v, ok := dynamo.KeyValueOf(p.item[p.info.Key.PK.Name]); ok {
		return common.KeyCell(v)
	}
	return "item"
}

// Shows names the table alone: the item is the table's, read by its key.
func (p *Item) Shows() (table, index string) { return p.info.Name, "" }

// Crumbs name the item by its sort key under its partition; where the
// table has none, the partition's step already names it, and the last
// step says only that this is the item.
func (p *Item) Crumbs() []string {
	pk, _ := dynamo.KeyValueOf(p.item[p.info.Key.PK.Name])
	last := p.crumb()
	if p.info.Key.SK == nil {
		last = "item"
	}
	if p.via == nil {
		return []string{p.info.Name, common.KeyCell(pk), last}
	}
	out := slices.Clone(p.via)
	if !slices.Contains(out[1:], common.KeyCell(pk)) { // a timeline names it
		out = append(out, common.KeyCell(pk))
	}
	return append(out, last)
}
func (p *Item) ID() int         { return p.id }
func (p *Item) Mode() string    { return p.mode }
func (p *Item) Loading() bool   { return p.req.InFlight() || p.changes.read.Req.InFlight() }
func (p *Item) Capturing() bool { return false }

// list.Request names the GetItem only when one was sent: an item opened from a
// list was already read with it.
func (p *Item) Request() string {
	k := p.key()
	s := "GetItem " + p.info.Name + "  Key:"
	if !p.read {
		sent := "no request sent"
		if p.ttlAsked {
			sent = "no GetItem sent"
		}
		s = "from the rows already loaded, " + sent + " (r reads it again with GetItem) · " + common.Sanitize(p.info.Name) + "  Key:"
	}
	for _, name := range dynamo.SortedNames(k) {
		v, _ := dynamo.KeyValueOf(k[name])
		s += " " + common.Sanitize(name) + "=" + v.Literal()
	}
	if p.ttlAsked {
		s += " · its table's TTL: DescribeTimeToLive"
	}
	return s + p.changesRequest()
}

// ShortHelp puts 5 first where the item's changes are listed under it:
// the keys at the end give way on a narrow terminal, and the changes are
// reachable by no other key.
func (p *Item) ShortHelp() []key.Binding {
	k := p.c.Keys
	if p.streamNote() == "" {
		return []key.Binding{k.Up, k.Down, p.changesKey(), p.wireKey(), p.wrapKey(), k.Back, k.Copy, k.Refresh, k.CopyKey, k.Help, k.Quit}
	}
	// No stream (or none this connection reads): 5 has nothing to open,
	// and the note under the item says why; the help does not offer it.
	return []key.Binding{k.Up, k.Down, p.wireKey(), p.wrapKey(), k.Copy, k.CopyKey, k.Refresh, k.Back, k.Help, k.Quit}
}

// wrapKey is w where a value is cut at this width (or wrapped: w cuts
// them again), off where every value is shown whole.
func (p *Item) wrapKey() key.Binding {
	b := common.On(p.c.Keys.Wrap, p.cut || p.wrap)
	if p.wrap {
		b.SetHelp(b.Help().Key, "cut long values")
	}
	return b
}

// wireKey names what d switches to: DynamoDB JSON from plain JSON, and
// back again once DynamoDB JSON is shown.
func (p *Item) wireKey() key.Binding {
	b := p.c.Keys.Wire
	if p.wire {
		b.SetHelp(b.Help().Key, "plain JSON")
	}
	return b
}

// copyJSON sends a document to the clipboard (OSC 52, and tmux's) and
// says what it did.
func copyJSON(c *common.Common, doc any, what string) tea.Cmd {
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil
	}
	return common.Copy(string(b), fmt.Sprintf("%s (%d bytes)", what, len(b)), "", c.TmuxBuffer)
}

func (p *Item) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{k.Moves(), {p.wireKey(), p.wrapKey(), p.changesKey(), k.Copy, k.CopyKey, k.Refresh}, {k.Back, k.Help, k.Quit}}
}
