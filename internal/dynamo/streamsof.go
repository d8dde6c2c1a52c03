package dynamo

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
)

// StreamsOf is the Streams client behind a client, when the backend serves
// both APIs (the embedded one): through the metering and masking layers.
// nil when it does not.
func StreamsOf(c Client) StreamsClient {
	for c != nil {
		if sc, ok := c.(StreamsClient); ok {
			return sc
		}
		switch w := c.(type) {
		case *Metered:
			c = w.Client
		case *Masked:
			c = w.Client
		default:
			return nil
		}
	}
	return nil
}

// MeteredStreams counts every Streams call in Session, as Metered counts
// the table's: each is a request (none costs table capacity), and the
// debug log names it.
type MeteredStreams struct {
	StreamsClient
	Session *Session
}

func (m MeteredStreams) record(op string, start time.Time, err error) {
	c := Cost{Requests: 1, Latency: time.Since(start)}
	m.Session.Record(c)
	outcome := "ok"
	if err != nil {
		outcome = "error: " + string(KindOf(Explain(op, err)))
	}
	m.Session.logf("%s: %s, 0 RCU, %s", op, c.Latency.Round(time.Microsecond), outcome)
}

func (m MeteredStreams) ListStreams(ctx context.Context, in *dynamodbstreams.ListStreamsInput, o ...func(*dynamodbstreams.Options)) (*dynamodbstreams.ListStreamsOutput, error) {
	start := time.Now()
	out, err := m.StreamsClient.ListStreams(ctx, in, o...)
	m.record("ListStreams", start, err)
	return out, err
}

func (m MeteredStreams) DescribeStream(ctx context.Context, in *dynamodbstreams.DescribeStreamInput, o ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error) {
	start := time.Now()
	out, err := m.StreamsClient.DescribeStream(ctx, in, o...)
	m.record("DescribeStream", start, err)
	return out, err
}

func (m MeteredStreams) GetShardIterator(ctx context.Context, in *dynamodbstreams.GetShardIteratorInput, o ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error) {
	start := time.Now()
	out, err := m.StreamsClient.GetShardIterator(ctx, in, o...)
	m.record("GetShardIterator", start, err)
	return out, err
}

func (m MeteredStreams) GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, o ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	start := time.Now()
	out, err := m.StreamsClient.GetRecords(ctx, in, o...)
	m.record("GetRecords", start, err)
	return out, err
}
