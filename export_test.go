package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/dynascope/dynascope/model"
)

// TestExportFormats pins each export format (golden files), to stdout and
// to a file, for nested maps and lists (Equipment) and sets (Documents).
func TestExportFormats(t *testing.T) {
	for _, tc := range []struct{ name, table, pk, format string }{
		{"equipment_csv", "Equipment", "Equipment_1", "csv"},
		{"equipment_jsonl", "Equipment", "Equipment_1", "jsonl"},
		{"equipment_json", "Equipment", "Equipment_1", "json"},
		{"documents_csv", "Documents", "doc-0001", "csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := mustRun(t, "items", "--demo", "--table", tc.table, "--pk", tc.pk, "--output", tc.format)
			golden.RequireEqual(t, []byte(out))
			path := filepath.Join(t.TempDir(), "export."+tc.format)
			_, stderr := mustRun(t, "items", "--demo", "--table", tc.table, "--pk", tc.pk, "--output", path)
			data, err := os.ReadFile(path)
			if err != nil || string(data) != out {
				t.Fatalf("the file differs from stdout (%v)", err)
			}
			if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 || !strings.Contains(stderr, "wrote ") {
				t.Fatalf("file mode %v, stderr %q", st.Mode().Perm(), stderr)
			}
			// Never overwrites.
			if _, stderr, code := cli(t, "items", "--demo", "--table", tc.table, "--pk", tc.pk, "--output", path); code != 2 || !strings.Contains(stderr, "never overwrites") {
				t.Fatalf("overwrite: %d %s", code, stderr)
			}
		})
	}
	out, _ := mustRun(t, "range", "--demo", "--table", "DeviceLogs", "--pk", "123", "--before", "1536019200", "--output", "csv")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], "DeviceID,Timestamp,") {
		t.Fatalf("range csv:\n%s", out)
	}
}

// TestExplorerExportFunc: the explorer's export writes the file the name
// asks for, reporting each page, and refuses a name with no format.
func TestExplorerExportFunc(t *testing.T) {
	db, err := loadDemo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	export := exportFunc(db)
	q := model.KeyQuery{Table: "DeviceLogs", PKName: "DeviceID", PK: model.N("9000"), SKName: "Timestamp"}
	path := filepath.Join(t.TempDir(), "logs.csv")
	calls := 0
	n, err := export(context.Background(), q, path, func(items, pages int, rcu float64) { calls++ })
	data, _ := os.ReadFile(path)
	if err != nil || n != 50000 || calls < 2 || strings.Count(string(data), "\n") != 50001 {
		t.Fatalf("%d items, %d progress calls, %d lines, %v", n, calls, strings.Count(string(data), "\n"), err)
	}
	if _, err := export(context.Background(), q, filepath.Join(t.TempDir(), "logs.txt"), nil); err == nil || !strings.Contains(err.Error(), ".jsonl, .json or .csv") {
		t.Fatalf("a name with no format: %v", err)
	}
}
