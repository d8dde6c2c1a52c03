// Package dataload opens data written elsewhere — DynamoDB exports to S3,
// NoSQL Workbench models, `aws dynamodb scan` output — into the embedded
// backend, so that everything the explorer reads works without a server.
// Files are streamed, decoded in parallel and stored in their order; a bad
// line names its file and line, and nothing half-loaded passes as loaded.
package dataload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/files"
)

// Options are what the command line adds to the data itself.
type Options struct {
	Keys     *Schema  // --keys: the key of any table that has no schema of its own
	Schemas  []Schema // --schema files, matched to tables by name
	SkipBad  bool     // skip malformed lines and items without their key, counting them
	Progress func(Progress)
	// MaxMemory is the most memory the data may take (--data-max): a load
	// the manifests say is bigger is refused before it starts, one that
	// grows past it is stopped. 0: no ceiling.
	MaxMemory int64
	// MaxMemoryFrom says where MaxMemory comes from, for the refusal
	// (" (half of this machine's 8 GiB)"); "" when given.
	MaxMemoryFrom string
	// Open opens a data file; nil: files.Open, which refuses anything but
	// a regular file. Tests pace a load with it.
	Open func(path string) (io.ReadCloser, error)
}

// Progress is how far a load has come.
type Progress struct {
	Path       string // the --data path being read
	File       string // the file being read
	Table      string
	Files      int // files begun
	FilesTotal int // files the load will read, as far as names and manifests tell
	Items      int
	Skipped    int
	Bytes      int64 // uncompressed bytes read
	Done       bool
}

// Result is what a finished load holds.
type Result struct {
	Tables  []string // every table loaded into, in order of first appearance
	Files   int
	Items   int
	Skipped int
	Bytes   int64
	Elapsed time.Duration
}

// Error is bad input: where it is, what is wrong, and what to do.
type Error struct {
	File string
	Line int // 0 when the place is not a line
	Msg  string
	Hint string
}

func (e *Error) Error() string {
	where := e.File
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	s := where + ": " + e.Msg
	if where == "" {
		s = e.Msg
	}
	if e.Hint != "" {
		s += " — " + e.Hint
	}
	return s
}

// Supported says what --data opens, for messages that refuse something.
const Supported = "--data opens a full DynamoDB export in DynamoDB JSON (its folder, or a .json.gz/.json file of it), a NoSQL Workbench model, or `aws dynamodb scan --output json` output"

type loader struct {
	db      *memory.DB
	opt     Options
	bg      *Loading
	tables  map[string]*Schema
	res     Result
	path    string
	file    string
	table   string
	lastOut time.Time
	// From the plan: the tables each path loads (none for a Workbench
	// model, which finishes each of its tables itself), how many paths
	// and models each table still waits for, and the files to read.
	pathTables [][]string
	remaining  map[string]int
	filesTotal int
	ceiling    ceiling
}

func newLoader(db *memory.DB, opt Options, bg *Loading) *loader {
	return &loader{db: db, opt: opt, bg: bg, tables: map[string]*Schema{}, remaining: map[string]int{},
		ceiling: ceiling{max: opt.MaxMemory, from: opt.MaxMemoryFrom}}
}

// Load reads every path into db, creating a table for each table the data
// holds. It stops at the first bad input unless opt.SkipBad, and when ctx
// ends; the error then says what was read, and db must not be shown as
// holding the data (its tables are marked Stopped or Failed).
func Load(ctx context.Context, db *memory.DB, paths []string, opt Options) (Result, error) {
	return Start(ctx, db, paths, opt).Wait()
}

func (l *loader) run(ctx context.Context, paths []string) (Result, error) {
	start := time.Now()
	if err := l.ceiling.before(paths); err != nil {
		l.end(ctx, err)
		l.report(true)
		return l.res, err
	}
	defer l.ceiling.hold()()
	for i, p := range paths {
		l.path = p
		err := ctx.Err()
		if err == nil {
			err = l.load(ctx, p)
		}
		if err != nil {
			l.end(ctx, err)
			l.report(true)
			return l.res, err
		}
		for _, t := range l.pathTables[i] {
			l.finished(t)
		}
	}
	l.res.Elapsed = time.Since(start)
	l.end(ctx, nil)
	l.report(true)
	return l.res, nil
}

func (l *loader) report(done bool) {
	p := Progress{Path: l.path, File: l.file, Table: l.table, Files: l.res.Files, FilesTotal: max(l.filesTotal, l.res.Files), Items: l.res.Items, Skipped: l.res.Skipped, Bytes: l.res.Bytes, Done: done}
	l.bg.note(p)
	if l.opt.Progress == nil {
		return
	}
	if !done && time.Since(l.lastOut) < progressEvery {
		return
	}
	l.lastOut = time.Now()
	l.opt.Progress(p)
}

func isION(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".ion") || strings.HasSuffix(n, ".ion.gz")
}

func refuseION(file string) error {
	return &Error{File: file, Msg: "Amazon Ion exports are not supported", Hint: Supported + "; export again with --export-format DYNAMODB_JSON"}
}

// tableName is a data file's table: its name without .json, .jsonl, .gz.
func tableName(path string) string {
	n := filepath.Base(path)
	for _, ext := range []string{".gz", ".jsonl", ".json"} {
		n = strings.TrimSuffix(n, ext)
	}
	return n
}

// Check finds the paths that cannot be opened at all, before a load in the
// background starts: a mistyped path is said at once, not in the explorer.
func Check(paths []string) error {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err == nil && !st.IsDir() {
			err = files.Check(p, files.Data) // a FIFO or a device is said at once too
		}
		if err != nil {
			return cannotOpen(p, err)
		}
	}
	return nil
}

func cannotOpen(p string, err error) error {
	return &Error{File: p, Msg: "cannot open: " + errText(err), Hint: "give the path of an export folder or a data file"}
}

func (l *loader) load(ctx context.Context, p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return cannotOpen(p, err)
	}
	if st.IsDir() {
		if _, err := os.Stat(filepath.Join(p, "manifest-summary.json")); err == nil {
			return l.export(ctx, p)
		}
		return l.folder(ctx, p)
	}
	switch {
	case filepath.Base(p) == "manifest-summary.json":
		return l.export(ctx, filepath.Dir(p))
	case isION(p):
		return refuseION(p)
	}
	return l.dataFile(ctx, p)
}

// folder loads a folder of data files (scan pages, or an export's data
// files without their manifest) as one table named after the folder.
func (l *loader) folder(ctx context.Context, dir string) error {
	files := folderFiles(dir)
	if len(files) == 0 {
		return &Error{File: dir, Msg: "holds no manifest-summary.json and no .json or .json.gz files", Hint: Supported}
	}
	name := l.nameFor(filepath.Base(filepath.Clean(dir)))
	for _, f := range files {
		if isION(f) {
			return refuseION(f)
		}
		if err := inside(dir, f); err != nil {
			return err
		}
		if err := l.stream(ctx, name, f, "", -1); err != nil {
			return err
		}
	}
	return nil
}

// dataFile loads one file: a Workbench model, scan output or export lines.
func (l *loader) dataFile(ctx context.Context, path string) error {
	kind, err := l.sniff(path)
	if err != nil {
		return err
	}
	if kind == kindWorkbench {
		return l.workbench(ctx, path)
	}
	return l.stream(ctx, l.nameFor(tableName(path)), path, "", -1)
}

// nameFor is the table a file or folder loads into: its own name, unless
// exactly one --schema names the table.
func (l *loader) nameFor(fromFile string) string {
	if len(l.opt.Schemas) == 1 && l.opt.Schemas[0].Table != "" {
		return l.opt.Schemas[0].Table
	}
	return fromFile
}

// schemaFor is the key schema of a table with none of its own: the --schema
// that names it, else the only --schema, else --keys.
func (l *loader) schemaFor(table string) *Schema {
	for i := range l.opt.Schemas {
		if l.opt.Schemas[i].Table == table {
			return &l.opt.Schemas[i]
		}
	}
	if len(l.opt.Schemas) == 1 {
		return &l.opt.Schemas[0]
	}
	return l.opt.Keys
}

// ensure creates table with schema sc, once; a table loaded from several
// paths keeps the schema it was created with.
func (l *loader) ensure(ctx context.Context, table string, sc *Schema) (*Schema, error) {
	if have, ok := l.tables[table]; ok {
		return have, nil
	}
	if _, err := l.db.CreateTable(ctx, sc.createInput(table)); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var inUse *types.ResourceInUseException
		if !errors.As(err, &inUse) {
			return nil, &Error{File: l.path, Msg: fmt.Sprintf("table %s: %v", table, err), Hint: "check the key schema"}
		}
	}
	l.tables[table] = sc
	l.res.Tables = append(l.res.Tables, table)
	l.db.BeginLoad(table)
	l.bg.created(table)
	return sc, nil
}

func errText(err error) string {
	var pe *os.PathError
	var fe *files.Error
	switch {
	case errors.As(err, &pe):
		return pe.Err.Error()
	case errors.As(err, &fe):
		return fe.Problem
	}
	return err.Error()
}
