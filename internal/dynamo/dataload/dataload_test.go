package dataload_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dataload"
	"github.com/dynascope/dynascope/internal/dynamo/dataload/dataloadtest"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// demoExport writes one demo table as an export folder (three parts,
// shuffled) and its describe-table schema, returning both paths.
func demoExport(t *testing.T, dir string, def *dynamodb.CreateTableInput) (folder, schema string) {
	t.Helper()
	name := aws.ToString(def.TableName)
	folder = filepath.Join(dir, name)
	items := func(yield func(map[string]types.AttributeValue) error) error {
		return demo.Items(name, func(it demo.Item) error { return yield(it) })
	}
	if _, err := dataloadtest.WriteExport(folder, name, items, dataloadtest.ExportOptions{Parts: 3, Seed: uint64(len(name))}); err != nil {
		t.Fatal(err)
	}
	b, err := dataloadtest.SchemaJSON(def)
	if err != nil {
		t.Fatal(err)
	}
	schema = filepath.Join(dir, name+".schema.json")
	if err := os.WriteFile(schema, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return folder, schema
}

func scanAll(t *testing.T, db *memory.DB, table, index string) []string {
	t.Helper()
	var out []string
	in := &dynamodb.ScanInput{TableName: aws.String(table)}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	for {
		page, err := db.Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			b, _ := dataload.MarshalItem(it)
			out = append(out, string(b))
		}
		if page.LastEvaluatedKey == nil {
			return out
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
}

// TestExportOfTheDemoLoadsAsTheDemo loads every demo table from an export
// folder and requires every table and index to scan exactly as the demo's.
func TestExportOfTheDemoLoadsAsTheDemo(t *testing.T) {
	ctx := context.Background()
	want, err := demo.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db := memory.New()
	var progress []dataload.Progress
	for _, def := range demo.Tables() {
		folder, schemaPath := demoExport(t, dir, def)
		b, _ := os.ReadFile(schemaPath)
		sc, err := dataload.ParseSchema(b)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dataload.Load(ctx, db, []string{folder}, dataload.Options{Schemas: []dataload.Schema{sc}, Progress: func(p dataload.Progress) { progress = append(progress, p) }}); err != nil {
			t.Fatal(err)
		}
	}
	if last := progress[len(progress)-1]; !last.Done || last.Items == 0 {
		t.Errorf("last progress %+v, want Done with items", last)
	}
	for _, def := range demo.Tables() {
		name := aws.ToString(def.TableName)
		indexes := []string{""}
		for _, g := range def.GlobalSecondaryIndexes {
			indexes = append(indexes, aws.ToString(g.IndexName))
		}
		for _, l := range def.LocalSecondaryIndexes {
			indexes = append(indexes, aws.ToString(l.IndexName))
		}
		for _, ix := range indexes {
			got, exp := scanAll(t, db, name, ix), scanAll(t, want, name, ix)
			if !reflect.DeepEqual(got, exp) {
				t.Errorf("%s %s: %d items scanned, want the demo's %d in the same order", name, ix, len(got), len(exp))
			}
		}
		gd, _ := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: def.TableName})
		wd, _ := want.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: def.TableName})
		if *gd.Table.ItemCount != *wd.Table.ItemCount || *gd.Table.TableSizeBytes != *wd.Table.TableSizeBytes {
			t.Errorf("%s: %d items, %d bytes; the demo has %d, %d", name, *gd.Table.ItemCount, *gd.Table.TableSizeBytes, *wd.Table.ItemCount, *wd.Table.TableSizeBytes)
		}
	}
}

func TestWorkbenchModel(t *testing.T) {
	ctx := context.Background()
	db := memory.New()
	res, err := dataload.Load(ctx, db, []string{"testdata/shop.workbench.json"}, dataload.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Tables, []string{"Shop", "Sessions"}) || res.Items != 9 {
		t.Fatalf("loaded %v, %d items; want Shop and Sessions, 9 items", res.Tables, res.Items)
	}
	q, err := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Shop"), IndexName: aws.String("GSI1"),
		KeyConditionExpression: aws.String("GSI1PK = :p"), ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "STATUS#PENDING"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Items) != 2 {
		t.Errorf("GSI1 STATUS#PENDING: %d items, want 2", len(q.Items))
	}
	d, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Sessions")})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Table.GlobalSecondaryIndexes) != 1 || d.Table.GlobalSecondaryIndexes[0].Projection.ProjectionType != types.ProjectionTypeKeysOnly {
		t.Errorf("Sessions indexes %+v, want ByDevice KEYS_ONLY", d.Table.GlobalSecondaryIndexes)
	}
}

// TestWireIsWhatDataReads: the DynamoDB JSON dynascope writes (an item
// copied from the explorer, changes output) is what --data writes and
// reads, for every type: a NULL was {"NULL": null}, which DynamoDB and
// --data refuse.
func TestWireIsWhatDataReads(t *testing.T) {
	item := map[string]types.AttributeValue{
		"s": &types.AttributeValueMemberS{Value: "x"}, "n": &types.AttributeValueMemberN{Value: "-0.50"},
		"b": &types.AttributeValueMemberB{Value: []byte{0, 255}}, "t": &types.AttributeValueMemberBOOL{Value: true},
		"z": &types.AttributeValueMemberNULL{Value: true}, "ss": &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"ns": &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}}, "bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
		"m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"z": &types.AttributeValueMemberNULL{Value: true}}},
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberN{Value: "1"}}},
	}
	want, err := dataload.MarshalItem(item)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(dynamo.WireItem(item))
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal(want, &b) != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("dynamo.WireItem writes\n%s\n--data writes\n%s", got, want)
	}
}

func TestScanOutput(t *testing.T) {
	ctx := context.Background()
	var items []map[string]types.AttributeValue
	demo.Items("Documents", func(it demo.Item) error { items = append(items, it); return nil })
	dir := t.TempDir()
	pages := filepath.Join(dir, "Documents")
	files, err := dataloadtest.WriteScan(pages, items, 7)
	if err != nil {
		t.Fatal(err)
	}
	keys, _ := dataload.ParseKeys("DocumentID:S,DocumentInfo:S")
	// A folder of pages, one page, and pages concatenated in one file.
	joined := filepath.Join(dir, "joined.json")
	var all []byte
	for _, f := range files {
		b, _ := os.ReadFile(f)
		all = append(all, b...)
	}
	os.WriteFile(joined, all, 0o644)
	for _, c := range []struct {
		path, table string
		items       int
	}{{pages, "Documents", len(items)}, {files[0], "page-001", 7}, {joined, "joined", len(items)}} {
		db := memory.New()
		res, err := dataload.Load(ctx, db, []string{c.path}, dataload.Options{Keys: &keys})
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if res.Items != c.items || !reflect.DeepEqual(res.Tables, []string{c.table}) {
			t.Errorf("%s: %d items into %v, want %d into %s", c.path, res.Items, res.Tables, c.items, c.table)
		}
	}
}

func gz(t *testing.T, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(text))
	zw.Close()
	return b.Bytes()
}

// TestBadInput: every refusal names the file (and the line where there is
// one) and says what to do; --skip-bad loads the rest and counts.
func TestBadInput(t *testing.T) {
	keys, _ := dataload.ParseKeys("PK:S,SK:S")
	good := `{"Item":{"PK":{"S":"a"},"SK":{"S":"1"}}}` + "\n"
	for _, c := range []struct {
		name    string
		files   map[string][]byte // written under a fresh folder; the first key is loaded unless path is set
		path    string
		opts    dataload.Options
		want    string // in the error
		skipped int    // with SkipBad, when > 0
	}{
		{name: "malformed line", files: map[string][]byte{"Orders.json": []byte(good + good + `{"Item":{"PK":{"S":"b"},` + "\n" + good)},
			want: "Orders.json:3: malformed JSON", skipped: 1},
		{name: "no key attribute", files: map[string][]byte{"Orders.json": []byte(good + `{"Item":{"PK":{"S":"b"}}}` + "\n")},
			want: "Orders.json:2: the item has no key attribute SK (S)", skipped: 1},
		{name: "key of the wrong type", files: map[string][]byte{"Orders.json": []byte(`{"Item":{"PK":{"N":"1"},"SK":{"S":"1"}}}` + "\n")},
			want: "Orders.json:1: key attribute PK is of type N, the key schema says S", skipped: 1},
		{name: "value without a type", files: map[string][]byte{"Orders.json": []byte(good + `{"Item":{"PK":{"S":"b"},"SK":{"S":"2"},"x":{}}}` + "\n")},
			want: `Orders.json:2: attribute "x": no type`, skipped: 1},
		{name: "bad number", files: map[string][]byte{"Orders.json": []byte(`{"Item":{"PK":{"S":"b"},"SK":{"S":"2"},"x":{"N":"12abc"}}}` + "\n")},
			want: `Orders.json:1: attribute "x": "12abc" is not a number`, skipped: 1},
		{name: "empty key string", files: map[string][]byte{"Orders.json": []byte(good + `{"Item":{"PK":{"S":""},"SK":{"S":"2"}}}` + "\n")},
			want: "Orders.json:2: ", skipped: 1},
		{name: "gzip cut short", files: map[string][]byte{"Orders.json.gz": gz(t, strings.Repeat(good, 500))[:200]},
			want: "Orders.json.gz:", skipped: -1},
		{name: "not gzip after the magic", files: map[string][]byte{"Orders.json.gz": {0x1f, 0x8b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
			want: "Orders.json.gz: gzip:", skipped: -1},
		{name: "no key schema", files: map[string][]byte{"Orders.json": []byte(good + `{"Item":{"PK":{"S":"b"},"SK":{"S":"2"},"N":{"N":"1"}}}` + "\n")},
			opts: dataload.Options{}, want: "table Orders has no key schema — give --keys NAME:TYPE[,NAME:TYPE] or --schema FILE (aws dynamodb describe-table output); attributes in every item: PK:S, SK:S", skipped: -1},
		{name: "incremental export line", files: map[string][]byte{"Orders.json": []byte(`{"Metadata":{"WriteTimestampMicros":{"N":"1"}},"Keys":{"PK":{"S":"a"}},"NewImage":{"PK":{"S":"a"}}}` + "\n")},
			want: "incremental exports are not supported", skipped: -1},
		{name: "ion file", files: map[string][]byte{"Orders.ion.gz": gz(t, "$ion_1_0 {Item:{PK:\"a\"}}")},
			want: "Orders.ion.gz: Amazon Ion exports are not supported — --data opens", skipped: -1},
		{name: "incremental manifest", files: map[string][]byte{"manifest-summary.json": []byte(`{"tableArn":"arn:aws:dynamodb:us-east-1:1:table/Orders","exportType":"INCREMENTAL_EXPORT","outputFormat":"DYNAMODB_JSON"}`)},
			path: ".", want: "manifest-summary.json: incremental exports are not supported", skipped: -1},
		{name: "ion manifest", files: map[string][]byte{"manifest-summary.json": []byte(`{"tableArn":"arn:aws:dynamodb:us-east-1:1:table/Orders","exportType":"FULL_EXPORT","outputFormat":"ION"}`)},
			path: ".", want: "Amazon Ion exports are not supported", skipped: -1},
		{name: "unknown format", files: map[string][]byte{"Orders.json": []byte(`{"rows": []}`)},
			want: `Orders.json:1: not a format dynascope opens: its first key is "rows"`, skipped: -1},
		{name: "missing path", path: "nope", want: "nope: cannot open", skipped: -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			first := ""
			for name, b := range c.files {
				if first == "" || name < first {
					first = name
				}
				os.WriteFile(filepath.Join(dir, name), b, 0o644)
			}
			path := filepath.Join(dir, first)
			if c.path != "" {
				path = filepath.Join(dir, c.path)
			}
			opts := c.opts
			if c.name != "no key schema" {
				opts.Keys = &keys
			}
			_, err := dataload.Load(context.Background(), memory.New(), []string{path}, opts)
			var de *dataload.Error
			if err == nil || !errors.As(err, &de) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want a *dataload.Error on one line containing %q", err, c.want)
			}
			if de.Hint == "" {
				t.Errorf("%v: says nothing about what to do", err)
			}
			if c.skipped > 0 {
				opts.SkipBad = true
				res, err := dataload.Load(context.Background(), memory.New(), []string{path}, opts)
				if err != nil || res.Skipped != c.skipped {
					t.Errorf("with SkipBad: %d skipped, error %v; want %d skipped", res.Skipped, err, c.skipped)
				}
			}
		})
	}
}

// TestExportChecks: a damaged or swapped part fails the export's md5, a
// cut manifest its item count, a missing part its listing.
func TestExportChecks(t *testing.T) {
	keys, _ := dataload.ParseKeys("PK:S,SK:S")
	for _, c := range []struct {
		name   string
		damage func(dir string, manifest []map[string]any) []map[string]any
		want   string
	}{
		{"checksum", func(dir string, m []map[string]any) []map[string]any {
			m[0]["md5Checksum"] = "AAAAAAAAAAAAAAAAAAAAAA=="
			return m
		}, "checksum mismatch: md5"},
		{"item count", func(dir string, m []map[string]any) []map[string]any {
			m[1]["itemCount"] = 1_000_000
			return m
		}, "manifest-files.json says 1000000"},
		{"missing part", func(dir string, m []map[string]any) []map[string]any {
			os.Remove(filepath.Join(dir, "data", filepath.Base(m[2]["dataFileS3Key"].(string))))
			return m
		}, "listed in manifest-files.json but"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			items := func(yield func(map[string]types.AttributeValue) error) error {
				return demo.Items("Geography", func(it demo.Item) error { return yield(it) })
			}
			if _, err := dataloadtest.WriteExport(dir, "Geography", items, dataloadtest.ExportOptions{}); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(filepath.Join(dir, "manifest-files.json"))
			var m []map[string]any
			for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				var e map[string]any
				json.Unmarshal([]byte(line), &e)
				m = append(m, e)
			}
			m = c.damage(dir, m)
			var out bytes.Buffer
			for _, e := range m {
				json.NewEncoder(&out).Encode(e)
			}
			os.WriteFile(filepath.Join(dir, "manifest-files.json"), out.Bytes(), 0o644)
			_, err := dataload.Load(context.Background(), memory.New(), []string{dir}, dataload.Options{Keys: &keys})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), ".json.gz") {
				t.Fatalf("error %v, want one naming the data file and %q", err, c.want)
			}
		})
	}
}

func TestLoadStopsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	items := func(yield func(map[string]types.AttributeValue) error) error {
		return demo.Items("DeviceLogs", func(it demo.Item) error { return yield(it) })
	}
	if _, err := dataloadtest.WriteExport(dir, "DeviceLogs", items, dataloadtest.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	keys, _ := dataload.ParseKeys("DeviceID:N,Timestamp:N")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := dataload.Load(ctx, memory.New(), []string{dir}, dataload.Options{Keys: &keys})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

func TestParseKeys(t *testing.T) {
	for _, c := range []struct {
		in, want, err string
	}{
		{in: "PK:S", want: "PK:S"},
		{in: "PK:S,SK:N", want: "PK:S SK:N"},
		{in: " Bucket:s , Key:b ", want: "Bucket:S Key:B"},
		{in: "", err: "is not NAME:TYPE"},
		{in: "PK", err: "is not NAME:TYPE"},
		{in: "PK:X", err: "S, N or B"},
		{in: "PK:S,SK:S,X:S", err: "is not NAME:TYPE[,NAME:TYPE]"},
		{in: "PK:S,PK:S", err: "same attribute twice"},
		{in: ":S", err: "is not NAME:TYPE"},
	} {
		sc, err := dataload.ParseKeys(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseKeys(%q) error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		got := sc.PK.Name + ":" + string(sc.PK.Type)
		if sc.SK != nil {
			got += " " + sc.SK.Name + ":" + string(sc.SK.Type)
		}
		if err != nil || got != c.want {
			t.Errorf("ParseKeys(%q) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
}

func TestParseSchema(t *testing.T) {
	for _, def := range demo.Tables() {
		b, _ := dataloadtest.SchemaJSON(def)
		sc, err := dataload.ParseSchema(b)
		if err != nil {
			t.Fatalf("%s: %v", aws.ToString(def.TableName), err)
		}
		if sc.Table != aws.ToString(def.TableName) || len(sc.GSIs) != len(def.GlobalSecondaryIndexes) || len(sc.LSIs) != len(def.LocalSecondaryIndexes) {
			t.Errorf("%s: parsed %+v", aws.ToString(def.TableName), sc)
		}
	}
	for _, c := range []struct{ in, err string }{
		{`nope`, "not JSON"},
		{`{"Table":{"TableName":"T","KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}]}}`, `key "PK" is not in AttributeDefinitions`},
		{`{"Table":{"TableName":"T","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"KeySchema":[]}}`, "no HASH key"},
		{`{"Table":{"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"BOOL"}]}}`, "key types are S, N or B"},
	} {
		if _, err := dataload.ParseSchema([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParseSchema(%s) error %v, want %q", c.in, err, c.err)
		}
	}
}

// FuzzLoadLines feeds arbitrary export lines to the loader: it must never
// panic, and must either load or say where the input is wrong.
func FuzzLoadLines(f *testing.F) {
	f.Add([]byte(`{"Item":{"PK":{"S":"a"},"SK":{"S":"1"},"L":{"L":[{"N":"1"},{"M":{"x":{"NULL":true}}}]},"B":{"B":"AAE="},"SS":{"SS":["a","b"]}}}`))
	f.Add([]byte(`{"Item":{"PK":{"S":"a"},"SK":{"S":"1"},"x":{"S":"1","N":"2"}}}`))
	f.Add([]byte(`{"Items":[{"PK":{"S":"a"},"SK":{"S":"1"}}],"Count":1}`))
	f.Add([]byte(`{"Keys":{"PK":{"S":"a"}}}`))
	f.Add([]byte("\x1f\x8b"))
	f.Add([]byte(`{"ModelName":"m","DataModel":[{"TableName":"T","KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"S"}},` +
		`"GlobalSecondaryIndexes":[{"IndexName":"G","KeyAttributes":{"PartitionKey":{"AttributeName":"X","AttributeType":"N"}}}],` +
		`"TableData":[{"PK":{"S":"a"},"X":{"N":"1"}}],"TableFacets":[{"FacetName":"F","TableData":[{"PK":{"S":"b"}}]}]}]}`))
	keys, _ := dataload.ParseKeys("PK:S,SK:S")
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "T.json")
		os.WriteFile(path, data, 0o644)
		_, err := dataload.Load(context.Background(), memory.New(), []string{path}, dataload.Options{Keys: &keys})
		var de *dataload.Error
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("error %v is not a *dataload.Error", err)
		}
	})
}

func FuzzParseKeys(f *testing.F) {
	for _, s := range []string{"PK:S", "PK:S,SK:N", "a:b:c", ",", "PK:S,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sc, err := dataload.ParseKeys(s)
		if err == nil && (sc.PK.Name == "" || (sc.SK != nil && sc.SK.Name == sc.PK.Name)) {
			t.Fatalf("ParseKeys(%q) accepted %+v", s, sc)
		}
	})
}

func FuzzParseSchema(f *testing.F) {
	for _, def := range demo.Tables()[:2] {
		b, _ := dataloadtest.SchemaJSON(def)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sc, err := dataload.ParseSchema(b)
		if err == nil && sc.PK.Name == "" {
			t.Fatalf("accepted a schema without a partition key: %s", b)
		}
	})
}
