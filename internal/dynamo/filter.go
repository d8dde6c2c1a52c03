package dynamo

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// FilterCondition compiles a parsed filter with the SDK's expression
// builder: every name and value becomes a placeholder.
func FilterCondition(n domain.FilterNode) (expression.ConditionBuilder, error) {
	switch x := n.(type) {
	case domain.And:
		l, err := FilterCondition(x.L)
		if err != nil {
			return l, err
		}
		r, err := FilterCondition(x.R)
		return expression.And(l, r), err
	case domain.Or:
		l, err := FilterCondition(x.L)
		if err != nil {
			return l, err
		}
		r, err := FilterCondition(x.R)
		return expression.Or(l, r), err
	case domain.Not:
		c, err := FilterCondition(x.X)
		return expression.Not(c), err
	case domain.Compare:
		l, r := operand(x.L), operand(x.R)
		switch x.Op {
		case "=":
			return expression.Equal(l, r), nil
		case "<>":
			return expression.NotEqual(l, r), nil
		case "<":
			return expression.LessThan(l, r), nil
		case "<=":
			return expression.LessThanEqual(l, r), nil
		case ">":
			return expression.GreaterThan(l, r), nil
		case ">=":
			return expression.GreaterThanEqual(l, r), nil
		}
	case domain.Between:
		return expression.Between(operand(x.X), operand(x.Lo), operand(x.Hi)), nil
	case domain.In:
		rest := make([]expression.OperandBuilder, 0, len(x.List))
		for _, v := range x.List[1:] {
			rest = append(rest, operand(v))
		}
		return expression.In(operand(x.X), operand(x.List[0]), rest...), nil
	case domain.Func:
		nb := nameOf(x.Path)
		switch x.Name {
		case "attribute_exists":
			return expression.AttributeExists(nb), nil
		case "attribute_not_exists":
			return expression.AttributeNotExists(nb), nil
		case "attribute_type":
			v, ok := x.Arg.(domain.Value)
			if !ok || v.Kind != domain.ValString {
				return expression.ConditionBuilder{}, fmt.Errorf("attribute_type takes a type name in quotes: attribute_type(x, \"N\")")
			}
			return expression.AttributeType(nb, expression.DynamoDBAttributeType(v.Text)), nil
		case "begins_with":
			v, ok := x.Arg.(domain.Value)
			if !ok || v.Kind != domain.ValString {
				return expression.ConditionBuilder{}, fmt.Errorf("begins_with takes a string in quotes: begins_with(email, \"ops@\")")
			}
			return expression.BeginsWith(nb, v.Text), nil
		case "contains":
			v, ok := x.Arg.(domain.Value)
			if !ok {
				return expression.ConditionBuilder{}, fmt.Errorf("contains takes a value: contains(tags, \"urgent\")")
			}
			return expression.Contains(nb, attributeOf(v)), nil
		}
	}
	return expression.ConditionBuilder{}, fmt.Errorf("this filter cannot be compiled")
}

// nameOf builds a path without splitting names on dots (`a.b` stays one
// name) or reading brackets in a name as a list index (`s[0]` stays one
// name): NameNoDotSplit still splits a trailing [0] off, so such names go
// through it escaped, and QueryInput restores them in the placeholders.
func nameOf(p domain.Path) expression.NameBuilder {
	nb := expression.NameNoDotSplit(escapeName(p[0].Name))
	for _, part := range p[1:] {
		if part.IsIdx {
			nb = nb.AppendName(expression.NameNoDotSplit(fmt.Sprintf("[%d]", part.Index)))
		} else {
			nb = nb.AppendName(expression.NameNoDotSplit(escapeName(part.Name)))
		}
	}
	return nb
}

// escapedPrefix marks a name the expression builder would misread.
const escapedPrefix = "\x00dynascope-name:"

func escapeName(name string) string {
	if !strings.ContainsAny(name, "[]") && !strings.HasPrefix(name, escapedPrefix) {
		return name
	}
	return escapedPrefix + hex.EncodeToString([]byte(name))
}

// unescapeNames restores escaped names in a built expression's
// ExpressionAttributeNames.
func unescapeNames(names map[string]string) map[string]string {
	for k, v := range names {
		if rest, ok := strings.CutPrefix(v, escapedPrefix); ok {
			if b, err := hex.DecodeString(rest); err == nil {
				names[k] = string(b)
			}
		}
	}
	return names
}

func attributeOf(v domain.Value) types.AttributeValue {
	switch v.Kind {
	case domain.ValNumber:
		return &types.AttributeValueMemberN{Value: v.Text}
	case domain.ValBool:
		return &types.AttributeValueMemberBOOL{Value: v.Bool}
	case domain.ValNull:
		return &types.AttributeValueMemberNULL{Value: true}
	}
	return &types.AttributeValueMemberS{Value: v.Text}
}

func operand(o domain.Operand) expression.OperandBuilder {
	switch x := o.(type) {
	case domain.Path:
		return nameOf(x)
	case domain.Size:
		return nameOf(x.Path).Size()
	case domain.Value:
		return expression.Value(attributeOf(x))
	}
	return nil
}

// MatchHeld is the items among held (read whole by another view) that
// filter n matches, applied here as DynamoDB applies it (the embedded
// backend's evaluator, SetLocalMatcher): a list read again through a
// filter without a request. ok is false where it cannot be: no matcher,
// a filter the builder refuses, or c masking table (held items hold
// stand-ins where the filter's values are typed).
func MatchHeld(c Client, table string, held []Item, n domain.FilterNode) (matches []Item, ok bool) {
	if localMatcher == nil || n == nil || Masks(c, table) {
		return nil, false
	}
	cond, err := FilterCondition(n)
	if err != nil {
		return nil, false
	}
	expr, err := expression.NewBuilder().WithFilter(cond).Build()
	if err != nil {
		return nil, false
	}
	match, err := localMatcher(expr.Filter(), nil, unescapeNames(expr.Names()), expr.Values())
	if err != nil {
		return nil, false
	}
	matches = []Item{}
	for _, it := range held {
		if m, ok := match(it); ok {
			matches = append(matches, m)
		}
	}
	return matches, true
}
