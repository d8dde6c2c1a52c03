package domain

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// show writes a filter tree back, fully parenthesised, for comparison.
func show(n FilterNode) string {
	op := func(o Operand) string {
		switch x := o.(type) {
		case Path:
			return x.String()
		case Size:
			return "size(" + x.Path.String() + ")"
		case Value:
			switch x.Kind {
			case ValString: // written with the escapes the filter reads
				return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(x.Text) + `"`
			case ValBool:
				return fmt.Sprint(x.Bool)
			case ValNull:
				return "null"
			}
			return x.Text
		}
		return "?"
	}
	switch x := n.(type) {
	case And:
		return "(" + show(x.L) + " and " + show(x.R) + ")"
	case Or:
		return "(" + show(x.L) + " or " + show(x.R) + ")"
	case Not:
		return "not " + show(x.X)
	case Compare:
		return op(x.L) + " " + x.Op + " " + op(x.R)
	case Between:
		return op(x.X) + " between " + op(x.Lo) + " and " + op(x.Hi)
	case In:
		var l []string
		for _, v := range x.List {
			l = append(l, op(v))
		}
		return op(x.X) + " in (" + strings.Join(l, ", ") + ")"
	case Func:
		if x.Arg == nil {
			return x.Name + "(" + x.Path.String() + ")"
		}
		return x.Name + "(" + x.Path.String() + ", " + op(x.Arg) + ")"
	}
	return "?"
}

func TestParseFilter(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`status = "FAILED"`, `status = "FAILED"`},
		{`attempts > 3 and not attribute_exists(resolvedAt)`, `(attempts > 3 and not attribute_exists(resolvedAt))`},
		{`begins_with(email, "ops@")`, `begins_with(email, "ops@")`},
		{`contains(tags, "urgent")`, `contains(tags, "urgent")`},
		{`size(payload) > 1000`, `size(payload) > 1000`},
		{`order.items[0].sku = "A-1"`, `order.items[0].sku = "A-1"`},
		{"`odd name`.`a.b` <> \"x\"", "`odd name`.`a.b` <> \"x\""},
		{"`back``tick` = 1", "`back``tick` = 1"},
		{`a = 1 or b = 2 and c = 3`, `(a = 1 or (b = 2 and c = 3))`},
		{`(a = 1 or b = 2) and c = 3`, `((a = 1 or b = 2) and c = 3)`},
		{`x between 1 and 5`, `x between 1 and 5`},
		{`x in ("a", "b", 3)`, `x in ("a", "b", 3)`},
		{`attribute_type(x, "N")`, `attribute_type(x, "N")`},
		{`flag = true and gone = null`, `(flag = true and gone = null)`},
		{`n >= -1.5e3`, `n >= -1.5e3`},
		{`size = 3`, `size = 3`}, // an attribute called size
		{`NOT Status = "x" AND Score < 10`, `(not Status = "x" and Score < 10)`},
		{`名前 = "東京"`, "`名前` = \"東京\""},
		{`s = "with \"quotes\""`, `s = "with \"quotes\""`},
		// The escapes every output shows a value's controls and invisible
		// characters with (export.Sanitize) read back as those characters.
		{`k = "ctl\x01\x1b[31m"`, "k = \"ctl\x01\x1b[31m\""},
		{`k = "zw\u200bsp \U0001f600"`, "k = \"zw\u200bsp \U0001f600\""},
		{`k = "bad\xff"`, "k = \"bad\xff\""},
		{`k = "C:\\x01"`, `k = "C:\\x01"`},
	} {
		n, err := ParseFilter(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got := show(n); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func TestParseFilterErrors(t *testing.T) {
	for _, tc := range []struct {
		in  string
		col int
		msg string
	}{
		{``, 1, "empty filter"},
		{`status = `, 10, `expected a value or a name, found end of filter`},
		{`= 1`, 1, `expected a value or a name, found "="`},
		{`a.`, 3, "expected an attribute name, found end of filter"},
		{`status "FAILED"`, 8, "expected a comparison"},
		{`status = "FAILED`, 10, "unterminated string"},
		{`a = 1 b = 2`, 7, "join conditions with and / or"},
		{`Level = ERROR"`, 14, "unterminated string"},
		{`x between 1 5`, 13, "between needs and"},
		{`begins_with(email "ops@")`, 19, `expected ","`},
		{`(a = 1`, 7, `expected ")"`},
		{`a.items[x] = 1`, 9, "a list index is a whole number"},
		{`meta["inner"].c = 1`, 6, "a map's key goes after a dot, not in brackets: meta.inner"},
		{`a[0]["odd key"] = 1`, 6, "a map's key goes after a dot, not in brackets: a[0].`odd key`"},
		{`status-code = 1`, 7, "expected a comparison"},
		{`upper(name) = "X"`, 1, "upper is not a function of DynamoDB's condition syntax: write begins_with"},
		{`a = 1 and lower(b) = "x"`, 11, "lower is not a function"},
		{`a = 1.2.3`, 5, "is not a number"},
		{"`` = 1", 1, "empty name between backticks"},
		{`名前 = "x" ?`, 10, "names with such characters go in backticks"},
		{`status = 'OK'`, 10, `unexpected single quote: strings go in double quotes here: "text" ('text' is PartiQL's)`},
		{`a = 1 and b in ('x', "y")`, 17, `strings go in double quotes here`},
		{strings.Repeat("not ", 100) + "a = 1", 261, "nested too deep"},
		{`k = "\u20b"`, 6, `\u takes 4 hex digits (\u200b): write \\ for a backslash`},
		{`k = "C:\users"`, 8, `\u takes 4 hex digits`},
		{`k = "\xZ1"`, 6, `\x takes 2 hex digits`},
		{`k = "\U00110000"`, 6, `\U00110000 is no character`},
	} {
		_, err := ParseFilter(tc.in)
		var fe *FilterError
		if !errors.As(err, &fe) || fe.Col != tc.col || !strings.Contains(fe.Msg, tc.msg) {
			t.Errorf("%q: %v, want column %d: …%s…", tc.in, err, tc.col, tc.msg)
		}
	}
}

func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{`status = "FAILED"`, `attempts > 3 and not attribute_exists(resolvedAt)`, `size(p) > 1`,
		"`a b`[0].c in (1, \"x\")", `(a = 1 or b between 1 and 2)`, `"unterminated`, "`x", `upper(a) = "X"`, `status = 'OK'`, `m["k"][0] = 1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseFilter(s)
		if err != nil {
			var fe *FilterError
			if !errors.As(err, &fe) || fe.Col < 1 || fe.Col > len([]rune(s))+1 || fe.Msg == "" {
				t.Fatalf("%q: bad error %v", s, err)
			}
			return
		}
		// What parses, printed and parsed again, is the same tree.
		again, err := ParseFilter(show(n))
		if err != nil || show(again) != show(n) {
			t.Fatalf("%q printed as %q, which reads back as %v (%v)", s, show(n), again, err)
		}
	})
}

// TestFilterPaths: every path a condition names, in the order written.
func TestFilterPaths(t *testing.T) {
	n, err := ParseFilter("not (a.b[1] = c) and (size(d) between 1 and e or f in (g, 3)) and begins_with(h, i)")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range FilterPaths(n) {
		got = append(got, p.String())
	}
	if want := "a.b[1] c d e f g h i"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %s", got, want)
	}
}
