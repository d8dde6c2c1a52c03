package pages

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
)

const filterPrompt = "filter › "

// filterBar is where a filter is typed: DynamoDB's condition syntax with
// values inline. A syntax error is shown under the bar with a caret at its
// column, and the bar stays open with the text as typed.
type filterBar struct {
	input  components.TextInput
	err    *domain.FilterError
	hint   string // a bare word that names no loaded attribute: said before anything is read
	hinted string // the text the hint was given for: enter on it again applies it as written
	// note replaces the line under the bar that says what enter, an
	// empty bar and esc do, where they do otherwise (a table's search
	// needs a filter: an empty one clears nothing).
	note string
	// refused says why the filter typed matches no item: said under the
	// bar, where enter reads nothing (a table's search, domain.NoMatchError).
	refused string
}

// loadedAttrs is what the filter bar knows of the rows on screen: whether
// an attribute appears in any of them, and how many there are.
type loadedAttrs struct {
	known func(name string) bool
	rows  int
}

func newFilterBar() filterBar {
	in := components.NewTextInput(filterPrompt)
	in.Placeholder = filterExamples(0)
	return filterBar{input: in}
}

// filterExamples is the empty bar's placeholder: as many whole examples
// as fit in width cells (0: all), never one cut ("· s" of size(payload)).
func filterExamples(width int) string {
	examples := []string{`status = "FAILED" and attempts > 3`, `begins_with(email, "ops@")`, `size(payload) > 1000`}
	text := examples[0]
	for _, e := range examples[1:] {
		if width > 0 && ansi.StringWidth(text+" · "+e) > width {
			break
		}
		text += " · " + e
	}
	return text
}

// open starts editing the filter applied now (nil: none).
func (f *filterBar) open(current domain.FilterNode) tea.Cmd {
	text := ""
	if current != nil {
		text = domain.FormatFilter(current)
	}
	f.input.SetValue(text)
	f.input.CursorEnd()
	f.err, f.hint, f.hinted = nil, "", ""
	return f.input.Focus()
}

func (f *filterBar) editing() bool { return f.input.Focused() }

// paste puts pasted text in the bar, as one line.
func (f *filterBar) paste(text string) tea.Cmd {
	var cmd tea.Cmd
	f.input, cmd = f.input.Paste(text)
	f.hint = "" // edited: the hint was about other text
	return cmd
}

// filterSubmitted is what a key press in the bar decided.
type filterSubmitted struct {
	done   bool              // enter with a filter that parses, or an empty one
	filter domain.FilterNode // nil: show everything
}

// key handles a key while editing: enter applies (an empty bar clears the
// filter), esc leaves the filter as it was.
func (f *filterBar) key(msg tea.KeyPressMsg, k keymap.KeyMap, loaded loadedAttrs) (filterSubmitted, tea.Cmd) {
	switch {
	case key.Matches(msg, k.Submit):
		text := strings.TrimSpace(f.input.Value())
		if text == "" {
			f.input.Blur()
			return filterSubmitted{done: true}, nil
		}
		n, err := domain.ParseFilter(text)
		if err != nil {
			var fe *domain.FilterError
			if !errors.As(err, &fe) {
				fe = &domain.FilterError{Col: 1, Msg: err.Error()}
			}
			// the column counts from the trimmed text; the bar holds it untrimmed
			lead := len([]rune(f.input.Value())) - len([]rune(strings.TrimLeft(f.input.Value(), " \t")))
			f.err = &domain.FilterError{Col: fe.Col + lead, Msg: fe.Msg}
			return filterSubmitted{}, nil
		}
		f.err = nil
		if hint := bareWordHint(n, loaded); hint != "" && f.hinted != text {
			f.hint, f.hinted = hint, text // said once; enter again applies it as written
			return filterSubmitted{}, nil
		}
		f.hint, f.hinted = "", ""
		f.input.Blur()
		return filterSubmitted{done: true, filter: n}, nil
	case key.Matches(msg, k.Cancel):
		f.err, f.hint, f.hinted = nil, "", ""
		f.input.Blur()
		return filterSubmitted{}, nil
	}
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	if strings.TrimSpace(f.input.Value()) != f.hinted {
		f.hint = "" // edited: the hint was about other text
	}
	return filterSubmitted{}, cmd
}

// bareWordHint is what to say about a word on the value side of a
// comparison that names no attribute of the loaded rows (Level = ERROR):
// DynamoDB would compare with an attribute of that name and match nothing.
// "" when every such word is an attribute seen, or nothing is loaded.
func bareWordHint(n domain.FilterNode, loaded loadedAttrs) string {
	if loaded.known == nil || loaded.rows == 0 {
		return ""
	}
	words := domain.BareWords(n, loaded.known)
	if len(words) == 0 {
		return ""
	}
	w := words[0]
	rows := common.Thousands(loaded.rows) + " loaded items"
	if loaded.rows == 1 {
		rows = "the loaded item"
	}
	more := ""
	if len(words) > 1 {
		more = fmt.Sprintf(" (and %d more bare words)", len(words)-1)
	}
	return fmt.Sprintf("no attribute %s in the %s: did you mean %q?%s Enter again compares with an attribute %s.", w, rows, w, more, w)
}

// lines renders the bar and, while it is edited, the line under it (the
// error with a caret at its column, or a note) within width cells; current
// is the filter applied. Nothing when there is no filter to show.
func (f *filterBar) lines(st *common.Styles, width int, current domain.FilterNode) []string {
	if !f.editing() && current == nil {
		return nil
	}
	var bar, under string
	if f.editing() {
		f.input.SetWidth(max(1, width-ansi.StringWidth(filterPrompt)-1))
		f.input.Placeholder = filterExamples(width - ansi.StringWidth(filterPrompt) - 1)
		bar = f.input.View()
	} else {
		bar = st.Dim.Render(filterPrompt) + common.Guard(domain.FormatFilter(current)) + st.Dim.Render("   (f to change)")
	}
	switch {
	case f.hint != "" && f.err == nil:
		// Wrapped, not cut: its end says what enter does now.
		lines := strings.Split(common.Wrap("? "+common.Sanitize(f.hint), max(1, width)), "\n")
		out := []string{components.Fit(bar, width)}
		for _, l := range firstLines(lines, 3, width) {
			out = append(out, components.Fit(st.Notice.Render(l), width))
		}
		return out
	case f.refused != "" && f.err == nil && f.editing():
		// Wrapped, not cut: what to write instead is at its end.
		lines := strings.Split(common.Wrap("✗ "+common.Sanitize(f.refused)+" · enter reads nothing", max(1, width)), "\n")
		out := []string{components.Fit(bar, width)}
		for _, l := range firstLines(lines, 3, width) {
			out = append(out, components.Fit(st.ErrorTitle.Render(l), width))
		}
		return out
	case f.err != nil:
		value := []rune(f.input.Value())
		caret := ansi.StringWidth(filterPrompt) + components.ShownWidth(string(value[:min(f.err.Col-1, len(value))]))
		msg := common.Guard(f.err.Msg) // quoted by the parser: escaped once; the caret shows the column
		unscrolled := ansi.StringWidth(filterPrompt)+components.ShownWidth(string(value)) < width
		msgW := ansi.StringWidth(msg)
		switch {
		case unscrolled && caret+2+msgW <= width: // ^ message
			under = strings.Repeat(" ", caret) + st.ErrorTitle.Render("^ "+msg)
		case unscrolled && msgW+2 <= caret: // message ^
			under = strings.Repeat(" ", caret-msgW-1) + st.ErrorTitle.Render(msg+" ^")
		default:
			under = st.ErrorTitle.Render("✗ column " + strconv.Itoa(f.err.Col) + ": " + msg)
		}
	case f.editing():
		note := "enter applies · empty clears · esc undoes"
		if f.note != "" {
			note = f.note
		}
		under = st.Dim.Render(note + " · `odd names` in backticks")
	}
	if under == "" {
		return []string{components.Fit(bar, width)}
	}
	return []string{components.Fit(bar, width), components.Fit(under, width)}
}

// firstLines is at most n of the wrapped lines, the last ending in "…"
// where lines were left out, so that a cut sentence does not read whole.
func firstLines(lines []string, n, width int) []string {
	if len(lines) <= n {
		return lines
	}
	out := append([]string(nil), lines[:n]...)
	out[n-1] = ansi.Truncate(strings.TrimRight(out[n-1], " "), max(0, width-2), "") + " …"
	return out
}
