package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/dynamo/demo"
	"github.com/dynascope/dynascope/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/dynamo/memory"
)

func TestTablesPage(t *testing.T) {
	h := newHarness(t, 100, 30, Config{})
	h.contains(t, "Locations", "PK S · SK S", "GSI ByCity, LSI BySquareFeet", "READ-ONLY", "DEMO")
	h.golden(t)
}

func TestTablesPageWide(t *testing.T) {
	h := newHarness(t, 130, 30, Config{})
	h.keys("down", "down") // ChatMessages
	h.contains(t, "GSI ByTime", "partition key  ChatRoomID")
	h.golden(t)
}

func TestPartitionsPage(t *testing.T) {
	h := newHarness(t, 100, 30, Config{})
	for i := 0; i < 7; i++ { // Locations
		h.keys("down")
	}
	h.keys("enter")
	h.contains(t, "Tables › Locations", "USA", "more: scroll down to scan on", "Scan Locations", "(keys only) · 4 pages")
	h.golden(t)
	// Scrolling on scans on, a few pages at a time, never the whole table
	// behind the user's back.
	for i := 0; i < 3; i++ {
		h.keys("down")
	}
	h.contains(t, "FRANCE")
}

func TestItemsPageDeepLinkOneQuery(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Locations", PK: "USA"})
	if q := h.rec.count("Query"); q != 1 {
		t.Fatalf("the first screen of a partition took %d Query requests, want 1", q)
	}
	if s := h.rec.count("Scan"); s != 0 {
		t.Fatalf("a deep link to a partition scanned the table (%d Scans)", s)
	}
	h.contains(t, "Locations › USA", `Query Locations: PK = :pk   :pk="USA"`, "AK#")
	h.golden(t)
}

func TestItemsPageWidePreview(t *testing.T) {
	h := newHarness(t, 140, 32, Config{Table: "DeviceLogs", PK: "123"})
	h.contains(t, "1310216400", "1535544000", "1536022800", `"Timestamp": 1310216400`, "all · ascending")
	h.golden(t)
}

func TestItemsFlipOrder(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "123"})
	h.keys("o")
	s := h.screen()
	if strings.Index(s, "1536022800") > strings.Index(s, "1310216400") {
		t.Fatalf("o did not reverse the order:\n%s", s)
	}
	h.contains(t, "descending")
}

func TestItemPage(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Equipment", PK: "Equipment_1"})
	h.keys("down", "enter") // v0_Audit, after metadata
	h.contains(t, `"Checks": {`, "GetItem Equipment")
	h.golden(t)
	h.keys("d")
	h.contains(t, `"S": "Auditor-Grace"`, "DynamoDB JSON")
	h.keys("esc")
	h.contains(t, "items loaded")
}

func TestGoToPartition(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "DeviceLogs"})
	h.keys("/", "x", "enter")
	h.contains(t, `"x" is not a number`)
	h.keys("backspace", "1", "2", "3", "enter")
	h.contains(t, "DeviceLogs › 123", "1536022800")
}

func TestTooSmall(t *testing.T) {
	h := newHarness(t, 50, 12, Config{})
	h.contains(t, "Terminal too small", "50×12", "60×15")
	h.golden(t)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.contains(t, "Locations")
}

func TestMissingTableErrorPage(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Nope"})
	h.contains(t, "no such table", "What to do", "dynascope tables")
	h.golden(t)
	h.keys("esc")
	h.contains(t, "Locations", "GSI ByCity")
}

func TestBadDeepLinkKeepsWorking(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "DeviceLogs", PK: "abc"})
	h.contains(t, `"abc" is not a number`, "DeviceLogs")
	h.keys("enter")
	h.contains(t, "items loaded")
}

func TestHelpToggle(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Table: "Locations", PK: "USA"})
	h.keys("?")
	h.contains(t, "flip order", "page down", "refresh")
	h.keys("?")
	h.contains(t, "o flip order")
}

func TestUnreachableEndpoint(t *testing.T) {
	c, _, err := dynamo.Connect(context.Background(), dynamo.Target{Region: "us-east-1", EndpointURL: "http://127.0.0.1:1", MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "x")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "y")
	h := newHarness(t, 100, 30, Config{Client: c, Connection: "us-east-1 · http://127.0.0.1:1"})
	h.contains(t, "cannot reach the endpoint", "check --endpoint-url")
	h.keys("r")
	h.contains(t, "cannot reach the endpoint")
}

// TestItemDataIsEscaped: terminal control in item data never reaches the
// screen raw.
func TestItemDataIsEscaped(t *testing.T) {
	db := memory.New()
	ctx := context.Background()
	for _, def := range demo.Tables() {
		if *def.TableName == "Equipment" {
			if _, err := db.CreateTable(ctx, def); err != nil {
				t.Fatal(err)
			}
		}
	}
	evil := "\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b[31mred\u202egnp.exe\x00"
	put(t, db, "Equipment", map[string]string{"PK": "P", "SK": "v0_" + evil, "Notes": evil, "Name\x1b[1m": "x"})
	h := newHarness(t, 140, 30, Config{Client: db, Table: "Equipment", PK: "P"})
	raw := h.m.render()
	for _, bad := range []string{"\x1b]52", "\x1b[2J", "\u202e", "\x00", "\x07"} {
		if strings.Contains(raw, bad) {
			t.Fatalf("raw %q reached the screen", bad)
		}
	}
	h.contains(t, `v0_\x1b]52;c;ZXZpbA==`)
	h.keys("enter")
	h.contains(t, `\u001b]52;c;ZXZpbA==\u0007`, `\u202e`)
	raw = h.m.render()
	for _, bad := range []string{"\x1b]52", "\x1b[2J", "\u202e", "\x00"} {
		if strings.Contains(raw, bad) {
			t.Fatalf("raw %q reached the item view", bad)
		}
	}
}

// TestEndToEndOnDynalite runs the explorer on a real server.
func TestEndToEndOnDynalite(t *testing.T) {
	srv := dynalitetest.Start(t)
	c := srv.Client()
	if _, err := demo.Seed(context.Background(), c, demo.Options{Tables: []string{"Equipment"}}); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 100, 30, Config{Client: c, Connection: "dynalite"})
	h.contains(t, "Equipment", "PK S · SK S")
	h.keys("enter")
	h.contains(t, "Equipment_")
	h.keys("enter")
	h.contains(t, "items loaded", "v0_Audit")
	if q := h.rec.count("Query"); q != 1 {
		t.Fatalf("%d queries for the first screen", q)
	}
}

// TestSmokeProgram runs the real program loop on each page.
func TestSmokeProgram(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		keys []string
		want string
	}{
		{"tables", Config{}, nil, "GSI ByCity"},
		{"partitions", Config{Table: "Locations"}, nil, "USA"},
		{"items", Config{Table: "Locations", PK: "USA"}, nil, "items loaded"},
		{"item", Config{Table: "Locations", PK: "USA"}, []string{"enter"}, "StreetAddress"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			smoke(t, tc.cfg, tc.keys, tc.want)
		})
	}
}
