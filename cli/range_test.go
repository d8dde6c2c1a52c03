package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func rangeLines(t *testing.T, args ...string) ([]map[string]any, string) {
	t.Helper()
	out, stderr := mustRun(t, append([]string{"range", "--demo"}, args...)...)
	var items []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var it map[string]any
		if err := json.Unmarshal([]byte(l), &it); err != nil {
			t.Fatalf("%v: %q", err, l)
		}
		items = append(items, it)
	}
	return items, stderr
}

// TestRangeSeedExample: the seed's query as written returns the device's
// first two records, newest first, from one Query after the detection.
func TestRangeSeedExample(t *testing.T) {
	items, stderr := rangeLines(t, "--table", "DeviceLogs", "--pk", "123", "--before", "1536019200", "--output", "jsonl")
	if len(items) != 2 || items[0]["Timestamp"] != float64(1535544000) || items[1]["Timestamp"] != float64(1310216400) {
		t.Fatalf("items %v", items)
	}
	for _, want := range []string{"Timestamp < :sk", ":sk=1536019200", "epoch seconds", "requests=3", "consumedRCU="} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, stderr)
		}
	}
	items, _ = rangeLines(t, "--table", "DeviceLogs", "--pk", "123", "--before", "1536019200", "--oldest-first")
	if len(items) != 2 || items[0]["Timestamp"] != float64(1310216400) {
		t.Fatalf("oldest first: %v", items)
	}
}

func TestRangeEncodings(t *testing.T) {
	for _, tc := range []struct {
		args []string
		n    int
		cond string
	}{
		{[]string{"--table", "ChatMessages", "--pk", "portland", "--sk-prefix", "amsg", "--at", "2018-08"}, 1, `begins_with(MessageID, :prefix)`},
		{[]string{"--table", "AuditLog", "--pk", "prod-api", "--at", "2026-10-31", "--limit", "5"}, 5, `:prefix="2026-10-31T"`},
		{[]string{"--table", "Metrics", "--pk", "cpu.web-1", "--last", "24h", "--limit", "50"}, 50, "TS >= :sk"},
		{[]string{"--table", "DeviceLogs", "--pk", "9000", "--from", "2026-10-01", "--to", "2026-10-01T00:10Z"}, -1, "BETWEEN :lo AND :hi   :pk=9000 :lo=1790812800 :hi=1790813459"},
		{[]string{"--table", "ChatMessages", "--index", "ByTime", "--pk", "seattle-1", "--after", "2018-08-01", "--limit", "3"}, 3, "TimeUser >= :sk"},
	} {
		items, stderr := rangeLines(t, tc.args...)
		if (tc.n >= 0 && len(items) != tc.n) || !strings.Contains(stderr, tc.cond) {
			t.Errorf("%v: %d items, %s", tc.args, len(items), stderr)
		}
	}
}

func TestRangeBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--table", "DeviceLogs", "--pk", "123"}, 2, "no time range"},
		{[]string{"--table", "DeviceLogs", "--pk", "123", "--last", "15x"}, 2, "not a span"},
		{[]string{"--table", "DeviceLogs", "--pk", "123", "--last", "1h", "--at", "2018"}, 2, "more than one"},
		{[]string{"--table", "DeviceLogs", "--pk", "123", "--from", "2018-01-01"}, 2, "--to"},
		{[]string{"--table", "DeviceLogs", "--pk", "123", "--at", "2018-02-30"}, 2, "not a time"},
		{[]string{"--table", "ChatMessages", "--pk", "portland", "--at", "2018-08"}, 2, "--sk-prefix"},
		{[]string{"--table", "Locations", "--pk", "USA", "--last", "1h"}, 1, "no time"},
		{[]string{"--table", "DeviceLogs", "--pk", "123", "--at", "2018-09-04T00:00:00.5Z"}, 2, "whole seconds"},
	} {
		_, stderr, code := cli(t, append([]string{"range", "--demo"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: code %d, stderr %q", tc.args, code, stderr)
		}
	}
}
