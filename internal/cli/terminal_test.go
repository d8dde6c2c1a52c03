package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExplorerNeedsATerminal: with stdout redirected to a file, or stdin
// not a terminal, the explorer is refused with one line that says what to
// use instead, exit 2, and the file stays empty (it used to receive the
// explorer's escape codes, and a missing terminal a library's raw error).
func TestExplorerNeedsATerminal(t *testing.T) {
	isolateAWS(t)
	file, err := os.Create(filepath.Join(t.TempDir(), "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	saved := checkTerminal
	defer func() { checkTerminal = saved }()
	for _, c := range []struct {
		name    string
		in, out *os.File
		want    string
	}{
		// Tests have no terminal to give stdin, so each case names stdin,
		// which is checked first.
		{"stdin a pipe, stdout a file", r, file, "the explorer needs a terminal, and stdin is not one"},
		{"both files", file, file, "the explorer needs a terminal, and stdin is not one"},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkTerminal = func() error { return needTerminal(c.in, c.out) }
			out, errs, code := cli(t, "--demo")
			if code != exitUsage || !strings.Contains(errs, c.want) || !strings.Contains(errs, "dynascope items") || strings.Count(errs, "\n") != 1 || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
			}
		})
	}
	if st, _ := file.Stat(); st.Size() != 0 {
		t.Errorf("the file got %d bytes", st.Size())
	}
	// A malformed command line is said first, whatever the terminal.
	checkTerminal = func() error { return needTerminal(r, file) }
	if _, errs, code := cli(t, "--demo", "--endpoint-url", "http://localhost:8000"); code != exitUsage || !strings.Contains(errs, "--demo runs on the embedded demo database") {
		t.Errorf("a bad flag without a terminal: exit %d, %q", code, errs)
	}
	// Headless commands need no terminal.
	checkTerminal = func() error { return needTerminal(r, file) }
	if _, errs, code := cli(t, "tables", "--demo"); code != exitOK {
		t.Errorf("tables: exit %d: %s", code, errs)
	}
}
