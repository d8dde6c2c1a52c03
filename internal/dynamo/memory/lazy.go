package memory

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// lazyTables holds the tables whose items are built on first use, so that a
// large generated database (the demo) is ready before its items exist: each
// table costs its generation only when something first reads or describes it.
type lazyTables struct {
	mu     sync.Mutex
	tables map[string]*lazyTable
}

type lazyTable struct {
	once   sync.Once
	items  func() ([]map[string]types.AttributeValue, error)
	err    error
	counts *Counts     // what DescribeTable says before the items exist
	filled atomic.Bool // the items are stored (or failed)
}

// Counts are what DescribeTable reports of a table's items: its item
// count and size in bytes, and each global index's item count.
type Counts struct {
	Items, Bytes int64
	IndexItems   map[string]int64
}

// Lazy arranges for items to be called once, on the first request that
// touches the table (DescribeTable, Query, Scan, GetItem or a write), and
// its items stored before that request is answered; requests meanwhile wait.
// The table must exist. Every request sees the table either untouched or
// whole, never half-filled.
func (db *DB) Lazy(table string, items func() ([]map[string]types.AttributeValue, error)) {
	db.lazy.mu.Lock()
	defer db.lazy.mu.Unlock()
	if db.lazy.tables == nil {
		db.lazy.tables = map[string]*lazyTable{}
	}
	db.lazy.tables[table] = &lazyTable{items: items}
}

// LazyCounted is Lazy for items whose counts are known beforehand:
// DescribeTable answers with counts instead of building the items, until
// something else builds them. counts must be exactly what the table
// describes once its items are stored; the caller tests that.
func (db *DB) LazyCounted(table string, counts Counts, items func() ([]map[string]types.AttributeValue, error)) {
	db.Lazy(table, items)
	db.lazy.mu.Lock()
	defer db.lazy.mu.Unlock()
	db.lazy.tables[table].counts = &counts
}

// knownCounts returns the counts a lazy table declared while its items
// are not yet built, or nil.
func (db *DB) knownCounts(name string) *Counts {
	db.lazy.mu.Lock()
	l := db.lazy.tables[name]
	db.lazy.mu.Unlock()
	if l == nil || l.filled.Load() {
		return nil
	}
	return l.counts
}

// PutItems stores many items in one table at once (see putItems), after
// the table's lazy items if it has them.
func (db *DB) PutItems(ctx context.Context, tableName string, items []map[string]types.AttributeValue) (int, error) {
	if err := db.fill(tableName); err != nil {
		return 0, err
	}
	return db.putItems(ctx, tableName, items)
}

// fill builds the items of any of the named tables still waiting for them.
// A generation that failed fails every request to its table the same way.
func (db *DB) fill(names ...string) error {
	for _, name := range names {
		db.lazy.mu.Lock()
		l := db.lazy.tables[name]
		db.lazy.mu.Unlock()
		if l == nil {
			continue
		}
		l.once.Do(func() {
			items, err := l.items()
			if err == nil {
				// Not the caller's context: a fill once begun completes, or
				// a cancelled first reader would leave the table empty.
				_, err = db.putItems(context.Background(), name, items)
			}
			l.err = err
			l.filled.Store(true)
		})
		if l.err != nil {
			return l.err
		}
	}
	return nil
}
