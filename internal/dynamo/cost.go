package dynamo

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Cost is what one operation spent: requests sent, read capacity consumed
// (as the server reported it, and as DynamoDB bills it) and wall time.
type Cost struct {
	Requests int
	RCU      float64
	// Billed is RCU as DynamoDB bills the reads answered (billing.go);
	// Estimated says some read's was more than the server reported.
	Billed    float64
	Estimated bool
	Latency   time.Duration
}

// Add returns the sum of two costs.
func (c Cost) Add(o Cost) Cost {
	return Cost{Requests: c.Requests + o.Requests, RCU: c.RCU + o.RCU, Billed: c.Billed + o.Billed,
		Estimated: c.Estimated || o.Estimated, Latency: c.Latency + o.Latency}
}

// billRead sets what a read answered with items costs as DynamoDB bills it.
func (c *Cost) billRead(items []Item, consistent bool) {
	c.Billed, c.Estimated = BilledRCU(c.RCU, items, consistent)
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
	why     map[string]int // retries by reason, in a few words
	// billed is RCU as DynamoDB bills them: at least 0.5 a read, even of
	// nothing (dynalite reports 0 for an empty Query), and at least what
	// the items sent back weigh (moto reports 1.0 for anything);
	// estimated says some read's figure was made up so.
	billed    float64
	estimated bool
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
	why := retryReason(err)
	s.retry = fmt.Sprintf("retrying (attempt %d failed: %s; backing off)", attempt, why)
	s.retryAt = time.Now()
	s.retries++
	// A retry is one more HTTP request: the totals count what was sent.
	s.total.Requests++
	if s.why == nil {
		s.why = map[string]int{}
	}
	s.why[retryWords(why)]++
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

// RetrySummary says what was retried and why, for a headless command's
// stderr: "3 throttled, 1 network error: retried" ("" when nothing was).
func (s *Session) RetrySummary() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.retries == 0 {
		return ""
	}
	reasons := make([]string, 0, len(s.why))
	for why := range s.why {
		reasons = append(reasons, why)
	}
	sort.Strings(reasons)
	parts := make([]string, len(reasons))
	for i, why := range reasons {
		parts[i] = retriesCounted(s.why[why], why)
	}
	return strings.Join(parts, ", ") + ": retried"
}

// retriesCounted is n retries for one reason, in words that agree with
// n: "1 network error", "2 network errors", "3 throttled", and a code or
// status counted as such ("2 × HTTP 500", "1 × InternalServerError"),
// which no English plural fits.
func retriesCounted(n int, why string) string {
	nouns := map[string][2]string{
		"network error":                   {"network error", "network errors"},
		"damaged answer":                  {"damaged answer", "damaged answers"},
		"the connection broke mid-answer": {"connection broken mid-answer", "connections broken mid-answer"},
		"no answer in time":               {"attempt unanswered in time", "attempts unanswered in time"},
	}
	switch noun, ok := nouns[why]; {
	case ok && n == 1:
		return "1 " + noun[0]
	case ok:
		return fmt.Sprintf("%d %s", n, noun[1])
	case why == "throttled":
		return fmt.Sprintf("%d throttled", n)
	}
	return fmt.Sprintf("%d × %s", n, why)
}

// retryWords groups retry reasons as people say them: every kind of
// throttling is "throttled".
func retryWords(reason string) string {
	switch reason {
	case "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded":
		return "throttled"
	}
	return reason
}

// retryReason is a retry's cause in a few words: the error code, an HTTP
// status, or the network.
func retryReason(err error) string {
	var api smithy.APIError
	var resp *awshttp.ResponseError
	var damaged *ChecksumError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || brokenMidAnswer(err):
		return "the connection broke mid-answer"
	case errors.As(err, &damaged):
		return "damaged answer"
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

// minReadUnits is what DynamoDB bills a read at the least: one
// eventually consistent read unit.
const minReadUnits = 0.5

// recordRead adds one request's cost to the totals and, where r is a
// read that answered, its RCU as DynamoDB bills them (the server's
// figure, or what the read must have cost where it reported less or
// none: BilledRCU), under one lock: a status bar drawn between the two
// counted the request without its cost ("18 req · 9.0 RCU", then 12.5).
func (s *Session) recordRead(c Cost, r *read) {
	var units float64
	est := false
	if r != nil {
		units, est = BilledRCU(c.RCU, r.items, aws.ToBool(r.consistent))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total = s.total.Add(c)
	s.last = c.Latency
	if r != nil {
		s.estimated = s.estimated || est
		s.billed += units
	}
}

// Billed is the session's RCU as DynamoDB bills them; estimated is true
// when some read's figure was below what DynamoDB bills it (its minimum,
// or the size of the items it sent back) and was taken as that.
func (s *Session) Billed() (rcu float64, estimated bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.billed, s.estimated
}

// Totals returns the session's totals and the latency of the latest request.
func (s *Session) Totals() (total Cost, last time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total, s.last
}
