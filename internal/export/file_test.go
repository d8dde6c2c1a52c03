package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// TestFailedExportLeavesNoFile: an export that fails half way removes
// its file (every export writes through To).
func TestFailedExportLeavesNoFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "half.jsonl")
	_, err := To(path, "rows", io.Discard, io.Discard, func(w io.Writer, format string, _ bool) (int, error) {
		if format != "jsonl" {
			t.Errorf("format %q", format)
		}
		fmt.Fprintln(w, `{"a":1}`)
		return 1, errors.New("connection reset")
	})
	if _, serr := os.Stat(path); err == nil || !errors.Is(serr, fs.ErrNotExist) {
		t.Fatalf("err %v, file %v", err, serr)
	}
}

// TestQueryToFile: the explorer's export writes the file the name
// asks for, reporting each page, and refuses a name with no format.
func TestQueryToFile(t *testing.T) {
	db, err := demo.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	q := domain.KeyQuery{Table: "DeviceLogs", PKName: "DeviceID", PK: domain.N("9000"), SKName: "Timestamp"}
	path := filepath.Join(t.TempDir(), "logs.csv")
	calls := 0
	n, err := QueryToFile(context.Background(), db, q, path, Options{Progress: func(items, pages int, cost dynamo.Cost) { calls++ }})
	data, _ := os.ReadFile(path)
	if err != nil || n != 50000 || calls < 2 || strings.Count(string(data), "\n") != 50001 {
		t.Fatalf("%d items, %d progress calls, %d lines, %v", n, calls, strings.Count(string(data), "\n"), err)
	}
	if _, err := QueryToFile(context.Background(), db, q, filepath.Join(t.TempDir(), "logs.txt"), Options{}); err == nil || !strings.Contains(err.Error(), ".jsonl, .json or .csv") {
		t.Fatalf("a name with no format: %v", err)
	}
}

// TestRowsToFile: what the explorer hands over from the versions
// list, written by its export, is byte for byte what `versions --output
// FILE.csv` writes; a name with no format, or an existing file, is refused.
func TestRowsToFile(t *testing.T) {
	db, err := demo.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	info, _, err := dynamo.DescribeTable(context.Background(), db, "Equipment")
	if err != nil {
		t.Fatal(err)
	}
	res, err := dynamo.Versions(context.Background(), db, dynamo.VersionsRequest{Table: "Equipment", Key: info.Key, PK: domain.S(demo.DriftedPiece)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "versions.csv")
	n, err := RowsToFile(dynamo.HistoryRows(res.Histories), path)
	data, _ := os.ReadFile(path)
	want, _ := os.ReadFile("../cli/testdata/TestExportRowsFormats/versions_csv.golden")
	if err != nil || n != 2 || string(data) != string(want) {
		t.Fatalf("%d rows, %v:\n%s", n, err, data)
	}
	if _, err := RowsToFile(dynamo.HistoryRows(res.Histories), path); err == nil || !strings.Contains(err.Error(), "never overwrites") {
		t.Fatalf("overwrite: %v", err)
	}
	if _, err := RowsToFile(dynamo.HistoryRows(res.Histories), filepath.Join(t.TempDir(), "v.txt")); err == nil || !strings.Contains(err.Error(), ".jsonl, .json or .csv") {
		t.Fatalf("a name with no format: %v", err)
	}
	// The explorer's export into a folder that does not exist says so; it
	// used to advise a new file name.
	missing := filepath.Join(t.TempDir(), "nope", "v.csv")
	if _, err := RowsToFile(dynamo.HistoryRows(res.Histories), missing); err == nil ||
		!strings.HasSuffix(err.Error(), ": the folder "+filepath.Dir(missing)+" does not exist — create it, or name a file in a folder that exists") {
		t.Fatalf("a missing folder: %v", err)
	}
	if err := CheckNewFile(missing); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("CheckNewFile of a missing folder: %v", err)
	}
	if err := CheckNewFile(filepath.Join(path, "x.csv")); err == nil || !strings.Contains(err.Error(), "is not a folder") {
		t.Fatalf("CheckNewFile under a file: %v", err)
	}
}

// TestCountedNoun: a file written is reported in plain words, one row
// singular: it said "wrote 1 children".
func TestCountedNoun(t *testing.T) {
	for _, tc := range []struct {
		n          int
		noun, want string
	}{
		{1, "children", "1 child"}, {2, "children", "2 children"}, {1, "items", "1 item"}, {0, "items", "0 items"},
		{1, "entities", "1 entity"}, {1, "versioned items", "1 versioned item"}, {1, "revisions", "1 revision"},
	} {
		if got := Counted(tc.n, tc.noun); got != tc.want {
			t.Errorf("Counted(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

// flatRCU reports every Query at 1.0 RCU whatever it read, as moto does.
type flatRCU struct{ dynamo.Client }

func (f flatRCU) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := f.Client.Query(ctx, in, o...)
	if out != nil {
		out.ConsumedCapacity = &types.ConsumedCapacity{CapacityUnits: aws.Float64(1)}
	}
	return out, err
}

// TestQueryToFileProgressBilled: the progress an export reports is its
// reads as DynamoDB bills them, the status bar's figure, not the server's:
// pages of 1 MB reported at 1.0 RCU are billed what their items weigh,
// marked as an estimate.
func TestQueryToFileProgressBilled(t *testing.T) {
	db, err := demo.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	q := domain.KeyQuery{Table: "DeviceLogs", PKName: "DeviceID", PK: domain.N("9000"), SKName: "Timestamp"}
	var last dynamo.Cost
	var pages int
	if _, err := QueryToFile(context.Background(), flatRCU{db}, q, filepath.Join(t.TempDir(), "logs.jsonl"), Options{Progress: func(_, p int, c dynamo.Cost) { pages, last = p, c }}); err != nil {
		t.Fatal(err)
	}
	if last.RCU != float64(pages) || last.Billed <= 2*last.RCU || !last.Estimated {
		t.Fatalf("%d pages reported %.1f RCU, billed %.1f (estimated %v)", pages, last.RCU, last.Billed, last.Estimated)
	}
}
