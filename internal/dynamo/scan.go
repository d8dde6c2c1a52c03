package dynamo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynascope/dynascope/internal/domain"
)

// A search reads a whole table or index through a filter (a Scan in
// parallel segments, a page of each open one at a time, each from where
// it stopped), or the partitions a PartiQL statement pins (one Query
// each, one partition after another). A budget is shared by the streams:
// each step gives each stream it reads a share of what is left, in whole
// read units, and asks it for no more items than its share pays for at
// the size of the largest item read so far (budgeted.go): the reads of a
// step are all in flight at once, so their shares together are what the
// step may spend. Under a budget the reads ask for whole items and the
// search applies its filter and projection itself (SetLocalMatcher):
// DynamoDB bills every item read the same either way, and only so is the
// size of each item billed known (a filter dropping items on the server
// leaves only the page's total, which bounds its largest item by the sum
// of all it dropped). Before any item is read the largest is taken as
// 400 KB (or the table's size, when smaller), so the first reads are of
// few items unless what is left pays for whole pages; when what is left
// pays for no item of the largest size read, the search stops. Items
// vary, and an item larger than any read before can still overspend by
// what it weighs beyond them, so a step spends at most half of what is
// left and reads at most as many items as were read before it: the
// reads near the budget's end are small and come after most of the
// sizes have been seen. While what is left pays for whole pages (178
// RCU each: 1 MB and the item that crosses it), whole pages are read,
// as many at once as it pays for: they cannot overspend it whatever
// their items weigh. A statement's partitions are sized each by its own
// items (SearchRun): one partition's items tell nothing of the next's, so
// the read that enters a partition is of one item, as the first read of
// all is, and grows from there; and where a run of heavy items ends, the
// reads after it are sized by the lighter items that follow, none asking
// for more than would pass what is left by one item were they all as
// heavy as the partition's heaviest (heavyCap). A resume
// token carries the sizes read, so a resumed search goes on as informed
// as the one that stopped.

// SearchRequest is what a search reads.
type SearchRequest struct {
	Table, Index string
	// Filter, when set, is every page's FilterExpression: DynamoDB reads
	// (and charges for) every item, then returns the matches.
	Filter domain.FilterNode
	// Project are the attribute paths each item is cut to (nil: whole).
	Project []domain.Path
	// Segments is how many parallel Scan segments read the table (0 or 1:
	// one Scan).
	Segments int
	// Queries, when set, are read instead of a Scan, one stream each (a
	// PartiQL statement pinning its partition key); each carries Filter.
	Queries []domain.KeyQuery
	// MaxRCU is the budget, billed as DynamoDB bills (0: none).
	MaxRCU float64
	// Origin names what asked for the read ("scan", "partiql"): part of
	// the fingerprint, so one command's token is refused by another.
	Origin string
	// FilterHere applies Filter here to the whole items read, budget or
	// none: a statement's Queries filtered by a WHERE that names their
	// keys (domain.Plan.FilterNamesKeys), which no FilterExpression of a
	// Query may.
	FilterHere bool
	// Statement, set for a PartiQL statement, is its canonical form
	// (domain.Statement.Canonical): the fingerprint is of it and the
	// streams, not of the plan, so that a token of another statement is
	// refused before the table's keys (which make the plan) are read.
	Statement string
	// TableBytes is the table's size as DescribeTable gave it (0:
	// unknown): no item is larger, which sizes the first reads of a small
	// table under a budget.
	TableBytes int64
}

// SearchStream is where one stream of a search is: not yet read (nil
// Start), going on from Start, or Done.
type SearchStream struct {
	Start Item
	Done  bool
}

// SearchState is a search between steps.
type SearchState struct {
	Request SearchRequest
	Streams []SearchStream
	// Spent is what this run has spent of its budget, billed.
	Spent  float64
	Sizing SearchSizing
	// Want is how many more matches the reader wants now (the explorer:
	// what fills its screens), which sizes the next step's reads to the
	// rate Scanned and Matched tell (searchwant.go); 0: every match, as
	// the budget allows.
	Want int
	// Scanned and Matched count this run's items read and kept.
	Scanned, Matched int
}

// SearchSizing is what the reads so far tell of the items' size, which
// sizes later reads: the RCU billed for the pages that read items, how
// many they read, and the largest item's size in bytes (an upper bound:
// PageLargest). A resume token carries it, so a resumed search reads as
// informed as the one that stopped, not from one item again.
type SearchSizing struct {
	RCU     float64 `json:"r,omitempty"`
	Items   int     `json:"n,omitempty"`
	Largest int     `json:"m,omitempty"`
	// Bytes is what the items read whole weigh (ItemBytes): what they
	// leave of the table's size bounds the items not read yet.
	Bytes int64 `json:"b,omitempty"`
	// Run sizes a statement's reads of the partition it is in (its
	// Queries), not Items and Largest: what one partition's items weigh
	// tells nothing of the next one's (the shop's partitions of 100-byte
	// items before one of 266 KB blobs: sized by the first, the second's
	// first read met five blobs, 128 RCU of a budget of 5).
	Run SearchRun `json:"u,omitzero"`
}

// SearchRun is what the items read of the partition a statement is in
// tell of its items' size: how many were read and the largest (an upper
// bound: PageLargest) since the read entered the partition, or since the
// last of a run of items far heavier than those after it (recoverRatio),
// and the heaviest of the partition (Heavy). A partition entered is read
// from one item, as a search's first read is; after its heavy items the
// reads are sized again by the lighter ones that follow (sized by the
// heaviest, each read one item and stopped: 51 presses of r for the
// small items after six blobs of 108-266 KB), each no larger than would
// pass what is left by one item were all its items as heavy as the
// heaviest (heavyCap): a run of them met again costs what a first item
// does, not a read of them sized by the small ones (94 RCU past 33).
type SearchRun struct {
	Items   int `json:"n,omitempty"`
	Largest int `json:"m,omitempty"`
	Heavy   int `json:"h,omitempty"`
}

// recoverRatio is how much lighter than the largest of its run a read's
// items are when the run starts again from them: the sizes of items of
// one kind (400 to 3,000 bytes) stay within it, a blob's and a record's
// (266 KB, 100 bytes) are far apart.
const recoverRatio = 16

// after is r once a read of items, the largest at most largest bytes,
// answered: its items added, or, where they are all far lighter than the
// run's largest, a run of their own.
func (r SearchRun) after(items, largest int) SearchRun {
	if items <= 0 {
		return r
	}
	heavy := max(r.Heavy, r.Largest, largest)
	if r.Largest > 0 && largest*recoverRatio <= r.Largest {
		return SearchRun{Items: items, Largest: largest, Heavy: heavy}
	}
	return SearchRun{Items: r.Items + items, Largest: max(r.Largest, largest), Heavy: heavy}
}

// heavyCap is the most items a read sized by a run lighter than its
// partition's heaviest item (heavy bytes) may ask for with left RCU left:
// as many as, were each that heavy, would pass what is left by one item
// at most (one, while less than two are left); 0 where no item of the
// partition is heavier than the run's (no bound).
func heavyCap(largest, heavy int, left float64) int32 {
	if heavy <= largest {
		return 0
	}
	return max(ItemsFor(left+ReadCost(1, heavy, false), heavy, false), 1)
}

// SearchPosition is where a search is: each stream's, and what sizes its
// reads; what a resume token holds.
type SearchPosition struct {
	Streams []SearchStream
	Sizing  SearchSizing
}

// Position is where s is.
func (s SearchState) Position() SearchPosition {
	return SearchPosition{Streams: s.Streams, Sizing: s.Sizing}
}

// StartSearch is r before its first step, or, from a resume token's
// position, where an earlier search stopped.
func StartSearch(r SearchRequest, from *SearchPosition) (SearchState, error) {
	n := r.streams()
	if from == nil {
		return SearchState{Request: r, Streams: make([]SearchStream, n)}, nil
	}
	if len(from.Streams) != n {
		return SearchState{}, fmt.Errorf("the token is for %d streams, this read has %d", len(from.Streams), n)
	}
	return SearchState{Request: r, Streams: append([]SearchStream(nil), from.Streams...), Sizing: from.Sizing}, nil
}

func (r SearchRequest) streams() int {
	if len(r.Queries) > 0 {
		return len(r.Queries)
	}
	return max(r.Segments, 1)
}

// Extend is s allowed more RCU than it has spent (the explorer's "go on"
// after a stop), keeping the item sizes it has read to size what follows.
func (s SearchState) Extend(more float64) SearchState {
	s.Request.MaxRCU = s.Spent + more
	return s
}

// LeastRCU is what the next read of s needs at the least: one item of
// the largest size that sizes it (sized; 0.5 RCU before any is read, or
// where it enters a partition). A budget below it stops the search
// before any read.
func (s SearchState) LeastRCU() float64 {
	largest := s.sized().Largest
	if largest <= 0 {
		return minReadUnits
	}
	return ReadCost(1, largest, false)
}

// sized is how many items, the largest how large (0: none read), size
// the next read of s: a Scan's, every item read; a statement's Queries',
// those of the run of the partition being read (Sizing.Run, with its
// heaviest), none where the read enters a partition nothing was read
// from.
func (s SearchState) sized() SearchRun {
	if len(s.Request.Queries) == 0 {
		return SearchRun{Items: s.Sizing.Items, Largest: s.Sizing.Largest}
	}
	for _, st := range s.Streams {
		if !st.Done {
			if st.Start == nil {
				return SearchRun{}
			}
			break
		}
	}
	return s.Sizing.Run
}

// WholePagesRCU is the least budget left that a search reads whole
// pages with, whatever its items weigh (178 RCU: 1 MB and the item that
// crosses it); under it, reads are sized by the largest item read.
const WholePagesRCU = pageRCU

// More reports whether a stream has more to read.
func (s SearchState) More() bool {
	for _, st := range s.Streams {
		if !st.Done {
			return true
		}
	}
	return false
}

// SearchStep is one step of a search: a page from each stream read.
type SearchStep struct {
	Items   []Item // matches, stream by stream
	Pages   int
	Scanned int
	// Answered counts the reads the server answered, each one DynamoDB
	// bills (Cost.Requests counts the failed ones too, billed nothing).
	Answered int
	Cost     Cost
	Next     SearchState
	// Stopped: the budget's remainder pays for no more read, though the
	// search has more (Next.More()).
	Stopped bool
}

// ReadSearch reads the next step of s. After an error the step holds
// what the reads that answered found, and Next reads the failed ones
// again.
func ReadSearch(ctx context.Context, c Client, s SearchState) (SearchStep, error) {
	step := SearchStep{Next: s}
	step.Next.Streams = append([]SearchStream(nil), s.Streams...)
	reads := s.plan()
	if len(reads) == 0 {
		step.Stopped = s.More()
		return step, nil
	}
	pages := make([]Page, len(reads))
	largest := make([]int, len(reads))
	bytes := make([]int64, len(reads))
	errs := make([]error, len(reads))
	inParallel(len(reads), func(i int) {
		rd := reads[i]
		pages[i], largest[i], bytes[i], errs[i] = s.Request.read(ctx, c, rd.stream, s.Streams[rd.stream].Start, rd.limit)
	})
	var failed error
	for i, rd := range reads {
		p := pages[i]
		step.Cost = step.Cost.Add(p.Cost)
		step.Next.Spent += p.Cost.Billed
		if p.Cost.Billed > 0 {
			step.Answered++ // an answer is billed 0.5 RCU at the least
		}
		if errs[i] != nil {
			failed = firstErr(failed, errs[i])
			continue
		}
		step.Pages++
		step.Scanned += p.Scanned
		step.Next.Sizing = step.Next.Sizing.weigh(p.Cost.Billed, p.Scanned, largest[i])
		step.Next.Sizing.Bytes += bytes[i]
		if len(s.Request.Queries) > 0 {
			run := step.Next.Sizing.Run
			if s.Streams[rd.stream].Start == nil {
				run = SearchRun{} // a partition entered: its own items size its reads
			}
			step.Next.Sizing.Run = run.after(p.Scanned, largest[i])
		}
		step.Items = append(step.Items, p.Items...)
		step.Next.Scanned += p.Scanned
		step.Next.Matched += len(p.Items)
		step.Next.Streams[rd.stream] = SearchStream{Start: p.LastKey, Done: !p.More()}
	}
	return step, failed
}

// firstErr is a step's failure: the first, but a refused one before any
// other (Refused: a step with a read refused cannot be resumed).
func firstErr(a, b error) error {
	if a != nil && (Refused(a) || !Refused(b)) {
		return a
	}
	return b
}

type streamRead struct {
	stream int
	limit  int32
}

// plan is the reads of the next step: every open stream, or, under a
// budget, those a share of what is left pays for, each with its Limit.
func (s SearchState) plan() []streamRead {
	return s.wanted(s.budgetPlan())
}

// budgetPlan is plan before the matches wanted bound it.
func (s SearchState) budgetPlan() []streamRead {
	var open []int
	for i, st := range s.Streams {
		if !st.Done {
			open = append(open, i)
		}
	}
	if len(open) == 0 {
		return nil
	}
	if len(s.Request.Queries) > 0 {
		// A statement's partitions are read one after another, each in
		// its sort-key order (ORDER BY), not interleaved page by page.
		open = open[:1]
	}
	if s.Request.MaxRCU <= 0 {
		reads := make([]streamRead, len(open))
		for i, n := range open {
			reads[i] = streamRead{stream: n}
		}
		return reads
	}
	left := s.Request.MaxRCU - s.Spent
	// A step spends at most half of what is left (all of its last read
	// unit or two), and reads at most as many items as were read before
	// it: the largest item read so far can miss the heaviest, and the
	// reads near the budget's end are small and come after most sizes
	// were seen.
	use := max(left/2, min(left, 2*minReadUnits))
	// Each read's share is two read units at least: a read is charged one
	// unit however few items it reads. Reads go in parallel only as many
	// as half of what is left pays an item of 400 KB each for: an item
	// larger than any read before, met by one of them, is paid by the
	// half kept back, not by more than the budget.
	k := min(len(open), max(min(int(use/(2*minReadUnits)), int(use/ReadCost(1, MaxItemBytes, false))), 1))
	run := s.sized()
	items, sizedBy := run.Items, run.Largest
	largest := restBound(sizedBy, s.Request.TableBytes, s.Sizing.Bytes)
	// Known: an item has been read (of the partition being read, by a
	// statement's Queries). The table's size bounds every item before
	// that (restBound), but a budget it pays no item of must still read
	// one: the first read's item alone may cost what it weighs.
	known := sizedBy > 0
	if whole := min(len(open), int(left/pageRCU)); whole >= 1 {
		// A whole page costs at most pageRCU, whatever its items weigh:
		// as many as what is left pays for cannot overspend it.
		reads := make([]streamRead, whole)
		for i := range reads {
			reads[i] = streamRead{stream: open[i]}
		}
		return reads
	}
	if rest := s.Request.TableBytes - s.Sizing.Bytes; s.Request.TableBytes > 0 && rest > 0 &&
		WholeReadRCU(rest)+float64(len(open)-1)*minReadUnits <= left {
		// What the table's size leaves unread costs no more than what is
		// left of the budget, read whole (each stream's last read unit
		// rounded up): read it so. A table of 109 items, 6,892 bytes,
		// said "a whole scan reads about 1.0 RCU" beside a budget of 1,
		// then read it an item at a time and stopped after 2.
		reads := make([]streamRead, len(open))
		for i := range reads {
			reads[i] = streamRead{stream: open[i]}
		}
		return reads
	}
	if !known {
		largest = firstLargest(s.Request.TableBytes)
		k = 1 // sizes unknown: one read
	}
	for ; k > 0; k-- {
		share := use / float64(k)
		limit := ItemsFor(share, largest, false)
		if limit < 1 {
			continue
		}
		// At most as many items as were read before, in all, or a read
		// unit's worth each (grownLimit).
		limit = min(limit, grownLimit(items/k, largest, left/float64(k)))
		if items < searchSample && known && largest == sizedBy {
			// The largest of a few items is no bound of the rest: the
			// first item of a log-normal table (45 bytes, its mean 750)
			// sized a read unit's worth of 53 items, which cost 7 RCU of
			// what was left of a budget of 5. Until searchSample items
			// are read, a read sized by them asks for no more than were
			// read before (the table's size, or 400 KB, bounds every
			// item: a read sized by it goes as it is).
			limit = min(limit, int32(max(items/k, 1)))
		}
		// Sized by the items after a partition's heavy ones: no more
		// than would pass what is left by one item, were they all heavy.
		if most := heavyCap(largest, run.Heavy, left/float64(k)); most > 0 {
			limit = min(limit, most)
		}
		reads := make([]streamRead, k)
		for i := range reads {
			reads[i] = streamRead{stream: open[i], limit: limit}
		}
		return reads
	}
	if known && ItemsFor(left, largest, false) >= 1 {
		// Half of what is left pays for no item of the largest size read,
		// all of it does: one item.
		return []streamRead{{stream: open[0], limit: 1}}
	}
	if !known && left >= minReadUnits {
		// No item read yet (of this partition), and what is left pays
		// for no item of the size that bounds them (400 KB, or the
		// table's size): one item is read, so that a small budget reads
		// something, and a stop after it says what the next read needs;
		// it overspends by at most what that item weighs. (Stopping here
		// read nothing, and each --resume stopped at the same place; so
		// did a second partition after a first that held nothing.)
		return []streamRead{{stream: open[0], limit: 1}}
	}
	return nil
}

// searchSample is the fewest items read whose largest sizes a search's
// reads by a read unit's worth: before, reads grow one, one, two, four
// items (0.5 RCU a request, however small its items).
const searchSample = 8

// weigh is z after a page of items read for rcu, the largest at most
// largest bytes.
func (z SearchSizing) weigh(rcu float64, items, largest int) SearchSizing {
	if items > 0 {
		z.RCU += rcu
		z.Items += items
	}
	z.Largest = max(z.Largest, largest)
	return z
}

// read reads one page of stream i from start, and tells the largest
// item it read (PageLargest) and what the items it read whole weigh.
// Under a budget it asks for whole items and applies the filter and
// projection itself (local).
func (r SearchRequest) read(ctx context.Context, c Client, i int, start Item, limit int32) (Page, int, int64, error) {
	var page Page
	var sent []Item
	var local func(Item) (Item, bool)
	if len(r.Queries) > 0 {
		q := r.Queries[i]
		q.Filter = r.Filter
		in, err := QueryInput(PageRequest{Query: q, Start: start, Limit: limit}, nil)
		if err != nil {
			return Page{}, 0, 0, err
		}
		in.ProjectionExpression, in.ExpressionAttributeNames = PathProjection(r.Project, in.ExpressionAttributeNames)
		if local, err = r.localMatch(in.FilterExpression, in.ProjectionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues); err != nil {
			return Page{}, 0, 0, err
		}
		if local != nil {
			// The same Query without its filter and projection: its key
			// condition's names and values only.
			q.Filter = nil
			if in, err = QueryInput(PageRequest{Query: q, Start: start, Limit: limit}, nil); err != nil {
				return Page{}, 0, 0, err
			}
		}
		t0 := time.Now()
		out, err := c.Query(ctx, in)
		cost := Cost{Requests: 1, Latency: time.Since(t0)}
		if err != nil {
			return Page{Cost: cost}, 0, 0, Explain("query "+q.Table, err)
		}
		cost.RCU = capacityUnits(out.ConsumedCapacity)
		cost.billRead(out.Items, false)
		if err := checkCursor(start, out.LastEvaluatedKey, q.SKName, q.Reverse); err != nil {
			return Page{Cost: cost}, 0, 0, cursorFailure("query "+q.Table, err)
		}
		sent = out.Items
		page = Page{Items: out.Items, LastKey: out.LastEvaluatedKey, Scanned: int(out.ScannedCount), Count: int(out.Count), Cost: cost}
	} else {
		in, err := r.scanInput(i, start, limit)
		if err != nil {
			return Page{}, 0, 0, err
		}
		if local, err = r.localMatch(in.FilterExpression, in.ProjectionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues); err != nil {
			return Page{}, 0, 0, err
		}
		if local != nil {
			in.FilterExpression, in.ProjectionExpression = nil, nil
			in.ExpressionAttributeNames, in.ExpressionAttributeValues = nil, nil
		}
		t0 := time.Now()
		out, err := c.Scan(ctx, in)
		cost := Cost{Requests: 1, Latency: time.Since(t0)}
		if err != nil {
			return Page{Cost: cost}, 0, 0, Explain("scan "+r.Table, err)
		}
		cost.RCU = capacityUnits(out.ConsumedCapacity)
		cost.billRead(out.Items, false)
		if err := checkCursor(start, out.LastEvaluatedKey, "", false); err != nil {
			return Page{Cost: cost}, 0, 0, cursorFailure("scan "+r.Table, err)
		}
		sent = out.Items
		page = Page{Items: out.Items, LastKey: out.LastEvaluatedKey, Scanned: int(out.ScannedCount), Count: int(out.Count), Cost: cost}
	}
	whole := local != nil || r.Filter == nil && len(r.Project) == 0
	largest := PageLargest(page.Cost.Billed, false, sent, page.Scanned, whole)
	var bytes int64
	if whole {
		for _, it := range sent {
			bytes += int64(ItemBytes(it))
		}
	}
	if local != nil {
		page.Items = nil
		for _, it := range sent {
			if kept, ok := local(it); ok {
				page.Items = append(page.Items, kept)
			}
		}
		page.Count = len(page.Items)
	}
	return page, largest, bytes, nil
}

// localMatcher applies a read's filter and projection to the whole
// items it sent back, as DynamoDB would have (nil: none is set).
var localMatcher func(filter, projection *string, names map[string]string, values map[string]types.AttributeValue) (func(Item) (Item, bool), error)

// SetLocalMatcher sets how a budgeted search applies its filter and
// projection itself: the embedded backend's evaluator (memory), which the
// conformance suite holds to DynamoDB's. Without one, a budgeted search
// filters on the server and bounds the items a filter dropped by the
// page's cost alone, which sizes the reads after it far smaller.
func SetLocalMatcher(m func(filter, projection *string, names map[string]string, values map[string]types.AttributeValue) (func(Item) (Item, bool), error)) {
	localMatcher = m
}

// FilteredHere reports whether r's reads ask for whole items and its
// filter and projection are applied here, not sent (under a budget, a
// matcher set): what a request line must say instead of a
// FilterExpression.
func (r SearchRequest) FilteredHere() bool {
	return (r.MaxRCU > 0 || r.FilterHere) && localMatcher != nil && (r.Filter != nil || len(r.Project) > 0)
}

// localMatch is how a read under the budget matches and projects its
// items itself (nil: no budget, nothing to apply, or no matcher set).
func (r SearchRequest) localMatch(filter, projection *string, names map[string]string, values map[string]types.AttributeValue) (func(Item) (Item, bool), error) {
	if r.MaxRCU <= 0 && !r.FilterHere || localMatcher == nil || filter == nil && projection == nil {
		return nil, nil
	}
	m, err := localMatcher(filter, projection, names, values)
	if err != nil {
		return nil, Errorf("filter", KindValidation, "see the filter syntax in dynascope scan --help", "%v", err)
	}
	return m, nil
}

// Check reports, before any request, what DynamoDB would refuse in r's
// filter and projection (a begins_with of a number, an attribute_type of
// no type, BETWEEN bounds in the wrong order), as the embedded backend's
// evaluator, held to DynamoDB's answers, finds it; nil where no
// evaluator is set (SetLocalMatcher).
func (r SearchRequest) Check() error {
	in, err := r.scanInput(0, nil, 0)
	if err == nil {
		err = CheckScan(in) // DynamoDB's 4 KiB and 300 operators an expression
	}
	if err != nil || localMatcher == nil || in.FilterExpression == nil && in.ProjectionExpression == nil {
		return err
	}
	_, err = localMatcher(in.FilterExpression, in.ProjectionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	return err
}

// CheckStatement reports, before any request (and before the table's
// keys are known), what DynamoDB would refuse in st's conditions and
// projection in whatever plan they land: each condition is checked
// alone as a filter (Check), an IN of more values than a filter takes
// in lists it takes (domain.Conditions); the whole WHERE is held to
// DynamoDB's size and operators an expression as a Scan's filter (a
// Query's, with its key conditions out, may be a little shorter).
func CheckStatement(st domain.Statement) error {
	// The whole WHERE, as a Scan's filter, within DynamoDB's size and
	// operators an expression: each condition alone fits where their
	// sum does not.
	if st.Where != nil {
		if in, err := (SearchRequest{Table: st.Table, Filter: st.Where}).scanInput(0, nil, 0); err == nil {
			if err := CheckScan(in); err != nil {
				return err
			}
		}
	}
	checks := []SearchRequest{{Table: st.Table, Project: st.Project}}
	for _, c := range domain.Conditions(st.Where) {
		checks = append(checks, SearchRequest{Table: st.Table, Filter: c})
	}
	for _, r := range checks {
		if err := r.Check(); err != nil {
			return err
		}
	}
	return nil
}

// CheckMessage is what a refused check (Check, CheckStatement) says, in
// the user's terms: DynamoDB's message, the placeholder it names left out.
func CheckMessage(err error) string {
	what := err.Error()
	var de *Error
	var api smithy.APIError
	switch {
	case errors.As(err, &de):
		what = de.Msg
	case errors.As(err, &api):
		what = api.ErrorMessage()
		if v, ok := strings.CutPrefix(what, "ExpressionAttributeValues contains invalid value: "); ok {
			// The placeholder (:0) is ours, not what was typed.
			v, _, _ = strings.Cut(v, " for key :")
			what = "a value DynamoDB refuses: " + v
		}
	}
	return what
}

// scanInput is segment i's Scan request from start.
func (r SearchRequest) scanInput(i int, start Item, limit int32) (*dynamodb.ScanInput, error) {
	in := &dynamodb.ScanInput{
		TableName:              aws.String(r.Table),
		ExclusiveStartKey:      start,
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	}
	if r.Filter != nil {
		cond, err := FilterCondition(r.Filter)
		if err != nil {
			return nil, Errorf("filter", KindValidation, "see the filter syntax in dynascope scan --help", "%v", err)
		}
		expr, err := expression.NewBuilder().WithFilter(cond).Build()
		if err != nil {
			return nil, Errorf("build scan", KindValidation, "check the filter's values", "%v", err)
		}
		in.FilterExpression = expr.Filter()
		in.ExpressionAttributeNames = unescapeNames(expr.Names())
		in.ExpressionAttributeValues = expr.Values()
	}
	in.ProjectionExpression, in.ExpressionAttributeNames = PathProjection(r.Project, in.ExpressionAttributeNames)
	if r.Index != "" {
		in.IndexName = aws.String(r.Index)
	}
	if limit > 0 {
		in.Limit = aws.Int32(limit)
	}
	if r.Segments > 1 {
		in.Segment, in.TotalSegments = aws.Int32(int32(i)), aws.Int32(int32(r.Segments))
	}
	return in, nil
}

// PathProjection is a ProjectionExpression of attribute paths (a.b[0].c),
// each name through a placeholder of its own (#q0, #q1, …: clear of the
// builder's #0 and Projection's #p0), added to names. A path under
// another projected one is dropped: DynamoDB refuses overlapping paths.
func PathProjection(paths []domain.Path, names map[string]string) (*string, map[string]string) {
	if len(paths) == 0 {
		return nil, names
	}
	if names == nil {
		names = map[string]string{}
	}
	placeholder := map[string]string{}
	var parts []string
	for _, p := range domain.ProjectedPaths(paths) {
		var b strings.Builder
		for j, part := range p {
			if part.IsIdx {
				fmt.Fprintf(&b, "[%d]", part.Index)
				continue
			}
			ph, ok := placeholder[part.Name]
			if !ok {
				ph = fmt.Sprintf("#q%d", len(placeholder))
				placeholder[part.Name] = ph
				names[ph] = part.Name
			}
			if j > 0 {
				b.WriteByte('.')
			}
			b.WriteString(ph)
		}
		parts = append(parts, b.String())
	}
	return aws.String(strings.Join(parts, ", ")), names
}

// Fingerprint identifies what r reads (not its budget): a resume token
// carries it, so a token is refused by a read it was not given by.
func (r SearchRequest) Fingerprint() string {
	var b strings.Builder
	if r.Statement != "" {
		fmt.Fprintf(&b, "%q %d\n%s", r.Origin, r.streams(), r.Statement)
		sum := sha256.Sum256([]byte(b.String()))
		return hex.EncodeToString(sum[:8])
	}
	fmt.Fprintf(&b, "%q %q %q %d\n", r.Origin, r.Table, r.Index, r.streams())
	if r.Filter != nil {
		b.WriteString(domain.FormatFilter(r.Filter))
	}
	b.WriteByte('\n')
	for _, p := range r.Project {
		b.WriteString(p.String() + ",")
	}
	for _, q := range r.Queries {
		fmt.Fprintf(&b, "\n%s %s %v", q.Expression(), q.Values(), q.Reverse)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

// searchSegmentBytes is the share of a table one segment of a search is
// given: about four 1 MB pages, so that a small table is one Scan (each
// segment costs at least 0.5 RCU a read, even empty) and a large one is
// read several pages at a time.
const searchSegmentBytes = 4 << 20

// SearchSegments is how many segments a search of a table of sizeBytes
// reads in: one per searchSegmentBytes, 1 to 16.
func SearchSegments(sizeBytes int64) int {
	return int(min(max(sizeBytes/searchSegmentBytes, 1), 16))
}

// WholeReadRCU is what reading sizeBytes of items costs at the least,
// eventually consistent: 0.5 RCU per 4 KB.
func WholeReadRCU(sizeBytes int64) float64 {
	return float64((sizeBytes+readUnitBytes-1)/readUnitBytes) * minReadUnits
}

// WorstCaseRCU is the most r costs read to its end without a budget,
// from the table's size as DescribeTable gave it: every byte once at 0.5
// RCU per 4 KB, and the half unit each request but one may round up
// besides (a request is billed its own bytes rounded up: each stream's
// last page, and one a 1 MB page). One stream of a table under 1 MB is
// one request: the table's size exactly. ok is false when the size is
// unknown (0: dynalite reports none, and DynamoDB measures a table about
// every six hours), so that no plan says a read costs nothing. An index
// is read at most its table's size.
func (r SearchRequest) WorstCaseRCU() (rcu float64, ok bool) {
	if r.TableBytes <= 0 {
		return 0, false
	}
	requests := int64(r.streams()) + r.TableBytes/(1<<20)
	return WholeReadRCU(r.TableBytes) + float64(requests-1)*minReadUnits, true
}

// StatementSearch is the plan of a PartiQL statement on table info and
// the search that reads it under budget (0: none): its Queries, or a Scan
// in as many segments as the table's size calls for.
func StatementSearch(info TableInfo, st domain.Statement, budget float64) (domain.Plan, SearchRequest, error) {
	key, err := info.KeyFor(st.Index)
	if err != nil {
		return domain.Plan{}, SearchRequest{}, err
	}
	pk := domain.KeyDef{Name: key.PK.Name, Type: key.PK.Type}
	var sk *domain.KeyDef
	if key.SK != nil {
		sk = &domain.KeyDef{Name: key.SK.Name, Type: key.SK.Type}
	}
	plan, err := st.Plan(pk, sk)
	if err != nil {
		return plan, SearchRequest{}, err
	}
	if said := info.NotFetchedSaid(st.Index, append(slices.Clone(st.Project), domain.FilterPaths(st.Where)...)); said != "" {
		return plan, SearchRequest{}, &domain.PartiQLError{Msg: fmt.Sprintf("%s: read the table, FROM \"%s\", or name only what the index holds", said, strings.ReplaceAll(info.Name, `"`, `""`))}
	}
	if err := CheckStatement(st); err != nil {
		return plan, SearchRequest{}, &domain.PartiQLError{Msg: CheckMessage(err)}
	}
	if plan.FilterNamesKeys && localMatcher == nil {
		// Nothing here applies a filter: the WHERE goes to a Scan,
		// which may name the keys.
		if st.OrderBy != nil {
			return plan, SearchRequest{}, &domain.PartiQLError{Msg: "ORDER BY needs a Query, and this WHERE names a key as no key condition can (OR branches, SK <> 'x'), which Queries take only where their filter is applied here: drop ORDER BY to scan"}
		}
		plan.Queries, plan.FilterNamesKeys = nil, false
	}
	r := SearchRequest{Table: plan.Table, Index: plan.Index, Filter: plan.Filter, Project: plan.Project, Queries: plan.Queries, MaxRCU: budget, Origin: "partiql", Statement: st.Canonical(), TableBytes: info.SizeBytes, FilterHere: plan.FilterNamesKeys}
	if len(plan.Queries) == 0 {
		r.Segments = SearchSegments(info.SizeBytes)
	}
	return plan, r, nil
}
