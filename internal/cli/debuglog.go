package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"syscall"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// debugLogHeader opens every debug log dynascope creates: an existing file
// that does not start with it is someone else's, and is left alone.
const debugLogHeader = "# dynascope debug log: one line per request and retry, never credentials\n"

// openDebugLog starts the opt-in debug log at path for the session: a new
// file is created 0600; an existing one is appended to only if it is
// dynascope's own earlier log. A symbolic link is refused (it could point
// anywhere), and no file's mode is ever changed.
func openDebugLog(path string, s *dynamo.Session) (io.Closer, error) {
	refuse := func(why string) error {
		return usage("name a new file, or a debug log dynascope wrote before", "--debug-log %s %s", path, why)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	switch {
	case err == nil:
		if _, err := f.WriteString(debugLogHeader); err != nil {
			f.Close()
			return nil, fmt.Errorf("debug log: %w", err)
		}
	case errors.Is(err, fs.ErrExist):
		if st, lerr := os.Lstat(path); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			return nil, refuse("is a symbolic link")
		} else if lerr == nil && st.IsDir() {
			return nil, refuse("is a directory")
		}
		f, err = os.OpenFile(path, os.O_RDWR|os.O_APPEND|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err != nil {
			return nil, fmt.Errorf("debug log: %w", err)
		}
		st, err := f.Stat()
		head := make([]byte, len(debugLogHeader))
		if err == nil && st.Mode().IsRegular() {
			_, err = f.ReadAt(head, 0)
		}
		if err != nil || !st.Mode().IsRegular() || string(head) != debugLogHeader {
			f.Close()
			return nil, refuse("exists and is not a dynascope debug log")
		}
	case errors.Is(err, fs.ErrNotExist):
		return nil, usage("create the folder, or name a file in one that exists", "--debug-log %s: the folder %s does not exist", path, filepath.Dir(path))
	default:
		return nil, fmt.Errorf("debug log: %w", err)
	}
	log.SetOutput(f)
	log.SetPrefix("dynascope ")
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	if s != nil {
		s.Log = log.Printf
	}
	return closeLog{f}, nil
}

// closeLog puts the standard logger back on stderr's place (nowhere) when
// the log closes, so nothing is written to a closed file.
type closeLog struct{ f *os.File }

func (c closeLog) Close() error {
	log.SetOutput(io.Discard)
	return c.f.Close()
}
