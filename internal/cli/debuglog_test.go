package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDebugLogFiles: --debug-log works for headless commands; it creates
// a new file 0600 and appends to its own earlier log, but refuses a
// symbolic link and any other existing file, whose content and mode stay
// as they were.
func TestDebugLogFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "debug.log")
	args := []string{"items", "--demo", "--table", "Locations", "--pk", "USA", "--limit", "2", "--debug-log", path}
	mustRun(t, args...)
	mustRun(t, args...)
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", st.Mode().Perm(), err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), debugLogHeader) || strings.Count(string(data), "Query Locations") != 2 || strings.Count(string(data), debugLogHeader) != 1 {
		t.Fatalf("the log of two runs:\n%s", data)
	}

	other := filepath.Join(dir, "notes.txt")
	empty := filepath.Join(dir, "empty.log")
	link := filepath.Join(dir, "link.log")
	for _, f := range []struct {
		path, text string
	}{{other, "my notes\n"}, {empty, ""}} {
		if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{
		other: "exists and is not a dynascope debug log",
		empty: "exists and is not a dynascope debug log",
		link:  "is a symbolic link",
		dir:   "is a directory",
	} {
		a := append(append([]string{}, args[:len(args)-1]...), p)
		_, errs, code := cli(t, a...)
		if code != exitUsage || !strings.Contains(errs, want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, %q; want %q", filepath.Base(p), code, errs, want)
		}
	}
	for p, text := range map[string]string{other: "my notes\n", empty: ""} {
		st, _ := os.Stat(p)
		data, _ := os.ReadFile(p)
		if st.Mode().Perm() != 0o644 || string(data) != text {
			t.Errorf("%s changed: mode %v, %q", filepath.Base(p), st.Mode().Perm(), data)
		}
	}
}
