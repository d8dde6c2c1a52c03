package dynamo

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dynascope/dynascope/internal/domain"
)

// maxPrefixDepth bounds how deep TimePrefixes looks for the segment before
// the time (A#B#2020-… is two levels down).
const maxPrefixDepth = 4

// TimePrefixes finds the prefixes the time follows in a partition whose
// keys put it after one (WARNING1#2020-…, NORMAL#2020-…) with the
// drill-down's skip-scan: one Children walk of the level the sampled keys
// put their time under (the top one for STATE#time; A#B#time is two
// down), unless the sample already holds every prefix (knownPrefixes).
// r names the partition; its Prefix and Delim are set here. A
// prefix the sample read whole without a time in it (PROFILE#, beside
// PHOTO#<ULID>) is left out: its Query would find nothing.
func TimePrefixes(ctx context.Context, c Client, r ChildrenRequest, enc domain.TimeEncoding, sample TimeSample) ([]string, Cost, error) {
	prefixes, _, cost, err := timePrefixesLeft(ctx, c, r, enc, sample, true)
	return prefixes, cost, err
}

// TimePrefixesLeft is TimePrefixes, and the prefixes its walk read whole
// and found no time in (account# beside Event#{time} and
// invoice#{time}#{ulid}), which it leaves out: their Query would find
// nothing in any range.
func TimePrefixesLeft(ctx context.Context, c Client, r ChildrenRequest, enc domain.TimeEncoding, sample TimeSample) (prefixes, left []string, cost Cost, err error) {
	return timePrefixesLeft(ctx, c, r, enc, sample, true)
}

// timePrefixHold bounds the keys a walk for the time prefixes holds to
// tell a child it read whole (HeldKeys.timeless): its reads are probes.
const timePrefixHold = 1 << 20

// timePrefixesLeft is TimePrefixesLeft; probe false where the caller has
// already read the gap between the sample's reads (formsPrefixes,
// gapPrefixes) and found a key past the prefixes it knows (the walk
// follows).
func timePrefixesLeft(ctx context.Context, c Client, r ChildrenRequest, enc domain.TimeEncoding, sample TimeSample, probe bool) ([]string, []string, Cost, error) {
	if !enc.NeedsPrefix() {
		return nil, nil, Cost{}, fmt.Errorf("the keys do not put the time after a prefix")
	}
	if known, ok := sample.knownPrefixes(enc); ok {
		return known, nil, Cost{}, nil // the sample's reads hold them all: no walk
	}
	var total Cost
	if probe {
		prefixes, cost, ok, err := gapOrFormsPrefixes(ctx, c, r, enc, sample)
		total = cost
		if err != nil || ok {
			return prefixes, nil, total, err
		}
	}
	depths := map[int]bool{}
	deepest := 1
	for _, k := range sample.Keys {
		i, _, _, ok := enc.Locate(k)
		if !ok {
			continue
		}
		d := strings.Count(k[:i], enc.Sep)
		depths[d] = true
		deepest = max(deepest, min(d, maxPrefixDepth))
	}
	if len(depths) == 0 {
		depths[1] = true
	}
	var out, left []string
	var walk func(prefix string, depth int) error
	walk = func(prefix string, depth int) error {
		r.Prefix, r.Delim = prefix, enc.Sep
		r.Probe = true // a sample of the level, not its listing: no first page
		r.HoldKeys = timePrefixHold
		res, err := Children(ctx, c, r, nil)
		total = total.Add(res.Cost)
		if err != nil {
			return err
		}
		for _, ch := range res.Children {
			if !ch.HasChildren || sample.timeless(ch.Prefix, enc) || sample.namedTimeless(ch.Prefix, enc) {
				continue // nothing below it to read, or nothing of time
			}
			if res.Held.timeless(ch, enc) {
				left = append(left, ch.Prefix) // read whole by the walk: no time in it
				continue
			}
			if depths[depth] {
				out = append(out, ch.Prefix)
			}
			if depth < deepest {
				if err := walk(ch.Prefix, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := walk("", 1)
	return out, left, total, err
}

// formsPrefixes are the prefixes of a form a prefix (enc.Forms) when no
// other key lies between the sample's newest and oldest reads (gapWithin).
// A key found there that the sample did not read may be of a prefix of no
// known form: false, and the caller walks.
func formsPrefixes(ctx context.Context, c Client, r ChildrenRequest, enc domain.TimeEncoding, sample TimeSample) ([]string, Cost, bool, error) {
	prefixes := make([]string, 0, len(enc.Forms.List))
	for _, f := range enc.Forms.List {
		prefixes = append(prefixes, f.Prefix)
	}
	slices.Sort(prefixes)
	cost, ok, err := gapWithin(ctx, c, r, sample, prefixes)
	if !ok {
		return nil, cost, false, err
	}
	return prefixes, cost, true, err
}

// gapPrefixes are the prefixes the time follows in the sample's keys when
// one end of the sample holds no time (ElectroDB's lines below its
// orders) and no other key lies between its newest and oldest reads, past
// those prefixes and the ones detection named as holding no time
// (gapWithin): one request, where the children walk read the orders' keys
// again, the sample's among them (95 keys, 3.5 RCU, for a customer whose
// whole partition costs 5.5). Keys of both ends holding times (a state
// log's NORMAL# and WARNING1#) say nothing of what lies between: false,
// with no read.
func gapPrefixes(ctx context.Context, c Client, r ChildrenRequest, enc domain.TimeEncoding, sample TimeSample) ([]string, Cost, bool, error) {
	if !sample.timelessEnd(enc, true) && !sample.timelessEnd(enc, false) {
		return nil, Cost{}, false, nil
	}
	var timed []string
	for p := range sample.seenPrefixes(enc) {
		timed = append(timed, p)
	}
	slices.Sort(timed)
	known := slices.Clone(timed)
	for _, t := range sample.Timeless {
		if enc.Sep != "" && strings.HasSuffix(t, enc.Sep) {
			known = append(known, t)
		}
	}
	slices.Sort(known)
	cost, ok, err := gapWithin(ctx, c, r, sample, slices.Compact(known))
	if !ok || len(timed) == 0 {
		return nil, cost, false, err
	}
	return timed, cost, true, err
}

// gapWithin reports whether every key between the sample's newest and
// oldest reads lies under one of prefixes (sorted): the gap less those
// prefixes is read one keys-only key at a time, one request a stretch
// (between a sensor's readings and alarms: one), where the children walk
// costs a request a child and level. A key found there that the sample
// did not read: false.
func gapWithin(ctx context.Context, c Client, r ChildrenRequest, sample TimeSample, prefixes []string) (Cost, bool, error) {
	var total Cost
	var top, bottom []string
	for _, run := range sample.runs {
		switch {
		case run.within != "" || run.past:
		case run.top && top == nil:
			top = run.keys
		case run.bottom && bottom == nil:
			bottom = run.keys
		}
	}
	if len(top) == 0 || len(bottom) == 0 || r.Key.SK == nil || r.Key.SK.Type != domain.TypeS {
		return total, false, nil
	}
	lo, hi := bottom[len(bottom)-1], top[len(top)-1] // the gap: between the oldest read's newest key and the newest read's oldest
	if hi <= lo {
		return total, true, nil // the reads met
	}
	seen := map[string]bool{}
	for _, k := range sample.Keys {
		seen[k] = true
	}
	type stretch struct{ from, to string } // both inclusive
	var stretches []stretch
	from := domain.After(lo)
	for _, p := range prefixes {
		if p > from {
			stretches = append(stretches, stretch{from, min(p, hi)})
		}
		end, ok := domain.PrefixEnd(p)
		if !ok {
			from = ""
			break
		}
		from = max(from, end)
	}
	if from != "" && from <= hi {
		stretches = append(stretches, stretch{from, hi})
	}
	q := domain.KeyQuery{Table: r.Table, Index: r.Index, PKName: r.Key.PK.Name, PK: r.PK, SKName: r.Key.SK.Name}
	var scratch TimeSample
	for _, st := range stretches {
		start := st.from
		for tries := 0; ; tries++ {
			if start > st.to {
				break
			}
			if tries == 3 {
				return total, false, nil
			}
			q.SK = domain.SKCondition{Op: domain.SKBetween, A: domain.S(start), B: domain.S(st.to)}
			keys, _, cost, err := sampleRead(ctx, c, q, r.TableKeys, 1, &scratch)
			total = total.Add(cost)
			if err != nil {
				return total, false, err
			}
			if len(keys) == 0 {
				break
			}
			if !seen[keys[0]] {
				return total, false, nil // a key the sample did not read, under no known prefix
			}
			start = domain.After(keys[0])
		}
	}
	return total, true, nil
}

// gapOrFormsPrefixes are the prefixes the time follows where the gap
// between the sample's reads tells them (formsPrefixes where the keys'
// forms each name a prefix, else gapPrefixes).
func gapOrFormsPrefixes(ctx context.Context, c Client, r ChildrenRequest, enc domain.TimeEncoding, sample TimeSample) ([]string, Cost, bool, error) {
	if enc.Forms != nil {
		return formsPrefixes(ctx, c, r, enc, sample)
	}
	return gapPrefixes(ctx, c, r, enc, sample)
}

// namedTimeless reports a prefix detection named as holding no time
// (Timeless: $account#line_ beside $account#order_1#placedat_{time}),
// or one under it, said to be left out of ranges: the walk leaves it out
// too, where it listed $account#line_1#orderid_ and its Query found
// nothing.
func (s TimeSample) namedTimeless(prefix string, enc domain.TimeEncoding) bool {
	return slices.Contains(s.Timeless, prefix) || s.timelessOver(prefix, enc.Sep) != ""
}

// timeless reports a prefix the sample holds whole, none of whose keys is
// a time in enc.
func (s TimeSample) timeless(prefix string, enc domain.TimeEncoding) bool {
	for _, k := range s.Keys {
		if strings.HasPrefix(k, prefix) {
			if _, ok := enc.KeyTime(k); ok {
				return false
			}
		}
	}
	return s.WholePrefix(prefix)
}

// MergedRange is one time range read across several prefixes at once: one
// Query per prefix, each in time order, merged by time (a k-way merge) so
// that the whole reads newest first (or oldest first) as one list. Each
// prefix's next page is read only when its buffered items run out and the
// merge needs its next item: reads stay sized to what is taken.
type MergedRange struct {
	Queries  []domain.KeyQuery // one per prefix, as sent
	Prefixes []string
	Cost     Cost
	Pages    int
	Scanned  int // items DynamoDB read, before a filter
	Taken    int // items Next has returned
	// Left are the prefixes the walk that found Prefixes read whole and
	// found no time in (TimePrefixesLeft): not queried.
	Left    []string
	c       Client
	enc     domain.TimeEncoding
	page    int32
	tables  *KeySchema
	heads   []mergeHead
	fromEnd bool // read from the other end: ties go to the later prefix
	// Found is what finding the prefixes cost, when the merge found them
	// itself (RangeAcross, past a read of the partition that did not
	// hold the range whole).
	Found Cost
	// ReadOnce: the range was answered by one read of the partition's
	// stretch (or by the time sample, with no read at all), not by one
	// Query a prefix.
	ReadOnce bool
	// OnceQuery is that one read, as sent (Op SKNone and no Table: no
	// read at all, the sample holding every key).
	OnceQuery domain.KeyQuery
	once      *onceRead
	r         domain.TimeRange
	base      domain.KeyQuery
	full      [][]Item // a range read once, whole: each prefix's items, for FromEnd
	// Keep, when not nil, is which items read the merge takes: a range
	// over keys in several UTC offsets is read wider than asked, and the
	// items outside it are read (and counted in Scanned), not taken.
	Keep func(Item) bool
}

type mergeHead struct {
	buf   []Item
	times []time.Time
	start Item
	done  bool
}

// NewMergedRange prepares the merge of r over prefixes of base, read from c (a
// partition, on the table or an index: tableKeys when an index), pageSize
// items a request (0: DynamoDB's 1 MB pages). Newest first unless
// base.Reverse is false.
func NewMergedRange(c Client, base domain.KeyQuery, prefixes []string, r domain.TimeRange, enc domain.TimeEncoding, pageSize int32, tableKeys *KeySchema) (*MergedRange, error) {
	m := &MergedRange{c: c, enc: enc, page: pageSize, tables: tableKeys, Prefixes: prefixes, r: r, base: base}
	for _, p := range prefixes {
		sk, err := domain.CompileRange(r, enc, p)
		if err != nil {
			return nil, RangeError{err}
		}
		q := base
		q.SK = sk
		m.Queries = append(m.Queries, q)
		m.heads = append(m.heads, mergeHead{})
	}
	return m, nil
}

// Next returns the next item in time order, reading a page of a prefix
// when the merge needs it; nil with no error at the end.
func (m *MergedRange) Next(ctx context.Context) (Item, error) {
	if m.once != nil {
		if err := m.readOnce(ctx); err != nil {
			return nil, err
		}
	}
	var empty []int
	for i, h := range m.heads {
		if len(h.buf) == 0 && !h.done {
			empty = append(empty, i)
		}
	}
	if err := m.fillAll(ctx, empty); err != nil {
		return nil, err
	}
	best := -1
	for i := range m.heads {
		h := &m.heads[i]
		if len(h.buf) == 0 {
			continue
		}
		if best < 0 || m.before(h.times[0], m.heads[best].times[0]) || m.fromEnd && h.times[0].Equal(m.heads[best].times[0]) {
			best = i
		}
	}
	if best < 0 {
		return nil, nil
	}
	h := &m.heads[best]
	it := h.buf[0]
	m.Taken++
	h.buf, h.times = h.buf[1:], h.times[1:]
	return it, nil
}

// before orders two key times as the merge lists them; ties go to the
// earlier prefix (the later one when read from the end), so the order is
// stable and the merge from the end is exactly this one backwards.
func (m *MergedRange) before(a, b time.Time) bool {
	if len(m.Queries) > 0 && !m.Queries[0].Reverse {
		return a.Before(b)
	}
	return a.After(b)
}

// fillAll reads the next page of each prefix in need, at the same time:
// the first screen (and G's) is one round trip, not one a prefix.
func (m *MergedRange) fillAll(ctx context.Context, need []int) error {
	type filled struct {
		cost           Cost
		pages, scanned int
		err            error
	}
	res := make([]filled, len(need))
	var wg sync.WaitGroup
	for j, i := range need {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &res[j]
			r.cost, r.pages, r.scanned, r.err = m.fill(ctx, i)
		}()
	}
	wg.Wait()
	var err error
	for _, r := range res {
		m.Cost = m.Cost.Add(r.cost)
		m.Pages += r.pages
		m.Scanned += r.scanned
		err = cmp.Or(err, r.err)
	}
	return err
}

// fill reads prefix i's pages until one holds an item with a time (or
// the prefix ends). It touches only head i: fills run concurrently.
func (m *MergedRange) fill(ctx context.Context, i int) (cost Cost, pages, scanned int, err error) {
	h := &m.heads[i]
	for len(h.buf) == 0 && !h.done {
		q := m.Queries[i]
		page, err := QueryPage(ctx, m.c, PageRequest{Query: q, Start: h.start, Limit: m.page, TableKeys: m.tables})
		cost = cost.Add(page.Cost)
		if err != nil {
			return cost, pages, scanned, err
		}
		pages++
		scanned += page.Scanned
		for _, it := range page.Items {
			kv, _ := KeyValueOf(it[q.SKName])
			t, ok := m.enc.KeyTime(kv.Text)
			if !ok || m.Keep != nil && !m.Keep(it) {
				continue // not a time (left out of ranges, as detection skipped it), or outside the range asked
			}
			h.buf, h.times = append(h.buf, it), append(h.times, t)
		}
		h.start, h.done = page.LastKey, !page.More()
	}
	return cost, pages, scanned, nil
}

// FromEnd is the same range read from its other end (G): each prefix's
// Query reversed, pageSize items a request, merged the opposite way with
// ties broken the opposite way, so that it lists exactly this merge's
// items backwards. Its first screen costs one request a prefix.
func (m *MergedRange) FromEnd(pageSize int32) *MergedRange {
	e := &MergedRange{c: m.c, enc: m.enc, page: pageSize, tables: m.tables, Prefixes: m.Prefixes, fromEnd: !m.fromEnd, r: m.r, base: m.base, Keep: m.Keep}
	if e.base.Reverse = !m.base.Reverse; m.once != nil || m.full != nil {
		return m.onceFromEnd(e)
	}
	for _, q := range m.Queries {
		q.Reverse = !q.Reverse
		e.Queries = append(e.Queries, q)
		e.heads = append(e.heads, mergeHead{})
	}
	return e
}

// Clone is an independent copy of the merge's state: a read can run on
// the copy while the original stays as it was (a cancelled read leaves
// nothing half-taken).
func (m *MergedRange) Clone() *MergedRange {
	c := *m
	if m.once != nil {
		o := *m.once
		o.items = slices.Clone(o.items)
		c.once = &o
	}
	c.heads = make([]mergeHead, len(m.heads))
	for i, h := range m.heads {
		c.heads[i] = mergeHead{buf: slices.Clone(h.buf), times: slices.Clone(h.times), start: h.start, done: h.done}
	}
	return &c
}

// Take returns up to n items in time order, reading pages as the merge
// needs them; fewer at the end.
func (m *MergedRange) Take(ctx context.Context, n int) ([]Item, error) {
	var out []Item
	for len(out) < n {
		it, err := m.Next(ctx)
		if err != nil || it == nil {
			return out, err
		}
		out = append(out, it)
	}
	return out, nil
}

// Pending reports a merge whose first read has yet to tell its plan (and,
// from RangeAcross, its prefixes).
func (m *MergedRange) Pending() bool { return m.once != nil }

// Done reports whether every prefix has been read and taken to its end.
func (m *MergedRange) Done() bool {
	if m.once != nil {
		return false
	}
	for _, h := range m.heads {
		if len(h.buf) > 0 || !h.done {
			return false
		}
	}
	return true
}

// RangeError is a range that does not compile for a prefix's keys: the
// user's to change, where the other errors of a merge are reads'.
type RangeError struct{ Err error }

func (e RangeError) Error() string { return e.Err.Error() }
func (e RangeError) Unwrap() error { return e.Err }

// onceRead is a range read by one Query over a stretch of the partition
// (the whole partition, or the keys between the prefixes' ranges)
// instead of one Query a prefix, the time kept on our side: DynamoDB
// filters no key attribute, and each Query costs at least 0.5 RCU and a
// round trip, so on a small partition, or across many prefixes, one read
// costs less than the prefixes' Queries.
type onceRead struct {
	q     domain.KeyQuery // the stretch, in the merge's order
	limit int32           // items a page; 0: 1 MB
	// probe: a single page, sized to what one Query a prefix would cost
	// at least; when it does not reach the stretch's end, the range goes
	// on with one Query a prefix, each from where the page stopped.
	probe bool
	// flipped: the probe reads from the end the merge lists last, the
	// end it starts from holding no time (ElectroDB's lines below its
	// orders, listed oldest first): its items are spread backwards, and
	// a prefix it stopped inside is read from its start.
	flipped bool
	// walk finds the prefixes when the page did not hold the range (nil:
	// the merge's Prefixes are known), given the keys the page read.
	walk  func(ctx context.Context, read []string) ([]string, Cost, error)
	start Item
	items []Item
	done  bool
}

// NewMergedRangeFrom is NewMergedRange reading the cheaper way, judged
// from what the time sample read: a sample that read the whole partition
// answers which keys are in the range, so the range is one Query over
// just those keys, or no read at all when none is; across two prefixes or
// more it reads the partition's stretch once, a page the size of what the
// prefixes' Queries cost at least, and goes on with one Query a prefix
// (from where that page stopped) only when it did not hold the range.
// Items and order are the per-prefix merge's.
func NewMergedRangeFrom(c Client, base domain.KeyQuery, prefixes []string, r domain.TimeRange, enc domain.TimeEncoding, pageSize int32, tableKeys *KeySchema, sample TimeSample) (*MergedRange, error) {
	m, err := NewMergedRange(c, base, prefixes, r, enc, pageSize, tableKeys)
	if err != nil {
		return nil, err
	}
	if keys, ok := sample.wholeKeys(); ok {
		var lo, hi string
		in := 0
		for _, k := range keys {
			if m.holds(k) {
				in++
				if lo == "" || k < lo {
					lo = k
				}
				hi = max(hi, k)
			}
		}
		if lo == "" {
			for i := range m.heads {
				m.heads[i].done = true // the sample holds every key: none is in the range
			}
			m.ReadOnce, m.full = true, make([][]Item, len(m.heads))
			return m, nil
		}
		q := base
		q.SK = domain.SKCondition{Op: domain.SKBetween, A: domain.S(lo), B: domain.S(hi)}
		if lo == hi {
			q.SK = domain.SKCondition{Op: domain.SKEq, A: domain.S(lo)}
		}
		// One page of the keys the sample holds in the range: the stretch
		// is read whole before the merge orders it, so pages of --limit
		// (one key each for --limit 1) cost a read a key: 30 keys took 31
		// pages and 16.5 RCU where one read of 0.5 holds them. One more
		// than the keys, so the page ends the stretch rather than stopping
		// at its last key and asking for an empty page after it.
		m.once = &onceRead{q: q, limit: int32(in + 1)}
		return m, nil
	}
	if len(prefixes) < 2 || base.SK.Op != domain.SKNone {
		return m, nil // one Query is already the least a read costs
	}
	limit := sample.itemsFor(len(prefixes))
	if !sample.mayHold(enc, len(prefixes), limit) {
		return m, nil
	}
	q := base
	q.SK = m.stretch()
	m.once = &onceRead{q: q, limit: limit, probe: true}
	return m, nil
}

// RangeAcross is the range across every prefix the time follows, where
// the prefixes are not yet known: when the sample names them all, as
// NewMergedRangeFrom; otherwise its first read is one page of the
// partition, sized to what finding the prefixes (the children skip-scan)
// and one Query each would cost at least. A page that holds the whole
// partition answers the range with no walk and no further Query; one that
// does not is kept, and the prefixes are found and read on from where it
// stopped. r names the partition for the walk.
func RangeAcross(ctx context.Context, c Client, req ChildrenRequest, base domain.KeyQuery, r domain.TimeRange, enc domain.TimeEncoding, pageSize int32, tableKeys *KeySchema, sample TimeSample) (*MergedRange, error) {
	if known, ok := sample.knownPrefixes(enc); ok {
		return NewMergedRangeFrom(c, base, known, r, enc, pageSize, tableKeys, sample)
	}
	var probed Cost // the gap between the sample's reads, read where it found a prefix it did not know
	probe := base.SK.Op == domain.SKNone
	if probe {
		// Every prefix, when the gap between the sample's reads holds no
		// key past the prefixes it knows (a key a stretch): a form a
		// prefix, or one end of the sample holding no time.
		prefixes, found, ok, err := gapOrFormsPrefixes(ctx, c, req, enc, sample)
		if err != nil {
			return nil, err
		}
		if ok {
			m, err := NewMergedRangeFrom(c, base, prefixes, r, enc, pageSize, tableKeys, sample)
			if m != nil {
				m.Found = found
			}
			return m, err
		}
		probed = found
		if enc.Forms != nil {
			// A key of some other prefix between the sample's reads: the
			// walk names every prefix, and one of no known form is
			// refused (CompileRange), never left out unsaid as a read of
			// the partition would leave it.
			more, left, walked, err := timePrefixesLeft(ctx, c, req, enc, sample, false)
			if err != nil {
				return nil, err
			}
			m, err := NewMergedRangeFrom(c, base, more, r, enc, pageSize, tableKeys, sample)
			if m != nil {
				m.Found, m.Left = found.Add(walked), left
			}
			return m, err
		}
	}
	limit := sample.itemsFor(sample.walkUnits(enc))
	if !sample.mayHold(enc, len(sample.seenPrefixes(enc)), limit) {
		prefixes, left, found, err := timePrefixesLeft(ctx, c, req, enc, sample, !probe)
		if err != nil {
			return nil, err
		}
		m, err := NewMergedRange(c, base, prefixes, r, enc, pageSize, tableKeys)
		if m != nil {
			m.Found, m.Left = probed.Add(found), left
		}
		return m, err
	}
	m := &MergedRange{c: c, enc: enc, page: pageSize, tables: tableKeys, r: r, base: base, Found: probed}
	q := base
	q.SK = domain.SKCondition{}
	flipped := sample.timelessEnd(enc, !base.Reverse)
	q.Reverse = q.Reverse != flipped
	var held []Item
	var start Item
	if n := len(sample.newest); q.Reverse && n > 0 && tableKeys == nil && base.Filter == nil {
		// From the newest end, past the newest keys detection read whole:
		// the page reads on from them, not them again.
		held, start = slices.Clone(sample.newest), keyOf(sample.newest[n-1], []string{base.PKName, base.SKName})
	}
	m.once = &onceRead{q: q, limit: limit, probe: true, flipped: flipped, items: held, start: start,
		walk: func(ctx context.Context, read []string) ([]string, Cost, error) {
			if known, ok := sample.withRead(read, q.Reverse).knownPrefixes(enc); ok {
				// The page and the sample's other end name every prefix:
				// the walk would read again the keys the page just read
				// (ElectroDB's orders, above its timeless lines).
				return known, Cost{}, nil
			}
			prefixes, left, cost, err := timePrefixesLeft(ctx, c, req, enc, sample, !probe)
			m.Left = left
			return prefixes, cost, err
		}}
	return m, nil
}

// wholeKeys are every sort key of the partition, when one of the
// sample's reads held it whole.
func (s TimeSample) wholeKeys() ([]string, bool) {
	for _, r := range s.runs {
		if r.within == "" && !r.past && r.toEnd && (r.top || r.bottom) {
			return r.keys, true
		}
	}
	return nil, false
}

// itemsFor is how many items units 4 KB reads hold, by what the sample's
// reads weighed (keys-only reads are billed on whole items, so the
// sample's items per unit is at most what the partition's weigh).
func (s TimeSample) itemsFor(units int) int32 {
	per := TimeSampleKeys
	if s.seenUnits > 0 && s.seenItems > 0 {
		per = max(1, s.seenItems/s.seenUnits)
	}
	return int32(min(units*per, 100_000))
}

// seenPrefixes are the prefixes before the time in the sample's keys.
func (s TimeSample) seenPrefixes(enc domain.TimeEncoding) map[string]bool {
	out := map[string]bool{}
	for _, k := range s.Keys {
		if i, _, _, ok := enc.Locate(k); ok && i > 0 {
			out[k[:i]] = true
		}
	}
	return out
}

// mayHold reports whether a partition of n prefixes may hold no more
// than limit items, by the sample's times: the newest keys' rate and the
// oldest keys' (items an hour, each read in key order, one prefix's
// stretch), over the time from the oldest key to the newest, for each
// prefix. Keys whose pace it cannot tell (one time, or none) say yes:
// the page that tries costs no more than the Queries it would spare.
func (s TimeSample) mayHold(enc domain.TimeEncoding, n int, limit int32) bool {
	var lo, hi time.Time
	var rates []float64
	for _, r := range s.runs {
		if r.within != "" || r.past || !r.top && !r.bottom {
			continue
		}
		var a, b time.Time
		count := 0
		for _, k := range r.keys {
			t, ok := enc.KeyTime(k)
			if !ok {
				continue
			}
			if count == 0 || t.Before(a) {
				a = t
			}
			if count == 0 || t.After(b) {
				b = t
			}
			count++
		}
		if count < 2 || !b.After(a) {
			continue
		}
		rates = append(rates, float64(count-1)/b.Sub(a).Hours())
		if lo.IsZero() || a.Before(lo) {
			lo = a
		}
		if b.After(hi) {
			hi = b
		}
	}
	if len(rates) == 0 {
		return true
	}
	var rate float64
	for _, r := range rates {
		rate += r / float64(len(rates))
	}
	return rate*hi.Sub(lo).Hours()*float64(max(n, 1)) <= float64(limit)
}

// walkUnits is the least the prefix plan reads, in 0.5 RCU requests:
// the children skip-scan's, a request a level and one a prefix the sample
// saw at each level (ALARM#, ALARM#CRITICAL#, ALARM#WARN#: five), and one
// Query a prefix the time follows.
func (s TimeSample) walkUnits(enc domain.TimeEncoding) int {
	levels := map[string]bool{}
	prefixes := map[string]bool{}
	depth := 0
	for _, k := range s.Keys {
		i, _, _, ok := enc.Locate(k)
		if !ok || i == 0 {
			continue
		}
		p := k[:i]
		prefixes[p] = true
		parts := strings.SplitAfter(p, enc.Sep)
		d := 0
		for j := range parts {
			if parts[j] == "" {
				continue
			}
			levels[strings.Join(parts[:j+1], "")] = true
			d++
		}
		depth = max(depth, d)
	}
	return len(levels) + depth + len(prefixes)
}

// holds reports a key some prefix's Query reads.
func (m *MergedRange) holds(k string) bool {
	for _, q := range m.Queries {
		if condHolds(q.SK, k) {
			return true
		}
	}
	return false
}

// stretch is the key condition holding every prefix's range: from the
// lowest key one reads to the highest (none when one is open).
func (m *MergedRange) stretch() domain.SKCondition {
	var lo, hi string
	for _, q := range m.Queries {
		a, b, ok := condBounds(q.SK)
		if !ok {
			return domain.SKCondition{}
		}
		if lo == "" || a < lo {
			lo = a
		}
		hi = max(hi, b)
	}
	if lo == "" || hi == "" {
		return domain.SKCondition{}
	}
	return domain.SKCondition{Op: domain.SKBetween, A: domain.S(lo), B: domain.S(hi)}
}

// condHolds reports whether the text sort key k meets c, as DynamoDB
// compares strings (by their UTF-8 bytes).
func condHolds(c domain.SKCondition, k string) bool {
	if c.Op != domain.SKNone && c.A.Type != domain.TypeS {
		return false
	}
	switch c.Op {
	case domain.SKNone:
		return true
	case domain.SKEq:
		return k == c.A.Text
	case domain.SKLt:
		return k < c.A.Text
	case domain.SKLe:
		return k <= c.A.Text
	case domain.SKGt:
		return k > c.A.Text
	case domain.SKGe:
		return k >= c.A.Text
	case domain.SKBetween:
		return c.A.Text <= k && k <= c.B.Text
	case domain.SKBeginsWith:
		return strings.HasPrefix(k, c.A.Text)
	}
	return false
}

// condBounds are the lowest and highest text keys c can hold, both
// inclusive (a begins_with's high end is the first key past it, which
// condHolds then leaves out); false when an end is open.
func condBounds(c domain.SKCondition) (lo, hi string, ok bool) {
	if c.A.Type != domain.TypeS {
		return "", "", false
	}
	switch c.Op {
	case domain.SKEq:
		return c.A.Text, c.A.Text, true
	case domain.SKBetween:
		return c.A.Text, c.B.Text, c.B.Type == domain.TypeS
	case domain.SKBeginsWith:
		end, ok := domain.PrefixEnd(c.A.Text)
		return c.A.Text, end, ok
	}
	return "", "", false
}

// skText is the sort key of it as text ("" when not a string).
func (m *MergedRange) skText(it Item) string {
	kv, _ := KeyValueOf(it[m.base.SKName])
	if kv.Type != domain.TypeS {
		return ""
	}
	return kv.Text
}

// readOnce reads the once-read's pages: to the stretch's end, or one page
// when it probes, after which the range goes on one Query a prefix.
func (m *MergedRange) readOnce(ctx context.Context) error {
	o := m.once
	for !o.done {
		page, err := QueryPage(ctx, m.c, PageRequest{Query: o.q, Start: o.start, Limit: o.limit, TableKeys: m.tables})
		m.Cost = m.Cost.Add(page.Cost)
		if err != nil {
			return err
		}
		m.Pages++
		m.Scanned += page.Scanned
		o.items = append(o.items, page.Items...)
		o.start, o.done = page.LastKey, !page.More()
		if !o.done && o.probe {
			return m.split(ctx)
		}
	}
	if m.Queries == nil {
		if err := m.derive(o.items); err != nil {
			return err
		}
	}
	m.spread(o.inOrder(), nil)
	m.ReadOnce, m.OnceQuery, m.once = true, o.q, nil
	m.full = make([][]Item, len(m.heads))
	for i := range m.heads {
		m.heads[i].done = true // the stretch read whole holds all of it
		m.full[i] = slices.Clone(m.heads[i].buf)
	}
	return nil
}

// derive sets the merge's prefixes and Queries from the items of a
// partition read whole: every prefix a key puts its time after.
func (m *MergedRange) derive(items []Item) error {
	seen := map[string]bool{}
	var prefixes []string
	for _, it := range items {
		k := m.skText(it)
		if i, _, _, ok := m.enc.Locate(k); ok && i > 0 && !seen[k[:i]] {
			seen[k[:i]] = true
			prefixes = append(prefixes, k[:i])
		}
	}
	slices.Sort(prefixes)
	return m.setPrefixes(prefixes)
}

func (m *MergedRange) setPrefixes(prefixes []string) error {
	m.Prefixes, m.Queries, m.heads = prefixes, nil, nil
	for _, p := range prefixes {
		sk, err := domain.CompileRange(m.r, m.enc, p)
		if err != nil {
			return RangeError{err}
		}
		q := m.base
		q.SK = sk
		m.Queries = append(m.Queries, q)
		m.heads = append(m.heads, mergeHead{done: true})
	}
	return nil
}

// spread hands the items read once, in the merge's key order, to the
// prefixes whose Query would have read them: each keeps them in that
// order, as its own pages would.
func (m *MergedRange) spread(items []Item, keep func(i int) bool) {
	for _, it := range items {
		k := m.skText(it)
		t, ok := m.enc.KeyTime(k)
		if !ok || m.Keep != nil && !m.Keep(it) {
			continue // not a time (left out of ranges, as fill leaves it), or outside the range asked
		}
		for i, q := range m.Queries {
			if (keep == nil || keep(i)) && condHolds(q.SK, k) {
				h := &m.heads[i]
				h.buf, h.times = append(h.buf, it), append(h.times, t)
			}
		}
	}
}

// split goes on with one Query a prefix past a probe that did not read
// the stretch whole: its items go to their prefixes; a prefix whose range
// it read to the far end is done, one it stopped inside reads on from
// where it stopped, the others from their start.
func (m *MergedRange) split(ctx context.Context) error {
	o := m.once
	if o.walk != nil {
		read := make([]string, 0, len(o.items))
		for _, it := range o.items {
			read = append(read, m.skText(it))
		}
		prefixes, found, err := o.walk(ctx, read)
		m.Found = m.Found.Add(found)
		if err != nil {
			return err
		}
		o.walk = nil
		if err := m.setPrefixes(prefixes); err != nil {
			return err
		}
	}
	last := m.skText(o.start)
	up := !o.q.Reverse
	for i, q := range m.Queries {
		h := &m.heads[i]
		*h = mergeHead{}
		lo, hi, bounded := condBounds(q.SK)
		switch {
		case bounded && !up && lo >= last, bounded && up && hi <= last:
			h.done = true // the page went past its far end
		case condHolds(q.SK, last) && !o.flipped:
			h.start = o.start // stopped inside it: on from there
		}
	}
	m.spread(o.inOrder(), func(i int) bool { return m.heads[i].done || m.heads[i].start != nil })
	m.once = nil
	if !slices.ContainsFunc(m.heads, func(h mergeHead) bool { return !h.done }) {
		// The page went past every prefix's range: it is the one read
		// the range was answered by, no prefix's Query sent.
		m.ReadOnce, m.OnceQuery = true, o.q
		m.full = make([][]Item, len(m.heads))
		for i := range m.heads {
			m.full[i] = slices.Clone(m.heads[i].buf)
		}
	}
	return nil
}

// onceFromEnd is FromEnd of a range read once: its items backwards, with
// no read, once read whole; else the same once-read from the other end.
func (m *MergedRange) onceFromEnd(e *MergedRange) *MergedRange {
	e.ReadOnce = m.ReadOnce
	for _, q := range m.Queries {
		q.Reverse = !q.Reverse
		e.Queries = append(e.Queries, q)
	}
	if m.once != nil {
		o := *m.once
		o.start, o.items, o.done = nil, nil, false
		if o.flipped {
			o.flipped = false // the end it read from is where the other order starts
		} else {
			o.q.Reverse = !o.q.Reverse
		}
		e.once = &o
		e.heads = make([]mergeHead, len(m.heads))
		return e
	}
	for _, items := range m.full {
		h := mergeHead{done: true}
		for i := len(items) - 1; i >= 0; i-- {
			t, _ := m.enc.KeyTime(m.skText(items[i]))
			h.buf, h.times = append(h.buf, items[i]), append(h.times, t)
		}
		e.heads = append(e.heads, h)
	}
	e.full = make([][]Item, len(e.heads))
	for i, h := range e.heads {
		e.full[i] = slices.Clone(h.buf)
	}
	return e
}

// inOrder are the items read, in the merge's key order.
func (o *onceRead) inOrder() []Item {
	if o.flipped {
		return reversed(o.items)
	}
	return o.items
}
