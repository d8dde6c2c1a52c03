package pages

import (
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

// itemChanges is the item view's account of the item's own changes from
// the table's stream, under its current value: read after the item is
// drawn (a command, never before the first frame), costing no table
// capacity; or, where none can be read, a note saying why.
//
// It is not a list: no cursor moves in it, / has nothing of it to search,
// and it shows the newest few under the item, 5 opening them all in the
// Changes view, which is. Its read is the lists' one-answer Status, and
// it says what the Changes view says: "reading…" before the answer, the
// count "in 24 h", the failure or cancel with what was loaded before.
type itemChanges struct {
	note    string          // why the stream is not read ("" when it is)
	read    list.Status     // the stream's read, and why the last one stopped
	again   bool            // a read again after a whole answer: that answer stays listed until this one's
	changes []dynamo.Change // newest first, masked
	stats   dynamo.ChangesStats
	since   time.Time // where the stream's 24 hours begin
}

// itemChangesAgain is what r does after the read was cancelled: the
// item and its changes are read again, from the start of the stream's day.
const itemChangesAgain = "r reads again"

// listed reports whether the changes held are a whole answer to show:
// the read answered, did not stop, and is not being read from nothing.
func (h *itemChanges) listed() bool {
	return h.read.Answered() && !h.read.Fail.Stopped() && (h.again || !h.read.Req.InFlight())
}

// streamNote says why an item's changes cannot be read here ("" when
// they can).
func (p *Item) streamNote() string {
	name := common.Sanitize(p.info.Name)
	switch {
	case p.info.Stream.ARN == "":
		return "No stream on " + name + ": DynamoDB keeps no record of this item's changes."
	case p.info.Stream.View == "KEYS_ONLY":
		return "Changes not shown: " + p.info.Stream.Missing() + "."
	case p.c.Streams == nil:
		return "Changes not shown: this connection cannot read streams."
	}
	return ""
}

// itemKey is the item's partition key and (a composite key) sort key.
func (p *Item) itemKey() (pk domain.KeyValue, sk *domain.KeyValue, ok bool) {
	pk, ok = dynamo.KeyValueOf(p.item[p.info.Key.PK.Name])
	if !ok {
		return pk, nil, false
	}
	if p.info.Key.SK != nil {
		v, ok := dynamo.KeyValueOf(p.item[p.info.Key.SK.Name])
		if !ok {
			return pk, nil, false
		}
		sk = &v
	}
	return pk, sk, true
}

// readChanges reads the item's changes from the stream, up to the present.
func (p *Item) readChanges() tea.Cmd {
	h := &p.changes
	h.note = p.streamNote()
	pk, sk, ok := p.itemKey()
	if h.note != "" || !ok {
		return nil
	}
	now := p.c.Now()
	h.since = now.Add(-dynamo.StreamRetention)
	r := dynamo.ChangesRequest{Stream: p.info.Stream, PKName: p.info.Key.PK.Name, PK: &pk, SK: sk, Now: now}
	if p.info.Key.SK != nil {
		r.SKName = p.info.Key.SK.Name
	}
	h.again = h.listed() // a read after a failure or cancel lists nothing until it answers
	ctx, req := h.read.Start(p.c)
	return readChanges(ctx, p.c.Streams, p.id, req, r)
}

// retryChanges is r after a failure: the item's changes are read again
// too where their read stopped, as their panel says r does.
func (p *Item) retryChanges() tea.Cmd {
	if !p.changes.read.Fail.Stopped() {
		return nil
	}
	return p.readChanges()
}

// changesRead takes the stream's answer: the item's changes, newest first.
func (p *Item) changesRead(msg changesReadMsg) tea.Cmd {
	h := &p.changes
	if !h.read.Answer(msg.req, msg.err) {
		return nil
	}
	h.stats, h.again = msg.stats, false
	h.changes = h.changes[:0]
	for _, c := range slices.Backward(msg.changes) {
		h.changes = append(h.changes, c)
	}
	if msg.err != nil {
		return common.Report(msg.err, false, p.id)
	}
	return nil
}

// openChanges is 5 on an item: its changes in the Changes tab's view, one
// a row with the selected one's diff; or why there are none to open.
func (p *Item) openChanges() tea.Cmd {
	pk, sk, ok := p.itemKey()
	switch {
	case p.changes.note != "":
		return notice(p.changes.note)
	case !ok:
		return notice("this item's key cannot be read, so its changes cannot be told from others'")
	}
	return open(NewChanges(p.c, p.info, pk, "").OfItem(sk))
}

// changesKey names what 5 does on an item, where it opens something: without a stream (or one
// this connection reads), the note under the item says why instead.
func (p *Item) changesKey() key.Binding {
	b := p.c.Keys.Changes
	return common.On(key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, "its changes")), p.streamNote() == "")
}

// changesHeight is how many lines the changes take under the item: a
// line for a note, else a frame of up to a third of the page.
func (p *Item) changesHeight() int {
	h := &p.changes
	if h.note != "" {
		return 1
	}
	rows := 1
	if h.listed() {
		rows = max(1, len(h.changes))
		if p.unknownNote() != "" {
			rows++
		}
	}
	return min(rows, max(1, p.h/3-2)) + 2
}

// unknownNote says, in a line, why a listed change's attributes are "?":
// a stream with one image only, so no diff ("" when every one is known).
func (p *Item) unknownNote() string {
	h := &p.changes
	if h.read.Fail.Stopped() || !slices.ContainsFunc(h.changes, func(c dynamo.Change) bool { return c.Changed == nil }) {
		return ""
	}
	switch p.info.Stream.View {
	case "NEW_IMAGE":
		return "?: the stream is NEW_IMAGE, no old values: no diff without both images"
	case "OLD_IMAGE":
		return "?: the stream is OLD_IMAGE, no new values: no diff without both images"
	}
	return "?: the record holds no image to compare: no diff without both images"
}

// changesView is the item's changes, newest first (time, event, what
// changed), honest while reading, failed or cancelled, and when the
// window holds none.
func (p *Item) changesView(w, height int) string {
	st, h := p.c.Styles, &p.changes
	if h.note != "" {
		return st.Dim.Render(components.Fit(h.note, w))
	}
	inner := w - 4
	title := "changes of this item · "
	var body []string
	switch fail := h.read.Fail.Again(itemChangesAgain); {
	case fail.Stopped():
		title += fail.Title(len(h.changes), "changes")
		body = strings.Split(fail.Body(st, len(h.changes), "changes", inner), "\n")
	case !h.listed():
		title += "reading…" // nothing counted before the answer
		body = []string{st.Dim.Render(components.Fit(changesWords.Waiting, inner))}
	case len(h.changes) == 0:
		title += h.read.Title(0, "change", "changes") + " in 24 h"
		body = []string{st.Dim.Render(components.Fit("No changes since "+h.since.UTC().Format("2006-01-02 15:04")+" UTC: the stream keeps 24 hours.", inner))}
	default:
		title += h.read.Title(len(h.changes), "change", "changes") + " in 24 h · 5 shows each one's diff"
		rows, note := height-2, p.unknownNote()
		if note != "" && rows > 1 {
			rows-- // the last line says what ? means
		} else {
			note = ""
		}
		for i, c := range h.changes {
			if i == rows-1 && len(h.changes) > rows {
				body = append(body, st.Dim.Render(components.Fit(fmt.Sprintf("… %d older: 5 lists them all", len(h.changes)-i), inner)))
				break
			}
			changed := "?" // the stream keeps no image to compare
			if c.Changed != nil {
				changed = common.Sanitize(strings.Join(c.Changed, ", "))
			}
			body = append(body, components.Fit(fmt.Sprintf("%s  %-6s  %s", c.Time.UTC().Format("2006-01-02 15:04:05"), c.Event, changed), inner))
		}
		if note != "" {
			body = append(body, st.Dim.Render(components.Fit(note, inner)))
		}
	}
	if h.again && h.read.Req.InFlight() { // r: what is listed is the read before
		title += " · reading again…"
	}
	return common.Frame(st, title, strings.Join(body, "\n"), w, height)
}

// changesRequest is what reading the item's changes took, for the
// request line: calls, not capacity.
func (p *Item) changesRequest() string {
	h := &p.changes
	if !h.read.Answered() || h.note != "" {
		return ""
	}
	return fmt.Sprintf(" · its changes: stream of %s, %d GetRecords, 0 RCU", common.Sanitize(p.info.Name), h.stats.GetRecords)
}

// Leave stops reading the item's changes when the item is left: a busy
// stream's day can take many GetRecords nobody would see. Come back to it
// (ctrl+i) and it says the read was cancelled; r reads again.
func (p *Item) Leave() {
	p.changes.read.Cancel() // said to be cancelled, never still reading
}
