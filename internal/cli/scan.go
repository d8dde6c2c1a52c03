package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

// defaultSearchBudget is what a search may spend unless told: a whole
// table scan is the one read whose cost grows with the table.
const defaultSearchBudget = 1000

type scanFlags struct {
	commandIO
	table, index, filter, output, resume string
	segments                             int
	segmentsGiven                        bool // --segments on the command line: 0 is then refused
	maxRCU                               float64
}

func (f scanFlags) validate() error {
	switch {
	case f.table == "":
		return usage(f.g.tablesHint(), "--table is required")
	}
	if err := checkSegments(f.segments); err != nil {
		return err
	}
	if f.segmentsGiven && f.segments == 0 {
		return usage(fmt.Sprintf("give 1 to %d segments, or leave --segments out to have them chosen from the table's size", maxSearchSegments), "--segments 0 is out of range")
	}
	if err := checkToken(f.resume, "scan"); err != nil {
		return err
	}
	return checkOutput(f.output)
}

// checkToken refuses, before connecting, a --resume that is no search
// token at all (whether it is this read's is known once the read is).
func checkToken(token, command string) error {
	if _, ok := dynamo.SearchTokenStreams(token); token != "" && !ok {
		return usage(fmt.Sprintf("copy the token whole from the message of the %s command that stopped", command), "--resume is not a resume token of scan or partiql, or was cut or edited")
	}
	return nil
}

// checkNames refuses, before any request, a table or index name that no
// DynamoDB table or index can have (3 to 255 letters, digits, _ . -),
// which a server would answer only by refusing the request as malformed
// (exit 1, as a failed read). --data and the demo are left to say it:
// their tables are named from files and models.
func checkNames(g *globals, table, index string, what func(kind, name string) string) error {
	if g.demo || len(g.data.paths) > 0 {
		return nil
	}
	for _, n := range [][2]string{{"table", table}, {"index", index}} {
		if n[1] == "" && n[0] == "index" || validName(n[1]) {
			continue
		}
		return usage("`dynascope tables` lists the tables and their indexes", "%s: no %s can be named so: DynamoDB's %s names are 3 to 255 letters, digits, _ . and -", what(n[0], n[1]), n[0], n[0])
	}
	return nil
}

// validName reports whether name can be a DynamoDB table's or index's.
func validName(name string) bool {
	if len(name) < 3 || len(name) > 255 {
		return false
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// checkSegments refuses a --segments out of range (0: not given).
func checkSegments(n int) error {
	if n < 0 || n > maxSearchSegments {
		return usage(fmt.Sprintf("give 1 to %d segments, or leave --segments out to have them chosen from the table's size", maxSearchSegments), "--segments %d is out of range", n)
	}
	return nil
}

// segmentsHelp is partiql's --segments help (scan refuses a 0 given:
// its own help says to leave the flag out).
const segmentsHelp = "read in this many parallel segments (0: chosen from the table's size)"

// maxSearchSegments bounds --segments: each segment's read costs at least
// 0.5 RCU, even empty.
const maxSearchSegments = 64

// checkOutput refuses an --output that is no format or a file that
// cannot be created, before anything is read.
func checkOutput(output string) error {
	_, path, err := export.Target(output)
	if err == nil && path != "" {
		err = export.CheckNewFile(path)
	}
	return outputErr(err)
}

func newScanCmd(ctx context.Context, g *globals) *cobra.Command {
	var f scanFlags
	cmd := &cobra.Command{
		Use:   "scan",
		Short: "Find the items of a whole table or index that match a filter, within a budget",
		Long: `scan reads a whole table (or index) through a filter, in parallel segments,
and prints the matching items as they come, one plain-JSON item a line.
The filter is the one items --filter and the explorer's f take.

A filter that pins the partition key (PK = "x", PK in ("x", "y"), an or of
equalities; on --index, the index's key) is read as the explorer's f reads
it: those partitions by Query, a sort-key condition a Query can say as its
key condition and the rest as its filter; stderr says so, the output and
its stats are the same shape, and --segments is refused (a Query has
none). Where the filter pins the key in a way no Query can read (a number
for a string key, SK <> "x" beside it), it is the Scan, and stderr says why.

DynamoDB bills a filtered Scan for every item it reads, matching or not.
Before the first page, stderr says what a whole scan would cost from the
table's size (as DynamoDB last measured it; unknown where the server
reports none); at the end, items scanned and
matched, requests and RCU as DynamoDB bills them. The budget (--max-rcu,
1000 RCU unless told; none for no limit) is shared by the segments: each
read is sized from the largest item read so far (items are read whole and
filtered here, billed the same; until eight are read, no more items than
were read before: one, one, two, four), so it is never overspent by more than
half a read unit, but by items larger than any read before (the first
read's one item, the first heavy one and any the same read meets after
it: heavy items that keys group come several to a read). Partitions read
by Query are sized each by its own items: the read that enters one is of
one item, as the first read is, and after a run of far heavier items the
reads are sized by the lighter ones after it, each asking for no more
items than would pass what is left by one were they all as heavy (so
heavy items met again cost one item past the budget, as a first one
does). A scan stopped there exits 3 with
a --resume token that goes on where each segment (or Query) stopped (the
same table, index, filter and segments; a Scan's token never resumes the
Queries, nor theirs the Scan), and says what --max-rcu the next read needs
when it is more than the budget; resumed at a budget that pays for no item
of the largest size read before, it reads nothing and exits 2.

--output json writes one document: {"items": [...], "stats": {"requests",
"consumedRCU", "billedRCU", "scanned", "matched", "stopped", "resume"}},
requests counting the Scan (or Query) calls DynamoDB answered and
billed (not the table's description, nor a failed read), scanned the items
they read; stderr's last line gives the same figures.`,
		Example: `  dynascope scan --demo --table Locations --filter 'City = "CEDARVILLE" and DriveThru = true'
  dynascope scan --demo --table Locations --filter 'PK = "JAPAN" and DriveThru = true'   # by Query: one partition
  dynascope scan --demo --table DeviceLogs --filter 'Level = "ERROR" and Temperature > 30' --segments 4 --max-rcu 600
  dynascope scan --demo --table Locations --index ByCity --filter 'begins_with(City, "CEDAR")' --output json
  dynascope scan --demo --table ChatMessages --filter 'contains(Text, "prod")' --segments 4 --max-rcu none --output csv`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.bind(cmd, g)
			f.segmentsGiven = cmd.Flags().Changed("segments")
			return runScan(ctx, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.table, "table", "", "table to scan (required)")
	fl.StringVar(&f.index, "index", "", "scan this GSI or LSI instead of the base table")
	fl.StringVar(&f.filter, "filter", "", `keep only matching items, in DynamoDB's condition syntax with inline values: 'status = "FAILED" and attempts > 3'`)
	fl.IntVar(&f.segments, "segments", 0, "read in `N` parallel segments, 1 to 64 (left out: as many as the table's size calls for)")
	budgetVar(fl, &f.maxRCU, "max-rcu", defaultSearchBudget, true, "read no more than this many `RCU` (every item read counts, matching or not); stopped there, exit 3 with how to resume")
	fl.StringVar(&f.resume, "resume", "", "go on from where a scan stopped at --max-rcu (the token its message gave)")
	fl.StringVarP(&f.output, "output", "o", "jsonl", "jsonl (one item a line), json (one document with items and stats), csv, or a file to export to: found.csv, found.jsonl, found.json"+csvNull)
	return cmd
}

// runScan prints the matches of a whole-table scan; every flag is
// checked before it connects.
func runScan(ctx context.Context, f *scanFlags) error {
	if err := f.validate(); err != nil {
		return err
	}
	if err := checkNames(f.g, f.table, f.index, func(kind, name string) string { return fmt.Sprintf("--%s %q", kind, name) }); err != nil {
		return err
	}
	var filter domain.FilterNode
	if f.filter != "" {
		n, err := domain.ParseFilter(f.filter)
		if err != nil {
			return usage(`write it as DynamoDB does, values inline: status = "FAILED" and attempts > 3`, "--filter %v", err)
		}
		filter = n
	}
	r := dynamo.SearchRequest{Table: f.table, Index: f.index, Filter: filter, Segments: f.segments, MaxRCU: f.maxRCU, Origin: "scan"}
	if err := r.Check(); err != nil {
		return filterRefused(err)
	}
	if f.resume != "" {
		// A token of another read, or edited, is refused before any
		// request: it names its streams, and the rest of the read is
		// known from the flags: the filter's Scan in those segments, or
		// its Queries where it pins the partition key.
		n, _ := dynamo.SearchTokenStreams(f.resume)
		scan := r
		if scan.Segments == 0 {
			scan.Segments = n
		}
		queries := dynamo.FilterQueriesFingerprint(f.table, f.index, filter, "scan", n)
		if _, err := resumeSearch(scan, f.resume, "scan"); err != nil && (f.segmentsGiven || !tokenOf(f.resume, queries)) {
			return err
		}
	}
	open, err := f.g.openTableRead(ctx, f.table, f.index, f.maxRCU)
	if err != nil {
		return err
	}
	mask, conn, info, key := open.mask, open.conn, open.info, open.key
	r.TableBytes = info.SizeBytes
	if r.Segments == 0 {
		r.Segments = searchSegments(info, f.resume)
	}
	masked := masking(conn.client, mask, info)
	// The explorer's f plans the same: Queries where the filter pins
	// the partition key, else the Scan, and why where it pins it all
	// the same.
	fp, err := dynamo.FilterSearch(info, f.index, filter, f.maxRCU, "scan")
	var notFetched *dynamo.NotFetchedError
	if errors.As(err, &notFetched) {
		return usage("leave --index out to read the table's items, or filter only on what the index holds", "--filter: %s", notFetched.Said)
	}
	if err != nil {
		return noMatchRefused(err, masked != nil)
	}
	plan, queries, why, none := fp.Plan, fp.Request, fp.WhyScan, fp.NoMatch
	if none != "" && masked != nil {
		none = "a branch of the filter pins the partition key to what no key is, so it matches no item and is left out (the value would show what --mask hides)"
	}
	var state dynamo.SearchState
	if plan != nil {
		if f.segmentsGiven {
			return usage(fmt.Sprintf("leave --segments out: the filter pins the partition key %s, so scan reads its partition by Query, in key order", export.OneLine(domain.NameText(key.PK.Name))),
				"--segments applies to a Scan, and this filter is read by Query")
		}
		if state, err = resumeSearch(queries, f.resume, "scan"); err != nil {
			return crossPlan(err, f.resume, r.Fingerprint(), "a Scan of this filter", "scan now reads it by Query, the filter pinning the partition key")
		}
		fmt.Fprintln(f.stderr, planLine(explain(*plan, queries, info, masked)))
		fmt.Fprintf(f.stderr, "by Query, not a Scan: the filter pins the partition key %s, so only %s read%s, not the whole %s\n",
			export.OneLine(domain.NameText(key.PK.Name)), counted(partitionsOf(plan.Queries), "partition is", "partitions are"), keysRead(plan.Queries), tableWord(f.index))
		if none != "" {
			fmt.Fprintln(f.stderr, export.OneLine(none))
		}
	} else {
		if state, err = resumeSearch(r, f.resume, "scan"); err != nil {
			n, _ := dynamo.SearchTokenStreams(f.resume)
			return crossPlan(err, f.resume, dynamo.FilterQueriesFingerprint(f.table, f.index, filter, "scan", n), "the Queries of this filter", "scan now reads it by Scan")
		}
		fmt.Fprintf(f.stderr, "scan %s in %s%s\n", export.OneLine(target(f.table, f.index)), counted(r.Segments, "segment", "segments"), filterWords(domain.KeyQuery{Table: f.table, Filter: filter}, masked))
		if why != "" {
			if masked != nil {
				why = "the filter names the partition key in a way no Query can read (the reason would show values --mask hides)"
			}
			fmt.Fprintln(f.stderr, "a Scan, not a Query: "+export.OneLine(why))
		}
		if none != "" {
			fmt.Fprintln(f.stderr, export.OneLine(none))
		}
		fmt.Fprintln(f.stderr, estimateLine(info, f.index, f.maxRCU))
	}
	if note := notInIndex(info, f.index, domain.FilterPaths(filter), "leave --index out to filter the table's items"); filter != nil && note != "" {
		fmt.Fprintln(f.stderr, note)
	}
	return writeSearch(ctx, conn, state, searchOut{
		output: f.output, stdout: f.stdout, stderr: f.stderr, masked: masked,
		first: keyNames(key, info.Key), flag: "--max-rcu",
	})
}

// notInIndex says which attributes a filter or a SELECT names that a
// global index does not hold (dynamo.TableInfo.NotHeld): no item read
// from it has them, so a condition on one holds for none of them,
// whatever the table's items hold (a KEYS_ONLY index of ElectroDB's
// loans, filtered by renewals, matched none); "" when it holds them all.
// instead says how to read them from the table.
func notInIndex(info dynamo.TableInfo, index string, paths []domain.Path, instead string) string {
	said := info.NotHeldSaid(index, paths)
	if said == "" {
		return ""
	}
	return export.OneLine(said + "; " + instead)
}

// noMatchRefused is a filter that matches no item for pinning the
// partition key to what no key is (domain.NoMatchError), refused before
// any Query or Scan: a malformed command line, saying what to write.
func noMatchRefused(err error, masked bool) error {
	var none *domain.NoMatchError
	if !errors.As(err, &none) {
		return err
	}
	if masked {
		return usage("write the key's value as its type: a string in quotes, a number without", "--filter compares a key with what no key is (another type than the key's, or empty), so it matches no item (the value would show what --mask hides)")
	}
	return usage("nothing was read", "--filter: %s", none.Say(false))
}

// filterRefused is a filter DynamoDB would refuse (SearchRequest.Check),
// said before any request.
func filterRefused(err error) error {
	return usage(limitHint(err, `write it as DynamoDB does, values inline: status = "FAILED" and attempts > 3`), "--filter: %s", dynamo.CheckMessage(err))
}

// limitHint is what to write instead of a filter or statement refused
// for one of DynamoDB's limits (its size, its operators), else hint.
func limitHint(err error, hint string) string {
	var de *dynamo.Error
	if errors.Is(err, dynamo.ErrOverLimit) && errors.As(err, &de) {
		return de.Hint
	}
	return hint
}

// searchSegments is a scan's segments when not given: those its resume
// token began with, else as many as the table's size calls for.
func searchSegments(info dynamo.TableInfo, resume string) int {
	if n, ok := dynamo.SearchTokenStreams(resume); ok {
		return n
	}
	return dynamo.SearchSegments(info.SizeBytes)
}

// resumeSearch is r from the start, or from where the --resume token
// says an earlier read of the same command stopped.
func resumeSearch(r dynamo.SearchRequest, token, command string) (dynamo.SearchState, error) {
	var from *dynamo.SearchPosition
	if token != "" {
		var err error
		if from, err = dynamo.ParseSearchToken(token, r.Fingerprint()); err != nil {
			return dynamo.SearchState{}, usage(fmt.Sprintf("resume with the %s command the token came from, as it was given", command), "--resume %v", err)
		}
	}
	s, err := dynamo.StartSearch(r, from)
	if err != nil {
		return s, usage(fmt.Sprintf("resume with the %s command the token came from, as it was given", command), "--resume %v", err)
	}
	return s, nil
}

// tokenOf reports whether token is a resume token of the read whose
// fingerprint is fingerprint.
func tokenOf(token, fingerprint string) bool {
	_, err := dynamo.ParseSearchToken(token, fingerprint)
	return err == nil
}

// crossPlan is a --resume refused (err) by the read planned, said as a
// token of the filter's other plan (whose fingerprint is other) where it
// is one: a Scan's token never goes on as a Query's, nor a Query's as a
// Scan's.
func crossPlan(err error, token, other, given, now string) error {
	if !tokenOf(token, other) {
		return err
	}
	return usage("run it again without --resume", "--resume was given by %s, and %s: it goes on from nowhere in this read", given, now)
}

// partitionsOf is how many partitions queries read: an IN on the sort
// key is a Query a key, several of one partition.
func partitionsOf(queries []domain.KeyQuery) int {
	seen := map[string]bool{}
	for _, q := range queries {
		seen[q.PK.Literal()] = true
	}
	return len(seen)
}

// keysRead says, where queries are more than the partitions they read,
// that each reads one key (an IN on the sort key).
func keysRead(queries []domain.KeyQuery) string {
	if len(queries) == partitionsOf(queries) {
		return ""
	}
	return fmt.Sprintf(" (%d Queries, one a key)", len(queries))
}

// tableWord is what a scan of index ("" for the table) reads whole.
func tableWord(index string) string {
	if index == "" {
		return "table"
	}
	return "index"
}

func target(table, index string) string {
	if index == "" {
		return table
	}
	return table + " index " + index
}

func filterWords(q domain.KeyQuery, m *dynamo.Masked) string {
	if q.Filter == nil {
		return ", no filter"
	}
	return ", filter " + filterShown(m, q)
}

// estimateLine is what a whole read of the table would cost, from the
// size DynamoDB last measured (an index is at most its table's size),
// beside the budget.
func estimateLine(info dynamo.TableInfo, index string, budget float64) string {
	rcu := dynamo.WholeReadRCU(info.SizeBytes)
	what := "a whole scan reads"
	if index != "" {
		what = "a whole scan of the index reads at most"
	}
	b := "no budget (--max-rcu none)"
	if budget > 0 {
		b = fmt.Sprintf("budget %g RCU", budget)
	}
	if info.SizeBytes == 0 {
		// DynamoDB measures a table about every six hours (a new one
		// reads 0 until then), dynalite and moto never: 0 bytes is no
		// size, and no cost of 0 RCU.
		what := "no size"
		if info.ItemCount > 0 {
			what = fmt.Sprintf("%d items but no size", info.ItemCount)
		}
		return fmt.Sprintf("estimate: unknown, the server reports %s for the table (DynamoDB measures it about every six hours; dynalite and moto never); %s", what, b)
	}
	return fmt.Sprintf("estimate: %s about %.1f RCU (%d items, %d bytes as DynamoDB last measured the table); %s",
		what, rcu, info.ItemCount, info.SizeBytes, b)
}

// keyNames are the key attributes, the read's own first: CSV's first
// columns.
func keyNames(key, table dynamo.KeySchema) []string {
	out := []string{key.PK.Name}
	if key.SK != nil {
		out = append(out, key.SK.Name)
	}
	out = append(out, table.PK.Name)
	if table.SK != nil {
		out = append(out, table.SK.Name)
	}
	return out
}

// searchOut is where and how a search's matches are written.
type searchOut struct {
	output         string
	stdout, stderr io.Writer
	masked         *dynamo.Masked // what is written passes through it
	first          []string
	flag           string // the budget's flag, for the stop's message
}

// writeSearch reads s to its end or budget, writes the matches, says on
// stderr what it read and cost, and returns the stop (exit 3) if any.
func writeSearch(ctx context.Context, conn *connection, s dynamo.SearchState, o searchOut) error {
	fingerprint := s.Request.Fingerprint()
	opt := export.SearchOptions{
		Options: export.Options{Show: o.masked.Shower(s.Request.Table)},
		First:   o.first,
		Token: func(s dynamo.SearchState) string {
			if o.masked != nil {
				return "" // a token holds keys, which a mask hides
			}
			return dynamo.SearchToken(fingerprint, s.Position())
		},
	}
	if export.IsTerminal(o.stderr) {
		// On a terminal, the figures so far on one line, redrawn after
		// each step and cleared before the final line.
		opt.Step = func(s export.SearchStats) {
			fmt.Fprintf(o.stderr, "\r\x1b[Kscanned=%d matched=%d requests=%d billedRCU=%.1f…", s.Scanned, s.Matched, s.Requests, s.BilledRCU)
		}
	}
	start := time.Now()
	var stats export.SearchStats
	_, err := export.To(o.output, "items", o.stdout, o.stderr, func(w io.Writer, format string, terminal bool) (int, error) {
		var err error
		stats, err = export.Search(ctx, conn.client, s, format, w, terminal, opt)
		return stats.Matched, err
	})
	if err == nil {
		noteUnseen(o.stderr, o.masked, s.Request.Table, s.Request.Filter != nil)
	}
	if opt.Step != nil {
		fmt.Fprint(o.stderr, "\r\x1b[K")
	}
	fmt.Fprintf(o.stderr, "%s elapsed=%s\n", searchFigures(stats), time.Since(start).Round(time.Millisecond))
	if err != nil {
		if stats.Resume != "" && !isOutputErr(err) {
			return fmt.Errorf("%w; what was read is printed, resume with --resume %s", err, stats.Resume)
		}
		if errors.Is(err, dynamo.ErrOverLimit) {
			return fmt.Errorf("%w; refused before it was sent, so resuming it would be refused again", err)
		}
		if dynamo.Refused(err) && stats.Requests > 0 {
			return fmt.Errorf("%w; what was read is printed; the server refused the read, so resuming it would be refused again", err)
		}
		return outputErr(err)
	}
	if stats.Stopped && stats.Scanned == 0 && stats.Resume != "" && stats.LeastRCU > s.Request.MaxRCU {
		// Resumed at a budget that pays for no item of the largest size
		// read before: nothing was read, and the same again reads
		// nothing: the budget is what is wrong, not a stop to go on from.
		return usage(fmt.Sprintf("resume with --resume %s %s %g or more", stats.Resume, o.flag, math.Ceil(stats.LeastRCU)),
			"%s %g pays for no item of the largest size read before (%g RCU): nothing read", o.flag, s.Request.MaxRCU, stats.LeastRCU)
	}
	if stats.Stopped {
		how := "a larger " + o.flag
		if stats.Resume != "" {
			how = "--resume " + stats.Resume
			if stats.LeastRCU > s.Request.MaxRCU {
				// The next read, of one item of the largest size read,
				// costs more than the budget: the same again reads nothing.
				how += fmt.Sprintf(" and %s %g or more (one item of the largest size read costs %g RCU)", o.flag, math.Ceil(stats.LeastRCU), stats.LeastRCU)
			}
		}
		heavy := ""
		if stats.Resume != "" && stats.LeastRCU >= heavyItemRCU && s.Request.MaxRCU < dynamo.WholePagesRCU {
			// Sized by a heavy item, every read is of an item or a few,
			// each request billed 0.5 RCU however small its items:
			// resuming at this budget costs several times a whole read.
			heavy = fmt.Sprintf("; an item read costs %g RCU, so under %g RCU each read is of an item or a few (0.5 RCU a request however small), and going on costs several times what whole pages do: %s %g or more reads whole pages",
				stats.LeastRCU, dynamo.WholePagesRCU, o.flag, dynamo.WholePagesRCU)
		}
		read := "scanned"
		if len(s.Request.Queries) > 0 {
			read = "read" // by Query: the partitions', not the table's
		}
		return partialError{fmt.Sprintf("%s, %s %s, %d matched%s; more may match, resume with %s",
			searchStoppedAt(stats, s.Request.MaxRCU), counted(stats.Scanned, "item", "items"), read, stats.Matched, heavy, how)}
	}
	return nil
}

// searchStoppedAt starts a search's stop line. A search stops where what
// is left of its budget pays for no item of the largest size read, which
// after a heavy item is well short of the budget: "stopped at the budget:
// 1.0 of 19 RCU" read as if the budget were spent, so the line says what
// was left and what the next read needs.
func searchStoppedAt(stats export.SearchStats, budget float64) string {
	left := budget - stats.BilledRCU
	if left <= 0.5 || stats.LeastRCU <= left {
		return stoppedAtBilled(stats.BilledRCU, stats.ConsumedRCU, budget)
	}
	return fmt.Sprintf("stopped short of the budget: %.1f of %g RCU%s, the %.1f left paying for no read of an item of the largest size read (%g RCU)",
		stats.BilledRCU, budget, reportedLess(stats.BilledRCU, stats.ConsumedRCU), left, stats.LeastRCU)
}

// searchFigures are a search's figures on stderr, the very ones its
// --output json stats hold: requests= counted the table's description
// too (requests=5 beside "requests": 4), which DynamoDB bills nothing.
func searchFigures(s export.SearchStats) string {
	billed := ""
	if s.Estimated && s.BilledRCU > s.ConsumedRCU {
		billed = fmt.Sprintf(" billedRCU=%.1f (%s)", s.BilledRCU, estimateWords)
	}
	return fmt.Sprintf("scanned=%d matched=%d requests=%d consumedRCU=%.1f%s", s.Scanned, s.Matched, s.Requests, s.ConsumedRCU, billed)
}

// heavyItemRCU is what one item costs, read alone, from which a stop says
// that reads sized by it go an item or a few at a time: over 8 KB.
const heavyItemRCU = 1.5

// isOutputErr reports whether err is the output's (a file that could not
// be written), not a read's.
func isOutputErr(err error) bool {
	var te *export.TargetError
	return errors.As(err, &te)
}
