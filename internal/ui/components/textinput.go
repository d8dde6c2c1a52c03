package components

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/ui/common"
)

// TextInput is bubbles' text input with its editing keys made safe: in
// bubbles v2.2.1 deleting a word forward (alt+d, alt+delete) indexes past
// the end of the text when the cursor is one rune before it (type "ab",
// ←, alt+d) and the program dies. Every text box of the explorer uses this
// wrapper; it does that deletion itself and, should another key panic,
// keeps the text as it was instead of crashing.
type TextInput struct {
	textinput.Model
}

// NewTextInput returns a text input whose cursor does not blink: a
// blinking one wakes the program twice a second for nothing.
func NewTextInput(prompt string) TextInput {
	in := TextInput{Model: textinput.New()}
	in.Prompt = prompt
	st := in.Styles()
	st.Cursor.Blink = false
	in.SetStyles(st)
	return in
}

// Update is textinput's Update, without its panics.
func (t TextInput) Update(msg tea.Msg) (out TextInput, cmd tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && t.Focused() && key.Matches(k, t.KeyMap.DeleteWordForward) {
		t.deleteWordForward()
		return t, nil
	}
	value, pos := t.Value(), t.Position()
	defer func() {
		if recover() != nil {
			// The inner model may be half changed: rebuild its text.
			t.SetValue(value)
			t.SetCursor(pos)
			out, cmd = t, nil
		}
	}()
	t.Model, cmd = t.Model.Update(msg)
	return t, cmd
}

// View is textinput's View; a box given no width shows its whole
// placeholder, or its text once there is some (textinput shows one letter
// of the placeholder, "range › l", when it has no width): padded to the
// placeholder's width, a short text pushed what follows the box (the
// range bar's "enter runs · ctrl+u clears") out of the frame, cut to "…".
// The frame around it cuts what does not fit.
//
// A text wider than its box scrolls; what it hides is marked "…", at
// the prompt's end for text hidden to the left ("SELECT ›…s_with(SK"),
// in the cell the box keeps for its cursor for text hidden to the right.
func (t TextInput) View() string {
	if t.Width() <= 0 {
		w := ShownWidth(t.Value())
		if w == 0 {
			w = ansi.StringWidth(t.Placeholder)
		}
		t.SetWidth(w + 1)
	}
	left, right := t.hidden()
	if left && strings.HasSuffix(t.Prompt, " ") {
		t.Prompt = strings.TrimSuffix(t.Prompt, " ") + "…"
	}
	view := t.Model.View()
	if right != hiddenNone && (right == hiddenPastCell || strings.HasSuffix(ansi.Strip(view), " ")) {
		view = ansi.Truncate(view, ansi.StringWidth(view)-1, "") + "…"
	}
	return keepWidth(showFormat(view), ansi.StringWidth(view))
}

// keepWidth holds a box shown with its format characters escaped to the
// cells textinput laid it out in, which counted each \u200b as none: the
// wider line pushed what follows the box out of the frame, which cut it
// with a "…" where nothing was hidden. The escapes take the blank cells
// textinput padded the box with; where those are too few, text is hidden
// to the right, and marked so.
func keepWidth(shown string, width int) string {
	over := ansi.StringWidth(shown) - width
	if over <= 0 {
		return shown
	}
	plain := ansi.Strip(shown)
	if len(plain)-len(strings.TrimRight(plain, " ")) > over {
		return ansi.Truncate(shown, width, "")
	}
	return ansi.Truncate(shown, width-1, "") + "…"
}

// What a box hides to its right, and the cell its "…" may take.
const (
	hiddenNone     = iota
	hiddenPastCell // the last cell shows text, not the cursor: it takes the mark
	hiddenPastPad  // only where the box ends in its cursor's blank cell
)

// hidden reports whether the box, scrolled, hides text to the left or to
// the right of what it shows. textinput keeps the window it shows
// (offset, offsetRight: runes of the value) unexported and offers no
// accessor; it is read, never written, here rather than its scrolling
// copied.
func (t TextInput) hidden() (left bool, right int) {
	m := reflect.ValueOf(t.Model)
	offset, offsetRight := m.FieldByName("offset"), m.FieldByName("offsetRight")
	if offset.Kind() != reflect.Int || offsetRight.Kind() != reflect.Int || t.Value() == "" {
		return false, hiddenNone
	}
	left, end := offset.Int() > 0, int(offsetRight.Int())
	switch {
	case end >= utf8.RuneCountInString(t.Value()):
		return left, hiddenNone
	case t.Position() < end-1:
		return left, hiddenPastCell
	}
	return left, hiddenPastPad
}

// showFormat writes the characters that draw nothing or reorder the text
// (zero-width spaces and joiners, bidi overrides, C1 controls) as the rest
// of the explorer shows them, \u200b: typed or pasted into a box they are
// text, kept in its value, but raw "A\u200bB" read as AB, and U+202E turned
// the line around. The box's own styling (ESC sequences) stays.
func showFormat(view string) string {
	if !strings.ContainsFunc(view, func(r rune) bool { return r >= 0x7f }) {
		return view
	}
	var b strings.Builder
	for _, r := range view {
		if r >= 0x7f && r != utf8.RuneError {
			if esc := common.Sanitize(string(r)); esc != string(r) {
				b.WriteString(esc)
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// deleteWordForward deletes from the cursor to the end of the next word
// (the spaces before it included), as textinput means to.
func (t *TextInput) deleteWordForward() {
	value := []rune(t.Value())
	pos := t.Position()
	if pos >= len(value) {
		return
	}
	if t.EchoMode != textinput.EchoNormal { // do not reveal word breaks
		t.SetValue(string(value[:pos]))
		t.SetCursor(pos)
		return
	}
	end := pos
	for end < len(value) && unicode.IsSpace(value[end]) {
		end++
	}
	for end < len(value) && !unicode.IsSpace(value[end]) {
		end++
	}
	t.SetValue(string(value[:pos]) + string(value[end:]))
	t.SetCursor(pos)
}

// ShownWidth is the cells text takes as a TextInput shows it (a backslash
// as itself, \u200b for a zero-width space): a caret under the column of
// an error counts these, or it stood a cell right of the error for each
// backslash before it.
func ShownWidth(s string) int { return ansi.StringWidth(showFormat(s)) }
