package export

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"sort"
	"strings"

	"github.com/dynascope/dynascope/dynamo"
)

// WriteCSV writes rows as CSV: the columns of first that cols holds, then
// the rest of cols in name order; text as it is, numbers exactly, nested
// values and sets as JSON, NULL or absent as an empty cell. each calls its
// argument with every row in turn. On a terminal, control characters are
// shown escaped.
func WriteCSV(w io.Writer, first []string, cols map[string]bool, each func(func(map[string]any) error) error, terminal bool) error {
	header := csvHeader(first, cols)
	out := csv.NewWriter(w)
	clean := func(s string) string { return s }
	if terminal {
		clean = func(s string) string { return strings.Trim(string(EscapeJSON(compactJSON(s))), `"`) }
	}
	row := make([]string, len(header))
	for i, h := range header {
		row[i] = clean(h)
	}
	if err := out.Write(row); err != nil {
		return err
	}
	err := each(func(it map[string]any) error {
		for i, h := range header {
			row[i] = clean(csvCell(it[h]))
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

// csvCell is one value in a CSV cell: text as it is, numbers exactly,
// everything nested as compact JSON, NULL or absent as empty.
func csvCell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	return string(compactJSON(v))
}
