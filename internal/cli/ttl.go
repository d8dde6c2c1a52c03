package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/export"
)

// ttlNow is the time TTL values are read against; tests fix it.
var ttlNow = time.Now

// defaultTTLBudget is what ttl reads at most unless --max-rcu says
// otherwise: a sample of a large table, not a scan of all of it.
const defaultTTLBudget = 100

type ttlOptions struct {
	commandIO
	table, pk, attribute, output string
	maxRCU                       float64
}

func newTTLCmd(ctx context.Context, g *globals) *cobra.Command {
	var o ttlOptions
	cmd := &cobra.Command{
		Use:   "ttl",
		Short: "Report a table's Time to Live and what its items' TTL values mean",
		Long: `ttl says whether a table's Time to Live is on (DescribeTimeToLive) and on
which attribute, then reads that attribute of a partition (--pk, a Query)
or of the table (a Scan) within --max-rcu (default 100: a sample of a large
table, "sampled": true) and counts the items by what DynamoDB's TTL makes
of them:

  live          epoch seconds still ahead
  expired       epoch seconds past, by five years at most: still read until
                DynamoDB deletes it (typically within two days)
  tooOld        epoch seconds more than five years past, which TTL
                ignores: never deleted
  milliseconds  a number in milliseconds or microseconds: TTL reads it as
                seconds thousands of years ahead, so it never expires
  wrongType     a String (even of digits) or any other type: never expires
  missing       no such attribute: never expires

with the first item of each kind as an example. --attribute checks another
attribute (or one before TTL is turned on).`,
		Example: `  dynascope ttl --demo --table DeviceLogs --pk 123 --attribute Timestamp
  dynascope ttl --demo --table AuditLog --attribute At --max-rcu 10
  dynascope ttl --profile prod --table Sessions --output json | jq .counts`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.bind(cmd, g)
			return runTTL(ctx, &o)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.table, "table", "", "table to report on (required)")
	fl.StringVar(&o.pk, "pk", "", "read only this partition (a Query) rather than sample the table (a Scan)")
	fl.StringVar(&o.attribute, "attribute", "", "read this attribute as TTL would (default: the table's TTL attribute)")
	fl.StringVarP(&o.output, "output", "o", "json", "json (one document)")
	budgetVar(fl, &o.maxRCU, "max-rcu", defaultTTLBudget, true, "read no more than this many `RCU`: the counts are then of a sample (\"sampled\": true)")
	return cmd
}

func runTTL(ctx context.Context, o *ttlOptions) error {
	switch {
	case o.table == "":
		return usage(o.g.tablesHint(), "--table is required")
	case o.output != "json":
		return usage("use --output json", "--output %q is not a format of ttl", o.output)
	}
	if err := checkBudget("--max-rcu", o.maxRCU, true); err != nil {
		return err
	}
	mask, err := o.g.tableMask(o.table)
	if err != nil {
		return err
	}
	conn, err := o.g.connect(ctx)
	if err != nil {
		return err
	}
	now := ttlNow().UTC()
	if o.g.demo {
		now = demo.DemoEnd // the demo's data ends at a fixed time, as range takes it
	}
	var info dynamo.TableInfo
	req := dynamo.TTLRequest{Table: o.table, MaxRCU: o.maxRCU, Now: now}
	if o.pk != "" {
		q, qi, err := keyQuery(ctx, conn.client, itemsFlags{table: o.table, pk: o.pk}, mask)
		if err != nil {
			return err
		}
		info, req.PK = qi, &q.PK
	} else if info, _, err = dynamo.DescribeTable(ctx, conn.client, o.table); err != nil {
		return err
	}
	req.Key = info.Key
	ttl, err := dynamo.TableTTL(ctx, conn.client, o.table)
	if err != nil && (o.attribute == "" || ctx.Err() != nil) {
		return err
	}
	if err != nil {
		// --attribute names what to read: the count goes on without the status.
		fmt.Fprintf(o.stderr, "TTL status unknown: %s\n", export.OneLine(err.Error()))
		ttl = dynamo.TTLInfo{Status: dynamo.TTLUnknown}
	}
	req.Attribute = o.attribute
	if req.Attribute == "" {
		req.Attribute = ttl.Attribute
	}
	doc := map[string]any{"table": o.table, "attribute": req.Attribute, "status": ttl.Status, "tableAttribute": ttl.Attribute}
	if req.Attribute == "" {
		fmt.Fprintf(o.stderr, "TTL is %s on %s and names no attribute: nothing expires, nothing read; --attribute NAME says what an attribute would mean as TTL\n", ttl.Status, export.OneLine(o.table))
		doc["counts"], doc["examples"], doc["sampled"] = map[string]int{"live": 0, "expired": 0, "milliseconds": 0, "wrongType": 0, "missing": 0}, map[string]any{}, false
		doc["stats"] = ttlStats(conn, dynamo.TTLSample{})
		return export.JSONDoc(o.stdout, doc)
	}
	if !ttl.On() {
		fmt.Fprintf(o.stderr, "TTL is %s on %s: DynamoDB deletes nothing; the counts say what %s would mean if it were on\n", ttl.Status, export.OneLine(o.table), export.OneLine(req.Attribute))
	}
	s, err := dynamo.SampleTTL(ctx, conn.client, req)
	if err != nil {
		return err
	}
	masked := masking(conn.client, mask, info)
	counts := map[string]int{}
	for k, n := range s.Counts {
		counts[string(k)] = n
	}
	examples := map[string]any{}
	for k, it := range s.Examples {
		key := dynamo.Item{}
		for _, name := range []string{info.Key.PK.Name, skName(info.Key)} {
			if v, ok := it[name]; ok && name != "" {
				key[name] = v
			}
		}
		ex := map[string]any{"key": dynamo.PlainItem(masked.ShownItem(o.table, key))}
		v, present := it[req.Attribute]
		var plain any
		if present {
			plain = dynamo.Plain(v)
			ex["value"] = dynamo.PlainItem(masked.ShownItem(o.table, dynamo.Item{req.Attribute: v}))[req.Attribute]
		}
		ex["means"] = domain.ReadTTL(plain, present, req.Now).Words(req.Now)
		if !ttl.On() {
			ex["means"] = ex["means"].(string) + " — if TTL were on; it is " + ttl.Status
		}
		examples[string(k)] = ex
	}
	doc["counts"], doc["examples"], doc["sampled"] = counts, examples, s.Sampled
	doc["stats"] = ttlStats(conn, s)
	fmt.Fprintf(o.stderr, "%s %s: %s read%s · %d live, %d expired (not yet deleted), %d never (over five years past), %d never (milliseconds), %d never (wrong type), %d without it\n",
		export.OneLine(o.table), export.OneLine(req.Attribute), counted(s.Items, "item", "items"), sampledWords(s, o.maxRCU),
		s.Counts[domain.TTLLive], s.Counts[domain.TTLExpired], s.Counts[domain.TTLTooOld], s.Counts[domain.TTLMilliseconds], s.Counts[domain.TTLWrongType], s.Counts[domain.TTLMissing])
	return export.JSONDoc(o.stdout, doc)
}

func skName(k dynamo.KeySchema) string {
	if k.SK == nil {
		return ""
	}
	return k.SK.Name
}

func sampledWords(s dynamo.TTLSample, budget float64) string {
	if s.Sampled {
		return fmt.Sprintf(" (a sample: stopped at --max-rcu %g)", budget)
	}
	return ""
}

func ttlStats(conn *connection, s dynamo.TTLSample) map[string]any {
	total, _ := conn.client.Session.Totals()
	return map[string]any{"requests": total.Requests, "pages": s.Pages, "items": s.Items, "consumedRCU": total.RCU, "billedRCU": s.Cost.Billed}
}
