package domain

import (
	"encoding/base64"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// KeyType is a DynamoDB key attribute type: S, N or B.
type KeyType string

const (
	TypeS KeyType = "S"
	TypeN KeyType = "N"
	TypeB KeyType = "B"
)

// KeyValue is a scalar key value. Text holds S and N values (N as its
// decimal text, exactly as DynamoDB returns it); Bytes holds B values.
type KeyValue struct {
	Type  KeyType
	Text  string
	Bytes []byte
}

// S, N and B build key values.
func S(s string) KeyValue { return KeyValue{Type: TypeS, Text: s} }
func N(n string) KeyValue { return KeyValue{Type: TypeN, Text: n} }
func B(b []byte) KeyValue { return KeyValue{Type: TypeB, Bytes: b} }

// IsZero reports whether the value is unset.
func (v KeyValue) IsZero() bool { return v.Type == "" }

// Literal renders the value as it is shown on the request line: strings
// quoted with Go escaping (so control characters never reach the terminal),
// numbers bare, binaries as base64.
func (v KeyValue) Literal() string {
	switch v.Type {
	case TypeS:
		return strconv.Quote(v.Text)
	case TypeN:
		return v.Text
	case TypeB:
		return KeyText(TypeB, string(v.Bytes))
	}
	return "<unset>"
}

// SKOp is a sort-key condition operator.
type SKOp int

const (
	SKNone SKOp = iota
	SKEq
	SKLt
	SKLe
	SKGt
	SKGe
	SKBetween
	SKBeginsWith
)

var skOpSymbols = map[SKOp]string{SKEq: "=", SKLt: "<", SKLe: "<=", SKGt: ">", SKGe: ">="}

// SKCondition is the optional condition on the sort key of a Query.
// B is used only by SKBetween.
type SKCondition struct {
	Op   SKOp
	A, B KeyValue
}

// KeyQuery describes a Query in domain terms: which table or index, which
// partition, which sort-key range and in which direction. The dynamo package
// turns it into a real request with the SDK's expression builder; this type
// only describes it for people.
type KeyQuery struct {
	Table   string
	Index   string
	PKName  string
	PK      KeyValue
	SKName  string
	SK      SKCondition
	Reverse bool
	// Filter, when set, is sent as the FilterExpression: DynamoDB reads
	// (and charges for) every item in the key range, then returns the
	// matches.
	Filter FilterNode
}

// Expression renders the key condition with readable placeholders, as in
// `PK = :pk AND begins_with(SK, :prefix)`.
func (q KeyQuery) Expression() string {
	var b strings.Builder
	sk := NameText(q.SKName)
	b.WriteString(NameText(q.PKName) + " = :pk")
	switch q.SK.Op {
	case SKNone:
	case SKBetween:
		fmt.Fprintf(&b, " AND %s BETWEEN :lo AND :hi", sk)
	case SKBeginsWith:
		fmt.Fprintf(&b, " AND begins_with(%s, :prefix)", sk)
	default:
		fmt.Fprintf(&b, " AND %s %s :sk", sk, skOpSymbols[q.SK.Op])
	}
	return b.String()
}

// Values renders the placeholder values of Expression, as in
// `:pk="USA" :prefix="NY#"`.
func (q KeyQuery) Values() string {
	parts := []string{":pk=" + q.PK.Literal()}
	switch q.SK.Op {
	case SKNone:
	case SKBetween:
		parts = append(parts, ":lo="+q.SK.A.Literal(), ":hi="+q.SK.B.Literal())
	case SKBeginsWith:
		parts = append(parts, ":prefix="+q.SK.A.Literal())
	default:
		parts = append(parts, ":sk="+q.SK.A.Literal())
	}
	return strings.Join(parts, " ")
}

// Describe is the whole request line: target, condition, values, direction.
func (q KeyQuery) Describe() string {
	target := q.Table
	if q.Index != "" {
		target += " index " + q.Index
	}
	dir := ""
	if q.Reverse {
		dir = "  (descending)"
	}
	filter := ""
	if q.Filter != nil {
		filter = "   filter " + FormatFilter(q.Filter)
	}
	return fmt.Sprintf("Query %s: %s   %s%s%s", target, q.Expression(), q.Values(), filter, dir)
}

// decodeBase64 reads base64 as people copy it: padded or not (AP8= or
// AP8, as base64 -w0 and many encoders write it), standard or URL-safe.
func decodeBase64(s string) ([]byte, error) {
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		var b []byte
		if b, err = enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, err
}

// ParseKeyValue reads a key value typed by a person for an attribute of type
// t: strings as they are, numbers checked as DynamoDB numbers, binaries as
// base64.
func ParseKeyValue(t KeyType, s string) (KeyValue, error) {
	switch t {
	case TypeS, "":
		return S(s), nil
	case TypeN:
		n := strings.TrimSpace(s)
		if _, ok := new(big.Float).SetString(n); !ok || strings.ContainsAny(n, "xXpP_") || strings.EqualFold(n, "inf") || strings.Contains(strings.ToLower(n), "inf") || strings.Contains(strings.ToLower(n), "nan") {
			return KeyValue{}, fmt.Errorf("%q is not a number: this key is numeric (N), so type digits such as 123 or 1.5", s)
		}
		return N(n), nil
	case TypeB:
		b, err := decodeBase64(strings.TrimPrefix(strings.TrimSpace(s), BinaryTag))
		if err != nil {
			return KeyValue{}, fmt.Errorf("%q is not base64: this key is binary (B), so type it base64-encoded (b64:AP4A, or AP4A)", s)
		}
		return B(b), nil
	}
	return KeyValue{}, fmt.Errorf("unknown key type %q", t)
}

// Arg is the value as people type it (--pk, the reopen command) and as
// lists show it: strings and numbers as they are, binaries as BinaryTag
// and base64.
func (v KeyValue) Arg() string {
	if v.Type == TypeB {
		return KeyText(TypeB, string(v.Bytes))
	}
	return v.Text
}

// BinaryTag marks a binary key value written as text: b64:AP4A is the
// bytes 00 fe 00. It is the one form binary keys are shown in, and what
// --pk and --prefix accept.
const BinaryTag = "b64:"

// KeyText shows a key's text (a whole key, a prefix or a segment) as
// people read and type it: a binary key's bytes as BinaryTag and base64,
// other keys as they are.
func KeyText(t KeyType, s string) string {
	if t == TypeB {
		return BinaryTag + base64.StdEncoding.EncodeToString([]byte(s))
	}
	return s
}

// ParseKeyText reads what KeyText wrote back into a key's text: a binary
// key's bytes from BinaryTag and base64 (bare text is taken as the bytes
// themselves).
func ParseKeyText(t KeyType, s string) (string, error) {
	if t != TypeB || !strings.HasPrefix(s, BinaryTag) {
		return s, nil
	}
	b, err := decodeBase64(s[len(BinaryTag):])
	if err != nil {
		return "", fmt.Errorf("%q is not base64 after %s", s, BinaryTag)
	}
	return string(b), nil
}
