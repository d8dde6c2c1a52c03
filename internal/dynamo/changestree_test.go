package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestChangesShardTree: writes spread over a stream whose shards were
// closed and split twice (one root, two children, four grandchildren) are
// read parents first, each key's changes in the order written.
func TestChangesShardTree(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	db := memory.New()
	table := createStreamTable(t, ctx, db, types.StreamViewTypeNewAndOldImages)
	write := func(round int) {
		for p := 0; p < 8; p++ {
			apply(t, ctx, db, table, put(fmt.Sprintf("P%d", p), "k", "round", n(fmt.Sprint(round))))
		}
	}
	write(1)
	if err := db.SplitShards(table); err != nil {
		t.Fatal(err)
	}
	write(2)
	if err := db.SplitShards(table); err != nil {
		t.Fatal(err)
	}
	write(3)
	info, _, err := dynamo.TableStream(ctx, db, table)
	if err != nil {
		t.Fatal(err)
	}
	shards, err := db.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(info.ARN)})
	if err != nil || len(shards.StreamDescription.Shards) != 7 {
		t.Fatalf("shards after two splits: %v, %v; want 7", shards, err)
	}
	var got []dynamo.Change
	st, err := dynamo.Changes(ctx, db, dynamo.ChangesRequest{Stream: info}, func(c dynamo.Change) error { got = append(got, c); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 24 || st.Shards != 7 {
		t.Fatalf("%d changes from %d shards, want 24 from 7", len(got), st.Shards)
	}
	rounds := map[string][]string{}
	for _, c := range got {
		pk := c.Keys["pk"].(*types.AttributeValueMemberS).Value
		rounds[pk] = append(rounds[pk], c.New["round"].(*types.AttributeValueMemberN).Value)
	}
	for pk, r := range rounds {
		if !slices.Equal(r, []string{"1", "2", "3"}) {
			t.Errorf("%s's changes in the order %v, want 1 2 3", pk, r)
		}
	}
	// One partition alone, through the same tree.
	pk := domain.S("P5")
	var one []string
	if _, err := dynamo.Changes(ctx, db, dynamo.ChangesRequest{Stream: info, PKName: "pk", PK: &pk}, func(c dynamo.Change) error {
		one = append(one, c.Event+" "+c.New["round"].(*types.AttributeValueMemberN).Value)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one, []string{"INSERT 1", "MODIFY 2", "MODIFY 3"}) {
		t.Errorf("P5: %v", one)
	}
}

// TestStreamsRejects: the embedded backend refuses what DynamoDB Streams
// refuses.
func TestStreamsRejects(t *testing.T) {
	ctx := context.Background()
	db := memory.New()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	db.SetClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	table := createStreamTable(t, ctx, db, types.StreamViewTypeNewAndOldImages)
	apply(t, ctx, db, table, script[:3]...)
	info, _, err := dynamo.TableStream(ctx, db, table)
	if err != nil {
		t.Fatal(err)
	}
	d, err := db.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(info.ARN)})
	if err != nil {
		t.Fatal(err)
	}
	shard := d.StreamDescription.Shards[0].ShardId
	iter := func() *string {
		out, err := db.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(info.ARN), ShardId: shard, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
		if err != nil {
			t.Fatal(err)
		}
		return out.ShardIterator
	}
	code := func(err error) string {
		var api smithy.APIError
		if errors.As(err, &api) {
			return api.ErrorCode()
		}
		return fmt.Sprint(err)
	}
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"unknown iterator", func() error {
			_, err := db.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(info.ARN + "|shardId-00000000000000000000-00000001|0|0|00")})
			return err
		}, "ValidationException"},
		{"a changed iterator", func() error {
			it := *iter()
			_, err := db.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(it[:len(it)-1] + "x")})
			return err
		}, "ValidationException"},
		{"limit above 1000", func() error {
			_, err := db.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter(), Limit: aws.Int32(1001)})
			return err
		}, "ValidationException"},
		{"bad shard id", func() error {
			_, err := db.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(info.ARN), ShardId: aws.String("shard-1"), ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
			return err
		}, "ValidationException"},
		{"no such shard", func() error {
			_, err := db.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(info.ARN), ShardId: aws.String("shardId-00000000000000000000-0000dead"), ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
			return err
		}, "ResourceNotFoundException"},
		{"no such stream", func() error {
			_, err := db.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(info.ARN + "x")})
			return err
		}, "ResourceNotFoundException"},
		{"a sequence number iterator without one", func() error {
			_, err := db.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(info.ARN), ShardId: shard, ShardIteratorType: stypes.ShardIteratorTypeAfterSequenceNumber})
			return err
		}, "ValidationException"},
		{"an iterator 16 minutes old", func() error {
			it := iter()
			advance(16 * time.Minute)
			_, err := db.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it})
			return err
		}, "ExpiredIteratorException"},
		{"an iterator at records trimmed since", func() error {
			advance(23*time.Hour + 39*time.Minute) // the records are 23 h 55 min old
			it := iter()
			advance(6 * time.Minute) // now past 24 hours: trimmed, though the iterator is young
			_, err := db.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it})
			return err
		}, "TrimmedDataAccessException"},
	}
	for _, c := range cases {
		if got := code(c.call()); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	// Past 24 hours the records are gone: the oldest left is none.
	out, err := db.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter()})
	if err != nil || len(out.Records) != 0 {
		t.Errorf("records older than 24 hours still served: %d, %v", len(out.Records), err)
	}
}

// faultyStreams refuses the first GetRecords as throttled and lets the
// first iterator expire, as DynamoDB may.
type faultyStreams struct {
	dynamo.StreamsClient
	mu                 sync.Mutex
	throttled, expired bool
}

func (f *faultyStreams) GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, o ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.throttled {
		f.throttled = true
		return nil, &stypes.LimitExceededException{Message: aws.String("rate exceeded for shard")}
	}
	if !f.expired {
		f.expired = true
		return nil, &stypes.ExpiredIteratorException{Message: aws.String("Iterator expired")}
	}
	return f.StreamsClient.GetRecords(ctx, in, o...)
}

func TestChangesThrottledAndExpired(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db := memory.New()
	table := createStreamTable(t, ctx, db, types.StreamViewTypeNewAndOldImages)
	apply(t, ctx, db, table, script...)
	info, _, err := dynamo.TableStream(ctx, db, table)
	if err != nil {
		t.Fatal(err)
	}
	var got int
	st, err := dynamo.Changes(ctx, &faultyStreams{StreamsClient: db}, dynamo.ChangesRequest{Stream: info}, func(dynamo.Change) error { got++; return nil })
	if err != nil || got != len(script) || st.Throttled != 1 || st.Expired != 1 {
		t.Fatalf("got %d changes (want %d), stats %+v, err %v", got, len(script), st, err)
	}
}

// trimmingStreams answers every GetRecords as DynamoDB does once the
// records asked for were trimmed.
type trimmingStreams struct{ dynamo.StreamsClient }

func (trimmingStreams) GetRecords(context.Context, *dynamodbstreams.GetRecordsInput, ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	return nil, &stypes.TrimmedDataAccessException{Message: aws.String("trimmed")}
}

func TestChangesTrimmedSaysSo(t *testing.T) {
	ctx := context.Background()
	db := memory.New()
	table := createStreamTable(t, ctx, db, types.StreamViewTypeNewAndOldImages)
	apply(t, ctx, db, table, script[:1]...)
	info, _, _ := dynamo.TableStream(ctx, db, table)
	_, err := dynamo.Changes(ctx, trimmingStreams{db}, dynamo.ChangesRequest{Stream: info}, func(dynamo.Change) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "a stream keeps 24 hours") {
		t.Fatalf("trimmed records: %v", err)
	}
}

// TestChangesHeldBounded: a read matching more changes than it may hold
// fails with what to narrow, rather than growing without bound.
func TestChangesHeldBounded(t *testing.T) {
	ctx := context.Background()
	db := memory.New()
	table := createStreamTable(t, ctx, db, types.StreamViewTypeNewAndOldImages)
	apply(t, ctx, db, table, script...)
	info, _, _ := dynamo.TableStream(ctx, db, table)
	_, err := dynamo.Changes(ctx, db, dynamo.ChangesRequest{Stream: info, MaxHeld: 5}, func(dynamo.Change) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "more than 5 changes match") || !strings.Contains(err.Error(), "--pk") {
		t.Fatalf("over the bound: %v", err)
	}
}

// TestChangesFollowAcrossSplit: following goes on into the children of a
// shard that closes while it is followed, each change once, in order.
func TestChangesFollowAcrossSplit(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db := memory.New()
	table := createStreamTable(t, ctx, db, types.StreamViewTypeNewAndOldImages)
	apply(t, ctx, db, table, put("A", "k", "round", n("1")))
	info, _, _ := dynamo.TableStream(ctx, db, table)
	got := make(chan string, 10)
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		dynamo.Changes(fctx, db, dynamo.ChangesRequest{Stream: info, Follow: true, Poll: 50 * time.Millisecond}, func(c dynamo.Change) error {
			got <- c.New["round"].(*types.AttributeValueMemberN).Value
			return nil
		})
	}()
	next := func() string {
		select {
		case r := <-got:
			return r
		case <-ctx.Done():
			t.Fatal("no change arrived")
		}
		return ""
	}
	if r := next(); r != "1" {
		t.Fatalf("first: %s", r)
	}
	apply(t, ctx, db, table, put("A", "k", "round", n("2")))
	if err := db.SplitShards(table); err != nil {
		t.Fatal(err)
	}
	apply(t, ctx, db, table, put("A", "k", "round", n("3")))
	if a, b := next(), next(); a != "2" || b != "3" {
		t.Fatalf("across the split: %s, %s", a, b)
	}
	stop()
	<-done
	select {
	case r := <-got:
		t.Fatalf("a change twice: %s", r)
	default:
	}
}
