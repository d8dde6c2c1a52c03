package components

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	tea "charm.land/bubbletea/v2"
)

func press(code rune, text string, mod tea.KeyMod) tea.KeyPressMsg {
	return tea.KeyPressMsg{Code: code, Text: text, Mod: mod}
}

var (
	keyA         = press('a', "a", 0)
	keyB         = press('b', "b", 0)
	keySpace     = press(' ', " ", 0)
	keyLeft      = press(tea.KeyLeft, "", 0)
	keyHome      = press(tea.KeyHome, "", 0)
	keyAltD      = press('d', "", tea.ModAlt)
	keyAltDelete = press(tea.KeyDelete, "", tea.ModAlt)
)

func TestTextInputDeleteWordForward(t *testing.T) {
	cases := []struct {
		name    string
		keys    []tea.KeyPressMsg
		want    string
		wantPos int
	}{
		{"ab ← alt+d (crashed bubbles)", []tea.KeyPressMsg{keyA, keyB, keyLeft, keyAltD}, "a", 1},
		{"ab ← alt+delete", []tea.KeyPressMsg{keyA, keyB, keyLeft, keyAltDelete}, "a", 1},
		{"at the end: nothing", []tea.KeyPressMsg{keyA, keyB, keyAltD}, "ab", 2},
		{"home: the first word", []tea.KeyPressMsg{keyA, keySpace, keyB, keyHome, keyAltD}, " b", 0},
		{"before a space: the space and the next word", []tea.KeyPressMsg{keyA, keySpace, keyB, keyB, keyLeft, keyLeft, keyLeft, keyAltD}, "a", 1},
		{"empty", []tea.KeyPressMsg{keyAltD}, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := NewTextInput("› ")
			in.Focus()
			for _, k := range c.keys {
				in, _ = in.Update(k)
			}
			if in.Value() != c.want || in.Position() != c.wantPos {
				t.Fatalf("got %q at %d, want %q at %d", in.Value(), in.Position(), c.want, c.wantPos)
			}
		})
	}
}

// TestTextInputRandomKeysNeverPanic: the editing keys in any order, as a
// user (or a cat) might press them.
func TestTextInputRandomKeysNeverPanic(t *testing.T) {
	keys := []tea.KeyPressMsg{keyA, keyB, keySpace, keyLeft, keyHome, keyAltD, keyAltDelete,
		press(tea.KeyRight, "", 0), press(tea.KeyEnd, "", 0), press(tea.KeyBackspace, "", 0), press(tea.KeyDelete, "", 0),
		press('b', "", tea.ModAlt), press('f', "", tea.ModAlt), press(tea.KeyBackspace, "", tea.ModAlt),
		press('w', "", tea.ModCtrl), press('k', "", tea.ModCtrl), press('u', "", tea.ModCtrl),
		press(tea.KeyLeft, "", tea.ModCtrl), press(tea.KeyRight, "", tea.ModCtrl), press('é', "é", 0), press('世', "世", 0)}
	r := rand.New(rand.NewSource(17))
	for run := 0; run < 300; run++ {
		in := NewTextInput("› ")
		in.Focus()
		for range 40 {
			in, _ = in.Update(keys[r.Intn(len(keys))])
			if p := in.Position(); p < 0 || p > len([]rune(in.Value())) {
				t.Fatalf("cursor %d outside %q", p, in.Value())
			}
			_ = in.View()
		}
	}
}

// TestTextInputShowsItsPlaceholder: without a width, bubbles showed one
// letter of the placeholder ("range › l").
func TestTextInputShowsItsPlaceholder(t *testing.T) {
	in := NewTextInput("range › ")
	in.Placeholder = "last 24h · today"
	in.Focus()
	if got := ansi.Strip(in.View()); !strings.Contains(got, "last 24h · today") {
		t.Fatalf("placeholder cut: %q", got)
	}
}

// TestTextInputShowsFormatCharactersEscaped: zero-width and bidi
// characters typed or pasted into a box stay in its value (they are text)
// but show as \u200b…, as everywhere else on screen: raw, "A\u200bB" read
// as AB and U+202E turned the line around.
func TestTextInputShowsFormatCharactersEscaped(t *testing.T) {
	in := NewTextInput("filter › ")
	in.SetWidth(60)
	in.Focus()
	in, _ = in.Paste("City = \"A\u200bB\u202eC\u0085\" é ✓") // C1 controls are dropped as pasted
	if in.Value() != "City = \"A\u200bB\u202eC\" é ✓" {
		t.Fatalf("value %q", in.Value())
	}
	got := ansi.Strip(in.View())
	if !strings.Contains(got, `A\u200bB\u202eC" é ✓`) || strings.ContainsAny(got, "\u200b\u202e") {
		t.Fatalf("view %q", got)
	}
}

// TestTextInputMarksHiddenText: a text wider than its box shows "…" on
// the side it hides, at the end, at the start and in the middle of the
// text, and none where it all shows.
func TestTextInputMarksHiddenText(t *testing.T) {
	long := "SELECT * FROM Locations WHERE PK = 'USA' AND begins_with(SK, 'NY#')"
	in := NewTextInput("SELECT › ")
	in.Focus()
	in.SetWidth(20)
	in.SetValue("short")
	if v := ansi.Strip(in.View()); strings.Contains(v, "…") {
		t.Fatalf("a text that fits is marked: %q", v)
	}
	in.SetValue(long)
	in.CursorEnd()
	if v := ansi.Strip(in.View()); !strings.HasPrefix(v, "SELECT ›…") || strings.HasSuffix(v, "…") || !strings.Contains(v, "'NY#')") {
		t.Fatalf("the end of the text shown: %q", v)
	}
	in, _ = in.Update(keyHome)
	if v := ansi.Strip(in.View()); !strings.HasPrefix(v, "SELECT › SELECT") || !strings.HasSuffix(v, "…") {
		t.Fatalf("the start of the text shown: %q", v)
	}
	for range 30 {
		in, _ = in.Update(press(tea.KeyRight, "", 0))
	}
	if v := ansi.Strip(in.View()); !strings.HasPrefix(v, "SELECT ›…") || !strings.HasSuffix(v, "…") || ansi.StringWidth(v) != 9+21 {
		t.Fatalf("the middle of the text shown: %q", v)
	}
}

// TestTextInputKeepsItsWidthWithFormatCharacters: textinput lays a box
// out counting a zero-width space as no cell, and \u200b shows it in six:
// the line grew past the box, and the frame cut what followed it with a
// "…" where nothing was hidden ("filter › a\u200bb          …").
func TestTextInputKeepsItsWidthWithFormatCharacters(t *testing.T) {
	cases := []struct {
		name, value string
		cursorHome  bool
		wantEnd     string // the view's last cell: the pad's, or the mark of hidden text
	}{
		{"one, the cursor at the end", "a\u200bb", false, " "},
		{"one, the cursor at the start", "a\u200bb", true, " "},
		{"bidi and zero-width", "x\u202ey\u200dz", false, " "},
		{"more than the pad holds", strings.Repeat("\u200b", 8) + "end", true, "…"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := NewTextInput("filter › ")
			in.SetWidth(30)
			in.Focus()
			in.SetValue(c.value)
			if c.cursorHome {
				in, _ = in.Update(keyHome)
			}
			got := ansi.Strip(in.View())
			if w := ansi.StringWidth(got); w != ansi.StringWidth("filter › ")+31 {
				t.Fatalf("%d cells, want the box's %d: %q", w, ansi.StringWidth("filter › ")+31, got)
			}
			if !strings.HasSuffix(got, c.wantEnd) || !strings.Contains(got, `\u20`) {
				t.Fatalf("view %q, want it to end in %q", got, c.wantEnd)
			}
		})
	}
	in := NewTextInput("range › ") // a box given no width: sized to its text as shown, as "ab" is
	in.Focus()
	in.SetValue("ab")
	plain := ansi.Strip(in.View())
	in.SetValue("a\u200bb")
	if got := ansi.Strip(in.View()); got != strings.Replace(plain, "ab", `a\u200bb`, 1) {
		t.Fatalf("a box of no width: %q", got)
	}
}
