package dynamo

import (
	"strings"

	"github.com/dynascope/dynascope/internal/domain"
)

// What a reader that decides by the real values hands on. Such a reader
// (time detection and a merge by time, follow's newest key, grouping
// revisions, a command's largest item) reads below the mask, as
// WalkChildren does, and everything it shows or writes passes through
// one of these first: items, key conditions, keys and revisions as the
// masked client would have answered them. Every method is safe on a nil
// *Masked, which shows everything as it is.

// Hides reports whether table's attr is masked whole.
func (m *Masked) Hides(table, attr string) bool {
	return m != nil && m.For(table).Whole(attr)
}

// ShownItem is a whole item read below the mask as the masked client
// answers it, noting which masked attributes it holds (Unseen).
func (m *Masked) ShownItem(table string, it Item) Item {
	if m == nil {
		return it
	}
	return m.itemSeen(table, it, true)
}

// Shower is ShownItem for table's items, or nil where nothing of table
// is masked (export's Options.Show).
func (m *Masked) Shower(table string) func(Item) Item {
	if m == nil || !m.Masks(table) {
		return nil
	}
	return func(it Item) Item { return m.ShownItem(table, it) }
}

// ShownKey is a key value of table's attr as it may be shown: masked
// segment by segment around d ("": the table's delimiter) where the mask
// covers attr.
func (m *Masked) ShownKey(table, attr, value, d string) string {
	if m == nil {
		return value
	}
	return m.KeyTextAround(table, attr, value, d)
}

// ShownQuery is q, which holds the real values, as it may be shown: its
// key values masked (segments around d, "": the table's delimiter) where
// the mask covers the key attributes, the values typed in its filter
// against masked attributes stand-ins. RealQuery is its inverse.
func (m *Masked) ShownQuery(q domain.KeyQuery, d string) domain.KeyQuery {
	if m == nil || !m.Masks(q.Table) {
		return q
	}
	mask := m.For(q.Table)
	key := func(attr string, v domain.KeyValue) domain.KeyValue {
		if v.IsZero() || !mask.Whole(attr) {
			return v
		}
		if v.Type == domain.TypeS {
			return domain.S(m.KeyTextAround(q.Table, attr, v.Text, d))
		}
		return domain.S(m.standIn(mask, v.Text, AttributeValue(v)))
	}
	q.PK = key(q.PKName, q.PK)
	q.SK.A, q.SK.B = key(q.SKName, q.SK.A), key(q.SKName, q.SK.B)
	q.Filter = mask.Filter(q.Filter)
	return q
}

// ShownHistory is a versioned item read below the mask as it may be
// shown: its name masked around d, every copy masked as an item, and
// every revision's sort key masked in its name only, so that the version
// marker stays readable (v0_‹m1›).
func (m *Masked) ShownHistory(table, skName string, h domain.History, d string) domain.History {
	if m == nil || !m.Masks(table) {
		return h
	}
	key := func(k string) string {
		if base, ok := strings.CutSuffix(k, h.Name); ok && h.Name != "" {
			return base + m.KeyTextAround(table, skName, h.Name, d)
		}
		return m.KeyTextAround(table, skName, k, d)
	}
	rev := func(r domain.Revision) domain.Revision {
		r.Key, r.Name = key(r.Key), m.KeyTextAround(table, skName, r.Name, d)
		r.Item = m.shownPlain(table, r.Item, d)
		return r
	}
	if h.Current != nil {
		cur := rev(*h.Current)
		h.Current = &cur
	}
	revs := make([]domain.Revision, len(h.Revisions))
	for i, r := range h.Revisions {
		revs[i] = rev(r)
	}
	h.Revisions, h.Name = revs, m.KeyTextAround(table, skName, h.Name, d)
	return h
}

// shownPlain is a plain item (PlainItem's) as it may be shown: a copy,
// its key attributes masked segment by segment around d.
func (m *Masked) shownPlain(table string, it map[string]any, d string) map[string]any {
	if it == nil {
		return nil
	}
	if d == "" {
		d = m.delim(table)
	}
	m.mu.Lock()
	delims := map[string]string{}
	for attr := range m.keys[table] {
		delims[attr] = d
	}
	m.mu.Unlock()
	cp := make(map[string]any, len(it))
	for k, v := range it {
		cp[k] = v
	}
	return m.For(table).Plain(cp, delims)
}
