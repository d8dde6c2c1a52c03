package dynamo

import (
	"math"

	"github.com/dynascope/dynascope/internal/domain"
)

// A level of large children whose names do not count up (airport codes:
// 60 children of 80 items) is walked a probe a child, in stretches: about
// 0.5 RCU a child, but a round trip for every child of the most crowded
// stretch (12 at 20 ms, where reading the level whole takes 2). With
// ChildrenRequest.FewTrips, the walk learns the first child's size beside
// its second probe (a Select COUNT of the rest of that child, bounded to a
// few read units) and, where reading the whole level at that size costs
// no more than fewTripsFactor times probing it, reads the rest of the
// level in plain pages, cut into as many stretches as it fills pages, all
// at once: about three round trips, for about what reading the level costs.
// Children larger than the bound (a state with thousands of stores below)
// are probed as before.

// fewTripsFactor is how many times the RCU of probing a level the few
// round trips may spend: never more than reading the level whole.
const fewTripsFactor = 9

// sizeReadUnits bounds the read of the first child's rest: a child larger
// than this many read units is large enough to probe.
const sizeReadUnits = 8

// childSize is the read of the first child's size, under way.
type childSize struct {
	done  chan struct{}
	items int     // the child's items: the probe's and the rest counted
	rcu   float64 // what reading the whole child costs, as billed
	whole bool    // the count reached the child's end
}

// readChildSize counts the rest of the first child, after the keys the
// first probe read (n of them, costing rcu), up to sizeReadUnits read
// units of items of the probe's size (perUnit a unit).
func (lv *levelWalk) readChildSize(child domain.Child, lastKey string, n int, rcu float64, perUnit int32) *childSize {
	cs := &childSize{done: make(chan struct{})}
	go func() {
		defer close(cs.done)
		end, ok := domain.PrefixEnd(child.Prefix)
		if lv.binary {
			b, okb := domain.BytesEnd([]byte(child.Prefix))
			end, ok = string(b), okb
		}
		if !ok {
			return
		}
		q := lv.level
		q.SK = domain.SKCondition{Op: domain.SKBetween, A: skValue(domain.After(lastKey), lv.binary), B: skValue(end, lv.binary)}
		page, err := CountPage(lv.ctx, lv.c, PageRequest{Query: q, Limit: sizeReadUnits * max(perUnit, 1)})
		lv.mu.Lock()
		lv.extra = lv.extra.Add(page.Cost)
		lv.mu.Unlock()
		if err != nil {
			return
		}
		cs.items = n + page.Count
		cs.rcu = rcu + page.Cost.Billed
		cs.whole = !page.More()
	}()
	return cs
}

// plainStretches is how many stretches of plain pages the rest of the
// level takes, once its first child's size is known: 0 where probing is
// cheaper by more than fewTripsFactor, or the size is not known.
func (w *walker) plainStretches() int {
	lv := w.lv
	if !lv.r.FewTrips || lv.size == nil {
		return 0
	}
	<-lv.size.done
	cs := lv.size
	if !cs.whole || cs.items == 0 {
		return 0 // a child larger than the bound: probe
	}
	ahead := w.childrenAhead()
	if ahead <= 0 {
		return 0
	}
	perChild := math.Max(cs.rcu, 0.5)
	if perChild > fewTripsFactor*0.5 {
		return 0
	}
	pages := ahead * perChild / pageRCU
	return int(math.Ceil(pages))
}

// childrenAhead is how many children the rest of the stretch holds, by
// the pace of the names found over the key space (as cutPoints reckons).
func (w *walker) childrenAhead() float64 {
	prefix := w.lv.r.Prefix
	ch := w.walk.Children()
	start := w.walk.Start()
	if len(ch) < 2 || len(start) < len(prefix) {
		return 0
	}
	span := namePos(ch[len(ch)-1].Name) - namePos(ch[0].Name)
	if span <= 0 {
		return 0
	}
	hi := keySpaceEnd
	if w.end != "" {
		hi = namePos(w.end[len(prefix):])
	}
	now := namePos(start[len(prefix):])
	return float64(len(ch)-1) / span * math.Max(hi-now, 0)
}
