package keymap

import (
	"fmt"
	"slices"
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
		"go_to": &k.GoTo, "flip": &k.Flip, "wire": &k.Wire, "wrap": &k.Wrap, "next_mode": &k.NextMode, "prev_mode": &k.PrevMode,
		"tree": &k.TreeMode, "items": &k.ItemsMode, "search": &k.Search, "next_match": &k.NextMatch, "prev_match": &k.PrevMatch, "preview": &k.Preview,
		"count": &k.Count, "delimiter": &k.Delimiter, "index": &k.Index, "entities": &k.Entities,
		"versions": &k.Versions, "prev_revision": &k.PrevRev, "next_revision": &k.NextRev, "mark": &k.Mark, "diff_v0": &k.Diff0,
		"time": &k.TimeMode, "changes": &k.Changes, "range": &k.Range, "zone": &k.Zone, "copy": &k.Copy, "copy_key": &k.CopyKey, "export": &k.Export,
		"filter": &k.Filter, "columns": &k.Columns, "toggle": &k.Toggle, "move_up": &k.MoveUp, "move_down": &k.MoveDown, "auto_columns": &k.Auto,
		"tour": &k.Tour, "sort": &k.Sort, "sort_flip": &k.SortFlip, "follow": &k.Follow,
		"follow_reference": &k.RefFollow, "history_back": &k.RefBack, "history_forward": &k.RefForward,
		"stop_load": &k.StopLoad, "statement": &k.Statement, "compare": &k.Compare,
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

// reserved are the keys that keep one meaning whatever the configuration
// says: esc always goes back (and cancels), ctrl+c always quits. A
// rebinding of their action keeps them; binding them elsewhere is refused.
var reserved = map[string]string{"esc": "back", "ctrl+c": "quit"}

// Apply rebinds actions to keys (from the configuration's [keys] table):
// an unknown action or key is an error naming it; so is a key the
// rebinding gives two actions (naming both), and esc or ctrl+c given to
// another action than theirs.
func (k *KeyMap) Apply(bindings map[string][]string) error {
	shared := sharedByDefault()
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
			if owner, ok := reserved[s]; ok && owner != name {
				return fmt.Errorf("keys.%s: %q always means %s; choose another key", name, s, owner)
			}
		}
		for s, owner := range reserved {
			if owner == name && !slices.Contains(keys, s) {
				keys = append(slices.Clone(keys), s) // esc and ctrl+c keep their meaning
			}
		}
		b.SetKeys(keys...)
		b.SetHelp(keys[0], b.Help().Desc)
	}
	// A rebound key must not also be another action's, unless the two
	// share keys by default (they act on different screens: open and
	// next revision both take →).
	for _, name := range names {
		for _, s := range acts[name].Keys() {
			for _, other := range Actions() {
				if other == name || shared[pair(name, other)] || !sameScreen(name, other) || !slices.Contains(acts[other].Keys(), s) {
					continue
				}
				hint := "give one of them another key"
				if _, rebound := bindings[other]; !rebound {
					hint = fmt.Sprintf("choose another key for %s, or rebind %s too", name, other)
				}
				return fmt.Errorf("keys.%s: %q is also %s's key, so one of them would have none; %s", name, s, other, hint)
			}
		}
	}
	return nil
}

// pickerOnly are the column picker's own actions, and pickerToo the
// others it obeys: a picker key may be another screen's too.
var (
	pickerOnly = map[string]bool{"toggle": true, "move_up": true, "move_down": true, "auto_columns": true}
	pickerToo  = map[string]bool{"up": true, "down": true, "page_up": true, "page_down": true, "top": true, "bottom": true, "columns": true}
)

// sameScreen reports whether two actions can be asked for on one screen.
func sameScreen(a, b string) bool {
	switch {
	case pickerOnly[a] == pickerOnly[b]:
		return true
	case pickerOnly[a]:
		return pickerToo[b]
	}
	return pickerToo[a]
}

func pair(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// sharedByDefault are the pairs of actions the defaults give a key in
// common: they live on different screens, so the key is not ambiguous.
func sharedByDefault() map[[2]string]bool {
	d := Default()
	acts := d.actions()
	out := map[[2]string]bool{}
	for a, ba := range acts {
		for b, bb := range acts {
			if a != b && slices.ContainsFunc(ba.Keys(), func(s string) bool { return slices.Contains(bb.Keys(), s) }) {
				out[pair(a, b)] = true
			}
		}
	}
	return out
}
