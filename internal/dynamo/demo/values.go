package demo

import (
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item is one demo item.
type Item = map[string]types.AttributeValue

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func num(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}
func dec(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
func boolean(b bool) types.AttributeValue {
	return &types.AttributeValueMemberBOOL{Value: b}
}
func strSet(s ...string) types.AttributeValue { return &types.AttributeValueMemberSS{Value: s} }
func list(v ...types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberL{Value: v}
}
func mapOf(kv ...any) types.AttributeValue {
	m := Item{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return &types.AttributeValueMemberM{Value: m}
}
