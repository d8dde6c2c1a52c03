package ui

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMain fails the suite if it left, removed or renamed any file under
// the package's directory: tests never write into the source tree (an
// export named relative to the working directory once did, twice; the
// harness now exports into the test's temporary directory).
func TestMain(m *testing.M) {
	before, err := treeFiles(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if stray := exports(before); len(stray) > 0 {
		// A file already there passes the before/after comparison: an
		// export a run wrote and a commit kept is caught here instead.
		fmt.Fprintf(os.Stderr, "FAIL: explorer exports in the source tree under internal/ui (a test wrote them; remove them): %s\n", strings.Join(stray, ", "))
		os.Exit(1)
	}
	code := m.Run()
	after, err := treeFiles(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if changed := treeChanges(before, after, updating()); len(changed) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the tests changed the source tree under internal/ui (write to t.TempDir()): %s\n", strings.Join(changed, ", "))
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// updating is whether -update regenerates the goldens: new goldens are
// then expected.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// treeFiles lists the files under root.
func treeFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, filepath.ToSlash(path))
		}
		return nil
	})
	return files, err
}

// treeChanges names the files added (+) or gone (-) between two listings;
// new goldens under testdata are not changes while updating.
func treeChanges(before, after []string, updating bool) []string {
	var changed []string
	for _, f := range after {
		if !slices.Contains(before, f) && !(updating && strings.Contains(f, "testdata/")) {
			changed = append(changed, "+"+f)
		}
	}
	for _, f := range before {
		if !slices.Contains(after, f) {
			changed = append(changed, "-"+f)
		}
	}
	return changed
}

// exports are the files an explorer export writes (.jsonl, .json, .csv)
// outside testdata.
func exports(files []string) []string {
	var out []string
	for _, f := range files {
		if strings.HasPrefix(f, "testdata/") {
			continue
		}
		switch filepath.Ext(f) {
		case ".jsonl", ".json", ".csv":
			out = append(out, f)
		}
	}
	return out
}
