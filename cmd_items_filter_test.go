package main

import (
	"strings"
	"testing"
)

// TestItemsFilter: --filter keeps the matches and reports scanned vs
// matched; --max-rcu stops the read and says more may match; a syntax
// error names its column.
func TestItemsFilter(t *testing.T) {
	out, stderr := mustRun(t, "items", "--demo", "--table", "DeviceLogs", "--pk", "9000", "--filter", `Level = "ERROR" and Temperature > 34.5`)
	n := strings.Count(out, "\n")
	if n == 0 || !strings.Contains(stderr, "scanned=50000 matched=") || strings.Count(out, `"Level":"ERROR"`) != n {
		t.Fatalf("%d lines; %s", n, stderr)
	}
	_, stderr = mustRun(t, "items", "--demo", "--table", "DeviceLogs", "--pk", "9000", "--filter", `Level = "ERROR"`, "--max-rcu", "100")
	if !strings.Contains(stderr, "stopped at --max-rcu 100: more may match") {
		t.Fatalf("budget: %s", stderr)
	}
	out, _ = mustRun(t, "items", "--demo", "--table", "DeviceLogs", "--pk", "9000", "--filter", `Level = "ERROR"`, "--limit", "5")
	if strings.Count(out, "\n") != 5 {
		t.Fatalf("--limit counts matches: %q", out)
	}
	_, stderr, code := cli(t, "items", "--demo", "--table", "DeviceLogs", "--pk", "9000", "--filter", `Level = ERROR"`)
	if code != 2 || !strings.Contains(stderr, "--filter column 14: unterminated string") {
		t.Fatalf("syntax error: %d %s", code, stderr)
	}
}
