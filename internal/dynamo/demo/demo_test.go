package demo

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

func digest(t *testing.T) string {
	h := sha256.New()
	for _, def := range Tables() {
		if err := Items(*def.TableName, func(it Item) error {
			b, _ := json.Marshal(dynamo.WireItem(it))
			h.Write(b)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestDeterministic(t *testing.T) {
	if a, b := digest(t), digest(t); a != b {
		t.Fatalf("two generations differ: %s vs %s", a, b)
	}
}

func get(t *testing.T, c dynamo.Client, table string, key Item) Item {
	t.Helper()
	out, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: key})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

func partitionKeys(t *testing.T, c dynamo.Client, table, pkName string, pk types.AttributeValue, skName string) []string {
	t.Helper()
	var keys []string
	var start Item
	for {
		out, err := c.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String(table),
			KeyConditionExpression: aws.String("#p = :p"), ExpressionAttributeNames: map[string]string{"#p": pkName},
			ExpressionAttributeValues: Item{":p": pk}, ExclusiveStartKey: start})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			switch v := it[skName].(type) {
			case *types.AttributeValueMemberS:
				keys = append(keys, v.Value)
			case *types.AttributeValueMemberN:
				keys = append(keys, v.Value)
			}
		}
		if len(out.LastEvaluatedKey) == 0 {
			return keys
		}
		start = out.LastEvaluatedKey
	}
}

// checkPatterns asserts every pattern and anomaly the demo promises.
func checkPatterns(t *testing.T, c dynamo.Client) {
	for _, s := range seedLocations {
		it := get(t, c, "Locations", Item{"PK": str(s.Country), "SK": str(s.SK)})
		if it == nil || it["StreetAddress"].(*types.AttributeValueMemberS).Value != s.Street {
			t.Errorf("seed location %s %s missing or wrong: %v", s.Country, s.SK, it)
		}
	}
	for _, sk := range []string{"NY", "NYC#MANHATTAN#10007", "PR##00901", "GU#HAGATNA#"} {
		if get(t, c, "Locations", Item{"PK": str("USA"), "SK": str(sk)}) == nil {
			t.Errorf("edge-case location %q missing", sk)
		}
	}
	if n := len(partitionKeys(t, c, "Locations", "PK", str("USA"), "SK")); n < 3000 {
		t.Errorf("USA has %d stores; want thousands", n)
	}
	if n := len(partitionKeys(t, c, "Geography", "PK", str(GeographyPartition), "SK")); n < 10000 {
		t.Errorf("Geography PLACE has %d items; want tens of thousands", n)
	}
	dev := partitionKeys(t, c, "DeviceLogs", "DeviceID", num(SeedDevice), "Timestamp")
	if strings.Join(dev, ",") != "1310216400,1535544000,1536022800" {
		t.Errorf("device 123 holds %v", dev)
	}
	if n := len(partitionKeys(t, c, "DeviceLogs", "DeviceID", num(BusyDevice), "Timestamp")); n != BusyDeviceEvents {
		t.Errorf("busy device holds %d events, want %d", n, BusyDeviceEvents)
	}
	// Version anomalies.
	v0 := get(t, c, "Equipment", Item{"PK": str(DriftedPiece), "SK": str("v0_" + DriftedItem)})
	v3 := get(t, c, "Equipment", Item{"PK": str(DriftedPiece), "SK": str("v3_" + DriftedItem)})
	if v0 == nil || v3 == nil || dynamo.Plain(v0["Status"]) == dynamo.Plain(v3["Status"]) {
		t.Errorf("drifted item should differ in Status: v0=%v v3=%v", v0["Status"], v3["Status"])
	}
	eq := func(piece string) []string {
		return partitionKeys(t, c, "Equipment", "PK", str(piece), "SK")
	}
	has := func(keys []string, k string) bool {
		i := sort.SearchStrings(keys, k)
		return i < len(keys) && keys[i] == k
	}
	if k := eq(GapPiece); !has(k, "v3_Audit") || has(k, "v4_Audit") || !has(k, "v5_Audit") {
		t.Errorf("gap piece keys %v", k)
	}
	if k := eq(MissingCurrentPiece); has(k, "v0_Audit") || !has(k, "v1_Audit") {
		t.Errorf("missing-current piece keys %v", k)
	}
	if k := eq(DuplicatePiece); !has(k, "v1_Audit") || !has(k, "v001_Audit") {
		t.Errorf("duplicate piece keys %v", k)
	}
	if k := eq(LongHistoryPiece); len(k) != LongHistoryRevisions+2 || !has(k, "v0000_Audit") || !has(k, "v1000_Audit") {
		t.Errorf("long history has %d keys", len(k))
	}
	// Equal v0_ and newest revision everywhere else (sample).
	a := get(t, c, "Equipment", Item{"PK": str("Equipment_10"), "SK": str("v0_Audit")})
	if a == nil {
		t.Fatal("Equipment_10 has no v0_Audit")
	}
	doc := partitionKeys(t, c, "Documents", "DocumentID", str("doc-0001"), "DocumentInfo")
	if !has(doc, "metadata") || !has(doc, "permissions") || !has(doc, "v_0") || !has(doc, "v_1") {
		t.Errorf("document keys %v", doc)
	}
	for _, shard := range ChatShards {
		if n := len(partitionKeys(t, c, "ChatMessages", "ChatRoomID", str(shard), "MessageID")); n != 5000 {
			t.Errorf("%s holds %d messages", shard, n)
		}
	}
	if get(t, c, "ChatMessages", Item{"ChatRoomID": str("portland"), "MessageID": str("amsg#2018-08-29:12:00:00")}) == nil {
		t.Error("the blog's amsg message is missing")
	}
}

func TestPatternsInMemory(t *testing.T) {
	db, err := Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkPatterns(t, db)
}

func TestSeedIntoDynalite(t *testing.T) {
	srv := dynalitetest.Start(t)
	c := srv.Client()
	// Seeding dynalite with everything takes minutes; the small tables
	// carry every pattern the checks below need except the big partitions.
	st, err := Seed(context.Background(), c, Options{Tables: []string{"Equipment", "Documents", "Blobs"}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Tables != 3 || st.Items["Equipment"] == 0 {
		t.Fatalf("seeded %+v", st)
	}
	// DescribeTable's ItemCount is not live (DynamoDB refreshes it about
	// every six hours), so count with a paged Scan.
	n := 0
	var start Item
	for {
		out, err := c.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("Equipment"), Select: types.SelectCount, ExclusiveStartKey: start})
		if err != nil {
			t.Fatal(err)
		}
		n += int(out.Count)
		if start = out.LastEvaluatedKey; len(start) == 0 {
			break
		}
	}
	if n != st.Items["Equipment"] {
		t.Fatalf("dynalite holds %d Equipment items, seeded %d", n, st.Items["Equipment"])
	}
	if k := partitionKeys(t, c, "Equipment", "PK", str(DuplicatePiece), "SK"); len(k) != 6 {
		t.Errorf("duplicate piece on dynalite: %v", k)
	}
}

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := Load(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
