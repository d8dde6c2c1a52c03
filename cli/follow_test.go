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

	"github.com/dynascope/dynascope/dynamo/demo"
	"github.com/dynascope/dynascope/dynamo/dynalitetest"
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
	db := srv.Client()
	ctx := context.Background()
	const table = "FollowedDevices"
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
	put := func(device string, at time.Time, note string) {
		t.Helper()
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{
			"DeviceID": &types.AttributeValueMemberS{Value: device},
			"At":       &types.AttributeValueMemberS{Value: at.UTC().Format(time.RFC3339)},
			"Note":     &types.AttributeValueMemberS{Value: note},
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().Truncate(time.Second)
	put("d1", now.Add(-time.Hour), "first")
	put("d1", now.Add(-30*time.Minute), "second") // the newest the range shows

	const interval = 300 * time.Millisecond
	var out, errb syncBuffer
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan int, 1)
	go func() {
		done <- Run(runCtx, []string{"range", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", table, "--pk", "d1",
			"--last", "2h", "--follow", "--interval", interval.String(), "--overlap", "5s"}, &out, &errb)
	}()
	waitFor := func(what string, ok func(string) bool) {
		t.Helper()
		deadline := time.Now().Add(2*interval + 5*time.Second) // two polls, plus start-up on a busy machine
		for time.Now().Before(deadline) {
			if ok(out.String()) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("%s: stdout %q\nstderr %q", what, out.String(), errb.String())
	}
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
	stop()
	if code := <-done; code != exitInterrupted {
		t.Fatalf("Ctrl+C while following: exit %d, stderr %s", code, errb.String())
	}
	var notes []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		i := strings.Index(line, `"Note":"`)
		notes = append(notes, strings.SplitN(line[i+8:], `"`, 2)[0])
	}
	if got, want := fmt.Sprint(notes), "[second first new newer late]"; got != want {
		t.Fatalf("printed %s, want %s\nstderr: %s", got, want, errb.String())
	}
	if !strings.Contains(errb.String(), "requests/min") {
		t.Fatalf("no cost per minute on stderr: %s", errb.String())
	}
	checkBadInput(t, []string{"--demo", "range", "--table", "DeviceLogs", "--pk", "123", "--last", "1h", "--follow", "--output", "csv"}, 2, "--follow streams JSON lines")
	checkBadInput(t, []string{"--demo", "range", "--table", "DeviceLogs", "--pk", "123", "--last", "1h", "--interval", "2s"}, 2, "go with --follow")
}
