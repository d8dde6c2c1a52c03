package dataload

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/files"
)

// Loading is a load running in the background (Start): the explorer opens
// while it runs, each table readable as soon as its own items are in.
type Loading struct {
	db     *memory.DB
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	last   Progress
	tables []string // every table created so far, in order
	res    Result
	err    error
}

var _ dynamo.DataLoad = (*Loading)(nil)

// Start plans the load, creating every table whose name and key schema are
// known up front (from a Workbench model, a manifest, a --schema or a file's
// name with --keys) and marking it loading in db, then loads in the
// background. Reads of a table wait until its load ends (memory.DB's
// LoadState); Stop ends the load early, keeping what is stored.
func Start(ctx context.Context, db *memory.DB, paths []string, opt Options) *Loading {
	ctx, cancel := context.WithCancel(ctx)
	bg := &Loading{db: db, cancel: cancel, done: make(chan struct{})}
	l := newLoader(db, opt, bg)
	l.plan(ctx, paths)
	bg.last = Progress{FilesTotal: l.filesTotal}
	go func() {
		defer close(bg.done)
		defer cancel()
		res, err := l.run(ctx, paths)
		bg.mu.Lock()
		bg.res, bg.err = res, err
		bg.mu.Unlock()
	}()
	return bg
}

// Stop ends the load: tables complete so far stay complete, the table being
// loaded keeps what was stored and is marked Stopped (partial).
func (bg *Loading) Stop() { bg.cancel() }

// Done is closed when the load has ended, whichever way.
func (bg *Loading) Done() <-chan struct{} { return bg.done }

// Wait waits for the load to end and returns what Load returns.
func (bg *Loading) Wait() (Result, error) {
	<-bg.done
	return bg.res, bg.err
}

// Progress is how far the load has come now.
func (bg *Loading) Progress() Progress {
	bg.mu.Lock()
	defer bg.mu.Unlock()
	return bg.last
}

// Status is the load as the explorer's status bar tells it.
func (bg *Loading) Status() dynamo.LoadStatus {
	bg.mu.Lock()
	p, tables := bg.last, bg.tables
	bg.mu.Unlock()
	s := dynamo.LoadStatus{Files: p.Files, FilesTotal: p.FilesTotal, Items: p.Items, Skipped: p.Skipped, Bytes: p.Bytes, Table: p.Table, Tables: len(tables)}
	for _, t := range tables {
		if l, ok := bg.db.LoadOf(t); !ok || l.State != dynamo.LoadRunning {
			s.TablesDone++
		}
	}
	if _, err, ended := bg.Ended(); ended {
		s.Ended = true
		if errors.Is(err, context.Canceled) {
			s.Stopped = true
		} else {
			s.Err = err
		}
	}
	return s
}

// Table is one table's load.
func (bg *Loading) Table(name string) (dynamo.TableLoad, bool) { return bg.db.LoadOf(name) }

func (bg *Loading) created(table string) {
	bg.mu.Lock()
	bg.tables = append(bg.tables, table)
	bg.mu.Unlock()
}

// Ended reports whether the load has ended, and how: its result and error.
func (bg *Loading) Ended() (Result, error, bool) {
	select {
	case <-bg.done:
		return bg.res, bg.err, true
	default:
		return Result{}, nil, false
	}
}

func (bg *Loading) note(p Progress) {
	bg.mu.Lock()
	bg.last = p
	bg.mu.Unlock()
}

// plan finds the tables each path loads and creates those whose key schema
// is known, marking them loading, so that they are listed (and described)
// before their items arrive. It also counts the data files. It is best
// effort: whatever it cannot read now, the load itself reports, in order.
func (l *loader) plan(ctx context.Context, paths []string) {
	l.pathTables = make([][]string, len(paths))
	for i, p := range paths {
		tables, workbench := l.planPath(p)
		for _, t := range tables {
			if t.schema == nil {
				continue
			}
			if _, err := l.ensure(ctx, t.name, t.schema); err != nil {
				continue
			}
			l.remaining[t.name]++
			if !workbench {
				l.pathTables[i] = append(l.pathTables[i], t.name)
			}
		}
	}
}

type plannedTable struct {
	name   string
	schema *Schema
}

// planPath is what load reads of p: its tables and files, from names and
// manifests only (a Workbench model is read whole: it is small).
func (l *loader) planPath(p string) (tables []plannedTable, workbench bool) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, false
	}
	one := func(name string, files int) ([]plannedTable, bool) {
		l.filesTotal += files
		return []plannedTable{{name, l.schemaFor(name)}}, false
	}
	dir := p
	switch {
	case st.IsDir():
	case filepath.Base(p) == "manifest-summary.json":
		dir = filepath.Dir(p)
	default:
		if k, err := l.sniff(p); err == nil && k == kindWorkbench {
			return l.planWorkbench(p), true
		}
		return one(l.nameFor(tableName(p)), 1)
	}
	if b, err := files.Read(filepath.Join(dir, "manifest-summary.json"), files.Manifest); err == nil {
		var sum manifestSummary
		if json.Unmarshal(b, &sum) != nil || tableFromArn(sum.TableArn) == "" {
			return nil, false
		}
		l.ceiling.plan(sum)
		listing, _ := files.Read(filepath.Join(dir, "manifest-files.json"), files.Manifest)
		files := 0
		for _, line := range bytes.Split(listing, []byte("\n")) {
			if len(bytes.TrimSpace(line)) > 0 {
				files++
			}
		}
		return one(tableFromArn(sum.TableArn), files)
	}
	return one(l.nameFor(filepath.Base(filepath.Clean(dir))), len(folderFiles(dir)))
}

func (l *loader) planWorkbench(p string) []plannedTable {
	l.filesTotal++
	m, err := l.readWorkbench(p)
	if err != nil {
		return nil // the load says what is wrong with it, in its turn
	}
	var out []plannedTable
	for _, t := range m.DataModel {
		if sc, err := t.schema(""); err == nil && t.TableName != "" {
			out = append(out, plannedTable{t.TableName, sc})
		}
	}
	return out
}

// folderFiles are the data files of a folder without a manifest, in order.
func folderFiles(dir string) []string {
	var files []string
	for _, pattern := range []string{"*.json", "*.json.gz", "*.jsonl", "data/*.json.gz", "*.ion", "*.ion.gz", "data/*.ion.gz"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		files = append(files, m...)
	}
	sort.Strings(files)
	return files
}

// finished notes that a path (or a Workbench table) loaded into table is
// done: when it was the last, the table is complete and its reads answer.
func (l *loader) finished(table string) {
	if l.remaining[table]--; l.remaining[table] <= 0 {
		l.db.EndLoad(table, dynamo.LoadComplete, nil)
	}
}

// end settles every table still loading when the load ends: complete when
// it succeeded, partial when it was stopped, failed with its error else.
func (l *loader) end(ctx context.Context, err error) {
	state := dynamo.LoadComplete
	switch {
	case err != nil && ctx.Err() != nil:
		state, err = dynamo.LoadStopped, nil
	case err != nil:
		state = dynamo.LoadFailed
	}
	for _, t := range l.res.Tables {
		l.db.EndLoad(t, state, err)
	}
}

// progressEvery is how often the Progress callback is called at most.
const progressEvery = 100 * time.Millisecond
