package dataload_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dataload"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

func TestMain(m *testing.M) {
	code := m.Run()
	dynalitetest.StopShared()
	os.Exit(code)
}

// gatedData is two tables of export lines: Small (one file) and Big (a
// folder of two files), and a gate that holds the opening of Big's second
// file until released, so that a test sees Small complete and Big half in.
type gatedData struct {
	paths   []string
	second  string
	opening chan struct{} // closed when the load asks for Big's second file
	release chan struct{}
	first   int // Big's items in its first file
	big     []map[string]types.AttributeValue
}

func exportLine(pk, sk, body string) string {
	return fmt.Sprintf(`{"Item":{"PK":{"S":%q},"SK":{"S":%q},"Body":{"S":%q}}}`, pk, sk, body)
}

// newGatedData writes the data; second, when given, replaces Big's second
// file by name and bytes.
func newGatedData(t *testing.T, second ...string) *gatedData {
	t.Helper()
	dir := t.TempDir()
	g := &gatedData{opening: make(chan struct{}), release: make(chan struct{}), first: 30}
	var small []string
	for i := range 5 {
		small = append(small, exportLine("S", fmt.Sprintf("s%02d", i), "small"))
	}
	write := func(path string, lines []string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "Small.json"), small)
	var one, two []string
	for i := range 60 {
		pk, sk, body := fmt.Sprintf("P%d", i%4), fmt.Sprintf("k%03d", i), strings.Repeat("x", i)
		g.big = append(g.big, map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk},
			"SK": &types.AttributeValueMemberS{Value: sk}, "Body": &types.AttributeValueMemberS{Value: body}})
		if i < g.first {
			one = append(one, exportLine(pk, sk, body))
		} else {
			two = append(two, exportLine(pk, sk, body))
		}
	}
	name := "2.json"
	if len(second) > 0 {
		name = second[0]
	}
	write(filepath.Join(dir, "Big", "1.json"), one)
	g.second = filepath.Join(dir, "Big", name)
	write(g.second, two)
	if len(second) > 0 {
		if err := os.WriteFile(g.second, []byte(second[1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g.paths = []string{filepath.Join(dir, "Small.json"), filepath.Join(dir, "Big")}
	return g
}

// options pace the load: every file opens at once except Big's second,
// which waits for release.
func (g *gatedData) options(t *testing.T) dataload.Options {
	keys, err := dataload.ParseKeys("PK:S,SK:S")
	if err != nil {
		t.Fatal(err)
	}
	return dataload.Options{Keys: &keys, Open: func(path string) (io.ReadCloser, error) {
		if path == g.second {
			close(g.opening)
			<-g.release
		}
		return os.Open(path)
	}}
}

func loadOf(t *testing.T, db *memory.DB, table string) dynamo.TableLoad {
	t.Helper()
	l, ok := db.LoadOf(table)
	if !ok {
		t.Fatalf("%s was never marked loading", table)
	}
	return l
}

// waitFor polls until cond holds: synchronisation with the goroutines a
// test started, never a timed assertion (the test's own timeout bounds it).
func waitFor(cond func() bool) {
	for !cond() {
		time.Sleep(time.Millisecond)
	}
}

// TestReadWaitsForItsTable: while Big's second file is held back, Small is
// complete and answers, Big is listed, described and marked loading with
// its first file's items; a scan of Big waits, and once the file is let
// through returns the whole table, exactly what DynamoDB (dynalite) seeded
// with the same items returns.
func TestReadWaitsForItsTable(t *testing.T) {
	ctx := context.Background()
	g := newGatedData(t)
	db := memory.New()
	bg := dataload.Start(ctx, db, g.paths, g.options(t))
	<-g.opening

	if l := loadOf(t, db, "Small"); l.State != dynamo.LoadComplete || l.Items != 5 {
		t.Errorf("Small: %+v, want complete with 5 items", l)
	}
	if l := loadOf(t, db, "Big"); l.State != dynamo.LoadRunning || l.Items != g.first {
		t.Errorf("Big: %+v, want loading with %d items", l, g.first)
	}
	if got := scanAll(t, db, "Small", ""); len(got) != 5 {
		t.Errorf("Small scanned %d items, want 5", len(got))
	}
	tables, err := db.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || !reflect.DeepEqual(tables.TableNames, []string{"Big", "Small"}) {
		t.Errorf("ListTables while loading: %v, %v", tables.TableNames, err)
	}
	if d, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Big")}); err != nil || aws.ToInt64(d.Table.ItemCount) != int64(g.first) {
		t.Errorf("DescribeTable while loading: %v", err)
	}

	scanned := make(chan []string)
	go func() { scanned <- scanAll(t, db, "Big", "") }()
	waitFor(func() bool { return loadOf(t, db, "Big").Waiting == 1 })
	close(g.release)
	got := <-scanned
	if _, err := bg.Wait(); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(g.big) {
		t.Fatalf("the waiting scan returned %d items, want all %d", len(got), len(g.big))
	}

	// The same items in DynamoDB (dynalite) scan the same, in the same order.
	dl := dynalitetest.Shared(t).Client()
	name := fmt.Sprintf("Big%d", time.Now().UnixNano())
	want := memory.New()
	for _, w := range []dynamo.Writer{dl, want} {
		createAndPut(t, w, name, g.big)
	}
	t.Cleanup(func() { dl.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)}) })
	for label, c := range map[string]dynamo.Client{"dynalite": dl, "memory": want} {
		var wantItems []string
		in := &dynamodb.ScanInput{TableName: aws.String(name)}
		for {
			page, err := c.Scan(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range page.Items {
				b, _ := dataload.MarshalItem(it)
				wantItems = append(wantItems, string(b))
			}
			if in.ExclusiveStartKey = page.LastEvaluatedKey; in.ExclusiveStartKey == nil {
				break
			}
		}
		if !reflect.DeepEqual(got, wantItems) {
			t.Errorf("the waited scan differs from %s's:\n got %v\nwant %v", label, got, wantItems)
		}
	}
}

// TestStopKeepsWhatWasLoaded: stopped while Big's second file waits, Small
// stays complete and Big is kept partial with its first file's items, which
// its reads then answer from.
func TestStopKeepsWhatWasLoaded(t *testing.T) {
	g := newGatedData(t)
	db := memory.New()
	bg := dataload.Start(context.Background(), db, g.paths, g.options(t))
	<-g.opening
	bg.Stop()
	close(g.release)
	if _, err := bg.Wait(); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped load: %v, want context.Canceled", err)
	}
	if l := loadOf(t, db, "Small"); l.State != dynamo.LoadComplete || l.Items != 5 {
		t.Errorf("Small: %+v, want complete with 5 items", l)
	}
	if l := loadOf(t, db, "Big"); l.State != dynamo.LoadStopped || l.Items != g.first {
		t.Errorf("Big: %+v, want stopped with %d items", l, g.first)
	}
	if got := scanAll(t, db, "Big", ""); len(got) != g.first {
		t.Errorf("partial Big scanned %d items, want %d", len(got), g.first)
	}
}

// TestWaitEndsWithTheReadsContext: a read of a loading table ends when its
// context does — cancelled reads as cancelled, a deadline says the table is
// still loading and how far it is, never a timed-out server.
func TestWaitEndsWithTheReadsContext(t *testing.T) {
	g := newGatedData(t)
	db := memory.New()
	bg := dataload.Start(context.Background(), db, g.paths, g.options(t))
	defer func() { close(g.release); bg.Wait() }()
	<-g.opening

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("Big")})
	if !errors.Is(err, context.Canceled) || dynamo.KindOf(dynamo.Explain("scan", err)) != dynamo.KindCancelled {
		t.Errorf("cancelled wait: %v, want a cancellation", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Millisecond) // ends while the read waits
	defer cancel()
	_, err = db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Big"), KeyConditionExpression: aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "P1"}}})
	want := fmt.Sprintf("table Big is still loading (%d items so far)", g.first)
	if err == nil || err.Error() != want || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("wait past its deadline: %v, want %q", err, want)
	}
	if _, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Small"),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "S"}, "SK": &types.AttributeValueMemberS{Value: "s01"}}}); err != nil {
		t.Errorf("a complete table answers at once: %v", err)
	}
}

// TestLoadErrorFailsItsTable: bad input in Big's second file (a malformed
// line, a damaged gzip file) fails Big, whose reads then return the load's
// own one-line error, naming the file; Small, loaded before, stays
// complete.
func TestLoadErrorFailsItsTable(t *testing.T) {
	var packed bytes.Buffer
	zw := gzip.NewWriter(&packed)
	for i := range 200 {
		fmt.Fprintln(zw, exportLine("P1", fmt.Sprintf("z%03d", i), strings.Repeat("y", 50)))
	}
	zw.Close()
	cut := packed.Bytes()[:packed.Len()/2]
	for _, c := range []struct {
		name, file, data, want string
	}{
		{"malformed line", "2.json", exportLine("P1", "k900", "ok") + "\n{\"Item\": {\"PK\": \n", "2.json:2: malformed JSON"},
		{"damaged gzip", "2.json.gz", string(cut), "2.json.gz:82: gzip: unexpected EOF — the file is damaged or cut short"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newGatedData(t, c.file, c.data)
			db := memory.New()
			bg := dataload.Start(context.Background(), db, g.paths, g.options(t))
			<-g.opening
			close(g.release)
			_, loadErr := bg.Wait()
			if loadErr == nil || !strings.Contains(loadErr.Error(), c.want) {
				t.Fatalf("load error %v, want %q", loadErr, c.want)
			}
			if l := loadOf(t, db, "Big"); l.State != dynamo.LoadFailed || l.Err != loadErr {
				t.Errorf("Big: %+v, want failed with the load's error", l)
			}
			if l := loadOf(t, db, "Small"); l.State != dynamo.LoadComplete {
				t.Errorf("Small: %+v, want complete", l)
			}
			_, err := db.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("Big")})
			if err == nil || err.Error() != loadErr.Error() {
				t.Errorf("a read of the failed table: %v, want %v", err, loadErr)
			}
		})
	}
}

// createAndPut makes table (PK, SK strings) and writes items, as a user
// seeding DynamoDB would.
func createAndPut(t *testing.T, w dynamo.Writer, table string, items []map[string]types.AttributeValue) {
	t.Helper()
	ctx := context.Background()
	str := types.ScalarAttributeTypeS
	_, err := w.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(table), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: str}, {AttributeName: aws.String("SK"), AttributeType: str}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.WaitActive(ctx, w, table); err != nil {
		t.Fatal(err)
	}
	for from := 0; from < len(items); from += 25 {
		var reqs []types.WriteRequest
		for _, it := range items[from:min(from+25, len(items))] {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		}
		for len(reqs) > 0 {
			out, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}})
			if err != nil {
				t.Fatal(err)
			}
			reqs = out.UnprocessedItems[table]
		}
	}
}
