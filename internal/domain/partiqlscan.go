package domain

import "fmt"

// WhyScan says why a WHERE that pins the partition key pk (by equality,
// IN, or an OR of them) is read by a Scan of the whole table all the
// same: a value no Query can name, or a condition on a key that a
// Query's filter may not name and no key condition can say. "" where the
// WHERE pins no partition key, or is read by Query. It is said in the
// filter's own words (FormatFilter), for the explorer's f and scan,
// where such a filter would otherwise turn a partition's read into a
// table's without a word.
func (st Statement) WhyScan(pk KeyDef, sk *KeyDef) string {
	conj := conjuncts(st.Where)
	at := pinIndex(conj, pk.Name)
	ops, branches := branchPins(st.Where, pk.Name)
	if at < 0 && !branches {
		return ""
	}
	plan, err := st.Plan(pk, sk)
	if err == nil && len(plan.Queries) > 0 {
		return ""
	}
	if at >= 0 {
		ops = pinnedOperands(conj[at], pk.Name)
	}
	for _, o := range ops {
		v := o.(Value)
		switch {
		case otherType(v, pk):
			return fmt.Sprintf("%s is a %s key and %s is not one, so no Query can name it", NameText(pk.Name), keyTypeWord(pk.Type), formatOperand(v))
		case v.Kind == ValString && v.Text == "":
			return fmt.Sprintf(`%s = "": a partition key is never empty, and DynamoDB refuses a Query for one`, NameText(pk.Name))
		}
	}
	if err != nil {
		return err.Error()
	}
	return "its conditions on the keys are not ones a Query's key condition can say"
}

func keyTypeWord(t KeyType) string {
	switch t {
	case TypeS:
		return "string"
	case TypeN:
		return "number"
	}
	return "binary"
}
