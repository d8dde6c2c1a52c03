package export

import (
	"bufio"
	"encoding/json"
	"io"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// CSVNull is how a CSV cell says NULL (DynamoDB's NULL, JSON's null), as
// PostgreSQL's and MySQL's text exports do; an attribute an item does not
// have is an empty cell. No text cell reads \N: Sanitize doubles the
// backslash, so the string `\N` is written `\\N`.
const CSVNull = `\N`

// WriteCSV writes rows as CSV: the columns of first that cols holds, then
// the rest of cols in name order; text as it is, numbers exactly, nested
// values and sets as JSON, NULL as CSVNull, an empty string as "" and
// absent as an empty cell, so that the three are told apart as JSON
// tells them. each calls its argument with every row in turn. Whether or
// not w is a terminal, every cell is safe to print (Sanitize) and safe to
// open in a spreadsheet: text a spreadsheet would evaluate as a formula
// starts with a ' (see NeutraliseFormula); numbers stay numbers.
//
// With no rows (no columns seen), the header is first alone, the columns
// every row would lead with; with no first either, nothing is written
// until a row comes: never a lone empty line, which reads as one row of
// one empty cell.
func WriteCSV(w io.Writer, first []string, cols map[string]bool, each func(func(map[string]any) error) error, terminal bool) error {
	if len(cols) == 0 {
		cols = map[string]bool{}
		for _, k := range first {
			if k != "" {
				cols[k] = true
			}
		}
	}
	header := csvHeader(first, cols)
	out := bufio.NewWriter(w)
	row := make([]string, len(header))
	empty := make([]bool, len(header)) // an empty string, not an absent value
	for i, h := range header {
		row[i] = Sanitize(NeutraliseFormula(h))
	}
	headed := len(header) > 0
	if headed {
		writeRecord(out, row, empty)
	}
	err := each(func(it map[string]any) error {
		if !headed {
			headed = true
			writeRecord(out, row, empty)
		}
		for i, h := range header {
			row[i], empty[i] = "", false
			if v, ok := it[h]; ok {
				row[i] = csvCell(v)
				empty[i] = row[i] == ""
			}
		}
		return writeRecord(out, row, empty)
	})
	if err != nil {
		return err
	}
	return out.Flush()
}

// writeRecord writes one CSV record as encoding/csv's Writer does (comma,
// \n, a field quoted where it holds a comma, a quote or a line break,
// starts with a space, or is \.), and an empty field quoted where empty
// says it is an empty string: encoding/csv writes "" as nothing, as it
// writes a cell the row does not have.
func writeRecord(w *bufio.Writer, record []string, empty []bool) error {
	for n, field := range record {
		if n > 0 {
			w.WriteByte(',')
		}
		if !empty[n] && !fieldNeedsQuotes(field) {
			w.WriteString(field)
			continue
		}
		w.WriteByte('"')
		w.WriteString(strings.ReplaceAll(field, `"`, `""`))
		w.WriteByte('"')
	}
	return w.WriteByte('\n')
}

// fieldNeedsQuotes is encoding/csv's rule for a comma-separated field.
func fieldNeedsQuotes(field string) bool {
	if field == "" {
		return false
	}
	if field == `\.` || strings.ContainsAny(field, "\n\r\",") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(field)
	return unicode.IsSpace(r)
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
