package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// The cases of G at its limits and of partitions: partition
// "end" of table Bench holds -g-items items (1,000,000 for the issue's
// figure), partition "states" a STATE#time log over four states merged by
// time, and table Indexed a GSI with large partitions.
const (
	stateItems   = 20000 // in "states", over four prefixes
	indexParts   = 40    // partitions of Indexed's GSI
	indexPerPart = 500   // items in each
)

var stateNames = []string{"ERROR", "NORMAL", "WARNING1", "WARNING2"}

var indexKey = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "G", Type: "S"}, SK: &dynamo.KeyAttr{Name: "R", Type: "S"}}

// seedEnd writes partition "end" of n items, timing it apart: seeding a
// million items is itself a figure.
func seedEnd(ctx context.Context, c *dynamodb.Client, n, payload int) (time.Duration, error) {
	t0 := time.Now()
	data := strings.Repeat("x", payload)
	const chunk = 50000 // items held at once: a million would not fit the bench's memory well
	for from := 0; from < n; from += chunk {
		items := make([]dynamo.Item, 0, chunk)
		for i := from; i < min(n, from+chunk); i++ {
			items = append(items, dynamo.Item{"PK": s("end"), "SK": s(fmt.Sprintf("E#%07d", i)), "Data": s(data)})
		}
		if err := writeAll(ctx, c, "Bench", items); err != nil {
			return 0, err
		}
	}
	return time.Since(t0), nil
}

// seedMore writes the merged range's log, the indexed table and the
// demo's Locations.
func seedMore(ctx context.Context, c *dynamodb.Client, payload int) error {
	data := strings.Repeat("x", payload)
	start := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	var items []dynamo.Item
	for i := range stateItems {
		at := start.Add(time.Duration(i) * 7 * time.Minute).Format("2006-01-02T15:04:05")
		items = append(items, dynamo.Item{"PK": s("states"), "SK": s(stateNames[(i*3)%4] + "#" + at), "Data": s(data)})
	}
	if err := writeAll(ctx, c, "Bench", items); err != nil {
		return err
	}
	attr := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: "S"}
	}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Indexed"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attr("PK"), attr("G"), attr("R")},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByG"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("R"), KeyType: types.KeyTypeRange}}}}})
	if err != nil {
		return err
	}
	items = items[:0]
	for i := range indexParts * indexPerPart {
		items = append(items, dynamo.Item{"PK": s(fmt.Sprintf("item-%06d", i)), "G": s(fmt.Sprintf("group-%02d", i%indexParts)), "R": s(fmt.Sprintf("R#%06d", i)), "Data": s(data)})
	}
	if err := writeAll(ctx, c, "Indexed", items); err != nil {
		return err
	}
	if err := createTable(ctx, c, "Heavy", "S"); err != nil {
		return err
	}
	if err := demo.WaitActive(ctx, c, "Heavy"); err != nil {
		return err
	}
	if err := writeAll(ctx, c, "Heavy", heavyItems()); err != nil {
		return err
	}
	_, err = demo.Seed(ctx, c, demo.Options{Tables: []string{"Locations"}})
	return err
}

// heavyItems is the boto3 "shop" table's shape: 12 partitions of 1 to 70
// small items, one of which, H03, begins with six of 108-266 KB (1 MB).
func heavyItems() []dynamo.Item {
	var items []dynamo.Item
	for p, n := range []int{7, 70, 13, 26, 13, 8, 13, 13, 50, 1, 14, 10} {
		for i := range n {
			data := strings.Repeat("d", 40)
			if p == 3 && i < 6 {
				data = strings.Repeat("h", []int{204084, 218942, 265992, 112258, 110555, 109010}[i])
			}
			items = append(items, dynamo.Item{"PK": s(fmt.Sprintf("H%02d", p)), "SK": s(fmt.Sprintf("K%03d", i)), "Data": s(data)})
		}
	}
	return items
}

// runEnd measures G on partition "end" (when seeded), the merged range's
// G and the partitions of two indexes.
func runEnd(ctx context.Context, c dynamo.Client, t *table, gItems int) {
	if gItems > 0 {
		what := fmt.Sprintf("G: %s items", thousands(gItems))
		t.add(measure(c, what, "forward pages", func(m dynamo.Client) string {
			return walkToEnd(ctx, m, partitionQuery("end"))
		}))
		t.add(measure(c, what, "one reverse read", func(m dynamo.Client) string {
			return readEnd(ctx, m, partitionQuery("end"))
		}))
	}

	// G on a range merged across four prefixes (Time mode at a STATE#time
	// partition's root): the whole merge walked, or one reverse Query a
	// prefix merged from the end.
	base := domain.KeyQuery{Table: "Bench", PKName: "PK", PK: domain.S("states"), SKName: "SK", Reverse: true}
	detected := domain.DetectTimeSample([]string{"NORMAL#2020-01-01T00:07:00", "ERROR#2020-01-01T00:00:00", "WARNING1#2020-01-01T00:21:00"}, false)
	if !detected.OK {
		fail(fmt.Errorf("the states' keys do not read as time"))
	}
	enc := detected.Enc
	var prefixes []string
	for _, st := range stateNames {
		prefixes = append(prefixes, st+"#")
	}
	r, err := domain.ParseRange("2020", time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC), time.UTC)
	if err != nil {
		fail(err)
	}
	what := fmt.Sprintf("G: merged range, %d prefixes", len(prefixes))
	t.add(measure(c, what, "merge walked", func(m dynamo.Client) string {
		mr, err := dynamo.NewMergedRange(m, base, prefixes, r, enc, 0, nil)
		if err != nil {
			return err.Error()
		}
		var last dynamo.Item
		for {
			it, err := mr.Next(ctx)
			if err != nil {
				return err.Error()
			}
			if it == nil {
				break
			}
			last = it
		}
		return "ends at " + text(last["SK"])
	}))
	t.add(measure(c, what, "merged from the end", func(m dynamo.Client) string {
		mr, err := dynamo.NewMergedRange(m, base, prefixes, r, enc, 0, nil)
		if err != nil {
			return err.Error()
		}
		end, err := mr.FromEnd(dynamo.ScreenLimit(screenRows)).Take(ctx, int(dynamo.ScreenLimit(screenRows)))
		if err != nil || len(end) == 0 {
			return fmt.Sprint("nothing ", err)
		}
		return "ends at " + text(end[0]["SK"])
	}))
}

// runPartitions measures a first screen of partitions: of tables Bench
// (a few large partitions) and Parts (many small), of an index with large
// partitions (skip-scanned in parallel segments) and of the demo's
// Locations through ByCity (mid-size partitions, bulk pages).
func runPartitions(ctx context.Context, c dynamo.Client, t *table) {
	for _, tbl := range []string{"Bench", "Parts"} {
		t.add(measure(c, "partitions: first screen of "+tbl, "3+1 Scan pages", func(m dynamo.Client) string {
			return plainPartitions(ctx, m, dynamo.PartitionsRequest{Table: tbl, Key: benchKey}, 4)
		}))
		t.add(measure(c, "partitions: first screen of "+tbl, "skip-scan", func(m dynamo.Client) string {
			res, err := dynamo.ListPartitions(ctx, m, dynamo.FirstPartitions(tbl, benchKey), screenRows)
			if err != nil {
				return err.Error()
			}
			return fmt.Sprintf("%d partitions", len(res.Partitions))
		}))
	}

	// Shop's shape: a first screen of every partition, as dynalite lists
	// it (DescribeTable reports no size) and given the size and count
	// DynamoDB reports (here the items' summed size, which errs low).
	var size int64
	heavy := heavyItems()
	for _, it := range heavy {
		size += int64(dynamo.ItemBytes(it))
	}
	for _, way := range []struct {
		how         string
		size, count int64
	}{{"size not reported", 0, 0}, {"table's size given", size, int64(len(heavy))}} {
		t.add(measure(c, "partitions: shop's shape, 12, one of 200 KB items", way.how, func(m dynamo.Client) string {
			res, err := dynamo.ListPartitions(ctx, m, dynamo.FirstPartitions("Heavy", benchKey).WithTableSize(way.size, way.count), screenRows)
			if err != nil {
				return err.Error()
			}
			return fmt.Sprintf("%d partitions", len(res.Partitions))
		}))
	}

	// An index's partitions: a first screen of them.
	what := fmt.Sprintf("partitions: index, %d × %d", indexParts, indexPerPart)
	t.add(measure(c, what, "plain pages", func(m dynamo.Client) string {
		return plainPartitions(ctx, m, dynamo.PartitionsRequest{Table: "Indexed", Index: "ByG", Key: indexKey}, 0)
	}))
	t.add(measure(c, what, "skip-scan", func(m dynamo.Client) string {
		res, err := dynamo.ListPartitions(ctx, m, dynamo.FirstIndexPartitions("Indexed", "ByG", indexKey, dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}}), screenRows)
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%d partitions", len(res.Partitions))
	}))

	// The demo's Locations through ByCity: mid-size partitions (a city's
	// stores) of small index items (keys and a street address).
	what = "partitions: demo Locations/ByCity"
	cityKey := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "City", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	t.add(measure(c, what, "plain pages", func(m dynamo.Client) string {
		return plainPartitions(ctx, m, dynamo.PartitionsRequest{Table: "Locations", Index: "ByCity", Key: cityKey}, 0)
	}))
	t.add(measure(c, what, "skip-scan", func(m dynamo.Client) string {
		res, err := dynamo.ListPartitions(ctx, m, dynamo.FirstIndexPartitions("Locations", "ByCity", cityKey, benchKey), screenRows)
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%d partitions", len(res.Partitions))
	}))
}

func walkToEnd(ctx context.Context, m dynamo.Client, q domain.KeyQuery) string {
	var start dynamo.Item
	var last []dynamo.Item
	for {
		p, err := dynamo.QueryPage(ctx, m, dynamo.PageRequest{Query: q, Start: start})
		if err != nil {
			return err.Error()
		}
		last = p.Items
		if !p.More() {
			break
		}
		start = p.LastKey
	}
	return "ends at " + lastKey(last)
}

// readEnd is G: the last screen in one reverse read.
func readEnd(ctx context.Context, m dynamo.Client, q domain.KeyQuery) string {
	q.Reverse = true
	p, err := dynamo.QueryPage(ctx, m, dynamo.PageRequest{Query: q, Limit: dynamo.ScreenLimit(screenRows)})
	if err != nil || len(p.Items) == 0 {
		return fmt.Sprint("nothing ", err)
	}
	return "ends at " + text(p.Items[0]["SK"])
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
