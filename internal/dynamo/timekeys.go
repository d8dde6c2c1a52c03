package dynamo

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// TimeSampleKeys is how many keys DetectTimeKeys reads from each end: a
// view whose first page reads at least as many has the newest for free.
const TimeSampleKeys = 20

const timeSample = TimeSampleKeys

// TimeSample is the newest and oldest sort keys of a partition and the
// time form most of them hold (Detection.OK false when none does, or there
// were no keys).
type TimeSample struct {
	domain.TimeDetection
	Keys   []string // as read: the newest first, then the oldest not already read; numbers as their text
	Number bool
	// runs are the reads the keys came from, each a stretch of the
	// partition's keys in order: what tells a prefix read whole (every
	// key of PROFILE# in the sample) from one seen in part.
	runs []keyRun
	// seenItems and seenUnits are what the sample's reads weighed: items
	// read and 4 KB units billed (at least one a read), for sizing a read
	// of the partition against one Query a prefix.
	seenItems, seenUnits int
	// Held are the items under the query, newest first, where the
	// sample's first read held every one of them (nil otherwise): a
	// range of a partition that small is answered from them, with no
	// read past detection's.
	Held []Item
	// newest are the items of detection's own read of the newest keys
	// of the partition, where it did not hold them all: a page of the
	// partition from the newest end starts past them, not reading them
	// again.
	newest []Item
}

// keyRun is one read's keys in the order read, and whether the read
// reached the partition's (or the prefix's) edge at each end: where it
// began is always one (the reads start at an end, or just past a prefix
// walked), where it stopped is one when it found nothing more (toEnd).
type keyRun struct {
	keys   []string
	within string // the begins_with the read had ("" for the partition)
	// past: the read began just past a prefix walked, an edge for the
	// prefixes below within but not for within itself.
	past  bool
	toEnd bool
	// top and bottom: the newest keys, read down from the top, or the
	// oldest, read up from the bottom.
	top, bottom bool
}

// FirstKeys are sort keys a view already read from the newest end of the
// query detection reads (its first page, newest first): detection takes
// its newest keys from them instead of reading them again.
type FirstKeys struct {
	Keys   []string // newest first; numbers as their text
	Number bool
	More   bool // the partition goes on past them
}

// WholeTimeSample is the sample of q read whole, newest first (a first
// page that held every key): no read is needed. It holds the keys
// headless detection would read, the newest and the oldest 20, and knows
// every prefix whole.
func WholeTimeSample(q domain.KeyQuery, keys []string, number bool) TimeSample {
	s := TimeSample{Number: number}
	seen := map[string]bool{}
	add := func(k string) {
		if !seen[k] { // on an index, keys repeat: each is counted once
			seen[k] = true
			s.Keys = append(s.Keys, k)
		}
	}
	for _, k := range keys[:min(len(keys), timeSample)] {
		add(k)
	}
	for i := len(keys) - 1; i >= max(timeSample, len(keys)-timeSample); i-- {
		add(keys[i])
	}
	if w, ok := within(q); ok {
		s.runs = []keyRun{{keys: keys, within: w, toEnd: true, top: true}}
	}
	s.TimeDetection = detectTime(s.Keys, number)
	return s
}

// detectTime is the sample's time form, its 19 digits read as Snowflake
// ids where as nanoseconds they would stand past now (domain.ReadSnowflakes).
func detectTime(keys []string, number bool) domain.TimeDetection {
	return domain.ReadSnowflakes(domain.DetectTimeSample(keys, number), keys, time.Now())
}

// DetectTimeKeys reads the newest and the oldest few sort keys of a
// partition (under q.SK, typically a begins_with prefix, when set) and
// finds their time encoding (see DetectTimeKeysFrom).
func DetectTimeKeys(ctx context.Context, c Client, q domain.KeyQuery, tableKeys *KeySchema) (TimeSample, Cost, error) {
	return DetectTimeKeysFrom(ctx, c, q, tableKeys, nil)
}

// DetectTimeKeysFrom finds a partition's time encoding from its newest and
// oldest 20 sort keys: keys-only Queries with Limit 20, the newest taken
// from first when a view already read them (its first page), none at all
// when those held the whole partition. The oldest keys are the other
// prefixes' in a partition of several (comm#… before metadata), and a
// small partition is read whole. Keys that are not a time (a Metadata
// item) are skipped and named when most of them are times. Only when the
// two ends do not settle one form are the prefixes between them sampled
// (samplePrefixes), and only until they do: a partition of one shape
// costs one read past the view's first page.
func DetectTimeKeysFrom(ctx context.Context, c Client, q domain.KeyQuery, tableKeys *KeySchema, first *FirstKeys) (TimeSample, Cost, error) {
	var s TimeSample
	var total Cost
	seen := map[string]bool{}
	add := func(keys []string) {
		for _, k := range keys {
			if !seen[k] { // on an index, keys repeat: each is counted once
				seen[k] = true
				s.Keys = append(s.Keys, k)
			}
		}
	}
	w, stretch := within(q)
	var newest, oldest []string
	var newestItems []Item
	ended := false
	for _, reverse := range []bool{true, false} {
		var keys []string
		var more bool
		if reverse && first != nil {
			if !first.More {
				return WholeTimeSample(q, first.Keys, first.Number), total, nil
			}
			keys, more, s.Number = first.Keys, first.More, first.Number
			if len(keys) > timeSample {
				keys, more = keys[:timeSample], true // the same sample headless reads
			}
		} else {
			q.Reverse = reverse
			rq := q
			below := !reverse && belowNewest(&rq, w, stretch, newest, tableKeys, s.Number)
			var cost Cost
			var err error
			var items []Item
			keys, more, items, cost, err = sampleItems(ctx, c, rq, tableKeys, timeSample, &s, reverse || below)
			total = total.Add(cost)
			if err != nil {
				return TimeSample{}, total, err
			}
			if below {
				keys, items = dropKey(keys, items, q.SKName, newest[len(newest)-1])
			}
			switch {
			case reverse:
				newestItems = items
				if !more {
					s.Held = items
				} else if w == "" && stretch {
					s.newest = items
				}
			case below && !more:
				// The oldest read met the newest keys: the two reads held
				// the partition whole, once each.
				s.newest = nil
				all := append(append([]string(nil), newest...), reversed(keys)...)
				add(keys)
				if newestItems != nil {
					s.Held = append(append([]Item(nil), newestItems...), reversed(items)...)
				}
				s.runs = []keyRun{{keys: all, within: w, toEnd: true, top: true}}
				oldest, ended = keys, true
				continue
			}
		}
		add(keys)
		if stretch {
			s.runs = append(s.runs, keyRun{keys: keys, within: w, toEnd: !more, top: reverse, bottom: !reverse})
		}
		if reverse {
			newest = keys
		} else {
			oldest = keys
		}
		if !more {
			ended = true // the newest page held the whole partition
			break
		}
	}
	if d := domain.DetectTimeSample(s.Keys, s.Number); !ended && !s.Number && !settled(d) {
		cost, err := samplePrefixes(ctx, c, q, tableKeys, &s, add, newest, oldest)
		total = total.Add(cost)
		if err != nil {
			return TimeSample{}, total, err
		}
	}
	s.TimeDetection = detectTime(s.Keys, s.Number)
	return s, total, nil
}

// belowNewest bounds rq, the read of the oldest keys of the stretch
// within w, to below the newest keys already read (up to and including
// the oldest of them, under a prefix: a key condition has one sort key
// term), so that a partition of 21 to 40 keys is read once, not the
// oldest 20 of it again. Only on a table's string keys: an index's
// sort keys repeat, and the bound would cut those equal to it.
func belowNewest(rq *domain.KeyQuery, w string, stretch bool, newest []string, tableKeys *KeySchema, number bool) bool {
	if !stretch || len(newest) == 0 || tableKeys != nil || number {
		return false
	}
	low := domain.S(newest[len(newest)-1])
	if w == "" {
		rq.SK = domain.SKCondition{Op: domain.SKLt, A: low}
	} else {
		rq.SK = domain.SKCondition{Op: domain.SKBetween, A: domain.S(w), B: low}
	}
	return true
}

// dropKey is keys and items (read in the same order, items nil or one
// a key) without the key k: the bound's own, already read.
func dropKey(keys []string, items []Item, skName, k string) ([]string, []Item) {
	var ks []string
	var its []Item
	for i, key := range keys {
		if key == k {
			continue
		}
		ks = append(ks, key)
		if i < len(items) {
			its = append(its, items[i])
		}
	}
	return ks, its
}

func reversed[T any](s []T) []T {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

// settled reports a sample whose form no more keys would change: one form
// holds a quorum, every key that reads as a time reads in it (the others,
// a metadata item, are not times at all), and a time that leads the key
// (2018-08-29:ada) has no prefixes to sample, its ends being its oldest
// and newest times.
func settled(d domain.TimeDetection) bool {
	if !d.OK {
		return false
	}
	if !d.Enc.NeedsPrefix() {
		return true
	}
	return !slices.ContainsFunc(d.Skipped, isTimeText)
}

// within is the stretch of keys q reads: the partition, or the keys under
// a begins_with; false for any other condition (a range of keys, whose
// reads say nothing of the prefixes crossing its ends).
func within(q domain.KeyQuery) (string, bool) {
	switch {
	case q.SK.Op == domain.SKNone:
		return "", true
	case q.SK.Op == domain.SKBeginsWith && q.SK.A.Type == domain.TypeS:
		return q.SK.A.Text, true
	}
	return "", false
}

func isTimeText(k string) bool {
	_, ok := domain.DetectTimeText(k)
	return ok
}

// sampleRead reads up to limit sort keys of q (keys only), as text.
func sampleRead(ctx context.Context, c Client, q domain.KeyQuery, tableKeys *KeySchema, limit int32, s *TimeSample) ([]string, bool, Cost, error) {
	keys, more, _, cost, err := sampleItems(ctx, c, q, tableKeys, limit, s, false)
	return keys, more, cost, err
}

// sampleItems is sampleRead, the items read whole where whole says so:
// a read is billed the items it reads whatever it sends back, so the
// newest keys' read sends them whole, and a partition it holds every
// item of is not read again (TimeSample.Held).
func sampleItems(ctx context.Context, c Client, q domain.KeyQuery, tableKeys *KeySchema, limit int32, s *TimeSample, whole bool) ([]string, bool, []Item, Cost, error) {
	page, err := QueryPage(ctx, c, PageRequest{Query: q, Limit: limit, KeysOnly: !whole, TableKeys: tableKeys})
	if err != nil {
		return nil, false, nil, page.Cost, err
	}
	s.seenItems += len(page.Items)
	s.seenUnits += max(1, int(page.Cost.RCU/0.5+0.5)) // keys-only reads are billed on whole items
	var keys []string
	for _, it := range page.Items {
		switch v := it[q.SKName].(type) {
		case *types.AttributeValueMemberN:
			keys, s.Number = append(keys, v.Value), true
		case *types.AttributeValueMemberS:
			keys = append(keys, v.Value)
		}
	}
	var items []Item
	if whole {
		items = page.Items
	}
	return keys, page.More(), items, page.Cost, nil
}

// The prefixes between a partition's oldest and newest keys are sampled
// too, up to samplePrefixCap of them, prefixKeys keys at each end of each.
const (
	samplePrefixCap = 8
	prefixKeys      = 3
)

// samplePrefixes adds to s the oldest and newest few keys of each prefix
// between the partition's oldest and newest keys (AUDIT#…, EVENT#time,
// ZETA#…: the newest and oldest 20 are all AUDIT# and ZETA#). It walks
// the level's children from the oldest key's on, as the drill-down's
// skip-scan does: one keys-only read of prefixKeys past each child, and
// one from the other end of a prefix that read did not hold whole, until
// the sample settles, it meets a child the newest keys hold, or it has
// seen samplePrefixCap children. No prefix is read twice.
func samplePrefixes(ctx context.Context, c Client, q domain.KeyQuery, tableKeys *KeySchema, s *TimeSample, add func([]string), newest, oldest []string) (Cost, error) {
	var total Cost
	base := ""
	switch {
	case q.SK.Op == domain.SKBeginsWith && q.SK.A.Type == domain.TypeS:
		base = q.SK.A.Text
	case q.SK.Op != domain.SKNone:
		return total, nil // a range of the partition: its ends are what it holds
	}
	delim, ok := domain.DetectDelimiter(s.Keys)
	if !ok || len(oldest) == 0 || !slices.ContainsFunc(s.Keys, isTimeText) {
		// Ends with no time at all (Locations' CA#SF#…) are not a time
		// partition: the walk would cost up to 2 reads a prefix for
		// nothing.
		return total, nil
	}
	atEnd := map[string]bool{}
	for _, k := range newest {
		if name, _, ok := domain.ChildOf(base, k, delim); ok {
			atEnd[name] = true
		}
	}
	last := oldest[len(oldest)-1]
	for range samplePrefixCap {
		name, leaf, ok := domain.ChildOf(base, last, delim)
		if !ok || atEnd[name] {
			return total, nil
		}
		start := domain.After(last)
		if !leaf {
			if start, ok = domain.PrefixEnd(base + name + delim); !ok {
				return total, nil
			}
		}
		fq := q
		fq.Reverse, fq.SK = false, rangeFrom(start, base, false)
		if fq.SK.Op == domain.SKNone {
			return total, nil
		}
		keys, more, cost, err := sampleRead(ctx, c, fq, tableKeys, prefixKeys, s)
		total = total.Add(cost)
		if err != nil || len(keys) == 0 {
			return total, err
		}
		add(keys)
		s.runs = append(s.runs, keyRun{keys: keys, within: base, past: true, toEnd: !more})
		last = keys[len(keys)-1]
		next, nextLeaf, ok := domain.ChildOf(base, keys[0], delim)
		if !ok || atEnd[next] {
			return total, nil
		}
		// The newest few of this prefix, from its other end, unless the
		// read already went past it (or to the partition's end).
		if lastName, _, _ := domain.ChildOf(base, last, delim); !nextLeaf && more && lastName == next {
			rq := q
			p := base + next + delim
			rq.Reverse, rq.SK = true, domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S(p)}
			keys, more, cost, err := sampleRead(ctx, c, rq, tableKeys, prefixKeys, s)
			total = total.Add(cost)
			if err != nil {
				return total, err
			}
			add(keys)
			s.runs = append(s.runs, keyRun{keys: keys, within: p, toEnd: !more})
			if len(keys) > 0 {
				last = keys[0]
			}
		}
		if settled(domain.DetectTimeSample(s.Keys, false)) {
			return total, nil
		}
	}
	return total, nil
}

// WholePrefix reports whether the sample holds every key that begins with
// prefix (a prefix ending in its delimiter, such as PROFILE#): one of its
// reads began at an edge of the keys, or of a stretch it read whole, and
// went on past the last key of prefix, or to the end.
func (s TimeSample) WholePrefix(prefix string) bool {
	for _, r := range s.runs {
		if !strings.HasPrefix(prefix, r.within) || r.past && prefix == r.within {
			continue
		}
		i := slices.IndexFunc(r.keys, func(k string) bool { return strings.HasPrefix(k, prefix) })
		if i < 0 {
			continue
		}
		// Keys of one prefix are contiguous in key order: a key past
		// them in the read closes the prefix on that side. The read's
		// first key is at an edge (the partition's end, or just past a
		// prefix walked), so keys before i in it close the other side
		// too, and a run that starts the read starts at that edge.
		j := i
		for j < len(r.keys) && strings.HasPrefix(r.keys[j], prefix) {
			j++
		}
		if j < len(r.keys) || r.toEnd {
			return true
		}
	}
	return false
}

// knownPrefixes are the prefixes before the time in every key of the
// partition, when the sample tells them all: it read the partition whole,
// or the keys between its newest and oldest reads share one prefix (a
// partition of PHOTO#<ULID> keys under a few PROFILE# items: the gap
// between the two reads is all PHOTO#), so every other prefix is in the
// sample. ok is false when the gap may hold prefixes never read.
func (s TimeSample) knownPrefixes(enc domain.TimeEncoding) ([]string, bool) {
	var top, bottom *keyRun
	for i := range s.runs {
		r := &s.runs[i]
		switch {
		case r.within != "" || r.past:
		case r.toEnd && (r.top || r.bottom):
			top, bottom = r, nil // the whole partition
		case r.top && top == nil:
			top = r
		case r.bottom && bottom == nil:
			bottom = r
		}
	}
	if top == nil || len(top.keys) == 0 || !top.toEnd && (bottom == nil || len(bottom.keys) == 0) {
		return nil, false
	}
	prefixOf := func(k string) (string, bool) {
		i, _, _, ok := enc.Locate(k)
		return k[:i], ok && i > 0
	}
	if !top.toEnd {
		// Between the newest read's last key and the oldest read's, a
		// gap (unless the reads met): every key in it begins with the
		// prefix both its ends begin with, if they share one.
		lo, hi := top.keys[len(top.keys)-1], bottom.keys[len(bottom.keys)-1]
		a, okA := prefixOf(lo)
		b, okB := prefixOf(hi)
		if hi < lo && (!okA || !okB || a != b) && !s.timelessBetween(lo, hi, enc.Sep) {
			return nil, false
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, r := range s.runs {
		for _, k := range r.keys {
			if p, ok := prefixOf(k); ok && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out, true
}

// timelessBetween reports keys lo and hi under one prefix detection named
// as holding no time (timelessOver): every key between them is under it
// too, so no prefix of the time is.
func (s TimeSample) timelessBetween(lo, hi, sep string) bool {
	t := s.timelessOver(lo, sep)
	return t != "" && strings.HasPrefix(hi, t)
}

// timelessOver is the prefix detection named as holding no time (Timeless,
// left out of ranges) that k lies under, "" where none: only one ending in
// the time's separator is a prefix of other keys (a whole key named, META,
// is not the prefix of METADATA_…). The named prefixes end at the first
// separator the time follows, so none lies under another.
func (s TimeSample) timelessOver(k, sep string) string {
	for _, t := range s.Timeless {
		if sep != "" && strings.HasSuffix(t, sep) && strings.HasPrefix(k, t) {
			return t
		}
	}
	return ""
}

// withRead is the sample with keys read from one end of the partition
// (from the newest down when reverse), a read that stopped before the
// other end, in place of the sample's own read from that end when it
// reached further.
func (s TimeSample) withRead(keys []string, reverse bool) TimeSample {
	runs := make([]keyRun, 0, len(s.runs)+1)
	for _, r := range s.runs {
		if r.within == "" && !r.past && r.top == reverse && r.bottom == !reverse && len(r.keys) >= len(keys) {
			return s // the sample's own read reached as far
		}
		if r.within != "" || r.past || r.top != reverse || r.bottom == reverse {
			runs = append(runs, r)
		}
	}
	s.runs = append([]keyRun{{keys: keys, top: reverse, bottom: !reverse}}, runs...)
	return s
}

// timelessEnd reports a sample whose read from one end of the partition
// (the oldest keys when bottom) holds no key with a time in enc, where
// its read from the other end does: a page from that end reads keys no
// range lists before it reaches one.
func (s TimeSample) timelessEnd(enc domain.TimeEncoding, bottom bool) bool {
	timed := map[bool]int{}
	read := map[bool]bool{}
	for _, r := range s.runs {
		if r.within != "" || r.past || r.toEnd || r.top == r.bottom {
			continue
		}
		read[r.bottom] = read[r.bottom] || len(r.keys) > 0
		for _, k := range r.keys {
			if _, ok := enc.KeyTime(k); ok {
				timed[r.bottom]++
			}
		}
	}
	return read[bottom] && timed[bottom] == 0 && timed[!bottom] > 0
}
