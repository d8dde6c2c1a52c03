package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
)

// followWrites is how many writes the follow latency is taken over.
const followWrites = 10

// orderWriter is what the benchmark needs of a backend: a table to make
// and items to put, on moto and the embedded backend alike.
type orderWriter interface {
	dynamo.Client
	CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
}

// BenchmarkChangesFollowLatency times F in the Changes tab: from a write
// returning to its record on screen in the tab (the model's frame says
// "following · N new"), over followWrites writes, on the embedded backend
// and on moto. It prints min, median and max; it asserts nothing about
// them (make bench-changes-follow).
func BenchmarkChangesFollowLatency(b *testing.B) {
	backends := map[string]func(b *testing.B) (orderWriter, dynamo.StreamsClient){
		"memory": func(*testing.B) (orderWriter, dynamo.StreamsClient) { db := memory.New(); return db, db },
		"moto": func(b *testing.B) (orderWriter, dynamo.StreamsClient) {
			srv := mototest.Start(b)
			return srv.Client(), srv.Streams()
		},
	}
	for _, name := range []string{"memory", "moto"} {
		b.Run(name, func(b *testing.B) {
			db, streams := backends[name](b)
			for range b.N {
				lat := followLatency(b, db, streams)
				slices.Sort(lat)
				b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "ms-median")
				fmt.Printf("changes tab follow latency, %s, %d writes: min %s, median %s, max %s\n", name, len(lat),
					lat[0].Round(time.Millisecond), lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
			}
		})
	}
}

var latencyTables int

// followLatency opens a fresh table's partition in the Changes tab, starts
// following, and times each of followWrites writes to its row.
func followLatency(b *testing.B, db orderWriter, streams dynamo.StreamsClient) []time.Duration {
	ctx := context.Background()
	latencyTables++
	table := fmt.Sprintf("FollowLatency%d", latencyTables)
	s := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: "S"}
	}
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(table),
		AttributeDefinitions: []types.AttributeDefinition{s("PK"), s("SK")}, BillingMode: types.BillingModePayPerRequest,
		KeySchema:           []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}}); err != nil {
		b.Fatal(err)
	}
	put := func(sk string) {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "c1"}, "SK": &types.AttributeValueMemberS{Value: sk}}}); err != nil {
			b.Fatal(err)
		}
	}
	put("o0")
	h := newHarness(b, 120, 35, Config{Client: db, Streams: streams, Table: table, PK: "c1"})
	h.keys("5")
	if !strings.Contains(h.screen(), "c1 · 1 change in 24 h") {
		b.Fatalf("the Changes tab did not list the first write:\n%s", h.screen())
	}
	d := h.driver()
	d.key("F")
	pump(b, d, func(s string) bool { return strings.Contains(s, "following") })
	var lat []time.Duration
	for i := 1; i <= followWrites; i++ {
		// Writes land at different points of the reader's 1 s poll, as a
		// user's would.
		time.Sleep(time.Duration(137*i%1000) * time.Millisecond)
		start := time.Now()
		put(fmt.Sprintf("o%d", i))
		want := fmt.Sprintf("following · %d new", i)
		pump(b, d, func(s string) bool { return strings.Contains(s, want) })
		lat = append(lat, time.Since(start))
	}
	d.key("F") // stop following: the reader's context ends with it
	return lat
}

// pump runs the program's loop, as driver.until does, for a benchmark.
func pump(b *testing.B, d *driver, done func(screen string) bool) {
	stop := time.After(30 * time.Second)
	for !done(d.h.screen()) {
		select {
		case msg := <-d.msgs:
			switch msg := msg.(type) {
			case nil, spinner.TickMsg:
			case tea.BatchMsg:
				for _, c := range msg {
					d.start(c)
				}
			default:
				_, next := d.h.m.Update(msg)
				d.start(next)
			}
		case <-stop:
			b.Fatalf("not within 30s:\n%s", d.h.screen())
		}
	}
}
