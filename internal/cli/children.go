package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

type childrenFlags struct {
	itemsFlags
	prefix, delimiter string
	count             bool
	countBudget       float64
}

func newChildrenCmd(ctx context.Context, g *globals) *cobra.Command {
	var f childrenFlags
	cmd := &cobra.Command{
		Use:   "children",
		Short: "List the next segments of hierarchical sort keys under a prefix, without reading the subtree",
		Long: `children lists the distinct next segments of the sort keys under --prefix
(STATE#CITY#ZIP: the states, then a state's cities, …) as one JSON document,
in key order. It does not read every item below: once a child is seen, the
next request jumps past its whole subtree (a skip-scan), one small keys-only
Query per child; where children are dense it reads whole pages instead.
--count then counts the items under each child (Select COUNT: this reads
the subtree and costs accordingly). Stats go in "stats".`,
		Example: `  dynascope children --demo --table Locations --pk USA --output json
  dynascope children --demo --table Locations --pk USA --prefix 'NY#'
  dynascope children --demo --table Geography --pk PLACE --prefix 'USA#' --count
  dynascope children --demo --table ChatMessages --pk 'seattle-{1..4}'
  dynascope children --endpoint-url http://localhost:8000 --region us-east-1 --table T --pk p --delimiter '/'`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.validate(); err != nil {
				return err
			}
			if len(f.delimiter) > 1 {
				return usage("give one character, such as '#' or '/'", "--delimiter %q is longer than one character", f.delimiter)
			}
			if err := checkBudget("--count-budget", f.countBudget); err != nil {
				return err
			}
			conf, err := g.loadConfig()
			if err != nil {
				return err
			}
			ts := conf.Table(f.table)
			if !cmd.Flags().Changed("delimiter") {
				f.delimiter = ts.Delimiter
			}
			if !cmd.Flags().Changed("count-budget") && ts.CountBudget > 0 {
				f.countBudget = ts.CountBudget
			}
			conn, err := g.connect(ctx)
			if err != nil {
				return err
			}
			if p, ok := ts.ShardPattern(f.pk); ok {
				f.pk = p // a sharded partition named in the configuration
			}
			pattern := domain.IsPattern(f.pk)
			pkText := f.pk
			if pattern {
				// Describe with the first shard; every shard is typed below.
				if names, err := domain.ExpandPartitions(f.pk); err == nil {
					pkText = names[0]
				}
			}
			q, info, err := keyQuery(ctx, conn.client, itemsFlags{table: f.table, pk: pkText, index: f.index})
			if err != nil {
				return err
			}
			key, _ := info.KeyFor(f.index)
			if err := prefixFits(key, "--prefix", f.prefix); err != nil {
				return err
			}
			shown := f.prefix // as typed: b64:… for a binary sort key
			if key.SK != nil {
				if f.prefix, err = domain.ParseKeyText(key.SK.Type, f.prefix); err != nil {
					return usage("write a binary prefix as b64: and its base64", "--prefix %v", err)
				}
			}
			req := dynamo.ChildrenRequest{Table: f.table, Index: f.index, Key: key, PK: q.PK, Prefix: f.prefix, Delim: f.delimiter}
			if f.index != "" {
				req.TableKeys = &info.Key
			}
			start := time.Now()
			var found []dynamo.ShardChild
			var res dynamo.ChildrenResult
			if pattern {
				shards, err := expandShards(f.pk, key.PK.Type)
				if err != nil {
					return err
				}
				found, res, err = dynamo.ShardedChildren(ctx, conn.client, req, shards, nil)
				if err != nil {
					return err
				}
				for _, c := range found {
					res.Children = append(res.Children, c.Child)
				}
				if f.count {
					return usage("count one shard at a time, or drop --count", "--count does not combine with a partition pattern yet")
				}
			} else {
				res, err = dynamo.Children(ctx, conn.client, req, nil)
				if err != nil {
					return err
				}
				for _, c := range res.Children {
					found = append(found, dynamo.ShardChild{Child: c})
				}
			}
			counts := map[string]int{}
			partial := false
			if f.count && !pattern {
				// The most a count can read is the whole table once.
				if est := float64(info.SizeBytes) / 4096 * 0.5; est > f.countBudget {
					return dynamo.Errorf("count", dynamo.KindValidation, fmt.Sprintf("raise --count-budget above %.0f to count anyway (it stops at the budget)", est),
						"counting may read up to ~%.0f RCU (the table's size), over --count-budget %.0f", est, f.countBudget)
				}
				final := map[string]bool{}
				over, err := dynamo.CountChildren(ctx, conn.client, req, res.Children, 0, f.countBudget, func(p dynamo.CountProgress) {
					if p.Final {
						counts[p.Child], final[p.Child] = p.N, true
					}
				})
				if err != nil {
					return err
				}
				partial = over
			}
			mask, err := g.tableMask(f.table)
			if err != nil {
				return err
			}
			delims := keyDelims(info, f.index, res.Delim)
			level := maskedQuery(res.Level, mask, delims)
			rows := maskChildRows(dynamo.ChildRows(found, key.SK.Type, func(name string) (int, bool) { n, ok := counts[name]; return n, ok }), mask, key, res.Delim)
			total, _ := conn.client.Session.Totals()
			summary := func() {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s · %s · requests=%d consumedRCU=%.1f\n", export.OneLine(level.Describe()), counted(len(found), "child", "children"), total.Requests, total.RCU)
			}
			if f.count {
				markUncounted(rows)
			}
			if f.output != "json" {
				_, err := writeRows(rows, f.output, cmd.OutOrStdout(), cmd.ErrOrStderr())
				summary()
				if err != nil {
					return err
				}
				return countStopped(partial, f.countBudget, total, len(counts), len(res.Children))
			}
			doc := map[string]any{
				"table": f.table, "partitionKey": mask.KeyIf(key.PK.Name, pkLiteral(q.PK, f.pk, pattern), res.Delim),
				"prefix": mask.KeyIf(key.SK.Name, shown, res.Delim), "delimiter": res.Delim,
				"keyCondition": level.Expression(), "values": level.Values(),
				"children": rows.Rows,
				"stats": map[string]any{"requests": total.Requests, "consumedRCU": total.RCU,
					"elapsedMs": time.Since(start).Milliseconds()},
			}
			if res.SelfItem {
				doc["prefixIsItem"] = true
			}
			if partial {
				doc["countsPartial"] = true // stopped at --count-budget
			}
			if err := export.JSONDoc(cmd.OutOrStdout(), doc); err != nil {
				return err
			}
			summary()
			return countStopped(partial, f.countBudget, total, len(counts), len(res.Children))
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.table, "table", "", "table to read (required)")
	fl.StringVar(&f.pk, "pk", "", "partition key value (required), or a shard pattern such as 'seattle-{1..4}'")
	fl.StringVar(&f.index, "index", "", "drill down a GSI or LSI instead of the base table")
	fl.StringVar(&f.prefix, "prefix", "", "sort-key prefix to list under, ending with the delimiter (default: the top level)")
	fl.StringVar(&f.delimiter, "delimiter", "", "segment delimiter (default: detected from the keys: # | / : . - _)")
	fl.StringVarP(&f.output, "output", "o", "json", "json (one document), or the children as rows: jsonl, csv, or a file children.jsonl, children.json (an array), children.csv")
	fl.BoolVar(&f.count, "count", false, "count the items under each child (reads the subtrees)")
	fl.Float64Var(&f.countBudget, "count-budget", 1000, "most RCU --count may spend; refused up front when the table could cost more")
	return cmd
}

// markUncounted marks the children a count did not reach (stopped at its
// budget): no count is not zero.
func markUncounted(rows dynamo.Rows) {
	for i, r := range rows.Rows {
		if row, ok := r.(dynamo.ChildRow); ok && row.Count == nil {
			row.Uncounted = true
			rows.Rows[i] = row
		}
	}
}

// countStopped is the partial exit of a count stopped at its budget.
func countStopped(partial bool, budget float64, total dynamo.Cost, counted, children int) error {
	if !partial {
		return nil
	}
	return partialError{fmt.Sprintf("stopped at the budget: %.1f of %g RCU, %d of %d children counted (the others are marked uncounted), resume with a larger --count-budget", total.RCU, budget, counted, children)}
}

// expandShards expands a partition pattern and types each shard's value.
func expandShards(pattern string, t domain.KeyType) ([]domain.KeyValue, error) {
	names, err := domain.ExpandPartitions(pattern)
	if err != nil {
		return nil, usage("write ranges as {1..4}, lists as {a,b}", "--pk %v", err)
	}
	shards := make([]domain.KeyValue, 0, len(names))
	for _, n := range names {
		v, err := domain.ParseKeyValue(t, n)
		if err != nil {
			return nil, usage("every shard must be a valid key value", "--pk shard %v", err)
		}
		shards = append(shards, v)
	}
	return shards, nil
}

func pkLiteral(v domain.KeyValue, text string, pattern bool) string {
	if pattern {
		return text
	}
	return v.Literal()
}
