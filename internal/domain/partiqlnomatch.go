package domain

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// NoMatch is a condition that pins the partition key to what no item's
// key is: a value of another type than the key's (PK = 81 where PK is a
// string: DynamoDB compares types first, so it is false for every item),
// or an empty string (a key is never empty). A WHERE that is an AND of
// it matches nothing, and is refused before any request rather than read
// by a Scan of the whole table; an OR branch of it matches nothing, and
// is left out of the plan.
//
// A sort key compared (=, <, <=, >, >=) with a value of another type, in
// an AND that pins the partition key, matches nothing for the same
// reason: Op is the comparison ("" is =).
type NoMatch struct {
	Key   KeyDef
	Value Value
	Op    string
}

// Voice is whom a refusal speaks to, so that what it says to do can be
// done there: the command line names a command and its flags, the
// explorer a screen and its keys.
type Voice int

const (
	CommandLine Voice = iota
	Explorer
)

// Say is what is wrong and what to write instead, in the filter's words
// (partiql false: PK = "81") or a statement's (PK = '81'), to the
// command line.
func (m NoMatch) Say(partiql bool) string { return m.SayTo(partiql, CommandLine) }

// SayTo is Say to v: a binary partition is read with items --pk on the
// command line, and opened from the partitions list in the explorer.
func (m NoMatch) SayTo(partiql bool, v Voice) string {
	name, cond := m.name(partiql), m.cond(partiql)
	if m.Key.Type == TypeB {
		read := "read that partition with dynascope items --pk " + binaryKeyArg(m.Value)
		if binaryKeyArg(m.Value) == "b64:…" {
			// No base64 to hand on (bk = 0): say what goes there, so the
			// line can be followed as written.
			read = "read a partition with dynascope items --pk b64:<its key's bytes in base64> (dynascope partitions lists them so)"
		}
		if v == Explorer {
			read = "open that partition from the table's partitions list"
			if arg := binaryKeyArg(m.Value); arg != "b64:…" {
				read = "open partition " + arg + " from the table's partitions list (/ " + arg + " goes to it)"
			}
		}
		return fmt.Sprintf("%s is a binary key, so %s matches no item (DynamoDB compares types first, and %s has no binary value): %s", name, cond, map[bool]string{true: "a statement", false: "a filter"}[partiql], read)
	}
	if m.Value.Kind == ValString && m.Value.Text == "" {
		return fmt.Sprintf("%s matches no item: a partition key is never empty; write the key's value", cond)
	}
	return fmt.Sprintf("%s is a %s key, so %s matches no item: write %s", name, keyTypeWord(m.Key.Type), cond, m.write(partiql))
}

// typed reports whether m is refused for its value's type alone (not a
// binary key, not an empty string): the refusals that say "K is a number
// key, so …", which several values of one IN share.
func (m NoMatch) typed() bool {
	return m.Key.Type != TypeB && (m.Value.Kind != ValString || m.Value.Text != "")
}

// cond is the condition as written, in the filter's words or a
// statement's; write is what to write instead.
func (m NoMatch) cond(partiql bool) string {
	return m.name(partiql) + " " + m.op() + " " + m.operand(partiql, m.Value)
}

func (m NoMatch) write(partiql bool) string {
	return m.name(partiql) + " " + m.op() + " " + m.operand(partiql, m.asKeyType())
}

func (m NoMatch) name(partiql bool) string {
	if partiql {
		return partiqlName(m.Key.Name)
	}
	return NameText(m.Key.Name)
}

func (m NoMatch) operand(partiql bool, v Value) string {
	if partiql {
		return partiqlOperand(v)
	}
	return formatOperand(v)
}

func (m NoMatch) op() string {
	if m.Op == "" {
		return "="
	}
	return m.Op
}

// asKeyType is the value as the key's type would be written: 81 as
// "81", "5" as 5 (a text that is no number: 123, a number to fill in).
func (m NoMatch) asKeyType() Value {
	text := m.Value.Text
	switch m.Value.Kind {
	case ValBool:
		text = fmt.Sprint(m.Value.Bool)
	case ValNull:
		text = "null"
	}
	if m.Key.Type == TypeN {
		if _, err := ParseKeyValue(TypeN, strings.TrimSpace(text)); err != nil {
			return Value{Kind: ValNumber, Text: "123"}
		}
		return Value{Kind: ValNumber, Text: strings.TrimSpace(text)}
	}
	return Value{Kind: ValString, Text: text}
}

// NoMatchError is a WHERE every item fails: an AND of a NoMatch (or an
// OR of nothing else), refused before any request.
type NoMatchError struct {
	NoMatch []NoMatch
}

// Error is the refusal in a statement's words: a filter's say it with
// Say(false).
func (e *NoMatchError) Error() string { return e.Say(true) }

// Say is the refusal in the filter's words or a statement's, to the
// command line.
func (e *NoMatchError) Say(partiql bool) string { return e.SayTo(partiql, CommandLine) }

// SayTo is Say to v.
func (e *NoMatchError) SayTo(partiql bool, v Voice) string {
	return sayNoMatch(e.NoMatch, partiql, v)
}

// SayNoMatch says the OR branches a plan left out, each matching no
// item, in the filter's words or a statement's ("" for none), to v.
func (p Plan) SayNoMatch(partiql bool, v Voice) string {
	if len(p.NoMatch) == 0 {
		return ""
	}
	return sayNoMatch(p.NoMatch, partiql, v) + "; " + branchWord(len(p.NoMatch)) + " left out, the rest read"
}

func branchWord(n int) string {
	if n == 1 {
		return "that branch is"
	}
	return "those branches are"
}

func sayNoMatch(ms []NoMatch, partiql bool, v Voice) string {
	says := make([]string, 0, len(ms))
	seen := map[string]bool{}
	var prev *NoMatch
	for _, m := range ms {
		s := m.SayTo(partiql, v)
		if seen[s] {
			continue
		}
		seen[s] = true
		if prev != nil && prev.typed() && m.typed() && prev.Key == m.Key {
			// Another value of the same key (an IN's): the key's type said
			// once, not again for each value.
			s = "nor does " + m.cond(partiql) + ": write " + m.write(partiql)
		}
		prev = &m
		says = append(says, s)
	}
	return strings.Join(says, "; ")
}

// noMatch reports whether v, compared equal to the partition key pk,
// matches no item. Every literal does on a binary key: neither grammar
// has a binary value, so PK = "AP8=" compares a string with binary, and
// was read as a Scan of the whole table for nothing.
func noMatch(v Value, pk KeyDef) (NoMatch, bool) {
	return NoMatch{Key: pk, Value: v}, otherType(v, pk) || pk.Type == TypeB || pk.Type == TypeS && v.Kind == ValString && v.Text == ""
}

// binaryKeyArg is --pk's b64: form of v where v's text is base64, as
// every output writes a binary key, else a b64: to fill in.
func binaryKeyArg(v Value) string {
	if v.Kind == ValString && v.Text != "" {
		if _, err := base64.StdEncoding.DecodeString(v.Text); err == nil {
			return "b64:" + v.Text
		}
	}
	return "b64:…"
}

// otherType reports whether v is of another type than key k (a string
// or a number key; a binary key's literal is left to the planner, which
// says how to name one): DynamoDB compares types first, so k compared
// with v is false for every item.
func otherType(v Value, k KeyDef) bool {
	return k.Type == TypeS && v.Kind != ValString || k.Type == TypeN && v.Kind != ValNumber
}

// withoutNoMatch is n without what matches no item for pinning the
// partition key pk to what no key is (NoMatch), and those pins: an OR
// branch of one dropped, an IN's value of one dropped, an AND of one
// nothing at all (kept nil, dead not empty). NOT is kept whole: what it
// negates matching nothing, it matches as much as it did. Every item
// that matches n matches kept.
func withoutNoMatch(n FilterNode, pk KeyDef) (kept FilterNode, dead []NoMatch) {
	switch x := n.(type) {
	case Compare:
		v, ok := x.R.(Value)
		if !isKey(x.L, pk.Name) {
			v, ok = x.L.(Value)
			ok = ok && isKey(x.R, pk.Name)
		}
		if m, none := noMatch(v, pk); ok && x.Op == "=" && none {
			return nil, []NoMatch{m}
		}
	case In:
		if !isKey(x.X, pk.Name) || !allValues(x.List) {
			return n, nil
		}
		var list []Operand
		for _, o := range x.List {
			if m, none := noMatch(o.(Value), pk); none {
				dead = append(dead, m)
			} else {
				list = append(list, o)
			}
		}
		if len(list) == 0 {
			return nil, dead
		}
		if len(dead) > 0 {
			return In{X: x.X, List: list}, dead
		}
	case And:
		l, dl := withoutNoMatch(x.L, pk)
		r, dr := withoutNoMatch(x.R, pk)
		switch {
		case l == nil && r == nil:
			return nil, append(dl, dr...)
		case l == nil:
			return nil, dl
		case r == nil:
			return nil, dr
		}
		return And{l, r}, append(dl, dr...)
	case Or:
		l, dl := withoutNoMatch(x.L, pk)
		r, dr := withoutNoMatch(x.R, pk)
		switch {
		case l == nil && r == nil:
			return nil, append(dl, dr...)
		case l == nil:
			return r, append(dl, dr...)
		case r == nil:
			return l, append(dl, dr...)
		}
		return Or{l, r}, append(dl, dr...)
	}
	return n, nil
}

// As lets a statement's refusal be read as every other (a PartiQLError,
// in its own quotes).
func (e *NoMatchError) As(target any) bool {
	if pe, ok := target.(**PartiQLError); ok {
		*pe = &PartiQLError{Msg: e.Error()}
		return true
	}
	return false
}
