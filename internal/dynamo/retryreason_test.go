package dynamo

import (
	"errors"
	"net"
	"testing"
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
