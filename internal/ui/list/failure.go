package list

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/aws/aws-sdk-go-v2/aws/retry"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// Failure is why a view's read stopped before its end: an error, or the
// user's esc. A view with a Failure says so in its title and where its rows
// would be, with what it had loaded before, so that a cut-off read never
// looks like an empty or complete one.
type Failure struct {
	Err       error
	Cancelled bool
	// again is what r does after a cancel where it reads from the start
	// ("r compares again"); "" says "r reads on". Set on a copy for
	// drawing (Again), from a list's Words.Again.
	again string
}

// Fail records err as the view's failure; a cancellation, whether esc or a
// context's, reads as cancelled. nil clears it.
func (f *Failure) Fail(err error) {
	*f = Failure{Err: err, Cancelled: err != nil && (errors.Is(err, context.Canceled) || dynamo.KindOf(err) == dynamo.KindCancelled)}
}

// Again is f as a view says it where r reads from the start after a
// cancel, not on from where esc stopped the read: words ("r reads
// again") in place of "r reads on".
func (f Failure) Again(words string) Failure {
	if words != "" {
		f.again = words
	}
	return f
}

// SetAgain says what r does after this cancel where the page knows only
// then that r reads from the start (a tree cut off before its delimiter
// was found): "r reads again"; a list's Words.Again, when set, wins.
func (f *Failure) SetAgain(words string) { f.again = words }

// Cancel records that the user stopped the read.
func (f *Failure) Cancel() { *f = Failure{Cancelled: true} }

func (f *Failure) Clear() { *f = Failure{} }

// Stopped reports whether the view's last read failed or was cancelled.
func (f Failure) Stopped() bool { return f.Err != nil || f.Cancelled }

// Refused reports whether the read was the explorer's own refusal (tables
// of different keys compared): r would be refused again, so no help
// offers it.
func (f Failure) Refused() bool { return f.Err != nil && refused(f.Err) }

// headline is the failure in a few words, from the error itself: how many
// attempts were made, and for a request nobody answered, where it went and
// how long it waited.
func (f Failure) headline() string {
	if f.Cancelled {
		return "read cancelled"
	}
	return FailureText(f.Err)
}

// FailureText says what went wrong with a read, from its error: "no answer
// from HOST after 10s" for a request that timed out, "read failed after 3
// attempts: ThrottlingException: …" when the SDK gave up retrying.
func FailureText(err error) string {
	short, detail := failureWords(err)
	if detail == "" {
		return short
	}
	return short + ": " + detail
}

// failureWords splits the failure into what a title has room for (how the
// read ended: after how many attempts, or which host never answered) and
// the error's own words.
func failureWords(err error) (short, detail string) {
	if err == nil {
		return "", ""
	}
	detail = err.Error()
	var e *dynamo.Error
	if errors.As(err, &e) {
		detail = e.Msg
	}
	short = "read failed"
	var lf *dynamo.LoadFailedError
	if errors.As(err, &lf) {
		short = "load failed"
	}
	var attempts *retry.MaxAttemptsError
	if errors.As(err, &attempts) && attempts.Attempt > 1 {
		short = fmt.Sprintf("read failed after %d attempts", attempts.Attempt)
	}
	var na *dynamo.NoAnswerError
	if errors.As(err, &na) { // the connection's own deadline ran out on every attempt
		return na.Error(), ""
	}
	if host, ok := noAnswer(err); ok {
		detail = "no answer from " + host
		if attempts != nil && attempts.Attempt > 1 {
			detail += fmt.Sprintf(" (%d attempts)", attempts.Attempt)
		}
		return detail, ""
	}
	return short, detail
}

// RetriedOrUnanswered reports whether err says more through FailureText
// than through its own message: the SDK gave up after retries, or nobody
// answered in time.
func RetriedOrUnanswered(err error) bool {
	var attempts *retry.MaxAttemptsError
	var na *dynamo.NoAnswerError
	_, timedOut := noAnswer(err)
	return timedOut || errors.As(err, &na) || (errors.As(err, &attempts) && attempts.Attempt > 1)
}

// noAnswer finds a request that timed out without the connection's own
// deadline (a context's): the host it went to.
func noAnswer(err error) (host string, ok bool) {
	var ue *url.Error
	var ne net.Error
	timedOut := errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
	if !timedOut {
		return "", false
	}
	host = "the endpoint"
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil && u.Host != "" {
			host = u.Host
		}
	}
	return host, true
}

// Title is the failure for a view's Title: the headline, what was loaded
// before and what r does.
func (f Failure) Title(loaded int, unit string) string {
	parts := f.parts(loaded, unit)
	if !f.Cancelled { // how it ended; the error's words are in the body
		parts[0], _ = failureWords(f.Err)
	}
	return strings.Join(parts, " · ")
}

// Line is the failure in one Line: the whole headline, then what was
// loaded and what r does.
func (f Failure) Line(loaded int, unit string) string {
	return strings.Join(f.parts(loaded, unit), " · ")
}

func (f Failure) parts(loaded int, unit string) []string {
	parts := []string{f.headline()}
	if loaded > 0 {
		one := strings.TrimSuffix(unit, "s")
		if unit == "children" {
			one = "child"
		}
		parts = append(parts, common.Plural(loaded, one, unit)+" loaded before")
	} else {
		parts = append(parts, "nothing loaded")
	}
	if next := f.next(); next != "" {
		return append(parts, next)
	}
	return parts // r would ask the same again; the refusal's hint says what to do
}

// next is what to do after the failure, as its title says it: what r
// does, or "" where r would be refused again.
func (f Failure) next() string {
	var lf *dynamo.LoadFailedError
	switch {
	case f.Cancelled && f.again != "":
		return f.again
	case f.Cancelled:
		return "r reads on"
	case errors.As(f.Err, &lf): // a retry reads the same failed load
		return "fix the file, then reopen"
	case refused(f.Err):
		return ""
	}
	return "r retries"
}

// AgainKey is r as the help offers it in column group: after a failure
// or a cancel, on the help line and named as the title says what it
// does (the title's "r reads on" is "r read on"), where a list's title
// offered r that the help line left to ?; otherwise in ? alone.
func (f Failure) AgainKey(group int, r key.Binding) common.Key {
	verb, rest, _ := strings.Cut(strings.TrimPrefix(f.next(), "r "), " ")
	what, ok := map[string]string{"reads": "read", "compares": "compare", "retries": "retry"}[verb]
	if !f.Stopped() || !strings.HasPrefix(f.next(), "r ") || !ok {
		return common.More(group, r)
	}
	if rest != "" {
		what += " " + rest
	}
	return common.Line(group, key.NewBinding(key.WithKeys(r.Keys()...), key.WithHelp(r.Help().Key, what)))
}

// refused reports whether err is the explorer's own refusal of what was
// asked (comparing tables of different keys), no server's answer: asking
// again is refused again.
func refused(err error) bool {
	var e *dynamo.Error
	return errors.As(err, &e) && e.Kind == dynamo.KindValidation && e.Err == nil
}

// Body is the failure where the view's rows would be, wrapped to width,
// with the error's hint.
func (f Failure) Body(st *common.Styles, loaded int, unit string, width int) string {
	lines := []string{st.ErrorTitle.Render(common.Wrap(common.Sanitize(f.headline()), width))}
	var e *dynamo.Error
	if !f.Cancelled && errors.As(f.Err, &e) && e.Hint != "" {
		lines = append(lines, st.Dim.Render(common.Wrap(common.Sanitize(explorerHint(e.Hint)), width)))
	}
	rest := f.parts(loaded, unit)[1:]
	lines = append(lines, "", st.Dim.Render(common.Wrap(strings.Join(rest, " · "), width)))
	return strings.Join(lines, "\n")
}

// Below is the failure in one line below the rows loaded before it, cut
// to width.
func (f Failure) Below(st *common.Styles, loaded int, unit string, width int) string {
	return st.ErrorTitle.Render(common.MiddleCut(common.Sanitize(f.Line(loaded, unit)), width))
}

// InPlace is what a list that stopped shows where its rows would be:
// the failure alone (Body) when nothing was loaded, else rows (the rows
// loaded before, drawn one line shorter: LineBelow) and the failure in a
// line below them.
func (f Failure) InPlace(st *common.Styles, rows string, loaded int, unit string, width int) string {
	if loaded == 0 {
		return f.Body(st, 0, unit, width)
	}
	return rows + "\n" + f.Below(st, loaded, unit, width)
}

// LineBelow is the lines the failure takes below a list's rows: one
// when it stopped after loading some, none otherwise.
func (f Failure) LineBelow(loaded int) int {
	if f.Stopped() && loaded > 0 {
		return 1
	}
	return 0
}

// explorerHint rewords a hint written for the command line: inside the
// explorer there are no flags to pass.
func explorerHint(h string) string {
	return common.ExplorerWords(h)
}
