package memory

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/dynamo"
)

// The expression language of KeyConditionExpression, FilterExpression and
// ProjectionExpression, parsed into a small tree and evaluated against items.

// reservedWords is DynamoDB's documented list of reserved words, which may
// not appear bare in an expression (they need a #name placeholder).
//
//go:embed reserved_words.txt
var reservedWords string

var reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(reservedWords) {
		m[w] = true
	}
	return m
}()

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
	op    string // and, or, not, =, <>, <, <=, >, >=, between, in, or a function name
	kids  []*node
	args  []operand
	names map[string]bool // placeholders used (for validation)
}

type parser struct {
	toks   []string
	pos    int
	names  map[string]string
	values map[string]types.AttributeValue
	used   map[string]bool
}

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
	return n, nil
}

func (p *parser) or() (*node, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for strings.EqualFold(p.peek(), "OR") {
		p.next()
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
		return n, p.expect(")")
	}
	left, err := p.operand()
	if err != nil {
		return nil, err
	}
	switch op := p.next(); strings.ToUpper(op) {
	case "=", "<>", "<", "<=", ">", ">=":
		right, err := p.operand()
		if err != nil {
			return nil, err
		}
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
		return n, p.expect(")")
	default:
		return nil, fmt.Errorf("Invalid syntax: expected a comparison after %s, found %q", left.path, op)
	}
}

func (p *parser) operand() (operand, error) {
	t := p.peek()
	switch {
	case strings.HasPrefix(t, ":"):
		p.next()
		v, ok := p.values[t]
		if !ok {
			return operand{}, fmt.Errorf("Value provided in ExpressionAttributeValues unused in expressions or An expression attribute value used in expression is not defined; attribute value: %s", t)
		}
		p.used[t] = true
		return operand{value: v}, nil
	case strings.EqualFold(t, "size") && p.pos+1 < len(p.toks) && p.toks[p.pos+1] == "(":
		p.next()
		p.next()
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
			return "", fmt.Errorf("An expression attribute name used in the document path is not defined; attribute name: %s", t)
		}
		p.used[t] = true
		return n, nil
	case t == "" || !isWordByte(t[0]) || t[0] >= '0' && t[0] <= '9':
		return "", fmt.Errorf("Invalid syntax: expected an attribute name, found %q", t)
	case reserved[strings.ToUpper(t)]:
		return "", fmt.Errorf("Attribute name is a reserved keyword; reserved keyword: %s", t)
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
		for _, prev := range out {
			if overlaps(prev, pa) {
				return nil, fmt.Errorf("Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [%s], path two: [%s]", prev, pa)
			}
		}
		out = append(out, pa)
		if p.peek() == "" {
			return out, nil
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
	}
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
		return !equal(vals[0], vals[1])
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
	out := map[string]types.AttributeValue{}
	for _, pa := range paths {
		v := resolve(item, pa)
		if v == nil {
			continue
		}
		if len(pa) == 1 {
			out[pa[0].name] = v
			continue
		}
		insertPath(out, pa, v)
	}
	return out
}

// insertPath rebuilds the nesting of a projected path: lists keep only the
// projected elements, in order, as DynamoDB returns them.
func insertPath(dst map[string]types.AttributeValue, pa path, v types.AttributeValue) {
	head := pa[0].name
	if len(pa) == 1 {
		dst[head] = v
		return
	}
	if pa[1].index >= 0 {
		l, _ := dst[head].(*types.AttributeValueMemberL)
		if l == nil {
			l = &types.AttributeValueMemberL{}
			dst[head] = l
		}
		if len(pa) == 2 {
			l.Value = append(l.Value, v)
			return
		}
		m := &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}
		l.Value = append(l.Value, m)
		insertPath(m.Value, append(path{{name: pa[2].name, index: -1}}, pa[3:]...), v)
		return
	}
	m, _ := dst[head].(*types.AttributeValueMemberM)
	if m == nil {
		m = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}
		dst[head] = m
	}
	insertPath(m.Value, pa[1:], v)
}

// overlaps reports whether one path is the other or inside it, which
// DynamoDB rejects in a projection.
func overlaps(a, b path) bool {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
