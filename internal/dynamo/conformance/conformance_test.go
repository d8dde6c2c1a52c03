package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// backend is a Client and Writer: the embedded one or dynalite.
type backend interface {
	dynamo.Client
	dynamo.Writer
}

func TestMain(m *testing.M) {
	code := m.Run()
	dynalitetest.StopShared()
	os.Exit(code)
}

func seed(t *testing.T, w backend) {
	t.Helper()
	ctx := context.Background()
	for _, f := range fixtures() {
		if _, err := w.CreateTable(ctx, f.create); err != nil {
			t.Fatalf("create %s: %v", *f.create.TableName, err)
		}
		waitActive(t, w, *f.create.TableName)
		for i := 0; i < len(f.items); i += 25 {
			var reqs []types.WriteRequest
			for _, it := range f.items[i:min(i+25, len(f.items))] {
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
			}
			out, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{*f.create.TableName: reqs}})
			if err != nil {
				t.Fatalf("write %s: %v", *f.create.TableName, err)
			}
			if len(out.UnprocessedItems) > 0 {
				t.Fatalf("write %s: unprocessed items", *f.create.TableName)
			}
		}
	}
}

// waitActive polls until the table is ACTIVE: dynalite creates tables
// asynchronously even with --createTableMs 0.
func waitActive(t *testing.T, c dynamo.Client, name string) {
	t.Helper()
	for i := 0; i < 200; i++ {
		out, err := c.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err == nil && out.Table.TableStatus == types.TableStatusActive {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("table %s never became ACTIVE", name)
}

// outcome is what a case observed, normalised for comparison.
type outcome struct {
	Pages []pageOutcome `json:"pages,omitempty"`
	Err   string        `json:"err,omitempty"`
}

type pageOutcome struct {
	Items   []map[string]any `json:"items"`
	Count   int32            `json:"count"`
	Scanned int32            `json:"scanned"`
	LastKey map[string]any   `json:"lastKey,omitempty"`
	RCU     float64          `json:"rcu"`
}

// errCode is an error as the suite compares it: DynamoDB's error code and
// message, which the embedded backend must match word for word.
func errCode(err error) string {
	var api smithy.APIError
	if errors.As(err, &api) {
		return api.ErrorCode() + ": " + api.ErrorMessage()
	}
	return "non-API error: " + err.Error()
}

func wireItems(items []map[string]types.AttributeValue) []map[string]any {
	out := make([]map[string]any, len(items))
	for i, it := range items {
		out[i] = dynamo.WireItem(it)
	}
	return out
}

func rcu(cc *types.ConsumedCapacity) float64 {
	if cc == nil || cc.CapacityUnits == nil {
		return -1
	}
	return *cc.CapacityUnits
}

// query runs a Query and follows LastEvaluatedKey for up to maxPages pages.
func query(first dynamodb.QueryInput, maxPages int) func(context.Context, dynamo.Client) outcome {
	return func(ctx context.Context, c dynamo.Client) outcome {
		in := first // each backend pages from the start
		var o outcome
		for p := 0; p < maxPages; p++ {
			req := in
			req.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
			out, err := c.Query(ctx, &req)
			if err != nil {
				o.Err = errCode(err)
				return o
			}
			pg := pageOutcome{Items: wireItems(out.Items), Count: out.Count, Scanned: out.ScannedCount, RCU: rcu(out.ConsumedCapacity)}
			if len(out.LastEvaluatedKey) > 0 {
				pg.LastKey = dynamo.WireItem(out.LastEvaluatedKey)
			}
			o.Pages = append(o.Pages, pg)
			if len(out.LastEvaluatedKey) == 0 {
				break
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		return o
	}
}

func scan(first dynamodb.ScanInput, maxPages int) func(context.Context, dynamo.Client) outcome {
	return func(ctx context.Context, c dynamo.Client) outcome {
		in := first
		var o outcome
		for p := 0; p < maxPages; p++ {
			req := in
			req.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
			out, err := c.Scan(ctx, &req)
			if err != nil {
				o.Err = errCode(err)
				return o
			}
			pg := pageOutcome{Items: wireItems(out.Items), Count: out.Count, Scanned: out.ScannedCount, RCU: rcu(out.ConsumedCapacity)}
			if len(out.LastEvaluatedKey) > 0 {
				pg.LastKey = dynamo.WireItem(out.LastEvaluatedKey)
			}
			o.Pages = append(o.Pages, pg)
			if len(out.LastEvaluatedKey) == 0 {
				break
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		return o
	}
}

func getItem(in dynamodb.GetItemInput) func(context.Context, dynamo.Client) outcome {
	return func(ctx context.Context, c dynamo.Client) outcome {
		in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		out, err := c.GetItem(ctx, &in)
		if err != nil {
			return outcome{Err: errCode(err)}
		}
		var items []map[string]any
		if out.Item != nil {
			items = wireItems([]map[string]types.AttributeValue{out.Item})
		}
		return outcome{Pages: []pageOutcome{{Items: items, RCU: rcu(out.ConsumedCapacity)}}}
	}
}

// describeTTL asks a table's Time to Live; its page is the status and the
// attribute, as one item.
func describeTTL(table string) func(context.Context, dynamo.Client) outcome {
	return func(ctx context.Context, c dynamo.Client) outcome {
		t := dynamo.TimeToLiveOf(c)
		if t == nil {
			return outcome{Err: "no DescribeTimeToLive"}
		}
		out, err := t.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table)})
		if err != nil {
			return outcome{Err: errCode(err)}
		}
		d := out.TimeToLiveDescription
		return outcome{Pages: []pageOutcome{{Items: []map[string]any{{"status": string(d.TimeToLiveStatus), "attribute": aws.ToString(d.AttributeName)}}}}}
	}
}

var fixturesSeeded dynalitetest.Seeded

// sharedDynalite is the package's dynalite, seeded with the fixtures once.
func sharedDynalite(t *testing.T) *dynamodb.Client {
	t.Helper()
	return fixturesSeeded.Client(t, func(c *dynamodb.Client) error {
		seed(t, c)
		return nil
	})
}

func TestConformance(t *testing.T) {
	ctx := context.Background()
	mem := memory.New()
	seed(t, mem)
	dl := sharedDynalite(t)

	cs := cases()
	for _, c := range cs {
		t.Run(c.name, func(t *testing.T) {
			want := c.run(ctx, dl)
			got := c.run(ctx, mem)
			if c.wantErr != "" && !strings.HasPrefix(want.Err, c.wantErr+":") {
				t.Fatalf("dynalite answered %q, the case expects error %q", want.Err, c.wantErr)
			}
			if want.Err != "" {
				t.Log(want.Err)
			}
			if c.wantErr == "" && want.Err != "" {
				t.Fatalf("dynalite failed: %s", want.Err)
			}
			wj, _ := json.MarshalIndent(want, "", " ")
			gj, _ := json.MarshalIndent(got, "", " ")
			if string(wj) != string(gj) {
				if dir := os.Getenv("CONFORMANCE_DIFF_DIR"); dir != "" {
					_ = os.WriteFile(dir+"/dynalite.json", wj, 0o644)
					_ = os.WriteFile(dir+"/memory.json", gj, 0o644)
				}
				t.Fatalf("memory differs from dynalite\n--- dynalite\n%s\n--- memory\n%s", clip(wj), clip(gj))
			}
		})
	}
	t.Logf("%d conformance cases compared between the embedded backend and dynalite", len(cs))
}

func clip(b []byte) string {
	if len(b) > 6000 {
		return string(b[:6000]) + "\n…"
	}
	return string(b)
}
