// Package files is how dynascope opens every file it reads: its
// configuration, the AWS configuration, credentials and CA bundle it hands
// the SDK, an export's manifests and data files, models and schemas. Only
// a regular file is read (a FIFO would block forever, /dev/zero never
// ends), within a size that fits its kind, and a file inside a folder
// stays inside it, links resolved.
package files

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Kind is what a file is for: its name in messages and its size cap.
type Kind struct {
	Name string // "configuration file", "manifest"…
	Max  int64  // bytes; 0: no cap (a data file, streamed and bounded by --data-max)
}

// The kinds of file dynascope reads, each capped well above any real one.
var (
	Config   = Kind{"configuration file", 1 << 20}
	AWS      = Kind{"shared AWS config or credentials file", 4 << 20}
	CABundle = Kind{"CA bundle", 8 << 20}
	Manifest = Kind{"manifest of an export", 64 << 20}
	Schema   = Kind{"table description", 4 << 20}
	// Data is a data file or a NoSQL Workbench model, gzipped or not: its
	// reader bounds what it unpacks (a line, a model), and --data-max
	// what it loads.
	Data = Kind{"data file", 0}
)

// Error is a file refused for what it is, not for what it holds.
type Error struct {
	Path    string
	Kind    Kind
	Problem string // "is a FIFO, not a regular file"
}

func (e *Error) Error() string { return e.Path + " " + e.Problem }

// Open opens path as a file of kind k for reading: without blocking (a
// FIFO with no writer), then checked as opened, so nothing can be swapped
// in between. A directory, FIFO, device or socket is refused, and so is a
// file over k's cap.
func Open(path string, k Kind) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = check(path, k, st)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func check(path string, k Kind, st fs.FileInfo) error {
	switch {
	case st.IsDir():
		return &Error{Path: path, Kind: k, Problem: "is a directory, not a file"}
	case !st.Mode().IsRegular():
		return &Error{Path: path, Kind: k, Problem: "is " + kindOf(st.Mode()) + ", not a regular file"}
	case k.Max > 0 && st.Size() > k.Max:
		return &Error{Path: path, Kind: k, Problem: fmt.Sprintf("is %d bytes; a %s is at most %s", st.Size(), k.Name, Size(k.Max))}
	}
	return nil
}

// Read reads a whole file of kind k (see Open), never more than its cap
// even should it grow while read.
func Read(path string, k Kind) ([]byte, error) {
	f, err := Open(path, k)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := io.Reader(f)
	if k.Max > 0 {
		r = io.LimitReader(f, k.Max+1)
	}
	data, err := io.ReadAll(r)
	if err == nil && k.Max > 0 && int64(len(data)) > k.Max {
		return nil, &Error{Path: path, Kind: k, Problem: fmt.Sprintf("is over %s; a %s is at most %s", Size(k.Max), k.Name, Size(k.Max))}
	}
	return data, err
}

// Check reports whether path, if it exists, could be read as kind k; a
// path that does not exist is no error (the reader says so in its turn).
func Check(path string, k Kind) error {
	f, err := Open(path, k)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// Within refuses path unless, its links resolved, it lies inside dir (its
// links resolved too): a folder given to dynascope is read, and nothing
// a link in it points to elsewhere.
func Within(dir, path string) error {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return &Error{Path: path, Problem: "is a link to outside the folder " + dir + ": not followed"}
	}
	return nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "special"
}

// Size writes a size for people: "512 bytes", "1 MiB", "3.2 GiB".
func Size(n int64) string {
	switch {
	case n >= 1<<30:
		return trim(float64(n)/(1<<30)) + " GiB"
	case n >= 1<<20:
		return trim(float64(n)/(1<<20)) + " MiB"
	case n >= 1<<10:
		return trim(float64(n)/(1<<10)) + " KiB"
	}
	return fmt.Sprintf("%d bytes", n)
}

func trim(f float64) string {
	s := fmt.Sprintf("%.1f", f)
	return strings.TrimSuffix(s, ".0")
}
