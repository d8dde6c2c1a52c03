package export

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"sort"
	"strings"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// CSVNull is how a CSV cell says NULL (DynamoDB's NULL, JSON's null), as
// PostgreSQL's and MySQL's text exports do; an attribute an item does not
// have is an empty cell. No text cell reads \N: Sanitize doubles the
// backslash, so the string `\N` is written `\\N`.
const CSVNull = `\N`

// WriteCSV writes rows as CSV: the columns of first that cols holds, then
// the rest of cols in name order; text as it is, numbers exactly, nested
// values and sets as JSON, NULL as CSVNull and absent as an empty cell, so
// that the two are told apart as JSON tells them. each calls its
// argument with every row in turn. Whether or not w is a terminal, every
// cell is safe to print (Sanitize) and safe to open in a spreadsheet:
// text a spreadsheet would evaluate as a formula starts with a ' (see
// NeutraliseFormula); numbers stay numbers.
func WriteCSV(w io.Writer, first []string, cols map[string]bool, each func(func(map[string]any) error) error, terminal bool) error {
	header := csvHeader(first, cols)
	out := csv.NewWriter(w)
	row := make([]string, len(header))
	for i, h := range header {
		row[i] = Sanitize(NeutraliseFormula(h))
	}
	if err := out.Write(row); err != nil {
		return err
	}
	err := each(func(it map[string]any) error {
		for i, h := range header {
			row[i] = ""
			if v, ok := it[h]; ok {
				row[i] = csvCell(v)
			}
		}
		return out.Write(row)
	})
	if err != nil {
		return err
	}
	out.Flush()
	return out.Error()
}

func csvHeader(first []string, cols map[string]bool) []string {
	header := []string{}
	lead := map[string]bool{}
	for _, k := range first {
		if k != "" && cols[k] && !lead[k] {
			header = append(header, k)
			lead[k] = true
		}
	}
	rest := make([]string, 0, len(cols))
	for k := range cols {
		if !lead[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(header, rest...)
}

// Rows writes rows as JSON lines, one JSON array, or CSV whose columns are
// the union of the rows' fields. A row is written as its JSON says, so
// items and result rows read the same way in every format.
func Rows(w io.Writer, format string, rows dynamo.Rows, terminal bool) error {
	if format != "csv" {
		out := NewJSONRows(w, format)
		for _, r := range rows.Rows {
			if err := out.Write(r); err != nil {
				out.Flush()
				return err
			}
		}
		return out.Close()
	}
	plain := make([]map[string]any, len(rows.Rows))
	cols := map[string]bool{}
	for i, r := range rows.Rows {
		m, err := decodePlain(compactJSON(r))
		if err != nil {
			return err
		}
		for k := range m {
			cols[k] = true
		}
		plain[i] = m
	}
	return WriteCSV(w, rows.First, cols, func(row func(map[string]any) error) error {
		for _, m := range plain {
			if err := row(m); err != nil {
				return err
			}
		}
		return nil
	}, terminal)
}

// NeutraliseFormula makes text that a spreadsheet would evaluate — it
// starts with =, +, -, @, a tab or a carriage return — plain text, as
// OWASP recommends against CSV injection: a leading '. Only text cells
// pass through it, so a number such as -5 stays a number.
func NeutraliseFormula(s string) string {
	if s != "" && strings.IndexByte("=+-@\t\r", s[0]) >= 0 {
		return "'" + s
	}
	return s
}

// csvCell is one value in a CSV cell: text as it is (a formula
// neutralised), numbers exactly, everything nested as compact JSON, NULL
// as CSVNull.
func csvCell(v any) string {
	switch x := v.(type) {
	case nil:
		return CSVNull
	case string:
		return Sanitize(NeutraliseFormula(x))
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	// JSON escapes its own backslashes and controls; sanitizing it again
	// would double them.
	return string(EscapeJSON(compactJSON(v)))
}
