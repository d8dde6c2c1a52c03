package pages

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// Entities is the entity types of a single-table design (E): of the
// whole table (read whole under the budget, else a parallel sample, its
// counts estimated and said so), or of one partition, from the rows its
// list had read. Each type has its count, key templates, the
// discriminator that named it and its attributes with how often each is
// present; enter lists the type's items.
type Entities struct {
	c     *common.Common
	id    int
	info  dynamo.TableInfo
	req   dynamo.EntitiesRequest
	held  []dynamo.Item // a partition's rows as its list held them; nil: read
	res   dynamo.EntitiesResult
	exact int                       // the types whose count is exact, not estimated
	list  list.Paged[domain.Entity] // the types: res.Entities once read
	listW int                       // the list's width, as laid out
	listH int                       // the list's height, as laid out
	w, h  int
}

// entitiesReadMsg answers an Entities page's read.
type entitiesReadMsg struct {
	page, req int
	result    dynamo.EntitiesResult
	err       error
}

func (m entitiesReadMsg) PageID() int { return m.page }

// NewEntities returns the entity types of the table, or of index ("").
func NewEntities(c *common.Common, info dynamo.TableInfo, index string) *Entities {
	e := &Entities{c: c, id: c.NextID(), info: info}
	key, _ := info.KeyFor(index)
	e.req = dynamo.EntitiesRequest{Table: info.Name, Index: index, Key: key, MaxRCU: dynamo.DefaultEntitiesBudget,
		SizeBytes: info.SizeBytes, ItemCount: info.ItemCount, Delim: c.Tables[info.Name].Delimiter}
	e.list = list.NewPaged(c, list.Words{One: "entity type", Many: "entity types", Count: e.count,
		Reading: "the items are", Waiting: "Reading the items to name their types…", Empty: "No items read: no entity types.",
		Again: "r reads again"}, // the types are read whole or sampled from the start, never on from esc
		[]components.Column{{Title: "Type", Keep: true}, {Title: "Count", Width: 8}, {Title: "Keys"}, {Title: "By", Width: 10}}, e.cell)
	return e
}

// NewPartitionEntities returns the entity types of one partition: from
// held, the rows its list had read, or, when nil, read under the budget.
func NewPartitionEntities(c *common.Common, info dynamo.TableInfo, index string, pk domain.KeyValue, held []dynamo.Item) *Entities {
	e := NewEntities(c, info, index)
	e.req.PK, e.held = &pk, held
	return e
}

func (e *Entities) Init() tea.Cmd {
	ctx, req := e.list.Start()
	c, r, held, page := e.c.Client, e.req, e.held, e.id
	return func() tea.Msg {
		if held != nil {
			return entitiesReadMsg{page: page, req: req, result: dynamo.EntitiesOf(held, r.Key, r.Delim)}
		}
		res, err := dynamo.ReadEntities(ctx, c, r)
		return entitiesReadMsg{page: page, req: req, result: res, err: err}
	}
}

func (e *Entities) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		if e.held != nil {
			return e, nil
		}
		return e, e.Init()
	case entitiesReadMsg:
		if !e.list.Answer(msg.req, msg.result.Entities, false, msg.err) {
			return e, nil
		}
		if msg.err != nil { // the types read before stay, with their examples
			e.res.Cost = msg.result.Cost
			e.SetSize(e.w, e.h)
			return e, common.Report(msg.err, false, e.id)
		}
		e.res, e.exact = msg.result, 0
		for _, ent := range e.res.Entities {
			if ent.CountExact {
				e.exact++
			}
		}
		e.SetSize(e.w, e.h)
	case tea.KeyPressMsg:
		switch e.list.Key(msg) {
		case list.Cancelled:
			return e, nil
		case list.Moved:
			e.SetSize(e.w, e.h) // the attributes below follow the selection
			return e, nil
		}
		k := e.c.Keys
		switch {
		case key.Matches(msg, k.Back), key.Matches(msg, k.Entities):
			return e, back
		case key.Matches(msg, k.Refresh) && e.held == nil:
			return e, e.Init()
		case key.Matches(msg, k.Open) && e.list.Len() > 0:
			return e, e.openType(e.list.Grid.Cursor())
		}
	}
	return e, nil
}

// openType lists the items of entity type i: on a table's view, of a type
// of many partitions (a placeholder in its partition key template), the
// search of the whole table through the type's filter; else in the
// partition of its example (the partition itself, on a partition's view),
// filtered to the discriminator's value, or to the sort keys its template
// begins with.
func (e *Entities) openType(i int) tea.Cmd {
	ent, example := e.res.Entities[i], e.res.Examples[i]
	many := e.req.PK == nil && strings.Contains(ent.KeyTemplates["pk"], "{") // its items in many partitions
	if many && e.held == nil {
		if n := e.typeFilter(ent); n != nil && e.res.Items != nil {
			// The whole table was read for the types, and is held: its
			// items are matched here, not scanned again.
			return open(NewSearchOfHeld(e.c, e.info, e.req.Index, n, e.res.Items))
		} else if n != nil && (e.res.Sampled || e.res.Cost.Billed > e.req.MaxRCU) {
			// Not read whole (a sample, or a read the budget stopped), or
			// past the budget: a search reads the table again, at least
			// as much. Its filter is typed, not read, and what E read
			// said first: enter scans.
			return e.typedSearch(n)
		} else if n != nil {
			return open(NewSearchOf(e.c, e.info, e.req.Index, n))
		}
	}
	pk, ok := dynamo.KeyValueOf(example[e.req.Key.PK.Name])
	if !ok {
		return nil
	}
	prefix := ""
	if ent.Discriminator == "" && e.req.Key.SK != nil && e.req.Key.SK.Type == domain.TypeS {
		prefix = templateLead(ent.KeyTemplates["sk"])
	}
	p := NewItemsUnder(e.c, e.info, pk, prefix, e.req.Index)
	p.note = "entity " + common.Sanitize(ent.Name)
	if ent.Discriminator != "" {
		p.Filter(domain.Compare{Op: "=", L: domain.Path{{Name: ent.Discriminator}}, R: domain.Value{Kind: domain.ValString, Text: ent.Name}})
	}
	if many && e.typeFilter(ent) == nil {
		// Its partitions are many and no key text tells its items apart
		// (Locations' {id} / {id}): the partition opened is one of them,
		// and says so rather than stand for the type.
		return tea.Batch(open(p), notice(common.Sanitize(ent.Name)+": no key text to search its items by; here one of its partitions, its example's"))
	}
	return open(p)
}

// typedSearch opens the search of the whole table with n typed in its
// bar, nothing read: the request line says what E read and what it cost
// beside what the whole table costs, and enter scans.
func (e *Entities) typedSearch(n domain.FilterNode) tea.Cmd {
	s := NewSearch(e.c, e.info, e.req.Index)
	how := "a sample"
	if e.res.Stopped {
		how = "stopped at its budget"
	}
	s.earlier = fmt.Sprintf("E read %s of it for %s (%s)", common.Plural(e.res.Read, "item", "items"), common.BilledRCU(e.res.Cost), how)
	cmd := s.filter.open(n)
	s.retype()
	return tea.Batch(open(s), cmd)
}

// typeFilter is the filter of a type's items: its discriminator's value,
// else the text its key templates begin with (begins_with on string keys);
// nil when neither tells the type apart.
func (e *Entities) typeFilter(ent domain.Entity) domain.FilterNode {
	if ent.Discriminator != "" {
		return domain.Compare{Op: "=", L: domain.Path{{Name: ent.Discriminator}}, R: domain.Value{Kind: domain.ValString, Text: ent.Name}}
	}
	n := e.leadFilter(ent)
	if n == nil {
		return nil
	}
	// A type whose keys begin with more of the same text is another's
	// items within these leads (d#{n} / NORMAL#… within d#{n} / {id}#…):
	// left out, as the types were counted (StateLog's {id} type listed
	// 248 items, its NORMAL ones too, beside a count of 184).
	mine := e.leads(ent)
	for _, other := range e.res.Entities {
		if other.Name == ent.Name || other.Discriminator != "" {
			continue
		}
		if theirs := e.leads(other); narrower(theirs, mine) {
			n = domain.And{L: n, R: domain.Not{X: e.leadFilter(other)}}
		}
	}
	return n
}

// leads are the fixed text each key of the type begins with, partition
// key then sort key ("" where a key is no string or begins with a part).
func (e *Entities) leads(ent domain.Entity) [2]string {
	var out [2]string
	for i, k := range e.keyAttrs() {
		if k.Type == domain.TypeS {
			out[i] = templateLead(ent.KeyTemplates[[]string{"pk", "sk"}[i]])
		}
	}
	return out
}

// keyAttrs are the partition key, then the sort key where there is one.
func (e *Entities) keyAttrs() []dynamo.KeyAttr {
	if e.req.Key.SK == nil {
		return []dynamo.KeyAttr{e.req.Key.PK}
	}
	return []dynamo.KeyAttr{e.req.Key.PK, *e.req.Key.SK}
}

// narrower reports whether keys beginning with theirs all begin with
// mine, and theirs say more: the other type's items are among mine's.
func narrower(theirs, mine [2]string) bool {
	return theirs != mine && strings.HasPrefix(theirs[0], mine[0]) && strings.HasPrefix(theirs[1], mine[1])
}

// leadFilter is begins_with on each key's lead (nil: no key has one).
func (e *Entities) leadFilter(ent domain.Entity) domain.FilterNode {
	var n domain.FilterNode
	keys := e.keyAttrs()
	for i, lead := range e.leads(ent) {
		if lead == "" {
			continue
		}
		f := domain.Func{Name: "begins_with", Path: domain.Path{{Name: keys[i].Name}}, Arg: domain.Value{Kind: domain.ValString, Text: lead}}
		if n == nil {
			n = f
		} else {
			n = domain.And{L: n, R: f}
		}
	}
	return n
}

// templateLead is the fixed text a key template begins with: every key of
// the type begins with it, in each of the template's forms (R#{ulid} |
// {time}: none).
func templateLead(t string) string {
	lead := ""
	for i, f := range domain.TemplateForms(t) {
		if j := strings.IndexByte(f, '{'); j >= 0 {
			f = f[:j]
		}
		if i == 0 {
			lead = f
			continue
		}
		for !strings.HasPrefix(f, lead) {
			_, size := utf8.DecodeLastRuneInString(lead)
			lead = lead[:len(lead)-size]
		}
	}
	return lead
}

// cell is a type's row: its name, count (≈ where estimated), key
// templates and what named it.
func (e *Entities) cell(ent domain.Entity, col int) string {
	switch col {
	case 0:
		return common.Sanitize(ent.Name)
	case 1:
		switch {
		case !e.res.Sampled || e.req.PK != nil || ent.CountExact:
		case e.atLeast():
			return "≥" + common.Thousands(ent.Count)
		default:
			return "≈" + common.Thousands(ent.Count)
		}
		return common.Thousands(ent.Count)
	case 2:
		keys := ent.KeyTemplates["pk"]
		if sk := ent.KeyTemplates["sk"]; sk != "" {
			keys += " / " + sk
		}
		return common.Sanitize(keys)
	}
	if ent.Discriminator == "" {
		return "keys"
	}
	return common.Sanitize(ent.Discriminator)
}

// SetSize lays the page out: the types' list, and the selected type's
// attributes beside it (wide) or below it.
func (e *Entities) SetSize(w, h int) {
	e.w, e.h = w, h
	e.listW, e.listH = w, h
	if !e.c.ShowPreview(w) {
		e.listH = min(h, max(h/2, min(e.list.Len()+3, h-6)))
	} else {
		e.listW = w * 11 / 20
	}
	e.list.SetSize(e.listW-4, e.listH-2)
}

func (e *Entities) View() string {
	st := e.c.Styles
	lst := common.Frame(st, e.list.Title(e.where()), e.list.View(), e.listW, e.listH)
	wide := e.c.ShowPreview(e.w)
	attrW := e.w - 4
	if wide {
		attrW = e.w - e.listW - 4
	}
	attrs := ""
	if ent, ok := e.list.Selected(); ok {
		attrs = e.attributes(ent, attrW)
	}
	switch {
	case wide:
		return joinH(lst, common.Frame(st, "Attributes", attrs, e.w-e.listW, e.h))
	case e.h-e.listH < 2:
		return lst
	}
	return lst + "\n" + common.Frame(st, "Attributes", attrs, e.w, e.h-e.listH)
}

// where is what the types are of: the table, or the partition.
func (e *Entities) where() string {
	if e.req.PK != nil {
		return common.KeyCell(*e.req.PK)
	}
	return common.Sanitize(e.info.Name)
}

// atLeast reports whether a sample's counts are of the items it read
// alone, so at least what they say, not estimates: the table's item
// count (unreported, 0, or lagging behind what was read) had nothing to
// scale them by (domain.EstimateCounts).
func (e *Entities) atLeast() bool {
	return e.req.ItemCount <= int64(e.res.Read)
}

// count is the title's count: the types, and whether their counts are
// exact.
func (e *Entities) count(n int, _ bool) string {
	t := common.Plural(n, "entity type", "entity types") + " · "
	switch {
	case e.held != nil:
		return t + "of " + common.Plural(e.res.Read, "item", "items") + " loaded"
	case e.res.Sampled && e.req.PK != nil:
		return t + "first " + common.Plural(e.res.Read, "item", "items") + " (budget)"
	case e.res.Stopped && e.atLeast():
		t += "first " + common.Plural(e.res.Read, "item", "items") + " (budget): "
		if e.exact > 0 {
			return t + common.Plural(e.exact, "count", "counts") + " exact, ≥ at least"
		}
		return t + "≥ counts of those"
	case e.res.Sampled && e.atLeast():
		if e.exact > 0 {
			return t + "sampled: " + common.Plural(e.res.Read, "item", "items") + " read, " + common.Plural(e.exact, "count", "counts") + " exact, ≥ at least"
		}
		return t + "sampled: " + common.Plural(e.res.Read, "item", "items") + " read, ≥ counts of those"
	case e.res.Sampled:
		if e.exact > 0 { // partitions read to their end: counted, not estimated
			return t + "sampled: " + common.Plural(e.res.Read, "item", "items") + " read, " + common.Plural(e.exact, "count", "counts") + " exact, ≈ estimated"
		}
		return t + "sampled: " + common.Plural(e.res.Read, "item", "items") + " read, counts estimated"
	}
	return t + "exact: " + common.Plural(e.res.Read, "item", "items") + " read"
}

// attributes is a type's attributes, each with its types and presence,
// most present first.
func (e *Entities) attributes(ent domain.Entity, width int) string {
	st := e.c.Styles
	lines := []string{st.Dim.Render(components.Fit(common.Sanitize(ent.Name)+" · "+common.Plural(len(ent.Attributes), "attribute", "attributes")+", how often present", width))}
	nameW := 0
	for _, a := range ent.Attributes {
		nameW = max(nameW, lipgloss.Width(common.Sanitize(a.Name)))
	}
	nameW = min(nameW, width/2)
	for _, a := range ent.Attributes {
		name := components.Fit(common.Sanitize(a.Name), nameW)
		line := fmt.Sprintf("%5s  %s%s  %s", presence(a.Presence), name, strings.Repeat(" ", max(nameW-lipgloss.Width(name), 0)), strings.Join(a.Types, ","))
		lines = append(lines, components.Fit(line, width))
	}
	return strings.Join(lines, "\n")
}

// presence is a share of a type's items as a percentage; an attribute
// listed is held by one item at least, so a share that rounds to nothing
// is said as under one percent, never 0%.
func presence(share float64) string {
	if share < 0.01 {
		return "<1%"
	}
	return fmt.Sprintf("%.0f%%", share*100)
}

func (e *Entities) Shows() (table, index string) { return e.info.Name, e.req.Index }

func (e *Entities) Crumbs() []string {
	out := []string{e.info.Name}
	if e.req.Index != "" {
		out = append(out, "index "+e.req.Index)
	}
	if e.req.PK != nil {
		out = append(out, common.KeyCell(*e.req.PK))
	}
	return append(out, "entities")
}

func (e *Entities) ID() int         { return e.id }
func (e *Entities) Mode() string    { return "" }
func (e *Entities) Loading() bool   { return e.list.Req.InFlight() }
func (e *Entities) Capturing() bool { return false }

// Request says what was read for the types, and what it cost.
func (e *Entities) Request() string {
	on := e.info.Name
	if e.req.Index != "" {
		on += " index " + e.req.Index
	}
	var what string
	switch {
	case e.held != nil:
		what = "the rows the list had read: no request"
	case e.req.PK != nil:
		q := domain.KeyQuery{Table: e.info.Name, Index: e.req.Index, PKName: e.req.Key.PK.Name, PK: *e.req.PK}
		what = q.Describe() + fmt.Sprintf(" · up to %.0f RCU", e.req.MaxRCU)
	case e.res.Segments == 0 && e.list.Fail.Cancelled:
		// The claims below are of a read that answered. A cancelled one
		// was not read whole, and its figures never came back (the
		// status bar counts what it sent): none are said.
		return fmt.Sprintf("Scan %s: cancelled, not read whole", on)
	case e.res.Segments == 0 && e.list.Req.InFlight():
		return fmt.Sprintf("Scan %s: reading…", on) // the last read's figures are not this one's
	case e.res.Segments == 0 && e.list.Fail.Stopped():
		what = fmt.Sprintf("Scan %s: failed, not read whole", on)
	case e.res.Segments > 0:
		what = fmt.Sprintf("Scan %s: %d segments in parallel, a sample of up to %.0f RCU", on, e.res.Segments, e.req.MaxRCU)
	case e.res.Sampled:
		// Read from its start as a whole read, as the size DynamoDB
		// reported (0 B: a new table, or dynalite) said it cost less
		// than the budget; the budget stopped it first.
		what = fmt.Sprintf("Scan %s from its start (DynamoDB reports %s): stopped at the %.0f RCU budget, a sample", on, common.HumanBytes(e.info.SizeBytes), e.req.MaxRCU)
	case e.res.Cost.Billed > e.req.MaxRCU:
		// Read whole, its last page holding items larger than any read
		// before: the budget sizes reads by those (dynamo.Budgeted).
		what = fmt.Sprintf("Scan %s: whole, past the %.0f RCU budget (items larger than those read before; DynamoDB reports %s)", on, e.req.MaxRCU, common.HumanBytes(e.info.SizeBytes))
	default:
		what = fmt.Sprintf("Scan %s: whole (it costs less than %.0f RCU)", on, e.req.MaxRCU)
	}
	if e.held != nil {
		return what
	}
	return fmt.Sprintf("%s · %d req · %s", what, e.res.Cost.Requests, common.BilledRCU(e.res.Cost))
}

func (e *Entities) ShortHelp() []key.Binding {
	k := e.c.Keys
	return onRows(k, e.list.Len() > 0, withAgain([]key.Binding{k.Up, k.Down, k.Open, k.Search}, e.again(), e.list.BackKey(k.Back), k.Help, k.Quit))
}

// again is r as the list's help offers it, where it reads: types found
// in rows another list holds are not read, so r has nothing to do.
func (e *Entities) again() common.Key {
	r := e.list.AgainKey(2, e.c.Keys.Refresh)
	r.Binding = common.On(r.Binding, e.held == nil)
	return r
}

func (e *Entities) FullHelp() [][]key.Binding {
	k := e.c.Keys
	preview := common.On(k.Preview, e.w >= common.PreviewMin) // the attributes beside the types, or below
	return [][]key.Binding{k.Moves(), {k.Open, k.Search, k.NextMatch, k.PrevMatch, preview, e.list.BackKey(k.Back)}, {e.again().Binding, k.Help, k.Quit}}
}

// Click selects the clicked row, or asks to open it when already selected.
func (e *Entities) Click(y int) bool { return e.list.Grid.Click(y - 1) }
