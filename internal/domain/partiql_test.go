package domain

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

var (
	ordersPK = KeyDef{Name: "PK", Type: TypeS}
	ordersSK = &KeyDef{Name: "SK", Type: TypeS}
)

// TestPartiQLPlans: each supported statement becomes the Query or Scan
// it stands for: its key condition, the rest of WHERE as the filter (in
// the filter language), its projection.
func TestPartiQLPlans(t *testing.T) {
	for _, tc := range []struct {
		stmt, op, table, index, key, filter, project string
		reverse                                      bool
	}{
		{stmt: `SELECT * FROM "Orders"`, op: "Scan", table: "Orders"},
		{stmt: `select * from Orders where status = 'FAILED';`, op: "Scan", table: "Orders", filter: `status = "FAILED"`},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'c#42'`, op: "Query", table: "Orders", key: `PK = "c#42"`},
		{stmt: `SELECT * FROM "Orders" WHERE 'c#42' = PK AND SK >= 'o#2' AND attempts > 3`, op: "Query", table: "Orders", key: `PK = "c#42" AND SK >= "o#2"`, filter: "attempts > 3"},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'c#42' AND begins_with(SK, 'o#1') AND note IS MISSING`, op: "Query", table: "Orders", key: `PK = "c#42" AND begins_with(SK, "o#1")`, filter: "attribute_not_exists(note)"},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'c#42' AND SK >= 'a' AND SK <= 'b'`, op: "Query", table: "Orders", key: `PK = "c#42" AND SK BETWEEN "a" AND "b"`},
		{stmt: `SELECT * FROM "Orders" WHERE PK IN ['a', 'b', 'a'] AND SK BETWEEN 'o#1' AND 'o#2' ORDER BY PK DESC, SK DESC`, op: "Query", table: "Orders", key: `PK IN ("b", "a") AND SK BETWEEN "o#1" AND "o#2"`, reverse: true},
		{stmt: `SELECT * FROM "Orders" WHERE PK IN ['b', 'a'] ORDER BY PK`, op: "Query", table: "Orders", key: `PK IN ("a", "b")`},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'a' ORDER BY PK ASC, SK DESC`, op: "Query", table: "Orders", key: `PK = "a"`, reverse: true},
		// A number key's values are one where their numbers are: 1e3 is
		// 1000 (one Query, not the same partition read twice), ordered
		// by value.
		{stmt: `SELECT * FROM "Counts"."ByNumber" WHERE n IN [1000, 1e3, 10.50, 10.5, 2] ORDER BY n`, op: "Query", table: "Counts", index: "ByNumber", key: `n IN (2, 10.50, 1000)`},
		{stmt: `SELECT PK, "odd name", detail.region, items[0].sku FROM "Orders" WHERE PK = 'x' OR status <> 'OK'`, op: "Scan", table: "Orders", filter: `PK = "x" or status <> "OK"`, project: "PK `odd name` detail.region items[0].sku"},
		{stmt: `SELECT * FROM "Orders"."ByStatus" WHERE status IN ('FAILED', 'RETRY') AND NOT contains(tags, 'x')`, op: "Query", table: "Orders", index: "ByStatus", key: `status IN ("FAILED", "RETRY")`, filter: `not contains(tags, "x")`},
		{stmt: `SELECT * FROM "Orders" WHERE detail.region IS NOT MISSING AND size(Data) != 3 AND attribute_type(n, 'N')`, op: "Scan", table: "Orders", filter: `attribute_exists(detail.region) and size(Data) <> 3 and attribute_type(n, "N")`},
		// Every OR branch pins the partition key: one Query a value,
		// the whole WHERE the filter (applied where the items are read).
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'a' OR (PK = 'b' AND x = 1)`, op: "Query", table: "Orders", key: `PK IN ("a", "b")`, filter: `PK = "a" or (PK = "b" and x = 1)`},
		{stmt: `SELECT * FROM "Orders" WHERE (PK = 'a' AND SK > 'm') OR PK IN ['b', 'a'] ORDER BY PK DESC`, op: "Query", table: "Orders", key: `PK IN ("b", "a")`, filter: `(PK = "a" and SK > "m") or PK in ("b", "a")`},
		{stmt: `SELECT * FROM "Orders" WHERE (PK = 'a' AND SK > 'm') OR x = 1`, op: "Scan", table: "Orders", filter: `(PK = "a" and SK > "m") or x = 1`},
		// A value one branch alone pins takes that branch's sort-key
		// condition into its Query's key condition: its partition's
		// matches are all within it. Pinned by two branches, none.
		{stmt: `SELECT * FROM "Orders" WHERE (PK = 'a' AND SK = 'PROFILE') OR (PK = 'b' AND begins_with(SK, 'o#2020') AND x = 1)`, op: "Query", table: "Orders",
			key: `(PK = "a" AND SK = "PROFILE") OR (PK = "b" AND begins_with(SK, "o#2020"))`, filter: `(PK = "a" and SK = "PROFILE") or (PK = "b" and begins_with(SK, "o#2020") and x = 1)`},
		{stmt: `SELECT * FROM "Orders" WHERE (PK = 'a' AND SK > 'm') OR PK = 'b'`, op: "Query", table: "Orders", key: `(PK = "a" AND SK > "m") OR PK = "b"`, filter: `(PK = "a" and SK > "m") or PK = "b"`},
		{stmt: `SELECT * FROM "Orders" WHERE (PK IN ['a', 'b'] AND SK >= 'm' AND SK <= 'n' AND x = 1) OR PK = 'c' ORDER BY PK, SK DESC`, op: "Query", table: "Orders", reverse: true,
			key: `(PK = "a" AND SK BETWEEN "m" AND "n") OR (PK = "b" AND SK BETWEEN "m" AND "n") OR PK = "c"`, filter: `(PK in ("a", "b") and SK >= "m" and SK <= "n" and x = 1) or PK = "c"`},
		{stmt: `SELECT * FROM "Orders" WHERE (PK = 'a' AND SK = 'x') OR (PK = 'a' AND SK = 'y') OR (PK = 'b' AND SK = 'z')`, op: "Query", table: "Orders",
			key: `PK = "a" OR (PK = "b" AND SK = "z")`, filter: `(PK = "a" and SK = "x") or (PK = "a" and SK = "y") or (PK = "b" and SK = "z")`},
		{stmt: `SELECT * FROM "Orders" WHERE (PK = 'a' AND SK = 'x') OR (PK = 'b' AND SK = 'x')`, op: "Query", table: "Orders",
			key: `PK IN ("a", "b") AND SK = "x"`, filter: `(PK = "a" and SK = "x") or (PK = "b" and SK = "x")`},
		// IS NULL is the NULL type (an absent attribute is MISSING, not
		// NULL), IS NOT NULL its negation: true where a is absent.
		{stmt: `SELECT * FROM "Orders" WHERE a IS NULL OR b IS NOT NULL`, op: "Scan", table: "Orders", filter: `attribute_type(a, "NULL") or not attribute_type(b, "NULL")`},
		{stmt: `SELECT * FROM "Orders" WHERE "it's" = 'it''s'`, op: "Scan", table: "Orders", filter: "`it's` = \"it's\""},
		// SQL's x NOT IN and x NOT BETWEEN are NOT x IN, NOT x BETWEEN;
		// +7, .5 and -.5 the numbers 7, 0.5 and -0.5.
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'a' AND status NOT IN ['X', 'Y'] AND n NOT BETWEEN .5 AND +7`, op: "Query", table: "Orders", key: `PK = "a"`, filter: `not status in ("X", "Y") and not n between 0.5 and 7`},
		{stmt: `SELECT * FROM "Orders" WHERE PK NOT IN ['a'] OR n > -.5`, op: "Scan", table: "Orders", filter: `not PK in ("a") or n > -0.5`},
		// An OR of equalities on the partition key is one Query each, as
		// an IN is; a condition on a key no key condition can say leaves
		// the pinned partitions Queries (within the one sort-key
		// condition taken, where there is one), all of WHERE their
		// filter, applied here (a Query's filter may not name a key).
		{stmt: `SELECT * FROM "Orders" WHERE (PK = 'a' OR PK = 'b' OR PK IN ['c', 'a']) AND SK > 'o#'`, op: "Query", table: "Orders", key: `PK IN ("a", "b", "c") AND SK > "o#"`},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' AND SK <> 'y'`, op: "Query", table: "Orders", key: `PK = "x"`, filter: `PK = "x" and SK <> "y"`},
		// Two bounds no one key condition says (> and <): the stretch
		// between them is read (BETWEEN), the whole WHERE applied to it;
		// an equality is the narrowest, then two bounds, a begins_with,
		// the greater lower bound; reversed bounds read from the lower
		// (none match).
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' AND SK > 'm' AND SK < 'n' AND a = 1`, op: "Query", table: "Orders", key: `PK = "x" AND SK BETWEEN "m" AND "n"`, filter: `PK = "x" and SK > "m" and SK < "n" and a = 1`},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' AND SK < 'n' AND SK >= 'm' AND SK > 'l'`, op: "Query", table: "Orders", key: `PK = "x" AND SK BETWEEN "m" AND "n"`, filter: `PK = "x" and SK < "n" and SK >= "m" and SK > "l"`},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' AND SK > 'm' AND SK = 'q'`, op: "Query", table: "Orders", key: `PK = "x" AND SK = "q"`, filter: `PK = "x" and SK > "m" and SK = "q"`},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' AND SK > 'n' AND SK < 'm'`, op: "Query", table: "Orders", key: `PK = "x" AND SK > "n"`, filter: `PK = "x" and SK > "n" and SK < "m"`},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' AND SK <= 'p' AND begins_with(SK, 'o#')`, op: "Query", table: "Orders", key: `PK = "x" AND begins_with(SK, "o#")`, filter: `PK = "x" and SK <= "p" and begins_with(SK, "o#")`},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' AND (SK = 'a' OR SK = 'b')`, op: "Query", table: "Orders", key: `PK = "x"`, filter: `PK = "x" and (SK = "a" or SK = "b")`},
		// The sort key pinned by IN: one Query a key, each value once, in
		// the key's order (ORDER BY's); a value of another type, or
		// another condition on a key, reads the partition.
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' AND SK IN ['b', 'a', 'b'] AND n > 1`, op: "Query", table: "Orders", key: `(PK = "x" AND SK = "a") OR (PK = "x" AND SK = "b")`, filter: "n > 1"},
		{stmt: `SELECT * FROM "Orders" WHERE SK IN ['a', 'b'] AND PK = 'x' ORDER BY SK DESC`, op: "Query", table: "Orders", key: `(PK = "x" AND SK = "b") OR (PK = "x" AND SK = "a")`, reverse: true},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' AND SK IN ['a', 1]`, op: "Query", table: "Orders", key: `PK = "x" AND SK = "a"`},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' AND SK IN ['a', 'b'] AND SK <> 'a'`, op: "Query", table: "Orders", key: `PK = "x"`, filter: `PK = "x" and SK in ("a", "b") and SK <> "a"`},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' AND SK > 'a' AND SK > 'b' ORDER BY SK DESC`, op: "Query", table: "Orders", key: `PK = "x" AND SK > "b"`, filter: `PK = "x" and SK > "a" and SK > "b"`, reverse: true},
		{stmt: `SELECT * FROM "Orders" WHERE PK IN ['x', 'y'] AND begins_with(SK, 'o#') AND NOT begins_with(SK, 'o#1') AND n > 1`, op: "Query", table: "Orders",
			key: `PK IN ("x", "y") AND begins_with(SK, "o#")`, filter: `PK in ("x", "y") and begins_with(SK, "o#") and not begins_with(SK, "o#1") and n > 1`},
		{stmt: `SELECT * FROM "Orders" WHERE n BETWEEN 9.5 AND 10 AND s BETWEEN 'a' AND 'a' AND m BETWEEN 'a' AND 1`, op: "Scan", table: "Orders", filter: `n between 9.5 and 10 and s between "a" and "a" and m between "a" and 1`},
		{stmt: `SELECT * FROM "Orders" WHERE status IN [` + values(100) + `]`, op: "Scan", table: "Orders", filter: `status in (` + strings.ReplaceAll(values(100), "'", `"`) + `)`},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' AND PK = 'y'`, op: "Query", table: "Orders", key: `PK = "x"`, filter: `PK = "x" and PK = "y"`},
		{stmt: `SELECT * FROM "Orders" WHERE PK = 'x' OR status = 'y'`, op: "Scan", table: "Orders", filter: `PK = "x" or status = "y"`},
	} {
		st, err := ParsePartiQL(tc.stmt)
		if err != nil {
			t.Errorf("%s: %v", tc.stmt, err)
			continue
		}
		pk, sk := ordersPK, ordersSK
		switch tc.index {
		case "ByStatus":
			pk = KeyDef{Name: "status", Type: TypeS}
		case "ByNumber":
			pk, sk = KeyDef{Name: "n", Type: TypeN}, nil
		}
		plan, err := st.Plan(pk, sk)
		if err != nil {
			t.Errorf("%s: %v", tc.stmt, err)
			continue
		}
		filter := ""
		if plan.Filter != nil {
			filter = FormatFilter(plan.Filter)
		}
		var project []string
		for _, p := range plan.Project {
			project = append(project, p.String())
		}
		reverse := len(plan.Queries) > 0 && plan.Queries[0].Reverse
		if plan.Operation() != tc.op || plan.Table != tc.table || plan.Index != tc.index || plan.KeyCondition() != tc.key ||
			filter != tc.filter || strings.Join(project, " ") != tc.project || reverse != tc.reverse {
			t.Errorf("%s:\n got %s on %s.%s key %q filter %q project %q reverse %v", tc.stmt, plan.Operation(), plan.Table, plan.Index, plan.KeyCondition(), filter, project, reverse)
		}
	}
}

// TestPartiQLWhyScan: a WHERE that pins the partition key but is read by
// a Scan all the same says why, in the filter's words; one that pins no
// partition key, or is read by Query, says nothing.
func TestPartiQLWhyScan(t *testing.T) {
	numberPK := KeyDef{Name: "n", Type: TypeN}
	for _, tc := range []struct {
		where string
		pk    KeyDef
		want  string
	}{
		{`PK = "x"`, ordersPK, ""},
		{`PK = "x" and SK > "a" and note = "y"`, ordersPK, ""},
		{`status = "FAILED"`, ordersPK, ""},
		{`PK = "x" or status = "y"`, ordersPK, ""},
		{`PK = 5`, ordersPK, "PK is a string key and 5 is not one, so no Query can name it"},
		{`n = "5"`, numberPK, `n is a number key and "5" is not one, so no Query can name it`},
		{`PK = ""`, ordersPK, `PK = "": a partition key is never empty, and DynamoDB refuses a Query for one`},
		// A pinned key with conditions no key condition can say is a Query
		// of that partition, those conditions applied here: no Scan to explain.
		{`PK = "x" and SK <> "y"`, ordersPK, ""},
		{`PK = "x" and (SK = "a" or SK = "b")`, ordersPK, ""},
		{`PK = "x" and SK > "a" and SK > "b"`, ordersPK, ""},
		{`PK = "x" and PK = "y"`, ordersPK, ""},
		// A branch that matches nothing is left out (TestPartiQLNoMatch): a Query of the rest.
		{`PK = "a" or (PK = 5 and x = 1)`, ordersPK, ""},
	} {
		where, err := ParseFilter(tc.where)
		if err != nil {
			t.Fatal(err)
		}
		sk := ordersSK
		if tc.pk == numberPK {
			sk = nil
		}
		if got := (Statement{Table: "Orders", Where: where}).WhyScan(tc.pk, sk); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.where, got, tc.want)
		}
	}
}

// values is n string literals: 'v0', 'v1', ….
func values(n int) string {
	vs := make([]string, n)
	for i := range vs {
		vs[i] = fmt.Sprintf("'v%d'", i)
	}
	return strings.Join(vs, ", ")
}

// TestPartiQLRefusals: anything but one SELECT is refused, and so is
// what cannot be translated; each says which part and what to write.
func TestPartiQLRefusals(t *testing.T) {
	for _, tc := range []struct{ stmt, want string }{
		{`INSERT INTO "Orders" VALUE {'PK': 'x'}`, "INSERT writes"},
		{`UPDATE "Orders" SET a = 1 WHERE PK = 'x'`, "UPDATE writes"},
		{`DELETE FROM "Orders" WHERE PK = 'x'`, "DELETE writes"},
		{`EXISTS(SELECT * FROM "Orders" WHERE PK = 'x')`, "EXISTS belongs in transactions"},
		{`SELECT * FROM "Orders"; DELETE FROM "Orders" WHERE PK = 'x'`, "several statements"},
		{`SELECT * FROM "Orders"; SELECT * FROM "Orders"`, "several statements"},
		{``, "the statement is empty"},
		{`SELECT COUNT(*) FROM "Orders"`, "COUNT is not supported"},
		{`SELECT a AS b FROM "Orders"`, "AS is not supported"},
		{`SELECT * FROM "Orders" o`, "no joins or aliases"},
		{`SELECT * FROM "Orders", "Other"`, "no joins or aliases"},
		{`SELECT * FROM "Orders" WHERE a = 1 LIMIT 5`, "no LIMIT"},
		{`SELECT * FROM "Orders" WHERE a IS NOTHING`, "expected MISSING or NULL after IS"},
		{`SELECT * FROM "Orders" WHERE 'x' IS NULL`, "IS NULL takes an attribute"},
		{`SELECT * FROM "Orders" WHERE a = 'unterminated`, "unterminated string"},
		{`SELECT * FROM "Orders" WHERE upper(name) = 'X'`, "column 30: upper is not a function DynamoDB's PartiQL has in WHERE: write begins_with"},
		{`SELECT * FROM "Orders" WHERE exists(a)`, "column 30: exists is not a function DynamoDB's PartiQL has in WHERE"},
		{`SELECT * FROM "Orders" WHERE PK = 'x' AND char_length(a) > 3`, "column 43: char_length is not a function"},
		{`SELECT DISTINCT status FROM "Orders"`, "column 8: DISTINCT is not supported"},
		{`SELECT * FROM "Orders" WHERE a LIKE 'x%'`, "LIKE is not supported: begins_with(a, 'abc') for a prefix, contains(a, 'abc') for a part"},
		{`SELECT * FROM "Orders" WHERE a NOT = 'x'`, "NOT goes before the condition: NOT a = 'x' (after a only NOT IN and NOT BETWEEN)"},
		{`SELECT * FROM "Orders" WHERE a = 1 + 2`, "arithmetic is not supported"},
		{`SELECT * "Orders"`, "expected FROM"},
		{`SELECT * FROM "Orders" ORDER BY SK`, "ORDER BY needs the partition key PK pinned"},
		{`SELECT * FROM "Orders" WHERE PK = 'x' ORDER BY status`, "ORDER BY status: only the keys of the read order it, the partition key first: write ORDER BY PK, SK DESC (or ASC)"},
		{`SELECT * FROM "Orders" WHERE PK = 'x' ORDER BY SK, PK`, "the partition key first"},
		{`SELECT * FROM "Orders" WHERE PK IN ['x', 'y'] ORDER BY SK DESC`, "ORDER BY SK DESC: with several partition keys the Queries are read one after another, so the sort key alone orders no more than each: write ORDER BY PK, SK DESC"},
		{`SELECT * FROM "Orders" WHERE PK = 'x' OR PK = 'y' ORDER BY SK`, "with several partition keys"},
		{`SELECT * FROM "Orders" WHERE PK = 3`, "PK is a string key, so PK = 3 matches no item: write PK = '3'"},
		{`SELECT * FROM "Orders" WHERE PK = 'x' AND SK <= 3`, "SK is a string key, so SK <= 3 matches no item: write SK <= '3'"},
		{`SELECT * FROM "Orders" WHERE PK = 'a' AND SK BETWEEN 'o#2' AND 'o#1'`, "SK BETWEEN 'o#2' AND 'o#1': the lower bound comes first: write SK BETWEEN 'o#1' AND 'o#2'"},
		{`SELECT * FROM "Orders" WHERE NOT (n BETWEEN 10 AND 9.5)`, "n BETWEEN 10 AND 9.5: the lower bound comes first"},
		{`SELECT * FROM "Orders" WHERE PK IN ['']`, "PK = '' matches no item: a partition key is never empty; write the key's value"},
		{`SELECT * FROM "Orders" WHERE PK = ?`, "parameters are not supported"},
		{`SELECT * FROM my-orders`, `column 17: a name with - goes in double quotes: FROM "my-orders"`},
		{`SELECT * FROM my-orders WHERE a = 1`, `a name with - goes in double quotes: FROM "my-orders"`},
		{`SELECT * FROM Weird.Names-1`, `column 26: a name with - goes in double quotes: FROM "Weird"."Names-1" for its index, or FROM "Weird.Names-1" for a table named so`},
		{`SELECT * FROM "Weird.Names-1".alt-keys;`, `a name with - goes in double quotes: FROM "Weird.Names-1"."alt-keys" for its index`},
		{`SELECT * FROM Orders.by-day-2`, `FROM "Orders"."by-day-2" for its index, or FROM "Orders.by-day-2" for a table named so`},
		{`SELECT * FROM "Orders" WHERE tags = <<'a'>>`, "sets (<< >>) are not supported"},
		{`SELECT * FROM "Orders" WHERE a = {'x': 1}`, "maps are not supported"},
		{`SELECT * FROM "Orders" WHERE meta['inner']['c'] = 2`, `column 35: a map's key goes after a dot, not in brackets: meta.inner`},
		{`SELECT a['odd key'] FROM "Orders"`, `a map's key goes after a dot, not in brackets: a."odd key"`},
		{`SELECT "Orders".* FROM "Orders"`, `column 17: SELECT takes * or a list of attributes`},
		{`SELECT a[0 FROM "Orders"`, `column 12: expected "]", found "FROM": close the index`},
		{`SELECT * FROM "Orders" WHERE n + 1 > 3`, `column 32: unexpected '+': arithmetic is not supported`},
		// A statement ends as a statement, and a comparison's right side is
		// as often a value as a name (it said "expected an attribute name,
		// found end of filter").
		{`SELECT * FROM "Orders" WHERE PK = `, `column 35: expected a value or a name, found end of statement`},
		{`SELECT * FROM "Orders" WHERE PK = 'x' AND SK >`, `column 47: expected a value or a name, found end of statement`},
		{`SELECT * FROM`, `column 14: expected a table name, found end of statement`},
		{"SELECT * FROM \"Orders\" -- all\n; DELETE FROM \"Orders\" WHERE PK = 'x'", "column 24: comments (-- or /* */) are not supported"},
		{`SELECT * FROM "Orders" /* x */ WHERE PK = 'x'`, "column 24: comments (-- or /* */) are not supported"},
		{`SELECT * FROM "Orders" WHERE PK = 'x'; /* */ UPDATE "Orders" SET a = 1`, "column 40: comments (-- or /* */) are not supported"},
		{`SELECT * FROM "Orders" WHERE a = 1 --`, "comments (-- or /* */) are not supported"},
		{`SELECT * FROM "Orders" WHERE a = 1;;`, "unexpected \";\""},
		{`SELECT * FROM "Orders" WHERE status IN [` + values(101) + `]`, "status IN […101 values]: DynamoDB's IN takes 100 values at most"},
		{`SELECT * FROM "Orders" WHERE PK = 'x' AND (SK = 'a' OR status IN [` + values(101) + `])`, "status IN […101 values]"},
	} {
		st, err := ParsePartiQL(tc.stmt)
		if err == nil {
			_, err = st.Plan(ordersPK, ordersSK)
		}
		var pe *PartiQLError
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want …%s…", tc.stmt, err, tc.want)
		}
	}
	// A key named with a space is said in backticks, and written as a
	// statement writes it where the message says what to type: "ORDER
	// BY needs the partition key g s pinned in WHERE (g s = 'x')".
	st, err := ParsePartiQL(`SELECT * FROM "T" ORDER BY "s k"`)
	if err == nil {
		_, err = st.Plan(KeyDef{Name: "g s", Type: TypeS}, &KeyDef{Name: "s k", Type: TypeS})
	}
	if want := "ORDER BY needs the partition key `g s` pinned in WHERE (\"g s\" = 'x')"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ORDER BY on a spaced key: %v, want …%s…", err, want)
	}
}

// FuzzParsePartiQL: no statement crashes the parser or the planner;
// whatever parses has a table, and its WHERE, written in the filter
// language, reads back as the same filter.
func FuzzParsePartiQL(f *testing.F) {
	for _, s := range []string{
		`SELECT * FROM "Orders" WHERE PK = 'c#42' AND begins_with(SK, 'o#') ORDER BY SK DESC`,
		`SELECT a, b.c[0], "x y" FROM "T"."I" WHERE a IN ['x', 'y'] OR NOT (b BETWEEN 1 AND 2) AND c IS NOT MISSING;`,
		`select * from t where size(a) != 3 and contains(t, 'x''y') and attribute_type(a, 'S')`,
		`DELETE FROM "T" WHERE PK = 'x'`,
		`SELECT * FROM "T"; SELECT 1`,
		`SELECT DISTINCT a FROM "T" WHERE lower(a) = 'x'`,
		`SELECT * FROM "T" WHERE a IS NULL OR (PK = 'b' AND b.c IS NOT NULL)`,
		`SELECT * FROM "T" WHERE (PK = 'a' AND SK > 'm') OR (PK IN ['b', 'c'] AND (x = 1 OR PK = 'd')) ORDER BY PK DESC, SK`,
		`SELECT a['b'], "T".* FROM "T" WHERE m['k'][0] = 1 AND status = "OK"`,
		`SELECT * FROM Weird.Names-1 WHERE "order" = 'o1' AND "sort-key" > 'k#5'`,
		`SELECT map."x-y", "user.id" FROM "Weird.Names-1"."alt-keys" WHERE "alt key" IN [0, -1.5, 1e30]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := ParsePartiQL(s)
		if err != nil {
			return
		}
		if st.Table == "" {
			t.Fatalf("%q parsed without a table", s)
		}
		_, _ = st.Plan(ordersPK, ordersSK)
		_, _ = st.Plan(KeyDef{Name: "n", Type: TypeN}, nil)
		if st.Where == nil {
			return
		}
		text := FormatFilter(st.Where)
		back, err := ParseFilter(text)
		if err != nil || FormatFilter(back) != text {
			t.Fatalf("%q: WHERE written as %q reads back as %v, %v", s, text, back, err)
		}
	})
}

// TestPartiQLSelectReadsBack: a filter written as a statement's WHERE
// (the explorer's f, reopened as `dynascope partiql`) is read back by
// ParsePartiQL as the same filter, odd names and quotes included.
func TestPartiQLSelectReadsBack(t *testing.T) {
	for _, c := range []struct{ table, index, filter, want string }{
		{"Locations", "", `PK = "USA" and City = "OMAHA"`, `SELECT * FROM Locations WHERE PK = 'USA' AND City = 'OMAHA'`},
		{"Locations", "ByCity", `City in ("A", "B") or not begins_with(SK, "it's")`, `SELECT * FROM Locations.ByCity WHERE City IN ['A', 'B'] OR NOT begins_with(SK, 'it''s')`},
		{"my-table", "", "`odd \"name` = 1 and `size` > 2 and `and` = true and size(`from`) < 3 and x = null", `SELECT * FROM "my-table" WHERE "odd ""name" = 1 AND "size" > 2 AND "and" = true AND size("from") < 3 AND x = null`},
		{"T", "", EveryFilterKind, ""},
	} {
		n, err := ParseFilter(c.filter)
		if err != nil {
			t.Fatal(err)
		}
		text := PartiQLSelect(c.table, c.index, n)
		if c.want != "" && text != c.want {
			t.Errorf("%s: wrote %s, want %s", c.filter, text, c.want)
		}
		st, err := ParsePartiQL(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if st.Table != c.table || st.Index != c.index || FormatFilter(st.Where) != FormatFilter(n) {
			t.Errorf("%s read back as %q %q %s, want %s", text, st.Table, st.Index, FormatFilter(st.Where), FormatFilter(n))
		}
	}
}

// TestPartiQLKeyConditionQuotesNames: the plan's key condition writes
// a key's name as its filter does, so status, a.b (a name, not the path
// a → b) and #x read back as the keys that were read.
func TestPartiQLKeyConditionQuotesNames(t *testing.T) {
	pk, sk := KeyDef{Name: "status", Type: TypeS}, &KeyDef{Name: "a.b", Type: TypeS}
	for stmt, want := range map[string]string{
		`SELECT * FROM "T" WHERE "status" = 'x' AND begins_with("a.b", 'L1#')`: "status = \"x\" AND begins_with(`a.b`, \"L1#\")",
		`SELECT * FROM "T" WHERE "status" IN ['x', 'y'] AND "a.b" > 'm'`:       "status IN (\"x\", \"y\") AND `a.b` > \"m\"",
		`SELECT * FROM "T" WHERE "status" = 'x' AND "a.b" IN ['p', 'q']`:       "(status = \"x\" AND `a.b` = \"p\") OR (status = \"x\" AND `a.b` = \"q\")",
	} {
		st, err := ParsePartiQL(stmt)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := st.Plan(pk, sk)
		if err != nil {
			t.Fatal(err)
		}
		if got := plan.KeyCondition(); got != want {
			t.Errorf("%s: key condition %s, want %s", stmt, got, want)
		}
	}
	plan, err := Statement{Table: "T", Where: Compare{L: Path{{Name: "#x"}}, Op: "=", R: Value{Kind: ValNumber, Text: "3"}}}.Plan(KeyDef{Name: "#x", Type: TypeN}, nil)
	if err != nil || plan.KeyCondition() != "`#x` = 3" {
		t.Errorf("#x = 3: key condition %q (%v), want `#x` = 3", plan.KeyCondition(), err)
	}
}

// TestPartiQLNoMatch: a WHERE that pins the partition key to what no key
// is (another type than the key's, an empty string) matches no item: an
// AND of it is refused before any request, saying what to write, never
// planned as a Scan; an OR branch of it is left out, the other branches
// planned as if it were not written, and said.
func TestPartiQLNoMatch(t *testing.T) {
	numberPK := KeyDef{Name: "n", Type: TypeN}
	for _, tc := range []struct {
		where   string
		pk      KeyDef
		refused string // the refusal in the filter's words
		op, key string // else the plan
		said    string // and what it says of the branches left out
	}{
		{where: `PK = 81`, pk: ordersPK, refused: `PK is a string key, so PK = 81 matches no item: write PK = "81"`},
		{where: `81 = PK`, pk: ordersPK, refused: `PK is a string key, so PK = 81 matches no item: write PK = "81"`},
		{where: `PK = ""`, pk: ordersPK, refused: `PK = "" matches no item: a partition key is never empty; write the key's value`},
		{where: `PK = true and SK > "a"`, pk: ordersPK, refused: `PK is a string key, so PK = true matches no item: write PK = "true"`},
		{where: `status = "x" and PK = 81`, pk: ordersPK, refused: `PK is a string key, so PK = 81 matches no item: write PK = "81"`},
		{where: `PK = "81" and PK = 81`, pk: ordersPK, refused: `PK is a string key, so PK = 81 matches no item: write PK = "81"`},
		{where: `PK in (81, "")`, pk: ordersPK, refused: `PK is a string key, so PK = 81 matches no item: write PK = "81"; PK = "" matches no item: a partition key is never empty; write the key's value`},
		{where: `n = "5"`, pk: numberPK, refused: `n is a number key, so n = "5" matches no item: write n = 5`},
		{where: `n = "five"`, pk: numberPK, refused: `n is a number key, so n = "five" matches no item: write n = 123`},
		{where: `PK = 81 or PK = ""`, pk: ordersPK, refused: `PK is a string key, so PK = 81 matches no item: write PK = "81"; PK = "" matches no item: a partition key is never empty; write the key's value`},
		// A sort key compared with another type beside the pin: no item
		// (DynamoDB compares types first), refused, not a Scan; flipped
		// and in every comparison a key condition takes.
		{where: `PK = "a" and SK = 5`, pk: ordersPK, refused: `SK is a string key, so SK = 5 matches no item: write SK = "5"`},
		{where: `PK = "a" and 5 < SK and x = 1`, pk: ordersPK, refused: `SK is a string key, so SK > 5 matches no item: write SK > "5"`},
		{where: `PK = "a" and SK >= true`, pk: ordersPK, refused: `SK is a string key, so SK >= true matches no item: write SK >= "true"`},
		// So does a sort key's IN value of another type: left out, and
		// said, as an IN on the partition key leaves one out; an IN of
		// nothing else is refused as SK = 5 is.
		{where: `PK = "a" and SK in (5, "x")`, pk: ordersPK, op: "Query", key: `PK = "a" AND SK = "x"`,
			said: `SK is a string key, so SK = 5 matches no item: write SK = "5"; that branch is left out, the rest read`},
		{where: `PK = "a" and SK in (5, true) and x = 1`, pk: ordersPK,
			refused: `SK is a string key, so SK = 5 matches no item: write SK = "5"; nor does SK = true: write SK = "true"`},
		// The key's type said once for an IN's values, not again for each
		// (pql14: a number sort key's IN ['a','b'] said it twice).
		{where: `PK = "a" and SK in (5, 6, 7)`, pk: ordersPK,
			refused: `SK is a string key, so SK = 5 matches no item: write SK = "5"; nor does SK = 6: write SK = "6"; nor does SK = 7: write SK = "7"`},
		{where: `n in ("x", "5")`, pk: numberPK, refused: `n is a number key, so n = "x" matches no item: write n = 123; nor does n = "5": write n = 5`},
		// In one OR branch the branch matches nothing; the statement is
		// still read (the branch's partition, the WHERE applied here).
		{where: `(PK = "a" and SK = 5) or PK = "b"`, pk: ordersPK, op: "Query", key: `PK IN ("a", "b")`},
		// One OR branch: the others keep their plan.
		{where: `PK = 81 or PK = "a"`, pk: ordersPK, op: "Query", key: `PK = "a"`,
			said: `PK is a string key, so PK = 81 matches no item: write PK = "81"; that branch is left out, the rest read`},
		{where: `PK = "a" or (PK = 5 and x = 1)`, pk: ordersPK, op: "Query", key: `PK = "a"`,
			said: `PK is a string key, so PK = 5 matches no item: write PK = "5"; that branch is left out, the rest read`},
		{where: `PK in (81, "a", "b")`, pk: ordersPK, op: "Query", key: `PK IN ("a", "b")`,
			said: `PK is a string key, so PK = 81 matches no item: write PK = "81"; that branch is left out, the rest read`},
		{where: `(PK = 81 and SK = "x") or (PK = "a" and SK > "m")`, pk: ordersPK, op: "Query", key: `PK = "a" AND SK > "m"`,
			said: `PK is a string key, so PK = 81 matches no item: write PK = "81"; that branch is left out, the rest read`},
		{where: `PK = 81 or status = "x"`, pk: ordersPK, op: "Scan",
			said: `PK is a string key, so PK = 81 matches no item: write PK = "81"; that branch is left out, the rest read`},
		// A name the filter quotes is quoted where the refusal says it.
		{where: "`a.b` = 81", pk: KeyDef{Name: "a.b", Type: TypeS}, refused: "`a.b` is a string key, so `a.b` = 81 matches no item: write `a.b` = \"81\""},
		// What matches something is planned as it was.
		{where: `not (PK = 81)`, pk: ordersPK, op: "Scan"},
		{where: `PK <> 81`, pk: ordersPK, op: "Scan"},
		{where: `n = 5`, pk: numberPK, op: "Query", key: `n = 5`},
	} {
		where, err := ParseFilter(tc.where)
		if err != nil {
			t.Fatal(err)
		}
		sk := ordersSK
		if tc.pk == numberPK {
			sk = nil
		}
		plan, err := Statement{Table: "Orders", Where: where}.Plan(tc.pk, sk)
		var nm *NoMatchError
		switch {
		case tc.refused != "":
			if !errors.As(err, &nm) || nm.Say(false) != tc.refused {
				t.Errorf("%s: refused %v\nwant %q", tc.where, err, tc.refused)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.where, err)
		case plan.Operation() != tc.op || plan.KeyCondition() != tc.key || plan.SayNoMatch(false, CommandLine) != tc.said:
			t.Errorf("%s:\n got %s %q, said %q\nwant %s %q, said %q", tc.where, plan.Operation(), plan.KeyCondition(), plan.SayNoMatch(false, CommandLine), tc.op, tc.key, tc.said)
		}
	}
	// A statement's refusal is in its own quotes.
	st, err := ParsePartiQL(`SELECT * FROM "Orders" WHERE PK = 81`)
	if err != nil {
		t.Fatal(err)
	}
	var nm *NoMatchError
	if _, err := st.Plan(ordersPK, ordersSK); !errors.As(err, &nm) || nm.Say(true) != `PK is a string key, so PK = 81 matches no item: write PK = '81'` {
		t.Errorf("statement refused %v", err)
	}
}
