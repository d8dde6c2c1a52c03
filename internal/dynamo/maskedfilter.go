package dynamo

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// Filter is n with every string or number typed against a masked
// attribute of table replaced by its stand-in, remembered as standing for
// the typed value: once entered, a typed value is shown (filter bar,
// request line, the commands `?` and y copy) as any masked value is,
// and requests built from the filter still ask for what was typed.
func (m *Masked) Filter(table string, n domain.FilterNode) domain.FilterNode {
	if m == nil || n == nil {
		return n
	}
	mask := m.For(table)
	if mask == nil {
		return n
	}
	masked := func(o domain.Operand) (string, bool) {
		var p domain.Path
		switch x := o.(type) {
		case domain.Path:
			p = x
		case domain.Size:
			p = x.Path
		}
		if len(p) == 0 || !slices.Contains(mask.Attributes(), p[0].Name) {
			return "", false
		}
		return p[0].Name, true
	}
	hide := func(attr string, o domain.Operand) domain.Operand {
		v, ok := o.(domain.Value)
		if !ok || strings.Contains(v.Text, "‹m") {
			return o // not a typed literal, or a stand-in already
		}
		m.mu.Lock()
		key := m.keys[table][attr]
		m.mu.Unlock()
		switch v.Kind {
		case domain.ValString:
			if key && mask.Whole(attr) {
				return domain.Value{Kind: domain.ValString, Text: m.KeyText(table, attr, v.Text)}
			}
			return domain.Value{Kind: domain.ValString, Text: m.standIn(mask, v.Text, &types.AttributeValueMemberS{Value: v.Text})}
		case domain.ValNumber:
			return domain.Value{Kind: domain.ValString, Text: m.standIn(mask, v.Text, &types.AttributeValueMemberN{Value: v.Text})}
		}
		return o
	}
	var walk func(domain.FilterNode) domain.FilterNode
	walk = func(n domain.FilterNode) domain.FilterNode {
		switch x := n.(type) {
		case domain.And:
			return domain.And{L: walk(x.L), R: walk(x.R)}
		case domain.Or:
			return domain.Or{L: walk(x.L), R: walk(x.R)}
		case domain.Not:
			return domain.Not{X: walk(x.X)}
		case domain.Compare:
			if a, ok := masked(x.L); ok {
				x.R = hide(a, x.R)
			}
			if a, ok := masked(x.R); ok {
				x.L = hide(a, x.L)
			}
			return x
		case domain.Between:
			if a, ok := masked(x.X); ok {
				x.Lo, x.Hi = hide(a, x.Lo), hide(a, x.Hi)
			}
			return x
		case domain.In:
			if a, ok := masked(x.X); ok {
				list := make([]domain.Operand, len(x.List))
				for i, v := range x.List {
					list[i] = hide(a, v)
				}
				x.List = list
			}
			return x
		case domain.Func:
			if a, ok := masked(x.Path); ok && x.Arg != nil {
				x.Arg = hide(a, x.Arg)
			}
			return x
		}
		return n
	}
	return walk(n)
}
