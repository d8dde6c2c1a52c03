package components

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
)

// PasteText is pasted text as one line of a text box: line breaks (and
// tabs) become spaces, every other control character (an escape
// sequence's ESC among them) is dropped.
func PasteText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
}

// Paste puts pasted text in the box at the cursor, as one line.
func (t TextInput) Paste(text string) (TextInput, tea.Cmd) {
	if !t.Focused() {
		return t, nil
	}
	return t.Update(tea.PasteMsg{Content: PasteText(text)})
}

// IsText reports whether a key press types text (a letter, a digit, a
// space, a symbol): in a text box it is text, never a command.
func IsText(msg tea.KeyPressMsg) bool {
	return msg.Text != "" && msg.Mod&^(tea.ModShift|tea.ModCapsLock|tea.ModNumLock) == 0
}
