package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestVersionsStatsBilled: a partition with no versions is one empty read,
// reported at 0 RCU by the embedded backend and billed 0.5 by DynamoDB:
// versions' stats and summary say the bill, as children's do.
func TestVersionsStatsBilled(t *testing.T) {
	out, stderr := mustRun(t, "versions", "--demo", "--table", "Equipment", "--pk", "nothing-here")
	var d struct {
		Stats struct {
			Billed    float64 `json:"billedRCU"`
			Estimated bool    `json:"billedEstimated"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if d.Stats.Billed != 0.5 || !d.Stats.Estimated || !strings.Contains(stderr, "billedRCU=0.5") {
		t.Fatalf("stats %+v, summary %q: want the empty read billed 0.5, an estimate", d.Stats, stderr)
	}
}

// TestRangeSummaryBilled: a range before the partition's first item reads
// nothing (reported 0 RCU, billed 0.5): the summary line says the bill as
// items' and children's do, for one Query and for prefixes merged by time.
func TestRangeSummaryBilled(t *testing.T) {
	for _, args := range [][]string{
		{"--table", "DeviceLogs", "--pk", "123", "--before", "1000000000", "--output", "jsonl"},
		{"--table", "StateLog", "--pk", "d#12345", "--at", "1990-04-24", "--limit", "20"},
	} {
		_, stderr := mustRun(t, append([]string{"range", "--demo"}, args...)...)
		if !strings.Contains(stderr, "billedRCU=") || !strings.Contains(stderr, "(estimate: DynamoDB bills at least 0.5 a read)") {
			t.Errorf("%v: the summary does not say the bill:\n%s", args, stderr)
		}
	}
}
