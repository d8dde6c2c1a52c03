package domain

// Paths are the nested paths masked inside attr (an empty path: all of
// it), for callers that walk values of their own shape.
func (m *Mask) Paths(attr string) [][]string {
	if m == nil {
		return nil
	}
	return m.paths[attr]
}

// Share is m drawing its stand-ins from o's, so that masks built for
// different tables of one session give a value one stand-in, and a
// stand-in names one value.
func (m *Mask) Share(o *Mask) *Mask {
	if m == nil || o == nil {
		return m
	}
	return &Mask{paths: m.paths, ids: o.ids}
}
