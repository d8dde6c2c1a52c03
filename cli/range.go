package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/dynamo/demo"
	"github.com/dynascope/dynascope/export"
	"github.com/dynascope/dynascope/model"
)

type rangeFlags struct {
	itemsFlags
	skPrefix, last, from, to, before, after, at, format string
	oldestFirst, local                                  bool
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
	if prefix == "" || key.SK == nil || key.SK.Type != model.TypeN {
		return nil
	}
	return usage("drop "+flag+": number sort keys have no prefixes (use --before/--after/--from for ranges)",
		"%s %q: %s is a number key", flag, prefix, key.SK.Name)
}

func typeName(t model.KeyType) string {
	switch t {
	case model.TypeN:
		return "number (N)"
	case model.TypeB:
		return "binary (B)"
	}
	return "string (S)"
}

func newRangeCmd(ctx context.Context, g *globals) *cobra.Command {
	var f rangeFlags
	cmd := &cobra.Command{
		Use:   "range",
		Short: "Query a time range of a partition whose sort key holds time, streaming one item a line",
		Long: `range reads the items of one partition whose sort keys fall in a time range,
newest first, and prints them one plain-JSON item a line as they arrive.
The key condition and the cost go to stderr.

The sort key's time format is detected from its newest keys (one small
Query): epoch seconds, milliseconds or microseconds; ISO-8601 with or
without zone; dates and months; the blog's 2006-01-02:15:04:05; and
composite keys with a prefix before the time (amsg#2018-08-29:12:00:00,
give --sk-prefix amsg) or text after it. The range compiles to the one key
condition (=, <, <=, >, >=, BETWEEN or begins_with) written in that format.
Times without a zone are UTC (--local: this machine's zone).`,
		Example: `  dynascope range --demo --table DeviceLogs --pk 123 --before 1536019200 --output jsonl
  dynascope range --demo --table Metrics --pk cpu.web-1 --last 15m
  dynascope range --demo --table AuditLog --pk prod-api --at 2026-10-31 --oldest-first
  dynascope range --demo --table ChatMessages --pk portland --sk-prefix amsg --at 2018-08
  dynascope range --demo --table DeviceLogs --pk 9000 --from 2026-10-01 --to 2026-10-07 --limit 50`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.validate(); err != nil {
				return err
			}
			text, err := f.rangeText()
			if err != nil {
				return err
			}
			loc := time.UTC
			if f.local {
				loc = time.Local
			}
			now := time.Now()
			if g.demo {
				now = demo.DemoEnd // the demo's data ends at a fixed time, so "last 24h" finds it
			}
			r, err := model.ParseRange(text, now, loc)
			if err != nil {
				return usage("see dynascope range --help for the forms a time takes", "%v", err)
			}
			conn, err := g.connect(ctx)
			if err != nil {
				return err
			}
			q, info, err := keyQuery(ctx, conn.client, f.itemsFlags)
			if err != nil {
				return err
			}
			key, _ := info.KeyFor(f.index)
			if key.SK == nil {
				return dynamo.Errorf("range", dynamo.KindValidation, "a time range needs a sort key that holds time", "table %s has no sort key", f.table)
			}
			if err := prefixFits(key, "--sk-prefix", f.skPrefix); err != nil {
				return err
			}
			var tableKeys *dynamo.KeySchema
			if f.index != "" {
				tableKeys = &info.Key
			}
			if f.format == "" {
				conf, err := g.loadConfig()
				if err != nil {
					return err
				}
				f.format = conf.Table(f.table).TimeFormat
			}
			var enc model.TimeEncoding
			if f.format != "" {
				if enc, err = model.ParseTimeFormat(f.format); err != nil {
					return usage("text formats are detected; give one only to override", "--time-format: %v", err)
				}
			} else {
				sample := q
				if f.skPrefix != "" {
					sample.SK = model.SKCondition{Op: model.SKBeginsWith, A: model.S(f.skPrefix)}
				}
				var found bool
				enc, found, _, err = dynamo.DetectTimeKeys(ctx, conn.client, sample, tableKeys)
				if err != nil {
					return err
				}
				if !found {
					return dynamo.Errorf("range", dynamo.KindValidation, "check --pk and --sk-prefix, or give --time-format",
						"the sort keys of %s here hold no time this tool recognises (or there are none)", key.SK.Name)
				}
			}
			q.SK, err = model.CompileRange(r, enc, f.skPrefix)
			if err == nil && (enc.Kind == model.TimeText) != (key.SK.Type != model.TypeN) {
				// A time format given by --time-format or the configuration
				// that the key's type cannot hold: refused before any Query.
				err = fmt.Errorf("--time-format %s does not fit %s, a %s key", f.format, key.SK.Name, typeName(key.SK.Type))
			}
			if err != nil {
				return usage("add --sk-prefix for composite keys (amsg for amsg#2018-08-29:12:00:00)", "%v", err)
			}
			q.Reverse = !f.oldestFirst
			opt, err := f.readOpts()
			if err != nil {
				return err
			}
			q.Filter = opt.Filter // after detection, which reads the keys unfiltered
			start := time.Now()
			n, pages, err := writeItems(ctx, conn.client, q, f.limit, f.output, cmd.OutOrStdout(), cmd.ErrOrStderr(), opt)
			total, _ := conn.client.Session.Totals()
			if q.Filter != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "filter %s: scanned=%d matched=%d%s\n", export.OneLine(f.filter), opt.Scanned, n, opt.stoppedNote())
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "%s · %s · %d items, %d pages · requests=%d consumedRCU=%.1f · %s\n",
				export.OneLine(q.Describe()), export.OneLine(enc.Name()), n, pages, total.Requests, total.RCU, time.Since(start).Round(time.Millisecond))
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.table, "table", "", "table to read (required)")
	fl.StringVar(&f.pk, "pk", "", "partition key value (required)")
	fl.StringVar(&f.index, "index", "", "query a GSI or LSI whose sort key holds time")
	fl.StringVar(&f.skPrefix, "sk-prefix", "", "text before the time in composite keys (amsg for amsg#2018-08-29:12:00:00)")
	fl.StringVar(&f.last, "last", "", "the last span: 15m, 24h, 7d, 2w")
	fl.StringVar(&f.from, "from", "", "start of a range (inclusive), with --to")
	fl.StringVar(&f.to, "to", "", "end of a range (inclusive: --to 2018-09-04 includes that day)")
	fl.StringVar(&f.before, "before", "", "strictly before a time")
	fl.StringVar(&f.after, "after", "", "strictly after a time (after its whole period: --after 2018-09-04 starts on the 5th)")
	fl.StringVar(&f.at, "at", "", "one period: a month (2018-08), a day, an hour; begins_with where the keys allow")
	fl.StringVar(&f.format, "time-format", "", "epoch-s, epoch-ms, epoch-us or a Go layout (prefix#LAYOUT for composite keys), instead of detecting; config: time_format")
	fl.BoolVar(&f.oldestFirst, "oldest-first", false, "ascending time order (default: newest first)")
	fl.BoolVar(&f.local, "local", false, "read times without a zone in this machine's zone (default UTC)")
	fl.IntVar(&f.limit, "limit", 0, "stop after N items (0: all)")
	fl.StringVarP(&f.output, "output", "o", "jsonl", "jsonl (one item a line), json (one array), csv, or a file to export to: range.csv, range.jsonl, range.json")
	fl.StringVar(&f.filter, "filter", "", `keep only matching items, in DynamoDB's condition syntax with inline values: 'Level = "ERROR"'`)
	fl.Float64Var(&f.maxRCU, "max-rcu", 0, "stop reading once this many RCU are spent (0: no limit); a filter reads every item it skips")
	return cmd
}
