package memory

//lint:file-ignore ST1005 the parser's errors begin as DynamoDB's do ("Invalid syntax: ..."), which callers and tests match

import (
	_ "embed"
	"encoding/base64"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// The expression language of KeyConditionExpression, FilterExpression and
// ProjectionExpression, parsed into a small tree and evaluated against items.

// reservedWords is DynamoDB's documented list of reserved words, which may
// not appear bare in an expression (they need a #name placeholder).
//
//go:embed reserved_words.txt
var reservedWords string

var reserved = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(reservedWords) {
		m[w] = true
	}
	return m
})

type pathElem struct {
	name  string
	index int // -1 for a name
}

type path []pathElem

func (p path) String() string {
	var b strings.Builder
	for i, e := range p {
		if e.index >= 0 {
			fmt.Fprintf(&b, "[%d]", e.index)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.name)
	}
	return b.String()
}

// operand is a path, a value placeholder, or size(path).
type operand struct {
	path  path
	value types.AttributeValue
	size  bool
}

type node struct {
	op   string // and, or, not, =, <>, <, <=, >, >=, between, in, or a function name
	kids []*node
	args []operand
}

type parser struct {
	toks   []string
	pos    int
	names  map[string]string
	values map[string]types.AttributeValue
	used   map[string]bool
	// ops counts the operators and functions read (op), which DynamoDB
	// holds to maxOperators an expression.
	ops int
	// errs holds the first error of each kind. DynamoDB (and dynalite)
	// parse the whole expression and then report one error by kind, in a
	// fixed order, so a reserved word later in the text wins over an
	// undefined placeholder before it.
	errs map[string]string
}

// Kinds of expression errors, in the order they are reported.
var (
	conditionErrOrder  = []string{"reserved", "attrNameVal", "operand", "distinct", "function"}
	projectionErrOrder = []string{"reserved", "attrNameVal", "pathOverlap", "pathConflict"}
)

func (p *parser) fail(kind, msg string) {
	if p.errs == nil {
		p.errs = map[string]string{}
	}
	if _, ok := p.errs[kind]; !ok {
		p.errs[kind] = msg
	}
}

func (p *parser) firstErr(order []string) error {
	for _, k := range order {
		if m, ok := p.errs[k]; ok {
			return errString(m)
		}
	}
	return nil
}

// maxOperators is how many operators and functions (AND, OR, NOT, a
// comparison, BETWEEN, IN, a function, size) DynamoDB allows in one
// expression; it names the count at the first one past it.
const maxOperators = 300

// op counts one operator or function against maxOperators.
func (p *parser) op() error {
	p.ops++
	if p.ops > maxOperators {
		return fmt.Errorf("The expression contains too many operators; operator count: %d", p.ops)
	}
	return nil
}

type errString string

func (e errString) Error() string { return string(e) }

func tokenize(s string) ([]string, error) {
	var toks []string
	for i := 0; i < len(s); {
		c := rune(s[i])
		switch {
		case unicode.IsSpace(c):
			i++
		case strings.ContainsRune("(),.[]", c):
			toks = append(toks, string(c))
			i++
		case c == '<' || c == '>' || c == '=':
			if i+1 < len(s) && (s[i+1] == '=' || (c == '<' && s[i+1] == '>')) {
				toks = append(toks, s[i:i+2])
				i += 2
			} else {
				toks = append(toks, string(c))
				i++
			}
		case c == ':' || c == '#' || c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c):
			j := i + 1
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			return nil, fmt.Errorf("Invalid syntax: unexpected character %q", c)
		}
	}
	return toks, nil
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func (p *parser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *parser) next() string {
	t := p.peek()
	p.pos++
	return t
}

func (p *parser) expect(t string) error {
	if got := p.next(); !strings.EqualFold(got, t) {
		return fmt.Errorf("Invalid syntax: expected %q, found %q", t, got)
	}
	return nil
}

func parseCondition(expr string, names map[string]string, values map[string]types.AttributeValue, used map[string]bool) (*node, error) {
	toks, err := tokenize(expr)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, names: names, values: values, used: used}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.toks) {
		return nil, fmt.Errorf("Invalid syntax: unexpected token %q", p.peek())
	}
	if err := p.firstErr(conditionErrOrder); err != nil {
		return nil, err
	}
	return n, nil
}

func (p *parser) or() (*node, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for strings.EqualFold(p.peek(), "OR") {
		p.next()
		if err := p.op(); err != nil {
			return nil, err
		}
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = &node{op: "or", kids: []*node{l, r}}
	}
	return l, nil
}

func (p *parser) and() (*node, error) {
	l, err := p.not()
	if err != nil {
		return nil, err
	}
	for strings.EqualFold(p.peek(), "AND") {
		p.next()
		if err := p.op(); err != nil {
			return nil, err
		}
		r, err := p.not()
		if err != nil {
			return nil, err
		}
		l = &node{op: "and", kids: []*node{l, r}}
	}
	return l, nil
}

func (p *parser) not() (*node, error) {
	if strings.EqualFold(p.peek(), "NOT") {
		p.next()
		if err := p.op(); err != nil {
			return nil, err
		}
		k, err := p.not()
		if err != nil {
			return nil, err
		}
		return &node{op: "not", kids: []*node{k}}, nil
	}
	return p.primary()
}

var functions = map[string]int{"attribute_exists": 1, "attribute_not_exists": 1, "attribute_type": 2, "begins_with": 2, "contains": 2}

func (p *parser) primary() (*node, error) {
	if p.peek() == "(" {
		p.next()
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		return n, p.expect(")")
	}
	if nargs, ok := functions[strings.ToLower(p.peek())]; ok && p.pos+1 < len(p.toks) && p.toks[p.pos+1] == "(" {
		name := strings.ToLower(p.next())
		p.next()
		if err := p.op(); err != nil {
			return nil, err
		}
		n := &node{op: name}
		for i := 0; i < nargs; i++ {
			if i > 0 {
				if err := p.expect(","); err != nil {
					return nil, err
				}
			}
			a, err := p.operand()
			if err != nil {
				return nil, err
			}
			n.args = append(n.args, a)
		}
		if name == "attribute_type" {
			p.checkTypeName(n.args[1])
		}
		if nargs == 2 {
			p.checkDistinct(name, n.args[0], n.args[1])
		}
		if name == "begins_with" {
			for _, a := range n.args {
				if t := typeName(a.value); a.value != nil && t != "S" && t != "B" {
					p.fail("function", "Incorrect operand type for operator or function; operator or function: begins_with, operand type: "+t)
				}
			}
		}
		return n, p.expect(")")
	}
	left, err := p.operand()
	if err != nil {
		return nil, err
	}
	op := p.next()
	switch strings.ToUpper(op) {
	case "=", "<>", "<", "<=", ">", ">=", "BETWEEN", "IN":
		if err := p.op(); err != nil {
			return nil, err
		}
	}
	switch strings.ToUpper(op) {
	case "=", "<>", "<", "<=", ">", ">=":
		right, err := p.operand()
		if err != nil {
			return nil, err
		}
		p.checkDistinct(op, left, right)
		return &node{op: op, args: []operand{left, right}}, nil
	case "BETWEEN":
		lo, err := p.operand()
		if err != nil {
			return nil, err
		}
		if err := p.expect("AND"); err != nil {
			return nil, err
		}
		hi, err := p.operand()
		if err != nil {
			return nil, err
		}
		p.checkBetween(lo.value, hi.value)
		return &node{op: "between", args: []operand{left, lo, hi}}, nil
	case "IN":
		if err := p.expect("("); err != nil {
			return nil, err
		}
		n := &node{op: "in", args: []operand{left}}
		for {
			a, err := p.operand()
			if err != nil {
				return nil, err
			}
			n.args = append(n.args, a)
			if p.peek() != "," {
				break
			}
			p.next()
		}
		if operands := len(n.args) - 1; operands > maxInOperands {
			p.fail("function", fmt.Sprintf("The IN operator is provided with too many operands; number of operands: %d", operands))
		}
		return n, p.expect(")")
	default:
		return nil, fmt.Errorf("Invalid syntax: expected a comparison after %s, found %q", left.path, op)
	}
}

// checkTypeName rejects an attribute_type whose type is not a string
// naming one of DynamoDB's types, as DynamoDB does.
func (p *parser) checkTypeName(a operand) {
	t := typeName(a.value)
	switch {
	case a.size:
		t = "N"
	case a.value == nil:
		t = "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"
	}
	if t != "S" {
		p.fail("function", "Incorrect operand type for operator or function; operator or function: attribute_type, operand type: "+t)
		return
	}
	switch s := a.value.(*types.AttributeValueMemberS).Value; s {
	case "S", "N", "B", "NULL", "SS", "BOOL", "L", "BS", "NS", "M":
	default:
		p.fail("function", "Invalid attribute type name found; type: "+s+", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}")
	}
}

// checkDistinct rejects a comparison, begins_with or contains of an
// attribute with itself (status = status), as DynamoDB does: it would
// otherwise match every item that has it.
func (p *parser) checkDistinct(op string, a, b operand) {
	if a.size || b.size || a.path == nil || !slices.Equal(a.path, b.path) {
		return
	}
	pieces := make([]string, len(a.path))
	for i, e := range a.path {
		pieces[i] = e.name
		if e.index >= 0 {
			pieces[i] = fmt.Sprintf("[%d]", e.index)
		}
	}
	p.fail("distinct", "The first operand must be distinct from the remaining operands for this operator or function; operator: "+op+", first operand: ["+strings.Join(pieces, ", ")+"]")
}

// maxInOperands is how many values DynamoDB's IN takes at most.
const maxInOperands = 100

// checkBetween rejects BETWEEN bounds of two types or in the wrong order.
func (p *parser) checkBetween(lo, hi types.AttributeValue) {
	if lo == nil || hi == nil || !scalar(lo) || !scalar(hi) {
		return
	}
	bounds := "lower bound operand: AttributeValue: {" + typeName(lo) + ":" + valueText(lo) + "}, upper bound operand: AttributeValue: {" + typeName(hi) + ":" + valueText(hi) + "}"
	if typeName(lo) != typeName(hi) {
		p.fail("function", "The BETWEEN operator requires same data type for lower and upper bounds; "+bounds)
		return
	}
	if c, ok := compare(lo, hi); ok && c > 0 {
		p.fail("function", "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "+bounds)
	}
}

func scalar(av types.AttributeValue) bool {
	switch av.(type) {
	case *types.AttributeValueMemberS, *types.AttributeValueMemberN, *types.AttributeValueMemberB:
		return true
	}
	return false
}

// valueText is a scalar as DynamoDB's messages print it: numbers in their
// normal form, binary in base64.
func valueText(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		d, _ := parseDecimal(v.Value)
		return d.String()
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value)
	}
	return ""
}

func (p *parser) operand() (operand, error) {
	t := p.peek()
	switch {
	case strings.HasPrefix(t, ":"):
		p.next()
		v, ok := p.values[t]
		if !ok {
			p.fail("attrNameVal", "An expression attribute value used in expression is not defined; attribute value: "+t)
			return operand{value: &types.AttributeValueMemberNULL{Value: true}}, nil
		}
		if _, failed := p.errs["attrNameVal"]; !failed {
			p.used[t] = true
		}
		return operand{value: v}, nil
	case strings.EqualFold(t, "size") && p.pos+1 < len(p.toks) && p.toks[p.pos+1] == "(":
		p.next()
		p.next()
		if err := p.op(); err != nil {
			return operand{}, err
		}
		pa, err := p.path()
		if err != nil {
			return operand{}, err
		}
		return operand{path: pa, size: true}, p.expect(")")
	}
	pa, err := p.path()
	return operand{path: pa}, err
}

func (p *parser) name() (string, error) {
	t := p.next()
	switch {
	case strings.HasPrefix(t, "#"):
		n, ok := p.names[t]
		if !ok {
			p.fail("attrNameVal", "An expression attribute name used in the document path is not defined; attribute name: "+t)
			return t, nil
		}
		if _, failed := p.errs["attrNameVal"]; !failed {
			p.used[t] = true
		}
		return n, nil
	case t == "" || !isWordByte(t[0]) || t[0] >= '0' && t[0] <= '9':
		return "", fmt.Errorf("Invalid syntax: expected an attribute name, found %q", t)
	case reserved()[strings.ToUpper(t)]:
		p.fail("reserved", "Attribute name is a reserved keyword; reserved keyword: "+t)
	}
	return t, nil
}

func (p *parser) path() (path, error) {
	n, err := p.name()
	if err != nil {
		return nil, err
	}
	pa := path{{name: n, index: -1}}
	for {
		switch p.peek() {
		case ".":
			p.next()
			n, err := p.name()
			if err != nil {
				return nil, err
			}
			pa = append(pa, pathElem{name: n, index: -1})
		case "[":
			p.next()
			i, err := strconv.Atoi(p.next())
			if err != nil || i < 0 {
				return nil, fmt.Errorf("Invalid syntax: a list index must be a number")
			}
			pa = append(pa, pathElem{index: i})
			if err := p.expect("]"); err != nil {
				return nil, err
			}
		default:
			return pa, nil
		}
	}
}

func parseProjection(expr string, names map[string]string, used map[string]bool) ([]path, error) {
	toks, err := tokenize(expr)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, names: names, used: used}
	var out []path
	for {
		pa, err := p.path()
		if err != nil {
			return nil, err
		}
		if _, failed := p.errs["pathOverlap"]; !failed {
			for _, prev := range out {
				checkPaths(p, prev, pa)
			}
		}
		out = append(out, pa)
		if p.peek() == "" {
			break
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
	}
	if err := p.firstErr(projectionErrOrder); err != nil {
		return nil, err
	}
	return out, nil
}

// checkPaths finds two projected paths that overlap (one is a prefix of
// the other, or they are equal: PK twice) or conflict (a name where the
// other has a list index), which DynamoDB rejects.
func checkPaths(p *parser, a, b path) {
	for i := 0; i < len(a) && i < len(b); i++ {
		if (a[i].index < 0) != (b[i].index < 0) {
			p.fail("pathConflict", "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: "+a.list()+", path two: "+b.list())
			return
		}
		if a[i] != b[i] {
			return
		}
	}
	p.fail("pathOverlap", "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: "+a.list()+", path two: "+b.list())
}

// list is a path as DynamoDB's messages spell it: [Doc, list, [1]].
func (p path) list() string {
	parts := make([]string, len(p))
	for i, e := range p {
		if e.index >= 0 {
			parts[i] = fmt.Sprintf("[%d]", e.index)
		} else {
			parts[i] = e.name
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// resolve finds the value at a path, or nil.
func resolve(item map[string]types.AttributeValue, pa path) types.AttributeValue {
	var cur types.AttributeValue = &types.AttributeValueMemberM{Value: item}
	for _, e := range pa {
		switch v := cur.(type) {
		case *types.AttributeValueMemberM:
			if e.index >= 0 {
				return nil
			}
			cur = v.Value[e.name]
		case *types.AttributeValueMemberL:
			if e.index < 0 || e.index >= len(v.Value) {
				return nil
			}
			cur = v.Value[e.index]
		default:
			return nil
		}
		if cur == nil {
			return nil
		}
	}
	return cur
}

func (o operand) eval(item map[string]types.AttributeValue) types.AttributeValue {
	if o.value != nil {
		return o.value
	}
	v := resolve(item, o.path)
	if !o.size || v == nil {
		return v
	}
	var n int
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		n = utf16Len(x.Value)
	case *types.AttributeValueMemberB:
		n = len(x.Value)
	case *types.AttributeValueMemberSS:
		n = len(x.Value)
	case *types.AttributeValueMemberNS:
		n = len(x.Value)
	case *types.AttributeValueMemberBS:
		n = len(x.Value)
	case *types.AttributeValueMemberL:
		n = len(x.Value)
	case *types.AttributeValueMemberM:
		n = len(x.Value)
	default:
		return nil
	}
	return &types.AttributeValueMemberN{Value: strconv.Itoa(n)}
}

func (n *node) match(item map[string]types.AttributeValue) bool {
	switch n.op {
	case "and":
		return n.kids[0].match(item) && n.kids[1].match(item)
	case "or":
		return n.kids[0].match(item) || n.kids[1].match(item)
	case "not":
		return !n.kids[0].match(item)
	}
	vals := make([]types.AttributeValue, len(n.args))
	for i, a := range n.args {
		vals[i] = a.eval(item)
	}
	switch n.op {
	case "attribute_exists":
		return vals[0] != nil
	case "attribute_not_exists":
		return vals[0] == nil
	case "attribute_type":
		s, ok := vals[1].(*types.AttributeValueMemberS)
		return vals[0] != nil && ok && typeName(vals[0]) == s.Value
	case "begins_with":
		return beginsWith(vals[0], vals[1])
	case "contains":
		return contains(vals[0], vals[1])
	case "=":
		return vals[0] != nil && equal(vals[0], vals[1])
	case "<>":
		// A missing attribute equals nothing, not even another missing
		// one: <> is true where either is missing.
		return vals[0] == nil || vals[1] == nil || !equal(vals[0], vals[1])
	case "<", "<=", ">", ">=":
		c, ok := compare(vals[0], vals[1])
		return ok && map[string]bool{"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[n.op]
	case "between":
		lo, ok1 := compare(vals[0], vals[1])
		hi, ok2 := compare(vals[0], vals[2])
		return ok1 && ok2 && lo >= 0 && hi <= 0
	case "in":
		for _, v := range vals[1:] {
			if vals[0] != nil && equal(vals[0], v) {
				return true
			}
		}
	}
	return false
}

// keyAttr returns the first of the given key attributes the condition
// refers to, or "": a Query may not filter on the keys it queries by.
func (n *node) keyAttr(keys ...string) string {
	if n == nil {
		return ""
	}
	for _, k := range n.kids {
		if a := k.keyAttr(keys...); a != "" {
			return a
		}
	}
	for _, a := range n.args {
		for _, k := range keys {
			if len(a.path) > 0 && k != "" && a.path[0].name == k {
				return k
			}
		}
	}
	return ""
}

func typeName(av types.AttributeValue) string {
	if av == nil {
		return ""
	}
	return dynamo.TypeOf(av)
}

// compare orders two scalars of the same type (S, N, B); ok is false for
// anything else, which makes the comparison false, as in DynamoDB.
func compare(a, b types.AttributeValue) (int, bool) {
	if a == nil || b == nil || typeName(a) != typeName(b) {
		return 0, false
	}
	switch typeName(a) {
	case "S", "B", "N":
		ka, ok1 := sortKey(a)
		kb, ok2 := sortKey(b)
		if !ok1 || !ok2 {
			return 0, false
		}
		return compareBytes(ka, kb), true
	}
	return 0, false
}

func equal(a, b types.AttributeValue) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if typeName(a) != typeName(b) {
		return false
	}
	if c, ok := compare(a, b); ok {
		return c == 0
	}
	switch x := a.(type) {
	case *types.AttributeValueMemberBOOL:
		return x.Value == b.(*types.AttributeValueMemberBOOL).Value
	case *types.AttributeValueMemberNULL:
		return true
	case *types.AttributeValueMemberSS:
		return sameSet(x.Value, b.(*types.AttributeValueMemberSS).Value, func(s string) string { return s })
	case *types.AttributeValueMemberNS:
		return sameSet(x.Value, b.(*types.AttributeValueMemberNS).Value, func(s string) string { d, _ := parseDecimal(s); return d.lexi() })
	case *types.AttributeValueMemberBS:
		return sameSet(bsToStrings(x.Value), bsToStrings(b.(*types.AttributeValueMemberBS).Value), func(s string) string { return s })
	case *types.AttributeValueMemberL:
		y := b.(*types.AttributeValueMemberL)
		if len(x.Value) != len(y.Value) {
			return false
		}
		for i := range x.Value {
			if !equal(x.Value[i], y.Value[i]) {
				return false
			}
		}
		return true
	case *types.AttributeValueMemberM:
		y := b.(*types.AttributeValueMemberM)
		if len(x.Value) != len(y.Value) {
			return false
		}
		for k, v := range x.Value {
			if !equal(v, y.Value[k]) {
				return false
			}
		}
		return true
	}
	return false
}

func bsToStrings(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}

func sameSet(a, b []string, norm func(string) string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]bool{}
	for _, s := range a {
		seen[norm(s)] = true
	}
	for _, s := range b {
		if !seen[norm(s)] {
			return false
		}
	}
	return true
}

func beginsWith(a, b types.AttributeValue) bool {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		return ok && strings.HasPrefix(x.Value, y.Value)
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		return ok && strings.HasPrefix(string(x.Value), string(y.Value))
	}
	return false
}

func contains(a, b types.AttributeValue) bool {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		return ok && strings.Contains(x.Value, y.Value)
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		return ok && strings.Contains(string(x.Value), string(y.Value))
	case *types.AttributeValueMemberSS, *types.AttributeValueMemberNS, *types.AttributeValueMemberBS:
		for _, e := range setMembers(a) {
			if equal(e, b) {
				return true
			}
		}
	case *types.AttributeValueMemberL:
		for _, e := range x.Value {
			if equal(e, b) {
				return true
			}
		}
	}
	return false
}

func setMembers(av types.AttributeValue) []types.AttributeValue {
	var out []types.AttributeValue
	switch x := av.(type) {
	case *types.AttributeValueMemberSS:
		for _, s := range x.Value {
			out = append(out, &types.AttributeValueMemberS{Value: s})
		}
	case *types.AttributeValueMemberNS:
		for _, s := range x.Value {
			out = append(out, &types.AttributeValueMemberN{Value: s})
		}
	case *types.AttributeValueMemberBS:
		for _, b := range x.Value {
			out = append(out, &types.AttributeValueMemberB{Value: b})
		}
	}
	return out
}

// project keeps only the given paths of an item.
func project(item map[string]types.AttributeValue, paths []path) map[string]types.AttributeValue {
	mask := &projNode{}
	for _, pa := range paths {
		if resolve(item, pa) != nil {
			mask.add(pa)
		}
	}
	out, _ := mask.apply(&types.AttributeValueMemberM{Value: item}).(*types.AttributeValueMemberM)
	if out == nil {
		return map[string]types.AttributeValue{}
	}
	return out.Value
}

// projNode is the projected part of a value: all of it, or some of its
// map entries or list elements. Projected list elements come back in list
// order, without the gaps between them, as DynamoDB returns them.
type projNode struct {
	whole bool
	names map[string]*projNode
	elems map[int]*projNode
}

func (n *projNode) add(pa path) {
	if len(pa) == 0 {
		n.whole = true
		return
	}
	var next *projNode
	if e := pa[0]; e.index >= 0 {
		if n.elems == nil {
			n.elems = map[int]*projNode{}
		}
		if next = n.elems[e.index]; next == nil {
			next = &projNode{}
			n.elems[e.index] = next
		}
	} else {
		if n.names == nil {
			n.names = map[string]*projNode{}
		}
		if next = n.names[e.name]; next == nil {
			next = &projNode{}
			n.names[e.name] = next
		}
	}
	next.add(pa[1:])
}

func (n *projNode) apply(v types.AttributeValue) types.AttributeValue {
	if n.whole {
		return v
	}
	switch x := v.(type) {
	case *types.AttributeValueMemberM:
		out := map[string]types.AttributeValue{}
		for name, child := range n.names {
			if c, ok := x.Value[name]; ok {
				if got := child.apply(c); got != nil {
					out[name] = got
				}
			}
		}
		return &types.AttributeValueMemberM{Value: out}
	case *types.AttributeValueMemberL:
		idx := make([]int, 0, len(n.elems))
		for i := range n.elems {
			idx = append(idx, i)
		}
		sort.Ints(idx)
		var out []types.AttributeValue
		for _, i := range idx {
			if i < len(x.Value) {
				if got := n.elems[i].apply(x.Value[i]); got != nil {
					out = append(out, got)
				}
			}
		}
		return &types.AttributeValueMemberL{Value: out}
	}
	return nil
}
