package demo

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// The demo's streams: two small tables keep a DynamoDB stream, and their
// last day is written as a workload, so that `changes` and the Changes
// tab have something to show. The workload is seeded and fixed: an
// order of customer c#001 moving from PLACED to its final status, the
// customer's e-mail changed, and device d#12345 reporting its last six
// states. Each item ends as the generator wrote it, so the tables hold
// exactly what they hold without streams; only their streams differ.

// StreamCustomer is the Shop partition whose orders move through their
// states in the stream.
const StreamCustomer = "c#001"

// streamTables are the demo tables created with a stream.
var streamTables = map[string]bool{ShopTable: true, StateTable: true}

func withStream(in *dynamodb.CreateTableInput) *dynamodb.CreateTableInput {
	if streamTables[aws.ToString(in.TableName)] {
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}
	}
	return in
}

// write is one write of the workload: item put at a time before DemoEnd.
type write struct {
	at   time.Duration // before DemoEnd
	item Item
}

// workload is a table's writes, oldest first, and the keys of the items
// they end in (left out of the bulk load).
func workload(table string, items []Item) (writes []write, keys map[string]bool) {
	keys = map[string]bool{}
	key := func(it Item) string { return fmt.Sprint(it["PK"], it["SK"], it["DeviceID"], it["State#Date"]) }
	with := func(it Item, kv ...any) Item {
		out := maps.Clone(it)
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1].(types.AttributeValue)
		}
		return out
	}
	switch table {
	case ShopTable:
		order := 0
		for _, it := range items {
			pk, sk := it["PK"].(*types.AttributeValueMemberS).Value, it["SK"].(*types.AttributeValueMemberS).Value
			if pk != StreamCustomer {
				continue
			}
			keys[key(it)] = true
			if sk == StreamCustomer { // the customer: an e-mail changed
				writes = append(writes, write{23 * time.Hour, with(it, "Email", str("c1@old.example.com"))}, write{5 * time.Hour, it})
				continue
			}
			order++
			step := time.Duration(order) * 17 * time.Minute
			for i, status := range []string{"PLACED", "PAID", "SHIPPED"} {
				writes = append(writes, write{20*time.Hour - time.Duration(i)*6*time.Hour - step,
					with(it, "Status", str(status), "GSI1PK", str("status#"+status))})
			}
			writes = append(writes, write{40*time.Minute - step, it})
		}
	case StateTable:
		var mine []Item
		for _, it := range items {
			if it["DeviceID"].(*types.AttributeValueMemberS).Value == StateDevice {
				mine = append(mine, it)
			}
		}
		for i, it := range mine[max(0, len(mine)-6):] {
			keys[key(it)] = true
			writes = append(writes, write{time.Hour - time.Duration(i)*10*time.Minute, it})
		}
	}
	return writes, keys
}

// loadWithStream fills a stream table: its items in bulk (recording
// nothing), then the workload's writes through PutItem at their times.
// The database's clock is left at DemoEnd, the demo's present.
func loadWithStream(ctx context.Context, db *memory.DB, table string) error {
	var items []Item
	if err := Items(table, func(it Item) error { items = append(items, it); return nil }); err != nil {
		return err
	}
	writes, keys := workload(table, items)
	var rest []map[string]types.AttributeValue
	for _, it := range items {
		if !keys[fmt.Sprint(it["PK"], it["SK"], it["DeviceID"], it["State#Date"])] {
			rest = append(rest, it)
		}
	}
	if _, err := db.PutItems(ctx, table, rest); err != nil {
		return err
	}
	slicesSortByAt(writes)
	for _, w := range writes {
		at := DemoEnd.Add(-w.at)
		db.SetClock(func() time.Time { return at })
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: w.item}); err != nil {
			return err
		}
	}
	db.SetClock(func() time.Time { return DemoEnd })
	return nil
}

// slicesSortByAt orders writes oldest first (the longest before DemoEnd),
// keeping the order of writes at the same time.
func slicesSortByAt(ws []write) {
	for i := 1; i < len(ws); i++ {
		for j := i; j > 0 && ws[j].at > ws[j-1].at; j-- {
			ws[j], ws[j-1] = ws[j-1], ws[j]
		}
	}
}
