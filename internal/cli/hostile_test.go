package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
	"github.com/dynascope/dynascope/internal/ui"
	"github.com/dynascope/dynascope/internal/ui/uitest"
)

// TestHeadlessThroughHostileServers: a headless command says what it
// retried and counts every HTTP request; an answer too big, damaged or
// with a cursor that does not move on ends it with one line and a
// non-zero exit, rather than filling memory, printing altered data or
// printing the same page forever.
func TestHeadlessThroughHostileServers(t *testing.T) {
	isolateAWS(t)
	srv := dynalitetest.Start(t)
	if _, err := demo.Seed(context.Background(), srv.Client(), demo.Options{Tables: []string{"Equipment"}}); err != nil {
		t.Fatal(err)
	}
	proxy := dynalitetest.NewFaultProxy(srv.Endpoint, 3)
	defer proxy.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	items := []string{"items", "--table", "Equipment", "--pk", demo.LongHistoryPiece, "--endpoint-url", proxy.URL, "--region", "us-east-1"}

	clean, _ := mustRun(t, items...)
	proxy.Set(dynalitetest.FaultThrottling, 0.3)
	before := proxy.Operations()
	out, stderr := mustRun(t, items...)
	sent := 0
	for op, n := range proxy.Operations() {
		sent += n - before[op]
	}
	throttled := proxy.Injected()[dynalitetest.FaultThrottling]
	if out != clean || throttled == 0 {
		t.Fatalf("through %d throttles: %d bytes printed, want %d", throttled, len(out), len(clean))
	}
	if !strings.Contains(stderr, "throttled: retried") {
		t.Errorf("stderr does not say it retried: %s", stderr)
	}
	if st := parseStats(t, stderr); st.requests != sent {
		t.Errorf("stderr says %d requests; %d were sent\n%s", st.requests, sent, stderr)
	}

	for _, c := range []struct {
		fault dynalitetest.Fault
		says  string
	}{
		{dynalitetest.FaultHuge, "MB for one page: not a DynamoDB answer"},
		{dynalitetest.FaultBadCRC, "damaged on the way"},
		{dynalitetest.FaultRepeatCursor, "LastEvaluatedKey"},
	} {
		proxy.Clear()
		proxy.Set(c.fault, 1)
		out, stderr, code := cli(t, append(items, "--limit", "0")...)
		if code == 0 || !strings.Contains(stderr, c.says) {
			t.Errorf("%s: exit %d, stderr %s", c.fault, code, stderr)
		}
		if lines := strings.Count(out, "\n"); lines > strings.Count(clean, "\n") {
			t.Errorf("%s: printed %d lines of a %d-item partition", c.fault, lines, strings.Count(clean, "\n"))
		}
	}
}

// TestStreamsAndListingThroughHostileServers: `changes` through a
// Streams server whose answers are huge, whose cursors never move on or
// whose values are of no type, `tables` through a ListTables cursor that
// repeats and `items` through an empty number, each end with one line
// and a non-zero exit, printing nothing.
func TestStreamsAndListingThroughHostileServers(t *testing.T) {
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	srv := mototest.Shared(t)
	table, write := changesTable(t, srv, types.StreamViewTypeNewAndOldImages)
	for _, sk := range []string{"a", "b", "c"} {
		write(true, av("pk", "A", "sk", sk))
	}
	proxy := dynalitetest.NewFaultProxy(srv.Endpoint, 5)
	defer proxy.Close()
	conn := []string{"--endpoint-url", proxy.URL, "--region", "us-east-1"}
	for _, c := range []struct {
		op    string
		fault dynalitetest.Fault
		args  []string
		says  string
	}{
		{"GetRecords", dynalitetest.FaultHuge, []string{"changes", "--table", table}, "not a DynamoDB answer"},
		{"GetRecords", dynalitetest.FaultRepeatCursor, []string{"changes", "--table", table}, "gave back the shard iterator it was sent"},
		{"DescribeStream", dynalitetest.FaultRepeatCursor, []string{"changes", "--table", table}, "repeated the LastEvaluatedShardId"},
		{"ListTables", dynalitetest.FaultRepeatCursor, []string{"tables"}, "LastEvaluatedTableName"},
		{"Query", dynalitetest.FaultRewrite, []string{"items", "--table", table, "--pk", "A"}, "attribute odd as a number that is not one"},
		{"GetRecords", dynalitetest.FaultRewrite, []string{"changes", "--table", table}, "attribute odd of a type DynamoDB does not have"},
	} {
		proxy.Clear()
		proxy.Rewrite = func(op string, answer map[string]any) {
			if items, _ := answer["Items"].([]any); len(items) > 0 {
				items[0].(map[string]any)["odd"] = map[string]any{"N": ""}
			}
			if recs, _ := answer["Records"].([]any); len(recs) > 0 {
				recs[0].(map[string]any)["dynamodb"].(map[string]any)["NewImage"] = map[string]any{"odd": map[string]any{"Q": 1}}
			}
		}
		proxy.SetHugeBytes(200 << 20)
		proxy.Set(c.fault, 1)
		proxy.OnlyOn(c.op)
		t0 := time.Now()
		out, stderr, code := cli(t, append(c.args, conn...)...)
		t.Logf("%s %s: exit %d in %s", c.op, c.fault, code, time.Since(t0).Round(time.Millisecond))
		if code == 0 || !strings.Contains(stderr, c.says) || strings.Count(stderr, "dynascope:") != 1 {
			t.Errorf("%s %s: exit %d, stderr %s", c.op, c.fault, code, stderr)
		}
		if out != "" {
			t.Errorf("%s %s: printed %q", c.op, c.fault, out)
		}
	}
}

// TestExplorerStopsAtACyclingTableList: the explorer's table list stops
// at the second page when the ListTables cursor repeats (it stayed on
// "connecting" after 3,000 requests). The preflight reads the first page
// only, and the explorer the rest behind its first screen (#37.5): the
// refusal is said where the rest of the list would be, the first page
// listed once.
func TestExplorerStopsAtACyclingTableList(t *testing.T) {
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	srv := dynalitetest.Shared(t)
	createTable(t, srv.Client(), "CyclingList", "SK", types.ScalarAttributeTypeS)
	proxy := dynalitetest.NewFaultProxy(srv.Endpoint, 9)
	defer proxy.Close()
	proxy.Set(dynalitetest.FaultRepeatCursor, 1)
	proxy.OnlyOn("ListTables")
	saved := runExplorer
	defer func() { runExplorer = saved }()
	var screen string
	runExplorer = func(ctx context.Context, cfg ui.Config) error {
		m := ui.New(cfg)
		uitest.Send(t, m, tea.WindowSizeMsg{Width: 120, Height: 35})
		uitest.Drive(t, m, m.Init())
		screen = uitest.Screen(m)
		return nil
	}
	mustRun(t, "--endpoint-url", proxy.URL, "--region", "us-east-1")
	if !strings.Contains(screen, "read failed") || strings.Count(screen, "CyclingList") != 1 {
		t.Errorf("the explorer's table list did not stop at the second page, or listed the refused page:\n%s", screen)
	}
	if n := proxy.Operations()["ListTables"]; n > 2 {
		t.Errorf("%d ListTables requests", n)
	}
}
