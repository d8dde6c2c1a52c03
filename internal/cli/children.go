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
next request jumps past its whole subtree (a skip-scan), one small Query of
one read unit per child; where children are dense it reads whole pages instead.
--count then counts the items under each child (Select COUNT: this reads
the subtree and costs accordingly). Stats go in "stats".`,
		Example: `  dynascope children --demo --table Locations --pk USA --output json
  dynascope children --demo --table Locations --pk USA --prefix 'NY#'
  dynascope children --demo --table Geography --pk PLACE --prefix 'USA#' --count
  dynascope children --demo --table ChatMessages --pk 'seattle-{1..4}'
  dynascope children --endpoint-url http://localhost:8000 --region us-east-1 --table T --pk p --delimiter '/'`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.bind(cmd, g)
			return runChildren(ctx, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.table, "table", "", "table to read (required)")
	fl.StringVar(&f.pk, "pk", "", "partition key value (required), or a shard pattern such as 'seattle-{1..4}'")
	fl.StringVar(&f.index, "index", "", "drill down a GSI or LSI instead of the base table")
	fl.StringVar(&f.prefix, "prefix", "", "sort-key prefix to list under, ending with the delimiter (default: the top level)")
	fl.StringVar(&f.delimiter, "delimiter", "", "segment delimiter, or none to list every key whole (default: detected from the keys: # | / : . - _; none when none repeats)")
	fl.StringVarP(&f.output, "output", "o", "json", "json (one document), or the children as rows: jsonl, csv, or a file children.jsonl, children.json (an array), children.csv")
	fl.BoolVar(&f.count, "count", false, "count the items under each child (reads the subtrees)")
	budgetVar(fl, &f.countBudget, "count-budget", 1000, false, "most `RCU` --count may spend; refused up front when the table could cost more")
	return cmd
}

// prepare checks every flag and lays the configuration over them, reading
// nothing: a partition pattern (given, or named in the configuration)
// with --count is refused before any walk.
func (f *childrenFlags) prepare() (*domain.Mask, error) {
	if err := f.validate(); err != nil {
		return nil, err
	}
	if len(f.delimiter) > 1 && f.delimiter != domain.NoDelimiter {
		return nil, usage("give one character, such as '#' or '/', or none to split nothing", "--delimiter %q is longer than one character", f.delimiter)
	}
	if err := checkBudget("--count-budget", f.countBudget, false); err != nil {
		return nil, err
	}
	conf, err := f.g.loadConfig()
	if err != nil {
		return nil, err
	}
	ts := conf.Table(f.table)
	if !f.given("delimiter") {
		f.delimiter = ts.Delimiter
	}
	if !f.given("count-budget") && ts.CountBudget > 0 {
		f.countBudget = ts.CountBudget
	}
	if p, ok := ts.ShardPattern(f.pk); ok {
		f.pk = p // a sharded partition named in the configuration
	}
	if f.count && domain.IsPattern(f.pk) {
		return nil, usage("count one shard at a time, or drop --count", "--count does not combine with a partition pattern yet")
	}
	if domain.IsPattern(f.pk) {
		if _, err := domain.ExpandPartitions(f.pk); err != nil {
			return nil, usage("write ranges as {1..4}, lists as {a,b}", "--pk %v", err)
		}
	}
	return f.g.tableMask(f.table)
}

// runChildren lists the next segments under a prefix; every flag is
// checked before it connects.
func runChildren(ctx context.Context, f *childrenFlags) error {
	mask, err := f.prepare()
	if err != nil {
		return err
	}
	conn, err := f.g.connect(ctx)
	if err != nil {
		return err
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
	switch {
	case f.delimiter == domain.NoDelimiter:
		req.Delim, req.NoDelim = "", true
	case f.delimiter == "" && key.SK != nil && key.SK.Type == domain.TypeS:
		// A prefix ends with its delimiter (NY#NEWYORKCITY#): a level of
		// leaves under it is still cut at '#', as the explorer's is.
		req.Delim, _ = domain.TemplateDelimiter(f.prefix)
	}
	if f.index != "" {
		req.TableKeys = &info.Key
	}
	if err := f.checkCountCost(info); err != nil {
		return err // before the walk: nothing is read that would be thrown away
	}
	start := time.Now()
	// Read through the masked layer: the walk reads the real keys and
	// hands on stand-ins, and counts asked of a stand-in count the real.
	var client dynamo.Client = conn.client
	if mask != nil {
		client = dynamo.NewMasked(conn.client, func(string) *domain.Mask { return mask }, nil)
	}
	found, res, err := walkChildren(ctx, client, req, f.pk, pattern, key)
	if err != nil {
		return err
	}
	counts, partial, err := f.countChildren(ctx, client, req, res.Children)
	if err != nil {
		return err
	}
	// Masks split keys around the table's delimiter (# when the keys are
	// not split), as they always have.
	maskDelim := res.Delim
	if maskDelim == "" {
		maskDelim = "#"
	}
	delims := keyDelims(info, f.index, maskDelim)
	level := maskedQuery(res.Level, mask, delims)
	all := dynamo.ChildRows(found, key.SK.Type, func(name string) (int, bool) { n, ok := counts[name]; return n, ok })
	if res.SelfItem && !pattern {
		// The item keyed by the prefix itself (PROFILE#): a row of its own,
		// first, as it sorts.
		self := dynamo.ChildRow{Prefix: mask.KeyIf(key.SK.Name, domain.KeyText(key.SK.Type, f.prefix), maskDelim), IsItem: true, Self: true}
		all.Rows = append([]any{self}, all.Rows...)
	}
	rows := all
	total, _ := conn.client.Session.Totals()
	summary := func() {
		fmt.Fprintf(f.stderr, "%s · %s · requests=%d consumedRCU=%.1f%s\n", export.OneLine(level.Describe()), counted(len(found), "child", "children"), total.Requests, total.RCU, billedNote(conn.client.Session))
	}
	if f.output != "json" {
		_, err := writeRows(rows, f.output, f.stdout, f.stderr)
		summary()
		return err
	}
	doc := map[string]any{
		"table": f.table, "partitionKey": mask.KeyIf(key.PK.Name, pkLiteral(q.PK, f.pk, pattern), maskDelim),
		"prefix": mask.KeyIf(key.SK.Name, shown, maskDelim), "delimiter": res.Delim,
		"keyCondition": level.Expression(), "values": level.Values(),
		"children": rows.Rows,
		"stats": map[string]any{"requests": total.Requests, "consumedRCU": total.RCU,
			"elapsedMs": time.Since(start).Milliseconds()},
	}
	if billed, est := conn.client.Session.Billed(); est {
		stats := doc["stats"].(map[string]any)
		stats["billedRCU"], stats["billedEstimated"] = billed, true
	}
	if res.Delim == "" {
		// No delimiter repeats in the keys (or none was asked, or the level
		// is empty): every key is listed whole, none is split.
		doc["delimiter"] = nil
	}
	if res.SelfItem {
		doc["prefixIsItem"] = true
	}
	if partial {
		doc["countsPartial"] = true // stopped at --count-budget
	}
	if err := export.JSONDoc(f.stdout, doc); err != nil {
		return err
	}
	summary()
	return nil
}

// walkChildren runs the skip-scan on one partition, or on every shard of
// a partition pattern.
func walkChildren(ctx context.Context, c dynamo.Client, req dynamo.ChildrenRequest, pk string, pattern bool, key dynamo.KeySchema) ([]dynamo.ShardChild, dynamo.ChildrenResult, error) {
	var shards []domain.KeyValue
	if pattern {
		var err error
		if shards, err = expandShards(pk, key.PK.Type); err != nil {
			return nil, dynamo.ChildrenResult{}, err
		}
	}
	found, res, err := dynamo.WalkChildren(ctx, c, req, shards, nil)
	if err != nil {
		return nil, res, err
	}
	if pattern { // the merged children, which the counts count
		for _, c := range found {
			res.Children = append(res.Children, c.Child)
		}
	}
	return found, res, nil
}

// checkCountCost refuses --count up front when the table could cost more
// than --count-budget: the most a count can read is the whole table once.
func (f *childrenFlags) checkCountCost(info dynamo.TableInfo) error {
	if est := float64(info.SizeBytes) / 4096 * 0.5; f.count && est > f.countBudget {
		return refusedOverBudget(fmt.Sprintf("raise --count-budget above %.0f to count anyway (it stops at the budget)", est),
			"count: counting may read up to ~%.0f RCU (the table's size), over --count-budget %.0f", est, f.countBudget)
	}
	return nil
}

// countChildren counts the items under each child for --count, stopping
// at --count-budget (partial: some children were not counted).
func (f *childrenFlags) countChildren(ctx context.Context, c dynamo.Client, req dynamo.ChildrenRequest, children []domain.Child) (counts map[string]int, partial bool, err error) {
	counts = map[string]int{}
	if !f.count {
		return counts, false, nil
	}
	var spent float64
	for _, ch := range children {
		cctx, cancel := context.WithCancel(ctx)
		base := spent
		n, err := dynamo.CountChild(cctx, c, req, ch, func(_ int, cost dynamo.Cost) {
			if spent = base + cost.Billed; spent >= f.countBudget {
				cancel()
			}
		})
		cancel()
		if err == nil { // a count cut off at the budget is no count
			counts[ch.Name] = n
		}
		if spent >= f.countBudget {
			return counts, true, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
	return counts, false, nil
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
