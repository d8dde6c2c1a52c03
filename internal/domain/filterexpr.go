package domain

import (
	"fmt"
	"strings"
)

// FormatFilter writes a filter back in the syntax ParseFilter reads, with
// the parentheses its structure needs: what the request line shows and what
// a deep link carries. Parsing the result gives the same tree.
func FormatFilter(n FilterNode) string { return formatNode(n, false) }

func formatNode(n FilterNode, nested bool) string { return filterSyntax.node(n, nested) }

// syntax is how a filter tree is written back: its words, the brackets
// of an IN list, and how operands and paths are written (the f grammar's,
// or PartiQL's).
type syntax struct {
	and, or, not, between, betweenAnd, in, open, close string
	operand                                            func(Operand) string
	path                                               func(Path) string
}

var filterSyntax = syntax{" and ", " or ", "not ", " between ", " and ", " in ", "(", ")", formatOperand, Path.String}

// node writes n in s, parenthesised as its structure needs (infix).
func (s syntax) node(n FilterNode, nested bool) string {
	return infix(n, nested, s.and, s.or, s.not, s.node, func(x Compare) string {
		return s.operand(x.L) + " " + x.Op + " " + s.operand(x.R)
	}, func(n FilterNode) string {
		switch x := n.(type) {
		case Between:
			return s.operand(x.X) + s.between + s.operand(x.Lo) + s.betweenAnd + s.operand(x.Hi)
		case In:
			l := make([]string, len(x.List))
			for i, v := range x.List {
				l[i] = s.operand(v)
			}
			return s.operand(x.X) + s.in + s.open + strings.Join(l, ", ") + s.close
		case Func:
			if x.Arg == nil {
				return x.Name + "(" + s.path(x.Path) + ")"
			}
			return x.Name + "(" + s.path(x.Path) + ", " + s.operand(x.Arg) + ")"
		}
		return "?"
	})
}

// infix writes and/or/not with the parentheses the tree needs: none for
// the left operand of the same operator (the parser groups to the left),
// around any other and/or operand. leaf writes comparisons and functions.
func infix(n FilterNode, nested bool, and, or, not string, sub func(FilterNode, bool) string, cmp func(Compare) string, leaf func(FilterNode) string) string {
	wrap := func(s string) string {
		if nested {
			return "(" + s + ")"
		}
		return s
	}
	switch x := n.(type) {
	case And:
		_, sameLeft := x.L.(And)
		return wrap(sub(x.L, !sameLeft) + and + sub(x.R, true))
	case Or:
		_, sameLeft := x.L.(Or)
		return wrap(sub(x.L, !sameLeft) + or + sub(x.R, true))
	case Not:
		return not + sub(x.X, true)
	case Compare:
		return cmp(x)
	}
	return leaf(n)
}

func formatOperand(o Operand) string {
	switch x := o.(type) {
	case Path:
		return x.String()
	case Size:
		return "size(" + x.Path.String() + ")"
	case Value:
		switch x.Kind {
		case ValString: // with the escapes the filter reads
			return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(x.Text) + `"`
		case ValBool:
			return fmt.Sprint(x.Bool)
		case ValNull:
			return "null"
		}
		return x.Text
	}
	return "?"
}

// FilterPlaceholders renders a filter as DynamoDB expression text in which
// every name is a #placeholder and every value a :placeholder, with their
// maps in DynamoDB JSON: what `aws dynamodb query --filter-expression`
// takes. Names and values typed by people never become expression text.
func FilterPlaceholders(n FilterNode) (expr string, names map[string]string, values map[string]map[string]any) {
	r := placeholderRenderer{names: map[string]string{}, byName: map[string]string{}, values: map[string]map[string]any{}}
	return r.node(n, false), r.names, r.values
}

type placeholderRenderer struct {
	names  map[string]string // #f0 → name
	byName map[string]string // name → #f0
	values map[string]map[string]any
}

func (r *placeholderRenderer) node(n FilterNode, nested bool) string {
	return infix(n, nested, " AND ", " OR ", "NOT ", r.node, func(x Compare) string {
		return r.operand(x.L) + " " + x.Op + " " + r.operand(x.R)
	}, func(n FilterNode) string {
		switch x := n.(type) {
		case Between:
			return r.operand(x.X) + " BETWEEN " + r.operand(x.Lo) + " AND " + r.operand(x.Hi)
		case In:
			l := make([]string, len(x.List))
			for i, v := range x.List {
				l[i] = r.operand(v)
			}
			return r.operand(x.X) + " IN (" + strings.Join(l, ", ") + ")"
		case Func:
			if x.Arg == nil {
				return x.Name + "(" + r.path(x.Path) + ")"
			}
			return x.Name + "(" + r.path(x.Path) + ", " + r.operand(x.Arg) + ")"
		}
		return "?"
	})
}

func (r *placeholderRenderer) operand(o Operand) string {
	switch x := o.(type) {
	case Path:
		return r.path(x)
	case Size:
		return "size(" + r.path(x.Path) + ")"
	case Value:
		ph := fmt.Sprintf(":f%d", len(r.values))
		r.values[ph] = FilterValueJSON(x)
		return ph
	}
	return "?"
}

func (r *placeholderRenderer) path(p Path) string {
	return p.Written(func(name string) string {
		ph, ok := r.byName[name]
		if !ok {
			ph = fmt.Sprintf("#f%d", len(r.names))
			r.names[ph], r.byName[name] = name, ph
		}
		return ph
	})
}

// FilterValueJSON is a literal as DynamoDB JSON: {"S": …}, {"N": …},
// {"BOOL": …} or {"NULL": true}.
func FilterValueJSON(v Value) map[string]any {
	switch v.Kind {
	case ValNumber:
		return map[string]any{"N": v.Text}
	case ValBool:
		return map[string]any{"BOOL": v.Bool}
	case ValNull:
		return map[string]any{"NULL": true}
	}
	return map[string]any{"S": v.Text}
}

// goFilter is Go source building the filter with the expression builder,
// as the explorer itself does (names not split on dots, values typed).
func goFilter(n FilterNode) string {
	switch x := n.(type) {
	case And:
		return "expression.And(" + goFilter(x.L) + ", " + goFilter(x.R) + ")"
	case Or:
		return "expression.Or(" + goFilter(x.L) + ", " + goFilter(x.R) + ")"
	case Not:
		return "expression.Not(" + goFilter(x.X) + ")"
	case Compare:
		fn := map[string]string{"=": "Equal", "<>": "NotEqual", "<": "LessThan", "<=": "LessThanEqual", ">": "GreaterThan", ">=": "GreaterThanEqual"}[x.Op]
		return "expression." + fn + "(" + goOperand(x.L) + ", " + goOperand(x.R) + ")"
	case Between:
		return "expression.Between(" + goOperand(x.X) + ", " + goOperand(x.Lo) + ", " + goOperand(x.Hi) + ")"
	case In:
		l := make([]string, len(x.List))
		for i, v := range x.List {
			l[i] = goOperand(v)
		}
		return "expression.In(" + goOperand(x.X) + ", " + strings.Join(l, ", ") + ")"
	case Func:
		p := goPath(x.Path)
		switch x.Name {
		case "attribute_exists":
			return "expression.AttributeExists(" + p + ")"
		case "attribute_not_exists":
			return "expression.AttributeNotExists(" + p + ")"
		case "attribute_type":
			return "expression.AttributeType(" + p + ", expression.DynamoDBAttributeType(" + fmt.Sprintf("%q", goText(x.Arg)) + "))"
		case "begins_with":
			return "expression.BeginsWith(" + p + ", " + fmt.Sprintf("%q", goText(x.Arg)) + ")"
		case "contains":
			return "expression.Contains(" + p + ", " + goValue(x.Arg) + ")"
		}
	}
	return "expression.ConditionBuilder{}"
}

func goText(o Operand) string {
	v, _ := o.(Value)
	return v.Text
}

func goOperand(o Operand) string {
	switch x := o.(type) {
	case Path:
		return goPath(x)
	case Size:
		return goPath(x.Path) + ".Size()"
	}
	return "expression.Value(" + goValue(o) + ")"
}

func goValue(o Operand) string {
	v, _ := o.(Value)
	switch v.Kind {
	case ValNumber:
		return fmt.Sprintf("&types.AttributeValueMemberN{Value: %q}", v.Text)
	case ValBool:
		return fmt.Sprintf("&types.AttributeValueMemberBOOL{Value: %v}", v.Bool)
	case ValNull:
		return "&types.AttributeValueMemberNULL{Value: true}"
	}
	return fmt.Sprintf("&types.AttributeValueMemberS{Value: %q}", v.Text)
}

func goPath(p Path) string {
	s := fmt.Sprintf("expression.NameNoDotSplit(%q)", p[0].Name)
	for _, part := range p[1:] {
		name := part.Name
		if part.IsIdx {
			name = fmt.Sprintf("[%d]", part.Index)
		}
		s += fmt.Sprintf(".AppendName(expression.NameNoDotSplit(%q))", name)
	}
	return s
}

// EveryFilterKind is a filter using every operator and function, for tests
// of what is generated from filters.
const EveryFilterKind = "(a = \"x\" or a <> 1) and not (b < 2 or b <= 3 or b > 4 or b >= 5) and c between 1 and 9 and d in (\"p\", 2, true) and " +
	"attribute_exists(e) and attribute_not_exists(f.g[1]) and attribute_type(h, \"N\") and begins_with(`i.j`, \"k\") and contains(l, \"m\") and size(n) > 3 and o = null"
