package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dynascope/dynascope/export"
)

// Exit codes: scripts can tell a typo from an outage.
const (
	exitOK          = 0
	exitFailure     = 1   // the command line was fine; reading failed
	exitUsage       = 2   // the command line was malformed
	exitInterrupted = 130 // Ctrl-C, as shells report SIGINT
)

// usageError is a malformed command line: what is wrong and what to do.
type usageError struct{ what, hint string }

func (e usageError) Error() string {
	if e.hint == "" {
		return e.what
	}
	return e.what + " — " + e.hint
}

func usage(hint, format string, args ...any) error {
	return usageError{what: fmt.Sprintf(format, args...), hint: hint}
}

// cobraUsage recognises the errors cobra itself returns for a malformed
// command line (those that do not pass through the flag error hook).
func cobraUsage(err error) bool {
	s := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument", "required flag"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// report prints err as one line on stderr and returns the exit code.
func report(ctx context.Context, stderr interface{ Write([]byte) (int, error) }, err error) int {
	if err == nil {
		return exitOK
	}
	code := exitFailure
	var ue usageError
	switch {
	case errors.As(err, &ue):
		code = exitUsage
	case cobraUsage(err):
		code = exitUsage
		err = usageError{what: err.Error(), hint: "see dynascope --help"}
	case ctx.Err() != nil:
		code = exitInterrupted
	}
	fmt.Fprintf(stderr, "dynascope: %s\n", export.OneLine(err.Error()))
	return code
}
