package dynamo

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// TimeToLiveClient is the optional read beside Client that says a table's
// Time to Live: which attribute, and whether it is on. It is not part of
// Client, so that a backend without it still serves everything else;
// *dynamodb.Client and the embedded backend have it.
type TimeToLiveClient interface {
	DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error)
}

var _ TimeToLiveClient = (*dynamodb.Client)(nil)

// TTLUnknown is the status of a table whose connection cannot say.
const TTLUnknown = "UNKNOWN"

// TTLInfo is a table's Time to Live as DescribeTimeToLive says it: status
// ENABLED, DISABLED, ENABLING or DISABLING (TTLUnknown where the
// connection cannot say), and the attribute where one is named.
type TTLInfo struct {
	Attribute string `json:"attribute,omitempty"`
	Status    string `json:"status"`
}

// On reports whether DynamoDB deletes the table's expired items (or will
// once enabling ends).
func (t TTLInfo) On() bool {
	return t.Attribute != "" && (t.Status == string(types.TimeToLiveStatusEnabled) || t.Status == string(types.TimeToLiveStatusEnabling))
}

// TimeToLiveOf is the Time to Live call behind a client, through the
// masking layer and counted by the metering one; nil when the backend has
// none.
func TimeToLiveOf(c Client) TimeToLiveClient {
	var metered *Metered
	for c != nil {
		if t, ok := c.(TimeToLiveClient); ok {
			if metered != nil {
				return meteredTTL{t, metered}
			}
			return t
		}
		switch w := c.(type) {
		case *Metered:
			if metered == nil {
				metered = w
			}
			c = w.Client
		case *Masked:
			c = w.Client
		default:
			return nil
		}
	}
	return nil
}

type meteredTTL struct {
	TimeToLiveClient
	m *Metered
}

func (t meteredTTL) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	start := time.Now()
	out, err := t.TimeToLiveClient.DescribeTimeToLive(ctx, in, o...)
	t.m.record("DescribeTimeToLive", in.TableName, start, err, nil)
	return out, err
}

// TableTTL reads a table's Time to Live (TTLUnknown, no error, where the
// connection has no such call).
func TableTTL(ctx context.Context, c Client, table string) (TTLInfo, error) {
	t := TimeToLiveOf(c)
	if t == nil {
		return TTLInfo{Status: TTLUnknown}, nil
	}
	out, err := t.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table)})
	if err != nil {
		return TTLInfo{}, Explain("describe time to live of "+table, err)
	}
	d := out.TimeToLiveDescription
	if d == nil {
		return TTLInfo{Status: string(types.TimeToLiveStatusDisabled)}, nil
	}
	return TTLInfo{Attribute: aws.ToString(d.AttributeName), Status: string(d.TimeToLiveStatus)}, nil
}

// TTLRequest is what SampleTTL reads: a table's (or with PK, one
// partition's) items, for how their Attribute reads as a TTL.
type TTLRequest struct {
	Table     string
	Key       KeySchema
	Attribute string
	PK        *domain.KeyValue // nil: the whole table, by Scan
	MaxRCU    float64          // 0: no budget
	Now       time.Time
}

// TTLSample counts the items read by what their TTL attribute means
// (domain.TTLKind), with the first item of each kind as an example (its
// key and TTL attribute).
type TTLSample struct {
	Counts   map[domain.TTLKind]int
	Examples map[domain.TTLKind]Item
	Items    int
	Pages    int
	Cost     Cost
	// Sampled: the budget ran out before the end, so the counts are of
	// the items read first.
	Sampled bool
}

// SampleTTL reads the keys and TTL attribute of a partition (Query) or a
// table (Scan), page by page within the budget.
func SampleTTL(ctx context.Context, c Client, r TTLRequest) (TTLSample, error) {
	s := TTLSample{Counts: map[domain.TTLKind]int{}, Examples: map[domain.TTLKind]Item{}}
	for _, k := range []domain.TTLKind{domain.TTLLive, domain.TTLExpired, domain.TTLTooOld, domain.TTLMilliseconds, domain.TTLWrongType, domain.TTLMissing} {
		s.Counts[k] = 0
	}
	proj := []string{r.Key.PK.Name, r.Attribute}
	if r.Key.SK != nil {
		proj = append(proj, r.Key.SK.Name)
	}
	var start Item
	scanned, largest := 0, 0
	// Under a budget the items are read whole (billed the same as the
	// attributes projected) and cut here: each page is sized from the
	// largest item read (SizedLimit).
	whole := r.MaxRCU > 0
	ask := proj
	if whole {
		ask = nil
	}
	for {
		limit, ok := SizedLimit(r.MaxRCU, s.Cost.Billed, largest, scanned)
		if !ok {
			s.Sampled = true
			return s, nil
		}
		p, err := ttlPage(ctx, c, r, ask, start, limit)
		s.Cost = s.Cost.Add(p.Cost)
		if err != nil {
			return s, err
		}
		s.Pages++
		scanned += p.Scanned
		largest = max(largest, PageLargest(p.Cost.Billed, false, p.Items, p.Scanned, whole))
		if whole {
			p.Items = cutToNames(p.Items, proj)
		}
		for _, it := range p.Items {
			v, present := it[r.Attribute]
			var plain any
			if present {
				plain = Plain(v)
			}
			kind := domain.ReadTTL(plain, present, r.Now).Kind
			s.Counts[kind]++
			if _, seen := s.Examples[kind]; !seen {
				s.Examples[kind] = it
			}
		}
		s.Items += len(p.Items)
		if !p.More() {
			return s, nil
		}
		start = p.LastKey
	}
}

func ttlPage(ctx context.Context, c Client, r TTLRequest, proj []string, start Item, limit int32) (Page, error) {
	t0 := time.Now()
	if r.PK != nil {
		q := domain.KeyQuery{Table: r.Table, PKName: r.Key.PK.Name, PK: *r.PK}
		if r.Key.SK != nil {
			q.SKName = r.Key.SK.Name
		}
		in, err := QueryInput(PageRequest{Query: q, Start: start, Limit: limit}, proj)
		if err != nil {
			return Page{}, err
		}
		out, err := c.Query(ctx, in)
		cost := Cost{Requests: 1, Latency: time.Since(t0)}
		if err != nil {
			return Page{Cost: cost}, Explain("query "+r.Table, err)
		}
		cost.RCU = capacityUnits(out.ConsumedCapacity)
		cost.billRead(out.Items, false)
		return Page{Items: out.Items, LastKey: out.LastEvaluatedKey, Scanned: int(out.ScannedCount), Cost: cost}, nil
	}
	in := &dynamodb.ScanInput{TableName: aws.String(r.Table), ExclusiveStartKey: start, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	in.ProjectionExpression, in.ExpressionAttributeNames = Projection(proj, nil)
	if limit > 0 {
		in.Limit = aws.Int32(limit)
	}
	if err := CheckScan(in); err != nil {
		return Page{}, err
	}
	out, err := c.Scan(ctx, in)
	cost := Cost{Requests: 1, Latency: time.Since(t0)}
	if err != nil {
		return Page{Cost: cost}, Explain("scan "+r.Table, err)
	}
	cost.RCU = capacityUnits(out.ConsumedCapacity)
	cost.billRead(out.Items, false)
	return Page{Items: out.Items, LastKey: out.LastEvaluatedKey, Scanned: int(out.ScannedCount), Cost: cost}, nil
}

// ItemTTL is what an item's TTL attribute (attr, "" for none) means at
// now, for the item view: "expires in …", "expired … ago, not yet
// deleted", "never: milliseconds".
func ItemTTL(it Item, attr string, now time.Time) domain.TTLValue {
	v, ok := it[attr]
	if attr == "" || !ok {
		return domain.ReadTTL(nil, false, now)
	}
	return domain.ReadTTL(Plain(v), true, now)
}

// ItemSize is an item's size as DynamoDB bills it (ItemBytes) in words,
// and whether it is past the 300 KB warning of the 400 KB limit.
func ItemSize(it Item) (bytes int, words string, warn bool) {
	bytes = ItemBytes(it)
	words, warn = domain.ItemSizeWords(bytes)
	return bytes, words, warn
}

// cutToNames is items holding only the top-level attributes names.
func cutToNames(items []Item, names []string) []Item {
	out := make([]Item, len(items))
	for i, it := range items {
		cut := Item{}
		for _, n := range names {
			if v, ok := it[n]; ok {
				cut[n] = v
			}
		}
		out[i] = cut
	}
	return out
}
