package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/ui"
	"github.com/dynascope/dynascope/internal/ui/uitest"
)

// TestReopenCommandsRun runs every command the explorer's ? prints (kept
// by ui's TestReopenCommands) as typed, and checks that each opens a view
// whose ? prints that same command again; a headless one (a search's)
// is TestClaims' to run.
func TestReopenCommandsRun(t *testing.T) {
	isolateAWS(t)
	data, err := os.ReadFile("../ui/testdata/TestReopenCommands.golden")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		t.Run(line, func(t *testing.T) {
			args := shellWords(t, line)
			if args[0] != "dynascope" {
				t.Fatalf("not a dynascope command: %s", line)
			}
			if !strings.HasPrefix(args[1], "-") {
				// A headless command (a search's scan or partiql): it
				// opens no view, and TestClaims runs it for its rows.
				t.Skip("headless: run by TestClaims")
			}
			opened := openExplorer(t, args[1:])
			if want := "this view: " + line; !strings.Contains(opened, want) {
				t.Fatalf("%s\nopened a view whose ? does not print it again:\n%s", line, opened)
			}
		})
	}
}

// TestReopenCarriesTheConnection: the command the explorer's ? prints,
// pasted into a shell, opens the same connection the explorer was given:
// its --config and --mask, its profile, region and endpoint, however they
// are spelt (spaces, quotes, $), and the same partition; never the
// endpoint's password. It is written by the builder the headless
// commands' offered commands use (export.Command), so it carries what
// they carry: --config and --mask were left out, and the profile, region
// and endpoint were pasted unquoted.
func TestReopenCarriesTheConnection(t *testing.T) {
	isolateAWS(t)
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to paste the command into")
	}
	dir := filepath.Join(t.TempDir(), `my "conf" it's $HOME`)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(conf, []byte("theme = \"dark\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	profile := `it's "ops" $HOME`
	if err := os.WriteFile(os.Getenv("AWS_CONFIG_FILE"), []byte("[profile "+profile+"]\nregion = eu-west-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--config", conf, "--profile", profile, "--region", "eu-west-1", "--endpoint-url", "http://user:pa$$word@127.0.0.1:9/my db",
		"--mask", `Email,"Owner, phone"`, "--table", "Locations", "--pk", `it's a "$pk" here`}
	given := explorerConfig(t, args)
	line := reopenLine(t, given)
	if strings.Contains(line, "pa$$word") {
		t.Fatalf("the command carries the endpoint's password: %s", line)
	}
	words := pasted(t, line)
	if words[0] != "dynascope" {
		t.Fatalf("not a dynascope command: %s", line)
	}
	for _, flag := range []string{"--config", "--mask", "--profile", "--region", "--endpoint-url"} {
		if !slices.Contains(words, flag) {
			t.Errorf("the command lacks %s: %s", flag, line)
		}
	}
	again := explorerConfig(t, words[1:])
	if !reflect.DeepEqual(again.Reopen, given.Reopen) || again.Table != given.Table || again.PK != given.PK || !slices.Equal(again.Mask, given.Mask) {
		t.Errorf("pasted, %s\nopens %+v (table %q, pk %q, mask %q)\n want %+v (table %q, pk %q, mask %q)", line,
			again.Reopen, again.Table, again.PK, again.Mask, given.Reopen, given.Table, given.PK, given.Mask)
	}
	if want := "http://***@127.0.0.1:9/my db"; given.Reopen.Endpoint != want || again.Endpoint != want {
		t.Errorf("endpoint %q, pasted %q, want %q", given.Reopen.Endpoint, again.Endpoint, want)
	}
	if given.Reopen.Profile != profile || given.Reopen.Config != conf || !slices.Equal(given.Reopen.Mask, []string{"Email", "Owner, phone"}) {
		t.Errorf("the explorer was handed %+v", given.Reopen)
	}

	// What the configuration file gave is left to it: pasted, the command
	// reads the file again. Written out, the endpoint would paste as
	// http://***@… over the file's real password.
	if err := os.WriteFile(conf, []byte("region = \"eu-west-1\"\nendpoint_url = \"http://user:pa$$word@127.0.0.1:9/db\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	given = explorerConfig(t, []string{"--config", conf, "--table", "Locations", "--pk", "USA"})
	line = reopenLine(t, given)
	for _, flag := range []string{"--region", "--endpoint-url", "***"} {
		if strings.Contains(line, flag) {
			t.Errorf("the command writes out %s, which the configuration file gave: %s", flag, line)
		}
	}
	again = explorerConfig(t, pasted(t, line)[1:])
	if again.Endpoint != given.Endpoint || again.Region != given.Region || again.Endpoint == "" {
		t.Errorf("pasted, %s\nopens endpoint %q region %q, want %q %q", line, again.Endpoint, again.Region, given.Endpoint, given.Region)
	}
}

// explorerConfig is what the command line hands the explorer for args.
func explorerConfig(t *testing.T, args []string) ui.Config {
	t.Helper()
	saved := runExplorer
	defer func() { runExplorer = saved }()
	var got ui.Config
	runExplorer = func(_ context.Context, cfg ui.Config) error { got = cfg; return nil }
	if _, stderr, code := cli(t, args...); code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, stderr)
	}
	return got
}

// reopenLine is the command ? prints in the explorer cfg opens, its
// connection made on the demo's data (cfg names no server that answers).
func reopenLine(t *testing.T, cfg ui.Config) string {
	t.Helper()
	db, err := loadDemo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Connect = func(context.Context) (ui.Connected, error) { return ui.Connected{Client: db}, nil }
	m := ui.New(cfg)
	uitest.Send(t, m, tea.WindowSizeMsg{Width: 400, Height: 50})
	uitest.Drive(t, m, m.Init())
	uitest.Send(t, m, tea.KeyPressMsg{Code: '?', Text: "?"})
	for _, l := range strings.Split(uitest.Screen(m), "\n") {
		if _, line, ok := strings.Cut(l, "this view: "); ok {
			return strings.TrimSpace(line)
		}
	}
	t.Fatalf("? prints no command:\n%s", uitest.Screen(m))
	return ""
}

// pasted is line's words as sh reads them, line pasted after set --.
func pasted(t *testing.T, line string) []string {
	t.Helper()
	out, err := exec.Command("sh", "-c", "set -- "+line+"\nprintf '%s\\0' \"$@\"").Output()
	if err != nil {
		t.Fatalf("sh: %v: %s", err, line)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// TestVersionsTakesANameAfterASpace: --versions NAME, --versions=NAME and
// --versions --item NAME open the same timeline; bare --versions the list.
func TestVersionsTakesANameAfterASpace(t *testing.T) {
	isolateAWS(t)
	base := []string{"--demo", "--table", "Equipment", "--pk", "Equipment_1"}
	for _, extra := range [][]string{{"--versions", "Audit#PART-7"}, {"--versions=Audit#PART-7"}, {"--versions", "--item", "Audit#PART-7"},
		{"--item", "Audit#PART-7", "--versions"}, {"--item", "Audit#PART-7"}} {
		screen := openExplorer(t, append(append([]string{}, base...), extra...))
		if !strings.Contains(screen, "Audit#PART-7 · 3 revisions") {
			t.Errorf("%q did not open the timeline:\n%s", extra, screen)
		}
	}
	if screen := openExplorer(t, append(base, "--versions")); !strings.Contains(screen, "2 versioned items") {
		t.Errorf("bare --versions did not open the list:\n%s", screen)
	}
	var stderr bytes.Buffer
	code := Run(context.Background(), append(base, "--versions=Audit", "--item", "Other"), &bytes.Buffer{}, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "name different items") {
		t.Errorf("two names: exit %d, %q", code, stderr.String())
	}
	for _, c := range []struct{ in, want []string }{
		{[]string{"--table", "T", "--versions", "x"}, []string{"--table", "T", "--versions=x"}},
		{[]string{"--versions", "--item", "x"}, []string{"--versions", "--item", "x"}},
		{[]string{"versions", "--versions", "x"}, []string{"versions", "--versions", "x"}}, // a subcommand's own flags
		{[]string{"--demo", "versions", "--item", "x"}, []string{"--demo", "versions", "--item", "x"}},
	} {
		if got := versionsValue(c.in); !slices.Equal(got, c.want) {
			t.Errorf("versionsValue(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// openExplorer runs the command line with the explorer swapped for its
// model driven in memory, and returns the first screen with ? pressed.
func openExplorer(t *testing.T, args []string) string {
	t.Helper()
	var screen string
	saved := runExplorer
	defer func() { runExplorer = saved }()
	runExplorer = func(_ context.Context, cfg ui.Config) error {
		m := ui.New(cfg)
		uitest.Send(t, m, tea.WindowSizeMsg{Width: 220, Height: 50})
		uitest.Drive(t, m, m.Init())
		uitest.Send(t, m, tea.KeyPressMsg{Code: '?', Text: "?"})
		screen = uitest.Screen(m)
		return nil
	}
	var stdout, stderr bytes.Buffer
	if code := Run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, stderr.String())
	}
	return screen
}

// shellWords splits a command line as sh does for the quoting ShellQuote
// writes: words separated by spaces, '…' quoted, '\” for a quote.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	inWord, quoted, dquoted := false, false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case dquoted && c == '"':
			dquoted = false
		case dquoted && c == '\\' && i+1 < len(line) && strings.IndexByte(`"\$`+"`", line[i+1]) >= 0:
			i++
			cur.WriteByte(line[i])
		case dquoted:
			cur.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == '"':
			dquoted, inWord = true, true
		case c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			inWord = true
		case c == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quoted || dquoted {
		t.Fatalf("unterminated quote in %s", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
