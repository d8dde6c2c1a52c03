package dynamo

import (
	"github.com/dynascope/dynascope/internal/domain"
)

// What a reader holding only a Client (the explorer's pages) asks of the
// mask behind it. Each takes the client the reader reads through and
// finds the masked client there (through the metering layer, as
// StreamsOf finds streams); where there is none, or it masks nothing of
// the table, each hands back what it was given. So the explorer never
// holds the masked client itself: values become stand-ins only here.

// maskOf is the masked client c reads through, nil where there is none.
func maskOf(c Client) *Masked {
	for c != nil {
		switch w := c.(type) {
		case *Masked:
			return w
		case *Metered:
			c = w.Client
		default:
			return nil
		}
	}
	return nil
}

// Masks reports whether c masks anything of table (the explorer's badge,
// and why y copies no command for it).
func Masks(c Client, table string) bool {
	m := maskOf(c)
	return m != nil && m.Masks(table)
}

// MaskedAttributes are the attributes c masks in table, sorted (none
// where c masks nothing).
func MaskedAttributes(c Client, table string) []string {
	m := maskOf(c)
	if m == nil {
		return nil
	}
	return m.For(table).Attributes()
}

// TypedFilter is a filter on table as the user typed it (real values), as
// it may be shown from then on: each value typed against a masked
// attribute replaced by its stand-in, which c's reads swap back, so that
// the filter bar, the request line and what y copies never show it while
// the reads still ask for what was typed. n itself where c masks nothing.
func TypedFilter(c Client, table string, n domain.FilterNode) domain.FilterNode {
	return maskOf(c).Filter(table, n)
}

// TypedKey is a key value of table's attribute attr as the user typed it
// (a partition to open), as it may be shown from then on: masked segment
// by segment where c masks attr; c's reads given it ask for value.
func TypedKey(c Client, table, attr, value string) string {
	m := maskOf(c)
	if m == nil {
		return value
	}
	return m.KeyText(table, attr, value)
}

// MaskedComparison is how a comparison of q's items on info's table with
// table right reads and shows them where c masks either table: both sides
// are read below the mask (below, with the query's stand-ins swapped back:
// real) and shown through one mask by show, so that equal values compare
// equal. Each side read through a masked client of its own would be
// masked apart, and the comparison made on stand-ins. Where the two
// tables are masked differently, show masks with both masks joined,
// drawing on the same stand-ins (a value reads as it does everywhere
// else). show is nil, and below and real are c and q, where c masks
// neither table.
func MaskedComparison(c Client, info TableInfo, right string, q domain.KeyQuery) (below Client, real domain.KeyQuery, show func(Item) map[string]any) {
	m := maskOf(c)
	if m == nil || (!m.Masks(info.Name) && !m.Masks(right)) {
		return c, q, nil
	}
	through := m
	if lm, rm := m.For(info.Name), m.For(right); lm != rm {
		joined := lm.Union(rm)
		through = NewMasked(m.Client, func(string) *domain.Mask { return joined }, m.Delim)
	}
	through.Learn(info) // its keys masked segment by segment, as the tree shows them
	return m.Client, m.RealQuery(q), func(it Item) map[string]any { return PlainItem(through.ShownItem(info.Name, it)) }
}
