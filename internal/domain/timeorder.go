package domain

import (
	"container/heap"
	"time"
)

// TimeOrder puts what a read returns in key order into time order, where
// the keys are written in several UTC offsets and the two orders differ.
// A key's text is its local time, so a key read after another (its text
// no greater, newest first) is at most as much newer as the two offsets
// are apart: each value is held until no key still to be read can be on
// its far side, that is while the keys read after it are within Spread.
// What it holds is bounded by that: the values whose keys lie within the
// spread of the last one read (Held, MaxHeld), never the whole read.
type TimeOrder[T any] struct {
	Newest bool          // the read is newest first (descending keys)
	Spread time.Duration // how far apart the keys' offsets are
	held   timeHeap[T]
	seq    int
	// MaxHeld is the most values held at once: what the order cost in
	// memory.
	MaxHeld int
}

// orderSlack covers what text order and time order disagree on within
// a second: a fraction written or not (…42-05:00 sorts before …42.5-05:00).
const orderSlack = time.Second

// Push takes the next value read and its instant, and returns the values
// now known to come before every value still to be read, in time order.
func (o *TimeOrder[T]) Push(at time.Time, v T) []T {
	o.held.newest = o.Newest
	heap.Push(&o.held, timed[T]{at: at, v: v, seq: o.seq})
	o.seq++
	o.MaxHeld = max(o.MaxHeld, o.held.Len())
	return o.Pass(at)
}

// Pass is told the instant of a key read that is not kept (outside the
// range asked): the values it shows no key still to be read can precede
// are returned, in time order.
func (o *TimeOrder[T]) Pass(at time.Time) []T {
	o.held.newest = o.Newest
	var ready []T
	edge := o.Spread + orderSlack
	for o.held.Len() > 0 {
		top := o.held.items[0].at
		if o.Newest && !top.After(at.Add(edge)) || !o.Newest && !top.Before(at.Add(-edge)) {
			break
		}
		ready = append(ready, heap.Pop(&o.held).(timed[T]).v)
	}
	return ready
}

// Flush returns what is held, in time order: the read has ended (or
// stopped, and what it printed stays in order).
func (o *TimeOrder[T]) Flush() []T {
	o.held.newest = o.Newest
	var out []T
	for o.held.Len() > 0 {
		out = append(out, heap.Pop(&o.held).(timed[T]).v)
	}
	return out
}

// Held is how many values wait for the read to go past them.
func (o *TimeOrder[T]) Held() int { return o.held.Len() }

type timed[T any] struct {
	at  time.Time
	v   T
	seq int // read order, which equal instants keep
}

type timeHeap[T any] struct {
	items  []timed[T]
	newest bool
}

func (h timeHeap[T]) Len() int { return len(h.items) }
func (h timeHeap[T]) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if !a.at.Equal(b.at) {
		return a.at.After(b.at) == h.newest
	}
	return a.seq < b.seq
}
func (h timeHeap[T]) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *timeHeap[T]) Push(x any)   { h.items = append(h.items, x.(timed[T])) }
func (h *timeHeap[T]) Pop() any {
	last := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return last
}
