package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

type itemsFlags struct {
	commandIO
	table, pk, index, output string
	filter                   string
	maxRCU                   float64
	limit                    int
	reverse                  bool
	resume                   string
}

func (f itemsFlags) validate() error {
	switch {
	case f.table == "":
		return usage(f.g.tablesHint(), "--table is required")
	case f.pk == "":
		return usage("add --pk VALUE, the partition key value to read", "--pk is required")
	case f.limit < 0:
		return usage("give how many items to print, or 0 for all", "--limit %d is negative", f.limit)
	}
	_, path, err := export.Target(f.output)
	if err == nil && path != "" {
		err = export.CheckNewFile(path) // before anything is read
	}
	return outputErr(err)
}

func newItemsCmd(ctx context.Context, g *globals) *cobra.Command {
	var f itemsFlags
	cmd := &cobra.Command{
		Use:   "items",
		Short: "Print a partition's items in sort-key order, one JSON object a line",
		Long: `items prints the items of one partition in sort-key order as plain JSON:
numbers as JSON numbers (exact, never rounded), sets as arrays, binary as
base64. It streams page by page, holding one page at a time, and with
--limit asks DynamoDB for no more items than it will print.

The key condition goes to stderr first; the cost goes to stderr at the end:
requests (every request sent: one DescribeTable, the Query calls, and any
the SDK sent again, which a last line names: "1 network error: retried"),
pages (Query calls), consumed RCU, items and elapsed time.`,
		Example: `  dynascope items --demo --table Locations --pk USA --limit 5
  dynascope items --demo --table DeviceLogs --pk 123 --reverse
  dynascope items --demo --table ChatMessages --index ByTime --pk portland --limit 5 --output json   # by time, not by message id
  dynascope items --endpoint-url http://localhost:8000 --region us-east-1 --table Orders --pk 'c#42' > orders.jsonl`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.bind(cmd, g)
			return runItems(ctx, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.table, "table", "", "table to read (required)")
	fl.StringVar(&f.pk, "pk", "", "partition key value (required); typed by the key: 123 for N, b64:AP4A (base64) for B")
	fl.StringVar(&f.index, "index", "", "read this GSI or LSI instead of the base table")
	fl.IntVar(&f.limit, "limit", 0, "print at most this many items (0: all)")
	fl.BoolVar(&f.reverse, "reverse", false, "descending sort-key order")
	fl.StringVarP(&f.output, "output", "o", "jsonl", "jsonl (one item a line), json (one array), csv, or a file to export to: items.csv, items.jsonl, items.json"+csvNull)
	fl.StringVar(&f.filter, "filter", "", `keep only matching items, in DynamoDB's condition syntax with inline values: 'status = "FAILED" and attempts > 3'`)
	budgetVar(fl, &f.maxRCU, "max-rcu", 0, true, "read no more than this many `RCU` (a filter reads every item it skips); stopped there, exit 3 with how to resume")
	fl.StringVar(&f.resume, "resume", "", "go on from where a read stopped at --max-rcu (the token its message gave)")
	return cmd
}

// runItems prints a partition's items; every flag is checked before it
// connects.
func runItems(ctx context.Context, f *itemsFlags) error {
	if err := f.validate(); err != nil {
		return err
	}
	if _, err := f.onePartition(); err != nil {
		return err
	}
	opt, err := f.readOpts()
	if err != nil {
		return err
	}
	if opt.Mask, err = f.g.tableMask(f.table); err != nil {
		return err
	}
	conn, err := f.g.connect(ctx)
	if err != nil {
		return err
	}
	f.g.readUnder("--max-rcu", f.maxRCU, conn.client.Session)
	q, info, err := keyQuery(ctx, conn.client, *f, opt.Mask)
	if err != nil {
		return err
	}
	q.Filter = opt.Filter
	if err := resumeFits(opt.Start, q, info.Key); err != nil {
		return err
	}
	opt.Masked = masking(conn.client, opt.Mask, info)
	stderr := f.stderr
	fmt.Fprintln(stderr, export.OneLine(opt.Masked.ShownQuery(q, "").Describe()))
	if q.Filter != nil {
		if note := notInIndex(info, f.index, domain.FilterPaths(q.Filter), "read the table's items without --index, or with dynascope scan --filter"); note != "" {
			fmt.Fprintln(stderr, note)
		}
	}
	var largest largestItem
	opt.Each = largest.see
	start := time.Now()
	n, pages, err := writeItems(ctx, conn.client, q, f.limit, f.output, f.stdout, stderr, opt)
	total, _ := conn.client.Session.Totals()
	if q.Filter != nil {
		fmt.Fprintf(stderr, "filter %s: scanned=%d matched=%d%s\n", filterShown(opt.Masked, q), opt.Scanned, n, opt.stoppedNote())
	}
	fmt.Fprintf(stderr, "requests=%d pages=%d consumedRCU=%.1f%s items=%d elapsed=%s\n",
		total.Requests, pages, total.RCU, billedNote(conn.client.Session), n, time.Since(start).Round(time.Millisecond))
	if largest.item != nil {
		fmt.Fprintln(stderr, largest.words(q, info.Key, opt))
	}
	if err == nil && n == 0 && (q.Filter == nil || opt.Scanned == 0) && opt.Start == nil && pages > 0 {
		fmt.Fprintln(stderr, noSuchPartition(f.table, f.index))
	}
	if err == nil && opt.Stopped {
		return stoppedAtBudget("--max-rcu", opt.Budget, opt.Scanned, opt.Mask != nil)
	}
	return err
}

// largestItem is the largest item a read wrote, by its size as DynamoDB
// bills it (dynamo.ItemBytes): an item near the 400 KB limit is a write
// about to fail, and the reason a read costs more than its count says.
type largestItem struct {
	item  dynamo.Item
	bytes int
}

func (l *largestItem) see(it dynamo.Item) {
	if n := dynamo.ItemBytes(it); l.item == nil || n > l.bytes {
		l.item, l.bytes = it, n
	}
}

// words are the stats line's companion: largestItemBytes=N largestItem={key}
// (masked as the items are), and the size beside the limit above 300 KB.
func (l *largestItem) words(q domain.KeyQuery, table dynamo.KeySchema, opt *readOpts) string {
	key := dynamo.Item{}
	// On an index, the table's key too: an index's key is not unique.
	names := []string{q.PKName, q.SKName, table.PK.Name}
	if table.SK != nil {
		names = append(names, table.SK.Name)
	}
	for _, name := range names {
		if v, ok := l.item[name]; ok && name != "" {
			key[name] = v
		}
	}
	s := fmt.Sprintf("largestItemBytes=%d largestItem=%s", l.bytes, jsonLine(dynamo.PlainItem(opt.Masked.ShownItem(q.Table, key))))
	if words, warn := domain.ItemSizeWords(l.bytes); warn {
		s += " (" + words + ")"
	}
	return export.OneLine(s)
}

// billedNote is DynamoDB's figure beside the server's, where the server
// reported less than DynamoDB bills (dynalite's empty reads, moto's 1.0
// for any read), marked as an estimate and saying how it is made
// (dynamo.BilledRCU); "" where they agree.
func billedNote(s *dynamo.Session) string {
	if billed, est := s.Billed(); est {
		return fmt.Sprintf(" billedRCU=%.1f (%s)", billed, estimateWords)
	}
	return ""
}

// billedWords is a part's cost as DynamoDB bills it, marked an estimate
// where the server reported less (the estimate is explained once, by
// billedNote, on the same line).
func billedWords(c dynamo.Cost) string {
	if c.Estimated && c.Billed > c.RCU {
		return fmt.Sprintf("%.1f RCU billed, est.", c.Billed)
	}
	return fmt.Sprintf("%.1f RCU", max(c.RCU, c.Billed))
}

// estimateWords say how a read the server under-reported is billed: what
// its items weigh, at least one read unit.
const estimateWords = "estimate: 0.5 RCU per 4 KB of items sent back, at least 0.5 a read"

// describeKey describes the table and picks the key schema of the base
// table (index "") or of the named index, which it must have.
// tableRead is what a read of one table (or index) under --max-rcu opens
// with: the masks it shows through, the connection, the table described
// and the key read.
type tableRead struct {
	mask *domain.Mask
	conn *connection
	info dynamo.TableInfo
	key  dynamo.KeySchema
}

// openTableRead connects for a read of table (or index) within maxRCU
// (0: none), once every flag is checked, and describes the table.
func (g *globals) openTableRead(ctx context.Context, table, index string, maxRCU float64) (tableRead, error) {
	var t tableRead
	var err error
	if t.mask, err = g.tableMask(table); err != nil {
		return t, err
	}
	if t.conn, err = g.connect(ctx); err != nil {
		return t, err
	}
	g.readUnder("--max-rcu", maxRCU, t.conn.client.Session)
	t.info, t.key, err = describeKey(ctx, t.conn.client, table, index)
	return t, err
}

func describeKey(ctx context.Context, c dynamo.Client, table, index string) (dynamo.TableInfo, dynamo.KeySchema, error) {
	info, _, err := dynamo.DescribeTable(ctx, c, table)
	if err != nil {
		return info, dynamo.KeySchema{}, err
	}
	key, err := info.KeyFor(index)
	if err != nil {
		return info, key, noIndex(info, index)
	}
	return info, key, nil
}

// keyQuery describes the table (or index) to type the partition key value
// by its key schema; a value mistyped for a key the mask covers is not
// repeated in the error.
func keyQuery(ctx context.Context, c dynamo.Client, f itemsFlags, mask *domain.Mask) (domain.KeyQuery, dynamo.TableInfo, error) {
	info, key, err := describeKey(ctx, c, f.table, f.index)
	if err != nil {
		return domain.KeyQuery{}, info, err
	}
	pk, err := f.onePartition()
	if err != nil {
		return domain.KeyQuery{}, info, err
	}
	v, err := domain.ParseKeyValue(key.PK.Type, pk)
	if err != nil {
		// "… is not a number: this key is numeric (N), so type …": the part
		// after the last colon is what to do.
		msg := typedWords(err, pk, mask.Whole(key.PK.Name))
		what, hint := msg, ""
		if i := strings.LastIndex(msg, ": "); i > 0 {
			what, hint = msg[:i], msg[i+2:]
		}
		return domain.KeyQuery{}, info, usage(hint, "--pk %s", what)
	}
	q := domain.KeyQuery{Table: f.table, Index: f.index, PKName: key.PK.Name, PK: v, Reverse: f.reverse}
	if key.SK != nil {
		q.SKName = key.SK.Name
	}
	if err := filterOffKey(f.filter, q); err != nil {
		return q, info, err
	}
	return q, info, nil
}

// filterOffKey refuses, before the Query, a --filter that names the key
// of what is read: DynamoDB (and the embedded backend) refuse it as "Filter
// Expression can only contain non-primary key attributes", which came
// back after the request line, exit 1, "check the key values and names".
func filterOffKey(filter string, q domain.KeyQuery) error {
	if filter == "" {
		return nil
	}
	n, err := domain.ParseFilter(filter)
	if err != nil {
		return nil // said by readOpts
	}
	for _, p := range domain.FilterPaths(n) {
		if len(p) == 0 || p[0].IsIdx || (p[0].Name != q.PKName && p[0].Name != q.SKName) {
			continue
		}
		name := p[0].Name
		what, on := "partition key", q.Table
		if name == q.SKName {
			what = "sort key"
		}
		if q.Index != "" {
			on += " index " + q.Index
		}
		return usage(fmt.Sprintf("say it in dynascope scan --filter '%s = … and …' (--index too): it reads the key's conditions as the Query's key condition", export.OneLine(q.PKName)),
			"--filter names %s, the %s of %s: DynamoDB filters only attributes outside the key", export.OneLine(p.String()), what, export.OneLine(on))
	}
	return nil
}

// noIndex is the one line for an --index the table lacks: which it has.
func noIndex(info dynamo.TableInfo, index string) error {
	names := "it has none"
	if len(info.Indexes) > 0 {
		names = "it has"
		for _, ix := range info.Indexes {
			names += " " + ix.Name
		}
	}
	return usage("check --index; "+names, "table %s has no index %q", info.Name, index)
}

// readOpts are a read's capacity budget and what it did; Filter is the
// parsed --filter, which the query carries.
type readOpts struct {
	Filter domain.FilterNode
	export.Budget
	Mask   *domain.Mask      // --mask and the table's mask, checked before connecting
	Masked *dynamo.Masked    // the mask's layer: what the read shows passes through it
	Each   func(dynamo.Item) // sees each item written (range --follow notes the newest)
	Sift   *rangeSift        // which items read are written, in what order (nil: all, as read; a range read wider than asked)
	Start  dynamo.Item       // --resume: where the read goes on from
}

func (f itemsFlags) readOpts() (*readOpts, error) {
	opt := &readOpts{Budget: export.Budget{MaxRCU: f.maxRCU}}
	if err := checkBudget("--max-rcu", f.maxRCU, true); err != nil {
		return nil, err
	}
	if f.resume != "" {
		start, err := dynamo.ParseResumeToken(f.resume)
		if err != nil {
			return nil, usage("copy the token whole from the message that gave it", "--resume %v", err)
		}
		opt.Start = start
	}
	if f.filter != "" {
		n, err := domain.ParseFilter(f.filter)
		if err != nil {
			return nil, usage(`write it as DynamoDB does, values inline: status = "FAILED" and attempts > 3`, "--filter %v", err)
		}
		if err := (dynamo.SearchRequest{Table: f.table, Filter: n}).Check(); errors.Is(err, dynamo.ErrOverLimit) {
			// Over DynamoDB's 4 KiB or 300 operators an expression: the
			// Query's filter is this one, refused before any request
			// (it was refused after DescribeTable, exit 1).
			return nil, filterRefused(err)
		}
		opt.Filter = n
	}
	return opt, nil
}

// resumeFits refuses a --resume token that is no place in this read: its
// key has other attributes than the table's (and the index's) key, or is
// in another partition. Sent as the start key, the server refuses it as
// a malformed request (exit 1, "check the key values and names"), after
// the read's first line has been printed.
func resumeFits(start dynamo.Item, q domain.KeyQuery, table dynamo.KeySchema) error {
	if start == nil {
		return nil
	}
	want := map[string]bool{q.PKName: true, table.PK.Name: true}
	if q.SKName != "" {
		want[q.SKName] = true
	}
	if table.SK != nil {
		want[table.SK.Name] = true
	}
	fits := len(start) == len(want)
	for name := range start {
		fits = fits && want[name]
	}
	if v, ok := dynamo.KeyValueOf(start[q.PKName]); !ok || v.Type != q.PK.Type || v.Text != q.PK.Text || !bytes.Equal(v.Bytes, q.PK.Bytes) {
		fits = false
	}
	if fits {
		return nil
	}
	on := q.Table
	if q.Index != "" {
		on += " index " + q.Index
	}
	return usage("resume with the --table, --index and --pk of the read that stopped, or leave --resume out to read from the start",
		"--resume was given by another read: its key is no place in the --pk partition of %s", export.OneLine(on))
}

func (o *readOpts) stoppedNote() string {
	if o.Stopped {
		return fmt.Sprintf(" (stopped at --max-rcu %.0f: more may match)", o.MaxRCU)
	}
	return ""
}

// onePartition is the one partition --pk names for a command that reads a
// single partition (items, range): a shard pattern such as
// 'seattle-{1..3}' names several and is refused before anything is read,
// rather than read as a literal key that holds nothing; `\{` is a literal
// brace.
func (f itemsFlags) onePartition() (string, error) {
	pk := f.pk
	if !domain.IsPattern(pk) {
		return pk, nil
	}
	names, err := domain.ExpandPartitions(pk)
	switch {
	case err != nil:
		return "", usage("write ranges as {1..4}, lists as {a,b}, a literal brace as \\{", "--pk %v", err)
	case len(names) > 1:
		all := []string{"--table", f.table}
		if f.index != "" {
			all = append(all, "--index", f.index)
		}
		return "", usage(fmt.Sprintf("read one shard at a time (--pk %s), or all of them merged with %s", domain.ShellQuote(names[0]), f.g.command("children", append(all, "--pk", pk)...)),
			"--pk %s names %d partitions (%s … %s); this command reads one", pk, len(names), names[0], names[len(names)-1])
	}
	return names[0], nil
}

// noSuchPartition says what a read of a whole partition that found no
// item means: a key typed near a real one (usa for USA; ElectroDB writes
// its keys in lower case) read as an empty answer, exit 0, with nothing
// to say the partition is not there.
func noSuchPartition(table, index string) string {
	list := "dynascope --table " + domain.ShellQuote(export.OneLine(table))
	where := "no item has this partition key: there is no such partition"
	if index != "" {
		list += " --index " + domain.ShellQuote(export.OneLine(index))
		where = "no item of index " + export.OneLine(index) + " has this partition key"
	}
	return where + " (keys match exactly: case, spaces and type count; " + list + " lists the partitions)"
}
