package conformance

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
)

type testCase struct {
	name    string
	run     func(context.Context, dynamo.Client) outcome
	wantErr string
}

type vals = map[string]types.AttributeValue
type names = map[string]string

// q builds a Query on table with key condition kc over #pk/#sk names.
func q(table, kc string, v vals, opts ...func(*dynamodb.QueryInput)) dynamodb.QueryInput {
	in := dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String(kc), ExpressionAttributeValues: v}
	for _, o := range opts {
		o(&in)
	}
	return in
}

func withNames(nm names) func(*dynamodb.QueryInput) {
	return func(in *dynamodb.QueryInput) { in.ExpressionAttributeNames = nm }
}
func reverse(in *dynamodb.QueryInput) { in.ScanIndexForward = aws.Bool(false) }
func limit(n int32) func(*dynamodb.QueryInput) {
	return func(in *dynamodb.QueryInput) { in.Limit = aws.Int32(n) }
}
func filter(f string) func(*dynamodb.QueryInput) {
	return func(in *dynamodb.QueryInput) { in.FilterExpression = aws.String(f) }
}
func onIndex(ix string) func(*dynamodb.QueryInput) {
	return func(in *dynamodb.QueryInput) { in.IndexName = aws.String(ix) }
}
func project(p string) func(*dynamodb.QueryInput) {
	return func(in *dynamodb.QueryInput) { in.ProjectionExpression = aws.String(p) }
}
func consistent(in *dynamodb.QueryInput) { in.ConsistentRead = aws.Bool(true) }
func count(in *dynamodb.QueryInput)      { in.Select = types.SelectCount }

func usa(extra vals) vals {
	v := vals{":pk": s("USA")}
	for k, x := range extra {
		v[k] = x
	}
	return v
}

func cases() []testCase {
	var cs []testCase
	add := func(name string, run func(context.Context, dynamo.Client) outcome) {
		cs = append(cs, testCase{name: name, run: run})
	}
	fail := func(name, code string, run func(context.Context, dynamo.Client) outcome) {
		cs = append(cs, testCase{name: name, run: run, wantErr: code})
	}

	// String sort keys: every operator, both directions, paging.
	add("str/all", query(q("Str", "PK = :pk", usa(nil)), 10))
	add("str/all-reverse", query(q("Str", "PK = :pk", usa(nil), reverse), 10))
	for _, p := range []string{"NY", "NY#", "NY#NEWYORKCITY#", "Î", "A#", "zzz"} {
		add("str/begins_with/"+p, query(q("Str", "PK = :pk AND begins_with(SK, :p)", usa(vals{":p": s(p)})), 10))
		add("str/begins_with-reverse/"+p, query(q("Str", "PK = :pk AND begins_with(SK, :p)", usa(vals{":p": s(p)}), reverse), 10))
	}
	for _, op := range []string{"=", "<", "<=", ">", ">="} {
		for _, v := range []string{"NY", "NY#", "NYC", "A", "~"} {
			add("str/"+op+"/"+v, query(q("Str", "PK = :pk AND SK "+op+" :v", usa(vals{":v": s(v)})), 10))
		}
	}
	add("str/between", query(q("Str", "PK = :pk AND SK BETWEEN :a AND :b", usa(vals{":a": s("A"), ":b": s("NY#Z")})), 10))
	add("str/between-equal-bounds", query(q("Str", "PK = :pk AND SK BETWEEN :a AND :a", usa(vals{":a": s("NY")})), 10))
	add("str/names-and-parens", query(q("Str", "(#p = :pk) AND (begins_with(#s, :p))", usa(vals{":p": s("NY")}), withNames(names{"#p": "PK", "#s": "SK"})), 10))
	for _, n := range []int32{1, 2, 5, 14, 15} {
		add("str/limit-paging/"+itoa(n), query(q("Str", "PK = :pk", usa(nil), limit(n)), 40))
		add("str/limit-paging-reverse/"+itoa(n), query(q("Str", "PK = :pk", usa(nil), limit(n), reverse), 40))
	}
	add("str/big-partition-paging", query(q("Str", "PK = :pk", vals{":pk": s("BIG")}, limit(7)), 20))
	add("str/begins_with-paging", query(q("Str", "PK = :pk AND begins_with(SK, :p)", vals{":pk": s("BIG"), ":p": s("K#01")}, limit(3)), 20))
	add("str/consistent", query(q("Str", "PK = :pk", usa(nil), consistent), 10))
	add("str/missing-partition", query(q("Str", "PK = :pk", vals{":pk": s("NOWHERE")}), 10))
	add("str/projection", query(q("Str", "PK = :pk", usa(nil), project("SK, Doc.#st, Doc.#l[1], Tags"), withNames(names{"#st": "status", "#l": "list"})), 10))

	// Filters: every function and operator, nested paths, with paging.
	filters := []struct {
		name, expr string
		v          vals
		nm         names
	}{
		{"eq-nested", "Doc.#st = :v", vals{":v": s("FAILED")}, names{"#st": "status"}},
		{"ne", "Sq <> :v", vals{":v": n("937")}, nil},
		{"gt", "Sq > :v", vals{":v": n("1000")}, nil},
		{"le", "Sq <= :v", vals{":v": n("1000")}, nil},
		{"between", "Sq BETWEEN :a AND :b", vals{":a": n("950"), ":b": n("1200")}, nil},
		{"in", "City IN (:a, :b)", vals{":a": s("NY"), ":b": s("NE")}, nil},
		{"begins_with", "begins_with(City, :p)", vals{":p": s("N")}, nil},
		{"contains-set", "contains(Tags, :t)", vals{":t": s("t1")}, nil},
		{"contains-string", "contains(City, :t)", vals{":t": s("Y")}, nil},
		{"exists", "attribute_exists(Doc.#l)", vals{}, names{"#l": "list"}},
		{"not-exists", "attribute_not_exists(Nothing)", vals{}, nil},
		{"size", "size(City) > :n", vals{":n": n("2")}, nil},
		{"size-list", "size(Doc.#l) = :n", vals{":n": n("2")}, names{"#l": "list"}},
		{"type", "attribute_type(Sq, :t)", vals{":t": s("N")}, nil},
		{"not", "NOT #o = :t", vals{":t": bl(true)}, names{"#o": "Open"}},
		{"or-and", "(Sq < :a OR Sq > :b) AND #o = :t", vals{":a": n("1000"), ":b": n("1300"), ":t": bl(true)}, names{"#o": "Open"}},
		{"list-index", "Doc.#l[0] = :x", vals{":x": s("x")}, names{"#l": "list"}},
		{"type-mismatch", "Sq = :v", vals{":v": s("937")}, nil},
		// A missing attribute is not equal to a present one: <> is true
		// (two missing ones: TestTwoMissingAttributes).
		{"ne-one-missing", "Nothing <> City", vals{}, nil},
	}
	for _, f := range filters {
		v := usa(f.v)
		opts := []func(*dynamodb.QueryInput){filter(f.expr)}
		if f.nm != nil {
			opts = append(opts, withNames(f.nm))
		}
		add("filter/"+f.name, query(q("Str", "PK = :pk", v, opts...), 10))
		add("filter-paged/"+f.name, query(q("Str", "PK = :pk", v, append(opts, limit(4))...), 10))
	}
	add("select-count", query(q("Str", "PK = :pk", usa(nil), count), 10))
	add("select-count-filter", query(q("Str", "PK = :pk", usa(vals{":v": n("1000")}), count, filter("Sq > :v")), 10))

	// Indexes.
	add("lsi/all", query(q("Str", "PK = :pk", usa(nil), onIndex("BySq")), 10))
	add("lsi/range-reverse", query(q("Str", "PK = :pk AND Sq >= :v", usa(vals{":v": n("1000")}), onIndex("BySq"), reverse), 10))
	add("lsi/paging", query(q("Str", "PK = :pk", usa(nil), onIndex("BySq"), limit(4)), 10))
	add("gsi/keys-only", query(q("Str", "City = :c", vals{":c": s("C1")}, onIndex("ByCity")), 10))
	add("gsi/paging", query(q("Str", "City = :c", vals{":c": s("C1")}, onIndex("ByCity"), limit(5)), 10))
	add("gsi/range", query(q("Str", "City = :c AND begins_with(SK, :p)", vals{":c": s("NY"), ":p": s("NY#N")}, onIndex("ByCity")), 10))

	// Numbers: numeric order, negatives, decimals, 38 digits, the seed's query.
	dev := func(extra vals) vals {
		v := vals{":d": s("123")}
		for k, x := range extra {
			v[k] = x
		}
		return v
	}
	add("num/all", query(q("Num", "Dev = :d", dev(nil)), 10))
	add("num/all-reverse", query(q("Num", "Dev = :d", dev(nil), reverse), 10))
	add("num/seed-before-2018-09-04", query(q("Num", "Dev = :d AND TS < :t", dev(vals{":t": n("1536019200")})), 10))
	for _, op := range []string{"=", "<", "<=", ">", ">="} {
		for _, v := range []string{"-1", "-1.5", "0", "1.50", "1e3", "1000", "99999999999999999999999999999999999999"} {
			add("num/"+op+"/"+v, query(q("Num", "Dev = :d AND TS "+op+" :v", dev(vals{":v": n(v)})), 10))
		}
	}
	add("num/between", query(q("Num", "Dev = :d AND TS BETWEEN :a AND :b", dev(vals{":a": n("-1.5"), ":b": n("10")})), 10))
	add("num/paging", query(q("Num", "Dev = :d", dev(nil), limit(3)), 10))

	// Binary keys.
	add("bin/all", query(q("Bin", "#bk = :b", vals{":b": s("b1")}, withNames(names{"#bk": "Bucket"})), 10))
	add("bin/reverse-paging", query(q("Bin", "#bk = :b", vals{":b": s("b1")}, withNames(names{"#bk": "Bucket"}), reverse, limit(6)), 10))
	add("bin/between", query(q("Bin", "#bk = :b AND #k BETWEEN :lo AND :hi", vals{":b": s("b1"), ":lo": b([]byte{0x10}), ":hi": b([]byte{0x80, 0xff})}, withNames(names{"#k": "Key", "#bk": "Bucket"})), 10))
	add("bin/begins_with", query(q("Bin", "#bk = :b AND begins_with(#k, :p)", vals{":b": s("b1"), ":p": b([]byte{0x41})}, withNames(names{"#k": "Key", "#bk": "Bucket"})), 10))

	// The 1 MB page limit.
	add("big/1mb-pages", query(q("Big", "PK = :pk", vals{":pk": s("P")}), 10))
	add("big/1mb-pages-reverse", query(q("Big", "PK = :pk", vals{":pk": s("P")}, reverse), 10))
	add("big/scan", scan(dynamodb.ScanInput{TableName: aws.String("Big")}, 10))

	// Scans: partition order, keys-only projection, filters, indexes.
	add("scan/str-keys", scan(dynamodb.ScanInput{TableName: aws.String("Str"), ProjectionExpression: aws.String("PK, SK"), Limit: aws.Int32(10)}, 30))
	add("scan/str-filter", scan(dynamodb.ScanInput{TableName: aws.String("Str"), FilterExpression: aws.String("Sq < :v"),
		ExpressionAttributeValues: vals{":v": n("3")}, Limit: aws.Int32(9)}, 30))
	add("scan/gsi", scan(dynamodb.ScanInput{TableName: aws.String("Str"), IndexName: aws.String("ByCity"), Limit: aws.Int32(11)}, 30))
	// Past an index partition: a made-up start key, the index's sort key
	// and the table's keys the largest of their types (the partitions'
	// skip-scan on an index).
	add("scan/gsi-past-a-partition", scan(dynamodb.ScanInput{TableName: aws.String("Str"), IndexName: aws.String("ByCity"), Limit: aws.Int32(5),
		ExclusiveStartKey: vals{"City": s("C1"), "SK": dynamo.LargestSortKey("S"), "PK": dynamo.LargestSortKey("S")}}, 30))
	add("scan/lsi-past-a-partition", scan(dynamodb.ScanInput{TableName: aws.String("Str"), IndexName: aws.String("BySq"), Limit: aws.Int32(5),
		ExclusiveStartKey: vals{"PK": s("USA"), "Sq": dynamo.LargestSortKey("N"), "SK": dynamo.LargestSortKey("S")}}, 30))
	add("scan/hash-only", scan(dynamodb.ScanInput{TableName: aws.String("HashOnly"), Limit: aws.Int32(7)}, 30))
	add("scan/count", scan(dynamodb.ScanInput{TableName: aws.String("Str"), Select: types.SelectCount}, 30))
	add("scan/bin", scan(dynamodb.ScanInput{TableName: aws.String("Bin")}, 30))
	// Parallel scans: each segment's pages (a partition's items all in one
	// segment, split by the partition key's hash as dynalite splits it),
	// on tables keyed by strings, numbers and binaries and on indexes,
	// for segment counts that split the 4,096 hash prefixes evenly, not
	// evenly, and into more segments than prefixes (some then empty). Not
	// the last of more than 4,096 segments: dynalite's start of it wraps
	// to prefix 000 (its three hex digits of 4096), so it reads the whole
	// table, which DynamoDB, splitting the key space, does not.
	for _, tbl := range []struct{ name, index string }{{"HashOnly", ""}, {"NumPK", ""}, {"Bin", ""}, {"Str", "ByCity"}, {"NumPK", "ByG"}} {
		for _, total := range []int32{1, 2, 3, 7, 4096, 5000} {
			last := total - 1
			if total > 4096 {
				last--
			}
			for _, seg := range []int32{0, 1, total / 2, last} {
				if seg >= total || seg == 1 && total > 2 && total/2 == 1 {
					continue
				}
				in := dynamodb.ScanInput{TableName: aws.String(tbl.name), Segment: aws.Int32(seg), TotalSegments: aws.Int32(total), Limit: aws.Int32(3)}
				if tbl.index != "" {
					in.IndexName = aws.String(tbl.index)
				}
				add(fmt.Sprintf("scan/segment/%s%s/%d-of-%d", tbl.name, tbl.index, seg, total), scan(in, 40))
			}
		}
	}
	// A made-up start key past a partition, in its segment: the skip-scan
	// of a parallel listing.
	add("scan/segment/gsi-past-a-partition", scan(dynamodb.ScanInput{TableName: aws.String("Str"), IndexName: aws.String("ByCity"), Limit: aws.Int32(5),
		Segment: aws.Int32(0), TotalSegments: aws.Int32(1),
		ExclusiveStartKey: vals{"City": s("C1"), "SK": dynamo.LargestSortKey("S"), "PK": dynamo.LargestSortKey("S")}}, 30))
	for seg := range int32(2) {
		add(fmt.Sprintf("scan/segment/past-a-partition/%d-of-2", seg), startInSegment(seg, 2))
	}

	// GetItem.
	add("get/present", getItem(dynamodb.GetItemInput{TableName: aws.String("Str"), Key: vals{"PK": s("USA"), "SK": s("NY")}}))
	add("get/absent", getItem(dynamodb.GetItemInput{TableName: aws.String("Str"), Key: vals{"PK": s("USA"), "SK": s("NOPE")}}))
	add("get/projection", getItem(dynamodb.GetItemInput{TableName: aws.String("Str"), Key: vals{"PK": s("USA"), "SK": s("NY")}, ProjectionExpression: aws.String("Doc.#l, Sq"), ExpressionAttributeNames: names{"#l": "list"}}))
	add("get/consistent", getItem(dynamodb.GetItemInput{TableName: aws.String("Big"), Key: vals{"PK": s("P"), "SK": s("03")}, ConsistentRead: aws.Bool(true)}))
	add("get/number-key", getItem(dynamodb.GetItemInput{TableName: aws.String("Num"), Key: vals{"Dev": s("123"), "TS": n("1.5")}}))

	// Errors: compared by error code.
	fail("err/no-table", "ResourceNotFoundException", query(q("Nope", "PK = :pk", usa(nil)), 1))
	fail("err/no-table-scan", "ResourceNotFoundException", scan(dynamodb.ScanInput{TableName: aws.String("Nope")}, 1))
	fail("err/no-table-get", "ResourceNotFoundException", getItem(dynamodb.GetItemInput{TableName: aws.String("Nope"), Key: vals{"PK": s("x")}}))
	fail("err/projection-overlap", "ValidationException", query(q("Str", "PK = :pk", usa(nil), project("PK, SK, SK")), 1))
	fail("err/projection-nested-overlap", "ValidationException", query(q("Str", "PK = :pk", usa(nil), project("Doc, Doc.city")), 1))
	fail("err/no-index", "ValidationException", query(q("Str", "PK = :pk", usa(nil), onIndex("Nope")), 1))
	fail("err/key-type", "ValidationException", query(q("Str", "PK = :pk", vals{":pk": n("1")}), 1))
	fail("err/sk-type", "ValidationException", query(q("Num", "Dev = :d AND TS > :v", dev(vals{":v": s("x")})), 1))
	fail("err/no-pk", "ValidationException", query(q("Str", "SK = :v", vals{":v": s("NY")}), 1))
	fail("err/limit-zero", "ValidationException", query(q("Str", "PK = :pk", usa(nil), limit(0)), 1))
	fail("err/unused-value", "ValidationException", query(q("Str", "PK = :pk", usa(vals{":extra": s("x")})), 1))
	fail("err/undefined-value", "ValidationException", query(q("Str", "PK = :nope", usa(nil)), 1))
	fail("err/begins_with-number", "ValidationException", query(q("Num", "Dev = :d AND begins_with(TS, :v)", dev(vals{":v": n("1")})), 1))
	fail("err/get-wrong-key", "ValidationException", getItem(dynamodb.GetItemInput{TableName: aws.String("Str"), Key: vals{"PK": s("USA")}}))
	// DescribeTimeToLive, the optional read beside the five: dynalite
	// always says DISABLED, and names a missing table as the others do.
	add("ttl/disabled", describeTTL("Str"))
	fail("err/no-table-ttl", "ResourceNotFoundException", describeTTL("Nope"))
	fail("err/reserved-word", "ValidationException", query(q("Str", "PK = :pk", usa(vals{":t": bl(true)}), filter("Open = :t")), 1))
	fail("err/filter-on-key", "ValidationException", query(q("Str", "PK = :pk", usa(vals{":n": n("3")}), filter("size(SK) > :n")), 1))
	fail("err/non-key-condition", "ValidationException", query(q("Str", "PK = :pk AND City = :c", usa(vals{":c": s("NY")})), 1))
	// Found by the differential suite, kept as hand cases.
	add("found/number-partitions-scan-order", scan(dynamodb.ScanInput{TableName: aws.String("NumPK"), Limit: aws.Int32(4)}, 20))
	add("found/number-table-keys-index-ties", scan(dynamodb.ScanInput{TableName: aws.String("NumPK"), IndexName: aws.String("ByG"), Limit: aws.Int32(5)}, 20))
	add("found/number-table-keys-index-query", query(q("NumPK", "G = :g", vals{":g": s("same")}, onIndex("ByG"), limit(3)), 20))
	add("found/1mb-edge-sort-key-size", query(q("Edge", "PK = :pk", vals{":pk": s("P2")}), 10))
	add("found/1mb-edge-scan", scan(dynamodb.ScanInput{TableName: aws.String("Edge")}, 10))
	add("found/capacity-utf16-name", getItem(dynamodb.GetItemInput{TableName: aws.String("Edge"), Key: vals{"PK": s("U"), "SK": s("u")}}))
	add("found/capacity-utf16-name-query", query(q("Edge", "PK = :pk", vals{":pk": s("U")}, consistent), 10))

	cs = append(cs, rejections()...)
	return cs
}

func itoa(n int32) string {
	return string([]byte{byte('0' + n/10), byte('0' + n%10)})
}

// startInSegment scans segment seg of total of table HashOnly from past
// the first partition its first page finds: a start key the listing makes
// up, which must be in the segment it is sent with.
func startInSegment(seg, total int32) func(context.Context, dynamo.Client) outcome {
	return func(ctx context.Context, c dynamo.Client) outcome {
		in := dynamodb.ScanInput{TableName: aws.String("HashOnly"), Segment: aws.Int32(seg), TotalSegments: aws.Int32(total), Limit: aws.Int32(1)}
		out, err := c.Scan(ctx, &in)
		if err != nil {
			return outcome{Err: errCode(err)}
		}
		if len(out.LastEvaluatedKey) == 0 {
			return outcome{Err: "segment has no partition"}
		}
		in.Limit = aws.Int32(4)
		in.ExclusiveStartKey = out.LastEvaluatedKey
		return scan(in, 30)(ctx, c)
	}
}
