// Package cli is dynascope's command line: the explorer (the root command)
// and the headless subcommands, the flags they share, the configuration
// file and the connection they make. main only calls Run.
package cli

import (
	"context"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/export"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui"
)

// Version is the build's version; main sets it from its -ldflags stamp.
var Version = "dev"

// runExplorer opens the explorer; tests swap it to run the explorer's own
// model on the configuration a command line gives.
var runExplorer = ui.Run

func newRoot(ctx context.Context, stdout, stderr io.Writer) *cobra.Command {
	return newRootFor(ctx, &globals{stderr: stderr}, stdout, stderr)
}

func newRootFor(ctx context.Context, g *globals, stdout, stderr io.Writer) *cobra.Command {
	var table, pk, prefix, delimiter, levels, index, versions, versionItem, versionPattern, timeFormat, timeRange, theme, filterText string
	var countBudget, maxRCU float64
	root := &cobra.Command{
		Use:   "dynascope",
		Short: "Explore DynamoDB tables from the terminal, read-only",
		Long: `dynascope explores DynamoDB tables from the terminal: tables, partitions,
items, and the structure single-table designs keep in their sort keys.
It only ever reads, and shows what each read cost.

With no subcommand it opens the full-screen explorer. Credentials, region
and endpoint come from the flags or the standard AWS settings (AWS_PROFILE,
AWS_REGION, AWS_ENDPOINT_URL[_DYNAMODB], ~/.aws/config, SSO).

Exit codes: 0 success, 1 a failed read (no such table, unreachable endpoint,
credentials, access denied), 2 a malformed command line, 130 interrupted
(Ctrl+C), 143 SIGTERM, 129 SIGHUP: each stops the command the same way, a
partial export file removed.`,
		Example: `  dynascope --demo                                  # built-in demo data, no AWS account needed
  dynascope --profile prod --region eu-west-1
  dynascope --endpoint-url http://localhost:8000 --region us-east-1
  dynascope --data ./AWSDynamoDB/01700000000000-abcdef12 --schema orders.json   # an export, no server
  dynascope --data model.json                       # a NoSQL Workbench model, every table in it
  dynascope --demo --table Locations --pk USA       # open one partition directly
  dynascope --demo --table Locations --pk USA --prefix 'NY#' --levels 'STATE#CITY#ZIP'`,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if pk != "" && table == "" {
				return usage("add --table NAME", "--pk needs --table")
			}
			if index != "" && table == "" {
				return usage("add --table NAME", "--index needs --table: name the table whose index to open")
			}
			if prefix != "" && pk == "" {
				return usage("add --pk VALUE", "--prefix needs --pk: name the partition whose sort keys it prefixes")
			}
			if versionItem != "" {
				if versions != "" && versions != "*" && versions != versionItem {
					return usage("give the item once: --versions --item NAME", "--versions %q and --item %q name different items", versions, versionItem)
				}
				versions = versionItem
			}
			if (versions != "" || timeRange != "") && pk == "" {
				return usage("add --pk VALUE", "--versions and --range open a partition's mode: name the partition with --pk")
			}
			if versions != "" && timeRange != "" {
				return usage("give one of --versions and --range", "--versions and --range open different modes")
			}
			var filter domain.FilterNode
			if filterText != "" {
				switch {
				case pk == "":
					return usage("add --pk VALUE", "--filter filters a partition's items: name the partition with --pk")
				case versions != "":
					return usage("open --versions, then press f to filter its revisions", "--filter and --versions do not go together")
				}
				n, err := domain.ParseFilter(filterText)
				if err != nil {
					return usage(`write it as DynamoDB does, values inline: status = "FAILED" and attempts > 3`, "--filter %v", err)
				}
				filter = n
			}
			if err := checkBudget("--max-rcu", maxRCU); err != nil {
				return err
			}
			if err := checkBudget("--count-budget", countBudget); err != nil {
				return err
			}
			if timeRange != "" {
				if _, err := domain.ParseRange(timeRange, time.Now(), time.UTC); err != nil {
					return usage("see dynascope range --help for the forms a range takes", "--range: %v", err)
				}
			}
			if len(delimiter) > 1 {
				return usage("give one character, such as '#' or '/'", "--delimiter %q is longer than one character", delimiter)
			}
			if !slices.Contains(ui.Themes, theme) {
				return usage("use --theme auto, dark, light or high-contrast", "--theme %q is not a theme", theme)
			}
			conf, err := g.loadConfig() // a broken file is reported before anything is read
			if err != nil {
				return err
			}
			if conf, err = withVersionPattern(conf, table, versionPattern, cmd.Flags().Changed("version-pattern")); err != nil {
				return err
			}
			if conf, err = withTimeFormat(conf, table, timeFormat, cmd.Flags().Changed("time-format")); err != nil {
				return err
			}
			keys := keymap.Default()
			if err := keys.Apply(conf.Keys); err != nil {
				return usage("fix [keys] in the configuration file", "config: %v", err)
			}
			// Everything that reads nothing is checked before the explorer
			// draws; the connection and its preflight read run after its
			// first frame (connectExplorer). --data's load starts here and
			// goes on in the background while the explorer shows it.
			if err := g.validateData(); err != nil {
				return err
			}
			var early *connection
			if g.data.given() {
				g.dataInBackground = true // the explorer opens while --data loads
				if early, err = g.connect(ctx); err != nil {
					return err
				}
			} else if err := g.settle(); err != nil {
				return err
			}
			// Flags override the configuration, which overrides detection.
			ts := conf.Table(table)
			if !cmd.Flags().Changed("delimiter") {
				delimiter = ts.Delimiter
			}
			if !cmd.Flags().Changed("levels") {
				levels = ts.Levels
			}
			if !cmd.Flags().Changed("theme") && conf.Theme != "" {
				theme = conf.Theme
			}

			if !cmd.Flags().Changed("count-budget") && ts.CountBudget > 0 {
				countBudget = ts.CountBudget
			}
			var now func() time.Time
			save := g.saveColumns
			if g.demo {
				now = func() time.Time { return demo.DemoEnd } // the demo's data ends at a fixed time
				if g.configFile == "" {
					save = nil // trying the demo never rewrites the real config.toml: columns last the session
				}
			}
			region, endpoint, profile := "", "", ""
			if !g.demo {
				region, endpoint, profile = g.region, g.endpoint, g.profile
			}
			budget := func(t string) float64 { return conf.FilterBudget(t, ui.DefaultFilterBudget) }
			if cmd.Flags().Changed("max-rcu") {
				budget = func(string) float64 { return maxRCU }
			}
			if _, err := g.tableMask(table); err != nil {
				return err // a bad --mask is a usage error here, as for the headless commands
			}
			// An export still running when the explorer ends is abandoned:
			// its partial file must not outlive the process.
			defer export.RemoveUnfinished()
			g.session = &dynamo.Session{}
			var load dynamo.DataLoad
			if early != nil {
				load = early.load
			}
			err = runExplorer(ctx, ui.Config{Load: load, Session: g.session, Tour: g.demo && table == "", Mask: g.mask, Filter: filter, FilterBudget: budget, SaveColumns: save, Now: now, Region: region, Endpoint: endpoint, Profile: profile, Tables: conf.Tables,
				Connect: g.connectExplorer(early, table, index), Connection: g.preLabel(early), ReopenArgs: g.data.args(),
				Table: table, PK: pk, Prefix: prefix, Delimiter: delimiter, Levels: levels, Index: index, Versions: versions, Range: timeRange, Theme: theme, Keys: keys, CountBudget: countBudget}) // the debug log is open since connect
			return loadOutcome(err, load)
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetContext(ctx)
	pf := root.PersistentFlags()
	pf.StringVar(&g.profile, "profile", "", "AWS profile from ~/.aws/config (default: AWS_PROFILE, else default)")
	pf.StringVar(&g.region, "region", "", "AWS region (default: AWS_REGION or the profile's)")
	pf.StringVar(&g.endpoint, "endpoint-url", "", "DynamoDB endpoint, e.g. http://localhost:8000 for DynamoDB Local or dynalite\n(default: AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL, else AWS)")
	pf.BoolVar(&g.demo, "demo", false, "use the built-in demo database (no AWS, no network)")
	pf.StringVar(&g.configFile, "config", "", "configuration file (default: $XDG_CONFIG_HOME/dynascope/config.toml)")
	pf.StringSliceVar(&g.mask, "mask", nil, "never show or write these attributes' values, only stand-ins: Email,Owner.phone (config: mask = [...] per table)")
	g.data.register(pf)
	pf.DurationVar(&g.timeout, "timeout", 0, "each request attempt's deadline, e.g. 10s; attempts are retried as the SDK retries, so a silent\nserver is given up after about 3 × TIMEOUT + 6 s (default 10s; config: timeout)")
	pf.StringVar(&g.debugLog, "debug-log", "", "write a debug log of every request and retry to this new file (mode 0600; never holds credentials;\nan existing file is appended to only if it is dynascope's own earlier log, never a symbolic link)")
	root.Flags().StringVar(&table, "table", "", "open this table directly")
	root.Flags().StringVar(&prefix, "prefix", "", "open the drill-down at this sort-key prefix, e.g. 'NY#' (needs --pk)")
	root.Flags().StringVar(&delimiter, "delimiter", "", "sort-key segment delimiter (default: detected from the keys)")
	root.Flags().Float64Var(&countBudget, "count-budget", ui.DefaultCountBudget, "RCU a count (c) may spend before it stops; above it, it asks first")
	root.Flags().StringVar(&index, "index", "", "open this GSI or LSI of --table: its partitions, or with --pk that partition in it")
	root.Flags().StringVar(&versions, "versions", "", "open the partition's Versions mode, and the timeline of NAME when given (--versions Audit)")
	root.Flags().Lookup("versions").NoOptDefVal = "*"
	root.Flags().StringVar(&versionItem, "item", "", "open the timeline of this versioned item (--versions --item 'Audit#PART-7')")
	root.Flags().StringVar(&versionPattern, "version-pattern", "", "--table's own revision keys, e.g. 'rev#{n}#{name}' (default: the configuration's, else v0_Name, v001_Name, v_0)")
	root.Flags().StringVar(&timeFormat, "time-format", "", "--table's sort-key time format for Time mode: epoch-s, epoch-ms, epoch-us or a Go layout (prefix#LAYOUT for composite keys), instead of detecting; config: time_format")
	root.Flags().StringVar(&timeRange, "range", "", "open the partition's Time mode with this range, e.g. 'last 24h' or '< 1536019200'")
	root.Flags().StringVar(&theme, "theme", "auto", "auto (from the terminal's background), dark, light or high-contrast; NO_COLOR is honoured")
	root.Flags().StringVar(&levels, "levels", "", "name the levels, e.g. 'STATE#CITY#ZIP' or '[country]#[region]#[state]'")
	root.Flags().StringVar(&filterText, "filter", "", `open the partition's items (or --range) filtered, e.g. 'Level = "ERROR" and attempts > 3'`)
	root.Flags().Float64Var(&maxRCU, "max-rcu", ui.DefaultFilterBudget, "RCU a filtered read may spend before it waits for you to scroll on (0: no limit; config: max_rcu)")
	root.Flags().StringVar(&pk, "pk", "", "open this partition of --table directly (typed by the key: 123 for N, base64 for B)")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		// pflag appends the parser's own words ("strconv.ParseInt: parsing
		// …: invalid syntax"); the flag and the value say enough.
		what := err.Error()
		if strings.HasPrefix(what, "invalid argument") {
			if before, _, ok := strings.Cut(what, " flag: "); ok {
				what = before + " flag"
			}
		}
		return usageError{what: what, hint: "see " + cmd.CommandPath() + " --help"}
	})
	root.AddCommand(newTablesCmd(ctx, g), newItemsCmd(ctx, g), newChildrenCmd(ctx, g), newVersionsCmd(ctx, g), newRangeCmd(ctx, g), newChangesCmd(ctx, g), newSeedCmd(ctx, g))
	return root
}

// loadOutcome is the explorer's result once it has ended: a --data load
// that failed in the background was shown in the explorer, and ends the
// command with its one line and its exit code too, as the headless
// commands do, so a script never takes a failed load for success.
func loadOutcome(err error, load dynamo.DataLoad) error {
	if err != nil || load == nil {
		return err
	}
	if s := load.Status(); s.Ended && s.Err != nil {
		return s.Err
	}
	return nil
}

// noArgs rejects positional arguments: every input is a named flag.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usage("see "+cmd.CommandPath()+" --help", "unexpected argument %q: %s takes flags only", args[0], cmd.CommandPath())
	}
	return nil
}

// versionsValue joins `--versions NAME` into `--versions=NAME`, so that the
// flag, bare for the whole Versions mode, also takes a name after a space,
// as the README and the explorer's ? print it. Only the explorer's own
// --versions, before any subcommand, and a NAME that is not a flag.
func versionsValue(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || (!strings.HasPrefix(a, "-") && (i == 0 || !takesValue(args[i-1]))) {
			return append(out, args[i:]...) // a subcommand or a positional: leave the rest alone
		}
		if a == "--versions" && i+1 < len(args) && args[i+1] != "" && !strings.HasPrefix(args[i+1], "-") {
			out = append(out, "--versions="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

// takesValue reports whether arg is a flag whose value is the next
// argument (--table T), rather than a switch (--demo) or --flag=value.
func takesValue(arg string) bool {
	switch arg {
	case "--demo", "--versions", "--help", "-h", "--version":
		return false
	}
	return strings.HasPrefix(arg, "-") && !strings.Contains(arg, "=")
}

// connectExplorer is the explorer's Config.Connect: the connection
// (early if --data made it already) and the preflight read, run after the
// explorer's first frame. A missing table, an unknown --index, a dead
// endpoint or bad credentials end the explorer, which returns the error
// for Run to print as one line once the terminal is restored.
func (g *globals) connectExplorer(early *connection, table, index string) func(context.Context) (ui.Connected, error) {
	return func(ctx context.Context) (ui.Connected, error) {
		conn := early
		if conn == nil {
			var err error
			if conn, err = g.connect(ctx); err != nil {
				return ui.Connected{}, err
			}
		}
		info, names, err := preflight(ctx, conn.client, table, g.giveUpAfter())
		if err != nil {
			return ui.Connected{}, err
		}
		if err := checkIndex(info, index); err != nil {
			return ui.Connected{}, err
		}
		return ui.Connected{Client: conn.client, Session: conn.client.Session, Connection: conn.label, CostEstimated: conn.estimated, Info: info, TableNames: names}, nil
	}
}

// preLabel is the connection's label before it is made, for the
// explorer's first frame: what the flags and the configuration name.
func (g *globals) preLabel(early *connection) string {
	switch {
	case early != nil:
		return early.label
	case g.demo:
		return "DEMO"
	}
	return label(g.profileName(), g.region, aws.String(g.endpoint))
}

// preflight makes the explorer's first read, so that a missing table, a
// dead endpoint or bad credentials end the command with a one-line
// message: with --table its description, else the whole table list. Both
// are handed to the explorer, which does not read them again. Its
// deadline only backs up the attempts' own (bound: all of them, a second
// to spare).
func preflight(ctx context.Context, c dynamo.Client, table string, bound time.Duration) (*dynamo.TableInfo, []string, error) {
	ctx, cancel := context.WithTimeout(ctx, bound+time.Second)
	defer cancel()
	if table != "" {
		info, _, err := dynamo.DescribeTable(ctx, c, table)
		if err != nil {
			return nil, nil, err
		}
		return &info, nil, nil
	}
	names, _, err := dynamo.ListTables(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	if names == nil {
		names = []string{} // none: still read, not to be read again
	}
	return nil, names, nil
}

// checkIndex refuses an --index the table does not have, naming those it
// has, before the explorer opens.
func checkIndex(info *dynamo.TableInfo, index string) error {
	if index == "" || info == nil {
		return nil
	}
	if _, err := info.KeyFor(index); err != nil {
		return noIndex(*info, index)
	}
	return nil
}

// Run executes the command line and returns the exit code (see the root
// command's help). Errors are printed here, as one line, never by cobra.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	g := &globals{stderr: stderr}
	root := newRootFor(ctx, g, stdout, stderr)
	root.SetArgs(versionsValue(args))
	err := root.Execute()
	if ctx.Err() != nil {
		export.RemoveUnfinished() // a signal ended the run mid-export
	}
	g.close()
	return report(ctx, stderr, err)
}
