package cli

import (
	"bytes"
	"context"
	"os"
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
