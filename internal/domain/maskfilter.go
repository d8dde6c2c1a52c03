package domain

// Filter is n as it may be shown: every value typed against a masked
// attribute (compared with it, a bound of its range, in its list, the
// argument of its function) is that value's stand-in, as the attribute's
// values are. Requests use n itself.
func (m *Mask) Filter(n FilterNode) FilterNode {
	if m == nil || n == nil {
		return n
	}
	masked := func(o Operand) bool {
		var p Path
		switch x := o.(type) {
		case Path:
			p = x
		case Size:
			p = x.Path
		}
		return len(p) > 0 && len(m.paths[p[0].Name]) > 0
	}
	hide := func(o Operand) Operand {
		if v, ok := o.(Value); ok {
			text := v.Text
			switch v.Kind {
			case ValBool:
				text = "false"
				if v.Bool {
					text = "true"
				}
			case ValNull:
				text = "null"
			}
			return Value{Kind: ValString, Text: m.StandIn(text)}
		}
		return o
	}
	switch x := n.(type) {
	case And:
		return And{L: m.Filter(x.L), R: m.Filter(x.R)}
	case Or:
		return Or{L: m.Filter(x.L), R: m.Filter(x.R)}
	case Not:
		return Not{X: m.Filter(x.X)}
	case Compare:
		if masked(x.L) || masked(x.R) {
			x.L, x.R = hide(x.L), hide(x.R)
		}
		return x
	case Between:
		if masked(x.X) {
			x.Lo, x.Hi = hide(x.Lo), hide(x.Hi)
		}
		return x
	case In:
		if masked(x.X) {
			list := make([]Operand, len(x.List))
			for i, v := range x.List {
				list[i] = hide(v)
			}
			x.List = list
		}
		return x
	case Func:
		if x.Arg != nil && masked(x.Path) {
			x.Arg = hide(x.Arg)
		}
		return x
	}
	return n
}
