package pages

import "github.com/dynascope/dynascope/internal/dynamo"

// ItemSelector is a page with an item selected (the item view, a list's
// row): > follows the references in it.
type ItemSelector interface {
	SelectedItem() (dynamo.Item, dynamo.TableInfo, bool)
}

func (p *Item) SelectedItem() (dynamo.Item, dynamo.TableInfo, bool) {
	return p.item, p.info, p.item != nil
}

func (p *Items) SelectedItem() (dynamo.Item, dynamo.TableInfo, bool) {
	if p.picker != nil {
		return nil, p.info, false
	}
	it, ok := p.pg.Row(p.sort.Row(p.grid.Cursor()))
	return it, p.info, ok
}

func (t *Time) SelectedItem() (dynamo.Item, dynamo.TableInfo, bool) {
	if t.picker != nil {
		return nil, t.info, false
	}
	it, ok := t.pg.Row(t.sort.Row(t.grid.Cursor()))
	return it, t.info, ok
}
