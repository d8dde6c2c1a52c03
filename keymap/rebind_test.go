package keymap

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestApply(t *testing.T) {
	k := Default()
	if err := k.Apply(map[string][]string{"quit": {"x", "ctrl+q"}, "down": {"n"}}); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'x', Text: "x"}, k.Quit) || key.Matches(tea.KeyPressMsg{Code: 'q', Text: "q"}, k.Quit) {
		t.Error("quit was not rebound to x")
	}
	if k.Down.Help().Key != "n" || k.Down.Help().Desc != "down" {
		t.Errorf("help not updated: %+v", k.Down.Help())
	}
	for _, tc := range []struct {
		in   map[string][]string
		want string
	}{
		{map[string][]string{"jump": {"j"}}, `keys.jump: no such action; actions are auto_columns, back, bottom`},
		{map[string][]string{"quit": {"banana"}}, `keys.quit: "banana" is not a key`},
		{map[string][]string{"quit": {}}, "at least one key"},
	} {
		k := Default()
		if err := k.Apply(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.in, err, tc.want)
		}
	}
}
