package dynamo

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/dynascope/dynascope/internal/domain"
)

// A level's walk, cut into stretches. A walker reads from the start of
// its stretch; once a probe of a whole read unit was filled by one child
// (children larger than a read unit, so probing is right) and the names
// do not count up (ABQ then ALB), it keeps the first part of the rest and
// hands the others, cut by key space up to the level's last key (ALB$–C%{,
// C%{–D^U, …, –TPA), to walkers of their own, which run at once. A cut
// point never falls inside a child's subtree (posName), so no child
// straddles two stretches: the children of the level are those of each
// stretch, in key order.

// levelWalk is what the walkers of one level share: the reads in flight
// (at most parallel), the cost and the stretches.
type levelWalk struct {
	ctx      context.Context
	cancel   context.CancelFunc
	c        Client
	r        ChildrenRequest
	level    domain.KeyQuery
	binary   bool
	parallel int
	slots    chan struct{} // one per read in flight

	// last, when the first probe showed large children, is the read of
	// the level's last key, sent beside the second probe (last.go).
	last *lastRead
	// hold keeps the keys read, where the explorer asked (held.go).
	hold *keyHold

	mu      sync.Mutex
	extra   Cost // reads outside the seekers (the last key's)
	seekers []*seeker
	guessed int
	wasted  int
}

func newLevelWalk(ctx context.Context, c Client, r ChildrenRequest, level domain.KeyQuery, binary bool, parallel int) *levelWalk {
	ctx, cancel := context.WithCancel(ctx)
	return &levelWalk{ctx: ctx, cancel: cancel, c: c, r: r, level: level, binary: binary, parallel: parallel, slots: make(chan struct{}, 2*parallel)}
}

// walker is one stretch's walk: from walk.Start() up to end (not
// included; "" for the end of the level).
type walker struct {
	lv     *levelWalk
	walk   *domain.ChildWalk
	sk     *seeker
	end    string
	probe  probeSizing
	limit  int32
	sample []string
	filled int      // probes in a row filled by one child
	flat   flatness // what the keys read say of each child's level
	first  bool     // the level's first stretch
	detect bool     // the delimiter is still to be told from the keys
	// lastSeen: the read of the level's last key was waited for;
	// tookLast: that key was fed to this stretch, its last (takeLast).
	lastSeen, tookLast bool
	// wantLast: the first read was filled by one child, so the level's
	// last key is to be read, beside the next read that probes; not
	// beside a weighing read, which may reach the level's end
	// (fewtrips.go).
	wantLast bool
	// lateLast: that read went out after the weighing read, beside the
	// probe now out: the rest is cut once it answers, not before (waited
	// for here, it cost 3 children of 3,000 items a round trip).
	lateLast bool
	dense    bool // the level is walked in stretches
	// weigh: the next read is a first page of whole items, to see a
	// child end (fewtrips.go); firstRCU is what the first read's items
	// cost.
	weigh    bool
	firstRCU float64
	// filledRCU is the most a read of whole items filled by one child
	// cost (not rounded): where a child weighs heavyChildRCU or more,
	// stretches hold a child each (cutPoints).
	filledRCU float64
	from      string    // where the stretch starts
	subs      []*walker // stretches cut off this one, in key order (set while it runs)
	done      chan struct{}
	err       error
}

func (lv *levelWalk) walker(walk *domain.ChildWalk, end string, probe probeSizing, limit int32) *walker {
	sk := newSeeker(lv.ctx, lv.c, lv.r.TableKeys, lv.parallel)
	sk.slots = lv.slots
	lv.mu.Lock()
	lv.seekers = append(lv.seekers, sk)
	lv.mu.Unlock()
	return &walker{lv: lv, walk: walk, sk: sk, end: end, probe: probe, limit: limit, done: make(chan struct{})}
}

// total is what every read of the level has cost so far.
func (lv *levelWalk) total() Cost {
	lv.mu.Lock()
	defer lv.mu.Unlock()
	t := lv.extra
	for _, s := range lv.seekers {
		t = t.Add(s.total())
	}
	return t
}

// finish waits for every read still out (it was sent, and is billed) and
// counts the guesses.
func (lv *levelWalk) finish(failed bool) {
	lv.mu.Lock()
	seekers := lv.seekers
	lv.mu.Unlock()
	for _, s := range seekers {
		if failed {
			s.abort()
		} else {
			s.close()
		}
		lv.guessed += s.Guessed
		lv.wasted += s.Wasted
	}
	if lv.last != nil {
		if failed {
			lv.cancel()
		}
		<-lv.last.done // sent, so billed: counted before the total is told
		// It finds no child (the walk reads the last one forwards): it is
		// the level's end, the read a walk without it makes past the last
		// child to find nothing.
		lv.wasted++
	}
	lv.cancel()
}

// run walks the stretch, detecting the delimiter if need be, and may cut
// the rest of it into stretches. emit, if not nil, sees each child found
// or updated.
func (w *walker) run(emit func(domain.Child)) error {
	prevStart := ""
	for reads := 0; ; reads++ {
		start := w.walk.Start()
		// The walk reads on from where the keys read so far end, not from
		// LastEvaluatedKey: a server that says "more" yet sends the same
		// keys again would have it ask the same question forever.
		if reads > 0 && start <= prevStart {
			return cursorFailure("children of "+w.lv.r.Table, &CursorError{Backwards: start < prevStart})
		}
		prevStart = start
		q, ok := w.query(start)
		if !ok {
			w.takeLast(emit)
			return nil
		}
		// The level's first probe reads whole items (billed as keys
		// alone would be): their sizes size every probe after it.
		measure := (reads == 0 && w.first && w.limit > 0 && !w.probe.Sized) || w.weigh
		if measure {
			w.sk.measureNext()
		}
		page, err := w.sk.page(start, q, w.limit)
		if err != nil {
			return err
		}
		if reads >= 1 { // the last key's read went out beside this one
			if err := w.endAtLast(start); err != nil {
				return err
			}
		}
		keys, past := w.keysOf(page)
		if more := page.More() && !past; len(keys) > 0 || !more {
			run := w.covered(start, keys, more)
			if n := len(page.Items); n > 0 {
				// The share of the read its keys held bear (a read that ran
				// into the next stretch holds fewer than it paid for).
				run.rcu, run.keys, run.reads = page.Cost.RCU*float64(len(keys))/float64(n), len(keys), 1
				run.largest, run.exact = heldLargest(page)
			}
			w.lv.hold.read(keys, run, w.lv.tableKeysOf(page, len(keys)))
		}
		changed := w.take(keys, page, reads == 0, emit)
		if !page.More() || past {
			w.takeLast(emit)
			return nil
		}
		if err := w.onward(keys, changed, page, measure); err != nil {
			return err
		}
	}
}

// covered is the key space a read from start covered: up to its last key
// where more follow, else to its stretch's end (or the level's).
func (w *walker) covered(start string, keys []string, more bool) heldRun {
	switch {
	case more:
		return heldRun{lo: start, hi: keys[len(keys)-1]}
	case w.end != "":
		return heldRun{lo: start, hi: w.end}
	}
	return heldRun{lo: start, toEnd: true}
}

// query is the next read's, from start; ok is false where the stretch or
// the prefix ends before it.
func (w *walker) query(start string) (q domain.KeyQuery, ok bool) {
	lv := w.lv
	if w.end != "" && start >= w.end {
		return q, false
	}
	q = lv.level
	q.SK = rangeFrom(start, lv.r.Prefix, lv.binary)
	if q.SK.Op == domain.SKBetween && keyText(q.SK.A) > keyText(q.SK.B) {
		return q, false // the walk has passed the end of the prefix
	}
	// A read stays in its stretch, a probe as a plain page (a key equal
	// to its end is read and passed over): the keys past it are the next
	// stretch's, which reads them (a probe running on into them read its
	// first child again, two or three times where stretches held none).
	q.SK = inStretch(q.SK, w.end, lv.binary)
	if last, ok := w.lastKey(); ok && q.SK.Op == domain.SKBetween {
		// The level's last key, read already: stop short of it.
		before, ok := beforeKey(last, lv.binary)
		if !ok || start > before {
			return q, false
		}
		q.SK.B = skValue(before, lv.binary)
	}
	return q, true
}

// inStretch bounds a read's condition from its start by the end of its
// stretch ("": none).
func inStretch(cond domain.SKCondition, end string, binary bool) domain.SKCondition {
	switch {
	case end == "":
		return cond
	case cond.Op == domain.SKGe:
		return domain.SKCondition{Op: domain.SKBetween, A: cond.A, B: skValue(end, binary)}
	case cond.Op == domain.SKBetween && keyText(cond.B) > end:
		cond.B = skValue(end, binary)
	}
	return cond
}

// tableKeysOf are the table's keys of a page's first n items (those
// keysOf took), where the level is an index's: what tells its entries
// of one sort key apart (nil on a table).
func (lv *levelWalk) tableKeysOf(page Page, n int) []string {
	tk := lv.r.TableKeys
	if tk == nil || lv.hold == nil {
		return nil
	}
	ids := make([]string, 0, n)
	for _, it := range page.Items {
		if len(ids) == n {
			break
		}
		if _, ok := skText(it[lv.r.Key.SK.Name]); !ok {
			continue // keysOf passed over it
		}
		id := []any{Wire(valueOr(it[tk.PK.Name]))}
		if tk.SK != nil {
			id = append(id, Wire(valueOr(it[tk.SK.Name])))
		}
		b, _ := json.Marshal(id)
		ids = append(ids, string(b))
	}
	return ids
}

// keysOf are the sort keys of a page that belong to the stretch; past:
// the page ran into the next stretch.
func (w *walker) keysOf(page Page) (keys []string, past bool) {
	keys = make([]string, 0, len(page.Items))
	for _, it := range page.Items {
		k, ok := skText(it[w.lv.r.Key.SK.Name])
		if !ok {
			continue
		}
		if w.end != "" && k >= w.end {
			return keys, true // the next stretch's: its walker reads it
		}
		keys = append(keys, k)
	}
	return keys, false
}

// take feeds the keys of a page to the walk (telling the delimiter from
// the first ones, if need be) and emits what changed.
func (w *walker) take(keys []string, page Page, firstRead bool, emit func(domain.Child)) []int {
	prefix := w.lv.r.Prefix
	if w.detect && len(keys) > 0 {
		// None repeating is a state of its own ("" once detected): the
		// keys are listed whole, never split at a byte 0x23 of a
		// binary key or a lone '#'. A top level is told from its first
		// firstProbeKeys keys, however many its first read holds (the
		// weighing read where the size is known): the same delimiter
		// where the size is known and where it is not.
		sample := keys
		if prefix == "" {
			sample = keys[:min(len(keys), firstProbeKeys)]
		}
		told := true
		if len(sample) == 1 && page.More() {
			// One key where more follow (a budget's first read, cut to
			// one item): none can repeat in it, and listed whole it would
			// be a child no full read finds. Told as a count's is; a key
			// with no delimiter in it (META) is a leaf under any, so the
			// keys after it tell (a walk's read under a budget is not
			// gone on with past its first item: Budgeted.Walk).
			one := trimPrefix(sample, prefix)
			w.walk.Delim = fewKeysDelimiter(one)
			_, told = domain.TemplateDelimiter(one[0])
		} else {
			w.walk.Delim, _ = domain.DetectDelimiter(trimPrefix(sample, prefix))
		}
		w.detect = !told
	}
	if firstRead && w.first && w.limit > 0 && page.More() && len(keys) >= int(w.limit) && oneChild(keys, prefix, w.walk.Delim) {
		w.wantLast = true // sent with the next read, unless it weighs (onward)
	}
	if len(keys) == 0 {
		w.sk.unused() // nothing left: the read found nothing of its own
	}
	w.sample = sampleKeys(w.sample, keys, prefix, w.walk.Delim)
	flat := w.flat.read(keys, prefix, w.walk.Delim)
	changed := w.walk.Feed(keys)
	if flat {
		for i := range w.walk.Children() {
			c := &w.walk.Children()[i]
			c.Flat = w.flat.is(c.Name)
		}
	}
	if emit != nil {
		for _, i := range changed {
			emit(w.walk.Children()[i])
		}
	}
	return changed
}

// onward sizes the next read from the one just answered, and chooses how
// the walk goes on: plain pages where children are small (most keys read
// were new children, or a read unit holds a whole child or more), as a
// plain query would, never more requests than a plain query of the rest;
// where they are large, a jump past each child's subtree, with the next
// names' reads guessed or the rest of the stretch cut.
func (w *walker) onward(keys []string, changed []int, page Page, measure bool) error {
	read := w.limit // the size of the read just answered
	w.resize(keys, changed, page, measure)
	if measure && oneChild(keys, w.lv.r.Prefix, w.walk.Delim) {
		w.filledRCU = max(w.filledRCU, measuredRCU(page.Items))
	}
	weighed := w.weigh
	w.weigh = false
	switch {
	case w.limit == 0:
		return nil
	case w.smallChildren(keys, changed, page.Cost.RCU):
		w.limit = 0
		return nil
	case measure && w.denseAfter(page, weighed):
		return nil
	case measure && !weighed && w.weighNext(keys, page):
		return nil
	}
	w.limit = w.probe.Keys
	w.sendLast(weighed)
	return w.spread(read, page)
}

// sendLast sends the read of the level's last key, where the first read
// was filled by one child and the walk probes on: beside the read that
// probes next, not beside a weighing read (the level may end within it,
// and a level that does paid for the last key's read on top of its full
// read: CUSTOMER#c0005's 56 items, 2.0 RCU where reading them costs 1.0).
func (w *walker) sendLast(weighed bool) {
	if !w.wantLast {
		return
	}
	w.wantLast, w.lateLast = false, weighed
	w.lv.last = w.lv.readLast()
}

// resize sizes the next probe from the read just answered: the whole
// items' sizes of the measuring read, else what its keys cost; and counts
// the probes of a whole read unit (sized) filled by one child, which show
// children larger than a read unit: probing wins.
func (w *walker) resize(keys []string, changed []int, page Page, measure bool) {
	read := w.limit
	var m probeSizing // the whole items' sizes, from the measuring read
	if measure {
		m = measured(page.Items, page.Cost.RCU)
	}
	if m.Sized {
		w.probe = m
	} else if w.limit > 0 {
		w.probe = w.probe.after(len(keys), w.limit, page.Cost.RCU)
	}
	if w.limit == 0 {
		return
	}
	if !measure && w.leavesOnly(keys, changed, read, page.Cost.RCU) {
		// A probe sized by one heavy item (one key a read unit) that
		// keeps finding children of one small item each: grown, so the
		// next read shows two of them and the rest is read in plain
		// pages (smallChildren), not one request a child.
		w.probe.Keys = min(2*w.probe.Keys, maxProbeKeys)
	}
	if w.probe.Sized && read >= w.probe.Keys && len(changed) == 1 && len(keys) >= int(w.limit) {
		w.filled++
	} else {
		w.filled = 0
	}
}

// leavesOnly says a full probe of one read unit read nothing but new
// children that are items themselves, none with keys below it: each
// child is one item, smaller than the probe's sizing allowed for.
func (w *walker) leavesOnly(keys []string, changed []int, read int32, rcu float64) bool {
	if !w.probe.Sized || read <= 0 || len(keys) < int(read) || rcu > 0.5 || len(changed) != len(keys) || w.walk.Delim == "" {
		return false
	}
	for _, k := range keys {
		if _, leaf, ok := domain.ChildOf(w.lv.r.Prefix, k, w.walk.Delim); !ok || !leaf {
			return false
		}
	}
	return true
}

// smallChildren says plain pages cost no more than probes from here:
// most keys read were new children (two of them at least: a first read
// of two heavy items of one child says nothing of the rest).
func (w *walker) smallChildren(keys []string, changed []int, rcu float64) bool {
	if len(changed) >= 2 && len(changed)*2 >= len(keys) {
		return true
	}
	return len(keys) >= 10 && childrenPerPage(keys, w.lv.r.Prefix, w.walk.Delim, rcu) >= plainChildrenPerPage
}

// spread sends the reads of the next names at once, where names count up
// (C06, C07), or cuts the rest of the stretch, once a probe filled by one
// child shows large children whose names do not (ABQ then ALB). read is
// the size of the read just answered.
func (w *walker) spread(read int32, page Page) error {
	lv, r := w.lv, w.lv.r
	ch := w.walk.Children()
	if lv.parallel <= 1 || len(ch) < 2 {
		return nil
	}
	if countsUp(ch, w.dense) {
		if !w.probe.Sized && read > 0 && page.Cost.RCU <= minReadUnits {
			// Guesses go out together at a size known to cost one read
			// unit: a probe doubled ahead of its answer, sent several
			// times at once, costs two units each.
			w.probe = probeSizing{Keys: read, Sized: true}
			w.limit = read
		}
		last := ch[len(ch)-1].Name
		leaf := w.walk.Start() == domain.After(r.Prefix+last)
		stop := ""
		if k, ok := w.lastKey(); ok {
			stop, _ = beforeKey(k, lv.binary)
		}
		w.sk.guess(lv.level, last, leaf, r.Prefix, w.walk.Delim, lv.binary, w.limit, w.end, stop)
		return nil
	}
	if w.dense || w.filled < 1 || (w.lateLast && !w.lastSeen) {
		return nil
	}
	if err := w.endAtLast(w.walk.Start()); err != nil {
		return err
	}
	w.dense = true
	w.cut(cap(lv.slots) - 1)
	return nil
}

// plainChildrenPerPage is where plain pages win: a whole child or more in
// every 4 KB read unit (256 a 1 MB page) costs a plain read no more than a
// probe per child, in far fewer requests.
const plainChildrenPerPage = pageBytes / 4096

// A dense level whose names do not count up (airport codes, states) is
// cut once, as soon as a probe filled by one child shows it: the rest of
// the level, from where the first walker is to the level's last key
// (last.go), is spread evenly over the names' key space (printable ASCII,
// weighted by their first few characters) into as many stretches as reads
// run at once, each walked at once. Each stretch costs one read that
// finds nothing new (the one that runs into the next stretch's first
// child), so the cut makes no more stretches than the children ahead, by
// the first walker's pace, fill chainLength at a time; or, where a read
// of whole items filled by one child showed children of heavyChildRCU or
// more (12 children of 150 items of 2.5 KB: 3 RCU read in ten keys) and
// the level's last key is under a child too, one at a time: there a
// stretch's read more costs a small share of a child's full read, and a
// stretch of a child takes two round trips where one of six took seven.
// A last key that is an item of its own (FLIGHTS#AA's "metadata" after
// JFK#…, LAX#…) says nothing of where the children's names end: a
// stretch a child up to Z cost that level 7.5 RCU where 4.5 lists it, in
// as many round trips. Stretches are
// never cut again: a later cut pays a read to end each new stretch and,
// the measurements say, saves no round trip. Every cut depends only on the
// keys read, never on which answer came first, so a level costs the same
// each time.

// chainLength is the fewest children a stretch is expected to hold.
const chainLength = 6

// heavyChildRCU is the weight a child is seen to have at least (a read
// of its whole items, not rounded, filled by it) from which stretches hold
// a child each: four read units, so a stretch's read more (0.5 RCU) costs
// at most a quarter of a child's full read.
const heavyChildRCU = 2.0

// cut hands up to n parts of the rest of the stretch to new walkers,
// which start at once.
func (w *walker) cut(n int) {
	lv := w.lv
	points := w.cutPoints(n)
	if len(points) == 0 {
		return
	}
	var subs []*walker
	for i, p := range points {
		end := w.end
		if i+1 < len(points) {
			end = points[i+1]
		}
		walk := domain.NewChildWalk(lv.r.Prefix, w.walk.Delim).From(p)
		sub := lv.walker(walk, end, w.probe, w.limit)
		sub.dense, sub.from = true, p
		subs = append(subs, sub)
	}
	w.end = points[0]
	w.subs = append(subs, w.subs...)
	for _, s := range subs {
		go func() {
			defer close(s.done)
			s.err = s.run(nil)
		}()
	}
}

// cutPoints are up to n keys cutting the rest of the stretch (from the
// walk's next start to its end) evenly by key space, as many as its pace
// (the children it found over the key space it covered) says the children
// ahead fill chainLength at a time.
func (w *walker) cutPoints(n int) []string {
	prefix, delim := w.lv.r.Prefix, w.walk.Delim
	start := w.walk.Start()
	if len(start) < len(prefix) || delim == "" {
		return nil
	}
	hi := keySpaceEnd
	if w.end != "" {
		hi = namePos(w.end[len(prefix):])
	}
	seen := w.walk.Children()
	lastChild, heavy := w.lastName()
	heavy = heavy && w.filledRCU >= heavyChildRCU
	if heavy {
		// Heavy children's stretches cut up to the level's last child
		// where it is written in another alphabet (8c9SPKHGii, 9XQ7YSF86E,
		// then u1S5p4OGJ1): a stretch left to run from 9 to u walked its
		// ten children one after another.
		seen = append(slices.Clip(seen), domain.Child{Name: lastChild})
	}
	if end, ok := alphabetEnd(seen); ok {
		// Cuts spread over the alphabet of the names seen (FLIGHTS#AA's
		// JFK, LAX: not on over a–z to its last key, "metadata"): the
		// last stretch still runs to the level's end.
		hi = min(hi, namePos(end))
	}
	if w.from <= prefix && len(w.walk.Children()) > 0 {
		// The level's first stretch: its pace counts from its first
		// child, not from the bottom of the key space.
		w.from = prefix + w.walk.Children()[0].Name
	}
	from, now := namePos(w.from[min(len(prefix), len(w.from)):]), namePos(start[len(prefix):])
	if hi <= now {
		return nil
	}
	if found := len(w.walk.Children()); now > from && found > 0 {
		// The pace is the gaps between the names found over the key
		// space they span: a single child's span says nothing of the
		// next name's distance (ABQ alone would foretell a child every
		// few bytes), two say one gap (JFK, LAX: 4 children in all).
		pace := float64(found) / (now - from)
		if ch := w.walk.Children(); found >= 2 {
			if span := namePos(ch[found-1].Name) - namePos(ch[0].Name); span > 0 {
				pace = float64(found-1) / span
			}
		}
		ahead := pace * (hi - now)
		if heavy {
			n = min(n, int(ahead)-1) // a stretch a child
		} else {
			n = min(n, int(ahead/chainLength)-1)
		}
	}
	var points []string
	last := start
	for i := 1; i <= n; i++ {
		p := prefix + posName(now+(hi-now)*float64(i)/float64(n+1), delim)
		if p <= last || (w.end != "" && p >= w.end) {
			continue
		}
		points = append(points, p)
		last = p
	}
	return points
}

// Names as positions in [0, 1): their first nameDigits characters as
// digits of printable ASCII (others taken as its nearest end), so that
// cuts spread evenly over the names written.
const (
	nameDigits  = 3
	firstDigit  = 0x20
	digitBase   = 0x7f - firstDigit
	keySpaceEnd = 1.0
)

func namePos(name string) float64 {
	pos, scale := 0.0, 1.0
	for i := 0; i < nameDigits; i++ {
		scale /= digitBase
		if i >= len(name) {
			break
		}
		d := min(max(int(name[i]), firstDigit), 0x7e) - firstDigit
		pos += float64(d) * scale
	}
	return pos
}

// posName is the shortest name at pos (to nameDigits characters), never
// inside a child's subtree: where a character would be the delimiter
// (NAME#…), the next one ends the name, past that whole subtree.
func posName(pos float64, delim string) string {
	var b []byte
	for i := 0; i < nameDigits; i++ {
		pos *= digitBase
		d := int(pos)
		pos -= float64(d)
		c := byte(firstDigit + min(d, digitBase-1))
		if c == delim[0] {
			return string(append(b, c+1))
		}
		b = append(b, c)
	}
	for len(b) > 1 && b[len(b)-1] == firstDigit {
		b = b[:len(b)-1]
	}
	return string(b)
}

// alphabetEnd is the character past the alphabet the names are written
// in (A–Z, a–z or 0–9, by their first characters), where cuts stop
// spreading: names past it are found by the last stretch, which runs to
// the level's end. Names that go on in a later alphabet (3xw0JB, 4eikjN:
// names of 0–9, A–Z and a–z) may begin in it too: the cuts spread to its
// end (a stretch from 5 on walked the 39 names of A–z after it).
func alphabetEnd(seen []domain.Child) (string, bool) {
	if len(seen) == 0 {
		return "", false
	}
	classes := [][2]byte{{'0', '9'}, {'A', 'Z'}, {'a', 'z'}}
	for i, class := range classes {
		all := true
		for _, c := range seen {
			if c.Name == "" || c.Name[0] < class[0] || c.Name[0] > class[1] {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		end := i
		for _, c := range seen {
			for j := range min(len(c.Name), nameDigits) {
				for k := end + 1; k < len(classes); k++ {
					if c.Name[j] >= classes[k][0] && c.Name[j] <= classes[k][1] {
						end = k
					}
				}
			}
		}
		return string(classes[end][1] + 1), true
	}
	return "", false
}

// countsUp says the names found count up (C06, C07), so the next ones'
// reads are worth guessing: the last two, or in a level already cut
// (where names that do not count up were seen: AK, AL, AR, AZ) the last
// four (NC, ND, NE guessed NF and NG in vain).
func countsUp(ch []domain.Child, dense bool) bool {
	steps := 1
	if dense {
		steps = 3
	}
	if len(ch) < steps+1 {
		return false
	}
	for i := len(ch) - steps; i < len(ch); i++ {
		if next, ok := domain.NextName(ch[i-1].Name); !ok || next != ch[i].Name {
			return false
		}
	}
	return true
}
