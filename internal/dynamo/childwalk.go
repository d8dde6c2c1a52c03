package dynamo

import (
	"context"
	"sync"

	"github.com/dynascope/dynascope/internal/domain"
)

// A level's walk, cut into stretches. A walker reads from the start of
// its stretch; once two of its probes of a whole read unit in a row were
// each filled by one child (children larger than a read unit, so probing
// is right) and the
// names do not count up (ABQ then ALB), it keeps the first part of the
// rest and hands the others, cut at leading characters (ALB$–F, F–K, …,
// past Z), to walkers of their own, which run at once and may cut their
// own stretches again. A child's whole subtree shares its name's leading
// character, so no child straddles two stretches: the children of the
// level are those of each stretch, in key order.

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

	mu      sync.Mutex
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
	filled int       // probes in a row filled by one child
	detect bool      // the delimiter is still to be told from the keys
	subs   []*walker // stretches cut off this one, in key order (set while it runs)
	done   chan struct{}
	err    error
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
	var t Cost
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
	lv.cancel()
}

// run walks the stretch, detecting the delimiter if need be, and may cut
// the rest of it into stretches. emit, if not nil, sees each child found
// or updated.
func (w *walker) run(emit func(domain.Child)) error {
	lv, r := w.lv, w.lv.r
	prevStart := ""
	for reads := 0; ; reads++ {
		start := w.walk.Start()
		// The walk reads on from where the keys read so far end, not from
		// LastEvaluatedKey: a server that says "more" yet sends the same
		// keys again would have it ask the same question forever.
		if reads > 0 && start <= prevStart {
			return cursorFailure("children of "+r.Table, &CursorError{Backwards: start < prevStart})
		}
		prevStart = start
		if w.end != "" && start >= w.end {
			return nil
		}
		q := lv.level
		q.SK = rangeFrom(start, r.Prefix, lv.binary)
		if q.SK.Op == domain.SKBetween && keyText(q.SK.A) > keyText(q.SK.B) {
			return nil // the walk has passed the end of the prefix
		}
		if w.limit == 0 && w.end != "" {
			// A plain page stays in its stretch (a key equal to its end is
			// read and passed over).
			q.SK = domain.SKCondition{Op: domain.SKBetween, A: skValue(start, lv.binary), B: skValue(w.end, lv.binary)}
		}
		page, err := w.sk.page(start, q, w.limit)
		if err != nil {
			return err
		}
		keys := make([]string, 0, len(page.Items))
		past := false
		for _, it := range page.Items {
			k, ok := skText(it[r.Key.SK.Name])
			if !ok {
				continue
			}
			if w.end != "" && k >= w.end {
				past = true // the next stretch's: its walker reads it
				break
			}
			keys = append(keys, k)
		}
		if w.detect && len(keys) > 0 {
			// None repeating is a state of its own ("" once detected): the
			// keys are listed whole, never split at a byte 0x23 of a
			// binary key or a lone '#'.
			w.walk.Delim, _ = domain.DetectDelimiter(trimPrefix(keys, r.Prefix))
			w.detect = false
		}
		if len(keys) == 0 {
			w.sk.unused() // nothing left: the read found nothing of its own
		}
		w.sample = sampleKeys(w.sample, keys, r.Prefix, w.walk.Delim)
		changed := w.walk.Feed(keys)
		if emit != nil {
			for _, i := range changed {
				emit(w.walk.Children()[i])
			}
		}
		if !page.More() || past {
			return nil
		}
		if w.limit > 0 {
			w.probe = w.probe.after(len(keys), w.limit, page.Cost.RCU)
			// A probe of a whole read unit (sized) filled by one child
			// shows children larger than a read unit: probing wins.
			if w.probe.Sized && len(changed) == 1 && len(keys) >= int(w.limit) {
				w.filled++
			} else {
				w.filled = 0
			}
		}
		// Small children (most keys read were new children, or a read
		// unit holds a whole child or more): read on in plain pages, as a
		// plain query would, never more requests than a plain query of
		// the rest. Large ones: jump past each child's subtree.
		switch {
		case w.limit == 0:
		case len(keys) >= 2 && len(changed)*2 >= len(keys),
			len(keys) >= 10 && childrenPerPage(keys, r.Prefix, w.walk.Delim, page.Cost.RCU) >= plainChildrenPerPage:
			w.limit = 0
		default:
			w.limit = w.probe.Keys
			ch := w.walk.Children()
			if lv.parallel <= 1 || len(ch) < 2 {
				break
			}
			last := ch[len(ch)-1].Name
			if next, ok := domain.NextName(ch[len(ch)-2].Name); ok && next == last {
				// Names count up (C06, C07): guess the next ones' reads.
				leaf := w.walk.Start() == domain.After(r.Prefix+last)
				w.sk.guess(lv.level, last, leaf, r.Prefix, w.walk.Delim, lv.binary, w.limit, w.end)
			} else if w.filled >= 1 {
				w.cut(ch)
			}
		}
	}
}

// plainChildrenPerPage is where plain pages win: a whole child or more in
// every 4 KB read unit (256 a 1 MB page) costs a plain read no more than a
// probe per child, in far fewer requests.
const plainChildrenPerPage = pageBytes / 4096

// cutInto is how many stretches a cut makes (the walker keeps the first).
const cutInto = 32

// cut hands the rest of the stretch past the next few leading characters
// to walkers of their own, which start at once.
func (w *walker) cut(seen []domain.Child) {
	lv := w.lv
	points := cutPoints(lv.r.Prefix, w.walk.Start(), w.end, seen, cutInto)
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
		subs = append(subs, lv.walker(walk, end, w.probe, w.limit))
	}
	w.end = points[0]
	// A second cut splits what the first left this walker: its stretches
	// come before those of the first.
	w.subs = append(subs, w.subs...)
	for _, s := range subs {
		go func() {
			defer close(s.done)
			s.err = s.run(nil)
		}()
	}
}

// cutPoints are where the stretch from start to end ("": the level's end)
// is cut, at most into n: prefix + a leading character, spread evenly over
// the characters between start's and end's (or the last of the names'
// alphabet, A–Z, a–z or 0–9, at the level's end; the last stretch runs to
// the end, so a name outside the alphabet is still found). None when the
// names are not written in one of those alphabets, or too few characters
// are left to cut.
func cutPoints(prefix, start, end string, seen []domain.Child, n int) []string {
	if len(start) <= len(prefix) {
		return nil
	}
	lo := start[len(prefix)]
	var first, last byte
	for _, class := range [][2]byte{{'A', 'Z'}, {'a', 'z'}, {'0', '9'}} {
		all := true
		for _, c := range seen {
			if c.Name == "" || c.Name[0] < class[0] || c.Name[0] > class[1] {
				all = false
				break
			}
		}
		if all {
			first, last = class[0], class[1]
			break
		}
	}
	if end != "" {
		if len(end) != len(prefix)+1 {
			return nil // not a cut of ours
		}
		last = end[len(prefix)] - 1
	}
	if last == 0 || lo < first || lo >= last {
		return nil
	}
	span := int(last - lo) // characters after lo, up to last
	parts := min(n-1, span)
	var points []string
	for i := 1; i <= parts; i++ {
		b := lo + byte((i*span+parts-1)/parts)
		if i > 1 && prefix+string(rune(b)) <= points[len(points)-1] {
			continue
		}
		points = append(points, prefix+string(rune(b)))
	}
	return points
}
