package components

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestPasteText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a\nb", "a b"},
		{"a\r\nb\rc", "a b c"},
		{"tab\there", "tab here"},
		{"esc\x1b[2Jcleared", "esc[2Jcleared"},
		{"bell\x07 del\x7f nul\x00 c1\u0085", "bell del nul c1"},
		{"é世#q", "é世#q"},
	} {
		if got := PasteText(c.in); got != c.want {
			t.Errorf("PasteText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTextInputPaste(t *testing.T) {
	in := NewTextInput("> ")
	in.SetValue("ab")
	in, _ = in.Paste("x") // not focused: nothing
	if in.Value() != "ab" {
		t.Fatalf("a blurred box took a paste: %q", in.Value())
	}
	in.Focus()
	in.SetCursor(1)
	in, _ = in.Paste("1\n2")
	if in.Value() != "a1 2b" {
		t.Fatalf("got %q", in.Value())
	}
}

func TestIsText(t *testing.T) {
	for _, c := range []struct {
		k    tea.KeyPressMsg
		want bool
	}{
		{tea.KeyPressMsg{Code: 'j', Text: "j"}, true},
		{tea.KeyPressMsg{Code: 'J', Text: "J", Mod: tea.ModShift}, true},
		{tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}, true},
		{tea.KeyPressMsg{Code: tea.KeyDown}, false},
		{tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}, false},
		{tea.KeyPressMsg{Code: 'd', Mod: tea.ModAlt, Text: "d"}, false},
	} {
		if got := IsText(c.k); got != c.want {
			t.Errorf("IsText(%v) = %v", c.k, got)
		}
	}
}
