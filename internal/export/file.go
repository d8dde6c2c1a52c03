// Package export writes what dynascope reads — items, children, versions,
// revisions — as JSON, JSON lines or CSV, to a terminal, a pipe or a file.
// It owns the escaping of everything that reaches a terminal or a file and
// the file rules: created 0600, never over an existing file, removed if
// the write fails half way. The command line and the explorer both use it.
package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
)

// Formats are the formats a target may name besides a file.
var Formats = []string{"jsonl", "json", "csv"}

// TargetError is a target that cannot be written: it names no format, or
// the file cannot be created (it exists, say). It is the user's to fix,
// not a failed read.
type TargetError struct {
	Target string
	Err    error // why the file cannot be created; nil: no format named
	Hint   string
}

func (e *TargetError) Error() string { return e.What() + " — " + e.Hint }

// What is what is wrong, without the hint.
func (e *TargetError) What() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("%q is not a format or a file to export to", e.Target)
}

// Target reads a target: a format written to stdout, or a file whose
// extension (.jsonl, .json, .csv) names the format.
func Target(target string) (format, path string, err error) {
	for _, f := range Formats {
		if target == f {
			return f, "", nil
		}
	}
	switch ext := strings.ToLower(filepath.Ext(target)); ext {
	case ".jsonl", ".json", ".csv":
		return ext[1:], target, nil
	}
	return "", "", &TargetError{Target: target, Hint: "use jsonl, json or csv, or a file ending .jsonl, .json or .csv"}
}

// WriteFunc writes in format to w (a terminal or not) and returns how many
// rows it wrote.
type WriteFunc func(w io.Writer, format string, terminal bool) (int, error)

// To sends a write to stdout, or to the file target names, under the file
// rules. A file written is reported on stderr as "wrote N noun to PATH".
func To(target, noun string, stdout, stderr io.Writer, write WriteFunc) (int, error) {
	format, path, err := Target(target)
	if err != nil {
		return 0, err
	}
	if path == "" {
		return write(stdout, format, IsTerminal(stdout))
	}
	n, err := toFile(path, format, write)
	if err == nil {
		fmt.Fprintf(stderr, "wrote %s to %s (%s)\n", Counted(n, noun), OneLine(path), format)
	}
	return n, err
}

// Counted is n and a plural noun, made singular for one: "1 child",
// "1 versioned item", "2 children".
func Counted(n int, noun string) string {
	if n != 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	switch {
	case strings.HasSuffix(noun, "children"):
		noun = strings.TrimSuffix(noun, "ren")
	case strings.HasSuffix(noun, "ies"):
		noun = strings.TrimSuffix(noun, "ies") + "y"
	default:
		noun = strings.TrimSuffix(noun, "s")
	}
	return "1 " + noun
}

// CheckNewFile reports, before anything is read, why a file could not be
// created at path: it exists, or its folder does not, or is not a folder;
// nil when nothing stands in the way.
func CheckNewFile(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return fileError(path, fs.ErrExist)
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return fileError(path, err)
	case !st.IsDir():
		return &TargetError{Target: path, Err: fmt.Errorf("%s is not a folder", OneLine(dir)), Hint: "name a file in a folder"}
	}
	return nil
}

// fileError is why path could not be created, with the thing to try: the
// cause as the system gives it is only the last resort.
func fileError(path string, err error) *TargetError {
	dir := filepath.Dir(path)
	switch {
	case errors.Is(err, fs.ErrExist):
		return &TargetError{Target: path, Err: fmt.Errorf("%s: the file exists", OneLine(path)), Hint: "choose a new file name (dynascope never overwrites)"}
	case errors.Is(err, fs.ErrNotExist):
		return &TargetError{Target: path, Err: fmt.Errorf("the folder %s does not exist", OneLine(dir)), Hint: "create it, or name a file in a folder that exists"}
	case errors.Is(err, syscall.ENAMETOOLONG):
		return &TargetError{Target: path, Err: fmt.Errorf("the file name is %d bytes: file systems take at most 255", len(filepath.Base(path))), Hint: "type a shorter name"}
	case errors.Is(err, fs.ErrPermission):
		return &TargetError{Target: path, Err: fmt.Errorf("no permission to create a file in %s", OneLine(dir)), Hint: "name a file in a folder you can write to"}
	}
	return &TargetError{Target: path, Err: err, Hint: "name another file"}
}

// toFile creates path 0600 (item data is nobody else's business), never
// over an existing file, and removes it if the write fails. Until the
// write ends the file is listed as unfinished, so a signal that ends the
// process first can still remove it (RemoveUnfinished).
func toFile(path, format string, write WriteFunc) (int, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return 0, fileError(path, err)
	}
	unfinished.add(path)
	defer unfinished.remove(path)
	n, err := write(fileWriter{f}, format, false)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return n, err
	}
	return n, nil
}

// fileWriter is an export's file: temporary data goes beside it.
type fileWriter struct{ *os.File }

func (f fileWriter) spoolDir() string { return filepath.Dir(f.Name()) }

// spoolDir is where an export to w keeps temporary data: beside the file
// it writes (same disk, same permissions), else the system's temporary
// directory.
func spoolDir(w io.Writer) string {
	if f, ok := w.(interface{ spoolDir() string }); ok {
		return f.spoolDir()
	}
	return ""
}

// createSpool makes a temporary file 0600 in dir that no other process
// can open and that never outlives this one: its name is removed at once
// (where the system allows; else by done), so even a kill -9 leaves
// nothing behind. done closes it.
func createSpool(dir string) (f *os.File, done func(), err error) {
	f, err = os.CreateTemp(dir, ".dynascope-spool-*.jsonl")
	if err != nil {
		return nil, nil, err
	}
	unlinked := os.Remove(f.Name()) == nil
	return f, func() {
		f.Close()
		if !unlinked {
			os.Remove(f.Name())
		}
	}, nil
}

// unfinished are the files exports are writing now.
var unfinished = &fileSet{paths: map[string]bool{}}

type fileSet struct {
	mu    sync.Mutex
	paths map[string]bool
}

func (s *fileSet) add(p string) {
	s.mu.Lock()
	s.paths[p] = true
	s.mu.Unlock()
}

func (s *fileSet) remove(p string) {
	s.mu.Lock()
	delete(s.paths, p)
	s.mu.Unlock()
}

// RemoveUnfinished removes every file an export is still writing (its
// write goes on into nothing) and returns their paths: called when the
// process is about to end — a signal, or the explorer quitting during an
// export — so that no partial file is left for a re-run to trip on.
func RemoveUnfinished() []string {
	unfinished.mu.Lock()
	defer unfinished.mu.Unlock()
	var removed []string
	for p := range unfinished.paths {
		if os.Remove(p) == nil {
			removed = append(removed, p)
		}
		delete(unfinished.paths, p)
	}
	return removed
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// QueryToFile writes everything q returns to the file path names (its
// extension names the format), shown as opt.Show says, telling opt.Progress
// after each page: the explorer's export of a query.
func QueryToFile(ctx context.Context, c dynamo.Client, q domain.KeyQuery, path string, opt Options) (int, error) {
	format, err := filePath(path)
	if err != nil {
		return 0, err
	}
	n, err := toFile(path, format, func(w io.Writer, format string, terminal bool) (int, error) {
		n, _, err := Items(ctx, c, q, 0, format, w, terminal, opt)
		return n, err
	})
	return n, explain(path, err)
}

// RowsToFile writes rows already read (children, versions, revisions) to
// the file path names: the explorer's export of what a page has loaded.
func RowsToFile(rows dynamo.Rows, path string) (int, error) {
	format, err := filePath(path)
	if err != nil {
		return 0, err
	}
	n, err := toFile(path, format, func(w io.Writer, format string, terminal bool) (int, error) {
		return len(rows.Rows), Rows(w, format, rows, terminal)
	})
	return n, explain(path, err)
}

// filePath refuses a name that says no format.
func filePath(path string) (format string, err error) {
	format, p, err := Target(path)
	if err != nil || p == "" {
		return "", dynamo.Errorf("export", dynamo.KindValidation, "name a file ending .jsonl, .json or .csv", "%q is not a file to export to", path)
	}
	return format, nil
}

func explain(path string, err error) error {
	if err != nil {
		return dynamo.Explain("export to "+path, err)
	}
	return nil
}
