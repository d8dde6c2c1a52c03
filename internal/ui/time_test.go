package ui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/export"
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
	h.contains(t, "2 items loaded", "newest first", "2018-08-29 12:00:00", "2011-07-09 13:00:00", "Timestamp < :sk   :pk=123 :sk=1536019200", "before 2018-09-04 00:00:00 UTC")
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
	// The text typed is quoted once, as range --at quotes it: escaped
	// again, a\b "c" was said as "a\\\\b \\"c\\"".
	h.clearInput(20)
	h.typeText(`a\b "c"`)
	h.keys("enter")
	h.contains(t, `✗ "a\\b \"c\"" is not a time`)
	h.keys("esc", "o") // oldest first
	h.contains(t, "oldest first", "2 items loaded")
}

func TestTimeCompositeAndSparkline(t *testing.T) {
	h := newHarness(t, 120, 30, Config{Table: "ChatMessages", PK: "portland", Now: demoClock})
	h.keys("tab", "t") // from the items view too
	h.contains(t, "MessageID holds date:time after a prefix ending #")
	h.typeText("2018-08")
	h.keys("enter") // no prefix: every prefix, merged by time
	h.contains(t, "newest first across 6 prefixes", "6 Queries merged by time (amsg# bob#", "1 item loaded", "Hello from the blog")
	// Each Query's values are its own prefix's: the first one's are an
	// example, never said to be every Query's.
	h.contains(t, "fatima#), each like ChatRoomID = :pk AND")
	h.keys("t")
	h.clearInput(10)
	h.typeText("amsg# 2018-08")
	h.keys("enter")
	h.contains(t, `begins_with(MessageID, :prefix)   :pk="portland" :prefix="amsg#2018-08-"`, "1 item loaded")

	h = newHarness(t, 120, 30, Config{Table: "AuditLog", PK: demo.AuditStream, Now: demoClock})
	h.keys("t")
	h.typeText("last 24h")
	h.keys("enter")
	h.loadAll()
	h.contains(t, `At BETWEEN :lo AND :hi   :pk="prod-api" :lo="2026-10-31T00:00:00Z"`, `:hi="2026-11-01T00`, "between 2026-10-31 00:00:00 UTC and 2026-11-01 00:00:00 UTC", "█", "2026-10-31 00:04 ")
	h.golden(t)
	h.keys("t")
	h.clearInput(10)
	h.typeText("@ 2026-10-31T12:00")
	h.keys("enter")
	if !strings.Contains(h.screen(), "2026-10-31 11:") {
		t.Fatalf("jump did not land before noon:\n%s", h.screen())
	}
	h.keys("z")
	zone, _ := demoClock().In(time.Local).Zone()
	h.contains(t, "Time ("+zone+")", "times in local time, "+zone)
}

func TestTimeNoTimeKeys(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Locations", PK: "USA"})
	h.keys("t")
	h.said(t, "No Time mode here: the 20 sort keys sampled here hold no time")
	h.contains(t, "prefixes") // nothing opened
}

// TestTimeMergedPrefixes: on STATE#time keys the partition lists in key
// order and says so; a range typed without a prefix finds the prefixes
// (the children skip-scan) and lists every state newest first, reading a
// page a prefix for the first screen.
func TestTimeMergedPrefixes(t *testing.T) {
	h := newHarness(t, 120, 30, Config{Table: demo.StateTable, PK: demo.StateDevice, Now: demoClock})
	h.keys("t")
	h.contains(t, "`State#Date` holds ISO 8601 without zone after a prefix ending #", "key order, descending")
	before := h.rec.count("Query")
	h.typeText("2020-04-24")
	h.keys("enter")
	h.contains(t, "newest first across 4 prefixes", "4 Queries merged by time (NORMAL# WARNING1# WARNING2# WARNING3#)", "2020-04-24 23:57:00", "2020-04-24 23:45:00")
	if n := h.rec.count("Query") - before; n > 5+4 {
		t.Errorf("finding 4 prefixes and a first screen took %d Query, want at most 9 (the skip-scan's bound of C+1, one page a prefix)", n)
	}
	screen := h.screen()
	if strings.Index(screen, "WARNING1#2020-04-24T23:57:00") > strings.Index(screen, "NORMAL#2020-04-24T23:45:00") {
		t.Errorf("not newest first across prefixes:\n%s", screen)
	}
	h.golden(t)
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		checkScreen(t, h, sz[0], fmt.Sprintf("merged range at %dx%d", sz[0], sz[1]))
		if n := strings.Count(h.m.render(), "\n") + 1; n > sz[1] {
			t.Errorf("merged range at %dx%d: %d lines", sz[0], sz[1], n)
		}
	}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.keys("o") // oldest first, merged again
	h.contains(t, "oldest first across 4 prefixes", "2020-04-24 14:05:00")
	h.keys("t")
	h.clearInput(20)
	h.typeText("WARNING1# 2020-04-24") // one prefix, as before
	h.keys("enter")
	h.contains(t, "begins_with(`State#Date`, :prefix)", `:prefix="WARNING1#2020-04-24T"`)
	if strings.Contains(h.screen(), "merged by time") {
		t.Error("a range with a prefix is still merged")
	}
}

// TestTimeBesideMetadata: a Metadata item beside ISO times is skipped by
// detection, said on screen, and left out of ranges. The note says its 40
// keys were a sample: the partition holds 61 ("1 of 40 keys is not a
// time" read as all there is).
func TestTimeBesideMetadata(t *testing.T) {
	h := newHarness(t, 140, 30, Config{Table: demo.PartStatesTable, PK: demo.StatePart, Now: demoClock})
	h.keys("t")
	h.contains(t, "SK holds ISO 8601 without zone (detected)", "1 of 40 keys sampled is not a time: Metadata, left out of ranges", "newest first")
	h.typeText(">= 2020-11-12")
	h.keys("enter")
	h.loadAll()
	h.contains(t, "60 items loaded")
	if strings.Contains(h.screen(), "Metadata  ") {
		t.Error("Metadata listed in a range")
	}
}

// TestTimeFormatMatchingNothing: a configured format (time_format, or
// --time-format) that no key reads as says so where the rows would be.
func TestTimeFormatMatchingNothing(t *testing.T) {
	h := newHarness(t, 120, 30, Config{Table: demo.PartStatesTable, PK: demo.StatePart, Now: demoClock,
		Tables: map[string]config.TableSettings{demo.PartStatesTable: {TimeFormat: "epoch-ms"}}})
	h.keys("t")
	// epoch-ms on text keys is epoch digits in text: looked for, not found.
	h.contains(t, `No Time mode here: no key here has the shape of the table's time_format "epoch-ms";`, "compare it with a key, or remove it to detect the format")
	// Opened directly (--range), Time reads its page and says how to name
	// a format by hand; from the tree its tab is dimmed, nothing read.
	h = newHarness(t, 120, 30, Config{Table: "Locations", PK: "USA", Range: "last 24h"})
	h.contains(t, "do not read as time", "set time_format for the table in the configuration,")
}

// TestTimeConfiguredFormat: a table's time_format skips the detection read.
func TestTimeConfiguredFormat(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "123", Now: demoClock,
		Tables: map[string]config.TableSettings{"DeviceLogs": {TimeFormat: "epoch-s"}}})
	before := h.rec.count("Query")
	h.keys("t")
	if n := h.rec.count("Query") - before; n != 1 {
		t.Fatalf("opening Time mode took %d Query, want 1", n)
	}
	h.contains(t, "epoch seconds (set by the table's time_format)", "3 items loaded")
}

// TestCopyAsCommand: y sends the view's query as an aws command to the
// terminal's clipboard (OSC 52) and says that, never "copied": whether the
// terminal took it is unknown.
func TestCopyAsCommand(t *testing.T) {
	h := newHarness(t, 300, 30, Config{Table: "DeviceLogs", PK: "123", Now: demoClock, Region: "eu-west-1", Endpoint: "http://localhost:8000"})
	h.keys("t")
	h.typeText("< 1536019200")
	h.keys("enter", "y")
	// The result first; the detail cut in the middle, so that both its
	// ends show.
	h.contains(t, `sent to the clipboard: the aws command · aws dynamodb query --table-name DeviceLogs --key-condition-expression`,
		`by OSC 52 (unconfirmed)`)
	h.said(t, `--region eu-west-1 --endpoint-url http://localhost:8000 · by OSC 52`)
	h.keys("Y")
	h.contains(t, "sent to the clipboard: the Go SDK code for this query (")
	if strings.Contains(h.screen(), "copied") || strings.Contains(h.screen(), "tmux") {
		t.Fatalf("outside tmux, a copy says no more than that OSC 52 was sent:\n%s", h.screen())
	}
	h.keys("down") // the note passes with the next key
	if strings.Contains(h.screen(), "sent to") {
		t.Fatal("the note stayed")
	}
}

// TestCopyAsCommandReadsWhatTheExplorerRead: the region, endpoint and
// profile the connection resolved from the AWS settings (AWS_REGION, the
// profile, AWS_ENDPOINT_URL_DYNAMODB, not a flag) are in the aws command
// y copies and in the command ? prints: pasted in another shell, without
// those settings, they read the same table.
func TestCopyAsCommandReadsWhatTheExplorerRead(t *testing.T) {
	var buffer string
	tmux := func(_ context.Context, text string) error { buffer = text; return nil }
	cfg, rec := connecting(t, "DeviceLogs")
	cfg.PK, cfg.Connection, cfg.Now, cfg.TmuxBuffer = "123", "profile prod · eu-west-1 · http://127.0.0.1:20601", demoClock, tmux
	connect := cfg.Connect
	cfg.Connect = func(ctx context.Context) (Connected, error) {
		c, err := connect(ctx)
		c.Region, c.Endpoint, c.Profile = "eu-west-1", "http://127.0.0.1:20601", "prod"
		c.Reopen = &export.Connection{Profile: "prod", Region: "eu-west-1", Endpoint: "http://127.0.0.1:20601"}
		return c, err
	}
	h := harnessFor(t, New(cfg), rec)
	h.send(tea.WindowSizeMsg{Width: 300, Height: 30})
	h.run(h.m.Init())
	h.keys("y")
	if !strings.HasSuffix(buffer, " --region eu-west-1 --endpoint-url http://127.0.0.1:20601 --profile prod") {
		t.Errorf("the aws command reads elsewhere: %q", buffer)
	}
	h.keys("?")
	h.contains(t, "this view: dynascope --profile prod --region eu-west-1 --endpoint-url http://127.0.0.1:20601 --table DeviceLogs --pk 123")
}

// TestCopyAsCommandInTheDemo: the demo's aws command reads the demo seeded
// into a local server, and says so; without an endpoint it would have read
// the user's real account.
func TestCopyAsCommandInTheDemo(t *testing.T) {
	var buffer string
	tmux := func(_ context.Context, text string) error { buffer = text; return nil }
	h := newHarness(t, 300, 30, Config{Table: "DeviceLogs", PK: "123", Connection: "DEMO", TmuxBuffer: tmux})
	h.keys("y")
	h.said(t, "sent to the clipboard and a tmux buffer: the aws command (for the demo seeded locally: dynascope seed --endpoint-url http://localhost:8000 --region us-east-1)")
	if !strings.HasSuffix(buffer, "--region us-east-1 --endpoint-url http://localhost:8000") {
		t.Fatalf("the demo's command: %q", buffer)
	}
}

// TestCopyUnderTmux: under tmux, y also loads a tmux buffer (OSC 52 rarely
// gets through tmux's default set-clipboard external) and says so; a tmux
// that fails is said to have failed.
func TestCopyUnderTmux(t *testing.T) {
	var buffer string
	tmux := func(_ context.Context, text string) error { buffer = text; return nil }
	h := newHarness(t, 200, 30, Config{Table: "DeviceLogs", PK: "123", TmuxBuffer: tmux, Endpoint: "http://localhost:8000"})
	h.keys("y")
	h.contains(t, "sent to the clipboard and a tmux buffer: the aws command")
	h.keys("?")
	h.contains(t, "last messages, newest first:", "  sent to the clipboard and a tmux buffer: the aws command · aws dynamodb query", "prefix ] pastes the tmux buffer")
	h.keys("?")
	if !strings.HasPrefix(buffer, "aws dynamodb query --table-name DeviceLogs") {
		t.Fatalf("the tmux buffer holds %q", buffer)
	}
	h.keys("enter", "y")
	h.contains(t, "sent to the clipboard and a tmux buffer: the item as plain JSON (")
	if !strings.Contains(buffer, `"Timestamp"`) {
		t.Fatalf("the tmux buffer holds %q", buffer)
	}
	broken := func(context.Context, string) error {
		return errors.New("tmux load-buffer: no server running on /tmp/tmux-0/default")
	}
	h = newHarness(t, 200, 30, Config{Table: "DeviceLogs", PK: "123", TmuxBuffer: broken, Endpoint: "http://localhost:8000"})
	h.keys("y")
	h.contains(t, "sent to the clipboard: the aws command; the tmux buffer was not loaded · tmux load-buffer: no server running")
}

// TestCopyItem: in the item view y sends the item as shown (plain JSON,
// or DynamoDB JSON after d), Y its key.
func TestCopyItem(t *testing.T) {
	h := newHarness(t, 120, 30, Config{Table: "DeviceLogs", PK: "123"})
	h.keys("enter")
	h.contains(t, "attributes")
	h.keys("y")
	h.contains(t, "sent to the clipboard: the item as plain JSON (")
	h.keys("d", "y")
	h.contains(t, "sent to the clipboard: the item as DynamoDB JSON (")
	h.keys("Y")
	h.contains(t, "sent to the clipboard: the key as DynamoDB JSON (")
}

// TestExportFromTheUI: e asks for a file (named after the view), shows
// progress, and says when it is done; esc while naming changes nothing.
func TestExportFromTheUI(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, 140, 30, Config{Table: "DeviceLogs", PK: "9000"})
	h.keys("e")
	h.contains(t, "export to › dynascope-DeviceLogs-9000.jsonl", "at most ~", "RCU (the table's size)")
	h.keys("esc")
	if strings.Contains(h.screen(), "export to") {
		t.Fatal("esc did not cancel the export")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("esc wrote %v", entries)
	}
	h.keys("e")
	h.clearInput(40)
	path := filepath.Join(dir, "logs.csv")
	h.typeText(path)
	h.keys("enter")
	h.contains(t, "exported 50,000 items · to "+path)
	if data, err := os.ReadFile(path); err != nil || strings.Count(string(data), "\n") != 50001 {
		t.Fatalf("the CSV: %v, %d lines", err, strings.Count(string(data), "\n"))
	}
}

// TestTimeShapes: the shapes published models write open in Time mode
// with their times beside the keys: a time between text (flights, merged
// across origins), ULIDs after a prefix beside PROFILE# items, and
// yyyyMMdd numbers.
func TestTimeShapes(t *testing.T) {
	h := newHarness(t, 200, 30, Config{Table: demo.ShapesTable, PK: demo.FlightsPK, Now: demoClock})
	h.keys("t")
	h.contains(t, "SK holds ISO 8601 without zone after a prefix ending #, then #… (detected)", "1 of 40 keys sampled is not a time: metadata")
	h.typeText("2021-08-01")
	h.keys("enter")
	h.contains(t, "newest first across 3 prefixes", "2021-08-01 20:00:00", "SEA#2021-08-01T20:00:00#")
	h = newHarness(t, 200, 30, Config{Table: demo.ShapesTable, PK: demo.PhotosPK, Now: demoClock})
	h.keys("t")
	h.contains(t, "SK holds ULIDs (time-ordered ids) after a prefix ending #", "3 of 40 keys sampled are not times: PROFILE#phone, PROFILE#email, PROFILE#")
	h.typeText("PHOTO# 2021-03")
	h.keys("enter")
	h.contains(t, `:lo="PHOTO#01EZNHB9000000000000000000"`, "2021-03-31 21:07:16   PHOTO#01F251S9F47DPQW7E2S5K8J4FW", "2021-03-01 00:00:00.000 UTC and 2021-03-31 23:59:59.999 UTC", "2021-03-25 09:22 ") // the sparkline is the new rows', not the last range's
	// Without a prefix, the range is merged across the prefixes that hold
	// time: PROFILE#, read whole in the sample, holds none and is not
	// queried (26.2).
	h = newHarness(t, 200, 30, Config{Table: demo.ShapesTable, PK: demo.PhotosPK, Now: demoClock})
	h.keys("t")
	h.typeText("2021-03")
	h.keys("enter")
	h.contains(t, "newest first across 1 prefix", "2021-03-31 21:07:16   PHOTO#01F251S9F47DPQW7E2S5K8J4FW", "1 Query merged by time (PHOTO#)")
	if s := h.screen(); strings.Contains(s, "1 prefixes") || strings.Contains(s, "1 Queries") {
		t.Fatalf("PROFILE# merged, or a plural for one:\n%s", s)
	}
	h = newHarness(t, 140, 30, Config{Table: demo.OrdersTable, PK: demo.OrdersCustomer, Now: demoClock})
	h.keys("t")
	h.contains(t, "OrderCreationDate holds dates written as numbers (20060102 (a number))", "2015-12-31 00:00:00")
	h.typeText("2015-03")
	h.keys("enter")
	h.contains(t, ":lo=20150301 :hi=20150331", "between 2015-03-01 and 2015-03-31", "9 items loaded")
	// Keys that name a day hold all of it: an hour inside one reads that
	// day's key, as range does (it was "no key can fall in this range").
	h = newHarness(t, 140, 30, Config{Table: demo.OrdersTable, PK: demo.OrdersCustomer, Now: demoClock})
	h.keys("t")
	h.typeText("2015-03-15T10")
	h.keys("enter")
	h.contains(t, "OrderCreationDate = :sk", ":sk=20150315")
}

// seedClock writes n items a minute apart, keyed by epoch seconds.
func seedClock(t *testing.T, w dynamo.Writer, n int) {
	t.Helper()
	items := make([]dynamo.Item, n)
	for j := range items {
		items[j] = dynamo.Item{"PK": s("C"), "SK": &types.AttributeValueMemberN{Value: strconv.Itoa(clockStart + 60*j)}}
	}
	if err := demo.CreateKeyTable(context.Background(), w, "Clock", "N", items); err != nil {
		t.Fatal(err)
	}
}

const clockStart = 1700000000

var clockKey = regexp.MustCompile(`\b17\d{8}\b`)

// TestTimeGReadsTheOtherEndInOneRead: in Time mode (newest first) G sends
// one reverse Query and shows the oldest items under a gap row; scrolling
// back up from there reads on until the reads meet; g is the newest again,
// and the joined list walks down from it, every key once, in order.
func TestTimeGReadsTheOtherEndInOneRead(t *testing.T) {
	const n = 3000
	db := memory.New()
	seedClock(t, db, n)
	newest := clockStart + 60*(n-1)
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Clock", PK: "C", Now: func() time.Time { return time.Unix(int64(newest), 0) }})
	h.keys("t", "esc")
	h.contains(t, "newest first", strconv.Itoa(newest), "more as you scroll")
	before := h.rec.count("Query")
	h.keys("G")
	if got := h.rec.count("Query") - before; got != 1 {
		t.Fatalf("G sent %d Query requests, want 1\n%s", got, h.screen())
	}
	h.contains(t, strconv.Itoa(clockStart), "2023-11-14 22:13:20", "the middle not read yet")
	scrollBackThroughGap(t, h, "3,000 items loaded · all")
	h.keys("g")
	h.contains(t, strconv.Itoa(newest))
	want := newest
	for range 600 {
		for _, k := range clockKey.FindAllString(h.screen(), -1) {
			if v, _ := strconv.Atoi(k); v == want {
				want -= 60
			}
		}
		if want < clockStart {
			break
		}
		h.keys("pgdown")
	}
	if want >= clockStart {
		t.Fatalf("walking down the joined list found keys in order down to %d, want %d", want+60, clockStart)
	}
}

// TestTimeGOnAShortRange: a range read whole needs no reverse read: G
// just moves to its last row.
func TestTimeGOnAShortRange(t *testing.T) {
	db := memory.New()
	seedClock(t, db, 20)
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Clock", PK: "C", Now: func() time.Time { return time.Unix(clockStart, 0) }})
	h.keys("t", "esc")
	h.contains(t, "20 items loaded · all")
	before := h.rec.count("Query")
	h.keys("G")
	if got := h.rec.count("Query") - before; got != 0 {
		t.Fatalf("G on a whole list sent %d Query requests", got)
	}
	if strings.Contains(h.screen(), gapText) {
		t.Fatal(fmt.Sprint("a gap row on a whole list:\n", h.screen()))
	}
}

// seedStateLog writes a STATE#time log of n items 7 minutes apart over
// four states, from 2020-04-01.
func seedStateLog(t *testing.T, w dynamo.Writer, n int) []string {
	t.Helper()
	states := []string{"ERROR", "NORMAL", "WARNING1", "WARNING2"}
	start := time.Date(2020, 4, 1, 0, 0, 0, 0, time.UTC)
	items := make([]dynamo.Item, n)
	keys := make([]string, n)
	for i := range items {
		keys[n-1-i] = states[(i*3)%4] + "#" + start.Add(time.Duration(i)*7*time.Minute).Format("2006-01-02T15:04:05")
		items[i] = dynamo.Item{"PK": s("d#1"), "SK": s(keys[n-1-i])}
	}
	if err := demo.CreateKeyTable(context.Background(), w, "States", "S", items); err != nil {
		t.Fatal(err)
	}
	return keys // newest first
}

var stateKey = regexp.MustCompile(`\b(?:ERROR|NORMAL|WARNING1|WARNING2)#2020-\d\d-\d\dT\d\d:\d\d:\d\d\b`)

// TestTimeMergedGReadsTheEndInOneRead: on a range merged across four
// prefixes, G sends one reverse Query a prefix and shows the oldest items
// under a gap row; scrolling back reads on backwards until the reads meet;
// g is the newest again, and the joined list walks down from it, every
// key once, in the merge's order; on both backends.
func TestTimeMergedGReadsTheEndInOneRead(t *testing.T) {
	const n = 1200
	type backend interface {
		dynamo.Client
		dynamo.Writer
	}
	for name, c := range map[string]backend{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()} {
		t.Run(name, func(t *testing.T) {
			keys := seedStateLog(t, c, n)
			h := newHarness(t, 120, 35, Config{Client: c, Table: "States", PK: "d#1", Now: demoClock})
			h.keys("t")
			h.typeText("2020-04")
			h.keys("enter")
			h.contains(t, "newest first across 4 prefixes", keys[0], "more as you scroll")
			before := h.rec.count("Query")
			h.keys("G")
			if got := h.rec.count("Query") - before; got != 4 {
				t.Fatalf("G sent %d Query requests, want one a prefix (4)\n%s", got, h.screen())
			}
			h.contains(t, keys[n-1], "the middle not read yet")
			scrollBackThroughGap(t, h, "1,200 items loaded · all")
			h.keys("g")
			h.contains(t, keys[0])
			seen := 0
			for range 600 {
				for _, k := range stateKey.FindAllString(h.screen(), -1) {
					if seen < n && k == keys[seen] {
						seen++
					}
				}
				if seen == n {
					break
				}
				h.keys("pgdown")
			}
			if seen != n {
				t.Fatalf("walking down the joined list found keys in order up to %d of %d (next %s)", seen, n, keys[seen])
			}
		})
	}
}

// TestTimeMergedGFailedRetries: when one of G's reverse Queries fails, the
// failure is said below the rows loaded, and r reads the end again: the
// gap row and the oldest items, not the head read on.
func TestTimeMergedGFailedRetries(t *testing.T) {
	db := memory.New()
	keys := seedStateLog(t, db, 1200)
	f := failAfter("Query", 1<<30, throttled)
	f.Client = db
	h := newHarness(t, 120, 35, Config{Client: f, Table: "States", PK: "d#1", Now: demoClock})
	h.keys("t")
	h.typeText("2020-04")
	h.keys("enter")
	h.contains(t, "newest first across 4 prefixes", keys[0])
	f.mu.Lock()
	f.after = f.calls + 2 // the third of G's four Queries fails
	f.mu.Unlock()
	h.keys("G")
	h.contains(t, "read failed after 3 attempts", "r retries")
	if strings.Contains(h.screen(), keys[len(keys)-1]) {
		t.Fatalf("the oldest item shown after a failed G:\n%s", h.screen())
	}
	f.mu.Lock()
	f.after = 1 << 30
	f.mu.Unlock()
	before := h.rec.count("Query")
	h.keys("r")
	if got := h.rec.count("Query") - before; got != 4 {
		t.Fatalf("r after a failed G sent %d Query requests, want G's 4 again", got)
	}
	h.contains(t, keys[len(keys)-1], "the middle not read yet")
}

// TestTimeDetectsFromHeadlessSample (26.2): the Time mode detects the
// format from the sample headless detection reads, not its first page.
// Ten ZETA# notes and eight EVENT# times are the newest keys, forty
// AUDIT# times the oldest: the first page is mostly not times, the
// sample (newest 20, oldest 20) is three quarters times.
func TestTimeDetectsFromHeadlessSample(t *testing.T) {
	at := time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC)
	var sks []string
	for i := range 40 {
		sks = append(sks, "AUDIT#"+at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))
	}
	for i := range 8 {
		sks = append(sks, "EVENT#"+at.AddDate(0, 1, i).Format(time.RFC3339))
	}
	for i := range 10 {
		sks = append(sks, fmt.Sprintf("ZETA#note-%02d", i))
	}
	h := newHarness(t, 200, 50, Config{Table: "T", PK: "p", Client: keysDB(t, sks...)})
	h.keys("4")
	h.contains(t, "SK holds ISO 8601 with zone after a prefix ending # (detected)", "10 of 40 keys sampled are not times: ZETA#note-09")
}

// logTable is a device log keyed Device (S) / At (N, epoch seconds).
func logTable(t *testing.T) *memory.DB {
	t.Helper()
	db := memory.New()
	if _, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String("Logs"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("Device"), AttributeType: "S"}, {AttributeName: aws.String("At"), AttributeType: "N"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("Device"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("At"), KeyType: types.KeyTypeRange}}}); err != nil {
		t.Fatal(err)
	}
	return db
}

func putAt(t *testing.T, db *memory.DB, at time.Time, msg string) {
	t.Helper()
	if _, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Logs"), Item: map[string]types.AttributeValue{
		"Device": &types.AttributeValueMemberS{Value: "d1"}, "At": &types.AttributeValueMemberN{Value: fmt.Sprint(at.Unix())},
		"Msg": &types.AttributeValueMemberS{Value: msg}}}); err != nil {
		t.Fatal(err)
	}
}

// driver runs the program's loop as the program would, commands in
// goroutines (the follow loop waits for polls, so no synchronous harness
// can), until a screen says what a test waits for.
type driver struct {
	h    *harness
	msgs chan tea.Msg
}

func (h *harness) driver() *driver { return &driver{h: h, msgs: make(chan tea.Msg, 64)} }

func (d *driver) start(c tea.Cmd) {
	if c != nil {
		go func() { d.msgs <- c() }()
	}
}

// key presses a key, its commands left running.
func (d *driver) key(name string) {
	_, cmd := d.h.m.Update(keyPress(name))
	d.start(cmd)
}

func (d *driver) until(t *testing.T, deadline time.Duration, done func(screen string) bool) {
	t.Helper()
	stop := time.After(deadline)
	recheck := time.NewTicker(10 * time.Millisecond) // done may wait on something other than a message
	defer recheck.Stop()
	for !done(d.h.screen()) {
		select {
		case <-recheck.C:
		case msg := <-d.msgs:
			switch msg := msg.(type) {
			case nil, spinner.TickMsg:
			case tea.BatchMsg:
				for _, c := range msg {
					d.start(c)
				}
			default:
				_, next := d.h.m.Update(msg)
				d.start(next)
			}
		case <-stop:
			t.Fatalf("not within %s:\n%s", deadline, d.h.screen())
		}
	}
}

// TestFollowInTimeMode: F appends each item written after the range,
// once, newest on top, and says how many and what it costs; F stops it,
// and nothing arrives after.
func TestFollowInTimeMode(t *testing.T) {
	db := logTable(t)
	now := time.Now()
	for i := 1; i <= 3; i++ {
		putAt(t, db, now.Add(-time.Duration(i)*time.Hour), fmt.Sprintf("old-%d", i))
	}
	h := newHarness(t, 140, 30, Config{Client: db, Table: "Logs", PK: "d1", Range: "last 24h"})
	h.contains(t, "3 items loaded")
	putAt(t, db, now.Add(time.Minute), "new-1") // written after the range was read
	d := h.driver()
	d.key("F")
	d.until(t, 5*time.Second, func(s string) bool { return strings.Contains(s, "following · 1 new") })
	h.contains(t, "RCU", "new-1", "4 items loaded") // the cost's words: TestFollowCostSaysSoFarBeforeAMinute
	putAt(t, db, now.Add(2*time.Minute), "new-2")
	d.key("down") // keys go on working while following
	d.until(t, 5*time.Second, func(s string) bool { return strings.Contains(s, "following · 2 new") })
	if sc := h.screen(); strings.Index(sc, "new-2") > strings.Index(sc, "new-1") || strings.Count(sc, "new-1") != 1 {
		t.Fatalf("the newest is not on top, or an item came twice:\n%s", h.screen())
	}
	// While following, F and esc stop it: the help line says so.
	if line := helpLine(h); !strings.Contains(line, "F stop following") || !strings.Contains(line, "esc stop following") || strings.Contains(line, "esc back") {
		t.Fatalf("help line while following: %q", line)
	}
	d.key("F")
	if strings.Contains(h.screen(), "following") {
		t.Fatal("F did not stop following")
	}
}

// TestFollowKeysInSeveralOffsetsInTimeMode: F over keys written in
// several UTC offsets appends a new key written in an offset behind the
// one its polls are written in (its text below theirs), and not an old
// one written ahead.
func TestFollowKeysInSeveralOffsetsInTimeMode(t *testing.T) {
	db := memory.New()
	now := time.Now().Truncate(time.Second)
	in := func(at time.Time, hours float64) string {
		return at.In(time.FixedZone("", int(hours*3600))).Format("2006-01-02T15:04:05-07:00")
	}
	var items []dynamo.Item
	for i, off := range []float64{0, -5, 5.5} {
		items = append(items, dynamo.Item{"PK": s("E"), "SK": s(in(now.Add(-time.Duration(2*i+1)*time.Hour), off))})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Events", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 200, 30, Config{Client: db, Table: "Events", PK: "E", Range: "last 24h"})
	h.contains(t, "3 in range · 3 read")
	newKey, oldKey := in(now.Add(time.Minute), -5), in(now.Add(-150*time.Minute), 5.5)
	for _, k := range []string{newKey, oldKey} {
		if _, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Events"), Item: dynamo.Item{"PK": s("E"), "SK": s(k)}}); err != nil {
			t.Fatal(err)
		}
	}
	d := h.driver()
	d.key("F")
	d.until(t, 5*time.Second, func(s string) bool { return strings.Contains(s, "following · 1 new") })
	if sc := h.screen(); !strings.Contains(sc, newKey) || strings.Contains(sc, oldKey) {
		t.Fatalf("following keys in several offsets, want %s and not %s:\n%s", newKey, oldKey, sc)
	}
	d.key("F")
}

// TestFollowBilledAsTheStatusBar: polls that find nothing are reported at
// 0 RCU by the embedded backend (as by dynalite) and billed 0.5 each by
// DynamoDB: what following costs a minute is the bill, marked an
// estimate as the status bar marks it, never "0.0 RCU" while the status
// bar's figure grows (in its first minute, what it spent so far).
func TestFollowBilledAsTheStatusBar(t *testing.T) {
	db := logTable(t)
	putAt(t, db, time.Now().Add(-time.Hour), "old-1")
	h := newHarness(t, 140, 30, Config{Client: db, Table: "Logs", PK: "d1", Range: "last 24h"})
	h.contains(t, "1 item loaded")
	d := h.driver()
	d.key("F")
	d.until(t, 10*time.Second, func(s string) bool { return strings.Contains(s, "RCU est. so far") })
	if sc := h.screen(); strings.Contains(sc, " 0.0 RCU") {
		t.Fatalf("the polls shown at the server's 0.0 RCU:\n%s", sc)
	}
	d.key("F")
}

// TestFollowNeedsTime: F where the sort key holds no time says so and
// what to set, rather than polling.
func TestFollowNeedsTime(t *testing.T) {
	h := newHarness(t, 140, 30, Config{Table: "Locations", PK: "USA"})
	h.keys("4", "F")
	if strings.Contains(h.screen(), "following") {
		t.Fatal("followed keys with no time")
	}
	// The Time tab does not open on keys that hold no time (see
	// TestModeTabs), so F has nothing to follow.
	h.contains(t, "Tree")
}

// TestTimeRefreshReanchorsRelativeRange: r on a range counted back from
// now ("last 15m") counts it back from the new now and reads it again;
// it kept the window it was opened with.
func TestTimeRefreshReanchorsRelativeRange(t *testing.T) {
	db := logTable(t)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	now := start
	putAt(t, db, start.Add(-5*time.Minute), "early")
	putAt(t, db, start.Add(20*time.Minute), "later")
	h := newHarness(t, 140, 30, Config{Client: db, Table: "Logs", PK: "d1", Range: "last 15m", Now: func() time.Time { return now }})
	h.contains(t, "early", "1 item loaded")
	before := h.rec.count("Query")
	now = start.Add(30 * time.Minute) // "later" is in the last 15m now, "early" is not
	h.keys("r")
	if n := h.rec.count("Query") - before; n == 0 {
		t.Fatalf("r on a relative range sent no request:\n%s", h.screen())
	}
	h.contains(t, "later", "1 item loaded", fmt.Sprint(start.Add(15*time.Minute).Unix()))
	if strings.Contains(h.screen(), "early") {
		t.Fatalf("r kept the window it was opened with:\n%s", h.screen())
	}
}

// TestTimeKeepsItsRangeAcrossModes: leaving Time for another mode and
// coming back lists the same range, and the next key acts as a key (it
// was typed into a range bar focused again).
func TestTimeKeepsItsRangeAcrossModes(t *testing.T) {
	h := newHarness(t, 120, 30, Config{Table: demo.StateTable, PK: demo.StateDevice, Now: demoClock})
	h.keys("t")
	h.typeText("WARNING1# 2020-04-24")
	h.keys("enter")
	h.contains(t, `:prefix="WARNING1#2020-04-24T"`)
	h.keys("2")
	h.contains(t, "2 Items")
	h.keys("4")
	h.contains(t, "range › WARNING1# 2020-04-24", `:prefix="WARNING1#2020-04-24T"`)
	h.keys("o") // a key, not text
	if strings.Contains(h.screen(), "range › WARNING1# 2020-04-24o") {
		t.Fatalf("o was typed into the range bar:\n%s", h.screen())
	}
	h.contains(t, "oldest first")
}

// TestTimeDeepLinkWaitsForTheFormatTruly: a range given on the command
// line (--range) waits for the keys to tell the time format; meanwhile
// the frame says it reads and names the range waiting, not "27 items
// loaded" and "range › all" over a body that says it is reading (a new
// user's walk, 3 s a request).
func TestTimeDeepLinkWaitsForTheFormatTruly(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			var held []tea.Msg
			cfg := Config{Table: "Metrics", PK: "cpu.web-1", Range: "last 6h", Now: demoClock, Connection: "DEMO"}
			rec := record(demoData(t))
			metered := dynamo.NewMetered(rec)
			cfg.Client, cfg.Session = metered, metered.Session
			h := harnessFor(t, New(cfg), rec)
			h.d.Drop = func(msg tea.Msg) bool { // the sample's answer waits: the format is being read
				if fmt.Sprintf("%T", msg) == "pages.timeSampledMsg" {
					held = append(held, msg)
					return true
				}
				_, tick := msg.(loadTickMsg)
				return tick
			}
			h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			h.run(h.m.Init())
			if len(held) == 0 {
				t.Fatalf("no sample read for the time format:\n%s", h.screen())
			}
			h.contains(t, "cpu.web-1 · reading…", "range › last 6h", "Reading the newest items")
			if s := h.screen(); strings.Contains(s, "items loaded") || strings.Contains(s, "range › all") {
				t.Fatalf("while the format is read:\n%s", s)
			}
			h.d.Drop = nil
			for _, m := range held {
				h.send(m)
			}
			h.contains(t, "range › last 6h   (t to change)", "newest first", "TS BETWEEN :lo AND :hi")
		})
	}
}

// TestTimeBarSaysItsKeysWhenReopened: t on a range already run opens
// the bar with its text and says what enter, ctrl+u and esc do, at every
// size it fits: the text was padded to the example's width, which pushed
// the words out of the frame, cut to "…".
func TestTimeBarSaysItsKeysWhenReopened(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {200, 50}} {
		h := newHarness(t, sz[0], sz[1], Config{Table: "AuditLog", PK: "prod-api", Range: "last 24h", Now: demoClock})
		h.contains(t, "range › last 24h   (t to change)")
		h.keys("t")
		h.contains(t, "range › last 24h ", " enter runs · ctrl+u clears · esc cancels")
	}
}

// TestTimeBarScrolls: a range typed past the frame scrolls in the bar as
// the f and : boxes do, the cursor's end shown and the text it hides
// marked "…" (at the prompt's end for the left, at the box's end for the
// right); the frame had cut its end off, cursor and all.
func TestTimeBarScrolls(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, sz[0], sz[1], Config{Table: "AuditLog", PK: "prod-api", Range: "last 24h", Now: demoClock})
		h.keys("t", "ctrl+u")
		typed := "between 2018-08-29T12:00:00.000+00:00 and 2018-09-04T12:00:00.000+00:00"
		typed = strings.Repeat("   ", (sz[0]-len(typed))/3+1) + typed + " END"
		h.typeText(typed)
		bar := rangeBarLine(t, h)
		if !strings.Contains(bar, "│ range ›…") || !strings.HasSuffix(strings.TrimRight(bar, " │"), "+00:00 END") {
			t.Errorf("%dx%d: the bar does not show the end typed, scrolled:\n%s", sz[0], sz[1], h.screen())
		}
		h.keys("home")
		if bar := rangeBarLine(t, h); !strings.Contains(bar, "│ range ›    ") || !strings.HasSuffix(strings.TrimRight(bar, " │"), "…") {
			t.Errorf("%dx%d: at its start the bar does not mark the text hidden on its right:\n%s", sz[0], sz[1], h.screen())
		}
	}
}

// rangeBarLine is the screen's line of the range bar, whole.
func rangeBarLine(t *testing.T, h *harness) string {
	t.Helper()
	for l := range strings.SplitSeq(h.screen(), "\n") {
		if strings.Contains(l, "range ›") {
			return l
		}
	}
	t.Fatalf("no range bar:\n%s", h.screen())
	return ""
}

// TestFollowOnAMergedRangeNamesThisTablesPrefixes: F on a range merged
// across prefixes says what to type for this partition, with its own
// prefix, never another table's example.
func TestFollowOnAMergedRangeNamesThisTablesPrefixes(t *testing.T) {
	h := newHarness(t, 140, 30, Config{Table: demo.StateTable, PK: demo.StateDevice, Now: demoClock})
	h.keys("t")
	h.typeText("since 2020-04-24")
	h.keys("enter")
	h.contains(t, "across 4 prefixes")
	h.keys("F")
	if strings.Contains(h.screen(), "amsg") {
		t.Fatalf("F named another table's prefix:\n%s", h.screen())
	}
	h.said(t, "NORMAL# since 2020-04-24")
}

// TestTimeOneFormInTooFewKeys: a small customer's partition (a
// profile, a contract's revisions, seven orders keyed STATUS#time#id)
// holds times in one form, in fewer than two thirds of its keys; a chat
// room holds seven MSG#<ULID> messages beside its members. Time mode
// refused both ("too few to take it unasked"); by their prefixes, as the
// range command reads them, it lists the orders and messages of the range,
// naming the prefixes that hold no time. A device's readings keyed to
// count time backwards (READING#<9999999999 − epoch seconds>) are said to
// be that, not "no time", with where to read them newest first. The title
// says there is no Time mode here, not the sample's "items loaded" over no
// row. On dynalite and the embedded backend.
func TestTimeOneFormInTooFewKeys(t *testing.T) {
	cases := []struct {
		pk, rng string // the range asked ("" for a refusal)
		keys    []string
		want    []string
	}{
		{"CUSTOMER#c0003", "2018", []string{"PROFILE", "v0_Contract", "v1_Contract", "v2_Contract", "v3_Contract",
			"PLACED#2018-03-06T05:42:00#ORD00005", "PLACED#2018-03-06T13:29:00#ORD00003", "PLACED#2018-11-02T08:00:00#ORD00007", "PLACED#2019-01-09T10:10:00#ORD00001",
			"DELIVERED#2018-03-28T08:46:00#ORD00002", "DELIVERED#2018-07-14T19:01:00#ORD00004", "DELIVERED#2017-12-30T23:59:00#ORD00006"},
			[]string{"5 items loaded · all · newest first across 2 prefixes", "PLACED#2018-11-02T08:00:00#ORD00007", "DELIVERED#2018-07-14T19:01:00#ORD00004",
				"DELIVERED#2018-03-28T08:46:00#ORD00002", "PLACED#2018-03-06T13:29:00#ORD00003", "PLACED#2018-03-06T05:42:00#ORD00005"}},
		{"ROOM#r05", "2024-05", []string{"META", "MEMBER#user000", "MEMBER#user001", "MEMBER#user002", "MEMBER#user003", "MEMBER#user004", "MEMBER#user005", "MEMBER#user006",
			"MSG#01HWWA79E0F8QY40YGECYYS9E9", "MSG#01HXW4EX70R04A2K1HYRVSW8Q6", "MSG#01HZ8HFAD028ZDGVKTRPTEN1HA", "MSG#01HZ8HH5Z8M6DHJ74YY5P4T91J",
			"MSG#01HWRQ6V0RVT722RNHF2K0462C", "MSG#01HJCHY500TJG92NMQ8RRXR6HV", "MSG#01HYAXYWG0FKVGKN0TM1R83NXP"},
			[]string{"4 items loaded · all · newest first across 1 prefix", "MSG#01HZ8HFAD028ZDGVKTRPTEN1HA", "MSG#01HYAXYWG0FKVGKN0TM1R83NXP",
				"MSG#01HXW4EX70R04A2K1HYRVSW8Q6", "MSG#01HWWA79E0F8QY40YGECYYS9E9"}},
		// A sensor's readings in epoch ms beside its alarms in epoch s
		// (ElectroDB's keys): each prefix read in its own form, merged.
		{"$iot#sensor_sn0", "2025-03", []string{"$sensor#sensor_1", "$sensor#reading_1#at_1738000000000", "$sensor#reading_1#at_1741000000000",
			"$sensor#reading_1#at_1741500000000", "$sensor#alarm_1#raiseds_1739000000", "$sensor#alarm_1#raiseds_1741200000"},
			[]string{"3 items loaded · all · newest first across 2 prefixes", "2025-03-09 06:00:00   $sensor#reading_1#at_1741500000000",
				"2025-03-05 18:40:00   $sensor#alarm_1#raiseds_1741200000", "2025-03-03 11:06:40   $sensor#reading_1#at_1741000000000"}},
		// A device's readings keyed READING#<9999999999 − epoch seconds>,
		// newest first in key order: no time read forwards (2232).
		{"DEVICE#d1#2024-W18", "", []string{"META", "READING#8285650788", "READING#8285478399", "READING#8285478400", "READING#8284530000"},
			[]string{"the sort keys here count time backwards, newest first", "(READING#8285650788 is 9999999999 − 1714349211, 2024-04-29T00:06:51Z):",
				"the Time mode reads keys in their time's order only;", "Items lists these newest first"}},
	}
	for _, c := range cases {
		var items []dynamo.Item
		for _, k := range c.keys {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: c.pk}, "SK": &types.AttributeValueMemberS{Value: k}})
		}
		backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Shared(t).Client()}
		for name, db := range backends {
			table := "OrderHistory" // the breadcrumb's, fixed for the golden
			if name == "dynalite" {
				table = fmt.Sprintf("OrderHistory%d", time.Now().UnixNano())
			}
			if err := demo.CreateKeyTable(context.Background(), db, table, types.ScalarAttributeTypeS, items); err != nil {
				t.Fatal(err)
			}
			t.Run(c.pk+"/"+name, func(t *testing.T) {
				w := 80
				if c.rng != "" {
					w = 240 // wide enough for the format line's note of what is left out
				}
				h := newHarness(t, w, 24, Config{Client: db, Table: table, PK: c.pk, Range: cmp.Or(c.rng, "last 24h")})
				h.contains(t, c.want...)
				if c.rng != "" {
					// What range lists, and the prefixes it names as left out.
					switch c.pk {
					case "$iot#sensor_sn0":
						h.contains(t, "SK holds a form a prefix: $sensor#alarm_1#raiseds_{epoch seconds}, $sensor#reading_1#at_{epoch milliseconds}", "1 prefix of the keys sampled holds no time: $sensor#sensor_")
					case "CUSTOMER#c0003":
						h.contains(t, "5 prefixes of the keys sampled hold no time: PROFILE, v0_Contract, v1_Contract, v2_Contract, v3_Contract, left out of ranges")
					default:
						h.contains(t, "2 prefixes of the keys sampled hold no time: MEMBER#, META, left out of ranges")
					}
					// At 80 columns the note has the line below the format
					// (it was cut off the format's line: nothing said some
					// items are not in the range), its count first, and
					// every row still on screen.
					h = newHarness(t, 80, 24, Config{Client: db, Table: table, PK: c.pk, Range: c.rng})
					h.contains(t, c.want[1:]...)
					switch c.pk {
					case "CUSTOMER#c0003":
						h.contains(t, "5 prefixes of the keys sampled hold no time, not in ranges: PROFILE…")
						if name == "memory" {
							h.golden(t)
						}
					case "ROOM#r05":
						h.contains(t, "2 prefixes of the keys sampled hold no time, not in ranges: MEMBER#, META")
					default:
						h.contains(t, "1 prefix of the keys sampled holds no time, not in ranges: $sensor#sensor_")
					}
					return
				}
				h.contains(t, c.pk+" · no Time mode here") // the title said "20 items loaded · more as you scroll" over no row
				if s := h.screen(); strings.Contains(s, "do not read as time") || strings.Contains(s, "items loaded") {
					t.Errorf("said the keys do not read as time, or items loaded:\n%s", s)
				}
			})
		}
	}
}

// TestTimeMergedRangeLeavesOutTheTimelessPrefix: onetable's account#
// beside Event#{epoch ms} and invoice#{epoch ms}#{ulid} in one partition,
// between the sample's newest and oldest keys: the walk for the prefixes
// reads account# whole, with no time in it, and the range queries the
// two prefixes that hold one, as range does, saying account# is left
// out. It queried account# too ("across 3 prefixes", a Query for
// nothing). On dynalite and the embedded backend.
func TestTimeMergedRangeLeavesOutTheTimelessPrefix(t *testing.T) {
	var items []dynamo.Item
	item := func(sk string) {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "account#1"}, "SK": &types.AttributeValueMemberS{Value: sk}})
	}
	item("account#")
	const t0 = 1601510400000 // 2020-10-01
	for i := range 40 {
		item(fmt.Sprintf("Event#%d", t0+int64(i)*17*3600_000))
	}
	for i := range 30 {
		item(fmt.Sprintf("invoice#%d#01M8F94VKBJMDPCZNVPZYP1H%02d", t0+int64(i)*23*3600_000, i))
	}
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Shared(t).Client()}
	for name, db := range backends {
		table := fmt.Sprintf("OneTable%d", time.Now().UnixNano())
		if err := demo.CreateKeyTable(context.Background(), db, table, types.ScalarAttributeTypeS, items); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, 120, 35, Config{Client: db, Table: table, PK: "account#1", Range: "2020-10"})
			h.contains(t, "newest first across 2 prefixes", "2 Queries merged by time (Event# invoice#)",
				"1 prefix read whole holds no time", "account#")
			if strings.Contains(h.screen(), "Event# account#") {
				t.Fatalf("account# queried:\n%s", h.screen())
			}
		})
	}
}

// TestTimeRefusedOffersNoTimeKeys: where Time mode says its keys hold no
// time, its help line offers none of the keys that need a time (they did
// nothing): no range bar, filter, zone or search over no rows.
func TestTimeRefusedOffersNoTimeKeys(t *testing.T) {
	h := newHarness(t, 160, 30, Config{Table: "Locations", PK: "USA", Range: "last 24h"})
	h.contains(t, "do not read as time")
	line := helpLine(h)
	for _, absent := range []string{"t time range", "f filter", "z UTC/local", "/ search"} {
		if strings.Contains(line, absent) {
			t.Errorf("a Time mode with no time offers %q: %q", absent, line)
		}
	}
	if !strings.Contains(line, "esc back") {
		t.Errorf("esc back left the help line: %q", line)
	}
	// The rows read to decide it are not listed: the row count says so.
	if strings.Contains(line, "row 1 of") {
		t.Errorf("a Time mode that lists nothing counts rows: %q", line)
	}
	// Its own keys, off here, are never answered as another screen's.
	h.keys("t")
	if strings.Contains(h.screen(), "does not apply here: it opens Time mode") {
		t.Errorf("t in Time mode was answered as a key of another screen:\n%s", h.screen())
	}
}

// TestTimeOnAPartitionThatDoesNotExist: the Time mode of a partition
// no item has (DeviceLogs, whose keys hold epoch seconds) says there is
// no such partition, as the tree does, at every golden size; the range
// bar offers no t, and t and F say why, never that the sort key holds
// no time. It said "the partition is empty" over "range › all (t to
// change)", and F said "no time in this sort key to follow".
func TestTimeOnAPartitionThatDoesNotExist(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Config{Table: "DeviceLogs", PK: "99999"})
			h.keys("4")
			h.contains(t, "99999 · does not exist", "No item has the partition key 99999: there is no such partition.", "range › –")
			if scr := h.screen(); strings.Contains(scr, "t to change") || strings.Contains(scr, "empty") || strings.Contains(scr, "all") {
				t.Fatalf("a Time mode with no partition offers a range:\n%s", scr)
			}
			h.keys("t")
			h.said(t, "t: no Time mode here; ? says why")
			h.keys("F")
			h.said(t, "no item to tell the time format")
			if last := h.m.said[len(h.m.said)-1].whole(); strings.Contains(last, "no time in this sort key") {
				t.Fatalf("F: %s", last)
			}
			h.keys("?")
			h.contains(t, "no item has the partition key 99999")
		})
	}
}

// testULID is a ULID of instant at with a fixed random part.
func testULID(at time.Time) string {
	const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	ms := at.UnixMilli()
	b := make([]byte, 10)
	for i := 9; i >= 0; i-- {
		b[i] = crockford[ms%32]
		ms /= 32
	}
	return string(b) + "0000000000000000"
}

// TestTimeUnderAPrefixBeforeAnother: drilled to ORDER# of keys
// ORDER#{iso}#{ulid}, the time before the id orders the keys (as
// dynamodb-onetable's invoice#${date}#${id}, whose ulid is when it was
// written, not its date): the range is the ISO times' under ORDER#, read
// as much wider as their UTC offsets are apart, never run as
// ORDER#{ulid} bounds that no key has ("No items in this range" over two
// orders of March), and listed in key order, saying so, not "newest
// first" (14:19Z is listed above 18:21Z); so is the listing with no
// range.
func TestTimeUnderAPrefixBeforeAnother(t *testing.T) {
	db := memory.New()
	items := []dynamo.Item{{"PK": s("C"), "SK": s("PROFILE")}}
	for _, iso := range []string{"2026-02-28T17:42:42+02:00", "2026-03-05T13:21:42-05:00", "2026-03-05T14:19:42+00:00", "2026-04-20T04:02:42-05:00"} {
		at, err := time.Parse(time.RFC3339, iso)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, dynamo.Item{"PK": s("C"), "SK": s("ORDER#" + iso + "#" + testULID(at))})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Orders", "S", items); err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC) }
	h := newHarness(t, 200, 30, Config{Client: db, Table: "Orders", PK: "C", Prefix: "ORDER#", Range: "2026-03", Now: now})
	h.contains(t, "C › ORDER# · 2 in range · 3 read", "key order, descending: UTC offsets differ", "range read ±7h", "2026-03-05 18:21:42", "2026-03-05 14:19:42",
		"2026-02-28 17:00:00 UTC and 2026-04-01 06:59:59 UTC", "1 req · 0.5 RCU") // one Query of ORDER#'s stretch, not one a prefix
	if s := h.screen(); strings.Contains(s, "No items") || strings.Contains(s, "2026-02-28 15:42:42") || strings.Contains(s, "the whole partition, not only") {
		t.Fatalf("the range under ORDER#:\n%s", s)
	}
	h = newHarness(t, 200, 30, Config{Client: db, Table: "Orders", PK: "C", Prefix: "ORDER#", Now: now})
	h.keys("4", "esc")
	h.contains(t, "C › ORDER# · 4 items loaded", "key order, descending")
}

// TestTimeKeysInSeveralOffsets: ISO keys written in several UTC offsets
// sort as text, not as time (13:21-05:00 is 18:21Z, listed below 14:19Z):
// the title says key order and why, never "newest first"; a range misses
// none of its keys.
func TestTimeKeysInSeveralOffsets(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for _, k := range []string{"2026-03-04T23:00:00-05:00", "2026-03-05T13:21:42-05:00", "2026-03-05T14:19:42+00:00", "2026-03-06T10:00:00+05:30", "2026-03-07T01:00:00+02:00"} {
		items = append(items, dynamo.Item{"PK": s("E"), "SK": s(k)})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Events", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 200, 30, Config{Client: db, Table: "Events", PK: "E", Now: func() time.Time { return time.Date(2026, 3, 8, 0, 0, 0, 0, time.UTC) }})
	h.keys("4", "esc")
	h.contains(t, "5 items loaded · all · key order, descending: UTC offsets differ", "UTC offsets up to 10h30m apart: key order is not time order, ranges read ±10h30m")
	h.keys("o")
	h.contains(t, "key order: UTC offsets differ")
	if s := h.screen(); strings.Contains(s, "newest first") || strings.Contains(s, "oldest first") {
		t.Fatalf("a time order claimed:\n%s", s)
	}
	// A range, written in one offset, is read 10h30m wider at each end
	// (the offsets' spread), and says so: 2026-03-04T23:00:00-05:00 is
	// 2026-03-05 04:00 UTC, outside the text of the day written in +02:00.
	h.keys("t")
	h.typeText("2026-03-05")
	h.keys("enter")
	h.contains(t, "range read ±10h30m", "2026-03-05 04:00:00   2026-03-04T23:00:00-05:00", "2026-03-05 18:21:42", "2026-03-05 14:19:42")
	// Only the range's own keys are listed, and the title counts what it
	// says: 2026-03-06T10:00:00+05:30 (the 6th, 04:30 UTC) is read, not
	// listed.
	h.contains(t, "3 in range · 4 read · 0.5 RCU · all", "row 1 of 3")
	if s := h.screen(); strings.Contains(s, "2026-03-06T10:00:00+05:30") || strings.Contains(s, "items loaded") {
		t.Fatalf("a key outside the range listed, or counted as listed:\n%s", s)
	}
}

// TestTimeSnowflakesOfTwoWidths: the explorer's Time mode writes the
// bounds of Snowflake ids (time_format "snowflake") as wide as the ids
// the range holds, as range does: ids of 2015 have 18 digits, and bounds
// of 19 read none of them ("No items"). A range holding both widths says
// where they meet and reads nothing.
func TestTimeSnowflakesOfTwoWidths(t *testing.T) {
	db := memory.New()
	id := func(at string, seq int64) string {
		tm, _ := time.Parse(time.RFC3339, at)
		return "POST#" + strconv.FormatInt((tm.UnixMilli()-1288834974657)<<22|seq, 10)
	}
	var items []dynamo.Item
	for i, at := range []string{"2012-03-01T12:00:00Z", "2015-05-01T12:00:00Z", "2015-05-20T12:00:00Z", "2015-06-01T12:00:00Z",
		"2019-01-01T12:00:00Z", "2024-05-01T12:00:00Z", "2024-05-20T12:00:00Z"} {
		items = append(items, dynamo.Item{"PK": s("USER#u0"), "SK": s(id(at, int64(i)))})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Posts", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 30, Config{Client: db, Table: "Posts", PK: "USER#u0", Now: func() time.Time { return time.Date(2026, 3, 8, 0, 0, 0, 0, time.UTC) },
		Tables: map[string]config.TableSettings{"Posts": {TimeFormat: "snowflake"}}})
	h.keys("4", "esc", "t")
	h.typeText("2015-05")
	h.keys("enter")
	h.contains(t, id("2015-05-20T12:00:00Z", 2), id("2015-05-01T12:00:00Z", 1), "row 1 of 2")
	if sc := h.screen(); strings.Contains(sc, id("2015-06-01T12:00:00Z", 3)) || strings.Contains(sc, "No items") {
		t.Fatalf("2015-05 on 18-digit ids:\n%s", sc)
	}
	h.keys("t", "ctrl+u")
	h.typeText("2018")
	h.keys("enter")
	h.contains(t, "✗ 18- and 19-digit ids sort apart at 2018-05-25T13:05:53Z: range one side")
}

// TestTimeSaysDiscordIdsReadAsNanoseconds: Discord's message ids of
// 2026 are 19 digits, which the Time mode read as epoch nanoseconds of
// 2016–2017 without a word. It keeps that reading, as range does, and
// says on the line below the format how to read them as Discord ids (or
// X's, which they are too), both at 80 columns too, where the second was
// cut off; genuine nanoseconds of 2026 (as Discord ids, 2028) are told
// nothing of Discord, and a table whose time_format is discord nothing.
func TestTimeSaysDiscordIdsReadAsNanoseconds(t *testing.T) {
	db := memory.New()
	now := func() time.Time { return time.Date(2026, 11, 27, 17, 0, 0, 0, time.UTC) }
	var items []dynamo.Item
	for i := range 30 {
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 5*i)
		items = append(items, dynamo.Item{"PK": s("CH#1"), "SK": s("MSG#" + strconv.FormatInt((at.UnixMilli()-1420070400000)<<22, 10))})
		items = append(items, dynamo.Item{"PK": s("LOG#1"), "SK": s("EV#" + strconv.FormatInt(at.UnixNano(), 10))})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Chat", "S", items); err != nil {
		t.Fatal(err)
	}
	hint := map[int]string{
		80:  "X (Twitter) ids: --time-format snowflake; Discord ids: --time-format discord",
		120: "X (Twitter) ids (2021-11…2022-03): --time-format snowflake; Discord ids (2026-01…2026-05): --time-format discord",
		200: "read as epoch nanoseconds (2016-02…2017-10); if these are X (Twitter) ids (2021-11…2022-03), use --time-format snowflake; if these are Discord ids (2026-01…2026-05), use --time-format discord",
	}
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Client: db, Table: "Chat", PK: "CH#1", Range: "after 2000-01-01", Now: now})
		h.contains(t, "SK holds prefix#epoch nanoseconds (detected)", hint[size[0]])
		h = newHarness(t, size[0], size[1], Config{Client: db, Table: "Chat", PK: "LOG#1", Range: "after 2000-01-01", Now: now})
		h.contains(t, "SK holds prefix#epoch nanoseconds (detected)")
		if sc := h.screen(); strings.Contains(sc, "Discord") {
			t.Errorf("%v: nanoseconds of 2026 told they may be Discord ids:\n%s", size, sc)
		}
	}
	h := newHarness(t, 80, 24, Config{Client: db, Table: "Chat", PK: "CH#1", Range: "2026-05", Now: now,
		Tables: map[string]config.TableSettings{"Chat": {TimeFormat: "discord"}}})
	h.contains(t, "Discord Snowflake", "row 1 of 6")
	if sc := h.screen(); strings.Contains(sc, "if these are Discord ids") {
		t.Errorf("time_format discord told to use it:\n%s", sc)
	}
}

// TestTimeRangeReadWiderPagesOn: a range over keys in several UTC
// offsets, read 10h30m wider, whose first pages hold only keys outside
// it (60 keys of the 6th written in -05:00, their text on the 5th),
// reads on, a screen at a time, until its own keys are listed: never
// "No items" while they are still to be read.
func TestTimeRangeReadWiderPagesOn(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for _, k := range []string{"2026-03-05T08:00:00+05:30", "2026-03-05T13:21:42-05:00", "2026-03-05T14:19:42+00:00"} {
		items = append(items, dynamo.Item{"PK": s("E"), "SK": s(k)})
	}
	for i := range 60 { // the 6th, 00:00 to 03:56 UTC: outside the range, inside its widened read
		at := time.Date(2026, 3, 6, 0, 4*i, 0, 0, time.UTC).In(time.FixedZone("", -5*3600))
		items = append(items, dynamo.Item{"PK": s("E"), "SK": s(at.Format(time.RFC3339))})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Events", "S", items); err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 3, 8, 0, 0, 0, 0, time.UTC) }
	h := newHarness(t, 160, 24, Config{Client: db, Table: "Events", PK: "E", Range: "2026-03-05", Now: now})
	h.contains(t, "3 in range · 63 read", "range read ±10h30m", "2026-03-05 18:21:42", "2026-03-05 14:19:42", "2026-03-05 02:30:00", "row 1 of 3")
	if s := h.screen(); strings.Contains(s, "No items") || strings.Contains(s, "2026-03-06 0") {
		t.Fatalf("the widened read's first pages:\n%s", s)
	}
	// After its first page, none of it in the range, it says so and
	// that it reads on: not "No items", not "all".
	h = newHarness(t, 160, 24, Config{Client: db, Table: "Events", PK: "E", Now: now})
	h.keys("4", "esc", "t")
	h.typeText("2026-03-05")
	pages := 0
	h.press("enter", func(msg tea.Msg) bool {
		if fmt.Sprintf("%T", msg) == "list.PageLoadedMsg" {
			pages++
		}
		return pages < 2
	})
	h.contains(t, "0 in range · ", "None in this range yet: ", "Reading on…")
	if s := h.screen(); strings.Contains(s, "No items") || strings.Contains(s, "· all") {
		t.Fatalf("after a first page of none in the range:\n%s", s)
	}
}

// TestTimeFractionsOfAnyLengthListsItsOwn: keys whose fractions of a
// second vary in length (Go's RFC3339Nano) are read whole seconds at a
// range's ends, since …:17Z sorts after …:17.5Z as text; only the range's
// own rows are listed and both are counted, where the key of the second
// before the range's start was listed as in it, and the order is said to
// be by time to the second, not "newest first" alone.
func TestTimeFractionsOfAnyLengthListsItsOwn(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for _, k := range []string{"2026-11-05T01:45:17Z", "2026-11-05T01:45:17.7Z", "2026-11-05T11:16:42.1Z", "2026-11-05T11:16:43Z", "2026-11-05T11:16:43.25Z"} {
		items = append(items, dynamo.Item{"PK": s("E"), "SK": s(k)})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Events", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 200, 30, Config{Client: db, Table: "Events", PK: "E", Now: func() time.Time { return time.Date(2026, 11, 8, 0, 0, 0, 0, time.UTC) }})
	h.keys("4", "esc", "t")
	h.typeText("between 2026-11-05T01:45:17.5Z and 2026-11-05T11:16:42Z")
	h.keys("enter")
	h.contains(t, "2 in range · 3 read", "newest first, to the second", "2026-11-05T01:45:17.7Z", "2026-11-05T11:16:42.1Z", "row 1 of 2")
	if s := h.screen(); strings.Contains(s, "2026-11-05T01:45:17Z ") {
		t.Fatalf("a key before the range listed:\n%s", s)
	}
}

// TestTimeMergedRangeListsItsOwn: a range merged across the prefixes
// before the time (amsg#, bob#), over keys in several UTC offsets, read
// 10h30m wider, lists only its own rows and counts both.
func TestTimeMergedRangeListsItsOwn(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for _, k := range []string{"amsg#2026-03-04T23:00:00-05:00", "bob#2026-03-05T13:21:42-05:00", "amsg#2026-03-05T14:19:42+00:00",
		"bob#2026-03-06T10:00:00+05:30", "amsg#2026-03-04T20:00:00+05:30", "bob#2026-03-07T01:00:00+02:00"} {
		items = append(items, dynamo.Item{"PK": s("E"), "SK": s(k)})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Events", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 200, 30, Config{Client: db, Table: "Events", PK: "E", Range: "2026-03-05", Now: func() time.Time { return time.Date(2026, 3, 8, 0, 0, 0, 0, time.UTC) }})
	h.contains(t, "3 in range · 5 read", "across 2 prefixes", "range read ±10h30m", "amsg#2026-03-04T23:00:00-05:00", "bob#2026-03-05T13:21:42-05:00", "amsg#2026-03-05T14:19:42+00:00", "row 1 of 3")
	if s := h.screen(); strings.Contains(s, "   bob#2026-03-06T10:00:00+05:30") || strings.Contains(s, "   amsg#2026-03-04T20:00:00+05:30") {
		t.Fatalf("a key outside the range listed (the request line names them as its bounds):\n%s", s)
	}
}

// TestHelpShowsTheRequestWhole: ? shows a long request wrapped at its
// spaces, each value whole on its line where it fits one (a hard wrap cut
// :lo="ORDER#…" across two lines, which then copies as two words).
func TestHelpShowsTheRequestWhole(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for _, iso := range []string{"2026-02-28T17:42:42+02:00", "2026-03-05T13:21:42-05:00", "2026-03-05T14:19:42+00:00"} {
		at, _ := time.Parse(time.RFC3339, iso)
		items = append(items, dynamo.Item{"PK": s("C"), "SK": s("ORDER#" + iso + "#" + testULID(at))})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Orders", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 80, 24, Config{Client: db, Table: "Orders", PK: "C", Prefix: "ORDER#", Range: "2026-03", Now: func() time.Time { return time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC) }})
	h.keys("?")
	h.contains(t, "the request, whole:", `:lo="ORDER#2026-02-28T17:00:00Z" :hi="ORDER#2026-04-01T06:59:59Z#\U0010ffff"`)
}

// TestTimeTitleKeepsItsOrder: where the Time title does not fit (80
// columns, a long partition key, a range's figures), what the rows' order
// is comes right after the key and the count is cut, visibly: the order,
// "newest first across 2 prefixes, to the second", was cut off whole.
func TestTimeTitleKeepsItsOrder(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for _, k := range []string{"PLACED#2018-03-06T05:42:00Z", "PLACED#2018-03-06T13:29:00.25Z", "PLACED#2018-11-02T08:00:00Z",
		"DELIVERED#2018-03-28T08:46:00Z", "DELIVERED#2018-07-14T19:01:00.5Z", "DELIVERED#2017-12-30T23:59:00Z"} {
		items = append(items, dynamo.Item{"PK": s("CUSTOMER#c0003-emea-north"), "SK": s(k)})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "OrderHistory", "S", items); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Client: db, Table: "OrderHistory", PK: "CUSTOMER#c0003-emea-north", Range: "2018", Now: demoClock})
		title := lineWith(h.screen(), "╭─")
		want := "CUSTOMER#c0003-emea-north · 5 in range · 5 read · 0.5 RCU · all · newest first across 2 prefixes, to the second"
		if size[0] == 80 {
			want = "CUSTOMER#c0003-emea-north · newest first across 2 prefixes, to the second…"
		}
		if !strings.Contains(title, want) {
			t.Errorf("%v: title %q, want %q", size, title, want)
		}
	}
}

// TestTimeMergedRangeBesideTimelessLines: ElectroDB's shop customer, its
// orders keyed by time ($account#order_1#placedat_{iso}#orderid_…) above
// their lines ($account#line_1#…, no time): Time mode's month is one
// Query of the orders, after one keys-only read of the keys between the
// sample's lines and orders, and lists what the partition holds in it.
// A page of the newest keys stopped among the orders and the children
// walk read every order's key again to find the one prefix the sample's
// ends had named: 8 Query requests and 7.5 RCU, where reading the
// partition costs 5.0 (now 4 and 2.5).
func TestTimeMergedRangeBesideTimelessLines(t *testing.T) {
	start := time.Date(2026, 6, 3, 8, 0, 0, 0, time.UTC)
	var items []dynamo.Item
	put := func(sk string, attrs map[string]string) {
		it := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "$shop#customerid_c5"}, "SK": &types.AttributeValueMemberS{Value: sk}}
		for k, v := range attrs {
			it[k] = &types.AttributeValueMemberS{Value: v}
		}
		items = append(items, it)
	}
	put("$account#customer_1", map[string]string{"name": "Customer 5"})
	var month []string
	for i := range 95 {
		at := start.Add(time.Duration(35+i*29) * 3 * time.Hour)
		sk := fmt.Sprintf("$account#order_1#placedat_%s#orderid_o%04d", strings.ToLower(at.Format("2006-01-02T15:04:05.000Z")), i)
		put(sk, map[string]string{"status": "open", "note": strings.Repeat("n", 120), "gsi1sk": sk})
		if at.Format("2006-01") == "2026-08" {
			month = append(month, fmt.Sprintf("o%04d", i))
		}
		for l := range i % 4 {
			put(fmt.Sprintf("$account#line_1#orderid_o%04d#lineno_%02d", i, l), map[string]string{"sku": "sku"})
		}
	}
	for name, db := range map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Shared(t).Client()} {
		table := fmt.Sprintf("Shop%d", time.Now().UnixNano())
		if err := demo.CreateKeyTable(context.Background(), db, table, types.ScalarAttributeTypeS, items); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, 200, 50, Config{Client: db, Table: table, PK: "$shop#customerid_c5", Range: "2026-08"})
			h.contains(t, month[len(month)-1], fmt.Sprintf("%d items", len(month)))
			for _, o := range month {
				h.contains(t, o)
			}
			full := dynamo.NewMetered(db)
			for page := (dynamo.Page{}); ; {
				var err error
				page, err = dynamo.QueryPage(context.Background(), full, dynamo.PageRequest{Query: domain.KeyQuery{Table: table, PKName: "PK", PK: domain.S("$shop#customerid_c5"), SKName: "SK"}, Start: page.LastKey})
				if err != nil {
					t.Fatal(err)
				}
				if !page.More() {
					break
				}
			}
			total, _ := h.m.cfg.Session.Totals()
			whole, _ := full.Session.Totals()
			t.Logf("%s: %d Query requests, %.1f RCU; reading the partition %.1f RCU", name, h.rec.count("Query"), total.RCU, whole.RCU)
			if n := h.rec.count("Query"); n > 4 || total.RCU > whole.RCU {
				t.Errorf("%d Query requests, %.1f RCU; reading the partition %.1f RCU\n%s", n, total.RCU, whole.RCU, h.screen())
			}
		})
	}
}
