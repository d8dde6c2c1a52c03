package dynamo

import (
	"sort"
	"strings"
	"sync"

	"github.com/dynascope/dynascope/internal/domain"
)

// A dense level read in plain stretches has read its children whole: the
// explorer, entering one, need not read it again. The walk keeps the sort
// keys it read (ChildrenRequest.HoldKeys bounds their bytes: past it, it
// keeps none) and where its reads ran without a gap; a child whose subtree
// lies inside such a run was read whole, and its level is told from the
// keys held (HeldKeys.Level), with no request.

// HeldKeys are the sort keys a level's walk read, and the stretches of key
// space it read without a gap.
type HeldKeys struct {
	prefix, delim string
	keys          []string  // sorted, each once
	runs          []heldRun // sorted by lo, merged
	// entries, on an index (whose sort keys need not be unique), are how
	// many entries were read of each key, told apart by the table's key
	// each carries; cuts are where a read stopped with more to read (its
	// last key, whose other entries may lie past the read after it).
	entries map[string]int
	cuts    []string
	// largest and exact are the largest item the walk read (heldRun's):
	// a count from these keys sizes its reads by them, so that the
	// heavy items between two gaps size the reads of the gaps.
	largest, exact int
}

// heldRun is key space read without a gap: from lo up to hi (a key read,
// or a stretch's end), or to the level's end.
type heldRun struct {
	lo, hi string
	toEnd  bool
	// rcu is what the reads that held it cost, and keys how many keys
	// they read (a key read by two of them counted twice): a stretch
	// read again at that pace costs what it holds.
	rcu         float64
	keys, reads int
	// largest and exact are the reads' largest item, as a count's
	// reads are sized (CountPass.largest, CountPass.exact).
	largest, exact int
}

// keyHold gathers, across a level's walkers, the keys read and the key
// space each read covered, up to max bytes of keys.
type keyHold struct {
	mu    sync.Mutex
	max   int
	bytes int
	over  bool
	keys  []string
	runs  []heldRun
	// index: the level is an index's, whose entries are held by their
	// table keys too (a read's ids, one per key, in its order).
	index bool
	ids   map[heldEntry]struct{}
	// last is the level's last key, read alone (one entry of it): the
	// walk stops short of it, so of an index its other entries are read
	// only where a read of the walk read that key too.
	last *heldEntry
}

// heldEntry is an index entry: its sort key and the table's key.
type heldEntry struct{ key, table string }

// readLast records the read of the level's last key (last.go): of an
// index, its one entry is held as last, not as one of the walk's reads.
func (h *keyHold) readLast(k string, run heldRun, ids []string) {
	if h == nil {
		return
	}
	if h.index && len(ids) == 1 {
		h.mu.Lock()
		h.last = &heldEntry{k, ids[0]}
		h.mu.Unlock()
		ids = []string{""} // a table key no entry has: counted by last
	}
	h.read([]string{k}, run, ids)
}

// read records a read's keys, which cover key space from start to hi (or
// to the level's end); ids (an index's) are each key's table key: an
// index read without them holds nothing.
func (h *keyHold) read(keys []string, run heldRun, ids []string) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.over {
		return
	}
	for i, k := range keys {
		h.bytes += len(k)
		if h.index && i < len(ids) {
			h.bytes += len(ids[i])
		}
	}
	if h.bytes > h.max || (h.index && len(ids) != len(keys)) {
		h.over, h.keys, h.runs, h.ids = true, nil, nil, nil
		return
	}
	if h.index {
		if h.ids == nil {
			h.ids = map[heldEntry]struct{}{}
		}
		for i, k := range keys {
			if ids[i] != "" {
				h.ids[heldEntry{k, ids[i]}] = struct{}{}
			}
		}
	}
	h.keys = append(h.keys, keys...)
	h.runs = append(h.runs, run)
}

// held is what the walk holds once done (nil past the bound); leaves
// holds a level no delimiter cuts too (its children its keys), for a
// count to count, not a level to be told from.
func (h *keyHold) held(prefix, delim string, leaves bool) *HeldKeys {
	if h == nil || h.over || (delim == "" && !leaves) {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	keys := append([]string(nil), h.keys...)
	sort.Strings(keys)
	keys = compactStrings(keys)
	runs := append([]heldRun(nil), h.runs...)
	sort.Slice(runs, func(i, j int) bool { return runs[i].lo < runs[j].lo })
	var entries map[string]int
	var cuts []string
	if h.index {
		entries = make(map[string]int, len(keys))
		for e := range h.ids {
			entries[e.key]++
		}
		if l := h.last; l != nil && entries[l.key] == 0 {
			// Read alone: its other entries, if any, are unread.
			entries[l.key], cuts = 1, append(cuts, l.key)
		}
		for _, r := range runs {
			if !r.toEnd {
				cuts = append(cuts, r.hi)
			}
		}
	}
	var merged []heldRun
	largest, exact := 0, 0
	for _, r := range runs {
		largest, exact = max(largest, r.largest), max(exact, r.exact)
		if n := len(merged); n > 0 {
			last := &merged[n-1]
			// The next read starts where the last ended: just past its
			// last key (After) or at its stretch's end.
			if last.toEnd || r.lo <= domain.After(last.hi) {
				if !last.toEnd && (r.toEnd || r.hi > last.hi) {
					last.hi, last.toEnd = r.hi, r.toEnd
				}
				last.rcu, last.keys, last.reads = last.rcu+r.rcu, last.keys+r.keys, last.reads+r.reads
				continue
			}
		}
		merged = append(merged, r)
	}
	return &HeldKeys{prefix: prefix, delim: delim, keys: keys, runs: merged, entries: entries, cuts: cuts, largest: largest, exact: exact}
}

// heldLargest is the largest item of a walk's read, as a count sizes its
// reads by (PageLargest, and its size as billed): a read of keys alone
// (the walk's skips and stretches) bounds its largest only by all it
// paid, so there it is the read's share an item (8 keys of 40 KB items
// read for 39.5 RCU: 40 KB each, not 323 KB).
func heldLargest(page Page) (largest, exact int) {
	largest = pageLargest(page.Cost.RCU, false, page.Items, page.Scanned, false, false)
	most := 0
	for _, it := range page.Items {
		most = max(most, ItemBytes(it))
	}
	if n := max(len(page.Items), page.Scanned); n > 0 {
		share := int(page.Cost.RCU/readUnitRCU(false)*readUnitBytes/float64(n)) + 1
		largest = min(largest, max(share, most))
	}
	return largest, largest
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, k := range s {
		if i == 0 || k != s[i-1] {
			out = append(out, k)
		}
	}
	return out
}

// Whole says whether every key under the child's prefix was read: the
// child's level can be told from the keys held.
func (h *HeldKeys) Whole(c domain.Child) bool {
	if h == nil || !c.HasChildren || c.Prefix == "" {
		return false
	}
	p := c.Prefix
	for _, r := range h.runs {
		if r.lo > p {
			return false
		}
		if r.toEnd || (r.hi >= p && !strings.HasPrefix(r.hi, p)) {
			return true
		}
	}
	return false
}

// Level is the level under prefix (a whole child's, Whole) as a walk of
// it would find it, told from the keys held: no request, no cost. Its
// Held holds that level's keys, every child of it whole.
func (h *HeldKeys) Level(r ChildrenRequest) ChildrenResult {
	prefix := r.Prefix
	lo := sort.SearchStrings(h.keys, prefix)
	hi := lo
	for hi < len(h.keys) && strings.HasPrefix(h.keys[hi], prefix) {
		hi++
	}
	keys := h.keys[lo:hi:hi]
	binary := r.Key.SK != nil && r.Key.SK.Type == domain.TypeB
	res := ChildrenResult{Delim: h.delim}
	res.Level = domain.KeyQuery{Table: r.Table, Index: r.Index, PKName: r.Key.PK.Name, PK: r.PK, SKName: r.Key.SK.Name}
	if prefix != "" {
		res.Level.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: skValue(prefix, binary)}
	}
	walk := domain.NewChildWalk(prefix, h.delim)
	walk.Feed(keys)
	res.Children, res.SelfItem = walk.Children(), walk.SelfItem
	res.Sample = sampleKeys(nil, keys, prefix, h.delim)
	res.Held = &HeldKeys{prefix: prefix, delim: h.delim, keys: keys, runs: []heldRun{{lo: prefix, toEnd: true}}}
	if h.entries != nil {
		res.Held.entries = h.entries // keys past the level's are never asked of it
		for _, c := range h.cuts {
			if strings.HasPrefix(c, prefix) {
				res.Held.cuts = append(res.Held.cuts, c)
			}
		}
	}
	return res
}

// timeless reports whether child c was read whole and none of its keys
// holds a time, by enc or in any form known (account#, read with the key
// after it, beside Event#{time}): a time range finds nothing in it. A
// prefix of times in a form enc does not hold (BATTERY#{epoch ms} beside
// ALARM#{epoch s}) is not: ranges refuse it by name.
func (h *HeldKeys) timeless(c domain.Child, enc domain.TimeEncoding) bool {
	if !h.Whole(c) {
		return false
	}
	lo := sort.SearchStrings(h.keys, c.Prefix)
	hi := lo
	for hi < len(h.keys) && strings.HasPrefix(h.keys[hi], c.Prefix) {
		if _, ok := enc.KeyTime(h.keys[hi]); ok {
			return false
		}
		hi++
	}
	_, timed := domain.TimeForms(h.keys[lo:hi])
	return timed == 0
}

// HeldKeysBytes bounds the keys a walk holds for the explorer (HoldKeys):
// 4 MB, some 100,000 keys of 40 bytes; a level read whole past it is read
// again when entered.
const HeldKeysBytes = 4 << 20

// Count is how many items are under child c (the item itself, if it is
// one, and its subtree), told from the keys held, as CountChild would
// count them, with no request; ok is false where they cannot tell: c not
// read whole, keys under c's prefix that may be other children's (a time
// going on, which CountChild tells apart by reading them), or on an
// index (whose sort keys need not be unique, so its entries are counted,
// told apart by the table's key each carries) where a read stopped at
// one of c's keys: the read after it began past that key, and may have
// passed over more of its entries.
func (h *HeldKeys) Count(r ChildrenRequest, c domain.Child) (n int, ok bool) {
	if !h.Whole(c) || domain.TimeGoesOn(r.Prefix, c.Name, h.delim) {
		return 0, false
	}
	item := r.Prefix + c.Name
	index := r.Index != "" || r.TableKeys != nil
	if index {
		if h.entries == nil {
			return 0, false
		}
		for _, k := range h.cuts {
			if strings.HasPrefix(k, c.Prefix) || (c.IsItem && k == item) {
				return 0, false
			}
		}
	}
	one := func(k string) int {
		if index {
			return h.entries[k]
		}
		return 1
	}
	lo := sort.SearchStrings(h.keys, c.Prefix)
	for _, k := range h.keys[lo:] {
		if !strings.HasPrefix(k, c.Prefix) {
			break
		}
		n += one(k)
	}
	if c.IsItem {
		n += one(item)
	}
	return n, true
}

// CountPass is a count of the level r names (the level whose walk held
// these keys) that starts from them: their children counted, and left to
// read only the key space the walk did not (the rest of a child its
// first read cut into, a subtree it skipped), so c after the walk reads
// no key twice but where two gaps are read as one. nil where they cannot
// seed one: another level, an index (whose reads cannot start past a key
// alone), or none held.
//
// A skip-scanned level leaves a gap a child, each after the probe that
// found it: read apart, a request a child (Geography's 20 countries: 20
// Queries where a count from nothing takes 4). Gaps the walk's reads
// split by keys that cost no more than a read unit to read again (a
// probe's) are one stretch (a chain): read as one, the keys between them
// are read again (and counted once), for no more than the request each
// join saves; and the chain is read in pages, spread once its first page
// tells its pace (spreadChains). Keys that weigh more (a dense run the
// walk read whole: USA's AL, AR and AZ, 250 keys, between the rests of AK
// and CA) are not read again: the gaps on either side are read apart, at
// once (2 Queries, 2.0 RCU, where one through them cost 4.5, and under
// the explorer's --count-budget 2 each c spent its budget on them).
func (h *HeldKeys) CountPass(r ChildrenRequest) *CountPass {
	if h == nil || r.Prefix != h.prefix || r.Index != "" || r.TableKeys != nil || r.Key.SK == nil || r.Key.SK.Type == domain.TypeN {
		return nil
	}
	r.Delim, r.NoDelim = h.delim, false
	p := NewCountPass(r)
	p.started = true
	p.largest, p.exact = h.largest, h.exact
	held := p.stretches[0]
	held.done = true
	p.tally(held, h.keys)
	// The key space not read: from the level's start (included) to the
	// first run, between runs, and past the last unless it ran to the
	// end. A run ends at a key read (held: the gap begins past it) or at
	// a stretch's end, which is the next stretch's (begins at it).
	from, in := r.Prefix, true
	var before *heldRun // the run before the gap added next, if a gap is before it
	add := func(end string) bool {
		if end != "" && (end <= from || (!in && end <= domain.After(from))) {
			return false // nothing between
		}
		if end == "" && from == r.Prefix && in && len(h.runs) > 0 {
			return false // a run starts at the level's start
		}
		part := gapPart{from: from, fromIn: in, end: end}
		if n := len(p.stretches); before != nil && n > 1 && h.small(*before) {
			// Read with the gap before it: the keys between are read
			// again, counted then.
			g := p.stretches[n-1]
			g.end, g.parts = end, append(g.parts, part)
			p.separator(before.lo, before.hi, -1)
			p.keptRCU -= h.runRCU(*before)
			return true
		}
		g := &stretch{from: from, end: end, gap: true, fromIn: in, parts: []gapPart{part}, walk: domain.NewChildWalk(r.Prefix, h.delim).From(from)}
		if !in {
			g.at = from // read past it
		}
		p.stretches = append(p.stretches, g)
		return true
	}
	p.heldKeys = h.keys
	for i, run := range h.runs {
		p.keptRCU += h.runRCU(run)
		gapBefore := run.lo > from && add(run.lo)
		if run.toEnd {
			return p
		}
		j := sort.SearchStrings(h.keys, run.hi)
		from, in = run.hi, !(j < len(h.keys) && h.keys[j] == run.hi)
		before = nil
		if gapBefore {
			before = &h.runs[i]
		}
	}
	if end, ok := levelEnd(r.Prefix, p.binary); !ok || from < end {
		add("")
	}
	return p
}

// small says a run of keys read between two gaps costs no more than a
// read unit (minReadUnits) to read again, at the pace of the reads that
// held it: no more than the request reading the gaps apart would cost.
func (h *HeldKeys) small(run heldRun) bool {
	if run.toEnd {
		return false
	}
	n := h.between(run.lo, run.hi)
	if n == 0 {
		return true
	}
	return run.keys > 0 && float64(n)*run.rcu/float64(run.keys) <= minReadUnits
}

// runRCU is what a run's keys weigh, read once, at the pace of the
// reads that held it, less what each read may have rounded up: it errs
// low, so that a bound it is taken from errs high.
func (h *HeldKeys) runRCU(run heldRun) float64 {
	if run.keys == 0 || run.rcu <= minReadUnits*float64(run.reads) {
		return 0
	}
	n := len(h.keys) - sort.SearchStrings(h.keys, run.lo)
	if !run.toEnd {
		n = h.between(run.lo, run.hi)
	}
	return float64(n) * (run.rcu - minReadUnits*float64(run.reads)) / float64(run.keys)
}

// between is how many keys held lie in [lo, hi].
func (h *HeldKeys) between(lo, hi string) int {
	return sort.SearchStrings(h.keys, domain.After(hi)) - sort.SearchStrings(h.keys, lo)
}

// levelEnd is the first key past the level under prefix; ok is false
// where there is none (prefix "" or all 0xff).
func levelEnd(prefix string, binary bool) (string, bool) {
	if prefix == "" {
		return "", false
	}
	if binary {
		b, ok := domain.BytesEnd([]byte(prefix))
		return string(b), ok
	}
	return domain.PrefixEnd(prefix)
}
