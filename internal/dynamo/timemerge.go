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
	if !enc.NeedsPrefix() {
		return nil, Cost{}, fmt.Errorf("the keys do not put the time after a prefix")
	}
	if known, ok := sample.knownPrefixes(enc); ok {
		return known, Cost{}, nil // the sample's reads hold them all: no walk
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
	var out []string
	var total Cost
	var walk func(prefix string, depth int) error
	walk = func(prefix string, depth int) error {
		r.Prefix, r.Delim = prefix, enc.Sep
		r.Probe = true // a sample of the level, not its listing: no first page
		res, err := Children(ctx, c, r, nil)
		total = total.Add(res.Cost)
		if err != nil {
			return err
		}
		for _, ch := range res.Children {
			if !ch.HasChildren || sample.timeless(ch.Prefix, enc) {
				continue // nothing below it to read, or nothing of time
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
	return out, total, err
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
	c        Client
	enc      domain.TimeEncoding
	page     int32
	tables   *KeySchema
	heads    []mergeHead
	fromEnd  bool // read from the other end: ties go to the later prefix
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
	m := &MergedRange{c: c, enc: enc, page: pageSize, tables: tableKeys, Prefixes: prefixes}
	for _, p := range prefixes {
		sk, err := domain.CompileRange(r, enc, p)
		if err != nil {
			return nil, err
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
			if !ok {
				continue // not a time: left out of ranges, as detection skipped it
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
	e := &MergedRange{c: m.c, enc: m.enc, page: pageSize, tables: m.tables, Prefixes: m.Prefixes, fromEnd: !m.fromEnd}
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

// Done reports whether every prefix has been read and taken to its end.
func (m *MergedRange) Done() bool {
	for _, h := range m.heads {
		if len(h.buf) > 0 || !h.done {
			return false
		}
	}
	return true
}
