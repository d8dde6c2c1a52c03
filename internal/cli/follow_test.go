package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

// syncBuffer is a buffer the command writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRangeFollow: on dynalite, range --follow prints the range, then each
// item written while it runs exactly once, in the order they arrive, within
// two poll intervals: a late item whose key is older than the newest (inside
// the overlap) included, an item of another partition never. Ctrl+C ends it
// as an interruption.
func TestRangeFollow(t *testing.T) {
	isolateAWS(t)
	srv := dynalitetest.Shared(t)
	const table = "FollowedDevices"
	put := followTable(t, srv, table)
	now := time.Now().Truncate(time.Second)
	put("d1", now.Add(-time.Hour), "first")
	put("d1", now.Add(-30*time.Minute), "second") // the newest the range shows

	const interval = 300 * time.Millisecond
	out, errb, waitFor, stop := runFollow(t, srv, table, interval)
	waitFor("the range", func(s string) bool { return strings.Contains(s, "second") })
	waitFor("following", func(string) bool { return strings.Contains(errb.String(), "following") })
	put("d1", now.Add(time.Second), "new")
	put("d2", now.Add(2*time.Second), "other device")
	waitFor("the new item", func(s string) bool { return strings.Contains(s, `"new"`) })
	put("d1", now.Add(3*time.Second), "newer")
	waitFor("the newer item", func(s string) bool { return strings.Contains(s, "newer") })
	put("d1", now.Add(2*time.Second), "late") // older than the newest, inside the overlap
	waitFor("the late item", func(s string) bool { return strings.Contains(s, "late") })
	time.Sleep(3 * interval) // more polls: nothing may come twice
	if code := stop(); code != exitInterrupted {
		t.Fatalf("Ctrl+C while following: exit %d, stderr %s", code, errb.String())
	}
	if line := firstLine(errb.String(), "following Query"); !strings.Contains(line, "for keys newer than the newest printed (Ctrl+C stops)") || strings.Contains(line, "BETWEEN") {
		t.Errorf("the following line repeats the range's condition, which polls go past: %q", line)
	}
	if got, want := fmt.Sprint(notes(out.String())), "[second first new newer late]"; got != want {
		t.Fatalf("printed %s, want %s\nstderr: %s", got, want, errb.String())
	}
	// Seconds of following are no ground for a rate per minute.
	if !strings.Contains(errb.String(), "RCU so far") || strings.Contains(errb.String(), "/min") {
		t.Fatalf("the cost so far is not what stderr says: %s", errb.String())
	}
	checkBadInput(t, []string{"--demo", "range", "--table", "DeviceLogs", "--pk", "123", "--last", "1h", "--follow", "--output", "csv"}, 2, "--follow streams JSON lines")
	checkBadInput(t, []string{"--demo", "range", "--table", "DeviceLogs", "--pk", "123", "--last", "1h", "--interval", "2s"}, 2, "go with --follow")
}

// TestRangeFollowEveryPrefix: where several prefixes come before the time
// (STATE#time) and none is given, the merged range is followed on every
// prefix: a new item under any of them is printed once.
func TestRangeFollowEveryPrefix(t *testing.T) {
	isolateAWS(t)
	srv := dynalitetest.Shared(t)
	const table = "FollowedStates"
	put := followTable(t, srv, table)
	now := time.Now().Truncate(time.Second)
	at := func(state string, d time.Duration) time.Time { return now.Add(d) }
	putState := func(state string, d time.Duration, note string) {
		put("d1", at(state, d), note, state+"#")
	}
	putState("NORMAL", -time.Hour, "normal old")
	putState("WARNING1", -50*time.Minute, "warning old")
	out, errb, waitFor, stop := runFollow(t, srv, table, 300*time.Millisecond)
	waitFor("following", func(string) bool { return strings.Contains(errb.String(), "following") })
	putState("WARNING1", time.Second, "warning new")
	putState("NORMAL", 2*time.Second, "normal new")
	waitFor("both new items", func(s string) bool { return strings.Contains(s, "warning new") && strings.Contains(s, "normal new") })
	time.Sleep(time.Second)
	stop()
	// The line names what the polls read: the prefixes, and keys past the
	// newest printed, not the range's condition (which polls go past).
	line := firstLine(errb.String(), "following Query")
	if !strings.Contains(line, "under 2 prefixes (NORMAL# WARNING1#)") || strings.Contains(line, "BETWEEN") || strings.Contains(line, ":lo") {
		t.Errorf("the following line does not say what is polled: %q", line)
	}
	got := notes(out.String())
	if len(got) != 4 || got[0] != "warning old" || got[1] != "normal old" {
		t.Fatalf("printed %q\nstderr: %s", got, errb.String())
	}
}

// followTable makes a Device/At table on dynalite and returns a writer of
// one item (At as ISO text after an optional prefix).
func followTable(t *testing.T, srv *dynalitetest.Server, table string) func(device string, at time.Time, note string, prefix ...string) {
	t.Helper()
	db := srv.Client()
	ctx := context.Background()
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String(table),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("DeviceID"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("At"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("DeviceID"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("At"), KeyType: types.KeyTypeRange}},
		BillingMode: types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.WaitActive(ctx, db, table); err != nil { // dynalite creates tables asynchronously
		t.Fatal(err)
	}
	return func(device string, at time.Time, note string, prefix ...string) {
		t.Helper()
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{
			"DeviceID": &types.AttributeValueMemberS{Value: device},
			"At":       &types.AttributeValueMemberS{Value: strings.Join(prefix, "") + at.UTC().Format(time.RFC3339)},
			"Note":     &types.AttributeValueMemberS{Value: note},
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// runFollow runs range --last 2h --follow on d1 in the background; waitFor
// waits (two polls, plus start-up on a busy machine) for stdout to hold
// something, and stop sends Ctrl+C and returns the exit code.
func runFollow(t *testing.T, srv *dynalitetest.Server, table string, interval time.Duration) (out, errb *syncBuffer, waitFor func(string, func(string) bool), stop func() int) {
	out, errb = &syncBuffer{}, &syncBuffer{}
	runCtx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- Run(runCtx, []string{"range", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", table, "--pk", "d1",
			"--last", "2h", "--follow", "--interval", interval.String(), "--overlap", "5s"}, out, errb)
	}()
	stopped := false
	stop = func() int {
		cancel()
		if stopped {
			return exitInterrupted
		}
		stopped = true
		return <-done
	}
	t.Cleanup(func() { stop() })
	waitFor = func(what string, ok func(string) bool) {
		t.Helper()
		deadline := time.Now().Add(2*interval + 5*time.Second)
		for time.Now().Before(deadline) {
			if ok(out.String()) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("%s: stdout %q\nstderr %q", what, out.String(), errb.String())
	}
	return out, errb, waitFor, stop
}

// notes are the Note attributes of printed items, in order.
func notes(out string) []string {
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		i := strings.Index(line, `"Note":"`)
		if i >= 0 {
			got = append(got, strings.SplitN(line[i+8:], `"`, 2)[0])
		}
	}
	return got
}

// TestRangeFollowRefusesAnEndedRange: --follow prints what is written from
// now on, so a range that ended before now (--at a past month, --before,
// --from/--to in the past) could only print items outside it. It is refused
// in one line before any request (the endpoint is a closed port: a request
// would fail otherwise); a range open at its end, or --last, follows.
func TestRangeFollowRefusesAnEndedRange(t *testing.T) {
	isolateAWS(t)
	closed := []string{"--endpoint-url", "http://127.0.0.1:1", "--region", "us-east-1", "range", "--table", "T", "--pk", "d1", "--follow"}
	for _, tc := range []struct {
		args []string
		end  string
	}{
		{[]string{"--at", "2018-08"}, "ends 2018-08-31 23:59:59 UTC"},
		{[]string{"--before", "2018-09-04"}, "ends 2018-09-04 00:00:00 UTC"},
		{[]string{"--after", "2018-01-01", "--before", "2018-09-04"}, "more than one time range"},
		{[]string{"--from", "2018-08-01", "--to", "2018-08-02"}, "ends 2018-08-02 23:59:59 UTC"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			checkBadInput(t, append(append([]string{}, closed...), tc.args...), 2, tc.end)
		})
	}
	// Open at the end, or counted back from now: following is what they mean,
	// so they get past the check and reach the (closed) endpoint.
	for _, open := range [][]string{{"--after", "2018-01-01"}, {"--last", "15m"}, {"--from", "2018-01-01", "--to", "2999-01-01"}} {
		_, errs, _ := cli(t, append(append([]string{}, closed...), open...)...)
		if strings.Contains(errs, "in the past") {
			t.Errorf("%v refused as ended: %s", open, errs)
		}
	}
}

// firstLine is the first line of s holding sub, or "".
func firstLine(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
