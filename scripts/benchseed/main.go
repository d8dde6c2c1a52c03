// Command benchseed fills one partition of a DynamoDB-compatible server on
// this machine with many items, for scripts/bench-items.sh. It writes 25-item
// BatchWriteItem requests in parallel, then prints what a full Query of the
// partition should take: the items' total size and the 1 MB pages it needs,
// both by the naive bound and by replaying the data through the embedded
// backend, whose page sizing the conformance suite holds to dynalite's.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

type writer interface {
	CreateTable(context.Context, *dynamodb.CreateTableInput, ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

func main() {
	endpoint := flag.String("endpoint-url", "", "server on this machine, e.g. http://127.0.0.1:8000 (required)")
	table := flag.String("table", "Bench", "table to create")
	pk := flag.String("pk", "bench", "the partition to fill")
	n := flag.Int("items", 100000, "items to write")
	payload := flag.Int("payload", 250, "bytes of payload per item")
	parallel := flag.Int("parallel", 16, "concurrent BatchWriteItem requests")
	flag.BoolVar(&timestamps, "timestamps", false, "sort keys are ISO-8601 times a minute apart from 2026-01-01T00:00:00Z")
	flag.IntVar(&every, "every", 0, "every Nth item has Status = \"FAILED\", the others \"OK!!!!\" (same size): a filter matching 1/N (0: no Status)")
	flag.BoolVar(&hierarchy, "hierarchy", false, "sort keys TOPnn#REGIONnn#SITEnnn#nnnnnn: 20 top-level children, deeper levels below")
	flag.Parse()
	if !dynamo.LoopbackEndpoint(*endpoint) {
		fail("benchseed writes: give --endpoint-url of a server on this machine")
	}
	ctx := context.Background()
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: endpoint,
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", ""), RetryMaxAttempts: 5})

	start := time.Now()
	if err := fill(ctx, c, *table, *pk, *n, *payload, *parallel); err != nil {
		fail(err.Error())
	}
	wrote := time.Since(start)

	db := memory.New()
	if err := fill(ctx, db, *table, *pk, *n, *payload, 1); err != nil {
		fail(err.Error())
	}
	pages, err := countPages(ctx, db, *table, *pk)
	if err != nil {
		fail(err.Error())
	}
	bytes := int64(*n) * int64(itemBytes(*payload))
	fmt.Printf("seeded_items=%d seed_seconds=%.1f item_bytes=%d total_bytes=%d pages_naive=%d pages_exact=%d\n",
		*n, wrote.Seconds(), itemBytes(*payload), bytes, int(math.Ceil(float64(bytes)/(1<<20))), pages)
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "benchseed:", msg)
	os.Exit(1)
}

// hierarchy shapes the sort keys as a four-level hierarchy instead of
// item#nnnnnnn, for the drill-down benchmark.
var hierarchy bool

// timestamps makes the sort keys times, for the range benchmark.
var timestamps bool

// every marks one item in every N for the filter benchmark.
var every int

// timeBase is the first item's time with --timestamps.
var timeBase = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func sortKey(i int) string {
	if timestamps {
		return timeBase.Add(time.Duration(i) * time.Minute).Format("2006-01-02T15:04:05Z")
	}
	if hierarchy {
		return fmt.Sprintf("TOP%02d#REGION%02d#SITE%03d#%06d", i%20, (i/20)%10, (i/200)%50, i)
	}
	return fmt.Sprintf("item#%07d", i)
}

// item i of the partition: string attributes only, so its DynamoDB size is
// simply the lengths of names and values.
func item(pk string, i, payload int) map[string]types.AttributeValue {
	r := rand.New(rand.NewPCG(uint64(i), 7))
	p := make([]byte, payload)
	for j := range p {
		p[j] = byte('a' + r.IntN(26))
	}
	it := map[string]types.AttributeValue{
		"PK":      &types.AttributeValueMemberS{Value: pk},
		"SK":      &types.AttributeValueMemberS{Value: sortKey(i)},
		"Payload": &types.AttributeValueMemberS{Value: string(p)},
	}
	if every > 0 {
		status := "OK!!!!"
		if i%every == every-1 {
			status = "FAILED"
		}
		it["Status"] = &types.AttributeValueMemberS{Value: status}
	}
	return it
}

// itemBytes is the DynamoDB size of one item (the PK "bench" of 5 bytes).
func itemBytes(payload int) int {
	n := len("PK") + 5 + len("SK") + len(sortKey(0)) + len("Payload") + payload
	if every > 0 {
		n += len("Status") + len("FAILED")
	}
	return n
}

func fill(ctx context.Context, w writer, table, pk string, n, payload, parallel int) error {
	_, err := w.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		return fmt.Errorf("create table %s: %w", table, err)
	}
	batches := make(chan []types.WriteRequest)
	errs := make(chan error, parallel)
	var wg sync.WaitGroup
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				if err := writeBatch(ctx, w, table, b); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	go func() {
		defer close(batches)
		for i := 0; i < n; i += 25 {
			b := make([]types.WriteRequest, 0, 25)
			for j := i; j < min(i+25, n); j++ {
				b = append(b, types.WriteRequest{PutRequest: &types.PutRequest{Item: item(pk, j, payload)}})
			}
			select {
			case batches <- b:
			case err := <-errs:
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

func writeBatch(ctx context.Context, w writer, table string, reqs []types.WriteRequest) error {
	pending := map[string][]types.WriteRequest{table: reqs}
	for attempt := 0; len(pending) > 0; attempt++ {
		if attempt > 10 {
			return fmt.Errorf("items still unprocessed after %d attempts", attempt)
		}
		out, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
		if err != nil {
			return err
		}
		pending = out.UnprocessedItems
		if len(pending) > 0 {
			time.Sleep(time.Duration(10<<attempt) * time.Millisecond)
		}
	}
	return nil
}

// countPages pages through the partition as the items command does, with no
// limit, and returns how many Query requests that took.
func countPages(ctx context.Context, c dynamo.Client, table, pk string) (int, error) {
	q := domain.KeyQuery{Table: table, PKName: "PK", PK: domain.S(pk), SKName: "SK"}
	var start dynamo.Item
	for pages := 1; ; pages++ {
		p, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: q, Start: start})
		if err != nil {
			return pages, err
		}
		if !p.More() {
			return pages, nil
		}
		start = p.LastKey
	}
}
