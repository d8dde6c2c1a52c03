package keymap

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
)

// referenceOrder is the README's key reference, in the order of docs/screens-and-keys.md.
var referenceOrder = []string{
	"up", "down", "page_up", "page_down", "top", "bottom", "open", "back",
	"next_mode", "prev_mode", "tree", "items", "versions", "time", "changes",
	"search", "next_match", "prev_match", "go_to", "filter", "range", "follow", "zone", "flip", "sort", "sort_flip",
	"prev_revision", "next_revision", "mark", "diff_v0", "count", "columns", "toggle", "move_up", "move_down", "auto_columns",
	"index", "delimiter", "entities", "preview", "follow_reference", "history_back", "history_forward", "compare",
	"statement", "wire", "wrap", "copy", "copy_key", "export", "refresh", "stop_load", "tour", "help", "quit",
}

// Reference is the key reference as a Markdown table, made from the
// bindings: the README's copy is checked against it, so it cannot drift.
func (k KeyMap) Reference() string {
	acts := k.actions()
	var b strings.Builder
	b.WriteString("| keys | does | `[keys]` action |\n|---|---|---|\n")
	for _, name := range referenceOrder {
		bd := acts[name]
		var keys []string
		for _, key := range bd.Keys() {
			keys = append(keys, "`"+strings.ReplaceAll(key, "|", `\|`)+"`")
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` |\n", strings.Join(keys, " "), bd.Help().Desc, name)
	}
	return b.String()
}

// Action is a binding and its [keys] action name.
type Action struct {
	Name    string
	Binding key.Binding
}

// ActionsOf are the actions a key press is bound to, in the reference's
// order: a key can have several (left steps back and is the previous
// revision).
func (k KeyMap) ActionsOf(msg fmt.Stringer) []Action {
	acts := k.actions()
	var out []Action
	for _, name := range referenceOrder {
		b := acts[name]
		if key.Matches(msg, *b) {
			out = append(out, Action{Name: name, Binding: *b})
		}
	}
	return out
}
