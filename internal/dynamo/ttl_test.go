package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
)

// ttlWriter is what the TTL tests write with, on moto and the embedded
// backend alike.
type ttlWriter interface {
	streamWriter
	UpdateTimeToLive(ctx context.Context, in *dynamodb.UpdateTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error)
}

var ttlNow = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

// ttlItems are one item of each kind under PK "p", and one live item
// under "q".
func ttlItems() []dynamo.Item {
	num := func(v int64) types.AttributeValue {
		return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
	}
	it := func(pk, sk string, ttl types.AttributeValue) dynamo.Item {
		i := dynamo.Item{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk}, "Body": &types.AttributeValueMemberS{Value: "x"}}
		if ttl != nil {
			i["ExpiresAt"] = ttl
		}
		return i
	}
	return []dynamo.Item{
		it("p", "live", num(ttlNow.Add(time.Hour).Unix())),
		it("p", "live2", num(ttlNow.Add(2*time.Hour).Unix())),
		it("p", "expired", num(ttlNow.Add(-48*time.Hour).Unix())),
		it("p", "millis", num(ttlNow.Add(time.Hour).UnixMilli())),
		it("p", "micros", num(ttlNow.UnixMicro())),
		it("p", "string", &types.AttributeValueMemberS{Value: strconv.FormatInt(ttlNow.Add(time.Hour).Unix(), 10)}),
		it("p", "missing", nil),
		it("q", "live", num(ttlNow.Add(time.Hour).Unix())),
	}
}

var ttlTables int

func ttlTable(t *testing.T, db ttlWriter, enable bool) string {
	t.Helper()
	ctx := context.Background()
	ttlTables++
	name := fmt.Sprintf("Ttl%d", ttlTables)
	createTTLTable(t, db, name)
	for _, it := range ttlItems() {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	if enable {
		_, err := db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(name),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("ExpiresAt"), Enabled: aws.Bool(true)}})
		if err != nil {
			t.Fatal(err)
		}
	}
	return name
}

func createTTLTable(t *testing.T, db streamWriter, name string) {
	t.Helper()
	_, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName: aws.String(name),
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
		BillingMode: types.BillingModePayPerRequest,
	})
	if mototest.Created(err) != nil {
		t.Fatal(err)
	}
}

var ttlKey = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "pk", Type: "S"}, SK: &dynamo.KeyAttr{Name: "sk", Type: "S"}}

// TestTimeToLive: the embedded backend says a table's TTL as moto does,
// through the metering layer (which counts the call), and both count a
// partition's and a table's items by what their TTL means.
func TestTimeToLive(t *testing.T) {
	ctx := context.Background()
	for name, db := range map[string]ttlWriter{"moto": mototest.Shared(t).Client(), "memory": memory.New()} {
		t.Run(name, func(t *testing.T) {
			off := ttlTable(t, db, false)
			on := ttlTable(t, db, true)
			m := dynamo.NewMetered(db)
			if got, err := dynamo.TableTTL(ctx, m, off); err != nil || got.Status != "DISABLED" || got.On() {
				t.Errorf("a table without TTL: %+v, %v", got, err)
			}
			got, err := dynamo.TableTTL(ctx, m, on)
			if err != nil || got != (dynamo.TTLInfo{Attribute: "ExpiresAt", Status: "ENABLED"}) || !got.On() {
				t.Errorf("a table with TTL on ExpiresAt: %+v, %v", got, err)
			}
			if total, _ := m.Session.Totals(); total.Requests != 2 {
				t.Errorf("the session counted %d requests, want 2", total.Requests)
			}
			// moto answers a missing table with its own code, ResourceNotFound.
			_, err = dynamo.TableTTL(ctx, m, "NoSuchTable")
			if err == nil || name == "memory" && dynamo.KindOf(err) != dynamo.KindNotFound {
				t.Errorf("no such table: %v (%s)", err, dynamo.KindOf(err))
			}
			_, err = db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(on),
				TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("ExpiresAt"), Enabled: aws.Bool(true)}})
			if name == "memory" && err == nil {
				t.Error("enabling TTL twice is refused by DynamoDB")
			}

			pk := domain.S("p")
			want := map[domain.TTLKind]int{domain.TTLLive: 2, domain.TTLExpired: 1, domain.TTLTooOld: 0, domain.TTLMilliseconds: 2, domain.TTLWrongType: 1, domain.TTLMissing: 1}
			s, err := dynamo.SampleTTL(ctx, db, dynamo.TTLRequest{Table: on, Key: ttlKey, Attribute: "ExpiresAt", PK: &pk, Now: ttlNow})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(s.Counts) != fmt.Sprint(want) || s.Sampled || s.Items != 7 {
				t.Errorf("partition p: %v sampled=%v items=%d, want %v", s.Counts, s.Sampled, s.Items, want)
			}
			if ex := s.Examples[domain.TTLExpired]; ex == nil || ex["sk"].(*types.AttributeValueMemberS).Value != "expired" || ex["Body"] != nil {
				t.Errorf("the expired example: %v (want its key and TTL only)", ex)
			}
			want[domain.TTLLive] = 3
			s, err = dynamo.SampleTTL(ctx, db, dynamo.TTLRequest{Table: on, Key: ttlKey, Attribute: "ExpiresAt", Now: ttlNow})
			if err != nil || fmt.Sprint(s.Counts) != fmt.Sprint(want) || s.Items != 8 {
				t.Errorf("the table: %v, %v, want %v", s.Counts, err, want)
			}
			s, err = dynamo.SampleTTL(ctx, db, dynamo.TTLRequest{Table: on, Key: ttlKey, Attribute: "ExpiresAt", Now: ttlNow, MaxRCU: 0.5})
			// moto reports 1.0 RCU for any read: the read was sized for 0.5.
			if err != nil || !s.Sampled || s.Items != 1 || name == "memory" && s.Cost.Billed > 0.5 {
				t.Errorf("within 0.5 RCU: sampled=%v items=%d billed=%.1f, %v", s.Sampled, s.Items, s.Cost.Billed, err)
			}
			// Under a budget the items are read whole, to size the reads
			// by them, and cut here: an example holds its key and TTL.
			for kind, ex := range s.Examples {
				if ex["Body"] != nil || ex["pk"] == nil {
					t.Errorf("within 0.5 RCU: the %v example %v (want its key and TTL only)", kind, ex)
				}
			}
		})
	}
}

// TestTimeToLiveDynalite: dynalite has DescribeTimeToLive and says
// DISABLED, as the embedded backend does for a table never enabled.
func TestTimeToLiveDynalite(t *testing.T) {
	ctx := context.Background()
	dl := dynalitetest.Shared(t).Client()
	for name, db := range map[string]streamWriter{"dynalite": dl, "memory": memory.New()} {
		t.Run(name, func(t *testing.T) {
			createTTLTable(t, db, "TtlDisabled")
			if name == "dynalite" {
				w := dynamodb.NewTableExistsWaiter(dl, func(o *dynamodb.TableExistsWaiterOptions) { o.MinDelay = 10 * time.Millisecond })
				if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("TtlDisabled")}, 10*time.Second); err != nil {
					t.Fatal(err)
				}
			}
			got, err := dynamo.TableTTL(ctx, dynamo.NewMetered(db), "TtlDisabled")
			if err != nil || got != (dynamo.TTLInfo{Status: "DISABLED"}) {
				t.Errorf("%+v, %v", got, err)
			}
			_, err = dynamo.TableTTL(ctx, db, "NoSuchTable")
			var e *dynamo.Error
			if !errors.As(err, &e) || e.Kind != dynamo.KindNotFound {
				t.Errorf("no such table: %v", err)
			}
		})
	}
	// A client without the call: the status is unknown, not an error.
	if got, err := dynamo.TableTTL(ctx, dynamo.NewMetered(clientOnly{}), "T"); err != nil || got.Status != dynamo.TTLUnknown {
		t.Errorf("a backend without DescribeTimeToLive: %+v, %v", got, err)
	}
}

// clientOnly is a Client with none of the optional calls.
type clientOnly struct{ dynamo.Client }

// TestItemTTLAndSize: the item view's words for an item's TTL and size.
func TestItemTTLAndSize(t *testing.T) {
	items := ttlItems()
	for i, want := range []string{"expires in 1h", "expires in 2h", "expired 2d ago, not yet deleted", "never: milliseconds", "never: microseconds", "never: a String", "never: no TTL attribute"} {
		got := dynamo.ItemTTL(items[i], "ExpiresAt", ttlNow).Words(ttlNow)
		if len(got) < len(want) || got[:len(want)] != want {
			t.Errorf("%v: %q, want %q…", items[i]["sk"], got, want)
		}
	}
	if got := dynamo.ItemTTL(items[0], "", ttlNow).Kind; got != domain.TTLMissing {
		t.Errorf("no TTL attribute named: %s", got)
	}
	big := dynamo.Item{"pk": &types.AttributeValueMemberS{Value: "p"}, "Body": &types.AttributeValueMemberS{Value: string(make([]byte, 310*1024))}}
	if n, words, warn := dynamo.ItemSize(big); n != 2+1+4+310*1024 || !warn || words != "310.0 KB of the 400 KB limit: 78%" {
		t.Errorf("a 310 KB item: %d %q %v", n, words, warn)
	}
	if n, words, warn := dynamo.ItemSize(items[6]); warn || words != fmt.Sprintf("%d B", n) {
		t.Errorf("a small item: %d %q %v", n, words, warn)
	}
}

// numberSizes are numbers whose sizes differ by how their digits pair
// on the decimal point, their sign and their zeros.
var numberSizes = []string{"0", "7", "12", "123", "1234", "12.34", "1.234", "0.001", "-5", "-12.5", "1e3", "1.5E-7", "1000.000", "98765432109876543210", "-0.000123456789"}

var numberSized seededTable

// TestItemSizeIsWhatTheServerBills: an item dynamo.ItemBytes sizes at
// exactly 4 KB is billed one read unit by the server, and one byte more
// two, for numbers of every digit pairing (ItemBytes counted a number's
// digits over two rounded down: 12.34 and 123 a byte short, so the item
// view said 89 B of an item billed as 91).
func TestItemSizeIsWhatTheServerBills(t *testing.T) {
	item := func(i int, n string, extra int) dynamo.Item {
		it := dynamo.Item{"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("n%02d+%d", i, extra)}, "n": &types.AttributeValueMemberN{Value: n}}
		pad := 4096 + extra - dynamo.ItemBytes(it) - len("pad")
		it["pad"] = &types.AttributeValueMemberS{Value: string(make([]byte, pad))}
		return it
	}
	create := func(ctx context.Context, w dynamo.Writer) error {
		_, err := w.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Sizes"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
		if err != nil {
			return err
		}
		var puts []types.WriteRequest
		for i, n := range numberSizes {
			for _, extra := range []int{0, 1} {
				puts = append(puts, types.WriteRequest{PutRequest: &types.PutRequest{Item: item(i, n, extra)}})
			}
		}
		for len(puts) > 0 {
			k := min(len(puts), 25)
			if _, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"Sizes": puts[:k]}}); err != nil {
				return err
			}
			puts = puts[k:]
		}
		return nil
	}
	for name, c := range seededBackends(t, &numberSized, create) {
		for i, n := range numberSizes {
			for _, extra := range []int{0, 1} {
				out, err := c.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String("Sizes"),
					KeyConditionExpression:    aws.String("pk = :p"),
					ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: fmt.Sprintf("n%02d+%d", i, extra)}},
					ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal})
				if err != nil || len(out.Items) != 1 || out.ConsumedCapacity == nil {
					t.Fatalf("%s: %s: %v", name, n, err)
				}
				want := 0.5 * float64(1+extra)
				if got := aws.ToFloat64(out.ConsumedCapacity.CapacityUnits); got != want {
					t.Errorf("%s: the number %s in an item sized %d B: billed %.1f RCU, want %.1f", name, n, dynamo.ItemBytes(out.Items[0]), got, want)
				}
			}
		}
	}
}
