package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
)

// hierQuery is the first page of the Hier table's partition H.
func hierQuery(start dynamo.Item) dynamo.PageRequest {
	return dynamo.PageRequest{Query: domain.KeyQuery{Table: "Hier", PKName: "PK", PK: domain.S("H"), SKName: "SK"}, Start: start, Limit: 200}
}

// A server that answers 300 MB for one page is refused after reading at
// most dynamo.MaxAnswerBytes of it, at once and without a retry, and the
// error says what happened. Twenty times over: the connection is never
// closed under the answer (the SDK closed the request's body once the
// status line came, and Go's transport, still checking that body, closed
// the connection: 4 runs in 25 failed every attempt as "the connection
// broke in the middle of an answer").
func TestHugeAnswerRefused(t *testing.T) {
	hierBackends(t)
	faulty, proxy, log := faultyClient(t, 3)
	proxy.SetHugeBytes(300 << 20)
	proxy.Set(dynalitetest.FaultHuge, 1)
	for run := range 20 {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		t0 := time.Now()
		_, err := dynamo.QueryPage(context.Background(), faulty, hierQuery(nil))
		took := time.Since(t0)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "MB for one page: not a DynamoDB answer") {
			t.Fatalf("run %d, a 300 MB answer: %v (retries %v)", run, err, log.reasons)
		}
		allocated := after.TotalAlloc - before.TotalAlloc
		if allocated > 100<<20 {
			t.Errorf("reading the refused answer allocated %d MB", allocated>>20)
		}
		if run == 0 {
			t.Logf("refused in %s, %d MB allocated, heap in use %d MB: %v", took.Round(time.Millisecond), allocated>>20, after.HeapInuse>>20, err)
		}
	}
	// An answer too big is not asked for again, and nothing was retried.
	if n := proxy.Operations()["Query"]; n != 20 || len(log.reasons) > 0 {
		t.Errorf("%d requests for 20 reads, retries %v", n, log.reasons)
	}
}

// A body that does not match its X-Amz-Crc32 is a failed read: sent
// again, and reported once the attempts run out; a damaged answer now and
// then costs a retry and changes nothing read.
func TestDamagedAnswerRetriedThenReported(t *testing.T) {
	direct := hierBackends(t)["dynalite"]
	faulty, proxy, log := faultyClient(t, 3)
	proxy.Set(dynalitetest.FaultBadCRC, 1)
	_, err := dynamo.QueryPage(context.Background(), faulty, hierQuery(nil))
	if err == nil || !strings.Contains(err.Error(), "damaged on the way") || !strings.Contains(err.Error(), "3 attempts") {
		t.Fatalf("a damaged answer: %v", err)
	}
	if n := proxy.Operations()["Query"]; n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}

	faulty, proxy, _ = faultyClient(t, 12)
	proxy.Set(dynalitetest.FaultBadCRC, 0.3)
	got, want := readPages(t, faulty), readPages(t, direct)
	if got != want {
		t.Errorf("read through damaged answers: %d bytes of keys, want %d", len(got), len(want))
	}
	if proxy.Injected()[dynalitetest.FaultBadCRC] == 0 {
		t.Error("no answer was damaged")
	}
	t.Logf("retries: %v", log.reasons)
}

// A server repeating its cursor is stopped at the second page, on every
// pager: a page, a count, the drill-down, versions, the partitions scan.
func TestRepeatedCursorStops(t *testing.T) {
	hierBackends(t)
	faulty, proxy, _ := faultyClient(t, 3)
	proxy.Set(dynalitetest.FaultRepeatCursor, 1)
	ctx := context.Background()
	var start dynamo.Item
	pages := 0
	var err error
	for pages < 100 {
		var p dynamo.Page
		p, err = dynamo.QueryPage(ctx, faulty, hierQuery(start))
		if err != nil || !p.More() {
			break
		}
		pages++
		start = p.LastKey
	}
	if err == nil || !strings.Contains(err.Error(), "LastEvaluatedKey") || pages != 1 {
		t.Fatalf("after %d pages: %v", pages, err)
	}
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	before := proxy.Operations()["Query"]
	_, err = dynamo.Children(ctx, faulty, dynamo.ChildrenRequest{Table: "Hier", Key: key, PK: domain.S("H"), Delim: "#"}, nil)
	if err == nil || proxy.Operations()["Query"]-before > 50 {
		t.Errorf("children: %d queries, %v", proxy.Operations()["Query"]-before, err)
	}
	before = proxy.Operations()["Scan"]
	r := dynamo.FirstPartitions("Hier", key)
	for range 100 {
		var p dynamo.Page
		if p, err = dynamo.ScanKeysPage(ctx, faulty, r); err != nil {
			break
		}
		next, _, ok := dynamo.NextPartitions(r, p)
		if !ok {
			break
		}
		r = next
	}
	if err == nil || proxy.Operations()["Scan"]-before > 10 {
		t.Errorf("partitions: %d scans, %v", proxy.Operations()["Scan"]-before, err)
	}
}

// A cursor that goes back is refused too; a cursor moving on, forwards or
// in reverse, is not.
func TestCursorGoingBackwards(t *testing.T) {
	s := func(v string) dynamo.Item {
		return dynamo.Item{"PK": dynamo.AttributeValue(domain.S("H")), "SK": dynamo.AttributeValue(domain.S(v))}
	}
	n := func(v string) dynamo.Item {
		return dynamo.Item{"PK": dynamo.AttributeValue(domain.S("H")), "SK": dynamo.AttributeValue(domain.N(v))}
	}
	withMap := func(it dynamo.Item) dynamo.Item {
		it["M"] = &types.AttributeValueMemberM{Value: dynamo.Item{"x": dynamo.AttributeValue(domain.S("y"))}}
		return it
	}
	cases := []struct {
		start, last dynamo.Item
		reverse     bool
		fails       bool
	}{
		{nil, s("a"), false, false},
		{s("a"), s("b"), false, false},
		{s("a"), s("a"), false, true},
		{s("b"), s("a"), false, true},
		{s("b"), s("a"), true, false},
		{s("a"), s("b"), true, true},
		{n("10"), n("9"), false, true},
		{n("9"), n("1E+1"), false, false},
		{n("1E+125"), n("1E+125"), false, true},
		{withMap(s("a")), withMap(s("a")), false, true}, // a whole item as the cursor, repeated
	}
	for _, c := range cases {
		err := dynamo.CheckCursor(c.start, c.last, "SK", c.reverse)
		if (err != nil) != c.fails {
			t.Errorf("%v → %v reverse %v: %v", c.start["SK"], c.last["SK"], c.reverse, err)
		}
	}
}

// readPages reads the Hier partition in pages of 200: its keys, joined.
func readPages(t *testing.T, c dynamo.Client) string {
	t.Helper()
	var keys []string
	var start dynamo.Item
	for {
		p, err := dynamo.QueryPage(context.Background(), c, hierQuery(start))
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range p.Items {
			keys = append(keys, sk(it))
		}
		if !p.More() {
			return strings.Join(keys, " ")
		}
		start = p.LastKey
	}
}

// After a long throttling storm the next read is still retried as the
// first was: the retries are each read's, not a process-wide quota that
// the storm empties (the SDK's default failed every throttle at once
// after ~50 failed reads).
func TestRetriesOutlastAStorm(t *testing.T) {
	hierBackends(t)
	faulty, proxy, _ := faultyClient(t, 3)
	proxy.Set(dynalitetest.FaultThrottling, 1)
	const reads = 80
	for range reads {
		if _, err := dynamo.QueryPage(context.Background(), faulty, hierQuery(nil)); dynamo.KindOf(err) != dynamo.KindThrottled {
			t.Fatalf("throttled read: %v", err)
		}
	}
	if n := proxy.Operations()["Query"]; n != 3*reads {
		t.Fatalf("%d requests for %d reads of 3 attempts: the retries ran out", n, reads)
	}
}

// A session counts every HTTP request, retries included (a failed read
// of three attempts is three requests), and says what it retried and why.
func TestSessionCountsRetries(t *testing.T) {
	hierBackends(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	proxy := dynalitetest.NewFaultProxy(dynalitetest.Shared(t).Endpoint, 7)
	t.Cleanup(proxy.Close)
	s := &dynamo.Session{}
	c, _, err := dynamo.Connect(context.Background(), dynamo.Target{Region: "us-east-1", EndpointURL: proxy.URL,
		MaxAttempts: 3, MaxBackoff: 20 * time.Millisecond, OnRetry: s.NoteRetry})
	if err != nil {
		t.Fatal(err)
	}
	m := &dynamo.Metered{Client: c, Session: s}
	proxy.Set(dynalitetest.FaultThrottling, 1)
	_, _ = dynamo.QueryPage(context.Background(), m, hierQuery(nil))
	proxy.Clear()
	_, _ = dynamo.QueryPage(context.Background(), m, hierQuery(nil))
	total, _ := s.Totals()
	if total.Requests != 4 || total.Requests != proxy.Operations()["Query"] {
		t.Errorf("the session counted %d requests; %d were sent", total.Requests, proxy.Operations()["Query"])
	}
	if got := s.RetrySummary(); got != "2 throttled: retried" {
		t.Errorf("summary %q", got)
	}
}

// cyclingTables is the embedded backend answering ListTables with a
// cursor that never moves on: back to the first name (cycle) or the one
// it was sent (repeat).
type cyclingTables struct {
	dynamo.Client
	cycle bool
}

func (c *cyclingTables) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	out, err := c.Client.ListTables(ctx, &dynamodb.ListTablesInput{}, o...)
	if err != nil || len(out.TableNames) == 0 {
		return out, err
	}
	switch {
	case in.ExclusiveStartTableName == nil:
		out.LastEvaluatedTableName = aws.String(out.TableNames[len(out.TableNames)-1])
	case c.cycle:
		out.LastEvaluatedTableName = aws.String(out.TableNames[0])
	default:
		out.LastEvaluatedTableName = in.ExclusiveStartTableName
	}
	return out, nil
}

// A ListTables cursor that repeats or cycles ends the listing at its
// second page with one error, on dynalite behind the fault proxy and on
// the embedded backend: `tables` and the explorer's first screen never
// list forever.
func TestTableListingCursorStops(t *testing.T) {
	backends := hierBackends(t)
	faulty, proxy, _ := faultyClient(t, 3)
	proxy.Set(dynalitetest.FaultRepeatCursor, 1)
	proxy.OnlyOn("ListTables")
	clients := map[string]dynamo.Client{
		"dynalite":     faulty,
		"memory":       &cyclingTables{Client: backends["memory"]},
		"memory cycle": &cyclingTables{Client: backends["memory"], cycle: true},
	}
	for name, c := range clients {
		t0 := time.Now()
		names, cost, err := dynamo.ListTables(context.Background(), c)
		if err == nil || !strings.Contains(err.Error(), "LastEvaluatedTableName") {
			t.Errorf("%s: %d names, %v", name, len(names), err)
		}
		if cost.Requests > 2 {
			t.Errorf("%s: %d requests before stopping", name, cost.Requests)
		}
		t.Logf("%s: stopped after %d requests in %s: %v", name, cost.Requests, time.Since(t0).Round(time.Millisecond), err)
	}
}

// A Streams server whose cursor does not move on, in each way it can:
// the answer's fault on moto behind the fault proxy, and the same on
// the embedded backend through loopingStreams.
const (
	repeatIterator = "GetRecords hands back the iterator it was sent"
	replayRecords  = "GetRecords hands the same records again, under new iterators"
	repeatShardID  = "DescribeStream repeats its LastEvaluatedShardId"
	unknownImage   = "GetRecords hands images holding a value of no type"
)

// loopingStreams is the embedded backend's Streams API with one of the
// faults above.
type loopingStreams struct {
	dynamo.StreamsClient
	fault   string
	aliases map[string]string // a made-up iterator → the real one it replays
}

func (f *loopingStreams) GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, o ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	it := aws.ToString(in.ShardIterator)
	if real, ok := f.aliases[it]; ok {
		it = real
	}
	out, err := f.StreamsClient.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(it)}, o...)
	if err != nil {
		return out, err
	}
	switch f.fault {
	case repeatIterator:
		out.NextShardIterator = in.ShardIterator
	case replayRecords:
		next := fmt.Sprintf("replay-%d", len(f.aliases))
		f.aliases[next] = it
		out.NextShardIterator = aws.String(next)
	case unknownImage:
		for _, r := range out.Records {
			r.Dynamodb.NewImage = map[string]stypes.AttributeValue{"odd": &stypes.UnknownUnionMember{Tag: "Q"}}
		}
	}
	return out, nil
}

func (f *loopingStreams) DescribeStream(ctx context.Context, in *dynamodbstreams.DescribeStreamInput, o ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error) {
	out, err := f.StreamsClient.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: in.StreamArn}, o...)
	if err == nil && f.fault == repeatShardID && len(out.StreamDescription.Shards) > 0 {
		out.StreamDescription.LastEvaluatedShardId = out.StreamDescription.Shards[0].ShardId
	}
	return out, err
}

// A ListTables cursor must move forward, as DynamoDB's names come in
// order: one that repeats or goes back (a cycle) is refused, as is a
// listing past MaxTables.
func TestTableCursorMovesForward(t *testing.T) {
	for _, c := range []struct {
		start, next string
		listed      int
		says        string
	}{
		{"", "Orders", 100, ""},
		{"Orders", "Users", 200, ""},
		{"Users", "Users", 300, "gave back the cursor (LastEvaluatedTableName)"},
		{"Users", "Orders", 300, "cursor (LastEvaluatedTableName) went backwards"},
		{"a", "b", dynamo.MaxTables + 1, "more than 100000 tables"},
	} {
		var start *string
		if c.start != "" {
			start = aws.String(c.start)
		}
		err := dynamo.CheckTableCursor(start, aws.String(c.next), c.listed)
		if (err == nil) != (c.says == "") || err != nil && !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q → %q: %v, want %q", c.start, c.next, err, c.says)
		}
	}
}

// guardedStreams is dynascope's own Streams client (the one `changes`
// makes) for moto behind a fault proxy.
func guardedStreams(t *testing.T) (dynamo.StreamsClient, *dynalitetest.FaultProxy) {
	t.Helper()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	proxy := dynalitetest.NewFaultProxy(mototest.Shared(t).Endpoint, 11)
	t.Cleanup(proxy.Close)
	target := dynamo.Target{Region: "us-east-1", EndpointURL: proxy.URL, MaxAttempts: 2, MaxBackoff: 20 * time.Millisecond}
	_, cfg, err := dynamo.Connect(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	return dynamo.StreamsFromConfig(cfg, target), proxy
}

// The stream reader stops with one error on a cursor that does not move
// on: an iterator handed back, records replayed, a shard cursor repeated,
// on moto and on the embedded backend, after a few calls; never reading
// forever and printing nothing.
func TestStreamCursorStops(t *testing.T) {
	ctx := context.Background()
	backends := streamBackends(t)
	guarded, proxy := guardedStreams(t)
	for _, fault := range []string{repeatIterator, replayRecords, repeatShardID} {
		for name, b := range backends {
			table := createStreamTable(t, ctx, b.db, types.StreamViewTypeNewAndOldImages)
			apply(t, ctx, b.db, table, script...)
			info, _, err := dynamo.TableStream(ctx, b.db, table)
			if err != nil {
				t.Fatal(err)
			}
			sc := dynamo.StreamsClient(&loopingStreams{StreamsClient: b.streams, fault: fault, aliases: map[string]string{}})
			if name == "moto" {
				if fault == replayRecords {
					continue // the proxy has no way to replay; the embedded backend holds it
				}
				proxy.Clear()
				proxy.Set(dynalitetest.FaultRepeatCursor, 1)
				proxy.OnlyOn(map[string]string{repeatIterator: "GetRecords", repeatShardID: "DescribeStream"}[fault])
				sc = guarded
			}
			t0 := time.Now()
			rctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // only so that a failure ends
			st, err := dynamo.Changes(rctx, sc, dynamo.ChangesRequest{Stream: info, PKName: "pk", SKName: "sk"}, func(dynamo.Change) error { return nil })
			cancel()
			if err == nil || !strings.Contains(err.Error(), "stopped rather than read the same records forever") {
				t.Errorf("%s, %s: %+v, %v", name, fault, st, err)
			}
			if st.Calls > 10 {
				t.Errorf("%s, %s: %d calls before stopping", name, fault, st.Calls)
			}
			t.Logf("%s, %s: %d calls, %s: %v", name, fault, st.Calls, time.Since(t0).Round(time.Millisecond), err)
		}
	}
}

// A Streams answer too big (200 MB, or a chunked body that never ends)
// is refused after reading at most dynamo.MaxAnswerBytes, as a table
// read's is.
func TestHugeStreamAnswerRefused(t *testing.T) {
	ctx := context.Background()
	srv := mototest.Shared(t)
	table := createStreamTable(t, ctx, srv.Client(), types.StreamViewTypeNewAndOldImages)
	apply(t, ctx, srv.Client(), table, script...)
	info, _, err := dynamo.TableStream(ctx, srv.Client(), table)
	if err != nil {
		t.Fatal(err)
	}
	sc, proxy := guardedStreams(t)
	for _, size := range []int64{200 << 20, 1 << 40} {
		proxy.Clear()
		proxy.SetHugeBytes(size)
		proxy.Set(dynalitetest.FaultHuge, 1)
		proxy.OnlyOn("GetRecords")
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		t0 := time.Now()
		_, err := dynamo.Changes(ctx, sc, dynamo.ChangesRequest{Stream: info, PKName: "pk", SKName: "sk"}, func(dynamo.Change) error { return nil })
		took := time.Since(t0)
		runtime.ReadMemStats(&after)
		// Refused as too big: the connection is no longer closed under
		// the read (TestHugeAnswerRefused).
		if err == nil || !strings.Contains(err.Error(), "not a DynamoDB answer") {
			t.Fatalf("a %d MB answer: %v", size>>20, err)
		}
		allocated := after.TotalAlloc - before.TotalAlloc
		if allocated > 100<<20 {
			t.Errorf("reading the refused answer allocated %d MB", allocated>>20)
		}
		t.Logf("%d MB answer refused in %s, %d MB allocated: %v", size>>20, took.Round(time.Millisecond), allocated>>20, err)
	}
}

// TestConnectionResetMidAnswerSaysSo: an answer whose body read fails
// on a reset connection (Go reads it as a reset, or as its own
// connection closed under it) is a broken connection to retry, not "the
// endpoint answered HTTP 200, not as DynamoDB does", which sent the user
// to check --endpoint-url.
func TestConnectionResetMidAnswerSaysSo(t *testing.T) {
	for _, cause := range []error{net.ErrClosed, syscall.ECONNRESET} {
		err := &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "Query", Err: &awshttp.ResponseError{
			ResponseError: &smithyhttp.ResponseError{
				Response: &smithyhttp.Response{Response: &http.Response{StatusCode: 200}},
				Err:      &net.OpError{Op: "read", Net: "tcp", Err: cause},
			}}}
		e := dynamo.Explain("query T", err)
		if !strings.Contains(e.Error(), "the connection broke in the middle of an answer") || strings.Contains(e.Error(), "not as DynamoDB does") || dynamo.KindOf(e) != dynamo.KindUnreachable {
			t.Errorf("%v: %v (%s)", cause, e, dynamo.KindOf(e))
		}
	}
	// An answer that is not DynamoDB's is still said to be one.
	err := &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "Query", Err: &awshttp.ResponseError{
		ResponseError: &smithyhttp.ResponseError{Response: &smithyhttp.Response{Response: &http.Response{StatusCode: 200}}, Err: errors.New("failed to decode response body")}}}
	if e := dynamo.Explain("query T", err); !strings.Contains(e.Error(), "not as DynamoDB does") {
		t.Errorf("an undecodable answer: %v", e)
	}
}

// oddValues are values no DynamoDB answer holds, as the wire has them
// and, where Go can hold them, as a backend would hand them on.
var oddValues = []struct {
	name string
	wire any
	go_  types.AttributeValue
	says string
}{
	{"unknown type", map[string]any{"Q": "x"}, &types.UnknownUnionMember{Tag: "Q"}, "attribute odd of a type DynamoDB does not have"},
	{"no type", map[string]any{}, nil, "attribute odd "},
	{"null string", map[string]any{"S": nil}, nil, "attribute odd of type S without a string"},
	{"empty number", map[string]any{"N": ""}, &types.AttributeValueMemberN{Value: ""}, "attribute odd as a number that is not one"},
	{"nested", map[string]any{"M": map[string]any{"in": map[string]any{"L": []any{map[string]any{"N": "1e"}}}}},
		&types.AttributeValueMemberM{Value: dynamo.Item{"in": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "1e"}}}}},
		"attribute odd.in[0] as a number that is not one"},
	{"other partition", nil, nil, "an item of another partition"},
}

// oddQuery is the embedded backend with one odd value in every Query
// answer's first item, or (go_ and wire nil) its last item moved to
// another partition.
type oddQuery struct {
	dynamo.Client
	odd types.AttributeValue
}

func (c *oddQuery) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := c.Client.Query(ctx, in, o...)
	if err != nil || len(out.Items) == 0 {
		return out, err
	}
	if c.odd == nil {
		out.Items[len(out.Items)-1]["PK"] = &types.AttributeValueMemberS{Value: "OTHER"}
	} else {
		out.Items[0]["odd"] = c.odd
	}
	return out, nil
}

// A value of no DynamoDB type or a number that is not one is refused
// with the attribute named, and a Query answer holding an item of
// another partition is refused as the server's fault: never shown as 0,
// as NULL, as another attribute's value (the SDK decodes {"Q":…} so) or
// as this partition's item. On dynalite behind the fault proxy and on
// the embedded backend.
func TestOddValuesRefused(t *testing.T) {
	backends := hierBackends(t)
	faulty, proxy, _ := faultyClient(t, 1)
	for _, v := range oddValues {
		proxy.Clear()
		proxy.Set(dynalitetest.FaultRewrite, 1)
		proxy.Rewrite = func(op string, answer map[string]any) {
			items, _ := answer["Items"].([]any)
			if len(items) == 0 {
				return
			}
			if v.wire == nil {
				items[len(items)-1].(map[string]any)["PK"] = map[string]any{"S": "OTHER"}
				return
			}
			items[0].(map[string]any)["odd"] = v.wire
		}
		clients := map[string]dynamo.Client{"dynalite": faulty}
		if v.go_ != nil || v.wire == nil {
			clients["memory"] = &oddQuery{Client: backends["memory"], odd: v.go_}
		}
		for name, c := range clients {
			p, err := dynamo.QueryPage(context.Background(), c, hierQuery(nil))
			if err == nil || !strings.Contains(err.Error(), v.says) || !strings.Contains(err.Error(), "not a DynamoDB answer") {
				t.Errorf("%s, %s: %d items, %v", name, v.name, len(p.Items), err)
			}
		}
	}
}

// A stream record holding a value of no type is refused with the
// attribute named, on moto behind the fault proxy and on the embedded
// backend: never a NULL it is not.
func TestOddStreamValuesRefused(t *testing.T) {
	ctx := context.Background()
	backends := streamBackends(t)
	guarded, proxy := guardedStreams(t)
	proxy.Set(dynalitetest.FaultRewrite, 1)
	proxy.OnlyOn("GetRecords")
	proxy.Rewrite = func(op string, answer map[string]any) {
		for _, r := range answer["Records"].([]any) {
			r.(map[string]any)["dynamodb"].(map[string]any)["NewImage"] = map[string]any{"odd": map[string]any{"Q": "x"}}
		}
	}
	for name, b := range backends {
		table := createStreamTable(t, ctx, b.db, types.StreamViewTypeNewAndOldImages)
		apply(t, ctx, b.db, table, script...)
		info, _, err := dynamo.TableStream(ctx, b.db, table)
		if err != nil {
			t.Fatal(err)
		}
		sc := dynamo.StreamsClient(&loopingStreams{StreamsClient: b.streams, fault: unknownImage, aliases: map[string]string{}})
		if name == "moto" {
			sc = guarded
		}
		var got []dynamo.Change
		_, err = dynamo.Changes(ctx, sc, dynamo.ChangesRequest{Stream: info, PKName: "pk", SKName: "sk"}, func(c dynamo.Change) error { got = append(got, c); return nil })
		if err == nil || !strings.Contains(err.Error(), "attribute odd of a type DynamoDB does not have") || len(got) > 0 {
			t.Errorf("%s: %d changes, %v", name, len(got), err)
		}
	}
}

// fakeStreams answers the Streams API from memory: one closed shard, one
// iterator, and records for GetRecords' body (a GetRecords answer, as the
// wire has it).
type fakeStreams struct{ records []byte }

func (f fakeStreams) Do(r *http.Request) (*http.Response, error) {
	body := `{"ShardIterator":"it"}`
	switch target := r.Header.Get("X-Amz-Target"); {
	case strings.HasSuffix(target, ".DescribeStream"):
		body = `{"StreamDescription":{"StreamArn":"arn","StreamStatus":"ENABLED","Shards":[{"ShardId":"s1","SequenceNumberRange":{"StartingSequenceNumber":"1","EndingSequenceNumber":"9"}}]}}`
	case strings.HasSuffix(target, ".GetRecords"):
		body = string(f.records)
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

// FuzzStreamRecords: whatever a GetRecords answer holds, the stream
// reader (dynascope's own Streams client, its answer checks and the
// SDK's decoder) either refuses it with one error or hands on changes
// whose every value is of a DynamoDB type: never a value of no type
// shown as another (the SDK decodes {"Q":…} as the value before it).
func FuzzStreamRecords(f *testing.F) {
	rec := func(img string) string {
		return `{"Records":[{"eventName":"INSERT","dynamodb":{"ApproximateCreationDateTime":1.7e9,"SequenceNumber":"2","Keys":{"pk":{"S":"A"}},"NewImage":` + img + `}}]}`
	}
	for _, img := range []string{`{"pk":{"S":"A"},"n":{"N":"1"}}`, `{"pk":{"S":"A"},"q":{"Q":"x"}}`, `{"pk":{"S":"A"},"e":{}}`,
		`{"pk":{"S":"A"},"s":{"S":null}}`, `{"pk":{"S":"A"},"n":{"N":""}}`, `{"m":{"M":{"x":{"L":[{"Q":1},{"NS":["1","x"]}]}}}}`, `null`} {
		f.Add([]byte(rec(img)))
	}
	f.Fuzz(func(t *testing.T, records []byte) {
		cfg := aws.Config{Region: "us-east-1", HTTPClient: fakeStreams{records: records}, RetryMaxAttempts: 1,
			Credentials: aws.AnonymousCredentials{}}
		sc := dynamo.StreamsFromConfig(cfg, dynamo.Target{EndpointURL: "http://streams.invalid", MaxAttempts: 1})
		_, err := dynamo.Changes(context.Background(), sc, dynamo.ChangesRequest{Stream: dynamo.StreamInfo{ARN: "arn"}, Now: time.Unix(2e9, 0)},
			func(c dynamo.Change) error {
				for _, img := range []dynamo.Item{c.Keys, c.Old, c.New} {
					if err := dynamo.CheckItems(img); err != nil {
						t.Fatalf("handed on %v: %v", c, err)
					}
				}
				return nil
			})
		if err != nil && strings.Count(err.Error(), "\n") > 0 {
			t.Fatalf("an error of more than one line: %q", err)
		}
	})
}

// BenchmarkAnswerCheck: what reading a Query answer of about 1 MB (1,000
// items of 1 KB, nested values) once before the SDK decodes it costs.
func BenchmarkAnswerCheck(b *testing.B) {
	var body strings.Builder
	body.WriteString(`{"Count":1000,"Items":[`)
	for i := range 1000 {
		if i > 0 {
			body.WriteString(",")
		}
		fmt.Fprintf(&body, `{"PK":{"S":"H"},"SK":{"S":"item#%06d"},"n":{"N":"%d"},"m":{"M":{"a":{"S":"%s"},"l":{"L":[{"N":"1"},{"BOOL":true}]}}}}`, i, i, strings.Repeat("x", 900))
	}
	body.WriteString(`]}`)
	page := []byte(body.String())
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if err := dynamo.CheckAnswerValues("Query", page); err != nil {
			b.Fatal(err)
		}
	}
}
