package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
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
	if code != 2 || strings.Count(stderr, "\n") != 1 || strings.Count(stderr, "copy") != 1 {
		t.Errorf("bad token: exit %d, %s", code, stderr) // the hint was said twice
	}
}

// TestItemsRefusesAnotherReadsToken: a --resume token of another
// partition, or of a table keyed by other attributes, is refused before
// any Query, exit 2, saying to resume the read that stopped; sent, the
// server refused it as a malformed request (exit 1, "check the key
// values and names"). On dynalite and the embedded backend.
func TestItemsRefusesAnotherReadsToken(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	var items []map[string]types.AttributeValue
	for _, pk := range []string{"p", "q"} {
		for i := range 4 {
			items = append(items, av("PK", pk, "SK", fmt.Sprintf("k#%d", i)))
		}
	}
	table, backends := bothBackends(t, items)
	token := func(key map[string]types.AttributeValue) string { return dynamo.ResumeToken(key) }
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				what  string
				token string
			}{
				{"another partition", token(av("PK", "q", "SK", "k#1"))},
				{"another table's key", token(map[string]types.AttributeValue{"acct": &types.AttributeValueMemberS{Value: "p"}, "t": &types.AttributeValueMemberN{Value: "1"}})},
				{"a key without its sort key", token(av("PK", "p"))},
				{"a number where the key is a string", token(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberN{Value: "1"}, "SK": &types.AttributeValueMemberS{Value: "k#1"}})},
			} {
				out, stderr, code := cli(t, append([]string{"items", "--table", table, "--pk", "p", "--resume", tc.token}, conn...)...)
				if code != exitUsage || out != "" || !strings.Contains(stderr, "--resume was given by another read") || strings.Contains(stderr, "Query") {
					t.Errorf("%s: exit %d, stdout %q: %s", tc.what, code, out, stderr)
				}
			}
			out, stderr := mustRun(t, append([]string{"items", "--table", table, "--pk", "p", "--resume", token(av("PK", "p", "SK", "k#1"))}, conn...)...)
			if got := strings.Count(out, "\n"); got != 2 {
				t.Errorf("this read's token: %d items, want 2 (k#2, k#3): %s", got, stderr)
			}
		})
	}
}

// TestChildrenListsTheItemAtThePrefix: inside PROFILE#, the item keyed
// PROFILE# itself is a row (isItem, self) before PROFILE#email and
// PROFILE#phone, and stderr counts it apart from the children (at an
// item with none below it, it said "0 children" beside the row listed).
func TestChildrenListsTheItemAtThePrefix(t *testing.T) {
	out, stderr := mustRun(t, "children", "--demo", "--table", "Workbench", "--pk", "USER#ada", "--prefix", "PROFILE#", "--output", "jsonl")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"prefix":"PROFILE#"`) || !strings.Contains(lines[0], `"isItem":true`) ||
		!strings.Contains(lines[0], `"self":true`) || !strings.Contains(lines[1], `"name":"email"`) {
		t.Fatalf("children of PROFILE#:\n%s", out)
	}
	if !strings.Contains(stderr, "· 2 children and the item keyed by the prefix itself ·") {
		t.Errorf("stderr does not count the prefix's own item apart: %s", stderr)
	}
	out, stderr = mustRun(t, "children", "--demo", "--table", "Workbench", "--pk", "USER#ada", "--prefix", "PROFILE#email", "--output", "jsonl")
	if !strings.Contains(out, `"self":true`) || !strings.Contains(stderr, "· 0 children and the item keyed by the prefix itself ·") {
		t.Errorf("children at an item: stderr %q, out %s", stderr, out)
	}
}

// TestCountOfASmallLevelInABigTable: where the server reports the
// table's size (the demo's Locations, about 70 RCU read whole), a count
// under a budget below it counts a level the budget pays for, as counts
// equal to the unbudgeted ones, exit 0. It was refused before any read,
// "raise --count-budget above 70": on a production table of some GB no
// budget short of the whole table's let a level of 92 items be counted.
func TestCountOfASmallLevelInABigTable(t *testing.T) {
	args := []string{"children", "--demo", "--table", "Locations", "--pk", "USA", "--prefix", "NY#", "--count", "--output", "jsonl"}
	want, _ := mustRun(t, args...)
	out, stderr, code := cli(t, append(args, "--count-budget", "10")...)
	if code != 0 || out != want || !strings.Contains(out, `"count":`) || strings.Contains(out, "uncounted") {
		t.Fatalf("--count-budget 10: exit %d, %s\n%s\nwant\n%s", code, stderr, out, want)
	}
}

// TestChildrenCountIsOnePassUnderOneBudget: children --count reads the
// level once, listing and counting from the same reads: on the demo (the
// embedded backend) it costs what items' full read of the partition
// costs, within a read unit a stretch, and counts every item items
// prints; on dynalite, a dense level of 30 children of 40 items counted
// under --count-budget 5 spends no more than 5.5 RCU in all (walk and
// counts: one budget), marks what it did not finish, and exits 3 with one
// line saying what it spent and how to go on.
func TestChildrenCountIsOnePassUnderOneBudget(t *testing.T) {
	cost := regexp.MustCompile(`requests=(\d+) (?:pages=\d+ )?consumedRCU=([0-9.]+)`)
	figures := func(stderr string) (int, float64) {
		m := cost.FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("no cost in %s", stderr)
		}
		n, _ := strconv.Atoi(m[1])
		rcu, _ := strconv.ParseFloat(m[2], 64)
		return n, rcu
	}
	items, stderr := mustRun(t, "items", "--demo", "--table", "Geography", "--pk", "PLACE")
	fullReqs, fullRCU := figures(stderr)
	out, stderr := mustRun(t, "children", "--demo", "--table", "Geography", "--pk", "PLACE", "--count", "--output", "jsonl")
	reqs, rcu := figures(stderr)
	counted := 0
	for _, m := range regexp.MustCompile(`"count":(\d+)`).FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		counted += n
	}
	if want := strings.Count(items, "\n"); counted != want || strings.Count(out, "\n") != 20 {
		t.Errorf("counted %d items of %d in %d rows:\n%s", counted, want, strings.Count(out, "\n"), out)
	}
	if extra := reqs - fullReqs; rcu > fullRCU+0.5*float64(extra+1) || extra > 1+2*8 {
		t.Errorf("children --count: %d requests, %.1f RCU; the full read %d, %.1f", reqs, rcu, fullReqs, fullRCU)
	}

	srv := dynalitetest.Shared(t)
	isolateAWS(t)
	c := srv.Client()
	createTable(t, c, "DenseCount", "SK", types.ScalarAttributeTypeS)
	var reqsW []types.WriteRequest
	pad := strings.Repeat("x", 300)
	for ch := range 30 {
		for i := range 40 {
			reqsW = append(reqsW, put(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "p"},
				"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("K%c%c#ITEM#%03d", 'A'+ch%26, 'A'+ch/26, i)}, "Data": &types.AttributeValueMemberS{Value: pad}}))
		}
	}
	batchWrite(t, c, "DenseCount", reqsW)
	conn := []string{"--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", "DenseCount", "--pk", "p"}
	for _, budget := range []string{"0.5", "1", "5", "20"} {
		out, stderr, code := cli(t, append([]string{"children", "--count", "--count-budget", budget, "--output", "jsonl"}, conn...)...)
		_, rcu := figures(stderr)
		max, _ := strconv.ParseFloat(budget, 64)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		last := lines[len(lines)-1]
		if code != 3 || rcu > max+0.5 || !strings.HasPrefix(last, "dynascope: stopped at the budget: ") || !strings.Contains(last, "--count-budget") ||
			!strings.Contains(out, `"uncounted":true`) {
			t.Errorf("--count-budget %s: exit %d, %.1f RCU:\n%s\n%s", budget, code, rcu, out, stderr)
		}
		// As one document: still valid JSON, marked partial.
		out, _, code = cli(t, append([]string{"children", "--count", "--count-budget", budget}, conn...)...)
		var doc struct {
			CountsPartial bool              `json:"countsPartial"`
			Children      []json.RawMessage `json:"children"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 3 || !doc.CountsPartial {
			t.Errorf("--count-budget %s --output json: exit %d, partial %v, %v:\n%s", budget, code, doc.CountsPartial, err, out)
		}
	}
	out, stderr = mustRun(t, append([]string{"children", "--count", "--output", "jsonl"}, conn...)...)
	if strings.Count(out, `"count":40`) != 30 || strings.Contains(stderr, "stopped") {
		t.Errorf("the whole count:\n%s\n%s", out, stderr)
	}
}

// TestRangeBudgetCoversEveryRead: range --max-rcu counts every read of
// the command — the time sample, the walk that finds the prefixes of a
// merged range, the pages — and stops within half an RCU of it, exit 3
// with one line saying what it spent and how to go on (a merged range of
// 71.5 RCU spent all of it under --max-rcu 1, exit 0).
func TestRangeBudgetCoversEveryRead(t *testing.T) {
	spentRE := regexp.MustCompile(`stopped at the budget: ([0-9.]+) of`)
	for _, args := range [][]string{
		{"--table", "ChatMessages", "--pk", "seattle-1", "--at", "2018-08"},
		{"--table", "Workbench", "--pk", "FLIGHTS#AA", "--at", "2021-08"},
		{"--table", "ChatMessages", "--pk", "seattle-1", "--sk-prefix", "amsg#", "--at", "2018-08"},
		// A page of the partition tried first, then the walk, then the
		// prefix it stopped in: each counted, a stop in any is exit 3.
		{"--table", "StateLog", "--pk", "d#12345", "--at", "2020-04-24"},
	} {
		for _, budget := range []string{"1", "2", "3.5", "5"} {
			_, stderr, code := cli(t, append(append([]string{"range", "--demo"}, args...), "--max-rcu", budget)...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			m := spentRE.FindStringSubmatch(lines[len(lines)-1])
			max, _ := strconv.ParseFloat(budget, 64)
			if code != 3 || m == nil || !strings.Contains(lines[len(lines)-1], "--max-rcu") {
				t.Errorf("%v --max-rcu %s: exit %d:\n%s", args, budget, code, stderr)
				continue
			}
			if spent, _ := strconv.ParseFloat(m[1], 64); spent > max+0.5 {
				t.Errorf("%v --max-rcu %s: spent %.1f", args, budget, spent)
			}
		}
	}
}

// TestEntitiesBudgetHolds: entities --max-rcu bounds every read it makes,
// as billed (each read at least 0.5 RCU), within half an RCU: the parallel
// sample's eight segments had each read once before any looked at the
// budget (4 RCU billed under --max-rcu 2). A read meant to be whole that
// the budget stopped says so in one line and exits 3 (it had exited 0
// without a word). On the embedded backend (the demo) and on dynalite, a
// table and one partition.
func TestEntitiesBudgetHolds(t *testing.T) {
	billed := regexp.MustCompile(`consumedRCU=([0-9.]+)(?: billedRCU=([0-9.]+))?`)
	spent := func(stderr string) float64 {
		m := billed.FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("no cost in %s", stderr)
		}
		if m[2] != "" {
			m[1] = m[2]
		}
		rcu, _ := strconv.ParseFloat(m[1], 64)
		return rcu
	}
	srv := dynalitetest.Shared(t)
	isolateAWS(t)
	c := srv.Client()
	createTable(t, c, "EntitiesBudget", "SK", types.ScalarAttributeTypeS)
	var reqs []types.WriteRequest
	pad := strings.Repeat("e", 300)
	for i := range 600 {
		reqs = append(reqs, put(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: fmt.Sprintf("P%d", i%6)},
			"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("ORDER#%04d", i)}, "_et": &types.AttributeValueMemberS{Value: "Order"},
			"Data": &types.AttributeValueMemberS{Value: pad}}))
	}
	batchWrite(t, c, "EntitiesBudget", reqs)
	// Items larger than any read before: a read meets one whole, past
	// the budget, which the summary line says beside the stop.
	createTable(t, c, "EntitiesPast", "SK", types.ScalarAttributeTypeS)
	batchWrite(t, c, "EntitiesPast", []types.WriteRequest{
		put(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "B"}, "SK": &types.AttributeValueMemberS{Value: "A"}}),
		put(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "B"}, "SK": &types.AttributeValueMemberS{Value: "BLOB#1"}, "Data": &types.AttributeValueMemberS{Value: strings.Repeat("b", 300<<10)}}),
	})
	_, stderr, code := cli(t, "entities", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", "EntitiesPast", "--max-rcu", "2")
	// Said once, by the stop line every command's stop shares: the
	// summary line had said it again its own way ("36.5 RCU past the 2
	// RCU budget: a read met items larger …").
	if code != 3 || strings.Contains(stderr, "RCU past the 2 RCU budget") || !strings.Contains(stderr, "dynascope: stopped past the budget: 38.5 of 2 RCU (36.5 past: a read met items heavier than any read before it, and DynamoDB bills whole items), 2 items read") {
		t.Errorf("past the budget: exit %d:\n%s", code, stderr)
	}
	backends := map[string][]string{
		"embedded": {"--demo", "--table", "Locations"},
		"dynalite": {"--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", "EntitiesBudget"},
	}
	for name, conn := range backends {
		pk := map[string]string{"embedded": "USA", "dynalite": "P1"}[name]
		for _, budget := range []string{"0.5", "1", "2", "5"} {
			for _, where := range [][]string{nil, {"--pk", pk}} {
				args := append(append(append([]string{"entities"}, conn...), where...), "--max-rcu", budget)
				_, stderr, code := cli(t, args...)
				max, _ := strconv.ParseFloat(budget, 64)
				if rcu := spent(stderr); rcu > max+0.5 || !strings.Contains(stderr, "sample") {
					t.Errorf("%s: %v: exit %d, %.1f RCU billed:\n%s", name, args, code, rcu, stderr)
				}
				// A read meant to be whole (one partition; a table whose
				// size dynalite does not report) that the budget stopped
				// is partial: exit 3, its last line what it spent and how
				// to go on. A sample the table's size chose is no stop.
				lines := strings.Split(strings.TrimSpace(stderr), "\n")
				last := lines[len(lines)-1]
				stopped := where != nil || name == "dynalite"
				switch {
				case stopped && (code != 3 || !strings.HasPrefix(last, "dynascope: stopped at the budget: ") || !strings.Contains(last, "RCU") || !strings.Contains(last, "a larger --max-rcu")):
					t.Errorf("%s: %v: a stop: exit %d, last line %q", name, args, code, last)
				case !stopped && code != 0:
					t.Errorf("%s: %v: a sample: exit %d:\n%s", name, args, code, stderr)
				}
			}
		}
	}
}

// TestVersionsBudgetHolds: versions --max-rcu bounds every read, as
// billed, within half an RCU; stopped there it prints nothing (a part of
// an item's revisions would show drift that is not there) and exits 3
// with one line saying what it spent and how to go on. On the embedded
// backend (the demo) and on dynalite.
func TestVersionsBudgetHolds(t *testing.T) {
	spentRE := regexp.MustCompile(`stopped at the budget: ([0-9.]+) of`)
	srv := dynalitetest.Shared(t)
	isolateAWS(t)
	c := srv.Client()
	createTable(t, c, "VersionsBudget", "SK", types.ScalarAttributeTypeS)
	var reqs []types.WriteRequest
	pad := strings.Repeat("v", 2000)
	for n := range 40 {
		reqs = append(reqs, put(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "doc"},
			"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("v%d_Audit", n)}, "Data": &types.AttributeValueMemberS{Value: pad}}))
	}
	batchWrite(t, c, "VersionsBudget", reqs)
	for name, conn := range map[string][]string{
		"embedded": {"--demo", "--table", "Equipment", "--pk", "Equipment_1"},
		"dynalite": {"--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", "VersionsBudget", "--pk", "doc"},
	} {
		for _, budget := range []string{"0.5", "2"} {
			if name == "embedded" && budget == "2" {
				continue // the demo's partition costs 1 RCU in all
			}
			out, stderr, code := cli(t, append(append([]string{"versions"}, conn...), "--max-rcu", budget)...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			m := spentRE.FindStringSubmatch(lines[len(lines)-1])
			max, _ := strconv.ParseFloat(budget, 64)
			if code != 3 || m == nil || out != "" || !strings.Contains(lines[len(lines)-1], "--max-rcu") {
				t.Errorf("%s --max-rcu %s: exit %d:\n%s\n%s", name, budget, code, out, stderr)
				continue
			}
			if spent, _ := strconv.ParseFloat(m[1], 64); spent > max+0.5 {
				t.Errorf("%s --max-rcu %s: spent %.1f", name, budget, spent)
			}
		}
		out, stderr, code := cli(t, append(append([]string{"versions"}, conn...), "--max-rcu", "100")...)
		if code != 0 || !strings.Contains(out, `"items"`) {
			t.Errorf("%s --max-rcu 100: exit %d:\n%s", name, code, stderr)
		}
	}
}

// TestRangeFollowBudgetCoversThePolls: range --follow --max-rcu counts
// the range and every poll after it in one budget, and stops following
// within half an RCU of it, exit 3 with one line saying what it spent
// and how to go on (the polls had been outside any budget: followed
// forever). On the embedded backend (the demo) and on dynalite.
func TestRangeFollowBudgetCoversThePolls(t *testing.T) {
	spentRE := regexp.MustCompile(`stopped following at the budget: ([0-9.]+) of`)
	srv := dynalitetest.Shared(t)
	isolateAWS(t)
	c := srv.Client()
	createTable(t, c, "FollowBudget", "SK", types.ScalarAttributeTypeS)
	var reqs []types.WriteRequest
	now := time.Now().UTC()
	for i := range 20 {
		at := now.Add(-time.Duration(i) * time.Minute).Format(time.RFC3339)
		reqs = append(reqs, put(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "dev"},
			"SK": &types.AttributeValueMemberS{Value: at}, "Data": &types.AttributeValueMemberS{Value: "x"}}))
	}
	batchWrite(t, c, "FollowBudget", reqs)
	for name, conn := range map[string][]string{
		"embedded": {"--demo", "--table", "ChatMessages", "--pk", "seattle-1", "--max-rcu", "10"},
		"dynalite": {"--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", "FollowBudget", "--pk", "dev", "--max-rcu", "4"},
	} {
		args := append(append([]string{"range"}, conn...), "--last", "1h", "--follow", "--interval", "100ms")
		// A bound on a follow that never stops (the old way), not a
		// timing: the budget stops it after a few polls.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var out, errb bytes.Buffer
		code := Run(ctx, args, &out, &errb)
		cancel()
		stderr := errb.String()
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		last := lines[len(lines)-1]
		m := spentRE.FindStringSubmatch(last)
		if code != 3 || m == nil || !strings.Contains(last, "--max-rcu") {
			t.Errorf("%s: exit %d:\n%s", name, code, stderr)
			continue
		}
		max, _ := strconv.ParseFloat(conn[len(conn)-1], 64)
		if spent, _ := strconv.ParseFloat(m[1], 64); spent > max+0.5 {
			t.Errorf("%s: spent %.1f of %g", name, spent, max)
		}
	}
}

// TestChildrenBudgetCoversTheWalk (issue 37.2): children --max-rcu, and
// --count-budget given without --count, bound every read of the walk as
// they bound a count: spent within half an RCU of the budget, exit 3 with
// one line saying what was spent, what was printed and how to go on, the
// children found so far printed as valid JSON marked partial, each one a
// full read finds; a budget the walk fits in changes nothing. On the
// embedded backend (the demo's USA: a 66.5 RCU walk) and on dynalite
// (2,000 children of one item: 35.5). --count-budget without --count had
// the walk spend all of it and exit 0; children had no --max-rcu; a count
// under half an RCU listed one child, not marked partial.
func TestChildrenBudgetCoversTheWalk(t *testing.T) {
	srv := dynalitetest.Shared(t)
	isolateAWS(t)
	c := srv.Client()
	createTable(t, c, "ManyOnes", "SK", types.ScalarAttributeTypeS)
	var reqsW []types.WriteRequest
	for i := range 2000 {
		reqsW = append(reqsW, put(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "p"},
			"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("%08x#meta", uint32(i)*2654435761)}, "Data": &types.AttributeValueMemberS{Value: strings.Repeat("m", 100)}}))
	}
	batchWrite(t, c, "ManyOnes", reqsW)
	spentRE := regexp.MustCompile(`stopped at the budget: ([0-9.]+) of`)
	for _, conn := range [][]string{
		{"--demo", "--table", "Locations", "--pk", "USA"},
		{"--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", "ManyOnes", "--pk", "p"},
	} {
		all := childrenDocOf(t, append([]string{"children"}, conn...))
		names := map[string]bool{}
		for _, ch := range all.Children {
			names[ch.Name] = true
		}
		for _, flag := range []string{"--max-rcu", "--count-budget"} {
			for _, budget := range []string{"0.5", "1", "5"} {
				out, stderr, code := cli(t, append(append([]string{"children"}, conn...), flag, budget)...)
				lines := strings.Split(strings.TrimSpace(stderr), "\n")
				last := lines[len(lines)-1]
				m := spentRE.FindStringSubmatch(last)
				most, _ := strconv.ParseFloat(budget, 64)
				var doc struct {
					Partial  bool `json:"childrenPartial"`
					Children []struct {
						Name string `json:"name"`
					} `json:"children"`
				}
				err := json.Unmarshal([]byte(out), &doc)
				if code != 3 || m == nil || !strings.HasPrefix(last, "dynascope: stopped at the budget: ") || !strings.Contains(last, "larger "+flag) ||
					err != nil || !doc.Partial {
					t.Errorf("%v %s %s: exit %d, partial %v, %v:\n%.300s\n%s", conn[len(conn)-3:], flag, budget, code, doc.Partial, err, out, stderr)
					continue
				}
				if spent, _ := strconv.ParseFloat(m[1], 64); spent > most+0.5 {
					t.Errorf("%v %s %s: spent %.1f RCU", conn[len(conn)-3:], flag, budget, spent)
				}
				for _, ch := range doc.Children {
					if !names[ch.Name] {
						t.Errorf("%v %s %s: child %q, which the whole walk does not find", conn[len(conn)-3:], flag, budget, ch.Name)
					}
				}
			}
			// A budget the walk fits in: every child, exit 0.
			if got := childrenDocOf(t, append(append([]string{"children"}, conn...), flag, "500")); len(got.Children) != len(all.Children) {
				t.Errorf("%v %s 500: %d children of %d", conn[len(conn)-3:], flag, len(got.Children), len(all.Children))
			}
		}
	}
	// With --count, --max-rcu bounds the count as --count-budget does,
	// and the stop names it.
	_, stderr, code := cli(t, "children", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", "ManyOnes", "--pk", "p", "--count", "--max-rcu", "2")
	if code != 3 || !strings.Contains(stderr, "of 2 RCU") || !strings.Contains(stderr, "larger --max-rcu") {
		t.Errorf("--count --max-rcu 2: exit %d, %s", code, stderr)
	}
	// A count whose budget keeps nothing back to walk what it leaves
	// (half an RCU pays one read) lists the children it read, the
	// document marked partial: it said 1 child, no more, as if all.
	out, stderr, code := cli(t, "children", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", "ManyOnes", "--pk", "p", "--count", "--count-budget", "0.5")
	var doc struct {
		Partial bool `json:"childrenPartial"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 3 || err != nil || !doc.Partial {
		t.Errorf("--count --count-budget 0.5: exit %d, partial %v, %v:\n%.300s\n%s", code, doc.Partial, err, out, stderr)
	}
}

// TestChildrenBudgetHoldsWhereChildrenOutweighTheirHeader (issue 37, a
// multi-tenant SaaS table): under PROJECT# each project is a small item
// (PROJECT#p000, 60 bytes) and its tasks behind it far heavier
// (PROJECT#p000#TASK#…, 3 KB each). The walk's reads were sized by the
// header alone, so one read met dozens of tasks: --max-rcu 1 spent 23.5
// RCU on dynalite (5.5 on the embedded backend), --max-rcu 10 spent 47.
// Until a few items are read, each read of the walk asks for no more
// items than were read before it: the budget holds within half an RCU,
// on dynalite and on the embedded backend.
func TestChildrenBudgetHoldsWhereChildrenOutweighTheirHeader(t *testing.T) {
	isolateAWS(t)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []map[string]types.AttributeValue
	for p := range 12 {
		project := fmt.Sprintf("PROJECT#p%03d", p)
		items = append(items, map[string]types.AttributeValue{"PK": s("TENANT#t1"), "SK": s(project), "name": s("proj")})
		for k := range 60 {
			items = append(items, map[string]types.AttributeValue{"PK": s("TENANT#t1"), "SK": s(fmt.Sprintf("%s#TASK#%05d", project, k)),
				"desc": s(strings.Repeat("d", 3000))})
		}
	}
	// A tenant whose light audit records come first (issue 37.2): the
	// walk's skip past them was sized by them and met 20 tasks of 3 KB:
	// --max-rcu 3 spent 4.0, exit 3 "past the budget".
	for a := range 1500 {
		items = append(items, map[string]types.AttributeValue{"PK": s("TENANT#t2"), "SK": s(fmt.Sprintf("AUDIT#2024-05-%02dT10:%02d:%02d.000Z#%04d", 1+a%28, a%60, a/60%60, a)), "d": s(strings.Repeat("a", 40))})
	}
	items = append(items, map[string]types.AttributeValue{"PK": s("TENANT#t2"), "SK": s("METADATA"), "d": s("m")})
	for p := range 12 {
		items = append(items, map[string]types.AttributeValue{"PK": s("TENANT#t2"), "SK": s(fmt.Sprintf("PROJECT#p%03d", p)), "name": s("proj")})
		for k := range 17 {
			items = append(items, map[string]types.AttributeValue{"PK": s("TENANT#t2"), "SK": s(fmt.Sprintf("PROJECT#p%03d#TASK#%05d", p, k)), "desc": s(strings.Repeat("d", 3000))})
		}
	}
	for u := range 50 {
		items = append(items, map[string]types.AttributeValue{"PK": s("TENANT#t2"), "SK": s(fmt.Sprintf("USER#u%04d", u)), "d": s("u")})
	}
	// Small partitions of light items (issue 37.3), a chat room and a
	// ledger account: their whole level costs 1.5 to 2 RCU, yet the walk
	// went on with its first read, cut by the budget, through a child it
	// then skipped (1, 1, 2, 6 of the room's members), and each skip after
	// it from one key again: --max-rcu 3 stopped at 3.0, exit 3.
	items = append(items, map[string]types.AttributeValue{"PK": s("ROOM#r00"), "SK": s("META"), "topic": s("room 0")})
	for m := range 25 {
		items = append(items, map[string]types.AttributeValue{"PK": s("ROOM#r00"), "SK": s(fmt.Sprintf("MEMBER#user%03d", m)), "joined": s("2024-05-01T10:00:00.000Z")})
	}
	for m := range 300 {
		items = append(items, map[string]types.AttributeValue{"PK": s("ROOM#r00"), "SK": s(fmt.Sprintf("MSG#01HX%016d", m)), "author": s("user001"), "text": s("deploy lgtm rollback ok")})
	}
	for n := range 400 {
		items = append(items, map[string]types.AttributeValue{"PK": s("ACCOUNT#a000"), "SK": s(fmt.Sprintf("TXN#%010d", n+1)), "amount": &types.AttributeValueMemberN{Value: "-42"}, "at": s("2024-05-01T10:00:00.000Z"), "kind": s("fee")})
	}
	for v := range 4 {
		items = append(items, map[string]types.AttributeValue{"PK": s("ACCOUNT#a000"), "SK": s(fmt.Sprintf("v%d_Balance", v)), "balance": &types.AttributeValueMemberN{Value: "100"}, "currency": s("EUR")})
	}
	// A device whose first key tells no delimiter (META, then READING#…):
	// a walk's first read, cut to META alone, listed every reading whole.
	items = append(items, map[string]types.AttributeValue{"PK": s("DEVICE#d1"), "SK": s("META"), "model": s("t-100")})
	for r := range 300 {
		items = append(items, map[string]types.AttributeValue{"PK": s("DEVICE#d1"), "SK": s(fmt.Sprintf("READING#%010d", 8285046406+r*7)), "temp": &types.AttributeValueMemberN{Value: "21.5"}})
	}
	table, backends := bothBackends(t, items)
	spentRE := regexp.MustCompile(`stopped at the budget: ([0-9.]+) of`)
	for name, conn := range backends {
		for _, pk := range []string{"ROOM#r00", "ACCOUNT#a000", "DEVICE#d1"} {
			all := childrenDocOf(t, append([]string{"children", "--table", table, "--pk", pk}, conn...))
			args := append(append([]string{"children", "--table", table, "--pk", pk, "--output", "json"}, conn...), "--max-rcu", "3")
			out, stderr, code := cli(t, args...)
			var doc struct {
				Stats struct {
					RCU float64 `json:"consumedRCU"`
				} `json:"stats"`
				Children []struct {
					Name string `json:"name"`
				} `json:"children"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 || doc.Stats.RCU > 3 || len(doc.Children) != len(all.Children) {
				t.Errorf("%s %s --max-rcu 3: exit %d, spent %.1f RCU, %d children of %d, %v:\n%s", name, pk, code, doc.Stats.RCU, len(doc.Children), len(all.Children), err, stderr)
			}
		}
		for _, budget := range []string{"2", "3", "4"} {
			args := append(append([]string{"children", "--table", table, "--pk", "TENANT#t2", "--output", "json"}, conn...), "--max-rcu", budget)
			out, stderr, code := cli(t, args...)
			var doc struct {
				Stats struct {
					RCU float64 `json:"consumedRCU"`
				} `json:"stats"`
			}
			most, _ := strconv.ParseFloat(budget, 64)
			if err := json.Unmarshal([]byte(out), &doc); err != nil || (code != 0 && code != 3) || doc.Stats.RCU > most+0.5 {
				t.Errorf("%s audit records first, --max-rcu %s: exit %d, spent %.1f RCU, %v:\n%s", name, budget, code, doc.Stats.RCU, err, stderr)
			}
		}
		for _, budget := range []string{"1", "10"} {
			args := append(append([]string{"children", "--table", table, "--pk", "TENANT#t1", "--prefix", "PROJECT#", "--output", "json"}, conn...), "--max-rcu", budget)
			_, stderr, code := cli(t, args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			m := spentRE.FindStringSubmatch(lines[len(lines)-1])
			if code != 3 || m == nil {
				t.Errorf("%s --max-rcu %s: exit %d:\n%s", name, budget, code, stderr)
				continue
			}
			most, _ := strconv.ParseFloat(budget, 64)
			if spent, _ := strconv.ParseFloat(m[1], 64); spent > most+0.5 {
				t.Errorf("%s --max-rcu %s: spent %.1f RCU", name, budget, spent)
			}
		}
	}
}

// TestCountBudgetListsTheLevel (issue 37.2): on a tenant of 1,500 audit
// records of 100 bytes, then projects whose tasks weigh up to 3 KB, then
// users, children --count under a budget that pays no whole page lists
// the level before it counts: every child listed, those not counted
// marked uncounted, exit 3 with the stop line; the budget held within
// half an RCU and one task met first (a count that read from the level's
// start listed the one child it stopped in, and a budget of 50 was spent
// 71 RCU, exit 0). A budget the whole count fits counts every child:
// 100 on the tenant's 74.5 for at most 3 RCU more (it counted with half,
// walked and counted on: 79.5 RCU in 30 requests on dynalite). The
// embedded backend knows the table's size, so there a budget below it is
// refused before any read (exit 3) as the README says.
func TestCountBudgetListsTheLevel(t *testing.T) {
	isolateAWS(t)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []map[string]types.AttributeValue
	add := func(sk string, size int) {
		items = append(items, map[string]types.AttributeValue{"PK": s("TENANT#t1"), "SK": s(sk), "Data": s(strings.Repeat("a", size))})
	}
	for a := range 1500 {
		add(fmt.Sprintf("AUDIT#2024-05-%02dT10:%02d:%02d.000Z#%04d", 1+a%28, a%60, a/60%60, a), 40)
	}
	add("METADATA", 30)
	for p := range 20 {
		add(fmt.Sprintf("PROJECT#p%03d", p), 20)
		for k := range 17 {
			add(fmt.Sprintf("PROJECT#p%03d#TASK#%05d", p, k), []int{50, 900, 3000}[(p+k)%3])
		}
	}
	for u := range 112 {
		add(fmt.Sprintf("USER#u%04d", u), 60)
	}
	want := map[string]int{"AUDIT": 1500, "METADATA": 1, "PROJECT": 20 * 18, "USER": 112}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		full := 0.0 // the full read's RCU: --count-budget 1000 pays a whole page, read as without one
		for _, budget := range []float64{10, 50, 1000, 100} {
			args := append(append([]string{"children", "--table", table, "--pk", "TENANT#t1", "--count", "--output", "json"}, conn...), "--count-budget", fmt.Sprint(budget))
			out, stderr, code := cli(t, args...)
			var doc struct {
				Children []struct {
					Name      string `json:"name"`
					Count     *int   `json:"count"`
					Uncounted bool   `json:"uncounted"`
				} `json:"children"`
				Stats struct {
					Requests    int     `json:"requests"`
					ConsumedRCU float64 `json:"consumedRCU"`
				} `json:"stats"`
			}
			if code == 3 && strings.Contains(stderr, "raise --count-budget above") && name == "memory" {
				continue // the embedded backend knows the table's size: refused before any read
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%s --count-budget %g: %v\n%s\n%s", name, budget, err, out, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			counted := 0
			for i, ch := range doc.Children {
				switch {
				case ch.Count != nil && *ch.Count != want[ch.Name]:
					t.Errorf("%s --count-budget %g: %s counted %d, want %d", name, budget, ch.Name, *ch.Count, want[ch.Name])
				case ch.Count != nil:
					counted++
				case !doc.Children[i].Uncounted:
					t.Errorf("%s --count-budget %g: %s neither counted nor marked uncounted", name, budget, ch.Name)
				}
			}
			whole := counted == len(want)
			if len(doc.Children) != len(want) || doc.Stats.ConsumedRCU > budget+0.5+0.5 || whole != (code == 0) ||
				(!whole && (code != 3 || !strings.HasPrefix(last, "dynascope: stopped at the budget: ") || !strings.Contains(last, "--count-budget"))) {
				t.Errorf("%s --count-budget %g: exit %d, %d children listed, %d counted, %.1f RCU:\n%s\n%s", name, budget, code, len(doc.Children), counted, doc.Stats.ConsumedRCU, out, stderr)
			}
			if budget >= 100 && !whole {
				t.Errorf("%s --count-budget %g: %d of %d children counted", name, budget, counted, len(want))
			}
			if budget == 1000 {
				full = doc.Stats.ConsumedRCU
			}
			if budget == 100 && doc.Stats.ConsumedRCU > full+3 {
				t.Errorf("%s --count-budget %g: %.1f RCU in %d requests, the full read %.1f", name, budget, doc.Stats.ConsumedRCU, doc.Stats.Requests, full)
			}
			t.Logf("%-8s --count-budget %4g: exit %d, %d children, %d counted, %d requests, %.1f RCU", name, budget, code, len(doc.Children), counted, doc.Stats.Requests, doc.Stats.ConsumedRCU)
		}
	}
}

// childrenDocOf runs a children command that must succeed and reads its
// document.
func childrenDocOf(t *testing.T, args []string) childrenDoc {
	t.Helper()
	out, _ := mustRun(t, args...)
	var doc childrenDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: not JSON: %v\n%.300s", args, err, out)
	}
	return doc
}

// TestCountPastItsBudgetSaysSo: a count whose reads, sized by a run of
// small items of a child, meet a run of heavier ones in the same child
// (past a child's end reads grow only from other children's items)
// stops past its budget
// (DynamoDB bills whole items; no request caps a page by size: 18.0 RCU
// of 5 on dynalite). Its stop line says by how much and why, where it
// said "stopped at the budget" beside the figure past it.
func TestCountPastItsBudgetSaysSo(t *testing.T) {
	isolateAWS(t)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []map[string]types.AttributeValue
	for a := range 400 {
		items = append(items, map[string]types.AttributeValue{"PK": s("TENANT#t1"), "SK": s(fmt.Sprintf("LOG#AUDIT#2024-05-01T10:%05d", a)), "who": s("u")})
	}
	for p := range 12 {
		for k := range 5 {
			items = append(items, map[string]types.AttributeValue{"PK": s("TENANT#t1"), "SK": s(fmt.Sprintf("LOG#PROJECT#p%03d#TASK#%05d", p, k)),
				"desc": s(strings.Repeat("d", 3000))})
		}
	}
	table, backends := bothBackends(t, items)
	lineRE := regexp.MustCompile(`stopped (at|past) the budget: ([0-9.]+) of ([0-9.]+) RCU( \(([0-9.]+) past: a read met items heavier than any read before it, and DynamoDB bills whole items\))?`)
	past := 0
	for name, conn := range backends {
		for _, budget := range []string{"5", "10", "20"} {
			args := append(append([]string{"children", "--table", table, "--pk", "TENANT#t1", "--count", "--output", "json"}, conn...), "--count-budget", budget)
			_, stderr, code := cli(t, args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			m := lineRE.FindStringSubmatch(lines[len(lines)-1])
			if code != 3 {
				t.Errorf("%s --count-budget %s: exit %d:\n%s", name, budget, code, stderr)
				continue
			}
			if m == nil {
				continue // refused before any read: the table's size is more than the budget
			}
			spent, _ := strconv.ParseFloat(m[2], 64)
			most, _ := strconv.ParseFloat(m[3], 64)
			over := spent > most+0.5
			if over != (m[1] == "past") || over != (m[4] != "") {
				t.Errorf("%s --count-budget %s: %.1f of %g RCU said as %q", name, budget, spent, most, m[0])
			}
			if over {
				past++
				if by, _ := strconv.ParseFloat(m[5], 64); by != spent-most {
					t.Errorf("%s --count-budget %s: %.1f of %g RCU said %.1f past", name, budget, spent, most, by)
				}
			}
		}
	}
	if past == 0 {
		t.Error("no count went past its budget: the case no longer tests the stop line past it")
	}
}

// TestStopLineSaysWhatTheServerReported: a stop line's figure is what
// DynamoDB bills (0.5 RCU at least a read); dynalite reports nothing for
// a read that returns no item, so the line stood half an RCU a read above
// the stats' consumedRCU with nothing said. It says both: the billed
// figure the stats' billedRCU holds, then what the server reported, the
// consumedRCU. A count whose walk reads past a child's first key to
// nothing, and a Scan whose first segments hold no item.
func TestStopLineSaysWhatTheServerReported(t *testing.T) {
	srv := dynalitetest.Shared(t)
	isolateAWS(t)
	c := srv.Client()
	createTable(t, c, "OneLeaf", "SK", types.ScalarAttributeTypeS)
	// An item (L#a), then a child of 40 (L#b#00…): under a count budget
	// of 1.5 the walk's read past b's first key finds nothing (billed
	// 0.5, reported 0) and the count stops in b.
	reqs := []types.WriteRequest{put(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "p"},
		"SK": &types.AttributeValueMemberS{Value: "L#a"}, "Data": &types.AttributeValueMemberS{Value: "d"}})}
	for i := range 40 {
		reqs = append(reqs, put(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "p"},
			"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("L#b#%02d", i)}, "Data": &types.AttributeValueMemberS{Value: "d"}}))
	}
	batchWrite(t, c, "OneLeaf", reqs)
	conn := []string{"--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", "OneLeaf", "--output", "json"}
	spentRE := regexp.MustCompile(`stopped at the budget: ([0-9.]+) of [0-9.]+ RCU( as DynamoDB bills it \(the server reported ([0-9.]+);)?`)
	for _, args := range [][]string{
		{"children", "--pk", "p", "--prefix", "L#", "--count", "--count-budget", "1.5"},
		{"scan", "--filter", "Data = \"x\"", "--segments", "8", "--max-rcu", "1"},
	} {
		out, stderr, code := cli(t, append(args, conn...)...)
		var doc struct {
			Stats struct {
				Consumed float64  `json:"consumedRCU"`
				Billed   *float64 `json:"billedRCU"`
			} `json:"stats"`
		}
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		m := spentRE.FindStringSubmatch(lines[len(lines)-1])
		if err := json.Unmarshal([]byte(out), &doc); code != 3 || err != nil || m == nil || doc.Stats.Billed == nil {
			t.Errorf("%s: exit %d, %v, stats %+v:\n%s", args[0], code, err, doc.Stats, stderr)
			continue
		}
		spent, _ := strconv.ParseFloat(m[1], 64)
		reported, _ := strconv.ParseFloat(m[3], 64)
		if spent != *doc.Stats.Billed || (*doc.Stats.Billed > doc.Stats.Consumed) != (m[2] != "") || (m[2] != "" && reported != doc.Stats.Consumed) {
			t.Errorf("%s: the stop line says %q; the stats consumedRCU %.1f, billedRCU %.1f", args[0], m[0], doc.Stats.Consumed, *doc.Stats.Billed)
		}
	}
}

// TestFinishedPastItsBudgetSaysSo: a read that finishes whole yet spends
// more than half an RCU past its budget says so in one line on stderr
// (exit 0: what it printed is all): reads are sized by the items read
// before, and an item heavier than any of them (21 KB after 600 B ones)
// is billed whole. A count under --count-budget 5 billed 6.0 RCU with no
// word of the budget. One within its budget says nothing of it.
func TestFinishedPastItsBudgetSaysSo(t *testing.T) {
	isolateAWS(t)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []map[string]types.AttributeValue
	for c := range 4 {
		for i := range 6 {
			items = append(items, map[string]types.AttributeValue{"PK": s("P"), "SK": s(fmt.Sprintf("B#c%d#%02d", c, i)), "d": s(strings.Repeat("x", 600))})
		}
	}
	items = append(items, map[string]types.AttributeValue{"PK": s("P"), "SK": s("B#c2#99"), "d": s(strings.Repeat("y", 21000))})
	table, backends := bothBackends(t, items)
	lineRE := regexp.MustCompile(`^dynascope: read whole, but ([0-9.]+) RCU past the budget: ([0-9.]+) of --count-budget ([0-9.]+) as DynamoDB bills it — a read met items heavier than any read before it, and DynamoDB bills whole items$`)
	spentRE := regexp.MustCompile(`consumedRCU=([0-9.]+)`)
	for name, conn := range backends {
		past := 0
		for _, budget := range []string{"5", "6", "100"} {
			args := append(append([]string{"children", "--table", table, "--pk", "P", "--prefix", "B#", "--count", "--output", "json"}, conn...), "--count-budget", budget)
			_, stderr, code := cli(t, args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			spent := spentRE.FindStringSubmatch(stderr)
			if code != 0 || spent == nil {
				t.Errorf("%s --count-budget %s: exit %d:\n%s", name, budget, code, stderr)
				continue
			}
			rcu, _ := strconv.ParseFloat(spent[1], 64)
			most, _ := strconv.ParseFloat(budget, 64)
			m := lineRE.FindStringSubmatch(lines[len(lines)-1])
			if (rcu > most+0.5) != (m != nil) {
				t.Errorf("%s --count-budget %s: %.1f RCU spent, said %q", name, budget, rcu, lines[len(lines)-1])
				continue
			}
			if m != nil {
				past++
				by, _ := strconv.ParseFloat(m[1], 64)
				said, _ := strconv.ParseFloat(m[2], 64)
				if said != rcu || by != rcu-most {
					t.Errorf("%s --count-budget %s: %.1f RCU spent, said %q", name, budget, rcu, m[0])
				}
			}
		}
		if past == 0 {
			t.Errorf("%s: no count finished past its budget: the case no longer tests the line", name)
		}
	}
}

// TestEntitiesFinishedPastItsBudgetSaysSo: entities read to its end past
// its budget (its last read met an item heavier than any before it) says
// so in the one line every command prints, as children and items do:
// its summary had added a clause of its own, at any RCU over the budget
// where the others speak past half an RCU. A sample says "sample read",
// not "read whole". Within its budget it says nothing of it.
func TestEntitiesFinishedPastItsBudgetSaysSo(t *testing.T) {
	isolateAWS(t)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []map[string]types.AttributeValue
	for i := range 30 {
		items = append(items, map[string]types.AttributeValue{"PK": s("B"), "SK": s(fmt.Sprintf("A#%03d", i)), "_et": s("Order"), "d": s(strings.Repeat("x", 300))})
	}
	items = append(items, map[string]types.AttributeValue{"PK": s("B"), "SK": s("Z"), "_et": s("Blob"), "d": s(strings.Repeat("y", 100<<10))})
	table, backends := bothBackends(t, items)
	lineRE := regexp.MustCompile(`(?m)^dynascope: (read whole|sample read), but ([0-9.]+) RCU past the budget: ([0-9.]+) of --max-rcu ([0-9.]+) as DynamoDB bills it — a read met items heavier than any read before it, and DynamoDB bills whole items$`)
	for name, conn := range backends {
		said := 0
		for _, budget := range []string{"5", "100"} {
			_, stderr, code := cli(t, append(append([]string{"entities", "--table", table, "--pk", "B"}, conn...), "--max-rcu", budget)...)
			rcu := billedOf(t, stderr)
			most, _ := strconv.ParseFloat(budget, 64)
			m := lineRE.FindStringSubmatch(stderr)
			switch {
			case strings.Contains(stderr, "RCU budget: a read met items larger"):
				t.Errorf("%s --max-rcu %s: a clause of entities' own:\n%s", name, budget, stderr)
			case code == exitOK && (rcu > most+0.5) != (m != nil):
				t.Errorf("%s --max-rcu %s: %.1f RCU billed, exit 0, the line %q:\n%s", name, budget, rcu, m, stderr)
			case m != nil:
				said++
				if by, _ := strconv.ParseFloat(m[2], 64); by != rcu-most {
					t.Errorf("%s --max-rcu %s: %.1f RCU billed, said %q", name, budget, rcu, m[0])
				}
			}
			t.Logf("%s --max-rcu %s: exit %d, %.1f RCU", name, budget, code, rcu)
		}
		if said == 0 {
			t.Errorf("%s: no read finished past its budget: the case no longer tests the line", name)
		}
	}
}
