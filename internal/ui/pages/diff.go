package pages

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// Comparable is a page = compares with another side: a partition, a
// prefix of it, or one item. ok is false where it cannot (an index, a
// sharded partition), with why.
type Comparable interface {
	Compared() (q domain.KeyQuery, info dynamo.TableInfo, why string)
}

// Compared is the partition or prefix the tree lists.
func (t *Tree) Compared() (domain.KeyQuery, dynamo.TableInfo, string) {
	q, ok := t.Query()
	return comparedOn(q, t.info, ok)
}

// Compared is the partition (or prefix) the items list.
func (p *Items) Compared() (domain.KeyQuery, dynamo.TableInfo, string) {
	q := p.pg.Query
	q.Filter, q.Reverse = nil, false
	return comparedOn(q, p.info, true)
}

// Compared is the item, by its key.
func (p *Item) Compared() (domain.KeyQuery, dynamo.TableInfo, string) {
	pk, sk, ok := p.itemKey()
	q := domain.KeyQuery{Table: p.info.Name, PKName: p.info.Key.PK.Name, PK: pk}
	if sk != nil {
		q.SKName, q.SK = p.info.Key.SK.Name, domain.SKCondition{Op: domain.SKEq, A: *sk}
	}
	return comparedOn(q, p.info, ok)
}

func comparedOn(q domain.KeyQuery, info dynamo.TableInfo, ok bool) (domain.KeyQuery, dynamo.TableInfo, string) {
	switch {
	case !ok:
		return q, info, "a sharded partition is compared shard by shard: open one shard"
	case q.Index != "":
		return q, info, "an index is not compared: i back to the base table, then ="
	}
	return q, info, ""
}

// diffReadMsg is a comparison's keys as they are compared, and at its
// end (done) what it found and cost.
type diffReadMsg struct {
	page, req int
	label     string // the other side's name, once connected
	keys      []domain.KeyDiff
	done      bool
	res       dynamo.DiffResult
	err       error
	ch        <-chan diffReadMsg
}

func (m diffReadMsg) PageID() int { return m.page }

// Diff lists the keys of a partition, prefix or item that differ between
// this connection (left) and another side (right): only-left,
// only-right and differs, with the counts and each side's cost; the
// selected key's item diff is drawn as the versions timeline draws its
// diff.
type Diff struct {
	c      *common.Common
	id     int
	info   dynamo.TableInfo
	q      domain.KeyQuery
	side   common.Side                // the other connection (Label only: another table here)
	table  string                     // the other side's table
	label  string                     // the other side as the title says it
	place  []string                   // the breadcrumb to what is compared, from the picker
	list   list.Paged[domain.KeyDiff] // every key that is not the same
	n      map[domain.DiffStatus]int  // the keys read so far, by status (the same too)
	res    dynamo.DiffResult          // what the comparison found and cost, at its end
	w, hgt int
}

// NewDiff compares q on this connection with the same key condition on
// side's table (another connection when side names one).
func NewDiff(c *common.Common, info dynamo.TableInfo, q domain.KeyQuery, side common.Side, table string) *Diff {
	d := &Diff{c: c, id: c.NextID(), info: info, q: q, side: side, table: table, label: side.Label}
	d.list = list.NewPaged(c, list.Words{One: "key", Many: "keys", Count: d.count,
		Reading: "the keys both sides hold are", More: "the keys both sides have not been read to yet",
		Waiting: "reading both sides…", Empty: "No differences: every key is the same on both sides.",
		Again: "r compares again"}, // from the start: a comparison does not go on from where esc stopped it
		// The key as wide as it is: held to 30 cells, ORDER#2020-09-06T05:00:00.000Z#o005
		// read "O…#2020-09-06T05:00:00.000Z#…5" beside an empty column.
		[]components.Column{{Title: "Status", Width: len("only-right")}, {Title: "Key", Keep: true}, {Title: "Changes", Width: 7}}, d.cell)
	return d
}

// Init compares from the start (a retry and r too), forgetting what an
// earlier comparison found.
func (d *Diff) Init() tea.Cmd {
	d.list.Clear()
	d.n, d.res = map[domain.DiffStatus]int{}, dynamo.DiffResult{}
	ctx, req := d.list.Start()
	return d.compare(ctx, req)
}

// compare connects the other side where it is another connection,
// checks that its table has the same key, and streams the comparison.
func (d *Diff) compare(ctx context.Context, req int) tea.Cmd {
	side, table, id, info := d.side, d.table, d.id, d.info
	against := d.c.Against
	// Where masked, both sides are read below the mask and shown through one.
	left, q, show := dynamo.MaskedComparison(d.c.Client, info, table, d.q)
	return common.Stream(4, func(ch chan diffReadMsg) {
		// send gives up once the comparison is stopped (esc, a new one):
		// nobody reads its messages any more.
		send := func(m diffReadMsg) error {
			select {
			case ch <- m:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		fail := func(err error) { _ = send(diffReadMsg{page: id, req: req, done: true, err: err, ch: ch}) }
		right, label := left, side.Label
		if side.Profile != "" || side.Region != "" || side.Endpoint != "" || side.Data != "" {
			if against == nil {
				fail(dynamo.Errorf("compare", dynamo.KindValidation, "compare with another table of this connection", "this explorer cannot connect another side"))
				return
			}
			var err error
			if right, label, err = against(ctx, side, info.Key); err != nil {
				fail(err)
				return
			}
		}
		rinfo, _, err := dynamo.DescribeTable(ctx, right, table)
		if err != nil {
			fail(err)
			return
		}
		if !sameKey(rinfo.Key, info.Key) {
			name := table
			if right != left {
				name += " on " + label // the same name, maybe: "Orders has another key than Orders" says nothing
			}
			fail(anotherKey(name, rinfo.Key, info))
			return
		}
		rq := q
		rq.Table = table
		keys := []string{q.PKName}
		if q.SKName != "" {
			keys = append(keys, q.SKName)
		}
		var batch []domain.KeyDiff
		res, err := dynamo.DiffItems(ctx, dynamo.DiffSide{Client: left, Query: q}, dynamo.DiffSide{Client: right, Query: rq}, keys, d.c.CountBudget, show,
			func(k domain.KeyDiff) error {
				batch = append(batch, k)
				if len(batch) < 100 {
					return nil
				}
				err := send(diffReadMsg{page: id, req: req, label: label, keys: batch, ch: ch})
				batch = nil
				return err
			})
		_ = send(diffReadMsg{page: id, req: req, label: label, keys: batch, done: true, res: res, err: err, ch: ch})
	})
}

// anotherKey is the refusal of table, keyed k, compared with info's
// table: both keys said, as the picker dims it and the comparison
// refuses it.
func anotherKey(table string, k dynamo.KeySchema, info dynamo.TableInfo) error {
	return dynamo.Errorf("compare", dynamo.KindValidation, "compare tables with the same key",
		"%s has another key than %s: %s, not %s", table, info.Name, keyText(k), keyText(info.Key))
}

// sameKey: both tables are keyed by the same attributes, of the same
// types, so one key condition asks the same of both.
func sameKey(a, b dynamo.KeySchema) bool {
	if a.PK != b.PK || (a.SK == nil) != (b.SK == nil) {
		return false
	}
	return a.SK == nil || *a.SK == *b.SK
}

func (d *Diff) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case diffReadMsg:
		return d, d.read(msg)
	case common.RetryMsg:
		return d, d.Init()
	case tea.KeyPressMsg:
		if d.list.Key(msg) != list.Ignored {
			return d, nil
		}
		k := d.c.Keys
		switch {
		case key.Matches(msg, k.Back):
			return d, back
		case key.Matches(msg, k.Refresh):
			return d, d.Init()
		}
	}
	return d, nil
}

// read takes the keys compared so far: those that differ are listed, the
// same counted; at its end what it found and cost.
func (d *Diff) read(msg diffReadMsg) tea.Cmd {
	if msg.req != d.list.Req.ID() || !d.list.Req.InFlight() {
		return nil // a comparison stopped or started again since
	}
	if msg.label != "" {
		d.label = msg.label
	}
	var rows []domain.KeyDiff
	for _, k := range msg.keys {
		d.n[k.Status]++
		if k.Status != domain.Same {
			rows = append(rows, k)
		}
	}
	if !msg.done {
		d.list.Part(msg.req, rows)
		return common.Next(msg.ch)
	}
	d.res = msg.res
	// Stopped at the budget, keys neither side read to may differ: the
	// list is not every difference ("of ≥M", never "no differences").
	d.list.Answer(msg.req, rows, msg.res.Stopped(), msg.err)
	if msg.err != nil {
		return common.Report(msg.err, false, d.id)
	}
	return nil
}

func (d *Diff) cell(k domain.KeyDiff, col int) string {
	switch col {
	case 0:
		return string(k.Status)
	case 1:
		return common.Sanitize(keyWords(k.Key, d.q))
	}
	if k.Status == domain.Differs {
		return fmt.Sprint(len(k.Changes))
	}
	return ""
}

// keyWords is a key as the list shows it: the sort key where the table
// has one (the partition is the page's), else the partition key.
func keyWords(key map[string]any, q domain.KeyQuery) string {
	name := q.PKName
	if q.SKName != "" {
		name = q.SKName
	}
	if s, ok := key[name].(string); ok {
		return s
	}
	return compact(key[name])
}

func (d *Diff) SetSize(w, h int) {
	d.w, d.hgt = w, h
	listW, listH := d.listSize()
	d.list.SetSize(listW-4, max(1, listH-2))
}

// listSize is the list's frame: beside the selected key's diff when wide,
// else above it, in half the height; alone where the diff would have no
// line of its own (under ? help on a short terminal).
func (d *Diff) listSize() (int, int) {
	if d.c.ShowPreview(d.w) {
		return d.w * 2 / 5, d.hgt
	}
	listH := min(d.hgt, max(5, d.hgt/2))
	if d.hgt-listH < 3 {
		return d.w, d.hgt
	}
	return d.w, listH
}

// count is what the title counts of the keys read: each status (counted
// as they arrive, not on each frame), and at a budget's stop that only
// the keys both sides read were compared; before any key was compared
// (or where the comparison failed or was refused first) that none was.
func (d *Diff) count(int, bool) string {
	n := d.n
	if n[domain.Differs]+n[domain.OnlyLeft]+n[domain.OnlyRight]+n[domain.Same] == 0 { // no count of keys not compared
		switch {
		case d.list.Fail.Stopped():
			return "nothing compared"
		case !d.list.Settled():
			return "nothing compared yet"
		}
	}
	th := func(k domain.DiffStatus) string { return common.Thousands(n[k]) } // 5,039, as the row count beside it
	s := fmt.Sprintf("%s differ · %s only-left · %s only-right · %s same", th(domain.Differs), th(domain.OnlyLeft), th(domain.OnlyRight), th(domain.Same))
	if d.res.Stopped() {
		// First: after an environment's label ("STAGING: us-east-1 ·
		// http://…") and the four counts, a stop said last was cut at
		// 80 and 120 columns, and the counts read as the whole partition.
		s = stoppedWords + " · " + s
	}
	return s
}

// stoppedWords lead a stopped comparison's counts; stoppedShort where
// they leave the counts no room (the request line says the budget).
const stoppedWords, stoppedShort = "stopped at the budget", "stopped"

// title is the list's title in width cells: the other side, then the
// counts. The counts are the title's point: a long label ("STAGING:
// us-west-2 · http://127.0.0.1:8000") gives way to them, cut with "…",
// where the whole line had cut the counts after the label; a failure's
// words after the counts give way to the label.
func (d *Diff) title(width int) string {
	const vs, labelMin = "vs ", 12                                    // "STAGING: us…": the side still told
	tail, counts := d.list.TitleCounting(""), " · "+d.count(0, false) // " · 1 differ · …"
	label := common.Sanitize(d.label)
	if len(vs)+min(labelMin, common.Width(label))+common.Width(counts) > width && d.res.Stopped() {
		tail = strings.Replace(tail, stoppedWords, stoppedShort, 1)
		counts = strings.Replace(counts, stoppedWords, stoppedShort, 1)
	}
	if room := width - len(vs) - common.Width(counts); common.Width(label) > room {
		label = common.Truncate(label, max(2, room), "…")
	}
	return vs + label + tail
}

// sides are the comparison's two sides as every label names them: this
// connection as its environment names it, the other as it was picked;
// where the other is a table of this connection, the tables (both are
// DEMO's: "only on DEMO" told them apart by nothing).
func (d *Diff) sides() (left, right string) {
	left = d.c.HereLabel()
	if s := d.side; s.Profile == "" && s.Region == "" && s.Endpoint == "" && s.Data == "" {
		left = "table " + d.info.Name
	}
	return common.Sanitize(left), common.Sanitize(d.label)
}

func (d *Diff) View() string {
	st := d.c.Styles
	listW, listH := d.listSize()
	body := d.list.View()
	if d.list.Len() == 0 && d.res.Stopped() && d.list.Settled() && !d.list.Fail.Stopped() {
		body = st.Dim.Render(common.Wrap("No differences in the keys both sides read before the budget stopped them: the rest is not compared.", max(10, listW-4)))
	}
	lst := common.Frame(st, d.title(listW-6), body, listW, listH)
	rw, rh := d.w, d.hgt-listH
	if d.c.ShowPreview(d.w) {
		rw, rh = d.w-listW, d.hgt
	}
	if rh < 3 {
		return lst
	}
	dtitle, lines := "Diff", []string{}
	if k, ok := d.list.Selected(); ok {
		name := common.Sanitize(keyWords(k.Key, d.q))
		left, right := d.sides()
		switch k.Status {
		case domain.OnlyLeft:
			dtitle = name + " · only on " + left
			lines = append(lines, st.Removed.Render(common.Wrap("Only on the left ("+left+"): "+right+" has no item with this key.", max(10, rw-4))))
		case domain.OnlyRight:
			dtitle = name + " · only on " + right
			lines = append(lines, st.Added.Render(common.Wrap("Only on the right ("+right+"): "+left+" has no item with this key.", max(10, rw-4))))
		default:
			dtitle = "Diff " + name + " · " + left + " → " + right
			lines = append(lines, renderDiff(st, k.Changes, rw-4))
		}
	}
	diff := common.Frame(st, dtitle, strings.Join(lines, "\n"), rw, rh)
	if d.c.ShowPreview(d.w) {
		return joinH(lst, diff)
	}
	return lst + "\n" + diff
}

func (d *Diff) Shows() (table, index string) { return d.info.Name, d.q.Index }

func (d *Diff) Crumbs() []string {
	place := d.place
	if place == nil {
		place = comparedPlace(d.info.Name, d.q)
	}
	return append(slices.Clone(place), "= "+common.Sanitize(d.label))
}

// comparedPlace is what = compares, as the breadcrumb steps to it: the
// table (and index), the partition, then the prefix (with its "…") or
// the item; the picker and the comparison both name it so, and the
// picker's title too.
func comparedPlace(table string, q domain.KeyQuery) []string {
	out := partitionSteps(table, q.Index, common.KeyCell(q.PK))
	switch q.SK.Op {
	case domain.SKBeginsWith:
		out = append(out, common.Sanitize(q.SK.A.Arg())+"…")
	case domain.SKNone:
	default:
		out = append(out, common.Sanitize(q.SK.A.Arg()))
	}
	return out
}
func (d *Diff) ID() int         { return d.id }
func (d *Diff) Mode() string    { return "" }
func (d *Diff) Loading() bool   { return d.list.Req.InFlight() }
func (d *Diff) Capturing() bool { return false }

// Request names the two reads, and what each side cost once read.
func (d *Diff) Request() string {
	s := "Query " + common.Sanitize(d.q.Table) + ": " + common.Sanitize(d.q.Expression()) + " on both sides"
	if d.table != d.q.Table {
		s += " (" + common.Sanitize(d.table) + " on the right)"
	}
	if d.list.Settled() && !d.list.Fail.Cancelled { // read to its end, or its failure
		s += fmt.Sprintf(" · left %s, %s · right %s, %s", common.Plural(d.res.Left.Pages, "req", "reqs"), common.BilledRCU(d.res.Left.Cost),
			common.Plural(d.res.Right.Pages, "req", "reqs"), common.BilledRCU(d.res.Right.Cost))
		if d.res.Stopped() {
			// Last, where the request line keeps its tail whole at every
			// width (a long one gives up its middle).
			s += " · stopped at the " + common.RCU(d.c.CountBudget, false) + " budget: later keys not compared"
		}
	}
	return s
}

// ShortHelp offers the moves and search only where keys are listed, and
// r only where comparing again could answer otherwise (not after the
// refusal of tables of different keys).
func (d *Diff) ShortHelp() []key.Binding {
	k := d.c.Keys
	return onRows(k, d.list.Len() > 0, withAgain([]key.Binding{k.Up, k.Down, k.Search, d.list.BackKey(k.Back)}, d.againKey(), k.Help, k.Quit))
}

func (d *Diff) FullHelp() [][]key.Binding {
	k := d.c.Keys
	return onRowsFull(k, d.list.Len() > 0, [][]key.Binding{k.Moves(), {k.Search, k.NextMatch, k.PrevMatch, common.On(k.Preview, d.w >= common.PreviewMin)}, {d.againKey().Binding, d.list.BackKey(k.Back), k.Help, k.Quit}})
}

// againKey is r as the list's help offers it, and nowhere after a
// refusal: comparing again is refused again.
func (d *Diff) againKey() common.Key {
	r := d.list.AgainKey(2, d.c.Keys.Refresh)
	r.Binding = common.On(r.Binding, !d.list.Fail.Refused())
	return r
}
