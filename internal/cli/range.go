package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/export"
)

type rangeFlags struct {
	itemsFlags
	skPrefix, last, from, to, before, after, at, format string
	oldestFirst, local                                  bool
	follow                                              bool
	interval, overlap                                   time.Duration
}

// rangeText is the one range the flags give, in the range bar's words.
func (f rangeFlags) rangeText() (string, error) {
	var parts []string
	add := func(ok bool, s string) {
		if ok {
			parts = append(parts, s)
		}
	}
	add(f.last != "", "last "+f.last)
	add(f.from != "" || f.to != "", "between "+f.from+" and "+f.to)
	add(f.before != "", "< "+f.before)
	add(f.after != "", "> "+f.after)
	add(f.at != "", f.at)
	switch {
	case len(parts) == 0:
		return "", usage("give one of --last 15m, --from A --to B, --before X, --after X or --at 2018-08", "no time range given")
	case len(parts) > 1:
		return "", usage("give just one of --last, --from/--to, --before, --after, --at", "more than one time range given")
	case (f.from == "") != (f.to == ""):
		return "", usage("give both --from and --to (or use --before / --after)", "--from and --to go together")
	}
	return parts[0], nil
}

// prefixFits refuses a sort-key prefix the key cannot have: begins_with
// takes strings and binary only, so on a number key it is refused before
// any Query, not by the server.
func prefixFits(key dynamo.KeySchema, flag, prefix string) error {
	if prefix == "" || key.SK == nil || key.SK.Type != domain.TypeN {
		return nil
	}
	return usage("drop "+flag+": number sort keys have no prefixes (use --before/--after/--from for ranges)",
		"%s %q: %s is a number key", flag, prefix, domain.NameText(key.SK.Name))
}

func newRangeCmd(ctx context.Context, g *globals) *cobra.Command {
	var f rangeFlags
	cmd := &cobra.Command{
		Use:   "range",
		Short: "Query a time range of a partition whose sort key holds time, streaming one item a line",
		Long: `range reads the items of one partition whose sort keys fall in a time range,
newest first, and prints them one plain-JSON item a line as they arrive.
The key condition and the cost go to stderr.

The sort key's time format is detected from its newest and oldest keys
(two small Queries; where they hold the whole partition, or --sk-prefix,
the range is answered from them, with no read past them), wherever the time stands in a key: epoch seconds,
milliseconds, microseconds or nanoseconds, as numbers or as digits inside
text (admission#1601700180000#R8); dates as numbers (20150131) or text;
ISO-8601 extended or basic (20190925T010101Z), compact
(2019-09-25T010101), with or without zone and fraction; dates (also
yyyy/MM/dd), hours (2024-01-15T10), ISO weeks (2024-W05) and months;
yyyyMMddHHmm; the blog's
2006-01-02:15:04:05; time-ordered ids (ULID, UUIDv7, KSUID, MongoDB
ObjectIds, and Snowflake ids where their 19 digits, read as epoch
nanoseconds, would put the newest key in the future; --time-format
snowflake names them where not, and the 18-digit ids made before mid-2018,
which sort apart from the 19-digit ones as text: a range is read in the
width of the ids it holds, one holding both is refused; Discord's ids
made since mid-2022 read as nanoseconds of 2001-2019 and stay so read,
with a line on stderr naming --time-format discord, and snowflake where
as nanoseconds they stand before 2012, as X's ids of 2010-2020 do); with a
prefix before the time after any separator (amsg#2018-08-29:12:00:00,
event:2024-01-15T10:00:00Z, order-2024-…), text after it
behind a separator or none (JFK#2021-08-01T07:25:00#250#0,
P#512-777-7777#2021-07-07T16:36:42-D), or both. Keys that are not a time
(a header item beside them) are skipped when two thirds of the keys are
times (or the only key is), said on stderr, and left out of ranges; where
the time follows a prefix, the partition's prefixes decide instead: a
prefix whose keys hold a time (in two thirds of them) is read, one whose
keys hold none (a customer's PROFILE and ADDRESS#… beside its ORDER#…)
is left out and named on stderr, so a profile beside a few orders is
read. Prefixes holding times in different forms (readings
$sensor#reading_1#at_<epoch ms> beside alarms $sensor#alarm_1#raiseds_<epoch
s>) are each read in their own and merged by time. A
partition, or a --sk-prefix, with no keys has no item in any range: the
output is empty in its form (json [], csv the key's header), stderr says
there are no keys, and range exits 0. Keys
that count time backwards so that the newest come first
(READING#<9999999999 − epoch seconds>, or 13 nines less milliseconds)
are not read: the refusal says so and gives the scan that reads the
range by its keys, newest first. Keys that name a whole period (a date,
an hour 2024-01-15T10, an ISO week, a month) hold all of it: a range reads
each key whose period it touches (--last 15m on date keys reads today's),
saying on stderr that the keys count whole days. The
range compiles to the one key condition (=, <, <=, >, >=, BETWEEN or
begins_with) written in that format: on a number key an open range is sent
as its operator (--before 1536019200 is < 1536019200); on text keys open
ends stop at the first and last times the format writes, and ids at the
smallest and largest id of each instant. Times without a zone are UTC
(--local: this machine's zone). Keys written in several UTC offsets
(…T13:21:42-05:00 beside …T14:19:42+00:00) sort as their local times: the
range is read as much wider at each end as the offsets are apart, and
only its own items printed, still in time order (each held until the
read is past the offsets' spread of it: memory is that spread's items).

--time-format names the form where detection does not find it: a form
alone (epoch-ms, a layout), looked for wherever the keys hold it; or a
template of the key, with {time} (its form read from the keys),
{time:LAYOUT} or {time:epoch-ms}, and {any} for text that varies:
admission#{time:epoch-ms}#{any}, {time:2006-01-02T150405}{any} (text right
after the time), P#{any}#{time}{any}. With --sk-prefix it joins on the
template's separator (--sk-prefix A --time-format 'A#{time}' reads A#…).
A format that matches no key is refused with the template detection reads.

Where the time follows a prefix (WARNING1#2020-…, NORMAL#2020-…), give
--sk-prefix to read one; without it the prefixes are found (the children
skip-scan) and one range query per prefix is merged by time, newest first
across all of them, each read a page at a time as the merge needs it;
where the time sample shows the partition is small enough that reading it
once costs less than those queries, it is read once instead, the times
kept on our side, and merged the same way.`,
		Example: `  dynascope range --demo --table DeviceLogs --pk 123 --before 1536019200 --output jsonl
  dynascope range --demo --table Metrics --pk cpu.web-1 --last 6h          # the demo's series ends 2 h 40 min before its now
  dynascope range --demo --table AuditLog --pk prod-api --at 2026-10-31 --oldest-first
  dynascope range --demo --table ChatMessages --pk portland --sk-prefix amsg --at 2018-08
  dynascope range --demo --table StateLog --pk 'd#12345' --at 2020-04-24 --limit 20
  dynascope range --demo --table DeviceLogs --pk 9000 --from 2026-10-01 --to 2026-10-07 --limit 50
  dynascope range --demo --table Workbench --pk 'FLIGHTS#AA' --at 2021-08-01 --limit 5
  dynascope range --demo --table Workbench --pk 'USER#ada' --at 2021-03
  dynascope range --demo --table WorkbenchOrders --pk C1 --after 2015-12-20
  dynascope range --demo --table Workbench --pk 'COMPLAINT#1' --at 2023-04 --sk-prefix comm --time-format 'comm#{time}#{any}'
  dynascope range --demo --table StateLog --pk 'd#12345' --at 2020-04-24 --time-format '{any}#{time:2006-01-02T15:04:05}'`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.bind(cmd, g)
			return runRange(ctx, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.table, "table", "", "table to read (required)")
	fl.StringVar(&f.pk, "pk", "", "partition key value (required)")
	fl.StringVar(&f.index, "index", "", "query a GSI or LSI whose sort key holds time")
	fl.StringVar(&f.skPrefix, "sk-prefix", "", "text before the time in composite keys (amsg for amsg#2018-08-29:12:00:00); without it every prefix, merged by time")
	fl.StringVar(&f.last, "last", "", "the last span: 15m, 24h, 7d, 2w")
	fl.StringVar(&f.from, "from", "", "start of a range (inclusive), with --to")
	fl.StringVar(&f.to, "to", "", "end of a range (inclusive: --to 2018-09-04 includes that day)")
	fl.StringVar(&f.before, "before", "", "strictly before a time")
	fl.StringVar(&f.after, "after", "", "strictly after a time (after its whole period: --after 2018-09-04 starts on the 5th)")
	fl.StringVar(&f.at, "at", "", "one period: a month (2018-08), a day, an hour; begins_with where the keys allow")
	fl.StringVar(&f.format, "time-format", "", "instead of detecting: epoch-s, epoch-ms, epoch-us, epoch-ns, ulid, uuidv7, ksuid, snowflake, objectid, a layout (yyyyMMdd, yyyy-MM-dd'T'HH:mm:ss.SSS'Z' or Go's 2006-01-02), prefix#LAYOUT, or the key around it (admission#{time:epoch-ms}#{any}, {time:2006-01-02T150405}{any}, P#{any}#{time}{any}); config: time_format")
	fl.BoolVar(&f.oldestFirst, "oldest-first", false, "ascending time order (default: newest first)")
	fl.BoolVar(&f.local, "local", false, "read times without a zone in this machine's zone (default UTC)")
	fl.IntVar(&f.limit, "limit", 0, "stop after N items (0: all)")
	fl.StringVarP(&f.output, "output", "o", "jsonl", "jsonl (one item a line), json (one array), csv, or a file to export to: range.csv, range.jsonl, range.json"+csvNull)
	fl.StringVar(&f.filter, "filter", "", `keep only matching items, in DynamoDB's condition syntax with inline values: 'Level = "ERROR"'`)
	budgetVar(fl, &f.maxRCU, "max-rcu", 0, true, "stop reading once this many `RCU` are spent; a filter reads every item it skips")
	fl.BoolVar(&f.follow, "follow", false, "after the range, keep printing new items as they are written, each once, until Ctrl+C (a range that ended before now is refused: nothing new falls in it)")
	fl.DurationVar(&f.interval, "interval", 0, "with --follow: poll this often (default: 1s while items arrive, backing off to 10s)")
	fl.DurationVar(&f.overlap, "overlap", 5*time.Second, "with --follow: re-read this far below the newest key, for writers whose clocks lag")
	return cmd
}

// rangePlan is what the range flags come to before anything is read.
type rangePlan struct {
	r          domain.TimeRange
	opt        *readOpts
	configured bool // the time format is the configuration's, not --time-format
}

// prepare checks every flag and parses the range, reading nothing.
func (f *rangeFlags) prepare() (rangePlan, error) {
	var p rangePlan
	if err := f.validate(); err != nil {
		return p, err
	}
	if _, err := f.onePartition(); err != nil {
		return p, err
	}
	if err := f.validateFollow(); err != nil {
		return p, err
	}
	text, err := f.rangeText()
	if err != nil {
		return p, err
	}
	loc := time.UTC
	if f.local {
		loc = time.Local
	}
	now := time.Now()
	if f.g.demo {
		now = demo.DemoEnd // the demo's data ends at a fixed time, so "last 24h" finds it
	}
	if p.r, err = domain.ParseRange(text, now, loc); err != nil {
		return p, usage("see dynascope range --help for the forms a time takes", "%v", err)
	}
	if err := followEnded(*f, p.r, now, loc); err != nil {
		return p, err
	}
	if f.format == "" {
		conf, err := f.g.loadConfig()
		if err != nil {
			return p, err
		}
		f.format, p.configured = conf.Table(f.table).TimeFormat, true
	} else if _, err := domain.ParseTimeFormat(f.format); err != nil {
		// Malformed whatever the table holds: said before any request.
		return p, timeFormatRefused("--time-format", err)
	}
	if p.opt, err = f.readOpts(); err != nil {
		return p, err
	}
	if p.opt.Mask, err = f.g.tableMask(f.table); err != nil {
		return p, err
	}
	return p, nil
}

// runRange prints a time range of a partition; every flag is checked
// before it connects.
func runRange(ctx context.Context, f *rangeFlags) error {
	p, err := f.prepare()
	if err != nil {
		return err
	}
	r, opt := p.r, p.opt
	conn, err := f.g.connect(ctx)
	if err != nil {
		return err
	}
	f.g.readUnder("--max-rcu", f.maxRCU, conn.client.Session)
	q, info, err := keyQuery(ctx, conn.client, f.itemsFlags, opt.Mask)
	if err != nil {
		return err
	}
	key, _ := info.KeyFor(f.index)
	if err := f.rangeShape(key); err != nil {
		return err
	}
	if err := prefixFits(key, "--sk-prefix", f.skPrefix); err != nil {
		return err
	}
	var tableKeys *dynamo.KeySchema
	if f.index != "" {
		tableKeys = &info.Key
	}
	sampleQ := q
	if f.skPrefix != "" {
		sampleQ.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S(f.skPrefix)}
	}
	opt.Masked = masking(conn.client, opt.Mask, info)
	if opt.Filter != nil {
		// As items says: a filter on what the index does not hold matches
		// none of its items, whatever the table's hold.
		if note := notInIndex(info, f.index, domain.FilterPaths(opt.Filter), "read the table's items without --index, or with dynascope scan --filter"); note != "" {
			fmt.Fprintln(f.stderr, note)
		}
	}
	// --max-rcu is one budget for every read of the command: the time
	// sample, the walk that finds the prefixes, the pages, and with
	// --follow every poll after them.
	var rc dynamo.Client = conn.client
	var budget *dynamo.Budgeted
	if opt.MaxRCU > 0 {
		budget = &dynamo.Budgeted{Client: conn.client, Max: opt.MaxRCU}
		rc = budget
	}
	sample, _, err := dynamo.DetectTimeKeys(ctx, rc, sampleQ, tableKeys)
	if err != nil {
		return budgetStop(budget, err, 0)
	}
	if len(sample.Keys) == 0 && !f.follow {
		return noKeys(conn, f, key, opt)
	}
	if len(sample.Keys) == 0 && f.format == "" {
		// Following waits for items, but for no key to read its time
		// by: said as the partition it is, not as keys that hold no
		// time "(or there are none)".
		return usage("give --time-format (or time_format in the configuration) to follow it from its first item",
			"range --follow: %s, so no key tells the time format to follow by", export.OneLine(noKeysWhere(f, key, opt)))
	}
	if f.format == "" && !sample.OK && !opt.Masked.Hides(f.table, key.SK.Name) {
		if c, ok := domain.DetectCountdown(sample.Keys); ok {
			return countdownRefused(c, f, q, r)
		}
	}
	enc, err := rangeEncoding(*f, p.configured, sample, key.SK.Name, key.SK.Type == domain.TypeN, opt, f.stderr)
	if err != nil {
		return budgetStop(budget, err, 0) // a sample the budget cut tells no time
	}
	enc, mixed, err := enc.FitSnowflakes(sample.Keys, r)
	if err != nil {
		return usage("read the range in two parts, one on each side of that instant", "range: %v", err)
	}
	asked := r
	if mixed {
		// Ids of the other width sort inside the condition's text: read,
		// and left out.
		opt.Sift = &rangeSift{sk: q.SKName, enc: enc, asked: asked, order: domain.TimeOrder[dynamo.Item]{Newest: !f.oldestFirst},
			only: fmt.Sprintf("Snowflake ids of %d digits", enc.Width)}
	}
	if unit := domain.WholePeriods(r, enc); unit != "" {
		// Keys that name a day hold all of it: a range inside one is
		// read as that day's key, never refused as between two keys.
		fmt.Fprintf(f.stderr, "the keys count whole %s: read the %s that hold the range, whose items may fall outside it\n", unit, unit)
	}
	if sample.Offsets || enc.ReadsWholeSeconds() {
		// Keys in several UTC offsets compare as their local times: the
		// condition, written in one offset, is read as much wider at each
		// end as they are apart, and only the items in the range asked
		// are written, in time order. Keys whose fractions of a second
		// vary are read whole seconds at each end, and are in key order
		// only to the second.
		r = r.Widen(sample.Spread)
		opt.Sift = &rangeSift{sk: q.SKName, enc: enc, asked: asked, order: domain.TimeOrder[dynamo.Item]{Newest: !f.oldestFirst, Spread: sample.Spread}}
	}
	q.Reverse = !f.oldestFirst
	q.Filter = opt.Filter // after detection, which reads the keys unfiltered
	shown := newShownKeys(enc, q.SKName)
	if f.follow {
		opt.Each = shown.note
	}
	if enc.NeedsPrefix() && f.skPrefix == "" {
		start := time.Now()
		prefixes, n, err := mergedRange(ctx, conn, rc, q, key, tableKeys, r, enc, sample, *f, opt)
		if err == nil && opt.Stopped {
			return rangeStopped(budget, opt, n)
		}
		if err != nil || !f.follow {
			return budgetStop(budget, err, n)
		}
		return followStop(budget, followRange(ctx, rc, *f, q, tableKeys, enc, asked, sample.Spread, opt, start, prefixes, shown, f.stdout, f.stderr))
	}
	if f.skPrefix != "" && enc.NeedsPrefix() {
		if f.skPrefix, err = timeLead(enc, sample.Keys, f.skPrefix, opt.Masked.Hides(f.table, key.SK.Name)); err != nil {
			return err
		}
	}
	q.SK, err = domain.CompileRange(r, enc, f.skPrefix)
	if err != nil {
		return usage("drop --sk-prefix, or see dynascope range --help", "%v", err)
	}
	start := time.Now()
	var n, pages int
	read := "" // how the items were read, after the count: "3 pages"
	if held, ok := heldPartition(ctx, sample, q.Table, f.index, key); ok && !f.follow {
		// The sample's first read held every item the range reads: it
		// is answered from them, no page read, nothing more spent.
		local := *opt
		local.Budget = export.Budget{}
		n, _, err = writeItems(ctx, held, q, f.limit, f.output, f.stdout, f.stderr, &local)
		opt.Scanned = local.Scanned
		fmt.Fprintf(f.stderr, "answered from the time sample, whose reads held all %s: no page read\n", counted(len(sample.Held), "item", "items"))
		read = "from the time sample"
	} else {
		n, pages, err = writeItems(ctx, rc, q, f.limit, f.output, f.stdout, f.stderr, opt)
		read = counted(pages, "page", "pages")
	}
	if stopped(budget, err) {
		err, opt.Stopped = nil, true
	}
	total, _ := conn.client.Session.Totals()
	if q.Filter != nil {
		fmt.Fprintf(f.stderr, "filter %s: scanned=%d matched=%d%s\n", filterShown(opt.Masked, q), opt.Scanned, n, opt.stoppedNote())
	}
	fmt.Fprintf(f.stderr, "%s · %s · %s%s, %s · requests=%d consumedRCU=%.1f%s · %s\n",
		export.OneLine(opt.Masked.ShownQuery(q, "").Describe()), export.OneLine(enc.Name()), counted(n, "item", "items"), opt.Sift.note(), read, total.Requests, total.RCU, billedNote(conn.client.Session), time.Since(start).Round(time.Millisecond))
	if err == nil && opt.Stopped {
		return rangeStopped(budget, opt, n)
	}
	if err != nil || !f.follow {
		return err
	}
	return followStop(budget, followRange(ctx, rc, *f, q, tableKeys, enc, asked, sample.Spread, opt, start, nil, shown, f.stdout, f.stderr))
}

// followStop turns a poll the budget refused into the one line of a
// follow stopped at its budget (exit 3): the range was printed whole, the
// new items up to the stop; following again starts from now.
func followStop(budget *dynamo.Budgeted, err error) error {
	if !stopped(budget, err) {
		return err
	}
	rcu, _ := budget.Spent()
	return partialError{fmt.Sprintf("stopped following at the budget: %.1f of %g RCU, every read counted (the range, then each poll); the range and the new items until now were printed — run again with a larger --max-rcu, or --max-rcu none, to follow on",
		rcu, budget.Max)}
}

// stopped says err is the budget refusing a read.
func stopped(budget *dynamo.Budgeted, err error) bool {
	if budget == nil || err == nil {
		return false
	}
	_, refused := budget.Spent()
	var spent *dynamo.BudgetSpentError
	return refused || errors.As(err, &spent)
}

// budgetStop turns a read the budget refused into the one line of a
// range stopped at its budget (exit 3), n items printed.
func budgetStop(budget *dynamo.Budgeted, err error, n int) error {
	if !stopped(budget, err) {
		return err
	}
	rcu, _ := budget.Spent()
	return partialError{fmt.Sprintf("%s, every read counted (the time sample, the prefixes, the pages); %s printed, in order, not all — run again with a larger --max-rcu",
		stoppedAt(rcu, budget.Max), counted(n, "item", "items"))}
}

// rangeStopped is the one line of a range whose pages stopped at the
// budget (exit 3).
func rangeStopped(budget *dynamo.Budgeted, opt *readOpts, n int) error {
	if budget == nil {
		return stoppedAtBudget("--max-rcu", opt.Budget, opt.Scanned, opt.Mask != nil)
	}
	return budgetStop(budget, &dynamo.BudgetSpentError{}, n)
}

// noKeys writes the range of a partition, or a prefix, that holds no
// key: no item is in any range, so nothing, in the output's own form
// (jsonl nothing, json [], csv the key's header, as items writes an empty
// partition), and one line on stderr saying there are no keys (exit 0,
// as children and versions say an empty level). It was refused as keys
// that "hold no time" (exit 2).
func noKeys(conn *connection, f *rangeFlags, key dynamo.KeySchema, opt *readOpts) error {
	_, err := export.To(f.output, "items", f.stdout, f.stderr, func(w io.Writer, format string, terminal bool) (int, error) {
		if format == "csv" {
			return 0, export.Rows(w, format, dynamo.Rows{Noun: "items", First: []string{key.PK.Name, key.SK.Name}}, terminal)
		}
		return 0, export.NewJSONRows(w, format).Close()
	})
	if err != nil {
		return outputErr(err)
	}
	total, _ := conn.client.Session.Totals()
	fmt.Fprintf(f.stderr, "range: %s, so no item is in any range · 0 items · requests=%d consumedRCU=%.1f%s\n", export.OneLine(noKeysWhere(f, key, opt)), total.Requests, total.RCU, billedNote(conn.client.Session))
	return nil
}

// noKeysWhere says which partition (or prefix) holds no key.
func noKeysWhere(f *rangeFlags, key dynamo.KeySchema, opt *readOpts) string {
	where := "partition " + strconv.QuoteToGraphic(opt.Masked.ShownKey(f.table, key.PK.Name, f.pk, ""))
	if f.index != "" {
		where += " of index " + f.index
	}
	where += " has no keys"
	if f.skPrefix != "" {
		where += " under " + strconv.QuoteToGraphic(opt.Masked.ShownKey(f.table, key.SK.Name, f.skPrefix, ""))
	}
	return where
}

// countdownRefused says the keys count time backwards (newest first in
// key order), which range does not read, and gives the command that
// reads the range asked by its keys (exit 2).
func countdownRefused(c domain.Countdown, f *rangeFlags, q domain.KeyQuery, r domain.TimeRange) error {
	hint := "read them by key: a time range is the keys from its last instant's to its first's"
	if filter, ok := c.ScanFilter(q.PKName, q.PK, q.SKName, r); ok && f.index == "" {
		hint = "read this range by its keys, newest first: " + f.g.command("scan", "--table", f.table, "--filter", filter)
	}
	return usage(hint, "range: the sort keys of %s here count time backwards, newest first (%s), which range does not read", q.SKName, c.Describe())
}

// timeFormatRefused is the one line that refuses a time format that is
// not one, where names whose it is.
func timeFormatRefused(where string, err error) error {
	return usage("give a format such as yyyy-MM-dd'T'HH:mm:ss, yyyyMMdd, epoch-ms, ulid or comm#{time}#{any}", "%s: %v", where, err)
}

// rangeEncoding is the time form of the sort key: --time-format or
// time_format when given (and matching some key), else detected from the
// sample, with what was skipped said on stderr.
func rangeEncoding(f rangeFlags, configured bool, sample dynamo.TimeSample, skName string, number bool, opt *readOpts, stderr io.Writer) (domain.TimeEncoding, error) {
	masked := opt.Masked.Hides(f.table, skName) // keys are then never printed, only counted
	shown := func(k string) string {
		return strconv.QuoteToGraphic(opt.Masked.ShownKey(f.table, skName, k, ""))
	}
	if f.format == "" {
		if !sample.OK {
			seen := ""
			t := domain.InferTemplates(sample.Keys, "#")
			if len(t) > 0 && !masked {
				seen = "; they read as " + export.OneLine(strings.Join(t, ", "))
			}
			forms, timed := domain.TimeForms(sample.Keys)
			if len(forms) > 1 {
				// Times, each key one, in more than one form: not "no
				// time", but no one form to read them all by.
				return domain.TimeEncoding{}, usage("give --time-format with the form to read by (keys in the others fall outside its ranges)",
					"range: the sort keys of %s here hold times in more than one form%s", skName, seen)
			}
			if len(forms) == 1 && timed >= 2 {
				// One form, beside too many keys that are no time (a
				// profile and a contract's revisions beside a small
				// customer's orders) to take it unasked.
				hint := fmt.Sprintf("give --time-format %s to read by it (the keys that are no time fall outside its ranges)", forms[0])
				if p := domain.TimePrefix(sample.Keys); p != "" && f.skPrefix == "" && !masked {
					// One prefix holds them (AUDIT#): reading under it
					// reads those keys only, not every prefix merged.
					hint = fmt.Sprintf("give --sk-prefix %s to read only the keys that hold it, or --time-format %s to read by it (the keys that are no time fall outside its ranges)", domain.ShellQuote(p), forms[0])
				}
				return domain.TimeEncoding{}, usage(hint,
					"range: only %d of the %d sort keys of %s sampled here hold a time (%s), too few to take that form unasked%s", timed, len(sample.Keys), skName, forms[0], seen)
			}
			// Not a failed read: keys not of the shape a range needs,
			// which only the command line can say (exit 2). There are
			// keys here (none is said above, exit 0): said as counted, not
			// "(or there are none)".
			return domain.TimeEncoding{}, usage("check --pk and --sk-prefix, or "+domain.NoTimeHint,
				"range: the %s of %s sampled here hold no time this tool recognises%s", counted(len(sample.Keys), "sort key", "sort keys"), skName, seen)
		}
		// The keys were a sample (the newest and oldest), as the
		// explorer's Time mode says: never read as the partition's all.
		if len(sample.Timeless) > 0 && !masked {
			// Taken by the prefixes that hold a time (a customer's orders
			// beside its profile and addresses): name those that hold none.
			fmt.Fprintf(stderr, "%s: left out of ranges\n", export.OneLine(sample.TimelessNote()))
		} else if note := sample.SampledNote(); note != "" && masked {
			fmt.Fprintf(stderr, "%d of %d keys sampled are not a time (masked): left out of ranges\n", len(sample.Skipped), sample.Total)
		} else if note != "" {
			fmt.Fprintf(stderr, "%s: left out of ranges\n", note)
		}
		if sample.Ambiguous != "" {
			fmt.Fprintf(stderr, "%s\n", sample.Ambiguous) // dates alone: nothing masked
		}
		return sample.Enc, nil
	}
	where := "--time-format"
	if configured {
		where = "time_format in the configuration"
	}
	enc, err := domain.ParseTimeFormat(f.format)
	if err != nil {
		return enc, timeFormatRefused(where, err)
	}
	if enc, err = enc.ForKey(number); err != nil {
		return enc, usage("give a format the key can hold", "%s %q does not fit %s: %v", where, f.format, export.OneLine(skName), err)
	}
	if len(sample.Keys) == 0 {
		return enc, nil
	}
	resolved, ok := enc.Resolve(sample.Keys)
	if ok && resolved.Matches(sample.Keys) > 0 {
		return resolved, nil
	}
	// Name the key tried and what detection reads in the keys, and send
	// the user to detection only when it finds something.
	detected := "detection finds no time in them either"
	advice := "compare the format with the key"
	if sample.OK {
		example := sample.Keys[0]
		for _, k := range sample.Keys {
			if _, ok := sample.Enc.KeyTime(k); ok {
				example = k
				break
			}
		}
		detected = fmt.Sprintf("detection reads them as %s (such as %s)", export.OneLine(sample.Enc.Name()), shown(example))
		advice = fmt.Sprintf("--time-format %s matches them; or leave it out to use what detection reads", domain.ShellQuote(export.OneLine(sample.Enc.TimeFormat())))
	} else if t := domain.InferTemplates(sample.Keys, "#"); len(t) > 0 && !masked {
		detected = "detection finds no time in them either; their keys read as " + export.OneLine(strings.Join(t, ", "))
	}
	return enc, usage(advice, "%s %q matches none of the %d keys of %s read (tried %s); %s",
		where, f.format, len(sample.Keys), export.OneLine(skName), shown(sample.Keys[0]), detected)
}

// timeLead is the text the time follows in the keys sampled under
// --sk-prefix, where the prefix given stops short of it: the bounds are
// written after that text ($sensor#reading_1#at_1740787200000 under
// --sk-prefix '$sensor#reading_1' reads $sensor#reading_1#at_…), never
// after the prefix given and the time's separator, which no key holds
// (a range of nothing, exit 0). Keys under it whose time follows several
// texts are refused, naming them (unless masked): one is to be given.
func timeLead(enc domain.TimeEncoding, keys []string, prefix string, masked bool) (string, error) {
	var leads []string
	for _, k := range keys {
		i, _, _, ok := enc.Locate(k)
		if !ok || i < len(enc.Sep) {
			continue
		}
		if lead := k[:i-len(enc.Sep)]; !slices.Contains(leads, lead) {
			leads = append(leads, lead)
		}
	}
	switch {
	case len(leads) == 1 && strings.HasPrefix(leads[0], prefix) && leads[0] != prefix:
		return leads[0], nil
	case len(leads) > 1:
		shown := ""
		if !masked {
			quoted := make([]string, 0, 3)
			for _, l := range leads[:min(3, len(leads))] {
				quoted = append(quoted, domain.ShellQuote(l))
			}
			shown = ": " + strings.Join(quoted, ", ")
		}
		return "", usage("give --sk-prefix the whole text before the time, one of them, or leave it out to read every prefix merged by time",
			"range: under --sk-prefix the time follows %d different texts%s", len(leads), export.OneLine(shown))
	}
	return prefix, nil
}

// mergedRange reads a range across every prefix the time follows (found
// by the children skip-scan) as one list in time order: one Query per
// prefix, merged, each paged as the merge needs it. It returns the
// prefixes, for --follow.
func mergedRange(ctx context.Context, conn *connection, rc dynamo.Client, q domain.KeyQuery, key dynamo.KeySchema, tableKeys *dynamo.KeySchema,
	r domain.TimeRange, enc domain.TimeEncoding, sample dynamo.TimeSample, f rangeFlags, opt *readOpts) ([]string, int, error) {
	stderr := f.stderr
	noPrefix := func() error {
		return dynamo.Errorf("range", dynamo.KindValidation, "give --sk-prefix, or "+domain.NoTimeHint,
			"no prefix before the time (%s) found in partition %s", enc.Name(), strconv.QuoteToGraphic(opt.Masked.ShownKey(f.table, key.PK.Name, f.pk, "")))
	}
	var pageSize int32
	if f.limit > 0 && q.Filter == nil {
		pageSize = int32(min(f.limit, 1000)) // a screenful a prefix, never the whole partition for --limit 20
	}
	// One read of the partition where that costs less than one Query a
	// prefix (and the walk finding them), judged from the sample.
	m, err := dynamo.RangeAcross(ctx, rc, dynamo.ChildrenRequest{Table: f.table, Index: f.index, Key: key, TableKeys: tableKeys, PK: q.PK}, q, r, enc, pageSize, tableKeys, sample)
	if bad := (dynamo.RangeError{}); errors.As(err, &bad) {
		return nil, 0, usage("see dynascope range --help", "%v", err)
	}
	if err != nil {
		return nil, 0, err // finding the prefixes: a read's error, or the budget's stop
	}
	if len(m.Prefixes) == 0 && !m.Pending() {
		return nil, 0, noPrefix()
	}
	start := time.Now()
	eo := export.Options{Show: opt.Masked.Shower(f.table), Each: opt.Each}
	written := 0            // m.Taken, less the items Sift left out
	var ready []dynamo.Item // read, and next to write (Sift holds what is not yet)
	done := false
	next := func() (dynamo.Item, error) {
		for {
			if f.limit > 0 && written >= f.limit {
				return nil, nil
			}
			if !done && opt.MaxRCU > 0 && m.Cost.RCU >= opt.MaxRCU {
				opt.Stopped, done = true, true
				ready = append(ready, opt.Sift.Flush()...)
				continue
			}
			if len(ready) > 0 {
				it := ready[0]
				ready = ready[1:]
				written++
				return it, nil
			}
			if done {
				return nil, nil
			}
			it, err := m.Next(ctx)
			if b, ok := rc.(*dynamo.Budgeted); ok && stopped(b, err) {
				// The budget refused the next page: what was printed is in
				// order and true, not all.
				opt.Stopped = true
				it, err = nil, nil
			}
			switch {
			case err != nil:
				return nil, err
			case it == nil && opt.Sift != nil:
				ready, done = opt.Sift.Flush(), true
			case it == nil:
				return nil, nil
			case opt.Sift != nil:
				ready = opt.Sift.Take(it)
			default:
				ready = []dynamo.Item{it}
			}
		}
	}
	n, err := export.To(f.output, "items", f.stdout, stderr, func(w io.Writer, format string, terminal bool) (int, error) {
		rows := dynamo.Rows{Noun: "items", First: []string{key.PK.Name, key.SK.Name}}
		out := export.NewJSONRows(w, format)
		for {
			it, err := next()
			if err != nil || it == nil {
				if format == "csv" {
					return len(rows.Rows), errors.Join(err, export.Rows(w, format, rows, terminal))
				}
				return written, errors.Join(err, out.Close())
			}
			if format == "csv" {
				rows.Rows = append(rows.Rows, eo.Plain(it))
				continue
			}
			if err := out.Write(eo.Plain(it)); err != nil {
				return written, err
			}
		}
	})
	if err == nil {
		noteUnseen(stderr, opt.Masked, f.table, q.Filter != nil)
	}
	prefixes, found := m.Prefixes, m.Found
	if err == nil && len(prefixes) == 0 {
		return nil, n, noPrefix()
	}
	if len(m.Queries) == 0 {
		return prefixes, n, outputErr(err)
	}
	noteMergedRange(conn, m, q, key.SK.Name, f, opt, enc, n, found, start)
	return prefixes, n, outputErr(err)
}

// shownPrefixes is how many of a merged range's prefixes its line names.
const shownPrefixes = 8

// noteMergedRange says on stderr what a merged range read: its prefixes,
// the one read or the Queries it sent, what it found and cost (finding
// the prefixes apart).
func noteMergedRange(conn *connection, m *dynamo.MergedRange, q domain.KeyQuery, skName string, f rangeFlags, opt *readOpts, enc domain.TimeEncoding, n int, found dynamo.Cost, start time.Time) {
	stderr, prefixes := f.stderr, m.Prefixes
	// The first few: a partition of thousands of prefixes (a key per
	// order, ORDER#<time>#<id>) wrote every one on this line.
	shown := make([]string, 0, min(len(prefixes), shownPrefixes+1))
	for _, p := range prefixes[:min(len(prefixes), shownPrefixes)] {
		shown = append(shown, opt.Masked.ShownKey(f.table, skName, p, ""))
	}
	if more := len(prefixes) - shownPrefixes; more > 0 {
		shown = append(shown, fmt.Sprintf("… and %d more", more))
	}
	if left := m.Left; len(left) > 0 {
		// Read whole by the walk that found the prefixes, no time in
		// them (account# beside Event#{time}): not queried, said.
		what := fmt.Sprintf("%d %s read whole %s no time", len(left), plural(len(left), "prefix", "prefixes"), map[bool]string{true: "holds", false: "hold"}[len(left) == 1])
		if !opt.Masked.Hides(f.table, skName) {
			what += ": " + export.OneLine(strings.Join(left, ", "))
		}
		fmt.Fprintf(stderr, "%s: left out of ranges\n", what)
	}
	total, _ := conn.client.Session.Totals()
	if q.Filter != nil {
		fmt.Fprintf(stderr, "filter %s: scanned=%d matched=%d%s\n", filterShown(opt.Masked, q), m.Scanned, n, opt.stoppedNote())
	}
	each, sent := "one Query each, like", m.Queries[0]
	switch {
	case m.ReadOnce && m.OnceQuery.Table == "":
		each = "no Query (the time sample read every key, none in the range), each prefix's being"
	case m.ReadOnce:
		each, sent = "read once (costing no more than one Query a prefix), the time kept on our side:", m.OnceQuery
	case len(prefixes) == 1:
		each = "one Query:"
	}
	fmt.Fprintf(stderr, "%s merged by time (%s), %s %s · %s · %s%s, %s · requests=%d consumedRCU=%.1f%s (finding the prefixes: %s, %s) · %s%s\n",
		counted(len(prefixes), "prefix", "prefixes"), strconv.QuoteToGraphic(strings.Join(shown, " ")), each, export.OneLine(opt.Masked.ShownQuery(sent, "").Describe()), export.OneLine(enc.Name()), counted(n, "item", "items"), opt.Sift.note(), counted(m.Pages, "page", "pages"),
		total.Requests, total.RCU, billedNote(conn.client.Session), counted(found.Requests, "request", "requests"), billedWords(found), time.Since(start).Round(time.Millisecond), opt.stoppedNote())
}

// rangeSift writes, of a range read wider than asked (keys in several UTC
// offsets), the items in the range asked, in time order: each is held
// until the read is past every key that can be on its far side, which is
// the keys within the offsets' spread of it (domain.TimeOrder), so the
// items held are those of the last spread read, never the whole range.
type rangeSift struct {
	sk    string
	enc   domain.TimeEncoding
	asked domain.TimeRange
	order domain.TimeOrder[dynamo.Item]
	only  string // the keys written where the sift keeps one width of id (Snowflake ids of 18 digits), else ""
}

func (s *rangeSift) Take(it dynamo.Item) []dynamo.Item {
	kv, ok := dynamo.KeyValueOf(it[s.sk])
	if !ok {
		return nil
	}
	at, ok := s.enc.KeyTime(kv.Text)
	switch {
	case !ok:
		return nil
	case !s.asked.Holds(at):
		return s.order.Pass(at)
	}
	return s.order.Push(at, it)
}

func (s *rangeSift) Flush() []dynamo.Item {
	if s == nil {
		return nil
	}
	return s.order.Flush()
}

// note says on the range's line what the order cost: " in time order
// (keys in UTC offsets up to 10h30m apart: read ±10h30m, 3 items held at
// most)", or nothing where the keys are in one offset.
func (s *rangeSift) note() string {
	if s == nil {
		return ""
	}
	if s.only != "" {
		return " (" + s.only + " only: the others the condition's text holds left out)"
	}
	if s.order.Spread <= 0 { // one offset: the fractions of a second vary (domain.TimeEncoding.ReadsWholeSeconds)
		return fmt.Sprintf(" in time order (fractions of a second of several lengths: whole seconds read at each end, %s held back at most)",
			counted(s.order.MaxHeld, "item", "items"))
	}
	return fmt.Sprintf(" in time order (keys in UTC offsets up to %s apart: read ±%s, %s held back at most)",
		shortSpan(s.order.Spread), shortSpan(s.order.Spread), counted(s.order.MaxHeld, "item", "items"))
}

// shortSpan is a span as 10h30m, 5h, 45m.
func shortSpan(d time.Duration) string {
	s := d.Round(time.Minute).String()
	s = strings.TrimSuffix(s, "0s")
	return strings.TrimSuffix(s, "h0m")
}
