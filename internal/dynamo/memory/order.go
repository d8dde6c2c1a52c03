package memory

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// decimal is a DynamoDB number split into sign, significant digits and the
// exponent of the first digit (value = 0.d1d2… × 10^exp).
type decimal struct {
	neg    bool
	digits string // no leading or trailing zeros; "" for zero
	exp    int
}

// parseDecimal reads a DynamoDB number: an optional sign, digits with an
// optional point, an optional exponent. It keeps every digit exactly.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.neg = s[i] == '-'
		i++
	}
	intPart, i := digitsAt(s, i)
	frac := ""
	if i < len(s) && s[i] == '.' {
		frac, i = digitsAt(s, i+1)
	}
	if intPart == "" && frac == "" {
		return decimal{}, false
	}
	e, i, ok := exponentAt(s, i)
	if !ok || i != len(s) {
		return decimal{}, false
	}
	all := intPart + frac
	lead := 0
	for lead < len(all) && all[lead] == '0' {
		lead++
	}
	d.digits = strings.TrimRight(all[lead:], "0")
	if d.digits == "" {
		d.neg = false
		return d, true
	}
	d.exp = len(intPart) - lead + e
	return d, true
}

// digitsAt is the run of digits in s from i, and where it ends.
func digitsAt(s string, i int) (string, int) {
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[start:i], i
}

// exponentAt reads an exponent (e or E, a sign, digits) in s from i, if
// one is there: its value and where it ends. ok is false for an exponent
// without digits or too large for any DynamoDB number.
func exponentAt(s string, i int) (e, end int, ok bool) {
	if i >= len(s) || s[i] != 'e' && s[i] != 'E' {
		return 0, i, true
	}
	i++
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	digits, end := digitsAt(s, i)
	if digits == "" {
		return 0, end, false
	}
	for j := 0; j < len(digits); j++ {
		if e > 100000 {
			return 0, end, false
		}
		e = e*10 + int(digits[j]-'0')
	}
	if neg {
		e = -e
	}
	return e, end, true
}

// lexi encodes a number so that byte order is numeric order.
func (d decimal) lexi() string {
	if d.digits == "" {
		return "1"
	}
	var b strings.Builder
	if d.neg {
		b.WriteByte('0')
		writeExp(&b, 5000-d.exp)
		for i := 0; i < len(d.digits); i++ {
			b.WriteByte('9' - (d.digits[i] - '0'))
		}
		b.WriteByte('~') // shorter negatives are larger: -1 > -1.5
		return b.String()
	}
	b.WriteByte('2')
	writeExp(&b, 5000+d.exp)
	b.WriteString(d.digits)
	return b.String()
}

func writeExp(b *strings.Builder, e int) {
	const digits = "0123456789"
	for div := 1000; div > 0; div /= 10 {
		b.WriteByte(digits[(e/div)%10])
	}
}

// String is the number as DynamoDB returns it: plain decimal notation, no
// exponent, no leading or trailing zeros ("12.50" → "12.5", "1e3" → "1000").
func (d decimal) String() string {
	if d.digits == "" {
		return "0"
	}
	sign := ""
	if d.neg {
		sign = "-"
	}
	switch n := len(d.digits); {
	case d.exp <= 0:
		return sign + "0." + strings.Repeat("0", -d.exp) + d.digits
	case d.exp >= n:
		return sign + d.digits + strings.Repeat("0", d.exp-n)
	default:
		return sign + d.digits[:d.exp] + "." + d.digits[d.exp:]
	}
}

// normalize returns a copy of v with every number in DynamoDB's form.
func normalize(v types.AttributeValue) types.AttributeValue {
	switch x := v.(type) {
	case *types.AttributeValueMemberN:
		if canonicalNumber(x.Value) {
			return v // the common case, without parsing
		}
		if d, ok := parseDecimal(x.Value); ok && d.String() != x.Value {
			return &types.AttributeValueMemberN{Value: d.String()}
		}
	case *types.AttributeValueMemberNS:
		changed := false
		out := make([]string, len(x.Value))
		for i, s := range x.Value {
			d, _ := parseDecimal(s)
			out[i] = d.String()
			changed = changed || out[i] != s
		}
		if changed {
			return &types.AttributeValueMemberNS{Value: out}
		}
	case *types.AttributeValueMemberM:
		if m, changed := normalizeMap(x.Value); changed {
			return &types.AttributeValueMemberM{Value: m}
		}
	case *types.AttributeValueMemberL:
		var out []types.AttributeValue
		for i, e := range x.Value {
			if n := normalize(e); n != e {
				if out == nil {
					out = append([]types.AttributeValue(nil), x.Value...)
				}
				out[i] = n
			}
		}
		if out != nil {
			return &types.AttributeValueMemberL{Value: out}
		}
	}
	return v
}

// canonicalNumber reports, without allocating, whether s is a number as
// DynamoDB returns it (decimal.String's form): -?(0|[1-9][0-9]*)(.[0-9]*[1-9])?
// and not "-0". False means only that s must be parsed to know.
func canonicalNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i == len(s):
		return false
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i == len(s) {
		return s != "-0"
	}
	if s[i] != '.' || s[len(s)-1] < '1' || s[len(s)-1] > '9' {
		return false
	}
	for i++; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// normalizeItem copies the item only when a number needs rewriting, so the
// common case (numbers already in DynamoDB's form) allocates nothing.
func normalizeItem(item map[string]types.AttributeValue) map[string]types.AttributeValue {
	out, _ := normalizeMap(item)
	return out
}

func normalizeMap(item map[string]types.AttributeValue) (map[string]types.AttributeValue, bool) {
	var out map[string]types.AttributeValue
	for k, v := range item {
		if n := normalize(v); n != v {
			if out == nil {
				out = make(map[string]types.AttributeValue, len(item))
				for k2, v2 := range item {
					out[k2] = v2
				}
			}
			out[k] = n
		}
	}
	if out == nil {
		return item, false
	}
	return out, true
}

// sortKey encodes a scalar key value for ordering: raw bytes for S and B
// (DynamoDB orders by UTF-8 bytes), lexi for N.
func sortKey(av types.AttributeValue) (string, bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, true
	case *types.AttributeValueMemberB:
		return string(v.Value), true
	case *types.AttributeValueMemberN:
		d, ok := parseDecimal(v.Value)
		if !ok {
			return "", false
		}
		return d.lexi(), true
	}
	return "", false
}

// hashPrefix orders partitions the way dynalite does (an md5 of the key's
// bytes), so Scan pages come back in the same order on both backends.
func hashPrefix(parts ...[]byte) string {
	var buf [128]byte
	b := append(buf[:0], "Outliers"...)
	for _, p := range parts {
		b = append(b, p...)
	}
	sum := md5.Sum(b)
	return hex.EncodeToString(sum[:3])
}

// keyBytes is a key value's bytes as the hash sees them: UTF-8 for S, the
// bytes for B, and for N the binary number form DynamoDB's Java SDK writes
// (numberBytes), which dynalite hashes.
func keyBytes(av types.AttributeValue) []byte {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return []byte(v.Value)
	case *types.AttributeValueMemberB:
		return v.Value
	case *types.AttributeValueMemberN:
		d, _ := parseDecimal(v.Value)
		return numberBytes(d)
	}
	return nil
}

// numberBytes encodes a number as base-100 digits: one byte of exponent
// (in hundreds, offset by 64; inverted for negatives), then each pair of
// decimal digits d as d+1 (101-d for negatives, which end with 102 when
// short). Zero is the single byte 0x80. The differential suite found that
// hashing any other form put number-keyed partitions in another scan
// order than dynalite's.
func numberBytes(d decimal) []byte {
	if d.digits == "" {
		return []byte{0x80}
	}
	exp := d.exp // the value is 0.d1d2… × 10^exp
	digits := d.digits
	odd := exp%2 != 0
	if odd {
		digits = "0" + digits
		exp++
	}
	if len(digits)%2 != 0 {
		digits += "0"
	}
	head := int32(exp/2 - 64)
	if d.neg {
		head = ^head
	}
	out := []byte{byte(head)}
	for i := 0; i < len(digits); i += 2 {
		pair := int(digits[i]-'0')*10 + int(digits[i+1]-'0')
		if d.neg {
			out = append(out, byte(101-pair))
		} else {
			out = append(out, byte(pair+1))
		}
	}
	if d.neg && len(digits)/2 < 20 {
		out = append(out, 102)
	}
	return out
}

func compareBytes(a, b string) int { return bytes.Compare([]byte(a), []byte(b)) }
