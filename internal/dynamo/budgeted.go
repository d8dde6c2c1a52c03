package dynamo

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Budgeted is a Client whose Query and Scan reads spend together no more
// than Max RCU as DynamoDB bills them, whatever asks for them (a time
// sample, a skip-scan, a merge's pages): one budget for a whole command.
// While what is left pays for a whole page (pageRCU), a read goes as
// asked; after that its Limit is cut to what half of what is left pays
// for at the size of the largest item read so far (PageLargest; one item
// before any is read), with what a read in flight may cost held back
// until it answers, and reads go in parallel only as many as half of
// what is left pays an item of 400 KB each for: reads do not
// overspend the budget unless they meet items larger than any read
// before, and then by what those weigh. The first Query of a partition
// nothing was read from (a shard of a pattern after another) is sized as
// the first read of all is, whatever the partitions before it held: one
// item where what is left pays no whole page, so a partition of blobs met
// after one of small items costs its first blob, not a read of them
// sized by the small ones (126.5 RCU of a budget of 5). A read that what
// is left pays no item of is not sent, and fails with a *BudgetSpentError.
type Budgeted struct {
	Client
	Max float64
	// TableBytes, set by a caller that reads each item at most once (a
	// Scan, an entities read), is the table's size as DescribeTable gave
	// it: no item not read yet is larger than what the items read leave
	// of it, which sizes the reads of a table a few large items fill.
	TableBytes int64
	// Grow, set by a caller that reads a table's items once in order (an
	// entities read), has a cut read ask for no more items than were read
	// before it (grownLimit, as a search's steps do): heavy items come in
	// runs where keys group them (a partition of blobs), and a read sized
	// by a few small items had met a run of them whole (1 MB, 127.5 RCU of
	// a budget of 100).
	Grow bool
	// Walk, set by a level walk (children), has a cut read ask for no
	// more items than were read before it until sizeSample are read,
	// and after that no more than that or a read unit's worth at the
	// largest read (Grow's floor, which it otherwise skips): a level's
	// first item (PROJECT#p000, 60 bytes) sizes nothing of what is
	// behind it (PROJECT#p000#TASK#..., 3 KB each), and a read sized by
	// it met dozens (--max-rcu 1 spent 8 RCU on a tenant's PROJECT#).
	// A walk of small items pays a request or two more for it. A walk's
	// Query from a new place (a skip past a child's end) grows only from
	// what was read outside the longest run one Query read: a tenant's
	// 10 audit records of 100 bytes sized a skip that met 20 of its
	// project's tasks of 3 KB (2.0 RCU, --max-rcu 3 spent 4). A walk's
	// read the budget cut is answered as cut, not gone on with:
	// the walk reads on from past the last child it holds, and going on
	// read that child's own items it skips (a chat room's 10 MEMBER
	// records, in 4 requests, to name one child: --max-rcu 3 stopped at
	// 3.0 where the whole level costs 1.5).
	Walk bool

	mu       sync.Mutex
	sent     int // requests sent: a Query the budget cut is several
	spent    float64
	scanned  int
	reserved float64
	stopped  bool
	inflight int        // reads sent and not answered
	maxRun   int        // the most items one Query read in a row (Walk)
	largest  int        // the largest item read, in bytes at most
	read     int64      // the items sent back whole, in bytes (ItemBytes)
	settled  *sync.Cond // a read in flight answered
	// entered are the partitions a Query has read from (queryPartition).
	entered map[string]bool
}

// BudgetSpentError is a read refused because the budget is spent.
type BudgetSpentError struct{ Spent, Max float64 }

func (e *BudgetSpentError) Error() string {
	return fmt.Sprintf("stopped at the budget: %.1f of %g RCU spent", e.Spent, e.Max)
}

// Spent is what the reads have cost, as billed, and whether a read was
// refused for want of budget.
func (b *Budgeted) Spent() (rcu float64, stopped bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.spent, b.stopped
}

// Requests is how many requests the reads sent: a Query whose Limit the
// budget cut goes on in more of them, and answers as one.
func (b *Budgeted) Requests() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sent
}

// allow is the Limit a read of partition part (a Query's, "" for a Scan)
// may have (asked: its own, nil or 0 for none) and what it may cost, held
// back until it answers; an error when what is left pays for no item.
func (b *Budgeted) allow(asked *int32, consistent bool, part string, scan bool) (limit *int32, hold float64, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		limit, hold, ok := b.limitLocked(asked, consistent, part != "" && !b.entered[part], scan)
		switch {
		case ok:
			b.reserved += hold
			b.inflight++
			return limit, hold, nil
		case b.inflight > 0:
			// Reads in flight hold what is left: what they do not spend
			// is this read's once they answer.
			if b.settled == nil {
				b.settled = sync.NewCond(&b.mu)
			}
			b.settled.Wait()
		default:
			b.stopped = true
			return nil, 0, &BudgetSpentError{Spent: b.spent, Max: b.Max}
		}
	}
}

// limitLocked is the Limit and hold of a read with what is left now, of
// a partition nothing was read from when fresh, of a Scan when scan; ok
// is false when that pays for no item. Under b.mu.
func (b *Budgeted) limitLocked(asked *int32, consistent, fresh, scan bool) (limit *int32, hold float64, ok bool) {
	left := b.Max - b.spent - b.reserved
	pageMost := pageRCU * readUnitRCU(consistent) / minReadUnits
	if left >= pageMost {
		// A whole page costs at most that, whatever its items weigh.
		return asked, pageMost, true
	}
	want := int32(0)
	if asked != nil {
		want = *asked
	}
	var n int32
	seen := b.largest
	if fresh {
		seen = 0 // what other partitions held sizes none of this one's items
	}
	largest := restBound(seen, b.TableBytes, b.read)
	if largest == 0 || seen == 0 && ItemsFor(left, largest, consistent) < 1 {
		// Nothing read yet (of this partition), and nothing known sizes
		// it within what is left (the table's size may be more than the
		// budget pays for): one item, alone, whatever it weighs.
		if b.inflight > 0 || left < readUnitRCU(consistent) {
			return nil, 0, false
		}
		return aws.Int32(1), readUnitRCU(consistent), true
	}
	if b.inflight > 0 && left/2 < float64(b.inflight+1)*ReadCost(1, MaxItemBytes, consistent) {
		// Reads go in parallel only as many as half of what is left pays
		// an item of 400 KB each for: this one waits for those in flight.
		return nil, 0, false
	}
	// Half of what is left (all of its last read units): an item larger
	// than any read before is paid by the other half.
	n = ItemsFor(max(left/2, min(left, 2*readUnitRCU(consistent))), largest, consistent)
	if b.Grow {
		n = min(n, grownLimit(b.scanned, largest, left))
	}
	if b.Walk {
		from := b.scanned
		if !scan {
			// A walk's Query reads once (a cut read is answered as cut),
			// from a new place, past a child's end: it grows from the
			// items read outside the longest run one Query read.
			from = b.scanned - b.maxRun
		}
		grown := int32(min(max(from, 1), math.MaxInt32))
		if from >= sizeSample {
			grown = max(grown, ItemsFor(minReadUnits, largest, consistent))
		}
		n = min(n, grown)
	}
	if n < 1 && b.inflight == 0 {
		n = min(ItemsFor(left, largest, consistent), 1)
	}
	if n < 1 {
		return nil, 0, false
	}
	if want > 0 && want < n {
		n = want
	}
	return aws.Int32(n), ReadCost(n, largest, consistent), true
}

// restBound is the size the next read is sized by: the largest item read
// (0: none yet), or, where the table's size is known (tableBytes, 0: not)
// and the items are read once, what the items read (read bytes) leave of
// it when that is less, and less than 400 KB; 0 when nothing bounds it.
func restBound(largest int, tableBytes, read int64) int {
	if rest := tableBytes - read; tableBytes > 0 && rest > 0 && rest < MaxItemBytes && (largest == 0 || rest < int64(largest)) {
		return int(rest)
	}
	return largest
}

// settle counts what a read cost and lets go of what it held back: whole
// says the items came back whole (no filter, no projection).
func (b *Budgeted) settle(hold float64, answered bool, rcu float64, items []Item, scanned int32, consistent, whole bool, part string) {
	billed := 0.0
	if answered {
		billed, _ = BilledRCU(rcu, items, consistent)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if answered && part != "" {
		if b.entered == nil {
			b.entered = map[string]bool{}
		}
		b.entered[part] = true
	}
	b.sent++
	b.reserved -= hold
	b.inflight--
	if b.inflight == 0 {
		b.reserved = 0 // no rounding left over from the sums
	}
	b.spent += billed
	b.scanned += int(scanned)
	if answered {
		b.largest = max(b.largest, PageLargest(billed, consistent, items, int(scanned), whole))
		if whole {
			for _, it := range items {
				b.read += int64(ItemBytes(it))
			}
		}
	}
	if b.settled != nil {
		b.settled.Broadcast()
	}
}

// Query sends the read within the budget. A read whose Limit the budget
// cut (before the items' size is known, the first is one item) goes on
// from where it ended, sized again, until it holds what was asked or the
// budget is spent: a caller asking for 20 keys gets 20 where the budget
// pays for them, in as many requests as the budget needed to learn it.
func (b *Budgeted) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	var total *dynamodb.QueryOutput
	cur := *in
	part := queryPartition(in)
	run := 0 // items this Query read in a row
	defer func() {
		b.mu.Lock()
		b.maxRun = max(b.maxRun, run)
		b.mu.Unlock()
	}()
	for {
		limit, hold, err := b.allow(cur.Limit, aws.ToBool(in.ConsistentRead), part, false)
		if err != nil {
			if total != nil {
				return total, nil // what the budget paid for; the next read is refused
			}
			return nil, err
		}
		req := cur
		req.Limit = limit
		var cut func(Item) Item
		if req.Select != types.SelectCount {
			if names, c, ok := localProjection(req.ProjectionExpression, req.ExpressionAttributeNames, req.KeyConditionExpression, req.FilterExpression); ok {
				req.ProjectionExpression, req.ExpressionAttributeNames, cut = nil, names, c
				if req.Select == types.SelectSpecificAttributes {
					req.Select = ""
				}
			}
		}
		out, err := b.Client.Query(ctx, &req, o...)
		if out == nil {
			b.settle(hold, false, 0, nil, 0, false, false, part)
			return out, err
		}
		whole := req.FilterExpression == nil && req.ProjectionExpression == nil && req.Select != types.SelectCount
		b.settle(hold, true, capacityUnits(out.ConsumedCapacity), out.Items, out.ScannedCount, aws.ToBool(in.ConsistentRead), whole, part)
		if err != nil {
			return out, err
		}
		if cut != nil {
			projected := *out
			projected.Items = cutItems(out.Items, cut)
			out = &projected
		}
		total = addQuery(total, out)
		run += int(out.ScannedCount)
		left := aws.ToInt32(in.Limit) - total.ScannedCount
		if b.Walk || out.LastEvaluatedKey == nil || aws.ToInt32(in.Limit) == 0 || aws.ToInt32(limit) == aws.ToInt32(cur.Limit) || left <= 0 {
			return total, nil
		}
		cur.ExclusiveStartKey, cur.Limit = out.LastEvaluatedKey, aws.Int32(left)
	}
}

// queryPartition names the partition a Query reads: its table, index
// and partition key value, the first value its key condition names (the
// expression builder writes the partition key's condition first, as
// CheckQuery knows); "" where it names none.
func queryPartition(in *dynamodb.QueryInput) string {
	ref := valueRef().FindString(aws.ToString(in.KeyConditionExpression))
	v, ok := in.ExpressionAttributeValues[ref]
	if ref == "" || !ok {
		return ""
	}
	return partitionName(aws.ToString(in.TableName), aws.ToString(in.IndexName), v)
}

// partitionName names a partition as queryPartition does: "" where its
// key is not a string, number or binary.
func partitionName(table, index string, v types.AttributeValue) string {
	var key string
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		key = "S" + v.Value
	case *types.AttributeValueMemberN:
		key = "N" + v.Value
	case *types.AttributeValueMemberB:
		key = "B" + string(v.Value)
	default:
		return ""
	}
	return fmt.Sprintf("%q %q %q", table, index, key)
}

// addQuery is two pages of one read as one.
func addQuery(a, b *dynamodb.QueryOutput) *dynamodb.QueryOutput {
	if a == nil {
		return b
	}
	sum := *b
	sum.Items = append(append([]Item(nil), a.Items...), b.Items...)
	sum.Count, sum.ScannedCount = a.Count+b.Count, a.ScannedCount+b.ScannedCount
	sum.ConsumedCapacity = addCapacity(a.ConsumedCapacity, b.ConsumedCapacity)
	return &sum
}

func addCapacity(a, b *types.ConsumedCapacity) *types.ConsumedCapacity {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	sum := *b
	sum.CapacityUnits = aws.Float64(capacityUnits(a) + capacityUnits(b))
	return &sum
}

// Scan sends the read within the budget, its Limit cut to what is left.
func (b *Budgeted) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	limit, hold, err := b.allow(in.Limit, aws.ToBool(in.ConsistentRead), "", true)
	if err != nil {
		return nil, err
	}
	req := *in
	req.Limit = limit
	var cut func(Item) Item
	if req.Select != types.SelectCount {
		if names, c, ok := localProjection(req.ProjectionExpression, req.ExpressionAttributeNames, req.FilterExpression); ok {
			req.ProjectionExpression, req.ExpressionAttributeNames, cut = nil, names, c
			if req.Select == types.SelectSpecificAttributes {
				req.Select = ""
			}
		}
	}
	out, err := b.Client.Scan(ctx, &req, o...)
	if out == nil {
		b.settle(hold, false, 0, nil, 0, false, false, "")
		return out, err
	}
	whole := req.FilterExpression == nil && req.ProjectionExpression == nil && req.Select != types.SelectCount
	b.settle(hold, true, capacityUnits(out.ConsumedCapacity), out.Items, out.ScannedCount, aws.ToBool(in.ConsistentRead), whole, "")
	if err == nil && cut != nil {
		projected := *out
		projected.Items = cutItems(out.Items, cut)
		out = &projected
	}
	return out, err
}

// localProjection is how a read under the budget asks for whole items
// (billed the same as the attributes it projects) and cuts them itself,
// so that their size is known: the names the rest of the read still
// uses (those in uses), and the cut. ok is false when the read projects
// nothing, or no local matcher is set (SetLocalMatcher).
func localProjection(projection *string, names map[string]string, uses ...*string) (rest map[string]string, cut func(Item) Item, ok bool) {
	if projection == nil || localMatcher == nil {
		return names, nil, false
	}
	m, err := localMatcher(nil, projection, names, nil)
	if err != nil {
		return names, nil, false // sent as asked: the server says what is wrong
	}
	used := map[string]bool{}
	for _, e := range uses {
		if e != nil {
			for _, ph := range placeholderRE().FindAllString(*e, -1) {
				used[ph] = true
			}
		}
	}
	for k, v := range names {
		if used[k] {
			if rest == nil {
				rest = map[string]string{}
			}
			rest[k] = v
		}
	}
	return rest, func(it Item) Item { out, _ := m(it); return out }, true
}

// placeholderRE is an expression attribute name placeholder.
var placeholderRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#[A-Za-z0-9_]+`) })

func cutItems(items []Item, cut func(Item) Item) []Item {
	if items == nil {
		return nil
	}
	out := make([]Item, len(items))
	for i, it := range items {
		out[i] = cut(it)
	}
	return out
}

// How a budget sizes a read: what a Scan or Query page costs is the sum
// of the sizes of every item it read (before any filter), rounded up to
// 4 KB, 0.5 RCU a 4 KB (1 strongly consistent), and Limit caps the items
// it reads. So a read of n items, none larger than L bytes, costs at most
// ceil(n·L / 4 KB) read units: sized from the largest item read so far
// (not the mean, which a few heavy items among small ones leave far
// below them), a read cannot spend more than it was given unless it
// meets an item larger than any before it, and then by at most what that
// item weighs beyond the largest. Before any item is read, the largest is
// DynamoDB's largest (400 KB), or the table's size when smaller.

// MaxItemBytes is DynamoDB's largest item.
const MaxItemBytes = 400 * 1024

// readUnitRCU is what one read unit costs: 0.5 RCU, 1 strongly consistent.
func readUnitRCU(consistent bool) float64 {
	if consistent {
		return 2 * minReadUnits
	}
	return minReadUnits
}

// PageLargest is an upper bound of the largest item a read met, in bytes
// (0: it read none): billed RCU for scanned items, of which items were
// sent back, whole (no projection, nothing a filter dropped on the
// server) when whole says so. Everything it read weighs at most what it
// was billed (read units × 4 KB); the items sent back weigh at least
// their ItemBytes, so an item not sent back, or cut by a projection,
// weighs at most the rest. A whole item's own size is bounded tighter, by
// its ItemBytes and a margin for what ItemBytes may miss.
func PageLargest(billed float64, consistent bool, items []Item, scanned int, whole bool) int {
	return pageLargest(billed, consistent, items, scanned, whole, false)
}

// pageLargest is PageLargest, with the margin left off the items whose
// ItemBytes is their billed size (exactSize) where exact says so: what
// one read unit holds of them (CountPass.unitItems). Reads are sized by
// the margined size all the same: their growth rules lean on it where
// heavier items follow (50 items of 100 bytes then 30 KB ones: 9 RCU of
// an entities read's budget of 5 without it; a count's 400 audit records
// then tasks of 3 KB in one child, 26.5 RCU of 5 where 18.0).
func pageLargest(billed float64, consistent bool, items []Item, scanned int, whole, exact bool) int {
	if scanned <= 0 && len(items) == 0 {
		return 0
	}
	most, sum, margined := 0, 0, 0
	for _, it := range items {
		b := ItemBytes(it)
		sum += b
		most = max(most, b)
		if exact && exactSize(it) {
			margined = max(margined, b)
		} else {
			margined = max(margined, sizeMargin(b))
		}
	}
	read := int(math.Round(billed/readUnitRCU(consistent))) * readUnitBytes
	bound := max(read-sum+most, most, 1)
	if whole && len(items) >= scanned {
		bound = min(bound, margined)
	}
	return min(bound, MaxItemBytes)
}

// exactSize says ItemBytes counts item as billed: it errs low only on
// numbers, lists and maps.
func exactSize(item Item) bool {
	for _, v := range item {
		switch v.(type) {
		case *types.AttributeValueMemberS, *types.AttributeValueMemberB, *types.AttributeValueMemberSS,
			*types.AttributeValueMemberBS, *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		default:
			return false
		}
	}
	return true
}

// sizeMargin is an item of ItemBytes b at its largest: ItemBytes errs
// low (numbers, lists and maps are counted at about their size).
func sizeMargin(b int) int { return b + b/32 + 32 }

// ItemsFor is how many items, none larger than largest bytes, a read may
// ask for that costs no more than rcu; 0 when that pays for none.
func ItemsFor(rcu float64, largest int, consistent bool) int32 {
	units := math.Floor(rcu/readUnitRCU(consistent) + 1e-9)
	if units < 1 || largest <= 0 {
		return 0
	}
	return int32(min(math.Floor(units*readUnitBytes/float64(largest)), math.MaxInt32))
}

// ReadCost is the most a read of n items, none larger than largest
// bytes, costs.
func ReadCost(n int32, largest int, consistent bool) float64 {
	units := math.Ceil(float64(n) * float64(largest) / readUnitBytes)
	return max(units, 1) * readUnitRCU(consistent)
}

// firstLargest is the largest item a read may meet before any is read:
// DynamoDB's largest, or the table's size (DescribeTable's; 0: unknown)
// when smaller.
func firstLargest(tableBytes int64) int {
	if tableBytes > 0 && tableBytes < MaxItemBytes {
		return int(tableBytes)
	}
	return MaxItemBytes
}
