package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/export"
)

// changesOptions are the flags of `changes`.
type changesOptions struct {
	commandIO
	table, pk, prefix string
	since, from       string
	follow            bool
	output            string
	dynamoJSON        bool
	poll              time.Duration // between reads of the open shards when following (tests shorten it)
}

// window is where the records asked for start: zero for all the stream
// holds (24 hours). --since and --from are read by the range bar's
// grammar (domain.WindowStart), as range's --last and --from are.
func (o changesOptions) window(now time.Time) (time.Time, error) {
	start, err := domain.WindowStart(o.since, o.from, now, time.UTC)
	var we *domain.WindowError
	switch {
	case errors.As(err, &we) && we.Both:
		return time.Time{}, usage("give one of --since and --from", "--since and --from both say where to start")
	case errors.As(err, &we) && we.Since:
		return time.Time{}, usage("a stream keeps 24 hours: --since 1h, or --from 2026-11-24T10:00Z for a time", "--since %v", err)
	case err != nil:
		return time.Time{}, usage("write 2026-11-24T10:00Z, or use --since 1h", "--from %v", err)
	case o.since != "" && start.Before(now.Add(-dynamo.StreamRetention)):
		return time.Time{}, usage("give --since 24h or less", "--since %s reaches past what a stream keeps: DynamoDB keeps a stream's records 24 hours", o.since)
	case o.from != "" && start.Before(now.Add(-dynamo.StreamRetention)):
		return time.Time{}, usage("give a time within the last 24 hours, or --since 24h", "--from %s reaches past what a stream keeps: DynamoDB keeps a stream's records 24 hours", o.from)
	}
	return start, nil
}

// validate checks the flags before anything is read.
func (o changesOptions) validate() error {
	switch {
	case o.table == "":
		return usage(o.g.tablesHint(), "--table is required")
	case o.prefix != "" && o.pk == "":
		return usage("add --pk VALUE", "--prefix needs --pk: name the partition whose sort keys it prefixes")
	case o.output != "jsonl" && o.output != "json" && o.output != "csv":
		return usage("use --output jsonl, json or csv", "--output %q is not a format changes writes", o.output)
	case o.follow && o.output != "jsonl":
		return usage("drop --output (follow prints JSON lines as changes arrive)", "--follow streams JSON lines, not --output %s", o.output)
	case o.dynamoJSON && o.output == "csv":
		return usage("drop --dynamodb-json, or use --output jsonl", "--dynamodb-json writes JSON, not CSV")
	}
	_, err := o.window(o.present())
	return err
}

// present is where the stream is read up to: now, or the demo's fixed
// present (its stream's last day ends there).
func (o changesOptions) present() time.Time {
	if o.g != nil && o.g.demo {
		return demo.DemoEnd
	}
	return time.Now()
}

func newChangesCmd(ctx context.Context, g *globals) *cobra.Command {
	o := changesOptions{poll: time.Second}
	cmd := &cobra.Command{
		Use:   "changes",
		Short: "What changed: a table's or a partition's INSERT, MODIFY and REMOVE from its DynamoDB stream, old and new values",
		Long: `changes reads the table's DynamoDB stream, which keeps every write of the
last 24 hours, and prints the records oldest first, for the whole table, one
partition (--pk) or the sort keys of a partition under a prefix (--prefix),
one JSON object a line:

  {"event": "MODIFY", "time": "2026-11-24T05:00:00Z", "keys": {…},
   "old": {…}, "new": {…}, "changed": ["status"]}

Values are plain JSON as items writes them (--dynamodb-json: DynamoDB's own
JSON). changed names the top-level attributes added, removed or changed;
it is null where the stream does not keep both images (KEYS_ONLY, NEW_IMAGE,
OLD_IMAGE streams: stderr says what is missing). --follow goes on printing
each new record as it is written, until Ctrl+C.

Reading a stream costs no table capacity: stderr reports the shards read,
the records scanned and matched, and the GetRecords calls. A table without
a stream says how to enable one; dynascope never does.`,
		Example: `  dynascope changes --demo --table Shop --pk 'c#001'
  dynascope changes --demo --table Shop --pk 'c#001' --prefix 'o#' --since 12h
  dynascope changes --demo --table Shop --pk 'c#001' --mask Email --dynamodb-json
  dynascope changes --demo --table StateLog --since 1h --output csv
  dynascope changes --endpoint-url http://localhost:8000 --region us-east-1 --table Orders --pk 'c#42' --follow`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.bind(cmd, g)
			return runChanges(ctx, &o)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.table, "table", "", "table whose stream to read (required)")
	fl.StringVar(&o.pk, "pk", "", "only this partition's changes; typed by the key: 123 for N, b64:AP4A (base64) for B")
	fl.StringVar(&o.prefix, "prefix", "", "only sort keys beginning with this, e.g. 'ORDER#' (needs --pk)")
	fl.StringVar(&o.since, "since", "", "only changes of the last span, e.g. 15m, 1h, 24h (a stream keeps 24 hours; default: all it holds)")
	fl.StringVar(&o.from, "from", "", "only changes from this time on, e.g. 2026-11-24T10:00Z or 2h ago (as range reads times)")
	fl.BoolVar(&o.follow, "follow", false, "after the changes so far, print each new one as it is written (Ctrl+C stops)")
	fl.StringVarP(&o.output, "output", "o", "jsonl", "jsonl (one change a line), json (one array) or csv"+csvNull)
	fl.BoolVar(&o.dynamoJSON, "dynamodb-json", false, `values in DynamoDB's JSON ({"S": "…"}) rather than plain JSON`)
	return cmd
}

// changeJSON is one change as written, its fields in this order.
type changeJSON struct {
	Event   string         `json:"event"`
	Time    string         `json:"time"`
	Keys    map[string]any `json:"keys"`
	Old     map[string]any `json:"old"`
	New     map[string]any `json:"new"`
	Changed []string       `json:"changed"`
}

// runChanges prints the table's or partition's changes; every flag is
// checked before it connects.
func runChanges(ctx context.Context, o *changesOptions) error {
	g, stderr := o.g, o.stderr
	if err := o.validate(); err != nil {
		return err
	}
	mask, err := g.tableMask(o.table)
	if err != nil {
		return err
	}
	conn, err := g.connect(ctx)
	if err != nil {
		return err
	}
	stream, info, err := dynamo.TableStream(ctx, conn.client, o.table)
	if errors.Is(err, dynamo.ErrNoStream) {
		var e *dynamo.Error
		errors.As(err, &e)
		return usage(e.Hint, "%s", e.Msg)
	}
	if err != nil {
		return err
	}
	sc, err := g.streams(ctx, conn)
	if err != nil {
		return err
	}
	if g.demo && o.follow {
		// Following the demo shows its live workload's writes as they come.
		liveCtx, stop := context.WithCancel(ctx)
		defer stop()
		newLiveDemo(liveCtx).start(conn)
	}
	start := time.Now()
	req, err := o.request(stream, info)
	if err != nil {
		return err
	}
	if note := stream.Missing(); note != "" {
		fmt.Fprintln(stderr, "note: "+note)
	}
	if o.follow {
		fmt.Fprintln(stderr, "reading the stream, then following it for new changes (Ctrl+C stops)")
	}
	masked := masking(conn.client, mask, info)
	sc = masked.Streams(sc, o.table) // the changes come in stand-ins
	shape := func(c dynamo.Change) changeJSON {
		j := changeJSON{Event: c.Event, Time: c.Time.UTC().Format(time.RFC3339Nano), Changed: c.Changed}
		j.Keys, j.Old, j.New = o.values(c.Keys), o.values(c.Old), o.values(c.New)
		return j
	}
	st, err := o.print(ctx, sc, req, shape)
	if err != nil && !(o.follow && ctx.Err() != nil) {
		return err
	}
	o.summary(st, o.where(info, masked), req.Since, time.Since(start))
	if o.follow && ctx.Err() != nil {
		return ctx.Err() // stopped by the user: exit as interrupted
	}
	return nil
}

// request is what the flags ask of the stream.
func (o *changesOptions) request(stream dynamo.StreamInfo, info dynamo.TableInfo) (dynamo.ChangesRequest, error) {
	since, _ := o.window(o.present())
	req := dynamo.ChangesRequest{Stream: stream, PKName: info.Key.PK.Name, Since: since, Now: o.present(), Follow: o.follow, Poll: o.poll,
		CallTimeout: max(30*time.Second, o.g.giveUpAfter())}
	if info.Key.SK != nil {
		req.SKName = info.Key.SK.Name
	}
	if o.pk != "" {
		v, err := domain.ParseKeyValue(info.Key.PK.Type, o.pk)
		if err != nil {
			return req, usage("type the value as the key is typed", "--pk %v", err)
		}
		req.PK, req.Prefix = &v, o.prefix
	}
	return req, nil
}

// where names what is read, masked: the table, or the partition and
// prefix.
func (o *changesOptions) where(info dynamo.TableInfo, masked *dynamo.Masked) string {
	if o.pk == "" {
		return "table " + o.table
	}
	where := "partition " + strconv.QuoteToGraphic(masked.ShownKey(o.table, info.Key.PK.Name, o.pk, ""))
	if o.prefix != "" {
		sk := ""
		if info.Key.SK != nil {
			sk = info.Key.SK.Name
		}
		where += " under " + strconv.QuoteToGraphic(masked.ShownKey(o.table, sk, o.prefix, ""))
	}
	return where
}

// print reads the changes and writes them as --output says: JSON and
// JSON lines as they come (each flushed when following), CSV once all
// are read.
func (o *changesOptions) print(ctx context.Context, sc dynamo.StreamsClient, req dynamo.ChangesRequest, shape func(dynamo.Change) changeJSON) (dynamo.ChangesStats, error) {
	if o.output == "csv" {
		return o.printCSV(ctx, sc, req, shape)
	}
	out := export.NewJSONRows(o.stdout, o.output)
	st, err := dynamo.Changes(ctx, sc, req, func(c dynamo.Change) error {
		if err := out.Write(shape(c)); err != nil {
			return err
		}
		if o.follow {
			return out.Flush() // each as it arrives
		}
		return nil
	})
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return st, err
}

func (o *changesOptions) printCSV(ctx context.Context, sc dynamo.StreamsClient, req dynamo.ChangesRequest, shape func(dynamo.Change) changeJSON) (dynamo.ChangesStats, error) {
	var rows []map[string]any
	st, err := dynamo.Changes(ctx, sc, req, func(c dynamo.Change) error {
		j := shape(c)
		// Every column is in every change, as in its JSON line; an image
		// or a changed list the record does not keep is JSON's null, so
		// CSV's \N (an INSERT's old, a KEYS_ONLY stream's three), never
		// an empty cell, which CSV keeps for what a row does not have.
		row := map[string]any{"event": j.Event, "time": j.Time, "keys": j.Keys, "old": nil, "new": nil, "changed": nil}
		if j.Old != nil {
			row["old"] = j.Old
		}
		if j.New != nil {
			row["new"] = j.New
		}
		if j.Changed != nil {
			row["changed"] = j.Changed
		}
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return st, err
	}
	cols := []string{"event", "time", "keys", "old", "new", "changed"}
	all := map[string]bool{}
	for _, c := range cols {
		all[c] = true
	}
	return st, export.WriteCSV(o.stdout, cols, all, func(each func(map[string]any) error) error {
		for _, r := range rows {
			if err := each(r); err != nil {
				return err
			}
		}
		return nil
	}, export.IsTerminal(o.stdout))
}

// summary says on stderr what reading cost, and that nothing matched.
func (o *changesOptions) summary(st dynamo.ChangesStats, where string, since time.Time, took time.Duration) {
	fmt.Fprintf(o.stderr, "%s: %s read · %s scanned · %s matched · %s (no table capacity) · %s\n", export.OneLine(where),
		counted(st.Shards, "shard", "shards"), counted(st.Scanned, "record", "records"), counted(st.Matched, "change", "changes"),
		counted(st.GetRecords, "GetRecords call", "GetRecords calls"), took.Round(time.Millisecond))
	if st.Matched == 0 {
		from := "in the 24 hours the stream keeps"
		if !since.IsZero() {
			from = "since " + since.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(o.stderr, "no changes %s in %s\n", from, export.OneLine(where))
	}
}

// values is an image (as the masked layer shows it) as written: plain
// JSON, or DynamoDB JSON; nil stays nil (null: not in the record).
func (o changesOptions) values(it dynamo.Item) map[string]any {
	if it == nil {
		return nil
	}
	if !o.dynamoJSON {
		return dynamo.PlainItem(it)
	}
	return dynamo.WireItem(it)
}

// streams is the Streams client beside a connection: the embedded
// backend serves both APIs; a server is reached with the same settings.
func (g *globals) streams(ctx context.Context, conn *connection) (dynamo.StreamsClient, error) {
	if sc := dynamo.StreamsOf(conn.client); sc != nil {
		return sc, nil
	}
	t := g.target(0, conn.client.Session.NoteRetry)
	_, cfg, err := dynamo.Connect(ctx, t)
	if err != nil {
		return nil, err
	}
	// Counted in the session, and in --debug-log, as every other call.
	return dynamo.MeteredStreams{StreamsClient: dynamo.StreamsFromConfig(cfg, t), Session: conn.client.Session}, nil
}
