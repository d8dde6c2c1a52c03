package dynamo

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Budgeted is a Client whose Query and Scan reads spend together no more
// than Max RCU as DynamoDB bills them, whatever asks for them (a time
// sample, a skip-scan, a merge's pages), beyond the rounding of one read:
// one budget for a whole command. Each read's Limit is cut to what is
// left, at the item sizes read so far (one item before any is read,
// unless what is left pays for a whole page), with what a read in flight
// may cost held back until it answers; a read that what is left pays no
// item of is not sent, and fails with a *BudgetSpentError.
type Budgeted struct {
	Client
	Max float64

	mu       sync.Mutex
	spent    float64
	scanned  int
	reserved float64
	stopped  bool
	inflight int // reads sent and not answered
	// bytes and sized are the size of the items read by reads that sent
	// back every item they read (no filter): their size prices the next
	// read better than the billed RCU, whose least 0.5 a read made one
	// item of 100 bytes look like 0.5 RCU.
	bytes, sized int
	unit         float64    // RCU per 4 KB: 0.5, or 1 for consistent reads
	settled      *sync.Cond // a read in flight answered
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

// allow is the Limit a read may have (asked: its own, nil or 0 for none)
// and what it may cost, held back until it answers; an error when what
// is left pays for no item.
func (b *Budgeted) allow(asked *int32) (limit *int32, hold float64, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		limit, hold, ok := b.limitLocked(asked)
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

// limitLocked is the Limit and hold of a read with what is left now;
// ok is false when that pays for no item. Under b.mu.
func (b *Budgeted) limitLocked(asked *int32) (limit *int32, hold float64, ok bool) {
	left := b.Max - b.spent - b.reserved
	want := int32(0)
	if asked != nil {
		want = *asked
	}
	var n int32 // 0: a whole page
	if b.scanned == 0 || b.spent <= 0 {
		// The items' size is not known yet: a whole page only if what is
		// left pays for one, else one item.
		switch {
		case left >= pageRCU:
			n, hold = want, pageRCU
		case left >= 0.5:
			n, hold = 1, 0.5
		default:
			n = -1
		}
	} else {
		// At the item sizes read so far, the read's rounding up to a
		// whole read unit held back too, but on the last read.
		perItem := b.spent / float64(b.scanned)
		if b.sized == b.scanned {
			perItem = min(perItem, 1.25*float64(b.bytes)/float64(b.sized)/readUnitBytes*b.unit)
			perItem = max(perItem, 1e-6)
		}
		k := math.Floor((left - 0.5) / perItem)
		if k < 1 {
			k = math.Floor(left / perItem)
		}
		n = -1
		if k >= 1 {
			n = int32(min(k, math.MaxInt32))
			if want > 0 && want < n {
				n = want
			}
			hold = float64(n)*perItem + 0.5
		}
	}
	switch {
	case n < 0:
		return nil, 0, false
	case n == 0:
		return asked, hold, true
	}
	return aws.Int32(n), hold, true
}

// settle counts what a read cost and lets go of what it held back.
func (b *Budgeted) settle(hold float64, answered bool, rcu float64, items []Item, scanned int32, consistent bool) {
	billed := 0.0
	if answered {
		billed, _ = BilledRCU(rcu, items, consistent)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserved -= hold
	b.inflight--
	if b.inflight == 0 {
		b.reserved = 0 // no rounding left over from the sums
	}
	b.spent += billed
	b.scanned += int(scanned)
	if answered && len(items) == int(scanned) {
		for _, it := range items {
			b.bytes += ItemBytes(it)
		}
		b.sized += len(items)
		b.unit = max(b.unit, minReadUnits)
		if consistent {
			b.unit = 2 * minReadUnits
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
	for {
		limit, hold, err := b.allow(cur.Limit)
		if err != nil {
			if total != nil {
				return total, nil // what the budget paid for; the next read is refused
			}
			return nil, err
		}
		req := cur
		req.Limit = limit
		out, err := b.Client.Query(ctx, &req, o...)
		if out == nil {
			b.settle(hold, false, 0, nil, 0, false)
			return out, err
		}
		b.settle(hold, true, capacityUnits(out.ConsumedCapacity), out.Items, out.ScannedCount, aws.ToBool(in.ConsistentRead))
		if err != nil {
			return out, err
		}
		total = addQuery(total, out)
		left := aws.ToInt32(in.Limit) - total.ScannedCount
		if out.LastEvaluatedKey == nil || aws.ToInt32(in.Limit) == 0 || aws.ToInt32(limit) == aws.ToInt32(cur.Limit) || left <= 0 {
			return total, nil
		}
		cur.ExclusiveStartKey, cur.Limit = out.LastEvaluatedKey, aws.Int32(left)
	}
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
	limit, hold, err := b.allow(in.Limit)
	if err != nil {
		return nil, err
	}
	cut := *in
	cut.Limit = limit
	out, err := b.Client.Scan(ctx, &cut, o...)
	if out == nil {
		b.settle(hold, false, 0, nil, 0, false)
		return out, err
	}
	b.settle(hold, true, capacityUnits(out.ConsumedCapacity), out.Items, out.ScannedCount, aws.ToBool(in.ConsistentRead))
	return out, err
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
	if scanned <= 0 && len(items) == 0 {
		return 0
	}
	most, sum := 0, 0
	for _, it := range items {
		b := ItemBytes(it)
		sum += b
		most = max(most, b)
	}
	read := int(math.Round(billed/readUnitRCU(consistent))) * readUnitBytes
	bound := max(read-sum+most, most, 1)
	if whole && len(items) >= scanned {
		bound = min(bound, sizeMargin(most))
	}
	return min(bound, MaxItemBytes)
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
