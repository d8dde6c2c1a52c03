package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// partitionLine is a row of the partitions command.
type partitionLine struct {
	PartitionKey any    `json:"partitionKey"`
	KeyType      string `json:"keyType"`
	KeysRead     int    `json:"keysRead"`
	AllKeysRead  bool   `json:"allKeysRead"`
}

// partitionLines are the command's JSON lines.
func partitionLines(t *testing.T, out string) []partitionLine {
	t.Helper()
	var rows []partitionLine
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var r partitionLine
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%v: %q", err, l)
		}
		rows = append(rows, r)
	}
	return rows
}

// checkListed holds rows against the partitions a full read found (their
// items, by key): each listed once, keysRead at most its items and at
// least one, allKeysRead only where every item's key was read; every
// partition listed when whole.
func checkListed(t *testing.T, what string, rows []partitionLine, full map[string]int, whole bool) {
	t.Helper()
	seen := map[string]bool{}
	for _, r := range rows {
		k := fmt.Sprint(r.PartitionKey)
		n, ok := full[k]
		switch {
		case !ok:
			t.Errorf("%s: listed %q, which a full read does not find", what, k)
		case seen[k]:
			t.Errorf("%s: %q listed twice", what, k)
		case r.KeysRead < 1 || r.KeysRead > n:
			t.Errorf("%s: %q: %d keys read, it holds %d", what, k, r.KeysRead, n)
		case r.AllKeysRead && r.KeysRead != n:
			t.Errorf("%s: %q: all keys read, says the row, yet %d of %d", what, k, r.KeysRead, n)
		}
		seen[k] = true
	}
	if whole && len(seen) != len(full) {
		t.Errorf("%s: listed %d partitions, a full read finds %d", what, len(seen), len(full))
	}
}

// fullPartitions is every partition of a table (or index) and its items,
// counted by the test's own paged Scan.
func fullPartitions(t *testing.T, c dynamo.Client, table, index, pk string) map[string]int {
	t.Helper()
	out := map[string]int{}
	in := &dynamodb.ScanInput{TableName: aws.String(table)}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	for {
		page, err := c.Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			out[fmt.Sprint(dynamo.PlainItem(it)[pk])]++
		}
		if len(page.LastEvaluatedKey) == 0 {
			return out
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
}

// ownPartitions is a table of the test's own: one large partition among
// small ones, and keys holding an escape sequence and zero-width
// characters; and its partitions' items.
func ownPartitions() ([]map[string]types.AttributeValue, map[string]int) {
	var items []map[string]types.AttributeValue
	full := map[string]int{}
	add := func(pk string, n int) {
		for i := range n {
			items = append(items, av("PK", pk, "SK", fmt.Sprintf("ITEM#%04d", i)))
		}
		full[pk] = n
	}
	for i := range 40 {
		add(fmt.Sprintf("small-%02d", i), 1+i%3)
	}
	add("large", 700)
	add("evil\x1b[31mred\u200bzero\u202ebidi", 2)
	return items, full
}

var billedRE = regexp.MustCompile(`consumedRCU=([0-9.]+)(?: billedRCU=([0-9.]+))?`)

// billedOf is what a command's summary line says it spent, as billed.
func billedOf(t *testing.T, stderr string) float64 {
	t.Helper()
	m := billedRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no RCU in %q", stderr)
	}
	v := m[1]
	if m[2] != "" {
		v = m[2]
	}
	f, _ := strconv.ParseFloat(v, 64)
	return f
}

// TestPartitionsListsEachOnce: partitions lists every partition of
// Locations, of its index and of a table of the test's own once, on
// dynalite and the embedded backend, each row's keys read no more than
// the partition holds and marked all read only where they are; a key
// holding an escape sequence or invisible characters is written escaped
// and reads back as itself.
func TestPartitionsListsEachOnce(t *testing.T) {
	for name, b := range searchBackends(t) {
		for _, index := range []string{"", "ByCity"} {
			pk := "PK"
			if index != "" {
				pk = "City"
			}
			full := fullPartitions(t, b.client, "Locations", index, pk)
			args := append([]string{"partitions", "--table", "Locations", "--max-rcu", "none"}, b.args...)
			if index != "" {
				args = append(args, "--index", index)
			}
			out, stderr := mustRun(t, args...)
			checkListed(t, name+" "+index, partitionLines(t, out), full, true)
			if !strings.Contains(stderr, fmt.Sprintf("partitions=%d (every one)", len(full))) {
				t.Errorf("%s %s: the summary does not say all %d were listed:\n%s", name, index, len(full), stderr)
			}
		}
	}
	items, full := ownPartitions()
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		out, stderr := mustRun(t, append([]string{"partitions", "--table", table, "--max-rcu", "none"}, conn...)...)
		if strings.ContainsAny(out+stderr, "\x1b\u200b\u202e") {
			t.Errorf("%s: a key's control or invisible characters written raw: %q", name, out)
		}
		if !strings.Contains(out, `\u001b[31mred\u200bzero\u202ebidi`) {
			t.Errorf("%s: the key is not escaped as JSON escapes it: %s", name, out)
		}
		rows := partitionLines(t, out)
		checkListed(t, name+" own", rows, full, true)
		for _, r := range rows {
			if r.PartitionKey == "large" && r.AllKeysRead {
				t.Errorf("%s: the large partition's %d keys said all read", name, r.KeysRead)
			}
		}
		csv, _ := mustRun(t, append([]string{"partitions", "--table", table, "--output", "csv"}, conn...)...)
		if strings.ContainsAny(csv, "\x1b\u200b\u202e") || !strings.HasPrefix(csv, "partitionKey,keyType,keysRead,allKeysRead\n") {
			t.Errorf("%s: csv: %q", name, csv)
		}
	}
}

// TestPartitionsLimitAndDocument: --limit N prints N partitions and says
// the rest were not listed; --output json is one document of partitions
// and stats, the stats naming what they count.
func TestPartitionsLimitAndDocument(t *testing.T) {
	items, full := ownPartitions()
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		out, stderr := mustRun(t, append([]string{"partitions", "--table", table, "--limit", "5", "--output", "json"}, conn...)...)
		var doc struct {
			Partitions []partitionLine `json:"partitions"`
			Stats      map[string]any  `json:"stats"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: %v: %s", name, err, out)
		}
		if len(doc.Partitions) != 5 {
			t.Errorf("%s: --limit 5 printed %d", name, len(doc.Partitions))
		}
		checkListed(t, name+" limit", doc.Partitions, full, false)
		var keys []string
		for k := range doc.Stats {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if strings.Join(keys, " ") != "allPartitionsListed billedRCU consumedRCU keysRead partitions requests stopped" {
			t.Errorf("%s: stats %v", name, keys)
		}
		if doc.Stats["allPartitionsListed"] != false || doc.Stats["partitions"] != 5.0 || doc.Stats["stopped"] != false {
			t.Errorf("%s: stats %v", name, doc.Stats)
		}
		if !strings.Contains(stderr, "partitions=5 (more not listed)") {
			t.Errorf("%s: %s", name, stderr)
		}
	}
}

// recordedPartitions is ownPartitions on both backends, dynalite behind
// a recording proxy: the table, its partitions' items, each backend's
// flags, and the proxy.
func recordedPartitions(t *testing.T) (string, map[string]int, map[string][]string, *scanRecorder) {
	t.Helper()
	items, full := ownPartitions()
	table, backends := bothBackends(t, items)
	rec := &scanRecorder{}
	backends["dynalite"] = []string{"--endpoint-url", rec.proxy(t, backends["dynalite"][1]), "--region", "us-east-1"}
	return table, full, backends, rec
}

// TestPartitionsBudget: under --max-rcu the listing stops within half an
// RCU of the budget (as the recording proxy on dynalite and the embedded
// backend's billing count it), prints the partitions it listed, real
// ones each once, and exits 3 with one line saying what it spent, what
// is partial and how to go on.
func TestPartitionsBudget(t *testing.T) {
	table, full, backends, rec := recordedPartitions(t)
	for name, conn := range backends {
		for _, budget := range []float64{1, 2, 5} {
			rec.reset()
			args := append([]string{"partitions", "--table", table, "--max-rcu", strconv.FormatFloat(budget, 'f', -1, 64)}, conn...)
			out, stderr, code := cli(t, args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			if code != exitPartial || !strings.Contains(last, "stopped at the budget") || !strings.Contains(last, "more partitions may exist") || !strings.Contains(last, "resume with --resume ") {
				t.Errorf("%s %g: exit %d: %s", name, budget, code, stderr)
			}
			checkListed(t, fmt.Sprintf("%s %g", name, budget), partitionLines(t, out), full, false)
			spent := billedOf(t, stderr)
			if name == "dynalite" {
				spent = rec.consumed
			}
			if spent > budget+0.5 {
				t.Errorf("%s: --max-rcu %g spent %.1f RCU", name, budget, spent)
			}
		}
	}
}

// TestPartitionsRefusals: no --table, a negative --limit, an unknown
// format or index: one line, exit 2, and no Scan sent (a table's indexes
// are known once it is described).
func TestPartitionsRefusals(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	rec := &scanRecorder{}
	items, _ := ownPartitions()
	table, backends := bothBackends(t, items)
	conn := []string{"--endpoint-url", rec.proxy(t, backends["dynalite"][1]), "--region", "us-east-1"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"partitions"}, "--table is required"},
		{[]string{"partitions", "--table", table, "--limit", "-1"}, "--limit -1 is negative"},
		{[]string{"partitions", "--table", table, "--output", "xml"}, `--output "xml" is not a format`},
		{[]string{"partitions", "--table", table, "--max-rcu", "0"}, "--max-rcu 0 is not a budget"},
		{[]string{"partitions", "--table", table, "--index", "Nope"}, `has no index "Nope"`},
		{[]string{"partitions", "--table", "a b", "--index", "Nope"}, "no table can be named so"},
	} {
		rec.reset()
		out, stderr, code := cli(t, append(c.args, conn...)...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || rec.requests != 0 {
			t.Errorf("%q: exit %d, %d Scans sent, stdout %q, stderr %q; want exit 2 and one line saying %q", c.args, code, rec.requests, out, stderr, c.want)
		}
	}
}

// TestPartitionsMasked: --mask on the partition key lists stand-ins, each
// partition once, never a real key.
func TestPartitionsMasked(t *testing.T) {
	items, full := ownPartitions()
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		out, _ := mustRun(t, append([]string{"partitions", "--table", table, "--mask", "PK"}, conn...)...)
		rows := partitionLines(t, out)
		if len(rows) != len(full) {
			t.Errorf("%s: %d rows masked, %d partitions", name, len(rows), len(full))
		}
		var shown []string
		for _, r := range rows {
			shown = append(shown, fmt.Sprint(r.PartitionKey))
		}
		for k := range full {
			if slices.Contains(shown, k) || strings.Contains(out, "small-") {
				t.Errorf("%s: a real key shown under --mask PK: %s", name, out)
				break
			}
		}
		slices.Sort(shown)
		if len(slices.Compact(shown)) != len(full) {
			t.Errorf("%s: stand-ins repeat: %v", name, shown)
		}
	}
}

var partitionsResumeRE = regexp.MustCompile(`resume with --resume (\S+)`)

// TestPartitionsResume: a listing stopped at its budget and resumed with
// the token its stop gave, again and again, lists every partition once
// over the runs, each run within half an RCU of its budget, the last
// exiting 0; on dynalite and the embedded backend. A token cut short, or
// of another table, is refused in one line, exit 2, no Scan sent.
func TestPartitionsResume(t *testing.T) {
	table, full, backends, rec := recordedPartitions(t)
	for name, conn := range backends {
		for _, budget := range []string{"1", "4"} {
			var rows []partitionLine
			token, runs := "", 0
			for ; runs < 500; runs++ {
				rec.reset()
				args := append([]string{"partitions", "--table", table, "--max-rcu", budget}, conn...)
				if token != "" {
					args = append(args, "--resume", token)
				}
				out, stderr, code := cli(t, args...)
				rows = append(rows, partitionLines(t, out)...)
				b, _ := strconv.ParseFloat(budget, 64)
				if spent := billedOf(t, stderr); name == "dynalite" && rec.consumed > b+0.5 || spent > b+0.5 {
					t.Errorf("%s: --max-rcu %s spent %.1f (proxy: %.1f)", name, budget, spent, rec.consumed)
				}
				if code == exitOK {
					break
				}
				m := partitionsResumeRE.FindStringSubmatch(stderr)
				if code != exitPartial || m == nil {
					t.Fatalf("%s: run %d: exit %d, no token: %s", name, runs, code, stderr)
				}
				token = m[1]
			}
			checkListed(t, fmt.Sprintf("%s --max-rcu %s resumed %d times", name, budget, runs), rows, full, true)
			t.Logf("%s --max-rcu %s: %d partitions in %d runs", name, budget, len(rows), runs+1)
		}
		// The refusals: a token cut short; one of another table.
		_, stderr, _ := cli(t, append([]string{"partitions", "--table", table, "--max-rcu", "1"}, conn...)...)
		token := partitionsResumeRE.FindStringSubmatch(stderr)[1]
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"--table", table, "--resume", token[:len(token)-3]}, "--resume is not a resume token of partitions"},
			{[]string{"--table", table, "--resume", "abc"}, "--resume is not a resume token of partitions"},
			{[]string{"--table", table, "--index", "Nope", "--resume", token}, `has no index "Nope"`},
		} {
			rec.reset()
			out, stderr, code := cli(t, append(append([]string{"partitions"}, c.args...), conn...)...)
			said := strings.TrimSpace(regexp.MustCompile(`(?m)^DATA: .*\n`).ReplaceAllString(stderr, "")) // --data's load line
			if code != exitUsage || out != "" || !strings.Contains(said, c.want) || strings.Count(said, "\n") != 0 || rec.requests != 0 {
				t.Errorf("%s %q: exit %d, %d Scans, %q", name, c.args, code, rec.requests, stderr)
			}
		}
	}
}

// TestPartitionsTokenOfAnotherTable: a token given by one table's listing
// is refused on another's, after its description, before any Scan.
func TestPartitionsTokenOfAnotherTable(t *testing.T) {
	isolateAWS(t)
	_, stderr, code := cli(t, "partitions", "--demo", "--table", "Locations", "--max-rcu", "1")
	m := partitionsResumeRE.FindStringSubmatch(stderr)
	if code != exitPartial || m == nil {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out, stderr, code := cli(t, "partitions", "--demo", "--table", "DeviceLogs", "--resume", m[1])
	if code != exitUsage || out != "" || !strings.Contains(stderr, "was given by a listing of another table or index") {
		t.Errorf("exit %d, %q", code, stderr)
	}
	out, stderr, code = cli(t, "partitions", "--demo", "--table", "Locations", "--mask", "PK", "--max-rcu", "1")
	if code != exitPartial || strings.Contains(stderr, "--resume") || !strings.Contains(stderr, "a larger --max-rcu") || strings.Contains(out, "USA") {
		t.Errorf("masked: exit %d, a token that holds keys given: %q", code, stderr)
	}
}

var limitResumeRE = regexp.MustCompile(`(?m)^--limit \d+ reached, .*go on with --resume (\S+)`)

// TestPartitionsLimitSaysMoreAndGoesOn: a listing stopped by --limit with
// more to list said only "more not listed", exit 0, and no way on: it
// says so and gives a --resume token where its last read ended at the
// limit's last partition (Locations, a probe a partition: every
// partition listed once, --limit 2 a run), else that a larger --limit
// lists those its reads found (small partitions, 100 keys a read). Its
// summary's requests= and RCU are the stats' (the description, billed
// nothing, is not counted), which a proxy counts on dynalite.
func TestPartitionsLimitSaysMoreAndGoesOn(t *testing.T) {
	rec := &scanRecorder{}
	for name, b := range searchBackends(t) {
		conn := b.args
		if name == "dynalite" {
			conn = []string{"--endpoint-url", rec.proxy(t, b.args[1]), "--region", "us-east-1"}
		}
		full := fullPartitions(t, b.client, "Locations", "", "PK")
		var rows []partitionLine
		token, runs := "", 0
		for ; runs < 20; runs++ {
			rec.reset()
			args := append([]string{"partitions", "--table", "Locations", "--limit", "2", "--output", "json"}, conn...)
			if token != "" {
				args = append(args, "--resume", token)
			}
			out, stderr, code := cli(t, args...)
			var doc struct {
				Partitions []partitionLine `json:"partitions"`
				Stats      map[string]any  `json:"stats"`
			}
			if err := json.Unmarshal([]byte(out), &doc); code != exitOK || err != nil {
				t.Fatalf("%s run %d: exit %d, %v: %s", name, runs, code, err, stderr)
			}
			rows = append(rows, doc.Partitions...)
			summary := fmt.Sprintf("requests=%v consumedRCU=%.1f", doc.Stats["requests"], doc.Stats["consumedRCU"])
			if !strings.Contains(stderr, summary) {
				t.Errorf("%s run %d: stats say %s; stderr:\n%s", name, runs, summary, stderr)
			}
			if name == "dynalite" && (doc.Stats["requests"] != float64(rec.requests) || doc.Stats["consumedRCU"] != rec.consumed) {
				t.Errorf("%s run %d: stats %v; the proxy saw %d requests, %g RCU", name, runs, doc.Stats, rec.requests, rec.consumed)
			}
			if doc.Stats["allPartitionsListed"] == true {
				if strings.Contains(stderr, "--limit 2 reached") {
					t.Errorf("%s run %d: listed to the end, yet: %s", name, runs, stderr)
				}
				break
			}
			m := limitResumeRE.FindStringSubmatch(stderr)
			if m == nil || doc.Stats["resume"] != m[1] {
				t.Fatalf("%s run %d: stopped at --limit 2 with more to list, and no token (stats %v):\n%s", name, runs, doc.Stats, stderr)
			}
			token = m[1]
		}
		checkListed(t, fmt.Sprintf("%s --limit 2 resumed %d times", name, runs), rows, full, true)
	}
	items, full := ownPartitions()
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		out, stderr := mustRun(t, append([]string{"partitions", "--table", table, "--limit", "3"}, conn...)...)
		checkListed(t, name+" --limit 3", partitionLines(t, out), full, false)
		if !regexp.MustCompile(`(?m)^--limit 3 reached, more partitions were found than listed: a larger --limit lists them \(its reads found \d+;`).MatchString(stderr) {
			t.Errorf("%s: a read found more partitions than --limit 3, and stderr does not say so:\n%s", name, stderr)
		}
	}
}
