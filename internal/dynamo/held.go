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
}

// read records a read's keys, which cover key space from start to hi (or
// to the level's end).
func (h *keyHold) read(keys []string, run heldRun) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.over {
		return
	}
	for _, k := range keys {
		h.bytes += len(k)
	}
	if h.bytes > h.max {
		h.over, h.keys, h.runs = true, nil, nil
		return
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
	var merged []heldRun
	for _, r := range runs {
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
	return &HeldKeys{prefix: prefix, delim: delim, keys: keys, runs: merged}
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
	return res
}

// HeldKeysBytes bounds the keys a walk holds for the explorer (HoldKeys):
// 4 MB, some 100,000 keys of 40 bytes; a level read whole past it is read
// again when entered.
const HeldKeysBytes = 4 << 20

// Count is how many items are under child c (the item itself, if it is
// one, and its subtree), told from the keys held, as CountChild would
// count them, with no request; ok is false where they cannot tell: c not
// read whole, an index (whose item keys need not be unique), or keys
// under c's prefix that may be other children's (a time going on, which
// CountChild tells apart by reading them).
func (h *HeldKeys) Count(r ChildrenRequest, c domain.Child) (n int, ok bool) {
	if !h.Whole(c) || r.Index != "" || domain.TimeGoesOn(r.Prefix, c.Name, h.delim) {
		return 0, false
	}
	lo := sort.SearchStrings(h.keys, c.Prefix)
	for _, k := range h.keys[lo:] {
		if !strings.HasPrefix(k, c.Prefix) {
			break
		}
		n++
	}
	if c.IsItem {
		n++
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
// split by keys that cost no more than a dense child (a probe's, a
// weighing read's) are one stretch (a chain): read as one, the keys
// between them are read again (and counted once), still less than a
// count from nothing reads, in no more requests; and the chain is read
// in pages, spread once its first page tells its pace (spreadChains).
func (h *HeldKeys) CountPass(r ChildrenRequest) *CountPass {
	if h == nil || r.Prefix != h.prefix || r.Index != "" || r.TableKeys != nil || r.Key.SK == nil || r.Key.SK.Type == domain.TypeN {
		return nil
	}
	r.Delim, r.NoDelim = h.delim, false
	p := NewCountPass(r)
	p.started = true
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
// dense child to read again (denseChildRCU: what the walk itself reads
// whole rather than spend a request to skip), at the pace of the reads
// that held it.
func (h *HeldKeys) small(run heldRun) bool {
	if run.toEnd {
		return false
	}
	n := h.between(run.lo, run.hi)
	if n == 0 {
		return true
	}
	return run.keys > 0 && float64(n)*run.rcu/float64(run.keys) <= denseChildRCU
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
