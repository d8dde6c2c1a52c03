package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestItemsBudgetHolds: a budgeted read spends no more than its budget
// (plus the rounding of one read unit), exits 3 saying so, and the token
// it gives resumes the read where it stopped: the two runs print every
// item once. A budget smaller than one read says the smallest useful one;
// an absurd one is refused.
func TestItemsBudgetHolds(t *testing.T) {
	cost := regexp.MustCompile(`consumedRCU=([0-9.]+)`)
	resume := regexp.MustCompile(`resume with --resume (\S+)`)
	for _, filter := range []string{"", `City = "nowhere"`} {
		args := []string{"items", "--demo", "--table", "Locations", "--pk", "USA", "--max-rcu", "2"}
		if filter != "" {
			args = append(args, "--filter", filter)
		}
		first, stderr, code := cli(t, args...)
		m := cost.FindStringSubmatch(stderr)
		if code != 3 || m == nil || !strings.Contains(stderr, "stopped at the budget: ") {
			t.Fatalf("%q: exit %d, %s", filter, code, stderr)
		}
		// The RCU of the reads alone: the DescribeTable costs none.
		if rcu, _ := strconv.ParseFloat(m[1], 64); rcu > 2.5 {
			t.Fatalf("%q: spent %.1f RCU of a budget of 2", filter, rcu)
		}
		token := resume.FindStringSubmatch(stderr)
		if token == nil {
			t.Fatalf("%q: no resume token in %s", filter, stderr)
		}
		if filter != "" {
			continue
		}
		rest, stderr := mustRun(t, "items", "--demo", "--table", "Locations", "--pk", "USA", "--resume", token[1])
		all, _ := mustRun(t, "items", "--demo", "--table", "Locations", "--pk", "USA")
		if first+rest != all {
			t.Fatalf("the resumed read does not go on where the first stopped: %d + %d lines, all %d; %s",
				strings.Count(first, "\n"), strings.Count(rest, "\n"), strings.Count(all, "\n"), stderr)
		}
	}
	for _, tc := range []struct{ budget, want string }{
		{"0.2", "the smallest useful budget is 0.5 RCU"},
		{"1e12", "more RCU than any read needs"},
	} {
		_, stderr, code := cli(t, "items", "--demo", "--table", "Locations", "--pk", "USA", "--max-rcu", tc.budget)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("--max-rcu %s: exit %d, %s", tc.budget, code, stderr)
		}
	}
	_, stderr, code := cli(t, "items", "--demo", "--table", "Locations", "--pk", "USA", "--resume", "not-a-token")
	if code != 2 || !strings.Contains(stderr, "--resume") {
		t.Errorf("bad token: exit %d, %s", code, stderr)
	}
}

// TestChildrenListsTheItemAtThePrefix: inside PROFILE#, the item keyed
// PROFILE# itself is a row (isItem, self) before PROFILE#email and
// PROFILE#phone.
func TestChildrenListsTheItemAtThePrefix(t *testing.T) {
	out, _ := mustRun(t, "children", "--demo", "--table", "Workbench", "--pk", "USER#ada", "--prefix", "PROFILE#", "--output", "jsonl")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"prefix":"PROFILE#"`) || !strings.Contains(lines[0], `"isItem":true`) ||
		!strings.Contains(lines[0], `"self":true`) || !strings.Contains(lines[1], `"name":"email"`) {
		t.Fatalf("children of PROFILE#:\n%s", out)
	}
}
