package pages

import (
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// What each list's search looks at (common.Searchable): its grid's loaded
// rows, and what it has not read yet.

func (t *Tables) List() common.List { return t.list.List() }
func (t *Tables) Unloaded() string  { return t.list.Unloaded() }

// A picker open over a list is what the cursor moves in: its rows are
// what the position counts and search looks at.

func (t *Tree) List() common.List {
	if t.picker != nil {
		return &t.picker.grid
	}
	return t.list.List()
}
func (t *Tree) Unloaded() string {
	if t.picker != nil {
		return ""
	}
	return t.list.Unloaded()
}

func (p *Items) List() common.List {
	if p.picker != nil {
		return &p.picker.grid
	}
	return list.NewHeld(&p.grid, &p.pg, &p.sort)
}
func (p *Items) Unloaded() string {
	if p.picker != nil {
		return ""
	}
	return p.pg.Unloaded()
}

func (t *Time) List() common.List {
	switch {
	case t.picker != nil:
		return &t.picker.grid
	case t.phase == timeRefused: // the rows read only decided it: none is listed
		return list.Empty
	}
	return list.NewHeld(&t.grid, &t.pg, &t.sort)
}
func (t *Time) Unloaded() string {
	if t.picker != nil || t.phase == timeRefused {
		return ""
	}
	return t.pg.Unloaded()
}

func (v *Versions) List() common.List { return v.list.List() }
func (v *Versions) Unloaded() string  { return v.list.Unloaded() }

func (t *Timeline) List() common.List { return t.list.List() }
func (t *Timeline) Unloaded() string  { return t.list.Unloaded() }

func (p *Partitions) List() common.List {
	if p.picker != nil {
		return &p.picker.grid
	}
	return p.list.List()
}
func (p *Partitions) Unloaded() string {
	if p.picker != nil {
		return ""
	}
	return p.list.Unloaded()
}

// TypesKeys reports whether / is the partitions' own (go to a key,
// searching what is loaded as it is typed), which the explorer's search
// leaves alone; not while the index picker is open: / searches its
// choices, as on every other picker.
func (p *Partitions) TypesKeys() bool { return p.picker == nil }

func (p *Changes) List() common.List { return p.list.List() }
func (p *Changes) Unloaded() string  { return p.list.Unloaded() }

// List is what / searches and the help line's "row N of M" counts: the
// matches found.
func (s *Search) List() common.List { return s.list.List() }

// Unloaded says what the matches found do not cover yet (nothing before
// a filter is given: nothing is being read).
func (s *Search) Unloaded() string {
	if !s.begun {
		return ""
	}
	return s.list.Unloaded()
}

// The entity types read (E).
func (e *Entities) List() common.List { return e.list.List() }
func (e *Entities) Unloaded() string  { return e.list.Unloaded() }

// The keys a comparison (=) found to differ.
func (d *Diff) List() common.List { return d.list.List() }
func (d *Diff) Unloaded() string  { return d.list.Unloaded() }

// The sides = offers to compare with.
func (p *DiffPicker) List() common.List { return p.list.List() }
func (p *DiffPicker) Unloaded() string  { return p.list.Unloaded() }
