package dynamo

import (
	"context"

	"github.com/dynascope/dynascope/internal/domain"
)

// WalkChildren walks a level: r's children, or with shards every shard's
// merged by name (ShardedChildren), handing each child to emit as it is
// found; children returns them all, in key order.
//
// Through a Masked client it is the one place a walk is masked: the
// skip-scan reads the real keys (it compares the keys it reads with where
// it stands, which stand-ins, in no real order, would break), asked for by
// a request given in stand-ins (the partition, the prefix, the children a
// resumed walk had), and every child it hands on or returns shows its
// segments and shards as stand-ins. The result's Level and Sample are the
// real keys the walk read, for the reader's own decisions, never to show.
func WalkChildren(ctx context.Context, c Client, r ChildrenRequest, shards []domain.KeyValue, emit func(ShardChild, Cost)) (children []ShardChild, res ChildrenResult, err error) {
	m, masked := c.(*Masked)
	if !masked {
		return walkChildren(ctx, c, r, shards, emit)
	}
	real := m.realChildrenRequest(r)
	show := func(ch ShardChild, d string) ShardChild { return m.shownChild(real, ch, d) }
	real.HoldKeys = 0 // the keys held are real: a level told from them would be too
	children, res, err = walkChildren(ctx, m.Client, real, m.realKeys(shards), func(ch ShardChild, cost Cost) {
		if emit != nil {
			emit(show(ch, real.Delim), cost)
		}
	})
	d := res.Delim
	if d == "" {
		d = real.Delim
	}
	for i := range children {
		children[i] = show(children[i], d)
	}
	for i := range res.Children {
		res.Children[i] = show(ShardChild{Child: res.Children[i]}, d).Child
	}
	return children, res, err
}

func walkChildren(ctx context.Context, c Client, r ChildrenRequest, shards []domain.KeyValue, emit func(ShardChild, Cost)) ([]ShardChild, ChildrenResult, error) {
	if len(shards) > 0 {
		return ShardedChildren(ctx, c, r, shards, emit)
	}
	var each func(domain.Child, Cost)
	if emit != nil {
		each = func(child domain.Child, cost Cost) { emit(ShardChild{Child: child}, cost) }
	}
	res, err := Children(ctx, c, r, each)
	all := make([]ShardChild, len(res.Children))
	for i, child := range res.Children {
		all[i] = ShardChild{Child: child}
	}
	return all, res, err
}

// realChildrenRequest is r, given in stand-ins, as the walk must ask it.
func (m *Masked) realChildrenRequest(r ChildrenRequest) ChildrenRequest {
	shown := r.Resume
	r.PK = m.KeyValue(r.PK)
	r.Prefix = m.Text(r.Prefix)
	r.Resume = nil
	for _, c := range shown {
		c.Name, c.Prefix = m.Text(c.Name), m.Text(c.Prefix)
		r.Resume = append(r.Resume, c)
	}
	return r
}

// realKeys are partition keys given in stand-ins, as they are read (nil
// stays nil: no shards).
func (m *Masked) realKeys(keys []domain.KeyValue) []domain.KeyValue {
	if keys == nil {
		return nil
	}
	out := make([]domain.KeyValue, len(keys))
	for i, k := range keys {
		out[i] = m.KeyValue(k)
	}
	return out
}

// ShownChild is a child of r's level (read from the real keys) as it may
// be shown: for readers of a level other than the walk, such as a count
// in one pass.
func (m *Masked) ShownChild(r ChildrenRequest, c ShardChild, d string) ShardChild {
	return m.shownChild(m.realChildrenRequest(r), c, d)
}

// RealChildrenRequest is r, which may be given in stand-ins (a key copied
// from masked output), as a reader of the real keys must ask it.
func (m *Masked) RealChildrenRequest(r ChildrenRequest) ChildrenRequest {
	return m.realChildrenRequest(r)
}

// shownChild is a child of r's level as it may be shown: its name and
// prefix masked segment by segment around d, its shards' keys masked.
func (m *Masked) shownChild(r ChildrenRequest, c ShardChild, d string) ShardChild {
	c.Name = m.KeyTextAround(r.Table, r.Key.SK.Name, c.Name, d)
	c.Prefix = m.KeyTextAround(r.Table, r.Key.SK.Name, c.Prefix, d)
	if c.Shards != nil {
		sh := make([]domain.KeyValue, len(c.Shards))
		for j, v := range c.Shards {
			sh[j] = v
			if v.Type != domain.TypeB {
				sh[j].Text = m.KeyText(r.Table, r.Key.PK.Name, v.Text)
			}
		}
		c.Shards = sh
	}
	return c
}
