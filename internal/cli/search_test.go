package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/export"
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
// segment count, a --segments or --max-rcu out of range, and a filter
// DynamoDB would refuse, are refused in one line, exit 2, before any
// request reaches the server. An edited
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
		// What DynamoDB refuses in a filter, refused before the first
		// Scan (the embedded backend's attribute_type matched nothing).
		{[]string{"--filter", `attribute_type(Level, "Q")`}, "--filter: Invalid attribute type name found; type: Q"},
		{[]string{"--filter", `Temperature between 30 and 20`}, "--filter: The BETWEEN operator requires upper bound to be greater than or equal to lower bound"},
		{[]string{"--filter", `begins_with(Level, 1)`}, "--filter: begins_with takes a string in quotes"},
		{[]string{"--filter", `Temperature > 1e400`}, "--filter: a value DynamoDB refuses: Number overflow. Attempting to store a number with magnitude larger than supported range — "},
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

// hostileScanItem is item i of a table nobody here has seen: a binary
// sort key, partition keys with a tab and an escape character, names
// that are reserved words or hold "-", "." or spaces, every attribute
// type (sets, binary, NULL, nested maps and lists), values with commas,
// quotes, newlines, control and bidi characters; items 150 and 300 of 60
// and 120 KB among ones of about 400 bytes.
func hostileScanItem(i int) map[string]types.AttributeValue {
	S := func(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
	N := func(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
	names := []string{"Zoë", "李小龍", `O'Brien "Ob"`, "comma, here", "new\nline\r\n", "bell\a and \x1b[31mred", "\u202ertl", `back\slash`, "=cmd()", ""}
	it := map[string]types.AttributeValue{
		"PK":         S(fmt.Sprintf("p\t%02d\x1b", i%7)),
		"SK":         &types.AttributeValueMemberB{Value: []byte{byte(i >> 8), byte(i), 0, 0xff}},
		"status":     S([]string{"OK", "FAILED", "RETRY"}[i%3]),
		"first name": S(names[i%len(names)]),
		"order-id":   N(strconv.Itoa(i)),
		"a.b":        N("12345678901234567890.123456789"),
		"size":       N("-1.5e-3"),
		"flag":       &types.AttributeValueMemberBOOL{Value: i%2 == 0},
		"nothing":    &types.AttributeValueMemberNULL{Value: true},
		"nested": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			S("x,\"y\""), N(strconv.Itoa(i)), &types.AttributeValueMemberB{Value: []byte{1, 2}}, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k-1": S("\x00")}}}}}},
		"ss":   &types.AttributeValueMemberSS{Value: []string{"a,b", "c\nd"}},
		"ns":   &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
		"bs":   &types.AttributeValueMemberBS{Value: [][]byte{{0}, {0xff}}},
		"blob": &types.AttributeValueMemberB{Value: []byte("\x00\x1b[2J")},
		"Data": S(strings.Repeat("d", 200+i%200)),
	}
	switch i {
	case 150:
		it["Data"] = S(strings.Repeat("h", 60<<10))
	case 300:
		it["Data"] = S(strings.Repeat("h", 120<<10))
	}
	return it
}

// scanRecorder stands between dynascope and dynalite and adds up the
// Scans it passes: requests, RCU as dynalite reported them, items read
// and sent, and the largest item sent (its JSON's length).
type scanRecorder struct {
	mu                       sync.Mutex
	requests, scanned, count int
	consumed                 float64
}

func (r *scanRecorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests, r.scanned, r.count, r.consumed = 0, 0, 0, 0
}

func (r *scanRecorder) proxy(t *testing.T, target string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		out, err := http.NewRequestWithContext(req.Context(), req.Method, target+req.URL.RequestURI(), bytes.NewReader(body))
		if err != nil {
			t.Error(err)
			return
		}
		out.Header = req.Header.Clone()
		resp, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		answer, _ := io.ReadAll(resp.Body)
		if strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".Scan") {
			var page struct {
				Count, ScannedCount int
				ConsumedCapacity    struct{ CapacityUnits float64 }
			}
			_ = json.Unmarshal(answer, &page)
			r.mu.Lock()
			r.requests++
			r.scanned += page.ScannedCount
			r.count += page.Count
			r.consumed += page.ConsumedCapacity.CapacityUnits
			r.mu.Unlock()
		}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(answer)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// sameJSON reports whether two decoded JSON values are equal, numbers
// compared by value (dynalite writes -1.5e-3 as -0.0015).
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		p, ok1 := new(big.Rat).SetString(string(x))
		q, ok2 := new(big.Rat).SetString(string(y))
		return ok1 && ok2 && p.Cmp(q) == 0
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v: %.300q", err, s)
	}
	return v
}

// TestScanOnATableNobodyHasSeen (#39): on a table of hostile names and
// values, on dynalite (behind a recording proxy) and the embedded backend
// (--data): jsonl and json print every attribute of every match as plain
// JSON that decodes to the item's values (numbers exact, binary as base64,
// sets as arrays, NULL as null), the json document's stats are what the
// proxy saw; csv quotes commas and quotes and shows newlines and control
// characters escaped, never raw; --output FILE writes the file and
// refuses to overwrite it; the estimate says what it is based on, and
// "unknown" where the server reports no size (dynalite), never 0 RCU; at
// 1 RCU in 3 segments, resumed until done, the runs print every match
// once.
func TestScanOnATableNobodyHasSeen(t *testing.T) {
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	if got, _ := json.Marshal(dynamo.Wire(&types.AttributeValueMemberNULL{Value: true})); string(got) != `{"NULL":true}` {
		t.Errorf("NULL as DynamoDB JSON: %s", got) // what --data reads back
	}
	const table = "Hostile-Scan.v1"
	var items []map[string]types.AttributeValue
	var reqs []types.WriteRequest
	for i := range 400 {
		items = append(items, hostileScanItem(i))
		reqs = append(reqs, put(items[i]))
	}
	srv := dynalitetest.Shared(t)
	createTable(t, srv.Client(), table, "SK", types.ScalarAttributeTypeB)
	batchWrite(t, srv.Client(), table, reqs)
	rec := &scanRecorder{}
	backends := map[string][]string{
		"dynalite": {"--endpoint-url", rec.proxy(t, srv.Endpoint), "--region", "us-east-1"},
		"memory":   {"--data", diffDataFile(t, table, items), "--keys", "PK:S,SK:B"},
	}
	want := map[string]any{} // the matches of status = "OK", by SK
	for _, it := range items {
		if it["status"].(*types.AttributeValueMemberS).Value == "OK" {
			b, _ := json.Marshal(dynamo.PlainItem(it))
			want[base64.StdEncoding.EncodeToString(it["SK"].(*types.AttributeValueMemberB).Value)] = decodeJSON(t, string(b))
		}
	}
	check := func(label string, got []any) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s: %d items, want %d", label, len(got), len(want))
		}
		seen := map[string]bool{}
		for _, g := range got {
			sk, _ := g.(map[string]any)["SK"].(string)
			if seen[sk] || !sameJSON(g, want[sk]) {
				t.Fatalf("%s: item %s printed again or not as it is: %.400v", label, sk, g)
			}
			seen[sk] = true
		}
	}
	for name, conn := range backends {
		scan := append([]string{"scan", "--table", table, "--filter", `status = "OK"`}, conn...)

		out, stderr, code := cli(t, append(scan, "--output", "jsonl")...)
		if code != exitOK {
			t.Fatalf("%s jsonl: exit %d: %s", name, code, stderr)
		}
		var lines []any
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			lines = append(lines, decodeJSON(t, l))
		}
		check(name+" jsonl", lines)
		estimate := regexp.MustCompile(`(?m)^estimate: .*$`).FindString(stderr)
		switch {
		case name == "dynalite" && !strings.HasPrefix(estimate, "estimate: unknown, the server reports no size for the table"):
			t.Errorf("dynalite, which reports 0 bytes: %q", estimate)
		case name == "memory" && !regexp.MustCompile(`^estimate: a whole scan reads about [1-9][0-9.]* RCU \(400 items, [0-9]+ bytes as DynamoDB last measured the table\); budget 1000 RCU$`).MatchString(estimate):
			t.Errorf("memory: %q", estimate)
		}

		rec.reset()
		out, stderr, code = cli(t, append(scan, "--output", "json", "--segments", "3")...)
		if code != exitOK {
			t.Fatalf("%s json: exit %d: %s", name, code, stderr)
		}
		var doc struct {
			Items []json.RawMessage  `json:"items"`
			Stats export.SearchStats `json:"stats"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s json: %v", name, err)
		}
		var got []any
		for _, raw := range doc.Items {
			got = append(got, decodeJSON(t, string(raw)))
		}
		check(name+" json", got)
		if s := doc.Stats; s.Scanned != 400 || s.Matched != len(want) || s.BilledRCU < s.ConsumedRCU || s.Requests < 3 {
			t.Errorf("%s json stats: %+v", name, s)
		}
		if s := doc.Stats; name == "dynalite" && (s.Requests != rec.requests || s.Scanned != rec.scanned || s.ConsumedRCU != rec.consumed) {
			t.Errorf("dynalite json stats %+v; the proxy saw %d requests, %d scanned, %g RCU", s, rec.requests, rec.scanned, rec.consumed)
		}
		// Under a budget, stopped: the same figures, and the stop's.
		rec.reset()
		out, stderr, code = cli(t, append(scan, "--output", "json", "--segments", "3", "--max-rcu", "7.5")...)
		doc.Stats = export.SearchStats{}
		if err := json.Unmarshal([]byte(out), &doc); code != exitPartial || err != nil {
			t.Fatalf("%s json at 7.5 RCU: exit %d, %v: %s", name, code, err, stderr)
		}
		if s := doc.Stats; !s.Stopped || s.Resume == "" || s.Matched != len(doc.Items) || s.BilledRCU < s.ConsumedRCU || s.BilledRCU > 7.5+0.5+15.5 {
			t.Errorf("%s json stats at 7.5 RCU: %+v", name, s)
		}
		if s := doc.Stats; name == "dynalite" && (s.Requests != rec.requests || s.Scanned != rec.scanned || s.ConsumedRCU != rec.consumed) {
			t.Errorf("dynalite json stats at 7.5 RCU %+v; the proxy saw %d requests, %d scanned, %g RCU", s, rec.requests, rec.scanned, rec.consumed)
		}

		out, stderr, code = cli(t, append(scan, "--output", "csv")...)
		if code != exitOK {
			t.Fatalf("%s csv: exit %d: %s", name, code, stderr)
		}
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(rows) != len(want)+1 || rows[0][0] != "PK" || rows[0][1] != "SK" {
			t.Fatalf("%s csv: %v, %d rows, header %q", name, err, len(rows), rows[0])
		}
		col := slices.Index(rows[0], "first name")
		cells := map[string]bool{}
		for _, row := range rows[1:] {
			cells[row[col]] = true
		}
		for _, cell := range []string{`O'Brien "Ob"`, "comma, here", `new\nline\r\n`, `bell\x07 and \x1b[31mred`, `\u202ertl`, `back\\slash`} {
			if !cells[cell] {
				t.Errorf("%s csv: no cell %q in %q", name, cell, slices.Collect(maps.Keys(cells)))
			}
		}
		if strings.ContainsFunc(out, func(r rune) bool { return r < 0x20 && r != '\n' || r == '\u202e' }) {
			t.Errorf("%s csv: a raw control character in the output", name)
		}

		file := filepath.Join(t.TempDir(), "found.jsonl")
		if _, stderr, code = cli(t, append(scan, "--output", file)...); code != exitOK || !strings.Contains(stderr, fmt.Sprintf("wrote %d items to", len(want))) {
			t.Fatalf("%s FILE: exit %d: %s", name, code, stderr)
		}
		written, _ := os.ReadFile(file)
		checkBadInput(t, append(scan, "--output", file), exitUsage, "the file exists")
		if again, _ := os.ReadFile(file); !bytes.Equal(again, written) {
			t.Errorf("%s: %s changed by a second scan", name, file)
		}

		var all []any
		runs, lastErr, told := 0, "", false
		for args := append(scan, "--segments", "3", "--max-rcu", "1"); ; runs++ {
			if runs > 500 {
				t.Fatalf("%s: no end after 500 runs at 1 RCU: %s", name, lastErr)
			}
			out, stderr, code := cli(t, args...)
			lastErr = stderr
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if l != "" {
					all = append(all, decodeJSON(t, l))
				}
			}
			if code == exitOK {
				break
			}
			m := resumeRE.FindStringSubmatch(stderr)
			if code != exitPartial || m == nil {
				t.Fatalf("%s at 1 RCU: exit %d: %s", name, code, stderr)
			}
			told = told || strings.Contains(stderr, "RCU, so under 178 RCU each read is of an item or a few (0.5 RCU a request however small), and going on costs several times what whole pages do: --max-rcu 178 or more reads whole pages; more may match, resume with --resume ")
			budget := "1"
			if least := regexp.MustCompile(`--max-rcu (\d+) or more`).FindStringSubmatch(stderr); least != nil {
				budget = least[1] // one item of the largest size read costs more than 1 RCU
			}
			args = append(append([]string(nil), scan...), "--segments", "3", "--max-rcu", budget, "--resume", m[1])
		}
		check(fmt.Sprintf("%s at 1 RCU, %d runs", name, runs+1), all)
		if !told {
			t.Errorf("%s: no stop after the 120 KB item said that whole pages need --max-rcu 178", name)
		}
	}
}
