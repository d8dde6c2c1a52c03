package pages

import (
	"context"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
)

// runMaskedChildren walks the real keys (the skip-scan compares keys read
// with where it stands, which stand-ins, in no real order, would break)
// and hands on what it found with each segment and shard a stand-in.
func runMaskedChildren(ctx context.Context, mc *dynamo.Masked, r dynamo.ChildrenRequest, shards []domain.KeyValue, page, req int, out chan childrenFoundMsg) {
	shown := r
	r.PK = mc.KeyValue(r.PK)
	r.Prefix = mc.Text(r.Prefix)
	r.Resume = nil
	for _, c := range shown.Resume {
		c.Name, c.Prefix = mc.Text(c.Name), mc.Text(c.Prefix)
		r.Resume = append(r.Resume, c)
	}
	real := make([]domain.KeyValue, len(shards))
	for i, sh := range shards {
		real[i] = mc.KeyValue(sh)
	}
	if shards == nil {
		real = nil
	}
	in := make(chan childrenFoundMsg, 64)
	go runChildren(ctx, mc.Client, r, real, page, req, in)
	for msg := range in {
		d := msg.delim
		if d == "" {
			d = r.Delim
		}
		cs := make([]dynamo.ShardChild, len(msg.children))
		for i, c := range msg.children {
			c.Name = mc.KeyTextAround(r.Table, r.Key.SK.Name, c.Name, d)
			c.Prefix = mc.KeyTextAround(r.Table, r.Key.SK.Name, c.Prefix, d)
			if c.Shards != nil {
				sh := make([]domain.KeyValue, len(c.Shards))
				for j, v := range c.Shards {
					sh[j] = v
					if v.Type != domain.TypeB {
						sh[j].Text = mc.KeyText(r.Table, r.Key.PK.Name, v.Text)
					}
				}
				c.Shards = sh
			}
			cs[i] = c
		}
		msg.children, msg.next = cs, out
		out <- msg
		if msg.done {
			return
		}
	}
}
