package cli

import (
	"strings"
	"testing"
)

// TestVersionsLongNumbers: a revision numbered by a Unix time beside v0_
// and v1_ is the newest, with no gaps to report; a key that begins like
// a revision but is not one is named with why.
func TestVersionsLongNumbers(t *testing.T) {
	out, stderr := mustRun(t, "versions", "--demo", "--table", "Workbench", "--pk", "RELEASES", "-o", "csv")
	if !strings.Contains(out, "Rel,v1_,v0_Rel,1700000000,3,[]") || !strings.Contains(stderr, `1 key looks like a revision but is not read as one: "v2_" (no name after the number: read as v{n}_, not v{n}_{name}; --version-pattern 'v{n}_' reads it)`) {
		t.Fatalf("%s\n%s", out, stderr)
	}
}
