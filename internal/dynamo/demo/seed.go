package demo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

var generators = map[string]func(func(Item) error) error{
	"Locations": locations, "Geography": geography, "Equipment": equipment, "Documents": documents,
	"DeviceLogs": deviceLogs, "Metrics": metrics, "AuditLog": auditLog, "ChatMessages": chatMessages, "Blobs": blobs,
	PolicyTable: policies,
	ShopTable:   onlineShop, StateTable: deviceStates, PartVersionsTable: partVersions, PartStatesTable: partStates,
	ShapesTable: shapes, OrdersTable: orders,
}

// Items calls fn for every item of the named table, in a fixed order.
func Items(table string, fn func(Item) error) error {
	gen, ok := generators[table]
	if !ok {
		return fmt.Errorf("no demo table %q", table)
	}
	return gen(fn)
}

// Stats counts what Seed wrote.
type Stats struct {
	Tables int
	Items  map[string]int
}

// Options narrows Seed to some tables (all when empty).
type Options struct {
	Tables []string
}

// Seed creates the demo tables in w and writes every item, 25 per
// BatchWriteItem, retrying unprocessed items. It stops when ctx ends. A
// table that exists is written into (the seed command refuses one unless
// told to replace it). Stats count only what the server accepted, and
// every error names its table.
func Seed(ctx context.Context, w dynamo.Writer, opts ...Options) (Stats, error) {
	want := map[string]bool{}
	for _, o := range opts {
		for _, t := range o.Tables {
			want[t] = true
		}
	}
	st := Stats{Items: map[string]int{}}
	for _, def := range Tables() {
		name := aws.ToString(def.TableName)
		if len(want) > 0 && !want[name] {
			continue
		}
		if _, err := w.CreateTable(ctx, def); err != nil {
			var inUse *types.ResourceInUseException
			if !errors.As(err, &inUse) {
				return st, dynamo.Explain("create table "+name, err)
			}
		}
		if err := WaitActive(ctx, w, name); err != nil {
			return st, dynamo.Explain("wait for table "+name, err)
		}
		st.Tables++
		batch := make([]types.WriteRequest, 0, 25)
		flush := func() error {
			if len(batch) == 0 {
				return nil
			}
			n, err := writeBatch(ctx, w, name, batch)
			st.Items[name] += n
			batch = batch[:0]
			return err
		}
		err := Items(name, func(it Item) error {
			batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
			if len(batch) == 25 {
				return flush()
			}
			return nil
		})
		if err == nil {
			err = flush()
		}
		if err != nil {
			return st, dynamo.Explain("write table "+name, err)
		}
	}
	return st, nil
}

// WaitActive waits for a new table to become ACTIVE, where the writer can
// say (real servers create tables asynchronously).
func WaitActive(ctx context.Context, w dynamo.Writer, name string) error {
	d, ok := w.(interface {
		DescribeTable(context.Context, *dynamodb.DescribeTableInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	})
	if !ok {
		return nil
	}
	for i := 0; i < 600; i++ {
		out, err := d.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err == nil && out.Table.TableStatus == types.TableStatusActive {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("table %s did not become ACTIVE", name)
}

// writeBatch writes reqs, retrying what the server leaves unprocessed,
// and returns how many it accepted.
func writeBatch(ctx context.Context, w dynamo.Writer, table string, reqs []types.WriteRequest) (written int, err error) {
	pending := map[string][]types.WriteRequest{table: append([]types.WriteRequest(nil), reqs...)}
	for attempt := 0; len(pending) > 0; attempt++ {
		sent := len(pending[table])
		out, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
		if err != nil {
			return written, err
		}
		pending = out.UnprocessedItems
		written += sent - len(pending[table])
		if len(pending) == 0 {
			return written, nil
		}
		if attempt > 8 {
			return written, fmt.Errorf("%d items still unprocessed after %d attempts", len(pending[table]), attempt)
		}
		select {
		case <-ctx.Done():
			return written, ctx.Err()
		case <-time.After(time.Duration(25<<attempt) * time.Millisecond):
		}
	}
	return written, nil
}

// Load returns a new embedded backend holding the whole demo. Its tables
// exist at once; each table's items are generated on the first request
// that reads or writes it (describing it answers from counts known
// beforehand, counts.go), so --demo is ready in milliseconds instead of
// the seconds all ~135,000 items take, and a session pays only for the
// tables it opens.
func Load(ctx context.Context) (*memory.DB, error) {
	db := memory.New()
	for _, def := range Tables() {
		if _, err := db.CreateTable(ctx, def); err != nil {
			return nil, err
		}
		name := aws.ToString(def.TableName)
		if streamTables[name] {
			if err := loadWithStream(ctx, db, name); err != nil { // small: written at once, its stream with it
				return nil, err
			}
			continue
		}
		items := func() ([]map[string]types.AttributeValue, error) {
			var items []map[string]types.AttributeValue
			err := Items(name, func(it Item) error { items = append(items, it); return nil })
			return items, err
		}
		if c, ok := knownCounts[name]; ok {
			// Described (as the tables page does for every table) without
			// generating its items.
			db.LazyCounted(name, c, items)
		} else {
			db.Lazy(name, items)
		}
	}
	return db, nil
}

// CreateKeyTable creates a table keyed PK (S) and SK (of skType), waits for
// it to be ACTIVE, and writes items in batches: the shape tests build their
// own data in.
func CreateKeyTable(ctx context.Context, w dynamo.Writer, name string, skType types.ScalarAttributeType, items []dynamo.Item) error {
	if _, err := w.CreateTable(ctx, table(name, []types.AttributeDefinition{attr("PK", "S"), attr("SK", skType)}, "PK", "SK")); err != nil {
		return err
	}
	if err := WaitActive(ctx, w, name); err != nil {
		return err
	}
	for i := 0; i < len(items); {
		// 25 a batch, fewer where items are big (a batch carries 16 MB).
		n, size := 0, 0
		for i+n < len(items) && n < 25 && size < 8<<20 {
			size += approxSize(items[i+n])
			n++
		}
		var reqs []types.WriteRequest
		for _, it := range items[i : i+n] {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		}
		if _, err := writeBatch(ctx, w, name, reqs); err != nil {
			return err
		}
		i += n
	}
	return nil
}

// approxSize bounds an item's size well enough to fill batches.
func approxSize(it dynamo.Item) int {
	n := 0
	for k, v := range it {
		n += len(k) + 64
		if s, ok := v.(*types.AttributeValueMemberS); ok {
			n += len(s.Value)
		}
	}
	return n
}
