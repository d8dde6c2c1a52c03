package common

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// KeyLister is a page whose help is derived from its keys (Keys): a key
// of its own that does not act right now is declined quietly (the page
// may say why), never answered as another screen's key.
type KeyLister interface {
	HelpKeys() Keys
}

// Key is one of a screen's keys and whether it acts there now. A screen
// lists its keys once (Keys); its help line, its ? help and the
// explorer's answer to a key pressed where it does nothing are all read
// from that list, so a key is shown only where it acts: one turned off
// (On, as bubbles' key.Binding.SetEnabled) drops out of every help.
type Key struct {
	key.Binding
	Short bool // on the help line as well as in ? help
	Group int  // its column in ? help
}

// Keys are a screen's keys, in the help line's order.
type Keys []Key

// On is b where it acts, and b turned off where it does not.
func On(b key.Binding, acts bool) key.Binding {
	if !acts {
		b.SetEnabled(false)
	}
	return b
}

// Line is a key on the help line and in column group of ? help.
func Line(group int, b key.Binding) Key { return Key{Binding: b, Short: true, Group: group} }

// More is a key in column group of ? help only.
func More(group int, b key.Binding) Key { return Key{Binding: b, Group: group} }

// ShortHelp is the keys of the help line that act here.
func (ks Keys) ShortHelp() []key.Binding {
	var out []key.Binding
	for _, k := range ks {
		if k.Short && k.Enabled() {
			out = append(out, k.Binding)
		}
	}
	return out
}

// FullHelp is ? help's columns of the keys that act here, in the order
// of their groups.
func (ks Keys) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, k := range ks {
		if !k.Enabled() {
			continue
		}
		for len(out) <= k.Group {
			out = append(out, nil)
		}
		out[k.Group] = append(out[k.Group], k.Binding)
	}
	var cols [][]key.Binding
	for _, g := range out {
		if len(g) > 0 {
			cols = append(cols, g)
		}
	}
	return cols
}

// Owns reports whether msg is one of the keys, acting here or not.
func (ks Keys) Owns(msg tea.KeyPressMsg) bool {
	for _, k := range ks {
		b := k.Binding
		b.SetEnabled(true) // a binding turned off matches nothing
		if key.Matches(msg, b) {
			return true
		}
	}
	return false
}
