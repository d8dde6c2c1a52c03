package memory

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// LoadState is where a table being filled from files (--data) stands.
type LoadState int

const (
	// Complete: every item the files hold is stored (the state of any
	// table that was never loading).
	Complete LoadState = iota
	// Loading: items are still arriving; reads wait until they are all in.
	Loading
	// Stopped: the load was stopped; what was stored is kept, and reads
	// answer from it: the table is partial.
	Stopped
	// Failed: the load failed; reads return its error.
	Failed
)

// TableLoad is one table's load: its state, the items stored so far, the
// error that ended it (Failed) and how many reads wait for it.
type TableLoad struct {
	State   LoadState
	Items   int
	Err     error
	Waiting int
}

// LoadingError is a read that stopped waiting for its table's load: its
// context ended first. It wraps a cancellation (so it reads as one), not a
// deadline, which would read as a server that did not answer.
type LoadingError struct {
	Table string
	Items int
	Err   error
}

func (e *LoadingError) Error() string {
	return fmt.Sprintf("table %s is still loading (%d items so far)", e.Table, e.Items)
}

func (e *LoadingError) Unwrap() error {
	if e.Err == context.Canceled {
		return e.Err
	}
	return nil
}

// loads are the tables being filled, by name.
type loads struct {
	mu     sync.Mutex
	tables map[string]*loadMark
}

type loadMark struct {
	state   LoadState
	err     error
	items   atomic.Int64
	waiting atomic.Int64
	done    chan struct{} // closed when the state leaves Loading
}

// BeginLoad marks table (which must exist) as loading: reads of it wait
// until EndLoad, while ListTables and DescribeTable answer at once.
func (db *DB) BeginLoad(table string) {
	db.mu.RLock()
	n := 0
	if t, ok := db.tables[table]; ok {
		n = t.base.count()
	}
	db.mu.RUnlock()
	db.loads.mu.Lock()
	defer db.loads.mu.Unlock()
	if db.loads.tables == nil {
		db.loads.tables = map[string]*loadMark{}
	}
	if m := db.loads.tables[table]; m != nil && m.state == Loading {
		return
	}
	m := &loadMark{state: Loading, done: make(chan struct{})}
	m.items.Store(int64(n))
	db.loads.tables[table] = m
}

// EndLoad ends table's load in state (Complete, Stopped, or Failed with
// err), releasing the reads that wait. A load already ended stays as it
// ended.
func (db *DB) EndLoad(table string, state LoadState, err error) {
	db.loads.mu.Lock()
	defer db.loads.mu.Unlock()
	m := db.loads.tables[table]
	if m == nil || m.state != Loading || state == Loading {
		return
	}
	m.state, m.err = state, err
	close(m.done)
}

// LoadOf is table's load; ok is false for a table that was never loading.
func (db *DB) LoadOf(table string) (TableLoad, bool) {
	db.loads.mu.Lock()
	defer db.loads.mu.Unlock()
	m := db.loads.tables[table]
	if m == nil {
		return TableLoad{}, false
	}
	return TableLoad{State: m.state, Items: int(m.items.Load()), Err: m.err, Waiting: int(m.waiting.Load())}, true
}

func (db *DB) mark(table string) *loadMark {
	db.loads.mu.Lock()
	defer db.loads.mu.Unlock()
	return db.loads.tables[table]
}

// counted adds n stored items to table's load, if it is loading.
func (db *DB) counted(table string, n int) {
	if m := db.mark(table); m != nil {
		m.items.Add(int64(n))
	}
}

// awaitLoad waits, for as long as ctx allows, until table is no longer
// loading: a read answers from the whole table or not at all. A failed
// load fails the read with the load's own error.
func (db *DB) awaitLoad(ctx context.Context, table string) error {
	m := db.mark(table)
	if m == nil {
		return nil
	}
	m.waiting.Add(1)
	select {
	case <-m.done:
		m.waiting.Add(-1)
	case <-ctx.Done():
		m.waiting.Add(-1)
		select {
		case <-m.done: // it ended as the context did: answer
		default:
			return &LoadingError{Table: table, Items: int(m.items.Load()), Err: ctx.Err()}
		}
	}
	db.loads.mu.Lock()
	state, err := m.state, m.err
	db.loads.mu.Unlock()
	if state == Failed {
		return err
	}
	return nil
}
