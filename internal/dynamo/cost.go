package dynamo

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Cost is what one operation spent: requests sent, read capacity consumed
// (as DynamoDB reported it) and wall time.
type Cost struct {
	Requests int
	RCU      float64
	Latency  time.Duration
}

// Add returns the sum of two costs.
func (c Cost) Add(o Cost) Cost {
	return Cost{Requests: c.Requests + o.Requests, RCU: c.RCU + o.RCU, Latency: c.Latency + o.Latency}
}

func capacityUnits(cc *types.ConsumedCapacity) float64 {
	if cc == nil || cc.CapacityUnits == nil {
		return 0
	}
	return *cc.CapacityUnits
}

// Session keeps the running totals of a session: every request made through
// a Metered client is counted here. It is safe for concurrent use.
type Session struct {
	mu      sync.Mutex
	total   Cost
	last    time.Duration
	retry   string // why the latest retry happened
	retryAt time.Time
	retries int
	// Log, if set, receives a line per request and per retry (the opt-in
	// debug log). Nothing secret or from the items is ever in it.
	Log func(format string, args ...any)
}

func (s *Session) logf(format string, args ...any) {
	if s != nil && s.Log != nil {
		s.Log(format, args...)
	}
}

// retryShown is how long the status bar says a retry is under way.
const retryShown = 3 * time.Second

// NoteRetry records that a request is being retried, and why; it fits
// Target.OnRetry.
func (s *Session) NoteRetry(attempt int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.retry = fmt.Sprintf("retrying (attempt %d failed: %s)", attempt, retryReason(err))
	s.retryAt = time.Now()
	s.retries++
	if s.Log != nil {
		s.Log("%s", s.retry)
	}
}

// Retrying says why a request is being retried, while a retry is recent.
func (s *Session) Retrying() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.retry == "" || time.Since(s.retryAt) > retryShown {
		return "", false
	}
	return s.retry, true
}

// Retries is how many retries the session has made.
func (s *Session) Retries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.retries
}

// retryReason is a retry's cause in a few words: the error code, an HTTP
// status, or the network.
func retryReason(err error) string {
	var api smithy.APIError
	var resp *awshttp.ResponseError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection broke mid-answer"
	case errors.As(err, &api) && api.ErrorCode() != "" && api.ErrorCode() != "UnknownError":
		return api.ErrorCode()
	case errors.As(err, &resp) && resp.HTTPStatusCode() > 0:
		return fmt.Sprintf("HTTP %d", resp.HTTPStatusCode())
	case timedOut(err):
		return "no answer in time" // a silent server is not a network error
	}
	return "network error"
}

// Record adds one request's cost to the totals.
func (s *Session) Record(c Cost) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total = s.total.Add(c)
	s.last = c.Latency
}

// Totals returns the session's totals and the latency of the latest request.
func (s *Session) Totals() (total Cost, last time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total, s.last
}
