package domain

import (
	"strings"
)

// PartiQLSelect is SELECT * FROM table (or "table"."index") WHERE n,
// written in PartiQL's quotes (strings in single quotes, odd names and
// words the statement reads in double quotes), which ParsePartiQL reads
// back to n: the statement `dynascope partiql` runs for a filter the
// explorer's f was given (nil n: no WHERE).
func PartiQLSelect(table, index string, n FilterNode) string {
	from := partiqlName(table)
	if index != "" {
		from += "." + partiqlName(index)
	}
	if n == nil {
		return "SELECT * FROM " + from
	}
	return "SELECT * FROM " + from + " WHERE " + partiqlNode(n, false)
}

func partiqlNode(n FilterNode, nested bool) string { return partiqlSyntax.node(n, nested) }

var partiqlSyntax = syntax{" AND ", " OR ", "NOT ", " BETWEEN ", " AND ", " IN ", "[", "]", partiqlOperand, partiqlPath}

func partiqlOperand(o Operand) string {
	switch x := o.(type) {
	case Path:
		return partiqlPath(x)
	case Size:
		return "size(" + partiqlPath(x.Path) + ")"
	case Value:
		return partiqlValue(x)
	}
	return "?"
}

func partiqlPath(p Path) string { return p.Written(partiqlName) }

// partiqlWords are the words a statement reads as its own, never as a
// name: a name spelled so goes in double quotes.
var partiqlWords = map[string]bool{
	"select": true, "from": true, "where": true, "and": true, "or": true, "not": true, "between": true, "in": true,
	"is": true, "missing": true, "null": true, "true": true, "false": true, "order": true, "by": true, "asc": true,
	"desc": true, "limit": true, "size": true, "join": true, "as": true, "count": true,
}

// partiqlName is a name as a statement writes it: bare where it is a
// plain word that is no word of the statement's, else in double quotes.
func partiqlName(s string) string {
	if plainName(s) && !partiqlWords[strings.ToLower(s)] && filterFuncs[strings.ToLower(s)] == 0 {
		return s
	}
	return quotedName(s)
}

// quotedName is a name in a statement's double quotes, its own doubled.
func quotedName(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
