package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBudgetsAndKeyTypesUpFront: NaN, Inf and negative budgets are usage
// errors (NaN switched the budget off); a prefix on a number sort key is
// refused before any Query, naming the key; an oversized --pk is refused
// naming DynamoDB's limit, not sent.
func TestBudgetsAndKeyTypesUpFront(t *testing.T) {
	long := strings.Repeat("x", 2049)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"items", "--demo", "--table", "Locations", "--pk", "USA", "--max-rcu", "NaN"}, 2, "--max-rcu NaN is not a budget"},
		{[]string{"range", "--demo", "--table", "DeviceLogs", "--pk", "123", "--last", "1h", "--max-rcu", "+Inf"}, 2, "--max-rcu +Inf is not a budget"},
		{[]string{"children", "--demo", "--table", "Locations", "--pk", "USA", "--count-budget", "nan"}, 2, "--count-budget NaN is not a budget"},
		{[]string{"children", "--demo", "--table", "Locations", "--pk", "USA", "--count-budget", "-1"}, 2, "--count-budget -1 is not a budget"},
		{[]string{"--demo", "--count-budget", "inf"}, 2, "--count-budget +Inf is not a budget"},
		{[]string{"--demo", "--max-rcu", "-Inf"}, 2, "--max-rcu -Inf is not a budget"},
		// 0 once meant "no limit": it is refused, saying what to type.
		{[]string{"items", "--demo", "--table", "Locations", "--pk", "USA", "--max-rcu", "0"}, 2, "--max-rcu 0 is not a budget: it would pay for no read — give a positive number of RCU, such as 100, or --max-rcu none for no limit"},
		{[]string{"range", "--demo", "--table", "DeviceLogs", "--pk", "123", "--last", "1h", "--max-rcu", "0"}, 2, "or --max-rcu none for no limit"},
		{[]string{"--demo", "--max-rcu", "0"}, 2, "--max-rcu 0 is not a budget"},
		{[]string{"--demo", "--count-budget", "0"}, 2, "--count-budget 0 is not a budget: it would pay for no read — give a positive number of RCU, such as 100"},
		{[]string{"children", "--demo", "--table", "Locations", "--pk", "USA", "--count", "--count-budget", "0"}, 2, "--count-budget 0 is not a budget"},
		{[]string{"children", "--demo", "--table", "Locations", "--pk", "USA", "--count-budget", "none"}, 2, `--count-budget "none" is not a number of RCU`},
		{[]string{"items", "--demo", "--table", "Locations", "--pk", "USA", "--max-rcu", "lots"}, 2, `--max-rcu "lots" is not a number of RCU`},
		// diff splits its budget between the sides: under 1 RCU neither
		// side can read (it read nothing and said it stopped, exit 3).
		{[]string{"diff", "--demo", "--table", "Locations", "--pk", "USA", "--against-table", "Geography", "--max-rcu", "0.5"}, 2, "--max-rcu 0.5 reads nothing — the smallest useful budget for diff is 1 RCU"},
		{[]string{"versions", "--demo", "--table", "Equipment", "--pk", "Equipment_1", "--max-rcu", "0"}, 2, "--max-rcu 0 is not a budget"},
		{[]string{"range", "--demo", "--table", "DeviceLogs", "--pk", "123", "--last", "1h", "--sk-prefix", "evt"}, 2, `--sk-prefix "evt": Timestamp is a number key`},
		{[]string{"range", "--demo", "--table", "DeviceLogs", "--pk", "123", "--last", "1h", "--time-format", "2006-01-02"}, 2, `--time-format "2006-01-02" does not fit Timestamp: 2006-01-02 is text, and this key holds numbers`},
		{[]string{"range", "--demo", "--table", "DeviceLogs", "--pk", "123", "--before", "0000-01-01"}, 2, "times run from 0001-01-01 to 9999-12-31"},
		// A shard pattern names several partitions: items and range read
		// one, so they refuse it rather than read it as a literal key that
		// holds nothing (0 items, exit 0).
		{[]string{"items", "--demo", "--table", "ChatMessages", "--pk", "seattle-{1..3}"}, 2, "--pk seattle-{1..3} names 3 partitions (seattle-1 … seattle-3); this command reads one — read one shard at a time (--pk seattle-1), or all of them merged with dynascope children --demo --table ChatMessages --pk 'seattle-{1..3}'"},
		{[]string{"range", "--demo", "--table", "ChatMessages", "--pk", "seattle-{1..3}", "--last", "1h"}, 2, "--pk seattle-{1..3} names 3 partitions"},
		// A command offered to run carries the connection's flags: without
		// them it lists another account's tables, or none.
		{[]string{"items", "--endpoint-url", "http://u:secret@127.0.0.1:9", "--region", "eu-west-1", "--pk", "USA"}, 2, "add --table NAME (dynascope tables --region eu-west-1 --endpoint-url 'http://***@127.0.0.1:9' lists them)"},
		{[]string{"range", "--data", "x.json", "--keys", "PK:S,SK:S", "--pk", "USA", "--last", "1h"}, 2, "add --table NAME (dynascope tables --data x.json --keys PK:S,SK:S lists them)"},
		{[]string{"items", "--demo", "--table", "ChatMessages", "--pk", "seattle-{1..3"}, 2, "is never closed"},
		{[]string{"versions", "--demo", "--table", "ChatMessages", "--pk", "seattle-{1,2}"}, 2, "--pk seattle-{1,2} names 2 partitions"},
		{[]string{"items", "--demo", "--table", "Locations", "--pk", `\{USA\}`}, 0, ""},
		{[]string{"items", "--demo", "--table", "Locations", "--pk", long}, 1, "the partition key value is 2049 bytes, over DynamoDB's limit of 2048"},
	} {
		_, errs, code := cli(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, %q; want %d %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

// TestNoBudgetSaidInWords: "none" is how a read without a budget is asked
// for (0 is refused): the headless read goes to the end, exit 0.
func TestNoBudgetSaidInWords(t *testing.T) {
	out, errs, code := cli(t, "items", "--demo", "--table", "Locations", "--pk", "USA", "--filter", `State = "none"`, "--max-rcu", "none")
	if code != 0 || out != "" || !strings.Contains(errs, "scanned=5039 matched=0") {
		t.Fatalf("--max-rcu none: exit %d, %d bytes out, %s", code, len(out), errs)
	}
}

// TestBudgetSettingsAsFlags: a budget from the configuration file meets the
// bounds a flag meets, up front, exit 2. count_budget = 0.1 used to pass
// the file's check and reach --count, which refused it as "over
// --count-budget 0" (a flag not given, a figure not written), exit 1;
// 1e12 counted as if no budget were set.
func TestBudgetSettingsAsFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ setting, want string }{
		{"count_budget = 0.1", "tables.Locations.count_budget 0.1 pays for no read"},
		{"count_budget = 1e12", "tables.Locations.count_budget 1e+12 is more RCU than any read needs"},
	} {
		path := filepath.Join(dir, "c.toml")
		if err := os.WriteFile(path, []byte("[tables.Locations]\n"+tc.setting+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, errs, code := cli(t, "children", "--demo", "--config", path, "--table", "Locations", "--pk", "USA", "--count")
		if code != 2 || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%s: exit %d, %q; want 2 and one line saying %q", tc.setting, code, errs, tc.want)
		}
	}
}
