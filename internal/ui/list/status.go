package list

import (
	"context"

	"github.com/dynascope/dynascope/internal/ui/common"
)

// Status is a list read in one answer (a partition's versions, a
// stream's changes): its request, "reading…" in the title until the
// answer, then the count, or the failure or cancel where either would
// be; and what search has not seen. A paged list has the same from its
// Pager.
type Status struct {
	Req      Request
	Fail     Failure
	answered bool // the read answered, failed or was cancelled
}

// Start begins the read (a retry or refresh too), cancelling one in
// flight; what was listed stays until the answer.
func (s *Status) Start(c *common.Common) (context.Context, int) {
	s.Fail.Clear()
	return s.Req.Start(c)
}

// Answer takes the answer to request id with its error; false for a
// stale one, which the page drops.
func (s *Status) Answer(id int, err error) bool {
	if !s.Req.Done(id) {
		return false
	}
	s.answered = true
	s.Fail.Fail(err)
	return true
}

// Cancel stops the read in flight (esc), reporting whether there was one.
func (s *Status) Cancel() bool {
	if !s.Req.InFlight() {
		return false
	}
	s.Req.Stop()
	s.answered = true
	s.Fail.Cancel()
	return true
}

// Answered reports whether the read has answered, failed or been
// cancelled: before that nothing is counted.
func (s *Status) Answered() bool { return s.answered }

// Settled reports whether what is listed is the last answer, with no
// read in flight (what export may take).
func (s *Status) Settled() bool { return s.answered && !s.Req.InFlight() }

// Title is what the title says of n rows: "reading…" before the answer,
// the failure or cancel after a stop (with what was loaded before), the
// count otherwise.
func (s *Status) Title(n int, one, many string) string {
	return stateOf(s.Fail, s.answered, n, many, func() string { return common.Plural(n, one, many) })
}

// stateOf is what every list's title says of its n rows (many: what they
// are): the failure or cancel with what was loaded before it, "reading…"
// before the first answer (nothing is counted, nothing is all), and only
// then count's count.
func stateOf(f Failure, answered bool, n int, many string, count func() string) string {
	switch {
	case f.Stopped():
		return f.Title(n, many)
	case !answered:
		return "reading…"
	}
	return count()
}

// Unloaded says what search and the row count have not seen ("" once the
// whole answer is in): the rows still being read, or those a stopped
// read did not reach, so the position reads "of ≥M".
func (s *Status) Unloaded(what string) string {
	switch {
	case s.Fail.Stopped():
		return "the read stopped before its end (r reads again)"
	case !s.answered:
		return what + " still being read"
	}
	return ""
}
