package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

// Exit codes: scripts can tell a typo from an outage.
const (
	exitOK          = 0
	exitFailure     = 1   // the command line was fine; reading failed
	exitUsage       = 2   // the command line was malformed
	exitPartial     = 3   // stopped at a budget: what was printed is true, and not all
	exitInterrupted = 130 // Ctrl-C, as shells report SIGINT; 143 SIGTERM, 129 SIGHUP
)

// checkBudget refuses an RCU budget flag config.BudgetFault refuses (the
// one rule, which the configuration's settings meet too): negative, NaN,
// infinite, absurd, or smaller than the one read unit every request
// costs. noneOK: the flag also takes none, and its hint says so.
func checkBudget(flag string, v float64, noneOK bool) error {
	fault := config.BudgetFault(v)
	switch {
	case fault == "":
		return nil
	case v > 0 && v < config.MinBudget:
		return usage(fmt.Sprintf("the smallest useful budget is %.1f RCU", config.MinBudget), "%s %v %s", flag, v, fault)
	}
	return usage(budgetHint(noneOK, flag), "%s %v %s", flag, v, fault)
}

// partialError is a read that stopped at its budget: what it printed is
// true but not all (exit 3).
type partialError struct{ msg string }

func (e partialError) Error() string { return e.msg }

// stoppedAt is how a stop line starts: what was spent of the budget, and,
// where a read went past it by more than half a read unit, by how much
// and why: "stopped at the budget" beside 18.0 of 5 RCU said the budget
// held where a read met items heavier than any before it.
func stoppedAt(spent, budget float64) string {
	if spent > budget+0.5 {
		return fmt.Sprintf("stopped past the budget: %.1f of %g RCU (%.1f past: a read met items heavier than any read before it, and DynamoDB bills whole items)", spent, budget, spent-budget)
	}
	return fmt.Sprintf("stopped at the budget: %.1f of %g RCU", spent, budget)
}

// spendLimit is a headless command's budget: its flag, its RCU (0: none)
// and the session whose reads it covers.
type spendLimit struct {
	flag    string
	max     float64
	session *dynamo.Session
	// sampled: the command read a sample of the budget's cost, not the
	// whole (entities on a table larger than it), and its line says so.
	sampled bool
}

// readUnder records the budget a headless command reads under, covering
// every read of session.
func (g *globals) readUnder(flag string, max float64, session *dynamo.Session) {
	g.budget = spendLimit{flag: flag, max: max, session: session}
}

// pastBudget is the line for a command that finished whole yet spent
// more than half an RCU past its budget ("" where it did not): a read met
// items heavier than any before it, which the reads are sized by. The
// stop lines say so where a read stopped; a read that finished said
// nothing (a count under --count-budget 5 billed 6.0 RCU, exit 0, no
// word of the budget).
func (g *globals) pastBudget() string {
	b := g.budget
	if b.session == nil {
		return ""
	}
	spent, _ := b.session.Billed()
	read := "read whole"
	if b.sampled {
		read = "sample read"
	}
	return pastBudgetLine(read, spent, b.flag, b.max)
}

// pastBudgetLine is pastBudget's line for spent RCU under flag's budget
// of max RCU, for a read that finished as read says ("read whole").
func pastBudgetLine(read string, spent float64, flag string, max float64) string {
	if max <= 0 || spent <= max+0.5 {
		return ""
	}
	return fmt.Sprintf("dynascope: %s, but %.1f RCU past the budget: %.1f of %s %g as DynamoDB bills it — a read met items heavier than any read before it, and DynamoDB bills whole items", read, spent-max, spent, flag, max)
}

// stoppedAtBilled is stoppedAt for what was spent as DynamoDB bills it
// (billed), saying what the server reported (reported) where that is
// less: dynalite reports nothing for a read that returns no item, which
// DynamoDB bills 0.5 RCU, so the line's figure stood half an RCU a read
// above the stats' consumedRCU with nothing said.
func stoppedAtBilled(billed, reported, budget float64) string {
	return stoppedAt(billed, budget) + reportedLess(billed, reported)
}

// reportedLess says, after a figure billed, what the server reported
// where that is less ("" where it is not).
func reportedLess(billed, reported float64) string {
	if billed <= reported {
		return ""
	}
	return fmt.Sprintf(" as DynamoDB bills it (the server reported %.1f; DynamoDB bills every read at least 0.5 RCU)", reported)
}

// stoppedAtBudget is the one line for a read stopped at its budget, and
// how to go on: resume, where the read can say from where without showing
// a masked key.
func stoppedAtBudget(flag string, b export.Budget, items int, masked bool) error {
	how := fmt.Sprintf("a larger %s", flag)
	if len(b.LastKey) > 0 && !masked {
		how = "--resume " + dynamo.ResumeToken(b.LastKey)
	}
	return partialError{fmt.Sprintf("%s, %d items read, resume with %s", stoppedAt(b.RCU, b.MaxRCU), b.Scanned, how)}
}

// silentExit ends a run with its code and no message: the command has
// said what it found (diff: the sides differ, exit 1, as diff does).
type silentExit struct{ code int }

func (e silentExit) Error() string { return fmt.Sprintf("exit %d", e.code) }

// signalled is the cause of a context cancelled by a signal.
type signalled struct{ sig os.Signal }

func (s signalled) Error() string {
	switch s.sig {
	case syscall.SIGTERM:
		return "stopped by SIGTERM"
	case syscall.SIGHUP:
		return "stopped by SIGHUP (the terminal went away)"
	case os.Interrupt:
		return "interrupted"
	}
	return "stopped by " + s.sig.String()
}

// Interrupted is the cause main cancels the context with when sig
// arrives: Run then exits 128+sig, as shells report it.
func Interrupted(sig os.Signal) error { return signalled{sig} }

// exitCode is what a run cancelled by ctx exits with: 128 plus the
// signal's number, 130 when the cause is not a signal (a test's cancel).
func exitCode(ctx context.Context) int {
	var s signalled
	if errors.As(context.Cause(ctx), &s) {
		if n, ok := s.sig.(syscall.Signal); ok {
			return 128 + int(n)
		}
	}
	return exitInterrupted
}

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
	if err == nil && ctx.Err() != nil {
		// The explorer quits cleanly on SIGTERM; the run was still stopped.
		fmt.Fprintf(stderr, "dynascope: %s\n", export.OneLine(context.Cause(ctx).Error()))
		return exitCode(ctx)
	}
	if err == nil {
		return exitOK
	}
	code := exitFailure
	var ue usageError
	var quiet silentExit
	if errors.As(err, &quiet) {
		return quiet.code
	}
	if errors.Is(err, syscall.EPIPE) {
		// The reader of our output went away (| head -1) where SIGPIPE
		// is ignored: end as the signal would have ended us, quietly.
		return 128 + int(syscall.SIGPIPE)
	}
	switch {
	case errors.As(err, new(partialError)):
		code = exitPartial
	case errors.As(err, &ue):
		code = exitUsage
	case cobraUsage(err):
		code = exitUsage
		err = usageError{what: err.Error(), hint: "see dynascope --help"}
	case ctx.Err() != nil:
		code = exitCode(ctx)
		if cause := context.Cause(ctx); cause != ctx.Err() {
			err = fmt.Errorf("%w (%v)", cause, err)
		}
	}
	fmt.Fprintf(stderr, "dynascope: %s\n", export.OneLine(err.Error()))
	return code
}
