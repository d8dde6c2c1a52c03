package cli

import (
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// noLimit is what a budget flag takes for a read without a budget, where
// one may run unbounded (--max-rcu none).
const noLimit = "none"

// budgetFlag is an RCU budget flag, checked as it is parsed: a positive
// number of RCU, or none where a read may run without a limit. 0 is
// refused: a budget of nothing is a slip more often than a wish, and it
// once meant "no limit", which is now said in words.
type budgetFlag struct {
	v      *float64 // 0: no limit
	name   string
	noneOK bool
}

// budgetVar registers a budget flag of fl holding p (def: its default,
// 0 for none).
func budgetVar(fl *pflag.FlagSet, p *float64, name string, def float64, noneOK bool, usage string) {
	*p = def
	fl.Var(budgetFlag{v: p, name: name, noneOK: noneOK}, name, usage)
}

func (b budgetFlag) String() string {
	if b.v == nil {
		return ""
	}
	if *b.v == 0 {
		return noLimit
	}
	return strconv.FormatFloat(*b.v, 'f', -1, 64)
}

func (b budgetFlag) Type() string { return "RCU" }

func (b budgetFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	if b.noneOK && strings.EqualFold(s, noLimit) {
		*b.v = 0
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return usage(budgetHint(b.noneOK, "--"+b.name), "--%s %q is not a number of RCU", b.name, s)
	}
	if v == 0 {
		return usage(budgetHint(b.noneOK, "--"+b.name), "--%s 0 is not a budget: it would pay for no read", b.name)
	}
	if err := checkBudget("--"+b.name, v, b.noneOK); err != nil {
		return err
	}
	*b.v = v
	return nil
}

// budgetHint says what to type instead of a budget that is none.
func budgetHint(noneOK bool, flag string) string {
	if noneOK {
		return "give a positive number of RCU, such as 100, or " + flag + " " + noLimit + " for no limit"
	}
	return "give a positive number of RCU, such as 100"
}
