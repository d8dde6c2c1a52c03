package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/dataload"
	"github.com/dynascope/dynascope/internal/dynamo/dataload/dataloadtest"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/ui"
)

// demoExports writes every demo table as a DynamoDB export folder (three
// gzip parts, items and manifest shuffled) beside its describe-table JSON.
func demoExports(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, def := range demo.Tables() {
		name := aws.ToString(def.TableName)
		items := func(yield func(map[string]types.AttributeValue) error) error {
			return demo.Items(name, func(it demo.Item) error { return yield(it) })
		}
		if _, err := dataloadtest.WriteExport(filepath.Join(dir, name), name, items, dataloadtest.ExportOptions{Parts: 3, Seed: uint64(len(name))}); err != nil {
			t.Fatal(err)
		}
		b, err := dataloadtest.SchemaJSON(def)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name+".describe.json"), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// dataArgs opens the named demo tables from their exports.
func dataArgs(dir string, tables ...string) []string {
	var a []string
	for _, n := range tables {
		a = append(a, "--data", filepath.Join(dir, n), "--schema", filepath.Join(dir, n+".describe.json"))
	}
	return a
}

var (
	durations = regexp.MustCompile(`\d+(\.\d+)?(ns|µs|ms|s|m)\b`)
	elapsedMs = regexp.MustCompile(`"elapsedMs": *\d+`)
)

// comparable drops what differs between runs of the same read: times, and
// the DATA: line that says what was loaded.
func comparable(stderr string) string {
	var keep []string
	for _, l := range strings.Split(stderr, "\n") {
		if !strings.HasPrefix(l, "DATA: ") {
			keep = append(keep, durations.ReplaceAllString(l, "T"))
		}
	}
	return strings.Join(keep, "\n")
}

// requestsJSON is the requests figure of a document's stats, and
// consumedJSON its RCU.
var (
	requestsJSON = regexp.MustCompile(`"requests": \d+`)
	consumedJSON = regexp.MustCompile(`"consumedRCU": [\d.]+`)
)

// streamJSON is a table's stream in tables --output json.
var streamJSON = regexp.MustCompile(`"stream": \{[^}]*\}`)

// withoutStreams is tables' output with what it says of streams left out:
// the demo's Shop and StateLog keep streams (their Changes), and tables
// loaded with --data have none, as an export keeps no stream.
func withoutStreams(out string) string {
	out = streamJSON.ReplaceAllString(out, `"stream": {}`)
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "\"") || strings.TrimSpace(l) == "" {
			continue // JSON
		}
		f := strings.Fields(strings.ReplaceAll(l, "NEW_AND_OLD_IMAGES", "—"))
		lines[i] = strings.Join(f, " ") // the columns' widths follow the widest cell
	}
	return strings.Join(lines, "\n")
}

// TestDataMatchesDemoAndDynalite: every headless command prints the same on
// --data (the demo's tables as exports) as on --demo, and the same as on
// dynalite seeded with the same items.
func TestDataMatchesDemoAndDynalite(t *testing.T) {
	dir := demoExports(t)
	cases := []struct {
		tables   []string // to load; nil: all
		args     []string
		dynalite bool // also compare with dynalite (tables seeded there below)
	}{
		{nil, []string{"tables", "--output", "json"}, false},
		{nil, []string{"tables"}, false},
		{[]string{"Locations"}, []string{"items", "--table", "Locations", "--pk", "USA"}, true},
		{[]string{"Locations"}, []string{"items", "--table", "Locations", "--pk", "USA", "--filter", `DriveThru = true and SquareFeet > 2000`}, true},
		{[]string{"Locations"}, []string{"items", "--table", "Locations", "--index", "ByCity", "--pk", "NEWYORKCITY", "--output", "json"}, true},
		{[]string{"DeviceLogs"}, []string{"items", "--table", "DeviceLogs", "--pk", "9000", "--reverse", "--limit", "120"}, false},
		{[]string{"ChatMessages"}, []string{"items", "--table", "ChatMessages", "--index", "ByTime", "--pk", "seattle-1"}, true},
		{[]string{"Blobs"}, []string{"items", "--table", "Blobs", "--pk", "images", "--output", "csv"}, false},
		{[]string{"Locations"}, []string{"children", "--table", "Locations", "--pk", "USA", "--output", "json"}, true},
		{[]string{"Geography"}, []string{"children", "--table", "Geography", "--pk", demo.GeographyPartition, "--prefix", "USA#", "--count", "--output", "json"}, false},
		{[]string{"ChatMessages"}, []string{"children", "--table", "ChatMessages", "--pk", "seattle-{1..4}", "--output", "json"}, true},
		{[]string{"Equipment"}, []string{"versions", "--table", "Equipment", "--pk", demo.DriftedPiece, "--output", "json"}, true},
		{[]string{"Equipment"}, []string{"versions", "--table", "Equipment", "--pk", demo.DriftedPiece, "--item", demo.DriftedItem}, true},
		{[]string{"AuditLog"}, []string{"range", "--table", "AuditLog", "--pk", demo.AuditStream, "--at", "2026-10-31", "--oldest-first"}, true},
		{[]string{"Equipment"}, []string{"entities", "--table", "Equipment", "--output", "csv"}, true},
		{[]string{"Equipment"}, []string{"entities", "--table", "Equipment", "--pk", demo.DriftedPiece, "--output", "jsonl"}, true},
		{[]string{"DeviceLogs"}, []string{"range", "--table", "DeviceLogs", "--pk", "9000", "--from", "2026-10-01", "--to", "2026-10-07", "--limit", "50"}, false},
	}
	var srv *dynalitetest.Server
	var conn []string
	if !testing.Short() {
		srv = dynalitetest.Shared(t)
		conn = []string{"--endpoint-url", srv.Endpoint, "--region", "us-east-1"}
		if _, err := demo.Seed(context.Background(), srv.Client(), demo.Options{Tables: []string{"Locations", "ChatMessages", "Equipment", "AuditLog"}}); err != nil {
			t.Fatal(err)
		}
	}
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			tables := c.tables
			if tables == nil {
				for _, def := range demo.Tables() {
					tables = append(tables, aws.ToString(def.TableName))
				}
			}
			wantOut, wantErr := mustRun(t, append(c.args, "--demo")...)
			gotOut, gotErr := mustRun(t, append(c.args, dataArgs(dir, tables...)...)...)
			wantOut, gotOut = elapsedMs.ReplaceAllString(wantOut, "T"), elapsedMs.ReplaceAllString(gotOut, "T")
			if c.args[0] == "tables" {
				wantOut, gotOut = withoutStreams(wantOut), withoutStreams(gotOut)
			}
			if gotOut != wantOut {
				t.Errorf("--data printed\n%.2000s\n--demo printed\n%.2000s", gotOut, wantOut)
			}
			if comparable(gotErr) != comparable(wantErr) {
				t.Errorf("--data said\n%s\n--demo said\n%s", gotErr, wantErr)
			}
			if !strings.Contains(gotErr, "DATA: ") || !strings.Contains(gotErr, "consumed RCU are estimates") {
				t.Errorf("--data did not say what it loaded, nor that its RCU are estimates:\n%s", gotErr)
			}
			if len(tables) == 1 && !strings.Contains(gotErr, " in 1 table from ") || strings.Contains(gotErr, " 1 tables") || strings.Contains(gotErr, " 1 files") {
				t.Errorf("one table or file in the plural (25.21):\n%s", gotErr)
			}
			if c.dynalite && srv != nil {
				dynOut, _ := mustRun(t, append(c.args, conn...)...)
				dynOut = elapsedMs.ReplaceAllString(dynOut, "T")
				got := gotOut
				if c.args[0] == "children" {
					// A top level's first read is sized by the table's item
					// size, which dynalite does not give: the same children,
					// in other requests there, of other RCU (USA's: weighed
					// by its second read, 66.0 RCU; by its first, 66.5).
					got, dynOut = requestsJSON.ReplaceAllString(got, "R"), requestsJSON.ReplaceAllString(dynOut, "R")
					got, dynOut = consumedJSON.ReplaceAllString(got, "C"), consumedJSON.ReplaceAllString(dynOut, "C")
				}
				if got != dynOut {
					t.Errorf("--data printed\n%.2000s\ndynalite printed\n%.2000s", gotOut, dynOut)
				}
			}
		})
	}
}

// TestDataWorkbenchHeadless: a Workbench model with two tables and GSIs
// answers every headless command, its indexes included.
func TestDataWorkbenchHeadless(t *testing.T) {
	model := filepath.Join("..", "dynamo", "dataload", "testdata", "shop.workbench.json")
	out, _ := mustRun(t, "tables", "--data", model)
	for _, want := range []string{"Shop", "GSI GSI1", "Sessions", "GSI ByDevice", "KEYS_ONLY"} {
		if !strings.Contains(out, want) {
			t.Errorf("tables: no %q in\n%s", want, out)
		}
	}
	out, _ = mustRun(t, "items", "--data", model, "--table", "Shop", "--index", "GSI1", "--pk", "STATUS#PENDING")
	if items := parseJSONL(t, out); len(items) != 2 || items[0]["SK"] != "ORDER#2026-10-31#1002" {
		t.Errorf("GSI1 STATUS#PENDING:\n%s", out)
	}
	out, _ = mustRun(t, "children", "--data", model, "--table", "Shop", "--pk", "CUSTOMER#ada", "--output", "json")
	if !strings.Contains(out, `"ORDER#"`) || !strings.Contains(out, `"PROFILE"`) {
		t.Errorf("children of CUSTOMER#ada:\n%s", out)
	}
	out, _ = mustRun(t, "range", "--data", model, "--table", "Sessions", "--pk", "ada", "--at", "2026-11")
	if items := parseJSONL(t, out); len(items) != 2 {
		t.Errorf("Sessions of ada in 2026-11:\n%s", out)
	}
}

// TestDataBadInput: the command line's one-line refusals for --data.
func TestDataBadInput(t *testing.T) {
	dir := t.TempDir()
	lines := filepath.Join(dir, "Orders.json")
	os.WriteFile(lines, []byte(`{"Item":{"PK":{"S":"a"},"SK":{"S":"1"},"Total":{"N":"3"}}}`+"\n"+`{"Item":{"PK":{"S":"b"}}}`+"\n"), 0o644)
	model := filepath.Join("..", "dynamo", "dataload", "testdata", "shop.workbench.json")
	fifo := filepath.Join(dir, "Fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "Big.json")
	var lotsOf strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&lotsOf, `{"Item":{"PK":{"S":"p"},"SK":{"S":"%06d"},"Body":{"S":"%s"}}}`+"\n", i, strings.Repeat("x", 900))
	}
	if err := os.WriteFile(big, []byte(lotsOf.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"tables", "--data", lines}, exitFailure, "Orders.json: table Orders has no key schema — give --keys NAME:TYPE[,NAME:TYPE] or --schema FILE (aws dynamodb describe-table output); attributes in every item: PK:S"},
		{[]string{"tables", "--data", lines, "--keys", "PK:S,SK:S"}, exitFailure, "Orders.json:2: the item has no key attribute SK (S) — fix or remove the item, or add --skip-bad"},
		{[]string{"tables", "--data", lines, "--keys", "PK"}, exitUsage, "--keys \"PK\" is not NAME:TYPE"},
		{[]string{"tables", "--data", lines, "--schema", filepath.Join(dir, "none.json")}, exitUsage, "--schema"},
		{[]string{"tables", "--keys", "PK:S"}, exitUsage, "--keys, --schema, --skip-bad and --data-max describe --data"},
		{[]string{"tables", "--data-max", "1GiB"}, exitUsage, "--keys, --schema, --skip-bad and --data-max describe --data"},
		{[]string{"tables", "--data", lines, "--data-max", "lots"}, exitUsage, `--data-max "lots" is not a size from 1 MiB up — give a size such as 512MiB or 4GiB`},
		{[]string{"tables", "--data", lines, "--data-max", "10KB"}, exitUsage, `--data-max "10KB" is not a size from 1 MiB up`},
		{[]string{"tables", "--data", fifo}, exitFailure, "Fifo.json: cannot open: is a FIFO, not a regular file — give the path of an export folder or a data file"},
		{[]string{"tables", "--data", big, "--keys", "PK:S,SK:S", "--data-max", "2MiB"}, exitFailure,
			"Big.json: the data read takes at least 2.3 MiB of memory after 2000 items, over --data-max 2 MiB — open a smaller export, a table at a time (one --data per table), or raise --data-max"},
		{[]string{"tables", "--data", model, "--demo"}, exitUsage, "give --demo or --data, not both"},
		{[]string{"tables", "--data", model, "--endpoint-url", "http://localhost:8000"}, exitUsage, "--data opens files without a server"},
		{[]string{"seed", "--data", model, "--endpoint-url", "http://localhost:8000"}, exitUsage, "seed does not take --data"},
	} {
		checkBadInput(t, c.args, c.code, c.msg)
	}
	out, errs := mustRun(t, "items", "--data", lines, "--keys", "PK:S,SK:S", "--skip-bad", "--table", "Orders", "--pk", "a")
	if len(parseJSONL(t, out)) != 1 || !strings.Contains(errs, "1 bad skipped") {
		t.Errorf("--skip-bad: stdout %q, stderr %q; want the good item and a count of the bad one", out, errs)
	}
}

// TestDataInterrupted: Ctrl+C during a load ends the command with exit 130
// and says that nothing half-loaded is shown.
func TestDataInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb strings.Builder
	model := filepath.Join("..", "dynamo", "dataload", "testdata", "shop.workbench.json")
	code := Run(ctx, []string{"tables", "--data", model}, &out, &errb)
	if code != exitInterrupted || !strings.Contains(errb.String(), "nothing is shown half-loaded") || out.String() != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 130 and a line saying the load stopped", code, out.String(), errb.String())
	}
}

// TestDataExplorerLoadsInBackground: the explorer is handed the load still
// running (the first frame does not wait for it), while a path that cannot
// be opened is refused before the explorer opens, as headless commands do.
func TestDataExplorerLoadsInBackground(t *testing.T) {
	model := filepath.Join("..", "dynamo", "dataload", "testdata", "shop.workbench.json")
	saved := runExplorer
	defer func() { runExplorer = saved }()
	var got *ui.Config
	runExplorer = func(_ context.Context, cfg ui.Config) error {
		got = &cfg
		return nil
	}
	var out, errb strings.Builder
	if code := Run(context.Background(), []string{"--data", model}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if got == nil || got.Load == nil || got.Connection != "DATA: "+model {
		t.Fatalf("the explorer was not handed the load: %+v", got)
	}
	if errb.String() != "" {
		t.Errorf("the explorer's load wrote to stderr under it: %q", errb.String())
	}
	got.Load.(*dataload.Loading).Wait() // the load goes on after the explorer opened
	if s := got.Load.Status(); s.Err != nil || s.Stopped || s.Tables != 2 || s.TablesDone != 2 {
		t.Errorf("the load ended as %+v, want both tables complete", s)
	}

	got = nil
	errb.Reset()
	missing := filepath.Join(t.TempDir(), "nothing-here")
	if code := Run(context.Background(), []string{"--data", model, "--data", missing}, &out, &errb); code != exitFailure || got != nil ||
		!strings.Contains(errb.String(), "nothing-here: cannot open: no such file or directory") {
		t.Errorf("a missing path: exit %d, explorer opened %v, stderr %q", code, got != nil, errb.String())
	}

	// A load that fails once the explorer is open: the explorer shows it,
	// and its line and exit code end the command as a headless one's do.
	bad := filepath.Join(t.TempDir(), "scan.json")
	if err := os.WriteFile(bad, []byte(`{"Items": [{"PK": {"S": "a"}}, {"PK": {"S": `), 0o600); err != nil {
		t.Fatal(err)
	}
	runExplorer = func(_ context.Context, cfg ui.Config) error {
		got = &cfg
		cfg.Load.(*dataload.Loading).Wait() // the user looks at it, then quits
		return nil
	}
	got = nil
	errb.Reset()
	code := Run(context.Background(), []string{"--data", bad, "--keys", "PK:S"}, &out, &errb)
	if got == nil || code == exitOK || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 || !strings.Contains(errb.String(), "scan.json") {
		t.Errorf("a load failed under the explorer: opened %v, exit %d, stderr %q; want the explorer, then its one line naming the file and a failure exit", got != nil, code, errb.String())
	}
}
