// Package memory is an embedded, in-process DynamoDB: the backend behind
// --demo and the fast UI tests. It follows DynamoDB's semantics for every
// request the explorer sends, and where DynamoDB leaves a choice open
// (scan order, where a 1 MB page ends) it follows dynalite, so that one
// conformance suite can hold both to the same answers.
package memory

import (
	"context"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DB is an in-memory set of tables, safe for concurrent use.
type DB struct {
	mu     sync.RWMutex
	tables map[string]*table
	lazy   lazyTables  // items built on a table's first use (lazy.go)
	loads  loads       // tables being filled from files (loading.go)
	clock  streamClock // the time stream records carry (streams.go)
}

// New returns an empty database.
func New() *DB { return &DB{tables: map[string]*table{}} }

type index struct {
	name       string
	global     bool
	store      *store
	pk, sk     string
	projection types.Projection
	keep       []string // projected's answer, once asked
}

type table struct {
	desc    types.TableDescription
	pk, sk  string
	types   map[string]types.ScalarAttributeType
	base    *store
	indexes map[string]*index
	ixOrder []*index // GSIs then LSIs, as created: the order errors name them in
	size    int64
	stream  *stream      // nil: the table has no stream (streams.go)
	clock   *streamClock // the database's, once its stream is read or written
	ttl     string       // the Time to Live attribute, "": disabled (ttl.go)
}

func (t *table) indexOrder() []*index { return t.ixOrder }

func (t *table) keyAttrs() []string {
	if t.sk == "" {
		return []string{t.pk}
	}
	return []string{t.pk, t.sk}
}

func keyNames(ks []types.KeySchemaElement) (pk, sk string) {
	for _, k := range ks {
		if k.KeyType == types.KeyTypeHash {
			pk = aws.ToString(k.AttributeName)
		} else {
			sk = aws.ToString(k.AttributeName)
		}
	}
	return pk, sk
}

// CreateTable creates a table with its indexes. The table is ACTIVE at once.
func (db *DB) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	name := aws.ToString(in.TableName)
	if name == "" || len(in.KeySchema) == 0 {
		return nil, validation("1 validation error detected: TableName and KeySchema are required")
	}
	if _, ok := db.tables[name]; ok {
		return nil, &types.ResourceInUseException{Message: aws.String("Table already exists: " + name)}
	}
	t := &table{types: map[string]types.ScalarAttributeType{}, indexes: map[string]*index{}}
	for _, a := range in.AttributeDefinitions {
		t.types[aws.ToString(a.AttributeName)] = a.AttributeType
	}
	t.pk, t.sk = keyNames(in.KeySchema)
	for _, k := range append([]string{t.pk}, t.sk) {
		if _, ok := t.types[k]; k != "" && !ok {
			return nil, validation("One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [" + k + "]")
		}
	}
	t.base = newStore(t.pk, t.sk)
	now := time.Unix(0, 0).UTC()
	t.desc = types.TableDescription{
		TableName:            aws.String(name),
		TableArn:             aws.String("arn:aws:dynamodb:us-east-1:000000000000:table/" + name),
		TableStatus:          types.TableStatusActive,
		KeySchema:            in.KeySchema,
		AttributeDefinitions: in.AttributeDefinitions,
		CreationDateTime:     &now,
		BillingModeSummary:   &types.BillingModeSummary{BillingMode: types.BillingModePayPerRequest},
	}
	for _, g := range in.GlobalSecondaryIndexes {
		pk, sk := keyNames(g.KeySchema)
		ix := &index{name: aws.ToString(g.IndexName), global: true, store: newStore(pk, sk), pk: pk, sk: sk, projection: deref(g.Projection)}
		t.indexes[ix.name] = ix
		t.ixOrder = append(t.ixOrder, ix)
		t.desc.GlobalSecondaryIndexes = append(t.desc.GlobalSecondaryIndexes, types.GlobalSecondaryIndexDescription{
			IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection, IndexStatus: types.IndexStatusActive,
		})
	}
	for _, l := range in.LocalSecondaryIndexes {
		pk, sk := keyNames(l.KeySchema)
		ix := &index{name: aws.ToString(l.IndexName), store: newStore(pk, sk), pk: pk, sk: sk, projection: deref(l.Projection)}
		t.indexes[ix.name] = ix
		t.ixOrder = append(t.ixOrder, ix)
		t.desc.LocalSecondaryIndexes = append(t.desc.LocalSecondaryIndexes, types.LocalSecondaryIndexDescription{
			IndexName: l.IndexName, KeySchema: l.KeySchema, Projection: l.Projection,
		})
	}
	t.clock = &db.clock
	if err := db.enableStream(t, in.StreamSpecification); err != nil {
		return nil, err
	}
	db.tables[name] = t
	desc := t.describe()
	return &dynamodb.CreateTableOutput{TableDescription: &desc}, nil
}

func deref(p *types.Projection) types.Projection {
	if p == nil {
		return types.Projection{ProjectionType: types.ProjectionTypeAll}
	}
	return *p
}

func (t *table) describe() types.TableDescription {
	d := t.desc
	d.ItemCount = aws.Int64(int64(t.base.count()))
	d.TableSizeBytes = aws.Int64(t.size)
	d.GlobalSecondaryIndexes = append([]types.GlobalSecondaryIndexDescription(nil), d.GlobalSecondaryIndexes...)
	for i := range d.GlobalSecondaryIndexes {
		ix := t.indexes[aws.ToString(d.GlobalSecondaryIndexes[i].IndexName)]
		d.GlobalSecondaryIndexes[i].ItemCount = aws.Int64(int64(ix.store.count()))
	}
	return d
}

func (db *DB) table(name string) (*table, error) {
	t, ok := db.tables[name]
	if !ok {
		return nil, &types.ResourceNotFoundException{Message: aws.String("Requested resource not found")}
	}
	return t, nil
}

// DescribeTable returns a table's description.
func (db *DB) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// A lazy table whose counts are known is described without building
	// its items (the tables page describes every table to count them).
	known := db.knownCounts(aws.ToString(in.TableName))
	if known == nil {
		if err := db.fill(aws.ToString(in.TableName)); err != nil {
			return nil, err
		}
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	t, err := db.table(aws.ToString(in.TableName))
	if err != nil {
		return nil, &types.ResourceNotFoundException{Message: aws.String("Requested resource not found: Table: " + aws.ToString(in.TableName) + " not found")}
	}
	d := t.describe()
	if known != nil {
		d.ItemCount, d.TableSizeBytes = aws.Int64(known.Items), aws.Int64(known.Bytes)
		for i := range d.GlobalSecondaryIndexes {
			d.GlobalSecondaryIndexes[i].ItemCount = aws.Int64(known.IndexItems[aws.ToString(d.GlobalSecondaryIndexes[i].IndexName)])
		}
	}
	return &dynamodb.DescribeTableOutput{Table: &d}, nil
}

// ListTables lists table names in order, paged by Limit.
func (db *DB) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, _ ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	names := make([]string, 0, len(db.tables))
	for n := range db.tables {
		if in.ExclusiveStartTableName == nil || n > *in.ExclusiveStartTableName {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	limit := 100
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 100 {
			return nil, validation("1 validation error detected: Value at 'limit' failed to satisfy constraint: Member must have value between 1 and 100")
		}
		limit = int(*in.Limit)
	}
	out := &dynamodb.ListTablesOutput{TableNames: names}
	if len(names) > limit {
		out.TableNames = names[:limit]
		out.LastEvaluatedTableName = aws.String(names[limit-1])
	}
	return out, nil
}

// PutItem stores an item, replacing any with the same key.
func (db *DB) PutItem(ctx context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := db.fill(aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	t, err := db.table(aws.ToString(in.TableName))
	if err != nil {
		return nil, err
	}
	return &dynamodb.PutItemOutput{}, t.put(in.Item)
}

// BatchWriteItem applies puts and deletes, all at once.
func (db *DB) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := db.fill(slices.Collect(maps.Keys(in.RequestItems))...); err != nil {
		return nil, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	n := 0
	for name, reqs := range in.RequestItems {
		t, err := db.table(name)
		if err != nil {
			return nil, err
		}
		for _, r := range reqs {
			n++
			switch {
			case r.PutRequest != nil:
				if err := t.put(r.PutRequest.Item); err != nil {
					return nil, err
				}
			case r.DeleteRequest != nil:
				if err := t.checkKey(r.DeleteRequest.Key); err != nil {
					return nil, err
				}
				t.stream.write(t, t.delete(r.DeleteRequest.Key), nil)
			}
		}
	}
	if n > 25 {
		return nil, validation("Too many items requested for the BatchWriteItem call")
	}
	return &dynamodb.BatchWriteItemOutput{UnprocessedItems: map[string][]types.WriteRequest{}}, nil
}

func (t *table) checkKeyAttrs(item map[string]types.AttributeValue) error {
	for _, k := range t.keyAttrs() {
		v, ok := item[k]
		if !ok || typeName(v) != string(t.types[k]) {
			return validation("The provided key element does not match the schema")
		}
		if kb, _ := sortKey(v); kb == "" && typeName(v) != "N" {
			return validation("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: " + k)
		}
		if err := checkKeySize(v, k == t.pk); err != nil {
			return err
		}
	}
	return nil
}

func (t *table) put(item map[string]types.AttributeValue) error {
	if err := t.checkKeyAttrs(item); err != nil {
		return err
	}
	item = normalizeItem(item)
	for _, ix := range t.indexes {
		for _, k := range []string{ix.pk, ix.sk} {
			if v, ok := item[k]; k != "" && ok && typeName(v) != string(t.types[k]) {
				return validation("One or more parameter values were invalid: Type mismatch for Index Key " + k + " Expected: " + string(t.types[k]) + " Actual: " + typeName(v) + " IndexName: " + ix.name)
			}
		}
	}
	old := t.delete(item)
	t.stream.write(t, old, item)
	p := t.base.partition(item[t.pk], true)
	sk := ""
	if t.sk != "" {
		sk, _ = sortKey(item[t.sk])
	}
	rec := encodeItem(item)
	p.put(entry{sk: rec.within(sk), rec: rec})
	t.size += int64(itemSize(item))
	for _, ix := range t.indexes {
		ix.add(t, item, rec)
	}
	return nil
}

// delete removes the item with key's key and returns it (nil: none).
func (t *table) delete(key map[string]types.AttributeValue) map[string]types.AttributeValue {
	p := t.base.partition(key[t.pk], false)
	if p == nil {
		return nil
	}
	sk := ""
	if t.sk != "" {
		sk, _ = sortKey(key[t.sk])
	}
	i := p.search(sk, "")
	if i >= len(p.entries) || p.entries[i].sk != sk {
		return nil
	}
	old := p.entries[i].item()
	p.remove(sk, "")
	t.size -= int64(itemSize(old))
	for _, ix := range t.indexes {
		ix.remove(t, old)
	}
	return old
}

// tie orders index entries that share an index key: by a hash of the
// table key, as dynalite does.
func (t *table) tie(item map[string]types.AttributeValue) string {
	pk := keyBytes(item[t.pk])
	var sk []byte
	if t.sk != "" {
		sk = keyBytes(item[t.sk])
	}
	h := hashPrefix(pk, sk)
	out := make([]byte, 0, len(h)+len(pk)+1+len(sk))
	out = append(append(append(append(out, h...), pk...), 0), sk...)
	return string(out)
}

func (ix *index) position(t *table, item map[string]types.AttributeValue) (*partition, string, string, bool) {
	return ix.positionTie(t, item, nil)
}

// positionTie is position with the item's tie computed at most once for
// all of a table's indexes (tie holds it once computed).
func (ix *index) positionTie(t *table, item map[string]types.AttributeValue, tie *string) (*partition, string, string, bool) {
	pkv, ok := item[ix.pk]
	if !ok {
		return nil, "", "", false
	}
	sk := ""
	if ix.sk != "" {
		v, ok := item[ix.sk]
		if !ok {
			return nil, "", "", false
		}
		sk, _ = sortKey(v)
	}
	if tie == nil {
		return ix.store.partition(pkv, true), sk, t.tie(item), true
	}
	if *tie == "" {
		*tie = t.tie(item)
	}
	return ix.store.partition(pkv, true), sk, *tie, true
}

func (ix *index) add(t *table, item map[string]types.AttributeValue, rec record) {
	p, sk, tie, ok := ix.position(t, item)
	if !ok {
		return
	}
	p.put(entry{sk: sk, tie: tie, rec: ix.project(t, item, rec)})
}

func (ix *index) remove(t *table, item map[string]types.AttributeValue) {
	if p, sk, tie, ok := ix.position(t, item); ok {
		p.remove(sk, tie)
	}
}

// project is the record an index stores of an item: the table's own record
// (shared, not copied) when the index projects every attribute.
func (ix *index) project(t *table, item map[string]types.AttributeValue, rec record) record {
	var e encoder
	return ix.projectWith(&e, t, item, rec)
}

// projectWith is project encoding through e.
func (ix *index) projectWith(e *encoder, t *table, item map[string]types.AttributeValue, rec record) record {
	if ix.projection.ProjectionType == types.ProjectionTypeAll || ix.projection.ProjectionType == "" {
		return rec
	}
	return e.encodeOnly(item, ix.projected(t))
}

// projected names the attributes an index that does not project every
// attribute keeps: the table's key, its own key and any included ones.
func (ix *index) projected(t *table) []string {
	if ix.keep != nil {
		return ix.keep
	}
	keep := append(t.keyAttrs(), ix.pk)
	if ix.sk != "" {
		keep = append(keep, ix.sk)
	}
	if ix.projection.ProjectionType == types.ProjectionTypeInclude {
		keep = append(keep, ix.projection.NonKeyAttributes...)
	}
	ix.keep = keep // kept: an index's projection never changes
	return keep
}
