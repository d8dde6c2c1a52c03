package domain

// BareWords are the one-word attribute names on the value side of the
// filter's comparisons (Level = ERROR, x in (A, B), contains(tags, urgent),
// x between LOW and HIGH) that known does not know: most likely values
// typed without quotes, which DynamoDB would compare with an attribute of
// that name. Each is listed once, in the order written.
func BareWords(n FilterNode, known func(name string) bool) []string {
	var out []string
	seen := map[string]bool{}
	check := func(o Operand) {
		p, ok := o.(Path)
		if !ok || len(p) != 1 || p[0].IsIdx || known(p[0].Name) || seen[p[0].Name] {
			return
		}
		seen[p[0].Name] = true
		out = append(out, p[0].Name)
	}
	var walk func(FilterNode)
	walk = func(n FilterNode) {
		switch n := n.(type) {
		case And:
			walk(n.L)
			walk(n.R)
		case Or:
			walk(n.L)
			walk(n.R)
		case Not:
			walk(n.X)
		case Compare:
			check(n.R)
		case Between:
			check(n.Lo)
			check(n.Hi)
		case In:
			for _, o := range n.List {
				check(o)
			}
		case Func:
			if n.Arg != nil {
				check(n.Arg)
			}
		}
	}
	walk(n)
	return out
}
