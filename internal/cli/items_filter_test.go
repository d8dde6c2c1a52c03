package cli

import (
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
	_, stderr, code := cli(t, "items", "--demo", "--table", "DeviceLogs", "--pk", "9000", "--filter", `Level = "ERROR"`, "--max-rcu", "100")
	if code != 3 || !strings.Contains(stderr, "stopped at --max-rcu 100: more may match") || !strings.Contains(stderr, "stopped at the budget: ") {
		t.Fatalf("budget: %d %s", code, stderr)
	}
	out, _ = mustRun(t, "items", "--demo", "--table", "DeviceLogs", "--pk", "9000", "--filter", `Level = "ERROR"`, "--limit", "5")
	if strings.Count(out, "\n") != 5 {
		t.Fatalf("--limit counts matches: %q", out)
	}
	_, stderr, code = cli(t, "items", "--demo", "--table", "DeviceLogs", "--pk", "9000", "--filter", `Level = ERROR"`)
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

// TestItemsFilterOnTheKeyIsRefusedFirst: a --filter naming the key of what
// is read (the table's, or the index's with --index) is refused before
// any Query, exit 2, saying to put it in scan --filter, whose Query takes
// it as its key condition; items and range sent it, and the server's
// refusal came back as exit 1, "check the key values and names". An
// attribute outside the key filters as before. On dynalite and the
// embedded backend.
func TestItemsFilterOnTheKeyIsRefusedFirst(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	table, backends := bothBackends(t, []map[string]types.AttributeValue{
		av("PK", "p", "SK", "2026-03-05T10:00:00Z", "Body", "a"),
		av("PK", "p", "SK", "2026-03-05T11:00:00Z", "Body", "b"),
	})
	for name, conn := range backends {
		for _, tc := range []struct{ cmd, filter, want string }{
			{"items", `SK > "2026"`, "--filter names SK, the sort key of " + table},
			{"items", `PK = "p" and Body = "a"`, "--filter names PK, the partition key of " + table},
			{"items", `size(SK) > 3`, "--filter names SK, the sort key"},
			{"range", `begins_with(SK, "2026")`, "--filter names SK, the sort key"},
		} {
			args := append([]string{tc.cmd, "--table", table, "--pk", "p", "--filter", tc.filter}, conn...)
			if tc.cmd == "range" {
				args = append(args, "--at", "2026-03-05")
			}
			out, stderr, code := cli(t, args...)
			if code != exitUsage || out != "" || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "scan --filter 'PK = … and …'") || strings.Contains(stderr, "Query "+table) {
				t.Errorf("%s %s %s: exit %d, stdout %q: %s", name, tc.cmd, tc.filter, code, out, stderr)
			}
		}
		out, stderr := mustRun(t, append([]string{"items", "--table", table, "--pk", "p", "--filter", `Body = "b"`}, conn...)...)
		if strings.Count(out, "\n") != 1 || !strings.Contains(out, `"Body":"b"`) {
			t.Errorf("%s: a filter outside the key: %q %s", name, out, stderr)
		}
	}
}

// TestItemsSaysThereIsNoSuchPartition: a partition key no item has (usa
// for USA, or a key ElectroDB wrote in lower case) printed no items and
// exit 0 with nothing to say the partition is not there. On dynalite and
// the embedded backend.
func TestItemsSaysThereIsNoSuchPartition(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	a, b := av("PK", "USA", "SK", "a"), av("PK", "USA", "SK", "b")
	a["City"], b["City"] = &types.AttributeValueMemberS{Value: "X"}, &types.AttributeValueMemberS{Value: "Y"}
	table, backends := bothBackends(t, []map[string]types.AttributeValue{a, b})
	const none = "no item has this partition key: there is no such partition"
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				args []string
				says bool
			}{
				{[]string{"--pk", "usa"}, true},
				{[]string{"--pk", "usa", "--filter", `City = "X"`}, true},
				{[]string{"--pk", "USA"}, false},
				{[]string{"--pk", "USA", "--filter", `City = "Z"`}, false}, // the partition is there; the filter kept none
			} {
				out, stderr := mustRun(t, append(append([]string{"items", "--table", table}, tc.args...), conn...)...)
				if got := strings.Contains(stderr, none); got != tc.says || tc.says && out != "" {
					t.Errorf("%v: says %v, want %v; out %q\n%s", tc.args, got, tc.says, out, stderr)
				}
			}
		})
	}
}

// TestItemsFilterOverTheLimitsIsRefusedFirst: an items --filter over
// DynamoDB's 4 KiB or 300 operators an expression is refused with one
// line and exit 2 before any request (it was sent past DescribeTable,
// exit 1, "the server refused the read"), as scan --filter's is.
func TestItemsFilterOverTheLimitsIsRefusedFirst(t *testing.T) {
	isolateAWS(t)
	conn, requests := refusingServer(t)
	for _, tc := range []struct{ filter, want string }{
		{orOf("Body", 400), "--filter: the filter expression is 6682 bytes, over DynamoDB's 4 KiB expression limit — make the filter shorter"},
		{orOf("Body", 151), "--filter: the filter expression holds 301 operators and functions, over DynamoDB's limit of 300 — write the filter with fewer conditions"},
	} {
		checkBadInput(t, append([]string{"items", "--table", "Logs", "--pk", "p", "--filter", tc.filter}, conn...), exitUsage, tc.want)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
}
