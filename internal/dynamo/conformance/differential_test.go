package conformance

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// The differential suite: seeded random tables (S, N and B keys; LSIs and
// GSIs, overloaded, inverted and sorted by the table's sort key), random
// items (odd attribute names, sizes up to the 1 MB page edge) and random
// requests (every key operator, both directions, Limit, paging to the end,
// projections, filters, Select COUNT, scans, GetItem), each run on the
// embedded backend and on dynalite, comparing items, order,
// LastEvaluatedKey, counts, consumed capacity and errors word for word.
//
// go test runs a fixed seed so CI stays deterministic; `make conformance
// N=20000` runs a fresh seed (or SEED=…), and a failure prints the seed
// and case to replay with -seed.
var (
	diffSeed  = flag.Uint64("seed", 0, "differential suite: seed (0: the fixed CI seed, or a fresh one under -cases set by make conformance)")
	diffCases = flag.Int("cases", 2000, "differential suite: number of random requests")
	diffFresh = flag.Bool("fresh", false, "differential suite: pick a fresh seed when -seed is 0")
)

const ciSeed = 20261123

// requestsPerTable is how many requests run against each random table.
const requestsPerTable = 250

func TestDifferential(t *testing.T) {
	seed := *diffSeed
	if seed == 0 {
		seed = ciSeed
		if *diffFresh {
			seed = uint64(time.Now().UnixNano())
		}
	}
	t.Logf("differential suite: seed %d, %d cases (replay: go test ./internal/dynamo/conformance -run TestDifferential -args -seed=%d -cases=%d)", seed, *diffCases, seed, *diffCases)
	ctx := context.Background()
	dl := sharedDynalite(t)
	var stats diffStats
	for ti := 0; stats.cases < *diffCases; ti++ {
		rng := rand.New(rand.NewPCG(seed, uint64(ti)))
		g := newTableGen(rng, fmt.Sprintf("Diff%d_%d", seed%100000, ti))
		mem := memory.New()
		for _, w := range []backend{mem, dl} {
			if err := g.create(ctx, w); err != nil {
				t.Fatalf("seed %d table %d: %v", seed, ti, err)
			}
		}
		for ri := 0; ri < requestsPerTable && stats.cases < *diffCases; ri++ {
			rr := rand.New(rand.NewPCG(seed, uint64(ti)<<32|uint64(ri)))
			req := g.request(rr)
			want := req.run(ctx, dl)
			got := req.run(ctx, mem)
			stats.add(req, want)
			wj, _ := json.Marshal(want)
			gj, _ := json.Marshal(got)
			if string(wj) != string(gj) {
				stats.failed++
				rj, _ := json.MarshalIndent(req.describe(), "", " ")
				t.Errorf("seed %d case %d/%d (table %s): the embedded backend differs from dynalite: %s\nrequest %s\n--- dynalite\n%s\n--- memory\n%s",
					seed, ti, ri, g.name, firstDiff(want, got), rj, clip(wj), clip(gj))
				if stats.failed >= 5 {
					t.Fatalf("stopping after 5 discrepancies; replay with -seed=%d", seed)
				}
			}
		}
	}
	t.Logf("differential suite: %s", stats)
	if f := os.Getenv("DIFFERENTIAL_REPORT"); f != "" {
		_ = os.WriteFile(f, []byte(stats.String()+"\n"), 0o644)
	}
}

type diffStats struct {
	cases, failed, errors, pages, items, count int
	ops                                        map[string]int
}

func (s *diffStats) add(r diffRequest, o outcome) {
	s.cases++
	if s.ops == nil {
		s.ops = map[string]int{}
	}
	s.ops[r.kind()]++
	if o.Err != "" {
		s.errors++
	}
	for _, p := range o.Pages {
		s.pages++
		s.items += len(p.Items)
		s.count += int(p.Count)
	}
}

func (s diffStats) String() string {
	var ops []string
	for k, v := range s.ops {
		ops = append(ops, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(ops)
	return fmt.Sprintf("%d cases (%s), %d pages, %d items, %d counted, %d answered with errors, %d discrepancies",
		s.cases, strings.Join(ops, ", "), s.pages, s.items, s.count, s.errors, s.failed)
}

// keyDefn is one key attribute.
type keyDefn struct {
	name string
	typ  types.ScalarAttributeType
}

type indexDefn struct {
	name   string
	global bool
	pk, sk *keyDefn
	proj   types.ProjectionType
}

type tableGen struct {
	name    string
	pk, sk  *keyDefn
	indexes []indexDefn
	attrs   map[string]types.ScalarAttributeType // every key attribute's type
	items   []item
	keys    map[string][]types.AttributeValue // sample values per key attribute
}

// oddNames are attribute names as real tables spell them: reserved words,
// brackets, dots, hashes, spaces, unicode.
var oddNames = []string{"PK", "SK", "pk", "s[0]", "a.b", "State#Date", "Date", "Status", "x y", "ünï", "_u", "k-1", "GSI1PK", "GSI1SK", "Data"}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func newTableGen(r *rand.Rand, name string) *tableGen {
	g := &tableGen{name: name, attrs: map[string]types.ScalarAttributeType{}, keys: map[string][]types.AttributeValue{}}
	names := append([]string(nil), oddNames...)
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	next := 0
	newKey := func(typ types.ScalarAttributeType) *keyDefn {
		k := &keyDefn{name: names[next], typ: typ}
		next++
		g.attrs[k.name] = typ
		return k
	}
	scalar := []types.ScalarAttributeType{"S", "S", "N", "B"}
	g.pk = newKey(pick(r, scalar))
	if r.IntN(10) > 0 {
		g.sk = newKey(pick(r, scalar))
	}
	projs := []types.ProjectionType{types.ProjectionTypeAll, types.ProjectionTypeKeysOnly, types.ProjectionTypeInclude}
	for i, n := 0, r.IntN(4); i < n; i++ {
		ix := indexDefn{name: fmt.Sprintf("Ix%d", i), global: true, proj: pick(r, projs)}
		switch shape := r.IntN(5); {
		case shape == 0 && g.sk != nil: // inverted
			ix.pk, ix.sk = g.sk, g.pk
		case shape == 1 && g.sk != nil: // sorted by the table's sort key
			ix.pk, ix.sk = newKey(pick(r, scalar)), g.sk
		case shape == 2 && g.sk != nil: // an LSI
			ix.global, ix.pk, ix.sk = false, g.pk, newKey(pick(r, scalar))
		case shape == 3: // overloaded, partition key only or with a sort key
			ix.pk = newKey("S")
			if r.IntN(2) == 0 {
				ix.sk = newKey(pick(r, scalar))
			}
		default:
			ix.pk, ix.sk = newKey(pick(r, scalar)), newKey(pick(r, scalar))
		}
		g.indexes = append(g.indexes, ix)
	}
	g.genItems(r)
	return g
}

// keyValue draws a key value of typ: S keys in a small hierarchy with the
// ordering traps, N keys with signs, decimals and exponents, B keys with
// the bytes that sort at the edges.
func keyValue(r *rand.Rand, typ types.ScalarAttributeType, hash bool) types.AttributeValue {
	switch typ {
	case "N":
		return n(pick(r, []string{"-1.5", "0", "1", "10", "9", "1e3", "-99", "0.001", "12.50", "-0.5", fmt.Sprint(r.IntN(200) - 100), fmt.Sprint(r.IntN(100000))}))
	case "B":
		bs := make([]byte, 1+r.IntN(4))
		for i := range bs {
			bs[i] = pick(r, []byte{0x00, 0x01, 0x41, 0x7f, 0x80, 0xff})
		}
		return b(bs)
	}
	if r.IntN(60) == 0 { // at the sort key limit (an inverted index sorts by the partition key)
		return s(strings.Repeat("L", 1023-r.IntN(3)) + pick(r, []string{"a", "b"}))
	}
	segs := []string{"A", "B", "a", "NY", "NYC", "Î", "z", "~", "0", "10", "9", "v0", "v1", "2024-01-02T03:04:05Z"}
	k := pick(r, segs)
	for d := r.IntN(3); d > 0; d-- {
		k += pick(r, []string{"#", "#", "!", "/"}) + pick(r, segs)
	}
	return s(k)
}

// wireKey identifies a key value: numbers by value, so 1e3 and 1000 are
// one key (a batch holding both would be refused).
func wireKey(av types.AttributeValue) string {
	if x, ok := av.(*types.AttributeValueMemberN); ok {
		f, _ := strconv.ParseFloat(x.Value, 64)
		return "N" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	j, _ := json.Marshal(dynamo.WireItem(item{"k": av}))
	return string(j)
}

func (g *tableGen) genItems(r *rand.Rand) {
	parts := 1 + r.IntN(5)
	var pkVals []types.AttributeValue
	for i := 0; i < parts; i++ {
		pkVals = append(pkVals, keyValue(r, g.pk.typ, true))
	}
	seen := map[string]bool{}
	bigLeft := r.IntN(5) * 2 // big items, so some pages end at 1 MB
	overloaded := []string{"USER", "ORDER", "ITEM"}
	for i, total := 0, 20+r.IntN(120); i < total; i++ {
		it := item{g.pk.name: pick(r, pkVals)}
		id := wireKey(it[g.pk.name])
		if g.sk != nil {
			it[g.sk.name] = keyValue(r, g.sk.typ, false)
			id += wireKey(it[g.sk.name])
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		for _, ix := range g.indexes {
			for _, k := range []*keyDefn{ix.pk, ix.sk} {
				if k == nil || it[k.name] != nil || r.IntN(5) == 0 {
					continue // sparse: not every item is in every index
				}
				if k.typ == "S" && r.IntN(2) == 0 {
					it[k.name] = s(pick(r, overloaded) + "#" + fmt.Sprint(r.IntN(4)))
				} else {
					it[k.name] = keyValue(r, k.typ, k == ix.pk)
				}
			}
		}
		it["Num"] = n(fmt.Sprint(r.IntN(50) - 10))
		// Never empty: dynalite reads an empty string as absent in size(),
		// BETWEEN and IN, where DynamoDB sees a value of size 0; the
		// embedded backend keeps DynamoDB's reading.
		it["Pay"] = s(strings.Repeat(pick(r, []string{"p", "é", "𝄞"}), 1+r.IntN(300)))
		if bigLeft > 0 && r.IntN(4) == 0 {
			bigLeft--
			it["Pay"] = s(strings.Repeat("P", 150_000+r.IntN(240_000)))
		}
		if r.IntN(2) == 0 {
			it["Tags"] = &types.AttributeValueMemberSS{Value: []string{"t" + fmt.Sprint(r.IntN(3)), "all"}}
		}
		if r.IntN(2) == 0 {
			it["Doc"] = m("a", n(fmt.Sprint(r.IntN(9))), "l", l(s("x"), n(fmt.Sprint(r.IntN(3))), bl(r.IntN(2) == 0)))
		}
		if r.IntN(3) == 0 {
			it["Flag"] = bl(r.IntN(2) == 0)
		}
		g.items = append(g.items, it)
		for k, v := range it {
			if _, isKey := g.attrs[k]; isKey {
				g.keys[k] = append(g.keys[k], v)
			}
		}
	}
}

func (g *tableGen) create(ctx context.Context, w backend) error {
	var defs []types.AttributeDefinition
	for _, k := range sortedNames(g.attrs) {
		defs = append(defs, keyDef(k, g.attrs[k]))
	}
	skName := func(k *keyDefn) string {
		if k == nil {
			return ""
		}
		return k.name
	}
	in := &dynamodb.CreateTableInput{TableName: aws.String(g.name), AttributeDefinitions: defs,
		KeySchema: hashRange(g.pk.name, skName(g.sk)), BillingMode: types.BillingModePayPerRequest}
	for _, ix := range g.indexes {
		p := &types.Projection{ProjectionType: ix.proj}
		if ix.proj == types.ProjectionTypeInclude {
			p.NonKeyAttributes = []string{"Num", "Doc"}
		}
		if ix.global {
			in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{IndexName: aws.String(ix.name),
				KeySchema: hashRange(ix.pk.name, skName(ix.sk)), Projection: p})
		} else {
			in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{IndexName: aws.String(ix.name),
				KeySchema: hashRange(ix.pk.name, skName(ix.sk)), Projection: p})
		}
	}
	if _, err := w.CreateTable(ctx, in); err != nil {
		return fmt.Errorf("create %s: %w", g.name, err)
	}
	for i := 0; i < 200; i++ {
		out, err := w.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(g.name)})
		if err == nil && out.Table.TableStatus == types.TableStatusActive {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	for i := 0; i < len(g.items); {
		var reqs []types.WriteRequest
		size := 0
		for ; i < len(g.items) && len(reqs) < 25 && size < 4<<20; i++ {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: g.items[i]}})
			if p, ok := g.items[i]["Pay"].(*types.AttributeValueMemberS); ok {
				size += len(p.Value)
			}
		}
		out, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{g.name: reqs}})
		if err != nil {
			return fmt.Errorf("write %s: %w", g.name, err)
		}
		if len(out.UnprocessedItems) > 0 {
			return fmt.Errorf("write %s: unprocessed items", g.name)
		}
	}
	return nil
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// diffRequest is one random request and how to run it to the end.
type diffRequest struct {
	query *dynamodb.QueryInput
	scan  *dynamodb.ScanInput
	get   *dynamodb.GetItemInput
}

func (d diffRequest) kind() string {
	switch {
	case d.query != nil:
		return "query"
	case d.scan != nil:
		return "scan"
	}
	return "get"
}

const diffMaxPages = 60

func (d diffRequest) run(ctx context.Context, c dynamo.Client) outcome {
	switch {
	case d.query != nil:
		return query(*d.query, diffMaxPages)(ctx, c)
	case d.scan != nil:
		return scan(*d.scan, diffMaxPages)(ctx, c)
	}
	return getItem(*d.get)(ctx, c)
}

// describe is the request in wire form, to paste into a hand-written case.
func (d diffRequest) describe() any {
	wire := func(v map[string]types.AttributeValue) map[string]any {
		if v == nil {
			return nil
		}
		out := map[string]any{}
		for k, x := range v {
			out[k] = dynamo.WireItem(item{"v": x})["v"]
		}
		return out
	}
	switch {
	case d.query != nil:
		q := d.query
		return map[string]any{"Query": map[string]any{"TableName": q.TableName, "IndexName": q.IndexName, "KeyConditionExpression": q.KeyConditionExpression,
			"FilterExpression": q.FilterExpression, "ProjectionExpression": q.ProjectionExpression, "ExpressionAttributeNames": q.ExpressionAttributeNames,
			"ExpressionAttributeValues": wire(q.ExpressionAttributeValues), "ScanIndexForward": q.ScanIndexForward, "Limit": q.Limit, "Select": q.Select, "ConsistentRead": q.ConsistentRead,
			"ExclusiveStartKey": wire(q.ExclusiveStartKey)}}
	case d.scan != nil:
		q := d.scan
		return map[string]any{"Scan": map[string]any{"TableName": q.TableName, "IndexName": q.IndexName, "FilterExpression": q.FilterExpression,
			"ProjectionExpression": q.ProjectionExpression, "ExpressionAttributeNames": q.ExpressionAttributeNames,
			"ExpressionAttributeValues": wire(q.ExpressionAttributeValues), "Limit": q.Limit, "Select": q.Select, "ExclusiveStartKey": wire(q.ExclusiveStartKey)}}
	}
	return map[string]any{"GetItem": map[string]any{"TableName": d.get.TableName, "Key": wire(d.get.Key), "ProjectionExpression": d.get.ProjectionExpression,
		"ExpressionAttributeNames": d.get.ExpressionAttributeNames}}
}

// exprs collects placeholders as a request is built.
type exprs struct {
	names map[string]string
	vals  map[string]types.AttributeValue
}

func (e *exprs) name(n string) string {
	if e.names == nil {
		e.names = map[string]string{}
	}
	for k, v := range e.names {
		if v == n {
			return k
		}
	}
	k := fmt.Sprintf("#n%d", len(e.names))
	e.names[k] = n
	return k
}

func (e *exprs) val(v types.AttributeValue) string {
	if e.vals == nil {
		e.vals = map[string]types.AttributeValue{}
	}
	k := fmt.Sprintf(":v%d", len(e.vals))
	e.vals[k] = v
	return k
}

// sample is a key value for attr: one the table holds, mostly, or a fresh
// one.
func (g *tableGen) sample(r *rand.Rand, k *keyDefn, hash bool) types.AttributeValue {
	if vs := g.keys[k.name]; len(vs) > 0 && r.IntN(8) > 0 {
		return pick(r, vs)
	}
	return keyValue(r, k.typ, hash)
}

// prefixOf is a begins_with operand: a prefix of a held value, mostly.
func prefixOf(r *rand.Rand, v types.AttributeValue) types.AttributeValue {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		rs := []rune(x.Value)
		return s(string(rs[:r.IntN(len(rs))+1]))
	case *types.AttributeValueMemberB:
		return b(x.Value[:r.IntN(len(x.Value))+1])
	}
	return v
}

func (g *tableGen) request(r *rand.Rand) diffRequest {
	switch k := r.IntN(20); {
	case k < 13:
		return diffRequest{query: g.randomQuery(r)}
	case k < 17:
		return diffRequest{scan: g.randomScan(r)}
	default:
		return diffRequest{get: g.randomGet(r)}
	}
}

// schema picks the table or one of its indexes.
func (g *tableGen) schema(r *rand.Rand) (index string, pk, sk *keyDefn, global bool) {
	if len(g.indexes) > 0 && r.IntN(2) == 0 {
		ix := pick(r, g.indexes)
		return ix.name, ix.pk, ix.sk, ix.global
	}
	return "", g.pk, g.sk, false
}

func (g *tableGen) randomQuery(r *rand.Rand) *dynamodb.QueryInput {
	index, pk, sk, global := g.schema(r)
	var e exprs
	kc := e.name(pk.name) + " = " + e.val(g.sample(r, pk, true))
	if sk != nil {
		a := g.sample(r, sk, false)
		switch op := r.IntN(9); op {
		case 0, 1:
		case 2, 3, 4, 5, 6:
			kc += " AND " + e.name(sk.name) + " " + pick(r, []string{"=", "<", "<=", ">", ">="}) + " " + e.val(a)
		case 7:
			lo, hi := a, g.sample(r, sk, false)
			if c, ok := orderOf(lo, hi); ok && c > 0 && r.IntN(10) > 0 {
				lo, hi = hi, lo
			}
			kc += " AND " + e.name(sk.name) + " BETWEEN " + e.val(lo) + " AND " + e.val(hi)
		case 8:
			kc += " AND begins_with(" + e.name(sk.name) + ", " + e.val(prefixOf(r, a)) + ")"
		}
	}
	in := &dynamodb.QueryInput{TableName: aws.String(g.name), KeyConditionExpression: aws.String(kc)}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	if r.IntN(2) == 0 {
		in.ScanIndexForward = aws.Bool(false)
	}
	if r.IntN(3) > 0 {
		in.Limit = aws.Int32(int32(1 + r.IntN(12)))
	}
	if r.IntN(6) == 0 {
		in.ConsistentRead = aws.Bool(true)
		if global && r.IntN(4) > 0 {
			in.ConsistentRead = nil // mostly valid requests
		}
	}
	keys := []string{pk.name}
	if sk != nil {
		keys = append(keys, sk.name)
	}
	in.ExclusiveStartKey = g.startKey(r, pk, sk)
	in.FilterExpression = g.filter(r, &e, keys)
	if r.IntN(6) == 0 {
		in.Select = types.SelectCount
	} else {
		in.ProjectionExpression = g.projection(r, &e)
	}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = e.names, e.vals
	return in
}

func (g *tableGen) randomScan(r *rand.Rand) *dynamodb.ScanInput {
	index, pk, sk, _ := g.schema(r)
	var e exprs
	in := &dynamodb.ScanInput{TableName: aws.String(g.name), ExclusiveStartKey: g.startKey(r, pk, sk)}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	if r.IntN(3) > 0 {
		in.Limit = aws.Int32(int32(1 + r.IntN(25)))
	}
	in.FilterExpression = g.filter(r, &e, nil)
	if r.IntN(6) == 0 {
		in.Select = types.SelectCount
	} else {
		in.ProjectionExpression = g.projection(r, &e)
	}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = e.names, e.vals
	return in
}

func (g *tableGen) randomGet(r *rand.Rand) *dynamodb.GetItemInput {
	key := item{}
	if len(g.items) > 0 && r.IntN(4) > 0 {
		it := pick(r, g.items)
		key[g.pk.name] = it[g.pk.name]
		if g.sk != nil {
			key[g.sk.name] = it[g.sk.name]
		}
	} else {
		key[g.pk.name] = keyValue(r, g.pk.typ, true)
		if g.sk != nil {
			key[g.sk.name] = keyValue(r, g.sk.typ, false)
		}
	}
	in := &dynamodb.GetItemInput{TableName: aws.String(g.name), Key: key, ConsistentRead: aws.Bool(r.IntN(2) == 0)}
	var e exprs
	in.ProjectionExpression = g.projection(r, &e)
	in.ExpressionAttributeNames = e.names
	return in
}

// startKey is now and then a held item's key (the table's keys and the
// schema read's) to start from: inside the range read, outside it, or
// missing the index's keys where the item is not in the index; all of
// them must be answered alike.
func (g *tableGen) startKey(r *rand.Rand, pk, sk *keyDefn) map[string]types.AttributeValue {
	if len(g.items) == 0 || r.IntN(12) > 0 {
		return nil
	}
	it := pick(r, g.items)
	key := item{}
	for _, k := range []*keyDefn{g.pk, g.sk, pk, sk} {
		if k != nil && it[k.name] != nil {
			key[k.name] = it[k.name]
		}
	}
	return key
}

// orderOf compares two scalar key values of one type.
func orderOf(a, b types.AttributeValue) (int, bool) {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		return strings.Compare(x.Value, y.Value), ok
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		return strings.Compare(string(x.Value), string(y.Value)), ok
	case *types.AttributeValueMemberN:
		var fa, fb float64
		y, ok := b.(*types.AttributeValueMemberN)
		if !ok {
			return 0, false
		}
		fmt.Sscan(x.Value, &fa)
		fmt.Sscan(y.Value, &fb)
		switch {
		case fa < fb:
			return -1, true
		case fa > fb:
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// filter is a random condition on non-key attributes, or nil.
func (g *tableGen) filter(r *rand.Rand, e *exprs, keys []string) *string {
	if r.IntN(3) > 0 {
		return nil
	}
	var conds []string
	for i, k := 0, 1+r.IntN(2); i < k; i++ {
		var c string
		switch r.IntN(9) {
		case 0:
			c = e.name("Num") + " " + pick(r, []string{"=", "<>", "<", "<=", ">", ">="}) + " " + e.val(n(fmt.Sprint(r.IntN(50)-10)))
		case 1:
			c = e.name("Num") + " BETWEEN " + e.val(n(fmt.Sprint(r.IntN(10)))) + " AND " + e.val(n(fmt.Sprint(10+r.IntN(30))))
		case 2:
			c = "begins_with(" + e.name("Pay") + ", " + e.val(s(pick(r, []string{"p", "é", "P", "pp"}))) + ")"
		case 3:
			c = "size(" + e.name("Pay") + ") " + pick(r, []string{"<", ">"}) + " " + e.val(n(fmt.Sprint(r.IntN(300))))
		case 4:
			c = "contains(" + e.name("Tags") + ", " + e.val(s(pick(r, []string{"t0", "t1", "all", "none"}))) + ")"
		case 5:
			c = pick(r, []string{"attribute_exists", "attribute_not_exists"}) + "(" + e.name(pick(r, []string{"Doc", "Flag", "Tags"})) + ")"
		case 6:
			c = e.name("Doc") + "." + e.name("a") + " IN (" + e.val(n("1")) + ", " + e.val(n("2")) + ", " + e.val(n("3")) + ")"
		case 7:
			c = "NOT " + e.name("Flag") + " = " + e.val(bl(true))
		case 8:
			c = e.name("Doc") + "." + e.name("l") + "[1] = " + e.val(n(fmt.Sprint(r.IntN(3))))
		}
		conds = append(conds, c)
	}
	f := strings.Join(conds, pick(r, []string{" AND ", " OR "}))
	if len(keys) > 0 && r.IntN(25) == 0 { // now and then, a key in the filter: rejected alike
		f += " AND attribute_exists(" + e.name(pick(r, keys)) + ")"
	}
	return aws.String(f)
}

// projection is a random set of paths (keys, payload, nested), or nil;
// now and then one path twice, which must be rejected alike.
func (g *tableGen) projection(r *rand.Rand, e *exprs) *string {
	if r.IntN(3) > 0 {
		return nil
	}
	pool := []string{"Num", "Pay", "Tags", "Flag"}
	pool = append(pool, sortedNames(g.attrs)...)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	var paths []string
	for _, p := range pool[:1+r.IntN(len(pool))] {
		paths = append(paths, e.name(p))
	}
	switch r.IntN(4) {
	case 0:
		paths = append(paths, e.name("Doc"))
	case 1:
		paths = append(paths, e.name("Doc")+"."+e.name("a"), e.name("Doc")+"."+e.name("l")+"[2]", e.name("Doc")+"."+e.name("l")+"[0]")
	}
	if r.IntN(30) == 0 {
		paths = append(paths, paths[0])
	}
	return aws.String(strings.Join(paths, ", "))
}

// firstDiff says where two outcomes first part: which page, and what.
func firstDiff(want, got outcome) string {
	if want.Err != got.Err {
		return fmt.Sprintf("error %q, want %q", got.Err, want.Err)
	}
	short := func(v any) string {
		j, _ := json.Marshal(v)
		if len(j) > 300 {
			return string(j[:300]) + "…"
		}
		return string(j)
	}
	for i := 0; i < len(want.Pages) || i < len(got.Pages); i++ {
		if i >= len(want.Pages) || i >= len(got.Pages) {
			return fmt.Sprintf("%d pages, want %d", len(got.Pages), len(want.Pages))
		}
		w, g := want.Pages[i], got.Pages[i]
		switch {
		case w.Count != g.Count || w.Scanned != g.Scanned:
			return fmt.Sprintf("page %d: count %d scanned %d, want %d and %d", i, g.Count, g.Scanned, w.Count, w.Scanned)
		case short(w.LastKey) != short(g.LastKey):
			return fmt.Sprintf("page %d: LastEvaluatedKey %s, want %s", i, short(g.LastKey), short(w.LastKey))
		case w.RCU != g.RCU:
			return fmt.Sprintf("page %d: %.1f RCU, want %.1f", i, g.RCU, w.RCU)
		}
		for j := range w.Items {
			if j >= len(g.Items) || short(w.Items[j]) != short(g.Items[j]) {
				var gi any
				if j < len(g.Items) {
					gi = g.Items[j]
				}
				return fmt.Sprintf("page %d item %d: %s, want %s", i, j, short(gi), short(w.Items[j]))
			}
		}
	}
	return "items differ"
}
