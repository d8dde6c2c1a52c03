package list

import (
	"errors"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// TestStatusCountsWhatItSays: before the answer a one-answer list says
// reading… and that rows are still being read; after it, its count; after
// a failure or esc, the failure, and that the rows are not all read.
func TestStatusCountsWhatItSays(t *testing.T) {
	n := 0
	c := &common.Common{NextID: func() int { n++; return n }}
	var s Status
	_, id := s.Start(c)
	if got := s.Title(0, "change", "changes"); got != "reading…" {
		t.Errorf("before the answer: %q", got)
	}
	if s.Unloaded("the stream is") == "" || s.Settled() {
		t.Error("before the answer the list says it holds everything")
	}
	if s.Answer(id+1, nil) {
		t.Error("a stale answer was taken")
	}
	if !s.Answer(id, nil) || s.Title(2, "change", "changes") != "2 changes" || s.Unloaded("x") != "" || !s.Settled() {
		t.Errorf("after the answer: %q, %q", s.Title(2, "change", "changes"), s.Unloaded("x"))
	}
	_, id = s.Start(c)
	s.Answer(id, errors.New("boom"))
	if got := s.Title(1, "change", "changes"); got != "read failed · 1 change loaded before · r retries" {
		t.Errorf("after a failure: %q", got)
	}
	if s.Unloaded("x") == "" {
		t.Error("after a failure the list says it holds everything")
	}
	s.Start(c)
	if !s.Cancel() || s.Cancel() || s.Title(0, "change", "changes") != "read cancelled · nothing loaded · r reads on" {
		t.Errorf("after esc: %q", s.Title(0, "change", "changes"))
	}
}

// TestFailureOffersRWhereItHelps: a failed read says r retries; the
// explorer's own refusal of what was asked (a comparison of tables with
// other keys) does not, since r asks the same again: its hint says what
// to do. A server's refusal keeps r (the test's ValidationException).
func TestFailureOffersRWhereItHelps(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{errors.New("boom"), "read failed · nothing loaded · r retries"},
		{dynamo.Errorf("compare", dynamo.KindValidation, "compare tables with the same key", "AuditLog has another key than Shop"), "read failed · nothing loaded"},
		{&dynamo.Error{Op: "query", Kind: dynamo.KindValidation, Msg: "ValidationException", Err: errors.New("ValidationException")}, "read failed · nothing loaded · r retries"},
	} {
		var f Failure
		f.Fail(c.err)
		if got := f.Title(0, "keys"); got != c.want {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
	}
}
