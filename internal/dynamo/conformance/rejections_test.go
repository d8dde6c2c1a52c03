package conformance

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// rejections are requests DynamoDB refuses, each with the message it
// gives: the embedded backend must refuse them alike, word for word, or a
// request dynascope builds could pass every test and fail on a real
// server (as the keys-only projection naming an index's shared key twice
// once did).
func rejections() []testCase {
	var cs []testCase
	fail := func(name string, run func(context.Context, dynamo.Client) outcome) {
		cs = append(cs, testCase{name: "reject/" + name, run: run, wantErr: "ValidationException"})
	}
	qry := func(in dynamodb.QueryInput) func(context.Context, dynamo.Client) outcome { return query(in, 1) }
	scn := func(in dynamodb.ScanInput) func(context.Context, dynamo.Client) outcome { return scan(in, 1) }
	usaKey := func(extra vals) vals {
		k := vals{"PK": s("USA"), "SK": s("NY")}
		for n, v := range extra {
			k[n] = v
		}
		return k
	}
	esk := func(k vals) func(*dynamodb.QueryInput) {
		return func(in *dynamodb.QueryInput) { in.ExclusiveStartKey = k }
	}

	// Projections: a path named twice, one inside another, a name where
	// the other has an index; reserved words and undefined names, in the
	// order DynamoDB reports them.
	fail("projection/duplicate", qry(q("Str", "PK = :pk", usa(nil), project("PK, SK, PK"))))
	fail("projection/duplicate-placeholders", qry(q("Str", "PK = :pk", usa(nil), project("#a, #b, #c"), withNames(names{"#a": "PK", "#b": "SK", "#c": "PK"}))))
	fail("projection/index-keys-shared", qry(q("Str", "City = :c", vals{":c": s("C1")}, onIndex("ByCity"), project("City, SK, PK, SK"))))
	fail("projection/lsi-keys-shared", qry(q("Str", "PK = :pk", usa(nil), onIndex("BySq"), project("PK, Sq, PK, SK"))))
	fail("projection/overlap-nested", qry(q("Str", "PK = :pk", usa(nil), project("Doc, Doc.#st"), withNames(names{"#st": "status"}))))
	fail("projection/conflict", qry(q("Str", "PK = :pk", usa(nil), project("Doc.#l[0], Doc.#l.x"), withNames(names{"#l": "list"}))))
	fail("projection/reserved", qry(q("Str", "PK = :pk", usa(nil), project("SK, Status"))))
	fail("projection/undefined-name", qry(q("Str", "PK = :pk", usa(nil), project("SK, #nope"))))
	fail("projection/reserved-wins-over-undefined", qry(q("Str", "PK = :pk", usa(nil), project("#nope, Status"))))
	fail("projection/nested-key", qry(q("Str", "PK = :pk", usa(nil), project("SK, PK.x"))))
	fail("projection/nested-index-key", qry(q("Str", "PK = :pk", usa(nil), project("SK, City.x"))))
	fail("projection/empty", qry(q("Str", "PK = :pk", usa(nil), project(""))))
	fail("projection/scan-duplicate", scn(dynamodb.ScanInput{TableName: aws.String("Str"), ProjectionExpression: aws.String("#a, #b"), ExpressionAttributeNames: names{"#a": "PK", "#b": "PK"}}))
	fail("projection/scan-index-duplicate", scn(dynamodb.ScanInput{TableName: aws.String("Str"), IndexName: aws.String("ByCity"), ProjectionExpression: aws.String("City, SK, SK")}))
	fail("projection/get-duplicate", getItem(dynamodb.GetItemInput{TableName: aws.String("Str"), Key: usaKey(nil), ProjectionExpression: aws.String("Sq, Sq")}))

	// Names and values: unused, undefined, misplaced, malformed.
	fail("names/unused", qry(q("Str", "PK = :pk", usa(nil), withNames(names{"#x": "Foo"}))))
	fail("names/unused-before-values", qry(q("Str", "PK = :pk", usa(vals{":extra": s("x")}), withNames(names{"#x": "Foo"}))))
	fail("names/undefined-in-filter", qry(q("Str", "PK = :pk", usa(vals{":v": s("x")}), filter("#nope = :v"))))
	fail("names/undefined-in-key-condition", qry(q("Str", "#p = :pk", usa(nil))))
	fail("names/reserved-in-filter", qry(q("Str", "PK = :pk", usa(vals{":v": s("x")}), filter("Status = :v"))))
	fail("names/reserved-in-key-condition", qry(q("Str", "PK = :pk AND Date > :v", usa(vals{":v": s("x")}))))
	fail("names/empty-map", qry(q("Str", "PK = :pk", usa(nil), withNames(names{}))))
	fail("names/bad-placeholder", qry(q("Str", "PK = :pk", usa(nil), withNames(names{"x": "PK"}))))
	fail("names/without-expressions", scn(dynamodb.ScanInput{TableName: aws.String("Str"), ExpressionAttributeNames: names{"#a": "PK"}}))
	fail("values/with-projection-only", scn(dynamodb.ScanInput{TableName: aws.String("Str"), ProjectionExpression: aws.String("PK"), ExpressionAttributeValues: vals{":v": s("x")}}))
	fail("values/undefined-in-filter", qry(q("Str", "PK = :pk", usa(nil), filter("Sq = :nope"))))
	fail("values/empty-filter", qry(q("Str", "PK = :pk", usa(nil), filter(""))))

	// Values DynamoDB will not take: numbers that do not parse or fit,
	// empty or duplicated sets, NULL false; in expression values, start
	// keys and GetItem keys.
	for _, v := range []struct {
		name string
		av   types.AttributeValue
	}{
		{"number-overflow", n("1e200")}, {"number-underflow", n("1e-200")}, {"number-39-digits", n("123456789012345678901234567890123456789")},
		{"number-garbage", n("12abc")}, {"number-plus-sign", n("+1")}, {"number-empty", n("")},
		{"empty-string-set", ss()}, {"duplicate-string-set", ss("a", "b", "a")}, {"duplicate-number-set", ns("1", "1.0")},
		{"null-false", null(false)}, {"nested-bad-number", m("x", l(n("1e999")))},
	} {
		fail("values/"+v.name, qry(q("Str", "PK = :pk", usa(vals{":v": v.av}), filter("Sq = :v"))))
	}
	fail("start/number-overflow", qry(q("Num", "Dev = :d", vals{":d": s("123")}, esk(vals{"Dev": s("123"), "TS": n("1e200")}))))
	fail("start/number-garbage", qry(q("Num", "Dev = :d", vals{":d": s("123")}, esk(vals{"Dev": s("123"), "TS": n("x")}))))
	fail("start/null-false", qry(q("Str", "PK = :pk", usa(nil), esk(vals{"PK": s("USA"), "SK": null(false)}))))
	fail("start/scan-number-overflow", scn(dynamodb.ScanInput{TableName: aws.String("Num"), ExclusiveStartKey: vals{"Dev": s("123"), "TS": n("-1e300")}}))
	fail("get/number-39-digits", getItem(dynamodb.GetItemInput{TableName: aws.String("Num"), Key: vals{"Dev": s("123"), "TS": n("1234567890123456789012345678901234567890")}}))
	fail("get/names-without-projection", getItem(dynamodb.GetItemInput{TableName: aws.String("Str"), Key: usaKey(nil), ExpressionAttributeNames: names{"#a": "Sq"}}))

	// Limit.
	fail("limit/negative", qry(q("Str", "PK = :pk", usa(nil), limit(-1))))
	fail("limit/scan-zero", scn(dynamodb.ScanInput{TableName: aws.String("Str"), Limit: aws.Int32(0)}))
	fail("limit/before-missing-table", qry(q("Nope", "PK = :pk", usa(nil), limit(0))))

	// Parallel scans: Segment and TotalSegments come together, in range,
	// Segment below TotalSegments, and a start key from its own segment.
	seg := func(segment, total *int32, lim *int32) func(context.Context, dynamo.Client) outcome {
		return scn(dynamodb.ScanInput{TableName: aws.String("HashOnly"), Segment: segment, TotalSegments: total, Limit: lim})
	}
	fail("segment/without-total", seg(aws.Int32(1), nil, nil))
	fail("segment/total-without-segment", seg(nil, aws.Int32(4), nil))
	fail("segment/equal-to-total", seg(aws.Int32(4), aws.Int32(4), nil))
	fail("segment/above-total", seg(aws.Int32(7), aws.Int32(4), nil))
	fail("segment/negative", seg(aws.Int32(-1), aws.Int32(4), nil))
	fail("segment/total-zero", seg(aws.Int32(0), aws.Int32(0), nil))
	fail("segment/total-negative-and-limit-zero", seg(aws.Int32(0), aws.Int32(-2), aws.Int32(0)))
	fail("segment/all-three-out-of-range", seg(aws.Int32(-1), aws.Int32(0), aws.Int32(-5)))
	fail("segment/before-missing-table", scn(dynamodb.ScanInput{TableName: aws.String("Nope"), Segment: aws.Int32(2), TotalSegments: aws.Int32(2)}))
	fail("segment/before-expressions", scn(dynamodb.ScanInput{TableName: aws.String("HashOnly"), Segment: aws.Int32(1), ProjectionExpression: aws.String("")}))
	fail("segment/after-start-key-values", scn(dynamodb.ScanInput{TableName: aws.String("HashOnly"), Segment: aws.Int32(1), ExclusiveStartKey: vals{"PK": n("x")}}))
	fail("segment/start-key-from-another", startFromOtherSegment)
	fail("segment/start-key-past-a-partition-in-another", func(ctx context.Context, c dynamo.Client) outcome {
		// A made-up start key on an index, its partition in segment 1 of 2,
		// sent with segment 0.
		in := dynamodb.ScanInput{TableName: aws.String("Str"), IndexName: aws.String("ByCity"), Segment: aws.Int32(1), TotalSegments: aws.Int32(2), Limit: aws.Int32(1)}
		out, err := c.Scan(ctx, &in)
		if err != nil || len(out.Items) == 0 {
			return outcome{Err: fmt.Sprint("segment 1 of ByCity: ", err)}
		}
		in.Segment = aws.Int32(0)
		in.ExclusiveStartKey = vals{"City": out.Items[0]["City"], "SK": dynamo.LargestSortKey("S"), "PK": dynamo.LargestSortKey("S")}
		return scan(in, 1)(ctx, c)
	})

	// Key conditions DynamoDB cannot turn into a key range.
	fail("key/or", qry(q("Str", "PK = :pk OR SK = :v", usa(vals{":v": s("x")}))))
	fail("key/not", qry(q("Str", "PK = :pk AND NOT SK = :v", usa(vals{":v": s("x")}))))
	fail("key/contains", qry(q("Str", "PK = :pk AND contains(SK, :v)", usa(vals{":v": s("x")}))))
	fail("key/size", qry(q("Str", "PK = :pk AND size(SK) > :n", usa(vals{":n": n("1")}))))
	fail("key/nested", qry(q("Str", "PK = :pk AND SK.x = :v", usa(vals{":v": s("x")}))))
	fail("key/twice", qry(q("Str", "PK = :pk AND PK = :pk", usa(nil))))
	fail("key/three-conditions", qry(q("Str", "PK = :pk AND SK > :v AND City = :v", usa(vals{":v": s("x")}))))
	fail("key/sort-key-only", qry(q("Str", "SK = :v", vals{":v": s("NY")})))
	fail("key/partition-range", qry(q("Str", "PK > :pk", usa(nil))))
	fail("key/index-missing-partition", qry(q("Str", "SK = :v", vals{":v": s("NY")}, onIndex("ByCity"))))
	fail("key/between-reversed", qry(q("Str", "PK = :pk AND SK BETWEEN :b AND :a", usa(vals{":a": s("A"), ":b": s("Z")}))))
	fail("key/between-types", qry(q("Str", "PK = :pk AND SK BETWEEN :a AND :b", usa(vals{":a": s("A"), ":b": n("1")}))))
	fail("key/between-numbers-reversed", qry(q("Num", "Dev = :d AND TS BETWEEN :a AND :b", vals{":d": s("123"), ":a": n("10.50"), ":b": n("1e1")})))
	// attribute_type names one of DynamoDB's ten types, as a string (#39:
	// the embedded backend matched nothing instead).
	fail("filter/attribute_type-unknown", scn(dynamodb.ScanInput{TableName: aws.String("Str"), FilterExpression: aws.String("attribute_type(City, :t)"), ExpressionAttributeValues: vals{":t": s("Q")}}))
	fail("filter/attribute_type-number", scn(dynamodb.ScanInput{TableName: aws.String("Str"), FilterExpression: aws.String("attribute_type(City, :t)"), ExpressionAttributeValues: vals{":t": n("1")}}))
	fail("filter/attribute_type-path", scn(dynamodb.ScanInput{TableName: aws.String("Str"), FilterExpression: aws.String("attribute_type(City, Sq)")}))
	// An attribute compared with itself (a PartiQL WHERE "Sq" = "Sq"
	// reads both as names): refused, not matched against every item.
	fail("filter/same-attribute", scn(dynamodb.ScanInput{TableName: aws.String("Str"), FilterExpression: aws.String("Sq = Sq")}))
	fail("filter/same-nested-path", scn(dynamodb.ScanInput{TableName: aws.String("Str"), FilterExpression: aws.String("Doc.#l[0] <> Doc.#l[0]"), ExpressionAttributeNames: names{"#l": "list"}}))
	fail("filter/contains-itself", scn(dynamodb.ScanInput{TableName: aws.String("Str"), FilterExpression: aws.String("contains(City, City)")}))
	fail("key/begins_with-number-filter", qry(q("Str", "PK = :pk", usa(vals{":v": n("1")}), filter("begins_with(City, :v)"))))
	fail("key/filter-on-index-sort-key", qry(q("Str", "PK = :pk", usa(vals{":v": n("1")}), onIndex("BySq"), filter("Sq > :v"))))
	fail("key/filter-nested-index-key", qry(q("Str", "PK = :pk", usa(vals{":v": s("x")}), filter("City.x = :v"))))
	fail("key/missing-expression", qry(dynamodb.QueryInput{TableName: aws.String("Str")}))

	// ExclusiveStartKey that does not fit the schema or the query.
	fail("start/missing-sort-key", qry(q("Str", "PK = :pk", usa(nil), esk(vals{"PK": s("USA")}))))
	fail("start/extra-attribute", qry(q("Str", "PK = :pk", usa(nil), esk(usaKey(vals{"City": s("NY")})))))
	fail("start/wrong-type", qry(q("Str", "PK = :pk", usa(nil), esk(vals{"PK": n("1"), "SK": s("NY")}))))
	fail("start/empty-string", qry(q("Str", "PK = :pk", usa(nil), esk(vals{"PK": s("USA"), "SK": s("")}))))
	fail("start/sort-key-too-long", qry(q("Str", "PK = :pk", usa(nil), esk(vals{"PK": s("USA"), "SK": s(strings.Repeat("k", 1025))}))))
	fail("start/partition-key-too-long", qry(q("Str", "PK = :pk", usa(nil), esk(vals{"PK": s(strings.Repeat("p", 2049)), "SK": s("NY")}))))
	fail("start/other-partition", qry(q("Str", "PK = :pk", usa(nil), esk(vals{"PK": s("FRANCE"), "SK": s("S0#CITY")}))))
	fail("start/outside-range", qry(q("Str", "PK = :pk AND begins_with(SK, :p)", usa(vals{":p": s("NY")}), esk(vals{"PK": s("USA"), "SK": s("A#")}))))
	fail("start/outside-between", qry(q("Str", "PK = :pk AND SK BETWEEN :a AND :b", usa(vals{":a": s("A"), ":b": s("B")}), esk(usaKey(nil)))))
	fail("start/range-other-partition", qry(q("Str", "PK = :pk AND begins_with(SK, :p)", usa(vals{":p": s("NY")}), esk(vals{"PK": s("FRANCE"), "SK": s("NY#1")}))))
	fail("start/gsi-without-table-key", qry(q("Str", "City = :c", vals{":c": s("C1")}, onIndex("ByCity"), esk(vals{"City": s("C1"), "SK": s("K#001")}))))
	fail("start/lsi-without-table-sort-key", qry(q("Str", "PK = :pk", usa(nil), onIndex("BySq"), esk(vals{"PK": s("USA"), "Sq": n("937")}))))
	fail("start/lsi-wrong-index-attr", qry(q("Str", "PK = :pk", usa(nil), onIndex("BySq"), esk(vals{"PK": s("USA"), "SK": s("NY"), "City": s("NY")}))))
	fail("start/scan-missing-sort-key", scn(dynamodb.ScanInput{TableName: aws.String("Str"), ExclusiveStartKey: vals{"PK": s("USA")}}))
	fail("start/scan-gsi-without-table-key", scn(dynamodb.ScanInput{TableName: aws.String("Str"), IndexName: aws.String("ByCity"), ExclusiveStartKey: vals{"City": s("C1"), "SK": s("K#001"), "Sq": n("1")}}))
	fail("start/scan-gsi-wrong-type", scn(dynamodb.ScanInput{TableName: aws.String("Str"), IndexName: aws.String("ByCity"), ExclusiveStartKey: vals{"City": n("1"), "SK": s("K#001"), "PK": s("BIG")}}))

	// GetItem keys.
	fail("get/partition-key-too-long", getItem(dynamodb.GetItemInput{TableName: aws.String("Str"), Key: vals{"PK": s(strings.Repeat("p", 2049)), "SK": s("NY")}}))
	fail("get/sort-key-too-long", getItem(dynamodb.GetItemInput{TableName: aws.String("Str"), Key: vals{"PK": s("USA"), "SK": s(strings.Repeat("k", 1025))}}))
	fail("get/empty-sort-key", getItem(dynamodb.GetItemInput{TableName: aws.String("Str"), Key: vals{"PK": s("USA"), "SK": s("")}}))
	fail("get/binary-empty", getItem(dynamodb.GetItemInput{TableName: aws.String("Bin"), Key: vals{"Bucket": s("b1"), "Key": b([]byte{})}}))
	fail("get/extra-attribute", getItem(dynamodb.GetItemInput{TableName: aws.String("Str"), Key: usaKey(vals{"City": s("x")})}))

	// Accepted edges, answered alike: keys at their size limits, a key
	// condition with the value on the left, a start key at a range's edge.
	cs = append(cs,
		testCase{name: "accept/value-on-left", run: query(q("Str", ":pk = PK AND :v <= SK", usa(vals{":v": s("NY")})), 10)},
		testCase{name: "accept/sort-key-1024", run: query(q("Str", "PK = :pk", usa(nil), esk(vals{"PK": s("USA"), "SK": s(strings.Repeat("k", 1024))})), 10)},
		testCase{name: "accept/partition-key-2048", run: getItem(dynamodb.GetItemInput{TableName: aws.String("Str"), Key: vals{"PK": s(strings.Repeat("p", 2048)), "SK": s("NY")}})},
		testCase{name: "accept/start-at-between-bound", run: query(q("Str", "PK = :pk AND SK BETWEEN :a AND :b", usa(vals{":a": s("A"), ":b": s("NY")}), esk(usaKey(nil))), 10)},
		testCase{name: "accept/projection-siblings", run: query(q("Str", "PK = :pk", usa(nil), project("Doc.#st, Doc.#l[1], Doc.#l[0]"), withNames(names{"#st": "status", "#l": "list"})), 10)},
	)
	return cs
}

// startFromOtherSegment sends segment 1's LastEvaluatedKey with segment 0.
func startFromOtherSegment(ctx context.Context, c dynamo.Client) outcome {
	in := dynamodb.ScanInput{TableName: aws.String("HashOnly"), Segment: aws.Int32(1), TotalSegments: aws.Int32(2), Limit: aws.Int32(1)}
	out, err := c.Scan(ctx, &in)
	if err != nil || len(out.LastEvaluatedKey) == 0 {
		return outcome{Err: fmt.Sprint("segment 1 of HashOnly: ", err)}
	}
	in.Segment, in.ExclusiveStartKey = aws.Int32(0), out.LastEvaluatedKey
	return scan(in, 1)(ctx, c)
}
