package demo

import (
	"context"
	"reflect"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// scanAll reads a table or index to the end, page by page, keeping the
// pages' boundaries so that paging must match too.
func scanAll(t *testing.T, c dynamo.Client, table string, index *string) []dynamodb.ScanOutput {
	t.Helper()
	var pages []dynamodb.ScanOutput
	var start dynamo.Item
	for {
		out, err := c.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table), IndexName: index, ExclusiveStartKey: start})
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, dynamodb.ScanOutput{Items: out.Items, Count: out.Count, ScannedCount: out.ScannedCount, LastEvaluatedKey: out.LastEvaluatedKey})
		if out.LastEvaluatedKey == nil {
			return pages
		}
		start = out.LastEvaluatedKey
	}
}

// TestLoadIsSeed holds the lazy demo to the eager one: every table, and
// every index of it, reads and describes exactly as when all items are
// written up front with Seed's BatchWriteItems; described before its items
// are built (from known counts) too.
func TestLoadIsSeed(t *testing.T) {
	ctx := context.Background()
	eager := memory.New()
	if _, err := Seed(ctx, eager); err != nil {
		t.Fatal(err)
	}
	lazy, err := Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, def := range Tables() {
		name := aws.ToString(def.TableName)
		t.Run(name, func(t *testing.T) {
			described := func(db *memory.DB) *dynamodb.DescribeTableOutput {
				out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			if g, w := described(lazy), described(eager); !reflect.DeepEqual(g.Table, w.Table) {
				t.Errorf("described before its items are built: %d items %d B, built %d items %d B",
					aws.ToInt64(g.Table.ItemCount), aws.ToInt64(g.Table.TableSizeBytes), aws.ToInt64(w.Table.ItemCount), aws.ToInt64(w.Table.TableSizeBytes))
			}
			indexes := []*string{nil}
			for _, g := range def.GlobalSecondaryIndexes {
				indexes = append(indexes, g.IndexName)
			}
			for _, l := range def.LocalSecondaryIndexes {
				indexes = append(indexes, l.IndexName)
			}
			for _, ix := range indexes {
				if got, want := scanAll(t, lazy, name, ix), scanAll(t, eager, name, ix); !reflect.DeepEqual(got, want) {
					t.Errorf("index %s: lazy scan differs from eager (%d pages vs %d)", aws.ToString(ix), len(got), len(want))
				}
			}
			g, err1 := lazy.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
			w, err2 := eager.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if !reflect.DeepEqual(g.Table, w.Table) {
				t.Errorf("described differently: lazy %d items %d B, eager %d items %d B",
					aws.ToInt64(g.Table.ItemCount), aws.ToInt64(g.Table.TableSizeBytes), aws.ToInt64(w.Table.ItemCount), aws.ToInt64(w.Table.TableSizeBytes))
			}
		})
	}
}

// TestLoadConcurrentFirstReads: many first requests to one table at once
// (reads, which build it, and descriptions, which do not) all see it whole
// (run with -race).
func TestLoadConcurrentFirstReads(t *testing.T) {
	ctx := context.Background()
	db, err := Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	counts := make([]int64, 8)
	for i := range counts {
		wg.Go(func() {
			if i%2 == 1 {
				out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Equipment")})
				if err != nil {
					t.Error(err)
					return
				}
				counts[i] = aws.ToInt64(out.Table.ItemCount)
				return
			}
			in := &dynamodb.ScanInput{TableName: aws.String("Equipment"), Select: "COUNT"}
			for {
				out, err := db.Scan(ctx, in)
				if err != nil {
					t.Error(err)
					return
				}
				counts[i] += int64(out.Count)
				if out.LastEvaluatedKey == nil {
					return
				}
				in.ExclusiveStartKey = out.LastEvaluatedKey
			}
		})
	}
	wg.Wait()
	for i, n := range counts {
		if n != counts[0] || n == 0 {
			t.Fatalf("reader %d saw %d items, reader 0 saw %d", i, n, counts[0])
		}
	}
}

// BenchmarkDemoReady is --demo's time to ready: the backend built and its
// table list answered (what the first screen needs), beside the eager
// baseline that writes every item first. Figures, not assertions:
//
//	go test -run '^$' -bench DemoReady -benchtime=5x ./dynamo/demo/
func BenchmarkDemoReady(b *testing.B) {
	ctx := context.Background()
	ready := func(b *testing.B, c dynamo.Client) {
		if _, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("lazy", func(b *testing.B) {
		for b.Loop() {
			db, err := Load(ctx)
			if err != nil {
				b.Fatal(err)
			}
			ready(b, db)
		}
	})
	b.Run("eager-baseline", func(b *testing.B) {
		for b.Loop() {
			db := memory.New()
			if _, err := Seed(ctx, db); err != nil {
				b.Fatal(err)
			}
			ready(b, db)
		}
	})
	// The first item screen of one table: its generation is paid here.
	// Locations (an LSI and a GSI) is --demo --table Locations --pk USA.
	for _, first := range []struct{ table, pk string }{{"Equipment", "F#1"}, {"Locations", "USA"}} {
		b.Run("lazy-first-table-"+first.table, func(b *testing.B) {
			for b.Loop() {
				db, err := Load(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(first.table), Limit: aws.Int32(70),
					KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: dynamo.Item{":p": str(first.pk)}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// Every table described, as the tables page does: all items generated.
	b.Run("lazy-all-described", func(b *testing.B) {
		for b.Loop() {
			db, err := Load(ctx)
			if err != nil {
				b.Fatal(err)
			}
			var wg sync.WaitGroup
			for _, def := range Tables() {
				wg.Go(func() { db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: def.TableName}) })
			}
			wg.Wait()
		}
	})
}
