package memory

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestRecordRoundTrip: every kind of value comes back from a record as it
// went in, nested ones too, and each read is a fresh map.
func TestRecordRoundTrip(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	long := strings.Repeat("é", 300) // lengths past one varint byte
	cases := []struct {
		name string
		item map[string]types.AttributeValue
	}{
		{"empty", map[string]types.AttributeValue{}},
		{"scalars", map[string]types.AttributeValue{
			"S": s("x"), "N": &types.AttributeValueMemberN{Value: "-1.5E+3"}, "B": &types.AttributeValueMemberB{Value: []byte{0, 1, 255}},
			"T": &types.AttributeValueMemberBOOL{Value: true}, "F": &types.AttributeValueMemberBOOL{Value: false}, "Z": &types.AttributeValueMemberNULL{Value: true},
		}},
		{"sets", map[string]types.AttributeValue{
			"SS": &types.AttributeValueMemberSS{Value: []string{"a", long}}, "NS": &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
			"BS": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},
		}},
		{"nested", map[string]types.AttributeValue{
			"L": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("a"), &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": &types.AttributeValueMemberL{Value: []types.AttributeValue{}}}}}},
			"M": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}, long: s(""),
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := encodeItem(c.item)
			got := rec.item()
			if !reflect.DeepEqual(got, c.item) {
				t.Errorf("decoded %#v, want %#v", got, c.item)
			}
			if again := encodeItem(got); again != rec {
				t.Errorf("re-encoding changed the record")
			}
			got["added"] = s("x")
			if _, ok := rec.item()["added"]; ok {
				t.Errorf("a read's map aliases the stored record")
			}
		})
	}
}

// BenchmarkPutItemsHeap loads 100,000 items shaped like `make bench-data`'s
// (about 300 bytes each) and reports the live heap they hold per item.
func BenchmarkPutItemsHeap(b *testing.B) {
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	const n = 100_000
	for range b.N {
		db := New()
		_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:            aws.String("Orders"),
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		})
		if err != nil {
			b.Fatal(err)
		}
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		batch := make([]map[string]types.AttributeValue, 0, 1000)
		for i := range n {
			batch = append(batch, map[string]types.AttributeValue{
				"PK": s(fmt.Sprintf("TENANT#%04d", i%1000)), "SK": s(fmt.Sprintf("ORDER#2026-%02d-%02dT%02d:%02d:00Z#%08d", 1+i%12, 1+i%28, i%24, i%60, i)),
				"Status": s("SHIPPED"), "Total": &types.AttributeValueMemberN{Value: fmt.Sprint(i % 100_000)}, "Customer": s(fmt.Sprintf("customer-%06d@example.com", i%50_000)),
				"Lines": &types.AttributeValueMemberN{Value: fmt.Sprint(1 + i%9)}, "Notes": s(strings.Repeat(fmt.Sprintf("note %d ", i), 20)[:105]),
				"Tags":    &types.AttributeValueMemberSS{Value: []string{"priority", fmt.Sprintf("region-%d", i%7)}},
				"Address": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"Street": s(fmt.Sprintf("%d Main Street", i%9999)), "City": s("Springfield"), "Zip": s(fmt.Sprintf("%05d", i%99999))}},
			})
			if len(batch) == cap(batch) {
				if _, err := db.PutItems(ctx, "Orders", batch); err != nil {
					b.Fatal(err)
				}
				batch = batch[:0]
			}
		}
		var after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "heapB/item")
		runtime.KeepAlive(db)
	}
}

// TestEncodeOnly: an index's projection encoded straight from the item is
// the record of a map holding only the kept attributes, with nested maps
// (whose names the encoder sorts in the same scratch) and repeated names.
func TestEncodeOnly(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	item := map[string]types.AttributeValue{
		"PK": s("p"), "SK": s("s"), "G": s("g"), "N": &types.AttributeValueMemberN{Value: "12"},
		"M":     &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"z": s("1"), "a": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"y": s("2"), "b": s("3")}}}},
		"Other": s("not kept"),
	}
	cases := []struct {
		name string
		keep []string
	}{
		{"keys only", []string{"PK", "SK", "G", "SK"}},
		{"a nested map kept", []string{"PK", "SK", "M", "G"}},
		{"absent names", []string{"PK", "SK", "Missing", "N"}},
		{"nothing", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sub := map[string]types.AttributeValue{}
			for _, k := range c.keep {
				if v, ok := item[k]; ok {
					sub[k] = v
				}
			}
			var e encoder
			e.encode(item) // a used encoder: its scratch must not leak in
			if got, want := e.encodeOnly(item, c.keep), encodeItem(sub); got != want {
				t.Errorf("encodeOnly %q, want %q", got, want)
			}
		})
	}
}

// TestCanonicalNumber: the fast check agrees with parsing and printing a
// number on every form a number's text can take.
func TestCanonicalNumber(t *testing.T) {
	for _, s := range []string{
		"0", "-0", "00", "1", "-1", "10", "100", "-100", "01", "0.5", "-0.5", "0.05", "0.50", ".5", "5.", "1.25", "-1.25",
		"12.50", "1e3", "1E-3", "+1", "-", "", "1.0", "0.0", "-0.0", "123456789012345678901234567890123456789", "1.2.3", "1a", "9.99", "0.000001",
	} {
		d, ok := parseDecimal(s)
		if want := ok && d.String() == s; canonicalNumber(s) != want {
			t.Errorf("canonicalNumber(%q) = %v, want %v", s, !want, want)
		}
	}
}
