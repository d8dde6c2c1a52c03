package dynamo

import (
	"context"
	"sync"

	"github.com/dynascope/dynascope/internal/domain"
)

// Where partitions are large, the skip-scan (partitions.go) reads a probe
// a partition, each sent once the one before has come back: at 20 ms a
// request, a screen of 29 index partitions took 29 round trips, longer
// than reading the whole index in 1,000-key pages. So once the first read
// shows partitions to jump past and its jump, sent alone, finds more (a
// table of one large partition ends there, in two reads, where splitting
// at once cost one a segment), the listing splits into the segments of
// a parallel Scan (Segment of TotalSegments: ranges of the partition
// key's hash, so all of a partition's items are in one segment, as in
// dynalite and the embedded backend), each skip-scanned as before, and
// reads them all at once: a screen takes about screen/segments round
// trips, for a probe a partition as before. The listing's order is then
// scan order within each segment, the segments' partitions in turn at
// each step: no longer the table's scan order.

// listingSegments is how many segments a listing splits into, decided
// from what its first read shows:
//   - the table ended within it or at its jump (a partition or two):
//     there is nothing more to read, in segments or not;
//   - small partitions (several whole in it, few read units each): bulk
//     pages, unsplit, as before. A 1,000-key page lists many partitions
//     in one request; split, each segment would pay its own pages and
//     minimum charges for what one page reads;
//   - large partitions (jumped past): this many segments. A Scan tells
//     nothing of how many partitions follow, so the count is the reads a
//     listing has in flight at most (DefaultParallel): more would not
//     shorten a step, fewer would lengthen a screen. Guessing too many
//     costs little: a segment holding nothing more answers one empty read
//     (0.5 RCU) and closes, at most 0.5 RCU a segment over the sequential
//     skip-scan, as does the first probe of the segment holding the
//     partitions the first read listed.
const listingSegments = DefaultParallel

// readBefore is what the listing delivered before it split: partitions
// read whole, and those a read stopped in (or jumped past) with how many
// of their keys it read. A segment's reads come across them again from
// their start; those keys are not delivered twice.
type readBefore struct {
	whole map[string]bool // key literals
	skip  map[string]int  // keys delivered and not yet come across again
}

// add is before and the partitions of a page read before the split; the
// page's last partition may go on.
func (b *readBefore) add(pk string, items []Item) *readBefore {
	out := &readBefore{whole: map[string]bool{}, skip: map[string]int{}}
	if b != nil {
		for k := range b.whole {
			out.whole[k] = true
		}
		for k, n := range b.skip {
			out.skip[k] = n
		}
	}
	runs := partitionRuns(pk, items)
	for i, run := range runs {
		id := run.key.Literal()
		if i < len(runs)-1 && out.skip[id] == 0 {
			out.whole[id] = true
			continue
		}
		out.skip[id] += run.keys
	}
	return out
}

// listed reports whether the last partition of items was delivered
// before the split, whole or in part.
func (b *readBefore) listed(pk string, items []Item) bool {
	if b == nil || len(items) == 0 {
		return false
	}
	v, ok := KeyValueOf(items[len(items)-1][pk])
	if !ok {
		return false
	}
	_, part := b.skip[v.Literal()]
	return part || b.whole[v.Literal()]
}

// skipKeys says whether partition id was delivered in part before the
// split, and how many of its keys are still to come across.
func (b *readBefore) skipKeys(id string) (int, bool) {
	if b == nil {
		return 0, false
	}
	n, ok := b.skip[id]
	return n, ok
}

// skipped is before once n more keys of partition id were come across.
func (b *readBefore) skipped(id string, n int) *readBefore {
	out := &readBefore{whole: b.whole, skip: make(map[string]int, len(b.skip))}
	for k, v := range b.skip {
		out.skip[k] = v
	}
	out.skip[id] -= n
	return out
}

// PartitionKeys is what a step of a listing read of one partition.
type PartitionKeys struct {
	Key  domain.KeyValue
	Keys int // keys read in the step that the listing had not delivered
	// More: some of its keys are unread, as far as the listing knows (it
	// jumped past them, or its segment's page stopped in it).
	More bool
	// Again: an earlier step listed it (a page went on in it, or read it
	// again from its start); this one adds keys or tells it ended.
	Again bool
}

// PartitionsStep is one step of a listing: a read, or one read per open
// segment, all at once.
type PartitionsStep struct {
	// Partitions are those the step read keys of, in the order read:
	// scan order within a segment, the segments in turn.
	Partitions []PartitionKeys
	// Next is where the listing goes on; after an error, where it
	// resumes: the reads that failed are read again, the others go on.
	Next  PartitionsRequest
	More  bool // the table or index goes on: Next has something to read
	Pages int  // Scan pages answered
	Keys  int  // keys they held, delivered or not
	Jumps int  // jumps past a partition's unread keys
	Cost  Cost
}

// ReadPartitions reads the next step of a listing from r (FirstPartitions
// for the start): one Scan, or, split, one per open segment at once.
// After an error the step holds what the reads that succeeded found.
func ReadPartitions(ctx context.Context, c Client, r PartitionsRequest) (PartitionsStep, error) {
	return readStep(ctx, c, r, len(r.Segments))
}

// readStep is ReadPartitions reading at most most segments (at least
// one): a listing a few partitions short of what it wants reads about as
// many segments, each read finding a partition or so, not all of them.
// The segments left unread come first in Next, to be read next.
func readStep(ctx context.Context, c Client, r PartitionsRequest, most int) (PartitionsStep, error) {
	step := PartitionsStep{Next: r, More: true}
	if len(r.Segments) == 0 {
		r = r.sized()
		page, err := ScanKeysPage(ctx, c, r)
		step.Cost = page.Cost
		if err != nil {
			return step, err
		}
		next, jumped, ok := NextPartitions(r, page)
		next.splitAfter, next.before = false, nil
		// A jump of a bulk page (past a large partition among small
		// ones) reads on in bulk: no reason to split.
		probed := jumped && next.Limit != partitionBulkKeys
		switch {
		case ok && probed && r.first() && next.heavyRest:
			// Unread items priced heavy: split at once. The jump sent
			// alone would read the next partition's first item, which its
			// segment reads again from its start: a 200 KB item twice.
			next, jumped = splitSegments(r, (*readBefore)(nil).add(r.Key.PK.Name, page.Items), next), false
		case ok && probed && r.first():
			// The first jump goes out alone: a table of one large
			// partition ends with it, for two reads, not one a segment.
			next.splitAfter, next.before = true, (*readBefore)(nil).add(r.Key.PK.Name, page.Items)
		case ok && probed && r.splitAfter:
			next, jumped = splitSegments(r, r.before.add(r.Key.PK.Name, page.Items), next), false // read again by its segment, not jumped past
		}
		step.collect(r, page, ok, jumped, nil)
		step.Next, step.More = next, ok
		return step, nil
	}
	read := r.Segments[:min(max(most, 1), len(r.Segments))]
	pages := make([]Page, len(read))
	errs := make([]error, len(read))
	inParallel(len(read), func(i int) { pages[i], errs[i] = ScanKeysPage(ctx, c, read[i]) })
	var failed error
	step.Next.Segments = append([]PartitionsRequest(nil), r.Segments[len(read):]...)
	before := r.before
	for i, seg := range read {
		step.Cost = step.Cost.Add(pages[i].Cost)
		if errs[i] != nil {
			if failed == nil {
				failed = errs[i]
			}
			step.Next.Segments = append(step.Next.Segments, seg)
			continue
		}
		next, jumped, ok := NextPartitions(seg, pages[i])
		before = step.collect(seg, pages[i], ok, jumped, before)
		if ok && jumped && before.listed(r.Key.PK.Name, pages[i].Items) {
			// Past a partition listed before the split: the next may be
			// another (those the first reads listed follow one another
			// in scan order), read again by one key, not a probe's worth.
			next.Limit, next.opening = 1, true
		}
		if ok {
			step.Next.Segments = append(step.Next.Segments, next)
		}
	}
	step.Next.before = before
	step.More = len(step.Next.Segments) > 0
	return step, failed
}

// inParallel runs read(0) … read(n-1) at once, DefaultParallel at a
// time, and returns when all have: the reads of a step of segments.
func inParallel(n int, read func(i int)) {
	inFlight := make(chan struct{}, DefaultParallel)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			inFlight <- struct{}{}
			defer func() { <-inFlight }()
			read(i)
		})
	}
	wg.Wait()
}

// first reports whether r is a listing's first read.
func (r PartitionsRequest) first() bool {
	return r.Start == nil && r.Resume == nil && !r.NoJump && r.TotalSegments == 0 && len(r.Segments) == 0
}

// splitSegments is the listing after its first jump answered with more
// to read (next, the jump after it): listingSegments segments, each
// starting from its beginning with a probe sized as the jump's, and
// before, what was delivered so far.
func splitSegments(r PartitionsRequest, before *readBefore, next PartitionsRequest) PartitionsRequest {
	base := r
	base.Start, base.Resume, base.NoJump = nil, nil, false
	base.splitAfter, base.before = false, nil
	out := base
	out.before = before
	out.Segments = make([]PartitionsRequest, listingSegments)
	for i := range out.Segments {
		seg := base
		// Its first read is one key: it finds the segment's first
		// partition, which may be one listed before the split (the
		// first read's, or its jump's), read again by that one key
		// rather than by a probe of a read unit (33 keys of Locations'
		// USA, and of JAPAN). The probes after it are sized as the
		// jump's.
		seg.Limit, seg.probe, seg.opening = 1, next.probe, true
		seg.readKeys, seg.readRCU = next.readKeys, next.readRCU // what the listing read, for restSizing
		seg.Segment, seg.TotalSegments = int32(i), listingSegments
		out.Segments[i] = seg
	}
	return out
}

// run is a stretch of a page's keys under one partition.
type run struct {
	key  domain.KeyValue
	keys int
}

func partitionRuns(pk string, items []Item) []run {
	var runs []run
	for _, it := range items {
		v, ok := KeyValueOf(it[pk])
		if !ok {
			continue
		}
		if n := len(runs); n > 0 && runs[n-1].key.Literal() == v.Literal() {
			runs[n-1].keys++
			continue
		}
		runs = append(runs, run{key: v, keys: 1})
	}
	return runs
}

// collect adds a page read with r to the step (ok, jumped: what
// NextPartitions made of it), skipping the keys before delivered, and
// returns what of before is left to skip.
func (s *PartitionsStep) collect(r PartitionsRequest, page Page, ok, jumped bool, before *readBefore) *readBefore {
	s.Pages++
	s.Keys += len(page.Items)
	if jumped {
		s.Jumps++
	}
	runs := partitionRuns(r.Key.PK.Name, page.Items)
	// A page going on from where its segment's last stopped (no jump)
	// tells whether the partition it stopped in had more: not if the page
	// begins with another.
	from := r.Start
	if r.Resume != nil && !page.JumpRefused {
		from = nil
	} else if page.JumpRefused {
		from = r.Resume
	}
	cont, has := KeyValueOf(from[r.Key.PK.Name])
	has = has && from != nil
	if has && (len(runs) == 0 || runs[0].key.Literal() != cont.Literal()) {
		if before == nil || !before.whole[cont.Literal()] {
			s.put(cont, 0, false, true)
		}
	}
	for i, run := range runs {
		id := run.key.Literal()
		if before != nil && before.whole[id] {
			continue // listed whole by the first read
		}
		again := i == 0 && has && id == cont.Literal()
		if n, ok := before.skipKeys(id); ok {
			again = true
			d := min(run.keys, n)
			run.keys -= d
			before = before.skipped(id, d)
		}
		s.put(run.key, run.keys, ok && i == len(runs)-1, again)
	}
	return before
}

func (s *PartitionsStep) put(k domain.KeyValue, keys int, more, again bool) {
	for i := range s.Partitions {
		if s.Partitions[i].Key.Literal() == k.Literal() {
			s.Partitions[i].Keys += keys
			s.Partitions[i].More = more
			return
		}
	}
	s.Partitions = append(s.Partitions, PartitionKeys{Key: k, Keys: keys, More: more, Again: again})
}
