package dynamo

import (
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

// TestRetryReasonTimeout: an attempt that ran out of its deadline retries
// "no answer in time", not "network error"; a refused connection is still
// the network's.
func TestRetryReasonTimeout(t *testing.T) {
	if got := retryReason(&net.OpError{Op: "read", Net: "tcp", Err: timeoutErr{}}); got != "no answer in time" {
		t.Errorf("a read that timed out: %q", got)
	}
	if got := retryReason(&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}); got != "network error" {
		t.Errorf("a refused dial: %q", got)
	}
}

// TestRetrySummaryPlurals: the headless commands' last line counts each
// reason in words that agree with its number ("2 network errors", not
// "2 network error"), and a code or status as a count of it.
func TestRetrySummaryPlurals(t *testing.T) {
	cases := []struct {
		errs []error
		want string
	}{
		{[]error{errors.New("reset")}, "1 network error: retried"},
		{[]error{errors.New("reset"), errors.New("reset")}, "2 network errors: retried"},
		{[]error{&ChecksumError{}, &ChecksumError{}}, "2 damaged answers: retried"},
		{[]error{io.ErrUnexpectedEOF, io.ErrUnexpectedEOF}, "2 connections broken mid-answer: retried"},
		// A 200 whose body read was reset (or closed under it): the
		// network, not "HTTP 200".
		{[]error{resetAfter(200, net.ErrClosed), resetAfter(200, syscall.ECONNRESET)}, "2 connections broken mid-answer: retried"},
		{[]error{&net.OpError{Op: "read", Net: "tcp", Err: timeoutErr{}}}, "1 attempt unanswered in time: retried"},
		{[]error{httpStatus(500), httpStatus(500)}, "2 × HTTP 500: retried"},
		{[]error{apiCode("ThrottlingException"), apiCode("ProvisionedThroughputExceededException"), apiCode("RequestLimitExceeded")}, "3 throttled: retried"},
		{[]error{apiCode("InternalServerError"), apiCode("InternalServerError"), errors.New("reset")},
			"2 × InternalServerError, 1 network error: retried"},
	}
	for _, c := range cases {
		s := &Session{}
		for i, err := range c.errs {
			s.NoteRetry(i+1, err)
		}
		if got := s.RetrySummary(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func apiCode(code string) error { return &smithy.GenericAPIError{Code: code, Message: "m"} }

func resetAfter(code int, cause error) error {
	return &awshttp.ResponseError{ResponseError: &smithyhttp.ResponseError{
		Response: &smithyhttp.Response{Response: &http.Response{StatusCode: code}}, Err: &net.OpError{Op: "read", Net: "tcp", Err: cause}}}
}

func httpStatus(code int) error {
	return &awshttp.ResponseError{ResponseError: &smithyhttp.ResponseError{
		Response: &smithyhttp.Response{Response: &http.Response{StatusCode: code}}, Err: errors.New("status")}}
}
