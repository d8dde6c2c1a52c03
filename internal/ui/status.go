package ui

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// said is a status-bar message, kept for ? (the last ten): its words
// and, for a note, the detail the status bar may leave out.
type said struct {
	text, detail string
	err          bool
}

// whole is the message with its detail, as ? shows it.
func (s said) whole() string {
	if s.detail == "" {
		return s.text
	}
	return s.text + " · " + s.detail
}

// keptMessages is how many messages ? shows.
const keptMessages = 10

// say shows a passing note (what was copied, exported): the newest message
// wins, so it replaces an error shown before.
func (m *Model) say(text string) { m.sayMore(text, "") }

// sayMore shows a note and, where there is room, its detail.
func (m *Model) sayMore(text, detail string) {
	m.notice, m.noticeMore, m.noticeResult, m.lastErr = text, detail, "", nil
	m.remember(said{text: text, detail: detail})
}

// sayWhy shows a refusal and its reason ("No Versions mode here: no sort
// key here begins with v"), whole in ?'s history; the bar cuts the reason
// only at a clause.
func (m *Model) sayWhy(result, why string) {
	m.say(result + ": " + why)
	m.noticeResult = result
}

// fail shows a failed request of page (0: none) until the next key; r
// retries that page while it is on top.
func (m *Model) fail(err error, page int) {
	m.notice, m.noticeMore, m.noticeResult, m.lastErr, m.errPage = "", "", "", err, page
	m.remember(said{text: errorText(err), err: true})
}

func (m *Model) remember(s said) {
	if n := len(m.said); n > 0 && m.said[n-1] == s {
		return // the same message again: once is enough
	}
	m.said = append(m.said, s)
	if len(m.said) > keptMessages {
		m.said = m.said[len(m.said)-keptMessages:]
	}
}

// errorText is an error as the status bar words it, without styles.
func errorText(err error) string {
	var e *dynamo.Error
	if errors.As(err, &e) {
		s := e.Op + ": " + e.Msg
		if e.Hint != "" {
			s += " — " + e.Hint
		}
		return common.ExplorerWords(s)
	}
	return common.ExplorerWords(err.Error())
}

// messagesView is the last messages, newest first, for ?: each whole,
// wrapped, within at most room lines (the newest first; what does not fit
// is counted).
func (m *Model) messagesView(room int) string {
	if len(m.said) == 0 || room < 2 {
		return ""
	}
	st := &m.styles
	lines := []string{st.Dim.Render("last messages, newest first:")}
	for i := len(m.said) - 1; i >= 0; i-- {
		s := m.said[i]
		style := st.StatusHint
		if s.err {
			style = st.StatusErr
		}
		wrapped := strings.Split(common.Wrap(common.Sanitize(s.whole()), max(10, m.w-4)), "\n")
		if len(lines)+len(wrapped) > room-1 && i > 0 || len(lines)+len(wrapped) > room {
			lines = append(lines, st.Dim.Render(fmt.Sprintf("  … %s, not shown: a taller terminal shows them", common.Plural(i+1, "older message", "older messages"))))
			break
		}
		for j, l := range wrapped {
			lead := "  "
			if j > 0 {
				lead = "    "
			}
			lines = append(lines, components.Fit(lead+style.Render(l), m.w))
		}
	}
	return strings.Join(lines, "\n")
}

// statusMessage is the message shown now, fitted to width: what went wrong
// (or what was done) whole where it fits, the hint's middle cut first,
// then the message's own; never its end, which says what to do.
func (m *Model) statusMessage(width int) string {
	st := &m.styles
	var lead, what, hint string
	detail := ""                // a note's detail, plain: cut at its end where it is not a path
	var whatErr, hintErr string // an error's words and hint, plain: cut at words, the last clause whole
	switch {
	case m.lastErr != nil:
		var e *dynamo.Error
		if errors.As(m.lastErr, &e) {
			if e.Kind == dynamo.KindThrottled || e.Kind == dynamo.KindUnreachable {
				lead = st.StatusHint.Render("r retries from where it stopped · ")
			}
			msg := e.Msg
			if list.RetriedOrUnanswered(m.lastErr) {
				msg = list.FailureText(m.lastErr) // as the view that was waiting says it
			}
			whatErr = common.Sanitize(common.ExplorerWords(e.Op + ": " + msg))
			var short common.Shortened
			if ansi.StringWidth(lead+whatErr) > width-1 && errors.As(m.lastErr, &short) {
				whatErr = common.Sanitize(common.ExplorerWords(e.Op + ": " + short.Short))
			}
			what = st.StatusErr.Render(whatErr)
			if e.Hint != "" {
				hintErr = " — " + common.Sanitize(common.ExplorerWords(e.Hint))
				hint = st.StatusHint.Render(hintErr)
			}
		} else {
			what = st.StatusErr.Render(common.Sanitize(common.ExplorerWords(m.lastErr.Error())))
		}
	case m.notice != "":
		// Notes are the explorer's own words, the result first: the
		// detail (how it was sent, the aws command) is cut first, then
		// the note's end; ? shows both whole.
		what = st.StatusHint.Render(common.Sanitize(m.notice))
		if m.noticeMore != "" {
			hint = st.Dim.Render(" · " + common.Sanitize(m.noticeMore))
			detail = common.Sanitize(m.noticeMore)
		}
		if ansi.StringWidth(what) > width-1 {
			if m.noticeResult != "" {
				if short, ok := m.refusalFits(width - 1); ok {
					return " " + short
				}
				// Not even "· ? says why" fits: the result alone is whole
				// words, where a cut would end mid-reason ("modes are…").
				if result := common.Sanitize(m.noticeResult); ansi.StringWidth(result) <= width-1 {
					return " " + st.StatusHint.Render(result)
				}
			}
			return " " + st.StatusHint.Render(common.CutWords(common.Sanitize(m.notice), max(0, width-1)))
		}
	case m.maskNote() != "":
		what = st.StatusHint.Render(common.Sanitize(m.maskNote()))
	default:
		return ""
	}
	width-- // the space before it
	wl, ww, wh := ansi.StringWidth(lead), ansi.StringWidth(what), ansi.StringWidth(hint)
	const minHint = 16
	switch {
	case wl+ww+wh <= width:
	case wl+ww+min(wh, minHint) <= width:
		switch {
		case detail != "" && !endsInPath(detail):
			hint = st.Dim.Render(" · " + cutDetail(detail, width-wl-ww-3))
		case strings.Contains(hintErr, "; ") && !endsInPath(hintErr):
			hint = "" // where its last clause does not fit beside whole words before it
			if cut, ok := common.LastClauseKept(hintErr, width-wl-ww); ok {
				hint = st.StatusHint.Render(cut)
			}
		default:
			hint = common.CutPath(hint, width-wl-ww) // an export's file name whole
		}

	case wl+ww <= width:
		hint = ""
	default:
		// The view that failed says r retries: the error's words go first.
		lead, hint = "", ""
		if whatErr != "" {
			what = st.StatusErr.Render(common.ClauseCut(whatErr, width))
		} else {
			what = common.MiddleCut(what, width)
		}
	}
	return " " + lead + what + hint
}

// cutDetail fits a note's detail to width cells: its first phrase (the
// command copied) cut after whole words, the phrases after it whole
// ("prefix ] pastes the tmux buffer · by OSC 52 (unconfirmed)": both
// ends show), those dropped from the first where even that does not fit.
// A cut in the middle of the whole had read "aws dynamodb query
// --table-name T …pastes the tmux buffer", the key that pastes it gone.
func cutDetail(detail string, width int) string {
	if ansi.StringWidth(detail) <= width {
		return detail
	}
	parts := strings.Split(detail, " · ")
	for tail := parts[1:]; len(tail) > 0; tail = tail[1:] {
		rest := " · " + strings.Join(tail, " · ")
		if room := width - ansi.StringWidth(rest); room >= 12 {
			return common.CutWords(parts[0], room) + rest
		}
	}
	return common.CutWords(detail, width)
}

// endsInPath reports whether s ends in a file's path (an export's "to
// /tmp/x.jsonl"), which CutPath keeps whole.
func endsInPath(s string) bool {
	i := strings.LastIndexAny(s, `/\`)
	return i >= 0 && !strings.ContainsAny(s[i:], " ")
}

// refusalFits is a refusal too wide for width cells, cut where a clause
// of its reason ends (at "; " outside parentheses), or after the result
// alone, and pointed at ?, which shows it whole: a reason cut
// mid-sentence ("No Versions mode here: no sort key here…") says nothing,
// and one cut at a comma of a list says something else ("it compares a
// partition", said in a partition's Versions mode).
func (m *Model) refusalFits(width int) (string, bool) {
	st := &m.styles
	more := st.Dim.Render(" · ? says why")
	text := common.Sanitize(m.notice)
	best := common.Sanitize(m.noticeResult)
	depth := 0
	for i := len(best) + 2; i < len(text); i++ {
		switch text[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ';':
			if depth == 0 && ansi.StringWidth(text[:i])+ansi.StringWidth(more) <= width {
				best = text[:i]
			}
		}
	}
	short := st.StatusHint.Render(best) + more
	return short, ansi.StringWidth(short) <= width
}

// shownRCU is the session's RCU as the status bar shows it, and whether
// it is an estimate. CostEstimated: computed for data that is not in
// DynamoDB. Billed's estimate: the server reported less than DynamoDB
// bills (dynalite's empty reads), so DynamoDB's figure is shown, marked
// as an estimate.
func (m *Model) shownRCU(reported float64) (float64, bool) {
	if billed, over := m.cfg.Session.Billed(); over {
		return billed, true
	}
	return reported, m.cfg.CostEstimated
}

// statusLegend says, under ? help, what the status bar's figures are,
// and why its RCU is an estimate when it says "est.".
func (m *Model) statusLegend() string {
	total, _ := m.cfg.Session.Totals()
	words := "status bar: requests · the RCU DynamoDB bills for them · the last request's latency"
	if _, est := m.shownRCU(total.RCU); est {
		why := "the server reported less than DynamoDB bills, so DynamoDB's figure is shown"
		if m.cfg.CostEstimated {
			why = "the data is not in DynamoDB, so this is what DynamoDB would bill for the same reads"
		}
		words += " · RCU est.: " + why
	}
	return m.styles.Dim.Render(common.Wrap(words, max(20, m.w-2)))
}

// The leads of ?'s commands: the one that reopens the view, and the
// headless one that prints its rows (common.Headlesser), aligned.
const (
	commandLead  = "this view: "
	headlessLead = "as JSON:   "
)

// wholeCommand is a command for ? after its lead: the one that reopens
// the view, or the one that prints its rows; wrapped at spaces (hard where
// a word is wider than the line), never cut, so that it can be copied from
// the screen. A note (common.LinkNoter) says under it where the command
// opens when that is not this view itself.
func (m *Model) wholeCommand(lead, line, note string) string {
	st := &m.styles
	text := common.Wrap(common.Guard(line), max(20, m.w-len(lead)))
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if i == 0 {
			lines[i] = st.Dim.Render(lead) + st.Request.Render(l)
			continue
		}
		lines[i] = strings.Repeat(" ", len(lead)) + st.Request.Render(l)
	}
	if note != "" { // wrapped as the command is: cut, a note lost what it warns of
		for _, l := range strings.Split(common.Wrap(common.Sanitize(note), max(20, m.w-len(lead))), "\n") {
			lines = append(lines, strings.Repeat(" ", len(lead))+st.Dim.Render(l))
		}
	}
	return strings.Join(lines, "\n")
}

// statusLeft is what the status bar shows before its message: where and
// how (the connection, READ-ONLY, MASKED), then the session's figures,
// which give way to a message that would otherwise lose its end (what to
// do): ? and the next key bring them back. busy (the spinner, and why a
// request is retried) stays: a message shown while a read was in flight
// or retried had the bar say nothing of it.
func (m *Model) statusLeft(where, figures, busy string) string {
	msg := ansi.StringWidth(m.statusMessage(1 << 20))
	if msg == 0 || ansi.StringWidth(where+figures)+msg <= m.w {
		return where + figures
	}
	return where + busy
}
