package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/mototest"
)

var changesTables atomic.Int64

// changesTable creates a table on moto (with a stream of view, unless "")
// and returns its name and a function that writes to it.
func changesTable(t *testing.T, srv *mototest.Server, view types.StreamViewType) (string, func(put bool, item map[string]types.AttributeValue)) {
	t.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("CliChanges%d", changesTables.Add(1))
	in := &dynamodb.CreateTableInput{
		TableName: aws.String(name),
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
		BillingMode: types.BillingModePayPerRequest,
	}
	if view != "" {
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}
	}
	db := srv.Client()
	if _, err := db.CreateTable(ctx, in); mototest.Created(err) != nil {
		t.Fatal(err)
	}
	// Each write is sent once and retried here only when it did not land:
	// the SDK's own retry of a write moto had applied (its answer lost
	// under load) put the same item again, which moto's stream records as
	// a MODIFY that changed nothing, a record the test did not write.
	once := dynamodb.New(db.Options(), func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
	return name, func(put bool, item map[string]types.AttributeValue) {
		t.Helper()
		key := map[string]types.AttributeValue{"pk": item["pk"], "sk": item["sk"]}
		var err error
		for try := 0; try < 5; try++ {
			if put {
				_, err = once.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: item})
			} else {
				_, err = once.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(name), Key: key})
			}
			if err == nil {
				return
			}
			got, gerr := once.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(name), Key: key, ConsistentRead: aws.Bool(true)})
			if gerr == nil && ((put && reflect.DeepEqual(got.Item, item)) || (!put && got.Item == nil)) {
				return // it landed; only its answer was lost
			}
		}
		t.Fatal(err)
	}
}

func av(kv ...string) map[string]types.AttributeValue {
	out := map[string]types.AttributeValue{}
	for i := 0; i < len(kv); i += 2 {
		if strings.HasPrefix(kv[i+1], "#") {
			out[kv[i]] = &types.AttributeValueMemberN{Value: kv[i+1][1:]}
		} else {
			out[kv[i]] = &types.AttributeValueMemberS{Value: kv[i+1]}
		}
	}
	return out
}

type changeLine struct {
	Event   string         `json:"event"`
	Time    string         `json:"time"`
	Keys    map[string]any `json:"keys"`
	Old     map[string]any `json:"old"`
	New     map[string]any `json:"new"`
	Changed []string       `json:"changed"`
}

func changeLines(t *testing.T, out string) []changeLine {
	t.Helper()
	var got []changeLine
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var c changeLine
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("not a JSON line: %q: %v", l, err)
		}
		got = append(got, c)
	}
	return got
}

// TestChangesCommand: on moto, a partition's writes print as JSON lines
// oldest first with their images and changed attributes; stderr counts
// what was read; no change is an empty result, not an error.
func TestChangesCommand(t *testing.T) {
	isolateAWS(t)
	srv := mototest.Shared(t)
	table, write := changesTable(t, srv, types.StreamViewTypeNewAndOldImages)
	write(true, av("pk", "A", "sk", "1", "status", "NEW", "email", "a@example.com"))
	write(true, av("pk", "B", "sk", "1", "status", "NEW"))
	write(true, av("pk", "A", "sk", "1", "status", "PAID", "email", "a@example.com", "total", "#42"))
	write(false, av("pk", "A", "sk", "1"))
	base := []string{"changes", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", table}

	out, errb, code := cli(t, append(base, "--pk", "A", "--since", "1h")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	got := changeLines(t, out)
	var sums []string
	for _, c := range got {
		sums = append(sums, fmt.Sprintf("%s %v", c.Event, c.Changed))
	}
	if want := []string{"INSERT [email pk sk status]", "MODIFY [status total]", "REMOVE [email pk sk status total]"}; !slices.Equal(sums, want) {
		t.Fatalf("changes: %q, want %q", sums, want)
	}
	if got[1].Old["status"] != "NEW" || got[1].New["status"] != "PAID" || got[1].New["total"] != float64(42) || got[0].Old != nil || got[2].New != nil {
		t.Errorf("images: %+v", got)
	}
	if _, err := time.Parse(time.RFC3339Nano, got[0].Time); err != nil || !strings.HasSuffix(got[0].Time, "Z") {
		t.Errorf("time %q is not ISO 8601 UTC", got[0].Time)
	}
	if !strings.Contains(errb, "1 shard read · 4 records scanned · 3 changes matched · ") || !strings.Contains(errb, "GetRecords calls (no table capacity)") {
		t.Errorf("stderr: %s", errb)
	}

	// Masked: the values, old and new, never the names changed.
	out, _, _ = cli(t, append(base, "--pk", "A", "--mask", "email")...)
	if strings.Contains(out, "a@example.com") || !strings.Contains(out, `"email":"‹m`) {
		t.Errorf("--mask left the value: %s", out)
	}
	// DynamoDB JSON.
	out, _, _ = cli(t, append(base, "--pk", "A", "--dynamodb-json")...)
	if !strings.Contains(out, `"status":{"S":"PAID"}`) || !strings.Contains(out, `"total":{"N":"42"}`) {
		t.Errorf("--dynamodb-json: %s", out)
	}
	// CSV, one row a change.
	out, _, _ = cli(t, append(base, "--pk", "A", "--output", "csv")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || lines[0] != "event,time,keys,old,new,changed" {
		t.Fatalf("csv: %q", out)
	}
	// The INSERT's old and the REMOVE's new are null in JSON: \N, not an
	// empty cell (a value the row does not have).
	if !strings.Contains(lines[1], `}",\N,"{`) || !strings.HasSuffix(lines[3], `,\N,"[""email"",""pk"",""sk"",""status"",""total""]"`) {
		t.Errorf("csv images: %q", lines)
	}
	// A partition with no change: nothing, said on stderr, exit 0.
	out, errb, code = cli(t, append(base, "--pk", "Z", "--since", "30m")...)
	if code != 0 || out != "" || !strings.Contains(errb, "no changes since ") || !strings.Contains(errb, `partition "Z"`) {
		t.Errorf("no change: exit %d, stdout %q, stderr %q", code, out, errb)
	}
}

// TestChangesBadInput: one line each, exit 2, before or instead of reading.
func TestChangesBadInput(t *testing.T) {
	isolateAWS(t)
	srv := mototest.Shared(t)
	plain, _ := changesTable(t, srv, "")
	base := []string{"changes", "--endpoint-url", srv.Endpoint, "--region", "us-east-1"}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--table", plain}, "aws dynamodb update-table --table-name " + plain + " --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES"},
		{[]string{"--table", plain, "--since", "25h"}, "DynamoDB keeps a stream's records 24 hours"},
		{[]string{"--table", plain, "--since", "2d"}, "DynamoDB keeps a stream's records 24 hours"},
		{[]string{"--table", plain, "--from", "2020-01-01"}, "DynamoDB keeps a stream's records 24 hours"},
		{[]string{"--table", plain, "--since", "1h", "--from", "2020-01-01"}, "give one of --since and --from"},
		{[]string{"--table", plain, "--since", "5x"}, `--since "5x" is not a span: write 15m, 24h, 7d or 2w — a stream keeps 24 hours: --since 1h, or --from`}, // said "write" twice
		{[]string{"--table", plain, "--prefix", "x"}, "--prefix needs --pk"},
		{[]string{"--table", plain, "--follow", "--output", "csv"}, "--follow streams JSON lines"},
		{[]string{"--pk", "A"}, "--table is required"},
	}
	for _, c := range cases {
		_, errb, code := cli(t, append(base, c.args...)...)
		if code != exitUsage || !strings.Contains(errb, c.want) || strings.Count(strings.TrimSpace(errb), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q on one line", c.args, code, errb, c.want)
		}
	}
	// A table that is not there is named, as every other command names
	// it: it was "DescribeTable: no such table".
	_, errb, code := cli(t, append(base, "--table", "NoSuch"+plain)...)
	if want := "dynascope: describe table NoSuch" + plain + ": no such table"; code != exitFailure || !strings.HasPrefix(errb, want) {
		t.Errorf("no such table: exit %d, stderr %q, want %q", code, errb, want)
	}
}

// TestChangesKeysOnlySaysWhatIsMissing: a KEYS_ONLY stream's changes have
// keys and no images, and stderr says so.
func TestChangesKeysOnlySaysWhatIsMissing(t *testing.T) {
	isolateAWS(t)
	srv := mototest.Shared(t)
	table, write := changesTable(t, srv, types.StreamViewTypeKeysOnly)
	write(true, av("pk", "A", "sk", "1", "status", "NEW"))
	out, errb, code := cli(t, "changes", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", table)
	if code != 0 || !strings.Contains(errb, "KEYS_ONLY") || !strings.Contains(out, `"old":null,"new":null,"changed":null`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errb)
	}
	out, _, _ = cli(t, "changes", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", table, "--output", "csv")
	if !strings.HasSuffix(out, `,\N,\N,\N`+"\n") {
		t.Errorf("KEYS_ONLY csv: the images and changed are null, \\N: %q", out)
	}
}

// TestChangesFollowCommand: --follow prints the changes so far, then each
// later write of the partition once, in order; Ctrl+C ends it as an
// interruption. (How soon each arrives is measured, not asserted.)
func TestChangesFollowCommand(t *testing.T) {
	isolateAWS(t)
	srv := mototest.Shared(t)
	table, write := changesTable(t, srv, types.StreamViewTypeNewAndOldImages)
	write(true, av("pk", "A", "sk", "1", "n", "#1"))
	out, errb := &syncBuffer{}, &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"changes", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", table, "--pk", "A", "--follow"}, out, errb)
	}()
	waitLines := func(n int) []changeLine {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if got := changeLines(t, out.String()); len(got) >= n {
				return got
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("waiting for %d changes: stdout %q, stderr %q", n, out.String(), errb.String())
		return nil
	}
	waitLines(1)
	for i := 2; i <= 4; i++ {
		write(true, av("pk", "B", "sk", "1", "n", fmt.Sprintf("#%d", i))) // another partition: never printed
		write(true, av("pk", "A", "sk", "1", "n", fmt.Sprintf("#%d", i)))
		waitLines(i)
	}
	cancel()
	if code := <-done; code != exitInterrupted {
		t.Errorf("exit %d after Ctrl+C, want %d", code, exitInterrupted)
	}
	got := changeLines(t, out.String())
	var ns []any
	for _, c := range got {
		if c.Keys["pk"] != "A" {
			t.Errorf("another partition's change printed: %+v", c)
		}
		ns = append(ns, c.New["n"])
	}
	if !slices.Equal(ns, []any{float64(1), float64(2), float64(3), float64(4)}) {
		t.Errorf("followed changes %v, want 1 2 3 4 once each, in order", ns)
	}
}

// TestChangesHelpExamples runs every --demo example of `changes --help`:
// each prints changes from the demo's streams and exits 0.
func TestChangesHelpExamples(t *testing.T) {
	isolateAWS(t)
	cmd := newChangesCmd(context.Background(), &globals{})
	ran := 0
	for _, line := range strings.Split(cmd.Example, "\n") {
		args := strings.Fields(strings.TrimSpace(line))
		if len(args) < 2 || !slices.Contains(args, "--demo") {
			continue // the --endpoint-url form runs on moto in TestChangesFollowCommand
		}
		for i, a := range args {
			args[i] = strings.Trim(a, "'")
		}
		out, errb, code := cli(t, args[1:]...)
		if code != 0 || out == "" || !strings.Contains(errb, "GetRecords call") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", line, code, out, errb)
		}
		ran++
	}
	if ran < 4 {
		t.Errorf("ran %d demo examples", ran)
	}
}

// TestChangesDemo: the demo's Shop stream holds customer c#001's order
// moving through its states, oldest first, each step's changed attributes
// named, and no record for a write that changed nothing.
func TestChangesDemo(t *testing.T) {
	isolateAWS(t)
	out, errb, code := cli(t, "changes", "--demo", "--table", "Shop", "--pk", "c#001", "--prefix", "o#10002")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var got []string
	for _, c := range changeLines(t, out) {
		got = append(got, fmt.Sprintf("%s %v %v", c.Event, c.New["Status"], c.Changed))
	}
	want := []string{"INSERT PLACED [GSI1PK GSI2PK GSI2SK OrderDate PK SK Status Total]", "MODIFY PAID [GSI1PK Status]",
		"MODIFY SHIPPED [GSI1PK Status]", "MODIFY DELIVERED [GSI1PK Status]"}
	if !slices.Equal(got, want) {
		t.Errorf("order o#10002:\n got %q\nwant %q", got, want)
	}
	// CSV on the embedded backend as on moto: the INSERT's old image,
	// null in JSON, is \N.
	out, _, _ = cli(t, "changes", "--demo", "--table", "Shop", "--pk", "c#001", "--prefix", "o#10002", "--output", "csv")
	if lines := strings.Split(out, "\n"); len(lines) < 2 || !strings.Contains(lines[1], `}",\N,"{`) {
		t.Errorf("csv: %q", out)
	}
}

// FuzzChangesWindow: whatever --since or --from say, the window is refused
// with a usage line or starts within the 24 hours a stream keeps.
func FuzzChangesWindow(f *testing.F) {
	for _, s := range []string{"1h", "24h", "25h", "1d", "2d", "90m", "0s", "-1h", "1h30m", "9999999999h", "2026-11-24T10:00Z", "1764000000", ""} {
		f.Add(s, "")
		f.Add("", s)
	}
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, since, from string) {
		o := changesOptions{since: since, from: from}
		start, err := o.window(now)
		if err != nil {
			if _, ok := err.(usageError); !ok {
				t.Fatalf("--since %q --from %q: not a usage error: %v", since, from, err)
			}
			return
		}
		if !start.IsZero() && start.Before(now.Add(-24*time.Hour)) {
			t.Fatalf("--since %q --from %q starts at %s, past 24 hours", since, from, start)
		}
	})
}

// TestTablesReportStreams: tables --output json says of every table
// whether it has a stream, and for one that has, its view type, label and
// ARN as DescribeTable gives them; the text form names the view type. On
// moto (three tables: both images, keys only, none) and the embedded demo
// (Shop keeps a stream, Locations none).
func TestTablesReportStreams(t *testing.T) {
	isolateAWS(t)
	type stream struct {
		Enabled  bool   `json:"enabled"`
		ViewType string `json:"viewType"`
		Label    string `json:"label"`
		ARN      string `json:"arn"`
	}
	check := func(t *testing.T, conn []string, want map[string]string) {
		t.Helper()
		out, _ := mustRun(t, append([]string{"tables", "--output", "json"}, conn...)...)
		var got struct {
			Tables []struct {
				Name   string  `json:"name"`
				Stream *stream `json:"stream"`
			} `json:"tables"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		seen := 0
		for _, tb := range got.Tables {
			view, ok := want[tb.Name]
			if !ok {
				continue
			}
			seen++
			switch s := tb.Stream; {
			case s == nil:
				t.Errorf("%s: no stream field in %s", tb.Name, out)
			case view == "" && (s.Enabled || s.ARN != "" || s.ViewType != ""):
				t.Errorf("%s has no stream, reported %+v", tb.Name, *s)
			case view != "" && (!s.Enabled || s.ViewType != view || s.Label == "" || !strings.HasSuffix(s.ARN, "/stream/"+s.Label)):
				t.Errorf("%s: stream %+v, want enabled %s with its label and ARN", tb.Name, *s, view)
			}
		}
		if seen != len(want) {
			t.Fatalf("found %d of the tables %v in %s", seen, want, out)
		}
		text, _ := mustRun(t, append([]string{"tables"}, conn...)...)
		if !strings.Contains(text, "STREAM") {
			t.Errorf("the text form has no STREAM column:\n%s", text)
		}
		for name, view := range want {
			if view != "" && !strings.Contains(text, view) {
				t.Errorf("the text form does not name %s's %s stream:\n%s", name, view, text)
			}
		}
	}
	t.Run("embedded", func(t *testing.T) {
		check(t, []string{"--demo"}, map[string]string{"Shop": "NEW_AND_OLD_IMAGES", "StateLog": "NEW_AND_OLD_IMAGES", "Locations": ""})
	})
	t.Run("moto", func(t *testing.T) {
		srv := mototest.Shared(t)
		both, _ := changesTable(t, srv, types.StreamViewTypeNewAndOldImages)
		keys, _ := changesTable(t, srv, types.StreamViewTypeKeysOnly)
		none, _ := changesTable(t, srv, "")
		check(t, []string{"--endpoint-url", srv.Endpoint, "--region", "us-east-1"}, map[string]string{both: "NEW_AND_OLD_IMAGES", keys: "KEYS_ONLY", none: ""})
	})
}
