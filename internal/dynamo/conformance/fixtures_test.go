package conformance

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type item = map[string]types.AttributeValue

func s(v string) types.AttributeValue  { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue  { return &types.AttributeValueMemberN{Value: v} }
func b(v []byte) types.AttributeValue  { return &types.AttributeValueMemberB{Value: v} }
func bl(v bool) types.AttributeValue   { return &types.AttributeValueMemberBOOL{Value: v} }
func null(v bool) types.AttributeValue { return &types.AttributeValueMemberNULL{Value: v} }
func ss(v ...string) types.AttributeValue {
	return &types.AttributeValueMemberSS{Value: append([]string{}, v...)}
}
func ns(v ...string) types.AttributeValue {
	return &types.AttributeValueMemberNS{Value: append([]string{}, v...)}
}
func l(v ...types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberL{Value: v}
}
func m(kv ...any) types.AttributeValue {
	out := item{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return &types.AttributeValueMemberM{Value: out}
}

func keyDef(name string, t types.ScalarAttributeType) types.AttributeDefinition {
	return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: t}
}

func hashRange(pk, sk string) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
	if sk != "" {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
	}
	return ks
}

// fixture is a table and the items written into it.
type fixture struct {
	create *dynamodb.CreateTableInput
	items  []item
}

func fixtures() []fixture {
	// Strings: a hierarchy with the ordering traps (NY, NY#…, NYC, unicode).
	strKeys := []string{"NE#OMAHA#68118", "NY", "NY#NEWYORKCITY#10001", "NY#NEWYORKCITY#10019", "NY#ALBANY#12207",
		"NYC#X", "NY!", "A##B", "A#", "ÎLE-DE-FRANCE#PARIS#75001", "ZÜRICH#Zürich#8001", "a", "b#c", "~tilde"}
	var str []item
	for i, k := range strKeys {
		str = append(str, item{"PK": s("USA"), "SK": s(k), "Sq": n(fmt.Sprint(900 + i*37)), "City": s(strings.Split(k, "#")[0]),
			"Tags": &types.AttributeValueMemberSS{Value: []string{"t" + fmt.Sprint(i%3), "all"}},
			"Doc":  m("status", s([]string{"OPEN", "FAILED", "DONE"}[i%3]), "n", n(fmt.Sprint(i)), "list", l(s("x"), n("1"))),
			"Open": bl(i%2 == 0)})
	}
	for i := 0; i < 60; i++ {
		str = append(str, item{"PK": s("BIG"), "SK": s(fmt.Sprintf("K#%03d", i)), "Sq": n(fmt.Sprint(i % 7)), "City": s(fmt.Sprintf("C%d", i%5))})
	}
	for _, c := range []string{"FRANCE", "CANADA", "GERMANY", "JAPAN", "BRAZIL", "INDIA", "MEXICO", "SPAIN"} {
		for i := 0; i < 3; i++ {
			str = append(str, item{"PK": s(c), "SK": s(fmt.Sprintf("S%d#CITY", i)), "Sq": n(fmt.Sprint(i)), "City": s(c + "CITY")})
		}
	}
	// Numbers: negatives, decimals, 38 digits.
	nums := []string{"-99.1", "-1", "-1.5", "0", "0.001", "1", "1.5", "10", "9", "1536019200", "1535544000", "1310216400",
		"99999999999999999999999999999999999999", "-99999999999999999999999999999999999999", "1e3", "12.50"}
	var num []item
	for i, k := range nums {
		num = append(num, item{"Dev": s("123"), "TS": n(k), "Level": s([]string{"INFO", "WARN", "ERROR"}[i%3]), "Temp": n(fmt.Sprint(i*3 - 10))})
	}
	// Binary keys.
	var bin []item
	for i := 0; i < 20; i++ {
		bin = append(bin, item{"Bucket": s("b1"), "Key": b([]byte{byte(i * 13), 0xff, byte(i)}), "Data": b([]byte("payload"))})
	}
	bin = append(bin, item{"Bucket": s("b1"), "Key": b([]byte{0x00}), "Data": b([]byte{})})
	// Large items: ~100 KB each, so a 1 MB page ends early.
	var big []item
	pad := strings.Repeat("x", 100_000)
	for i := 0; i < 25; i++ {
		big = append(big, item{"PK": s("P"), "SK": s(fmt.Sprintf("%02d", i)), "Pad": s(pad)})
	}
	// Cases the differential suite found, kept by hand.
	// Number partition keys: dynalite hashes a number's binary form, which
	// orders partitions (and index ties) in a scan.
	var numPK []item
	for i, k := range []string{"-1.5", "0", "1", "10", "9", "1e3", "-99", "0.001", "12.50", "-0.5", "123456789012345678901234567890", "-7e-3", "100", "99"} {
		numPK = append(numPK, item{"N": n(k), "SK": s(fmt.Sprintf("s%d", i%3)), "G": s("same")})
	}
	// A page that ends at 1 MB only if the sort key were counted with its
	// storage overhead: 7 items of 133,604 bytes and one of 113,014 come to
	// 1,048,242, just under 1 MB, so the page reads on.
	var edge []item
	for i := 0; i < 12; i++ {
		pad := 100_000
		switch {
		case i == 7:
			pad = 84_500
		case i > 7:
			pad = 10
		}
		edge = append(edge, item{"PK": s("P2"), "SK": s(fmt.Sprintf("%02d", i) + strings.Repeat("k", 998)), "Pad": s(strings.Repeat("x", pad))})
	}
	// Capacity counts a name in UTF-16 units, as dynalite does: 4,096 with
	// this name, 4,100 in UTF-8 bytes, which would cost another unit.
	edge = append(edge, item{"PK": s("U"), "SK": s("u"), "ünïcödé": s(strings.Repeat("x", 4083))})
	return []fixture{
		{create: &dynamodb.CreateTableInput{
			TableName: aws.String("NumPK"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{keyDef("N", "N"), keyDef("SK", "S"), keyDef("G", "S")}, KeySchema: hashRange("N", "SK"),
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByG"), KeySchema: hashRange("G", ""),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		}, items: numPK},
		{create: &dynamodb.CreateTableInput{
			TableName: aws.String("Edge"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{keyDef("PK", "S"), keyDef("SK", "S")}, KeySchema: hashRange("PK", "SK"),
		}, items: edge},
		{create: &dynamodb.CreateTableInput{
			TableName:            aws.String("Str"),
			AttributeDefinitions: []types.AttributeDefinition{keyDef("PK", "S"), keyDef("SK", "S"), keyDef("Sq", "N"), keyDef("City", "S")},
			KeySchema:            hashRange("PK", "SK"),
			BillingMode:          types.BillingModePayPerRequest,
			LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("BySq"), KeySchema: hashRange("PK", "Sq"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByCity"), KeySchema: hashRange("City", "SK"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
		}, items: str},
		{create: &dynamodb.CreateTableInput{
			TableName: aws.String("Num"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{keyDef("Dev", "S"), keyDef("TS", "N")}, KeySchema: hashRange("Dev", "TS"),
		}, items: num},
		{create: &dynamodb.CreateTableInput{
			TableName: aws.String("Bin"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{keyDef("Bucket", "S"), keyDef("Key", "B")}, KeySchema: hashRange("Bucket", "Key"),
		}, items: bin},
		{create: &dynamodb.CreateTableInput{
			TableName: aws.String("Big"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{keyDef("PK", "S"), keyDef("SK", "S")}, KeySchema: hashRange("PK", "SK"),
		}, items: big},
		{create: &dynamodb.CreateTableInput{
			TableName: aws.String("HashOnly"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{keyDef("ID", "S")}, KeySchema: hashRange("ID", ""),
		}, items: func() []item {
			var out []item
			for i := 0; i < 30; i++ {
				out = append(out, item{"ID": s(fmt.Sprintf("id-%d", i)), "V": n(fmt.Sprint(i))})
			}
			return out
		}()},
	}
}
