package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dynascope/dynascope/internal/ui"
	"github.com/dynascope/dynascope/internal/ui/uitest"
)

// claim is one command line the project prints for people to run: in a
// command's --help, in the README, or as ?'s reopen command.
type claim struct {
	where string // "items --help", "README.md:253", "TestReopenCommands.golden:3"
	line  string // as printed, without the prompt, the comment and the pipe
	// shows are output lines the README prints under the command, whole
	// (a JSON line without …): each must be a line of what it prints.
	shows []string
	// figures are the counts and costs the README shows it printing
	// (requests=2, "consumedRCU": 1.5): each must be what it prints.
	figures []figure
	// requests are the request lines (Query T: …) the README shows on
	// stderr: each must begin a line the command prints, so what the
	// README shows is what is sent.
	requests []string
	// plans are the lines the README shows on stderr saying how a read
	// is planned and why (by Query, not a Scan: …; a Scan, not a Query:
	// …): each must be a line it prints, whole.
	plans []string
}

// TestClaims runs every dynascope command line that --help, the README and
// ?'s reopen commands print. Those on the demo run in-process and must
// exit 0 and print rows (headless: at least one item, child, versioned
// item or table; the explorer: a view with rows, not an empty or failed
// one). The others name a server, an account or files the test has not:
// they must parse (every flag known, every value of its type) and pass
// every check made before connecting.
func TestClaims(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	claims := append(helpClaims(t), readmeClaims(t)...)
	claims = append(claims, reopenClaims(t)...)
	if len(claims) < 40 {
		t.Fatalf("only %d command lines found: the extraction broke", len(claims))
	}
	for _, c := range claims {
		t.Run(c.where, func(t *testing.T) {
			args := shellWords(t, c.line)
			if len(args) == 0 || args[0] != "dynascope" {
				t.Fatalf("not a dynascope command: %s", c.line)
			}
			args = args[1:]
			if !slices.Contains(args, "--demo") {
				parsesOffline(t, c, args)
				return
			}
			if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
				runsHeadless(t, c, args)
				return
			}
			opensWithRows(t, c, args)
		})
	}
}

// runsHeadless runs a headless command on the demo: exit 0, and rows.
func runsHeadless(t *testing.T, c claim, args []string) {
	t.Helper()
	var out, errs bytes.Buffer
	// diff exits 1 when the sides differ, as diff does: a finding.
	if code := Run(context.Background(), args, &out, &errs); code != exitOK && !(args[0] == "diff" && code == exitFailure && !strings.HasPrefix(errs.String(), "dynascope:")) {
		t.Fatalf("%s\n%s: exit %d: %s", c.where, c.line, code, errs.String())
	}
	if n := rowsPrinted(t, args[0], out.String()); n == 0 {
		t.Errorf("%s\n%s printed no rows:\nstdout: %s\nstderr: %s", c.where, c.line, out.String(), errs.String())
	}
	printed := figures(out.String() + "\n" + errs.String())
	for _, want := range c.figures {
		if !slices.Contains(printed, want) {
			t.Errorf("%s\n%s: the README shows %s=%s; it prints %v", c.where, c.line, want.name, want.value, printed)
		}
	}
	for _, want := range c.requests {
		if !slices.ContainsFunc(strings.Split(errs.String(), "\n"), func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("%s\n%s: the README shows the request %q; it sends:\n%s", c.where, c.line, want, errs.String())
		}
	}
	for _, want := range c.plans {
		if !slices.Contains(strings.Split(errs.String(), "\n"), want) {
			t.Errorf("%s\n%s: the README shows the plan %q; it says:\n%s", c.where, c.line, want, errs.String())
		}
	}
	lines := strings.Split(out.String(), "\n")
	for _, want := range c.shows {
		if !slices.Contains(lines, want) {
			t.Errorf("%s\n%s: the README shows %s, which it does not print:\n%s", c.where, c.line, want, out.String())
		}
	}
}

// rowsPrinted counts the rows a headless command printed, by its format.
func rowsPrinted(t *testing.T, command, out string) int {
	t.Helper()
	out = strings.TrimSpace(out)
	if out == "" {
		return 0
	}
	if !strings.HasPrefix(out, "{") && !strings.HasPrefix(out, "[") {
		return strings.Count(out, "\n") // text: a header, then a row a line
	}
	if strings.HasPrefix(out, "[") {
		var rows []any
		if err := json.Unmarshal([]byte(out), &rows); err != nil {
			t.Fatalf("not a JSON array: %v", err)
		}
		return len(rows)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		return strings.Count(out, "\n") + 1 // JSON lines
	}
	for _, field := range []string{"children", "items", "tables", "keys", "entities", "partitions"} {
		if raw, ok := doc[field]; ok {
			var rows []any
			if err := json.Unmarshal(raw, &rows); err != nil {
				t.Fatalf("%s is not a list: %v", field, err)
			}
			return len(rows)
		}
	}
	return 1 // one item on one line
}

// emptyView are the words of a view that shows no rows, or a failed read.
var emptyView = regexp.MustCompile(`(?i)\b0 (items|children|prefixes|partitions|revisions|versioned items|matched)\b|no items|no versioned items|no rows|nothing (loaded|here|under)|read failed|no such`)

// opensWithRows opens the explorer on the command line, driven in memory,
// and requires its first view to show rows.
func opensWithRows(t *testing.T, c claim, args []string) {
	t.Helper()
	var screen string
	saved := runExplorer
	defer func() { runExplorer = saved }()
	runExplorer = func(ctx context.Context, cfg ui.Config) error {
		m := ui.New(cfg)
		uitest.Send(t, m, tea.WindowSizeMsg{Width: 200, Height: 50})
		uitest.Drive(t, m, m.Init())
		screen = uitest.Screen(m)
		return nil
	}
	var out, errs bytes.Buffer
	if code := Run(context.Background(), args, &out, &errs); code != exitOK {
		t.Fatalf("%s\n%s: exit %d: %s", c.where, c.line, code, errs.String())
	}
	if m := emptyView.FindString(screen); m != "" {
		t.Errorf("%s\n%s opens a view without rows (%q):\n%s", c.where, c.line, m, screen)
	}
}

// parsesOffline checks a command line that needs what the test has not:
// every flag parses and every check made before connecting passes.
func parsesOffline(t *testing.T, c claim, args []string) {
	t.Helper()
	g := &globals{stderr: io.Discard}
	root := newRootFor(context.Background(), g, io.Discard, io.Discard)
	cmd, rest, err := root.Find(versionsValue(args))
	if err == nil {
		err = cmd.ParseFlags(rest)
	}
	if err == nil && cmd.Args != nil {
		err = cmd.Args(cmd, cmd.Flags().Args())
	}
	if err == nil {
		err = checkBeforeConnecting(cmd, g)
	}
	if err != nil {
		t.Errorf("%s\n%s: %v", c.where, c.line, err)
	}
}

// checkBeforeConnecting runs what a command checks before it connects.
func checkBeforeConnecting(cmd *cobra.Command, g *globals) error {
	if err := g.validate(); err != nil {
		return err
	}
	if err := g.validateData(); err != nil {
		return err
	}
	switch cmd.Name() {
	case "items", "children", "versions", "range", "diff":
		for _, required := range []string{"table", "pk"} {
			if f := cmd.Flags().Lookup(required); f == nil || f.Value.String() == "" {
				return usage("", "--%s is required", required)
			}
		}
	case "scan":
		if f := cmd.Flags().Lookup("table"); f == nil || f.Value.String() == "" {
			return usage("", "--table is required")
		}
	case "dynascope":
		if v := cmd.Flags().Lookup("theme").Value.String(); !slices.Contains(ui.Themes, v) {
			return usage("", "--theme %q", v)
		}
	}
	return nil
}

// helpClaims are the examples of every command's --help.
func helpClaims(t *testing.T) []claim {
	root := newRootFor(context.Background(), &globals{stderr: io.Discard}, io.Discard, io.Discard)
	var out []claim
	for _, cmd := range append([]*cobra.Command{root}, root.Commands()...) {
		for _, line := range strings.Split(cmd.Example, "\n") {
			if l, ok := commandLine(line); ok {
				out = append(out, claim{where: cmd.CommandPath() + " --help: " + l, line: l})
			}
		}
	}
	return out
}

// readmeClaims are the command lines of the README's code blocks, but
// the synopsis of the headless commands ([--flag] and A|B are not a
// command line).
func readmeClaims(t *testing.T) []claim {
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []claim
	sc := bufio.NewScanner(f)
	inCode := false
	under := -1 // the $ command whose output the block goes on to show
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.HasPrefix(text, "```") {
			inCode, under = !inCode, -1
			continue
		}
		if !inCode {
			// Inline commands, such as the demo table's: `dynascope …`.
			for _, m := range inlineCommand.FindAllStringSubmatch(text, -1) {
				if l, ok := commandLine(m[1]); ok && !synopsis.MatchString(l) {
					out = append(out, claim{where: "README.md:" + itoa(n) + ": " + l, line: l})
				}
			}
			continue
		}
		l, ok := commandLine(text)
		switch {
		case !ok && under >= 0:
			csv := strings.Contains(out[under].line, "--output csv") && text != "" && !strings.Contains(text, "(stderr)")
			if (strings.HasPrefix(text, "{") || csv) && !strings.Contains(text, "…") {
				out[under].shows = append(out[under].shows, text)
			}
			if strings.HasPrefix(text, "by Query, not a Scan: ") || strings.HasPrefix(text, "a Scan, not a Query: ") {
				out[under].plans = append(out[under].plans, text)
			}
			if request, ok := strings.CutPrefix(text, "Query "); ok {
				request, _, _ = strings.Cut(request, "  (stderr)")
				out[under].requests = append(out[under].requests, "Query "+strings.TrimSpace(request))
			}
			out[under].figures = append(out[under].figures, figures(text)...)
			continue
		case !ok || synopsis.MatchString(l):
			continue
		}
		out = append(out, claim{where: "README.md:" + itoa(n) + ": " + l, line: l})
		under = -1
		if strings.HasPrefix(text, "$ ") {
			under = len(out) - 1
		}
	}
	return out
}

// figure is a number the README shows a command printing: requests=2,
// "consumedRCU": 1.5.
type figure struct{ name, value string }

var figureRE = regexp.MustCompile(`"?\b(requests|pages|consumedRCU|items|scanned|matched)"?(?:=|": )([0-9][0-9.]*)`)

// figures are the counts and costs a line of shown output states.
func figures(line string) []figure {
	var out []figure
	for _, m := range figureRE.FindAllStringSubmatch(line, -1) {
		out = append(out, figure{m[1], m[2]})
	}
	return out
}

// inlineCommand is a command in a README code span.
var inlineCommand = regexp.MustCompile("`(dynascope [^`]+)`")

// synopsis matches the headless commands' usage lines: optional flags in
// brackets, alternatives in parentheses.
var synopsis = regexp.MustCompile(` \[--| \(--| V\b`)

// reopenClaims are the commands ? prints to reopen views (kept by ui's
// TestReopenCommands).
func reopenClaims(t *testing.T) []claim {
	data, err := os.ReadFile("../ui/testdata/TestReopenCommands.golden")
	if err != nil {
		t.Fatal(err)
	}
	var out []claim
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		out = append(out, claim{where: "TestReopenCommands.golden:" + itoa(i+1) + ": " + line, line: line})
	}
	return out
}

// commandLine is the dynascope command on a line of an example: without
// a shell prompt, a trailing comment, a pipe or a redirection.
func commandLine(line string) (string, bool) {
	l := strings.TrimSpace(line)
	l = strings.TrimPrefix(l, "$ ")
	if !strings.HasPrefix(l, "dynascope ") {
		return "", false
	}
	l = cutOutsideQuotes(l, " #")
	l = cutOutsideQuotes(l, " |")
	l = cutOutsideQuotes(l, " >")
	return strings.TrimSpace(l), true
}

// cutOutsideQuotes cuts line at the first sep outside single quotes.
func cutOutsideQuotes(line, sep string) string {
	quoted := false
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\'':
			quoted = !quoted
		case !quoted && strings.HasPrefix(line[i:], sep):
			return line[:i]
		}
	}
	return line
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestReadmeExitCodes: each case the README's exit-code table names sits in
// the row of the code the command really exits with (an unknown --index
// was listed under 1; it exits 2).
func TestReadmeExitCodes(t *testing.T) {
	isolateAWS(t)
	rows := readmeExitRows(t)
	saved := checkTerminal
	defer func() { checkTerminal = saved }()
	for _, c := range []struct {
		code   int
		phrase string
		args   []string
	}{
		{0, "success", []string{"tables", "--demo"}},
		{0, "the sides are identical", []string{"diff", "--demo", "--table", "Locations", "--pk", "nobody", "--against-table", "Geography"}},
		{1, "the sides differ", []string{"diff", "--demo", "--table", "Locations", "--pk", "USA", "--prefix", "NY#NEWYORKCITY#", "--against-table", "Geography"}},
		{1, "no such table", []string{"items", "--demo", "--table", "Nope", "--pk", "x"}},
		{1, "endpoint unreachable", []string{"tables", "--endpoint-url", "http://127.0.0.1:1", "--region", "us-east-1"}},
		{1, "no region", []string{"tables", "--endpoint-url", "http://127.0.0.1:1"}},
		{2, "unknown command", []string{"itemz"}},
		{2, "flag", []string{"tables", "--bogus"}},
		{2, "`--limit -3`", []string{"items", "--demo", "--table", "DeviceLogs", "--pk", "1", "--limit", "-3"}},
		{2, "`--output xml`", []string{"items", "--demo", "--table", "DeviceLogs", "--pk", "1", "--output", "xml"}},
		{2, "a non-number `--pk`", []string{"items", "--demo", "--table", "DeviceLogs", "--pk", "abc"}},
		{2, "an `--index` the table does not have", []string{"items", "--demo", "--table", "Locations", "--index", "Nope", "--pk", "USA"}},
		{2, "`--delimiter ''`", []string{"children", "--demo", "--table", "Locations", "--pk", "USA", "--delimiter", ""}},
		{2, "`--attribute ''`", []string{"ttl", "--demo", "--table", "Locations", "--attribute", ""}},
		{2, "without the sort key they need", []string{"children", "--demo", "--table", "DeviceLogs", "--pk", "123"}},
		{2, "hold no time", []string{"range", "--demo", "--table", "Locations", "--pk", "USA", "--last", "1h"}},
		{2, "`seed` aimed at a remote endpoint", []string{"seed", "--endpoint-url", "http://dynamo.example.com:8000"}},
		{2, "the explorer without a terminal", []string{"--demo"}},
		// A count its budget cannot pay for stops there: what it printed
		// is true, not all.
		{3, "a read stopped at its budget", []string{"children", "--demo", "--table", "Geography", "--pk", "PLACE", "--count", "--count-budget", "10"}},
	} {
		if !strings.Contains(rows[c.code], c.phrase) {
			t.Errorf("the README's exit code %d row lacks %q: %q", c.code, c.phrase, rows[c.code])
		}
		checkTerminal = func() error { return nil }
		if c.phrase == "the explorer without a terminal" {
			checkTerminal = func() error { return needTerminal(nil, nil) }
		}
		if _, errs, code := cli(t, c.args...); code != c.code {
			t.Errorf("%q (%s) exits %d, the README says %d: %s", c.args, c.phrase, code, c.code, errs)
		}
	}
}

// TestRootHelpNamesEveryExitCode: dynascope --help's exit codes are the
// README's, every one: 3 (a budget's stop) and 141 were missing.
func TestRootHelpNamesEveryExitCode(t *testing.T) {
	root := newRootFor(context.Background(), &globals{stderr: io.Discard}, io.Discard, io.Discard)
	_, help, _ := strings.Cut(root.Long, "Exit codes:")
	for code := range readmeExitRows(t) {
		if !regexp.MustCompile(`\b` + strconv.Itoa(code) + `\b`).MatchString(help) {
			t.Errorf("dynascope --help's exit codes lack %d, which the README lists", code)
		}
	}
}

// TestRootHelpSaysWhatCountBudgetDoes: the explorer's --count-budget
// says what c does at the budget: it stops there and counts on. It said
// "above it, it asks first", which c no longer does.
func TestRootHelpSaysWhatCountBudgetDoes(t *testing.T) {
	root := newRootFor(context.Background(), &globals{stderr: io.Discard}, io.Discard, io.Discard)
	f := root.Flags().Lookup("count-budget")
	if f == nil || strings.Contains(f.Usage, "asks") || !strings.Contains(f.Usage, "stops there") {
		t.Fatalf("--count-budget's help: %v", f)
	}
}

// readmeExitRows are the README's exit-code table: code → its row.
func readmeExitRows(t *testing.T) map[int]string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "## Exit codes")
	if !ok {
		t.Fatal("the README has no exit codes")
	}
	rows := map[int]string{}
	for _, line := range strings.Split(table, "\n") {
		if m := exitRow.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			rows[n] = m[2]
		}
		if strings.HasPrefix(line, "## ") {
			break
		}
	}
	return rows
}

var exitRow = regexp.MustCompile(`^\| (\d+) \| (.*) \|$`)

// TestReadmeListsEveryExplorerFlag: the README's flags table names every
// flag the explorer takes.
func TestReadmeListsEveryExplorerFlag(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(data), "| flag | |")
	table, _, _ := strings.Cut(rest, "\n\n")
	root := newRootFor(context.Background(), &globals{stderr: io.Discard}, io.Discard, io.Discard)
	visit := func(f *pflag.Flag) {
		if f.Name != "help" && !strings.Contains(table, "`--"+f.Name) && !strings.Contains(table, ", `--"+f.Name) {
			t.Errorf("the README's flags table lacks --%s", f.Name)
		}
	}
	root.Flags().VisitAll(visit)
	root.PersistentFlags().VisitAll(visit)
}
