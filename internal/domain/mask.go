package domain

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Mask hides the values of chosen attributes (--mask, mask = [...]) from
// everything dynascope shows or writes, while requests keep the real
// values. Each value is replaced by a stand-in that is stable for the run
// (the same value always reads the same, so grouping and equality still
// read right) and distinct for distinct values. Key attributes are masked
// segment by segment, so a hierarchy keeps its shape. A nil *Mask masks
// nothing. It is safe for concurrent use.
type Mask struct {
	paths map[string][][]string // top-level attribute → nested paths (an empty path: all of it)
	ids   *standIns
}

// standIns numbers the values masked so far; masks made for one run share
// them, so a value reads the same everywhere.
type standIns struct {
	mu  sync.Mutex
	ids map[string]int
}

// ParseMask reads attribute paths: Name, or Name.nested.path for a value
// inside a map (a list's elements are each masked).
func ParseMask(specs []string) (*Mask, error) {
	m := &Mask{paths: map[string][][]string{}, ids: &standIns{ids: map[string]int{}}}
	for _, spec := range specs {
		spec = strings.TrimSpace(spec)
		if spec == "" {
			continue
		}
		parts := strings.Split(spec, ".")
		for _, p := range parts {
			if p == "" {
				return nil, fmt.Errorf("mask %q has an empty name: write attr or attr.nested", spec)
			}
		}
		m.paths[parts[0]] = append(m.paths[parts[0]], parts[1:])
	}
	if len(m.paths) == 0 {
		return nil, nil
	}
	return m, nil
}

// Union is a mask of both masks' attributes, sharing a's stand-ins.
func (m *Mask) Union(o *Mask) *Mask {
	switch {
	case o == nil:
		return m
	case m == nil:
		return o
	}
	u := &Mask{paths: map[string][][]string{}, ids: m.ids}
	for _, src := range []*Mask{m, o} {
		for k, ps := range src.paths {
			u.paths[k] = append(u.paths[k], ps...)
		}
	}
	return u
}

// Attributes are the top-level attributes the mask touches, sorted.
func (m *Mask) Attributes() []string {
	if m == nil {
		return nil
	}
	out := make([]string, 0, len(m.paths))
	for k := range m.paths {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Whole reports whether attr's whole value is masked (not just parts of it).
func (m *Mask) Whole(attr string) bool {
	if m == nil {
		return false
	}
	for _, p := range m.paths[attr] {
		if len(p) == 0 {
			return true
		}
	}
	return false
}

// StandIn is the stand-in for one value, given as its text (a number's
// digits, a string itself).
func (m *Mask) StandIn(text string) string {
	m.ids.mu.Lock()
	defer m.ids.mu.Unlock()
	id, ok := m.ids.ids[text]
	if !ok {
		id = len(m.ids.ids) + 1
		m.ids.ids[text] = id
	}
	return fmt.Sprintf("‹m%d›", id)
}

// Key masks a key value segment by segment around delim (each segment
// gets its own stand-in; delimiters and empty segments stay), so a
// hierarchy keeps its shape. With no delim the whole value is one segment.
func (m *Mask) Key(value, delim string) string {
	if m == nil || value == "" {
		return value
	}
	if delim == "" {
		return m.StandIn(value)
	}
	parts := strings.Split(value, delim)
	for i, p := range parts {
		if p != "" {
			parts[i] = m.StandIn(p)
		}
	}
	return strings.Join(parts, delim)
}

// KeyIf masks a key value of attribute attr when the mask covers it.
func (m *Mask) KeyIf(attr, value, delim string) string {
	if !m.Whole(attr) {
		return value
	}
	return m.Key(value, delim)
}

// Plain masks a plain item (as dynamo.PlainItem makes it: strings,
// json.Number, bools, maps, lists, nil) in place and returns it. keyDelims
// names the key attributes, masked segment by segment around their
// delimiter; other masked values get one stand-in each.
func (m *Mask) Plain(item map[string]any, keyDelims map[string]string) map[string]any {
	if m == nil {
		return item
	}
	for attr, paths := range m.paths {
		v, ok := item[attr]
		if !ok {
			continue
		}
		for _, p := range paths {
			if len(p) == 0 {
				if d, isKey := keyDelims[attr]; isKey {
					if s, ok := v.(string); ok {
						v = m.Key(s, d)
						continue
					}
				}
				v = m.value(v)
				continue
			}
			v = m.nested(v, p)
		}
		item[attr] = v
	}
	return item
}

// nested masks path inside v (maps by name; lists element by element).
func (m *Mask) nested(v any, path []string) any {
	switch x := v.(type) {
	case map[string]any:
		inner, ok := x[path[0]]
		if !ok {
			return x
		}
		if len(path) == 1 {
			x[path[0]] = m.value(inner)
		} else {
			x[path[0]] = m.nested(inner, path[1:])
		}
		return x
	case []any:
		for i := range x {
			x[i] = m.nested(x[i], path)
		}
		return x
	}
	return v
}

// value is one masked value's stand-in, as text (NULL included: only an
// absent attribute shows as absent).
func (m *Mask) value(v any) string {
	var text string
	switch x := v.(type) {
	case nil:
		return m.StandIn("null")
	case string:
		text = x
	case json.Number:
		text = x.String()
	default:
		b, _ := json.Marshal(x)
		text = string(b)
	}
	return m.StandIn(text)
}

// Seen reports which of the mask's attributes appear in any of the items
// (top level), for the note about a mask that names nothing.
func (m *Mask) Seen(items []map[string]any) map[string]bool {
	seen := map[string]bool{}
	if m == nil {
		return seen
	}
	for _, it := range items {
		for attr := range m.paths {
			if _, ok := it[attr]; ok {
				seen[attr] = true
			}
		}
	}
	return seen
}
