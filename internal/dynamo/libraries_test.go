package dynamo_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// TestLibraryLayouts: tables written by dynamodb-onetable (a Date inside
// a text key: admission#1601700180000#R8), ElectroDB (lower-cased ISO
// times after field names: $employee_1#hired_2020-09-01t00:00:00.000z#…,
// and __edb_e__) and dynamodb-toolbox (ORDER#2020-09-01T00:00:00.000Z#o000,
// its entity in _et) are read as their libraries wrote them, on dynalite and
// the embedded backend and moto: the time detected, a month's range exactly what a
// full read filtered by time lists, the entity types by discriminator.
// The requests and RCU are logged for the record.
func TestLibraryLayouts(t *testing.T) {
	srv := dynalitetest.Shared(t)
	writeWithLibrary(t, srv, "onetable.js", "LibOneTable")
	writeWithLibrary(t, srv, "electrodb.js", "LibElectro")
	writeWithLibrary(t, srv, "toolbox.js", "LibToolbox")
	mem := memory.New()
	moto := mototest.Shared(t).Client()
	for _, table := range []string{"LibOneTable", "LibElectro", "LibToolbox"} {
		copyTable(t, srv.Client(), mem, table)
		copyTable(t, srv.Client(), moto, table)
	}
	var figures []string
	for _, name := range []string{"dynalite", "memory", "moto"} {
		c := map[string]dynamo.Client{"dynalite": srv.Client(), "memory": mem, "moto": moto}[name]
		for _, tc := range []struct {
			shape, table, index, pkName, skName, pk, enc string
			inMonth                                      int
		}{
			{"onetable admission#{epoch-ms}#room", "LibOneTable", "", "pk", "sk", "patient#1", "prefix#epoch milliseconds#…", 30},
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
			want := 0
			var start dynamo.Item
			for {
				page, err := dynamo.QueryPage(ctx, full, dynamo.PageRequest{Query: base, Start: start})
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range page.Items {
					kv, _ := dynamo.KeyValueOf(it[tc.skName])
					if at, ok := sample.Enc.KeyTime(kv.Text); ok && !at.Before(r.From) && !at.After(r.To) {
						want++
					}
				}
				if start = page.LastKey; !page.More() {
					break
				}
			}
			if len(items) != tc.inMonth || want != tc.inMonth {
				t.Errorf("%s %s: the range lists %d, the filtered full read %d, want %d", name, tc.shape, len(items), want, tc.inMonth)
			}
			dt, _ := detect.Session.Totals()
			rt, _ := ranged.Session.Totals()
			ft, _ := full.Session.Totals()
			figures = append(figures, fmt.Sprintf("| %s | %s | %s | %d | %d / %.1f | %d / %.1f | %d / %.1f |", name, tc.shape, sample.Enc.TimeFormat(), len(items), dt.Requests, dt.RCU, rt.Requests, rt.RCU, ft.Requests, ft.RCU))
		}
		for _, tc := range []struct{ table, want string }{
			{"LibOneTable", "Admission=60 by _type, Patient=1 by _type"},
			{"LibElectro", "employee=60 by __edb_e__, office=3 by __edb_e__"},
			{"LibToolbox", "Order=60 by _et, User=1 by _et"},
		} {
			keys := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "pk", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "sk", Type: domain.TypeS}}
			if tc.table == "LibToolbox" {
				keys = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "SK", Type: domain.TypeS}}
			}
			res, err := dynamo.ReadEntities(context.Background(), c, dynamo.EntitiesRequest{Table: tc.table, Key: keys, MaxRCU: 100})
			var got []string
			for _, e := range res.Entities {
				got = append(got, fmt.Sprintf("%s=%d by %s", e.Name, e.Count, e.Discriminator))
			}
			if err != nil || strings.Join(got, ", ") != tc.want || res.Sampled {
				t.Errorf("%s %s entities: %s (%v), want %s", name, tc.table, strings.Join(got, ", "), err, tc.want)
			}
		}
	}
	t.Logf("| backend | layout | template read | items in 2020-10 | detection req / RCU | range req / RCU | full read req / RCU |\n|---|---|---|---|---|---|---|\n%s", strings.Join(figures, "\n"))
}
