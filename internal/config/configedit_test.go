package config

import (
	"slices"
	"strings"
	"testing"
)

const editable = `# my settings
theme = "dark"   # keep this comment

[tables.Locations]
delimiter = "#"  # segments
levels = "STATE#CITY#ZIP"

[tables.Locations.shards]
usa = "usa-{1..2}"

[tables."odd.name"]
columns = [
  "a",   # first
  "b",
]
count_budget = 5
`

func TestSetTableColumns(t *testing.T) {
	for _, tc := range []struct {
		table string
		cols  []string
		want  string // a line the result must hold
		gone  string // text the result must not hold
	}{
		{"Locations", []string{"City", "SquareFeet"}, "levels = \"STATE#CITY#ZIP\"\ncolumns = [\"City\", \"SquareFeet\"]\n\n[tables.Locations.shards]", ""},
		{"odd.name", []string{"z"}, "[tables.\"odd.name\"]\ncolumns = [\"z\"]\ncount_budget = 5", `"a",   # first`},
		{"odd.name", nil, "[tables.\"odd.name\"]\ncount_budget = 5", "columns"},
		{"New Table", []string{`quote"d`, "tab\there", "東京"}, "\n\n[tables.\"New Table\"]\ncolumns = [\"quote\\\"d\", \"tab\\there\", \"東京\"]\n", ""},
		{"Locations", nil, "levels = \"STATE#CITY#ZIP\"\n\n[tables.Locations.shards]", ""},
	} {
		out, err := SetTableColumns(editable, tc.table, tc.cols)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.table, tc.cols, err)
		}
		c, err := ParseConfig(out)
		if err != nil || !slices.Equal(c.Table(tc.table).Columns, tc.cols) {
			t.Fatalf("%s: read back %v (%v)\n%s", tc.table, c.Table(tc.table).Columns, err, out)
		}
		if !strings.Contains(out, tc.want) || tc.gone != "" && strings.Contains(out, tc.gone) {
			t.Errorf("%s %v: result\n%s\nwant it to hold %q and not %q", tc.table, tc.cols, out, tc.want, tc.gone)
		}
		for _, keep := range []string{"# my settings", `theme = "dark"   # keep this comment`, `delimiter = "#"  # segments`, `usa = "usa-{1..2}"`} {
			if !strings.Contains(out, keep) {
				t.Errorf("%s: lost %q", tc.table, keep)
			}
		}
	}
	if out, err := SetTableColumns("", "T", []string{"a"}); err != nil || out != "[tables.T]\ncolumns = [\"a\"]\n" {
		t.Errorf("empty file: %q %v", out, err)
	}
	for _, tc := range []struct{ text, want string }{
		{"tables = { T = { delimiter = \"#\" } }\n", "add columns = [...] under it by hand"},
		{"[tables.T]\ndelimiter = \n", "line 2"},
	} {
		if _, err := SetTableColumns(tc.text, "T", []string{"a"}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}

// FuzzSetTableColumns: an edit of a good file either is refused or reads
// back with exactly the columns asked for and every other setting as it was.
func FuzzSetTableColumns(f *testing.F) {
	f.Add(editable, "Locations", "City,SquareFeet")
	f.Add(editable, "odd.name", "")
	f.Add("[tables.'lit']\ncolumns=['x']\n", "lit", "y")
	f.Add("theme = \"dark\"\n", "a b", "x\ty")
	f.Fuzz(func(t *testing.T, text, table, cols string) {
		before, err := ParseConfig(text)
		if err != nil {
			return
		}
		var want []string
		if cols != "" {
			want = strings.Split(cols, ",")
		}
		out, err := SetTableColumns(text, table, want)
		if err != nil {
			return
		}
		after, err := ParseConfig(out)
		if err != nil || !slices.Equal(after.Table(table).Columns, want) || !sameBesidesColumns(before, after, table) {
			t.Fatalf("%q on %q with %q gave\n%s\n(%v)", table, text, want, out, err)
		}
	})
}
