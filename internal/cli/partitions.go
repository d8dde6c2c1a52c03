package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

// partitionsOptions are the partitions command's options.
type partitionsOptions struct {
	commandIO
	table, index, output, resume string
	limit                        int
	maxRCU                       float64
}

func newPartitionsCmd(ctx context.Context, g *globals) *cobra.Command {
	var o partitionsOptions
	cmd := &cobra.Command{
		Use:   "partitions",
		Short: "List a table's (or index's) partition keys without reading every item",
		Long: `partitions lists the distinct partition keys of a table (or of an index) as
the explorer's partitions list does, through the same reads: small
keys-only Scans that jump past each partition's other keys once it is
seen (a skip-scan: a probe of one read unit a partition), or bulk pages
where partitions are small, or, where they are large, parallel Scan
segments. A partition's items are not all read: each row says how many of
its keys were read ("keysRead") and whether that is all of them
("allKeysRead", false where the listing jumped past the rest: the
explorer's 33+, keysRead then a lower bound). keysRead is no item count;
dynascope children --count or items count a partition.

A listing stopped at --max-rcu, or at --limit with more to list, gives a
--resume token that goes on where it stopped (same table and index),
listing no partition again; under --mask it gives none (a token holds
keys). A token goes on from the end of a read: where --limit cut a read
that found more partitions, stderr says so and that a larger --limit
lists them.

Rows come in the order the Scan found them, which is no key order (the
order of the partition key's hash, segment by segment where split). One
JSON object a line by default: {"partitionKey": ..., "keyType": "S", "keysRead": 33, "allKeysRead": false};
a number key is a JSON number, a binary one b64: and its base64.
--output json writes one document: {"partitions": [...], "stats":
{"partitions", "keysRead", "requests", "consumedRCU", "billedRCU",
"allPartitionsListed", "stopped", "resume"}}, keysRead there counting
every key the Scans returned, requests the Scan calls DynamoDB
answered (stderr's summary says the same figures), allPartitionsListed
whether the listing reached the end (with --resume, over the runs
before it too).

--limit N stops once N partitions are listed, its bulk pages sized to
them; stopped with more to list, it says so and exits 0 (it listed what
was asked). --max-rcu (1000 RCU unless told; none for no limit) bounds every
read: each is sized to what is left at the largest item read so far
(items are read whole and cut to their keys here, billed the same), so it
is not overspent by more than half a read unit but by items larger than
any read before. A listing stopped there prints what it listed, exits 3,
and says what it spent and the --resume token that goes on.`,
		Example: `  dynascope partitions --demo --table Locations
  dynascope partitions --demo --table Locations --limit 5 --output json
  dynascope partitions --demo --table Locations --index ByCity --limit 20
  dynascope partitions --demo --table DeviceLogs --max-rcu 50 --output csv`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.bind(cmd, g)
			return runPartitions(ctx, &o)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.table, "table", "", "table whose partitions to list (required)")
	fl.StringVar(&o.index, "index", "", "list a GSI's or LSI's partitions instead of the base table's")
	fl.IntVar(&o.limit, "limit", 0, "stop once this many partitions are listed (0: all)")
	budgetVar(fl, &o.maxRCU, "max-rcu", defaultSearchBudget, true, "read no more than this many `RCU`; stopped there, what was listed is printed, exit 3")
	fl.StringVar(&o.resume, "resume", "", "go on from where a listing stopped at --max-rcu or --limit (the token its message gave): no partition listed again")
	fl.StringVarP(&o.output, "output", "o", "jsonl", "jsonl (one partition a line), json (one document with partitions and stats), csv, or a file to export to: parts.jsonl, parts.json (an array), parts.csv")
	return cmd
}

// validate checks every flag, reading nothing.
func (o *partitionsOptions) validate() error {
	switch {
	case o.table == "":
		return usage(o.g.tablesHint(), "--table is required")
	case o.limit < 0:
		return usage("give how many partitions to list, or 0 for all", "--limit %d is negative", o.limit)
	case o.resume != "" && !dynamo.PartitionsTokenWhole(o.resume):
		return usage("copy the token whole from the message of the partitions command that stopped", "--resume is not a resume token of partitions, or was cut or edited")
	}
	if err := checkNames(o.g, o.table, o.index, func(kind, name string) string { return fmt.Sprintf("--%s %q", kind, name) }); err != nil {
		return err
	}
	return checkOutput(o.output)
}

// partitionRow is a partition as the command prints it.
type partitionRow struct {
	PartitionKey any    `json:"partitionKey"`
	KeyType      string `json:"keyType"`
	KeysRead     int    `json:"keysRead"`
	AllKeysRead  bool   `json:"allKeysRead"`
}

// rowOf is a listed partition as a row: a number key as a JSON number,
// a binary one as domain.KeyText shows it.
func rowOf(k domain.KeyValue, keys int, more bool) partitionRow {
	var v any = k.Arg()
	if k.Type == domain.TypeN {
		v = json.Number(k.Text)
	}
	return partitionRow{PartitionKey: v, KeyType: string(k.Type), KeysRead: keys, AllKeysRead: !more}
}

// runPartitions lists the partition keys; every flag is checked before
// it connects.
func runPartitions(ctx context.Context, o *partitionsOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	open, err := o.g.openTableRead(ctx, o.table, o.index, o.maxRCU)
	if err != nil {
		return err
	}
	mask, conn, info, key := open.mask, open.conn, open.info, open.key
	start := time.Now()
	// The explorer's first read (ui/pages/partitions.go): an index's size
	// is not its table's.
	first := dynamo.FirstPartitions(o.table, key).WithTableSize(info.SizeBytes, info.ItemCount)
	if o.index != "" {
		first = dynamo.FirstIndexPartitions(o.table, o.index, key, info.Key)
	}
	want := math.MaxInt
	if o.limit > 0 {
		want, first.Rows = o.limit, o.limit
	}
	if o.resume != "" {
		if first, err = dynamo.ResumePartitions(first, o.resume); err != nil {
			return usage("resume with the partitions command the token came from, as it was given", "--resume %v", err)
		}
	}
	var client dynamo.Client = conn.client
	var budget *dynamo.Budgeted
	if o.maxRCU > 0 {
		budget = &dynamo.Budgeted{Client: conn.client, Max: o.maxRCU}
		if o.index == "" {
			budget.TableBytes = info.SizeBytes // each item read once
		}
		client = budget
	}
	masked := masking(client, mask, info)
	if masked != nil {
		client = masked
	}
	res, err := dynamo.ListPartitions(ctx, client, first, want)
	stop := stopped(budget, err)
	if err != nil && !stop {
		return err
	}
	n := min(len(res.Partitions), want)
	rows := dynamo.Rows{Noun: "partitions", First: []string{"partitionKey", "keyType", "keysRead", "allKeysRead"}, Rows: make([]any, n)}
	for i := range n {
		rows.Rows[i] = rowOf(res.Partitions[i], res.Keys[i], res.More[i])
	}
	all := err == nil && res.Next == nil && n == len(res.Partitions)
	// Stopped by --limit with more to list: said, and a token given as a
	// budget stop gives one (the listing stopped there said nothing).
	limited := o.limit > 0 && !stop && !all
	token := ""
	if (stop || limited) && res.Next != nil && masked == nil && n == len(res.Partitions) {
		// A token holds keys, which a mask hides; and it goes on past
		// every partition read, so only where all of them are printed.
		token = dynamo.PartitionsToken(*res.Next)
	}
	if o.output == "json" {
		stats := map[string]any{
			"partitions": n, "keysRead": res.Read, "requests": res.Pages, "consumedRCU": res.Cost.RCU, "billedRCU": res.Cost.Billed,
			"allPartitionsListed": all, "stopped": stop,
		}
		if token != "" {
			stats["resume"] = token
		}
		doc := map[string]any{"partitions": rows.Rows, "stats": stats}
		if err := export.JSONDoc(o.stdout, doc); err != nil {
			return err
		}
	} else if _, err := writeRows(rows, o.output, o.stdout, o.stderr); err != nil {
		return err
	}
	listed := "every one"
	switch {
	case !all:
		listed = "more not listed"
	case o.resume != "":
		listed = "the rest, to the end"
	}
	// The figures the stats hold: the table's description, billed
	// nothing, is no request of the listing's (requests=7 beside 6).
	billed := ""
	if res.Cost.Estimated {
		billed = fmt.Sprintf(" billedRCU=%.1f (%s)", res.Cost.Billed, estimateWords)
	}
	fmt.Fprintf(o.stderr, "%s · partitions=%d (%s) keysRead=%d requests=%d consumedRCU=%.1f%s elapsed=%s\n",
		export.OneLine(target(o.table, o.index)), n, listed, res.Read, res.Pages, res.Cost.RCU, billed, time.Since(start).Round(time.Millisecond))
	if limited {
		// A token goes on after a read's last partition: one that found
		// more than the limit has none to give.
		how := fmt.Sprintf("a larger --limit lists them (its reads found %d; a token goes on only from the end of a read)", len(res.Partitions))
		switch {
		case token != "":
			how = "go on with --resume " + token + " (no partition listed again)"
		case masked != nil:
			how = "a larger --limit lists more (no token under --mask: it holds keys)"
		}
		more := fmt.Sprintf("the %s not read to its end, so more partitions may exist", tableWord(o.index))
		if n < len(res.Partitions) {
			more = "more partitions were found than listed"
		}
		fmt.Fprintf(o.stderr, "--limit %d reached, %s: %s\n", o.limit, more, how)
	}
	if stop {
		how := "run again with a larger --max-rcu (the listing starts again from the first key)"
		if token != "" {
			how = "resume with --resume " + token + " (no partition listed again)"
		}
		return partialError{fmt.Sprintf("%s; %s listed, the %s not read to its end, so more partitions may exist — %s",
			stoppedAtBilled(res.Cost.Billed, res.Cost.RCU, o.maxRCU), counted(n, "partition", "partitions"), tableWord(o.index), how)}
	}
	return nil
}
