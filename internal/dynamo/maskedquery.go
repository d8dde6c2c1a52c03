package dynamo

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// RealQuery is q, built from what was shown, with its stand-ins swapped
// back for the real values: the query the masked client sends. It holds
// the values the mask hides, so it is only for a copy the user asked
// for knowing that.
func (m *Masked) RealQuery(q domain.KeyQuery) domain.KeyQuery {
	real := func(v domain.KeyValue) domain.KeyValue {
		if v.IsZero() {
			return v
		}
		return m.KeyValue(v)
	}
	q.PK, q.SK.A, q.SK.B = real(q.PK), real(q.SK.A), real(q.SK.B)
	q.Filter = m.realFilter(q.Filter)
	return q
}

// realFilter is n with every stand-in it holds swapped back (a number's
// stand-in back to a number).
func (m *Masked) realFilter(n domain.FilterNode) domain.FilterNode {
	op := func(o domain.Operand) domain.Operand {
		v, ok := o.(domain.Value)
		if !ok || !strings.Contains(v.Text, "‹m") {
			return o
		}
		switch x := m.value(&types.AttributeValueMemberS{Value: v.Text}).(type) {
		case *types.AttributeValueMemberN:
			return domain.Value{Kind: domain.ValNumber, Text: x.Value}
		case *types.AttributeValueMemberS:
			return domain.Value{Kind: domain.ValString, Text: x.Value}
		}
		return domain.Value{Kind: v.Kind, Text: m.Text(v.Text)}
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
			x.L, x.R = op(x.L), op(x.R)
			return x
		case domain.Between:
			x.Lo, x.Hi = op(x.Lo), op(x.Hi)
			return x
		case domain.In:
			list := make([]domain.Operand, len(x.List))
			for i, v := range x.List {
				list[i] = op(v)
			}
			x.List = list
			return x
		case domain.Func:
			if x.Arg != nil {
				x.Arg = op(x.Arg)
			}
			return x
		}
		return n
	}
	if n == nil {
		return nil
	}
	return walk(n)
}
