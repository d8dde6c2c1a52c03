package pages

import (
	tea "charm.land/bubbletea/v2"
)

// The pages' own text boxes as common.TextBox: what the open one holds,
// and a paste (bracketed paste) into it.

func (p *Partitions) Typed() (string, bool) { return p.input.Value(), p.inputOn }

func (p *Partitions) Paste(text string) tea.Cmd {
	if !p.inputOn {
		return nil
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Paste(text)
	p.followTyped()
	return cmd
}

func (p *Items) Typed() (string, bool) { return p.filter.input.Value(), p.filter.editing() }

func (p *Items) Paste(text string) tea.Cmd {
	if !p.filter.editing() {
		return nil
	}
	return p.filter.paste(text)
}

func (t *Time) Typed() (string, bool) {
	switch {
	case t.filter.editing():
		return t.filter.input.Value(), true
	case t.input.Focused():
		return t.input.Value(), true
	}
	return "", false
}

func (t *Time) Paste(text string) tea.Cmd {
	switch {
	case t.filter.editing():
		return t.filter.paste(text)
	case t.input.Focused():
		var cmd tea.Cmd
		t.input, cmd = t.input.Paste(text)
		t.inputErr = ""
		return cmd
	}
	return nil
}
