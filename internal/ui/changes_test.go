package ui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// changesHarness opens the demo's Shop partition whose orders move
// through their states in its stream, at the demo's present.
func changesHarness(t *testing.T, w, h int, pk string) *harness {
	db := demoData(t)
	return newHarness(t, w, h, Config{Table: demo.ShopTable, PK: pk, Streams: db, Now: func() time.Time { return demo.DemoEnd }})
}

// TestChangesTab: 5 opens the partition's changes from the table's
// stream, newest first, with what the selected one changed; reading it
// costs no Query and no RCU.
func TestChangesTab(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := changesHarness(t, size[0], size[1], demo.StreamCustomer)
			before := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem")
			h.keys("5")
			h.contains(t, "c#001 · 9 changes in 24 h", "MODIFY", "2026-10-31 23:54:00", `~ Status  "SHIPPED" → "DELIVERED"`)
			if n := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem") - before; n != 0 {
				t.Errorf("the Changes tab read the table %d times", n)
			}
			if total, _ := h.m.cfg.Session.Totals(); total.Requests < 4 {
				t.Errorf("the status bar counts %d requests: the stream's calls are not counted", total.Requests)
			}
			h.golden(t)
		})
	}
}

// TestChangesTabFailedReadOffersNoFollow: after a failed read of the
// stream the Changes tab says so where its rows would be, its row count
// says more may be there, F is off the help line and, pressed, says
// what to do first (it did nothing).
func TestChangesTabFailedReadOffersNoFollow(t *testing.T) {
	db := demoData(t)
	h := newHarness(t, 120, 35, Config{Client: db, Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: failingStreams{db}, Now: func() time.Time { return demo.DemoEnd }})
	h.keys("5")
	h.contains(t, "read failed", "connection reset by peer", "no rows yet")
	if line := helpLine(h); strings.Contains(line, "F follow") {
		t.Fatalf("F offered after a failed read: %q", line)
	}
	h.keys("F")
	h.said(t, "F follows from where the stream's read ends: r reads it again first")
}

// TestChangesTabOrderAndDiff: the newest change is first; stepping down
// shows each one's diff, an INSERT as added attributes.
func TestChangesTabOrderAndDiff(t *testing.T) {
	h := changesHarness(t, 120, 35, demo.StreamCustomer)
	h.keys("5")
	s := h.screen()
	first, last := strings.Index(s, "23:54:00"), strings.Index(s, "01:00:00")
	if first < 0 || last < 0 || first > last {
		t.Fatalf("not newest first:\n%s", s)
	}
	h.keys("G")
	h.contains(t, `+ Email  "c1@old.example.com"`)
}

// TestChangesTabMasked: --mask hides old and new values in the diff.
func TestChangesTabMasked(t *testing.T) {
	db := demoData(t)
	h := newHarness(t, 120, 35, Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: db, Mask: []string{"Email"},
		Now: func() time.Time { return demo.DemoEnd }})
	h.keys("5", "down")
	s := h.screen()
	if strings.Contains(s, "example.com") {
		t.Fatalf("a masked value shown:\n%s", s)
	}
	h.contains(t, "~ Email  \"‹m")
}

// TestChangesTabMaskedKey: with the partition key masked, the Changes
// tab reads the partition's real records (the request is given in
// stand-ins) and shows them in stand-ins: never "0 changes" for a
// partition that has some.
func TestChangesTabMaskedKey(t *testing.T) {
	db := demoData(t)
	h := newHarness(t, 120, 35, Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: db, Mask: []string{"PK", "SK", "GSI2PK", "Email"},
		Now: func() time.Time { return demo.DemoEnd }})
	h.keys("5", "down")
	s := h.screen()
	if strings.Contains(s, demo.StreamCustomer) || strings.Contains(s, "example.com") {
		t.Fatalf("a masked value shown:\n%s", s)
	}
	h.contains(t, "‹m1›#‹m2› · 9 changes in 24 h", "~ Email  \"‹m")
}

// TestChangesTabNoStream: a table without a stream dims the tab, and 5
// says why, reading nothing.
func TestChangesTabNoStream(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Streams: demoData(t)})
	before := len(h.rec.calls)
	h.keys("5")
	h.contains(t, "No Changes mode here: the table has no stream")
	if len(h.rec.calls) != before {
		t.Errorf("pressing 5 on a table without a stream read %v", h.rec.calls)
	}
}

// TestTableChanges: 5 on the partitions list opens every partition's
// changes from the stream, newest first, with both key columns and the
// selected one's diff, reading no table item.
func TestTableChanges(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			db := demoData(t)
			h := newHarness(t, size[0], size[1], Config{Table: demo.StateTable, Streams: db, Now: func() time.Time { return demo.DemoEnd }})
			before := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem")
			h.keys("5")
			h.contains(t, "all partitions · 6 changes in 24 h", "DeviceID", demo.StateDevice, "+ Reading")
			if n := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem") - before; n != 0 {
				t.Errorf("the table's changes read the table %d times", n)
			}
			h.golden(t)
		})
	}
}

// TestTableChangesAcrossPartitions: the table-wide view holds every
// partition's changes, newest first; the mode keys of a partition say
// how to reach them, and a table without a stream says why, reading
// nothing.
func TestTableChangesAcrossPartitions(t *testing.T) {
	db := ordersTable(t)
	putOrder(t, db, "c1", "o1", "PLACED")
	putOrder(t, db, "c2", "o9", "PLACED")
	putOrder(t, db, "c1", "o1", "PAID")
	h := newHarness(t, 120, 35, Config{Client: db, Streams: db, Table: "Orders"})
	h.keys("5")
	h.contains(t, "all partitions · 3 changes in 24 h", `~ Status  "PLACED" → "PAID"`)
	s := h.screen()
	if i, j := strings.Index(s, "MODIFY"), strings.Index(s, "c2"); i < 0 || j < 0 || j < i {
		t.Fatalf("not every partition's, newest first:\n%s", s)
	}
	putOrder(t, db, "c3", "o5", "PLACED") // any partition's new write, followed
	d := h.driver()
	d.key("F")
	d.until(t, 10*time.Second, func(s string) bool { return strings.Contains(s, "following · 1 new") })
	h.contains(t, "c3", "o5")
	d.key("F")
	h.keys("1")
	h.said(t, "open one (esc, then enter)")
	h.keys("esc")
	h.contains(t, "c1", "c2")

	nostream := newHarness(t, 120, 35, Config{Table: "Locations", Streams: demoData(t)})
	before := len(nostream.rec.calls)
	nostream.keys("5")
	nostream.said(t, "No Changes here: the table has no stream")
	if len(nostream.rec.calls) != before {
		t.Errorf("5 on a table without a stream read %v", nostream.rec.calls)
	}
}

// TestTablesPreviewSaysStream: the table list's preview says, from the
// DescribeTable it already made, whether a table keeps a stream and of
// which view type.
func TestTablesPreviewSaysStream(t *testing.T) {
	h := newHarness(t, 200, 50, Config{})
	h.contains(t, "stream         none: no Changes") // the first table, AuditLog
	for range 30 {
		if strings.Contains(h.screen(), "stream         NEW_AND_OLD_IMAGES") {
			return
		}
		h.keys("down")
	}
	t.Fatalf("no table's preview names its stream:\n%s", h.screen())
}

// TestTableChangesFromTheTableList: 5 on a table of the list opens its
// changes as the partitions list does; on one without a stream it says
// why and reads nothing.
func TestTableChangesFromTheTableList(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Streams: demoData(t), Now: func() time.Time { return demo.DemoEnd }})
	before := len(h.rec.calls)
	h.keys("5") // the first table, AuditLog, keeps no stream
	h.said(t, "No Changes here: the table has no stream")
	if len(h.rec.calls) != before {
		t.Errorf("5 on a table without a stream read %v", h.rec.calls)
	}
	for range 20 { // down to the first table with a stream: Shop
		if h.keys("down", "5"); strings.Contains(h.screen(), "all partitions · ") {
			break
		}
	}
	h.contains(t, "Tables › Shop › changes", "all partitions · 9 changes in 24 h")
}

// ordersTable is a table keyed PK/SK whose stream keeps both images.
func ordersTable(t *testing.T) *memory.DB {
	t.Helper()
	db := memory.New()
	s := func(n string) *types.AttributeDefinition {
		return &types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: "S"}
	}
	if _, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String("Orders"),
		AttributeDefinitions: []types.AttributeDefinition{*s("PK"), *s("SK")},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}}); err != nil {
		t.Fatal(err)
	}
	return db
}

func putOrder(t *testing.T, db *memory.DB, pk, sk, status string) {
	t.Helper()
	if _, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk},
		"Status": &types.AttributeValueMemberS{Value: status}}}); err != nil {
		t.Fatal(err)
	}
}

// TestChangesFollow: F in the Changes tab puts each record written after
// the tab opened on top, once, and says it is following; a write to
// another partition does not show; F stops it, and nothing arrives after.
func TestChangesFollow(t *testing.T) {
	db := ordersTable(t)
	now := time.Now()
	putOrder(t, db, "c1", "o1", "PLACED")
	h := newHarness(t, 120, 35, Config{Client: db, Streams: db, Table: "Orders", PK: "c1", Now: func() time.Time { return now }})
	h.keys("5")
	h.contains(t, "c1 · 1 change in 24 h")
	putOrder(t, db, "c1", "o1", "PAID") // after the tab read the stream
	d := h.driver()
	d.key("F")
	d.until(t, 10*time.Second, func(s string) bool { return strings.Contains(s, "following · 1 new") })
	h.contains(t, `~ Status  "PLACED" → "PAID"`)
	putOrder(t, db, "c2", "o9", "PLACED") // another partition
	putOrder(t, db, "c1", "o2", "PLACED")
	d.key("down") // keys go on working while following
	d.until(t, 10*time.Second, func(s string) bool { return strings.Contains(s, "following · 2 new") })
	s := h.screen()
	if strings.Count(s, "INSERT") != 2 || strings.Count(s, "MODIFY") != 1 || strings.Contains(s, "o9") {
		t.Fatalf("a record came twice, went missing or is not this partition's:\n%s", s)
	}
	if i, j := strings.Index(s, "o2"), strings.Index(s, "MODIFY"); i < 0 || i > j {
		t.Fatalf("the newest record is not on top:\n%s", s)
	}
	// While following, F and esc stop it: the help line says so.
	if line := helpLine(h); !strings.Contains(line, "F stop following") || !strings.Contains(line, "esc stop following") || strings.Contains(line, "follow live") || strings.Contains(line, "esc back") {
		t.Fatalf("help line while following: %q", line)
	}
	d.key("F")
	if strings.Contains(h.screen(), "following") {
		t.Fatal("F did not stop following")
	}
	if line := helpLine(h); !strings.Contains(line, "F follow live") || !strings.Contains(line, "esc back") {
		t.Fatalf("help line after following: %q", line)
	}
	putOrder(t, db, "c1", "o3", "PLACED")
	h.keys("down")
	if strings.Contains(h.screen(), "o3") {
		t.Fatal("a record arrived after following stopped")
	}
}

// followingFigures reads the request line's following figures: its
// GetRecords and records, -1 when the line names no following.
func followingFigures(s, word string) (getRecords, records int) {
	m := regexp.MustCompile(word + `: ([0-9]+) GetRecords · ([0-9]+) records?`).FindStringSubmatch(s)
	if m == nil {
		return -1, -1
	}
	g, _ := strconv.Atoi(m[1])
	r, _ := strconv.Atoi(m[2])
	return g, r
}

// TestChangesFollowRequestLine: while following, the request line says
// so and counts what following reads as it reads it (GetRecords every
// second), where it kept the first read's figures; stopped, it says what
// following read in all; the status bar's request count holds every one
// of those calls.
func TestChangesFollowRequestLine(t *testing.T) {
	db := ordersTable(t)
	now := time.Now()
	putOrder(t, db, "c1", "o1", "PLACED")
	h := newHarness(t, 120, 35, Config{Client: db, Streams: db, Table: "Orders", PK: "c1", Now: func() time.Time { return now }})
	h.keys("5")
	h.contains(t, "stream of Orders · 1 shard · 1 record · ")
	d := h.driver()
	d.key("F")
	// Three reads of the open shard after the first: the figures grew.
	d.until(t, 20*time.Second, func(s string) bool { g, _ := followingFigures(s, "following"); return g >= 4 })
	h.contains(t, "stream of Orders · listed: 1 shard · 1 record · ")
	putOrder(t, db, "c1", "o1", "PAID")
	d.until(t, 10*time.Second, func(s string) bool {
		_, r := followingFigures(s, "following")
		return strings.Contains(s, "following · 1 new") && r >= 2
	})
	d.key("F")
	s := h.screen()
	g, _ := followingFigures(s, "followed")
	if g < 4 {
		t.Fatalf("stopped, the request line does not say what following read:\n%s", s)
	}
	if total, _ := h.m.cfg.Session.Totals(); total.Requests < g+2 {
		t.Fatalf("the status bar counts %d requests, fewer than following's %d GetRecords and the first read's", total.Requests, g)
	}
}

// TestChangesFollowRequestLineAt80: at 80 columns the followed request
// line takes two lines, and its wrap keeps each figure with its word: it
// used to end the first line with "followed: 4" and start the second with
// "GetRecords".
func TestChangesFollowRequestLineAt80(t *testing.T) {
	db := ordersTable(t)
	now := time.Now()
	putOrder(t, db, "c1", "o1", "PLACED")
	h := newHarness(t, 80, 24, Config{Client: db, Streams: db, Table: "Orders", PK: "c1", Now: func() time.Time { return now }})
	h.keys("5")
	before, _ := h.m.cfg.Session.Totals()
	d := h.driver()
	d.key("F")
	// Two reads of following, counted by the status bar's session (not
	// read off the line under test).
	d.until(t, 20*time.Second, func(string) bool { now, _ := h.m.cfg.Session.Totals(); return now.Requests >= before.Requests+3 })
	d.key("F")
	s := h.screen()
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "▸ stream of Orders") {
			continue
		}
		if i+1 == len(lines) || !strings.HasPrefix(lines[i+1], "  ") {
			t.Fatalf("the followed request line fits one line at 80 columns: the test tests nothing:\n%s", s)
		}
		f := strings.Fields(l)
		if last := f[len(f)-1]; figure().MatchString(last) || label().MatchString(last) {
			t.Fatalf("the request line's first line ends with %q, its word on the next:\n%s", last, s)
		}
		if g, _ := followingFigures(lines[i+1], "followed"); g < 0 {
			t.Fatalf("the second line does not say what following read, whole:\n%s", s)
		}
		return
	}
	t.Fatalf("no request line:\n%s", s)
}

// countingStreams counts the GetRecords calls that reach the backend.
type countingStreams struct {
	dynamo.StreamsClient
	getRecords atomic.Int64
}

func (c *countingStreams) GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, o ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	c.getRecords.Add(1)
	return c.StreamsClient.GetRecords(ctx, in, o...)
}

// TestChangesLeaveStopsFollowing: leaving the Changes tab while F follows
// (a mode's number, tab, shift+tab, or < back to the view before) cancels
// the reader: no GetRecords is sent after the switch, where the reader
// used to poll every second until quit.
func TestChangesLeaveStopsFollowing(t *testing.T) {
	for _, leave := range []string{"2", "tab", "shift+tab", "<"} {
		t.Run(leave, func(t *testing.T) {
			t.Parallel() // each its own table: the seconds waited for polls overlap
			db := ordersTable(t)
			putOrder(t, db, "c1", "o1", "PLACED")
			sc := &countingStreams{StreamsClient: db}
			h := newHarness(t, 120, 35, Config{Client: db, Streams: sc, Table: "Orders", PK: "c1"})
			h.keys("5")
			h.contains(t, "c1 · 1 change in 24 h")
			d := h.driver()
			d.key("F")
			d.until(t, 10*time.Second, func(s string) bool { return strings.Contains(s, "following") })
			// Following polls: wait until it has asked at least once more.
			for at := sc.getRecords.Load(); sc.getRecords.Load() <= at+1; {
				time.Sleep(50 * time.Millisecond)
			}
			d.key(leave)
			if h.m.top().Mode() == "Changes" {
				t.Fatalf("%s did not leave the Changes tab:\n%s", leave, h.screen())
			}
			time.Sleep(300 * time.Millisecond) // a call under way when it was cancelled ends
			after := sc.getRecords.Load()
			time.Sleep(2500 * time.Millisecond) // the reader polls every second
			if n := sc.getRecords.Load() - after; n != 0 {
				t.Fatalf("the stream was read %d more times after %s left the Changes tab", n, leave)
			}
		})
	}
}

// TestItemShowsItsChanges: opening an item of a table with a stream shows,
// under its value, that item's own changes, newest first (time, event,
// what changed), read from the stream without a table read; 5 opens them
// one a row with the selected one's diff.
func TestItemShowsItsChanges(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := changesHarness(t, size[0], size[1], demo.StreamCustomer)
			h.keys("2")
			before := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem")
			h.keys("enter") // the first row: the customer, whose e-mail changed
			h.contains(t, "changes of this item · 2 changes in 24 h", "2026-10-31 19:00:00  MODIFY  Email", "2026-10-31 01:00:00  INSERT")
			if n := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem") - before; n != 0 {
				t.Errorf("the item's changes read the table %d times", n)
			}
			s := h.screen()
			if i, j := strings.Index(s, "MODIFY"), strings.Index(s, "INSERT"); i < 0 || j < i {
				t.Errorf("not newest first:\n%s", s)
			}
			h.golden(t)
			h.keys("5")
			h.contains(t, "c#001 c#001 · 2 changes in 24 h", `~ Email  "c1@old.example.com" →`)
		})
	}
}

// TestItemChangesFirstPaint: the item is drawn before the stream is read,
// saying it is being read, never "none".
func TestItemChangesFirstPaint(t *testing.T) {
	h := changesHarness(t, 120, 35, demo.StreamCustomer)
	h.keys("2")
	held := false
	h.press("enter", func(msg tea.Msg) bool {
		if fmt.Sprintf("%T", msg) == "pages.changesReadMsg" {
			held = true
			return false // the stream's answer has not come
		}
		return true
	})
	if !held {
		t.Fatal("opening the item read no changes")
	}
	h.contains(t, `"Email"`, "changes of this item · reading…", "Reading the table's stream (24 hours of writes)…")
	if strings.Contains(h.screen(), "No changes") {
		t.Fatalf("an unanswered read shown as none:\n%s", h.screen())
	}
	h.keys("esc", "enter") // read whole this time
	h.contains(t, "changes of this item · 2 changes in 24 h")
	h.press("r", func(msg tea.Msg) bool { return fmt.Sprintf("%T", msg) != "pages.changesReadMsg" })
	h.contains(t, "changes of this item · 2 changes in 24 h · 5 shows each one's diff · reading again…")
}

// failingStreams refuses every GetRecords.
type failingStreams struct{ *memory.DB }

func (f failingStreams) GetRecords(context.Context, *dynamodbstreams.GetRecordsInput, ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	return nil, errors.New("connection reset by peer")
}

// TestItemChangesHonest: a failed read says so, never "none"; an item
// never written in the window says "no changes since …"; a table with no
// stream, or a KEYS_ONLY one, says so plainly and reads nothing; masked
// values never show in the item's changes.
func TestItemChangesHonest(t *testing.T) {
	t.Run("failed", func(t *testing.T) {
		db := demoData(t)
		h := newHarness(t, 120, 35, Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: failingStreams{db}, Now: func() time.Time { return demo.DemoEnd }})
		h.keys("2", "enter")
		h.contains(t, "changes of this item · read failed · nothing loaded · r retries", "connection reset by peer")
		if strings.Contains(h.screen(), "No changes") {
			t.Fatalf("a failed read shown as none:\n%s", h.screen())
		}
		// r reads again: until it answers nothing is counted (it said
		// "none in 24 h · reading again…" of a read that had failed).
		h.press("r", func(msg tea.Msg) bool { return fmt.Sprintf("%T", msg) != "pages.changesReadMsg" })
		h.contains(t, "changes of this item · reading…", "Reading the table's stream")
		if s := h.screen(); strings.Contains(s, "in 24 h") || strings.Contains(s, "No changes") {
			t.Fatalf("a read again after a failure counted before its answer:\n%s", s)
		}
	})
	t.Run("none in the window", func(t *testing.T) {
		h := changesHarness(t, 120, 35, "c#002") // loaded in bulk: never written in the stream's day
		h.keys("2", "enter")
		h.contains(t, "changes of this item · 0 changes in 24 h", "No changes since "+demo.DemoEnd.Add(-24*time.Hour).UTC().Format("2006-01-02 15:04")+" UTC")
	})
	t.Run("no stream", func(t *testing.T) {
		h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Streams: demoData(t)})
		h.keys("2", "enter")
		h.contains(t, "No stream on Locations: DynamoDB keeps no record of this item's changes")
		h.keys("5")
		h.said(t, "No stream on Locations")
	})
	t.Run("keys only", func(t *testing.T) {
		db := memory.New()
		s := func(n string) *types.AttributeDefinition {
			return &types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: "S"}
		}
		if _, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String("Orders"),
			AttributeDefinitions: []types.AttributeDefinition{*s("PK"), *s("SK")},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
			StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}}); err != nil {
			t.Fatal(err)
		}
		putOrder(t, db, "c1", "o1", "PLACED")
		sc := &countingStreams{StreamsClient: db}
		h := newHarness(t, 120, 35, Config{Client: db, Streams: sc, Table: "Orders", PK: "c1"})
		h.keys("2", "enter")
		h.contains(t, "the stream is KEYS_ONLY")
		if n := sc.getRecords.Load(); n != 0 {
			t.Errorf("a KEYS_ONLY stream read %d times for an item it cannot tell", n)
		}
	})
	t.Run("masked", func(t *testing.T) {
		db := demoData(t)
		h := newHarness(t, 120, 35, Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: db, Mask: []string{"Email"},
			Now: func() time.Time { return demo.DemoEnd }})
		h.keys("2", "enter")
		h.contains(t, "MODIFY  Email")
		h.keys("5")
		if s := h.screen(); strings.Contains(s, "example.com") {
			t.Fatalf("a masked value shown:\n%s", s)
		}
	})
}

// blockingStreams holds every GetRecords until its context ends, and
// says when one was cancelled.
type blockingStreams struct {
	dynamo.StreamsClient
	asked, cancelled chan struct{}
}

func (b blockingStreams) GetRecords(ctx context.Context, _ *dynamodbstreams.GetRecordsInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	b.asked <- struct{}{}
	<-ctx.Done()
	b.cancelled <- struct{}{}
	return nil, ctx.Err()
}

// TestItemChangesStopOnLeave: esc from an item whose changes are still
// being read cancels that read, where it used to run on to the present.
func TestItemChangesStopOnLeave(t *testing.T) {
	db := demoData(t)
	sc := blockingStreams{StreamsClient: db, asked: make(chan struct{}, 8), cancelled: make(chan struct{}, 8)}
	h := newHarness(t, 120, 35, Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: sc, Now: func() time.Time { return demo.DemoEnd }})
	h.keys("2")
	d := h.driver()
	d.key("enter")
	// The item's first reads (its changes, the table's TTL) start in one
	// batch: the messages are pumped until the stream is asked.
	d.until(t, 10*time.Second, func(s string) bool {
		return strings.Contains(s, "changes of this item · reading…") && len(sc.asked) > 0
	})
	select {
	case <-sc.asked:
	case <-time.After(10 * time.Second):
		t.Fatal("opening the item read no changes")
	}
	d.key("esc")
	d.until(t, 10*time.Second, func(s string) bool { return !strings.Contains(s, "changes of this item") })
	select {
	case <-sc.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("leaving the item left its changes being read")
	}
	h.keys("<") // back to the item: the read it left is said cancelled
	if s := h.screen(); !strings.Contains(s, "changes of this item · read cancelled · nothing loaded · r reads again") {
		t.Fatalf("a read stopped by leaving is not said to be cancelled, and what r does (reads again, from the start):\n%s", s)
	}
}

// oneImageTable is ordersTable with a stream keeping one image only
// (NEW_IMAGE or OLD_IMAGE), its records stamped by a fixed clock.
func oneImageTable(t *testing.T, view types.StreamViewType, at time.Time) *memory.DB {
	t.Helper()
	db := memory.New()
	db.SetClock(func() time.Time { return at })
	s := func(n string) *types.AttributeDefinition {
		return &types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: "S"}
	}
	if _, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String("Orders"),
		AttributeDefinitions: []types.AttributeDefinition{*s("PK"), *s("SK")},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}}); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestItemChangesOneImage: on a NEW_IMAGE or OLD_IMAGE stream the item's
// changes list says, under its "?", why what changed is unknown (no diff
// without both images), where only the 5 view said it.
func TestItemChangesOneImage(t *testing.T) {
	at := time.Date(2026, 10, 31, 12, 0, 0, 0, time.UTC)
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("NEW_IMAGE %dx%d", size[0], size[1]), func(t *testing.T) {
			db := oneImageTable(t, types.StreamViewTypeNewImage, at)
			putOrder(t, db, "c1", "o1", "PLACED")
			putOrder(t, db, "c1", "o1", "PAID")
			h := newHarness(t, size[0], size[1], Config{Client: db, Streams: db, Table: "Orders", PK: "c1", Now: func() time.Time { return at.Add(time.Minute) }})
			h.keys("2", "enter")
			h.contains(t, "changes of this item · 2 changes in 24 h", "MODIFY  ?", "?: the stream is NEW_IMAGE, no old values: no diff without both images")
			h.golden(t)
		})
	}
	t.Run("OLD_IMAGE", func(t *testing.T) {
		db := oneImageTable(t, types.StreamViewTypeOldImage, at)
		putOrder(t, db, "c1", "o1", "PLACED")
		putOrder(t, db, "c1", "o1", "PAID")
		h := newHarness(t, 120, 35, Config{Client: db, Streams: db, Table: "Orders", PK: "c1", Now: func() time.Time { return at.Add(time.Minute) }})
		h.keys("2", "enter")
		h.contains(t, "INSERT  ?", "?: the stream is OLD_IMAGE, no new values: no diff without both images")
	})
}

// TestItemShortHelpKeepsChanges: on a narrow terminal the item view's
// help line keeps 5 its changes (and esc back) where the item's changes
// are listed under it: it dropped both at 80 columns, leaving the changes
// behind a key nobody could see.
func TestItemShortHelpKeepsChanges(t *testing.T) {
	for _, w := range []int{60, 67, 80, 120} {
		h := changesHarness(t, w, 24, demo.StreamCustomer)
		h.keys("2", "enter")
		h.contains(t, "changes of this item · 2 changes in 24 h")
		line := helpLine(h)
		want := []string{"5 its changes", "? help • q quit"}
		if w >= 67 {
			want = append(want, "esc back")
		}
		for _, s := range want {
			if !strings.Contains(line, s) {
				t.Errorf("at %d columns the help line lacks %q: %q", w, s, line)
			}
		}
	}
}
