package dynamo_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
)

// libraryPackages are the single-table libraries that write the test
// tables, as users' tables are written, pinned.
var libraryPackages = []string{"dynamodb-onetable@2.7.7", "electrodb@3.9.3", "dynamodb-toolbox@2.10.6", "@aws-sdk/client-dynamodb@3.1169.0", "@aws-sdk/lib-dynamodb@3.1169.0"}

var npmOnce struct {
	sync.Once
	dir string
	err error
}

// libraries installs the packages once per machine, under the user's
// cache directory, and returns their node_modules. Without npm, or the
// registry, the test skips saying so; under CI=true it fails.
func libraries(t *testing.T) string {
	t.Helper()
	npmOnce.Do(func() {
		cache, err := os.UserCacheDir()
		if err != nil {
			npmOnce.err = err
			return
		}
		dir := filepath.Join(cache, "dynascope", "test-libraries", strings.NewReplacer("@", "", "/", "-").Replace(strings.Join(libraryPackages, "+")))
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "dynamodb-toolbox")); err == nil {
			npmOnce.dir = filepath.Join(dir, "node_modules")
			return
		}
		if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
			npmOnce.err = err
			return
		}
		tmp, err := os.MkdirTemp(filepath.Dir(dir), "install-")
		if err != nil {
			npmOnce.err = err
			return
		}
		cmd := exec.Command("npm", append([]string{"install", "--no-audit", "--no-fund", "--prefix", tmp}, libraryPackages...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			os.RemoveAll(tmp)
			npmOnce.err = fmt.Errorf("npm install %s: %v\n%s", strings.Join(libraryPackages, " "), err, out)
			return
		}
		if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
			if _, serr := os.Stat(dir); serr != nil { // another run may have installed it first
				npmOnce.err = err
				return
			}
			os.RemoveAll(tmp)
		}
		npmOnce.dir = filepath.Join(dir, "node_modules")
	})
	if npmOnce.err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the libraries that write the test tables: %v", npmOnce.err)
		}
		t.Skipf("the libraries that write the test tables are not installed (needs npm and its registry): %v", npmOnce.err)
	}
	return npmOnce.dir
}

// writeWithLibrary lets a library's script (testdata/libraries) create and
// fill a table on dynalite, once per dynalite.
func writeWithLibrary(t *testing.T, srv *dynalitetest.Server, script, table string) {
	t.Helper()
	modules := libraries(t)
	if _, err := srv.Client().DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(table)}); err == nil {
		return
	}
	path, _ := filepath.Abs(filepath.Join("testdata", "libraries", script))
	cmd := exec.Command("node", path)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules, "ENDPOINT="+srv.Endpoint, "TABLE="+table, "AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

// tableWriter is a backend a table can be copied into.
type tableWriter interface {
	dynamo.Client
	dynamo.Writer
}

// copyTable makes another backend (the embedded one, moto) hold what the
// library wrote into dynalite.
func copyTable(t *testing.T, from dynamo.Client, to tableWriter, table string) {
	t.Helper()
	ctx := context.Background()
	d, err := from.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	in := &dynamodb.CreateTableInput{TableName: aws.String(table), AttributeDefinitions: d.Table.AttributeDefinitions, KeySchema: d.Table.KeySchema, BillingMode: types.BillingModePayPerRequest}
	for _, g := range d.Table.GlobalSecondaryIndexes {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection})
	}
	if _, err := to.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}); err == nil {
		return // a shared server holds it from an earlier test
	}
	if _, err := to.CreateTable(ctx, in); err != nil {
		t.Fatal(err)
	}
	if err := demo.WaitActive(ctx, to, table); err != nil {
		t.Fatal(err)
	}
	var start dynamo.Item
	for {
		out, err := from.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), ExclusiveStartKey: start})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(out.Items); i += 25 {
			var reqs []types.WriteRequest
			for _, it := range out.Items[i:min(i+25, len(out.Items))] {
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
			}
			if _, err := to.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}}); err != nil {
				t.Fatal(err)
			}
		}
		if start = out.LastEvaluatedKey; len(start) == 0 {
			return
		}
	}
}

// libraryBackends are the tables the libraries wrote (LibOneTable,
// LibElectro, LibToolbox), on dynalite and copied into the embedded
// backend and moto.
func libraryBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	srv := dynalitetest.Shared(t)
	writeWithLibrary(t, srv, "onetable.js", "LibOneTable")
	writeWithLibrary(t, srv, "electrodb.js", "LibElectro")
	writeWithLibrary(t, srv, "toolbox.js", "LibToolbox")
	libMemOnce.Do(func() { libMem = memory.New() })
	moto := mototest.Shared(t).Client()
	for _, table := range []string{"LibOneTable", "LibElectro", "LibToolbox"} {
		copyTable(t, srv.Client(), libMem, table)
		copyTable(t, srv.Client(), moto, table)
	}
	return map[string]dynamo.Client{"dynalite": srv.Client(), "memory": libMem, "moto": moto}
}

var (
	libMemOnce sync.Once
	libMem     *memory.DB
)

// TestLibraryLayouts: tables written by dynamodb-onetable (a Date inside
// a text key: admission#1601700180000#R8, and before a generated ulid:
// invoice#1601700180000#01M8F94…, beside Event#1601700180000 in one
// partition), ElectroDB (lower-cased ISO
// times after field names: $employee_1#hired_2020-09-01t00:00:00.000z#…,
// and __edb_e__) and dynamodb-toolbox (ORDER#2020-09-01T00:00:00.000Z#o000,
// its entity in _et; an order's lines under it) are read as their libraries wrote them, on dynalite and
// the embedded backend and moto: the time detected, a month's range exactly what a
// full read filtered by time lists, the entity types by discriminator,
// of the tables and of their sparse indexes.
// The requests and RCU are logged for the record.
func TestLibraryLayouts(t *testing.T) {
	backends := libraryBackends(t)
	var figures []string
	for _, name := range []string{"dynalite", "memory", "moto"} {
		c := backends[name]
		for _, tc := range []struct {
			shape, table, index, pkName, skName, pk, enc string
			inMonth                                      int
		}{
			{"onetable admission#{epoch-ms}#room", "LibOneTable", "", "pk", "sk", "patient#1", "prefix#epoch milliseconds#…", 30},
			{"onetable invoice#{epoch-ms}#{generated ulid} beside Event#{epoch-ms}", "LibOneTable", "", "pk", "sk", "account#1", "prefix#epoch milliseconds#…", 34},
			{"ElectroDB $employee_1#hired_{iso, lower case}#employee_…", "LibElectro", "gsi1", "gsi1pk", "gsi1sk", "$taskapp#office_o1", "prefix_2006-01-02t15:04:05.000z#…", 10},
			{"dynamodb-toolbox ORDER#{iso}#{id}", "LibToolbox", "", "PK", "SK", "USER#1", "prefix#2006-01-02T15:04:05.000Z07:00#…", 30},
		} {
			ctx := context.Background()
			base := domain.KeyQuery{Table: tc.table, Index: tc.index, PKName: tc.pkName, PK: domain.S(tc.pk), SKName: tc.skName, Reverse: true}
			key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: tc.pkName, Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: tc.skName, Type: domain.TypeS}}
			var tableKeys *dynamo.KeySchema
			if tc.index != "" {
				tableKeys = &dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "pk", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "sk", Type: domain.TypeS}}
			}
			detect := dynamo.NewMetered(c)
			sample, _, err := dynamo.DetectTimeKeys(ctx, detect, base, tableKeys)
			if err != nil || !sample.OK || sample.Enc.Name() != tc.enc {
				t.Fatalf("%s %s: detected %v %q (%v), want %q", name, tc.shape, sample.OK, sample.Enc.Name(), err, tc.enc)
			}
			r, _ := domain.ParseRange("2020-10", time.Now(), time.UTC)
			ranged := dynamo.NewMetered(c)
			prefixes, _, err := dynamo.TimePrefixes(ctx, ranged, dynamo.ChildrenRequest{Table: tc.table, Index: tc.index, Key: key, TableKeys: tableKeys, PK: base.PK}, sample.Enc, sample)
			if err != nil {
				t.Fatal(err)
			}
			m, err := dynamo.NewMergedRange(ranged, base, prefixes, r, sample.Enc, 0, tableKeys)
			if err != nil {
				t.Fatal(err)
			}
			items, err := m.Take(ctx, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			full := dynamo.NewMetered(c)
			want := len(inRangeKeys(t, full, base, sample.Enc, r, tc.skName))
			if len(items) != tc.inMonth || want != tc.inMonth {
				t.Errorf("%s %s: the range lists %d, the filtered full read %d, want %d", name, tc.shape, len(items), want, tc.inMonth)
			}
			dt, _ := detect.Session.Totals()
			rt, _ := ranged.Session.Totals()
			ft, _ := full.Session.Totals()
			figures = append(figures, fmt.Sprintf("| %s | %s | %s | %d | %d / %.1f | %d / %.1f | %d / %.1f |", name, tc.shape, sample.Enc.TimeFormat(), len(items), dt.Requests, dt.RCU, rt.Requests, rt.RCU, ft.Requests, ft.RCU))
		}
		for _, tc := range []struct{ table, index, want string }{
			{"LibOneTable", "", "Admission=60 by _type, Invoice=48 by _type, Event=36 by _type, Patient=1 by _type"},
			{"LibElectro", "", "employee=60 by __edb_e__, task=50 by __edb_e__, book=40 by __edb_e__, office=3 by __edb_e__, project=1 by __edb_e__"},
			{"LibToolbox", "", "OrderLine=120 by _et, Order=100 by _et, Part=7 by _et, User=2 by _et"},
			// The sparse indexes hold one entity each.
			{"LibElectro", "gsi1", "employee=60 by __edb_e__"},
			// Kept KEYS_ONLY: by its keys, an author's name with a space
			// (le guin) among the others.
			{"LibElectro", "gsi2", "library·book_·published_·bookid_=40 by "},
			{"LibOneTable", "gs1", "Admission=60 by _type"},
		} {
			names := tc.table
			if tc.index != "" {
				names += "." + tc.index
			}
			k := libKeyNames[names]
			keys := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: k[0], Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: k[1], Type: domain.TypeS}}
			res, err := dynamo.ReadEntities(context.Background(), c, dynamo.EntitiesRequest{Table: tc.table, Index: tc.index, Key: keys, MaxRCU: 100})
			var got []string
			for _, e := range res.Entities {
				got = append(got, fmt.Sprintf("%s=%d by %s", e.Name, e.Count, e.Discriminator))
			}
			if err != nil || strings.Join(got, ", ") != tc.want || res.Sampled {
				t.Errorf("%s %s entities: %s (%v), want %s", name, names, strings.Join(got, ", "), err, tc.want)
			}
		}
	}
	t.Logf("| backend | layout | template read | items in 2020-10 | detection req / RCU | range req / RCU | full read req / RCU |\n|---|---|---|---|---|---|---|\n%s", strings.Join(figures, "\n"))
}

// TestLibraryVersions: dynamodb-toolbox writes each revision's number
// again as data (version, of SK v${version}): 0 on the current copy, N
// on vN, by design. It read as a pointer that lags ("v0 says version=0
// but the newest is v3"), and as drift; it is neither. A current copy
// that differs from its newest revision is still said. On dynalite, the
// embedded backend and moto.
func TestLibraryVersions(t *testing.T) {
	backends := libraryBackends(t)
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "SK", Type: domain.TypeS}}
	for _, name := range []string{"dynalite", "memory", "moto"} {
		for pk, want := range map[string]string{
			"PART#1": ` current=v0 revisions=3 latest=v3 drift=[]`,
			"PART#2": ` current=v0 revisions=2 latest=v2 drift=["v0 differs from v2: qty"]`,
		} {
			res, err := dynamo.Versions(context.Background(), backends[name], dynamo.VersionsRequest{Table: "LibToolbox", Key: key, PK: domain.S(pk)}, nil)
			if err != nil || len(res.Histories) != 1 || summary(res.Histories[0]) != want {
				var got []string
				for _, h := range res.Histories {
					got = append(got, summary(h))
				}
				t.Errorf("%s %s: %q (%v), want %q", name, pk, got, err, want)
			}
		}
	}
}

// libKeyNames are the key attributes of each library table (and of
// the indexes: LibElectro's gsi1 as "LibElectro.gsi1", LibOneTable's gs1).
var libKeyNames = map[string][2]string{"LibOneTable": {"pk", "sk"}, "LibElectro": {"pk", "sk"}, "LibToolbox": {"PK", "SK"}, "LibElectro.gsi1": {"gsi1pk", "gsi1sk"}, "LibElectro.gsi2": {"gsi2pk", "gsi2sk"}, "LibOneTable.gs1": {"gs1pk", "gs1sk"}}

// libKey is an item's table key, as text.
func libKey(table string, it dynamo.Item) string {
	k := libKeyNames[table]
	return str(it, k[0]) + "/" + str(it, k[1])
}

func libKeys(table string, items []dynamo.Item, sorted bool) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, libKey(table, it))
	}
	if sorted {
		sort.Strings(out)
	}
	return out
}

// libAt is the value at a path of names and list indexes ("lines", 0,
// "qty"), nil where there is none.
func libAt(it dynamo.Item, path ...any) types.AttributeValue {
	var av types.AttributeValue = &types.AttributeValueMemberM{Value: it}
	for _, step := range path {
		switch s := step.(type) {
		case string:
			m, ok := av.(*types.AttributeValueMemberM)
			if !ok {
				return nil
			}
			av = m.Value[s]
		case int:
			l, ok := av.(*types.AttributeValueMemberL)
			if !ok || s >= len(l.Value) {
				return nil
			}
			av = l.Value[s]
		}
		if av == nil {
			return nil
		}
	}
	return av
}

// libNum is the number at a path (ok false where there is none).
func libNum(it dynamo.Item, path ...any) (float64, bool) {
	n, ok := libAt(it, path...).(*types.AttributeValueMemberN)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(n.Value, 64)
	return f, err == nil
}

// libStr is the string at a path ("" where there is none).
func libStr(it dynamo.Item, path ...any) string {
	if s, ok := libAt(it, path...).(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// libHas says whether the list or string set at path holds the string
// s.
func libHas(it dynamo.Item, s string, path ...any) bool {
	if set, ok := libAt(it, path...).(*types.AttributeValueMemberSS); ok {
		return slices.Contains(set.Value, s)
	}
	l, ok := libAt(it, path...).(*types.AttributeValueMemberL)
	if !ok {
		return false
	}
	for _, v := range l.Value {
		if e, ok := v.(*types.AttributeValueMemberS); ok && e.Value == s {
			return true
		}
	}
	return false
}

// libProject is it cut to paths as DynamoDB projects them: a map path
// keeps its maps, a list index keeps a list of the elements named, in
// their order.
func libProject(it dynamo.Item, paths ...[]any) dynamo.Item {
	out := &types.AttributeValueMemberM{Value: dynamo.Item{}}
	for _, p := range paths {
		if v := libAt(it, p...); v != nil {
			libPut(out, &types.AttributeValueMemberM{Value: it}, p, v)
		}
	}
	return out.Value
}

func libPut(into types.AttributeValue, from types.AttributeValue, path []any, v types.AttributeValue) {
	if len(path) == 1 {
		switch s := path[0].(type) {
		case string:
			into.(*types.AttributeValueMemberM).Value[s] = v
		case int:
			l := into.(*types.AttributeValueMemberL)
			l.Value = append(l.Value, v)
		}
		return
	}
	var next, src types.AttributeValue
	switch s := path[0].(type) {
	case string:
		m := into.(*types.AttributeValueMemberM)
		src = from.(*types.AttributeValueMemberM).Value[s]
		if m.Value[s] == nil {
			m.Value[s] = emptyLike(src)
		}
		next = m.Value[s]
	case int:
		l := into.(*types.AttributeValueMemberL)
		src = from.(*types.AttributeValueMemberL).Value[s]
		l.Value = append(l.Value, emptyLike(src))
		next = l.Value[len(l.Value)-1]
	}
	libPut(next, src, path[1:], v)
}

func emptyLike(av types.AttributeValue) types.AttributeValue {
	if _, ok := av.(*types.AttributeValueMemberL); ok {
		return &types.AttributeValueMemberL{}
	}
	return &types.AttributeValueMemberM{Value: dynamo.Item{}}
}

// libText is an item written out with its maps' names sorted, to compare.
func libText(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberM:
		names := make([]string, 0, len(v.Value))
		for n := range v.Value {
			names = append(names, n)
		}
		sort.Strings(names)
		var b strings.Builder
		b.WriteString("{")
		for _, n := range names {
			fmt.Fprintf(&b, "%q:%s,", n, libText(v.Value[n]))
		}
		return b.String() + "}"
	case *types.AttributeValueMemberL:
		var parts []string
		for _, e := range v.Value {
			parts = append(parts, libText(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case *types.AttributeValueMemberS:
		return fmt.Sprintf("S%q", v.Value)
	case *types.AttributeValueMemberN:
		return "N" + v.Value
	default:
		return fmt.Sprintf("%T%v", av, av)
	}
}

// libWhole is every item of a table, or of its index (the items that
// carry the index's keys), by a plain Scan, and what that read cost.
func libWhole(t *testing.T, c dynamo.Client, table, index string) ([]dynamo.Item, dynamo.Cost) {
	t.Helper()
	m := dynamo.NewMetered(c)
	all := wholeTableOf(t, m, table)
	cost, _ := m.Session.Totals()
	if index == "" {
		return all, cost
	}
	k := libKeyNames[table+"."+index]
	var in []dynamo.Item
	for _, it := range all {
		if it[k[0]] != nil && it[k[1]] != nil {
			in = append(in, it)
		}
	}
	return in, cost
}

// TestLibraryFilterSearch: on the tables the libraries wrote, the f
// grammar's search (dynamo.FilterSearch, what `scan --filter` and the
// explorer's f read) finds exactly what a whole read filtered here
// finds, with and without a budget, each run resumed from the token the
// last stopped at, no run over its budget and half a read unit; a filter
// that pins the partition key reads by Query. Requests and RCU beside
// the plain whole read are logged.
func TestLibraryFilterSearch(t *testing.T) {
	backends := libraryBackends(t)
	cases := []struct {
		table, index, filter string
		pinned               bool
		match                func(dynamo.Item) bool
	}{
		{"LibOneTable", "", `pk = "patient#1" and begins_with(sk, "admission#16")`, true,
			func(it dynamo.Item) bool {
				return str(it, "pk") == "patient#1" && strings.HasPrefix(str(it, "sk"), "admission#16")
			}},
		{"LibOneTable", "", `_type = "Admission" and vitals.bp.sys >= 125`, false,
			func(it dynamo.Item) bool {
				n, _ := libNum(it, "vitals", "bp", "sys")
				return str(it, "_type") == "Admission" && n >= 125
			}},
		{"LibOneTable", "", `contains(notes, "odd") and room in ("R1", "R3") and notes[0] <> "n1"`, false,
			func(it dynamo.Item) bool {
				r := str(it, "room")
				return libHas(it, "odd", "notes") && (r == "R1" || r == "R3") && libStr(it, "notes", 0) != "n1"
			}},
		{"LibOneTable", "gs1", `gs1pk = "room#R3" and vitals.pulse >= 70`, true,
			func(it dynamo.Item) bool {
				n, _ := libNum(it, "vitals", "pulse")
				return str(it, "gs1pk") == "room#R3" && n >= 70
			}},
		{"LibElectro", "", `__edb_e__ = "employee" and address.city = "city2"`, false,
			func(it dynamo.Item) bool {
				return str(it, "__edb_e__") == "employee" && libStr(it, "address", "city") == "city2"
			}},
		{"LibElectro", "", `__edb_e__ = "task" and contains(tags, "ui") and attribute_type(tags, "SS") and points < 5`, false,
			func(it dynamo.Item) bool {
				_, set := it["tags"].(*types.AttributeValueMemberSS)
				n, _ := libNum(it, "points")
				return str(it, "__edb_e__") == "task" && libHas(it, "ui", "tags") && set && n < 5
			}},
		{"LibElectro", "gsi1", `gsi1pk = "$taskapp#office_o1" and begins_with(gsi1sk, "$employee_1#hired_2020-10")`, true,
			func(it dynamo.Item) bool {
				return str(it, "gsi1pk") == "$taskapp#office_o1" && strings.HasPrefix(str(it, "gsi1sk"), "$employee_1#hired_2020-10")
			}},
		{"LibElectro", "gsi1", `contains(skills, "ops") and attribute_exists(address.zip)`, false,
			func(it dynamo.Item) bool { return libHas(it, "ops", "skills") && libAt(it, "address", "zip") != nil }},
		{"LibToolbox", "", `PK = "USER#2" and begins_with(SK, "ORDER#2020-09-0") and _et = "OrderLine"`, true,
			func(it dynamo.Item) bool {
				return str(it, "PK") == "USER#2" && strings.HasPrefix(str(it, "SK"), "ORDER#2020-09-0") && str(it, "_et") == "OrderLine"
			}},
		{"LibToolbox", "", `PK = "USER#2" and SK <> "PROFILE" and qty >= 4`, true,
			func(it dynamo.Item) bool {
				n, _ := libNum(it, "qty")
				return str(it, "PK") == "USER#2" && str(it, "SK") != "PROFILE" && n >= 4
			}},
		{"LibToolbox", "", `PK in ("USER#1", "USER#2") and total between 30 and 110`, true,
			func(it dynamo.Item) bool {
				n, ok := libNum(it, "total")
				return (str(it, "PK") == "USER#1" || str(it, "PK") == "USER#2") && ok && n >= 30 && n <= 110
			}},
		{"LibToolbox", "", `_et = "Order" and lines[0].qty = 2 and shipping.city <> "city1"`, false,
			func(it dynamo.Item) bool {
				n, _ := libNum(it, "lines", 0, "qty")
				return str(it, "_et") == "Order" && n == 2 && libAt(it, "shipping", "city") != nil && libStr(it, "shipping", "city") != "city1"
			}},
	}
	var figures []string
	for _, name := range []string{"dynalite", "memory", "moto"} {
		c := backends[name]
		for _, tc := range cases {
			all, fullCost := libWhole(t, c, tc.table, tc.index)
			var want []dynamo.Item
			for _, it := range all {
				if tc.match(it) {
					want = append(want, it)
				}
			}
			if len(want) == 0 || len(want) == len(all) {
				t.Fatalf("%s %s: %d of %d items match: the case tells nothing", name, tc.filter, len(want), len(all))
			}
			filter, err := domain.ParseFilter(tc.filter)
			if err != nil {
				t.Fatalf("%s: %v", tc.filter, err)
			}
			info, _, err := dynamo.DescribeTable(context.Background(), c, tc.table)
			if err != nil {
				t.Fatal(err)
			}
			for _, budget := range []float64{0, 1, 2.5} {
				fp, err := dynamo.FilterSearch(info, tc.index, filter, budget, "scan")
				if err != nil {
					t.Fatalf("%s: %v", tc.filter, err)
				}
				plan, r := fp.Plan, fp.Request
				label := fmt.Sprintf("%s %s %q budget=%g", name, tc.table, tc.filter, budget)
				if (plan != nil) != tc.pinned {
					t.Errorf("%s: planned as Queries %v, want %v", label, plan != nil, tc.pinned)
				}
				m := dynamo.NewMetered(c)
				got, runs := searchToEnd(t, m, r)
				if g, w := libKeys(tc.table, got, true), libKeys(tc.table, want, true); strings.Join(g, " ") != strings.Join(w, " ") {
					t.Errorf("%s: %d matches, the whole read filtered here %d\n got %v\nwant %v", label, len(g), len(w), g, w)
				}
				for i, rcu := range runs {
					if budget > 0 && rcu > budget+0.5 {
						t.Errorf("%s: run %d spent %.1f RCU", label, i+1, rcu)
					}
				}
				if budget == 0 {
					ours, _ := m.Session.Totals()
					figures = append(figures, fmt.Sprintf("| %s | %s | `%s` | %d | %d / %.1f | %d / %.1f |", name, tc.table+map[bool]string{true: "." + tc.index}[tc.index != ""], tc.filter, len(got), ours.Requests, ours.RCU, fullCost.Requests, fullCost.RCU))
				}
			}
		}
	}
	t.Logf("| backend | table | filter | matches | search req / RCU | whole read req / RCU |\n|---|---|---|---|---|---|\n%s", strings.Join(figures, "\n"))
}

// TestLibraryStatements: PartiQL statements a user of each library would
// type, on the tables it wrote, planned (dynamo.StatementSearch, what
// `dynascope partiql` and the explorer's : read) as Queries wherever they
// pin the partition key, and read, with and without a budget, to what the
// test's own evaluation finds: the same items, projected as DynamoDB
// projects them, in the ORDER BY asked; never more RCU than the plan's
// worst case where the table's size is known, no run over its budget and
// half a read unit. Requests and RCU beside the whole read are logged.
func TestLibraryStatements(t *testing.T) {
	backends := libraryBackends(t)
	type order int
	const (
		anyOrder order = iota
		ascending
		descending
	)
	cases := []struct {
		table, stmt string
		queries     int    // 0: a Scan
		key         string // the plan's key condition (domain.Plan.KeyCondition)
		match       func(dynamo.Item) bool
		project     [][]any // nil: whole items
		order       order   // by partition (in key order) then sort key
	}{
		{"LibOneTable", `SELECT * FROM LibOneTable WHERE pk = 'patient#1' AND begins_with(sk, 'admission#')`, 1, `pk = "patient#1" AND begins_with(sk, "admission#")`,
			func(it dynamo.Item) bool {
				return str(it, "pk") == "patient#1" && strings.HasPrefix(str(it, "sk"), "admission#")
			}, nil, ascending},
		{"LibOneTable", `SELECT sk, vitals.bp.sys, notes[1] FROM LibOneTable WHERE pk = 'patient#1' AND sk BETWEEN 'admission#1601510400000' AND 'admission#1604188800000' AND vitals.pulse > 70 ORDER BY sk DESC`, 1, `pk = "patient#1" AND sk BETWEEN "admission#1601510400000" AND "admission#1604188800000"`,
			func(it dynamo.Item) bool {
				n, _ := libNum(it, "vitals", "pulse")
				sk := str(it, "sk")
				return str(it, "pk") == "patient#1" && sk >= "admission#1601510400000" && sk <= "admission#1604188800000" && n > 70
			}, [][]any{{"sk"}, {"vitals", "bp", "sys"}, {"notes", 1}}, descending},
		{"LibOneTable", `SELECT gs1sk, room FROM "LibOneTable"."gs1" WHERE gs1pk IN ['room#R2', 'room#R1'] AND gs1sk > 'admission#1601' ORDER BY gs1pk, gs1sk DESC`, 2,
			`gs1pk IN ("room#R1", "room#R2") AND gs1sk > "admission#1601"`,
			func(it dynamo.Item) bool {
				pk := str(it, "gs1pk")
				return (pk == "room#R1" || pk == "room#R2") && str(it, "gs1sk") > "admission#1601"
			}, [][]any{{"gs1sk"}, {"room"}}, descending},
		{"LibOneTable", `SELECT * FROM LibOneTable WHERE _type = 'Patient'`, 0, ``,
			func(it dynamo.Item) bool { return str(it, "_type") == "Patient" }, nil, anyOrder},
		{"LibElectro", `SELECT * FROM "LibElectro"."gsi1" WHERE gsi1pk = '$taskapp#office_o1' AND begins_with(gsi1sk, '$employee_1#hired_2020-10') ORDER BY gsi1sk DESC`, 1, `gsi1pk = "$taskapp#office_o1" AND begins_with(gsi1sk, "$employee_1#hired_2020-10")`,
			func(it dynamo.Item) bool {
				return str(it, "gsi1pk") == "$taskapp#office_o1" && strings.HasPrefix(str(it, "gsi1sk"), "$employee_1#hired_2020-10")
			}, nil, descending},
		{"LibElectro", `SELECT gsi1pk, gsi1sk, name, address.city FROM "LibElectro"."gsi1" WHERE gsi1pk IN ['$taskapp#office_o2', '$taskapp#office_o0'] AND __edb_e__ = 'employee' AND address.zip >= '10030' ORDER BY gsi1pk, gsi1sk`, 2, `gsi1pk IN ("$taskapp#office_o0", "$taskapp#office_o2")`,
			func(it dynamo.Item) bool {
				pk := str(it, "gsi1pk")
				return (pk == "$taskapp#office_o0" || pk == "$taskapp#office_o2") && str(it, "__edb_e__") == "employee" && libStr(it, "address", "zip") >= "10030"
			}, [][]any{{"gsi1pk"}, {"gsi1sk"}, {"name"}, {"address", "city"}}, ascending},
		{"LibElectro", `SELECT task, points FROM LibElectro WHERE pk = '$taskapp#project_p1' AND begins_with(sk, '$board#task_1#status_open') AND contains(tags, 'web') AND points >= 4 ORDER BY sk DESC`, 1,
			`pk = "$taskapp#project_p1" AND begins_with(sk, "$board#task_1#status_open")`,
			func(it dynamo.Item) bool {
				n, _ := libNum(it, "points")
				return str(it, "pk") == "$taskapp#project_p1" && strings.HasPrefix(str(it, "sk"), "$board#task_1#status_open") && libHas(it, "web", "tags") && n >= 4
			}, [][]any{{"task"}, {"points"}}, descending},
		{"LibElectro", `SELECT * FROM LibElectro WHERE __edb_e__ = 'office'`, 0, ``,
			func(it dynamo.Item) bool { return str(it, "__edb_e__") == "office" }, nil, anyOrder},
		{"LibElectro", `SELECT * FROM LibElectro WHERE pk IN ['$taskapp#employee_e001', '$taskapp#office_o1', '$taskapp#nobody']`, 3, `pk IN ("$taskapp#employee_e001", "$taskapp#office_o1", "$taskapp#nobody")`,
			func(it dynamo.Item) bool {
				pk := str(it, "pk")
				return pk == "$taskapp#employee_e001" || pk == "$taskapp#office_o1"
			}, nil, anyOrder},
		{"LibToolbox", `SELECT * FROM LibToolbox WHERE PK = 'USER#1'`, 1, `PK = "USER#1"`,
			func(it dynamo.Item) bool { return str(it, "PK") == "USER#1" }, nil, ascending},
		{"LibToolbox", `SELECT SK, total, shipping.city, lines[0].sku FROM LibToolbox WHERE PK = 'USER#1' AND _et = 'Order' AND total >= 50 ORDER BY SK DESC`, 1, `PK = "USER#1"`,
			func(it dynamo.Item) bool {
				n, _ := libNum(it, "total")
				return str(it, "PK") == "USER#1" && str(it, "_et") == "Order" && n >= 50
			}, [][]any{{"SK"}, {"total"}, {"shipping", "city"}, {"lines", 0, "sku"}}, descending},
		{"LibToolbox", `SELECT * FROM LibToolbox WHERE (PK = 'USER#1' AND SK = 'PROFILE') OR (PK = 'USER#2' AND begins_with(SK, 'ORDER#2020-09-02'))`, 2, `(PK = "USER#1" AND SK = "PROFILE") OR (PK = "USER#2" AND begins_with(SK, "ORDER#2020-09-02"))`,
			func(it dynamo.Item) bool {
				return str(it, "PK") == "USER#1" && str(it, "SK") == "PROFILE" || str(it, "PK") == "USER#2" && strings.HasPrefix(str(it, "SK"), "ORDER#2020-09-02")
			}, nil, anyOrder},
		{"LibToolbox", `SELECT * FROM LibToolbox WHERE PK = 'USER#2' AND SK BETWEEN 'ORDER#2020-09-03' AND 'ORDER#2020-09-05' AND _et IN ['OrderLine'] AND qty > 2`, 1, `PK = "USER#2" AND SK BETWEEN "ORDER#2020-09-03" AND "ORDER#2020-09-05"`,
			func(it dynamo.Item) bool {
				n, _ := libNum(it, "qty")
				sk := str(it, "SK")
				return str(it, "PK") == "USER#2" && sk >= "ORDER#2020-09-03" && sk <= "ORDER#2020-09-05" && str(it, "_et") == "OrderLine" && n > 2
			}, nil, anyOrder},
		// A condition on the sort key no key condition can say: the
		// partition read by Query (within the condition there is), the
		// WHERE applied here, not a Scan of the table.
		{"LibToolbox", `SELECT SK FROM LibToolbox WHERE PK = 'USER#2' AND begins_with(SK, 'ORDER#2020-09-1') AND NOT contains(SK, '#LINE#') ORDER BY SK DESC`, 1,
			`PK = "USER#2" AND begins_with(SK, "ORDER#2020-09-1")`,
			func(it dynamo.Item) bool {
				sk := str(it, "SK")
				return str(it, "PK") == "USER#2" && strings.HasPrefix(sk, "ORDER#2020-09-1") && !strings.Contains(sk, "#LINE#")
			}, [][]any{{"SK"}}, descending},
		{"LibOneTable", `SELECT * FROM LibOneTable WHERE pk = 'patient#1' AND sk <> 'patient#1'`, 1, `pk = "patient#1"`,
			func(it dynamo.Item) bool { return str(it, "pk") == "patient#1" && str(it, "sk") != "patient#1" }, nil, anyOrder},
		{"LibToolbox", `SELECT PK, name FROM LibToolbox WHERE _et = 'User' AND total IS MISSING`, 0, ``,
			func(it dynamo.Item) bool { return str(it, "_et") == "User" && it["total"] == nil }, [][]any{{"PK"}, {"name"}}, anyOrder},
	}
	var figures []string
	for _, name := range []string{"dynalite", "memory", "moto"} {
		c := backends[name]
		for _, tc := range cases {
			if name == "moto" && projectsAListElement(tc.project) {
				// moto's ProjectionExpression parser reads #q4[1] as a
				// name of its own and refuses #q4 as unused; DynamoDB
				// and dynalite read the element.
				continue
			}
			st, err := domain.ParsePartiQL(tc.stmt)
			if err != nil {
				t.Fatalf("%s: %v", tc.stmt, err)
			}
			keys := tc.table
			if st.Index != "" {
				keys += "." + st.Index
			}
			all, fullCost := libWhole(t, c, tc.table, st.Index)
			var want []dynamo.Item
			for _, it := range all {
				if tc.match(it) {
					want = append(want, it)
				}
			}
			if len(want) == 0 || len(want) == len(all) {
				t.Fatalf("%s %s: %d of %d items match: the case tells nothing", name, tc.stmt, len(want), len(all))
			}
			k := libKeyNames[keys]
			sort.SliceStable(want, func(i, j int) bool {
				a, b := want[i], want[j]
				if str(a, k[0]) != str(b, k[0]) {
					return str(a, k[0]) < str(b, k[0])
				}
				return (str(a, k[1]) < str(b, k[1])) == (tc.order != descending)
			})
			wantText := make([]string, 0, len(want))
			for _, it := range want {
				if tc.project != nil {
					it = libProject(it, tc.project...)
				}
				wantText = append(wantText, libText(&types.AttributeValueMemberM{Value: it}))
			}
			info, _, err := dynamo.DescribeTable(context.Background(), c, tc.table)
			if err != nil {
				t.Fatal(err)
			}
			for _, budget := range []float64{0, 1} {
				label := fmt.Sprintf("%s %s budget=%g", name, tc.stmt, budget)
				plan, r, err := dynamo.StatementSearch(info, st, budget)
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				if len(plan.Queries) != tc.queries || plan.KeyCondition() != tc.key {
					t.Errorf("%s: planned %d Queries on %s, want %d on %s", label, len(plan.Queries), plan.KeyCondition(), tc.queries, tc.key)
				}
				m := dynamo.NewMetered(c)
				got, runs := searchToEnd(t, m, r)
				gotText := make([]string, 0, len(got))
				for _, it := range got {
					gotText = append(gotText, libText(&types.AttributeValueMemberM{Value: it}))
				}
				if tc.order == anyOrder {
					sort.Strings(gotText)
					sort.Strings(wantText)
				}
				if strings.Join(gotText, "\n") != strings.Join(wantText, "\n") {
					t.Errorf("%s: %d items, the test's evaluation %d\n got %s\nwant %s", label, len(gotText), len(wantText), strings.Join(gotText, "\n    "), strings.Join(wantText, "\n    "))
				}
				spent := 0.0
				for i, rcu := range runs {
					spent += rcu
					if budget > 0 && rcu > budget+0.5 {
						t.Errorf("%s: run %d spent %.1f RCU", label, i+1, rcu)
					}
				}
				worst, known := r.WorstCaseRCU()
				if budget == 0 && known && spent > worst {
					t.Errorf("%s: spent %.1f RCU, the plan's worst case %.1f", label, spent, worst)
				}
				if budget == 0 {
					ours, _ := m.Session.Totals()
					wc := "unknown"
					if known {
						wc = fmt.Sprintf("%.1f", worst)
					}
					figures = append(figures, fmt.Sprintf("| %s | `%s` | %d | %d / %.1f | %s | %d / %.1f |", name, tc.stmt, len(got), ours.Requests, ours.RCU, wc, fullCost.Requests, fullCost.RCU))
				}
			}
		}
	}
	t.Logf("| backend | statement | items | read req / RCU | worst case RCU | whole read req / RCU |\n|---|---|---|---|---|---|\n%s", strings.Join(figures, "\n"))
}

// projectsAListElement says whether a path of paths names a list element.
func projectsAListElement(paths [][]any) bool {
	for _, p := range paths {
		for _, step := range p {
			if _, ok := step.(int); ok {
				return true
			}
		}
	}
	return false
}

// libSortKeys records each sort key (skName) every Query sent back, to
// tell a key read twice, and bills the reads as billed does.
type libSortKeys struct {
	billed
	skName string
	seen   map[string]int
}

func (e *libSortKeys) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := e.billed.Query(ctx, in, o...)
	if out != nil {
		e.mu.Lock()
		if e.seen == nil {
			e.seen = map[string]int{}
		}
		for _, it := range out.Items {
			if s, ok := it[e.skName].(*types.AttributeValueMemberS); ok {
				e.seen[s.Value]++
			}
		}
		e.mu.Unlock()
	}
	return out, err
}

// twice is how many keys were read more than once, and the first few;
// butLast leaves out the level's last key, as everyKey.twice does.
func (e *libSortKeys) twice(butLast bool) (int, []string) {
	k := &everyKey{seen: e.seen}
	return k.twice(butLast)
}

// TestLibraryLevels: the levels of the sort keys the libraries wrote
// (onetable's admission#{epoch ms}#room, ElectroDB's
// $employee_1#hired_{iso}#employee_… on gsi1, toolbox's
// ORDER#{iso}#{id} and an order's lines under it) are listed as a full
// read of the partition finds them, reading no key twice; the one-pass
// count (children --count) and the count from the keys the walk held
// (the explorer's c) count what CountChild and the full read count,
// reading no key twice; under a count budget every run stays within it
// and half a read unit, says it stopped until the level is counted, and
// the runs together count it exactly. Requests and RCU beside the full
// read are logged.
func TestLibraryLevels(t *testing.T) {
	ctx := context.Background()
	backends := libraryBackends(t)
	cases := []struct {
		table, index, pk, prefix string
	}{
		{"LibOneTable", "", "patient#1", ""},
		{"LibOneTable", "", "patient#1", "admission#"},
		{"LibOneTable", "gs1", "room#R3", ""},
		{"LibOneTable", "gs1", "room#R3", "admission#"},
		{"LibElectro", "", "$taskapp#project_p1", ""},
		{"LibElectro", "", "$taskapp#project_p1", "$board#"},
		{"LibElectro", "", "$taskapp#project_p1", "$board#task_1#"},
		{"LibElectro", "gsi1", "$taskapp#office_o1", ""},
		{"LibElectro", "gsi1", "$taskapp#office_o1", "$employee_1#"},
		{"LibToolbox", "", "USER#1", "ORDER#"},
		{"LibToolbox", "", "USER#2", ""},
		{"LibToolbox", "", "USER#2", "ORDER#"},
		{"LibToolbox", "", "USER#2", "ORDER#2020-09-02T04:00:00.000Z#"},
	}
	var figures []string
	for _, name := range []string{"dynalite", "memory", "moto"} {
		c := backends[name]
		for _, tc := range cases {
			names := tc.table
			if tc.index != "" {
				names += "." + tc.index
			}
			kn := libKeyNames[names]
			key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: kn[0], Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: kn[1], Type: domain.TypeS}}
			r := dynamo.ChildrenRequest{Table: tc.table, Index: tc.index, Key: key, PK: domain.S(tc.pk), Prefix: tc.prefix, Delim: "#"}
			if tc.index != "" {
				tk := libKeyNames[tc.table]
				r.TableKeys = &dynamo.KeySchema{PK: dynamo.KeyAttr{Name: tk[0], Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: tk[1], Type: domain.TypeS}}
			}
			label := fmt.Sprintf("%s %s %s %q", name, names, tc.pk, tc.prefix)

			// The full read: every item of the partition, its children
			// and their counts.
			full := &libSortKeys{billed: billed{Client: c}, skName: kn[1]}
			var want []domain.Child
			counts, at := map[string]int{}, map[string]int{}
			var start dynamo.Item
			for {
				p, err := dynamo.QueryPage(ctx, full, dynamo.PageRequest{Query: domain.KeyQuery{Table: tc.table, Index: tc.index, PKName: kn[0], PK: r.PK, SKName: kn[1]}, Start: start})
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range p.Items {
					child, leaf, ok := domain.ChildOf(tc.prefix, str(it, kn[1]), "#")
					if !ok {
						continue
					}
					i, seen := at[child]
					if !seen {
						i, at[child] = len(want), len(want)
						want = append(want, domain.Child{Name: child, Prefix: tc.prefix + child + "#"})
					}
					if leaf {
						want[i].IsItem = true
					} else {
						want[i].HasChildren = true
					}
					counts[child]++
				}
				if start = p.LastKey; !p.More() {
					break
				}
			}
			if len(want) == 0 {
				t.Fatalf("%s: a full read finds no child", label)
			}

			// The delimiter the keys tell, detected: '#', and the same
			// children.
			detect := r
			detect.Delim = ""
			if res, err := dynamo.Children(ctx, c, detect, nil); err != nil || res.Delim != "#" || sorted(res.Children) != sorted(want) {
				t.Errorf("%s: the delimiter detected %q (%v), children\n got %s\nwant %s", label, res.Delim, err, sorted(res.Children), sorted(want))
			}

			// The walk, holding its keys, then the count from them.
			walk := &libSortKeys{billed: billed{Client: c}, skName: kn[1]}
			held := r
			held.HoldKeys = dynamo.HeldKeysBytes
			res, err := dynamo.Children(ctx, walk, held, nil)
			if err != nil || sorted(res.Children) != sorted(want) {
				t.Fatalf("%s: children %v:\n got %s\nwant %s", label, err, sorted(res.Children), sorted(want))
			}
			// The level's last key may be read twice: a level whose first
			// probe is one child's reads its last key beside its second
			// read (last.go), which on a level of two children (onetable's
			// admission and patient, toolbox's ORDER and PROFILE) reads on
			// to it.
			if n, some := walk.twice(true); n > 0 {
				t.Errorf("%s: children read %d keys twice: %v", label, n, some)
			}
			walkReqs, walkRCU := walk.requests, walk.rcu
			heldFigure := "–"
			if seeded := res.Held.CountPass(held); seeded != nil {
				if over, err := seeded.Run(ctx, walk, 0, 0, nil); err != nil || over || !seeded.Done() {
					t.Fatalf("%s: count from the keys held: over %v, done %v, %v", label, over, seeded.Done(), err)
				}
				for child, n := range counts {
					if got, exact := seeded.Count(child); got != n || !exact {
						t.Errorf("%s: from the keys held, %q counted %d (exact %v), a full read counts %d", label, child, got, exact, n)
					}
				}
				if n, some := walk.twice(true); n > 0 {
					t.Errorf("%s: walk and count from the keys held read %d keys twice: %v", label, n, some)
				}
				heldFigure = fmt.Sprintf("%d / %.1f", walk.requests-walkReqs, walk.rcu-walkRCU)
			}

			// The one-pass count from nothing, and CountChild.
			k := &libSortKeys{billed: billed{Client: c}, skName: kn[1]}
			pass := dynamo.NewCountPass(r)
			if over, err := pass.Run(ctx, k, 0, 0, nil); err != nil || over || !pass.Done() {
				t.Fatalf("%s: count: over %v, done %v, %v", label, over, pass.Done(), err)
			}
			if got := sorted(pass.Result().Children); got != sorted(want) {
				t.Errorf("%s: the count's children\n got %s\nwant %s", label, got, sorted(want))
			}
			for _, ch := range want {
				got, exact := pass.Count(ch.Name)
				one, err := dynamo.CountChild(ctx, c, r, ch, nil)
				if err != nil || got != counts[ch.Name] || !exact || one != counts[ch.Name] {
					t.Errorf("%s: %q counted %d (exact %v), CountChild %d (%v), a full read %d", label, ch.Name, got, exact, one, err, counts[ch.Name])
				}
			}
			if n, some := k.twice(true); n > 0 {
				t.Errorf("%s: the count read %d keys twice: %v", label, n, some)
			}

			// Under a count budget: each run within it, stopped until the
			// level is counted, the runs together exact, no key twice.
			for _, budget := range []float64{0.5, 1, 2} {
				b := &libSortKeys{billed: billed{Client: c}, skName: kn[1]}
				pass := dynamo.NewCountPass(r)
				runs := 0
				for ; !pass.Done(); runs++ {
					before := b.rcu
					over, err := pass.Run(ctx, b, budget, 0, nil)
					if err != nil || b.rcu-before > budget+0.5 || over == pass.Done() || runs > 300 {
						t.Fatalf("%s, count budget %g: run %d over %v (done %v), %.1f RCU, %v", label, budget, runs+1, over, pass.Done(), b.rcu-before, err)
					}
				}
				for child, n := range counts {
					if got, exact := pass.Count(child); got != n || !exact {
						t.Errorf("%s, count budget %g: %q counted %d (exact %v), a full read %d", label, budget, child, got, exact, n)
					}
				}
				if n, some := b.twice(true); n > 0 {
					t.Errorf("%s, count budget %g: %d keys read twice over %d runs: %v", label, budget, n, runs, some)
				}
				if budget == 1 {
					figures = append(figures, fmt.Sprintf("| %s | %s %s `%s` | %d | %d / %.1f | %s | %d / %.1f | %d runs, %d / %.1f | %d / %.1f |",
						name, names, tc.pk, tc.prefix, len(want), walkReqs, walkRCU, heldFigure, k.requests, k.rcu, runs, b.requests, b.rcu, full.requests, full.rcu))
				}
			}
		}
	}
	t.Logf("| backend | level | children | walk req / RCU | c from the keys held req / RCU | --count req / RCU | --count-budget 1 | full read req / RCU |\n|---|---|---|---|---|---|---|---|\n%s", strings.Join(figures, "\n"))
}

// TestLibraryCustomerOrdersByPrefix: dynamodb-toolbox's customer
// partition (its PROFILE, six ADDRESS#… items, ten orders keyed
// ORDER#{iso}#{id}) holds times in only ten of its seventeen keys, and
// detection refused it by the two-thirds rule though a single-table
// design's partition is just that. Its prefixes decide: ORDER# holds a
// time in every key, PROFILE and ADDRESS# none, so the form is taken and
// those two named; a month's range lists the orders in it (exactly what a
// full read filtered by time lists), finding the prefix from the sample
// with no read past it. On dynalite and the embedded backend.
func TestLibraryCustomerOrdersByPrefix(t *testing.T) {
	srv := dynalitetest.Shared(t)
	writeWithLibrary(t, srv, "toolbox_shop.js", "LibToolboxShop")
	libMemOnce.Do(func() { libMem = memory.New() })
	copyTable(t, srv.Client(), libMem, "LibToolboxShop")
	for name, c := range map[string]dynamo.Client{"dynalite": srv.Client(), "memory": libMem} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			base := domain.KeyQuery{Table: "LibToolboxShop", PKName: "PK", PK: domain.S("CUST#c000"), SKName: "SK", Reverse: true}
			key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "SK", Type: domain.TypeS}}
			detect := dynamo.NewMetered(c)
			sample, _, err := dynamo.DetectTimeKeys(ctx, detect, base, nil)
			if err != nil || !sample.OK || sample.Enc.Name() != "prefix#2006-01-02T15:04:05.000Z07:00#…" ||
				strings.Join(sample.Timeless, " ") != "ADDRESS# PROFILE" || len(sample.Skipped) != 7 {
				t.Fatalf("detected %v %q, prefixes without time %q, %d keys skipped (%v)", sample.OK, sample.Enc.Name(), sample.Timeless, len(sample.Skipped), err)
			}
			ranged := dynamo.NewMetered(c)
			got, m := octoberKeys(t, ranged, base, key, sample, "SK", 100)
			want := "ORDER#2020-10-26T00:00:00.000Z#o004 ORDER#2020-10-17T00:00:00.000Z#o003 ORDER#2020-10-08T00:00:00.000Z#o002"
			if strings.Join(got, " ") != want || strings.Join(m.Prefixes, " ") != "ORDER#" || m.Found.Requests != 0 {
				t.Errorf("the month lists %v across %q (finding them: %d requests), want %s", got, m.Prefixes, m.Found.Requests, want)
			}
			dt, _ := detect.Session.Totals()
			rt, _ := ranged.Session.Totals()
			t.Logf("%s: detection %d requests %.1f RCU, range %d requests %.1f RCU", name, dt.Requests, dt.RCU, rt.Requests, rt.RCU)
		})
	}
}

// TestLibrarySensorTwoEpochForms: ElectroDB's sensor partition holds its
// readings keyed by epoch milliseconds ($sensor#reading_1#at_<ms>) and
// its alarms by epoch seconds ($sensor#alarm_1#raiseds_<s>): detection
// refused "times in more than one form", though each prefix holds one.
// Each prefix is read in its own form: a month's range lists readings and
// alarms merged by time, newest first, exactly what a full read filtered
// by each key's own time lists, the sensor item named as holding no time,
// and the range costs no more than reading the partition once. On
// dynalite and the embedded backend.
func TestLibrarySensorTwoEpochForms(t *testing.T) {
	srv := dynalitetest.Shared(t)
	writeWithLibrary(t, srv, "electrodb_sensor.js", "LibSensors")
	libMemOnce.Do(func() { libMem = memory.New() })
	copyTable(t, srv.Client(), libMem, "LibSensors")
	for name, c := range map[string]dynamo.Client{"dynalite": srv.Client(), "memory": libMem} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			base := domain.KeyQuery{Table: "LibSensors", PKName: "pk", PK: domain.S("$iot#sensor_sn0"), SKName: "sk", Reverse: true}
			key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "pk", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "sk", Type: domain.TypeS}}
			detect := dynamo.NewMetered(c)
			sample, _, err := dynamo.DetectTimeKeys(ctx, detect, base, nil)
			if err != nil || !sample.OK || sample.Enc.Forms == nil || len(sample.Enc.Forms.List) != 2 || strings.Join(sample.Timeless, " ") != "$sensor#sensor_" {
				t.Fatalf("detected %v %q, prefixes without time %q (%v)", sample.OK, sample.Enc.Name(), sample.Timeless, err)
			}
			ranged := dynamo.NewMetered(c)
			got, _ := octoberKeys(t, ranged, base, key, sample, "sk", 1000)
			r, _ := domain.ParseRange("2020-10", time.Now(), time.UTC) // the oracle's
			// The oracle: each key's own time, read from its digits.
			type keyed struct {
				at time.Time
				sk string
			}
			var want []keyed
			full := dynamo.NewMetered(c)
			var start dynamo.Item
			for {
				page, err := dynamo.QueryPage(ctx, full, dynamo.PageRequest{Query: base, Start: start})
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range page.Items {
					kv, _ := dynamo.KeyValueOf(it["sk"])
					var at time.Time
					if ms, ok := strings.CutPrefix(kv.Text, "$sensor#reading_1#at_"); ok {
						n, _ := strconv.ParseInt(ms, 10, 64)
						at = time.UnixMilli(n)
					} else if s, ok := strings.CutPrefix(kv.Text, "$sensor#alarm_1#raiseds_"); ok {
						n, _ := strconv.ParseInt(s, 10, 64)
						at = time.Unix(n, 0)
					} else {
						continue
					}
					if !at.Before(r.From) && !at.After(r.To) {
						want = append(want, keyed{at, kv.Text})
					}
				}
				if start = page.LastKey; !page.More() {
					break
				}
			}
			slices.SortStableFunc(want, func(a, b keyed) int { return b.at.Compare(a.at) })
			wantKeys := make([]string, 0, len(want))
			alarms := 0
			for _, w := range want {
				wantKeys = append(wantKeys, w.sk)
				if strings.Contains(w.sk, "#alarm_") {
					alarms++
				}
			}
			if strings.Join(got, " ") != strings.Join(wantKeys, " ") || len(got) < 20 || alarms < 5 {
				t.Errorf("the month lists %d keys, the filtered full read %d (%d alarms):\n%v\n%v", len(got), len(wantKeys), alarms, got, wantKeys)
			}
			dt, _ := detect.Session.Totals()
			rt, _ := ranged.Session.Totals()
			ft, _ := full.Session.Totals()
			// Detection is its two keys-only reads, as on any partition.
			if rt.RCU > ft.RCU || dt.Requests != 2 {
				t.Errorf("the range %.1f RCU cost more than reading the partition once (%.1f), or detection %d requests", rt.RCU, ft.RCU, dt.Requests)
			}
			t.Logf("%s: detection %d requests %.1f RCU, range %d requests %.1f RCU, full read %d requests %.1f RCU", name, dt.Requests, dt.RCU, rt.Requests, rt.RCU, ft.Requests, ft.RCU)
		})
	}
}

// octoberKeys reads October 2020's range of base through c, as range does
// (RangeAcross, the prefixes found by a walk), up to n items, and returns
// their sort keys (attribute sk) in the order read, and the range.
func octoberKeys(t *testing.T, c dynamo.Client, base domain.KeyQuery, key dynamo.KeySchema, sample dynamo.TimeSample, sk string, n int) ([]string, *dynamo.MergedRange) {
	t.Helper()
	ctx := context.Background()
	r, _ := domain.ParseRange("2020-10", time.Now(), time.UTC)
	m, err := dynamo.RangeAcross(ctx, c, dynamo.ChildrenRequest{Table: base.Table, Key: key, PK: base.PK}, base, r, sample.Enc, 0, nil, sample)
	if err != nil {
		t.Fatal(err)
	}
	items, err := m.Take(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range items {
		kv, _ := dynamo.KeyValueOf(it[sk])
		got = append(got, kv.Text)
	}
	return got, m
}

// TestLibraryElectroRevisionsAndCollection: ElectroDB's keys as it writes
// them on its own. A page's revisions under the model's version
// ($page_1#rev_0…5): versions suggested no --version-pattern, as the
// version's 1 was taken for the counter; the pattern it suggests now,
// $page_1#rev_{n}, reads the current copy and its five revisions. A
// clustered collection on gsi3 (the employee's $assignments#employee_1
// first, then its tasks by status and due time): the time is found, the
// employee's key the one skipped as holding none, and a month's range is what a full
// read filtered by time lists. On dynalite and the embedded backend.
func TestLibraryElectroRevisionsAndCollection(t *testing.T) {
	srv := dynalitetest.Shared(t)
	writeWithLibrary(t, srv, "electrodb_wiki.js", "LibWiki")
	libMemOnce.Do(func() { libMem = memory.New() })
	copyTable(t, srv.Client(), libMem, "LibWiki")
	ctx := context.Background()
	for name, c := range map[string]dynamo.Client{"dynalite": srv.Client(), "memory": libMem} {
		t.Run(name, func(t *testing.T) {
			key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "pk", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "sk", Type: domain.TypeS}}
			page := domain.KeyQuery{Table: "LibWiki", PKName: "pk", PK: domain.S("$wiki#pageid_p1"), SKName: "sk"}
			read, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: page, Limit: 100, KeysOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, it := range read.Items {
				kv, _ := dynamo.KeyValueOf(it["sk"])
				keys = append(keys, kv.Text)
			}
			suggested := domain.SuggestVersionPattern(keys, "#")
			pattern, err := domain.ParseVersionPattern(suggested)
			if err != nil {
				t.Fatalf("%q suggests %q: %v", keys, suggested, err)
			}
			res, err := dynamo.Versions(ctx, c, dynamo.VersionsRequest{Table: "LibWiki", Key: key, PK: page.PK, Pattern: pattern}, nil)
			want := ` current=$page_1#rev_0 revisions=5 latest=$page_1#rev_5 drift=[]`
			if err != nil || len(res.Histories) != 1 || summary(res.Histories[0]) != want {
				var got []string
				for _, h := range res.Histories {
					got = append(got, summary(h))
				}
				t.Errorf("%q read by the suggested %q: %q (%v), want %q", keys, suggested, got, err, want)
			}

			gsi := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "gsi3pk", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "gsi3sk", Type: domain.TypeS}}
			base := domain.KeyQuery{Table: "LibWiki", Index: "gsi3", PKName: "gsi3pk", PK: domain.S("$taskapp#employee_e0"), SKName: "gsi3sk", Reverse: true}
			sample, _, err := dynamo.DetectTimeKeys(ctx, c, base, &key)
			if err != nil || !sample.OK || strings.Join(sample.Skipped, " ") != "$assignments#employee_1" {
				t.Fatalf("detected %v %q, keys skipped %q (%v)", sample.OK, sample.Enc.Name(), sample.Skipped, err)
			}
			r, _ := domain.ParseRange("2020-10", time.Now(), time.UTC)
			prefixes, _, err := dynamo.TimePrefixes(ctx, c, dynamo.ChildrenRequest{Table: "LibWiki", Index: "gsi3", Key: gsi, TableKeys: &key, PK: base.PK}, sample.Enc, sample)
			if err != nil {
				t.Fatal(err)
			}
			m, err := dynamo.NewMergedRange(c, base, prefixes, r, sample.Enc, 0, &key)
			if err != nil {
				t.Fatal(err)
			}
			items, err := m.Take(ctx, 1000)
			if err != nil {
				t.Fatal(err)
			}
			got := sortKeyTexts(items, "gsi3sk")
			wantKeys := inRangeKeys(t, c, base, sample.Enc, r, "gsi3sk")
			if strings.Join(got, " ") != strings.Join(wantKeys, " ") || len(got) != 7 {
				t.Errorf("the month lists %d keys, the filtered full read %d, want 7:\n%v\n%v", len(got), len(wantKeys), got, wantKeys)
			}
		})
	}
}

// TestLibraryMarks: dynamodb-toolbox keys cut by marks outside the usual
// delimiters, as its users write them: a site's devices (dev§d0) beside
// its readings (evt§2026-08-01T00:00:00Z#d0), a log keyed log→{iso}, and
// configurations with revisions {name}::v{n}. The tree is cut at the
// mark (it was '#' for the site, a child for each reading's time, and '-'
// for the log, the time cut into year, month and day), and the revisions
// read as {name}::v{n} of net and power (it was {name}:v{n} of "net:").
// On dynalite and the embedded backend.
func TestLibraryMarks(t *testing.T) {
	srv := dynalitetest.Shared(t)
	writeWithLibrary(t, srv, "toolbox_marks.js", "LibToolboxMarks")
	libMemOnce.Do(func() { libMem = memory.New() })
	copyTable(t, srv.Client(), libMem, "LibToolboxMarks")
	for name, c := range map[string]dynamo.Client{"dynalite": srv.Client(), "memory": libMem} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			for _, tc := range []struct{ pk, delim, children string }{
				{"SITE§s0", "§", "dev evt"},
				{"LOG→s0", "→", "log"},
				{"CFG::s0", "::", "net power"},
			} {
				res, err := dynamo.Children(ctx, c, dynamo.ChildrenRequest{Table: "LibToolboxMarks", Key: equipmentKey, PK: domain.S(tc.pk)}, nil)
				var names []string
				for _, ch := range res.Children {
					names = append(names, ch.Name)
				}
				if err != nil || res.Delim != tc.delim || strings.Join(names, " ") != tc.children {
					t.Errorf("%s: cut at %q into %q (%v), want %q into %q", tc.pk, res.Delim, names, err, tc.delim, tc.children)
				}
			}
			// toolbox's own times (_ct, _md) differ between any two
			// copies: left out as drift_ignore would.
			res, err := dynamo.Versions(ctx, c, dynamo.VersionsRequest{Table: "LibToolboxMarks", Key: equipmentKey, PK: domain.S("CFG::s0"), Ignore: []string{"_ct", "_md"}}, nil)
			var got []string
			for _, h := range res.Histories {
				got = append(got, summary(h))
			}
			want := "net current=net::v0 revisions=3 latest=net::v3 drift=[]\npower current=power::v0 revisions=4 latest=power::v4 drift=[]"
			if err != nil || res.Pattern == nil || res.Pattern.String() != "{name}::v{n}" || strings.Join(got, "\n") != want {
				t.Errorf("versions %v: %q, want {name}::v{n} and %q (%v)", res.Pattern, got, want, err)
			}
		})
	}
}

// TestLibraryPoliciesPastEvents: dynamodb-onetable's Policy#terms_v2
// revisions sort after an account's 130 Event#{epoch-ms}#… keys: versions
// looked in the first 100 keys alone and found none. It reads a page past
// the events' level and finds both policies, current copy and revisions,
// on dynalite and the embedded backend.
func TestLibraryPoliciesPastEvents(t *testing.T) {
	srv := dynalitetest.Shared(t)
	writeWithLibrary(t, srv, "onetable_policies.js", "LibOneTablePolicies")
	libMemOnce.Do(func() { libMem = memory.New() })
	copyTable(t, srv.Client(), libMem, "LibOneTablePolicies")
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "pk", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "sk", Type: domain.TypeS}}
	for name, c := range map[string]dynamo.Client{"dynalite": srv.Client(), "memory": libMem} {
		t.Run(name, func(t *testing.T) {
			res, err := dynamo.Versions(context.Background(), c, dynamo.VersionsRequest{Table: "LibOneTablePolicies", Key: key, PK: domain.S("Account#a1")}, nil)
			var got []string
			for _, h := range res.Histories {
				got = append(got, summary(h))
			}
			want := "Policy#privacy current=Policy#privacy_v0 revisions=2 latest=Policy#privacy_v2 drift=[]\nPolicy#terms current=Policy#terms_v0 revisions=3 latest=Policy#terms_v3 drift=[]"
			if err != nil || res.Pattern == nil || res.Pattern.String() != "{name}_v{n}" || strings.Join(got, "\n") != want {
				t.Errorf("versions %v: %q (%s), want {name}_v{n} and %q (%v)", res.Pattern, got, res.Found, want, err)
			}
		})
	}
}

// TestLibraryElectroTextRevisions: ElectroDB keeps a composite attribute
// beside the key it builds: a document's rev VERSION#0003 is its sort
// key's $doc_2#rev_version#0003 again, as data. Read by the pattern
// versions suggests, the current copy that equals the newest revision
// drifted "by rev", as every such document did; it is the key's own
// number. On dynalite and the embedded backend.
func TestLibraryElectroTextRevisions(t *testing.T) {
	srv := dynalitetest.Shared(t)
	writeWithLibrary(t, srv, "electrodb_docs.js", "LibElectroDocs")
	libMemOnce.Do(func() { libMem = memory.New() })
	copyTable(t, srv.Client(), libMem, "LibElectroDocs")
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "pk", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "sk", Type: domain.TypeS}}
	for name, c := range map[string]dynamo.Client{"dynalite": srv.Client(), "memory": libMem} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			found, err := dynamo.Versions(ctx, c, dynamo.VersionsRequest{Table: "LibElectroDocs", Key: key, PK: domain.S("$shop#docid_d1")}, nil)
			suggested := domain.SuggestVersionPattern(found.Sample, "#")
			pattern, perr := domain.ParseVersionPattern(suggested)
			if err != nil || perr != nil || suggested != "$doc_2#rev_version#{n}" {
				t.Fatalf("suggested %q from %q (%v %v)", suggested, found.Sample, err, perr)
			}
			res, err := dynamo.Versions(ctx, c, dynamo.VersionsRequest{Table: "LibElectroDocs", Key: key, PK: domain.S("$shop#docid_d1"), Pattern: pattern}, nil)
			want := " current=$doc_2#rev_version#0000 revisions=3 latest=$doc_2#rev_version#0003 drift=[]"
			if err != nil || len(res.Histories) != 1 || summary(res.Histories[0]) != want {
				var got []string
				for _, h := range res.Histories {
					got = append(got, summary(h))
				}
				t.Errorf("read by %s: %q (%v), want %q", suggested, got, err, want)
			}
		})
	}
}

// TestLibraryElectroLinesBesideOrders: ElectroDB's customer, orders keyed
// by time and their lines (no time) in one partition. Detection names
// $account#line_ as holding no time, left out of ranges; the walk for
// the time's prefixes left it in, as $account#line_1#orderid_, whose
// Query of a month found nothing (a read billed for nothing on
// DynamoDB). A month's range reads the orders' prefix alone and lists
// what a full read filtered by time lists. On dynalite and the embedded
// backend.
func TestLibraryElectroLinesBesideOrders(t *testing.T) {
	srv := dynalitetest.Shared(t)
	writeWithLibrary(t, srv, "electrodb_shop.js", "LibElectroShop")
	libMemOnce.Do(func() { libMem = memory.New() })
	copyTable(t, srv.Client(), libMem, "LibElectroShop")
	ctx := context.Background()
	for name, c := range map[string]dynamo.Client{"dynalite": srv.Client(), "memory": libMem} {
		for _, reverse := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/newest-first=%v", name, reverse), func(t *testing.T) {
				base := domain.KeyQuery{Table: "LibElectroShop", PKName: "pk", PK: domain.S("$shop#customerid_c5"), SKName: "sk", Reverse: reverse}
				ranged := dynamo.NewMetered(c)
				sample, r, m, items := shopRange(t, ranged, base, "2026-08")
				got := sortKeyTexts(items, "sk")
				full := dynamo.NewMetered(c)
				want := inRangeKeys(t, full, base, sample.Enc, r, "sk")
				if len(want) == 0 || strings.Join(got, " ") != strings.Join(want, " ") || strings.Join(m.Prefixes, " ") != "$account#order_1#placedat_" {
					t.Errorf("the month lists %d across %q, the filtered full read %d", len(got), m.Prefixes, len(want))
				}
				// Detection and the range together cost no more than reading
				// the partition once: the oldest keys are timeless lines, the
				// newest orders, and one keys-only read of the gap between
				// the lines and the orders finds no other prefix, so no walk
				// reads the orders' keys again (it took 5 more requests and 4
				// RCU, 7.5 in all beside the full read's 4.5), and the month
				// is one Query of the orders (the page of the newest 100 keys
				// that stood in for the walk took 3.5 RCU in 3 requests).
				rt, _ := ranged.Session.Totals()
				ft, _ := full.Session.Totals()
				if rt.RCU > ft.RCU || rt.Requests > 4 {
					t.Errorf("detection and the range: %d requests %.1f RCU, the full read %d requests %.1f RCU", rt.Requests, rt.RCU, ft.Requests, ft.RCU)
				}
				// From the other end, one Query of the orders' month.
				back, err := m.FromEnd(0).Take(ctx, 1000)
				if err != nil || len(back) != len(items) {
					t.Fatalf("from the end: %d items (%v), %d read", len(back), err, len(items))
				}
				for i := range back {
					a, _ := dynamo.KeyValueOf(back[i]["sk"])
					b, _ := dynamo.KeyValueOf(items[len(items)-1-i]["sk"])
					if a.Text != b.Text {
						t.Errorf("from the end, item %d is %q, not %q", i, a.Text, b.Text)
					}
				}
				if after, _ := ranged.Session.Totals(); after.Requests > rt.Requests+1 {
					t.Errorf("from the end: %d more requests", after.Requests-rt.Requests)
				}
			})
		}
	}
}

// TestLibraryElectroRichShopRangeCostsAFullRead: ElectroDB's shop grown
// as shops are (orders with a status, a note and a sparse index: twice
// the weight), where a page sized from the sample stops among the orders
// before the timeless lines. A time range, newest or oldest first, of a
// month, before, after, between and of a year, lists what a full read
// filtered by time lists, and detection and the range together cost no
// more than that full read, as DynamoDB bills it (at least 0.5 a read),
// in 4 requests, reading again none of the keys detection read but the
// newest 20 where the range holds them (one sample read's worth). It
// took 9 requests and 9.5 RCU for the month: the page re-read the sample's
// newest keys and the children walk all 95 orders' keys again.
func TestLibraryElectroRichShopRangeCostsAFullRead(t *testing.T) {
	srv := dynalitetest.Shared(t)
	writeWithLibrary(t, srv, "electrodb_shop_rich.js", "LibElectroShopRich")
	libMemOnce.Do(func() { libMem = memory.New() })
	copyTable(t, srv.Client(), libMem, "LibElectroShopRich")
	for _, name := range []string{"dynalite", "memory"} {
		c := map[string]dynamo.Client{"dynalite": srv.Client(), "memory": libMem}[name]
		for _, text := range []string{"2026-08", "before 2026-07-01", "after 2027-04-01", "between 2026-08-30 and 2026-11-28", "2027"} {
			for _, reverse := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/newest-first=%v", name, text, reverse), func(t *testing.T) {
					base := domain.KeyQuery{Table: "LibElectroShopRich", PKName: "pk", PK: domain.S("$shop#customerid_c5"), SKName: "sk", Reverse: reverse}
					rec := &libSortKeys{billed: billed{Client: c}, skName: "sk"}
					sample, r, m, items := shopRange(t, rec, base, text)
					full := &billed{Client: c}
					want := inRangeKeys(t, full, base, sample.Enc, r, "sk")
					got := sortKeyTexts(items, "sk")
					if len(want) == 0 || strings.Join(got, " ") != strings.Join(want, " ") || strings.Join(m.Prefixes, " ") != "$account#order_1#placedat_" {
						t.Errorf("the range lists %d across %q, the filtered full read %d", len(got), m.Prefixes, len(want))
					}
					twice, some := rec.twice(false)
					t.Logf("detection and the range: %d requests %.1f RCU, %d keys read twice; the full read %d requests %.1f RCU", rec.requests, rec.rcu, twice, full.requests, full.rcu)
					if rec.rcu > full.rcu || rec.requests > 4 || twice > dynamo.TimeSampleKeys {
						t.Errorf("detection and the range: %d requests %.1f RCU, %d keys read twice (%q); the full read %d requests %.1f RCU", rec.requests, rec.rcu, twice, some, full.requests, full.rcu)
					}
				})
			}
		}
	}
}

// shopRange detects the time of an ElectroDB shop customer's partition
// (base, read through c) and reads the range text across its prefixes:
// the sample, the range, the merge and the items it listed.
func shopRange(t *testing.T, c dynamo.Client, base domain.KeyQuery, text string) (dynamo.TimeSample, domain.TimeRange, *dynamo.MergedRange, []dynamo.Item) {
	t.Helper()
	ctx := context.Background()
	sample, _, err := dynamo.DetectTimeKeys(ctx, c, base, nil)
	if err != nil || !sample.OK || !slices.Contains(sample.Timeless, "$account#line_") {
		t.Fatalf("detected %v %q, prefixes without time %q (%v)", sample.OK, sample.Enc.Name(), sample.Timeless, err)
	}
	r, err := domain.ParseRange(text, time.Now(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "pk", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "sk", Type: domain.TypeS}}
	m, err := dynamo.RangeAcross(ctx, c, dynamo.ChildrenRequest{Table: base.Table, Key: key, PK: base.PK}, base, r, sample.Enc, 0, nil, sample)
	if err != nil {
		t.Fatal(err)
	}
	items, err := m.Take(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return sample, r, m, items
}

// inRangeKeys are the sort keys (skName) of base's partition whose time
// in enc lies in r, in base's order: the test's own full read, filtered.
func inRangeKeys(t *testing.T, c dynamo.Client, base domain.KeyQuery, enc domain.TimeEncoding, r domain.TimeRange, skName string) []string {
	t.Helper()
	var keys []string
	var start dynamo.Item
	for {
		page, err := dynamo.QueryPage(context.Background(), c, dynamo.PageRequest{Query: base, Start: start})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			kv, _ := dynamo.KeyValueOf(it[skName])
			if at, ok := enc.KeyTime(kv.Text); ok && r.Holds(at) {
				keys = append(keys, kv.Text)
			}
		}
		if start = page.LastKey; !page.More() {
			return keys
		}
	}
}

// sortKeyTexts are the items' sort keys (skName) as text, in order.
func sortKeyTexts(items []dynamo.Item, skName string) []string {
	keys := make([]string, 0, len(items))
	for _, it := range items {
		kv, _ := dynamo.KeyValueOf(it[skName])
		keys = append(keys, kv.Text)
	}
	return keys
}
