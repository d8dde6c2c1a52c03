package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

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
	for !done(d.h.screen()) {
		select {
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
	h.contains(t, "RCU", "a minute", "new-1", "4 items loaded")
	putAt(t, db, now.Add(2*time.Minute), "new-2")
	d.key("down") // keys go on working while following
	d.until(t, 5*time.Second, func(s string) bool { return strings.Contains(s, "following · 2 new") })
	if sc := h.screen(); strings.Index(sc, "new-2") > strings.Index(sc, "new-1") || strings.Count(sc, "new-1") != 1 {
		t.Fatalf("the newest is not on top, or an item came twice:\n%s", h.screen())
	}
	d.key("F")
	if strings.Contains(h.screen(), "following") {
		t.Fatal("F did not stop following")
	}
}

// TestFollowBilledAsTheStatusBar: polls that find nothing are reported at
// 0 RCU by the embedded backend (as by dynalite) and billed 0.5 each by
// DynamoDB: what following costs a minute is the bill, marked an
// estimate as the status bar marks it, never "0.0 RCU" while the status
// bar's figure grows.
func TestFollowBilledAsTheStatusBar(t *testing.T) {
	db := logTable(t)
	putAt(t, db, time.Now().Add(-time.Hour), "old-1")
	h := newHarness(t, 140, 30, Config{Client: db, Table: "Logs", PK: "d1", Range: "last 24h"})
	h.contains(t, "1 item loaded")
	d := h.driver()
	d.key("F")
	d.until(t, 10*time.Second, func(s string) bool { return strings.Contains(s, "RCU est. a minute") })
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
