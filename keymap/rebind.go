package keymap

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
)

// actions names each binding for the configuration file's [keys] table.
func (k *KeyMap) actions() map[string]*key.Binding {
	return map[string]*key.Binding{
		"up": &k.Up, "down": &k.Down, "page_up": &k.PageUp, "page_down": &k.PageDown, "top": &k.Top, "bottom": &k.Bottom,
		"open": &k.Open, "back": &k.Back, "quit": &k.Quit, "help": &k.Help, "refresh": &k.Refresh,
		"go_to": &k.GoTo, "flip": &k.Flip, "wire": &k.Wire, "next_mode": &k.NextMode, "prev_mode": &k.PrevMode,
		"tree": &k.TreeMode, "items": &k.ItemsMode, "search": &k.Search, "next_match": &k.NextMatch, "prev_match": &k.PrevMatch, "preview": &k.Preview,
		"count": &k.Count, "delimiter": &k.Delimiter, "index": &k.Index,
		"versions": &k.Versions, "prev_revision": &k.PrevRev, "next_revision": &k.NextRev, "mark": &k.Mark, "diff_v0": &k.Diff0,
		"time": &k.TimeMode, "range": &k.Range, "zone": &k.Zone, "copy": &k.Copy, "copy_key": &k.CopyKey, "export": &k.Export,
		"filter": &k.Filter, "columns": &k.Columns, "toggle": &k.Toggle, "move_up": &k.MoveUp, "move_down": &k.MoveDown, "auto_columns": &k.Auto,
	}
}

// Actions are the action names [keys] takes, sorted.
func Actions() []string {
	k := Default()
	var out []string
	for name := range k.actions() {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// namedKeys are the key names a binding may use besides one character and
// ctrl+/alt+ combinations.
var namedKeys = map[string]bool{"up": true, "down": true, "left": true, "right": true, "enter": true, "esc": true, "tab": true,
	"shift+tab": true, "shift+up": true, "shift+down": true, "backspace": true, "delete": true, "space": true, "pgup": true, "pgdown": true, "home": true, "end": true,
	"insert": true, "f1": true, "f2": true, "f3": true, "f4": true, "f5": true, "f6": true, "f7": true, "f8": true, "f9": true,
	"f10": true, "f11": true, "f12": true}

func validKey(s string) bool {
	if utf8.RuneCountInString(s) == 1 {
		return true
	}
	if namedKeys[s] {
		return true
	}
	for _, mod := range []string{"ctrl+", "alt+", "ctrl+alt+"} {
		if rest, ok := strings.CutPrefix(s, mod); ok && (utf8.RuneCountInString(rest) == 1 || namedKeys[rest]) {
			return true
		}
	}
	return false
}

// Apply rebinds actions to keys (from the configuration's [keys] table):
// an unknown action or key is an error naming it.
func (k *KeyMap) Apply(bindings map[string][]string) error {
	acts := k.actions()
	names := make([]string, 0, len(bindings))
	for name := range bindings {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b, ok := acts[name]
		if !ok {
			return fmt.Errorf("keys.%s: no such action; actions are %s", name, strings.Join(Actions(), ", "))
		}
		keys := bindings[name]
		if len(keys) == 0 {
			return fmt.Errorf("keys.%s: give at least one key, such as [\"k\", \"up\"]", name)
		}
		for _, s := range keys {
			if !validKey(s) {
				return fmt.Errorf("keys.%s: %q is not a key; write one character, a name such as \"up\" or \"pgdown\", or \"ctrl+x\"", name, s)
			}
		}
		b.SetKeys(keys...)
		b.SetHelp(keys[0], b.Help().Desc)
	}
	return nil
}
