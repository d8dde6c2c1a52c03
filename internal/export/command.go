package export

import (
	"bytes"
	"encoding/csv"
	"strings"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
)

// Connection is what a dynascope command line written for the user to
// paste (a hint's offered command, the explorer's "this view:") carries
// of the run that wrote it: the flags that chose its connection, and
// those that shape what it reads and shows. Without them the pasted
// command reads the default account's table, or none. The command line
// and the explorer both write theirs with Command, so both carry the same
// flags, quoted the same way.
type Connection struct {
	Config string   // --config, where given
	Demo   bool     // --demo
	Data   []string // --data and its own flags (--keys, --schema…), as given
	// Profile, Region and Endpoint (--endpoint-url) where neither Demo
	// nor Data chose the connection.
	Profile, Region, Endpoint string
	Mask                      []string // --mask, where given
}

// Args are the connection's flags as shell words, each quoted. Never
// credentials: an endpoint's user:password part is written ***.
func (c Connection) Args() []string {
	var a []string
	add := func(flag, value string) {
		if value != "" {
			a = append(a, flag, ShellWord(value))
		}
	}
	add("--config", c.Config)
	switch {
	case c.Demo:
		a = append(a, "--demo")
	case len(c.Data) > 0:
		for _, w := range c.Data {
			a = append(a, ShellWord(w))
		}
	default:
		add("--profile", c.Profile)
		add("--region", c.Region)
		add("--endpoint-url", dynamo.RedactEndpoint(c.Endpoint))
	}
	if len(c.Mask) > 0 {
		add("--mask", maskValue(c.Mask))
	}
	return a
}

// Command is the dynascope command line of sub (a subcommand; "" for the
// explorer) on connection c, then args: every word quoted for the shell.
func Command(sub string, c Connection, args ...string) string {
	words := []string{"dynascope"}
	if sub != "" {
		words = append(words, ShellWord(sub))
	}
	words = append(words, c.Args()...)
	for _, a := range args {
		words = append(words, ShellWord(a))
	}
	return strings.Join(words, " ")
}

// ShellWord quotes s as one shell word, as domain.ShellQuote does, but in
// double quotes where it holds single quotes and nothing a shell reads
// inside double quotes (a statement's 'strings'): readable, and the same
// word.
func ShellWord(s string) string {
	if strings.Contains(s, "'") && !strings.ContainsAny(s, "\"$`\\!") {
		return `"` + s + `"`
	}
	return domain.ShellQuote(s)
}

// maskValue is --mask's value as its flag reads it back: the names as one
// CSV record (a name holding a comma or a quote is quoted, as pflag's
// string slices parse it).
func maskValue(names []string) string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(names); err != nil {
		return strings.Join(names, ",")
	}
	w.Flush()
	return strings.TrimSuffix(b.String(), "\n")
}
