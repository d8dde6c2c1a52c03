package dynamo

import (
	"math"

	"github.com/dynascope/dynascope/internal/domain"
)

// A dense level (60 airport codes of 80 items: 2.75 RCU a child) probed a
// child at a time costs 0.5 RCU a child, but a round trip for every few
// children: 12 at 20 ms where reading it whole takes 2. So once the reads
// show children no larger than denseChildRCU, the walk reads the rest of
// the level in plain pages instead, cut by key space into as many
// stretches as the rest fills pages, all at once: about as many round
// trips as reading the level whole.
//
// What tells a child's size is a read of whole items that sees one end:
// the level's first read, a first page of firstReadUnits read units at the
// table's average item size (ChildrenRequest.ItemBytes: the same read
// makes a leaf of up to that size one Query, the plain query's; on a
// partition's top level, weighingKeys, so that its stretches go out in
// the second round trip: USA in two where weighing second took three,
// and its cut child, on average half a child, pays for the rest's read);
// or,
// where that size is not known and the first read (firstProbeKeys) was
// filled by one child, the second, sent as such a first page at the item
// size the first read measured. The read of the level's last key goes
// out beside the read after it, once the walk probes on, not beside this
// one: a level that ends within it (a customer's 56 orders: 10 keys, then
// 46) paid for the last key's read on top of the two that read it whole,
// 2.0 RCU where a full read costs 1.0 (now 1.5). A level of few huge
// children pays for the weighing read once (its rest is probed as
// before, the rest cut once the last key's read, beside the next probe,
// answers: no round trip more); a dense level's stretches spread to the
// end of its names' alphabet (readRest); a level that ends after its first
// child pays nothing for the second (it finds nothing, as the probe would
// have).
//
// The second round trip is the stretches'. A level that one read could
// hold still takes two where the first read stops short of it (300
// children of one item of 108 B: 256 keys, maxFirstKeys, then 44), and
// no Limit told from the item size alone serves both it and a level of
// few large children (3 × 3,000 items of 68 B, whose first read is all
// the first child's): a cap of 4,096 keys, letting the ten read units
// bind, cost that level 5.5 RCU where 256 cost 4.0, and still read the
// 300 children in two (291 keys). Where the level's item count is known
// (the explorer's count of the child it opens, LevelItems) and says it
// weighs no more than the first read, that read asks for all of it
// (fewItemsKeys): one round trip.
//
// Two reads of a one-page level bill the rounding of one read unit more
// than the one Query wherever the first ends early in its last unit:
// 300 children of one item of 108 B, 256 keys (6.75 units, 7 billed)
// then 44 (1.16, 2 billed), 4.5 RCU against the Query's 4.0. No Limit
// told from the average size cures it without costing others: grown to
// fill its last unit at that size (265 keys), the first read of USA,
// whose first items weigh 108.4 B against its 107 B average, spilled
// into an eighth unit (67.0 RCU against 66.5); cut to its whole units
// (89 keys), a level of one child of 100 items that 101 keys read whole
// took three reads, 4.5 RCU against 4.0. Only the level's count
// (fewItemsKeys) makes such a level one read.
//
// Never more RCU than reading the level whole, never a key read twice:
// the stretches start after the keys already read, past the child the
// last read cut into, whose rest is skipped, as is the first child's
// rest where the first read was filled by it. What is skipped pays for the
// reads a full read would not make (each may round its last read unit up,
// and the last key's read is a whole unit for one key); where it would
// not pay for one stretch (USA's 53 states of 1.25 RCU each), the walk
// probes on.

const (
	// firstReadUnits is the weighing read, in read units at the item size
	// known (the table's average, or measured with a margin): long enough
	// to see a dense child end.
	firstReadUnits = 10
	// maxFirstKeys bounds the weighing read however small the items (the
	// table's average may be far below the level's).
	maxFirstKeys = 256
	// denseChildRCU is the largest child (as read whole, eventually
	// consistent) whose level is read in plain stretches: 8 read units,
	// where probing costs one.
	denseChildRCU = 4.0
	// stretchRCU is what one stretch is meant to read: a 1 MB page.
	stretchRCU = pageBytes / readUnitBytes * 0.5
	// roundingRCU is what a read adds, on average, to the same items read
	// within a longer one: its last read unit rounded up.
	roundingRCU = 0.25
)

// weighNext makes the next read a first page of whole items, where the
// level's first read was filled by one child no larger than a dense one:
// the read that sees whether the next child ends soon. A first read that
// was such a page already (the item size known) is not weighed again.
func (w *walker) weighNext(keys []string, page Page) bool {
	r := w.lv.r
	rcu := measuredRCU(page.Items)
	if r.Probe || !w.first || w.dense || w.weighedFirst() || !oneChild(keys, r.Prefix, w.walk.Delim) || rcu >= denseChildRCU || !w.probe.Sized {
		return false
	}
	sized := w.probe.Keys
	if w.probe.Heavy {
		// One item larger than a read unit sized the probe to a key: the
		// page is sized by the others (CUSTOMER#c0187, a 15 KB order
		// among its first ten: a weighing read of 10 keys, then three
		// reads more of the small rest).
		sized = max(sized, measured(lightItems(page.Items), 0).Keys)
	}
	w.limit = min(firstReadUnits*sized, maxFirstKeys)
	w.weigh, w.firstRCU = true, rcu
	return true
}

// lightItems are the items no larger than a read unit.
func lightItems(items []Item) []Item {
	var out []Item
	for _, it := range items {
		if ItemBytes(it) <= readUnitBytes {
			out = append(out, it)
		}
	}
	return out
}

// weighedFirst says the level's first read was a weighing read: a
// partition's top level whose item size is known (ChildrenRequest.ItemBytes).
func (w *walker) weighedFirst() bool {
	return w.lv.r.Prefix == "" && w.lv.r.ItemBytes > 0
}

// weighingKeys is a top level's first read's Limit at items of b bytes:
// as many as firstReadUnits read units hold with the margin a probe
// leaves (measured), and one more (a level of that many ends within the
// read: one that stops at its Limit says there may be more), up to
// maxFirstKeys.
func weighingKeys(b int) int32 {
	if n, heavy := heavyFirstKeys(b); heavy {
		return n
	}
	perUnit := min(max(readUnitBytes/(b+b/8+16), 1), maxProbeKeys)
	return int32(min(firstReadUnits*perUnit+1, maxFirstKeys))
}

// fewItemsKeys is a first read's Limit where the level is known to weigh
// no more than firstReadUnits read units: the items it may hold (the
// table's, DescribeTable's count; or the level's, LevelItems, as the
// caller counted them) at the table's average size. It asks for them and
// one more, past maxFirstKeys, so the level ends within the read. It
// costs no more than the first read it stands for (300 children of one
// item of 108 B: one Query of 4.0 RCU, the full read, where a first read
// cut at maxFirstKeys took two and 4.5), and a level of one child of
// many items is read as before: its count weighs more than the read.
// Where the level's items are larger than the table's average, the read
// still costs no more than the level's full read: it holds no more items
// than the level does.
func (r ChildrenRequest) fewItemsKeys() (int32, bool) {
	n := r.TableItems
	if r.LevelItems > 0 && (n <= 0 || r.LevelItems < n) {
		n = r.LevelItems
	}
	if r.Probe || n <= 0 || r.ItemBytes <= 0 || n*r.ItemBytes > firstReadUnits*readUnitBytes {
		return 0, false
	}
	return int32(n + 1), true
}

// heavyFirstKeys is a first read's Limit where the table's items are
// larger than a read unit: as many as firstReadUnits read units hold, and
// never fewer than two, from which the delimiter is told. A read of
// at least a key a read unit (11 at 200 KB: the 1 MB page, 125 RCU, to
// list a partition of 6 such items and 20 small ones) bought items the
// walk skips past.
func heavyFirstKeys(b int) (int32, bool) {
	unit := b + b/8 + 16
	if unit <= readUnitBytes {
		return 0, false
	}
	return int32(max(firstReadUnits*readUnitBytes/unit, 2)), true
}

// denseAfter is the decision after a read of whole items (the level's
// first, or the weighing read after it): where a child ended in it no
// larger than denseChildRCU, the rest of the level is read in plain
// stretches.
func (w *walker) denseAfter(page Page, weighed bool) bool {
	lv := w.lv
	if lv.r.Probe || !w.first || w.dense || w.walk.Delim == "" {
		return false
	}
	sizes := childBytes(page.Items, lv.r.Key.SK.Name, lv.r.Prefix, w.walk.Delim)
	if len(sizes) < 2 {
		return false
	}
	whole := 0
	for _, b := range sizes[:len(sizes)-1] {
		whole += b
	}
	perChild := bytesRCU(float64(whole) / float64(len(sizes)-1))
	skipped := perChild - bytesRCU(float64(sizes[len(sizes)-1]))
	if !weighed && w.weighedFirst() {
		// The read's end falls anywhere in the child it cuts, more often
		// in the larger ones: on average at least half a child is
		// skipped, however much of this one was read (USA's AR, read
		// further than the mean of AK and AL, would have it none).
		skipped = perChild / 2
	}
	// The first read is the full read's first page, cut short: one read
	// it would not make.
	extra := 1
	if weighed {
		// The first child's rest was skipped too; the first read and
		// this one are not the full read's, and two reads' rounding more
		// is kept as it was when the last key's was sent beside this one
		// (a whole read unit for one key): the stretches the bench
		// levels measured.
		skipped += max(perChild-w.firstRCU, 0)
		extra = 4
	}
	return w.readRest(perChild, skipped, extra, weighed && w.lv.last == nil)
}

// readRest switches the walk to plain stretches where children of
// perChild RCU are dense and the rest skipped pays for the rounding of the
// reads a full read would not make (extra so far, and each stretch's
// beyond the first; two for each where endUnknown).
func (w *walker) readRest(perChild, skipped float64, extra int, endUnknown bool) bool {
	if perChild > denseChildRCU || skipped <= 0 {
		return false
	}
	spare := int(skipped/roundingRCU) - extra
	if spare < 0 {
		return false
	}
	if endUnknown {
		// The level's last key not read (after a weighing read), the
		// stretches spread to the end of the names' alphabet: one may lie
		// past the last name, its one read finding nothing and billing a
		// whole read unit, two roundings (60 airport codes: 11 stretches
		// where the last key's read bounded them to 8).
		spare /= 2
	}
	afford := spare + 1
	pages := max(1, int(math.Ceil(w.childrenAhead()*perChild/stretchRCU)))
	n := min(pages, afford, cap(w.lv.slots))
	w.dense = true
	w.limit = 0
	if n > 1 && w.lv.parallel > 1 { // Parallel 1: one read after another
		w.cut(n - 1)
	}
	return true
}

// childBytes are the sizes of the items read, child by child in key
// order (the last may go on past the read).
func childBytes(items []Item, skName, prefix, delim string) []int {
	var sizes []int
	last := ""
	for _, it := range items {
		k, ok := skText(it[skName])
		if !ok {
			continue
		}
		name, _, ok := domain.ChildOf(prefix, k, delim)
		if !ok {
			continue
		}
		if len(sizes) == 0 || name != last {
			sizes, last = append(sizes, 0), name
		}
		sizes[len(sizes)-1] += ItemBytes(it)
	}
	return sizes
}

// bytesRCU is what reading n bytes costs within a longer read: 0.5 RCU
// per 4 KB, not rounded.
func bytesRCU(n float64) float64 { return n / readUnitBytes * 0.5 }

// measuredRCU is what the items cost read whole, not rounded.
func measuredRCU(items []Item) float64 {
	n := 0
	for _, it := range items {
		n += ItemBytes(it)
	}
	return bytesRCU(float64(n))
}

// childrenAhead is how many children the rest of the stretch holds, by
// the pace of the names found over the key space (as cutPoints reckons),
// up to the end of the alphabet they are written in.
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
	if end, ok := alphabetEnd(ch); ok {
		hi = min(hi, namePos(end))
	}
	now := namePos(start[len(prefix):])
	return float64(len(ch)-1) / span * math.Max(hi-now, 0)
}
