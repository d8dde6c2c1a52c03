package memory

import (
	"context"
	"math"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const pageLimit = 1024 * 1024

// request is what Query and Scan share once parsed.
type request struct {
	t          *table
	st         *store
	ix         *index
	filter     *node
	projection []path
	limit      int
	count      bool
	consistent bool
	capacity   bool
	start      map[string]types.AttributeValue
}

func (db *DB) prepare(tableName, indexName *string, names map[string]string, values map[string]types.AttributeValue,
	filterExpr, projExpr *string, limit *int32, sel types.Select, consistent *bool, rcc types.ReturnConsumedCapacity,
	start map[string]types.AttributeValue, keyExpr *string, query bool, seg segments) (*request, map[string]keyCond, error) {
	// The request's own shape first, as DynamoDB checks it before looking
	// the table up.
	if limit != nil && *limit < 1 {
		return nil, nil, validation("1 validation error detected: Value '" + itoa(int(*limit)) + "' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
	}
	ex, err := expressions{keyCond: keyExpr, filter: filterExpr, projection: projExpr, names: names, values: values, start: start, query: query, seg: seg}.parse()
	if err != nil {
		return nil, nil, err
	}
	var conds map[string]keyCond
	if query {
		if conds, err = keyConditions(ex.keyCond); err != nil {
			return nil, nil, err
		}
	}
	t, err := db.table(aws.ToString(tableName))
	if err != nil {
		return nil, nil, err
	}
	r := &request{t: t, st: t.base, count: sel == types.SelectCount, consistent: aws.ToBool(consistent),
		capacity: rcc == types.ReturnConsumedCapacityTotal || rcc == types.ReturnConsumedCapacityIndexes, start: start,
		filter: ex.filter, projection: ex.projection}
	if limit != nil {
		r.limit = int(*limit)
	}
	if indexName != nil {
		ix, ok := t.indexes[*indexName]
		if !ok {
			return nil, nil, validation("The table does not have the specified index: " + *indexName)
		}
		if ix.global && r.consistent {
			return nil, nil, validation("Consistent reads are not supported on global secondary indexes")
		}
		r.ix, r.st = ix, ix.store
	}
	return r, conds, nil
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// keyRange is the part of a partition a key condition selects: [lo, hi).
func keyRange(p *partition, op string, vals []string) (lo, hi int) {
	after := func(v string) int {
		return sort.Search(len(p.entries), func(i int) bool { return compareBytes(p.entries[i].sk, v) > 0 })
	}
	lo, hi = 0, len(p.entries)
	switch op {
	case "":
	case "=":
		lo, hi = p.search(vals[0], ""), after(vals[0])
	case "<":
		hi = p.search(vals[0], "")
	case "<=":
		hi = after(vals[0])
	case ">":
		lo = after(vals[0])
	case ">=":
		lo = p.search(vals[0], "")
	case "between":
		lo, hi = p.search(vals[0], ""), after(vals[1])
	case "begins_with":
		lo = p.search(vals[0], "")
		hi = lo + sort.Search(len(p.entries)-lo, func(i int) bool { return !strings.HasPrefix(p.entries[lo+i].sk, vals[0]) })
	}
	if hi < lo {
		hi = lo
	}
	return lo, hi
}

// page reads entries in order until Limit or 1 MB, then filters and
// projects them, as DynamoDB does.
type page struct {
	items    []map[string]types.AttributeValue
	scanned  int
	size     int
	capacity int
	last     map[string]types.AttributeValue
}

func (r *request) full(pg *page) bool {
	return (r.limit > 0 && pg.scanned >= r.limit) || pg.size >= pageLimit
}

func (r *request) take(pg *page, item map[string]types.AttributeValue) {
	pg.scanned++
	pg.size += pageSize(item, r.t.sk)
	pg.capacity += itemSize(item)
	pg.last = item
	if r.filter == nil || r.filter.match(item) {
		pg.items = append(pg.items, item)
	}
}

func (r *request) lastKey(item map[string]types.AttributeValue) map[string]types.AttributeValue {
	key := map[string]types.AttributeValue{}
	names := r.t.keyAttrs()
	if r.ix != nil {
		names = append(names, r.ix.pk, r.ix.sk)
	}
	for _, k := range names {
		if v, ok := item[k]; k != "" && ok {
			key[k] = v
		}
	}
	return key
}

func (r *request) finish(pg *page) (items []map[string]types.AttributeValue, count, scanned int32, last map[string]types.AttributeValue, cc *types.ConsumedCapacity) {
	if r.full(pg) && pg.last != nil {
		last = r.lastKey(pg.last)
	}
	for _, it := range pg.items {
		if r.projection != nil {
			it = project(it, r.projection)
		}
		items = append(items, it)
	}
	if r.capacity {
		units := math.Ceil(float64(pg.capacity)/1024/4) * 0.5
		if r.consistent {
			units *= 2
		}
		cc = &types.ConsumedCapacity{TableName: r.t.desc.TableName, CapacityUnits: aws.Float64(units)}
	}
	if r.count {
		items = nil
	} else if items == nil {
		items = []map[string]types.AttributeValue{}
	}
	return items, int32(len(pg.items)), int32(pg.scanned), last, cc
}

// startPosition is the entry position just after the ExclusiveStartKey.
func (r *request) startPosition(p *partition) (string, string) {
	sk := ""
	if r.st.skName != "" {
		sk, _ = sortKey(r.start[r.st.skName])
	}
	tie := ""
	if r.ix != nil {
		tie = r.t.tie(r.start)
	}
	return sk, tie
}

// Query reads one page of a partition.
func (db *DB) Query(ctx context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := db.fill(aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	if err := db.awaitLoad(ctx, aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	r, conds, err := db.prepare(in.TableName, in.IndexName, in.ExpressionAttributeNames, in.ExpressionAttributeValues,
		in.FilterExpression, in.ProjectionExpression, in.Limit, in.Select, in.ConsistentRead, in.ReturnConsumedCapacity,
		in.ExclusiveStartKey, in.KeyConditionExpression, true, segments{})
	if err != nil {
		return nil, err
	}
	pk, op, vals, err := r.queryKey(conds)
	if err != nil {
		return nil, err
	}
	if err := r.t.nestedKeyPath(r.projection); err != nil {
		return nil, err
	}
	if name := r.filter.keyAttr(r.st.pkName, r.st.skName); name != "" {
		return nil, validation("Filter Expression can only contain non-primary key attributes: Primary key attribute: " + name)
	}
	if err := r.t.nestedKeyPath(r.filter.paths()); err != nil {
		return nil, err
	}
	pg := &page{}
	if p := r.st.partition(pk, false); p != nil {
		lo, hi := keyRange(p, op, vals)
		forward := in.ScanIndexForward == nil || *in.ScanIndexForward
		if r.start != nil {
			sk, tie := r.startPosition(p)
			pos := p.search(sk, tie)
			if forward {
				if pos < len(p.entries) && p.entries[pos].sk == sk && p.entries[pos].tie == tie {
					pos++
				}
				lo = max(lo, pos)
			} else {
				hi = min(hi, pos)
			}
		}
		for i := 0; i < hi-lo && !r.full(pg); i++ {
			if forward {
				r.take(pg, p.entries[lo+i].item())
			} else {
				r.take(pg, p.entries[hi-1-i].item())
			}
		}
	}
	items, count, scanned, last, cc := r.finish(pg)
	return &dynamodb.QueryOutput{Items: items, Count: count, ScannedCount: scanned, LastEvaluatedKey: last, ConsumedCapacity: cc}, nil
}

// Scan reads one page of a table or index in dynalite's partition order.
func (db *DB) Scan(ctx context.Context, in *dynamodb.ScanInput, _ ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := db.fill(aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	if err := db.awaitLoad(ctx, aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	if err := scanShape(in); err != nil {
		return nil, err
	}
	seg := segments{segment: in.Segment, total: in.TotalSegments}
	r, _, err := db.prepare(in.TableName, in.IndexName, in.ExpressionAttributeNames, in.ExpressionAttributeValues,
		in.FilterExpression, in.ProjectionExpression, in.Limit, in.Select, in.ConsistentRead, in.ReturnConsumedCapacity,
		in.ExclusiveStartKey, nil, false, seg)
	if err != nil {
		return nil, err
	}
	if err := r.checkScanStart(); err != nil {
		return nil, err
	}
	if r.start != nil && seg.of(hashPrefix(keyBytes(r.start[r.st.pkName]))) != seg.index() {
		return nil, seg.startError()
	}
	if err := r.t.nestedKeyPath(r.projection); err != nil {
		return nil, err
	}
	if err := r.t.nestedKeyPath(r.filter.paths()); err != nil {
		return nil, err
	}
	order := r.st.scanOrder()
	first, pos := 0, 0
	if r.start != nil {
		spk := r.start[r.st.pkName]
		enc, _ := sortKey(spk)
		enc = typeName(spk) + enc
		hash := hashPrefix(keyBytes(spk))
		first = sort.Search(len(order), func(i int) bool {
			return order[i].hash > hash || order[i].hash == hash && order[i].enc >= enc
		})
		if first < len(order) && order[first].enc == enc {
			sk, tie := r.startPosition(order[first])
			pos = order[first].search(sk, tie)
			if e := order[first].entries; pos < len(e) && e[pos].sk == sk && e[pos].tie == tie {
				pos++
			}
		}
	}
	if r.start == nil && seg.index() > 0 {
		first = sort.Search(len(order), func(i int) bool { return seg.of(order[i].hash) >= seg.index() })
	}
	pg := &page{}
	for pi := first; pi < len(order) && !r.full(pg); pi++ {
		if at := seg.of(order[pi].hash); at > seg.index() {
			break // past the segment: the order is by hash
		} else if at < seg.index() {
			pos = 0
			continue
		}
		entries := order[pi].entries
		for i := pos; i < len(entries) && !r.full(pg); i++ {
			r.take(pg, entries[i].item())
		}
		pos = 0
	}
	items, count, scanned, last, cc := r.finish(pg)
	return &dynamodb.ScanOutput{Items: items, Count: count, ScannedCount: scanned, LastEvaluatedKey: last, ConsumedCapacity: cc}, nil
}

// GetItem reads one item by its full key.
func (db *DB) GetItem(ctx context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := db.fill(aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	if err := db.awaitLoad(ctx, aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	if in.ExpressionAttributeNames != nil && in.ProjectionExpression == nil {
		return nil, validation("ExpressionAttributeNames can only be specified when using expressions")
	}
	for _, k := range sortedKeys(in.Key) {
		if msg := checkValue(in.Key[k]); msg != "" {
			return nil, validation(msg)
		}
	}
	ex, err := expressions{projection: in.ProjectionExpression, names: in.ExpressionAttributeNames}.parse()
	if err != nil {
		return nil, err
	}
	proj := ex.projection
	t, err := db.table(aws.ToString(in.TableName))
	if err != nil {
		return nil, err
	}
	if err := t.checkKey(in.Key); err != nil {
		return nil, err
	}
	if err := t.nestedKeyPath(proj); err != nil {
		return nil, err
	}
	var item map[string]types.AttributeValue
	if p := t.base.partition(in.Key[t.pk], false); p != nil {
		sk := ""
		if t.sk != "" {
			sk, _ = sortKey(in.Key[t.sk])
		}
		if i := p.search(sk, ""); i < len(p.entries) && p.entries[i].sk == sk {
			item = p.entries[i].item()
		}
	}
	out := &dynamodb.GetItemOutput{}
	if in.ReturnConsumedCapacity == types.ReturnConsumedCapacityTotal || in.ReturnConsumedCapacity == types.ReturnConsumedCapacityIndexes {
		size := 1.0
		if item != nil {
			size = math.Ceil(float64(itemSize(item)) / 1024 / 4)
		}
		if !aws.ToBool(in.ConsistentRead) {
			size /= 2
		}
		out.ConsumedCapacity = &types.ConsumedCapacity{TableName: in.TableName, CapacityUnits: aws.Float64(size)}
	}
	if item != nil && proj != nil {
		item = project(item, proj)
	}
	out.Item = item
	return out, nil
}
