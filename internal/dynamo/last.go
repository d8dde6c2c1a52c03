package dynamo

import (
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
				l.end, l.ok = domain.After(k), true
				// Read, so held: a count from the keys held reads it not
				// again.
				lv.hold.read([]string{k}, heldRun{lo: k, toEnd: true, rcu: page.Cost.RCU, keys: 1, reads: 1})
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
