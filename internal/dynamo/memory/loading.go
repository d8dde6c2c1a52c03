package memory

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/dynascope/dynascope/internal/dynamo"
)

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
	state   dynamo.LoadState
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
	if m := db.loads.tables[table]; m != nil && m.state == dynamo.LoadRunning {
		return
	}
	m := &loadMark{state: dynamo.LoadRunning, done: make(chan struct{})}
	m.items.Store(int64(n))
	db.loads.tables[table] = m
}

// EndLoad ends table's load in state (LoadComplete, LoadStopped, or
// LoadFailed with err), releasing the reads that wait. A load already ended
// stays as it ended.
func (db *DB) EndLoad(table string, state dynamo.LoadState, err error) {
	db.loads.mu.Lock()
	defer db.loads.mu.Unlock()
	m := db.loads.tables[table]
	if m == nil || m.state != dynamo.LoadRunning || state == dynamo.LoadRunning {
		return
	}
	m.state, m.err = state, err
	close(m.done)
}

// LoadOf is table's load; ok is false for a table that was never loading.
func (db *DB) LoadOf(table string) (dynamo.TableLoad, bool) {
	db.loads.mu.Lock()
	defer db.loads.mu.Unlock()
	m := db.loads.tables[table]
	if m == nil {
		return dynamo.TableLoad{}, false
	}
	return dynamo.TableLoad{State: m.state, Items: int(m.items.Load()), Err: m.err, Waiting: int(m.waiting.Load())}, true
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
	if state == dynamo.LoadFailed {
		return &dynamo.LoadFailedError{Table: table, Err: err}
	}
	return nil
}
