package domain

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestFormatFilter(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`status = "FAILED"`, `status = "FAILED"`},
		{`attempts > 3 and not attribute_exists(resolvedAt)`, `attempts > 3 and not attribute_exists(resolvedAt)`},
		{`a = 1 or b = 2 and c = 3`, `a = 1 or (b = 2 and c = 3)`},
		{`(a = 1 or b = 2) and c = 3`, `(a = 1 or b = 2) and c = 3`},
		{`not (a = 1 or b = 2)`, `not (a = 1 or b = 2)`},
		{"order.items[0].sku in (\"A\", 3) and `odd name` between 1 and 5", "order.items[0].sku in (\"A\", 3) and `odd name` between 1 and 5"},
		{`size(payload) > 1000 and contains(tags, "urgent")`, `size(payload) > 1000 and contains(tags, "urgent")`},
		{"x = \"line\\nbreak \\\"q\\\"\"", "x = \"line\\nbreak \\\"q\\\"\""},
		{`ok = true and gone = null`, `ok = true and gone = null`},
	} {
		n, err := ParseFilter(tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		got := FormatFilter(n)
		if got != tc.want {
			t.Errorf("%q formats as %q, want %q", tc.in, got, tc.want)
		}
		again, err := ParseFilter(got)
		if err != nil || show(again) != show(n) {
			t.Errorf("%q reads back as %v (%v)", got, again, err)
		}
	}
}

func TestFilterPlaceholders(t *testing.T) {
	n, err := ParseFilter("status = \"FAILED\" and (order.items[0].sku in (\"A\", 3) or size(`a.b`) > 10) and begins_with(status, \"F\") and ok = true and gone = null")
	if err != nil {
		t.Fatal(err)
	}
	expr, names, values := FilterPlaceholders(n)
	want := "#f0 = :f0 AND (#f1.#f2[0].#f3 IN (:f1, :f2) OR size(#f4) > :f3) AND begins_with(#f0, :f4) AND #f5 = :f5 AND #f6 = :f6"
	if expr != want {
		t.Errorf("expression\n%s\nwant\n%s", expr, want)
	}
	nj, _ := json.Marshal(names)
	vj, _ := json.Marshal(values)
	if string(nj) != `{"#f0":"status","#f1":"order","#f2":"items","#f3":"sku","#f4":"a.b","#f5":"ok","#f6":"gone"}` {
		t.Errorf("names %s", nj)
	}
	if string(vj) != `{":f0":{"S":"FAILED"},":f1":{"S":"A"},":f2":{"N":"3"},":f3":{"N":"10"},":f4":{"S":"F"},":f5":{"BOOL":true},":f6":{"NULL":true}}` {
		t.Errorf("values %s", vj)
	}
	for _, s := range []string{"FAILED", "status", "sku"} { // typed text never reaches the expression
		if strings.Contains(expr, s) {
			t.Errorf("%q pasted into %s", s, expr)
		}
	}
}

func TestAWSCLICommandWithFilter(t *testing.T) {
	n, _ := ParseFilter(`Level = "ERROR" and Temperature > 30`)
	q := KeyQuery{Table: "DeviceLogs", PKName: "DeviceID", PK: N("123"), SKName: "Timestamp", Filter: n}
	want := `aws dynamodb query --table-name DeviceLogs --key-condition-expression '#pk = :pk' --filter-expression '#f0 = :f0 AND #f1 > :f1' --expression-attribute-names '{"#f0":"Level","#f1":"Temperature","#pk":"DeviceID"}' --expression-attribute-values '{":f0":{"S":"ERROR"},":f1":{"N":"30"},":pk":{"N":"123"}}' --return-consumed-capacity TOTAL`
	if got := AWSCLICommand(q, "", "", 0); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if d := q.Describe(); !strings.HasSuffix(d, `filter Level = "ERROR" and Temperature > 30`) {
		t.Errorf("request line %q does not show the filter", d)
	}
}

// TestGoSnippetWithEveryFilterParses: the snippet's filter is valid Go for
// every node kind (TestGoSnippetCompiles builds it against the SDK).
func TestGoSnippetWithEveryFilterParses(t *testing.T) {
	n, err := ParseFilter(EveryFilterKind)
	if err != nil {
		t.Fatal(err)
	}
	q := KeyQuery{Table: "T", PKName: "PK", PK: S("p"), SKName: "SK", Filter: n}
	src := "package p\nfunc f() error {\n" + GoSnippet(q) + "return nil\n}\n"
	if _, err := parser.ParseFile(token.NewFileSet(), "snippet.go", src, 0); err != nil {
		t.Errorf("%v\n%s", err, src)
	}
	if !strings.Contains(src, "WithFilter(filter)") || !strings.Contains(src, "FilterExpression:") {
		t.Errorf("the snippet drops the filter:\n%s", src)
	}
}

// FuzzFormatFilter: whatever parses, formatted and parsed again, is the
// same tree; and its placeholder form names every value once.
func FuzzFormatFilter(f *testing.F) {
	for _, s := range []string{`status = "FAILED"`, `a = 1 or b = 2 and c = 3`, `not (a = 1 or b = 2)`, EveryFilterKind,
		"a = 1 and (b = 2 and c = 3)", "(a or b) = 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseFilter(s)
		if err != nil {
			return
		}
		text := FormatFilter(n)
		again, err := ParseFilter(text)
		if err != nil || show(again) != show(n) {
			t.Fatalf("%q formats as %q, which reads back as %v (%v)", s, text, again, err)
		}
		expr, _, values := FilterPlaceholders(n)
		if c := strings.Count(expr, ":f"); c != len(values) {
			t.Fatalf("%q: %d value placeholders for %d values in %s", s, c, len(values), expr)
		}
	})
}
