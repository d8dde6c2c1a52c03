package dynamo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// ValueError is an answer holding an attribute value DynamoDB never
// sends: a type it does not have ({"Q": …}, {}), a value of the wrong
// shape ({"S": null}) or a number that is not one ({"N": ""}). The SDK
// would decode such a value as another attribute's, or as nothing, and
// it would be shown as what it is not. It names the attribute, never its
// value (which may be masked).
type ValueError struct {
	Attribute string // the path to it: name, name.inner, name[2]
	Problem   string
}

func (e *ValueError) Error() string {
	name := e.Attribute
	if strings.ContainsFunc(name, func(r rune) bool { return r == '"' || r == '\\' || !unicode.IsPrint(r) }) {
		name = strconv.Quote(name) // a name is data: it never writes a second line
	}
	return fmt.Sprintf("the server sent attribute %s %s: not a DynamoDB answer", name, e.Problem)
}

// itemOperations are the calls whose answers carry attribute values.
var itemOperations = map[string]bool{"Query": true, "Scan": true, "GetItem": true, "GetRecords": true}

// checkAnswerValues refuses an answer of op holding a value DynamoDB
// never sends: in Query and Scan's Items and LastEvaluatedKey, GetItem's
// Item, GetRecords' keys and images. It reads the body once, as it is,
// without decoding it (a page of 1 MB in a few milliseconds); a body
// that is not JSON is left to the SDK to refuse.
func checkAnswerValues(op string, body []byte) error {
	if !itemOperations[op] {
		return nil
	}
	s := &scan{b: body}
	err := s.object(func(key string) error {
		switch key {
		case "Items":
			return s.array(func(int) error { return s.item() })
		case "Item", "LastEvaluatedKey":
			return s.item()
		case "Records":
			return s.array(func(int) error { return s.record() })
		}
		return s.skip()
	})
	var bad *ValueError
	if errors.As(err, &bad) {
		return err
	}
	return nil
}

// scan reads JSON text in place.
type scan struct {
	b []byte
	i int
}

var errSyntax = errors.New("not JSON")

func (s *scan) ws() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\n' || s.b[s.i] == '\r' || s.b[s.i] == '\t') {
		s.i++
	}
}

// peek is the next byte past white space (0 at the end).
func (s *scan) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *scan) expect(c byte) error {
	if s.peek() != c {
		return errSyntax
	}
	s.i++
	return nil
}

// str reads a string; ok is false for anything else (null too).
func (s *scan) str() (string, bool) {
	if s.peek() != '"' {
		return "", false
	}
	start := s.i
	escaped := false
	for s.i++; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '\\':
			escaped = true
			s.i++
		case '"':
			s.i++
			raw := s.b[start:s.i]
			if !escaped {
				return string(raw[1 : len(raw)-1]), true
			}
			var out string
			return out, json.Unmarshal(raw, &out) == nil
		}
	}
	return "", false
}

// object reads an object, handing each member's key to each, which reads
// its value.
func (s *scan) object(each func(key string) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	if s.peek() == '}' {
		s.i++
		return nil
	}
	for {
		key, ok := s.str()
		if !ok {
			return errSyntax
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := each(key); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		default:
			return errSyntax
		}
	}
}

// array reads an array, each element by each.
func (s *scan) array(each func(i int) error) error {
	if err := s.expect('['); err != nil {
		return err
	}
	if s.peek() == ']' {
		s.i++
		return nil
	}
	for n := 0; ; n++ {
		if err := each(n); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return nil
		default:
			return errSyntax
		}
	}
}

// skip reads past one value of any kind.
func (s *scan) skip() error {
	switch c := s.peek(); {
	case c == '{':
		return s.object(func(string) error { return s.skip() })
	case c == '[':
		return s.array(func(int) error { return s.skip() })
	case c == '"':
		if _, ok := s.str(); !ok {
			return errSyntax
		}
		return nil
	case c == 0:
		return errSyntax
	}
	start := s.i
	for s.i < len(s.b) && !strings.ContainsRune(",]} \n\r\t", rune(s.b[s.i])) {
		s.i++
	}
	if !json.Valid(s.b[start:s.i]) {
		return errSyntax
	}
	return nil
}

// literal reads true, false or null.
func (s *scan) literal() string {
	s.ws()
	for _, w := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(s.b[s.i:], []byte(w)) {
			s.i += len(w)
			return w
		}
	}
	return ""
}

// record reads a stream record, checking its keys and images.
func (s *scan) record() error {
	return s.object(func(key string) error {
		if key != "dynamodb" {
			return s.skip()
		}
		return s.object(func(key string) error {
			switch key {
			case "Keys", "NewImage", "OldImage":
				return s.item()
			}
			return s.skip()
		})
	})
}

// item reads an item (or a key): a map of attribute values; null is no
// item.
func (s *scan) item() error {
	if s.literal() == "null" {
		return nil
	}
	return s.object(func(name string) error { return s.value(name) })
}

// value checks one attribute value: one of DynamoDB's ten types, holding
// what that type holds.
func (s *scan) value(path string) error {
	if s.peek() != '{' {
		return &ValueError{Attribute: path, Problem: "as something other than a typed value"}
	}
	types := 0
	err := s.object(func(typ string) error {
		types++
		return s.typed(path, typ)
	})
	if err == nil && types != 1 {
		return &ValueError{Attribute: path, Problem: fmt.Sprintf("as a value of %d types, not one", types)}
	}
	return err
}

func (s *scan) typed(path, typ string) error {
	bad := func(problem string) error { return &ValueError{Attribute: path, Problem: problem} }
	switch typ {
	case "S", "B":
		if _, ok := s.str(); !ok {
			return bad("of type " + typ + " without a string")
		}
	case "N":
		if n, ok := s.str(); !ok || !IsNumber(n) {
			return bad("as a number that is not one")
		}
	case "BOOL", "NULL":
		if l := s.literal(); l != "true" && l != "false" {
			return bad("of type " + typ + " without true or false")
		}
	case "SS", "BS", "NS":
		if s.peek() != '[' {
			return bad("of type " + typ + " without a list of strings")
		}
		return s.array(func(int) error {
			if v, ok := s.str(); !ok || typ == "NS" && !IsNumber(v) {
				return bad("of type " + typ + " holding a value that is not one")
			}
			return nil
		})
	case "M":
		if s.peek() != '{' {
			return bad("of type M without a map")
		}
		return s.object(func(k string) error { return s.value(path + "." + k) })
	case "L":
		if s.peek() != '[' {
			return bad("of type L without a list")
		}
		return s.array(func(i int) error { return s.value(path + "[" + strconv.Itoa(i) + "]") })
	default:
		return bad(fmt.Sprintf("of a type DynamoDB does not have (%.20q)", typ))
	}
	return nil
}

// IsNumber reports whether s is a number as DynamoDB writes one: an
// optional minus, digits with at most one point, an optional exponent.
func IsNumber(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits, point := 0, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		default:
			return digits > 0 && exponent(s[i:])
		}
	}
	return digits > 0
}

// exponent reports whether s is an exponent: e or E, a sign, digits.
func exponent(s string) bool {
	if len(s) < 2 || s[0] != 'e' && s[0] != 'E' {
		return false
	}
	s = s[1:]
	if s[0] == '-' || s[0] == '+' {
		s = s[1:]
	}
	return s != "" && decimal(s)
}

// checkItems refuses decoded items holding a value of no DynamoDB type
// (nil, or one the SDK did not know) or a number that is not one: what
// a backend other than a server (a wrapper, the embedded one) may hand
// on without passing through checkAnswerValues.
func checkItems(items ...Item) error {
	for _, it := range items {
		for name, v := range it {
			if err := checkDecoded(name, v); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkDecoded(path string, av types.AttributeValue) error {
	switch v := av.(type) {
	case *types.AttributeValueMemberS, *types.AttributeValueMemberB, *types.AttributeValueMemberBOOL,
		*types.AttributeValueMemberNULL, *types.AttributeValueMemberSS, *types.AttributeValueMemberBS:
		return nil
	case *types.AttributeValueMemberN:
		if !IsNumber(v.Value) {
			return &ValueError{Attribute: path, Problem: "as a number that is not one"}
		}
		return nil
	case *types.AttributeValueMemberNS:
		for _, n := range v.Value {
			if !IsNumber(n) {
				return &ValueError{Attribute: path, Problem: "of type NS holding a value that is not one"}
			}
		}
		return nil
	case *types.AttributeValueMemberM:
		for k, e := range v.Value {
			if err := checkDecoded(path+"."+k, e); err != nil {
				return err
			}
		}
		return nil
	case *types.AttributeValueMemberL:
		for i, e := range v.Value {
			if err := checkDecoded(path+"["+strconv.Itoa(i)+"]", e); err != nil {
				return err
			}
		}
		return nil
	}
	return &ValueError{Attribute: path, Problem: "of a type DynamoDB does not have"}
}

// checkRecords refuses stream records whose keys or images hold a value
// checkItems would refuse (FromStreamItem turns a value of no type into
// nil, which it refuses).
func checkRecords(recs []stypes.Record) error {
	for _, r := range recs {
		if d := r.Dynamodb; d != nil {
			for _, img := range []map[string]stypes.AttributeValue{d.Keys, d.OldImage, d.NewImage} {
				if err := checkItems(FromStreamItem(img)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
