package cli

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
)

// unknownCommand is the one line for a word where a subcommand could be:
// cobra's suggestions (dynascope itemz → did you mean items?), else what
// dynascope takes.
func unknownCommand(cmd *cobra.Command, arg string) error {
	if s := cmd.SuggestionsFor(arg); len(s) > 0 {
		return usage("did you mean "+cmd.CommandPath()+" "+strings.Join(s, " or ")+"? (see "+cmd.CommandPath()+" --help)", "unknown command %q", arg)
	}
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() && c.Name() != "help" && c.Name() != "completion" {
			names = append(names, c.Name())
		}
	}
	return usage("the commands are "+strings.Join(names, ", ")+"; the explorer takes flags only (see "+cmd.CommandPath()+" --help)", "unknown command %q", arg)
}

// flagSuggestion is the flag of cmd nearest to an unknown one, for "did
// you mean --table?", or "" when none is near: within two edits, or one
// it begins (--end → --endpoint-url).
func flagSuggestion(cmd *cobra.Command, unknown string) string {
	unknown = strings.TrimLeft(unknown, "-")
	if i := strings.IndexByte(unknown, '='); i >= 0 {
		unknown = unknown[:i]
	}
	if unknown == "" {
		return ""
	}
	best, bestD := "", 3
	visit := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := editDistance(strings.ToLower(unknown), f.Name)
		if len(unknown) >= 3 && strings.HasPrefix(f.Name, strings.ToLower(unknown)) {
			d = min(d, 1)
		}
		if d < bestD || (d == bestD && f.Name < best) {
			best, bestD = f.Name, d
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	if best == "" {
		return ""
	}
	return "--" + best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// command is a dynascope command for the user to run: its name, the
// flags that chose this run's connection (--demo, --data and its flags,
// or --profile, --region, --endpoint-url, with the --config and --mask
// that shape what it reads and shows), then args, every word quoted for
// the shell. Without them a command pasted from a hint reads the default
// account's table, or none. Never credentials: an endpoint's
// user:password part is ***.
func (g *globals) command(name string, args ...string) string {
	words := append([]string{"dynascope", name}, g.connectionArgs()...)
	for _, a := range args {
		words = append(words, domain.ShellQuote(a))
	}
	return strings.Join(words, " ")
}

// connectionArgs are the flags, quoted, that choose the connection this
// run read through.
func (g *globals) connectionArgs() []string {
	var a []string
	if g == nil { // options built by hand, in a test
		return nil
	}
	add := func(flag, value string) {
		if value != "" {
			a = append(a, flag, domain.ShellQuote(value))
		}
	}
	add("--config", g.configFile)
	switch {
	case g.demo:
		a = append(a, "--demo")
	case g.data.given():
		for _, w := range g.data.args() {
			a = append(a, domain.ShellQuote(w))
		}
	default:
		add("--profile", g.profile)
		add("--region", g.region)
		add("--endpoint-url", dynamo.RedactEndpoint(g.endpoint))
	}
	if len(g.mask) > 0 {
		add("--mask", strings.Join(g.mask, ","))
	}
	return a
}

// tablesHint is the hint of a command given no --table: the command that
// lists the tables on this connection.
func (g *globals) tablesHint() string {
	return "add --table NAME (" + g.command("tables") + " lists them)"
}

// offerWithConnection writes the connection's flags into the command a
// data-layer failure offers (the data layer knows no flags: "no such
// table" says "`dynascope tables` lists the tables"), so that pasted it
// lists the tables of the account and endpoint that failed, not the
// default profile's.
func offerWithConnection(g *globals, err error) {
	var de *dynamo.Error
	if !errors.As(err, &de) {
		return
	}
	de.Hint = strings.Replace(de.Hint, "`dynascope tables`", "`"+g.command("tables")+"`", 1)
}
