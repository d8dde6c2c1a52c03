package pages

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// ttlReadMsg is a table's Time to Live, read once for the item views of
// that table.
type ttlReadMsg struct {
	page  int
	table string
	ttl   dynamo.TTLInfo
	err   error
}

func (m ttlReadMsg) PageID() int { return m.page }

// readTTL asks DescribeTimeToLive for the item's table, unless an item
// view of this table already did in this session.
func (p *Item) readTTL() tea.Cmd {
	if _, ok := p.c.TTL[p.info.Name]; ok {
		return nil
	}
	p.ttlAsked = dynamo.TimeToLiveOf(p.c.Client) != nil // a request the request line names
	ctx, c, id, table := p.c.Context(), p.c.Client, p.id, p.info.Name
	return func() tea.Msg {
		t, err := dynamo.TableTTL(ctx, c, table)
		return ttlReadMsg{page: id, table: table, ttl: t, err: err}
	}
}

// ttlRead keeps the table's Time to Live for every item view of it; a
// failed read is said on the facts line and is not kept, so the next
// item view asks again.
func (p *Item) ttlRead(msg ttlReadMsg) {
	if msg.err != nil {
		p.ttlErr = msg.err
		return
	}
	if p.c.TTL == nil {
		p.c.TTL = map[string]dynamo.TTLInfo{}
	}
	p.c.TTL[msg.table] = msg.ttl
}

// facts is the line over the item's JSON: its size as DynamoDB bills it
// (a warning past 300 KB of the 400 KB limit) and what its TTL attribute
// means now, as DynamoDB's Time to Live reads it.
func (p *Item) facts() string {
	st := p.c.Styles
	if len(p.maskedAttributes()) > 0 {
		// The stand-ins are not the values' size: none is said rather
		// than a false one.
		return st.Dim.Render("size not shown: values are masked · ") + p.ttlWords()
	}
	_, size, warn := dynamo.ItemSize(p.item)
	line := st.Dim.Render("size ") + st.Cell.Render(size)
	if warn {
		line = st.Dim.Render("size ") + st.Notice.Render(size)
	}
	return line + st.Dim.Render(" · ") + p.ttlWords()
}

// maskedAttributes are the item's table's masked attributes (none
// without masking).
func (p *Item) maskedAttributes() []string {
	return dynamo.MaskedAttributes(p.c.Client, p.info.Name)
}

func (p *Item) ttlWords() string {
	st := p.c.Styles
	t, ok := p.c.TTL[p.info.Name]
	switch {
	case p.ttlErr != nil:
		return st.Dim.Render("TTL not read: " + common.Sanitize(p.ttlErr.Error()))
	case !ok:
		return st.Dim.Render("TTL …")
	case t.Status == dynamo.TTLUnknown:
		return st.Dim.Render("TTL: this connection cannot say")
	case t.Attribute == "" || !t.On():
		return st.Dim.Render("no TTL on " + common.Sanitize(p.info.Name))
	}
	if slices.Contains(p.maskedAttributes(), t.Attribute) {
		return st.Dim.Render("TTL " + common.Sanitize(t.Attribute) + ": masked, not read")
	}
	now := p.c.Now()
	v := dynamo.ItemTTL(p.item, t.Attribute, now)
	words := common.Sanitize(v.Words(now))
	label := st.Dim.Render("TTL " + common.Sanitize(t.Attribute) + ": ")
	if v.Kind == domain.TTLLive {
		return label + st.Cell.Render(words)
	}
	return label + st.Notice.Render(words)
}
