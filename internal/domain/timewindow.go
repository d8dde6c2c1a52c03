package domain

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// WindowError says which of a window's two starts is wrong: the span
// (since), the instant (from), or that both were given.
type WindowError struct {
	Since bool // the span is wrong (else the instant, or Both)
	Both  bool // both were given: a window has one start
	Err   error
}

func (e *WindowError) Error() string { return e.Err.Error() }
func (e *WindowError) Unwrap() error { return e.Err }

// WindowStart reads where a window of time starts, in the range bar's own
// grammar (ParseRange), for the flags that give a start with no end
// (changes' --since and --from): since is a span ending now, read as in
// "last 15m" (15m, 24h, 7d, 2w, 1h30m); from is an instant, read as in
// "since X" (2026-11-24T10:00Z, 2026-11-24, 1536019200, now, 15m ago; loc
// for a time written without a zone). Zero when neither is given; a
// *WindowError when one is wrong or both are given.
func WindowStart(since, from string, now time.Time, loc *time.Location) (time.Time, error) {
	switch {
	case since != "" && from != "":
		return time.Time{}, &WindowError{Both: true, Err: errors.New("a span and an instant both say where to start")}
	case since != "":
		d, err := parseSpan(strings.TrimSpace(since))
		if err != nil {
			return time.Time{}, &WindowError{Since: true, Err: err}
		}
		return now.Add(-d), nil
	case from != "":
		if strings.TrimSpace(from) == "" {
			return time.Time{}, &WindowError{Err: fmt.Errorf("%q is not a time", from)}
		}
		start, _, err := rangeInstant(from, now, loc)
		if err != nil {
			return time.Time{}, &WindowError{Err: err}
		}
		return start, nil
	}
	return time.Time{}, nil
}
