package cli

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
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
// flags that chose this run's connection (reopen), then args, every word
// quoted for the shell, as the explorer writes the command that reopens
// its view (export.Command).
func (g *globals) command(name string, args ...string) string {
	return export.Command(name, g.reopen(), args...)
}

// reopen is what a command written for the user carries of this run's
// connection: --demo, --data and its flags, or --profile, --region,
// --endpoint-url (never its user:password), with the --config and --mask
// that shape what it reads and shows.
func (g *globals) reopen() export.Connection {
	if g == nil { // options built by hand, in a test
		return export.Connection{}
	}
	c := export.Connection{Config: g.configFile, Mask: g.mask}
	switch {
	case g.demo:
		c.Demo = true
	case g.data.given():
		c.Data = g.data.args()
	default:
		// What the configuration file gave, the pasted command reads from
		// it again: written out, an endpoint's password would paste as ***
		// over the file's real one.
		if !g.fromConfig.profile {
			c.Profile = g.profile
		}
		if !g.fromConfig.region {
			c.Region = g.region
		}
		if !g.fromConfig.endpoint {
			c.Endpoint = dynamo.RedactEndpoint(g.endpoint)
		}
	}
	return c
}

// reopenAs is reopen once conn is made: the region, profile and endpoint
// it resolved from the AWS settings (AWS_REGION, AWS_PROFILE, the
// profile's region, AWS_ENDPOINT_URL…) written out, so that the command
// pasted in another shell reads the same place; what the configuration
// file gave is still left to it.
func (g *globals) reopenAs(conn *connection) export.Connection {
	c := g.reopen()
	if c.Demo || len(c.Data) > 0 || conn.where == (config.Connection{}) {
		return c
	}
	if c.Profile == "" && !g.fromConfig.profile {
		c.Profile = conn.where.Profile
	}
	if c.Region == "" && !g.fromConfig.region {
		c.Region = conn.where.Region
	}
	if c.Endpoint == "" && !g.fromConfig.endpoint {
		c.Endpoint = dynamo.RedactEndpoint(conn.endpoint)
	}
	return c
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
