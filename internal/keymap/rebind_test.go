package keymap

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestApply(t *testing.T) {
	k := Default()
	if err := k.Apply(map[string][]string{"quit": {"x", "ctrl+q"}, "down": {"ctrl+n"}}); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'x', Text: "x"}, k.Quit) || key.Matches(tea.KeyPressMsg{Code: 'q', Text: "q"}, k.Quit) {
		t.Error("quit was not rebound to x")
	}
	if k.Down.Help().Key != "ctrl+n" || k.Down.Help().Desc != "down" {
		t.Errorf("help not updated: %+v", k.Down.Help())
	}
	// Swapping two actions' keys, a picker key that another screen uses,
	// and keys the defaults already share are all fine; esc and ctrl+c stay.
	k = Default()
	if err := k.Apply(map[string][]string{"up": {"j"}, "down": {"k"}, "toggle": {"t"}, "back": {"h"}, "quit": {"Q"}}); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(k.Back.Keys(), "esc") || !slices.Contains(k.Quit.Keys(), "ctrl+c") || k.Up.Keys()[0] != "j" {
		t.Errorf("back %v, quit %v, up %v", k.Back.Keys(), k.Quit.Keys(), k.Up.Keys())
	}
	for _, tc := range []struct {
		in   map[string][]string
		want string
	}{
		{map[string][]string{"jump": {"j"}}, `keys.jump: no such action; actions are auto_columns, back, bottom`},
		{map[string][]string{"quit": {"banana"}}, `keys.quit: "banana" is not a key`},
		{map[string][]string{"quit": {}}, "at least one key"},
		{map[string][]string{"quit": {"esc"}}, `keys.quit: "esc" always means back; choose another key`},
		{map[string][]string{"filter": {"ctrl+c"}}, `keys.filter: "ctrl+c" always means quit`},
		{map[string][]string{"count": {"j"}}, `keys.count: "j" is also down's key, so one of them would have none; choose another key for count, or rebind down too`},
		{map[string][]string{"flip": {"f"}, "filter": {"f"}}, `keys.filter: "f" is also flip's key, so one of them would have none; give one of them another key`},
		{map[string][]string{"toggle": {"j"}}, `keys.toggle: "j" is also down's key`},
	} {
		k := Default()
		if err := k.Apply(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestActionsOf(t *testing.T) {
	k := Default()
	names := func(s string) []string {
		var out []string
		for _, a := range k.ActionsOf(stroke(s)) {
			out = append(out, a.Name)
		}
		return out
	}
	if got := names("D"); len(got) != 1 || got[0] != "delimiter" {
		t.Errorf("D: %v", got)
	}
	if got := names("left"); len(got) != 2 || got[0] != "back" || got[1] != "prev_revision" {
		t.Errorf("left: %v", got)
	}
	if got := names("u"); len(got) != 0 {
		t.Errorf("u: %v", got)
	}
}

// stroke is a key press as key.Matches sees it: its name.
type stroke string

func (s stroke) String() string { return string(s) }
