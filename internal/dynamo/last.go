package dynamo

import (
	"strings"
	"unicode/utf8"

	"github.com/dynascope/dynascope/internal/domain"
)

// A level whose first probe is filled by one child holds children larger
// than a probe: it is walked by skip-scan, a read a child. Beside the
// second probe the walk reads the level's last key (one key, backwards):
// where the level ends. The walk then stops at that child without a read
// that finds nothing, guesses no names past it, and cuts only the key
// space the level's names span (ABQ–TPA, not on to Z).

// lastRead is the read of a level's last key, under way.
type lastRead struct {
	done chan struct{}
	end  string // just past the level's last key
	key  string // the level's last key
	ok   bool   // the level has a key
	err  error
}

// readLast sends the read of the level's last key.
func (lv *levelWalk) readLast() *lastRead {
	l := &lastRead{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		q := lv.level
		q.Reverse = true
		page, err := QueryPage(lv.ctx, lv.c, PageRequest{Query: q, Limit: 1, KeysOnly: true, TableKeys: lv.r.TableKeys})
		lv.mu.Lock()
		lv.extra = lv.extra.Add(page.Cost)
		lv.mu.Unlock()
		if err != nil {
			l.err = err
			return
		}
		for _, it := range page.Items {
			if k, ok := skText(it[lv.r.Key.SK.Name]); ok {
				l.end, l.key, l.ok = domain.After(k), k, true
				// Read, so held: a count from the keys held reads it not
				// again.
				// Of an index, one entry of it (held.go's last).
				lv.hold.readLast(k, heldRun{lo: k, toEnd: true, rcu: page.Cost.RCU, keys: 1, reads: 1}, lv.tableKeysOf(page, 1))
			}
		}
	}()
	return l
}

// wait is the read's answer: just past the level's last key, and whether
// there is one.
func (l *lastRead) wait() (end string, ok bool, err error) {
	<-l.done
	return l.end, l.ok, l.err
}

// endAtLast ends the level's first stretch at the level's last key, once
// read (sent beside the walk's second read): the walk neither guesses nor
// cuts past it, nor reads on past it to find nothing. start is where the
// walk reads on from.
func (w *walker) endAtLast(start string) error {
	if !w.first || w.lastSeen || w.lv.last == nil {
		return nil
	}
	l := w.lv.last
	w.lastSeen = true
	end, ok, err := l.wait()
	if err != nil {
		return err
	}
	if ok && end > start && w.end == "" {
		w.end = end
	}
	return nil
}

// lastKey is the level's last key, where its read has answered and the
// stretch ending at end is read in plain pages (a dense level's rest,
// fewtrips.go) to the level's end: read already, so the stretch's reads
// stop short of it (beforeKey) and it is taken from that read once they
// are done. Read on to it, it was read twice (a level of 25 names under
// '|'). A probe's stretch keeps reading to the level's end: its last
// read finds at most a probe of the last child's keys, and short of the
// last key it would often find none and cost the same.
func (w *walker) lastKey() (string, bool) {
	l := w.lv.last
	if l == nil || w.end == "" || w.limit != 0 {
		return "", false
	}
	k, ok := l.answered()
	if !ok || w.end != l.end {
		return "", false
	}
	return k, true
}

// lastName is the name of the child the level's last key is under, once
// its read has answered, where that key is below it: a last key that is
// an item of its own (FLIGHTS#AA's "metadata" after JFK#…, LAX#…) says
// nothing of where the children's names run.
func (w *walker) lastName() (string, bool) {
	if w.lv.last == nil {
		return "", false
	}
	k, ok := w.lv.last.answered()
	if !ok {
		return "", false
	}
	name, leaf, ok := domain.ChildOf(w.lv.r.Prefix, k, w.walk.Delim)
	return name, ok && !leaf
}

// answered is the level's last key, where its read has answered with one
// (it is not waited for).
func (l *lastRead) answered() (string, bool) {
	select {
	case <-l.done:
	default:
		return "", false
	}
	if l.err != nil || !l.ok {
		return "", false
	}
	return l.key, true
}

// takeLast feeds the level's last key, read already, to the stretch that
// ends the level, once its reads, which stop short of it, are done.
func (w *walker) takeLast(emit func(domain.Child)) {
	k, ok := w.lastKey()
	if !ok || w.tookLast {
		return
	}
	w.tookLast = true
	changed := w.walk.Feed([]string{k})
	w.sample = sampleKeys(w.sample, []string{k}, w.lv.r.Prefix, w.walk.Delim)
	if emit != nil {
		for _, i := range changed {
			emit(w.walk.Children()[i])
		}
	}
}

// beforeKey is the greatest sort key below k (a sort key holds at most
// MaxSKValueBytes bytes, of UTF-8 where it is a string): a read bounded
// by it (BETWEEN, which includes its bounds) reads every key below k
// and not k. ok is false where there is none to tell.
func beforeKey(k string, binary bool) (string, bool) {
	if k == "" {
		return "", false
	}
	if binary {
		b := []byte(k)
		if b[len(b)-1] == 0 {
			return string(b[:len(b)-1]), true
		}
		b[len(b)-1]--
		return string(b) + strings.Repeat("\xff", max(MaxSKValueBytes-len(b), 0)), true
	}
	r, size := utf8.DecodeLastRuneInString(k)
	if r == utf8.RuneError && size <= 1 {
		return "", false
	}
	p := k[:len(k)-size]
	if r == 0 {
		return p, true
	}
	if r--; r >= 0xD800 && r <= 0xDFFF {
		r = 0xD7FF // below the surrogates, which are no characters
	}
	var sb strings.Builder
	sb.WriteString(p)
	sb.WriteRune(r)
	// Then the greatest characters that fit, largest first.
	for _, c := range []rune{utf8.MaxRune, 0xFFFF, 0x7FF, 0x7F} {
		for sb.Len()+utf8.RuneLen(c) <= MaxSKValueBytes {
			sb.WriteRune(c)
		}
	}
	return sb.String(), true
}

// oneChild says keys read from a level all belong to one child.
func oneChild(keys []string, prefix, delim string) bool {
	if delim == "" || len(keys) == 0 {
		return false
	}
	first, _, ok := domain.ChildOf(prefix, keys[0], delim)
	if !ok {
		return false
	}
	last, _, ok := domain.ChildOf(prefix, keys[len(keys)-1], delim)
	return ok && first == last
}
