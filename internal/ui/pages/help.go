package pages

import (
	"slices"

	"charm.land/bubbles/v2/key"

	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// A page's help is derived from one list of its keys (common.Keys), each
// turned off where it does not act; these are the parts list pages share.

// moveKeys are the moves, in column 0 of ? help, ↑ and ↓ on the help line
// too; they act where there are rows to move through.
func moveKeys(k keymap.KeyMap, rows bool) common.Keys {
	var ks common.Keys
	for i, b := range k.Moves() {
		b = common.On(b, rows)
		if i < 2 {
			ks = append(ks, common.Line(0, b))
			continue
		}
		ks = append(ks, common.More(0, b))
	}
	return ks
}

// modeKeys are tab on the help line and the mode keys in column group of
// ? help, each where it acts: tab where another mode applies, a mode's
// key where that mode does.
func modeKeys(group int, k keymap.KeyMap, tabs []common.ModeTab, cur string) common.Keys {
	step := len(modeStep(k, tabs, cur)) > 0
	ks := common.Keys{common.Line(group, common.On(k.NextMode, step)), common.More(group, common.On(k.PrevMode, step))}
	for _, t := range tabs {
		ks = append(ks, common.More(group, common.On(t.Key, t.Off == "")))
	}
	return ks
}

// searchKeys are / on the help line and n N in ? help, where there are
// rows to search (the explorer turns n and N off until a search is kept).
func searchKeys(group int, k keymap.KeyMap, rows bool) common.Keys {
	return common.Keys{common.Line(group, common.On(k.Search, rows)),
		common.More(group, common.On(k.NextMatch, rows)), common.More(group, common.On(k.PrevMatch, rows))}
}

// previewKey is p where it acts: from common.PreviewMin columns.
func previewKey(group int, c *common.Common, w int) common.Key {
	return common.More(group, common.On(c.Keys.Preview, w >= common.PreviewMin))
}

// withAgain is bs, then r where the list's help line offers it (after a
// failure or a cancel, named as its title says: list.Paged.AgainKey),
// then rest.
func withAgain(bs []key.Binding, again common.Key, rest ...key.Binding) []key.Binding {
	if again.Short && again.Enabled() {
		bs = append(bs, again.Binding)
	}
	return append(bs, rest...)
}

// endKeys are ? help and q quit, last everywhere.
func endKeys(group int, k keymap.KeyMap) common.Keys {
	return common.Keys{common.Line(group, k.Help), common.Line(group, k.Quit)}
}

// onRows is bs less the keys that act on a listed row (the moves, enter,
// / and n N) where none is listed: an empty, failed or still unanswered
// list does not offer them.
func onRows(k keymap.KeyMap, rows bool, bs []key.Binding) []key.Binding {
	if rows {
		return bs
	}
	off := append(k.Moves(), k.Open, k.Search, k.NextMatch, k.PrevMatch)
	return slices.DeleteFunc(slices.Clone(bs), func(b key.Binding) bool {
		return slices.ContainsFunc(off, func(o key.Binding) bool { return slices.Equal(b.Keys(), o.Keys()) && b.Help() == o.Help() })
	})
}

// onRowsFull is ? help's columns less the keys onRows drops, and the
// columns left empty.
func onRowsFull(k keymap.KeyMap, rows bool, cols [][]key.Binding) [][]key.Binding {
	var out [][]key.Binding
	for _, c := range cols {
		if c = onRows(k, rows, c); len(c) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// followingKeys are F and esc as the help names them: while following
// both stop it (F "stop following", esc "stop following" rather than
// back); otherwise F is follow, named desc ("" keeps its own name), and
// esc is back.
func followingKeys(k keymap.KeyMap, on bool, desc string) (follow, back key.Binding) {
	follow, back = k.Follow, k.Back
	switch {
	case on:
		follow = renamed(follow, "stop following")
		back = renamed(back, "stop following")
	case desc != "":
		follow = renamed(follow, desc)
	}
	return follow, back
}

// renamed is b named desc in the help, its keys and its state as they are.
func renamed(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}
