package dataload_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/dataload"
	"github.com/dynascope/dynascope/internal/dynamo/dataload/dataloadtest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// peakHeap samples the heap in use while f runs and returns its peak.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak uint64
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			mu.Lock()
			peak = max(peak, ms.HeapInuse)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	mu.Lock()
	defer mu.Unlock()
	return peak
}

func keysPKSK(t *testing.T) *dataload.Schema {
	keys, err := dataload.ParseKeys("PK:S,SK:S")
	if err != nil {
		t.Fatal(err)
	}
	return &keys
}

// A gzip bomb (a few MB that unpack to 2 GB with no newline) is refused at
// the line limit, holding at most that line: it went past 7 GB.
func TestGzipBombStopsAtTheLineLimit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "Bomb.json.gz")
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	chunk := bytes.Repeat([]byte("A"), 1<<20)
	_, _ = zw.Write([]byte(`{"Item":{"PK":{"S":"`))
	for range 2048 { // 2 GB unpacked
		_, _ = zw.Write(chunk)
	}
	_ = zw.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var err error
	t0 := time.Now()
	peak := peakHeap(func() {
		_, err = dataload.Load(context.Background(), memory.New(), []string{path}, dataload.Options{Keys: keysPKSK(t)})
	})
	if err == nil || !strings.Contains(err.Error(), "Bomb.json.gz:1") || !strings.Contains(err.Error(), "longer than 8 MB") {
		t.Fatalf("a gzip bomb: %v", err)
	}
	if peak > 100<<20 {
		t.Errorf("peak heap %d MB", peak>>20)
	}
	t.Logf("%.1f MB of gzip (2 GB unpacked): refused in %s, peak heap %d MB: %v", float64(buf.Len())/(1<<20), time.Since(t0).Round(time.Millisecond), peak>>20, err)
}

// What DynamoDB refuses is refused, with its file and line: an item past
// 400 KB, keys past 2,048 / 1,024 bytes, numbers that do not parse or fit,
// empty or duplicated sets, strings that are not UTF-8. --skip-bad counts
// each instead.
func TestDataRefusesWhatDynamoDBRefuses(t *testing.T) {
	good := `{"Item":{"PK":{"S":"p"},"SK":{"S":"ok"}}}`
	cases := map[string]string{
		"item over 400 KB":         `{"Item":{"PK":{"S":"p"},"SK":{"S":"big"},"v":{"S":"` + strings.Repeat("x", 410*1024) + `"}}}`,
		"partition key too long":   `{"Item":{"PK":{"S":"` + strings.Repeat("p", 2049) + `"},"SK":{"S":"a"}}}`,
		"sort key too long":        `{"Item":{"PK":{"S":"p"},"SK":{"S":"` + strings.Repeat("s", 1025) + `"}}}`,
		"number that is no number": `{"Item":{"PK":{"S":"p"},"SK":{"S":"n"},"v":{"N":"12abc"}}}`,
		"number too big":           `{"Item":{"PK":{"S":"p"},"SK":{"S":"n"},"v":{"N":"1E+200"}}}`,
		"empty set":                `{"Item":{"PK":{"S":"p"},"SK":{"S":"e"},"v":{"SS":[]}}}`,
		"set with a duplicate":     `{"Item":{"PK":{"S":"p"},"SK":{"S":"d"},"v":{"NS":["1","1.0"]}}}`,
		"invalid UTF-8":            "{\"Item\":{\"PK\":{\"S\":\"p\"},\"SK\":{\"S\":\"u\"},\"v\":{\"S\":\"a\xffb\"}}}",
	}
	for name, bad := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "T.json")
			if err := os.WriteFile(path, []byte(good+"\n"+bad+"\n"+good+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			_, refused := dataload.Load(context.Background(), memory.New(), []string{path}, dataload.Options{Keys: keysPKSK(t)})
			if refused == nil || !strings.Contains(refused.Error(), "T.json:2") {
				t.Fatalf("loaded: %v", refused)
			}
			res, err := dataload.Load(context.Background(), memory.New(), []string{path}, dataload.Options{Keys: keysPKSK(t), SkipBad: true})
			if err != nil || res.Skipped != 1 {
				t.Fatalf("--skip-bad: skipped %d, %v", res.Skipped, err)
			}
			t.Logf("%.200s", refused)
		})
	}
}

// A data file that is a link out of the folder given is not read, and a
// manifest listing one data file twice is refused (it loaded twice).
func TestDataFolderLinksAndManifest(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.json")
	if err := os.WriteFile(secret, []byte(`{"Item":{"PK":{"S":"secret"},"SK":{"S":"x"}}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "T")
	_ = os.Mkdir(folder, 0o700)
	if err := os.Symlink(secret, filepath.Join(folder, "a.json")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	_, err := dataload.Load(context.Background(), memory.New(), []string{folder}, dataload.Options{Keys: keysPKSK(t)})
	if err == nil || !strings.Contains(err.Error(), "link to outside the folder") {
		t.Fatalf("a link out of the folder: %v", err)
	}

	exp := filepath.Join(dir, "E")
	_ = os.MkdirAll(filepath.Join(exp, "data"), 0o700)
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(exp, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	fmt.Fprintln(zw, `{"Item":{"PK":{"S":"p"},"SK":{"S":"a"}}}`)
	_ = zw.Close()
	write("data/one.json.gz", gz.String())
	write("manifest-summary.json", `{"tableArn":"arn:aws:dynamodb:us-east-1:1:table/E","exportType":"FULL_EXPORT","outputFormat":"DYNAMODB_JSON"}`)
	entry := `{"dataFileS3Key":"AWSDynamoDB/x/data/one.json.gz","itemCount":1}`
	write("manifest-files.json", entry+"\n"+entry+"\n")
	_, err = dataload.Load(context.Background(), memory.New(), []string{exp}, dataload.Options{Keys: keysPKSK(t)})
	if err == nil || !strings.Contains(err.Error(), "manifest-files.json:2") || !strings.Contains(err.Error(), "again") {
		t.Fatalf("a data file listed twice: %v", err)
	}
}

// `aws dynamodb scan` output and Workbench models are not one item a line:
// their decoder held a whole item (or the whole file) in memory, so a file
// of a gigabyte with one huge item took a gigabyte. Each stops at its limit
// with its file and line, holding at most that.
func TestHugeItemInScanOrWorkbenchStopsAtTheLimit(t *testing.T) {
	for _, c := range []struct {
		name, head, says string
	}{
		{"Scan.json.gz", `{"Items":[{"PK":{"S":"p"},"SK":{"S":"a"}},` + "\n" + `{"PK":{"S":"p"},"SK":{"S":"b"},"v":{"S":"`, "Scan.json.gz:2: an item is longer than 8 MB"},
		{"Model.json.gz", `{"ModelName":"m","DataModel":[{"TableName":"T","KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"S"}},"TableData":[{"PK":{"S":"p"},"v":{"S":"`,
			"Model.json.gz:1: the Workbench model is longer than 32 MB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), c.name)
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
			_, _ = zw.Write([]byte(c.head))
			chunk := bytes.Repeat([]byte("A"), 1<<20)
			for range 1024 { // a gigabyte unpacked, in one string
				_, _ = zw.Write(chunk)
			}
			_, _ = zw.Write([]byte(`"}}]}]}` + "\n"))
			_ = zw.Close()
			if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			var err error
			t0 := time.Now()
			peak := peakHeap(func() {
				_, err = dataload.Load(context.Background(), memory.New(), []string{path}, dataload.Options{Keys: keysPKSK(t)})
			})
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("a gigabyte item: %v", err)
			}
			if peak > 100<<20 {
				t.Errorf("peak heap %d MB", peak>>20)
			}
			t.Logf("%.1f MB of gzip (1 GB unpacked): refused in %s, peak heap %d MB: %v", float64(buf.Len())/(1<<20), time.Since(t0).Round(time.Millisecond), peak>>20, err)
		})
	}
}

// smallExport writes an export folder of table Hostile (three items) in
// a fresh folder.
func smallExport(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "Hostile")
	items := func(yield func(map[string]types.AttributeValue) error) error {
		for _, sk := range []string{"a", "b", "c"} {
			if err := yield(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "H"}, "SK": &types.AttributeValueMemberS{Value: sk}}); err != nil {
				return err
			}
		}
		return nil
	}
	if _, err := dataloadtest.WriteExport(dir, "Hostile", items, dataloadtest.ExportOptions{Parts: 1}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Every file --data reads is a regular file, read within its bounds: a
// FIFO as --data, as an export's data file or manifest, a manifest linked
// to /dev/zero, an export whose data/ folder links outside it, each end
// the load at once with the file named, never blocking or filling
// memory.
func TestHostileFilesRefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "Fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	replace := func(with func(path string) error, name string) func(t *testing.T) (string, string) {
		return func(t *testing.T) (string, string) {
			dir := smallExport(t)
			path := filepath.Join(dir, name)
			if name == "data-file" {
				parts, _ := filepath.Glob(filepath.Join(dir, "data", "*.json.gz"))
				path = parts[0]
			}
			if err := os.RemoveAll(path); err != nil {
				t.Fatal(err)
			}
			if err := with(path); err != nil {
				t.Fatal(err)
			}
			return dir, path
		}
	}
	mkfifo := func(p string) error { return syscall.Mkfifo(p, 0o600) }
	zero := func(p string) error { return os.Symlink("/dev/zero", p) }
	outside := func(p string) error {
		elsewhere := smallExport(t)
		return os.Symlink(filepath.Join(elsewhere, "data"), p)
	}
	for _, c := range []struct {
		name string
		make func(t *testing.T) (data, refused string)
		says string
	}{
		{"a FIFO as --data", func(*testing.T) (string, string) { return fifo, fifo }, "is a FIFO, not a regular file"},
		{"a FIFO as a data file", replace(mkfifo, "data-file"), "is a FIFO, not a regular file"},
		{"a FIFO as manifest-summary.json", replace(mkfifo, "manifest-summary.json"), "is a FIFO, not a regular file"},
		{"a FIFO as manifest-files.json", replace(mkfifo, "manifest-files.json"), "is a FIFO, not a regular file"},
		{"manifest-summary.json linked to /dev/zero", replace(zero, "manifest-summary.json"), "is a device, not a regular file"},
		{"manifest-files.json linked to /dev/zero", replace(zero, "manifest-files.json"), "is a device, not a regular file"},
		{"a data file linked to /dev/zero", replace(zero, "data-file"), "outside the folder"},
		{"a link to /dev/zero as --data", func(t *testing.T) (string, string) {
			p := filepath.Join(t.TempDir(), "Zero.json")
			if err := zero(p); err != nil {
				t.Fatal(err)
			}
			return p, p
		}, "is a device, not a regular file"},
		{"data/ linked outside", replace(outside, "data"), "outside the folder"},
	} {
		data, refused := c.make(t)
		t0 := time.Now()
		var err error
		peak := peakHeap(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // only so that a failure ends
			defer cancel()
			_, err = dataload.Load(ctx, memory.New(), []string{data}, dataload.Options{Keys: keysPKSK(t)})
		})
		if err == nil || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), filepath.Base(refused)) {
			t.Errorf("%s: %v", c.name, err)
		}
		t.Logf("%s: refused in %s, peak heap %d MB: %v", c.name, time.Since(t0).Round(time.Millisecond), peak>>20, err)
	}
}

// bigLines writes n ordinary items of about 950 bytes as one gzipped
// export part: a few MB that hold a gigabyte.
func bigLines(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "Big.json.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	pad := strings.Repeat("x", 900)
	for i := range n {
		fmt.Fprintf(zw, `{"Item":{"PK":{"S":"P%d"},"SK":{"S":"%08d"},"Body":{"S":"%s"}}}`+"\n", i%1000, i, pad)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// A load past --data-max is refused: up front where an export's manifest
// says how big it is (nothing read), during the load otherwise, holding
// not much more than the ceiling; a load under it is untouched.
func TestDataCeiling(t *testing.T) {
	const ceiling = 64 << 20
	opt := dataload.Options{Keys: keysPKSK(t), MaxMemory: ceiling, MaxMemoryFrom: " (the test's)"}

	dir := smallExport(t)
	summary := filepath.Join(dir, "manifest-summary.json")
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	var sum map[string]any
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	sum["billedSizeBytes"] = 2_000_000_000
	if b, err = json.Marshal(sum); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(summary, b, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := dataload.Load(context.Background(), memory.New(), []string{dir}, opt)
	if err == nil || !strings.Contains(err.Error(), "the export's manifest says the data takes at least 1.9 GiB of memory, over --data-max 64 MiB (the test's)") ||
		!strings.Contains(err.Error(), "a table at a time") || res.Items != 0 {
		t.Errorf("a manifest over the ceiling: %d items read, %v", res.Items, err)
	}

	big := bigLines(t, 400_000) // about 380 MB of items
	var items int
	t0 := time.Now()
	peak := peakHeap(func() {
		res, err = dataload.Load(context.Background(), memory.New(), []string{big}, opt)
		items = res.Items
	})
	if err == nil || !strings.Contains(err.Error(), "over --data-max 64 MiB") || !strings.Contains(err.Error(), "Big.json.gz") {
		t.Fatalf("a load past the ceiling: %d items, %v", items, err)
	}
	// The data, the garbage collector's room and the batches on their
	// way; the whole file would have taken over 800 MB.
	if peak > 4*ceiling {
		t.Errorf("peak heap %d MB under a ceiling of %d MB", peak>>20, ceiling>>20)
	}
	t.Logf("refused after %d items in %s, peak heap %d MB: %v", items, time.Since(t0).Round(time.Millisecond), peak>>20, err)

	if _, err := dataload.Load(context.Background(), memory.New(), []string{smallExport(t)}, opt); err != nil {
		t.Errorf("a small export under the ceiling: %v", err)
	}
}
