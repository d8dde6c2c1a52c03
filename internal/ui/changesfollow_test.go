package ui

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

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
	d.key("F")
	if strings.Contains(h.screen(), "following") {
		t.Fatal("F did not stop following")
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
		if last := f[len(f)-1]; figure.MatchString(last) || label.MatchString(last) {
			t.Fatalf("the request line's first line ends with %q, its word on the next:\n%s", last, s)
		}
		if g, _ := followingFigures(lines[i+1], "followed"); g < 0 {
			t.Fatalf("the second line does not say what following read, whole:\n%s", s)
		}
		return
	}
	t.Fatalf("no request line:\n%s", s)
}
