package dynamo_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

// TestThrottleBudget: a session with a throttle budget (the explorer's)
// rides out a throttling storm longer than the SDK's three attempts and
// says it is backing off, each read on its own budget; any other
// failure still stops at three attempts, and a headless client keeps
// three for everything.
func TestThrottleBudget(t *testing.T) {
	ctx := context.Background()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	proxy := dynalitetest.NewFaultProxy(dynalitetest.Shared(t).Endpoint, 27)
	t.Cleanup(proxy.Close)
	connect := func(throttleAttempts int, s *dynamo.Session) *dynamodb.Client {
		c, _, err := dynamo.Connect(ctx, dynamo.Target{Region: "us-east-1", EndpointURL: proxy.URL, ThrottleAttempts: throttleAttempts,
			MaxBackoff: 5 * time.Millisecond, OnRetry: s.NoteRetry})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	explorer, headless := &dynamo.Session{}, &dynamo.Session{}
	for _, c := range []struct {
		name     string
		client   *dynamodb.Client
		fault    dynalitetest.Fault
		storm    int
		attempts int // sent
		ok       bool
	}{
		{"explorer through 8 throttles", connect(10, explorer), dynalitetest.FaultThrottling, 8, 9, true},
		{"explorer through 8 PTEE", connect(10, explorer), dynalitetest.FaultPTEE, 8, 9, true},
		{"explorer, 12 throttles", connect(10, explorer), dynalitetest.FaultThrottling, 12, 10, false},
		{"explorer, 8 HTTP 500", connect(10, explorer), dynalitetest.FaultHTTP500, 8, 3, false},
		{"headless, 8 throttles", connect(0, headless), dynalitetest.FaultThrottling, 8, 3, false},
	} {
		proxy.Clear()
		before := proxy.Operations()["ListTables"]
		proxy.FailNext(c.storm, c.fault)
		_, err := c.client.ListTables(ctx, &dynamodb.ListTablesInput{})
		sent := proxy.Operations()["ListTables"] - before
		if (err == nil) != c.ok || sent != c.attempts {
			t.Errorf("%s: %d attempts sent, error %v; want %d, ok %v", c.name, sent, err, c.attempts, c.ok)
		}
		var max *retry.MaxAttemptsError
		if !c.ok && (!errors.As(err, &max) || max.Attempt != c.attempts) {
			t.Errorf("%s: %v is not a give-up after %d attempts", c.name, err, c.attempts)
		}
	}
	if why, ok := explorer.Retrying(); !ok || !strings.Contains(why, "backing off") {
		t.Errorf("the explorer's session does not say it is backing off: %q", why)
	}
}
