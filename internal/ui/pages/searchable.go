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

// TypesKeys marks the partitions' own / (go to a key, searching what is
// loaded as it is typed), which the explorer's search leaves alone.
func (p *Partitions) TypesKeys() {}

func (p *Changes) List() common.List { return p.list.List() }
func (p *Changes) Unloaded() string  { return p.list.Unloaded() }
