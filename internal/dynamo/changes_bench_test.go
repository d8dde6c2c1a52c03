package dynamo_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
)

// fillStream writes n items over 100 partitions, 25 a BatchWriteItem.
func fillStream(b *testing.B, ctx context.Context, db streamWriter, table string, count int) {
	b.Helper()
	for i := 0; i < count; i += 25 {
		var reqs []types.WriteRequest
		for j := i; j < min(i+25, count); j++ {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: dynamo.Item{
				"pk": s(fmt.Sprintf("P%03d", j%100)), "sk": s(fmt.Sprintf("%08d", j)), "n": n(fmt.Sprint(j))}}})
		}
		if _, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChangesOfAPartition lists one partition's changes (1% of the
// records) from a stream of N: GetRecords calls and wall time per listing.
func BenchmarkChangesOfAPartition(b *testing.B) {
	sizes := map[string][]int{"memory": {10_000, 100_000}, "moto": {2_000}}
	for _, backend := range []string{"memory", "moto"} {
		for _, size := range sizes[backend] {
			b.Run(fmt.Sprintf("%s/N=%d", backend, size), func(b *testing.B) {
				ctx := context.Background()
				var be streamBackend
				if backend == "moto" {
					srv := mototest.Shared(b)
					be = streamBackend{db: srv.Client(), streams: srv.Streams()}
				} else {
					db := memory.New()
					be = streamBackend{db: db, streams: db}
				}
				table := fmt.Sprintf("Bench%d", tableSeq.Add(1))
				if _, err := be.db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(table),
					KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
					AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
						{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
					BillingMode: types.BillingModePayPerRequest, StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}}); err != nil {
					b.Fatal(err)
				}
				fillStream(b, ctx, be.db, table, size)
				info, _, err := dynamo.TableStream(ctx, be.db, table)
				if err != nil {
					b.Fatal(err)
				}
				pk := domain.S("P042")
				var st dynamo.ChangesStats
				b.ResetTimer()
				for range b.N {
					st, err = dynamo.Changes(ctx, be.streams, dynamo.ChangesRequest{Stream: info, PKName: "pk", PK: &pk, Since: time.Now().Add(-24 * time.Hour)}, func(dynamo.Change) error { return nil })
					if err != nil || st.Matched != size/100 {
						b.Fatalf("matched %d, want %d: %v", st.Matched, size/100, err)
					}
				}
				b.ReportMetric(float64(st.GetRecords), "GetRecords/op")
				b.ReportMetric(float64(st.Scanned), "records/op")
			})
		}
	}
}

// BenchmarkChangesFollowLatency writes one item per op and waits for
// --follow's reader (polling each second, as the command does) to hand it
// on: ns/op is the follow latency.
func BenchmarkChangesFollowLatency(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := memory.New()
	table := fmt.Sprintf("Follow%d", tableSeq.Add(1))
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(table),
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}}); err != nil {
		b.Fatal(err)
	}
	info, _, _ := dynamo.TableStream(ctx, db, table)
	got := make(chan struct{}, 1)
	go dynamo.Changes(ctx, db, dynamo.ChangesRequest{Stream: info, Follow: true, Poll: time.Second}, func(dynamo.Change) error { got <- struct{}{}; return nil })
	time.Sleep(200 * time.Millisecond) // caught up on the empty stream
	b.ResetTimer()
	for i := range b.N {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: dynamo.Item{"pk": s(fmt.Sprint(i))}}); err != nil {
			b.Fatal(err)
		}
		<-got
	}
}
