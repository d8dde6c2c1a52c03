package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// elsewhere says where an action applies, for a key pressed where it does
// not: every key the explorer binds either acts or says why not, as the
// dimmed mode tabs do.
var elsewhere = map[string]string{
	"count":            "it counts a Tree level's children (1)",
	"delimiter":        "it splits the sort keys in Tree mode (1)",
	"index":            "it picks an index on a table's partitions or a Tree level",
	"mark":             "it marks a revision in an item's version timeline (3, then enter)",
	"diff_v0":          "it compares revisions in an item's version timeline (3, then enter)",
	"prev_revision":    "it steps through an item's version timeline (3, then enter)",
	"next_revision":    "it steps through an item's version timeline (3, then enter)",
	"zone":             "it switches the times of Time mode (4)",
	"follow":           "it follows new items in Time mode (4) and new changes in Changes mode (5)",
	"range":            "it opens Time mode's range bar from a partition's Tree or Items (1, 2), or in Time mode (4)",
	"stop_load":        "nothing is loading",
	"tour":             "the tour is the demo's (dynascope --demo)",
	"filter":           "it filters a partition's items (2), Time mode (4) or, from a table's partitions, the whole table",
	"columns":          "it picks the columns of a partition's items (2) or Time mode (4)",
	"sort":             "it sorts the rows of a partition's items (2), versions (3) or Time mode (4)",
	"sort_flip":        "it sorts the rows of a partition's items (2), versions (3) or Time mode (4)",
	"flip":             "it flips the order of a partition's items (2) or Time mode (4)",
	"wire":             "it shows an item as DynamoDB JSON in the item view (enter on a row)",
	"wrap":             "it wraps an item's long values in the item view (enter on a row)",
	"copy":             "this view is not one query",
	"copy_key":         "this view is not one query",
	"export":           "it exports the rows of a partition's modes (1–4) or of a search (f, :)",
	"go_to":            "it goes to a key on a table's partitions",
	"search":           "this view has no list to search",
	"next_match":       "no search is kept here (/ searches a list)",
	"prev_match":       "no search is kept here (/ searches a list)",
	"next_mode":        "modes switch a partition's list: open one, or esc back to one",
	"prev_mode":        "modes switch a partition's list: open one, or esc back to one",
	"tree":             "modes switch a partition's list: open one, or esc back to one",
	"items":            "modes switch a partition's list: open one, or esc back to one",
	"versions":         "modes switch a partition's list: open one, or esc back to one",
	"time":             "modes switch a partition's list: open one, or esc back to one",
	"changes":          "it opens the changes of a partition (5), of a table (from its list or its partitions) or of an item",
	"toggle":           "it shows a column in the column picker (C)",
	"move_up":          "it moves a column in the column picker (C)",
	"move_down":        "it moves a column in the column picker (C)",
	"auto_columns":     "it picks columns in the column picker (C)",
	"refresh":          "this view reads nothing",
	"follow_reference": "",
	"entities":         "it lists the entity types of a table (its partitions) or of a partition (Tree, Items)",
	"compare":          "it compares a partition, a prefix (1, 2) or an item with another environment or table",
}

// notHere is what says why a key the page on top does not list does
// nothing here (nil: nothing to say). Moves, enter, esc and the like go
// unsaid; so does any key while an overlay (a picker, a prompt) is open,
// whose keys are its own.
func (m *Model) notHere(msg tea.KeyPressMsg) func() {
	p := m.top()
	if o, ok := p.(common.Overlayer); ok && o.Overlay() {
		return nil
	}
	acts := m.c.Keys.ActionsOf(msg)
	if len(acts) == 0 {
		return nil // not a key of the explorer
	}
	if slices.ContainsFunc(acts, func(a keymap.Action) bool { return elsewhere[a.Name] == "" }) {
		// A move, open, back…: never worth a word. Asked first, as the
		// page's help below costs ~20 µs a key (200 j at once).
		return nil
	}
	if m.noSearchYet(acts) {
		// n and N are the search's (/), listed by every page that has
		// one: before it they did nothing, silently (the tables).
		a := acts[0]
		return func() {
			m.sayWhy(a.Binding.Help().Key+" "+a.Binding.Help().Desc+" does not apply here", "no search yet (/ searches the rows first)")
		}
	}
	if l, ok := p.(common.KeyLister); ok && l.HelpKeys().Owns(msg) {
		return nil // the page's own key, off for now: the page says why, or nothing
	}
	var listed []key.Binding
	for _, g := range p.FullHelp() {
		listed = append(listed, g...)
	}
	listed = append(listed, p.ShortHelp()...)
	if slices.ContainsFunc(listed, func(b key.Binding) bool { return b.Enabled() && key.Matches(msg, b) }) {
		return nil // the page's own key, which it may decline quietly
	}
	a := acts[0]
	why := elsewhere[a.Name]
	if o, ok := p.(whyNotHere); ok {
		if own := o.whyNotHere(a.Name); own != "" {
			why = own // the page knows better than the general reason
		}
	}
	return func() {
		m.sayWhy(a.Binding.Help().Key+" "+a.Binding.Help().Desc+" does not apply here", why)
	}
}

// whyNotHere is a page whose reason for an action it does not take is
// its own ("" where the general one in elsewhere is true of it).
type whyNotHere interface {
	whyNotHere(action string) string
}

// noSearchYet reports whether acts are n or N on a list that / searches,
// with no search of it kept.
func (m *Model) noSearchYet(acts []keymap.Action) bool {
	if _, ok := m.top().(common.Searchable); !ok || m.searching() {
		return false
	}
	return slices.ContainsFunc(acts, func(a keymap.Action) bool { return a.Name == "next_match" || a.Name == "prev_match" })
}
