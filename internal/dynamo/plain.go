package dynamo

import (
	"encoding/json"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Plain converts an attribute value to plain JSON-ready Go values: numbers as
// json.Number (exact, never rounded through float64), sets as arrays, binary
// as []byte (base64 in JSON), NULL as nil.
func Plain(av types.AttributeValue) any {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return json.Number(v.Value)
	case *types.AttributeValueMemberB:
		return v.Value
	case *types.AttributeValueMemberBOOL:
		return v.Value
	case *types.AttributeValueMemberNULL:
		return nil
	case *types.AttributeValueMemberM:
		return PlainItem(v.Value)
	case *types.AttributeValueMemberL:
		out := make([]any, len(v.Value))
		for i, e := range v.Value {
			out[i] = Plain(e)
		}
		return out
	case *types.AttributeValueMemberSS:
		return append([]string{}, v.Value...)
	case *types.AttributeValueMemberNS:
		out := make([]json.Number, len(v.Value))
		for i, n := range v.Value {
			out[i] = json.Number(n)
		}
		return out
	case *types.AttributeValueMemberBS:
		return append([][]byte{}, v.Value...)
	}
	return nil
}

// PlainItem converts an item to a map of plain values.
func PlainItem(item map[string]types.AttributeValue) map[string]any {
	out := make(map[string]any, len(item))
	for k, v := range item {
		out[k] = Plain(v)
	}
	return out
}

// TypeOf returns the DynamoDB type descriptor of a value: S, N, B, BOOL,
// NULL, M, L, SS, NS or BS.
func TypeOf(av types.AttributeValue) string {
	switch av.(type) {
	case *types.AttributeValueMemberS:
		return "S"
	case *types.AttributeValueMemberN:
		return "N"
	case *types.AttributeValueMemberB:
		return "B"
	case *types.AttributeValueMemberBOOL:
		return "BOOL"
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberM:
		return "M"
	case *types.AttributeValueMemberL:
		return "L"
	case *types.AttributeValueMemberSS:
		return "SS"
	case *types.AttributeValueMemberNS:
		return "NS"
	case *types.AttributeValueMemberBS:
		return "BS"
	}
	return "?"
}

// Wire converts an attribute value to DynamoDB's own JSON form
// ({"S": "…"}, {"N": "1"}, {"M": {…}}), as the AWS CLI prints it.
func Wire(av types.AttributeValue) map[string]any {
	t := TypeOf(av)
	switch v := av.(type) {
	case *types.AttributeValueMemberM:
		return map[string]any{t: WireItem(v.Value)}
	case *types.AttributeValueMemberL:
		out := make([]any, len(v.Value))
		for i, e := range v.Value {
			out[i] = Wire(e)
		}
		return map[string]any{t: out}
	case *types.AttributeValueMemberN:
		return map[string]any{t: v.Value}
	case *types.AttributeValueMemberNS:
		return map[string]any{t: append([]string{}, v.Value...)}
	case *types.AttributeValueMemberNULL:
		return map[string]any{t: true} // Plain's nil would be {"NULL": null}, which DynamoDB refuses
	}
	return map[string]any{t: Plain(av)}
}

// WireItem converts an item to DynamoDB JSON.
func WireItem(item map[string]types.AttributeValue) map[string]any {
	out := make(map[string]any, len(item))
	for k, v := range item {
		out[k] = Wire(v)
	}
	return out
}

// SortedNames returns an item's attribute names in byte order.
func SortedNames(item map[string]types.AttributeValue) []string {
	names := make([]string, 0, len(item))
	for k := range item {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
