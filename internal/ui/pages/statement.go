package pages

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

const statementPrompt = "SELECT › "

// Statement is the `:` prompt: a PartiQL SELECT, parsed as it is typed,
// and its plan (Query on X, or Scan: about N RCU) shown before anything
// is read; enter runs it, its results an items list. It is translated to
// Query or Scan and read through the read-only client, never
// ExecuteStatement. Every key but enter and esc is text.
type Statement struct {
	c     *common.Common
	id    int
	input components.TextInput
	err   *domain.PartiQLError
	st    domain.Statement
	ok    bool                        // st parses
	infos map[string]dynamo.TableInfo // tables described, by name
	desc  list.Request
	asked string         // the table being described
	sent  map[string]int // DescribeTable requests answered, failed ones too, by table
	fail  string         // why the table could not be described
	table string         // the table open when : was pressed, described at once
	index string         // and the index the page read it through ("" for none)
	// named is the table (and index) the statement last named when it
	// parsed: a word typed after it that does not parse yet (AND) leaves
	// the statement on that table.
	named, namedIndex string
	// ran is the statement enter last ran: its results read its items,
	// so back here the prompt no longer says none was read.
	ran string
	// prefill is what the box was opened holding (SELECT * FROM "table"
	// WHERE, less its SELECT): a whole statement typed or pasted after
	// it, untouched, takes its place (wholeTyped).
	prefill string
	w, h    int
}

// NewStatement returns the prompt, holding SELECT * FROM "table" WHERE
// when a table is open ("" for none), FROM "table"."index" where the
// page reads an index.
func NewStatement(c *common.Common, table, index string) *Statement {
	s := &Statement{c: c, id: c.NextID(), input: components.NewTextInput(statementPrompt), infos: map[string]dynamo.TableInfo{}, sent: map[string]int{}, table: table, index: index}
	s.input.Placeholder = `* FROM "Orders" WHERE status = 'FAILED'`
	if table != "" {
		s.prefill = `* FROM ` + partiqlName(table)
		if index != "" {
			s.prefill += "." + partiqlName(index)
		}
		s.prefill += ` WHERE `
		s.input.SetValue(s.prefill)
		s.input.CursorEnd()
	}
	s.parse()
	return s
}

// Init describes the open table (no read capacity): its plan shows as
// soon as the WHERE parses.
func (s *Statement) Init() tea.Cmd {
	focus := s.input.Focus()
	if s.table == "" {
		return focus
	}
	s.asked = s.table
	ctx, req := s.desc.Start(s.c)
	return tea.Batch(focus, describeTable(ctx, s.c.Client, s.id, req, s.table))
}

// text is the statement typed, and how many characters the prompt's
// SELECT adds before it: none where the box begins with a statement's
// own word (SELECT typed again, or a DELETE to refuse for what it is).
func (s *Statement) text() (string, int) {
	v := s.input.Value()
	word := strings.ToLower(strings.TrimLeft(v, " \t"))
	if i := strings.IndexFunc(word, func(r rune) bool { return !(r >= 'a' && r <= 'z') }); i >= 0 {
		word = word[:i]
	}
	switch word {
	case "select", "insert", "update", "delete", "upsert", "replace", "exists", "create", "drop":
		return v, 0
	}
	return "SELECT " + v, len("SELECT ")
}

// statementText is the statement as run.
func (s *Statement) statementText() string { t, _ := s.text(); return t }

// parse reads what is typed (no I/O), keeping the error's column in the
// box's terms.
func (s *Statement) parse() {
	s.st, s.err, s.ok = domain.Statement{}, nil, false
	text, lead := s.text()
	// The box's own statement word stands for the prompt's SELECT, which
	// steps aside (as wide, the caret's column unchanged): the box read
	// SELECT › SELECT …, or SELECT › LECT … scrolled.
	s.input.Prompt = statementPrompt
	if lead == 0 {
		s.input.Prompt = strings.Repeat(" ", ansi.StringWidth(statementPrompt)-2) + "› "
	}
	st, err := domain.ParsePartiQL(text)
	if err == nil {
		s.st, s.ok = st, true
		s.named, s.namedIndex = st.Table, st.Index
		return
	}
	var pe *domain.PartiQLError
	if !errors.As(err, &pe) {
		pe = &domain.PartiQLError{Msg: err.Error()}
	}
	col := pe.Col - lead
	if pe.Col == 0 {
		col = 0
	}
	s.err = &domain.PartiQLError{Col: max(col, 0), Msg: pe.Msg}
}

// describe asks for the statement's table once, when it parses and is
// not known: a DescribeTable, which costs no read capacity.
func (s *Statement) describe() tea.Cmd {
	if !s.ok || s.st.Table == "" || s.asked == s.st.Table {
		return nil
	}
	if _, known := s.infos[s.st.Table]; known {
		return nil
	}
	s.asked, s.fail = s.st.Table, ""
	ctx, req := s.desc.Start(s.c)
	return describeTable(ctx, s.c.Client, s.id, req, s.st.Table)
}

// plan is the statement's plan on its table, and the search it reads.
func (s *Statement) plan() (domain.Plan, dynamo.SearchRequest, dynamo.TableInfo, error) {
	info, known := s.infos[s.st.Table]
	if !s.ok || !known {
		return domain.Plan{}, dynamo.SearchRequest{}, info, errors.New("not planned")
	}
	budget := 0.0
	if s.c.FilterBudget != nil {
		budget = s.c.FilterBudget(info.Name)
	}
	st := s.st
	st.Where = dynamo.TypedFilter(s.c.Client, info.Name, st.Where)
	plan, r, err := dynamo.StatementSearch(info, st, budget)
	var none *domain.NoMatchError
	if errors.As(err, &none) {
		err = errors.New(none.SayTo(true, domain.Explorer))
	}
	return plan, r, info, err
}

func (s *Statement) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case tableDescribedMsg:
		if !s.desc.Done(msg.req) {
			return s, nil
		}
		s.sent[msg.name]++
		if msg.err != nil {
			s.fail = list.FailureText(msg.err) + " (enter asks again)"
			var e *dynamo.Error
			if errors.As(msg.err, &e) && e.Kind == dynamo.KindNotFound && s.st.Index != "" {
				// FROM a.b is index b of table a: a table whose name
				// holds a dot (DynamoDB allows it) goes in quotes.
				s.fail = fmt.Sprintf("no table %s: FROM %s.%s reads index %s of table %s; a name with a dot goes in double quotes, FROM \"%s.%s\"",
					s.st.Table, s.st.Table, s.st.Index, s.st.Index, s.st.Table, s.st.Table, s.st.Index)
			}
			return s, nil
		}
		s.infos[msg.name] = msg.info
	case tea.KeyPressMsg:
		return s, s.key(msg)
	}
	return s, nil
}

func (s *Statement) key(msg tea.KeyPressMsg) tea.Cmd {
	k := s.c.Keys
	switch {
	case key.Matches(msg, k.Cancel):
		s.desc.Stop()
		return back
	case key.Matches(msg, k.Submit):
		if !s.ok {
			return nil // the error under the box says what to write
		}
		plan, r, info, err := s.plan()
		if err != nil {
			if _, known := s.infos[s.st.Table]; !known {
				s.asked = "" // enter asks again after a failure
				return s.describe()
			}
			return nil // the plan's error is on screen
		}
		s.ran = s.statementText()
		return open(NewStatementResults(s.c, info, s.ran, plan, r))
	}
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(msg)
	s.wholeTyped()
	s.parse()
	return cmd
}

// wholeTyped replaces the box's prefill with a whole statement typed or
// pasted after it: SELECT * FROM "T" WHERE SELECT … read as a WHERE that
// begins with SELECT, and the error said a comparison was expected there.
// A WHERE typed after the prefill's own is the same WHERE: one is kept
// (WHERE WHERE PK = … was "expected a comparison after WHERE").
func (s *Statement) wholeTyped() {
	v := s.input.Value()
	if s.prefill == "" || !strings.HasPrefix(v, s.prefill) {
		return
	}
	rest := strings.TrimLeft(v[len(s.prefill):], " \t")
	word, after, spaced := strings.Cut(rest, " ")
	switch strings.ToLower(word) {
	case "where":
		if spaced {
			s.input.SetValue(s.prefill + strings.TrimLeft(after, " \t"))
			s.input.CursorEnd()
		}
	case "select", "insert", "update", "delete", "upsert", "replace", "exists", "create", "drop":
		if spaced {
			s.input.SetValue(rest)
			s.input.CursorEnd()
			s.prefill = ""
		}
	}
}

func (s *Statement) SetSize(w, h int) { s.w, s.h = w, h }

func (s *Statement) View() string {
	st := s.c.Styles
	width := max(1, s.w-4)
	box := max(1, width-ansi.StringWidth(statementPrompt)-1)
	s.input.SetWidth(box)
	lines := []string{s.input.View()}
	switch {
	case s.err != nil && s.prefill != "" && s.input.Value() == s.prefill:
		// The box as it opened: nothing typed yet is not an error.
		lines = append(lines, st.Dim.Render(common.Wrap("type the condition after WHERE (status = 'FAILED'), or delete WHERE to read every item", width)))
	case s.err != nil && strings.TrimSpace(s.input.Value()) != "":
		where := ""
		if s.err.Col > 0 {
			// The caret stands under the column's cell (a 北 takes two,
			// a control its escape), and only where the box shows the
			// statement from its start: scrolled, it would point at
			// another character, or past the frame.
			value := []rune(s.input.Value())
			if components.ShownWidth(string(value)) < box {
				caret := ansi.StringWidth(statementPrompt) + components.ShownWidth(string(value[:min(s.err.Col-1, len(value))]))
				lines = append(lines, strings.Repeat(" ", caret)+st.ErrorTitle.Render("^"))
			}
			where = fmt.Sprintf("column %d: ", s.err.Col)
		}
		lines = append(lines, s.wrap(st.ErrorTitle, where+common.Guard(s.err.Msg), width)...) // quoted by the parser
	case s.err != nil:
		lines = append(lines, st.Dim.Render("type a SELECT: * FROM \"Table\" WHERE …"))
	default:
		lines = append(lines, s.planLines(width)...)
	}
	lines = append(lines, "")
	lines = append(lines, s.wrap(st.Dim, `Read-only: a SELECT is translated to Query (its WHERE pins the partition key by = or IN) or Scan, never run as ExecuteStatement. Strings in single quotes, names in double quotes; FROM "Table" or "Table"."Index"; =, <>, <, <=, >, >=, BETWEEN, IN, begins_with, contains, attribute_exists, IS MISSING, AND/OR/NOT, ORDER BY the sort key.`, width)...)
	return common.Frame(st, "PartiQL", strings.Join(lines, "\n"), s.w, s.h)
}

// planLines say what enter will read, and what it may cost.
func (s *Statement) planLines(width int) []string {
	st := s.c.Styles
	if _, known := s.infos[s.st.Table]; !known {
		switch {
		case s.fail != "":
			return s.wrap(st.ErrorTitle, "Cannot plan it: "+common.Sanitize(s.fail), width)
		case s.desc.InFlight():
			return []string{st.Dim.Render("describing " + common.Sanitize(s.st.Table) + " to plan it…")}
		}
		return []string{st.Dim.Render("enter describes " + common.Sanitize(s.st.Table) + " to plan it (nothing is read)")}
	}
	plan, r, info, err := s.plan()
	if err != nil {
		return s.wrap(st.ErrorTitle, common.Sanitize(err.Error()), width)
	}
	out := s.wrap(st.Key, "Plan: "+planText(plan, info, r, true), width)
	if said := notProjected(info, plan); said != "" {
		out = append(out, s.wrap(st.Notice, common.Sanitize(said+"; FROM "+partiqlName(plan.Table)+" reads the table's items"), width)...)
	}
	budget := "no budget"
	if r.MaxRCU > 0 {
		budget = "stops at " + common.RCU(r.MaxRCU, false) + " and asks"
	}
	// About, not a worst case: the search's reads are sized to the
	// screen, each billed its own bytes rounded up (planCost).
	worst := "cost of the whole table not known (DynamoDB reports it as 0 B)"
	rcu, known := r.WorstCaseRCU()
	switch {
	case plan.Operation() == "Query" && known:
		// A Query reads its partitions, not the table: the table's size
		// only bounds it ("about 70.5 RCU to read the whole table" read
		// as the statement's cost).
		worst = "its cost not known before reading (DynamoDB reports no partition's size), the whole table's about " + common.RCU(rcu, false) + " at most"
	case plan.Operation() == "Query":
		worst = "its cost not known before reading (DynamoDB reports no partition's size)"
	case known:
		worst = "about " + common.RCU(rcu, false) + " to read the whole table"
	}
	return append(out, s.wrap(st.Dim, "enter runs it · "+worst+" · "+budget+" · esc cancels", width)...)
}

func (s *Statement) wrap(style interface{ Render(...string) string }, text string, width int) []string {
	var out []string
	for _, l := range strings.Split(common.Wrap(text, width), "\n") {
		out = append(out, style.Render(l))
	}
	return out
}

// described names the tables the prompt has described (or is), in
// order of name, three at most.
func (s *Statement) described() string {
	var names []string
	for table := range s.sent {
		names = append(names, common.Sanitize(table))
	}
	if s.desc.InFlight() && s.sent[s.asked] == 0 {
		names = append(names, common.Sanitize(s.asked))
	}
	sort.Strings(names)
	if len(names) > 3 {
		names = append(names[:3], "…")
	}
	return strings.Join(names, ", ")
}

// Shows is the statement's table and index once it parses; while what
// is typed does not parse, the table it last named where the text still
// names it, else the table the prompt was opened on.
func (s *Statement) Shows() (table, index string) {
	switch {
	case s.ok && s.st.Table != "":
		return s.st.Table, s.st.Index
	case !s.ok && s.named != "" && strings.Contains(s.input.Value(), s.named):
		return s.named, s.namedIndex
	}
	return s.table, s.index
}

// Crumbs name the statement's table (and index): the one it names, or
// last named while a word typed does not parse yet, else those the
// prompt was opened on (esc goes back to them).
func (s *Statement) Crumbs() []string {
	table, index := s.Shows()
	switch {
	case table == "":
		return []string{"PartiQL"}
	case index != "":
		return []string{table, "index " + index, "PartiQL"}
	}
	return []string{table, "PartiQL"}
}
func (s *Statement) ID() int         { return s.id }
func (s *Statement) Mode() string    { return "" }
func (s *Statement) Loading() bool   { return s.desc.InFlight() }
func (s *Statement) Capturing() bool { return true } // every key is text

// Typed is the statement typed; the box is always open.
func (s *Statement) Typed() (string, bool) { return s.input.Value(), true }

// Paste puts pasted text in the box.
func (s *Statement) Paste(text string) tea.Cmd {
	var cmd tea.Cmd
	s.input, cmd = s.input.Paste(text)
	s.wholeTyped()
	s.parse()
	return tea.Batch(cmd)
}

func (s *Statement) Request() string {
	read := s.read()
	if !s.ok {
		return read + ": the statement is planned first"
	}
	if plan, r, info, err := s.plan(); err == nil {
		return read + " · " + planText(plan, info, r, true)
	}
	return read
}

// read is what the prompt has sent so far: the DescribeTable of each
// table it planned on (the status bar counts them), never an item, and
// once the statement shown ran, that its results read them. Those
// for earlier statements' tables are not this plan's: "2 DescribeTables
// for the plan" was said of a plan on one table, the other described for
// the statement before it.
func (s *Statement) read() string {
	all, this := 0, 0
	for table, n := range s.sent {
		all += n
		if s.ok && table == s.st.Table {
			this += n
		}
	}
	if s.desc.InFlight() {
		all++
		if s.ok && s.asked == s.st.Table {
			this++
		}
	}
	items := "no item read yet"
	if s.ran != "" && s.ran == s.statementText() {
		// esc came back from its results: they read the items.
		items = "run: its results read the items, enter runs it again"
	}
	switch {
	case all == 0 && s.ran != "" && s.ran == s.statementText():
		return items
	case all == 0:
		return "nothing read yet"
	case this == 0:
		// No plan yet (the box opened on a table, a statement not parsing)
		// or another table's: the tables described, by name.
		return fmt.Sprintf("%s, %s (%s)", items, common.Plural(all, "DescribeTable", "DescribeTables"), s.described())
	case this < all:
		return fmt.Sprintf("%s, %s for this plan, %d in all", items, common.Plural(this, "DescribeTable", "DescribeTables"), all)
	}
	return fmt.Sprintf("%s, %s for the plan", items, common.Plural(all, "DescribeTable", "DescribeTables"))
}

// ShortHelp offers enter for what it does now: run a plan shown, or ask
// for the table to plan on; not while the statement does not parse or
// its plan is refused (the words under the box say what to write). It
// said "plan, then run" beside a plan already shown, which enter runs.
func (s *Statement) ShortHelp() []key.Binding {
	k := s.c.Keys
	_, _, _, err := s.plan()
	_, known := s.infos[s.st.Table]
	switch {
	case !s.ok:
		return []key.Binding{k.Cancel}
	case err == nil:
		return []key.Binding{statementRunKey(k.Submit, "run"), k.Cancel}
	case known:
		return []key.Binding{k.Cancel}
	}
	return []key.Binding{statementRunKey(k.Submit, "plan"), k.Cancel}
}

func (s *Statement) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.ShortHelp()}
}

func statementRunKey(b key.Binding, does string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, does))
}

// notProjected says what a statement on a global secondary index asks
// for (its projection) or filters by (its WHERE) that the index does not
// hold ("" for nothing): such an index answers only with what it
// projects (a local one reads the rest from the table), so no item of it
// has them, as partiql says on stderr. The WHERE's were not said: a Scan
// of ByCity by DriveThru read on to no match without a word.
func notProjected(info dynamo.TableInfo, plan domain.Plan) string {
	return info.NotHeldSaid(plan.Index, append(slices.Clone(plan.Project), domain.FilterPaths(plan.Filter)...))
}

// projectionWords says what an index holds.
func projectionWords(info dynamo.TableInfo, index string) string {
	ix, _ := indexFor(info, index)
	if ix.Projection == "KEYS_ONLY" {
		return "keys only"
	}
	return "its keys and " + common.Sanitize(strings.Join(ix.NonKeyAttributes, ", "))
}

// partiqlName is a table's or an index's name in PartiQL's double quotes.
func partiqlName(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
