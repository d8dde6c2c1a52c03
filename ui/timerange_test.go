package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/dynamo/demo"
	"github.com/dynascope/dynascope/model"
)

func demoClock() time.Time { return demo.DemoEnd }

// typeText types a string into whatever has focus.
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(keyPress(string(r)))
	}
}

// clearInput deletes what an input holds.
func (h *harness) clearInput(n int) {
	for range n {
		h.keys("backspace")
	}
}

// TestTimeSeedQuery: the seed's query typed into the range bar returns the
// device's first two records, newest first, with readable times.
func TestTimeSeedQuery(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "123", Now: demoClock})
	before := h.rec.count("Query")
	h.keys("t")
	if n := h.rec.count("Query") - before; n != 1 {
		t.Fatalf("opening Time mode took %d Query, want 1 (the first page, which is the sample)", n)
	}
	h.contains(t, "Timestamp holds epoch seconds (detected) · times in UTC", "3 items loaded", "2018-09-04 01:00:00", "range ›")
	h.typeText("< 1536019200")
	h.keys("enter")
	h.contains(t, "2 items loaded", "newest first", "2018-08-29 12:00:00", "2011-07-09 13:00:00", "Timestamp < :sk   :pk=123 :sk=1536019200")
	if strings.Contains(h.screen(), "2018-09-04 01:00:00") {
		t.Fatal("the third record is listed")
	}
	h.golden(t)
	// A bad range is explained; what is listed stays.
	h.keys("t")
	h.clearInput(20)
	h.typeText("last 15x")
	h.keys("enter")
	h.contains(t, `✗ "15x" is not a span`, "2 items loaded", "2011-07-09 13:00:00")
	h.keys("esc", "o") // oldest first
	h.contains(t, "oldest first", "2 items loaded")
}

func TestTimeCompositeAndSparkline(t *testing.T) {
	h := newHarness(t, 120, 30, Config{Table: "ChatMessages", PK: "portland", Now: demoClock})
	h.keys("tab", "t") // from the items view too
	h.contains(t, "MessageID holds date:time after a prefix ending #")
	h.typeText("2018-08")
	h.keys("enter")
	h.contains(t, "type the prefix first", "amsg# last 24h")
	h.clearInput(10)
	h.typeText("amsg# 2018-08")
	h.keys("enter")
	h.contains(t, `begins_with(MessageID, :prefix)   :pk="portland" :prefix="amsg#2018-08-"`, "1 item loaded")

	h = newHarness(t, 120, 30, Config{Table: "AuditLog", PK: demo.AuditStream, Now: demoClock})
	h.keys("t")
	h.typeText("last 24h")
	h.keys("enter")
	h.contains(t, `At >= :sk   :pk="prod-api" :sk="2026-10-31T00:00:00Z"`, "█", "2026-10-31 00:04 ")
	h.golden(t)
	h.keys("t")
	h.clearInput(10)
	h.typeText("@ 2026-10-31T12:00")
	h.keys("enter")
	if !strings.Contains(h.screen(), "2026-10-31 11:") {
		t.Fatalf("jump did not land before noon:\n%s", h.screen())
	}
	h.keys("z")
	h.contains(t, "Time (local)", "times in local time")
}

func TestTimeNoTimeKeys(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Locations", PK: "USA"})
	h.keys("t")
	h.contains(t, "No Time mode here", "do not read as time")
	h.keys("esc")
	h.contains(t, "children")
}

// TestTimeConfiguredFormat: a table's time_format skips the detection read.
func TestTimeConfiguredFormat(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "123", Now: demoClock,
		Tables: map[string]model.TableSettings{"DeviceLogs": {TimeFormat: "epoch-s"}}})
	before := h.rec.count("Query")
	h.keys("t")
	if n := h.rec.count("Query") - before; n != 1 {
		t.Fatalf("opening Time mode took %d Query, want 1", n)
	}
	h.contains(t, "epoch seconds (set by time_format in the configuration)", "3 items loaded")
}

// TestCopyAsCommand: y copies the view's query as an aws command (OSC 52)
// and says what it copied.
func TestCopyAsCommand(t *testing.T) {
	h := newHarness(t, 300, 30, Config{Table: "DeviceLogs", PK: "123", Now: demoClock, Region: "eu-west-1", Endpoint: "http://localhost:8000"})
	h.keys("t")
	h.typeText("< 1536019200")
	h.keys("enter", "y")
	h.contains(t, `copied (OSC 52): aws dynamodb query --table-name DeviceLogs --key-condition-expression '#pk = :pk AND #sk < :sk'`,
		`'{":pk":{"N":"123"},":sk":{"N":"1536019200"}}'`)
	h.keys("Y")
	h.contains(t, "copied the Go SDK code for this query (")
	h.keys("down") // the note passes with the next key
	if strings.Contains(h.screen(), "copied") {
		t.Fatal("the note stayed")
	}
}

// TestCopyItem: in the item view y copies the item as shown (plain JSON,
// or DynamoDB JSON after d), Y its key.
func TestCopyItem(t *testing.T) {
	h := newHarness(t, 120, 30, Config{Table: "DeviceLogs", PK: "123"})
	h.keys("enter")
	h.contains(t, "attributes")
	h.keys("y")
	h.contains(t, "copied the item as plain JSON (")
	h.keys("d", "y")
	h.contains(t, "copied the item as DynamoDB JSON (")
	h.keys("Y")
	h.contains(t, "copied the key as DynamoDB JSON (")
}

// TestExportFromTheUI: e asks for a file (named after the view), shows
// progress, and says when it is done; esc while naming changes nothing.
func TestExportFromTheUI(t *testing.T) {
	dir := t.TempDir()
	var exported []string
	export := func(ctx context.Context, q model.KeyQuery, path string, progress func(items, pages int, rcu float64)) (int, error) {
		var start dynamo.Item
		n, pages, rcu := 0, 0, 0.0
		for {
			p, err := dynamo.QueryPage(ctx, demoData(t), dynamo.PageRequest{Query: q, Start: start})
			if err != nil {
				return n, err
			}
			n, pages, rcu = n+len(p.Items), pages+1, rcu+p.Cost.RCU
			progress(n, pages, rcu)
			if !p.More() {
				break
			}
			start = p.LastKey
		}
		exported = append(exported, path)
		return n, os.WriteFile(path, []byte(fmt.Sprint(n)), 0o600)
	}
	h := newHarness(t, 140, 30, Config{Table: "DeviceLogs", PK: "9000", Export: export})
	h.keys("e")
	h.contains(t, "export to › dynascope-DeviceLogs-9000.jsonl", "at most ~", "RCU (the table's size)")
	h.keys("esc")
	if strings.Contains(h.screen(), "export to") || len(exported) != 0 {
		t.Fatal("esc did not cancel the export")
	}
	h.keys("e")
	h.clearInput(40)
	path := filepath.Join(dir, "logs.csv")
	h.typeText(path)
	h.keys("enter")
	h.contains(t, "exported 50,000 items to "+path)
	if len(exported) != 1 || exported[0] != path {
		t.Fatalf("exported %v", exported)
	}
}
