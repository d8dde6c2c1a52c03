package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo/dataload"
	"github.com/dynascope/dynascope/internal/ui"
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

// TestDebugLogWithData: --debug-log logs the reads of --data as it does a
// server's, for a headless command and for the explorer, whose load runs
// in the background. It used to write nothing, not even the file.
func TestDebugLogWithData(t *testing.T) {
	isolateAWS(t)
	model := filepath.Join("..", "dynamo", "dataload", "testdata", "shop.workbench.json")
	headless := filepath.Join(t.TempDir(), "debug.log")
	mustRun(t, "items", "--data", model, "--table", "Shop", "--pk", "CUSTOMER#ada", "--debug-log", headless)
	if data, err := os.ReadFile(headless); err != nil || !strings.HasPrefix(string(data), debugLogHeader) || !strings.Contains(string(data), "Query Shop") {
		t.Errorf("headless --data: %v\n%s", err, data)
	}
	explorer := filepath.Join(t.TempDir(), "debug.log")
	saved := runExplorer
	defer func() { runExplorer = saved }()
	runExplorer = func(ctx context.Context, cfg ui.Config) error {
		cfg.Load.(*dataload.Loading).Wait()
		conn, err := cfg.Connect(ctx) // the explorer's first read: DescribeTable Shop
		if err == nil && conn.Client == nil {
			err = errors.New("no client")
		}
		return err
	}
	var out, errb strings.Builder
	if code := Run(context.Background(), []string{"--data", model, "--table", "Shop", "--debug-log", explorer}, &out, &errb); code != exitOK {
		t.Fatalf("explorer: exit %d: %s", code, errb.String())
	}
	if data, err := os.ReadFile(explorer); err != nil || !strings.Contains(string(data), "Shop") {
		t.Errorf("explorer --data: %v\n%s", err, data)
	}
}

// TestDebugLogMissingFolder: a log in a folder that does not exist says
// so, rather than the system's "no such file or directory".
func TestDebugLogMissingFolder(t *testing.T) {
	isolateAWS(t)
	path := filepath.Join(t.TempDir(), "nope", "debug.log")
	_, errs, code := cli(t, "tables", "--demo", "--debug-log", path)
	if code != exitUsage || !strings.Contains(errs, "the folder "+filepath.Dir(path)+" does not exist") {
		t.Errorf("exit %d, %q", code, errs)
	}
}
