// Package cli is dynascope's command line: the explorer (the root command)
// and the headless subcommands, the flags they share, the configuration
// file and the connection they make. main only calls Run.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dynascope/dynascope/internal/config"
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

// rootOptions are the explorer's own flags (the shared ones are globals).
type rootOptions struct {
	table, pk, prefix, delimiter, levels, index, theme string
	versions, versionItem, versionPattern              string
	timeFormat, timeRange, filterText                  string
	countBudget, maxRCU                                float64
	// changed reports whether a flag was given (flags override the
	// configuration only then); the command fills it from its flag set.
	changed func(flag string) bool
	filter  domain.FilterNode // --filter, parsed by validate
}

func newRootFor(ctx context.Context, g *globals, stdout, stderr io.Writer) *cobra.Command {
	o := &rootOptions{}
	root := &cobra.Command{
		Use:   "dynascope",
		Short: "Explore DynamoDB tables from the terminal, read-only",
		Long: `dynascope explores DynamoDB tables from the terminal: tables, partitions,
items, and the structure single-table designs keep in their sort keys.
It only ever reads, and shows what each read cost.

With no subcommand it opens the full-screen explorer. Credentials, region
and endpoint come from the flags or the standard AWS settings (AWS_PROFILE,
AWS_REGION, AWS_ENDPOINT_URL[_DYNAMODB], ~/.aws/config, SSO).

Exit codes: 0 success (diff: the sides are identical), 1 a failed read (no
such table, unreachable endpoint, no region, credentials, access denied;
diff: the sides differ), 2 a malformed command line (an unknown command,
flag or --index, a flag given empty such as --delimiter '', children,
versions or range on a table without the sort key they need; the explorer
without a terminal), 3 stopped at a budget
(--max-rcu, --count-budget): what was printed is true but not all, 130
interrupted (Ctrl+C), 143 SIGTERM, 129 SIGHUP: each stops the command the
same way, a partial export file removed; 141 the reader of the output went
away (| head -1).`,
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
		// Every command, the explorer too: a flag given empty is refused
		// before anything is read.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return refuseEmpty(cmd) },
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.changed = cmd.Flags().Changed
			return runRoot(ctx, g, o)
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetContext(ctx)
	g.register(root.PersistentFlags())
	o.register(root.Flags())
	root.SetFlagErrorFunc(flagError)
	root.SuggestionsMinimumDistance = 2 // dynascope itemz: did you mean items?
	root.AddCommand(newTablesCmd(ctx, g), newItemsCmd(ctx, g), newChildrenCmd(ctx, g), newVersionsCmd(ctx, g), newRangeCmd(ctx, g), newEntitiesCmd(ctx, g), newPartitionsCmd(ctx, g), newScanCmd(ctx, g), newPartiQLCmd(ctx, g), newChangesCmd(ctx, g), newDiffCmd(ctx, g), newTTLCmd(ctx, g), newSeedCmd(ctx, g))
	return root
}

// register adds the flags every command shares.
func (g *globals) register(pf *pflag.FlagSet) {
	pf.StringVar(&g.profile, "profile", "", "AWS profile from ~/.aws/config (default: AWS_PROFILE, else default)")
	pf.StringVar(&g.region, "region", "", "AWS region (default: AWS_REGION or the profile's)")
	pf.StringVar(&g.endpoint, "endpoint-url", "", "DynamoDB endpoint, e.g. http://localhost:8000 for DynamoDB Local or dynalite\n(default: AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL, else AWS)")
	pf.BoolVar(&g.demo, "demo", false, "use the built-in demo database (no AWS, no network)")
	pf.StringVar(&g.configFile, "config", "", "configuration file (default: $XDG_CONFIG_HOME/dynascope/config.toml)")
	pf.StringSliceVar(&g.mask, "mask", nil, "never show or write these attributes' values, only stand-ins: Email,Owner.phone (config: mask = [...] per table)")
	g.data.register(pf)
	pf.DurationVar(&g.timeout, "timeout", 0, "each request attempt's deadline, e.g. 10s; attempts are retried as the SDK retries, so a silent\nserver is given up after about 3 × TIMEOUT + 6 s (default 10s; config: timeout)")
	pf.StringVar(&g.debugLog, "debug-log", "", "write a debug log of every request and retry to this new file (mode 0600; never holds credentials;\nan existing file is appended to only if it is dynascope's own earlier log, never a symbolic link)")
}

// register adds the explorer's own flags.
func (o *rootOptions) register(fl *pflag.FlagSet) {
	fl.StringVar(&o.table, "table", "", "open this table directly")
	fl.StringVar(&o.prefix, "prefix", "", "open the drill-down at this sort-key prefix, e.g. 'NY#' (needs --pk)")
	fl.StringVar(&o.delimiter, "delimiter", "", "sort-key segment delimiter, or none to list every key whole (default: detected from the keys)")
	budgetVar(fl, &o.countBudget, "count-budget", ui.DefaultCountBudget, false, "`RCU` a count (c) may spend: it stops there, saying so, and c counts on")
	fl.StringVar(&o.index, "index", "", "open this GSI or LSI of --table: its partitions, or with --pk that partition in it")
	fl.StringVar(&o.versions, "versions", "", "open the partition's Versions mode, and the timeline of NAME when given (--versions Audit)")
	fl.Lookup("versions").NoOptDefVal = "*"
	fl.StringVar(&o.versionItem, "item", "", "open the timeline of this versioned item (--versions --item 'Audit#PART-7')")
	fl.StringVar(&o.versionPattern, "version-pattern", "", "--table's own revision keys, e.g. 'rev#{n}#{name}' (default: the configuration's, else v0_Name, v001_Name, v_0)")
	fl.StringVar(&o.timeFormat, "time-format", "", "--table's sort-key time format for Time mode: epoch-s, epoch-ms, epoch-us or a Go layout (prefix#LAYOUT for composite keys), instead of detecting; config: time_format")
	fl.StringVar(&o.timeRange, "range", "", "open the partition's Time mode with this range, e.g. 'last 24h' or '< 1536019200'")
	fl.StringVar(&o.theme, "theme", "auto", "auto (from the terminal's background), dark, light or high-contrast; NO_COLOR is honoured")
	fl.StringVar(&o.levels, "levels", "", "name the levels, e.g. 'STATE#CITY#ZIP' or '[country]#[region]#[state]'")
	fl.StringVar(&o.filterText, "filter", "", `open the partition's items (or --range) filtered, e.g. 'Level = "ERROR" and attempts > 3'`)
	budgetVar(fl, &o.maxRCU, "max-rcu", ui.DefaultFilterBudget, true, "`RCU` a filtered read may spend before it waits for you to scroll on (none: no limit; config: max_rcu)")
	fl.StringVar(&o.pk, "pk", "", "open this partition of --table directly (typed by the key: 123 for N, base64 for B)")
}

// flagError is cobra's flag error hook: pflag appends the parser's own
// words ("strconv.ParseInt: parsing …: invalid syntax"); the flag and the
// value say enough.
func flagError(cmd *cobra.Command, err error) error {
	var own usageError
	if errors.As(err, &own) {
		return own // a flag of ours that says itself what is wrong (budgetFlag)
	}
	what := err.Error()
	if name, ok := strings.CutPrefix(what, "unknown flag: "); ok {
		if s := flagSuggestion(cmd, name); s != "" {
			return usageError{what: what, hint: "did you mean " + s + "? (see " + cmd.CommandPath() + " --help)"}
		}
	}
	if strings.HasPrefix(what, "invalid argument") {
		if before, _, ok := strings.Cut(what, " flag: "); ok {
			what = before + " flag"
		}
	}
	return usageError{what: what, hint: "see " + cmd.CommandPath() + " --help"}
}

// validate checks the explorer's flags against each other, reading nothing.
func (o *rootOptions) validate() error {
	if err := o.validateTargets(); err != nil {
		return err
	}
	if o.filterText != "" {
		switch {
		case o.pk == "":
			return usage("add --pk VALUE", "--filter filters a partition's items: name the partition with --pk")
		case o.versions != "":
			return usage("open --versions, then press f to filter its revisions", "--filter and --versions do not go together")
		}
		n, err := domain.ParseFilter(o.filterText)
		if err != nil {
			return usage(`write it as DynamoDB does, values inline: status = "FAILED" and attempts > 3`, "--filter %v", err)
		}
		o.filter = n
	}
	if err := checkBudget("--max-rcu", o.maxRCU, true); err != nil {
		return err
	}
	if err := checkBudget("--count-budget", o.countBudget, false); err != nil {
		return err
	}
	if o.timeRange != "" {
		if err := checkRange(o.timeRange); err != nil {
			return usage("see dynascope range --help for the forms a range takes", "--range: %v", err)
		}
	}
	if domain.DelimiterTooLong(o.delimiter) {
		return usage("give the one to three characters between levels, such as '#', '§' or '::', or none to split nothing", "--delimiter %q is longer than three characters", o.delimiter)
	}
	if !slices.Contains(ui.Themes, o.theme) {
		return usage("use --theme auto, dark, light or high-contrast", "--theme %q is not a theme", o.theme)
	}
	return nil
}

// checkRange checks --range as the range bar reads it: a range, or on
// keys with a prefix before the time the prefix, a space and a range
// ("amsg# 2018-08"), which ? prints for a range of one prefix. Whether
// the keys take a prefix is known only once they are read: the bar says
// so there.
func checkRange(text string) error {
	_, err := domain.ParseRange(text, time.Now(), time.UTC)
	if err == nil {
		return nil
	}
	if _, rest, ok := strings.Cut(strings.TrimSpace(text), " "); ok {
		if _, rerr := domain.ParseRange(strings.TrimSpace(rest), time.Now(), time.UTC); rerr == nil {
			return nil
		}
	}
	return err
}

// validateTargets checks what the explorer is to open: each of --pk,
// --index, --prefix, --versions, --item and --range needs the flags that
// name where it is.
func (o *rootOptions) validateTargets() error {
	if o.pk != "" && o.table == "" {
		return usage("add --table NAME", "--pk needs --table")
	}
	if o.index != "" && o.table == "" {
		return usage("add --table NAME", "--index needs --table: name the table whose index to open")
	}
	if o.prefix != "" && o.pk == "" {
		return usage("add --pk VALUE", "--prefix needs --pk: name the partition whose sort keys it prefixes")
	}
	if o.versionItem != "" {
		if o.versions != "" && o.versions != "*" && o.versions != o.versionItem {
			return usage("give the item once: --versions --item NAME", "--versions %q and --item %q name different items", o.versions, o.versionItem)
		}
		o.versions = o.versionItem
	}
	if (o.versions != "" || o.timeRange != "") && o.pk == "" {
		return usage("add --pk VALUE", "--versions and --range open a partition's mode: name the partition with --pk")
	}
	if o.versions != "" && o.timeRange != "" {
		return usage("give one of --versions and --range", "--versions and --range open different modes")
	}
	return nil
}

// settings are the configuration with the explorer's flags laid over it,
// and the key bindings: a broken file is reported before anything is read.
func (o *rootOptions) settings(g *globals) (config.Config, keymap.KeyMap, error) {
	conf, err := g.loadConfig()
	if err != nil {
		return conf, keymap.KeyMap{}, err
	}
	if conf, err = withVersionPattern(conf, o.table, o.versionPattern, o.changed("version-pattern")); err != nil {
		return conf, keymap.KeyMap{}, err
	}
	if conf, err = withTimeFormat(conf, o.table, o.timeFormat, o.changed("time-format")); err != nil {
		return conf, keymap.KeyMap{}, err
	}
	keys := keymap.Default()
	if err := keys.Apply(conf.Keys); err != nil {
		return conf, keymap.KeyMap{}, usage("fix [keys] in the configuration file", "config: %v", err)
	}
	return conf, keys, nil
}

// applyConfig fills what no flag gave from the configuration: flags
// override the configuration, which overrides detection.
func (o *rootOptions) applyConfig(conf config.Config) {
	ts := conf.Table(o.table)
	if !o.changed("delimiter") {
		o.delimiter = ts.Delimiter
	}
	if !o.changed("levels") {
		o.levels = ts.Levels
	}
	if !o.changed("theme") && conf.Theme != "" {
		o.theme = conf.Theme
	}
	if !o.changed("count-budget") && ts.CountBudget > 0 {
		o.countBudget = ts.CountBudget
	}
}

// runRoot opens the explorer. Everything that reads nothing is checked
// before the explorer draws; the connection and its preflight read run
// after its first frame (connectExplorer). --data's load starts here and
// goes on in the background while the explorer shows it.
func runRoot(ctx context.Context, g *globals, o *rootOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	conf, keys, err := o.settings(g)
	if err != nil {
		return err
	}
	if err := g.validateData(); err != nil {
		return err
	}
	if _, err := g.tableMask(o.table); err != nil {
		return err // a bad --mask is a usage error here, as for the headless commands
	}
	if !g.data.given() {
		if err := g.settle(); err != nil { // the connection flags; --data checked its own
			return err
		}
	}
	if err := checkTerminal(); err != nil { // the last check: a bad flag is said first
		return err
	}
	o.applyConfig(conf)
	if g.demo {
		// On stage the demo's tables change as a real table would: its
		// live workload writes until the explorer ends.
		liveCtx, stop := context.WithCancel(ctx)
		defer stop()
		g.live = newLiveDemo(liveCtx)
	}
	g.session = &dynamo.Session{} // before --data connects: the status bar counts every request
	var early *connection
	if g.data.given() {
		g.dataInBackground = true // the explorer opens while --data loads
		if early, err = g.connect(ctx); err != nil {
			return err
		}
	}
	// An export still running when the explorer ends is abandoned:
	// its partial file must not outlive the process.
	defer export.RemoveUnfinished()
	cfg := o.uiConfig(g, conf, keys, early)
	return loadOutcome(runExplorer(ctx, cfg), cfg.Load) // the debug log is open since connect
}

// uiConfig is what the explorer is given: the flags, the configuration,
// and how to connect.
func (o *rootOptions) uiConfig(g *globals, conf config.Config, keys keymap.KeyMap, early *connection) ui.Config {
	var now func() time.Time
	save := g.saveColumns
	if g.demo {
		now = func() time.Time { return demo.DemoEnd } // the demo's data ends at a fixed time
		if g.live != nil {
			now = g.live.seconds // from there on, as its live workload writes
		}
		if g.configFile == "" {
			save = nil // trying the demo never rewrites the real config.toml: columns last the session
		}
	}
	region, endpoint, profile := "", "", ""
	if !g.demo {
		// Shown and copied (the reopen command, `y`): never a password.
		region, endpoint, profile = g.region, dynamo.RedactEndpoint(g.endpoint), g.profile
	}
	budget := func(t string) float64 { return conf.FilterBudget(t, ui.DefaultFilterBudget) }
	choices := againstChoices(g, conf)
	if o.changed("max-rcu") {
		maxRCU := o.maxRCU
		budget = func(string) float64 { return maxRCU }
	}
	var load dynamo.DataLoad
	if early != nil {
		load = early.load
	}
	return ui.Config{Load: load, Session: g.session, Tour: g.demo && o.table == "", Mask: g.mask, Filter: o.filter, FilterBudget: budget, SaveColumns: save, Now: now,
		Region: region, Endpoint: endpoint, Profile: profile, Tables: conf.Tables,
		Connect: g.connectExplorer(early, o.table, o.index, choices), Connection: g.preLabel(early), Reopen: g.reopen(),
		Table: o.table, PK: o.pk, Prefix: o.prefix, Delimiter: o.delimiter, Levels: o.levels, Index: o.index, Versions: o.versions, Range: o.timeRange,
		Theme: o.theme, Keys: keys, CountBudget: o.countBudget,
		Against: g.explorerAgainst, AgainstChoices: choices}
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
	if len(args) > 0 && cmd.HasAvailableSubCommands() {
		return unknownCommand(cmd, args[0])
	}
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
// for Run to print as one line once the terminal is restored. The sides
// = offers (choices) are handed on less the connection itself.
func (g *globals) connectExplorer(early *connection, table, index string, choices []ui.Side) func(context.Context) (ui.Connected, error) {
	return func(ctx context.Context) (ui.Connected, error) {
		conn := early
		if conn == nil {
			var err error
			if conn, err = g.connect(ctx); err != nil {
				return ui.Connected{}, err
			}
		}
		if g.demo && early == nil {
			g.live.start(conn)
		}
		info, names, next, err := preflight(ctx, conn.client, table, g.giveUpAfter())
		if err != nil {
			return ui.Connected{}, err
		}
		if err := checkIndex(info, index); err != nil {
			return ui.Connected{}, err
		}
		streams, _ := g.streams(ctx, conn) // nil: the Changes tab says this connection cannot read streams
		return ui.Connected{Client: conn.client, Session: conn.client.Session, Connection: conn.label, Environment: conn.environmentNow, CostEstimated: conn.estimated, Info: info, TableNames: names, TablesNext: next, Streams: streams,
			AgainstChoices: besides(choices, conn.where), Region: conn.where.Region, Endpoint: dynamo.RedactEndpoint(conn.endpoint), Profile: conn.where.Profile, Reopen: new(g.reopenAs(conn))}, nil
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
// message: with --table its description, else the table list's first
// page and where it goes on (the explorer reads the rest behind its first
// screen). Both are handed to the explorer, which does not read them
// again. Its
// deadline only backs up the attempts' own (bound: all of them, a second
// to spare).
func preflight(ctx context.Context, c dynamo.Client, table string, bound time.Duration) (*dynamo.TableInfo, []string, string, error) {
	ctx, cancel := context.WithTimeout(ctx, bound+time.Second)
	defer cancel()
	if table != "" {
		info, _, err := dynamo.DescribeTable(ctx, c, table)
		if err != nil {
			return nil, nil, "", err
		}
		return &info, nil, "", nil
	}
	names, next, _, err := dynamo.ListTablesPage(ctx, c, "", 0, 0)
	if err != nil {
		return nil, nil, "", err
	}
	if names == nil {
		names = []string{} // none: still read, not to be read again
	}
	return nil, names, next, nil
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
	offerWithConnection(g, err)
	// A failure's one line already says its attempts; a success says
	// what it took to get there.
	if g.headless != nil && err == nil {
		if note := g.headless.RetrySummary(); note != "" {
			fmt.Fprintln(stderr, note)
		}
	}
	if note := g.pastBudget(); err == nil && note != "" {
		fmt.Fprintln(stderr, note)
	}
	return report(ctx, stderr, err)
}
