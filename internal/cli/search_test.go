package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

// searchBackend is a backend the search commands run on, and a client
// that reads it directly for the test's own full read.
type searchBackend struct {
	args   []string
	client dynamo.Client
}

// searchBackends are the demo (the embedded backend) and dynalite seeded
// with the demo's Locations.
func searchBackends(t *testing.T) map[string]searchBackend {
	t.Helper()
	isolateAWS(t)
	db, err := demo.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	srv := dynalitetest.Start(t)
	if _, err := demo.Seed(context.Background(), srv.Client(), demo.Options{Tables: []string{"Locations"}}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	return map[string]searchBackend{
		"embedded": {args: []string{"--demo"}, client: db},
		"dynalite": {args: []string{"--endpoint-url", srv.Endpoint, "--region", "us-east-1"}, client: srv.Client()},
	}
}

// locations is every item of Locations, read whole by the test, keyed
// PK/SK.
func locations(t *testing.T, c dynamo.Client) map[string]dynamo.Item {
	t.Helper()
	out := map[string]dynamo.Item{}
	in := &dynamodb.ScanInput{TableName: aws.String("Locations")}
	for {
		page, err := c.Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			out[locKey(dynamo.PlainItem(it))] = it
		}
		if len(page.LastEvaluatedKey) == 0 {
			return out
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
}

func locKey(it map[string]any) string { return it["PK"].(string) + "/" + it["SK"].(string) }

func text(it dynamo.Item, name string) string {
	if s, ok := it[name].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

var (
	spentRE  = regexp.MustCompile(`consumedRCU=([0-9.]+)(?: billedRCU=([0-9.]+))?`)
	resumeRE = regexp.MustCompile(`resume with --resume (\S+)`)
)

// runToEnd runs a search command, and again with --resume after every
// stop at its budget, until it ends; it returns the keys printed (each
// must be printed once) and fails a run that spent more than its budget
// and half a read unit.
func runToEnd(t *testing.T, args []string, budget float64) []string {
	t.Helper()
	var keys []string
	seen := map[string]bool{}
	run := args
	for runs := 0; ; runs++ {
		if runs > 300 {
			t.Fatalf("%q: no end after 300 runs", args)
		}
		out, stderr, code := cli(t, run...)
		if code != exitOK && code != exitPartial {
			t.Fatalf("%q: exit %d: %s", run, code, stderr)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line == "" {
				continue
			}
			var it map[string]any
			if err := json.Unmarshal([]byte(line), &it); err != nil {
				t.Fatalf("%q printed %q", run, line)
			}
			k := locKey(it)
			if seen[k] {
				t.Fatalf("%q printed %s again", run, k)
			}
			seen[k] = true
			keys = append(keys, k)
		}
		m := spentRE.FindStringSubmatch(stderr)
		spent, _ := strconv.ParseFloat(m[1], 64)
		if m[2] != "" {
			spent, _ = strconv.ParseFloat(m[2], 64)
		}
		if budget > 0 && spent > budget+0.5 {
			t.Errorf("%q: spent %.1f RCU of a budget of %g", run, spent, budget)
		}
		if code == exitOK {
			sort.Strings(keys)
			return keys
		}
		token := resumeRE.FindStringSubmatch(stderr)
		if token == nil {
			t.Fatalf("%q: stopped without a token: %s", run, stderr)
		}
		run = append(append([]string(nil), args...), "--resume", token[1])
	}
}

// TestSearchCommandsEqualFilteredFullRead: scan and partiql print what
// the test's own full read, filtered here, holds: each match once, in one
// segment or several, with or without a budget, resumed after each stop;
// no run spends more than its budget and half a read unit.
func TestSearchCommandsEqualFilteredFullRead(t *testing.T) {
	cedarville := func(it dynamo.Item) bool { return text(it, "City") == "CEDARVILLE" }
	nyDriveThru := func(it dynamo.Item) bool {
		b, ok := it["DriveThru"].(*types.AttributeValueMemberBOOL)
		return text(it, "PK") == "USA" && strings.HasPrefix(text(it, "SK"), "NY#") && ok && b.Value
	}
	for name, b := range searchBackends(t) {
		all := locations(t, b.client)
		for _, tc := range []struct {
			args  []string
			match func(dynamo.Item) bool
		}{
			{[]string{"scan", "--table", "Locations", "--filter", `City = "CEDARVILLE"`}, cedarville},
			{[]string{"scan", "--table", "Locations", "--filter", `City = "CEDARVILLE"`, "--segments", "4"}, cedarville},
			{[]string{"partiql", `SELECT * FROM "Locations" WHERE City = 'CEDARVILLE'`}, cedarville},
			{[]string{"partiql", `SELECT * FROM "Locations" WHERE City = 'CEDARVILLE'`, "--segments", "4"}, cedarville},
			{[]string{"partiql", `SELECT * FROM Locations WHERE PK = 'USA' AND begins_with(SK, 'NY#') AND DriveThru = true`}, nyDriveThru},
		} {
			var want []string
			for k, it := range all {
				if tc.match(it) {
					want = append(want, k)
				}
			}
			sort.Strings(want)
			for _, budget := range []string{"none", "6"} {
				args := append(append(append([]string(nil), tc.args...), "--max-rcu", budget), b.args...)
				limit, _ := strconv.ParseFloat(budget, 64)
				got := runToEnd(t, args, limit)
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("%s %q: %d items, want %d", name, args, len(got), len(want))
				}
			}
		}
	}
}

// TestSearchOutputAndRefusals: --output json is one document of items and
// stats; a token is refused by another command, filter or statement;
// --explain prints the plan.
func TestSearchOutputAndRefusals(t *testing.T) {
	isolateAWS(t)
	out, _ := mustRun(t, "scan", "--demo", "--table", "Locations", "--filter", `City = "CEDARVILLE"`, "--output", "json")
	var doc struct {
		Items []map[string]any `json:"items"`
		Stats struct {
			Requests    int     `json:"requests"`
			ConsumedRCU float64 `json:"consumedRCU"`
			BilledRCU   float64 `json:"billedRCU"`
			Scanned     int     `json:"scanned"`
			Matched     int     `json:"matched"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not one document: %v\n%s", err, clip(out))
	}
	if s := doc.Stats; len(doc.Items) == 0 || s.Matched != len(doc.Items) || s.Scanned != 5325 || s.Requests == 0 || s.BilledRCU < s.ConsumedRCU || s.ConsumedRCU == 0 {
		t.Errorf("%d items, stats %+v", len(doc.Items), doc.Stats)
	}

	_, stderr, code := cli(t, "scan", "--demo", "--table", "DeviceLogs", "--filter", `Level = "ERROR"`, "--max-rcu", "20")
	token := resumeRE.FindStringSubmatch(stderr)
	if code != exitPartial || token == nil {
		t.Fatalf("scan at 20 RCU: exit %d: %s", code, stderr)
	}
	for _, other := range [][]string{
		{"scan", "--demo", "--table", "DeviceLogs", "--filter", `Level = "WARN"`},
		{"scan", "--demo", "--table", "DeviceLogs", "--filter", `Level = "ERROR"`, "--segments", "2"},
		{"partiql", "--demo", `SELECT * FROM DeviceLogs WHERE Level = 'ERROR'`},
		{"scan", "--demo", "--table", "DeviceLogs", "--filter", `Level = "ERROR"`, "--resume", "bm90LWEtdG9rZW4"},
	} {
		args := other
		if !strings.Contains(strings.Join(other, " "), "--resume") {
			args = append(append([]string(nil), other...), "--resume", token[1])
		}
		if _, stderr, code := cli(t, args...); code != exitUsage || !strings.Contains(stderr, "--resume") {
			t.Errorf("%q: exit %d: %s", args, code, stderr)
		}
	}

	out, _ = mustRun(t, "partiql", "--demo", "--explain", `SELECT City FROM "Locations"."ByCity" WHERE City IN ['CEDARVILLE', 'MAPLEVIEW'] AND StreetAddress IS NOT MISSING`)
	var plan map[string]any
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"operation": "Query", "table": "Locations", "index": "ByCity", "keyCondition": `City IN ("CEDARVILLE", "MAPLEVIEW")`,
		"filter": "attribute_exists(StreetAddress)", "projection": []any{"City"}, "worstCaseRCU": 70.5, "budgetRCU": 1000.0}
	for k, v := range want {
		if got, _ := json.Marshal(plan[k]); string(got) != string(must(json.Marshal(v))) {
			t.Errorf("plan %s = %s, want %v", k, got, v)
		}
	}
}

// TestPartiQLSegments: partiql --segments N reads its Scan in N segments
// as scan --segments does (the plan and the stderr line say so, and a
// token of other segments is refused); out of range, or on a statement
// that is a Query, it is refused before any item is read.
func TestPartiQLSegments(t *testing.T) {
	isolateAWS(t)
	scan := `SELECT * FROM DeviceLogs WHERE Level = 'ERROR'`
	out, _ := mustRun(t, "partiql", "--demo", "--explain", "--segments", "5", scan)
	var plan struct {
		Operation string `json:"operation"`
		Segments  int    `json:"segments"`
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil || plan.Operation != "Scan" || plan.Segments != 5 {
		t.Fatalf("--explain --segments 5: %+v (%v)\n%s", plan, err, out)
	}
	_, stderr, code := cli(t, "partiql", "--demo", "--segments", "3", "--max-rcu", "20", scan)
	token := resumeRE.FindStringSubmatch(stderr)
	if code != exitPartial || token == nil || !strings.Contains(stderr, "in 3 segments") {
		t.Fatalf("--segments 3 at 20 RCU: exit %d: %s", code, stderr)
	}
	if _, stderr, code := cli(t, "partiql", "--demo", "--segments", "2", "--resume", token[1], scan); code != exitUsage || !strings.Contains(stderr, "--resume") {
		t.Errorf("a 3-segment token with --segments 2: exit %d: %s", code, stderr)
	}
	if _, stderr, code := cli(t, "partiql", "--demo", "--segments", "3", "--resume", token[1], "--max-rcu", "none", scan); code != exitOK {
		t.Errorf("the token with its own --segments 3: exit %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"partiql", "--demo", "--segments", "65", scan}, "--segments 65 is out of range"},
		{[]string{"partiql", "--demo", "--segments", "-1", scan}, "--segments -1 is out of range"},
		{[]string{"partiql", "--demo", "--segments", "4", `SELECT * FROM Locations WHERE PK = 'USA'`}, "--segments applies to a Scan"},
	} {
		checkBadInput(t, tc.args, exitUsage, tc.want)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestScanStopSaysWhatTheNextReadNeeds (#39): a scan whose budget pays
// for no item of the largest size it read stops saying what --max-rcu the
// next read needs, and resuming with that reads on; no run spends more
// than its budget and half a read unit but the first read of all, whose
// one item of unknown size may cost what it weighs.
func TestScanStopSaysWhatTheNextReadNeeds(t *testing.T) {
	isolateAWS(t)
	srv := dynalitetest.Shared(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	c := srv.Client()
	createTable(t, c, "HeavyScan", "SK", types.ScalarAttributeTypeS)
	var reqs []types.WriteRequest
	for i := range 12 {
		reqs = append(reqs, put(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "p" + strconv.Itoa(i)},
			"SK": &types.AttributeValueMemberS{Value: "s"}, "Data": &types.AttributeValueMemberS{Value: strings.Repeat("w", 30<<10)}}))
	}
	batchWrite(t, c, "HeavyScan", reqs)
	conn := []string{"--endpoint-url", srv.Endpoint, "--region", "us-east-1"}
	spentRE := regexp.MustCompile(`stopped at the budget: ([0-9.]+) of`)
	_, stderr, code := cli(t, append([]string{"scan", "--table", "HeavyScan", "--max-rcu", "2"}, conn...)...)
	token := resumeRE.FindStringSubmatch(stderr)
	if code != exitPartial || token == nil || !strings.Contains(stderr, "and --max-rcu 4 or more (one item of the largest size read costs 4 RCU)") {
		t.Fatalf("scan at 2 RCU of 30 KB items: exit %d: %s", code, stderr)
	}
	if m := spentRE.FindStringSubmatch(stderr); m == nil || m[1] != "4.0" {
		t.Errorf("the first read, of one item of unknown size: %s", stderr)
	}
	_, stderr, code = cli(t, append([]string{"scan", "--table", "HeavyScan", "--max-rcu", "4", "--resume", token[1]}, conn...)...)
	m := spentRE.FindStringSubmatch(stderr)
	if code != exitPartial || m == nil || m[1] != "4.0" || !strings.Contains(stderr, "scanned=1 ") {
		t.Errorf("resumed at 4 RCU: exit %d: %s", code, stderr)
	}
}

// TestScanRefusesBadInputBeforeAnyRequest (#39): a resume token cut
// short, edited by hand, or given by a read of another table, filter or
// segment count, and a --segments or --max-rcu out of range, are refused
// in one line, exit 2, before any request reaches the server. An edited
// token used to be read on from the key it was edited to, and a token of
// another table was refused only after the table's description was read.
func TestScanRefusesBadInputBeforeAnyRequest(t *testing.T) {
	isolateAWS(t)
	_, stderr, code := cli(t, "scan", "--demo", "--table", "DeviceLogs", "--filter", `Level = "ERROR"`, "--max-rcu", "5")
	m := resumeRE.FindStringSubmatch(stderr)
	if code != exitPartial || m == nil {
		t.Fatalf("scan at 5 RCU: exit %d: %s", code, stderr)
	}
	token := m[1]
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Clone(raw)
	i := bytes.IndexAny(edited[bytes.Index(edited, []byte(`"k"`)):], "0123456789") + bytes.Index(edited, []byte(`"k"`))
	edited[i] = '0' + (edited[i]-'0'+1)%10 // one digit of the key, by hand
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	defer srv.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	conn := []string{"--endpoint-url", srv.URL, "--region", "us-east-1"}
	scan := []string{"scan", "--table", "DeviceLogs", "--filter", `Level = "ERROR"`}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--resume", token[:len(token)-3]}, "--resume is not a resume token of scan or partiql, or was cut or edited"},
		{[]string{"--resume", token[:len(token)/2]}, "--resume is not a resume token"},
		{[]string{"--resume", base64.RawURLEncoding.EncodeToString(edited)}, "--resume is not a resume token of scan or partiql, or was cut or edited"},
		{[]string{"--resume", base64.RawURLEncoding.EncodeToString(raw[:len(raw)-8])}, "--resume is not a resume token"},
		{[]string{"--resume", token, "--segments", "2"}, "--resume was given by another read"},
		{[]string{"--resume", token, "--table", "Locations"}, "--resume was given by another read"},
		{[]string{"--resume", token, "--filter", `Level = "WARN"`}, "--resume was given by another read"},
		{[]string{"--resume", token, "--index", "ByLevel"}, "--resume was given by another read"},
		{[]string{"--segments", "0"}, "--segments 0 is out of range"},
		{[]string{"--segments", "1000001"}, "--segments 1000001 is out of range"},
		{[]string{"--max-rcu", "-1"}, "--max-rcu -1 is not a budget"},
		{[]string{"--max-rcu", "abc"}, `--max-rcu "abc" is not a number of RCU`},
	} {
		args := append(append(append([]string(nil), scan...), tc.args...), conn...)
		checkBadInput(t, args, exitUsage, tc.want)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
	// The token whole, with its own table and filter, reads on.
	if _, stderr, code := cli(t, append(append([]string(nil), scan...), "--demo", "--resume", token, "--max-rcu", "none")...); code != exitOK {
		t.Errorf("the token as given: exit %d: %s", code, stderr)
	}
}
