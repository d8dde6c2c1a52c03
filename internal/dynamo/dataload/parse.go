package dataload

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// parser reads DynamoDB JSON straight into attribute values, without
// reflection or an intermediate tree: decoding is most of a load's time,
// and this is several times faster than encoding/json into wireValue. It is
// stricter than encoding/json (type names are case-sensitive, as DynamoDB's
// are); FuzzParserAgreesWithEncodingJSON holds the two to the same values.
// Attribute names are interned: a million items share one "PK".
type parser struct {
	b     []byte
	i     int
	names map[string]string
	hint  int // attributes in the last item: items of a table look alike
	// Strings and numbers, most of an item's values, are handed out of
	// slabs: one allocation per slabSize values instead of one per value.
	// Loaded items live as long as the database, so nothing is held longer.
	ss []types.AttributeValueMemberS
	ns []types.AttributeValueMemberN
}

const slabSize = 512

func (p *parser) newS(v string) *types.AttributeValueMemberS {
	if len(p.ss) == 0 {
		p.ss = make([]types.AttributeValueMemberS, slabSize)
	}
	s := &p.ss[0]
	p.ss = p.ss[1:]
	s.Value = v
	return s
}

func (p *parser) newN(v string) *types.AttributeValueMemberN {
	if len(p.ns) == 0 {
		p.ns = make([]types.AttributeValueMemberN, slabSize)
	}
	n := &p.ns[0]
	p.ns = p.ns[1:]
	n.Value = v
	return n
}

func newParser() *parser { return &parser{names: map[string]string{}} }

type syntaxError struct {
	at  int
	msg string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("malformed JSON at byte %d: %s", e.at+1, e.msg)
}

func (p *parser) fail(msg string) error { return &syntaxError{at: p.i, msg: msg} }

func (p *parser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) expect(c byte) error {
	p.ws()
	if p.i >= len(p.b) {
		return p.fail(fmt.Sprintf("the text ends where %q was expected", c))
	}
	if p.b[p.i] != c {
		return p.fail(fmt.Sprintf("%q where %q was expected", p.b[p.i], c))
	}
	p.i++
	return nil
}

// next reports whether an object or array continues after a value: it
// consumes a comma, or stops before the closing bracket.
func (p *parser) more(end byte, first bool) (bool, error) {
	p.ws()
	if p.i >= len(p.b) {
		return false, p.fail("the text ends inside an object or list")
	}
	if p.b[p.i] == end {
		p.i++
		return false, nil
	}
	if !first {
		if p.b[p.i] != ',' {
			return false, p.fail(fmt.Sprintf("%q where ',' or %q was expected", p.b[p.i], end))
		}
		p.i++
	}
	return true, nil
}

// str reads a JSON string. Text with no escapes and valid UTF-8, the
// common case, is copied once.
func (p *parser) str() (string, error) {
	if err := p.expect('"'); err != nil {
		return "", err
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			raw := p.b[start:p.i]
			p.i++
			if utf8.Valid(raw) {
				return string(raw), nil
			}
			return "", p.fail(badUTF8)
		}
		if c == '\\' {
			return p.strSlow(start)
		}
		if c < 0x20 {
			return "", p.fail("a control character inside a string")
		}
		p.i++
	}
	return "", p.fail("the text ends inside a string")
}

func (p *parser) strSlow(start int) (string, error) {
	var sb strings.Builder
	sb.Write(p.b[start:p.i])
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if !utf8.ValidString(sb.String()) {
				return "", p.fail(badUTF8)
			}
			return sb.String(), nil
		case c < 0x20:
			return "", p.fail("a control character inside a string")
		case c != '\\':
			sb.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			return "", p.fail("the text ends inside a string")
		}
		p.i += 2
		switch e := p.b[p.i-1]; e {
		case '"', '\\', '/':
			sb.WriteByte(e)
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.fail(`a \u escape without four hex digits`)
			}
			if utf16.IsSurrogate(r) {
				save := p.i
				if p.i+1 < len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
					p.i += 2
					if r2, ok := p.hex4(); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							sb.WriteRune(d)
							continue
						}
					}
				}
				p.i = save
				r = utf8.RuneError
			}
			sb.WriteRune(r)
		default:
			return "", p.fail(fmt.Sprintf(`an unknown escape \%c`, e))
		}
	}
	return "", p.fail("the text ends inside a string")
}

// badUTF8 refuses a string that is not UTF-8: DynamoDB refuses it too,
// and replacing its bytes (as encoding/json does) would load other data
// than the file holds.
const badUTF8 = "a string that is not valid UTF-8 (DynamoDB refuses it)"

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.b[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(v), true
}

// name reads an attribute name, interned.
func (p *parser) name() (string, error) {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '"' {
		// Fast path: a plain name is looked up without allocating.
		end := p.i + 1
		for end < len(p.b) && p.b[end] != '"' && p.b[end] != '\\' && p.b[end] >= 0x20 {
			end++
		}
		if end < len(p.b) && p.b[end] == '"' && utf8.Valid(p.b[p.i+1:end]) {
			if s, ok := p.names[string(p.b[p.i+1:end])]; ok {
				p.i = end + 1
				return s, nil
			}
		}
	}
	s, err := p.str()
	if err != nil {
		return "", err
	}
	if len(p.names) < 10_000 {
		p.names[s] = s
	}
	return s, nil
}

func (p *parser) literal(word string) bool {
	if strings.HasPrefix(string(p.b[p.i:min(len(p.b), p.i+len(word))]), word) {
		p.i += len(word)
		return true
	}
	return false
}

func (p *parser) boolean() (bool, error) {
	p.ws()
	switch {
	case p.literal("true"):
		return true, nil
	case p.literal("false"):
		return false, nil
	}
	return false, p.fail("a value other than true or false")
}

func (p *parser) strings() ([]string, error) {
	if err := p.expect('['); err != nil {
		return nil, err
	}
	out := []string{}
	for first := true; ; first = false {
		ok, err := p.more(']', first)
		if err != nil || !ok {
			return out, err
		}
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
}

func decodeB64(s string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%q is not base64", s)
	}
	return b, nil
}

// item reads an object of attributes.
func (p *parser) item() (map[string]types.AttributeValue, error) {
	m, err := p.attrs(p.hint)
	if err == nil {
		p.hint = len(m)
	}
	return m, err
}

func (p *parser) attrs(hint int) (map[string]types.AttributeValue, error) {
	if err := p.expect('{'); err != nil {
		return nil, err
	}
	out := make(map[string]types.AttributeValue, hint)
	for first := true; ; first = false {
		ok, err := p.more('}', first)
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		name, err := p.name()
		if err != nil {
			return nil, err
		}
		if err := p.expect(':'); err != nil {
			return nil, err
		}
		v, err := p.value()
		if err != nil {
			var se *syntaxError
			if errors.As(err, &se) {
				return nil, err
			}
			return nil, fmt.Errorf("attribute %q: %w", name, err)
		}
		out[name] = v
	}
}

// value reads one typed value: {"S": "…"}, {"M": {…}}, and so on.
func (p *parser) value() (types.AttributeValue, error) {
	if err := p.expect('{'); err != nil {
		return nil, err
	}
	var out types.AttributeValue
	n := 0
	for first := true; ; first = false {
		ok, err := p.more('}', first)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		typ, err := p.str()
		if err != nil {
			return nil, err
		}
		if err := p.expect(':'); err != nil {
			return nil, err
		}
		p.ws()
		if p.literal("null") {
			continue // as encoding/json: a null member sets nothing
		}
		n++
		if out, err = p.typed(typ); err != nil {
			return nil, err
		}
	}
	switch n {
	case 1:
		return out, nil
	case 0:
		return nil, fmt.Errorf("no type: write it as {\"S\": …}, {\"N\": …}, {\"M\": …} and so on")
	}
	return nil, fmt.Errorf("more than one type in one value")
}

func (p *parser) typed(typ string) (types.AttributeValue, error) {
	switch typ {
	case "S":
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return p.newS(s), nil
	case "N":
		s, err := p.str()
		if err == nil && !validNumber(s) {
			err = fmt.Errorf("%q is not a number", s)
		}
		if err != nil {
			return nil, err
		}
		return p.newN(s), nil
	case "B":
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		b, err := decodeB64(s)
		return &types.AttributeValueMemberB{Value: b}, err
	case "BOOL":
		b, err := p.boolean()
		return &types.AttributeValueMemberBOOL{Value: b}, err
	case "NULL":
		b, err := p.boolean()
		if err == nil && !b {
			err = errors.New("NULL must be true")
		}
		return &types.AttributeValueMemberNULL{Value: true}, err
	case "SS", "NS", "BS":
		return p.set(typ)
	case "M":
		m, err := p.attrs(0)
		return &types.AttributeValueMemberM{Value: m}, err
	case "L":
		return p.list()
	}
	return nil, fmt.Errorf("unknown type %q: DynamoDB's are S, N, B, BOOL, NULL, SS, NS, BS, M and L", typ)
}

// set reads a string set of typ (SS, NS or BS): its members of that
// type, none twice.
func (p *parser) set(typ string) (types.AttributeValue, error) {
	ss, err := p.strings()
	if err != nil {
		return nil, err
	}
	switch typ {
	case "NS":
		for _, s := range ss {
			if !validNumber(s) {
				return nil, fmt.Errorf("%q in NS is not a number", s)
			}
		}
	case "BS":
		bs := make([][]byte, len(ss))
		for i, s := range ss {
			if bs[i], err = decodeB64(s); err != nil {
				return nil, err
			}
			ss[i] = string(bs[i])
		}
		if err := checkSet(ss); err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberBS{Value: bs}, nil
	}
	if err := checkSet(ss); err != nil {
		return nil, err
	}
	if typ == "NS" {
		return &types.AttributeValueMemberNS{Value: ss}, nil
	}
	return &types.AttributeValueMemberSS{Value: ss}, nil
}

// list reads an L's values, an error naming the one at fault.
func (p *parser) list() (types.AttributeValue, error) {
	if err := p.expect('['); err != nil {
		return nil, err
	}
	l := []types.AttributeValue{}
	for first := true; ; first = false {
		ok, err := p.more(']', first)
		if err != nil {
			return nil, err
		}
		if !ok {
			return &types.AttributeValueMemberL{Value: l}, nil
		}
		v, err := p.value()
		if err != nil {
			var se *syntaxError
			if errors.As(err, &se) {
				return nil, err
			}
			return nil, fmt.Errorf("[%d]: %w", len(l), err)
		}
		l = append(l, v)
	}
}

// skip passes over any JSON value.
func (p *parser) skip() error {
	p.ws()
	if p.i >= len(p.b) {
		return p.fail("the text ends where a value was expected")
	}
	switch c := p.b[p.i]; {
	case c == '"':
		_, err := p.str()
		return err
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		p.i++
		for first := true; ; first = false {
			ok, err := p.more(end, first)
			if err != nil || !ok {
				return err
			}
			if c == '{' {
				if _, err := p.str(); err != nil {
					return err
				}
				if err := p.expect(':'); err != nil {
					return err
				}
			}
			if err := p.skip(); err != nil {
				return err
			}
		}
	case p.literal("true"), p.literal("false"), p.literal("null"):
		return nil
	default:
		start := p.i
		for p.i < len(p.b) && strings.IndexByte("+-.0123456789eE", p.b[p.i]) >= 0 {
			p.i++
		}
		if p.i == start {
			return p.fail(fmt.Sprintf("%q where a value was expected", c))
		}
		return nil
	}
}

func (p *parser) end() error {
	p.ws()
	if p.i != len(p.b) {
		return p.fail("text after the end of the object")
	}
	return nil
}

// exportLine reads one line of an export: {"Item": {…}}.
func (p *parser) exportLine(line []byte) (map[string]types.AttributeValue, error) {
	p.b, p.i = line, 0
	if err := p.expect('{'); err != nil {
		return nil, err
	}
	var item map[string]types.AttributeValue
	incremental := false
	for first := true; ; first = false {
		ok, err := p.more('}', first)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if err := p.expect(':'); err != nil {
			return nil, err
		}
		switch key {
		case "Item":
			if item, err = p.item(); err != nil {
				return nil, err
			}
		case "Keys", "NewImage", "OldImage":
			incremental = true
			fallthrough
		default:
			if err := p.skip(); err != nil {
				return nil, err
			}
		}
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	switch {
	case item != nil:
		return item, nil
	case incremental:
		return nil, refuseIncremental("")
	}
	return nil, errors.New(`no "Item": an export line is {"Item": {…}}`)
}

// bareItem reads one item of scan output: {"PK": {"S": …}, …}.
func (p *parser) bareItem(raw []byte) (map[string]types.AttributeValue, error) {
	p.b, p.i = raw, 0
	it, err := p.item()
	if err == nil {
		err = p.end()
	}
	return it, err
}
