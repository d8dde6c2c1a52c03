package domain

import (
	"bytes"
	"fmt"
	"math/big"
	"slices"
	"strings"
)

// dynascope reads PartiQL SELECT statements without ExecuteStatement: a
// statement is parsed here and translated into the Query or Scan it
// stands for, which the read-only client runs (so it works wherever
// Query and Scan do: dynalite, moto, the embedded backend, --data):
//
//	SELECT * FROM "Orders" WHERE PK = 'c#42' AND begins_with(SK, 'o#2024')
//	SELECT PK, detail.region FROM "Orders"."ByStatus" WHERE status IN ['FAILED', 'RETRY']
//	SELECT * FROM Orders WHERE attempts > 3 AND note IS MISSING ORDER BY SK DESC
//
// Its WHERE clause is the filter language (filter.go) in PartiQL's
// quotes: strings in single quotes, names in double quotes. Anything but
// one SELECT is refused before any request.

// Statement is a parsed SELECT.
type Statement struct {
	Project []Path // nil: SELECT *
	Table   string
	Index   string
	Where   FilterNode // nil: none
	OrderBy []OrderKey // nil: none
}

// OrderKey is one key of ORDER BY: the partition key, then the sort key.
type OrderKey struct {
	Path Path
	Desc bool
}

// PartiQLError is a statement refused: Col (1-based, in characters; 0
// when the whole statement is meant) and what to write instead.
type PartiQLError struct {
	Col int
	Msg string
}

func (e *PartiQLError) Error() string {
	if e.Col == 0 {
		return e.Msg
	}
	return fmt.Sprintf("column %d: %s", e.Col, e.Msg)
}

// ParsePartiQL reads one SELECT statement.
func ParsePartiQL(s string) (Statement, error) {
	p := &filterParser{src: s, partiql: true}
	p.next()
	st, err := p.statement()
	if err == nil {
		// Reversed bounds are refused whatever the table's keys: before
		// its description is read.
		return st, betweenInOrder(st.Where)
	}
	if fe, ok := err.(*FilterError); ok {
		return st, &PartiQLError{Col: fe.Col, Msg: fe.Msg}
	}
	return st, err
}

// notSelect are the statements PartiQL has besides SELECT: dynascope
// reads, so each is refused for what it is.
var notSelect = map[string]string{
	"insert": "INSERT writes", "update": "UPDATE writes", "delete": "DELETE writes",
	"upsert": "UPSERT writes", "replace": "REPLACE writes", "exists": "EXISTS belongs in transactions",
	"create": "CREATE changes the schema", "drop": "DROP changes the schema",
}

func (p *filterParser) statement() (Statement, error) {
	var st Statement
	if err := p.bad(); err != nil {
		return st, err
	}
	if !p.keyword("select") {
		what := "it does not begin with SELECT"
		if p.tok.kind == tokEOF {
			what = "the statement is empty"
		} else if w, ok := notSelect[strings.ToLower(p.tok.text)]; ok && p.tok.kind == tokIdent {
			what = w
		}
		return st, p.errAt(p.tok, what+": dynascope reads, and runs only SELECT, such as SELECT * FROM \"Orders\" WHERE PK = 'c#42'")
	}
	p.next()
	var err error
	if st.Project, err = p.projection(); err != nil {
		return st, err
	}
	if st.Table, st.Index, err = p.source(); err != nil {
		return st, err
	}
	if p.keyword("where") {
		p.next()
		if st.Where, err = p.or(0); err != nil {
			return st, err
		}
	}
	if p.keyword("order") {
		if st.OrderBy, err = p.orderBy(); err != nil {
			return st, err
		}
	}
	return st, p.end()
}

// projection reads * or a list of attribute paths.
func (p *filterParser) projection() ([]Path, error) {
	if p.tok.kind == tokPunct && p.tok.text == "*" {
		p.next()
		return nil, nil
	}
	var out []Path
	for {
		if p.tok.kind == tokIdent && strings.EqualFold(p.tok.text, "distinct") && len(out) == 0 {
			return nil, p.errAt(p.tok, "DISTINCT is not supported: SELECT the attributes and compare their values in the output")
		}
		if p.tok.kind == tokIdent && strings.EqualFold(p.tok.text, "count") {
			return nil, p.errAt(p.tok, "COUNT is not supported: select * or attributes, and read the count from the stats")
		}
		named := p.tok.kind == tokIdent || p.tok.kind == tokQuoted
		path, err := p.path()
		if err != nil && named && (p.tok.kind != tokPunct || p.tok.text != "*") {
			return nil, err // what is wrong within the path: a['b'], a[x]
		}
		if err != nil {
			return nil, p.errAt(p.tok, "SELECT takes * or a list of attributes: SELECT PK, SK, status FROM \"Orders\"")
		}
		if p.keyword("as") {
			return nil, p.errAt(p.tok, "AS is not supported: select attributes by their own names")
		}
		out = append(out, path)
		if p.tok.kind == tokPunct && p.tok.text == "," {
			p.next()
			continue
		}
		return out, nil
	}
}

// source reads FROM "Table" or FROM "Table"."Index".
func (p *filterParser) source() (table, index string, err error) {
	if !p.keyword("from") {
		return "", "", p.errAt(p.tok, fmt.Sprintf("expected FROM after the projection, found %s: SELECT * FROM \"Orders\"", p.found()))
	}
	p.next()
	bare := false // the table's name written without quotes
	name := func() (string, error) {
		if p.tok.kind != tokIdent && p.tok.kind != tokQuoted {
			if err := p.bad(); err != nil {
				return "", err
			}
			return "", p.errAt(p.tok, fmt.Sprintf("expected a table name, found %s: FROM \"Orders\" or FROM \"Orders\".\"ByStatus\"", p.found()))
		}
		n, quoted := p.tok.text, p.tok.kind == tokQuoted
		p.next()
		if p.tok.kind == tokNumber && strings.HasPrefix(p.tok.text, "-") {
			return "", p.errAt(p.tok, dashedName(table, n+p.rest(), bare))
		}
		if table == "" {
			bare = !quoted
		}
		return n, nil
	}
	if table, err = name(); err != nil {
		return "", "", err
	}
	if p.tok.kind == tokPunct && p.tok.text == "." {
		p.next()
		if index, err = name(); err != nil {
			return "", "", err
		}
	}
	if p.tok.kind == tokPunct && p.tok.text == "," || p.keyword("join") || p.keyword("as") || p.tok.kind == tokIdent && !p.clauseWord() {
		return "", "", p.errAt(p.tok, "one table or index only: no joins or aliases; FROM \"Orders\" or FROM \"Orders\".\"ByStatus\"")
	}
	return table, index, nil
}

// rest is the source from the current token to the end of its run of
// characters that are no space, comma, semicolon or bracket: the rest of
// a name written without quotes.
func (p *filterParser) rest() string {
	end := p.tok.pos
	for end < len(p.src) && !strings.ContainsRune(" \t\r\n,;()[]", rune(p.src[end])) {
		end++
	}
	return p.src[p.tok.pos:end]
}

// dashedName is the refusal of a name with a dash written without
// quotes after FROM: the name whole, in quotes, and where a table came
// before it with a dot, both readings (FROM Orders.by-day: the index
// by-day of Orders, or a table "Orders.by-day"). It quoted the name up
// to its dash and an ellipsis, "Names-1…" of FROM Weird.Names-1, as if
// the table's name had gone.
func dashedName(table, name string, tableBare bool) string {
	if table == "" {
		return "a name with - goes in double quotes: FROM " + quotedName(name)
	}
	said := "a name with - goes in double quotes: FROM " + quotedName(table) + "." + quotedName(name) + " for its index"
	if tableBare {
		said += ", or FROM " + quotedName(table+"."+name) + " for a table named so"
	}
	return said
}

// clauseWord reports whether the token starts a clause a SELECT may have
// after FROM.
func (p *filterParser) clauseWord() bool {
	return p.keyword("where") || p.keyword("order") || p.keyword("limit")
}

// orderBy reads ORDER BY path [ASC|DESC] [, path [ASC|DESC]]….
func (p *filterParser) orderBy() ([]OrderKey, error) {
	p.next()
	if !p.keyword("by") {
		return nil, p.errAt(p.tok, "expected BY after ORDER: ORDER BY SK DESC")
	}
	p.next()
	var keys []OrderKey
	for {
		path, err := p.path()
		if err != nil {
			return nil, err
		}
		desc := p.keyword("desc")
		if desc || p.keyword("asc") {
			p.next()
		}
		keys = append(keys, OrderKey{Path: path, Desc: desc})
		if p.tok.kind != tokPunct || p.tok.text != "," {
			return keys, nil
		}
		p.next()
	}
}

// end accepts one statement's end: an optional ; and nothing after.
func (p *filterParser) end() error {
	if err := p.bad(); err != nil {
		return err
	}
	if p.keyword("limit") {
		return p.errAt(p.tok, "DynamoDB's PartiQL has no LIMIT: drop it, and bound the read with --max-rcu")
	}
	if p.tok.kind == tokPunct && p.tok.text == ";" {
		p.next()
		if err := p.bad(); err != nil {
			return err
		}
	}
	switch {
	case p.tok.kind == tokEOF:
		return nil
	case p.tok.kind == tokIdent && (p.keyword("select") || notSelect[strings.ToLower(p.tok.text)] != ""):
		return p.errAt(p.tok, "several statements: run one SELECT at a time")
	}
	return p.errAt(p.tok, fmt.Sprintf("unexpected %s: a SELECT goes on with WHERE, then ORDER BY", p.found()))
}

// KeyDef is a key attribute of the table or index a statement reads.
type KeyDef struct {
	Name string
	Type KeyType
}

// Plan is what a statement is read with: Queries (its WHERE pins the
// partition key by equality, or IN: one Query each) or a Scan (Queries
// nil), the rest of its WHERE as the filter.
type Plan struct {
	Table, Index string
	Queries      []KeyQuery
	Filter       FilterNode
	Project      []Path
	// FilterNamesKeys: the Queries' filter is the whole WHERE, keys and
	// all (every OR branch pins the partition key, each its own way, or
	// a condition on a key no key condition can say: SK <> 'x'), so it
	// is applied here to the whole items read: a Query's
	// FilterExpression may not name its keys.
	FilterNamesKeys bool
	// NoMatch are the OR branches of the WHERE that match no item, left
	// out of the plan (PK = 81 OR PK = 'a' is a Query of 'a'): said
	// beside it (SayNoMatch).
	NoMatch []NoMatch
}

// Operation is "Query" or "Scan".
func (p Plan) Operation() string {
	if len(p.Queries) > 0 {
		return "Query"
	}
	return "Scan"
}

// KeyCondition is the plan's key condition as people read it, values
// inline ("" for a Scan): PK = "c#42" AND begins_with(SK, "o#"), or
// PK IN ("a", "b") for several Queries.
func (p Plan) KeyCondition() string {
	if len(p.Queries) == 0 {
		return ""
	}
	q := p.Queries[0]
	for _, o := range p.Queries[1:] {
		if !sameCondition(o.SK, q.SK) {
			// Each OR branch's own key condition (branchPlan).
			parts := make([]string, len(p.Queries))
			for i, o := range p.Queries {
				parts[i] = Plan{Queries: []KeyQuery{o}}.KeyCondition()
				if o.SK.Op != SKNone {
					parts[i] = "(" + parts[i] + ")"
				}
			}
			return strings.Join(parts, " OR ")
		}
	}
	// Names as the filter beside it writes them: a.b alone would read
	// as the path a → b, #x as no name at all.
	pkName, skName := NameText(q.PKName), NameText(q.SKName)
	pk := pkName + " = " + q.PK.Literal()
	if len(p.Queries) > 1 {
		vals := make([]string, len(p.Queries))
		for i, q := range p.Queries {
			vals[i] = q.PK.Literal()
		}
		pk = pkName + " IN (" + strings.Join(vals, ", ") + ")"
	}
	switch q.SK.Op {
	case SKNone:
		return pk
	case SKBetween:
		return fmt.Sprintf("%s AND %s BETWEEN %s AND %s", pk, skName, q.SK.A.Literal(), q.SK.B.Literal())
	case SKBeginsWith:
		return fmt.Sprintf("%s AND begins_with(%s, %s)", pk, skName, q.SK.A.Literal())
	}
	return fmt.Sprintf("%s AND %s %s %s", pk, skName, skOpSymbols[q.SK.Op], q.SK.A.Literal())
}

// Plan translates st for the table or index whose keys are pk and sk (nil:
// none): a Query where the WHERE pins pk by equality (or IN), its sort-key
// condition taken into the key condition (and the whole WHERE applied
// here where it names a key in a way no key condition says), else a
// Scan.
func (st Statement) Plan(pk KeyDef, sk *KeyDef) (Plan, error) {
	plan := Plan{Table: st.Table, Index: st.Index, Project: st.Project}
	if err := betweenInOrder(st.Where); err != nil {
		return plan, err
	}
	if st.Where != nil {
		// What pins the key to what no key is matches nothing: a WHERE
		// of nothing else is refused, not scanned; an OR branch of it is
		// left out, the rest planned as if it were not written.
		kept, dead := withoutNoMatch(st.Where, pk)
		if kept == nil {
			return plan, &NoMatchError{NoMatch: dead}
		}
		st.Where, plan.NoMatch = kept, dead
	}
	conj := conjuncts(st.Where)
	at := pinIndex(conj, pk.Name)
	if ops, ok := branchPins(st.Where, pk.Name); at < 0 && ok {
		// Every OR branch pins the partition key, each with its own
		// other conditions (pk = 'a' OR (pk = 'b' AND x = 1)): one Query
		// a value, each filtered by the whole WHERE, which is exact
		// whatever partition an item is read from.
		return st.branchPlan(plan, ops, pk, sk)
	}
	if at < 0 {
		if st.OrderBy != nil {
			return plan, planErr("ORDER BY needs the partition key %s pinned in WHERE (%s = 'x'): a Scan has no order", NameText(pk.Name), partiqlName(pk.Name))
		}
		plan.Filter = st.Where
		return plan, inWithinLimit(plan.Filter)
	}
	values, err := pinValues(pinnedOperands(conj[at], pk.Name), pk)
	if err != nil {
		return plan, err
	}
	rest := append(append([]FilterNode(nil), conj[:at]...), conj[at+1:]...)
	keys, others, dead, ok, err := sortKeyIn(rest, pk, sk)
	if err != nil {
		return plan, err
	}
	if ok && len(values)*len(keys) <= maxKeyLookups {
		plan.NoMatch = append(plan.NoMatch, dead...)
		return st.lookupPlan(plan, values, keys, others, pk, sk)
	}
	skc, rest, one, err := sortKeyCondition(rest, sk)
	if err != nil {
		return plan, err
	}
	namesKeys := !one
	for _, c := range rest {
		namesKeys = namesKeys || keyIn(c, pk, sk) != ""
	}
	queries, err := st.keyQueries(values, skc, pk, sk)
	if err != nil {
		return plan, err
	}
	plan.Queries = queries
	if namesKeys {
		// A condition on a key that no key condition can say (a <>, an
		// OR on the sort key, a second bound, NOT begins_with): a
		// Query's filter may not name its keys, so the pinned partitions
		// are read (within the one sort-key condition taken, where there
		// is one) and the whole WHERE is applied here to the items read,
		// as for OR branches: never a Scan of the table.
		plan.Filter, plan.FilterNamesKeys = st.Where, true
		return plan, inWithinLimit(plan.Filter)
	}
	plan.Filter = joinAnd(rest)
	return plan, inWithinLimit(plan.Filter)
}

// betweenInOrder refuses a BETWEEN whose literal bounds are reversed,
// as DynamoDB refuses it ("the BETWEEN operator requires upper bound to
// be greater than or equal to lower bound"), before any request.
func betweenInOrder(n FilterNode) error {
	var err error
	walkNodes(n, func(n FilterNode) {
		x, ok := n.(Between)
		if !ok || err != nil {
			return
		}
		lo, ok1 := x.Lo.(Value)
		hi, ok2 := x.Hi.(Value)
		if !ok1 || !ok2 || lo.Kind != hi.Kind {
			return
		}
		var c int
		switch lo.Kind {
		case ValString:
			c = strings.Compare(lo.Text, hi.Text)
		case ValNumber:
			c = compareKeyValues(N(lo.Text), N(hi.Text))
		}
		if c > 0 {
			err = planErr("%s BETWEEN %s AND %s: the lower bound comes first: write %s BETWEEN %s AND %s",
				formatOperand(x.X), partiqlValue(lo), partiqlValue(hi), formatOperand(x.X), partiqlValue(hi), partiqlValue(lo))
		}
	})
	return err
}

// maxInValues is how many values DynamoDB's IN takes in a filter.
const maxInValues = 100

// inWithinLimit refuses an IN of the filter with more values than
// DynamoDB takes, before any request (it refuses the read: "The IN
// operator is provided with too many operands"). An IN on the partition
// key is one Query a value, and takes any number.
func inWithinLimit(n FilterNode) error {
	var err error
	walkNodes(n, func(n FilterNode) {
		if x, ok := n.(In); ok && len(x.List) > maxInValues && err == nil {
			err = planErr("%s IN […%d values]: DynamoDB's IN takes %d values at most: split the statement, or pin the partition key with IN (one Query a value)", formatOperand(x.X), len(x.List), maxInValues)
		}
	})
	return err
}

// Conditions are n's conditions one by one (none of its AND, OR and
// NOT), an IN of more values than a filter takes cut in lists it takes:
// what DynamoDB refuses in any of them (a type of no name, a begins_with
// of a number, a number out of range) it refuses in every plan, so each
// is checked before the table's keys are known.
func Conditions(n FilterNode) []FilterNode {
	var out []FilterNode
	walkNodes(n, func(n FilterNode) {
		switch x := n.(type) {
		case And, Or, Not:
		case In:
			for i := 0; i < len(x.List); i += maxInValues {
				out = append(out, In{x.X, x.List[i:min(i+maxInValues, len(x.List))]})
			}
		default:
			out = append(out, n)
		}
	})
	return out
}

// Canonical is st written out whole as dynascope reads it (spacing,
// quotes and case of keywords aside): what a resume token of the
// statement is checked against before the table's keys are known.
func (st Statement) Canonical() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q %q\n", st.Table, st.Index)
	for _, p := range st.Project {
		b.WriteString(p.String() + ",")
	}
	b.WriteByte('\n')
	if st.Where != nil {
		b.WriteString(FormatFilter(st.Where))
	}
	b.WriteByte('\n')
	b.WriteString(formatOrder(st.OrderBy))
	return b.String()
}

// walkNodes calls f with n and every condition under it.
func walkNodes(n FilterNode, f func(FilterNode)) {
	if n == nil {
		return
	}
	f(n)
	switch x := n.(type) {
	case And:
		walkNodes(x.L, f)
		walkNodes(x.R, f)
	case Or:
		walkNodes(x.L, f)
		walkNodes(x.R, f)
	case Not:
		walkNodes(x.X, f)
	}
}

// partiqlValue writes a literal as PartiQL does: strings in single quotes.
func partiqlValue(v Value) string {
	if v.Kind == ValString {
		return "'" + strings.ReplaceAll(v.Text, "'", "''") + "'"
	}
	return formatOperand(v)
}

func planErr(format string, args ...any) error {
	return &PartiQLError{Msg: fmt.Sprintf(format, args...)}
}

// order is whether the Queries read in descending sort-key order, and
// sorts them by their partition key where ORDER BY begins with it. With
// several partitions (IN) it must: they are read one after another, so
// the sort key alone orders each partition, not the whole answer (nor
// does DynamoDB's PartiQL take it).
func (st Statement) order(queries []KeyQuery, pk KeyDef, sk *KeyDef) (bool, error) {
	keys := st.OrderBy
	if len(keys) == 0 {
		return false, nil
	}
	want := "ORDER BY " + pk.Name
	if sk != nil {
		want += ", " + sk.Name + " DESC (or ASC)"
	}
	byPK := isOrderKey(keys[0], pk.Name)
	if byPK {
		keys = keys[1:]
	}
	switch {
	case len(keys) > 1 || len(keys) == 1 && (sk == nil || !isOrderKey(keys[0], sk.Name)):
		return false, planErr("ORDER BY %s: only the keys of the read order it, the partition key first: write %s", formatOrder(st.OrderBy), want)
	case !byPK && len(queries) > 1:
		return false, planErr("ORDER BY %s: with several partition keys the Queries are read one after another, so the sort key alone orders no more than each: write %s", formatOrder(st.OrderBy), want)
	}
	if byPK && len(queries) > 1 {
		desc := st.OrderBy[0].Desc
		slices.SortStableFunc(queries, func(a, b KeyQuery) int {
			if desc {
				return compareKeyValues(b.PK, a.PK)
			}
			return compareKeyValues(a.PK, b.PK)
		})
	}
	return len(keys) == 1 && keys[0].Desc, nil
}

func isOrderKey(k OrderKey, name string) bool {
	return len(k.Path) == 1 && !k.Path[0].IsIdx && k.Path[0].Name == name
}

func formatOrder(keys []OrderKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.Path.String()
		if k.Desc {
			parts[i] += " DESC"
		}
	}
	return strings.Join(parts, ", ")
}

// compareKeyValues orders key values of one type as DynamoDB does:
// numbers by value, strings and binaries by their bytes.
func compareKeyValues(a, b KeyValue) int {
	switch a.Type {
	case TypeN:
		x, _ := new(big.Rat).SetString(a.Text)
		y, _ := new(big.Rat).SetString(b.Text)
		if x != nil && y != nil {
			return x.Cmp(y)
		}
	case TypeB:
		return bytes.Compare(a.Bytes, b.Bytes)
	}
	return strings.Compare(a.Text, b.Text)
}

// sameKey is the identity of a key value: a number by its value (1e3 is
// 1000, as DynamoDB stores it), else its literal.
func sameKey(v KeyValue) string {
	if v.Type == TypeN {
		if r, ok := new(big.Rat).SetString(v.Text); ok {
			return "N" + r.RatString()
		}
	}
	return v.Literal()
}

// conjuncts are the conditions a WHERE's top-level ANDs join.
func conjuncts(n FilterNode) []FilterNode {
	switch x := n.(type) {
	case nil:
		return nil
	case And:
		return append(conjuncts(x.L), conjuncts(x.R)...)
	}
	return []FilterNode{n}
}

func joinAnd(ns []FilterNode) FilterNode {
	var out FilterNode
	for _, n := range ns {
		if out == nil {
			out = n
		} else {
			out = And{out, n}
		}
	}
	return out
}

// isKey reports whether o is the top-level attribute name.
func isKey(o Operand, name string) bool {
	p, ok := o.(Path)
	return ok && len(p) == 1 && !p[0].IsIdx && p[0].Name == name
}

// pinIndex is the first conjunct pinning name by equality, IN, or an
// OR of them (PK = 'a' OR PK = 'b': one Query each, as DynamoDB reads
// it), or -1.
func pinIndex(conj []FilterNode, name string) int {
	for i, c := range conj {
		if pins(c, name) {
			return i
		}
	}
	return -1
}

func pins(c FilterNode, name string) bool {
	switch x := c.(type) {
	case Compare:
		return x.Op == "=" && (isKey(x.L, name) && isValue(x.R) || isKey(x.R, name) && isValue(x.L))
	case In:
		return isKey(x.X, name) && allValues(x.List)
	case Or:
		return pins(x.L, name) && pins(x.R, name)
	}
	return false
}

// pinnedOperands are the values a pinning conjunct names, in order.
func pinnedOperands(c FilterNode, name string) []Operand {
	switch x := c.(type) {
	case Compare:
		if isKey(x.R, name) {
			return []Operand{x.L}
		}
		return []Operand{x.R}
	case In:
		return x.List
	case Or:
		return append(pinnedOperands(x.L, name), pinnedOperands(x.R, name)...)
	}
	return nil
}

func isValue(o Operand) bool {
	_, ok := o.(Value)
	return ok
}

func allValues(os []Operand) bool {
	for _, o := range os {
		if !isValue(o) {
			return false
		}
	}
	return true
}

// branchPins are the partition-key values a WHERE names where each of
// its OR branches pins the key (by equality, IN, or an OR of them),
// nested as deep as they go; ok is false where a branch does not. Of an
// AND, one side's pin is taken: the Queries it makes read a superset of
// the answer, which the whole WHERE, applied as the filter, makes exact.
func branchPins(n FilterNode, pk string) ([]Operand, bool) {
	switch x := n.(type) {
	case Compare, In:
		if pins(n, pk) {
			return pinnedOperands(n, pk), true
		}
	case Or:
		l, okL := branchPins(x.L, pk)
		r, okR := branchPins(x.R, pk)
		return append(l, r...), okL && okR
	case And:
		if l, ok := branchPins(x.L, pk); ok {
			return l, true
		}
		return branchPins(x.R, pk)
	}
	return nil, false
}

// keyQueries are the Queries of a plan: one a partition key value, each
// with the sort-key condition skc, in the order ORDER BY asks.
func (st Statement) keyQueries(values []KeyValue, skc SKCondition, pk KeyDef, sk *KeyDef) ([]KeyQuery, error) {
	var queries []KeyQuery
	for _, v := range values {
		q := KeyQuery{Table: st.Table, Index: st.Index, PKName: pk.Name, PK: v, SK: skc}
		if sk != nil {
			q.SKName = sk.Name
		}
		queries = append(queries, q)
	}
	reverse, err := st.order(queries, pk, sk)
	if err != nil {
		return nil, err
	}
	for i := range queries {
		queries[i].Reverse = reverse
	}
	return queries, nil
}

// maxKeyLookups is the most Queries of one item each a statement that
// pins both keys is read by (lookupPlan); more read their partitions.
const maxKeyLookups = 100

// sortKeyIn is what a WHERE's conjuncts conj beside the pinned partition
// key say of the sort key when that is an IN of literals alone (SK IN
// ['x', 'y']): its values of the key's type, each once, and the other
// conjuncts. A value of another type matches no item (DynamoDB compares
// types first): it is left out and said (dead), as an IN on the
// partition key leaves one out; an IN of nothing else matches nothing,
// and is refused as SK = 3 is; a literal for a binary key is refused as
// SK = 'x' is. ok is false where there is no such IN, or another
// conjunct names a key.
func sortKeyIn(conj []FilterNode, pk KeyDef, sk *KeyDef) (keys []KeyValue, rest []FilterNode, dead []NoMatch, ok bool, err error) {
	if sk == nil {
		return nil, conj, nil, false, nil
	}
	found := false
	for _, c := range conj {
		if x, isIn := c.(In); isIn && !found && isKey(x.X, sk.Name) && allValues(x.List) {
			found = true
			for _, o := range x.List {
				v := o.(Value)
				if otherType(v, *sk) {
					dead = append(dead, NoMatch{Key: *sk, Value: v})
					continue
				}
				k, err := keyValue(v, *sk)
				if err != nil {
					return nil, conj, nil, false, err
				}
				if !slices.ContainsFunc(keys, func(e KeyValue) bool { return compareKeyValues(e, k) == 0 }) {
					keys = append(keys, k)
				}
			}
			continue
		}
		if keyIn(c, pk, sk) != "" {
			return nil, conj, nil, false, nil
		}
		rest = append(rest, c)
	}
	if found && len(keys) == 0 {
		return nil, conj, nil, false, &NoMatchError{NoMatch: dead}
	}
	return keys, rest, dead, found, nil
}

// lookupPlan is one Query a key of a WHERE that pins both keys, the sort
// key by IN (PK = 'a' AND SK IN ['x', 'y']): each reads its item, where
// the partition's Query, the IN applied to what it read, read all of it
// (87.5 RCU for two items of a partition of 50). The keys of a partition
// are read in the order ORDER BY asks, in the key's order without one.
func (st Statement) lookupPlan(plan Plan, values, keys []KeyValue, rest []FilterNode, pk KeyDef, sk *KeyDef) (Plan, error) {
	partitions, err := st.keyQueries(values, SKCondition{}, pk, sk)
	if err != nil {
		return plan, err
	}
	reverse := len(partitions) > 0 && partitions[0].Reverse
	keys = slices.Clone(keys)
	slices.SortFunc(keys, func(a, b KeyValue) int {
		if reverse {
			return compareKeyValues(b, a)
		}
		return compareKeyValues(a, b)
	})
	for _, q := range partitions {
		for _, k := range keys {
			q.SK = SKCondition{Op: SKEq, A: k}
			plan.Queries = append(plan.Queries, q)
		}
	}
	plan.Filter = joinAnd(rest)
	return plan, inWithinLimit(plan.Filter)
}

// branchPlan is one Query a value of ops, filtered by the whole WHERE. A
// value that one OR branch alone pins takes that branch's sort-key
// condition into its Query's key condition ((PK = 'a' AND SK = 'x') OR
// PK = 'b': a's Query reads SK = 'x' alone, not the whole partition): no
// item of its partition matches the WHERE but through that branch.
func (st Statement) branchPlan(plan Plan, ops []Operand, pk KeyDef, sk *KeyDef) (Plan, error) {
	values, err := pinValues(ops, pk)
	if err != nil {
		return plan, err
	}
	queries, err := st.keyQueries(values, SKCondition{}, pk, sk)
	if err != nil {
		return plan, err
	}
	conds := branchKeyConditions(st.Where, pk, sk)
	for i := range queries {
		queries[i].SK = conds[sameKey(queries[i].PK)]
	}
	plan.Queries, plan.Filter, plan.FilterNamesKeys = queries, st.Where, true
	return plan, inWithinLimit(plan.Filter)
}

// branchKeyConditions are, by partition-key value (sameKey), the
// sort-key condition of the one OR branch of where that pins the value,
// where one alone does and its top-level ANDs say one a Query can take.
// A branch may match only items of the partitions it pins (branchPins
// names a superset of them), and only those its own conditions select:
// so the items of such a partition that match where are within its key
// condition. A value pinned by two branches gets none (their conditions
// may differ).
func branchKeyConditions(where FilterNode, pk KeyDef, sk *KeyDef) map[string]SKCondition {
	branches := map[string]int{}
	conds := map[string]SKCondition{}
	for _, b := range orBranches(where) {
		ops, ok := branchPins(b, pk.Name)
		if !ok {
			continue
		}
		var cond SKCondition
		conj := conjuncts(b)
		if at := pinIndex(conj, pk.Name); at >= 0 {
			rest := append(append([]FilterNode(nil), conj[:at]...), conj[at+1:]...)
			if c, _, ok, err := sortKeyCondition(rest, sk); ok && err == nil {
				cond = c
			}
		}
		seen := map[string]bool{}
		for _, o := range ops {
			v, err := keyValue(o.(Value), pk)
			if err != nil || seen[sameKey(v)] {
				continue
			}
			seen[sameKey(v)] = true
			branches[sameKey(v)]++
			conds[sameKey(v)] = cond
		}
	}
	for v, n := range branches {
		if n > 1 {
			delete(conds, v)
		}
	}
	return conds
}

// sameCondition says two sort-key conditions select the same keys as
// written.
func sameCondition(a, b SKCondition) bool {
	return a.Op == b.Op && a.A.Literal() == b.A.Literal() && a.B.Literal() == b.B.Literal()
}

// orBranches are the conditions a WHERE's top-level ORs join.
func orBranches(n FilterNode) []FilterNode {
	if x, ok := n.(Or); ok {
		return append(orBranches(x.L), orBranches(x.R)...)
	}
	return []FilterNode{n}
}

// pinValues are the key values of a pin's operands, each once, typed by
// the key.
func pinValues(ops []Operand, pk KeyDef) ([]KeyValue, error) {
	var out []KeyValue
	seen := map[string]bool{}
	for _, o := range ops {
		v, err := keyValue(o.(Value), pk)
		if err != nil {
			return nil, err
		}
		if v.Type == TypeS && v.Text == "" {
			return nil, planErr("%s = '': a partition key is never empty, and DynamoDB refuses a Query for one: write the key's value", partiqlName(pk.Name))
		}
		if !seen[sameKey(v)] {
			seen[sameKey(v)] = true
			out = append(out, v)
		}
	}
	return out, nil
}

// keyValue types a literal by its key: a string for S, a number for N.
func keyValue(v Value, k KeyDef) (KeyValue, error) {
	switch {
	case k.Type == TypeS && v.Kind == ValString:
		return S(v.Text), nil
	case k.Type == TypeN && v.Kind == ValNumber:
		return ParseKeyValue(TypeN, v.Text)
	case k.Type == TypeN:
		return KeyValue{}, planErr("%s is a number key: write %s = 123, without quotes", NameText(k.Name), partiqlName(k.Name))
	case k.Type == TypeS:
		return KeyValue{}, planErr("%s is a string key: write %s = 'text', in single quotes", NameText(k.Name), partiqlName(k.Name))
	}
	return KeyValue{}, planErr("%s is a binary key, which a PartiQL literal here cannot name: leave it out of WHERE to scan, or use dynascope items --pk b64:…", NameText(k.Name))
}

// sortKeyCondition takes the conjuncts on the sort key out of conj as
// one key condition: one comparison, BETWEEN or begins_with, or a lower
// and an upper bound (>= and <=) joined as BETWEEN; ok is false when
// they are more than one condition can say.
func sortKeyCondition(conj []FilterNode, sk *KeyDef) (SKCondition, []FilterNode, bool, error) {
	if sk == nil {
		return SKCondition{}, conj, true, nil
	}
	var conds []SKCondition
	var rest []FilterNode
	for _, c := range conj {
		cond, ok, err := skCondition(c, *sk)
		if err != nil {
			return SKCondition{}, nil, false, err
		}
		if ok {
			conds = append(conds, cond)
		} else {
			rest = append(rest, c)
		}
	}
	switch {
	case len(conds) == 0:
		return SKCondition{}, rest, true, nil
	case len(conds) == 1:
		return conds[0], rest, true, nil
	case len(conds) == 2 && conds[0].Op == SKGe && conds[1].Op == SKLe:
		return SKCondition{Op: SKBetween, A: conds[0].A, B: conds[1].A}, rest, true, nil
	case len(conds) == 2 && conds[0].Op == SKLe && conds[1].Op == SKGe:
		return SKCondition{Op: SKBetween, A: conds[1].A, B: conds[0].A}, rest, true, nil
	}
	// More than one key condition can say: the narrowest one of them is
	// taken (an equality; else a lower and an upper bound as BETWEEN), and
	// the whole WHERE is applied to the items read (one false), so that
	// SK > 'a' AND SK < 'b' reads the stretch between, not the partition.
	return narrowest(conds), nil, false, nil
}

// narrowest is the key condition of conds (two or more, all true of
// every match) that reads the least: an equality; else the greatest
// lower bound and the least upper bound read as BETWEEN, when both are
// there and in order (their own < or > applied here); else a
// begins_with; else one bound (reversed bounds match nothing: the lower).
func narrowest(conds []SKCondition) SKCondition {
	var lo, hi *SKCondition
	for i, c := range conds {
		switch c.Op {
		case SKEq:
			return c
		case SKGt, SKGe:
			if lo == nil || compareKeyValues(c.A, lo.A) > 0 {
				lo = &conds[i]
			}
		case SKLt, SKLe:
			if hi == nil || compareKeyValues(c.A, hi.A) < 0 {
				hi = &conds[i]
			}
		}
	}
	if lo != nil && hi != nil && compareKeyValues(lo.A, hi.A) <= 0 {
		return SKCondition{Op: SKBetween, A: lo.A, B: hi.A}
	}
	for _, c := range conds {
		if c.Op == SKBeginsWith {
			return c
		}
	}
	switch {
	case lo != nil:
		return *lo
	case hi != nil:
		return *hi
	}
	return conds[0]
}

var skOps = map[string]SKOp{"=": SKEq, "<": SKLt, "<=": SKLe, ">": SKGt, ">=": SKGe}

var flippedOp = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

// skCondition reads c as a sort-key condition (ok), or reports it is none.
func skCondition(c FilterNode, sk KeyDef) (SKCondition, bool, error) {
	switch x := c.(type) {
	case Compare:
		op, v := x.Op, x.R
		if isKey(x.R, sk.Name) && isValue(x.L) {
			op, v = flippedOp[x.Op], x.L
		} else if !isKey(x.L, sk.Name) || !isValue(x.R) {
			return SKCondition{}, false, nil
		}
		skop, ok := skOps[op]
		if !ok {
			return SKCondition{}, false, nil // <> stays a condition on the key, refused as such
		}
		if lit := v.(Value); otherType(lit, sk) {
			// Beside the pinned partition key, no item matches (a Scan
			// of the table would read it all to find none).
			return SKCondition{}, false, &NoMatchError{NoMatch: []NoMatch{{Key: sk, Value: lit, Op: op}}}
		}
		a, err := keyValue(v.(Value), sk)
		return SKCondition{Op: skop, A: a}, err == nil, err
	case Between:
		if !isKey(x.X, sk.Name) || !isValue(x.Lo) || !isValue(x.Hi) {
			return SKCondition{}, false, nil
		}
		a, err := keyValue(x.Lo.(Value), sk)
		if err != nil {
			return SKCondition{}, false, err
		}
		b, err := keyValue(x.Hi.(Value), sk)
		return SKCondition{Op: SKBetween, A: a, B: b}, err == nil, err
	case Func:
		if x.Name != "begins_with" || len(x.Path) != 1 || x.Path[0].Name != sk.Name || x.Path[0].IsIdx || sk.Type != TypeS {
			return SKCondition{}, false, nil
		}
		v, ok := x.Arg.(Value)
		if !ok || v.Kind != ValString {
			return SKCondition{}, false, nil
		}
		return SKCondition{Op: SKBeginsWith, A: S(v.Text)}, true, nil
	}
	return SKCondition{}, false, nil
}

// keyIn names a key attribute c reads, "" when it reads none.
func keyIn(c FilterNode, pk KeyDef, sk *KeyDef) string {
	names := []string{pk.Name}
	if sk != nil {
		names = append(names, sk.Name)
	}
	found := ""
	walkPaths(c, func(p Path) {
		for _, n := range names {
			if found == "" && len(p) > 0 && !p[0].IsIdx && p[0].Name == n {
				found = n
			}
		}
	})
	return found
}

// walkPaths calls f with every attribute path n reads.
func walkPaths(n FilterNode, f func(Path)) {
	op := func(o Operand) {
		switch x := o.(type) {
		case Path:
			f(x)
		case Size:
			f(x.Path)
		}
	}
	walkNodes(n, func(n FilterNode) {
		switch x := n.(type) {
		case Compare:
			op(x.L)
			op(x.R)
		case Between:
			op(x.X)
			op(x.Lo)
			op(x.Hi)
		case In:
			op(x.X)
			for _, o := range x.List {
				op(o)
			}
		case Func:
			f(x.Path)
			if x.Arg != nil {
				op(x.Arg)
			}
		}
	})
}
