package cli

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

// TestHeadlessCommandsOnlyRead runs every headless command against
// dynalite through a recording proxy: only read operations go out.
func TestHeadlessCommandsOnlyRead(t *testing.T) {
	srv := dynalitetest.Start(t)
	if _, err := demo.Seed(context.Background(), srv.Client(), demo.Options{Tables: []string{"Equipment", "AuditLog", "Locations"}}); err != nil {
		t.Fatal(err)
	}
	proxy := dynalitetest.NewFaultProxy(srv.Endpoint, 1)
	defer proxy.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	conn := []string{"--endpoint-url", proxy.URL, "--region", "us-east-1"}
	for _, args := range [][]string{
		{"tables", "--output", "json"},
		{"items", "--table", "Equipment", "--pk", demo.DriftedPiece},
		{"children", "--table", "Locations", "--pk", "USA", "--prefix", "NY#", "--count"},
		{"versions", "--table", "Equipment", "--pk", demo.DriftedPiece},
		{"versions", "--table", "Equipment", "--pk", demo.LongHistoryPiece, "--item", "Audit"},
		{"range", "--table", "AuditLog", "--pk", demo.AuditStream, "--at", "2026-10-31"},
		{"ttl", "--table", "AuditLog", "--attribute", "At", "--max-rcu", "5"},
		{"diff", "--table", "Equipment", "--pk", demo.DriftedPiece, "--against-table", "Locations", "--all"},
		{"scan", "--table", "Locations", "--filter", `City = "CEDARVILLE"`, "--segments", "3"},
		{"partiql", `SELECT * FROM "Locations" WHERE PK = 'USA' AND begins_with(SK, 'NY#')`},
		{"partiql", `SELECT City FROM "Locations" WHERE DriveThru = true`},
	} {
		out, stderr, code := cli(t, append(args, conn...)...)
		if code != exitOK && !(args[0] == "diff" && code == exitFailure) {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if out == "" {
			t.Errorf("%v printed nothing (%s)", args, stderr)
		}
	}
	ops := proxy.Operations()
	var seen []string
	for op, n := range ops {
		seen = append(seen, op)
		// DescribeTimeToLive: the optional read beside the five (tables, ttl).
		if !map[string]bool{"ListTables": true, "DescribeTable": true, "Query": true, "Scan": true, "GetItem": true, "DescribeTimeToLive": true}[op] {
			t.Errorf("a headless command sent %s (%d times)", op, n)
		}
	}
	if ops["Query"] == 0 || ops["GetItem"] == 0 || ops["ListTables"] == 0 || ops["Scan"] == 0 || ops["DescribeTimeToLive"] == 0 {
		t.Fatalf("the commands did not run through the proxy: %v", ops)
	}
	t.Logf("operations: %s", strings.Join(seen, ", "))
}

// TestPartiQLOnlySelectReachesTheServer: a statement other than one
// SELECT is refused (exit 2) before any request, whatever it is; a SELECT
// is read with Query or Scan, never ExecuteStatement; --explain reads
// only the table's description (its keys and size), never an item.
func TestPartiQLOnlySelectReachesTheServer(t *testing.T) {
	srv := dynalitetest.Start(t)
	if _, err := demo.Seed(context.Background(), srv.Client(), demo.Options{Tables: []string{"Locations"}}); err != nil {
		t.Fatal(err)
	}
	proxy := dynalitetest.NewFaultProxy(srv.Endpoint, 1)
	defer proxy.Close()
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	conn := []string{"--endpoint-url", proxy.URL, "--region", "us-east-1"}
	for _, stmt := range []string{
		`INSERT INTO "Locations" VALUE {'PK': 'x', 'SK': 'y'}`,
		`UPDATE "Locations" SET City = 'x' WHERE PK = 'USA' AND SK = 'y'`,
		`DELETE FROM "Locations" WHERE PK = 'USA' AND SK = 'y'`,
		`EXISTS(SELECT * FROM "Locations" WHERE PK = 'USA')`,
		`SELECT * FROM "Locations"; DELETE FROM "Locations" WHERE PK = 'USA' AND SK = 'y'`,
		`SELECT * FROM "Locations" WHERE PK = 'USA'; SELECT * FROM "Locations"`,
		`upsert into Locations value {'PK': 'x'}`,
		"SELECT * FROM \"Locations\" -- all of it\n; DELETE FROM \"Locations\" WHERE PK = 'USA' AND SK = 'y'",
		`SELECT * FROM "Locations" WHERE PK = 'USA'; /* and then */ UPDATE "Locations" SET City = 'x' WHERE PK = 'USA' AND SK = 'y'`,
		`SELECT * FROM "Locations" /* x */ WHERE PK = 'USA'`,
		`  dElEtE FROM "Locations" WHERE PK = 'USA' AND SK = 'y'`,
		`SELECT * FROM "Locations" WHERE PK = 'USA';;`,
	} {
		_, stderr, code := cli(t, append([]string{"partiql", stmt}, conn...)...)
		if code != exitUsage || !strings.Contains(stderr, "the statement") {
			t.Errorf("%s: exit %d: %s", stmt, code, stderr)
		}
	}
	if ops := proxy.Operations(); len(ops) != 0 {
		t.Fatalf("refused statements reached the server: %v", ops)
	}
	mustRun(t, append([]string{"partiql", "--explain", `SELECT * FROM "Locations" WHERE City = 'CEDARVILLE'`}, conn...)...)
	if ops := proxy.Operations(); len(ops) != 1 || ops["DescribeTable"] != 1 {
		t.Fatalf("--explain sent %v", ops)
	}
	mustRun(t, append([]string{"partiql", `SELECT * FROM "Locations" WHERE PK IN ['USA', 'CAN'] AND City = 'CEDARVILLE'`}, conn...)...)
	mustRun(t, append([]string{"partiql", `SELECT * FROM "Locations" WHERE City = 'CEDARVILLE'`}, conn...)...)
	ops := proxy.Operations()
	if ops["Query"] < 2 || ops["Scan"] == 0 || ops["ExecuteStatement"] != 0 || len(ops) != 3 {
		t.Fatalf("SELECTs sent %v: want DescribeTable, Query and Scan alone", ops)
	}
}

// TestConfigConnectionDefaults: the configuration file's region and
// endpoint are used when no flag names them, and flags win.
func TestConfigConnectionDefaults(t *testing.T) {
	isolateAWS(t)
	srv := dynalitetest.Start(t)
	if _, err := demo.Seed(context.Background(), srv.Client(), demo.Options{Tables: []string{"Blobs"}}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := dir + "/config.toml"
	if err := os.WriteFile(path, []byte("region = \"us-east-1\"\nendpoint_url = \""+srv.Endpoint+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := mustRun(t, "tables", "--config", path)
	if !strings.Contains(out, "Blobs") {
		t.Fatalf("the configured endpoint was not used: %s", out)
	}
	_, stderr, code := cli(t, "tables", "--config", path, "--endpoint-url", "http://127.0.0.1:1")
	if code == 0 || !strings.Contains(stderr, "cannot reach 127.0.0.1:1 (region us-east-1)") {
		t.Fatalf("the flag did not win: %d %s", code, stderr)
	}
}

// TestConfigKeys: a [keys] table with an unknown action or key is refused
// with its name; a good one is taken.
func TestConfigKeys(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		text string
		code int
		want string
	}{
		{"[keys]\njump = [\"j\"]\n", 2, "keys.jump: no such action"},
		{"[keys]\nquit = [\"banana\"]\n", 2, `keys.quit: "banana" is not a key`},
	} {
		path := dir + "/bad.toml"
		if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := cli(t, "--demo", "--config", path, "--table", "Nope")
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: %d %s", tc.text, code, stderr)
		}
	}
}

// TestReadmePolicyIsEveryCall: the README's IAM policy grants exactly the
// calls the program can make, and "Read-only by design" names each. The
// calls are read from the data layer's source: every method of an
// interface in internal/dynamo that takes an SDK request (the table
// client, the streams client, and any optional interface beside them),
// except Writer's, which only `seed` holds. A call added there without a
// line in the policy (or a grant nothing makes) fails here.
func TestReadmePolicyIsEveryCall(t *testing.T) {
	calls := dataLayerCalls(t)
	if len(calls) < 5 {
		t.Fatalf("read %d calls from internal/dynamo; the parse is broken: %v", len(calls), calls)
	}
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(data), "### A real account, read-only")
	_, block, _ := strings.Cut(section, "```json\n")
	block, _, _ = strings.Cut(block, "```")
	var policy struct {
		Statement []struct{ Action []string }
	}
	if err := json.Unmarshal([]byte(block), &policy); err != nil || len(policy.Statement) == 0 {
		t.Fatalf("the README's policy is not JSON: %v\n%s", err, block)
	}
	granted := map[string]bool{}
	for _, s := range policy.Statement {
		for _, a := range s.Action {
			granted[a] = true
		}
	}
	for call, service := range calls {
		if !granted[service+":"+call] {
			t.Errorf("the program calls %s, and the README's policy does not grant %s:%s", call, service, call)
		}
	}
	for action := range granted {
		_, call, _ := strings.Cut(action, ":")
		if _, ok := calls[call]; !ok {
			t.Errorf("the README's policy grants %s, which nothing calls", action)
		}
	}
	_, readOnly, _ := strings.Cut(string(data), "## Read-only by design")
	readOnly, _, _ = strings.Cut(readOnly, "\n## ")
	for call := range calls {
		if !strings.Contains(readOnly, "`"+call+"`") {
			t.Errorf("\"Read-only by design\" does not name %s", call)
		}
	}
}

// dataLayerCalls are the SDK calls of internal/dynamo's interfaces (call →
// IAM service prefix), Writer's left out.
func dataLayerCalls(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("../dynamo/*.go")
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]string{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok || spec.Name.Name == "Writer" {
				return true
			}
			iface, ok := spec.Type.(*ast.InterfaceType)
			if !ok {
				return true
			}
			for _, m := range iface.Methods.List {
				fn, ok := m.Type.(*ast.FuncType)
				if !ok || len(m.Names) == 0 {
					continue
				}
				for _, p := range fn.Params.List {
					star, ok := p.Type.(*ast.StarExpr)
					if !ok {
						continue
					}
					sel, ok := star.X.(*ast.SelectorExpr)
					if !ok || sel.Sel.Name != m.Names[0].Name+"Input" {
						continue
					}
					// Streams calls are dynamodb:… actions in IAM too.
					if pkg, ok := sel.X.(*ast.Ident); ok && (pkg.Name == "dynamodb" || pkg.Name == "dynamodbstreams") {
						calls[m.Names[0].Name] = "dynamodb"
					}
				}
			}
			return true
		})
	}
	return calls
}
