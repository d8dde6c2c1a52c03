// Command benchlatency measures what dynascope's reads cost when DynamoDB is
// tens of milliseconds away: it starts dynalite, puts a loopback proxy in
// front of it that holds every request for 0, 20 and 50 ms, and prints
// requests, consumed RCU, wall time and round trips (the longest chain of
// requests each sent after the previous came back) for each operation, the
// new way beside the old or sequential way.
// Figures only: it never passes or fails on them (make bench-latency).
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

func main() {
	items := flag.Int("items", 100000, "items in the partition of 25 sparse children")
	payload := flag.Int("payload", 300, "payload bytes per item (~50 more in keys)")
	delays := flag.String("delays", "0,20ms,50ms", "added latency per request, comma-separated")
	gItems := flag.Int("g-items", 0, "items in a partition of its own for G's figure (1000000 for the issue's; 0: none)")
	only := flag.String("cases", "all", "all; levels: only the levels, counts, first screen and budgets of issue 28; partitions: only the partitions' first screens; bursts: only the 200-key bursts")
	which := flag.String("bursts", "", "the bursts to run (CASES=bursts), comma-separated: j, pgdn, ctrl+f, end, G-then-k (default: all)")
	runs := flag.Int("runs", 5, "runs of each burst (CASES=bursts): the median is printed, with the fastest")
	flag.BoolVar(&typedKeys, "typed", false, "with CASES=bursts: the keys reach the model one at a time, the reads' answers taken between them as Bubble Tea's input reader and unbuffered message channel do (default: every key queued before any answer)")
	trace := flag.Bool("trace", false, "with CASES=bursts: where each burst's time goes, the median of each step from a Query sent to the next")
	flag.Parse()

	srv, err := dynalitetest.Launch()
	if err != nil {
		fail(err)
	}
	defer srv.Stop()
	ctx := context.Background()
	t0 := time.Now()
	if err := seed(ctx, srv.Client(), *items, *payload); err != nil {
		fail(err)
	}
	if err := seedMore(ctx, srv.Client(), *payload); err != nil {
		fail(err)
	}
	if err := seedLevels(ctx, srv.Client(), *payload); err != nil {
		fail(err)
	}
	if err := seedTables(ctx, srv.Client()); err != nil {
		fail(err)
	}
	if err := seedBurst(ctx, srv.Client(), *payload); err != nil {
		fail(err)
	}
	fmt.Printf("seeded %d items (~%d bytes each) and the other cases in %s\n", *items+10100+partitionCount*20+stateItems+indexParts*indexPerPart+burstItems, *payload+50, time.Since(t0).Round(time.Second))
	if *gItems > 0 {
		took, err := seedEnd(ctx, srv.Client(), *gItems, *payload)
		if err != nil {
			fail(err)
		}
		fmt.Printf("seeded G's partition of %s items in %s (BatchWriteItem, 25 items a request, 8 in flight): %.0f items/s\n",
			thousands(*gItems), took.Round(time.Second), float64(*gItems)/took.Seconds())
	}

	for _, d := range strings.Split(*delays, ",") {
		delay, err := time.ParseDuration(strings.TrimSpace(d))
		if d == "0" {
			delay, err = 0, nil
		}
		if err != nil {
			fail(err)
		}
		target, stop := delayProxy(srv.Endpoint, delay)
		fmt.Printf("\n== %s added per request\n", delay)
		switch *only {
		case "bursts":
			t := newTable()
			var c dynamo.Client = client(target)
			if *trace {
				timeline = &steps{}
				c = traceQueries{tracedClient(target)}
			}
			runBursts(c, t, *runs, *which)
			t.flush()
			stop()
			continue
		case "partitions":
			t := newTable()
			runPartitions(ctx, client(target), t)
			t.flush()
		case "levels":
		default:
			run(ctx, client(target), *gItems)
		}
		if *only != "partitions" {
			t := newTable()
			runLevels(ctx, client(target), t)
			t.flush()
		}
		stop()
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchlatency:", err)
	os.Exit(1)
}

func client(endpoint string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("bench", "bench", ""), RetryMaxAttempts: 1})
}

// delayProxy forwards to target, holding each request for d first.
func delayProxy(target string, d time.Duration) (string, func()) {
	u, _ := url.Parse(target)
	rp := httputil.NewSingleHostReverseProxy(u)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(err)
	}
	s := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(d)
		rp.ServeHTTP(w, r)
	})}
	go s.Serve(l)
	return "http://" + l.Addr().String(), func() { s.Close() }
}

// figure is one measured operation.
type figure struct {
	what, how string
	cost      dynamo.Cost
	wall      time.Duration
	note      string
	trips     int
	billed    float64 // RCU as DynamoDB bills them: at least 0.5 a read
}

type table struct {
	w *tabwriter.Writer
}

func newTable() *table {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "operation\tway\trequests\tRCU reported\tRCU billed\twall\tround trips\tresult\t")
	return &table{w: w}
}

func (t *table) add(f figure) {
	fmt.Fprintf(t.w, "%s\t%s\t%d\t%.1f\t%.1f\t%s\t%d\t%s\t\n", f.what, f.how, f.cost.Requests, f.cost.RCU, f.billed, f.wall.Round(100*time.Microsecond), f.trips, f.note)
}

func (t *table) flush() { t.w.Flush() }

// measure runs f on a metered client and returns what it cost.
func measure(c dynamo.Client, what, how string, f func(dynamo.Client) string) figure {
	tr := &tripCounter{Client: c}
	m := dynamo.NewMetered(tr)
	t0 := time.Now()
	note := f(m)
	wall := time.Since(t0)
	total, _ := m.Session.Totals()
	return figure{what: what, how: how, cost: total, wall: wall, note: note, trips: tr.trips(), billed: tr.billed}
}

// tripCounter records when each request was out, to count round trips:
// the longest chain of requests each sent after the one before it came
// back (requests out at the same time share a round trip).
type tripCounter struct {
	dynamo.Client
	mu     sync.Mutex
	spans  [][2]time.Time
	billed float64
}

// note records a request's span and what DynamoDB bills for it: what
// the server reported, but never under 0.5 RCU a read (an eventually
// consistent read of up to 4 KB, even of nothing).
func (t *tripCounter) note(start time.Time, cc *types.ConsumedCapacity) {
	t.mu.Lock()
	t.spans = append(t.spans, [2]time.Time{start, time.Now()})
	units := 0.0
	if cc != nil && cc.CapacityUnits != nil {
		units = *cc.CapacityUnits
	}
	t.billed += max(units, 0.5)
	t.mu.Unlock()
}

func (t *tripCounter) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	start := time.Now()
	out, err := t.Client.Query(ctx, in, o...)
	var cc *types.ConsumedCapacity
	if out != nil {
		cc = out.ConsumedCapacity
	}
	t.note(start, cc)
	return out, err
}

func (t *tripCounter) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	start := time.Now()
	out, err := t.Client.Scan(ctx, in, o...)
	var cc *types.ConsumedCapacity
	if out != nil {
		cc = out.ConsumedCapacity
	}
	t.note(start, cc)
	return out, err
}

// ListTables is a round trip too, billed nothing.
func (t *tripCounter) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	start := time.Now()
	out, err := t.Client.ListTables(ctx, in, o...)
	t.mu.Lock()
	t.spans = append(t.spans, [2]time.Time{start, time.Now()})
	t.mu.Unlock()
	return out, err
}

func (t *tripCounter) trips() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	spans := append([][2]time.Time(nil), t.spans...)
	sort.Slice(spans, func(i, j int) bool { return spans[i][1].Before(spans[j][1]) })
	depth := make([]int, len(spans))
	most := 0
	for i, s := range spans {
		depth[i] = 1
		for j := range i {
			if !spans[j][1].After(s[0]) {
				depth[i] = max(depth[i], depth[j]+1)
			}
		}
		most = max(most, depth[i])
	}
	return most
}

// writeAll puts items with 8 BatchWriteItem requests in flight.
func writeAll(ctx context.Context, c *dynamodb.Client, name string, items []dynamo.Item) error {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	batches := make(chan []dynamo.Item)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				reqs := make([]types.WriteRequest, len(b))
				for i, it := range b {
					reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
				}
				pending := map[string][]types.WriteRequest{name: reqs}
				for len(pending[name]) > 0 {
					out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
					if err != nil {
						errs <- err
						return
					}
					pending = out.UnprocessedItems
				}
			}
		}()
	}
	for i := 0; i < len(items); i += 25 {
		batches <- items[i:min(i+25, len(items))]
	}
	close(batches)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

func createTable(ctx context.Context, c *dynamodb.Client, name string, sk types.ScalarAttributeType) error {
	in := &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}}}
	if sk != "" {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("SK"), AttributeType: sk})
		in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange})
	}
	_, err := c.CreateTable(ctx, in)
	return err
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
