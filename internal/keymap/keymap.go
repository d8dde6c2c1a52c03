// Package keymap holds every key binding of the explorer and the help built
// from them, so that what the help says is what the keys do.
package keymap

import "charm.land/bubbles/v2/key"

// KeyMap is every binding, by action.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Open, Back, Quit, Help, Refresh         key.Binding
	GoTo, Flip, Wire, Wrap, Submit, Cancel  key.Binding
	NextMode, PrevMode, TreeMode, ItemsMode key.Binding
	Search, NextMatch, PrevMatch, Preview   key.Binding
	Count, Delimiter, Index, Entities       key.Binding
	Versions, PrevRev, NextRev, Mark, Diff0 key.Binding
	TimeMode, Range, Zone, Changes          key.Binding
	Copy, CopyKey, Export                   key.Binding
	Filter, Columns                         key.Binding
	Toggle, MoveUp, MoveDown, Auto          key.Binding // in the column picker
	Tour, Sort, SortFlip, Follow            key.Binding
	RefFollow, RefBack, RefForward          key.Binding
	StopLoad                                key.Binding // --data loading in the background
	Statement                               key.Binding // the PartiQL SELECT prompt
	Compare                                 key.Binding // = another environment or table
	// Interrupt quits from anywhere, a text box included, where q is
	// text: it is not rebindable (see reserved in rebind.go).
	Interrupt key.Binding
	// Suspend stops the explorer (ctrl+z; fg resumes it), as a shell's
	// job control does; not rebindable either.
	Suspend key.Binding
}

// Default returns the bindings docs/screens-and-keys.md lists.
func Default() KeyMap {
	return KeyMap{
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:     key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown:   key.NewBinding(key.WithKeys("pgdown", "ctrl+f", "space"), key.WithHelp("pgdn", "page down")),
		Top:        key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "first")),
		Bottom:     key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "last")),
		Open:       key.NewBinding(key.WithKeys("enter", "right", "l"), key.WithHelp("enter", "open")),
		Back:       key.NewBinding(key.WithKeys("esc", "left", "h", "backspace"), key.WithHelp("esc", "back")),
		Quit:       key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help:       key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Refresh:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		GoTo:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "go to a partition key")),
		Flip:       key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "flip order")),
		Wire:       key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "DynamoDB JSON")),
		Wrap:       key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "wrap long values")),
		Submit:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go")),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		NextMode:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next mode")),
		PrevMode:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous mode")),
		TreeMode:   key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "tree")),
		ItemsMode:  key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "items")),
		Search:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		NextMatch:  key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match")),
		PrevMatch:  key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
		Preview:    key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "preview")),
		Count:      key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "count")),
		Delimiter:  key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "delimiter")),
		Index:      key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "index")),
		Entities:   key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "entity types")),
		Versions:   key.NewBinding(key.WithKeys("3", "V"), key.WithHelp("3", "versions")),
		PrevRev:    key.NewBinding(key.WithKeys("[", "left"), key.WithHelp("[/←", "prev revision")),
		NextRev:    key.NewBinding(key.WithKeys("]", "right"), key.WithHelp("]/→", "next revision")),
		Mark:       key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mark to compare")),
		Diff0:      key.NewBinding(key.WithKeys("0"), key.WithHelp("0", "compare with the current copy")),
		TimeMode:   key.NewBinding(key.WithKeys("4"), key.WithHelp("4", "time")),
		Changes:    key.NewBinding(key.WithKeys("5"), key.WithHelp("5", "changes")),
		Range:      key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "time range")),
		Zone:       key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "UTC/local")),
		Copy:       key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy")),
		CopyKey:    key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy key/Go code")),
		Export:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export")),
		Filter:     key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "filter")),
		Columns:    key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "columns")),
		Toggle:     key.NewBinding(key.WithKeys("space", "x"), key.WithHelp("space", "show/hide")),
		MoveUp:     key.NewBinding(key.WithKeys("K", "shift+up"), key.WithHelp("K", "move up")),
		MoveDown:   key.NewBinding(key.WithKeys("J", "shift+down"), key.WithHelp("J", "move down")),
		Auto:       key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "most common")),
		Tour:       key.NewBinding(key.WithKeys("T"), key.WithHelp("T", "demo tour")),
		Sort:       key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort loaded rows")),
		SortFlip:   key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "flip sort")),
		Follow:     key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "follow new items")),
		RefFollow:  key.NewBinding(key.WithKeys(">"), key.WithHelp(">", "follow reference")),
		RefBack:    key.NewBinding(key.WithKeys("<", "ctrl+o"), key.WithHelp("</ctrl+o", "back")),
		RefForward: key.NewBinding(key.WithKeys("ctrl+i"), key.WithHelp("ctrl+i", "forward")),
		Compare:    key.NewBinding(key.WithKeys("="), key.WithHelp("=", "compare")),
		StopLoad:   key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "stop loading")),
		Statement:  key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "PartiQL")),
		Interrupt:  key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Suspend:    key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend")),
	}
}

// Moves are the movement bindings every list shares, for help.
func (k KeyMap) Moves() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// Global are the bindings every screen shares, for help.
func (k KeyMap) Global() []key.Binding {
	return []key.Binding{k.Back, k.Refresh, k.Copy, k.Help, k.Quit}
}
