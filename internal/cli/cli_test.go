package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
	"github.com/dynascope/dynascope/internal/ui"
)

var (
	demoOnce sync.Once
	demoDB   *memory.DB
	demoErr  error
)

func TestMain(m *testing.M) {
	unseal := seal()
	// The demo is read-only in use, so one copy serves every test.
	loadDemo = func(ctx context.Context) (*memory.DB, error) {
		demoOnce.Do(func() { demoDB, demoErr = demo.Load(ctx) })
		return demoDB, demoErr
	}
	// The explorer runs headless: its own input and output, never the
	// terminal running the tests (it ends on its own only when connecting
	// fails, as the bad-input cases do).
	runExplorer = func(ctx context.Context, cfg ui.Config) error {
		return ui.RunWith(ctx, cfg, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(120, 35), tea.WithoutSignals())
	}
	checkTerminal = func() error { return nil }
	// The demo's live workload would write into the shared demo: only
	// the tests that watch it run it, on a demo of their own.
	runLive = func(context.Context, *memory.DB, func() time.Time) {}
	code := m.Run()
	dynalitetest.StopShared()
	mototest.StopShared()
	unseal()
	os.Exit(code)
}

// isolateAWS hides the developer's AWS set-up so results do not depend on
// the machine, and keeps the SDK from probing EC2 metadata.
func isolateAWS(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	for _, k := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ACCESS_KEY_ID",
		"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE",
		"AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}

// cli runs dynascope in-process.
func cli(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

func mustRun(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	out, errs, code := cli(t, args...)
	if code != 0 {
		t.Fatalf("dynascope %s: exit %d\nstderr: %s", strings.Join(args, " "), code, clip(errs))
	}
	return out, errs
}

var statsRE = regexp.MustCompile(`(?m)^requests=(\d+) pages=(\d+) consumedRCU=([\d.]+) items=(\d+) elapsed=\S+$`)

type itemStats struct{ requests, pages, items int }

func parseStats(t *testing.T, stderr string) itemStats {
	t.Helper()
	m := statsRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no stats line on stderr:\n%s", stderr)
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	return itemStats{requests: atoi(m[1]), pages: atoi(m[2]), items: atoi(m[4])}
}

// retriedRE is the line a headless command ends with when the SDK sent a
// request again: "1 network error, 2 throttled: retried".
var retriedRE = regexp.MustCompile(`(?m)^(.*): retried$`)

// parseRetried is how many requests stderr says were sent again (0 when
// it says none): each is one more request in the stats line's requests.
func parseRetried(t *testing.T, stderr string) int {
	t.Helper()
	m := retriedRE.FindStringSubmatch(stderr)
	if m == nil {
		return 0
	}
	n := 0
	for _, part := range strings.Split(m[1], ", ") {
		k, err := strconv.Atoi(strings.Fields(part)[0])
		if err != nil {
			t.Fatalf("retry line %q: %v", m[0], err)
		}
		n += k
	}
	return n
}

func parseJSONL(t *testing.T, out string) []map[string]any {
	t.Helper()
	var items []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		d := json.NewDecoder(strings.NewReader(sc.Text()))
		d.UseNumber()
		var it map[string]any
		if err := d.Decode(&it); err != nil {
			t.Fatalf("line %d is not a JSON object: %v\n%s", len(items)+1, err, sc.Text())
		}
		items = append(items, it)
	}
	return items
}

// compareKeys orders two plain-JSON key values as DynamoDB does: numbers
// numerically, strings and (base64) binaries by their bytes.
func compareKeys(t *testing.T, kt domain.KeyType, a, b any) int {
	t.Helper()
	switch kt {
	case domain.TypeN:
		x, _ := new(big.Float).SetString(string(a.(json.Number)))
		y, _ := new(big.Float).SetString(string(b.(json.Number)))
		return x.Cmp(y)
	case domain.TypeB:
		x, _ := base64.StdEncoding.DecodeString(a.(string))
		y, _ := base64.StdEncoding.DecodeString(b.(string))
		return bytes.Compare(x, y)
	}
	return strings.Compare(a.(string), b.(string))
}

func checkOrder(t *testing.T, items []map[string]any, sk string, kt domain.KeyType, descending bool) {
	t.Helper()
	for i := 1; i < len(items); i++ {
		c := compareKeys(t, kt, items[i-1][sk], items[i][sk])
		if (!descending && c > 0) || (descending && c < 0) {
			t.Fatalf("items %d and %d out of order (descending=%v): %v then %v", i-1, i, descending, items[i-1][sk], items[i][sk])
		}
	}
}

func TestTablesJSONDemo(t *testing.T) {
	out, _ := mustRun(t, "tables", "--demo", "--output", "json")
	var got struct{ Tables []dynamo.TableInfo }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	by := map[string]dynamo.TableInfo{}
	for _, ti := range got.Tables {
		by[ti.Name] = ti
	}
	if len(by) != len(demo.Tables()) {
		t.Fatalf("got %d tables, want %d", len(by), len(demo.Tables()))
	}
	loc := by["Locations"]
	if loc.Key.PK != (dynamo.KeyAttr{Name: "PK", Type: domain.TypeS}) || loc.Key.SK == nil || *loc.Key.SK != (dynamo.KeyAttr{Name: "SK", Type: domain.TypeS}) {
		t.Errorf("Locations key schema = %+v", loc.Key)
	}
	if loc.ItemCount == 0 || loc.SizeBytes == 0 {
		t.Errorf("Locations count/size = %d/%d, want both > 0", loc.ItemCount, loc.SizeBytes)
	}
	if strings.Contains(out, `"countsReported"`) {
		t.Errorf("the embedded demo reports its counts, yet a table says countsReported:\n%s", out)
	}
	want := map[string]string{"ByCity": "GSI City/SK INCLUDE [StreetAddress]", "BySquareFeet": "LSI PK/SquareFeet ALL []"}
	for _, ix := range loc.Indexes {
		got := fmt.Sprintf("%s %s/%s %s %v", ix.Kind, ix.Key.PK.Name, ix.Key.SK.Name, ix.Projection, ix.NonKeyAttributes)
		if got != want[ix.Name] {
			t.Errorf("index %s = %q, want %q", ix.Name, got, want[ix.Name])
		}
		delete(want, ix.Name)
	}
	if len(want) > 0 {
		t.Errorf("missing indexes %v", want)
	}
	if dl := by["DeviceLogs"]; dl.Key.PK.Type != domain.TypeN || dl.Key.SK.Type != domain.TypeN {
		t.Errorf("DeviceLogs key types = %+v", dl.Key)
	}
}

func TestTablesTextDemo(t *testing.T) {
	out, _ := mustRun(t, "tables", "--demo")
	for _, want := range []string{"TABLE", "PARTITION KEY", "DeviceID (N)", "Timestamp (N)", "Key (B)", "GSI ByCity", "INCLUDE StreetAddress", "LSI BySquareFeet", "SquareFeet (N)"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
}

func TestItemsOrderDemo(t *testing.T) {
	cases := []struct {
		table, pk, sk string
		kt            domain.KeyType
		want          int
	}{
		{"DeviceLogs", "123", "Timestamp", domain.TypeN, 3},
		{"DeviceLogs", "9000", "Timestamp", domain.TypeN, demo.BusyDeviceEvents},
		{"Blobs", "images", "Key", domain.TypeB, 48},
		{"Locations", "USA", "SK", domain.TypeS, -1},
	}
	for _, c := range cases {
		for _, reverse := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%s/reverse=%v", c.table, c.pk, reverse), func(t *testing.T) {
				args := []string{"items", "--demo", "--table", c.table, "--pk", c.pk, "--output", "jsonl"}
				if reverse {
					args = append(args, "--reverse")
				}
				out, errs := mustRun(t, args...)
				items := parseJSONL(t, out)
				if c.want >= 0 && len(items) != c.want {
					t.Fatalf("got %d items, want %d", len(items), c.want)
				}
				if len(items) < 2 {
					t.Fatalf("got %d items, too few to check order", len(items))
				}
				checkOrder(t, items, c.sk, c.kt, reverse)
				if st := parseStats(t, errs); st.items != len(items) || st.requests != st.pages+1 {
					t.Errorf("stats %+v for %d items; want requests = pages + 1 DescribeTable", st, len(items))
				}
			})
		}
	}
}

func TestItemsPlainJSONDemo(t *testing.T) {
	out, errs := mustRun(t, "items", "--demo", "--table", "DeviceLogs", "--pk", "123", "--limit", "1")
	items := parseJSONL(t, out)
	if len(items) != 1 {
		t.Fatalf("got %d items", len(items))
	}
	if _, ok := items[0]["DeviceID"].(json.Number); !ok {
		t.Errorf("DeviceID = %#v, want a JSON number", items[0]["DeviceID"])
	}
	if items[0]["Timestamp"] != json.Number("1310216400") {
		t.Errorf("Timestamp = %#v", items[0]["Timestamp"])
	}
	if !strings.HasPrefix(errs, "Query DeviceLogs: DeviceID = :pk   :pk=123\n") {
		t.Errorf("stderr does not start with the key condition:\n%s", errs)
	}

	out, _ = mustRun(t, "items", "--demo", "--table", "DeviceLogs", "--pk", "123", "--output", "json")
	var arr []map[string]any
	if err := json.Unmarshal([]byte(out), &arr); err != nil || len(arr) != 3 {
		t.Fatalf("--output json: %d items, err %v\n%s", len(arr), err, out)
	}
}

// firstPage is how many items DynamoDB (here: the demo) puts in the first
// page of a partition.
func firstPage(t *testing.T, c dynamo.Client, q domain.KeyQuery) int {
	t.Helper()
	p, err := dynamo.QueryPage(context.Background(), c, dynamo.PageRequest{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	if !p.More() {
		t.Fatalf("partition fits one page; the test needs several")
	}
	return len(p.Items)
}

// pagesNeeded pages through a partition directly and counts the requests.
func pagesNeeded(t *testing.T, c dynamo.Client, q domain.KeyQuery) (pages, items int) {
	t.Helper()
	var start dynamo.Item
	for {
		p, err := dynamo.QueryPage(context.Background(), c, dynamo.PageRequest{Query: q, Start: start})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		items += len(p.Items)
		if !p.More() {
			return pages, items
		}
		start = p.LastKey
	}
}

// checkLimits runs items with limits around page boundaries and requires
// exactly the Query requests those items need, no more. A request the SDK
// sent again (a connection reset, an attempt out of time: on a loaded
// machine) is one more request sent, and perhaps billed: the stats count
// it, and the line after them says it was retried, so requests are the
// pages, the DescribeTable and the retries stderr names. It returns the
// retries seen.
func checkLimits(t *testing.T, c dynamo.Client, q domain.KeyQuery, connArgs ...string) (retried int) {
	t.Helper()
	first := firstPage(t, c, q)
	allPages, all := pagesNeeded(t, c, q)
	cases := []struct{ limit, items, pages int }{
		{1, 1, 1},
		{first - 1, first - 1, 1},
		{first, first, 1}, // the limit falls on the page's end: no extra request
		{first + 1, first + 1, 2},
		{all + 10, all, allPages},
		{0, all, allPages},
	}
	for _, c := range cases {
		args := append([]string{"items", "--table", q.Table, "--pk", q.PK.Text, "--limit", strconv.Itoa(c.limit)}, connArgs...)
		out, errs := mustRun(t, args...)
		items := parseJSONL(t, out)
		st := parseStats(t, errs)
		again := parseRetried(t, errs)
		retried += again
		if len(items) != c.items || st.items != c.items || st.pages != c.pages || st.requests != c.pages+1+again {
			t.Errorf("--limit %d: %d items printed, stats %+v, %d retried; want %d items in %d Query requests (+1 DescribeTable, +%[4]d retried)\nstderr:\n%[7]s",
				c.limit, len(items), st, again, c.items, c.pages, errs)
		}
	}
	return retried
}

func TestItemsLimitRequestsDemo(t *testing.T) {
	db, err := loadDemo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	q := domain.KeyQuery{Table: "DeviceLogs", PKName: "DeviceID", PK: domain.N("9000"), SKName: "Timestamp"}
	checkLimits(t, db, q, "--demo")
}

func TestVersion(t *testing.T) {
	out, _ := mustRun(t, "--version")
	if out != "dynascope version dev\n" {
		t.Errorf("--version printed %q", out)
	}
}

func TestLabel(t *testing.T) {
	cases := []struct {
		profile, region string
		endpoint        *string
		want            string
	}{
		{"prod", "eu-west-1", nil, "profile prod · eu-west-1"},
		{"", "us-east-1", aws.String("http://localhost:8000"), "us-east-1 · http://localhost:8000"},
		{"dev", "us-east-1", aws.String("https://user:secret@ddb.example.com"), "profile dev · us-east-1 · https://***@ddb.example.com"},
	}
	for _, c := range cases {
		if got := label(c.profile, c.region, c.endpoint); got != c.want {
			t.Errorf("label(%q, %q, %v) = %q, want %q", c.profile, c.region, aws.ToString(c.endpoint), got, c.want)
		}
	}
}

// TestEndpointPasswordNeverShown: a password in the endpoint URL (flag or
// configuration file) is never printed, put in an error, shown in the
// explorer's reopen command or copied: its user info reads `***`.
func TestEndpointPasswordNeverShown(t *testing.T) {
	isolateAWS(t)
	for _, c := range []struct{ in, want string }{
		{"http://user:pw@localhost:8000", "http://***@localhost:8000"},
		{"https://u:p%40ss@ddb.example.com/x?y=z@w", "https://***@ddb.example.com/x?y=z@w"},
		{"http://user:p/w@[bad", "http://***@[bad"},
		{"user:pw@localhost", "***@localhost"},
		{"http://localhost:8000", "http://localhost:8000"},
	} {
		if got := dynamo.RedactEndpoint(c.in); got != c.want {
			t.Errorf("RedactEndpoint(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, args := range [][]string{
		{"tables", "--endpoint-url", "http://user:pw@[bad", "--region", "us-east-1"},
		{"tables", "--endpoint-url", "http://user:pw@127.0.0.1:1", "--region", "us-east-1"},
		{"seed", "--endpoint-url", "http://user:pw@dynamo.example.com:8000"},
	} {
		out, stderr, code := cli(t, args...)
		if code == 0 || strings.Contains(out+stderr, "pw") {
			t.Errorf("%q: exit %d, the password shown: %s%s", args, code, out, stderr)
		}
	}
	conf := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(conf, []byte("endpoint_url = \"http://user:pw@127.0.0.1:1\"\nregion = \"us-east-1\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	saved := runExplorer
	defer func() { runExplorer = saved }()
	var got ui.Config
	runExplorer = func(_ context.Context, cfg ui.Config) error { got = cfg; return nil }
	if _, stderr, code := cli(t, "--config", conf); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The reopen command leaves the file's endpoint to the file (--config).
	if got.Endpoint != "http://***@127.0.0.1:1" || got.Reopen.Endpoint != "" || got.Reopen.Config != conf {
		t.Errorf("the explorer is handed the endpoint %q, and %q (config %q) for its reopen command", got.Endpoint, got.Reopen.Endpoint, got.Reopen.Config)
	}
}

// checkBadInput requires the one-line contract: `dynascope: <what> — <what
// to do>`, nothing on stdout, no usage dump, no stack trace.
func checkBadInput(t *testing.T, args []string, wantCode int, wantMsg string) {
	t.Helper()
	out, errs, code := cli(t, args...)
	if code != wantCode {
		t.Errorf("exit %d, want %d; stderr: %s", code, wantCode, errs)
	}
	if out != "" {
		t.Errorf("stdout should be empty, got %q", out)
	}
	if strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
		t.Errorf("want exactly one line on stderr, got %q", errs)
	}
	if !strings.HasPrefix(errs, "dynascope: ") || !strings.Contains(errs, " — ") {
		t.Errorf("want `dynascope: <what> — <what to do>`, got %q", errs)
	}
	if !strings.Contains(errs, wantMsg) {
		t.Errorf("stderr %q lacks %q", errs, wantMsg)
	}
	for _, bad := range []string{"Usage:", "goroutine", "panic", "Flags:"} {
		if strings.Contains(errs, bad) {
			t.Errorf("stderr holds %q: %s", bad, errs)
		}
	}
}

func TestBadInputOffline(t *testing.T) {
	isolateAWS(t)
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no such table", []string{"items", "--demo", "--table", "Nope", "--pk", "x"}, 1, "no such table"},
		{"no such table, explorer", []string{"--demo", "--table", "Nope"}, 1, "no such table"},
		{"no such index", []string{"items", "--demo", "--table", "Locations", "--index", "Nope", "--pk", "USA"}, 2, `it has ByCity BySquareFeet`},
		{"no such index, explorer", []string{"--demo", "--table", "Locations", "--index", "Nope"}, 2, `it has ByCity BySquareFeet`},
		{"negative limit", []string{"items", "--demo", "--table", "DeviceLogs", "--pk", "1", "--limit", "-3"}, 2, "--limit -3 is negative"},
		{"limit not a number", []string{"items", "--demo", "--table", "DeviceLogs", "--pk", "1", "--limit", "abc"}, 2, `invalid argument "abc" for "--limit" flag`},
		{"pk not a number", []string{"items", "--demo", "--table", "DeviceLogs", "--pk", "abc"}, 2, `--pk "abc" is not a number — this key is numeric (N)`},
		{"items output xml", []string{"items", "--demo", "--table", "DeviceLogs", "--pk", "1", "--output", "xml"}, 2, `--output "xml"`},
		{"tables output xml", []string{"tables", "--demo", "--output", "xml"}, 2, `--output "xml"`},
		{"missing table", []string{"items", "--demo", "--pk", "1"}, 2, "--table is required"},
		{"missing pk", []string{"items", "--demo", "--table", "DeviceLogs"}, 2, "--pk is required"},
		{"pk without table", []string{"--demo", "--pk", "USA"}, 2, "--pk needs --table"},
		{"bad theme", []string{"--demo", "--theme", "neon"}, 2, `--theme "neon" is not a theme`},
		{"versions without pk", []string{"--demo", "--table", "Equipment", "--versions"}, 2, "name the partition with --pk"},
		{"range without pk", []string{"--demo", "--table", "DeviceLogs", "--range", "last 1h"}, 2, "name the partition with --pk"},
		{"bad range", []string{"--demo", "--table", "DeviceLogs", "--pk", "123", "--range", "last 1x"}, 2, `--range: "1x" is not a span`},
		{"versions and range", []string{"--demo", "--table", "DeviceLogs", "--pk", "123", "--range", "today", "--versions"}, 2, "give one of --versions and --range"},
		{"filter without pk", []string{"--demo", "--table", "DeviceLogs", "--filter", "a = 1"}, 2, "--filter filters a partition's items"},
		{"filter and versions", []string{"--demo", "--table", "Equipment", "--pk", "Equipment_1", "--versions", "--filter", "a = 1"}, 2, "press f to filter its revisions"},
		{"bad filter", []string{"--demo", "--table", "DeviceLogs", "--pk", "123", "--filter", "Level = "}, 2, "--filter column 9: "},
		{"negative max-rcu", []string{"--demo", "--table", "DeviceLogs", "--pk", "123", "--max-rcu", "-1"}, 2, "--max-rcu -1 is not a budget"},
		{"empty delimiter", []string{"children", "--demo", "--table", "Locations", "--pk", "USA", "--delimiter", ""}, 2, "--delimiter is given empty — give the one to three characters between levels"},
		{"empty delimiter, explorer", []string{"--demo", "--table", "Nope", "--delimiter="}, 2, "--delimiter is given empty"},
		{"empty ttl attribute", []string{"ttl", "--demo", "--table", "Locations", "--attribute", ""}, 2, "--attribute is given empty — give the attribute's name"},
		{"empty index", []string{"items", "--demo", "--table", "Locations", "--pk", "USA", "--index", ""}, 2, "--index is given empty — give a GSI or LSI name"},
		{"empty filter", []string{"scan", "--demo", "--table", "Locations", "--filter", ""}, 2, "--filter is given empty"},
		{"empty time format", []string{"range", "--demo", "--table", "DeviceLogs", "--pk", "1", "--last", "1h", "--time-format", ""}, 2, "--time-format is given empty"},
		{"empty pk", []string{"versions", "--demo", "--table", "Equipment", "--pk", ""}, 2, "--pk is given empty — give the partition key's value"},
		{"empty table", []string{"entities", "--demo", "--table", ""}, 2, "--table is given empty"},
		{"empty resume", []string{"scan", "--demo", "--table", "Locations", "--resume", ""}, 2, "leave --resume out to read from the start"},
		{"empty endpoint", []string{"tables", "--endpoint-url", "", "--region", "us-east-1"}, 2, "--endpoint-url is given empty"},
		{"empty since", []string{"changes", "--demo", "--table", "Locations", "--since", ""}, 2, "--since is given empty — give a value, or leave --since out"},
		{"empty against-table", []string{"diff", "--demo", "--table", "Locations", "--pk", "USA", "--against-table", ""}, 2, "--against-table is given empty"},
		{"empty output", []string{"partiql", "--demo", "SELECT * FROM Locations", "--output", ""}, 2, "--output is given empty"},
		{"empty mask", []string{"tables", "--demo", "--mask", ""}, 2, "--mask is given empty — name the attributes to mask"},
		{"empty data", []string{"tables", "--data", ""}, 2, "--data is given empty"},
		{"zero timeout", []string{"tables", "--demo", "--timeout", "0"}, 2, "--timeout 0s is no duration"},
		{"malformed time format, refused before connecting", []string{"range", "--endpoint-url", "http://127.0.0.1:1", "--region", "us-east-1", "--table", "highscore", "--pk", "alice", "--at", "2024-10", "--time-format", "DATE#{time:bogus}"},
			2, `--time-format: "DATE#{time:bogus}": "b" in the layout is not a pattern letter`},
		{"zero follow interval", []string{"range", "--demo", "--table", "DeviceLogs", "--pk", "123", "--last", "1h", "--interval", "0s"}, 2, "--interval 0s is no duration"},
		{"empty seed tables", []string{"seed", "--endpoint-url", "http://127.0.0.1:1", "--region", "us-east-1", "--tables", ""}, 2, "--tables is given empty"},
		{"empty optional pk", []string{"ttl", "--demo", "--table", "Locations", "--pk", ""}, 2, "or leave --pk out for the whole table"},
		{"unknown flag", []string{"tables", "--bogus"}, 2, "unknown flag: --bogus — see dynascope tables --help"},
		{"mistyped flag", []string{"--tabel", "x"}, 2, "unknown flag: --tabel — did you mean --table? (see dynascope --help)"},
		{"mistyped subcommand flag", []string{"range", "--demo", "--lst", "1h"}, 2, "unknown flag: --lst — did you mean --last?"},
		{"mistyped command", []string{"itemz"}, 2, `unknown command "itemz" — did you mean dynascope items?`},
		{"stray argument", []string{"tables", "Locations"}, 2, `unexpected argument "Locations"`},
		{"unknown command", []string{"query"}, 2, `unknown command "query" — the commands are changes, children, diff, entities, items, partiql, partitions, range, scan, seed, tables, ttl, versions`},
		{"demo and endpoint", []string{"tables", "--demo", "--endpoint-url", "http://localhost:8000"}, 2, "--demo runs on the embedded demo database"},
		{"endpoint not a URL", []string{"tables", "--endpoint-url", "localhost:8000", "--region", "us-east-1"}, 2, "is not an http(s) URL"},
		{"seed to a remote endpoint", []string{"seed", "--endpoint-url", "http://dynamo.example.com:8000"}, 2, "not on this machine"},
		{"seed to AWS", []string{"seed", "--region", "us-east-1"}, 2, "would write into AWS itself"},
		{"seed the demo", []string{"seed", "--demo"}, 2, "--demo already has the data"},
		{"seed without a region", []string{"seed", "--endpoint-url", "http://127.0.0.1:1"}, 1, "no region set — pass --region"},
		{"seed unknown table", []string{"seed", "--endpoint-url", "http://127.0.0.1:1", "--tables", "Nope"}, 2, `no demo table "Nope"`},
		{"unreachable endpoint", []string{"tables", "--endpoint-url", "http://127.0.0.1:1", "--region", "us-east-1"}, 1, "cannot reach 127.0.0.1:1 (region us-east-1) — is the server running?"},
		{"unreachable endpoint, explorer", []string{"--endpoint-url", "http://127.0.0.1:1", "--region", "us-east-1"}, 1, "cannot reach 127.0.0.1:1 (region us-east-1) — is the server running?"},
		{"no credentials", []string{"tables", "--region", "us-east-1"}, 1, "no usable AWS credentials"},
		{"no region", []string{"tables"}, 1, "no region set — pass --region"},
		{"no such profile", []string{"tables", "--profile", "nope", "--region", "us-east-1"}, 1, "nope"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkBadInput(t, c.args, c.code, c.msg) })
	}
}

// fakeDynamoDB answers every request with one DynamoDB JSON error, as AWS
// does for refused or expired credentials.
func fakeDynamoDB(t *testing.T, status int, errType, msg string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Header().Set("X-Amzn-ErrorType", errType)
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":%q}`, errType, msg)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestBadInputServerErrors(t *testing.T) {
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAEXAMPLEEXAMPLE00")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "do-not-print-me")
	notDynamo := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(notDynamo.Close)
	cases := []struct {
		name, endpoint, msg string
	}{
		{"access denied", fakeDynamoDB(t, 400, "AccessDeniedException", "User: arn:aws:iam::123456789012:user/dev is not authorized to perform: dynamodb:ListTables"), "it needs dynamodb:ListTables"},
		{"expired token", fakeDynamoDB(t, 400, "ExpiredTokenException", "The security token included in the request is expired"), "refresh your credentials"},
		{"bad key", fakeDynamoDB(t, 400, "UnrecognizedClientException", "The security token included in the request is invalid."), "refresh your credentials"},
		{"not DynamoDB", notDynamo.URL, "answered HTTP 404"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, args := range [][]string{
				{"tables", "--endpoint-url", c.endpoint, "--region", "us-east-1"},
				{"items", "--table", "T", "--pk", "p", "--endpoint-url", c.endpoint, "--region", "us-east-1"},
				{"--endpoint-url", c.endpoint, "--region", "us-east-1"}, // the explorer
			} {
				checkBadInput(t, args, 1, c.msg)
				_, errs, _ := cli(t, args...)
				if strings.Contains(errs, "do-not-print-me") || strings.Contains(errs, "AKIAEXAMPLE") {
					t.Errorf("credentials on stderr: %s", errs)
				}
			}
		})
	}
}

// TestDynalite runs the commands against a real DynamoDB-compatible server,
// seeded by the seed command itself and by the SDK.
func TestDynalite(t *testing.T) {
	// A server of its own: it seeds and creates tables by fixed names, so
	// a second run (-count=3) on the binary's shared server found them made.
	srv := dynalitetest.Start(t)
	isolateAWS(t) // also proves a local endpoint needs no AWS set-up
	conn := []string{"--endpoint-url", srv.Endpoint, "--region", "us-east-1"}
	c := srv.Client()

	out, _ := mustRun(t, "seed", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--tables", "Blobs")
	if !strings.Contains(out, "Blobs") || !strings.Contains(out, "48 items") {
		t.Errorf("seed printed:\n%s", out)
	}

	// Numbers whose text order differs from their numeric order, and values
	// that would drive a terminal.
	createTable(t, c, "Nums", "SK", types.ScalarAttributeTypeN)
	nums := []string{"-5", "100", "1.5", "2", "10", "0.001", "-0.5", "99999999999999999999999999999999999999"}
	var reqs []types.WriteRequest
	for i, n := range nums {
		reqs = append(reqs, put(map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberN{Value: n},
			"Note": &types.AttributeValueMemberS{Value: fmt.Sprintf("\x1b[31mred\u009b2J %d", i)},
			"Tags": &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		}))
	}
	batchWrite(t, c, "Nums", reqs)

	t.Run("tables", func(t *testing.T) {
		out, _ := mustRun(t, append([]string{"tables", "--output", "json"}, conn...)...)
		var got struct {
			Tables []struct {
				dynamo.TableInfo
				CountsReported *bool `json:"countsReported"`
			}
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, ti := range got.Tables {
			if ti.Name == "Nums" {
				found = true
				if ti.Key.PK.Type != domain.TypeS || ti.Key.SK == nil || ti.Key.SK.Name != "SK" || ti.Key.SK.Type != domain.TypeN {
					t.Errorf("Nums key schema = %+v", ti.Key)
				}
				// dynalite reports 0 items and 0 bytes for every table, as
				// DynamoDB does until its six-hourly update: not a count.
				if ti.ItemCount != 0 || ti.SizeBytes != 0 || ti.CountsReported == nil || *ti.CountsReported {
					t.Errorf("Nums: %d items, %d bytes, countsReported %v; want 0, 0 and false", ti.ItemCount, ti.SizeBytes, ti.CountsReported)
				}
			}
		}
		if !found {
			t.Errorf("Nums missing from %s", out)
		}
		text, _ := mustRun(t, append([]string{"tables"}, conn...)...)
		for _, line := range strings.Split(text, "\n") {
			if f := strings.Fields(line); len(f) > 0 && f[0] == "Nums" {
				if len(f) < 7 || f[5] != "–" || f[6] != "–" { // Nums PK (S) SK (N) items size
					t.Errorf("Nums' items and size are not – (not reported):\n%s", text)
				}
			}
		}
	})

	t.Run("numeric order", func(t *testing.T) {
		for _, reverse := range []bool{false, true} {
			args := append([]string{"items", "--table", "Nums", "--pk", "p"}, conn...)
			if reverse {
				args = append(args, "--reverse")
			}
			out, _ := mustRun(t, args...)
			if strings.ContainsAny(out, "\x1b\u009b") {
				t.Errorf("raw control characters in output: %q", out)
			}
			items := parseJSONL(t, out)
			if len(items) != len(nums) {
				t.Fatalf("got %d items, want %d", len(items), len(nums))
			}
			checkOrder(t, items, "SK", domain.TypeN, reverse)
			if tags, ok := items[0]["Tags"].([]any); !ok || len(tags) != 2 {
				t.Errorf("string set = %#v, want an array", items[0]["Tags"])
			}
		}
	})

	t.Run("binary order", func(t *testing.T) {
		out, _ := mustRun(t, append([]string{"items", "--table", "Blobs", "--pk", "images"}, conn...)...)
		items := parseJSONL(t, out)
		if len(items) != 48 {
			t.Fatalf("got %d items", len(items))
		}
		checkOrder(t, items, "Key", domain.TypeB, false)
	})

	t.Run("limits and pages", func(t *testing.T) {
		createTable(t, c, "Big", "SK", types.ScalarAttributeTypeS)
		blob := strings.Repeat("x", 100<<10)
		var reqs []types.WriteRequest
		for i := 0; i < 30; i++ {
			reqs = append(reqs, put(map[string]types.AttributeValue{
				"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("k%03d", i)},
				"Blob": &types.AttributeValueMemberS{Value: blob},
			}))
		}
		batchWrite(t, c, "Big", reqs)
		q := domain.KeyQuery{Table: "Big", PKName: "PK", PK: domain.S("p"), SKName: "SK"}
		if retried := checkLimits(t, c, q, conn...); retried > 0 {
			t.Logf("%d requests retried", retried)
		}
		// The same reads through connections reset before the server
		// answers (what a loaded machine did once): each reset is one
		// request more, said on stderr, and the same items.
		proxy := dynalitetest.NewFaultProxy(srv.Endpoint, 7)
		defer proxy.Close()
		proxy.OnlyOn("Query", "DescribeTable")
		proxy.Set(dynalitetest.FaultReset, 0.25)
		if retried := checkLimits(t, c, q, "--endpoint-url", proxy.URL, "--region", "us-east-1"); retried == 0 || retried != proxy.Injected()[dynalitetest.FaultReset] {
			t.Errorf("%d retries said; the proxy reset %d connections", retried, proxy.Injected()[dynalitetest.FaultReset])
		}
	})

	t.Run("no such table", func(t *testing.T) {
		checkBadInput(t, append([]string{"items", "--table", "Nope", "--pk", "p"}, conn...), 1, "no such table")
	})
}

// createTable creates a table keyed PK (a string) and sk of skType, or
// PK alone where sk is "".
func createTable(t *testing.T, c *dynamodb.Client, name, sk string, skType types.ScalarAttributeType) {
	t.Helper()
	in := &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	}
	if sk != "" {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(sk), AttributeType: skType})
		in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
	}
	_, err := c.CreateTable(context.Background(), in)
	if err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	// dynalite creates tables asynchronously even with --createTableMs 0.
	w := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) { o.MinDelay = 10 * time.Millisecond })
	if err := w.Wait(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)}, 10*time.Second); err != nil {
		t.Fatalf("table %s never became ACTIVE: %v", name, err)
	}
}

func put(item map[string]types.AttributeValue) types.WriteRequest {
	return types.WriteRequest{PutRequest: &types.PutRequest{Item: item}}
}

func batchWrite(t *testing.T, c *dynamodb.Client, table string, reqs []types.WriteRequest) {
	t.Helper()
	for len(reqs) > 0 {
		n := min(len(reqs), 10)
		pending := map[string][]types.WriteRequest{table: reqs[:n]}
		for len(pending) > 0 {
			out, err := c.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: pending})
			if err != nil {
				t.Fatalf("write %s: %v", table, err)
			}
			pending = out.UnprocessedItems
		}
		reqs = reqs[n:]
	}
}

// TestItemsBinaryKeyAsPeopleCopyIt: a binary --pk (and diff's --sk) is
// read padded or not, standard or URL-safe base64 — b64:AP8 was refused
// as "not base64"; each reads the same items. On dynalite and the
// embedded backend.
func TestItemsBinaryKeyAsPeopleCopyIt(t *testing.T) {
	B := func(b ...byte) types.AttributeValue { return &types.AttributeValueMemberB{Value: b} }
	def := &dynamodb.CreateTableInput{
		TableName: aws.String("Binary.Keys"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("k"), AttributeType: types.ScalarAttributeTypeB},
			{AttributeName: aws.String("s"), AttributeType: types.ScalarAttributeTypeB}},
		KeySchema:   []types.KeySchemaElement{{AttributeName: aws.String("k"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("s"), KeyType: types.KeyTypeRange}},
		BillingMode: types.BillingModePayPerRequest,
	}
	items := []map[string]zooAV{{"k": B(0, 0xff), "s": B(1)}, {"k": B(0, 0xff), "s": B(2)}, {"k": B(0xfb, 0xff), "s": B(3)}}
	for name, conn := range batteryBackends(t, def, items) {
		for pk, want := range map[string]int{"b64:AP8=": 2, "b64:AP8": 2, "AP8": 2, "-_8": 1, "+/8": 1} {
			out, stderr, code := cli(t, append([]string{"items", "--table", "Binary.Keys", "--pk", pk}, conn...)...)
			if code != exitOK || strings.Count(out, "\n") != want {
				t.Errorf("%s --pk %s: exit %d, %d items, want %d: %s", name, pk, code, strings.Count(out, "\n"), want, stderr)
			}
		}
	}
}

// hashOnlyBackends is a table keyed by PK alone, no sort key, holding one
// item (PK "a") on the shared dynalite and in an export file of it: its
// name and, by backend, the flags that open it.
func hashOnlyBackends(t *testing.T) (string, map[string][]string) {
	t.Helper()
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	items := []map[string]types.AttributeValue{{"PK": &types.AttributeValueMemberS{Value: "a"}, "x": &types.AttributeValueMemberS{Value: "1"}}}
	srv := dynalitetest.Shared(t)
	table := fmt.Sprintf("HashOnly-%d", time.Now().UnixNano())
	createTable(t, srv.Client(), table, "", "")
	batchWrite(t, srv.Client(), table, []types.WriteRequest{put(items[0])})
	return table, map[string][]string{
		"dynalite": {"--endpoint-url", srv.Endpoint, "--region", "us-east-1"},
		"memory":   {"--data", diffDataFile(t, table, items), "--keys", "PK:S"},
	}
}

// checkHashOnly runs a command that needs a sort key on a table that has
// none, on both backends: one line saying so and what to run instead
// (items), exit 2, as for other input that cannot be read as asked.
// offersOn reports whether line offers the command that begins with cmd
// and ends with rest, on the connection conn (its flags, in any order).
func offersOn(line, cmd string, conn []string, rest string) bool {
	i := strings.Index(line, cmd)
	if i < 0 {
		return false
	}
	offered, _, ok := strings.Cut(line[i+len(cmd):], rest)
	if !ok {
		return false
	}
	words := strings.Fields(offered)
	for _, w := range conn {
		if !slices.Contains(words, w) {
			return false
		}
	}
	return len(words) == len(conn)
}

func checkHashOnly(t *testing.T, args ...string) {
	t.Helper()
	table, backends := hashOnlyBackends(t)
	for name, conn := range backends {
		full := append(append([]string{args[0], "--table", table, "--pk", "a"}, args[1:]...), conn...)
		out, stderr, code := cli(t, full...)
		if _, load, ok := strings.Cut(stderr, "\n"); ok && strings.HasPrefix(stderr, "DATA: ") {
			stderr = load // --data says what it loaded first
		}
		if code != exitUsage || out != "" || !strings.Contains(stderr, "has no") || !offersOn(stderr, "dynascope items ", conn, "--table "+table+" --pk a") ||
			strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s %q: exit %d, stdout %q, stderr %q", name, full, code, out, stderr)
		}
	}
}
