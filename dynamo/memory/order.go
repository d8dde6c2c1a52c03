package memory

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"math/big"
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

func parseDecimal(s string) (decimal, bool) {
	r, ok := new(big.Rat).SetString(strings.TrimSpace(s))
	if !ok {
		return decimal{}, false
	}
	var d decimal
	d.neg = r.Sign() < 0
	if r.Sign() == 0 {
		return d, true
	}
	// Work on the literal text: big.Rat confirms it is a number, the text
	// keeps every digit exactly.
	t := strings.TrimLeft(strings.TrimSpace(s), "+-")
	mant, expPart := t, ""
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		mant, expPart = t[:i], t[i+1:]
	}
	e := 0
	if expPart != "" {
		n, ok := new(big.Int).SetString(expPart, 10)
		if !ok || !n.IsInt64() {
			return decimal{}, false
		}
		e = int(n.Int64())
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	all := intPart + frac
	lead := len(all) - len(strings.TrimLeft(all, "0"))
	all = strings.TrimRight(all[lead:], "0")
	d.digits = all
	d.exp = len(intPart) - lead + e
	return d, true
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

// canonical is the number's normal text, used to identify equal numbers.
func (d decimal) canonical() string { return d.lexi() }

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
		if d, ok := parseDecimal(x.Value); ok {
			return &types.AttributeValueMemberN{Value: d.String()}
		}
	case *types.AttributeValueMemberNS:
		out := make([]string, len(x.Value))
		for i, s := range x.Value {
			d, _ := parseDecimal(s)
			out[i] = d.String()
		}
		return &types.AttributeValueMemberNS{Value: out}
	case *types.AttributeValueMemberM:
		return &types.AttributeValueMemberM{Value: normalizeItem(x.Value)}
	case *types.AttributeValueMemberL:
		out := make([]types.AttributeValue, len(x.Value))
		for i, e := range x.Value {
			out[i] = normalize(e)
		}
		return &types.AttributeValueMemberL{Value: out}
	}
	return v
}

func normalizeItem(item map[string]types.AttributeValue) map[string]types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(item))
	for k, v := range item {
		out[k] = normalize(v)
	}
	return out
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
// bytes), so Scan pages come back in the same order on both backends. For
// N keys the bytes are our canonical form, so only S and B match dynalite.
func hashPrefix(parts ...[]byte) string {
	h := md5.New()
	h.Write([]byte("Outliers"))
	for _, p := range parts {
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))[:6]
}

func keyBytes(av types.AttributeValue) []byte {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return []byte(v.Value)
	case *types.AttributeValueMemberB:
		return v.Value
	case *types.AttributeValueMemberN:
		d, _ := parseDecimal(v.Value)
		return []byte(d.canonical())
	}
	return nil
}

func compareBytes(a, b string) int { return bytes.Compare([]byte(a), []byte(b)) }
