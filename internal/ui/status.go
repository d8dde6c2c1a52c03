package ui

import (
	"errors"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// said is a status-bar message, kept for ? (the last ten).
type said struct {
	text string
	err  bool
}

// keptMessages is how many messages ? shows.
const keptMessages = 10

// say shows a passing note (what was copied, exported): the newest message
// wins, so it replaces an error shown before.
func (m *Model) say(text string) {
	m.notice, m.lastErr = text, nil
	m.remember(said{text: text})
}

// fail shows a failed request of page (0: none) until the next key; r
// retries that page while it is on top.
func (m *Model) fail(err error, page int) {
	m.notice, m.lastErr, m.errPage = "", err, page
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

// messagesView is the last messages, newest first, for ?.
func (m *Model) messagesView() string {
	if len(m.said) == 0 {
		return ""
	}
	st := &m.styles
	lines := []string{st.Dim.Render("last messages, newest first:")}
	for i := len(m.said) - 1; i >= 0; i-- {
		s := m.said[i]
		text := common.MiddleCut(common.Sanitize(s.text), max(1, m.w-2))
		if s.err {
			lines = append(lines, components.Fit("  "+st.StatusErr.Render(text), m.w))
		} else {
			lines = append(lines, components.Fit("  "+st.StatusHint.Render(text), m.w))
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
	switch {
	case m.lastErr != nil:
		var e *dynamo.Error
		if errors.As(m.lastErr, &e) {
			if e.Kind == dynamo.KindThrottled || e.Kind == dynamo.KindUnreachable {
				lead = st.StatusHint.Render("r retries from where it stopped · ")
			}
			msg := e.Msg
			if pages.RetriedOrUnanswered(m.lastErr) {
				msg = pages.FailureText(m.lastErr) // as the view that was waiting says it
			}
			what = st.StatusErr.Render(common.Sanitize(common.ExplorerWords(e.Op + ": " + msg)))
			if e.Hint != "" {
				hint = st.StatusHint.Render(" — " + common.Sanitize(common.ExplorerWords(e.Hint)))
			}
		} else {
			what = st.StatusErr.Render(common.Sanitize(common.ExplorerWords(m.lastErr.Error())))
		}
	case m.notice != "":
		// Notes are the explorer's own words; what follows ": " (the aws
		// command sent) is the detail, cut first.
		note, detail, ok := strings.Cut(m.notice, "): ")
		if ok {
			note += ")"
			detail = ": " + detail
		}
		what = st.StatusHint.Render(common.Sanitize(note))
		hint = st.StatusHint.Render(common.Sanitize(detail))
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
		hint = common.MiddleCut(hint, width-wl-ww)
	case wl+ww <= width:
		hint = ""
	default:
		// The view that failed says r retries: the error's words go first.
		lead, hint = "", ""
		what = common.MiddleCut(what, width)
	}
	return " " + lead + what + hint
}
