package dynamo

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Metered wraps a Client so that every read asks for its consumed capacity
// and is counted in Session.
type Metered struct {
	Client  Client
	Session *Session
	// Since measures a request's latency (nil: time.Since). A test that
	// draws the status bar fixes it: the latency's width moves where a
	// message beside it is cut, which a busy machine would change.
	Since func(start time.Time) time.Duration
	// Described, when not nil, is told the ARN of each table described
	// (the command line learns the account an environment may name from
	// it); it may be called from several goroutines.
	Described func(arn string)
}

// NewMetered returns c counted into a new Session.
func NewMetered(c Client) *Metered { return &Metered{Client: c, Session: &Session{}} }

var _ Client = (*Metered)(nil)

// read is what a read sent back, for billing it: its items and whether
// it was strongly consistent.
type read struct {
	items      []Item
	consistent *bool
}

func (m *Metered) record(op string, table *string, start time.Time, err error, r *read, cc ...*types.ConsumedCapacity) {
	since := m.Since
	if since == nil {
		since = time.Since
	}
	c := Cost{Requests: 1, Latency: since(start)}
	for _, x := range cc {
		c.RCU += capacityUnits(x)
	}
	if err != nil {
		r = nil // billed as DynamoDB bills a read only where it answered
	}
	m.Session.recordRead(c, r)
	// The debug log names the call, its table, cost and outcome: never
	// keys, values or credentials.
	outcome := "ok"
	if err != nil {
		outcome = "error: " + string(KindOf(Explain(op, err)))
	}
	m.Session.logf("%s %s: %s, %.1f RCU, %s", op, aws.ToString(table), c.Latency.Round(time.Microsecond), c.RCU, outcome)
}

func (m *Metered) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	start := time.Now()
	out, err := m.Client.ListTables(ctx, in, o...)
	m.record("ListTables", nil, start, err, nil)
	return out, err
}

func (m *Metered) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	start := time.Now()
	out, err := m.Client.DescribeTable(ctx, in, o...)
	m.record("DescribeTable", in.TableName, start, err, nil)
	if err == nil && m.Described != nil && out.Table != nil {
		m.Described(aws.ToString(out.Table.TableArn))
	}
	return out, err
}

func (m *Metered) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	if err := CheckQuery(in); err != nil {
		return nil, err // never sent: nothing to count
	}
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	start := time.Now()
	out, err := m.Client.Query(ctx, in, o...)
	if out != nil {
		m.record("Query", in.TableName, start, err, &read{out.Items, in.ConsistentRead}, out.ConsumedCapacity)
	} else {
		m.record("Query", in.TableName, start, err, &read{nil, in.ConsistentRead})
	}
	return out, err
}

func (m *Metered) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	if err := CheckScan(in); err != nil {
		return nil, err
	}
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	start := time.Now()
	out, err := m.Client.Scan(ctx, in, o...)
	if out != nil {
		m.record("Scan", in.TableName, start, err, &read{out.Items, in.ConsistentRead}, out.ConsumedCapacity)
	} else {
		m.record("Scan", in.TableName, start, err, &read{nil, in.ConsistentRead})
	}
	return out, err
}

func (m *Metered) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	start := time.Now()
	out, err := m.Client.GetItem(ctx, in, o...)
	if out != nil {
		m.record("GetItem", in.TableName, start, err, &read{itemsOf(out.Item), in.ConsistentRead}, out.ConsumedCapacity)
	} else {
		m.record("GetItem", in.TableName, start, err, &read{nil, in.ConsistentRead})
	}
	return out, err
}

// itemsOf is a GetItem's answer as items: none when it found nothing.
func itemsOf(it Item) []Item {
	if it == nil {
		return nil
	}
	return []Item{it}
}
