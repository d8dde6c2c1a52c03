package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// TestExportFormats pins each export format (golden files), to stdout and
// to a file, for nested maps and lists (Equipment) and sets (Documents).
func TestExportFormats(t *testing.T) {
	for _, tc := range []struct{ name, table, pk, format string }{
		{"equipment_csv", "Equipment", "Equipment_1", "csv"},
		{"equipment_jsonl", "Equipment", "Equipment_1", "jsonl"},
		{"equipment_json", "Equipment", "Equipment_1", "json"},
		{"documents_csv", "Documents", "doc-0001", "csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkExport(t, []string{"items", "--demo", "--table", tc.table, "--pk", tc.pk}, tc.format, "items", true)
		})
	}
	out, _ := mustRun(t, "range", "--demo", "--table", "DeviceLogs", "--pk", "123", "--before", "1536019200", "--output", "csv")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], "DeviceID,Timestamp,") {
		t.Fatalf("range csv:\n%s", out)
	}
}

// TestExportRowsFormats pins the rows children and versions export: a
// level's children (with counts, with shards), a partition's versioned
// items, and one item's revisions as items; to stdout (except json, which
// stays the one document there) and to a file.
func TestExportRowsFormats(t *testing.T) {
	children := []string{"children", "--demo", "--table", "Locations", "--pk", "USA", "--prefix", "NY#", "--count"}
	versions := []string{"versions", "--demo", "--table", "Equipment", "--pk", demo.DriftedPiece}
	for _, tc := range []struct {
		name   string
		args   []string
		format string
		noun   string
	}{
		{"children_csv", children, "csv", "children"},
		{"children_jsonl", children, "jsonl", "children"},
		{"children_json", children, "json", "children"},
		{"shards_csv", []string{"children", "--demo", "--table", "ChatMessages", "--pk", "seattle-{1..4}"}, "csv", "children"},
		{"versions_csv", versions, "csv", "versioned items"},
		{"versions_jsonl", versions, "jsonl", "versioned items"},
		{"versions_json", versions, "json", "versioned items"},
		{"revisions_csv", append(versions, "--item", demo.DriftedItem), "csv", "revisions"},
		{"revisions_jsonl", append(versions, "--item", demo.DriftedItem), "jsonl", "revisions"},
		{"policies_csv", []string{"versions", "--demo", "--table", demo.PolicyTable, "--pk", demo.PolicyGap, "--version-pattern", demo.PolicyPattern}, "csv", "versioned item"}, // one: wrote 1 versioned item
	} {
		t.Run(tc.name, func(t *testing.T) { checkExport(t, tc.args, tc.format, tc.noun, tc.format != "json") })
	}
}

// checkExport exports what args read to a file named for format, pins
// the file (golden), and requires it to be what --output FORMAT prints
// (where stdout has the same format), owner-only, and never overwritten.
func checkExport(t *testing.T, args []string, format, noun string, sameAsStdout bool) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export."+format)
	_, stderr := mustRun(t, append(args, "--output", path)...)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden.RequireEqual(t, data)
	if sameAsStdout {
		if out, _ := mustRun(t, append(args, "--output", format)...); out != string(data) {
			t.Fatalf("the file differs from stdout:\n%s", out)
		}
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 || !strings.Contains(stderr, " "+noun+" to "+path) {
		t.Fatalf("file mode %v, stderr %q", st.Mode().Perm(), stderr)
	}
	// Refused before anything is read: one line, no cost.
	if _, stderr, code := cli(t, append(args, "--output", path)...); code != 2 || !strings.Contains(stderr, "never overwrites") ||
		strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("overwrite: %d %s", code, stderr)
	}
	if after, _ := os.ReadFile(path); string(after) != string(data) {
		t.Fatal("a refused export changed the file")
	}
	// A folder that does not exist is said to be missing, before anything
	// is read (it used to read, then advise a new file name).
	missing := filepath.Join(t.TempDir(), "no-such-folder", "export."+format)
	if _, stderr, code := cli(t, append(args, "--output", missing)...); code != 2 ||
		!strings.Contains(stderr, "the folder "+filepath.Dir(missing)+" does not exist — create it") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("missing folder: %d %s", code, stderr)
	}
}

// TestCSVTellsEmptyFromAbsent: in items', scan's and range's CSV an empty
// string is "", an absent value an empty cell and NULL \N, as JSON tells
// the three apart; the empty string was an empty cell too. On dynalite
// and the embedded backend.
func TestCSVTellsEmptyFromAbsent(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	items := []map[string]types.AttributeValue{
		av("PK", "p", "SK", "a", "e", ""),
		av("PK", "p", "SK", "b"),
		{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: "c"}, "e": &types.AttributeValueMemberNULL{Value: true}},
	}
	table, backends := bothBackends(t, items)
	want := "PK,SK,e\np,a,\"\"\np,b,\np,c,\\N\n"
	for name, conn := range backends {
		for _, args := range [][]string{
			{"items", "--table", table, "--pk", "p", "--output", "csv"},
			{"scan", "--table", table, "--filter", `SK < "d"`, "--segments", "1", "--output", "csv"},
		} {
			out, stderr := mustRun(t, append(args, conn...)...)
			if out != want {
				t.Errorf("%s %s: %q, want %q\n%s", name, args[0], out, want, stderr)
			}
		}
	}
}

// TestCSVWithNoRowsIsItsHeader: a CSV of no rows is the header its rows
// would lead with (the keys, a command's own columns, a SELECT's
// attributes), never one empty line, which reads as a row of one empty
// cell. On dynalite and the embedded backend.
func TestCSVWithNoRowsIsItsHeader(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	table, backends := bothBackends(t, []map[string]types.AttributeValue{av("PK", "p", "SK", "a#1", "e", "x")})
	for name, conn := range backends {
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"items", "--table", table, "--pk", "nobody"}, "PK,SK\n"},
			{[]string{"items", "--table", table, "--pk", "p", "--filter", `e = "y"`}, "PK,SK\n"},
			{[]string{"scan", "--table", table, "--filter", `e = "y"`, "--segments", "1"}, "PK,SK\n"},
			{[]string{"partiql", "SELECT * FROM " + table + " WHERE PK = 'nobody'"}, "PK,SK\n"},
			{[]string{"partiql", "SELECT e FROM " + table + " WHERE PK = 'nobody'"}, "e\n"},
			{[]string{"children", "--table", table, "--pk", "nobody"}, "name,prefix,hasChildren,isItem,count,shards\n"},
			{[]string{"versions", "--table", table, "--pk", "nobody"}, "name,form,current,latest,revisions,drift\n"},
			{[]string{"entities", "--table", table, "--pk", "nobody"}, "name,count,countExact,sampled,pk,sk,discriminator,attributes\n"},
		} {
			out, stderr := mustRun(t, append(append(c.args, "--output", "csv"), conn...)...)
			if out != c.want {
				t.Errorf("%s %q: %q, want %q\n%s", name, c.args, out, c.want, stderr)
			}
		}
	}
	out, _ := mustRun(t, "range", "--demo", "--table", "DeviceLogs", "--pk", "123", "--before", "1000000000", "--output", "csv")
	if out != "DeviceID,Timestamp\n" {
		t.Errorf("range of no items: %q", out)
	}
}
