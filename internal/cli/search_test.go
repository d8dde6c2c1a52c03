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
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dataload/dataloadtest"
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
	return runToEndBy(t, args, budget, locKey, nil)
}

// heavierThanRead is what a budgeted run may spend past its budget, run
// by run: the read units of the items it printed that were larger than
// any read before (seen from start bytes), which no read can be sized for.
func heavierThanRead(bytesOf map[string]int, key func(map[string]any) string, start int) func([]map[string]any) float64 {
	seen := start
	return func(printed []map[string]any) float64 {
		cost, most := 0.0, seen
		for _, it := range printed {
			if b := bytesOf[key(it)]; b > seen {
				cost += float64((b+4095)/4096) * 0.5
				most = max(most, b)
			}
		}
		seen = most
		return cost
	}
}

// runToEndBy is runToEnd for items keyed by key; fresh (nil: none) is
// what a run may spend past its budget and half a unit: the items it
// printed larger than any before (a run's reads are sized by the largest
// read before them).
func runToEndBy(t *testing.T, args []string, budget float64, key func(map[string]any) string, fresh func([]map[string]any) float64) []string {
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
		var printed []map[string]any
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line == "" {
				continue
			}
			var it map[string]any
			if err := json.Unmarshal([]byte(line), &it); err != nil {
				t.Fatalf("%q printed %q", run, line)
			}
			printed = append(printed, it)
			k := key(it)
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
		allowed := 0.0
		if fresh != nil {
			allowed = fresh(printed)
		}
		if budget > 0 && spent > budget+0.5+allowed {
			t.Errorf("%q: spent %.1f RCU of a budget of %g (items larger than any before: %.1f)", run, spent, budget, allowed)
		}
		if code == exitOK {
			sort.Strings(keys)
			return keys
		}
		token := resumeRE.FindStringSubmatch(stderr)
		if token == nil {
			t.Fatalf("%q: stopped without a token: %s", run, stderr)
		}
		if more := needsRE.FindStringSubmatch(stderr); more != nil {
			// The budget pays for no item of the largest size read: the
			// stop says what does, and the runs after it are given it.
			budget, _ = strconv.ParseFloat(more[1], 64)
			args = append(append([]string(nil), args...), "--max-rcu", more[1])
		}
		run = append(append([]string(nil), args...), "--resume", token[1])
	}
}

var needsRE = regexp.MustCompile(`and --max-rcu ([0-9.]+) or more`)

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
		"filter": "attribute_exists(StreetAddress)", "projection": []any{"City"}, "worstCaseRCU": 71.0, "budgetRCU": 1000.0}
	for k, v := range want {
		if got, _ := json.Marshal(plan[k]); string(got) != string(must(json.Marshal(v))) {
			t.Errorf("plan %s = %s, want %v", k, got, v)
		}
	}
}

// TestScanPinnedFilterReadsByQuery: scan whose filter pins the partition
// key reads that partition by Query, planned as the explorer's f plans
// it (dynamo.FilterSearch), and says so on stderr: the matches are those
// of a filtered full read, --output json's stats have the same shape, and
// what it cost (at the recording proxy on dynalite) is what the
// partition's own Query costs, not the table's Scan; under a budget its
// tokens resume the Queries to every match; a Scan's token of the same
// filter is refused as such, and so is --segments. A filter (or
// statement) that pins it to what no key is (PK = 81, PK = "") matches
// no item: refused in one line, exit 2, nothing read; an OR branch of it
// is left out, said, and the rest read by Query.
func TestScanPinnedFilterReadsByQuery(t *testing.T) {
	const filter = `PK = "JAPAN" and DriveThru = true`
	rec := &scanRecorder{}
	for name, b := range searchBackends(t) {
		if name == "dynalite" {
			b.args = []string{"--endpoint-url", rec.proxy(t, b.args[1]), "--region", "us-east-1"}
		}
		all := locations(t, b.client)
		var want []string
		for k, it := range all {
			if d, ok := it["DriveThru"].(*types.AttributeValueMemberBOOL); text(it, "PK") == "JAPAN" && ok && d.Value {
				want = append(want, k)
			}
		}
		sort.Strings(want)
		// The partition's own Query, whole pages, as the test reads it.
		in := &dynamodb.QueryInput{TableName: aws.String("Locations"), KeyConditionExpression: aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "JAPAN"}},
			ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal}
		partition, queryRCU := queryToEnd(t, b.client, in)

		rec.reset()
		args := append([]string{"scan", "--table", "Locations", "--filter", filter, "--max-rcu", "none", "--output", "json"}, b.args...)
		out, stderr := mustRun(t, args...)
		doc, got := scanDocument(t, name, out)
		if len(want) == 0 || strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: printed %d items, want %d", name, len(got), len(want))
		}
		var keys []string
		for k := range doc.Stats {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if strings.Join(keys, " ") != "billedRCU consumedRCU matched requests scanned stopped" {
			t.Errorf("%s: stats %v", name, keys)
		}
		st := map[string]float64{}
		for k, v := range doc.Stats {
			st[k], _ = v.(float64)
		}
		t.Logf("%s: %s: %v; the partition's own Query: %d items, %.1f RCU", name, filter, st, partition, queryRCU)
		if int(st["scanned"]) != partition || st["consumedRCU"] != queryRCU || int(st["matched"]) != len(want) {
			t.Errorf("%s: stats %v; the partition's Query reads %d items for %.1f RCU", name, st, partition, queryRCU)
		}
		if name == "dynalite" && (rec.scans != 0 || rec.queries != int(st["requests"]) || rec.consumed != queryRCU) {
			t.Errorf("dynalite: the proxy saw %d Scans, %d Queries, %.1f RCU; the partition's Query costs %.1f RCU", rec.scans, rec.queries, rec.consumed, queryRCU)
		}
		if !strings.Contains(stderr, "Query on Locations: PK = \"JAPAN\", filter DriveThru = true;") ||
			!strings.Contains(stderr, "by Query, not a Scan: the filter pins the partition key PK, so only 1 partition is read, not the whole table") {
			t.Errorf("%s: stderr does not say it reads by Query, and why:\n%s", name, stderr)
		}

		// Under a budget, resumed after each stop, every match once.
		base := append([]string{"scan", "--table", "Locations", "--filter", filter, "--max-rcu", "0.5"}, b.args...)
		if got := runToEnd(t, base, 0.5); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: resumed at 0.5 RCU: %d items, want %d", name, len(got), len(want))
		}
		_, stderr, code := cli(t, base...)
		token := resumeRE.FindStringSubmatch(stderr)
		if code != exitPartial || token == nil {
			t.Fatalf("%s: at 0.5 RCU: exit %d: %s", name, code, stderr)
		}
		if !regexp.MustCompile(`stopped at the budget: 0\.5 of 0\.5 RCU, 1 item read, [01] matched;`).MatchString(stderr) {
			t.Errorf("%s: the stop does not say the items the Query read, in the Query's words: %s", name, stderr)
		}
		for _, tc := range []struct {
			args []string
			want string
		}{
			{append(append([]string(nil), base...), "--resume", token[1], "--segments", "1"), "--resume"},
			{append([]string{"partiql", "SELECT * FROM Locations WHERE PK = 'JAPAN' AND DriveThru = true", "--resume", token[1]}, b.args...), "--resume"},
			{append([]string{"scan", "--table", "Locations", "--filter", `PK = "JAPAN"`, "--resume", token[1]}, b.args...), "--resume"},
		} {
			checkBadInput(t, tc.args, exitUsage, tc.want)
		}
		// A token of the filter's Scan (as scan gave before it read by
		// Query) goes on from nowhere in the Queries: refused as such.
		where, _ := domain.ParseFilter(filter)
		scanFP := dynamo.SearchRequest{Table: "Locations", Filter: where, Segments: 1, Origin: "scan"}.Fingerprint()
		scanToken := dynamo.SearchToken(scanFP, dynamo.SearchPosition{Streams: []dynamo.SearchStream{{Start: dynamo.Item{
			"PK": &types.AttributeValueMemberS{Value: "CANADA"}, "SK": &types.AttributeValueMemberS{Value: "AB#"}}}}})
		checkBadInput(t, append(append([]string(nil), base...), "--resume", scanToken), exitUsage,
			"--resume was given by a Scan of this filter, and scan now reads it by Query")
		checkBadInput(t, append([]string{"scan", "--table", "Locations", "--filter", filter, "--segments", "2"}, b.args...), exitUsage,
			"--segments applies to a Scan, and this filter is read by Query")

		// The sort key pinned too, by IN: one Query a key, each reading
		// its item, and stderr says so (it read the whole partition, the
		// IN applied here, and said "2 partitions" of the one).
		var sks []string
		for _, it := range all {
			if text(it, "PK") == "JAPAN" {
				sks = append(sks, text(it, "SK"))
			}
		}
		sort.Strings(sks)
		rec.reset()
		keyFilter := fmt.Sprintf(`PK = "JAPAN" and SK in (%q, %q, "nothing")`, sks[0], sks[1])
		out, stderr = mustRun(t, append([]string{"scan", "--table", "Locations", "--filter", keyFilter, "--max-rcu", "none", "--output", "json"}, b.args...)...)
		if _, got := scanDocument(t, name, out); len(got) != 2 {
			t.Errorf("%s: %s printed %d items, want 2", name, keyFilter, len(got))
		}
		if !strings.Contains(stderr, "so only 1 partition is read (3 Queries, one a key), not the whole table") {
			t.Errorf("%s: %s: stderr does not say it reads each key:\n%s", name, keyFilter, stderr)
		}
		if name == "dynalite" && (rec.scans != 0 || rec.queries != 3) {
			t.Errorf("dynalite: %s sent %d Scans, %d Queries; want 3 Queries, one a key", keyFilter, rec.scans, rec.queries)
		}

		// Pinned to what no key is (a number for a string key, an empty
		// key): it matches no item, so it is refused in one line saying
		// what to write, exit 2, no Query or Scan sent (it was a Scan of
		// the whole table).
		rec.reset()
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"scan", "--table", "Locations", "--filter", `PK = 81 and DriveThru = true`}, `--filter: PK is a string key, so PK = 81 matches no item: write PK = "81" — nothing was read`},
			{[]string{"scan", "--table", "Locations", "--filter", `DriveThru = true and PK = ""`}, `--filter: PK = "" matches no item: a partition key is never empty; write the key's value`},
			{[]string{"scan", "--table", "Locations", "--filter", `PK = 81 or PK = ""`}, `--filter: PK is a string key, so PK = 81 matches no item: write PK = "81"; PK = "" matches no item`},
			{[]string{"partiql", "SELECT * FROM Locations WHERE PK = 81 AND DriveThru = true"}, `the statement: PK is a string key, so PK = 81 matches no item: write PK = '81'`},
			{[]string{"partiql", "SELECT * FROM Locations WHERE PK IN ['']"}, `the statement: PK = '' matches no item: a partition key is never empty`},
			// The sort key beside the pin, compared with a number: it
			// scanned the whole table, advising PartiQL's single quotes.
			{[]string{"scan", "--table", "Locations", "--filter", `PK = "JAPAN" and SK > 5`}, `--filter: SK is a string key, so SK > 5 matches no item: write SK > "5" — nothing was read`},
		} {
			checkBadInput(t, append(tc.args, b.args...), exitUsage, tc.want)
		}
		if name == "dynalite" && (rec.scans != 0 || rec.queries != 0) {
			t.Errorf("dynalite: a filter that matches no item sent %d Scans, %d Queries", rec.scans, rec.queries)
		}
		// One OR branch so pinned matches nothing: left out, and said; the
		// other branch's Query read as it is alone.
		for _, args := range [][]string{
			{"scan", "--table", "Locations", "--filter", `PK = 81 or ` + filter, "--max-rcu", "none", "--output", "json"},
			{"partiql", "SELECT * FROM Locations WHERE PK = 81 OR (PK = 'JAPAN' AND DriveThru = true)", "--max-rcu", "none", "--output", "json"},
		} {
			rec.reset()
			out, stderr := mustRun(t, append(args, b.args...)...)
			var doc struct {
				Items []map[string]any       `json:"items"`
				Stats struct{ Requests int } `json:"stats"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%s: not one document: %v\n%s", name, err, clip(out))
			}
			var got []string
			for _, it := range doc.Items {
				got = append(got, locKey(it))
			}
			sort.Strings(got)
			quote := `"81"`
			if args[0] == "partiql" {
				quote = `'81'`
			}
			if strings.Join(got, " ") != strings.Join(want, " ") || !strings.Contains(stderr, `Query on Locations: PK = "JAPAN"`) ||
				!strings.Contains(stderr, "PK is a string key, so PK = 81 matches no item: write PK = "+quote+"; that branch is left out, the rest read") {
				t.Errorf("%s %s: %d items (want %d), stderr:\n%s", name, args[0], len(got), len(want), stderr)
			}
			if name == "dynalite" && (rec.scans != 0 || rec.queries != doc.Stats.Requests) {
				t.Errorf("dynalite %s: %d Scans, %d Queries: the branch that matches nothing scanned the table", args[0], rec.scans, rec.queries)
			}
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

// queryToEnd reads in to its end, as the test reads a partition for
// itself: the items scanned and the RCU reported.
func queryToEnd(t *testing.T, c dynamo.Client, in *dynamodb.QueryInput) (scanned int, rcu float64) {
	t.Helper()
	for {
		page, err := c.Query(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		scanned += int(page.ScannedCount)
		rcu += aws.ToFloat64(page.ConsumedCapacity.CapacityUnits)
		if len(page.LastEvaluatedKey) == 0 {
			return scanned, rcu
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
}

// scanDocument is scan's --output json document, and the Locations keys
// of its items in order.
func scanDocument(t *testing.T, name, out string) (doc struct {
	Items []map[string]any `json:"items"`
	Stats map[string]any   `json:"stats"`
}, keys []string) {
	t.Helper()
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%s: not one document: %v\n%s", name, err, clip(out))
	}
	for _, it := range doc.Items {
		keys = append(keys, locKey(it))
	}
	sort.Strings(keys)
	return doc, keys
}

// TestScanPinnedBoundsReadTheStretch: a pinned filter's two bounds on
// the sort key that no one key condition says (> and <) read the stretch
// between them (BETWEEN, the bounds' own < and > applied here), not the
// whole partition: on the demo's USA, CA and CO's items for what that
// stretch's Query costs, where the partition is 66.5 RCU.
func TestScanPinnedBoundsReadTheStretch(t *testing.T) {
	const filter = `PK = "USA" and SK > "CA#" and SK < "CO#ZZ" and DriveThru = true`
	rec := &scanRecorder{}
	for name, b := range searchBackends(t) {
		if name == "dynalite" {
			b.args = []string{"--endpoint-url", rec.proxy(t, b.args[1]), "--region", "us-east-1"}
		}
		var want []string
		for k, it := range locations(t, b.client) {
			sk := text(it, "SK")
			if d, ok := it["DriveThru"].(*types.AttributeValueMemberBOOL); text(it, "PK") == "USA" && sk > "CA#" && sk < "CO#ZZ" && ok && d.Value {
				want = append(want, k)
			}
		}
		sort.Strings(want)
		in := &dynamodb.QueryInput{TableName: aws.String("Locations"), KeyConditionExpression: aws.String("PK = :pk AND SK BETWEEN :a AND :b"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "USA"},
				":a": &types.AttributeValueMemberS{Value: "CA#"}, ":b": &types.AttributeValueMemberS{Value: "CO#ZZ"}},
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
		_, stretchRCU := queryToEnd(t, b.client, in)
		rec.reset()
		out, stderr := mustRun(t, append([]string{"scan", "--table", "Locations", "--filter", filter, "--max-rcu", "none", "--output", "json"}, b.args...)...)
		doc, got := scanDocument(t, name, out)
		if len(want) == 0 || strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: printed %d items, want %d", name, len(got), len(want))
		}
		spent, _ := doc.Stats["consumedRCU"].(float64)
		t.Logf("%s: %s: %v; the stretch's Query %.1f RCU", name, filter, doc.Stats, stretchRCU)
		if spent != stretchRCU || stretchRCU >= 66.5 {
			t.Errorf("%s: spent %.1f RCU; the stretch's Query costs %.1f (the partition 66.5)", name, spent, stretchRCU)
		}
		if name == "dynalite" && (rec.scans != 0 || rec.consumed != stretchRCU) {
			t.Errorf("dynalite: the proxy saw %d Scans, %.1f RCU; the stretch's Query costs %.1f", rec.scans, rec.consumed, stretchRCU)
		}
		if !strings.Contains(stderr, `SK BETWEEN "CA#" AND "CO#ZZ"`) {
			t.Errorf("%s: stderr does not name the stretch read:\n%s", name, stderr)
		}
	}
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
	spentRE := regexp.MustCompile(`stopped (?:at|past) the budget: ([0-9.]+) of`)
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
	// Resumed at 7 RCU: one item of 30 KB read (4 RCU), the 3 left pay
	// for no other, so it stops short of the budget and says so; "stopped
	// at the budget: 4.0 of 7 RCU" read as if the budget were spent.
	_, stderr, code = cli(t, append([]string{"scan", "--table", "HeavyScan", "--max-rcu", "7", "--resume", token[1]}, conn...)...)
	if code != exitPartial || !strings.Contains(stderr, "stopped short of the budget: 4.0 of 7 RCU, the 3.0 left paying for no read of an item of the largest size read (4 RCU), 1 item scanned") {
		t.Errorf("resumed at 7 RCU: exit %d: %s", code, stderr)
	}
	// Resumed at the budget that paid for no item of 30 KB: the same
	// again reads nothing, so it is refused as the budget's fault (exit
	// 2, one line saying the budget that goes on), not a stop to resume
	// from again forever.
	_, stderr, code = cli(t, append([]string{"scan", "--table", "HeavyScan", "--max-rcu", "2", "--resume", token[1]}, conn...)...)
	if code != exitUsage || !strings.Contains(stderr, "--max-rcu 2 pays for no item of the largest size read before (4 RCU): nothing read — resume with --resume "+token[1]+" --max-rcu 4 or more") ||
		strings.Count(stderr, "dynascope:") != 1 {
		t.Errorf("resumed at the budget that read nothing: exit %d: %s", code, stderr)
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
	conn, requests := refusingServer(t)
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
		{[]string{"--table", "no such"}, `--table "no such": no table can be named so: DynamoDB's table names are 3 to 255 letters, digits, _ . and -`},
		{[]string{"--index", "ix"}, `--index "ix": no index can be named so`},
		{[]string{"--filter", `Level = Level`}, "--filter: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [Level]"},
		{[]string{"--filter", `Temperature > 1e400`}, "--filter: a value DynamoDB refuses: Number overflow. Attempting to store a number with magnitude larger than supported range — "},
		{[]string{"--filter", `Level = "ERROR" or not (size(Level) between 1e3 and 1)`}, "--filter: The BETWEEN operator requires upper bound to be greater than or equal to lower bound"},
		{[]string{"--filter", `Level =`}, "--filter column 8: expected a value or a name"},
		// Over DynamoDB's 4 KiB or 300 operators an expression: it was
		// sent past DescribeTable, exit 1, "the server refused the read".
		{[]string{"--filter", orOf("Level", 400)}, "--filter: the filter expression is 6682 bytes, over DynamoDB's 4 KiB expression limit — make the filter shorter"},
		{[]string{"--filter", orOf("Level", 151)}, "--filter: the filter expression holds 301 operators and functions, over DynamoDB's limit of 300 — write the filter with fewer conditions"},
		{[]string{"--output", "nope"}, `--output "nope" is not a format or a file to export to`},
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

// refusingServer is an endpoint, as conn's flags, that answers every
// request with a 500 and counts them (credentials set): a command that
// refuses its input before any request leaves requests at 0.
func refusingServer(t *testing.T) (conn []string, requests *atomic.Int32) {
	t.Helper()
	requests = new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	return []string{"--endpoint-url", srv.URL, "--region", "us-east-1"}, requests
}

// orOf is an or of n equalities of attr, in a filter's and a
// statement's words alike.
func orOf(attr string, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("%s = %d", attr, i)
	}
	return strings.Join(parts, " or ")
}

// TestPartiQLRefusesBadInputBeforeAnyRequest: what partiql can tell is
// wrong without the table's keys (the statement's syntax, what DynamoDB
// would refuse in any of its conditions, a resume token cut, edited, or
// of another statement or segment count) exits 2 with one line, no
// request sent; a token as given reads on.
func TestPartiQLRefusesBadInputBeforeAnyRequest(t *testing.T) {
	isolateAWS(t)
	stmt := `SELECT * FROM DeviceLogs WHERE Level = 'ERROR'`
	_, stderr, code := cli(t, "partiql", "--demo", "--max-rcu", "2", stmt)
	m := resumeRE.FindStringSubmatch(stderr)
	if code != exitPartial || m == nil {
		t.Fatalf("partiql at 2 RCU: exit %d: %s", code, stderr)
	}
	token := m[1]
	_, stderr, code = cli(t, "scan", "--demo", "--table", "DeviceLogs", "--filter", `Level = "ERROR"`, "--max-rcu", "2")
	scanToken := resumeRE.FindStringSubmatch(stderr)
	if code != exitPartial || scanToken == nil {
		t.Fatalf("scan at 2 RCU: exit %d: %s", code, stderr)
	}
	conn, requests := refusingServer(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{`SELECT * FROM DeviceLogs WHERE Level IS NOTHING`}, "expected MISSING or NULL after IS"},
		{[]string{`DELETE FROM DeviceLogs WHERE DeviceID = 1`}, "DELETE writes"},
		{[]string{`SELECT * FROM DeviceLogs WHERE attribute_type(Level, 'Q')`}, "the statement: Invalid attribute type name found; type: Q"},
		{[]string{`SELECT * FROM DeviceLogs WHERE DeviceID = 1 OR NOT begins_with(Level, 1)`}, "the statement: begins_with takes a string in quotes"},
		{[]string{`SELECT * FROM DeviceLogs WHERE Temperature > 1e400`}, "the statement: a value DynamoDB refuses: Number overflow"},
		{[]string{`SELECT * FROM "Device Logs" WHERE Level = 'ERROR'`}, `the statement: FROM "Device Logs": no table can be named so: DynamoDB's table names are 3 to 255 letters, digits, _ . and -`},
		{[]string{`SELECT * FROM DeviceLogs."By Level"`}, `the statement: FROM "DeviceLogs"."By Level": no index can be named so`},
		{[]string{`SELECT * FROM DeviceLogs WHERE "Level" = "Level" OR DeviceID = 1`}, "the statement: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [Level]"},
		{[]string{`SELECT * FROM DeviceLogs WHERE Temperature BETWEEN 30 AND 20`}, "Temperature BETWEEN 30 AND 20: the lower bound comes first"},
		// The WHERE whole within DynamoDB's limits an expression (each
		// condition alone was; the Scan was sent).
		{[]string{"SELECT * FROM DeviceLogs WHERE " + orOf("Level", 151)}, "the statement: the filter expression holds 301 operators and functions, over DynamoDB's limit of 300 — write the filter with fewer conditions"},
		{[]string{"SELECT * FROM DeviceLogs WHERE " + orOf("Level", 400)}, "over DynamoDB's 4 KiB expression limit"},
		{[]string{stmt, "--resume", token[:len(token)-3]}, "--resume is not a resume token of scan or partiql, or was cut or edited"},
		{[]string{stmt, "--resume", scanToken[1]}, "--resume was given by another read"},
		{[]string{`SELECT * FROM DeviceLogs WHERE Level = 'WARN'`, "--resume", token}, "--resume was given by another read"},
		{[]string{`SELECT Level FROM DeviceLogs WHERE Level = 'ERROR'`, "--resume", token}, "--resume was given by another read"},
		{[]string{`SELECT * FROM Locations WHERE Level = 'ERROR'`, "--resume", token}, "--resume was given by another read"},
		{[]string{stmt, "--resume", token, "--segments", "2"}, "--resume was given by another read"},
		{[]string{stmt, "--segments", "65"}, "--segments 65 is out of range"},
		{[]string{stmt, "--max-rcu", "-1"}, "--max-rcu -1 is not a budget"},
		{[]string{stmt, "--output", "nope"}, `--output "nope" is not a format or a file to export to`},
		{[]string{stmt, "--output", "/nonexistent/dir/x.csv"}, "--output: the folder /nonexistent/dir does not exist"},
	} {
		checkBadInput(t, append(append([]string{"partiql"}, tc.args...), conn...), exitUsage, tc.want)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
	// The token as given, however the statement is spaced and cased,
	// reads on.
	if _, stderr, code := cli(t, "partiql", "--demo", "--resume", token, "--max-rcu", "none", `select *  from "DeviceLogs" where "Level" = 'ERROR';`); code != exitOK {
		t.Errorf("the token as given: exit %d: %s", code, stderr)
	}
}

// TestSearchRefusedReadOffersNoToken: a scan or partiql whose read the
// server refused part-way (a ValidationException: the same read,
// resumed, is refused again) exits 1 with one line saying what failed
// and no --resume token; what it read before is printed.
func TestSearchRefusedReadOffersNoToken(t *testing.T) {
	endpoint := zooBackends(t)["dynalite"][1]
	var reads atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		target := r.Header.Get("X-Amz-Target")
		if (strings.HasSuffix(target, ".Scan") || strings.HasSuffix(target, ".Query")) && reads.Add(1) == 2 {
			w.Header().Set("Content-Type", "application/x-amz-json-1.0")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"__type":"com.amazon.coral.validate#ValidationException","message":"The provided starting key is invalid"}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, endpoint+r.URL.Path, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		maps.Copy(w.Header(), resp.Header)
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	defer proxy.Close()
	conn := []string{"--endpoint-url", proxy.URL, "--region", "us-east-1"}
	for _, args := range [][]string{
		{"scan", "--table", "Zoo", "--segments", "1", "--max-rcu", "20"},
		{"partiql", "--max-rcu", "20", `SELECT * FROM "Zoo" WHERE pk IN ['user#1', 'user#2']`},
	} {
		reads.Store(0)
		out, stderr, code := cli(t, append(args, conn...)...)
		last := stderr[strings.LastIndex(strings.TrimSuffix(stderr, "\n"), "\n")+1:]
		if code != exitFailure || strings.Contains(stderr, "--resume") || !strings.Contains(last, "ValidationException: The provided starting key is invalid") ||
			!strings.Contains(last, "resuming it would be refused again") || strings.Count(last, "\n") != 1 {
			t.Errorf("%s, its second read refused: exit %d: %s", args[0], code, stderr)
		}
		if out == "" {
			t.Errorf("%s: what the first read found is not printed", args[0])
		}
	}
}

// hostileScanItem is item i of a table nobody here has seen: a binary
// sort key, partition keys with a tab and an escape character, names
// that are reserved words or hold "-", "." or spaces, every attribute
// type (sets, binary, NULL, nested maps and lists), values with commas,
// quotes, newlines, control and bidi characters; an attribute that is
// NULL, absent or the text \N by turns; items 150 and 300 of 60 and 120
// KB among ones of about 400 bytes.
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
	switch i / 3 % 3 { // NULL, the text CSV says NULL in, or absent
	case 0:
		it["maybe"] = &types.AttributeValueMemberNULL{Value: true}
	case 1:
		it["maybe"] = S(`\N`)
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
	scans, queries           int // requests, by operation
	consumed                 float64
}

func (r *scanRecorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests, r.scanned, r.count, r.consumed, r.scans, r.queries = 0, 0, 0, 0, 0, 0
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
		op := req.Header.Get("X-Amz-Target")
		if strings.HasSuffix(op, ".Scan") || strings.HasSuffix(op, ".Query") {
			var page struct {
				Count, ScannedCount int
				ConsumedCapacity    struct{ CapacityUnits float64 }
			}
			_ = json.Unmarshal(answer, &page)
			r.mu.Lock()
			r.requests++
			if strings.HasSuffix(op, ".Scan") {
				r.scans++
			} else {
				r.queries++
			}
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
		// NULL, absent and the text \N are three cells: \N, empty and
		// \\N (the escaper doubles a backslash), as JSON tells them.
		wantCells := map[string]int{}
		for _, it := range items {
			if it["status"].(*types.AttributeValueMemberS).Value != "OK" {
				continue
			}
			switch v := it["maybe"].(type) {
			case *types.AttributeValueMemberNULL:
				wantCells[export.CSVNull]++
			case *types.AttributeValueMemberS:
				wantCells[`\\`+v.Value[1:]]++
			default:
				wantCells[""]++
			}
		}
		maybe, gotCells := slices.Index(rows[0], "maybe"), map[string]int{}
		for _, row := range rows[1:] {
			gotCells[row[maybe]]++
		}
		if len(wantCells) != 3 || !maps.Equal(gotCells, wantCells) {
			t.Errorf("%s csv: the cells of NULL, absent and the text \\N are %v, want %v", name, gotCells, wantCells)
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

// zooAV builds attribute values for the PartiQL battery's table.
type zooAV = types.AttributeValue

func zs(v string) zooAV  { return &types.AttributeValueMemberS{Value: v} }
func zn(v string) zooAV  { return &types.AttributeValueMemberN{Value: v} }
func zb(v ...byte) zooAV { return &types.AttributeValueMemberB{Value: v} }
func zm(kv ...any) zooAV {
	m := map[string]zooAV{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(zooAV)
	}
	return &types.AttributeValueMemberM{Value: m}
}
func zl(vs ...zooAV) zooAV { return &types.AttributeValueMemberL{Value: vs} }

// zooItems is a table nobody wrote the product for: an LSI on a number
// (rank), a sparse GSI (species, born), a GSI keyed on a reserved word
// (status, rank), nested maps and lists, sets, binary, BOOL and NULL,
// reserved and odd attribute names, odd partition keys and odd numbers.
func zooItems() []map[string]zooAV {
	item := func(pk, sk, rank string, kv ...any) map[string]zooAV {
		it := map[string]zooAV{"pk": zs(pk), "sk": zs(sk), "rank": zn(rank)}
		for i := 0; i < len(kv); i += 2 {
			it[kv[i].(string)] = kv[i+1].(zooAV)
		}
		return it
	}
	pad := func(n int) zooAV { return zs(strings.Repeat("p", n)) }
	return []map[string]zooAV{
		item("user#1", "a#001", "3", "species", zs("cat"), "born", zs("2019-01"), "status", zs("ACTIVE"), "name", zs("Tom"),
			"date", zs("2024-01-02"), "count", zn("5"), "size", zn("10"), "a-b", zs("dash"), "a.b", zs("dot"), "with space", zs("sp"),
			"nested", zm("list", zl(zm("c", zs("deep")), zn("1")), "m", zm("x", zn("1"))),
			"tags", &types.AttributeValueMemberSS{Value: []string{"blue", "red"}}, "nums", &types.AttributeValueMemberNS{Value: []string{"1", "2"}},
			"bin", zb(1, 2), "flag", &types.AttributeValueMemberBOOL{Value: true}, "nul", &types.AttributeValueMemberNULL{Value: true}, "num", zn("1e3"), "level", zn("1e3")),
		item("user#1", "a#002", "-1", "status", zs("INACTIVE"), "name", zs("Jerry"), "count", zn("0"), "num", zn("-0"),
			"flag", &types.AttributeValueMemberBOOL{Value: false}, "nested", zm("list", zl(zm("c", zs("other")))), "bin", zb(0xff),
			"tags", &types.AttributeValueMemberSS{Value: []string{"green"}}, "pad", pad(6000)),
		item("user#1", "b#001", "10.50", "species", zs("dog"), "born", zs("2020-05"), "status", zs("ACTIVE"), "num", zn("10.50"),
			"with space", zs("x y"), "nums", &types.AttributeValueMemberNS{Value: []string{"3"}}, "pad", pad(9000)),
		item("ünï©ødé", "a#001", "7", "species", zs("cat"), "born", zs("2018-12"), "status", zs("PENDING"), "name", zs("Ünï"),
			"count", zn("12"), "num", zn("7"), "date", zs("2023-12-31"), "nul", &types.AttributeValueMemberNULL{Value: true}, "level", zn("7")),
		item("ünï©ødé", "z", "1e3", "status", zs("ACTIVE"), "num", zn("-3.25"), "note", zs("it's"), "pad", pad(5000)),
		item("it's", "a#001", "2", "name", zs("O'Brien"), "note", zs("it's"), "status", zs("it's")),
		item(`say "hi"`, "a#001", "2", "species", zs("bird"), "born", zs("2021"), "name", zs(`say "hi"`), "count", zs("10"), "status", zs("ACTIVE")),
		item("user#2", "a#001", "0", "count", zn("7"), "status", zs("ACTIVE"), "size", zs("big"), "bin", zb(1, 2, 3)),
		item("user#2", "a#010", "100", "species", zs("dog"), "born", zs("2019-07"), "status", zs("DONE"), "level", zn("1000.0"),
			"flag", &types.AttributeValueMemberBOOL{Value: true}, "nested", zm("list", zl(zm("c", zs("deep"))), "m", zm("x", zn("2")))),
		item("a b", "a b#1", "5", "status", zs("ACTIVE"), "a.b", zs("dot2"), "pad", pad(12000)),
		item("user#2", "b#", "3", "num", zs("10.50"), "tags", &types.AttributeValueMemberSS{Value: []string{"red"}}),
	}
}

// zooTable is the battery table's definition: its keys, an LSI ByRank
// (pk, rank N), a sparse GSI BySpecies (species, born), a GSI ByStatus
// (status, rank N) and a sparse hash-only GSI ByLevel (level N, written
// 1e3 and 1000.0 for one value).
func zooTable(name string) *dynamodb.CreateTableInput {
	k := func(n string, t types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: t}
	}
	all := &types.Projection{ProjectionType: types.ProjectionTypeAll}
	return &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		KeySchema:   []types.KeySchemaElement{k("pk", types.KeyTypeHash), k("sk", types.KeyTypeRange)},
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("rank"), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String("species"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("born"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("status"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("level"), AttributeType: types.ScalarAttributeTypeN},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("ByRank"),
			KeySchema: []types.KeySchemaElement{k("pk", types.KeyTypeHash), k("rank", types.KeyTypeRange)}, Projection: all}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("BySpecies"), KeySchema: []types.KeySchemaElement{k("species", types.KeyTypeHash), k("born", types.KeyTypeRange)}, Projection: all},
			{IndexName: aws.String("ByStatus"), KeySchema: []types.KeySchemaElement{k("status", types.KeyTypeHash), k("rank", types.KeyTypeRange)}, Projection: all},
			{IndexName: aws.String("ByLevel"), KeySchema: []types.KeySchemaElement{k("level", types.KeyTypeHash)}, Projection: all},
		},
	}
}

// loansTable is a loans table keyed by the strings pk and sk, its
// indexes' string keys defined too, for a test to give it its index;
// and how to write a key's element.
func loansTable(name string, indexKeys ...string) (*dynamodb.CreateTableInput, func(string, types.KeyType) types.KeySchemaElement) {
	k := func(n string, kt types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: kt}
	}
	var defs []types.AttributeDefinition
	for _, n := range append([]string{"pk", "sk"}, indexKeys...) {
		defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS})
	}
	return &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{k("pk", types.KeyTypeHash), k("sk", types.KeyTypeRange)}, AttributeDefinitions: defs}, k
}

// TestFilterOnWhatAKeysOnlyIndexHolds: ElectroDB's loans under an index
// kept KEYS_ONLY (by book): a filter on renewals, which the index does
// not hold, truly matches none of its items, and scan, items, range and
// partiql said only "matched=0", as if no loan had been renewed three
// times. They say renewals is not in the index, what it holds and how
// to read the table's items; a filter on what it holds, or on the
// table, says nothing of it. On dynalite and the embedded backend.
func TestFilterOnWhatAKeysOnlyIndexHolds(t *testing.T) {
	def, k := loansTable("Loans", "gsi1pk", "gsi1sk")
	def.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi1"), KeySchema: []types.KeySchemaElement{k("gsi1pk", types.KeyTypeHash), k("gsi1sk", types.KeyTypeRange)},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}
	var items []map[string]zooAV
	for i := range 12 {
		day := fmt.Sprintf("2025-0%d-01", 1+i%9)
		items = append(items, map[string]zooAV{"pk": zs(fmt.Sprintf("$library#memberid_m%d", i%3)), "sk": zs(fmt.Sprintf("$account#loan_1#loandate_%s#bookid_b%d", day, i)),
			"gsi1pk": zs(fmt.Sprintf("$library#bookid_b%d", i%2)), "gsi1sk": zs("$loan_1#loandate_" + day), "renewals": zn(strconv.Itoa(i % 4))})
	}
	for name, conn := range batteryBackends(t, def, items) {
		for _, args := range [][]string{
			{"scan", "--table", "Loans", "--index", "gsi1", "--filter", "renewals = 3"},
			{"items", "--table", "Loans", "--index", "gsi1", "--pk", "$library#bookid_b1", "--filter", "renewals = 3"},
			{"partiql", `SELECT * FROM "Loans"."gsi1" WHERE renewals = 3`},
			// range on the index, its loan dates' days, said nothing either.
			{"range", "--table", "Loans", "--index", "gsi1", "--pk", "$library#bookid_b1", "--from", "2025-01-01", "--to", "2025-09-30", "--filter", "renewals = 3"},
		} {
			out, stderr, code := cli(t, append(args, conn...)...)
			if code != exitOK || out != "" || !strings.Contains(stderr, "renewals is not in index gsi1 (it holds its keys only): no item read from it has it; ") {
				t.Errorf("%s %s: exit %d, stdout %q: %s", name, args[0], code, out, stderr)
			}
		}
		out, stderr := mustRun(t, append([]string{"scan", "--table", "Loans", "--filter", "renewals = 3"}, conn...)...)
		if strings.Count(out, "\n") != 3 || strings.Contains(stderr, "not in index") {
			t.Errorf("%s, the table: %q: %s", name, out, stderr)
		}
		out, stderr = mustRun(t, append([]string{"scan", "--table", "Loans", "--index", "gsi1", "--filter", `begins_with(gsi1sk, "$loan_1#loandate_2025-01")`}, conn...)...)
		if strings.Count(out, "\n") != 2 || strings.Contains(stderr, "not in index") {
			t.Errorf("%s, what the index holds: %q: %s", name, out, stderr)
		}
	}
}

// TestFilterOnWhatALocalIndexDoesNotHold: a local index kept KEYS_ONLY
// (a member's loans by day). DynamoDB reads what a filter or projection
// names that such an index does not hold from the table, item by item,
// each read billed apart; dynascope's reads did not (under a budget they
// ask for the index's items whole and filter them here), so on DynamoDB
// scan and partiql matched none of the loans renewed three times, and
// said nothing. They are refused, before any Query or Scan, saying so
// and what to write; what the index holds is read as before. On
// dynalite and the embedded backend.
func TestFilterOnWhatALocalIndexDoesNotHold(t *testing.T) {
	def, k := loansTable("Loans.local", "day")
	def.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{IndexName: aws.String("by-day"), KeySchema: []types.KeySchemaElement{k("pk", types.KeyTypeHash), k("day", types.KeyTypeRange)},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}
	var items []map[string]zooAV
	for i := range 12 {
		items = append(items, map[string]zooAV{"pk": zs(fmt.Sprintf("m%d", i%3)), "sk": zs(fmt.Sprintf("loan#%02d", i)),
			"day": zs(fmt.Sprintf("2025-0%d-01", 1+i%9)), "renewals": zn(strconv.Itoa(i % 4))})
	}
	const said = "renewals is not in local index by-day (it holds its keys only): DynamoDB would read it from the table item by item, each read billed apart, which dynascope does not"
	for name, conn := range batteryBackends(t, def, items) {
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"scan", "--table", "Loans.local", "--index", "by-day", "--filter", "renewals = 3"}, said + " — leave --index out"},
			{[]string{"scan", "--table", "Loans.local", "--index", "by-day", "--max-rcu", "none", "--filter", `pk = "m0" and renewals = 3`}, said},
			{[]string{"partiql", `SELECT * FROM "Loans.local"."by-day" WHERE pk = 'm0' AND renewals = 3`}, said + `: read the table, FROM "Loans.local", or name only what the index holds`},
			{[]string{"partiql", `SELECT pk, renewals FROM "Loans.local"."by-day" WHERE pk = 'm0'`}, said},
		} {
			out, stderr, code := cli(t, append(tc.args, conn...)...)
			if code != exitUsage || out != "" || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "scanned=") {
				t.Errorf("%s %q: exit %d, stdout %q: %s", name, tc.args, code, out, stderr)
			}
		}
		for _, args := range [][]string{
			{"scan", "--table", "Loans.local", "--index", "by-day", "--filter", `pk = "m0" and day > "2025-03"`},
			{"partiql", `SELECT pk, sk, day FROM "Loans.local"."by-day" WHERE pk = 'm0' AND day > '2025-03'`},
		} {
			out, stderr := mustRun(t, append(args, conn...)...)
			if strings.Count(out, "\n") != 2 || strings.Contains(stderr, "not in local index") {
				t.Errorf("%s %s, what the index holds: %q: %s", name, args[0], out, stderr)
			}
		}
		out, _ := mustRun(t, append([]string{"scan", "--table", "Loans.local", "--filter", "renewals = 3"}, conn...)...)
		if strings.Count(out, "\n") != 3 {
			t.Errorf("%s, the table: %q", name, out)
		}
	}
}

// spacedBackends is a table whose keys are named "g s" and "s k"
// (strings), holding a#x#1, a#x#2 and b#y, on dynalite and as --data:
// the connection arguments of each.
func spacedBackends(t *testing.T) map[string][]string {
	k := func(n string, kt types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: kt}
	}
	def := &dynamodb.CreateTableInput{TableName: aws.String("Spaced"), BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{k("g s", types.KeyTypeHash), k("s k", types.KeyTypeRange)},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("g s"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("s k"), AttributeType: types.ScalarAttributeTypeS}}}
	item := func(pk, sk string) map[string]zooAV {
		return map[string]zooAV{"g s": zs(pk), "s k": zs(sk), "n": zn("1")}
	}
	return batteryBackends(t, def, []map[string]zooAV{item("a", "x#1"), item("a", "x#2"), item("b", "y")})
}

// TestKeyNamesQuotedInWhatIsSaid: a key name that is no plain word (a
// space in it) is written in backticks wherever a command's words or
// its JSON name it, as partiql --explain's keyCondition always did:
// scan's line said "pins the partition key g s", children's and
// versions' keyCondition "g s = :pk AND begins_with(s k, :prefix)".
func TestKeyNamesQuotedInWhatIsSaid(t *testing.T) {
	for name, conn := range spacedBackends(t) {
		_, stderr := mustRun(t, append([]string{"scan", "--table", "Spaced", "--filter", "`g s` = \"a\""}, conn...)...)
		if !strings.Contains(stderr, "the filter pins the partition key `g s`, so only 1 partition is read") {
			t.Errorf("%s: scan says:\n%s", name, stderr)
		}
		out, _ := mustRun(t, append([]string{"partiql", "--explain", `SELECT * FROM Spaced WHERE "g s" = 'a' AND begins_with("s k", 'x#')`}, conn...)...)
		var plan, children, versions struct {
			KeyCondition string `json:"keyCondition"`
		}
		decode := func(what, out string, into any) {
			if err := json.Unmarshal([]byte(out), into); err != nil {
				t.Fatalf("%s: %s: %v\n%s", name, what, err, out)
			}
		}
		decode("partiql", out, &plan)
		out, _ = mustRun(t, append([]string{"children", "--table", "Spaced", "--pk", "a", "--prefix", "x#", "--output", "json"}, conn...)...)
		decode("children", out, &children)
		out, _ = mustRun(t, append([]string{"versions", "--table", "Spaced", "--pk", "a", "--output", "json"}, conn...)...)
		decode("versions", out, &versions)
		for what, got := range map[string][2]string{
			"partiql --explain": {plan.KeyCondition, "`g s` = \"a\" AND begins_with(`s k`, \"x#\")"},
			"children":          {children.KeyCondition, "`g s` = :pk AND begins_with(`s k`, :prefix)"},
			"versions":          {versions.KeyCondition, "`g s` = :pk AND begins_with(`s k`, :prefix)"},
		} {
			if got[0] != got[1] {
				t.Errorf("%s: %s --output json's keyCondition is %q, want %q", name, what, got[0], got[1])
			}
		}
	}
}

// zooBackends writes the battery table on a dynalite of its own and as
// --data for the embedded backend: the connection arguments of each.
func zooBackends(t *testing.T) map[string][]string {
	return batteryBackends(t, zooTable("Zoo"), zooItems())
}

// batteryBackends writes a table of def's design, holding items, on a
// dynalite of its own and as --data (its description as --schema) for
// the embedded backend: the connection arguments of each.
func batteryBackends(t *testing.T, def *dynamodb.CreateTableInput, items []map[string]zooAV) map[string][]string {
	t.Helper()
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	srv := dynalitetest.Start(t)
	c, ctx := srv.Client(), context.Background()
	if _, err := c.CreateTable(ctx, def); err != nil {
		t.Fatal(err)
	}
	w := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) { o.MinDelay = 10 * time.Millisecond })
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: def.TableName}, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	for _, it := range items {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: def.TableName, Item: it}); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(map[string]any{"Item": dynamo.WireItem(it)})
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(append(b, '\n'))
	}
	dir := t.TempDir()
	schema, err := dataloadtest.SchemaJSON(def)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "table.describe.json"), schema, 0o600)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "table.json"), []byte(lines.String()), 0o600)
	}
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]string{
		"dynalite": {"--endpoint-url", srv.Endpoint, "--region", "us-east-1"},
		"embedded": {"--data", filepath.Join(dir, "table.json"), "--schema", filepath.Join(dir, "table.describe.json")},
	}
}

// zooGet is the value at a path of names and list indexes, nil when absent.
func zooGet(it map[string]zooAV, path ...any) zooAV {
	var cur zooAV = &types.AttributeValueMemberM{Value: it}
	for _, step := range path {
		switch s := step.(type) {
		case string:
			m, ok := cur.(*types.AttributeValueMemberM)
			if !ok {
				return nil
			}
			cur = m.Value[s]
		case int:
			l, ok := cur.(*types.AttributeValueMemberL)
			if !ok || s >= len(l.Value) {
				return nil
			}
			cur = l.Value[s]
		}
		if cur == nil {
			return nil
		}
	}
	return cur
}

// zooStr is the string at path (ok false when absent or of another type).
func zooStr(it map[string]zooAV, path ...any) (string, bool) {
	s, ok := zooGet(it, path...).(*types.AttributeValueMemberS)
	if !ok {
		return "", false
	}
	return s.Value, true
}

// zooCmpN compares the number at path with v (ok false when not a number).
func zooCmpN(it map[string]zooAV, v string, path ...any) (int, bool) {
	n, ok := zooGet(it, path...).(*types.AttributeValueMemberN)
	if !ok {
		return 0, false
	}
	a, _ := new(big.Rat).SetString(n.Value)
	b, _ := new(big.Rat).SetString(v)
	return a.Cmp(b), true
}

// zooProject is the item as a projection of paths returns it.
func zooProject(it map[string]zooAV, paths ...[]any) map[string]zooAV {
	out := map[string]zooAV{}
	for _, p := range paths {
		if v := zooGet(it, p...); v != nil {
			zooPut(out, p, v)
		}
	}
	return out
}

func zooPut(dst map[string]zooAV, path []any, v zooAV) {
	name := path[0].(string)
	if len(path) == 1 {
		dst[name] = v
		return
	}
	// Lists projected by index keep only the elements named, in order;
	// the battery names at most one index per list.
	switch path[1].(type) {
	case string:
		m, ok := dst[name].(*types.AttributeValueMemberM)
		if !ok {
			m = &types.AttributeValueMemberM{Value: map[string]zooAV{}}
			dst[name] = m
		}
		zooPut(m.Value, path[1:], v)
	case int:
		inner := map[string]zooAV{}
		if len(path) == 2 {
			dst[name] = zl(v)
			return
		}
		zooPut(inner, append([]any{"_"}, path[2:]...), v)
		dst[name] = zl(inner["_"])
	}
}

// zooCanon is an output line or an item in one comparable form: plain
// JSON, numbers as floats, sets and lists sorted (their order is the
// backend's).
func zooCanon(v any) string {
	b, _ := json.Marshal(v)
	var x any
	_ = json.Unmarshal(b, &x)
	var norm func(any) any
	norm = func(v any) any {
		switch y := v.(type) {
		case map[string]any:
			for k, e := range y {
				y[k] = norm(e)
			}
		case float64:
			if y == 0 {
				return 0.0 // DynamoDB keeps no -0
			}
		case string:
			if len(y) > 64 {
				return fmt.Sprintf("(%d bytes)", len(y))
			}
		case []any:
			for i, e := range y {
				y[i] = norm(e)
			}
			sort.Slice(y, func(i, j int) bool { return string(must(json.Marshal(y[i]))) < string(must(json.Marshal(y[j]))) })
		}
		return v
	}
	return string(must(json.Marshal(norm(x))))
}

// zooCase is one statement of the battery, the plan it must make and the
// items it must return, decided here by the test's own reading of each
// item (never by the product's evaluator).
type zooCase struct {
	stmt    string
	op      string // Query or Scan
	index   string
	key     string // the plan's keyCondition, "" for a Scan
	match   func(map[string]zooAV) bool
	project [][]any // nil: whole items
	order   string  // "asc", "desc": the output's order by the sort key of the read
	// byPK, with order, orders by the partition key first (DESC with
	// byPK "desc"): ORDER BY pk, sk.
	byPK string
	// dynaliteDiffers: dynalite answers otherwise than DynamoDB (two
	// missing attributes are equal to it: = true, <> false), so only
	// the embedded backend is held to the answer.
	dynaliteDiffers bool
}

func zooCases() []zooCase {
	str := func(name, want string) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool { v, ok := zooStr(it, name); return ok && v == want }
	}
	numIs := func(name string, ok func(int) bool, v string) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool { c, is := zooCmpN(it, v, name); return is && ok(c) }
	}
	has := func(path ...any) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool { return zooGet(it, path...) != nil }
	}
	and := func(fs ...func(map[string]zooAV) bool) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool {
			for _, f := range fs {
				if !f(it) {
					return false
				}
			}
			return true
		}
	}
	or := func(a, b func(map[string]zooAV) bool) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool { return a(it) || b(it) }
	}
	not := func(f func(map[string]zooAV) bool) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool { return !f(it) }
	}
	prefix := func(name, p string) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool { v, ok := zooStr(it, name); return ok && strings.HasPrefix(v, p) }
	}
	strCmp := func(name string, ok func(int) bool, v string) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool { s, is := zooStr(it, name); return is && ok(strings.Compare(s, v)) }
	}
	lt := func(c int) bool { return c < 0 }
	le := func(c int) bool { return c <= 0 }
	gt := func(c int) bool { return c > 0 }
	ge := func(c int) bool { return c >= 0 }
	eq := func(c int) bool { return c == 0 }
	all := func(map[string]zooAV) bool { return true }
	boolIs := func(name string, want bool) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool {
			b, ok := it[name].(*types.AttributeValueMemberBOOL)
			return ok && b.Value == want
		}
	}
	typeIs := func(name, want string) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool { return it[name] != nil && dynamo.TypeOf(it[name]) == want }
	}
	setHas := func(name, v string) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool {
			ss, ok := it[name].(*types.AttributeValueMemberSS)
			return ok && slices.Contains(ss.Value, v)
		}
	}
	// neq is a FilterExpression's <>: true where the attribute is
	// missing or of another type.
	neq := func(name, v string) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool { s, ok := zooStr(it, name); return !ok || s != v }
	}
	binPrefix := func(name string, p ...byte) func(map[string]zooAV) bool {
		return func(it map[string]zooAV) bool {
			b, ok := it[name].(*types.AttributeValueMemberB)
			return ok && bytes.HasPrefix(b.Value, p)
		}
	}
	return []zooCase{
		// Scans: every operator, on strings and numbers.
		{stmt: `SELECT * FROM "Zoo"`, op: "Scan", match: all},
		{stmt: `SELECT * FROM Zoo WHERE "status" = 'ACTIVE'`, op: "Scan", match: str("status", "ACTIVE")},
		{stmt: `SELECT * FROM "Zoo" WHERE "status" <> 'ACTIVE'`, op: "Scan", match: neq("status", "ACTIVE")},
		{stmt: `SELECT * FROM "Zoo" WHERE "status" != 'ACTIVE'`, op: "Scan", match: neq("status", "ACTIVE")},
		{stmt: `SELECT * FROM "Zoo" WHERE note <> 'it''s'`, op: "Scan", match: neq("note", "it's")},
		{stmt: `SELECT * FROM "Zoo" WHERE "count" > 5`, op: "Scan", match: numIs("count", gt, "5")},
		{stmt: `SELECT * FROM "Zoo" WHERE "count" >= 5`, op: "Scan", match: numIs("count", ge, "5")},
		{stmt: `SELECT * FROM "Zoo" WHERE "count" < 7`, op: "Scan", match: numIs("count", lt, "7")},
		{stmt: `SELECT * FROM "Zoo" WHERE "count" <= 7`, op: "Scan", match: numIs("count", le, "7")},
		{stmt: `SELECT * FROM "Zoo" WHERE "count" = '10'`, op: "Scan", match: str("count", "10")},
		{stmt: `SELECT * FROM "Zoo" WHERE "count" > '1'`, op: "Scan", match: strCmp("count", gt, "1")},
		{stmt: `SELECT * FROM "Zoo" WHERE num = 1000`, op: "Scan", match: numIs("num", eq, "1000")},
		{stmt: `SELECT * FROM "Zoo" WHERE num = 1e3`, op: "Scan", match: numIs("num", eq, "1000")},
		{stmt: `SELECT * FROM "Zoo" WHERE num = 0`, op: "Scan", match: numIs("num", eq, "0")},
		{stmt: `SELECT * FROM "Zoo" WHERE num = 10.5`, op: "Scan", match: numIs("num", eq, "10.5")},
		{stmt: `SELECT * FROM "Zoo" WHERE num = '10.50'`, op: "Scan", match: str("num", "10.50")},
		{stmt: `SELECT * FROM "Zoo" WHERE num < 0`, op: "Scan", match: numIs("num", lt, "0")},
		{stmt: `SELECT * FROM "Zoo" WHERE num BETWEEN -5 AND 10.5`, op: "Scan", match: and(numIs("num", ge, "-5"), numIs("num", le, "10.5"))},
		{stmt: `SELECT * FROM "Zoo" WHERE "name" BETWEEN 'J' AND 'T'`, op: "Scan", match: and(strCmp("name", ge, "J"), strCmp("name", le, "T"))},
		{stmt: `SELECT * FROM "Zoo" WHERE "name" > 'Tom'`, op: "Scan", match: strCmp("name", gt, "Tom")},
		{stmt: `SELECT * FROM "Zoo" WHERE "status" IN ['DONE', 'PENDING']`, op: "Scan", match: or(str("status", "DONE"), str("status", "PENDING"))},
		{stmt: `SELECT * FROM "Zoo" WHERE "count" IN (5, 7, '10')`, op: "Scan", match: or(or(numIs("count", eq, "5"), numIs("count", eq, "7")), str("count", "10"))},
		{stmt: `SELECT * FROM "Zoo" WHERE begins_with("name", 'O''B')`, op: "Scan", match: prefix("name", "O'B")},
		{stmt: `SELECT * FROM "Zoo" WHERE contains("name", 'hi')`, op: "Scan", match: func(it map[string]zooAV) bool { s, _ := zooStr(it, "name"); return strings.Contains(s, "hi") }},
		{stmt: `SELECT * FROM "Zoo" WHERE contains(tags, 'red')`, op: "Scan", match: setHas("tags", "red")},
		{stmt: `SELECT * FROM "Zoo" WHERE contains(nums, 2)`, op: "Scan", match: func(it map[string]zooAV) bool {
			ns, ok := it["nums"].(*types.AttributeValueMemberNS)
			return ok && slices.Contains(ns.Value, "2")
		}},
		{stmt: `SELECT * FROM "Zoo" WHERE attribute_exists(species)`, op: "Scan", match: has("species")},
		{stmt: `SELECT * FROM "Zoo" WHERE attribute_not_exists("date")`, op: "Scan", match: not(has("date"))},
		{stmt: `SELECT * FROM "Zoo" WHERE note IS MISSING`, op: "Scan", match: not(has("note"))},
		{stmt: `SELECT * FROM "Zoo" WHERE note IS NOT MISSING`, op: "Scan", match: has("note")},
		// IS NULL is the NULL type; an absent attribute is MISSING, not
		// NULL, so IS NOT NULL holds where it is absent.
		{stmt: `SELECT * FROM "Zoo" WHERE nul IS NULL`, op: "Scan", match: typeIs("nul", "NULL")},
		{stmt: `SELECT * FROM "Zoo" WHERE nul IS NOT NULL`, op: "Scan", match: not(typeIs("nul", "NULL"))},
		{stmt: `SELECT * FROM "Zoo" WHERE note IS NULL`, op: "Scan", match: typeIs("note", "NULL")},
		{stmt: `SELECT * FROM "Zoo" WHERE nul IS NOT NULL AND nul IS NOT MISSING`, op: "Scan", match: and(has("nul"), not(typeIs("nul", "NULL")))},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'ünï©ødé' AND (nul IS NULL OR note IS NOT NULL)`, op: "Query", key: `pk = "ünï©ødé"`,
			match: and(str("pk", "ünï©ødé"), or(typeIs("nul", "NULL"), not(typeIs("note", "NULL"))))},
		{stmt: `SELECT * FROM "Zoo"."BySpecies" WHERE nested.m.x IS NOT NULL`, op: "Scan", index: "BySpecies", match: has("species")},
		{stmt: `SELECT * FROM "Zoo" WHERE attribute_type(nul, 'NULL')`, op: "Scan", match: typeIs("nul", "NULL")},
		{stmt: `SELECT * FROM "Zoo" WHERE attribute_type("count", 'S')`, op: "Scan", match: typeIs("count", "S")},
		{stmt: `SELECT * FROM "Zoo" WHERE attribute_type(bin, 'B')`, op: "Scan", match: typeIs("bin", "B")},
		{stmt: `SELECT * FROM "Zoo" WHERE attribute_type(tags, 'SS') AND attribute_type(nums, 'NS')`, op: "Scan", match: and(typeIs("tags", "SS"), typeIs("nums", "NS"))},
		{stmt: `SELECT * FROM "Zoo" WHERE size(bin) = 2`, op: "Scan", match: func(it map[string]zooAV) bool {
			b, ok := it["bin"].(*types.AttributeValueMemberB)
			return ok && len(b.Value) == 2
		}},
		{stmt: `SELECT * FROM "Zoo" WHERE size(bin) > 1 AND NOT size(bin) = 2`, op: "Scan", match: binPrefix("bin", 1, 2, 3)},
		{stmt: `SELECT * FROM "Zoo" WHERE size(tags) = 1`, op: "Scan", match: func(it map[string]zooAV) bool {
			s, ok := it["tags"].(*types.AttributeValueMemberSS)
			return ok && len(s.Value) == 1
		}},
		{stmt: `SELECT * FROM "Zoo" WHERE flag = true`, op: "Scan", match: boolIs("flag", true)},
		{stmt: `SELECT * FROM "Zoo" WHERE flag <> true`, op: "Scan", match: not(boolIs("flag", true))},
		{stmt: `SELECT * FROM "Zoo" WHERE "size" = 10`, op: "Scan", match: numIs("size", eq, "10")},
		{stmt: `SELECT * FROM "Zoo" WHERE size("size") = 3`, op: "Scan", match: str("size", "big")},
		{stmt: `SELECT * FROM "Zoo" WHERE "a-b" = 'dash' OR "a.b" = 'dot2'`, op: "Scan", match: or(str("a-b", "dash"), str("a.b", "dot2"))},
		{stmt: `SELECT * FROM "Zoo" WHERE "with space" = 'x y'`, op: "Scan", match: str("with space", "x y")},
		{stmt: `SELECT * FROM "Zoo" WHERE nested.list[0].c = 'deep'`, op: "Scan", match: func(it map[string]zooAV) bool {
			s, ok := zooStr(it, "nested", "list", 0, "c")
			return ok && s == "deep"
		}},
		{stmt: `SELECT * FROM "Zoo" WHERE nested."m".x >= 2`, op: "Scan", match: func(it map[string]zooAV) bool { c, ok := zooCmpN(it, "2", "nested", "m", "x"); return ok && c >= 0 }},
		{stmt: `SELECT * FROM "Zoo" WHERE nested.list[1] IS NOT MISSING`, op: "Scan", match: has("nested", "list", 1)},
		{stmt: `SELECT * FROM "Zoo" WHERE NOT ("status" = 'ACTIVE' OR "status" = 'DONE')`, op: "Scan", match: not(or(str("status", "ACTIVE"), str("status", "DONE")))},
		{stmt: `SELECT * FROM "Zoo" WHERE "status" = 'ACTIVE' AND (num > 0 OR species = 'bird')`, op: "Scan", match: and(str("status", "ACTIVE"), or(numIs("num", gt, "0"), str("species", "bird")))},
		{stmt: `sElEcT * FrOm "Zoo" wHeRe NoT "name" iS nOt MiSsInG AnD BEGINS_WITH(sk, 'a')`, op: "Scan", match: and(not(has("name")), prefix("sk", "a"))},
		{stmt: `SELECT * FROM "Zoo" WHERE sk > 'a#001'`, op: "Scan", match: strCmp("sk", gt, "a#001")},
		// Quotes: 'x' is a string, "x" a name, whichever side it is on.
		{stmt: `SELECT * FROM "Zoo" WHERE 'ACTIVE' = "status"`, op: "Scan", match: str("status", "ACTIVE")},
		{stmt: `SELECT * FROM "Zoo" WHERE 'status' = "ACTIVE"`, op: "Scan", match: func(map[string]zooAV) bool { return false }},
		{stmt: `SELECT * FROM "Zoo" WHERE "pk" = "user#1"`, op: "Scan", match: func(map[string]zooAV) bool { return false }},
		// Two attributes compared: DynamoDB's = is false where either is
		// missing, its <> true.
		{stmt: `SELECT * FROM "Zoo" WHERE "name" = "note"`, op: "Scan", dynaliteDiffers: true, match: func(it map[string]zooAV) bool {
			a, ok1 := zooStr(it, "name")
			b, ok2 := zooStr(it, "note")
			return ok1 && ok2 && a == b
		}},
		{stmt: `SELECT * FROM "Zoo" WHERE "status" = note`, op: "Scan", dynaliteDiffers: true, match: func(it map[string]zooAV) bool {
			a, ok1 := zooStr(it, "status")
			b, ok2 := zooStr(it, "note")
			return ok1 && ok2 && a == b
		}},
		{stmt: `SELECT * FROM "Zoo" WHERE "status" <> note`, op: "Scan", dynaliteDiffers: true, match: func(it map[string]zooAV) bool {
			a, ok1 := zooStr(it, "status")
			b, ok2 := zooStr(it, "note")
			return !ok1 || !ok2 || a != b
		}},
		{stmt: `SELECT * FROM "Zoo" WHERE "rank" BETWEEN 2 AND 10.5`, op: "Scan", match: and(numIs("rank", ge, "2"), numIs("rank", le, "10.5"))},

		// Queries on the table: the key pinned, the sort key's condition the key condition.
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'user#1'`, op: "Query", key: `pk = "user#1"`, match: str("pk", "user#1"), order: "asc"},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'ünï©ødé'`, op: "Query", key: `pk = "ünï©ødé"`, match: str("pk", "ünï©ødé"), order: "asc"},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'it''s'`, op: "Query", key: `pk = "it's"`, match: str("pk", "it's")},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'say "hi"'`, op: "Query", key: `pk = "say \"hi\""`, match: str("pk", `say "hi"`)},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'a b' AND "a.b" = 'dot2'`, op: "Query", key: `pk = "a b"`, match: and(str("pk", "a b"), str("a.b", "dot2"))},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'user#1' AND begins_with(sk, 'a#')`, op: "Query", key: `pk = "user#1" AND begins_with(sk, "a#")`, match: and(str("pk", "user#1"), prefix("sk", "a#"))},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'user#1' AND sk BETWEEN 'a#002' AND 'b#999' ORDER BY sk DESC`, op: "Query", key: `pk = "user#1" AND sk BETWEEN "a#002" AND "b#999"`,
			match: and(str("pk", "user#1"), strCmp("sk", ge, "a#002"), strCmp("sk", le, "b#999")), order: "desc"},
		{stmt: `SELECT * FROM "Zoo" WHERE sk < 'b' AND pk = 'user#2' AND "status" <> 'DONE' ORDER BY sk ASC`, op: "Query", key: `pk = "user#2" AND sk < "b"`,
			match: and(str("pk", "user#2"), strCmp("sk", lt, "b"), neq("status", "DONE")), order: "asc"},
		{stmt: `SELECT * FROM "Zoo" WHERE pk IN ['user#2', 'it''s', 'nobody'] AND sk >= 'a#001'`, op: "Query", key: `pk IN ("user#2", "it's", "nobody") AND sk >= "a#001"`,
			match: and(or(str("pk", "user#2"), str("pk", "it's")), strCmp("sk", ge, "a#001"))},
		// Twenty Queries, most of them empty, cost more than the table's
		// bytes: each at least half a unit, which the worst case counts.
		{stmt: `SELECT * FROM "Zoo" WHERE pk IN ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9', 'n10', 'n11', 'n12', 'n13', 'n14', 'n15', 'n16', 'n17', 'n18', 'user#1', 'a b']`, op: "Query",
			key: `pk IN ("n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10", "n11", "n12", "n13", "n14", "n15", "n16", "n17", "n18", "user#1", "a b")`, match: or(str("pk", "user#1"), str("pk", "a b"))},
		{stmt: `SELECT * FROM "Zoo" WHERE pk IN ['user#2', 'user#1', 'a b'] ORDER BY pk, sk DESC`, op: "Query", key: `pk IN ("a b", "user#1", "user#2")`,
			match: or(or(str("pk", "user#1"), str("pk", "user#2")), str("pk", "a b")), order: "desc", byPK: "asc"},
		{stmt: `SELECT * FROM "Zoo"."ByRank" WHERE pk IN ['ünï©ødé', 'user#1', 'it''s'] AND "rank" >= 2 ORDER BY pk DESC, "rank"`, op: "Query", index: "ByRank",
			key: `pk IN ("ünï©ødé", "user#1", "it's") AND rank >= 2`, match: and(or(or(str("pk", "ünï©ødé"), str("pk", "user#1")), str("pk", "it's")), numIs("rank", ge, "2")), order: "asc", byPK: "desc"},
		{stmt: `SELECT * FROM "Zoo"."BySpecies" WHERE species = 'cat' OR species = 'dog' ORDER BY species DESC, born DESC`, op: "Query", index: "BySpecies",
			key: `species IN ("dog", "cat")`, match: or(str("species", "cat"), str("species", "dog")), order: "desc", byPK: "desc"},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'user#1' OR pk = 'a b'`, op: "Query", key: `pk IN ("user#1", "a b")`, match: or(str("pk", "user#1"), str("pk", "a b"))},
		// Both keys pinned, the sort key by IN: one Query a key, each
		// reading its item (the partition read whole before, the IN
		// applied to all of it), in the order ORDER BY asks.
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'user#1' AND sk IN ['b#001', 'a#001', 'nothing', 'a#001'] AND "status" = 'ACTIVE'`, op: "Query",
			key:   `(pk = "user#1" AND sk = "a#001") OR (pk = "user#1" AND sk = "b#001") OR (pk = "user#1" AND sk = "nothing")`,
			match: and(str("pk", "user#1"), or(str("sk", "a#001"), str("sk", "b#001")), str("status", "ACTIVE"))},
		{stmt: `SELECT * FROM "Zoo" WHERE pk IN ['user#2', 'user#1'] AND sk IN ['a#001', 'a#002'] ORDER BY pk, sk DESC`, op: "Query",
			key:   `(pk = "user#1" AND sk = "a#002") OR (pk = "user#1" AND sk = "a#001") OR (pk = "user#2" AND sk = "a#002") OR (pk = "user#2" AND sk = "a#001")`,
			match: and(or(str("pk", "user#1"), str("pk", "user#2")), or(str("sk", "a#001"), str("sk", "a#002"))), order: "desc", byPK: "asc"},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'user#1' OR "status" = 'DONE'`, op: "Scan", match: or(str("pk", "user#1"), str("status", "DONE"))},
		{stmt: `SELECT * FROM "Zoo" WHERE NOT pk = 'user#1'`, op: "Scan", match: not(str("pk", "user#1"))},
		// A condition on the sort key no key condition can say: the
		// pinned partition read by Query, all of WHERE applied here (a
		// Query's filter may not name its keys), ORDER BY as asked.
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'user#1' AND (sk = 'a#001' OR sk = 'b#001')`, op: "Query", key: `pk = "user#1"`, match: and(str("pk", "user#1"), or(str("sk", "a#001"), str("sk", "b#001")))},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'user#1' AND sk <> 'a#001'`, op: "Query", key: `pk = "user#1"`, match: and(str("pk", "user#1"), neq("sk", "a#001"))},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'user#1' AND sk <> 'a#001' ORDER BY sk`, op: "Query", key: `pk = "user#1"`, match: and(str("pk", "user#1"), neq("sk", "a#001")), order: "asc"},
		// begins_with on a number is no key condition, and matches no
		// number (DynamoDB: no match, not an error).
		{stmt: `SELECT * FROM "Zoo"."ByRank" WHERE pk = 'user#1' AND begins_with("rank", '1')`, op: "Query", index: "ByRank", key: `pk = "user#1"`, match: func(map[string]zooAV) bool { return false }},

		// Queries on the LSI's number sort key and the GSIs.
		{stmt: `SELECT * FROM "Zoo"."ByRank" WHERE pk = 'user#1' AND "rank" > 0 ORDER BY "rank" DESC`, op: "Query", index: "ByRank", key: `pk = "user#1" AND rank > 0`,
			match: and(str("pk", "user#1"), numIs("rank", gt, "0")), order: "desc"},
		{stmt: `SELECT * FROM "Zoo"."ByRank" WHERE pk = 'ünï©ødé' AND "rank" = 1000`, op: "Query", index: "ByRank", key: `pk = "ünï©ødé" AND rank = 1000`,
			match: and(str("pk", "ünï©ødé"), numIs("rank", eq, "1000"))},
		{stmt: `SELECT * FROM "Zoo"."ByRank" WHERE pk = 'user#1' AND "rank" BETWEEN -1 AND 10.5`, op: "Query", index: "ByRank", key: `pk = "user#1" AND rank BETWEEN -1 AND 10.5`,
			match: and(str("pk", "user#1"), numIs("rank", ge, "-1"), numIs("rank", le, "10.5")), order: "asc"},
		{stmt: `SELECT * FROM "Zoo"."ByRank" WHERE "rank" < 3`, op: "Scan", index: "ByRank", match: numIs("rank", lt, "3")},
		{stmt: `SELECT * FROM "Zoo"."ByRank" WHERE pk = 'user#2' AND "rank" = -0`, op: "Query", index: "ByRank", key: `pk = "user#2" AND rank = -0`,
			match: and(str("pk", "user#2"), numIs("rank", eq, "0"))},
		{stmt: `SELECT * FROM "Zoo"."ByRank" WHERE pk = 'ünï©ødé' AND "rank" BETWEEN 1E3 AND 1000.0`, op: "Query", index: "ByRank", key: `pk = "ünï©ødé" AND rank BETWEEN 1E3 AND 1000.0`,
			match: and(str("pk", "ünï©ødé"), numIs("rank", eq, "1000"))},
		{stmt: `SELECT * FROM "Zoo"."ByStatus" WHERE "status" = 'ACTIVE' AND "rank" < 1e1 ORDER BY "rank" DESC`, op: "Query", index: "ByStatus", key: `status = "ACTIVE" AND rank < 1e1`,
			match: and(str("status", "ACTIVE"), numIs("rank", lt, "10")), order: "desc"},
		{stmt: `SELECT * FROM "Zoo"."BySpecies"`, op: "Scan", index: "BySpecies", match: has("species")},
		{stmt: `SELECT * FROM "Zoo"."BySpecies" WHERE species = 'cat'`, op: "Query", index: "BySpecies", key: `species = "cat"`, match: str("species", "cat"), order: "asc"},
		{stmt: `SELECT * FROM "Zoo"."BySpecies" WHERE species IN ['dog', 'bird'] AND begins_with(born, '20')`, op: "Query", index: "BySpecies", key: `species IN ("dog", "bird") AND begins_with(born, "20")`,
			match: and(or(str("species", "dog"), str("species", "bird")), prefix("born", "20"))},
		{stmt: `SELECT * FROM "Zoo"."BySpecies" WHERE species = 'dog' AND born > '2019-06' AND pk = 'user#2'`, op: "Query", index: "BySpecies", key: `species = "dog" AND born > "2019-06"`,
			match: and(str("species", "dog"), strCmp("born", gt, "2019-06"), str("pk", "user#2"))},
		{stmt: `SELECT * FROM "Zoo"."BySpecies" WHERE note IS MISSING`, op: "Scan", index: "BySpecies", match: and(has("species"), not(has("note")))},
		{stmt: `SELECT * FROM "Zoo"."ByStatus" WHERE "status" = 'ACTIVE' AND "rank" >= 3 ORDER BY "rank" DESC`, op: "Query", index: "ByStatus", key: `status = "ACTIVE" AND rank >= 3`,
			match: and(str("status", "ACTIVE"), numIs("rank", ge, "3")), order: "desc"},
		{stmt: `SELECT * FROM "Zoo"."ByStatus" WHERE "status" = 'it''s'`, op: "Query", index: "ByStatus", key: `status = "it's"`, match: str("status", "it's")},

		// A number partition key, one value however it is written: one
		// Query for 1000 and 1e3, each item once.
		{stmt: `SELECT * FROM "Zoo"."ByLevel" WHERE level IN [1000, 1e3, 7, 1000.00]`, op: "Query", index: "ByLevel", key: `level IN (1000, 7)`,
			match: func(it map[string]zooAV) bool {
				c, ok := zooCmpN(it, "1000", "level")
				d, _ := zooCmpN(it, "7", "level")
				return ok && (c == 0 || d == 0)
			}},
		{stmt: `SELECT * FROM "Zoo"."ByLevel" WHERE level = 1E3 OR level = 10`, op: "Query", index: "ByLevel", key: `level IN (1E3, 10)`, match: numIs("level", eq, "1000")},
		{stmt: `SELECT * FROM "Zoo"."ByLevel" WHERE level > 8`, op: "Scan", index: "ByLevel", match: numIs("level", gt, "8")},

		// Every OR branch pins the partition key, each with conditions
		// of its own, nested too: one Query a value, each filtered by
		// the whole WHERE (applied here: a Query's filter may not name
		// its keys), a value one branch alone pins read within that
		// branch's sort-key condition; a branch that pins nothing makes
		// it a Scan.
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'user#1' OR (pk = 'user#2' AND "count" = 7)`, op: "Query", key: `pk IN ("user#1", "user#2")`,
			match: or(str("pk", "user#1"), and(str("pk", "user#2"), numIs("count", eq, "7")))},
		{stmt: `SELECT * FROM "Zoo" WHERE (pk = 'user#1' AND sk > 'a#001') OR pk = 'it''s'`, op: "Query", key: `(pk = "user#1" AND sk > "a#001") OR pk = "it's"`,
			match: or(and(str("pk", "user#1"), strCmp("sk", gt, "a#001")), str("pk", "it's"))},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'a b' OR (pk IN ['user#2', 'ünï©ødé'] AND (sk = 'z' OR "status" = 'DONE')) ORDER BY pk DESC, sk DESC`, op: "Query",
			key: `pk IN ("ünï©ødé", "user#2", "a b")`, order: "desc", byPK: "desc",
			match: or(str("pk", "a b"), and(or(str("pk", "user#2"), str("pk", "ünï©ødé")), or(str("sk", "z"), str("status", "DONE"))))},
		{stmt: `SELECT pk, sk FROM "Zoo" WHERE ((pk = 'user#1' AND flag = true) OR (pk = 'user#2' AND NOT begins_with(sk, 'a#0'))) AND attribute_exists("status")`, op: "Query", key: `pk IN ("user#1", "user#2")`,
			match:   and(or(and(str("pk", "user#1"), boolIs("flag", true)), and(str("pk", "user#2"), not(prefix("sk", "a#0")))), has("status")),
			project: [][]any{{"pk"}, {"sk"}}},
		{stmt: `SELECT * FROM "Zoo"."BySpecies" WHERE species = 'cat' OR (species = 'dog' AND born > '2019-06')`, op: "Query", index: "BySpecies", key: `species = "cat" OR (species = "dog" AND born > "2019-06")`,
			match: or(str("species", "cat"), and(str("species", "dog"), strCmp("born", gt, "2019-06")))},
		{stmt: `SELECT * FROM "Zoo"."ByLevel" WHERE level = 1000 OR (level = 7 AND "count" = 12)`, op: "Query", index: "ByLevel", key: `level IN (1000, 7)`,
			match: or(numIs("level", eq, "1000"), and(numIs("level", eq, "7"), numIs("count", eq, "12")))},
		{stmt: `SELECT * FROM "Zoo" WHERE pk = 'user#1' OR "status" = 'DONE'`, op: "Scan", match: or(str("pk", "user#1"), str("status", "DONE"))},

		// Projections: nested paths, reserved words, odd names.
		{stmt: `SELECT pk, "name", "status", "date" FROM "Zoo" WHERE pk = 'user#1'`, op: "Query", key: `pk = "user#1"`, match: str("pk", "user#1"),
			project: [][]any{{"pk"}, {"name"}, {"status"}, {"date"}}},
		{stmt: `SELECT nested.list[0].c, "a.b", "with space", "count" FROM "Zoo" WHERE attribute_exists(nested)`, op: "Scan", match: has("nested"),
			project: [][]any{{"nested", "list", 0, "c"}, {"a.b"}, {"with space"}, {"count"}}},
		{stmt: `SELECT nested."m", tags, bin FROM "Zoo"."BySpecies" WHERE species = 'cat'`, op: "Query", index: "BySpecies", key: `species = "cat"`, match: str("species", "cat"),
			project: [][]any{{"nested", "m"}, {"tags"}, {"bin"}}},
		{stmt: `SELECT "size", "a-b" FROM "Zoo"`, op: "Scan", match: all, project: [][]any{{"size"}, {"a-b"}}},
	}
}

// zooDiff is what got lacks and holds beyond want, or both in full
// when only their order differs.
func zooDiff(got, want []string) string {
	var b strings.Builder
	for _, w := range want {
		if !slices.Contains(got, w) {
			b.WriteString("  missing " + w + "\n")
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			b.WriteString("  extra   " + g + "\n")
		}
	}
	if b.Len() == 0 {
		return "  got  " + strings.Join(got, "\n       ") + "\n  want " + strings.Join(want, "\n       ")
	}
	return b.String()
}

var zooStats = regexp.MustCompile(`consumedRCU=([0-9.]+)(?: billedRCU=([0-9.]+))?`)

// TestPartiQLOnAnUnseenTable: on a table of its own design (dynalite and
// the embedded backend), each statement plans the operation, index and
// key condition DynamoDB's PartiQL would, returns what the test's own
// reading of every item selects, in the order asked, and spends no more
// than its plan's worst case.
func TestPartiQLOnAnUnseenTable(t *testing.T) {
	items := zooItems()
	if n := len(zooCases()); n < 60 {
		t.Fatalf("%d statements: the battery wants 60 or more", n)
	}
	backends := zooBackends(t)
	// What no Query or Scan can answer is refused (exit 2, one line:
	// which part, what to write), with no item read.
	for _, tc := range []struct{ stmt, want string }{
		{`SELECT * FROM "Zoo" WHERE pk IN ['user#1', 'user#2'] ORDER BY sk DESC`, "with several partition keys the Queries are read one after another, so the sort key alone orders no more than each: write ORDER BY pk, sk DESC (or ASC)"},
		{`SELECT * FROM "Zoo" WHERE "status" = 'ACTIVE' ORDER BY sk`, "ORDER BY needs the partition key pk pinned in WHERE"},
		{`SELECT * FROM "Zoo"."ByRank" WHERE pk = 'user#1' ORDER BY sk`, "ORDER BY sk: only the keys of the read order it, the partition key first: write ORDER BY pk, rank DESC (or ASC)"},
		{`SELECT * FROM "Zoo"."ByRank" WHERE pk = 'user#1' AND "rank" = '3'`, "rank is a number key, so rank = '3' matches no item: write rank = 3"},
		{`SELECT * FROM "Zoo" WHERE pk = 3`, "pk is a string key, so pk = 3 matches no item: write pk = '3'"},
		{`SELECT * FROM "Zoo"."ByRank" WHERE pk = 'user#1' AND "rank" BETWEEN 10.5 AND -1`, "rank BETWEEN 10.5 AND -1: the lower bound comes first: write rank BETWEEN -1 AND 10.5"},
		{`SELECT * FROM "Zoo" WHERE "name" BETWEEN 'T' AND 'J'`, "name BETWEEN 'T' AND 'J': the lower bound comes first"},
		{`SELECT * FROM "Zoo"."BySpecies" WHERE species = ''`, "species = '' matches no item: a partition key is never empty"},
		{`SELECT * FROM "Zoo"."Nope"`, "table Zoo has no index \"Nope\" — name one of its indexes, FROM \"Zoo\".\"By"},
		{`SELECT * FROM "Zoo" WHERE "status" = 'ACTIVE'; SELECT * FROM "Zoo"`, "several statements"},
		{"SELECT * FROM \"Zoo\" -- note\n; DELETE FROM \"Zoo\" WHERE pk = 'x'", "comments (-- or /* */) are not supported"},
	} {
		checkBadInput(t, append([]string{"partiql", tc.stmt}, backends["dynalite"]...), exitUsage, tc.want)
	}
	// A table with no index says to read the table: it asked to "name one
	// of its indexes after FROM "DeviceLogs".: it has none".
	checkBadInput(t, []string{"partiql", "--demo", `SELECT * FROM "DeviceLogs"."Nope"`}, exitUsage,
		`table DeviceLogs has no index "Nope" — it has none: read the table, FROM "DeviceLogs"`)
	for name, conn := range backends {
		for _, tc := range zooCases() {
			out, stderr, code := cli(t, append([]string{"partiql", "--explain", tc.stmt}, conn...)...)
			if code != exitOK {
				t.Errorf("%s %s --explain: exit %d: %s", name, tc.stmt, code, stderr)
				continue
			}
			var plan struct {
				Operation    string   `json:"operation"`
				Index        *string  `json:"index"`
				KeyCondition *string  `json:"keyCondition"`
				WorstCaseRCU *float64 `json:"worstCaseRCU"`
			}
			if err := json.Unmarshal([]byte(out), &plan); err != nil {
				t.Fatalf("%s: %v\n%s", tc.stmt, err, out)
			}
			if plan.Operation != tc.op || aws.ToString(plan.Index) != tc.index || aws.ToString(plan.KeyCondition) != tc.key {
				t.Errorf("%s %s: plan %s on %q key %q, want %s on %q key %q", name, tc.stmt, plan.Operation, aws.ToString(plan.Index), aws.ToString(plan.KeyCondition), tc.op, tc.index, tc.key)
			}
			out, stderr, code = cli(t, append([]string{"partiql", "--max-rcu", "none", tc.stmt}, conn...)...)
			if code != exitOK {
				t.Errorf("%s %s: exit %d: %s", name, tc.stmt, code, stderr)
				continue
			}
			var got, want []string
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				if line != "" {
					var v any
					if err := json.Unmarshal([]byte(line), &v); err != nil {
						t.Fatalf("%s printed %q", tc.stmt, line)
					}
					got = append(got, zooCanon(v))
				}
			}
			var wantItems []map[string]zooAV
			for _, it := range items {
				if tc.index == "BySpecies" && it["species"] == nil || tc.index == "ByStatus" && it["status"] == nil || tc.index == "ByLevel" && it["level"] == nil || !tc.match(it) {
					continue
				}
				wantItems = append(wantItems, it)
			}
			if tc.order != "" {
				sortKey := map[string]string{"": "sk", "ByRank": "rank", "BySpecies": "born", "ByStatus": "rank"}[tc.index]
				slices.SortStableFunc(wantItems, func(a, b map[string]zooAV) int {
					var c int
					if s, ok := zooStr(a, sortKey); ok {
						t, _ := zooStr(b, sortKey)
						c = strings.Compare(s, t)
					} else {
						x, _ := new(big.Rat).SetString(a[sortKey].(*types.AttributeValueMemberN).Value)
						y, _ := new(big.Rat).SetString(b[sortKey].(*types.AttributeValueMemberN).Value)
						c = x.Cmp(y)
					}
					if tc.order == "desc" {
						c = -c
					}
					if tc.byPK != "" {
						pkName := map[string]string{"": "pk", "ByRank": "pk", "BySpecies": "species", "ByStatus": "status"}[tc.index]
						x, _ := zooStr(a, pkName)
						y, _ := zooStr(b, pkName)
						if p := strings.Compare(x, y); p != 0 && tc.byPK == "desc" {
							return -p
						} else if p != 0 {
							return p
						}
					}
					return c
				})
			}
			for _, it := range wantItems {
				if tc.project != nil {
					it = zooProject(it, tc.project...) // {} where it has none of them, as DynamoDB returns it
				}
				want = append(want, zooCanon(dynamo.PlainItem(it)))
			}
			if tc.order == "" {
				sort.Strings(got)
				sort.Strings(want)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				if name == "dynalite" && tc.dynaliteDiffers {
					t.Logf("dynalite %s: %d items where DynamoDB returns %d (a known difference)", tc.stmt, len(got), len(want))
				} else {
					t.Errorf("%s %s: %d items, want %d\n%s", name, tc.stmt, len(got), len(want), zooDiff(got, want))
				}
			}
			m := zooStats.FindStringSubmatch(stderr)
			if m == nil {
				t.Fatalf("%s: no stats: %s", tc.stmt, stderr)
			}
			spent, _ := strconv.ParseFloat(m[1], 64)
			if m[2] != "" {
				spent, _ = strconv.ParseFloat(m[2], 64)
			}
			if plan.WorstCaseRCU == nil && !strings.Contains(stderr, "the server reports no size to bound its cost") {
				t.Errorf("%s %s: no worst case, and the plan line does not say why: %s", name, tc.stmt, stderr)
			}
			if plan.WorstCaseRCU != nil && spent > *plan.WorstCaseRCU {
				t.Errorf("%s %s: spent %.1f RCU, above its plan's worst case %.1f", name, tc.stmt, spent, *plan.WorstCaseRCU)
			}
		}
	}
}

// TestPartiQLBudgetOnAnUnseenTable: on the battery's table, where items
// weigh from 100 bytes to 12 KB, each statement under a budget of 1 or
// 2.5 RCU, resumed after each stop (with the --max-rcu a stop says the
// next read needs), prints what it prints unbudgeted, each item once;
// no run spends more than its budget and half a read unit, but by the
// items it printed larger than any before (as the data layer's budget
// tests measure, by run here: items a filter drops are not counted, so
// a filtered read is held closer).
func TestPartiQLBudgetOnAnUnseenTable(t *testing.T) {
	key := func(it map[string]any) string { return fmt.Sprint(it["pk"], "/", it["sk"]) }
	bytesOf := map[string]int{}
	for _, it := range zooItems() {
		bytesOf[key(dynamo.PlainItem(it))] = dynamo.ItemBytes(it)
	}
	for name, conn := range zooBackends(t) {
		for _, stmt := range []string{
			`SELECT * FROM "Zoo" WHERE "status" <> 'DONE'`,
			`SELECT pk, sk, "count" FROM "Zoo" WHERE attribute_exists(pad) OR "count" > 1`,
			`SELECT * FROM "Zoo" WHERE pk = 'user#1' AND sk <> 'a#001'`,
			`SELECT * FROM "Zoo"."ByStatus" WHERE "status" = 'ACTIVE' AND pad IS NOT MISSING`,
			`SELECT * FROM "Zoo" WHERE pk IN ['user#1', 'a b', 'ünï©ødé', 'nobody'] AND sk > 'a'`,
			`SELECT * FROM "Zoo"."ByRank" WHERE pk = 'user#1' ORDER BY "rank" DESC`,
			`SELECT * FROM "Zoo"`,
		} {
			whole := runToEndBy(t, append([]string{"partiql", stmt, "--max-rcu", "none"}, conn...), 0, key, nil)
			if len(whole) == 0 {
				t.Fatalf("%s %s: nothing", name, stmt)
			}
			for _, budget := range []string{"1", "2.5"} {
				limit, _ := strconv.ParseFloat(budget, 64)
				fresh := heavierThanRead(bytesOf, key, 0)
				got := runToEndBy(t, append([]string{"partiql", stmt, "--max-rcu", budget}, conn...), limit, key, fresh)
				if strings.Join(got, " ") != strings.Join(whole, " ") {
					t.Errorf("%s %s at %s RCU: %v, unbudgeted %v", name, stmt, budget, got, whole)
				}
			}
		}
	}
}

// ledgerItems is a second table nobody wrote the product for, unlike
// the zoo: a number partition key and a binary sort key, a GSI of a
// string and a number key (ByStatus), a sparse hash-only GSI (ByDate),
// an LSI on a number (ByValue); reserved words and names with dots,
// dashes, spaces, # and : as attributes, numbers written 1e3, -0, 0.10
// and with 38 digits, and two heavy items (120 and 250 KB).
func ledgerItems() []map[string]zooAV {
	item := func(id string, bin []byte, kv ...any) map[string]zooAV {
		it := map[string]zooAV{"id": zn(id), "bin": zb(bin...)}
		for i := 0; i < len(kv); i += 2 {
			it[kv[i].(string)] = kv[i+1].(zooAV)
		}
		return it
	}
	null := &types.AttributeValueMemberNULL{Value: true}
	flag := func(b bool) zooAV { return &types.AttributeValueMemberBOOL{Value: b} }
	return []map[string]zooAV{
		item("1", []byte{0}, "status", zs("open"), "size", zn("7"), "count", zn("7"), "date", zs("2024-01"), "value", zn("1e3"), "name", zs("Tom"),
			"order", flag(true), "a.b", zs("dot"), "a", zm("b", zl(zn("0"), zs("one"), zm("c", zs("deep")))),
			"tags", &types.AttributeValueMemberSS{Value: []string{"red", "blue"}}, "nul", null),
		item("1", []byte{1, 2}, "status", zs("closed"), "size", zn("-0"), "value", zn("0.10"), "x-y", zs("dash"), "flag", flag(false),
			"a", zm("b", zl(zn("0"))), "nums", &types.AttributeValueMemberNS{Value: []string{"1", "3.5"}}),
		item("1", []byte{0xff}, "status", zs("open"), "count", zs("7"), "sp ace", zs("s p"), "list", zl(zs("red"), zn("1"))),
		item("-3", []byte("a"), "status", zs("OPEN"), "size", zn("12345678901234567890123456789012345678"), "value", zn("-12"),
			"h#sh", zs("#"), "c:olon", zs(":"), "ünï", zs("ü"), "date", zs("2024-02")),
		item("-3", []byte{0}, "name", zs(""), "order", zs("first"), "flag", flag(true), "a", zm("b", zl(zn("0"), zs("one"), zm("c", zn("3"))))),
		item("2", []byte{0}, "status", zs("it's"), "size", zn("1000"), "value", zn("7"), "tags", &types.AttributeValueMemberSS{Value: []string{"it's"}},
			"list", zl(zl(zs("red")))),
		item("2", []byte{0xfe, 0xff}, "size", zn("0.1"), "value", zn("1e3"), "nul", null, "date", zs("2024-01")),
		item("1e3", []byte{0}, "status", zs("open"), "size", zn("1e3"), "value", zn("0")),
		item("100", []byte{0}, "status", zs("open"), "size", zn("120"), "value", zn("1"), "pad", zs(strings.Repeat("p", 120<<10))),
		item("101", []byte{0}, "status", zs("closed"), "size", zn("250"), "value", zn("2"), "pad", zs(strings.Repeat("q", 250<<10))),
		item("0.5", []byte{1}, "status", zs("ünï"), "flag", flag(true), "text", zs("prod error")),
		item("7", []byte{2}, "size", zn("3.14"), "order", null, "text", zs("hello world")),
	}
}

// ledgerTable is the ledger's definition.
func ledgerTable(name string) *dynamodb.CreateTableInput {
	k := func(n string, t types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: t}
	}
	d := func(n string, t types.ScalarAttributeType) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: t}
	}
	all := &types.Projection{ProjectionType: types.ProjectionTypeAll}
	return &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		KeySchema:   []types.KeySchemaElement{k("id", types.KeyTypeHash), k("bin", types.KeyTypeRange)},
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			d("id", types.ScalarAttributeTypeN), d("bin", types.ScalarAttributeTypeB), d("status", types.ScalarAttributeTypeS),
			d("size", types.ScalarAttributeTypeN), d("date", types.ScalarAttributeTypeS), d("value", types.ScalarAttributeTypeN),
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("ByValue"),
			KeySchema: []types.KeySchemaElement{k("id", types.KeyTypeHash), k("value", types.KeyTypeRange)}, Projection: all}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("ByStatus"), KeySchema: []types.KeySchemaElement{k("status", types.KeyTypeHash), k("size", types.KeyTypeRange)}, Projection: all},
			{IndexName: aws.String("ByDate"), KeySchema: []types.KeySchemaElement{k("date", types.KeyTypeHash)}, Projection: all},
		},
	}
}

// ledgerKey is an output item's key as the ledger's cases name it: the
// id's number (1e3 is 1000), the bin's bytes in hex.
func ledgerKey(it map[string]any) string {
	r, _ := new(big.Rat).SetString(fmt.Sprint(it["id"]))
	id := r.FloatString(1)
	if r.IsInt() {
		id = r.Num().String()
	}
	b, _ := base64.StdEncoding.DecodeString(fmt.Sprint(it["bin"]))
	return fmt.Sprintf("%s/%x", id, b)
}

// TestPartiQLOnANumberAndBinaryKeyedTable: on the ledger (dynalite and
// the embedded backend), each statement plans the read DynamoDB's
// PartiQL stands for and prints the items named here, worked out from
// ledgerItems by hand, in the order asked where it asks one; spends no
// more than its plan's worst case; and, under budgets of 1 and 3 RCU,
// resumed after each stop, prints the same items once each, no run
// spending more than its budget and half a read unit but by the items it
// printed larger than any an earlier run printed (read in the same page
// as smaller ones, which sized it).
func TestPartiQLOnANumberAndBinaryKeyedTable(t *testing.T) {
	const T = `"Ledger-2.x"`
	every := []string{"1/00", "1/0102", "1/ff", "-3/61", "-3/00", "2/00", "2/feff", "1000/00", "100/00", "101/00", "0.5/01", "7/02"}
	but := func(out ...string) []string {
		return slices.DeleteFunc(slices.Clone(every), func(k string) bool { return slices.Contains(out, k) })
	}
	cases := []struct {
		stmt, op, index, key string
		want                 []string
		ordered              bool
	}{
		{stmt: `SELECT * FROM ` + T + ` WHERE id = 1`, op: "Query", key: "id = 1", want: []string{"1/00", "1/0102", "1/ff"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE id = 1 ORDER BY bin DESC`, op: "Query", key: "id = 1", want: []string{"1/ff", "1/0102", "1/00"}, ordered: true},
		{stmt: `SELECT * FROM ` + T + ` WHERE id IN [1e3, -3, 999] ORDER BY id, bin`, op: "Query", key: "id IN (-3, 999, 1e3)", want: []string{"-3/00", "-3/61", "1000/00"}, ordered: true},
		{stmt: `SELECT * FROM ` + T + ` WHERE id = 1000.0 OR id = 0.50`, op: "Query", key: "id IN (1000.0, 0.50)", want: []string{"1000/00", "0.5/01"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "status" = 'open'`, op: "Scan", want: []string{"1/00", "1/ff", "1000/00", "100/00"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "size" = 1000`, op: "Scan", want: []string{"2/00", "1000/00"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "size" > 100`, op: "Scan", want: []string{"-3/61", "2/00", "1000/00", "100/00", "101/00"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "size" = 12345678901234567890123456789012345678`, op: "Scan", want: []string{"-3/61"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "count" = '7'`, op: "Scan", want: []string{"1/ff"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "count" = 7`, op: "Scan", want: []string{"1/00"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "a.b" = 'dot' OR "x-y" = 'dash'`, op: "Scan", want: []string{"1/00", "1/0102"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE a.b[2].c = 'deep'`, op: "Scan", want: []string{"1/00"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "a"."b"[2]."c" = 3`, op: "Scan", want: []string{"-3/00"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "name" = ''`, op: "Scan", want: []string{"-3/00"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "order" IS NULL`, op: "Scan", want: []string{"7/02"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "order" = true`, op: "Scan", want: []string{"1/00"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "order" IS MISSING`, op: "Scan", want: but("1/00", "-3/00", "7/02")},
		{stmt: `SELECT * FROM ` + T + ` WHERE nul IS NOT NULL`, op: "Scan", want: but("1/00", "2/feff")},
		{stmt: `SELECT * FROM ` + T + ` WHERE contains(tags, 'it''s') OR contains(list, 1)`, op: "Scan", want: []string{"2/00", "1/ff"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE contains("text", 'o')`, op: "Scan", want: []string{"0.5/01", "7/02"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "size" BETWEEN -1 AND 7`, op: "Scan", want: []string{"1/00", "1/0102", "2/feff", "7/02"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE flag <> true`, op: "Scan", want: but("-3/00", "0.5/01")},
		{stmt: `SELECT * FROM ` + T + ` WHERE "ünï" = 'ü' OR "h#sh" = '#' OR "c:olon" = ':' OR "sp ace" = 's p'`, op: "Scan", want: []string{"-3/61", "1/ff"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "status" NOT IN ['open', 'closed']`, op: "Scan", want: []string{"-3/61", "-3/00", "2/00", "2/feff", "0.5/01", "7/02"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE "size" NOT BETWEEN .5 AND +1000`, op: "Scan", want: []string{"1/0102", "1/ff", "-3/61", "-3/00", "2/feff", "0.5/01"}},
		{stmt: `SELECT * FROM ` + T + ` WHERE id = 1 AND NOT "status" = 'open' OR id = 2 AND "value" > 10`, op: "Query", key: "id IN (1, 2)", want: []string{"1/0102", "2/feff"}},
		{stmt: `SELECT * FROM ` + T + `."ByStatus" WHERE "status" = 'open' ORDER BY "size" DESC`, op: "Query", index: "ByStatus", key: `status = "open"`, want: []string{"1000/00", "100/00", "1/00"}, ordered: true},
		{stmt: `SELECT * FROM ` + T + `."ByStatus" WHERE "status" IN ['closed', 'OPEN'] AND "size" >= -0 ORDER BY "status", "size"`, op: "Query", index: "ByStatus",
			key: `status IN ("OPEN", "closed") AND size >= -0`, want: []string{"-3/61", "1/0102", "101/00"}, ordered: true},
		{stmt: `SELECT * FROM ` + T + `."ByDate"`, op: "Scan", index: "ByDate", want: []string{"1/00", "-3/61", "2/feff"}},
		{stmt: `SELECT * FROM ` + T + `."ByDate" WHERE "date" = '2024-01'`, op: "Query", index: "ByDate", key: `date = "2024-01"`, want: []string{"1/00", "2/feff"}},
		{stmt: `SELECT * FROM ` + T + `."ByValue" WHERE id = 2 ORDER BY "value" DESC`, op: "Query", index: "ByValue", key: "id = 2", want: []string{"2/feff", "2/00"}, ordered: true},
		{stmt: `SELECT * FROM ` + T + `."ByValue" WHERE id = 1 AND "value" < 1`, op: "Query", index: "ByValue", key: "id = 1 AND value < 1", want: []string{"1/0102"}},
		// An IN on the sort key is one Query a key; its value of another
		// type matches no item, left out, not a read of the partition.
		{stmt: `SELECT * FROM ` + T + `."ByValue" WHERE id = 1 AND "value" IN [1e3, '7']`, op: "Query", index: "ByValue", key: "id = 1 AND value = 1e3", want: []string{"1/00"}},
	}
	bytesOf := map[string]int{}
	for _, it := range ledgerItems() {
		id := it["id"].(*types.AttributeValueMemberN).Value
		bin := base64.StdEncoding.EncodeToString(it["bin"].(*types.AttributeValueMemberB).Value)
		bytesOf[ledgerKey(map[string]any{"id": id, "bin": bin})] = dynamo.ItemBytes(it)
	}
	for name, conn := range batteryBackends(t, ledgerTable("Ledger-2.x"), ledgerItems()) {
		// A sort key's IN of what no key of it is, and a binary key's
		// literal, are refused as its = is, before any request: the
		// partition's read would find nothing (ledger id 1's three items
		// cost as much as a partition of 20,000).
		for stmt, want := range map[string]string{
			`SELECT * FROM ` + T + `."ByValue" WHERE id = 1 AND "value" IN ['7', '8']`: "value is a number key, so value = '7' matches no item: write value = 7",
			`SELECT * FROM ` + T + ` WHERE id = 1 AND bin IN ['AA==']`:                 "bin is a binary key, which a PartiQL literal here cannot name",
		} {
			out, stderr, code := cli(t, append([]string{"partiql", stmt}, conn...)...)
			last := stderr[strings.LastIndex(strings.TrimSuffix(stderr, "\n"), "\n")+1:]
			if code != exitUsage || out != "" || !strings.HasPrefix(last, "dynascope: ") || !strings.Contains(last, want) {
				t.Errorf("%s %s: exit %d, printed %q, said %q; want exit %d saying …%s…", name, stmt, code, out, stderr, exitUsage, want)
			}
		}
		for _, tc := range cases {
			out, stderr, code := cli(t, append([]string{"partiql", "--explain", tc.stmt}, conn...)...)
			var plan explainedPlan
			if code != exitOK || json.Unmarshal([]byte(out), &plan) != nil {
				t.Errorf("%s %s --explain: exit %d: %s%s", name, tc.stmt, code, out, stderr)
				continue
			}
			if plan.Operation != tc.op || aws.ToString(plan.Index) != tc.index || aws.ToString(plan.KeyCondition) != tc.key {
				t.Errorf("%s %s: plan %s on %q key %q, want %s on %q key %q", name, tc.stmt, plan.Operation, aws.ToString(plan.Index), aws.ToString(plan.KeyCondition), tc.op, tc.index, tc.key)
			}
			out, stderr, code = cli(t, append([]string{"partiql", "--max-rcu", "none", tc.stmt}, conn...)...)
			if code != exitOK {
				t.Errorf("%s %s: exit %d: %s", name, tc.stmt, code, stderr)
				continue
			}
			var got []string
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var it map[string]any
				if line != "" && json.Unmarshal([]byte(line), &it) == nil {
					got = append(got, ledgerKey(it))
				}
			}
			want := slices.Clone(tc.want)
			if !tc.ordered {
				sort.Strings(got)
				sort.Strings(want)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s %s:\n  got  %v\n  want %v", name, tc.stmt, got, want)
			}
			m := zooStats.FindStringSubmatch(stderr)
			if m == nil {
				t.Fatalf("%s: no stats: %s", tc.stmt, stderr)
			}
			spent, _ := strconv.ParseFloat(m[1], 64)
			if m[2] != "" {
				spent, _ = strconv.ParseFloat(m[2], 64)
			}
			if plan.WorstCaseRCU != nil && spent > *plan.WorstCaseRCU {
				t.Errorf("%s %s: spent %.1f RCU, above its plan's worst case %.1f", name, tc.stmt, spent, *plan.WorstCaseRCU)
			}
		}
		for _, args := range [][]string{
			{"partiql", `SELECT * FROM ` + T + ` WHERE "size" > 100`},
			{"partiql", `SELECT id, bin FROM ` + T, "--segments", "2"},
			{"partiql", `SELECT * FROM ` + T + ` WHERE id IN [101, 1, 100, 2] ORDER BY id DESC, bin`},
			{"scan", "--table", "Ledger-2.x", "--filter", "size > 100 or attribute_exists(`h#sh`)"},
		} {
			whole := runToEndBy(t, append(append([]string(nil), args...), append([]string{"--max-rcu", "none"}, conn...)...), 0, ledgerKey, nil)
			for _, budget := range []float64{1, 3} {
				// what a run's reads are sized by, at least: an item of a read unit
				fresh := heavierThanRead(bytesOf, ledgerKey, 4096)
				got := runToEndBy(t, append(append([]string(nil), args...), append([]string{"--max-rcu", fmt.Sprint(budget)}, conn...)...), budget, ledgerKey, fresh)
				if !slices.Equal(got, whole) {
					t.Errorf("%s %q at %g RCU: %v, unbudgeted %v", name, args, budget, got, whole)
				}
			}
		}
	}
}

// TestScanSmallTableWithinItsBudgetReadsItWhole: where the table's size
// says what is left of it costs no more than what is left of the budget,
// the scan reads it whole. A table of 6,892 bytes said "a whole scan
// reads about 1.0 RCU" beside --max-rcu 1, then read an item at a time
// and stopped after 2 of 109. The embedded backend knows the table's
// size; dynalite does not, and reads as before, within the budget.
func TestScanSmallTableWithinItsBudgetReadsItWhole(t *testing.T) {
	isolateAWS(t)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []map[string]types.AttributeValue
	for i := range 100 {
		items = append(items, map[string]types.AttributeValue{"PK": s(fmt.Sprintf("c#%03d", i%10)), "SK": s(fmt.Sprintf("o#%05d", i)), "Status": s([]string{"SHIPPED", "PLACED"}[i%2])})
	}
	table, backends := bothBackends(t, items)
	spentRE := regexp.MustCompile(`scanned=(\d+) matched=(\d+) requests=(\d+) consumedRCU=([0-9.]+)`)
	for name, conn := range backends {
		_, stderr, code := cli(t, append([]string{"scan", "--table", table, "--filter", `Status = "SHIPPED"`, "--max-rcu", "1"}, conn...)...)
		m := spentRE.FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("%s: no summary line (exit %d):\n%s", name, code, stderr)
		}
		if spent, _ := strconv.ParseFloat(m[4], 64); spent > 1.5 {
			t.Errorf("%s: spent %.1f RCU of 1", name, spent)
		}
		if name == "memory" && (code != 0 || m[1] != "100" || m[2] != "50") {
			t.Errorf("%s: exit %d, scanned %s, matched %s: the table costs less than the budget, read whole:\n%s", name, code, m[1], m[2], stderr)
		}
	}
}

// TestBinaryKeyPinnedToTextMatchesNoItem: neither a filter nor a
// statement has a binary value, so a binary partition key compared with
// one (pk = "AP8=", as every output writes the key) compares a string
// with binary and matches no item. It was read as a Scan of the whole
// table, printing nothing, exit 0 (a filter's line even spoke of
// "a PartiQL literal" and "WHERE"); it is refused as PK = 81 on a string
// key is, before any request, naming the items command that reads the
// partition; an OR branch of it is left out, and said.
func TestBinaryKeyPinnedToTextMatchesNoItem(t *testing.T) {
	k := func(n string, kt types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: kt}
	}
	def := &dynamodb.CreateTableInput{
		TableName:   aws.String("Blobs"),
		KeySchema:   []types.KeySchemaElement{k("pk", types.KeyTypeHash), k("sk", types.KeyTypeRange)},
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeB},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
		},
	}
	items := []map[string]zooAV{
		{"pk": zb(0, 0xff), "sk": zs("a"), "v": zn("1")},
		{"pk": zb(1), "sk": zs("b"), "v": zn("2")},
	}
	for name, conn := range batteryBackends(t, def, items) {
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"scan", "--table", "Blobs", "--filter", `pk = "AP8="`},
				`--filter: pk is a binary key, so pk = "AP8=" matches no item (DynamoDB compares types first, and a filter has no binary value): read that partition with dynascope items --pk b64:AP8= — nothing was read`},
			{[]string{"scan", "--table", "Blobs", "--filter", `v = 1 and pk in ("AP8=", "not base64!")`}, `pk = "not base64!" matches no item`},
			{[]string{"partiql", `SELECT * FROM "Blobs" WHERE pk = 'AP8=' AND v = 1`},
				`the statement: pk is a binary key, so pk = 'AP8=' matches no item (DynamoDB compares types first, and a statement has no binary value): read that partition with dynascope items --pk b64:AP8=`},
			// No base64 to hand on: what goes after b64: is said, not "b64:…"
			// (pql14: it could not be run as written).
			{[]string{"partiql", `SELECT * FROM "Blobs" WHERE pk = 0`},
				`read a partition with dynascope items --pk b64:<its key's bytes in base64> (dynascope partitions lists them so)`},
		} {
			out, stderr, code := cli(t, append(tc.args, conn...)...)
			last := stderr[strings.LastIndex(strings.TrimSuffix(stderr, "\n"), "\n")+1:]
			if code != exitUsage || out != "" || !strings.HasPrefix(last, "dynascope: ") || !strings.Contains(last, tc.want) {
				t.Errorf("%s %q: exit %d, printed %q, said %q; want exit %d saying …%s…", name, tc.args, code, out, stderr, exitUsage, tc.want)
			}
		}
		out, stderr := mustRun(t, append([]string{"scan", "--table", "Blobs", "--filter", `pk = "AP8=" or v = 2`}, conn...)...)
		if strings.Count(out, "\n") != 1 || !strings.Contains(out, `"sk":"b"`) ||
			!strings.Contains(stderr, `pk = "AP8=" matches no item`) || !strings.Contains(stderr, "that branch is left out, the rest read") {
			t.Errorf("%s: an OR branch on the binary key printed %q, said %q; want the item of v = 2, the branch said left out", name, out, stderr)
		}
		if out, _ := mustRun(t, append([]string{"partitions", "--table", "Blobs"}, conn...)...); !strings.Contains(out, `"b64:AP8="`) {
			t.Errorf("%s: partitions does not list the binary key as b64: and its base64, as the refusal says: %s", name, out)
		}
	}
}

// TestSearchStderrCountsWhatStatsCount: scan's and partiql's last stderr
// line says the figures --output json's stats hold, which are what the
// server answered and billed (a proxy counts them on dynalite): stderr's
// requests= counted the table's description too, so a whole Scan in one
// segment said requests=5 beside "requests": 4. Segments 1 and 4, a
// budget stop and its resume, a Query and a statement alike.
func TestSearchStderrCountsWhatStatsCount(t *testing.T) {
	rec := &scanRecorder{}
	figuresRE := regexp.MustCompile(`(?m)^scanned=(\d+) matched=(\d+) requests=(\d+) consumedRCU=([0-9.]+) `)
	for name, b := range searchBackends(t) {
		conn := b.args
		if name == "dynalite" {
			conn = []string{"--endpoint-url", rec.proxy(t, b.args[1]), "--region", "us-east-1"}
		}
		filter := []string{"--table", "Locations", "--filter", `DriveThru = true`}
		run := func(label string, code int, args ...string) export.SearchStats {
			t.Helper()
			rec.reset()
			out, stderr, got := cli(t, append(append(args, "--output", "json"), conn...)...)
			if got != code {
				t.Fatalf("%s %s: exit %d, want %d: %s", name, label, got, code, stderr)
			}
			var doc struct {
				Stats export.SearchStats `json:"stats"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%s %s: %v", name, label, err)
			}
			s := doc.Stats
			m := figuresRE.FindStringSubmatch(stderr)
			if m == nil {
				t.Fatalf("%s %s: no figures on stderr:\n%s", name, label, stderr)
			}
			if want := []string{itoa(s.Scanned), itoa(s.Matched), itoa(s.Requests), fmt.Sprintf("%.1f", s.ConsumedRCU)}; !slices.Equal(m[1:], want) {
				t.Errorf("%s %s: stderr says scanned, matched, requests, consumedRCU %q; the stats %q", name, label, m[1:], want)
			}
			if name == "dynalite" && (s.Requests != rec.requests || s.Scanned != rec.scanned || s.ConsumedRCU != rec.consumed) {
				t.Errorf("%s %s: stats %+v; the proxy saw %d requests, %d scanned, %g RCU", name, label, s, rec.requests, rec.scanned, rec.consumed)
			}
			if s.Requests == 0 || s.BilledRCU < s.ConsumedRCU || s.BilledRCU < 0.5*float64(s.Requests) {
				t.Errorf("%s %s: stats %+v", name, label, s)
			}
			return s
		}
		run("1 segment", exitOK, append([]string{"scan", "--segments", "1", "--max-rcu", "none"}, filter...)...)
		run("4 segments", exitOK, append([]string{"scan", "--segments", "4", "--max-rcu", "none"}, filter...)...)
		stop := run("a budget stop", exitPartial, append([]string{"scan", "--segments", "4", "--max-rcu", "5"}, filter...)...)
		if !stop.Stopped || stop.Resume == "" {
			t.Fatalf("%s: no stop at 5 RCU: %+v", name, stop)
		}
		run("resumed", exitPartial, append([]string{"scan", "--segments", "4", "--max-rcu", "5", "--resume", stop.Resume}, filter...)...)
		run("by Query", exitOK, "scan", "--table", "Locations", "--filter", `PK = "JAPAN" and DriveThru = true`)
		run("a statement's Scan", exitOK, "partiql", `SELECT * FROM "Locations" WHERE DriveThru = true`, "--max-rcu", "none")
		run("a statement's Query", exitOK, "partiql", `SELECT * FROM "Locations" WHERE PK = 'JAPAN'`)
	}
}
