package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
	h.contains(t, `"Email"`, "changes of this item · reading the stream…")
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
		h.contains(t, "changes of this item · read failed", "connection reset by peer")
		if strings.Contains(h.screen(), "No changes") {
			t.Fatalf("a failed read shown as none:\n%s", h.screen())
		}
	})
	t.Run("none in the window", func(t *testing.T) {
		h := changesHarness(t, 120, 35, "c#002") // loaded in bulk: never written in the stream's day
		h.keys("2", "enter")
		h.contains(t, "changes of this item · none in 24 h", "No changes since "+demo.DemoEnd.Add(-24*time.Hour).UTC().Format("2006-01-02 15:04")+" UTC")
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
	d.until(t, 10*time.Second, func(s string) bool { return strings.Contains(s, "changes of this item · reading the stream…") })
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
	if s := h.screen(); !strings.Contains(s, "changes of this item · read cancelled") {
		t.Fatalf("a read stopped by leaving is not said to be cancelled:\n%s", s)
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
