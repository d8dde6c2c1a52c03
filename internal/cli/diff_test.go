package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
	"github.com/dynascope/dynascope/internal/ui"
)

var diffTables atomic.Int64

// The two sides of every comparison below, under PK "p": a#1 the same
// (its set written in another order), a#2 with one value changed and an
// attribute only on the right, a#3 only on the left, b#1 only on the
// right; partition "q" differs and is never read.
var (
	diffLeftItems = []map[string]types.AttributeValue{
		av("PK", "p", "SK", "a#1", "Status", "OPEN"),
		av("PK", "p", "SK", "a#2", "Status", "OPEN", "Total", "#10"),
		av("PK", "p", "SK", "a#3", "Status", "OPEN"),
		av("PK", "q", "SK", "a#1"),
	}
	diffRightItems = []map[string]types.AttributeValue{
		av("PK", "p", "SK", "a#1", "Status", "OPEN"),
		av("PK", "p", "SK", "a#2", "Status", "OPEN", "Total", "#12", "Note", "late"),
		av("PK", "p", "SK", "b#1", "Status", "OPEN"),
	}
)

func withTags(items []map[string]types.AttributeValue, tags ...string) []map[string]types.AttributeValue {
	items[0]["Tags"] = &types.AttributeValueMemberSS{Value: tags}
	return items
}

// diffServerTable makes a table of items on a server, named for the test.
func diffServerTable(t *testing.T, c *dynamodb.Client, items []map[string]types.AttributeValue) string {
	t.Helper()
	name := fmt.Sprintf("CliDiff%d", diffTables.Add(1))
	ctx := context.Background()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String(name),
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS}},
		BillingMode: types.BillingModePayPerRequest,
	})
	if mototest.Created(err) != nil {
		t.Fatal(err)
	}
	w := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) { o.MinDelay = 10 * time.Millisecond })
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return name
}

// diffDataFile writes items as a DynamoDB export file named for table,
// which --data loads into the embedded backend.
func diffDataFile(t *testing.T, table string, items []map[string]types.AttributeValue) string {
	t.Helper()
	var b strings.Builder
	for _, it := range items {
		line, err := json.Marshal(map[string]any{"Item": dynamo.WireItem(it)})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), table+".json")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// bothBackends writes items (keys PK and SK, strings) into a new table
// on the shared dynalite and into an export file of it, and returns the
// table's name and, by backend, the flags that open each: the same case
// run on a real server and the embedded backend.
func bothBackends(t *testing.T, items []map[string]types.AttributeValue) (string, map[string][]string) {
	t.Helper()
	dl := dynalitetest.Shared(t)
	table := diffServerTable(t, dl.Client(), items)
	return table, map[string][]string{
		"dynalite": {"--endpoint-url", dl.Endpoint, "--region", "us-east-1"},
		"memory":   {"--data", diffDataFile(t, table, items), "--keys", "PK:S,SK:S"},
	}
}

type diffLine struct {
	Key     map[string]any `json:"key"`
	Status  string         `json:"status"`
	Changes []struct {
		Path  string `json:"path"`
		Left  any    `json:"left"`
		Right any    `json:"right"`
	} `json:"changes"`
}

// diffSummary is a diff's JSON lines as comparable text.
func diffSummary(t *testing.T, out string) string {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var d diffLine
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		var ch []string
		for _, c := range d.Changes {
			ch = append(ch, fmt.Sprintf("%s:%v→%v", c.Path, c.Left, c.Right))
		}
		lines = append(lines, fmt.Sprintf("%s %s %s", d.Status, d.Key["SK"], strings.Join(ch, ",")))
	}
	return strings.Join(lines, "\n")
}

const wantDiff = `differs a#2 Note:<nil>→late,Total:10→12
only-left a#3 
only-right b#1 `

// TestDiffTwoServers compares one partition held differently on two
// servers: dynalite against the embedded backend (--data), each way, and
// dynalite against moto.
func TestDiffTwoServers(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dl := dynalitetest.Shared(t)
	dlConn := []string{"--endpoint-url", dl.Endpoint, "--region", "us-east-1"}
	left := diffServerTable(t, dl.Client(), withTags(diffLeftItems, "x", "y", "z"))
	data := diffDataFile(t, left, withTags(diffRightItems, "z", "y", "x"))

	t.Run("dynalite against the embedded backend", func(t *testing.T) {
		args := append([]string{"diff", "--table", left, "--pk", "p", "--against-data", data, "--output", "jsonl"}, dlConn...)
		out, errs, code := cli(t, args...)
		if code != 1 {
			t.Fatalf("exit %d, want 1 (they differ): %s", code, errs)
		}
		if got := diffSummary(t, out); got != wantDiff {
			t.Errorf("got\n%s\nwant\n%s", got, wantDiff)
		}
		for _, want := range []string{"left: 3 items, 1 page · requests=", "right: 3 items, 1 page · requests=", "4 keys compared: 1 same, 1 differ, 1 only-left, 1 only-right"} {
			if !strings.Contains(errs, want) {
				t.Errorf("stderr lacks %q:\n%s", want, errs)
			}
		}
	})
	t.Run("--keys describes --against-data, the only data named", func(t *testing.T) {
		args := append([]string{"diff", "--table", left, "--pk", "p", "--against-data", data, "--keys", "PK:S,SK:S", "--output", "jsonl"}, dlConn...)
		out, errs, code := cli(t, args...)
		if code != 1 {
			t.Fatalf("exit %d, want 1 (they differ): %s", code, errs)
		}
		if got := diffSummary(t, out); got != wantDiff {
			t.Errorf("got\n%s\nwant\n%s", got, wantDiff)
		}
	})
	t.Run("data that holds another table says which", func(t *testing.T) {
		renamed := filepath.Join(t.TempDir(), "renamed.json")
		if err := os.WriteFile(renamed, must(os.ReadFile(data)), 0o600); err != nil {
			t.Fatal(err)
		}
		_, errs, code := cli(t, append([]string{"diff", "--table", left, "--pk", "p", "--against-data", renamed}, dlConn...)...)
		if code != 1 || !strings.Contains(errs, "no such table in --data — the data holds 1 table (renamed): give --against-table renamed") {
			t.Errorf("exit %d: %s", code, errs)
		}
		_, errs, code = cli(t, "items", "--data", renamed, "--keys", "PK:S,SK:S", "--table", left, "--pk", "p")
		if code != 1 || !strings.Contains(errs, "no such table in --data — the data holds 1 table (renamed): give --table renamed") || strings.Contains(errs, "--region") {
			t.Errorf("items: exit %d: %s", code, errs)
		}
	})
	t.Run("a side without the path has no value, a NULL is null", func(t *testing.T) {
		nul := &types.AttributeValueMemberNULL{Value: true}
		l := diffServerTable(t, dl.Client(), []map[string]types.AttributeValue{av("PK", "p", "SK", "k1", "e", ""), av("PK", "p", "SK", "k2", "e", "")})
		r := []map[string]types.AttributeValue{av("PK", "p", "SK", "k1"), {"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: "k2"}, "e": nul}}
		want := `{"key":{"PK":"p","SK":"k1"},"status":"differs","changes":[{"path":"e","left":""}]}` + "\n" +
			`{"key":{"PK":"p","SK":"k2"},"status":"differs","changes":[{"path":"e","left":"","right":null}]}` + "\n"
		out, errs, _ := cli(t, append([]string{"diff", "--table", l, "--pk", "p", "--against-data", diffDataFile(t, l, r), "--output", "jsonl"}, dlConn...)...)
		if out != want {
			t.Errorf("dynalite against the embedded backend:\n%s\nwant\n%s%s", out, want, errs)
		}
		// The other way round: the embedded backend's side is the left.
		want = strings.NewReplacer(`"left":""}`, `"right":""}`, `"left":"","right":null`, `"left":null,"right":""`).Replace(want)
		out, errs, _ = cli(t, "diff", "--data", diffDataFile(t, l, r), "--keys", "PK:S,SK:S", "--table", l, "--pk", "p", "--against-endpoint-url", dl.Endpoint, "--against-region", "us-east-1", "--output", "jsonl")
		if out != want {
			t.Errorf("the embedded backend against dynalite:\n%s\nwant\n%s%s", out, want, errs)
		}
	})
	t.Run("tables keyed differently say both keys", func(t *testing.T) {
		data := filepath.Join(t.TempDir(), "HashOnly.json")
		if err := os.WriteFile(data, []byte(`{"Item":{"PK":{"S":"p"}}}`+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, errs, code := cli(t, append([]string{"diff", "--table", left, "--pk", "p", "--against-data", data, "--against-table", "HashOnly", "--keys", "PK:S"}, dlConn...)...)
		want := left + " and HashOnly have different keys: PK (S), SK (S) against PK (S) and no sort key"
		if code != exitUsage || !strings.Contains(errs, want) {
			t.Errorf("exit %d: %s, want %q", code, errs, want)
		}
	})
	t.Run("the embedded backend against dynalite", func(t *testing.T) {
		out, errs, code := cli(t, "diff", "--data", data, "--keys", "PK:S,SK:S", "--table", left, "--pk", "p", "--against-endpoint-url", dl.Endpoint, "--against-region", "us-east-1", "--output", "jsonl", "--all")
		if code != 1 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		want := "same a#1 \ndiffers a#2 Note:late→<nil>,Total:12→10\nonly-right a#3 \nonly-left b#1 "
		if got := diffSummary(t, out); got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("one item, identical", func(t *testing.T) {
		out, errs, code := cli(t, append([]string{"diff", "--table", left, "--pk", "p", "--sk", "a#1", "--against-data", data}, dlConn...)...)
		if code != 0 || out != "" {
			t.Fatalf("exit %d, stdout %q, want 0 and nothing: %s", code, out, errs)
		}
		if !strings.Contains(errs, "1 key compared: 1 same") {
			t.Errorf("stderr: %s", errs)
		}
	})
	t.Run("a prefix, as one array", func(t *testing.T) {
		out, errs, code := cli(t, append([]string{"diff", "--table", left, "--pk", "p", "--prefix", "a#", "--against-data", data, "--output", "json", "--all"}, dlConn...)...)
		if code != 1 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var keys []diffLine
		if err := json.Unmarshal([]byte(out), &keys); err != nil {
			t.Fatal(err)
		}
		if len(keys) != 3 || keys[0].Status != "same" || keys[1].Status != "differs" || keys[2].Status != "only-left" || len(keys[1].Changes) != 2 {
			t.Errorf("array: %s", out)
		}
		if !strings.Contains(errs, "AND begins_with(SK, :prefix)") {
			t.Errorf("stderr: %s", errs)
		}
	})
	t.Run("text and csv", func(t *testing.T) {
		out, _, _ := cli(t, append([]string{"diff", "--table", left, "--pk", "p", "--against-data", data}, dlConn...)...)
		for _, want := range []string{`differs     {"PK":"p","SK":"a#2"}`, `    Note: (absent) → "late"`, `    Total: 10 → 12`, `only-left   {"PK":"p","SK":"a#3"}`} {
			if !strings.Contains(out, want) {
				t.Errorf("text lacks %q:\n%s", want, out)
			}
		}
		out, _, _ = cli(t, append([]string{"diff", "--table", left, "--pk", "p", "--against-data", data, "--output", "csv"}, dlConn...)...)
		// Note, absent on the left, is an empty cell there: never null,
		// which is a NULL's JSON.
		if !strings.HasPrefix(out, "key,status,path,left,right\n") || !strings.Contains(out, `"{""PK"":""p"",""SK"":""a#2""}",differs,Total,10,12`) ||
			!strings.Contains(out, `"{""PK"":""p"",""SK"":""a#2""}",differs,Note,,"""late"""`) {
			t.Errorf("csv:\n%s", out)
		}
	})
	t.Run("a budget", func(t *testing.T) {
		out, errs, code := cli(t, append([]string{"diff", "--table", left, "--pk", "p", "--against-data", data, "--max-rcu", "1", "--output", "jsonl", "--all"}, dlConn...)...)
		if code != exitPartial || !strings.Contains(errs, "stopped at the budget") {
			t.Fatalf("exit %d, want 3: %s", code, errs)
		}
		if got := diffSummary(t, out); got != "same a#1 " {
			t.Errorf("within the budget: %q, want only the key both sides read", got)
		}
	})
	t.Run("dynalite against moto", func(t *testing.T) {
		mt := mototest.Shared(t)
		right := diffServerTable(t, mt.Client(), withTags(diffRightItems, "y", "x", "z"))
		out, errs, code := cli(t, append([]string{"diff", "--table", left, "--pk", "p", "--against-endpoint-url", mt.Endpoint, "--against-table", right, "--output", "jsonl"}, dlConn...)...)
		if code != 1 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if got := diffSummary(t, out); got != wantDiff {
			t.Errorf("got\n%s\nwant\n%s", got, wantDiff)
		}
	})
	t.Run("bad input", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			msg  string
		}{
			{[]string{"diff", "--demo", "--table", "Locations", "--pk", "USA"}, "none is named"},
			{[]string{"diff", "--demo", "--table", "Locations", "--pk", "USA", "--prefix", "a", "--sk", "b", "--against-table", "Geography"}, "--prefix and --sk"},
			{[]string{"diff", "--demo", "--table", "Locations", "--pk", "USA", "--against-table", "Locations"}, "with itself"},
			{[]string{"diff", "--demo", "--table", "Locations", "--pk", "USA", "--against-endpoint-url", "localhost:8000"}, "--against-endpoint-url"},
			{[]string{"diff", "--demo", "--table", "Locations", "--pk", "USA", "--against-table", "Geography", "--output", "yaml"}, "--output"},
			{[]string{"diff", "--demo", "--table", "Locations", "--pk", "USA", "--against-table", "DeviceLogs"}, "different keys"},
			{[]string{"diff", "--demo", "--table", "DeviceLogs", "--pk", "123", "--prefix", "1", "--against-table", "DeviceLogs2"}, "has no prefix"},
		} {
			checkBadInput(t, tc.args, exitUsage, tc.msg)
		}
	})
}

// TestExplorerCompareSides: the explorer's = offers the configured
// environments that name a connection and the profiles of the AWS
// configuration file, and connects the one picked as --against-* would,
// counted in the explorer's session and named by its environment.
func TestExplorerCompareSides(t *testing.T) {
	isolateAWS(t)
	dl := dynalitetest.Shared(t)
	table := diffServerTable(t, dl.Client(), diffRightItems)
	awsProfiles(t, "[default]\nregion = us-east-1\n\n[profile staging]\nregion = eu-west-1\n")
	session := &dynamo.Session{}
	g := &globals{demo: true, session: session, stderr: os.Stderr, configFile: writeConfig(t, `
[[environments]]
label = "LOCAL"
endpoint_url = "`+dl.Endpoint+`"
region = "us-east-1"

[[environments]]
label = "PROD"
account = "123456789012"
`)}
	conf, err := g.loadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sideLabels(againstChoices(g, conf)), "LOCAL | profile default · us-east-1 | profile staging · eu-west-1 | region us-east-1 (this connection's credentials) | region eu-west-1 (this connection's credentials)"; got != want {
		t.Errorf("= offers %q, want %q", got, want)
	}
	c, label, err := g.explorerAgainst(context.Background(), againstChoices(g, conf)[0], dynamo.KeySchema{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(label, "LOCAL: ") {
		t.Errorf("the other side is named %q, want its environment first", label)
	}
	if _, _, err := dynamo.DescribeTable(context.Background(), c, table); err != nil {
		t.Fatal(err)
	}
	if total, _ := session.Totals(); total.Requests == 0 {
		t.Error("the other side's reads are not counted in the explorer's session")
	}
}

// awsProfiles is the AWS configuration file the test's connections read.
func awsProfiles(t *testing.T, text string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CONFIG_FILE", path)
}

// sideLabels are the sides = offers, as its picker names them.
func sideLabels(sides []ui.Side) string {
	var labels []string
	for _, s := range sides {
		labels = append(labels, s.Label)
	}
	return strings.Join(labels, " | ")
}

// TestExplorerCompareNotWithItself: once connected, = offers no side that
// is the connection itself (the environment it matched, its own region
// read from the environment): picked, it compared a partition with itself
// and said "no differences".
func TestExplorerCompareNotWithItself(t *testing.T) {
	isolateAWS(t)
	t.Setenv("AWS_REGION", "us-east-1")
	dl := dynalitetest.Shared(t)
	table := diffServerTable(t, dl.Client(), diffLeftItems)
	awsProfiles(t, "[profile staging]\nregion = eu-west-1\n\n[profile east]\nregion = us-east-1\n")
	g := &globals{endpoint: dl.Endpoint, stderr: io.Discard, session: &dynamo.Session{}, configFile: writeConfig(t, `
[[environments]]
label = "LOCAL"
endpoint_url = "`+dl.Endpoint+`"

[[environments]]
label = "STAGING"
endpoint_url = "http://127.0.0.1:1"
`)}
	conf, err := g.loadConfig()
	if err != nil {
		t.Fatal(err)
	}
	conn, err := g.connectExplorer(nil, table, "", againstChoices(g, conf))(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sideLabels(conn.AgainstChoices), "STAGING | profile staging · eu-west-1 | profile east · us-east-1 | region eu-west-1 (this connection's credentials)"; got != want {
		t.Errorf("= offers %q, want %q", got, want)
	}
}
