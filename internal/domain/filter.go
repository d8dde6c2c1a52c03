package domain

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A filter is DynamoDB's condition syntax with values written inline:
//
//	status = "FAILED"
//	attempts > 3 and not attribute_exists(resolvedAt)
//	begins_with(email, "ops@") or contains(tags, "urgent")
//	size(payload) > 1000
//	order.items[0].sku in ("A", "B")
//	`odd name` between 1 and 5
//
// ParseFilter reads it into a tree; the data layer compiles the tree with
// the SDK's expression builder into placeholders (never text pasted into an
// expression).

// FilterNode is a condition: And, Or, Not, Compare, Between, In or Func.
type FilterNode interface{ filterNode() }

// Operand is a Path, a Value or a Size.
type Operand interface{ operand() }

// PathPart is one step of a path: a name, or a list index.
type PathPart struct {
	Name  string
	Index int
	IsIdx bool
}

// Path is an attribute path such as order.items[0].sku.
type Path []PathPart

// ProjectedPaths are the paths a ProjectionExpression names for paths:
// none empty, none under another or repeating an earlier one (DynamoDB
// refuses overlapping paths).
func ProjectedPaths(paths []Path) []Path {
	var out []Path
	for i, p := range paths {
		if len(p) > 0 && !coveredPath(i, paths) {
			out = append(out, p)
		}
	}
	return out
}

// coveredPath reports whether paths[i] lies under another of paths, or
// repeats an earlier one.
func coveredPath(i int, paths []Path) bool {
	p := paths[i]
	for j, o := range paths {
		if j == i || len(o) > len(p) || !slices.Equal(o, p[:len(o)]) {
			continue
		}
		if len(o) < len(p) || j < i {
			return true
		}
	}
	return false
}

// String writes the path as typed (odd names in backticks).
func (p Path) String() string {
	return p.Written(func(name string) string {
		if plainName(name) {
			return name
		}
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	})
}

// NameText is an attribute name as prose and the filter syntax write it:
// bare where it is a plain identifier, else in backticks (`g s`), as a
// key condition is written by partiql --explain, the request line and
// every message that names a key.
func NameText(name string) string { return Path{{Name: name}}.String() }

// Written writes the path with each name as name writes it (quoted, or
// a placeholder), its indexes as [n], its parts joined by dots.
func (p Path) Written(name func(string) string) string {
	var b strings.Builder
	for i, part := range p {
		if part.IsIdx {
			fmt.Fprintf(&b, "[%d]", part.Index)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(name(part.Name))
	}
	return b.String()
}

// ValueKind is a literal's type.
type ValueKind int

const (
	ValString ValueKind = iota
	ValNumber
	ValBool
	ValNull
)

// Value is a literal: a string, a number (its text, exact), true, false or null.
type Value struct {
	Kind ValueKind
	Text string // the string, or the number as written
	Bool bool
}

// Size is size(path).
type Size struct{ Path Path }

func (Path) operand()  {}
func (Value) operand() {}
func (Size) operand()  {}

// And, Or and Not combine conditions.
type (
	And struct{ L, R FilterNode }
	Or  struct{ L, R FilterNode }
	Not struct{ X FilterNode }
)

// Compare is L op R, op one of = <> < <= > >=.
type Compare struct {
	Op   string
	L, R Operand
}

// Between is X between Lo and Hi.
type Between struct{ X, Lo, Hi Operand }

// In is X in (list…).
type In struct {
	X    Operand
	List []Operand
}

// Func is attribute_exists(p), attribute_not_exists(p), attribute_type(p, "S"),
// begins_with(p, "x") or contains(p, v).
type Func struct {
	Name string
	Path Path
	Arg  Operand // nil for attribute_exists and attribute_not_exists
}

func (And) filterNode()     {}
func (Or) filterNode()      {}
func (Not) filterNode()     {}
func (Compare) filterNode() {}
func (Between) filterNode() {}
func (In) filterNode()      {}
func (Func) filterNode()    {}

// FilterError is a syntax error at a column (1-based, in characters).
type FilterError struct {
	Col int
	Msg string
}

func (e *FilterError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// maxFilterDepth bounds nesting, so hostile input cannot exhaust the stack.
const maxFilterDepth = 64

// ParseFilter reads a filter; errors are *FilterError with the column.
func ParseFilter(s string) (FilterNode, error) {
	p := &filterParser{src: s}
	p.next()
	if p.tok.kind == tokEOF {
		return nil, p.errAt(p.tok, "empty filter: write a condition such as status = \"FAILED\"")
	}
	n, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if err := p.bad(); err != nil {
		return nil, err
	}
	if p.tok.kind != tokEOF {
		return nil, p.errAt(p.tok, fmt.Sprintf("unexpected %s: join conditions with and / or", p.found()))
	}
	return n, nil
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokIdent
	tokQuoted // `odd name`
	tokString
	tokNumber
	tokOp // = <> < <= > >=
	tokPunct
	tokBad
)

type ftoken struct {
	kind tokKind
	text string
	pos  int // byte offset
}

func (t ftoken) desc() string {
	switch t.kind {
	case tokEOF:
		return "end of filter"
	case tokString:
		return strconv.Quote(t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// found names the token an error met, in the words of what is parsed: a
// statement's WHERE ends with the statement, not with a filter.
func (p *filterParser) found() string {
	if p.tok.kind == tokEOF && p.partiql {
		return "end of statement"
	}
	return p.tok.desc()
}

type filterParser struct {
	src string
	pos int
	tok ftoken
	// partiql: the WHERE clause of a PartiQL statement (partiql.go), whose
	// quotes differ: 'string', "name".
	partiql bool
}

func (p *filterParser) errAt(t ftoken, msg string) error {
	return &FilterError{Col: utf8.RuneCountInString(p.src[:t.pos]) + 1, Msg: msg}
}

func (p *filterParser) next() {
	p.skipSpace()
	if p.pos >= len(p.src) {
		p.tok = ftoken{kind: tokEOF, pos: p.pos}
		return
	}
	c := p.src[p.pos]
	switch {
	case p.partiql && (strings.HasPrefix(p.src[p.pos:], "--") || strings.HasPrefix(p.src[p.pos:], "/*")):
		// A comment could hide what follows it from whoever reads the
		// statement (a second one after it): none is read past.
		p.tok = ftoken{kind: tokBad, text: "comments (-- or /* */) are not supported: remove the comment and run the SELECT alone", pos: p.pos}
		p.pos = len(p.src)
	case c == p.stringQuote():
		p.lexString()
	case c == p.nameQuote():
		p.lexQuotedName()
	case c == '-' || c >= '0' && c <= '9' || (c == '+' || c == '.') && p.pos+1 < len(p.src) && p.src[p.pos+1] >= '0' && p.src[p.pos+1] <= '9':
		p.lexNumber()
	case p.lexOperator():
	case strings.IndexByte(p.punctuation(), c) >= 0:
		p.tok = ftoken{kind: tokPunct, text: string(c), pos: p.pos}
		p.pos++
	default:
		p.lexIdent()
	}
}

func (p *filterParser) skipSpace() {
	for p.pos < len(p.src) {
		r, n := utf8.DecodeRuneInString(p.src[p.pos:])
		if !unicode.IsSpace(r) {
			return
		}
		p.pos += n
	}
}

// The filter writes strings in double quotes and odd names in backticks;
// PartiQL writes strings in single quotes and names in double quotes.
func (p *filterParser) stringQuote() byte {
	if p.partiql {
		return '\''
	}
	return '"'
}

func (p *filterParser) nameQuote() byte {
	if p.partiql {
		return '"'
	}
	return '`'
}

func (p *filterParser) punctuation() string {
	if p.partiql {
		return "(),.[]*;"
	}
	return "(),.[]"
}

// lexString reads a string: the filter's with backslash escapes,
// PartiQL's with a doubled quote for a quote.
func (p *filterParser) lexString() {
	start, q := p.pos, p.stringQuote()
	var b strings.Builder
	i := p.pos + 1
	for ; i < len(p.src); i++ {
		c := p.src[i]
		switch {
		case c == q && p.partiql && i+1 < len(p.src) && p.src[i+1] == q:
			b.WriteByte(q)
			i++
			continue
		case c == q:
		case c == '\\' && !p.partiql && i+1 < len(p.src):
			n, err := unescapeInto(&b, p.src[i+1:])
			if err != nil {
				p.tok = ftoken{kind: tokBad, text: err.Error(), pos: i}
				p.pos = len(p.src)
				return
			}
			i += n
			continue
		default:
			b.WriteByte(c)
			continue
		}
		break
	}
	if i >= len(p.src) {
		p.tok = ftoken{kind: tokBad, text: fmt.Sprintf("unterminated string: close it with %c", q), pos: start}
		p.pos = len(p.src)
		return
	}
	p.tok = ftoken{kind: tokString, text: b.String(), pos: start}
	p.pos = i + 1
}

// unescapeInto writes the character the escape after a backslash stands
// for, and says how many bytes of rest it took. Besides \n, \t, \r and a
// quote or backslash taken as itself, it reads the escapes every screen
// and output shows a key's control and invisible characters with
// (\x1b, \u200b, \U0001f4a9: export.Sanitize), so a key is found by
// the text shown for it.
func unescapeInto(b *strings.Builder, rest string) (int, error) {
	digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[rest[0]]
	if digits == 0 {
		c, ok := map[byte]byte{'n': '\n', 't': '\t', 'r': '\r'}[rest[0]]
		if !ok {
			c = rest[0]
		}
		b.WriteByte(c)
		return 1, nil
	}
	hex := rest[1:min(len(rest), 1+digits)]
	v, err := strconv.ParseUint(hex, 16, 32)
	if len(hex) == digits && err == nil && rest[0] != 'x' && !utf8.ValidRune(rune(v)) {
		return 0, fmt.Errorf(`\%c%s is no character: Unicode runs to \U0010ffff, less the surrogates \ud800–\udfff`, rest[0], hex)
	}
	if len(hex) < digits || err != nil {
		return 0, fmt.Errorf(`\%c takes %d hex digits (%s): write \\ for a backslash itself`, rest[0], digits, map[byte]string{'x': `\x1b`, 'u': `\u200b`, 'U': `\U0001f4a9`}[rest[0]])
	}
	if rest[0] == 'x' {
		b.WriteByte(byte(v)) // a byte, as Sanitize writes a control or a byte of invalid UTF-8
	} else {
		b.WriteRune(rune(v))
	}
	return 1 + digits, nil
}

// lexQuotedName reads a name in quotes (a doubled quote is a quote).
func (p *filterParser) lexQuotedName() {
	start, q := p.pos, p.nameQuote()
	var b strings.Builder
	i := p.pos + 1
	for {
		if i >= len(p.src) {
			p.tok = ftoken{kind: tokBad, text: fmt.Sprintf("unterminated name: close it with %c", q), pos: start}
			p.pos = len(p.src)
			return
		}
		if p.src[i] == q {
			if i+1 < len(p.src) && p.src[i+1] == q {
				b.WriteByte(q)
				i += 2
				continue
			}
			break
		}
		b.WriteByte(p.src[i])
		i++
	}
	p.pos = i + 1
	if b.Len() == 0 {
		what := "backticks"
		if p.partiql {
			what = "double quotes"
		}
		p.tok = ftoken{kind: tokBad, text: "empty name between " + what, pos: start}
		return
	}
	p.tok = ftoken{kind: tokQuoted, text: b.String(), pos: start}
}

func (p *filterParser) lexNumber() {
	i := p.pos + 1
	for i < len(p.src) && (p.src[i] >= '0' && p.src[i] <= '9' || strings.IndexByte(".eE+-", p.src[i]) >= 0) {
		if (p.src[i] == '+' || p.src[i] == '-') && p.src[i-1] != 'e' && p.src[i-1] != 'E' {
			break
		}
		i++
	}
	// +7, .5 and -.5 are numbers as SQL writes them; DynamoDB takes
	// them as 7, 0.5 and -0.5.
	text := strings.TrimPrefix(p.src[p.pos:i], "+")
	if rest, neg := strings.CutPrefix(text, "-"); strings.HasPrefix(rest, ".") {
		text = "0" + rest
		if neg {
			text = "-" + text
		}
	}
	p.tok = ftoken{kind: tokNumber, text: text, pos: p.pos}
	p.pos = i
}

// lexOperator reads a comparison operator, if one is next (PartiQL also
// writes <> as !=).
func (p *filterParser) lexOperator() bool {
	rest := p.src[p.pos:]
	if p.partiql && strings.HasPrefix(rest, "<<") {
		p.tok = ftoken{kind: tokBad, text: "sets (<< >>) are not supported as values: use contains(attr, 'a'), or IN ['a', 'b'] for one of several", pos: p.pos}
		p.pos = len(p.src)
		return true
	}
	for _, op := range []string{"<>", "<=", ">=", "!=", "=", "<", ">"} {
		if !strings.HasPrefix(rest, op) || op == "!=" && !p.partiql {
			continue
		}
		text := op
		if op == "!=" {
			text = "<>"
		}
		p.tok = ftoken{kind: tokOp, text: text, pos: p.pos}
		p.pos += len(op)
		return true
	}
	return false
}

func (p *filterParser) lexIdent() {
	start, i := p.pos, p.pos
	for i < len(p.src) {
		r, n := utf8.DecodeRuneInString(p.src[i:])
		if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			break
		}
		i += n
	}
	if i == p.pos {
		r, n := utf8.DecodeRuneInString(p.src[p.pos:])
		hint := "names with such characters go in backticks"
		switch {
		case p.partiql && r == '?':
			hint = "parameters are not supported: write the value inline, 'text' or 123"
		case p.partiql && r == '{':
			hint = "maps are not supported as values: compare one attribute, a.b = 'x'"
		case p.partiql && r == '+':
			hint = "arithmetic is not supported: compare the attribute itself with a value, n > 3"
		case p.partiql:
			hint = "names with such characters go in double quotes"
		case r == '\'':
			// SQL's and PartiQL's string quote, which people bring here.
			hint = `strings go in double quotes here: "text" ('text' is PartiQL's)`
		}
		what := fmt.Sprintf("%q", r)
		if r == '\'' && !p.partiql {
			what = "single quote" // '\'' is Go's way to write it, not the user's
		}
		p.tok = ftoken{kind: tokBad, text: fmt.Sprintf("unexpected %s: %s", what, hint), pos: start}
		p.pos += n
		return
	}
	p.tok = ftoken{kind: tokIdent, text: p.src[p.pos:i], pos: start}
	p.pos = i
}

func (p *filterParser) keyword(w string) bool {
	return p.tok.kind == tokIdent && strings.EqualFold(p.tok.text, w)
}

func (p *filterParser) bad() error {
	if p.tok.kind == tokBad {
		return p.errAt(p.tok, p.tok.text)
	}
	return nil
}

func (p *filterParser) or(depth int) (FilterNode, error) {
	l, err := p.and(depth)
	if err != nil {
		return nil, err
	}
	for p.keyword("or") {
		p.next()
		r, err := p.and(depth)
		if err != nil {
			return nil, err
		}
		l = Or{l, r}
	}
	return l, nil
}

func (p *filterParser) and(depth int) (FilterNode, error) {
	l, err := p.not(depth)
	if err != nil {
		return nil, err
	}
	for p.keyword("and") {
		p.next()
		r, err := p.not(depth)
		if err != nil {
			return nil, err
		}
		l = And{l, r}
	}
	return l, nil
}

func (p *filterParser) not(depth int) (FilterNode, error) {
	if depth > maxFilterDepth {
		return nil, p.errAt(p.tok, "nested too deep")
	}
	if p.keyword("not") {
		p.next()
		x, err := p.not(depth + 1)
		if err != nil {
			return nil, err
		}
		return Not{x}, nil
	}
	return p.primary(depth)
}

var filterFuncs = map[string]int{"attribute_exists": 1, "attribute_not_exists": 1, "attribute_type": 2, "begins_with": 2, "contains": 2}

func (p *filterParser) primary(depth int) (FilterNode, error) {
	if err := p.bad(); err != nil {
		return nil, err
	}
	if p.tok.kind == tokPunct && p.tok.text == "(" {
		p.next()
		n, err := p.or(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.expect(")", "close the parenthesis"); err != nil {
			return nil, err
		}
		return n, nil
	}
	if p.tok.kind == tokIdent {
		if arity, ok := filterFuncs[strings.ToLower(p.tok.text)]; ok {
			return p.function(strings.ToLower(p.tok.text), arity)
		}
	}
	at := p.tok
	x, err := p.operand()
	if err != nil {
		return nil, err
	}
	if p.tok.kind == tokPunct && p.tok.text == "(" && at.kind == tokIdent {
		return nil, p.errAt(at, p.unknownFunction(at.text))
	}
	switch {
	case p.tok.kind == tokOp:
		op := p.tok.text
		p.next()
		r, err := p.operand()
		if err != nil {
			return nil, err
		}
		return Compare{op, x, r}, nil
	case p.keyword("between"):
		return p.between(x)
	case p.keyword("in"):
		return p.inList(x)
	case p.partiql && p.keyword("is"):
		return p.isMissing(x)
	case p.keyword("not"):
		// SQL's x NOT IN (…) and x NOT BETWEEN a AND b: NOT x IN (…),
		// NOT x BETWEEN a AND b.
		save := *p
		p.next()
		var n FilterNode
		switch {
		case p.keyword("in"):
			n, err = p.inList(x)
		case p.keyword("between"):
			n, err = p.between(x)
		default:
			*p = save
			q := string(p.stringQuote())
			return nil, p.errAt(p.tok, fmt.Sprintf("NOT goes before the condition: NOT %s = %sx%s (after %s only NOT IN and NOT BETWEEN)", describeOperand(x), q, q, describeOperand(x)))
		}
		if err != nil {
			return nil, err
		}
		return Not{n}, nil
	case p.keyword("like"):
		q := string(p.stringQuote())
		return nil, p.errAt(p.tok, fmt.Sprintf("LIKE is not supported: begins_with(%s, %sabc%s) for a prefix, contains(%s, %sabc%s) for a part", describeOperand(x), q, q, describeOperand(x), q, q))
	}
	if err := p.bad(); err != nil {
		return nil, err // what the character is, not that it is no comparison
	}
	return nil, p.errAt(p.tok, fmt.Sprintf("expected a comparison (= <> < <= > >=, between, in) after %s, found %s", describeOperand(x), p.found()))
}

// unknownFunction says that name( calls no function DynamoDB has, and
// which it has: upper(name) = 'x' had read as the attribute upper followed
// by a stray parenthesis.
func (p *filterParser) unknownFunction(name string) string {
	if p.partiql {
		return fmt.Sprintf("%s is not a function DynamoDB's PartiQL has in WHERE: write begins_with, contains, attribute_exists, attribute_not_exists, attribute_type, size, or x IS [NOT] MISSING", name)
	}
	return fmt.Sprintf("%s is not a function of DynamoDB's condition syntax: write begins_with, contains, attribute_exists, attribute_not_exists, attribute_type or size", name)
}

// between reads x between lo and hi.
func (p *filterParser) between(x Operand) (FilterNode, error) {
	p.next()
	lo, err := p.operand()
	if err != nil {
		return nil, err
	}
	if !p.keyword("and") {
		return nil, p.errAt(p.tok, "between needs and: x between 1 and 5")
	}
	p.next()
	hi, err := p.operand()
	if err != nil {
		return nil, err
	}
	return Between{x, lo, hi}, nil
}

// inList reads x in ("a", "b"); PartiQL also writes the list in brackets.
func (p *filterParser) inList(x Operand) (FilterNode, error) {
	p.next()
	closing := ")"
	if p.partiql && p.tok.kind == tokPunct && p.tok.text == "[" {
		closing = "]"
		p.next()
	} else if err := p.expect("(", `in needs a list: x in ("a", "b")`); err != nil {
		return nil, err
	}
	var list []Operand
	for {
		v, err := p.operand()
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		if p.tok.kind == tokPunct && p.tok.text == "," {
			p.next()
			continue
		}
		break
	}
	if err := p.expect(closing, "close the list"); err != nil {
		return nil, err
	}
	return In{x, list}, nil
}

// isMissing reads PartiQL's x IS [NOT] MISSING and x IS [NOT] NULL.
// DynamoDB's IS is "TRUE if the operand is a given PartiQL data type,
// including NULL or MISSING" (the PartiQL operators page of its
// developer guide): NULL is a type an attribute has, MISSING is no
// attribute, and they are distinct. So x IS NULL is
// attribute_type(x, 'NULL'), false where x is absent, and x IS NOT NULL
// is its negation, true where x is absent; IS MISSING is
// attribute_not_exists(x), IS NOT MISSING attribute_exists(x).
func (p *filterParser) isMissing(x Operand) (FilterNode, error) {
	at := p.tok
	p.next()
	not := p.keyword("not")
	if not {
		p.next()
	}
	path, ok := x.(Path)
	null := p.keyword("null")
	switch {
	case !null && !p.keyword("missing"):
		return nil, p.errAt(p.tok, fmt.Sprintf("expected MISSING or NULL after IS, found %s: write x IS [NOT] MISSING or x IS [NOT] NULL", p.found()))
	case !ok && null:
		return nil, p.errAt(at, "IS NULL takes an attribute: x IS NULL")
	case !ok:
		return nil, p.errAt(at, "IS MISSING takes an attribute: x IS MISSING")
	}
	p.next()
	switch {
	case null && not:
		return Not{Func{Name: "attribute_type", Path: path, Arg: Value{Kind: ValString, Text: "NULL"}}}, nil
	case null:
		return Func{Name: "attribute_type", Path: path, Arg: Value{Kind: ValString, Text: "NULL"}}, nil
	case not:
		return Func{Name: "attribute_exists", Path: path}, nil
	}
	return Func{Name: "attribute_not_exists", Path: path}, nil
}

func describeOperand(o Operand) string {
	if _, ok := o.(Value); ok {
		return "a value"
	}
	return formatOperand(o)
}

func (p *filterParser) expect(punct, hint string) error {
	if err := p.bad(); err != nil {
		return err
	}
	if p.tok.kind != tokPunct || p.tok.text != punct {
		return p.errAt(p.tok, fmt.Sprintf("expected %q, found %s: %s", punct, p.found(), hint))
	}
	p.next()
	return nil
}

func (p *filterParser) function(name string, arity int) (FilterNode, error) {
	p.next()
	if err := p.expect("(", name+" takes its arguments in parentheses"); err != nil {
		return nil, err
	}
	path, err := p.path()
	if err != nil {
		return nil, err
	}
	f := Func{Name: name, Path: path}
	if arity == 2 {
		if err := p.expect(",", name+" takes two arguments"); err != nil {
			return nil, err
		}
		if f.Arg, err = p.operand(); err != nil {
			return nil, err
		}
	}
	if err := p.expect(")", "close "+name+"(…)"); err != nil {
		return nil, err
	}
	return f, nil
}

func (p *filterParser) operand() (Operand, error) {
	if err := p.bad(); err != nil {
		return nil, err
	}
	switch {
	case p.tok.kind == tokString:
		v := Value{Kind: ValString, Text: p.tok.text}
		p.next()
		return v, nil
	case p.tok.kind == tokNumber:
		if _, err := ParseKeyValue(TypeN, p.tok.text); err != nil {
			return nil, p.errAt(p.tok, fmt.Sprintf("%q is not a number", p.tok.text))
		}
		v := Value{Kind: ValNumber, Text: p.tok.text}
		p.next()
		return v, nil
	case p.keyword("true"), p.keyword("false"):
		v := Value{Kind: ValBool, Bool: strings.EqualFold(p.tok.text, "true")}
		p.next()
		return v, nil
	case p.keyword("null"):
		p.next()
		return Value{Kind: ValNull}, nil
	case p.keyword("size"):
		save := *p
		p.next()
		if p.tok.kind == tokPunct && p.tok.text == "(" {
			p.next()
			path, err := p.path()
			if err != nil {
				return nil, err
			}
			if err := p.expect(")", "close size(…)"); err != nil {
				return nil, err
			}
			return Size{path}, nil
		}
		*p = save // an attribute called size
	}
	if p.tok.kind != tokIdent && p.tok.kind != tokQuoted {
		if err := p.bad(); err != nil {
			return nil, err
		}
		// Short, so that the filter bar's caret line keeps it.
		return nil, p.errAt(p.tok, "expected a value or a name, found "+p.found())
	}
	return p.path()
}

func (p *filterParser) path() (Path, error) {
	if err := p.bad(); err != nil {
		return nil, err
	}
	var path Path
	name := func() error {
		switch p.tok.kind {
		case tokIdent, tokQuoted:
			path = append(path, PathPart{Name: p.tok.text})
			p.next()
			return nil
		}
		if err := p.bad(); err != nil {
			return err
		}
		return p.errAt(p.tok, fmt.Sprintf("expected an attribute name, found %s", p.found()))
	}
	if err := name(); err != nil {
		return nil, err
	}
	for p.tok.kind == tokPunct && (p.tok.text == "." || p.tok.text == "[") {
		if p.tok.text == "." {
			p.next()
			if err := name(); err != nil {
				return nil, err
			}
			continue
		}
		p.next()
		if p.tok.kind == tokString {
			// a['b'], as PartiQL's own reference and JSONPath write a
			// map's key: DynamoDB's paths name it after a dot.
			keyed := append(slices.Clone(path), PathPart{Name: p.tok.text})
			written := keyed.String()
			if p.partiql {
				written = partiqlPath(keyed)
			}
			return nil, p.errAt(p.tok, "a map's key goes after a dot, not in brackets: "+written)
		}
		if p.tok.kind != tokNumber {
			return nil, p.errAt(p.tok, "a list index is a whole number: items[0]")
		}
		i, err := strconv.Atoi(p.tok.text)
		if err != nil || i < 0 {
			return nil, p.errAt(p.tok, "a list index is a whole number: items[0]")
		}
		path = append(path, PathPart{Index: i, IsIdx: true})
		p.next()
		if err := p.expect("]", "close the index"); err != nil {
			return nil, err
		}
	}
	return path, nil
}

// FilterPaths lists every attribute path a condition names, in the order
// written (a size(path) names its path).
func FilterPaths(n FilterNode) []Path {
	var out []Path
	operand := func(o Operand) {
		switch x := o.(type) {
		case Path:
			out = append(out, x)
		case Size:
			out = append(out, x.Path)
		}
	}
	var walk func(FilterNode)
	walk = func(n FilterNode) {
		switch x := n.(type) {
		case And:
			walk(x.L)
			walk(x.R)
		case Or:
			walk(x.L)
			walk(x.R)
		case Not:
			walk(x.X)
		case Compare:
			operand(x.L)
			operand(x.R)
		case Between:
			operand(x.X)
			operand(x.Lo)
			operand(x.Hi)
		case In:
			operand(x.X)
			for _, o := range x.List {
				operand(o)
			}
		case Func:
			out = append(out, x.Path)
			if x.Arg != nil {
				operand(x.Arg)
			}
		}
	}
	walk(n)
	return out
}
