package demo

import "fmt"

// Policies keep their history in a convention of their own,
// rev#<n>#<clause> (rev#0#Terms is the current copy), which dynascope
// reads once told: version_pattern = "rev#{n}#{name}" in the
// configuration, or --version-pattern.
const (
	PolicyTable   = "Policies"
	PolicyPattern = "rev#{n}#{name}"
	// PolicyDrifted's PolicyDriftedItem has a rev#0 copy still holding the
	// old limit; its Terms are clean.
	PolicyDrifted     = "POL-1001"
	PolicyDriftedItem = "Coverage"
	// PolicyGap's Terms skip rev#3.
	PolicyGap = "POL-1002"
	// PolicyPadded's Terms are numbered rev#001…rev#012.
	PolicyPadded = "POL-1003"
)

var holders = []string{"Acme Freight", "Northwind Traders", "Blue Yonder Air"}

func holder(policy string) string { return holders[int(policy[len(policy)-1])%len(holders)] }

func clause(policy, name string, rev int) Item {
	return Item{
		"PK": str(policy), "Holder": str(holder(policy)),
		"Status":        str([]string{"DRAFT", "ACTIVE", "ACTIVE", "RENEWED"}[rev%4]),
		"Premium":       num(int64(1200 + 75*rev)),
		"Limit":         num(int64(250000 * (1 + rev/2))),
		"EffectiveFrom": str(fmt.Sprintf("2025-%02d-01", 1+rev%12)),
		"Clauses":       list(str(name+" §1"), str(fmt.Sprintf("%s §%d", name, 2+rev))),
	}
}

// clauseHistory emits revisions nums of one clause and, with current, a
// rev#0 copy of the newest, edited by change when not nil.
func clauseHistory(emit func(Item) error, policy, name, digits string, nums []int, change func(Item)) error {
	var newest Item
	for _, n := range nums {
		newest = clause(policy, name, n)
		newest["SK"] = str(fmt.Sprintf("rev#"+digits+"#%s", n, name))
		if err := emit(newest); err != nil {
			return err
		}
	}
	cur := Item{}
	for k, v := range newest {
		cur[k] = v
	}
	cur["SK"] = str(fmt.Sprintf("rev#"+digits+"#%s", 0, name))
	if change != nil {
		change(cur)
	}
	return emit(cur)
}

func policies(emit func(Item) error) error {
	steps := []func() error{
		func() error { return clauseHistory(emit, PolicyDrifted, "Terms", "%d", seq(3), nil) },
		func() error {
			return clauseHistory(emit, PolicyDrifted, PolicyDriftedItem, "%d", seq(2), func(cur Item) { cur["Limit"] = num(250000) })
		},
		func() error { return clauseHistory(emit, PolicyGap, "Terms", "%d", []int{1, 2, 4}, nil) },
		func() error { return clauseHistory(emit, PolicyPadded, "Terms", "%03d", seq(12), nil) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	for _, p := range []string{PolicyDrifted, PolicyGap, PolicyPadded} {
		if err := emit(Item{"PK": str(p), "SK": str("metadata"), "Holder": str(holder(p)), "Broker": str("Contoso Risk")}); err != nil {
			return err
		}
	}
	return nil
}
