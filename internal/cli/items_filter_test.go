package cli

import (
	"strconv"
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

// TestRangeFilter: a time range takes a filter too; detection reads the
// keys unfiltered, and the items printed all match and fall in the range.
func TestRangeFilter(t *testing.T) {
	out, stderr := mustRun(t, "range", "--demo", "--table", "DeviceLogs", "--pk", "9000", "--last", "7d", "--filter", `Level = "ERROR" and Temperature > 33`)
	n := strings.Count(out, "\n")
	if n == 0 || strings.Count(out, `"Level":"ERROR"`) != n || !strings.Contains(stderr, "matched="+strconv.Itoa(n)) ||
		!strings.Contains(stderr, `filter Level = "ERROR" and Temperature > 33`) || !strings.Contains(stderr, "Timestamp BETWEEN :lo AND :hi") {
		t.Fatalf("%d lines; %s", n, stderr)
	}
	all, _ := mustRun(t, "range", "--demo", "--table", "DeviceLogs", "--pk", "9000", "--last", "7d")
	if strings.Count(all, "\n") <= n {
		t.Fatalf("the filter kept everything: %d of %d", n, strings.Count(all, "\n"))
	}
}
