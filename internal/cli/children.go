package cli

import (
	"context"
	"fmt"
	"strings"
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
next request jumps past its whole subtree (a skip-scan): one Query of one
read unit (0.5 RCU) per child, and besides them the reads that find no
child (past the last child, at the end of each stretch of a level walked in
parallel, guessed names not used). Below the top level its first read is
a first page of whole items (128 where the table's item size is not
known), so a level of items alone (a leaf) is one Query, as a plain query
is. Where children are dense (a read sees one of 8 read units or less end)
it reads the rest of the level in whole pages in parallel stretches
instead, in about as many round trips as reading the level whole, never
more RCU, never a key twice: the demo's 53 states take 2 Queries and 66.5
RCU, the full read's (probing each: 69-70 and 34.5). Where the table's
item size is known (DescribeTable; dynalite gives none) the top level's
first read is such a page too, so a dense level takes two round trips.
--count lists and counts from one read of the
level (keys only, in parallel key-range stretches): it costs what reading
the level costs, within --count-budget, which covers every read; a count
stopped at the budget exits 3 saying what it spent and how to go on.
Under a budget that pays no whole page (175 RCU) it keeps a tenth of it
back (2.5 RCU at least, half at most) and counts with the rest; where it
stops a walk lists the rest of the level's children (marked uncounted)
before the count goes on with what is left; what the walk read whole is
counted from its keys, not read again (the count reads only the gaps
between the pages the walk read whole); where the count stops past a
whole page of small children, it goes on with that tenth instead (a
walk would read what it reads). Its reads are whole pages wherever what
is left pays one (1 MB and the largest item read), then one after
another, each sized to all that is left: a budget of the level's full
read (a plain paged Query, as --return-consumed-capacity TOTAL bills
it) counts a level of small children whole, for at most half an RCU
more. Elsewhere its reads grow from the items read before them, each
billed in whole read units: on a level of 128 RCU or less, or of items
of very different sizes, a budget a few RCU past the full read may be
needed, and where a budget of 200 RCU or more has it read in stretches
at once, half an RCU a stretch more.
--max-rcu bounds every read of the command, the walk's too (so does
--count-budget given without --count): a walk stopped there prints the
children it found, marked partial, and exits 3. Each read is sized from
the largest item read before it (a skip past a child from what was read
of the others, not of the child it leaves), so a budget is never overspent by more
than half a read unit but by the items larger than any read before that
a read meets (an item's size is known only once it is read: a 350 KB item
met after small ones costs its 43 RCU whatever is left, and a read sized
from 100-byte items that runs into 40 KB ones pays for every one it
reads, up to a 1 MB page, 128 RCU: --count-budget 5 on such a level
spent 100), as scan's budget. A command that finished whole past its
budget so ends with a line on stderr saying by how much (exit 0).
Stats go in "stats".`,
		Example: `  dynascope children --demo --table Locations --pk USA --output json
  dynascope children --demo --table Locations --pk USA --prefix 'NY#'
  dynascope children --demo --table Geography --pk PLACE --prefix 'USA#' --count
  dynascope children --demo --table ChatMessages --pk 'seattle-{1..4}'
  dynascope children --demo --table Locations --pk USA --max-rcu 100
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
	fl.StringVar(&f.delimiter, "delimiter", "", "segment delimiter, or none to list every key whole (default: detected from the keys: # | / : . - _, a pair of one such as ::, another mark such as § or →; none when none repeats)")
	fl.StringVarP(&f.output, "output", "o", "json", "json (one document), or the children as rows: jsonl, csv, or a file children.jsonl, children.json (an array), children.csv"+csvNull)
	fl.BoolVar(&f.count, "count", false, "count the items under each child (reads the subtrees)")
	budgetVar(fl, &f.countBudget, "count-budget", 1000, false, "most `RCU` --count may spend: a count that reaches it stops there, printing what it counted, exit 3")
	budgetVar(fl, &f.maxRCU, "max-rcu", 0, true, "read no more than this many `RCU` in all, the walk's reads and --count's; stopped there, the children found so far printed, marked partial, exit 3")
	return cmd
}

// prepare checks every flag and lays the configuration over them, reading
// nothing: a partition pattern (given, or named in the configuration)
// with --count is refused before any walk.
func (f *childrenFlags) prepare() (*domain.Mask, error) {
	if err := f.validate(); err != nil {
		return nil, err
	}
	if domain.DelimiterTooLong(f.delimiter) {
		return nil, usage("give the one to three characters between levels, such as '#', '§' or '::', or none to split nothing", "--delimiter %q is longer than three characters", f.delimiter)
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
	if f.count {
		b, flag := f.countBudgetOf()
		f.g.readUnder(flag, b, conn.client.Session)
	} else {
		b, flag := f.walkBudget()
		f.g.readUnder(flag, b, conn.client.Session)
	}
	pattern := domain.IsPattern(f.pk)
	pkText := f.pk
	if pattern {
		// Describe with the first shard; every shard is typed below.
		if names, err := domain.ExpandPartitions(f.pk); err == nil {
			pkText = names[0]
		}
	}
	q, info, err := keyQuery(ctx, conn.client, itemsFlags{table: f.table, pk: pkText, index: f.index}, mask)
	if err != nil {
		return err
	}
	key, _ := info.KeyFor(f.index)
	if err := f.childrenShape(key); err != nil {
		return err
	}
	if err := prefixFits(key, "--prefix", f.prefix); err != nil {
		return err
	}
	shown := f.prefix // as typed: b64:… for a binary sort key
	if key.SK != nil {
		if f.prefix, err = domain.ParseKeyText(key.SK.Type, f.prefix); err != nil {
			return usage("write a binary prefix as b64: and its base64", "--prefix %v", err)
		}
	}
	req := f.request(key, q.PK, info)
	start := time.Now()
	// Read through the masked layer: the walk reads the real keys and
	// hands on stand-ins, and counts asked of a stand-in count the real.
	var client dynamo.Client = conn.client
	var budget *dynamo.Budgeted
	if b, _ := f.walkBudget(); b > 0 && !f.count {
		// One budget for every read of the walk (--count's pass keeps its
		// own, which sizes its reads by it).
		budget = &dynamo.Budgeted{Client: conn.client, Max: b, Walk: true}
		client = budget
	}
	masked := masking(client, mask, info)
	if masked != nil {
		client = masked
	}
	lv, err := f.readLevel(ctx, client, req, pattern, key)
	walkStopped := stopped(budget, err)
	if err != nil && !walkStopped {
		return err
	}
	found, res, counts, over := lv.found, lv.res, lv.counts, lv.over
	// Masks split keys around the table's delimiter (# when the keys are
	// not split), as they always have.
	maskDelim := res.Delim
	if maskDelim == "" {
		maskDelim = "#"
	}
	level := masked.ShownQuery(res.Level, maskDelim)
	all := childRows(lv, key)
	if res.SelfItem && !pattern {
		// The item keyed by the prefix itself (PROFILE#): a row of its own,
		// first, as it sorts.
		self := dynamo.ChildRow{Prefix: masked.ShownKey(f.table, key.SK.Name, domain.KeyText(key.SK.Type, f.prefix), maskDelim), IsItem: true, Self: true}
		if f.count {
			// One item, known from its key: the counts add up to the
			// level's items only with it.
			one := 1
			self.Count = &one
		}
		all.Rows = append([]any{self}, all.Rows...)
	}
	rows := all
	total, _ := conn.client.Session.Totals()
	described := level.Describe()
	if pattern {
		described += f.shardsNamed(masked, key, maskDelim)
	}
	listedText := counted(len(found), "child", "children")
	if res.SelfItem && !pattern {
		// Its row, first, is the prefix's own item: "0 children" beside
		// the one row listed read as nothing there.
		listedText += " and the item keyed by the prefix itself"
	}
	summary := func() {
		fmt.Fprintf(f.stderr, "%s · %s · requests=%d consumedRCU=%.1f%s\n", export.OneLine(described), listedText, total.Requests, total.RCU, billedNote(conn.client.Session))
	}
	if f.output != "json" {
		_, err := writeRows(rows, f.output, f.stdout, f.stderr)
		summary()
		if err == nil && over {
			err = f.stoppedCounting(conn.client.Session, len(found), len(counts))
		}
		if err == nil && walkStopped {
			err = f.stoppedWalking(conn.client.Session, len(found))
		}
		return err
	}
	doc := map[string]any{
		"table": f.table, "partitionKey": masked.ShownKey(f.table, key.PK.Name, pkLiteral(q.PK, f.pk, pattern), maskDelim),
		"prefix": masked.ShownKey(f.table, key.SK.Name, shown, maskDelim), "delimiter": res.Delim,
		"keyCondition": level.Expression(), "values": level.Values(),
		"children": rows.Rows,
		"stats": map[string]any{"requests": total.Requests, "consumedRCU": total.RCU,
			"elapsedMs": time.Since(start).Milliseconds()},
	}
	if walkStopped || lv.partial {
		doc["childrenPartial"] = true // stopped at the budget: the level not read whole
	}
	if err := export.JSONDoc(f.stdout, levelFacts(doc, res, conn.client.Session, over)); err != nil {
		return err
	}
	summary()
	if over {
		return f.stoppedCounting(conn.client.Session, len(found), len(counts))
	}
	if walkStopped {
		return f.stoppedWalking(conn.client.Session, len(found))
	}
	return nil
}

// stoppedCounting is the one line of a count stopped at its budget (exit
// 3): what it spent, what is partial, how to go on.
func (f *childrenFlags) stoppedCounting(session *dynamo.Session, listed, done int) error {
	budget, flag := f.countBudgetOf()
	return partialError{fmt.Sprintf("%s; %s listed, %d counted in full, the rest of the level not read — run again with a larger %s (counting reads the level once)",
		sessionStop(session, budget), counted(listed, "child", "children"), done, flag)}
}

// stoppedWalking is the one line of a walk stopped at its budget (exit
// 3): what it spent, what it printed, how to go on.
func (f *childrenFlags) stoppedWalking(session *dynamo.Session, listed int) error {
	budget, flag := f.walkBudget()
	return partialError{fmt.Sprintf("%s; %s found so far printed, the level not read whole — run again with a larger %s (the walk starts again from the level's first key)",
		sessionStop(session, budget), counted(listed, "child", "children"), flag)}
}

// sessionStop is the stop line's figure for every read of the session:
// billed, beside what the server reported where that is less.
func sessionStop(session *dynamo.Session, budget float64) string {
	billed, _ := session.Billed()
	total, _ := session.Totals()
	return stoppedAtBilled(billed, total.RCU, budget)
}

// walkBudget is what the walk may spend, and the flag that says so (0: no
// bound): --max-rcu, or --count-budget given without --count (one budget
// for every read of the command), the smaller where both are.
func (f *childrenFlags) walkBudget() (float64, string) {
	b, flag := f.maxRCU, "--max-rcu"
	if f.given("count-budget") && (b == 0 || f.countBudget < b) {
		b, flag = f.countBudget, "--count-budget"
	}
	return b, flag
}

// countBudgetOf is what --count may spend, and the flag that says so:
// --count-budget, or --max-rcu where it is smaller.
func (f *childrenFlags) countBudgetOf() (float64, string) {
	if f.maxRCU > 0 && f.maxRCU < f.countBudget {
		return f.maxRCU, "--max-rcu"
	}
	return f.countBudget, "--count-budget"
}

// request is the children request the flags ask for.
func (f *childrenFlags) request(key dynamo.KeySchema, pk domain.KeyValue, info dynamo.TableInfo) dynamo.ChildrenRequest {
	req := dynamo.ChildrenRequest{Table: f.table, Index: f.index, Key: key, PK: pk, Prefix: f.prefix, Delim: f.delimiter}
	if info.ItemCount > 0 {
		req.ItemBytes = info.SizeBytes / info.ItemCount // the first probe's size: a small leaf in one Query
		req.TableItems = info.ItemCount                 // a small table's level in one Query
	}
	switch {
	case f.delimiter == domain.NoDelimiter:
		req.Delim, req.NoDelim = "", true
	case f.delimiter == "" && key.SK != nil && key.SK.Type == domain.TypeS:
		// A prefix ends with its delimiter (NY#NEWYORKCITY#): a level of
		// leaves under it is still cut at '#', as the explorer's is.
		req.Delim, _ = domain.PrefixDelimiter(f.prefix)
	}
	if f.index != "" {
		req.TableKeys = &info.Key
	}
	return req
}

// levelRead is a level as children read it: its children, and with
// --count their exact counts and whether the budget stopped the count.
type levelRead struct {
	found  []dynamo.ShardChild
	res    dynamo.ChildrenResult
	counts map[string]int
	over   bool
	// partial: the walk that lists what the count did not reach
	// (dynamo.CountListing) stopped at the budget.
	partial bool
}

// readLevel walks the level, or with --count reads it once, listing and
// counting from the same reads under one budget for every read.
func (f *childrenFlags) readLevel(ctx context.Context, c dynamo.Client, req dynamo.ChildrenRequest, pattern bool, key dynamo.KeySchema) (levelRead, error) {
	lv := levelRead{counts: map[string]int{}}
	var err error
	if !f.count {
		lv.found, lv.res, err = walkChildren(ctx, c, req, f.pk, pattern, key)
		return lv, err
	}
	// The pass reads the real keys; through a masked client what it found
	// is shown in stand-ins, its counts keyed by the names shown.
	real, show := c, func(ch dynamo.ShardChild, _ string) dynamo.ShardChild { return ch }
	if m, masked := c.(*dynamo.Masked); masked {
		shown := req
		req = m.RealChildrenRequest(req) // a --pk or --prefix copied from masked output
		real, show = m.Client, func(ch dynamo.ShardChild, d string) dynamo.ShardChild { return m.ShownChild(shown, ch, d) }
	}
	budget, _ := f.countBudgetOf()
	listed, err := dynamo.CountListing(ctx, real, req, budget)
	if err != nil {
		return lv, err
	}
	lv.res, lv.over, lv.partial = listed.Children(), listed.Over, listed.Partial
	d := lv.res.Delim
	if d == "" {
		d = req.Delim
	}
	for i, ch := range lv.res.Children {
		shown := show(dynamo.ShardChild{Child: ch}, d)
		lv.found = append(lv.found, shown)
		lv.res.Children[i] = shown.Child
		if n, exact := listed.Count(ch.Name); exact {
			lv.counts[shown.Name] = n
		}
	}
	return lv, nil
}

// childRows are the level's children as rows, with their exact counts;
// a count stopped at its budget marks the others uncounted.
func childRows(lv levelRead, key dynamo.KeySchema) dynamo.Rows {
	all := dynamo.ChildRows(lv.found, key.SK.Type, func(name string) (int, bool) { n, ok := lv.counts[name]; return n, ok })
	if lv.over {
		for i, row := range all.Rows {
			if cr := row.(dynamo.ChildRow); cr.Count == nil {
				cr.Uncounted = true
				all.Rows[i] = cr
			}
		}
	}
	return all
}

// shardsNamed names every shard of a pattern, for the line on stderr:
// every shard was read, not only the last the level names.
func (f *childrenFlags) shardsNamed(masked *dynamo.Masked, key dynamo.KeySchema, maskDelim string) string {
	var names []string
	for _, v := range shardNames(f.pk) {
		names = append(names, masked.ShownKey(f.table, key.PK.Name, v, maskDelim))
	}
	return fmt.Sprintf(" (each of %d shards: %s)", len(names), strings.Join(names, ", "))
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
		return found, res, err // what it found before a stop at the budget
	}
	if pattern { // the merged children, which the counts count
		for _, c := range found {
			res.Children = append(res.Children, c.Child)
		}
	}
	return found, res, nil
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

// shardNames are the partitions a pattern names.
func shardNames(pattern string) []string {
	names, _ := domain.ExpandPartitions(pattern)
	return names
}

func pkLiteral(v domain.KeyValue, text string, pattern bool) string {
	if pattern {
		return text
	}
	return v.Literal()
}

// levelFacts adds to children's JSON document what holds only sometimes:
// a billed figure estimated, no delimiter, the prefix an item itself, the
// counts stopped at --count-budget.
func levelFacts(doc map[string]any, res dynamo.ChildrenResult, session *dynamo.Session, over bool) map[string]any {
	billedStats(doc, session)
	if res.Delim == "" {
		// No delimiter repeats in the keys (or none was asked, or the level
		// is empty): every key is listed whole, none is split.
		doc["delimiter"] = nil
	}
	if res.SelfItem {
		doc["prefixIsItem"] = true
	}
	if over {
		doc["countsPartial"] = true // stopped at --count-budget
	}
	return doc
}

// billedStats adds to a document's stats DynamoDB's billed figure where
// the server reported less (an estimate, said so), as the summary line
// says it.
func billedStats(doc map[string]any, session *dynamo.Session) map[string]any {
	if billed, est := session.Billed(); est {
		stats := doc["stats"].(map[string]any)
		stats["billedRCU"], stats["billedEstimated"] = billed, true
	}
	return doc
}
