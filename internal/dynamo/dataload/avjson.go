package dataload

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// wireValue is one attribute value in DynamoDB JSON, the form exports, the
// AWS CLI and NoSQL Workbench all write: {"S": "…"}, {"N": "12"}, {"M": {…}}.
type wireValue struct {
	S    *string              `json:",omitzero"`
	N    *string              `json:",omitzero"`
	B    []byte               `json:",omitzero"`
	BOOL *bool                `json:",omitzero"`
	NULL *bool                `json:",omitzero"`
	SS   []string             `json:",omitzero"`
	NS   []string             `json:",omitzero"`
	BS   [][]byte             `json:",omitzero"`
	M    map[string]wireValue `json:",omitzero"`
	L    []wireValue          `json:",omitzero"`
}

type wireItem map[string]wireValue

// toItem converts a decoded item, checking what DynamoDB checks of a value:
// exactly one type, numbers that parse, sets that are not empty and hold no
// duplicates.
func (w wireItem) toItem() (map[string]types.AttributeValue, error) {
	out := make(map[string]types.AttributeValue, len(w))
	for name, v := range w {
		av, err := v.value()
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", name, err)
		}
		out[name] = av
	}
	return out, nil
}

func (v *wireValue) value() (types.AttributeValue, error) {
	var out types.AttributeValue
	n := 0
	set := func(av types.AttributeValue) {
		out = av
		n++
	}
	if v.S != nil {
		set(&types.AttributeValueMemberS{Value: *v.S})
	}
	if v.N != nil {
		if !validNumber(*v.N) {
			return nil, fmt.Errorf("%q is not a number", *v.N)
		}
		set(&types.AttributeValueMemberN{Value: *v.N})
	}
	if v.B != nil {
		set(&types.AttributeValueMemberB{Value: v.B})
	}
	if v.BOOL != nil {
		set(&types.AttributeValueMemberBOOL{Value: *v.BOOL})
	}
	if v.NULL != nil {
		if !*v.NULL {
			return nil, fmt.Errorf(`NULL must be true`)
		}
		set(&types.AttributeValueMemberNULL{Value: true})
	}
	if v.SS != nil {
		if err := checkSet(v.SS); err != nil {
			return nil, err
		}
		set(&types.AttributeValueMemberSS{Value: v.SS})
	}
	if v.NS != nil {
		for _, s := range v.NS {
			if !validNumber(s) {
				return nil, fmt.Errorf("%q in NS is not a number", s)
			}
		}
		if err := checkSet(v.NS); err != nil {
			return nil, err
		}
		set(&types.AttributeValueMemberNS{Value: v.NS})
	}
	if v.BS != nil {
		ss := make([]string, len(v.BS))
		for i, b := range v.BS {
			ss[i] = string(b)
		}
		if err := checkSet(ss); err != nil {
			return nil, err
		}
		set(&types.AttributeValueMemberBS{Value: v.BS})
	}
	if v.M != nil {
		m, err := wireItem(v.M).toItem()
		if err != nil {
			return nil, err
		}
		set(&types.AttributeValueMemberM{Value: m})
	}
	if v.L != nil {
		l := make([]types.AttributeValue, len(v.L))
		for i := range v.L {
			av, err := v.L[i].value()
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			l[i] = av
		}
		set(&types.AttributeValueMemberL{Value: l})
	}
	switch n {
	case 1:
		return out, nil
	case 0:
		return nil, fmt.Errorf("no type: write it as {\"S\": …}, {\"N\": …}, {\"M\": …} and so on")
	default:
		return nil, fmt.Errorf("more than one type in one value")
	}
}

func checkSet(s []string) error {
	if len(s) == 0 {
		return fmt.Errorf("an empty set: DynamoDB has none")
	}
	c := append([]string(nil), s...)
	sort.Strings(c)
	for i := 1; i < len(c); i++ {
		if c[i] == c[i-1] {
			return fmt.Errorf("a set with %q twice", c[i])
		}
	}
	return nil
}

// validNumber accepts DynamoDB's number syntax: an optional sign, digits
// with an optional point, an optional exponent.
func validNumber(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

// decodeItem parses one item in DynamoDB JSON.
func decodeItem(raw []byte) (map[string]types.AttributeValue, error) {
	var w wireItem
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	return w.toItem()
}

// MarshalItem writes an item in DynamoDB JSON, as exports and the AWS CLI
// do; the loader reads back exactly what it writes.
func MarshalItem(item map[string]types.AttributeValue) ([]byte, error) {
	return json.Marshal(toWireItem(item))
}

func toWireItem(item map[string]types.AttributeValue) wireItem {
	w := make(wireItem, len(item))
	for k, v := range item {
		w[k] = toWire(v)
	}
	return w
}

func toWire(av types.AttributeValue) wireValue {
	t := true
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return wireValue{S: &v.Value}
	case *types.AttributeValueMemberN:
		return wireValue{N: &v.Value}
	case *types.AttributeValueMemberB:
		if v.Value == nil {
			return wireValue{B: []byte{}}
		}
		return wireValue{B: v.Value}
	case *types.AttributeValueMemberBOOL:
		return wireValue{BOOL: &v.Value}
	case *types.AttributeValueMemberNULL:
		return wireValue{NULL: &t}
	case *types.AttributeValueMemberSS:
		return wireValue{SS: v.Value}
	case *types.AttributeValueMemberNS:
		return wireValue{NS: v.Value}
	case *types.AttributeValueMemberBS:
		return wireValue{BS: v.Value}
	case *types.AttributeValueMemberM:
		return wireValue{M: toWireItem(v.Value)}
	case *types.AttributeValueMemberL:
		l := make([]wireValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = toWire(e)
		}
		return wireValue{L: l}
	}
	return wireValue{}
}
