package pages

import (
	tea "charm.land/bubbletea/v2"
)

// The pickers and prompts a page holds over its rows: q closes them as
// esc does (common.Overlayer), instead of quitting, and ? shows their
// keys (FullHelp is then the overlay's), never the keys of
// the rows beneath, which do not act while it is open.

func (t *Tree) Overlay() bool { return t.picker != nil }
func (t *Tree) CloseOverlay() tea.Cmd {
	t.picker, t.picking = nil, ""
	return nil
}

func (p *Partitions) Overlay() bool { return p.picker != nil }
func (p *Partitions) CloseOverlay() tea.Cmd {
	p.picker = nil
	return nil
}

func (p *Items) Overlay() bool { return p.picker != nil }
func (p *Items) CloseOverlay() tea.Cmd {
	p.picker = nil
	return nil
}

func (t *Time) Overlay() bool { return t.picker != nil }
func (t *Time) CloseOverlay() tea.Cmd {
	t.picker = nil
	return nil
}
