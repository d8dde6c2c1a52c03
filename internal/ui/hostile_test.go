package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// evil holds what a terminal would obey: OSC 52 (clipboard write), an OSC 8
// hyperlink, clear screen, cursor moves, colour, a C1 CSI, bidi override,
// BEL and NUL.
const evil = "\x1b]52;c;ZXZpbA==\x07\x1b]8;;http://x\x07link\x1b]8;;\x07\x1b[2J\x1b[1;1H\x1b[31mred\u009b2J\u202egnp.exe\x00"

// rawBad are sequences that must never reach the terminal from item data.
var rawBad = []string{"\x1b]", "\x1b[2J", "\x1b[1;1H", "\u009b", "\u202e", "\x00", "\x07"}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// hostileItems are the shapes DynamoDB allows that break naive tools.
func hostileItems() []dynamo.Item {
	deep := types.AttributeValue(s("bottom"))
	for i := 0; i < 31; i++ { // 32 levels with the attribute itself
		deep = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{fmt.Sprintf("level%d", 31-i): deep}}
	}
	big := strings.Repeat("0123456789", 39_000) // ~390 KB: near the 400 KB item limit
	items := []dynamo.Item{
		{"PK": s("H"), "SK": s("v0_" + evil), "Notes": s(evil), "Name" + evil: s("x")},
		{"PK": s("H"), "SK": s("v1_" + evil), "Notes": s("older " + evil)},
		{"PK": s("H"), "SK": s("big#1"), "Blob": s(big)},
		{"PK": s("H"), "SK": s("deep#1"), "Deep": deep},
		{"PK": s("H"), "SK": s("sets#1"), "SS": &types.AttributeValueMemberSS{Value: []string{"a", evil, "東京"}},
			"NS":  &types.AttributeValueMemberNS{Value: []string{"1", "-0.5", "12345678901234567890123456789012345678"}},
			"BS":  &types.AttributeValueMemberBS{Value: [][]byte{{0, 1, 2}, []byte(evil)}},
			"Bin": &types.AttributeValueMemberB{Value: []byte{0xff, 0xfe, 0x1b, '[', '2', 'J'}}},
		{"PK": s("H"), "SK": s("num#1"), "Big": &types.AttributeValueMemberN{Value: "99999999999999999999999999999999999999"},
			"Small": &types.AttributeValueMemberN{Value: "-0.000000000000000000000000000000000001"}, "Empty": s(""),
			"with space": s("a"), "a.b": s("b"), "#hash": s("c"), "Null": &types.AttributeValueMemberNULL{Value: true},
			"Bool": &types.AttributeValueMemberBOOL{Value: false}, "List": &types.AttributeValueMemberL{Value: []types.AttributeValue{s(evil), s("🦀🚀")}}},
		{"PK": s("H"), "SK": s("wide#東京都渋谷区"), "City": s("東京都 🦀🚀 Zürich ÎLE"), "Emoji": s("👩‍👩‍👧‍👦 family")},
	}
	for i := 0; i < 300; i++ { // enough rows to page
		items = append(items, dynamo.Item{"PK": s("H"), "SK": s(fmt.Sprintf("row#%04d", i)), "Text": s(fmt.Sprintf("%d %s 東京", i, evil))})
	}
	return items
}

func seedHostile(t *testing.T, w dynamo.Writer) {
	t.Helper()
	if err := demo.CreateKeyTable(context.Background(), w, "Hostile", "S", hostileItems()); err != nil {
		t.Fatal(err)
	}
}

// checkScreen fails on any raw escape from item data, and on any line that
// does not fill exactly the terminal's width (wide characters included).
func checkScreen(t *testing.T, h *harness, w int, where string) {
	t.Helper()
	raw := h.m.render()
	for _, bad := range rawBad {
		if strings.Contains(raw, bad) {
			t.Fatalf("%s: raw %q reached the screen", where, bad)
		}
	}
	for i, line := range strings.Split(raw, "\n") {
		got := ansi.StringWidth(line)
		if got > w {
			t.Fatalf("%s: line %d is %d wide on a %d-column terminal:\n%s", where, i, got, w, ansi.Strip(line))
		}
		if plain := ansi.Strip(line); (strings.HasPrefix(plain, "│") || strings.HasPrefix(plain, "╭") || strings.HasPrefix(plain, "╰")) && got != w {
			t.Fatalf("%s: framed line %d is %d wide, not %d: wide characters broke the columns:\n%s", where, i, got, w, plain)
		}
	}
}

// TestHostileDataBothBackends walks every view over hostile items on both
// backends, at 100 and 300 columns, resizing between steps.
func TestHostileDataBothBackends(t *testing.T) {
	mem := memory.New()
	seedHostile(t, mem)
	dl := dynalitetest.Start(t).Client()
	seedHostile(t, dl)
	screens := map[string]string{}
	for name, c := range map[string]dynamo.Client{"memory": mem, "dynalite": dl} {
		for _, w := range []int{100, 300} {
			h := newHarness(t, w, 40, Config{Client: c, Table: "Hostile", PK: "H", Delimiter: "#"})
			step := func(where string, keys ...string) {
				h.keys(keys...)
				checkScreen(t, h, w, fmt.Sprintf("%s %d %s", name, w, where))
			}
			step("tree")
			h.contains(t, "▸ big#", "▸ row#", `v0_\x1b]52`)
			step("items", "tab")
			for i := range 8 {
				step(fmt.Sprintf("item %d", i), "enter")
				h.contains(t, "attributes")
				step("back", "esc", "down")
			}
			// The moves above read ahead (eight screens on the first move),
			// which may already hold the end: G then reads nothing alone.
			step("the end", "G")
			if s := h.screen(); !strings.Contains(s, "the middle not read yet") && !strings.Contains(s, "307 items loaded · all") {
				t.Fatalf("G: neither the end read alone nor all loaded:\n%s", s)
			}
			h.loadAll()
			step("paged to the end", "G")
			h.contains(t, "307 items loaded")
			step("resized small", "g")
			h.send(tea.WindowSizeMsg{Width: 61, Height: 16})
			checkScreen(t, h, 61, name+" 61 items")
			h.send(tea.WindowSizeMsg{Width: 59, Height: 14})
			h.contains(t, "Terminal too small")
			h.send(tea.WindowSizeMsg{Width: w, Height: 40})
			step("versions", "3")
			h.contains(t, "1 versioned item")
			step("timeline", "enter", "[")
			h.contains(t, "Diff")
			step("timeline item", "]", "enter")
			step("wire JSON", "d")
			if w == 100 {
				lines := strings.Split(latency.ReplaceAllString(h.screen(), "1ms  "), "\n")
				for i := range lines {
					lines[i] = strings.TrimRight(lines[i], " ")
				}
				screens[name] = strings.Join(lines, "\n")
			}
		}
	}
	if screens["memory"] != screens["dynalite"] {
		t.Errorf("the backends show different screens:\n--- memory\n%s\n--- dynalite\n%s", screens["memory"], screens["dynalite"])
	}
}

// TestResizeAnywhere resizes the terminal on every screen, to nothing,
// to tiny, to just too small, to just big enough and to 300 columns: no
// panic, a notice when too small, and never a line wider than the screen.
func TestResizeAnywhere(t *testing.T) {
	sizes := [][2]int{{0, 0}, {1, 1}, {20, 5}, {59, 14}, {60, 15}, {300, 80}, {61, 40}, {100, 30}}
	h := newHarness(t, 100, 30, Config{Now: demoClock})
	resize := func(where string) {
		t.Helper()
		for _, sz := range sizes {
			h.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			raw := h.m.render()
			if sz[0] < 60 || sz[1] < 15 {
				if sz[0] >= 20 && !strings.Contains(ansi.Strip(raw), "too small") {
					t.Fatalf("%s at %dx%d: no notice:\n%s", where, sz[0], sz[1], ansi.Strip(raw))
				}
				continue
			}
			checkScreen(t, h, sz[0], fmt.Sprintf("%s at %dx%d", where, sz[0], sz[1]))
		}
	}
	resize("tables")
	h.keys("down", "down", "down", "enter") // DeviceLogs
	resize("partitions")
	h.keys("enter")
	resize("items")
	h.keys("t")
	resize("time")
	h.typeText("last 7d")
	h.keys("enter")
	resize("time range")
	h.contains(t, "time › last 7d")
	h.keys("esc", "enter")
	resize("item")
	h.keys("esc", "esc", "esc", "down", "down", "enter", "/")
	resize("go to")
	h.typeText(demo.DriftedPiece)
	h.keys("enter")
	resize("tree")
	h.keys("3")
	resize("versions")
	h.contains(t, "2 versioned items")
	h.keys("down", "enter")
	resize("timeline")
	h.contains(t, "Audit#PART-7 · 3 revisions")
	h.keys("?")
	resize("full help")
}

// TestKeyNamesQuotedOnScreen: a key name that is no plain word is in
// backticks wherever the explorer names it in words, as the filter and
// partiql --explain write it: "Query Spaced: g s = :pk" read as a
// condition on g, the tables' keys "g s S · s k S" as four words.
func TestKeyNamesQuotedOnScreen(t *testing.T) {
	db := memory.New()
	ctx := context.Background()
	key := func(n string, kt types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: kt}
	}
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Spaced"), BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{key("g s", types.KeyTypeHash), key("s k", types.KeyTypeRange)},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("g s"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("s k"), AttributeType: types.ScalarAttributeTypeS}}}); err != nil {
		t.Fatal(err)
	}
	for _, sk := range []string{"x#1", "x#2"} {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Spaced"), Item: dynamo.Item{"g s": s("a"), "s k": s(sk)}}); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarness(t, 160, 35, Config{Client: db})
	h.contains(t, "`g s` S · `s k` S")
	h.keys("enter")
	h.contains(t, "ProjectionExpression: `g s`, `s k`")
	h.keys("enter")
	h.contains(t, "Query Spaced: `g s` = :pk")
	h.keys("enter")
	h.contains(t, "Query Spaced: `g s` = :pk AND begins_with(`s k`, :prefix)")
}

// TestReopenCommandSaysItsEscapes: ? on a view whose key holds a control
// character prints the command with it escaped (\x1b), which typed as
// shown names another key: the note under it says so; a plain key's
// command has no such note.
func TestReopenCommandSaysItsEscapes(t *testing.T) {
	mem := memory.New()
	seedHostile(t, mem)
	const note = "a value holds characters shown escaped"
	for _, w := range []int{80, 120, 200} {
		h := newHarness(t, w, 40, Config{Client: mem, Table: "Hostile", PK: "H", Delimiter: "#", Versions: evil})
		h.keys("?")
		if !strings.Contains(flat(h.screen()), note+": typed as shown it reads other text)") { // whole at every width
			t.Errorf("%d columns: the note is not whole:\n%s", w, h.screen())
		}
	}
	h := newHarness(t, 160, 40, Config{Client: mem, Table: "Hostile", PK: "H", Delimiter: "#"})
	h.keys("?")
	h.contains(t, "this view: ")
	if strings.Contains(h.screen(), note) {
		t.Errorf("a plain command says it holds escapes:\n%s", h.screen())
	}
}

// TestHostileGolden pins what hostile names and values look like: every
// escape shown as text, never sent.
func TestHostileGolden(t *testing.T) {
	mem := memory.New()
	seedHostile(t, mem)
	h := newHarness(t, 120, 24, Config{Client: mem, Table: "Hostile", PK: "H", Delimiter: "#"})
	h.keys("tab", "G")
	t.Run("items", func(t *testing.T) { checkScreen(t, h, 120, "items"); h.golden(t) })
	h.keys("k", "k", "enter")
	t.Run("item", func(t *testing.T) { checkScreen(t, h, 120, "item"); h.golden(t) })
}
