package dynamo

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// EntitiesRequest asks for the entity types of a table, an index, or one
// partition of either.
type EntitiesRequest struct {
	Table, Index string
	Key          KeySchema        // of the table or index read
	PK           *domain.KeyValue // one partition; nil for all of them
	MaxRCU       float64          // the budget: a whole read under it, else a sample
	// SizeBytes and ItemCount are DescribeTable's (of the table or
	// index): what a whole read would cost, and what a sample stands for.
	SizeBytes, ItemCount int64
	Delim                string
	Segments             int // parallel Scan segments of a sample; 8 when 0
}

// EntitiesResult is the entity types read, with one example item each.
type EntitiesResult struct {
	Entities []domain.Entity
	Examples []Item // by entity
	// Sampled says the counts are estimated from part of the items: the
	// whole read would have cost more than the budget.
	Sampled bool
	// Stopped says a read meant to be whole (the table's size, as
	// DescribeTable gave it, within the budget; or one partition) ended
	// at the budget: its counts are of the items read, not all of them.
	Stopped bool
	Read    int // items read
	// Segments is how many Scan segments the sample read in parallel (0
	// for a whole read).
	Segments int
	Cost     Cost
	// Items are every item read, where the read was of the whole table (or
	// index) and they weigh no more than HeldEntityBytes: enter lists a
	// type's items from them, reading nothing (nil: not held).
	Items []Item
}

// HeldEntityBytes bounds the items a whole entities read holds for enter
// (ItemBytes): the budget bounds them already (100 RCU reads about 800 KB,
// past it by the items larger than any read before), this bounds a
// larger --max-rcu.
const HeldEntityBytes = 16 << 20

// ReadEntities reads the items (all of them when that costs less than the
// budget, else a parallel sample of Scan segments, each read to its share
// of the budget) and names their entity types. Every read goes through one
// Budgeted: the estimates from DescribeTable size the reads, and the
// budget holds whatever the items' real size (eight segments' least reads
// of 0.5 RCU each had spent 4 RCU of --max-rcu 2).
func ReadEntities(ctx context.Context, c Client, r EntitiesRequest) (res EntitiesResult, err error) {
	var items []Item
	var partial []bool                         // by item: its partition was not read to its end
	whole := float64(r.SizeBytes) / 4096 * 0.5 // an eventually consistent Scan's RCU
	if r.MaxRCU > 0 {
		// Every item read once, in order. Reads grow only as the items
		// read before them where what the table holds is not known to fit
		// the budget (no size reported, a sample, one partition): a few
		// small items had sized a read that met a run of heavy ones.
		known := r.PK == nil && r.SizeBytes > 0 && whole <= r.MaxRCU
		budget := &Budgeted{Client: c, Max: r.MaxRCU, TableBytes: r.SizeBytes, Grow: !known}
		c = budget
		// Every request the budget sent: it answers a Query it cut as
		// one ("1 req · 4.5 RCU" was said of five).
		defer func() { res.Cost.Requests = budget.Requests() }()
	}
	switch {
	case r.PK != nil:
		items, res.Sampled, res.Cost, err = readPartition(ctx, c, r)
		partial = make([]bool, len(items))
		for i := range partial {
			partial[i] = res.Sampled
		}
	case r.MaxRCU <= 0 || whole <= r.MaxRCU:
		items, res.Sampled, res.Cost, err = scanSegment(ctx, c, r, 0, 0, r.MaxRCU)
		partial = partialTail(items, res.Sampled, r.Key)
	default:
		res.Segments = r.Segments
		if res.Segments <= 0 {
			res.Segments = 8
		}
		// Each segment reads at least twice, at 0.5 RCU or more: one item,
		// then as many as its share pays for at their size.
		res.Segments = max(1, min(res.Segments, int(r.MaxRCU)))
		items, partial, res.Cost, err = scanSample(ctx, c, r, res.Segments)
		res.Sampled = true
	}
	if err != nil {
		return res, err
	}
	res.Stopped = res.Sampled && res.Segments == 0
	res.Read = len(items)
	res.Entities = domain.InferEntities(entityItems(items, partial, r.Key), r.Delim)
	switch {
	case !res.Sampled:
		for i := range res.Entities {
			res.Entities[i].CountExact = true
		}
	case r.PK == nil:
		domain.EstimateCounts(res.Entities, r.ItemCount)
	}
	for _, e := range res.Entities {
		res.Examples = append(res.Examples, items[e.Example])
	}
	if !res.Sampled && r.PK == nil {
		res.Items = heldItems(items)
	}
	return res, nil
}

// heldItems is items, where they weigh no more than HeldEntityBytes; else nil.
func heldItems(items []Item) []Item {
	n := 0
	for _, it := range items {
		if n += ItemBytes(it); n > HeldEntityBytes {
			return nil
		}
	}
	return items
}

// EntitiesOf names the entity types of items already read (a list's
// loaded rows): no request, counts of those items only.
func EntitiesOf(items []Item, key KeySchema, delim string) EntitiesResult {
	res := EntitiesResult{Read: len(items), Entities: domain.InferEntities(entityItems(items, nil, key), delim)}
	for _, e := range res.Entities {
		res.Examples = append(res.Examples, items[e.Example])
	}
	return res
}

// DefaultEntitiesBudget is the RCU entity types are read whole under
// (`entities --max-rcu`'s default, the explorer's E): a table that costs
// more is sampled.
const DefaultEntitiesBudget = 100

// readPartition reads one partition's items, up to the budget.
func readPartition(ctx context.Context, c Client, r EntitiesRequest) ([]Item, bool, Cost, error) {
	q := domain.KeyQuery{Table: r.Table, Index: r.Index, PKName: r.Key.PK.Name, PK: *r.PK}
	if r.Key.SK != nil {
		q.SKName = r.Key.SK.Name
	}
	var items []Item
	var cost Cost
	var start Item
	for {
		page, err := QueryPage(ctx, c, PageRequest{Query: q, Start: start, Limit: pageLimit(r, r.MaxRCU-cost.Billed)})
		cost = cost.Add(page.Cost)
		if spent(err) {
			return items, true, cost, nil
		}
		if err != nil {
			return items, false, cost, err
		}
		items = append(items, page.Items...)
		if !page.More() {
			return items, false, cost, nil
		}
		if r.MaxRCU > 0 && cost.Billed >= r.MaxRCU {
			return items, true, cost, nil
		}
		start = page.LastKey
	}
}

// pageLimit sizes a read to what is left of the budget at the items'
// average size (1 KB when unknown); 0 (no limit) without a budget.
func pageLimit(r EntitiesRequest, left float64) int32 {
	if r.MaxRCU <= 0 {
		return 0
	}
	avg := 1024.0
	if r.ItemCount > 0 && r.SizeBytes > 0 {
		avg = max(float64(r.SizeBytes)/float64(r.ItemCount), 1)
	}
	return int32(min(max(left*2*4096/avg, 1), 1000))
}

// scanSample reads segments Scan segments in parallel, each to its share
// of the budget; partial says, by item, that its partition was not read
// to its end.
func scanSample(ctx context.Context, c Client, r EntitiesRequest, segments int) ([]Item, []bool, Cost, error) {
	var mu sync.Mutex
	var all []Item
	var partial []bool
	var total Cost
	var first error
	var wg sync.WaitGroup
	for s := range segments {
		wg.Add(1)
		go func() {
			defer wg.Done()
			items, stopped, cost, err := scanSegment(ctx, c, r, s, segments, r.MaxRCU/float64(segments))
			mu.Lock()
			defer mu.Unlock()
			all, total = append(all, items...), total.Add(cost)
			partial = append(partial, partialTail(items, stopped || err != nil, r.Key)...)
			if err != nil && first == nil {
				first = err
			}
		}()
	}
	wg.Wait()
	return all, partial, total, first
}

// partialTail marks, among one Scan segment's items in the order read,
// those of a partition not read to its end: the last partition read, when
// the segment stopped before its end. A segment reads whole partitions
// one after the other (all of a partition's items share its key's hash,
// which the segments divide), so every other partition was read whole:
// the next item read is another partition's.
func partialTail(items []Item, stopped bool, key KeySchema) []bool {
	partial := make([]bool, len(items))
	if !stopped || len(items) == 0 {
		return partial
	}
	last, _ := KeyValueOf(items[len(items)-1][key.PK.Name])
	for i := len(items) - 1; i >= 0; i-- {
		if kv, _ := KeyValueOf(items[i][key.PK.Name]); kv.Literal() != last.Literal() {
			break
		}
		partial[i] = true
	}
	return partial
}

// scanSegment reads one Scan segment (the whole table when total is 0)
// up to budget RCU; stopped says it ended at the budget.
func scanSegment(ctx context.Context, c Client, r EntitiesRequest, segment, total int, budget float64) ([]Item, bool, Cost, error) {
	var items []Item
	var cost Cost
	var start Item
	for {
		in := &dynamodb.ScanInput{TableName: aws.String(r.Table), ExclusiveStartKey: start, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
		if r.Index != "" {
			in.IndexName = aws.String(r.Index)
		}
		if total > 0 {
			in.Segment, in.TotalSegments = aws.Int32(int32(segment)), aws.Int32(int32(total))
		}
		if budget > 0 {
			in.Limit = aws.Int32(pageLimit(EntitiesRequest{MaxRCU: budget, SizeBytes: r.SizeBytes, ItemCount: r.ItemCount}, budget-cost.Billed))
		}
		t0 := time.Now()
		out, err := c.Scan(ctx, in)
		page := Cost{Requests: 1, Latency: time.Since(t0)}
		if spent(err) {
			return items, true, cost, nil // refused, never sent
		}
		if err != nil {
			return items, false, cost.Add(page), Explain("scan "+r.Table, err)
		}
		page.RCU = capacityUnits(out.ConsumedCapacity)
		page.billRead(out.Items, false)
		cost = cost.Add(page)
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			return items, false, cost, nil
		}
		if budget > 0 && cost.Billed >= budget {
			return items, true, cost, nil
		}
		start = out.LastEvaluatedKey
	}
}

// spent reports whether err is a read the budget refused.
func spent(err error) bool {
	var e *BudgetSpentError
	return errors.As(err, &e)
}

// entityItems is what entity inference reads of each item.
// partial (nil: none) marks the items of partitions not read to their end.
func entityItems(items []Item, partial []bool, key KeySchema) []domain.EntityItem {
	out := make([]domain.EntityItem, len(items))
	for i, it := range items {
		e := domain.EntityItem{Types: map[string]string{}, Values: map[string]string{}, Partial: partial != nil && partial[i]}
		if kv, ok := KeyValueOf(it[key.PK.Name]); ok {
			e.PK, e.PKNumber = kv.Text, kv.Type == domain.TypeN
		}
		if key.SK != nil {
			if kv, ok := KeyValueOf(it[key.SK.Name]); ok {
				e.SK, e.SKNumber = kv.Text, kv.Type == domain.TypeN
			}
		}
		for name, v := range it {
			e.Types[name] = TypeOf(v)
			if s, ok := v.(*types.AttributeValueMemberS); ok {
				e.Values[name] = s.Value
			}
		}
		out[i] = e
	}
	return out
}
