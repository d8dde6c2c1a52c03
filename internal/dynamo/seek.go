package dynamo

import (
	"context"
	"sync"

	"github.com/dynascope/dynascope/internal/domain"
)

// seeker sends a skip-scan's keys-only reads and, ahead of the walk, the
// reads it guesses the walk will make next: once children named C00, C01
// appear, the reads from past C01, C02, … C07 go out together. The walk
// only ever uses an answer to the very read it would have sent itself (the
// same start, the same Limit), so what it finds is exactly what one read
// after another finds; a wrong guess costs a read, and halves how far
// ahead it guesses.
type seeker struct {
	ctx       context.Context
	cancel    context.CancelFunc
	c         Client
	tableKeys *KeySchema
	parallel  int // reads in flight at most
	width     int // guesses sent ahead: doubled by a hit, halved by a miss
	// slots, when not nil, bounds the reads in flight across the seekers
	// of one level (a token a read).
	slots chan struct{}

	mu       sync.Mutex
	cost     Cost
	flights  map[string]*flight // by start key
	wg       sync.WaitGroup
	Guessed  int // reads sent on a guess
	Wasted   int // of which the walk never used
	inFlight int
	// measure: the next read sent asks for whole items, not keys only
	// (DynamoDB bills both alike), so their sizes size the probes.
	measure bool
}

type flight struct {
	limit int32
	done  chan struct{}
	page  Page
	err   error
}

func newSeeker(ctx context.Context, c Client, tableKeys *KeySchema, parallel int) *seeker {
	ctx, cancel := context.WithCancel(ctx)
	return &seeker{ctx: ctx, cancel: cancel, c: c, tableKeys: tableKeys, parallel: parallel, width: min(3, parallel-1), flights: map[string]*flight{}}
}

// close waits for reads still in flight, so their cost is counted: they
// were sent, and DynamoDB charges for them.
func (s *seeker) close() {
	s.wg.Wait()
	s.cancel()
	s.Wasted += len(s.flights) // guesses past the last child
}

// abort cancels what is in flight (esc, or a failed read) and waits.
func (s *seeker) abort() {
	s.cancel()
	s.wg.Wait()
	s.Wasted += len(s.flights)
}

func (s *seeker) total() Cost {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cost
}

// launch sends q from start with limit unless that read is already out;
// the caller holds s.mu.
func (s *seeker) launch(start string, q domain.KeyQuery, limit int32) {
	if _, ok := s.flights[start]; ok {
		return
	}
	f := &flight{limit: limit, done: make(chan struct{})}
	keysOnly := !s.measure
	s.measure = false
	s.flights[start] = f
	s.inFlight++
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		var page Page
		var err error
		if s.acquire() {
			page, err = QueryPage(s.ctx, s.c, PageRequest{Query: q, Limit: limit, KeysOnly: keysOnly, TableKeys: s.tableKeys})
			s.release()
		} else {
			err = s.ctx.Err()
		}
		s.mu.Lock()
		s.cost = s.cost.Add(page.Cost)
		s.inFlight--
		s.mu.Unlock()
		f.page, f.err = page, err
		close(f.done)
	}()
}

// unused counts a read the walk sent itself that found nothing it could
// use (a stretch of a cut level already walked to its end).
func (s *seeker) unused() {
	s.mu.Lock()
	s.Wasted++
	s.mu.Unlock()
}

// acquire waits for a slot for one read; false when the walk was
// cancelled first.
func (s *seeker) acquire() bool {
	if s.slots == nil {
		return true
	}
	select {
	case s.slots <- struct{}{}:
		return true
	case <-s.ctx.Done():
		return false
	}
}

func (s *seeker) release() {
	if s.slots != nil {
		<-s.slots
	}
}

// page is the answer to the read of q from start with limit: the one
// already sent ahead, or a new one. Reads sent ahead from before start
// were wrong guesses: the walk has passed them.
func (s *seeker) page(start string, q domain.KeyQuery, limit int32) (Page, error) {
	s.mu.Lock()
	for k, f := range s.flights {
		if k < start || (k == start && f.limit != limit) {
			delete(s.flights, k)
			s.Wasted++
			s.width /= 2
		}
	}
	f, guessed := s.flights[start]
	if !guessed {
		s.launch(start, q, limit)
		f = s.flights[start]
	} else {
		s.width = min(max(2*s.width, 1), s.parallel-1)
	}
	delete(s.flights, start)
	s.mu.Unlock()
	select {
	case <-f.done:
	case <-s.ctx.Done():
		<-f.done
	}
	return f.page, f.err
}

// guess sends, ahead of the walk, the reads it would make if the children
// after last were the names that follow it (C07 after C06, AB after AA):
// each from past such a child's subtree (or past its item, when leaf),
// and none from end on (a stretch's end; "": the level's); none reads
// past stop ("": no bound), as the walk's own reads do not (lastKey).
func (s *seeker) guess(q domain.KeyQuery, last string, leaf bool, prefix, delim string, binary bool, limit int32, end, stop string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	name := last
	for n := 0; n < s.width && len(s.flights) < s.parallel; n++ {
		var ok bool
		if name, ok = domain.NextName(name); !ok {
			return
		}
		start := domain.SkipPast(prefix, name, delim, leaf)
		if end != "" && start >= end {
			return
		}
		cond := inStretch(rangeFrom(start, prefix, binary), end, binary)
		if stop != "" && cond.Op == domain.SKBetween {
			cond.B = skValue(stop, binary)
		}
		if cond.Op == domain.SKBetween && keyText(cond.A) > keyText(cond.B) {
			return
		}
		if _, out := s.flights[start]; out {
			continue
		}
		q.SK = cond
		s.launch(start, q, limit)
		s.Guessed++
	}
}

func keyText(v domain.KeyValue) string { return v.Text + string(v.Bytes) }

// measureNext has the next read sent ask for whole items (the walk's first
// probe): its answer tells the items' sizes, where keys alone tell only
// that they fit the read's cost.
func (s *seeker) measureNext() {
	s.mu.Lock()
	s.measure = true
	s.mu.Unlock()
}
