package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

type versionsDoc struct {
	Items []struct {
		Name     string         `json:"name"`
		Current  map[string]any `json:"current"`
		Latest   *int           `json:"latest"`
		Versions []struct {
			Version int            `json:"version"`
			SK      string         `json:"sk"`
			Item    map[string]any `json:"item"`
		} `json:"versions"`
		Drift []string `json:"drift"`
	} `json:"items"`
	Stats struct {
		Requests    int     `json:"requests"`
		ConsumedRCU float64 `json:"consumedRCU"`
	} `json:"stats"`
}

func versionsJSON(t *testing.T, args ...string) versionsDoc {
	t.Helper()
	out, _ := mustRun(t, append([]string{"versions", "--demo"}, args...)...)
	var d versionsDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return d
}

func TestVersionsJSON(t *testing.T) {
	d := versionsJSON(t, "--table", "Equipment", "--pk", demo.DriftedPiece, "--output", "json")
	if len(d.Items) != 2 || d.Items[1].Name != demo.DriftedItem {
		t.Fatalf("items: %+v", d.Items)
	}
	drifted := d.Items[1]
	if drifted.Latest == nil || *drifted.Latest != 3 || len(drifted.Versions) != 3 || drifted.Current == nil ||
		len(drifted.Drift) != 1 || drifted.Drift[0] != "v0_ differs from v3_: Findings, Status" {
		t.Fatalf("drifted item: %+v", drifted)
	}
	// Plain JSON: numbers are numbers, nested maps are maps.
	if _, ok := drifted.Versions[0].Item["Score"].(float64); !ok {
		t.Errorf("Score is %T", drifted.Versions[0].Item["Score"])
	}
	if d.Items[0].Drift == nil || len(d.Items[0].Drift) != 0 {
		t.Errorf("clean item's drift should be [], got %v", d.Items[0].Drift)
	}

	missing := versionsJSON(t, "--table", "Equipment", "--pk", demo.MissingCurrentPiece, "--item", "Audit")
	if len(missing.Items) != 1 || missing.Items[0].Current != nil || !strings.Contains(missing.Items[0].Drift[0], "missing") {
		t.Fatalf("missing current: %+v", missing.Items)
	}
	long := versionsJSON(t, "--table", "Equipment", "--pk", demo.LongHistoryPiece, "--item", "Audit")
	if len(long.Items[0].Versions) != 1000 || long.Items[0].Versions[999].SK != "v1000_Audit" || long.Stats.Requests != 3 {
		t.Fatalf("long history: %d versions, %d requests", len(long.Items[0].Versions), long.Stats.Requests)
	}
	blog := versionsJSON(t, "--table", "Documents", "--pk", "doc-0002")
	if len(blog.Items) != 1 || blog.Items[0].Current == nil || blog.Items[0].Current["DocumentInfo"] != "v_0" {
		t.Fatalf("blog form: %+v", blog.Items)
	}
}

// TestVersionsWithoutSortKey: no sort key, no revisions: exit 2, saying
// to run items.
func TestVersionsWithoutSortKey(t *testing.T) { checkHashOnly(t, "versions") }

func TestVersionsBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--table", "Equipment", "--pk", demo.DriftedPiece, "--item", "Nope"}, 1, "run without --item"},
		{[]string{"--table", "Equipment"}, 2, "--pk"},
		{[]string{"--table", "Equipment", "--pk", "x", "--output", "rows.txt"}, 2, "--output jsonl, json or csv, or a file"},
	} {
		_, stderr, code := cli(t, append([]string{"versions", "--demo"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: code %d, stderr %q", tc.args, code, stderr)
		}
	}
}

// TestVersionsNumberKeyOfTimes: a number sort key is read for versions
// (0, 1, 2…) under BETWEEN 0 AND 999999999; DeviceLogs' Unix times are
// none, said with the range command that reads them.
func TestVersionsNumberKeyOfTimes(t *testing.T) {
	stdout, stderr, code := cli(t, "versions", "--demo", "--table", "DeviceLogs", "--pk", "123", "--output", "jsonl")
	if code != 0 || stdout != "" || !strings.Contains(stderr, "a number of ten digits is a time, read by time with dynascope range --demo --table DeviceLogs --pk 123 --last 30d") ||
		!strings.Contains(stderr, ":lo=0 :hi=999999999") {
		t.Errorf("code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestVersionsPattern: a table's own spelling of revisions comes from
// --version-pattern, else the configuration; the flag wins; without
// either, Policies' rev#… keys are not versions.
func TestVersionsPattern(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(conf, []byte("[tables.Policies]\nversion_pattern = \"rev#{n}#{name}\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wrong := filepath.Join(dir, "wrong.toml")
	if err := os.WriteFile(wrong, []byte("[tables.Policies]\nversion_pattern = \"{name}#v{n}\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	check := func(d versionsDoc, how string) {
		t.Helper()
		if len(d.Items) != 2 || d.Items[0].Name != demo.PolicyDriftedItem || d.Items[0].Current["SK"] != "rev#0#Coverage" ||
			len(d.Items[0].Drift) != 1 || d.Items[0].Drift[0] != "rev#0 differs from rev#2: Limit" || *d.Items[1].Latest != 3 {
			t.Fatalf("%s: %+v", how, d.Items)
		}
	}
	base := []string{"--table", demo.PolicyTable, "--pk", demo.PolicyDrifted}
	check(versionsJSON(t, append(base, "--version-pattern", demo.PolicyPattern)...), "flag")
	check(versionsJSON(t, append(base, "--config", conf)...), "config")
	check(versionsJSON(t, append(base, "--config", wrong, "--version-pattern", demo.PolicyPattern)...), "flag over config")
	// A pattern that reads none of the keys is a mistake to fix, said where it was written.
	if _, stderr, code := cli(t, append([]string{"versions", "--demo", "--config", wrong}, base...)...); code != 2 ||
		!strings.Contains(stderr, `version_pattern "{name}#v{n}" in the configuration matches no sort key of partition "POL-1001"`) {
		t.Fatalf("{name}#v{n} on rev# keys: code %d, %s", code, stderr)
	}
	if d := versionsJSON(t, base...); len(d.Items) != 0 {
		t.Fatalf("detection read rev# keys: %+v", d.Items)
	}
	one := versionsJSON(t, append(base, "--config", conf, "--item", "Terms")...)
	if len(one.Items) != 1 || len(one.Items[0].Versions) != 3 || one.Items[0].Versions[2].SK != "rev#3#Terms" || one.Stats.Requests != 3 {
		t.Fatalf("--item Terms: %+v", one)
	}
	_, stderr, code := cli(t, append([]string{"versions", "--demo", "--version-pattern", "rev#{num}"}, base...)...)
	if code != 2 || !strings.Contains(stderr, `--version-pattern "rev#{num}": braces only go around n and name`) {
		t.Fatalf("bad pattern: code %d, %s", code, stderr)
	}
	// The explorer takes it too, for one table, and checks it first.
	for _, args := range [][]string{{"--demo", "--table", "Policies", "--version-pattern", "{name}{n}"}, {"--demo", "--version-pattern", "rev#{n}"}} {
		if _, stderr, code := cli(t, args...); code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "--version-pattern") {
			t.Errorf("%v: code %d, %s", args, code, stderr)
		}
	}
}

// TestVersionsBareAndPointer: AWS's v0…vN are found by default, Latest is
// the pointer, and the lagging copy is drift.
func TestVersionsBareAndPointer(t *testing.T) {
	out, stderr := mustRun(t, "versions", "--demo", "--table", "VersionNums", "--pk", "Part#3")
	for _, want := range []string{`"form": "v1"`, `"v0 says Latest=2 but v2 does not exist"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if !strings.Contains(stderr, "1 versioned item, 1 drifted") {
		t.Errorf("stderr: %s", stderr)
	}
	out, _ = mustRun(t, "versions", "--demo", "--table", "VersionNums", "--pk", "Part#1")
	if !strings.Contains(out, `"drift": []`) || !strings.Contains(out, `"latest": 12`) {
		t.Errorf("healthy Part#1:\n%s", out)
	}
}

// TestVersionsNothingFound: with the usual forms, stderr names them and
// --version-pattern; a pattern that matches nothing is bad input.
func TestVersionsNothingFound(t *testing.T) {
	out, stderr := mustRun(t, "versions", "--demo", "--table", "VersionTimes", "--pk", "Equipment#1")
	if !strings.Contains(out, `"items": []`) || !strings.Contains(stderr, "no versioned items: looked for v0_Name, v1_Name, v001_Name, v_0, v0…vN and v00001.Name") ||
		!strings.Contains(stderr, "--version-pattern") {
		t.Errorf("stdout %s\nstderr %s", out, stderr)
	}
	// The keys' own pattern first, then what was looked for, without the
	// generic example: 'rev#{n}#{name}' came first, the tailored hint last.
	for pk, want := range map[string][]string{
		"POL-1001": {"the sort keys read as rev#{n}#Terms (4), rev#{n}#Coverage (3), metadata (1): try --version-pattern 'rev#{n}#{name}' (or version_pattern in the configuration)",
			`no versioned items: looked for v0_Name, v1_Name, v001_Name, v_0, v0…vN and v00001.Name (read PK = :pk AND begins_with(SK, :prefix)  :pk="POL-1001" :prefix="v")`},
		"nothing-here": {`no versioned items: looked for v0_Name, v1_Name, v001_Name, v_0, v0…vN and v00001.Name (read PK = :pk AND begins_with(SK, :prefix)  :pk="nothing-here" :prefix="v"); where revisions are spelt another way, give --version-pattern 'rev#{n}#{name}' (or version_pattern in the configuration)`},
	} {
		_, stderr := mustRun(t, "versions", "--demo", "--table", "Policies", "--pk", pk, "-o", "csv")
		if lines := strings.Split(stderr, "\n"); len(lines) < len(want) || !slices.Equal(lines[:len(want)], want) {
			t.Errorf("%s: stderr begins\n%s\nwant\n%s", pk, stderr, strings.Join(want, "\n"))
		}
	}
	_, stderr, code := cli(t, "versions", "--demo", "--table", "VersionTimes", "--pk", "Equipment#1", "--version-pattern", "rev#{n}#{name}")
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 ||
		!strings.Contains(stderr, `--version-pattern "rev#{n}#{name}" matches no sort key of partition "Equipment#1"`) || !strings.Contains(stderr, `:prefix="rev#"`) {
		t.Errorf("code %d: %s", code, stderr)
	}
}

// publishedLayouts are keys published layouts write that only the key
// grammar reads: revisions spelt v00001.profile under a historical.
// partition, and dynamodb-onetable's Date inside a text key
// (admission#1601700180000#R8) beside the patient's own item.
func publishedLayouts() map[string][]dynamo.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	hist := []dynamo.Item{{"PK": s("current.u1"), "SK": s("profile"), "name": s("Ada")}}
	for v, name := range []string{"Ada L", "Ada L.", "Ada"} {
		hist = append(hist, dynamo.Item{"PK": s("historical.u1"), "SK": s(fmt.Sprintf("v%05d.profile", v+1)), "name": s(name)})
	}
	adm := []dynamo.Item{{"PK": s("patient#1"), "SK": s("patient#1"), "_type": s("Patient")}}
	start := time.Date(2020, 9, 1, 0, 0, 0, 0, time.UTC)
	for i := range 60 {
		at := start.Add(time.Duration(i) * 25 * time.Hour)
		adm = append(adm, dynamo.Item{"PK": s("patient#1"), "SK": s(fmt.Sprintf("admission#%d#R%d", at.UnixMilli(), i%7)), "_type": s("Admission")})
	}
	return map[string][]dynamo.Item{"HistoricalProfiles": hist, "Admissions": adm, "LatestDocs": latestDocs(), "Highscores": highscores(), "ReoccuringPayments": recurringPayments(), "UserProfiles": userProfiles()}
}

// userProfiles are a profile's revisions kept by the time each was
// written, ver_{yyyyMMddHHmmss} (the codemia knowledge hub's UserProfiles;
// there UserId and VersionTimestamp, here PK and SK).
func userProfiles() []dynamo.Item {
	var items []dynamo.Item
	at := time.Date(2023, 10, 18, 12, 0, 0, 0, time.UTC)
	for i := range 5 {
		at = at.Add(time.Duration(7+i) * 13 * time.Hour)
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "user_123"}, "SK": &types.AttributeValueMemberS{Value: "ver_" + at.Format("20060102150405")},
			"name": &types.AttributeValueMemberS{Value: fmt.Sprint("Ada ", i)}})
	}
	return items
}

// highscores are paszin/dynamodb-entities' highscore items: the player's
// name the partition key, DATE#{time}, SCORE#{zero-padded points}, STATS.
func highscores() []dynamo.Item {
	var items []dynamo.Item
	for p, u := range []string{"paszin", "alice"} {
		for i, points := range []int{512, 29684, 83846, 1702} {
			at := time.Date(2024, 12, 12, 14, 36, 22, 0, time.UTC).Add(time.Duration(4*p+i) * 30 * time.Hour)
			n := &types.AttributeValueMemberN{Value: fmt.Sprint(points + p)}
			items = append(items,
				dynamo.Item{"PK": &types.AttributeValueMemberS{Value: u}, "SK": &types.AttributeValueMemberS{Value: "DATE#" + at.Format("2006-01-02T15:04:05+00:00")}, "points": n},
				dynamo.Item{"PK": &types.AttributeValueMemberS{Value: u}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("SCORE#%06d", points+p)}, "points": n, "GSI_1": &types.AttributeValueMemberS{Value: "SCORE"}})
		}
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: u}, "SK": &types.AttributeValueMemberS{Value: "STATS"}, "playCount": &types.AttributeValueMemberN{Value: "4"}})
	}
	return items
}

// recurringPayments are AWS's recurring payments example
// (aws-dynamodb-examples' RecurringPaymentsSchema.json): an account's
// subscriptions SUB#{id}#SKU#{sku} and receipts REC#{time}#SKU#{sku}.
func recurringPayments() []dynamo.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for i, sub := range []int{123, 456, 789} {
		sku := fmt.Sprint(999 - i)
		items = append(items, dynamo.Item{"PK": s("ACC#123"), "SK": s(fmt.Sprintf("SUB#%d#SKU#%s", sub, sku)), "PaymentAmount": s("12.99"), "SKU": s(sku)})
		for m := range 3 {
			at := time.Date(2023, time.Month(5+m), 28, 14, 15, 39, 247e6, time.UTC).Add(time.Duration(i) * time.Hour)
			items = append(items, dynamo.Item{"PK": s("ACC#123"), "SK": s("REC#" + at.Format("2006-01-02T15:04:05.000Z") + "#SKU#" + sku), "ProcessedAmount": s("12.99"), "SKU": s(sku)})
		}
	}
	return items
}

// TestVersionsHintOnlyForCounters: where a partition holds no revisions,
// the pattern its keys suggest is one whose numbers count: a highscore's
// SCORE#000512 and a subscription's SUB#123#SKU#999 are values and ids,
// and no --version-pattern is offered for them (SCORE#{n} and
// SUB#{n}#{name} were). Revisions kept by time (ver_20231018120000) are
// pointed at range, not at a pattern they are not spelt in. The scores
// are an entity type of their own. On dynalite and on --data alike.
func TestVersionsHintOnlyForCounters(t *testing.T) {
	for name, conn := range publishedLayoutConns(t) {
		for table, pk := range map[string]string{"Highscores": "alice", "ReoccuringPayments": "ACC#123"} {
			out, stderr := mustRun(t, append([]string{"versions", "--table", table, "--pk", pk, "--output", "json"}, conn(table)...)...)
			if !strings.Contains(out, `"items": []`) || !strings.Contains(stderr, "the sort keys read as") || strings.Contains(stderr, "try --version-pattern") {
				t.Errorf("%s %s: %s\n%s", name, table, out, stderr)
			}
		}
		_, stderr := mustRun(t, append([]string{"versions", "--table", "UserProfiles", "--pk", "user_123"}, conn("UserProfiles")...)...)
		if want := "the sort keys read as ver_{time:20060102150405} (5): each a time, read by time with dynascope range "; !strings.Contains(stderr, want) ||
			!strings.Contains(stderr, " --table UserProfiles --pk user_123 --last 30d (or --at, --before, --after)\n") || strings.Contains(stderr, "--version-pattern") {
			t.Errorf("%s: revisions kept by time:\n%s", name, stderr)
		}
		out, _ := mustRun(t, append([]string{"entities", "--table", "Highscores", "--output", "csv"}, conn("Highscores")...)...)
		if !strings.Contains(out, "SCORE,8,true,false,{alice|paszin},SCORE#{n},") || !strings.Contains(out, "STATS,2,true,false,") {
			t.Errorf("%s: entities\n%s", name, out)
		}
	}
}

// latestDocs are revisions kept beside a copy under a fixed word instead
// of v0: DOC#d1#v1, v3, v7 and DOC#d1#LATEST; a lagging DOC#d2#current;
// DOC#d3 with both v0 and a LATEST that differs from it; a LATEST with no revisions and a key
// that only begins with the word; the blog's v_latest; and the word
// leading (LATEST#DOC#d1 beside v1#DOC#d1, LATEST_Audit beside v1_Audit),
// read apart.
func latestDocs() []dynamo.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	doc := func(pk, sk, title string) dynamo.Item {
		return dynamo.Item{"PK": s(pk), "SK": s(sk), "title": s(title)}
	}
	return []dynamo.Item{
		doc("tenant#1", "DOC#d1#v1", "a"), doc("tenant#1", "DOC#d1#v3", "b"), doc("tenant#1", "DOC#d1#v7", "c"), doc("tenant#1", "DOC#d1#LATEST", "c"),
		doc("tenant#1", "DOC#d2#v1", "a"), doc("tenant#1", "DOC#d2#v2", "b"), doc("tenant#1", "DOC#d2#current", "a"),
		doc("tenant#1", "DOC#d3#v0", "b"), doc("tenant#1", "DOC#d3#v1", "a"), doc("tenant#1", "DOC#d3#v2", "b"), doc("tenant#1", "DOC#d3#LATEST", "z"),
		doc("tenant#1", "DOC#news#LATEST", "n"), doc("tenant#1", "DOC#d1#LATEST_NEWS", "n"), doc("tenant#1", "META", "m"),
		doc("doc#9", "v_1", "a"), doc("doc#9", "v_2", "b"), doc("doc#9", "v_latest", "b"),
		doc("lead#1", "v1#DOC#d1", "a"), doc("lead#1", "v2#DOC#d1", "b"), doc("lead#1", "LATEST#DOC#d1", "b"),
		doc("lead#2", "v1_Audit", "a"), doc("lead#2", "v2_Audit", "b"), doc("lead#2", "LATEST_Audit", "b"),
	}
}

// publishedLayoutConns are the command-line arguments that reach the
// published layouts: a dynalite holding them, and --data files of them
// (the embedded backend).
func publishedLayoutConns(t *testing.T) map[string]func(table string) []string {
	t.Helper()
	dir := t.TempDir()
	srv := dynalitetest.Shared(t)
	ctx := context.Background()
	for name, items := range publishedLayouts() {
		if _, err := srv.Client().DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}); err != nil {
			if err := demo.CreateKeyTable(ctx, srv.Client(), name, "S", items); err != nil {
				t.Fatal(err)
			}
		}
		var b strings.Builder
		b.WriteString(`{"Items": [`)
		for i, it := range items {
			av, err := attributevalue.MarshalMapJSON(it)
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 {
				b.WriteString(",")
			}
			b.Write(av)
		}
		b.WriteString(`]}`)
		if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	return map[string]func(string) []string{
		"dynalite": func(string) []string { return []string{"--endpoint-url", srv.Endpoint, "--region", "us-east-1"} },
		"data": func(table string) []string {
			return []string{"--data", filepath.Join(dir, table+".json"), "--keys", "PK:S,SK:S"}
		},
	}
}

// TestPublishedLayouts: revisions spelt v00001.profile are found without
// flags (the key grammar reads their spelling) and with the pattern, and onetable's epoch milliseconds in a
// text key are a range with and without --time-format, on dynalite and
// on --data alike.
func TestPublishedLayouts(t *testing.T) {
	for name, conn := range publishedLayoutConns(t) {
		hist := append([]string{"versions", "--table", "HistoricalProfiles", "--pk", "historical.u1", "--output", "json"}, conn("HistoricalProfiles")...)
		for _, flags := range [][]string{nil, {"--version-pattern", "v{n}.{name}"}} {
			out, stderr := mustRun(t, append(hist, flags...)...)
			var d versionsDoc
			if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Items) != 1 || d.Items[0].Name != "profile" || len(d.Items[0].Versions) != 3 ||
				!strings.Contains(stderr, "1 versioned item") || strings.Contains(stderr, "try --version-pattern") {
				t.Errorf("%s %v: %v %s\n%s", name, flags, err, out, stderr)
			}
		}
		out, _ := mustRun(t, append([]string{"versions", "--table", "HistoricalProfiles", "--pk", "historical.u1", "--item", "profile", "--output", "jsonl"}, conn("HistoricalProfiles")...)...)
		if strings.Count(out, "\n") != 3 || !strings.Contains(out, "v00003.profile") {
			t.Errorf("%s --item profile:\n%s", name, out)
		}
		adm := func(args ...string) (int, string) {
			out, stderr := mustRun(t, append(append([]string{"range", "--table", "Admissions", "--pk", "patient#1", "--at", "2020-10", "--output", "jsonl"}, args...), conn("Admissions")...)...)
			return strings.Count(out, "\n"), stderr
		}
		n, stderr := adm()
		if n != 30 || !strings.Contains(stderr, "prefix#epoch milliseconds#…") || !strings.Contains(stderr, `:lo="admission#1601510400000" :hi="admission#1604188799999#\U0010ffff"`) {
			t.Errorf("%s: detected: %d items\n%s", name, n, stderr)
		}
		for _, flags := range [][]string{
			{"--time-format", "admission#{time:epoch-ms}#{any}"},
			{"--time-format", "admission#{time}#{any}"},
			{"--time-format", "epoch-ms"},
			{"--sk-prefix", "admission", "--time-format", "admission#{time}#{any}"},
			{"--sk-prefix", "admission#", "--time-format", "{any}#{time:epoch-ms}#{any}"},
		} {
			if got, stderr := adm(flags...); got != n {
				t.Errorf("%s %v: %d items, detection %d\n%s", name, flags, got, n, stderr)
			}
		}
		out, _ = mustRun(t, append([]string{"entities", "--table", "Admissions", "--output", "csv"}, conn("Admissions")...)...)
		if !strings.Contains(out, "Admission,60,true,false,patient#{n},admission#{time:epoch-ms}#{id},_type,") || !strings.Contains(out, "Patient,1,true,false,") {
			t.Errorf("%s: entities\n%s", name, out)
		}
	}
}

// TestVersionsCurrentWord: where an item keeps its current copy under a
// word (DOC#d1#LATEST, #current, v_latest) instead of v0, that copy is
// current, its drift judged against the newest revision, and nothing is
// missing; v0 stays current beside a LATEST; detection suggests the
// pattern that reads it; a leading word is read apart. On dynalite and on
// --data alike.
func TestVersionsCurrentWord(t *testing.T) {
	for name, conn := range publishedLayoutConns(t) {
		run := func(args ...string) (string, string) {
			t.Helper()
			return mustRun(t, append(append([]string{"versions", "--table", "LatestDocs"}, args...), conn("LatestDocs")...)...)
		}
		for _, pattern := range []string{"DOC#{name}#v{n}", "{name}#v{n}"} {
			out, stderr := run("--pk", "tenant#1", "--version-pattern", pattern, "-o", "csv")
			doc := "d"
			if pattern == "{name}#v{n}" {
				doc = "DOC#d"
			}
			q := strings.ReplaceAll(pattern, `"`, `""`)
			for _, want := range []string{
				doc + `1,` + q + `,DOC#d1#LATEST,7,3,"[""gap: no v2 between v1 and v3"",""gap: no v4…v6 between v3 and v7""]"`,
				doc + `2,` + q + `,DOC#d2#current,2,2,"[""DOC#d2#current differs from v2: title""]"`,
				doc + `3,` + q + `,DOC#d3#v0,2,2,"[""DOC#d3#LATEST differs from v0: title""]"`, // v0 is current; the LATEST beside it disagrees
			} {
				if !strings.Contains(out, want+"\n") {
					t.Errorf("%s %s: lacks %s\n%s", name, pattern, want, out)
				}
			}
			if strings.Count(out, "\n") != 4 || strings.Contains(out, "missing") || strings.Contains(out, "news") || !strings.Contains(stderr, "3 versioned items, 3 drifted") {
				t.Errorf("%s %s:\n%s%s", name, pattern, out, stderr)
			}
		}
		out, stderr := run("--pk", "tenant#1", "--version-pattern", "DOC#{name}#v{n}", "--item", "d1", "-o", "json")
		var d versionsDoc
		if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Items) != 1 || d.Items[0].Current["SK"] != "DOC#d1#LATEST" ||
			len(d.Items[0].Versions) != 3 || strings.Contains(out, "missing") || d.Stats.Requests != 3 { // DescribeTable, GetItem of v0, one Query of DOC#d1#
			t.Errorf("%s --item d1: %v\n%s%s", name, err, out, stderr)
		}
		// Detection reads begins_with(SK, "v"): none of these; a page of
		// the partition holds three names of two revisions or more, so it
		// reads them by the pattern it found, LATEST and all, and says so
		// (it only suggested the pattern).
		if out, stderr := run("--pk", "tenant#1", "-o", "csv"); !strings.Contains(stderr, "no revision key begins with v; in the partition's 14 keys, 3 items hold revisions spelt {name}#v{n}: read by it") ||
			!strings.Contains(stderr, "3 versioned items, 3 drifted") || !strings.Contains(out, "DOC#d1,{name}#v{n},DOC#d1#LATEST,7,3,") || strings.Contains(stderr, "try --version-pattern") {
			t.Errorf("%s: detection:\n%s%s", name, out, stderr)
		}
		if out, _ := run("--pk", "doc#9", "-o", "csv"); !strings.Contains(out, ",v_1,v_latest,2,2,[]\n") {
			t.Errorf("%s v_latest:\n%s", name, out)
		}
		// LATEST#DOC#d1 leads with the word: no read of v… holds it, so
		// where an item has no v0 it is read apart (it was left out, and v0
		// said missing), and stderr says those reads.
		out, stderr = run("--pk", "lead#1", "--version-pattern", "v{n}#{name}", "-o", "csv")
		if !strings.Contains(out, `DOC#d1,v{n}#{name},LATEST#DOC#d1,2,2,[]`) || strings.Contains(out, "missing") ||
			!strings.Contains(stderr, "6 Queries apart for current copies keyed LATEST… or CURRENT… (upper, lower and title case)") {
			t.Errorf("%s leading LATEST:\n%s%s", name, out, stderr)
		}
		out, _ = run("--pk", "lead#2", "-o", "csv")
		if !strings.Contains(out, `Audit,v1_,LATEST_Audit,2,2,[]`) || strings.Contains(out, "missing") {
			t.Errorf("%s LATEST_Audit:\n%s", name, out)
		}
		out, _ = run("--pk", "lead#2", "--item", "Audit", "-o", "jsonl")
		if !strings.Contains(out, `"SK":"LATEST_Audit"`) || strings.Count(out, "\n") != 3 {
			t.Errorf("%s --item Audit:\n%s", name, out)
		}
	}
}
