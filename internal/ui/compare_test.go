package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// The two sides compared: a same, b differs (v 2 → 20, w added), c only
// on the left, e only on the right; another partition differs too, and
// is not compared.
func compareItems(right bool) []dynamo.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	items := []dynamo.Item{{"PK": s("p"), "SK": s("a"), "v": n("1")}}
	if right {
		return append(items, dynamo.Item{"PK": s("p"), "SK": s("b"), "v": n("20"), "w": s("new")},
			dynamo.Item{"PK": s("p"), "SK": s("e"), "v": n("5")}, dynamo.Item{"PK": s("q"), "SK": s("z"), "v": n("9")})
	}
	return append(items, dynamo.Item{"PK": s("p"), "SK": s("b"), "v": n("2")}, dynamo.Item{"PK": s("p"), "SK": s("c"), "v": n("3")})
}

// TestCompareWithAnotherEnvironment: = on a partition, a prefix and an
// item offers the other sides (configured ones and this connection's
// other tables) and lists what differs, with the counts, each side's
// cost, and the selected key's item diff; the same cases with the
// embedded backend and dynalite on either side, and another table of the
// same connection.
func TestCompareWithAnotherEnvironment(t *testing.T) {
	mem := memory.New()
	dl := dynalitetest.Start(t).Client()
	ctx := context.Background()
	// Orders: the left on the embedded backend, the right on dynalite;
	// Shipments the other way round; OrdersRight the right beside Orders.
	for _, side := range []struct {
		w     dynamo.Writer
		table string
		right bool
	}{{mem, "Orders", false}, {dl, "Orders", true}, {dl, "Shipments", false}, {mem, "Shipments", true}, {mem, "OrdersRight", true}} {
		if err := demo.CreateKeyTable(ctx, side.w, side.table, "S", compareItems(side.right)); err != nil {
			t.Fatal(err)
		}
	}
	backends := map[string]dynamo.Client{"memory": mem, "dynalite": dl}
	for _, tc := range []struct {
		name, left, right, table string
		pick                     []string // keys in the picker
		label                    string
		here                     string // the left side as the item's diff names it
	}{
		{"memory against dynalite", "memory", "dynalite", "Orders", []string{"enter"}, "STAGING: dynalite", "DEMO"},
		{"dynalite against memory", "dynalite", "memory", "Shipments", []string{"enter"}, "STAGING: memory", "DEMO"},
		// Both sides are this connection's: the tables tell them apart
		// (it said "only on DEMO" of a key Orders has, as if the right
		// were not DEMO's too).
		{"another table", "memory", "memory", "Orders", []string{"down", "enter"}, "table OrdersRight", "table Orders"},
	} {
		for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", tc.name, sz[0], sz[1]), func(t *testing.T) {
				other := backends[tc.right]
				against := func(_ context.Context, s common.Side, _ dynamo.KeySchema) (dynamo.Client, string, error) {
					return other, s.Label + ": " + tc.right, nil
				}
				h := newHarness(t, sz[0], sz[1], Config{Client: backends[tc.left], Table: tc.table, PK: "p", Now: demoClock,
					Against: against, AgainstChoices: []common.Side{{Label: "STAGING", Endpoint: "http://staging"}}})
				h.keys("=")
				checkScreen(t, h, sz[0], "picker")
				h.contains(t, "Compare "+tc.table+" › p with…", "STAGING")
				h.keys(tc.pick...)
				checkScreen(t, h, sz[0], "diff")
				h.contains(t, "vs "+tc.label, "1 differ · 1 only-left · 1 only-right · 1 same")
				for _, want := range []string{"differs", "only-left", "only-right"} {
					if !strings.Contains(h.screen(), want) {
						t.Errorf("no %s row:\n%s", want, h.screen())
					}
				}
				h.contains(t, "~ v  2 → 20", "+ w  \"new\"", "left 1 req")
				h.golden(t)
				h.keys("down")
				h.contains(t, "only on "+tc.here, "Only on the left ("+tc.here+")", " key.") // wrapped, never cut
				h.keys("down")
				h.contains(t, "Only on the right", " key.")
			})
		}
	}
}

// TestCompareOneItem: = on an item compares that key alone.
func TestCompareOneItem(t *testing.T) {
	mem := memory.New()
	ctx := context.Background()
	for _, tc := range []struct {
		table string
		right bool
	}{{"Orders", false}, {"OrdersRight", true}} {
		if err := demo.CreateKeyTable(ctx, mem, tc.table, "S", compareItems(tc.right)); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarness(t, 120, 35, Config{Client: mem, Table: "Orders", PK: "p", Now: demoClock, AgainstChoices: []common.Side{{Label: "STAGING", Profile: "staging"}}})
	h.keys("2", "down", "enter") // the item b
	h.contains(t, "Orders › p › b")
	h.keys("=", "down", "enter") // past STAGING
	h.contains(t, "vs table OrdersRight · 1 differ · 0 only-left · 0 only-right · 0 same", "~ v  2 → 20")
	h.keys("esc", "esc")
	h.contains(t, "Orders › p › b")
}

// TestCompareOffersWhatTheConnectionLeaves: the sides = offers are those
// the connection handed on once made (the configured ones less the
// connection itself), not the list given before connecting.
func TestCompareOffersWhatTheConnectionLeaves(t *testing.T) {
	cfg, rec := connecting(t, "Locations")
	cfg.PK = "USA"
	cfg.AgainstChoices = []common.Side{{Label: "PROD", Endpoint: "http://prod"}, {Label: "STAGING", Endpoint: "http://staging"}}
	connect := cfg.Connect
	cfg.Connect = func(ctx context.Context) (Connected, error) {
		c, err := connect(ctx)
		c.AgainstChoices = []common.Side{{Label: "STAGING", Endpoint: "http://staging"}} // opened on PROD
		return c, err
	}
	h := harnessFor(t, New(cfg), rec)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 35})
	h.run(h.m.Init())
	h.keys("=")
	h.contains(t, "Compare Locations › USA with…", "STAGING")
	if strings.Contains(h.screen(), "PROD") {
		t.Errorf("= offers the connection itself:\n%s", h.screen())
	}
}

// secretItems are compareItems with values that read as nothing else on
// screen, each one masked in TestCompareMasked.
func secretItems(right bool) []dynamo.Item {
	real := strings.NewReplacer("p", "zulupart", "a", "alphakey", "b", "bravokey", "c", "charliekey", "e", "echokey", "new", "novemberval")
	num := map[string]string{"1": "1111", "2": "2222", "20": "20202", "3": "3333", "5": "5555"}
	var out []dynamo.Item
	for _, it := range compareItems(right) {
		if it["PK"].(*types.AttributeValueMemberS).Value != "p" {
			continue
		}
		c := dynamo.Item{}
		for k, v := range it {
			switch v := v.(type) {
			case *types.AttributeValueMemberS:
				c[k] = &types.AttributeValueMemberS{Value: real.Replace(v.Value)}
			case *types.AttributeValueMemberN:
				c[k] = &types.AttributeValueMemberN{Value: num[v.Value]}
			}
		}
		out = append(out, c)
	}
	return out
}

// TestCompareMasked: under masking = compares as it does unmasked (the
// same keys differ, the same counts, the same changed attributes) and
// shows stand-ins only: no masked value on the picker, the list or any
// key's diff. Both sides are shown through one mask, so a value equal on
// both reads equal; a right-hand table masked more (its own mask = [...])
// is shown through both masks joined. The embedded backend and dynalite
// on either side, and another table of the connection.
func TestCompareMasked(t *testing.T) {
	mem := memory.New()
	dl := dynalitetest.Start(t).Client()
	ctx := context.Background()
	for _, side := range []struct {
		w     dynamo.Writer
		table string
		right bool
	}{{mem, "Orders", false}, {dl, "Orders", true}, {dl, "Shipments", false}, {mem, "Shipments", true}, {mem, "OrdersRight", true}} {
		if err := demo.CreateKeyTable(ctx, side.w, side.table, "S", secretItems(side.right)); err != nil {
			t.Fatal(err)
		}
	}
	secrets := []string{"zulupart", "alphakey", "bravokey", "charliekey", "echokey", "novemberval", "1111", "2222", "20202", "3333", "5555"}
	backends := map[string]dynamo.Client{"memory": mem, "dynalite": dl}
	for _, tc := range []struct {
		name, left, right, table string
		pick                     []string
		mask                     []string
		tables                   map[string]config.TableSettings
	}{
		{"memory against dynalite", "memory", "dynalite", "Orders", []string{"enter"}, []string{"PK", "SK", "v", "w"}, nil},
		{"dynalite against memory", "dynalite", "memory", "Shipments", []string{"enter"}, []string{"PK", "SK", "v", "w"}, nil},
		{"another table masked more", "memory", "memory", "Orders", []string{"down", "enter"}, []string{"PK", "SK", "v"},
			map[string]config.TableSettings{"OrdersRight": {Mask: []string{"w"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			against := func(_ context.Context, s common.Side, _ dynamo.KeySchema) (dynamo.Client, string, error) {
				return backends[tc.right], s.Label, nil
			}
			run := func(mask []string, tables map[string]config.TableSettings) (screens []string) {
				h := newHarness(t, 120, 35, Config{Client: backends[tc.left], Table: tc.table, PK: "zulupart", Now: demoClock, Mask: mask, Tables: tables,
					Against: against, AgainstChoices: []common.Side{{Label: "STAGING", Endpoint: "http://staging"}}})
				h.keys("=")
				screens = append(screens, h.screen())
				h.keys(tc.pick...)
				h.contains(t, "1 differ · 1 only-left · 1 only-right · 1 same")
				for range 3 {
					screens = append(screens, h.screen())
					h.keys("down")
				}
				return screens
			}
			plain := run(nil, nil)
			if !strings.Contains(plain[1], "~ v  2222 → 20202") || !strings.Contains(plain[1], `+ w  "novemberval"`) {
				t.Fatalf("unmasked, the differing item reads:\n%s", plain[1])
			}
			masked := run(tc.mask, tc.tables)
			all := strings.Join(masked, "\n")
			for _, s := range secrets {
				if strings.Contains(all, s) {
					t.Fatalf("%q shown under the mask:\n%s", s, all)
				}
			}
			// The same rows, in the same order, each with its stand-in key;
			// the differing item changes v and adds w, both stand-ins.
			for _, want := range []string{"differs", "only-left", "only-right", "~ v  \"‹m", "+ w  \"‹m", "Only on the left", "Only on the right"} {
				if !strings.Contains(all, want) {
					t.Errorf("masked, no %q:\n%s", want, all)
				}
			}
		})
	}
	// = on one item: its stand-in sort key asks for the real one.
	h := newHarness(t, 120, 35, Config{Client: mem, Table: "Orders", PK: "zulupart", Now: demoClock, Mask: []string{"PK", "SK", "v", "w"}})
	h.keys("2", "down", "enter") // the item bravokey
	h.keys("=", "enter")         // OrdersRight, the first other table
	h.contains(t, "vs table OrdersRight · 1 differ · 0 only-left · 0 only-right · 0 same", "~ v  \"‹m")
	for _, s := range secrets {
		if strings.Contains(h.screen(), s) {
			t.Fatalf("%q shown under the mask:\n%s", s, h.screen())
		}
	}
}

// TestComparePagesTakeAnyKey: the picker and the comparison take every
// bound key (and some that are not) at 80×24 without a panic, and the
// frame still fits.
func TestComparePagesTakeAnyKey(t *testing.T) {
	mem := memory.New()
	ctx := context.Background()
	for _, tc := range []struct {
		table string
		right bool
	}{{"Orders", false}, {"OrdersRight", true}} {
		if err := demo.CreateKeyTable(ctx, mem, tc.table, "S", compareItems(tc.right)); err != nil {
			t.Fatal(err)
		}
	}
	for _, open := range [][]string{{"="}, {"=", "enter"}} {
		h := newHarness(t, 80, 24, Config{Client: mem, Table: "Orders", PK: "p", Now: demoClock})
		h.keys(open...)
		for _, r := range "jkgGsStTxyYdecfoCiDV34?<>[]m0zr/1d9=" {
			h.keys(string(r))
			checkScreen(t, h, 80, "after "+string(r))
			if lines := len(splitLines(h.screen())); lines != 24 {
				t.Fatalf("after %q the screen is %d lines:\n%s", r, lines, h.screen())
			}
			h.keys("esc")
			h.keys(open...)
		}
	}
}

// TestCompareManyKeys: a comparison longer than one message's batch is
// listed whole, counted once, its counts written as the row count beside
// them (1,250, not 1250).
func TestCompareManyKeys(t *testing.T) {
	mem := memory.New()
	var left []dynamo.Item
	for i := range 1250 {
		left = append(left, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("k%04d", i)}})
	}
	if err := demo.CreateKeyTable(context.Background(), mem, "Orders", "S", left); err != nil {
		t.Fatal(err)
	}
	if err := demo.CreateKeyTable(context.Background(), mem, "Empty", "S", nil); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 35, Config{Client: mem, Table: "Orders", PK: "p", Now: demoClock})
	h.keys("=", "enter")
	h.contains(t, "vs table Empty · 0 differ · 1,250 only-left · 0 only-right · 0 same", "row 1 of 1,250")
	h.keys("G")
	h.contains(t, "k1249", "row 1,250 of 1,250")
}

// TestCompareFailedSaysSo: a comparison whose other side fails says so
// where its keys would be: below the keys compared before the failure (the
// position "of ≥M": not every key was compared), or, with none, the error
// itself where they would be; r compares again from the start.
func TestCompareFailedSaysSo(t *testing.T) {
	mem, right := memory.New(), memory.New()
	big := strings.Repeat("x", 5000) // two pages of a Query each side
	var left, other []dynamo.Item
	for i := range 250 {
		k := func(v string) dynamo.Item {
			return dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("k%03d", i)},
				"v": &types.AttributeValueMemberS{Value: v}, "big": &types.AttributeValueMemberS{Value: big}}
		}
		left, other = append(left, k("1")), append(other, k("2"))
	}
	ctx := context.Background()
	if err := demo.CreateKeyTable(ctx, mem, "Orders", "S", left); err != nil {
		t.Fatal(err)
	}
	if err := demo.CreateKeyTable(ctx, right, "Orders", "S", other); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		after int // the other side's Queries answered
		want  []string
	}{
		{"after some keys", 1, []string{"vs STAGING: right · ", "differ · 0 only-left · 0 only-right · 0 same · read failed after 3 attempts",
			" keys loaded before · r retries", "of ≥"}},
		{"before any key", 0, []string{"vs STAGING: right · nothing compared · read failed after 3 attempts · nothing",
			"│ read failed after 3 attempts: ThrottlingException", "│ nothing loaded · r retries"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := failAfter("Query", tc.after, throttled)
			f.Client = right
			against := func(context.Context, common.Side, dynamo.KeySchema) (dynamo.Client, string, error) {
				return f, "STAGING: right", nil
			}
			h := newHarness(t, 120, 35, Config{Client: mem, Table: "Orders", PK: "p", Now: demoClock,
				Against: against, AgainstChoices: []common.Side{{Label: "STAGING", Endpoint: "http://staging"}}})
			h.keys("=", "enter")
			h.contains(t, tc.want...)
			if tc.after == 0 && strings.Contains(h.screen(), "0 same") {
				t.Fatalf("a comparison that failed before any key counts keys it never compared:\n%s", h.screen())
			}
			if tc.after > 0 && !strings.Contains(h.screen(), "│ read failed after 3 attempts: ") {
				t.Fatalf("the failure is not said below the keys:\n%s", h.screen())
			}
			f.mu.Lock()
			f.after = 1 << 30
			f.mu.Unlock()
			h.keys("r")
			h.contains(t, "vs STAGING: right · 250 differ · 0 only-left · 0 only-right · 0 same", "row 1 of 250")
		})
	}
}

// TestCompareCancelled: esc stops a comparison in flight, said where its
// keys would be, and what r does is what it says: it compares again from
// the start (a comparison does not go on from where it stopped), with
// the embedded backend and dynalite on either side.
func TestCompareCancelled(t *testing.T) {
	mem := memory.New()
	dl := dynalitetest.Start(t).Client()
	ctx := context.Background()
	for _, db := range []dynamo.Writer{mem, dl} {
		for _, tc := range []struct {
			table string
			right bool
		}{{"Orders", false}, {"OrdersRight", true}} {
			if err := demo.CreateKeyTable(ctx, db, tc.table, "S", compareItems(tc.right)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, db := range map[string]dynamo.Client{"memory": mem, "dynalite": dl} {
		t.Run(name, func(t *testing.T) { // another table of the same connection
			h := newHarness(t, 120, 35, Config{Client: db, Table: "Orders", PK: "p", Now: demoClock})
			h.keys("=")
			_, cmd := h.m.Update(keyPress("enter")) // the comparison's page, held
			if cmd == nil {
				t.Fatal("enter opened nothing")
			}
			h.m.Update(cmd()) // opened: its read is held, in flight
			h.contains(t, "vs table OrdersRight · nothing compared yet · reading…")
			h.keys("esc")
			h.contains(t, "vs table OrdersRight · nothing compared · read cancelled · nothing loaded · r compa",
				"│ read cancelled", "│ nothing loaded · r compares again")
			if strings.Contains(h.screen(), "reads on") {
				t.Fatalf("a cancelled comparison says r reads on; r compares from the start:\n%s", h.screen())
			}
			h.keys("r")
			h.contains(t, "vs table OrdersRight · 1 differ · 1 only-left · 1 only-right · 1 same", "row 1 of 3")
		})
	}
}

// TestCompareStoppedAtTheBudget: a comparison the count budget stops is
// never said to be all: no "No differences" where only the keys both
// sides read were compared, and the position of the keys listed is
// "of ≥M".
func TestCompareStoppedAtTheBudget(t *testing.T) {
	mem := memory.New()
	big := strings.Repeat("x", 5000)
	for _, tc := range []struct {
		table string
		v     string
	}{{"Orders", "1"}, {"Same", "1"}, {"Other", "2"}} {
		var items []dynamo.Item
		for i := range 250 {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("k%03d", i)},
				"v": &types.AttributeValueMemberS{Value: tc.v}, "big": &types.AttributeValueMemberS{Value: big}})
		}
		if err := demo.CreateKeyTable(context.Background(), mem, tc.table, "S", items); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		pick []string
		want []string
	}{
		{[]string{"=", "down", "enter"}, []string{"stopped at the budget · 0 differ · 0 only-left · 0 only-right · ",
			"No differences in the keys both sides read before the budget stopped them"}}, // Other, then Same
		{[]string{"=", "enter"}, []string{"stopped at the budget · ", "differ · 0 only-left · 0 only-right · 0 same", "row 1 of ≥"}},
	} {
		h := newHarness(t, 120, 35, Config{Client: mem, Table: "Orders", PK: "p", Now: demoClock, CountBudget: 20})
		h.keys(tc.pick...)
		h.contains(t, tc.want...)
		saysStop(t, h)
		if strings.Contains(h.screen(), "every key is the same") {
			t.Fatalf("a comparison stopped at the budget said to be all:\n%s", h.screen())
		}
	}
	// Against an environment, whose label takes the title's room: the
	// stop is said at every size, in the title and on the request line,
	// and the message where no key differs is wrapped, never cut.
	against := func(_ context.Context, s common.Side, _ dynamo.KeySchema) (dynamo.Client, string, error) {
		return mem, s.Label + ": us-east-1 · http://127.0.0.1:20601", nil
	}
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, sz[0], sz[1], Config{Client: mem, Table: "Orders", PK: "p", Now: demoClock, CountBudget: 20,
			Against: against, AgainstChoices: []common.Side{{Label: "STAGING", Endpoint: "http://staging"}}})
		h.keys("=", "enter")
		h.contains(t, "· stopped", " same ─", "the rest is not", "compared.")
		saysStop(t, h)
	}
}

// TestCompareNamesBothSides: where the connection matches an
// environment (PROD), the comparison names the left side by it, as it
// names the right (STAGING) and as dynascope diff's "left:" does, in the
// diff pane's title and words ("this connection" was all it said); and
// long labels give way to the title's counts, cut with "…", at every
// size, a stop too.
func TestCompareNamesBothSides(t *testing.T) {
	mem, other := memory.New(), memory.New()
	var big []dynamo.Item // 250 items of 5 KB: a budget of 20 RCU stops before their end
	for i := range 250 {
		big = append(big, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("k%03d", i)},
			"big": &types.AttributeValueMemberS{Value: strings.Repeat("x", 5000)}})
	}
	for _, tc := range []struct {
		w     dynamo.Writer
		table string
		items []dynamo.Item
	}{{mem, "Orders", compareItems(false)}, {other, "Orders", compareItems(true)}, {mem, "Big", big}, {other, "Big", big}} {
		if err := demo.CreateKeyTable(context.Background(), tc.w, tc.table, "S", tc.items); err != nil {
			t.Fatal(err)
		}
	}
	const right = "STAGING: us-west-2 · http://127.0.0.1:20602"
	against := func(_ context.Context, _ common.Side, _ dynamo.KeySchema) (dynamo.Client, string, error) {
		return other, right, nil
	}
	prod := &config.Environment{Label: "PROD"}
	for _, budget := range []float64{0, 20} {
		table := map[float64]string{0: "Orders", 20: "Big"}[budget]
		for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			t.Run(fmt.Sprintf("budget %v/%dx%d", budget, sz[0], sz[1]), func(t *testing.T) {
				h := newHarness(t, sz[0], sz[1], Config{Client: mem, Table: table, PK: "p", Now: demoClock, CountBudget: budget,
					Connection: "us-east-1 · http://127.0.0.1:20601", Environment: func() *config.Environment { return prod },
					Against: against, AgainstChoices: []common.Side{{Label: "STAGING", Endpoint: "http://staging"}}})
				h.keys("=", "enter")
				if budget > 0 {
					h.contains(t, "· stopped", " differ · 0 only-left · 0 only-right · ", " same ─")
				} else {
					h.contains(t, "· 1 differ · 1 only-left · 1 only-right · 1 same ─")
				}
				h.contains(t, "╭─ vs STAGING: ")
				if budget > 0 {
					return
				}
				if !strings.Contains(h.screen(), "Diff b · PROD: us-east-1") || strings.Contains(h.screen(), "this connection") {
					t.Errorf("the diff pane does not name the left side PROD:\n%s", h.screen())
				}
				h.keys("down")
				h.contains(t, "c · only on PROD: us-east-1 · http://127.0.0.1:20601", "Only on the left (PROD: ")
				h.keys("down")
				h.contains(t, "e · only on "+right, "Only on the right (STAGING: ")
				if strings.Contains(h.screen(), "this connection") {
					t.Errorf("a side is not named as set:\n%s", h.screen())
				}
			})
		}
	}
}

// saysStop checks that the request line says the comparison stopped at
// the budget, whole however it wrapped.
func saysStop(t *testing.T, h *harness) {
	t.Helper()
	if words := strings.Join(strings.Fields(h.screen()), " "); !strings.Contains(words, "· stopped at the 20.0 RCU budget: later keys not compared") {
		t.Errorf("the request line does not say the stop:\n%s", h.screen())
	}
}

// TestCompareKeysWhole: the comparison's keys are as wide as they are
// where there is room: held to 30 cells, dynamodb-toolbox's
// ORDER#2020-09-06T05:00:00.000Z#o005 read "O…#2020-09-06T05:00:00.000Z#…5"
// at 120x35 beside an empty column of 70, o005 and o007 told apart by
// their last digit only. The same on the embedded backend and dynalite.
func TestCompareKeysWhole(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	order := func(i int, total string) dynamo.Item {
		return dynamo.Item{"PK": s("USER#1"), "SK": s(fmt.Sprintf("ORDER#2020-09-%02dT05:00:00.000Z#o%03d", i+1, i)), "total": &types.AttributeValueMemberN{Value: total}}
	}
	left := []dynamo.Item{order(5, "1"), order(7, "1")}
	right := []dynamo.Item{order(7, "999"), order(9, "1")}
	mem, dl := memory.New(), dynalitetest.Start(t).Client()
	ctx := context.Background()
	for _, side := range []struct {
		w     dynamo.Writer
		items []dynamo.Item
	}{{mem, left}, {dl, right}} {
		if err := demo.CreateKeyTable(ctx, side.w, "Orders", "S", side.items); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name        string
		left, right dynamo.Client
	}{{"memory against dynalite", mem, dl}, {"dynalite against memory", dl, mem}} {
		t.Run(c.name, func(t *testing.T) {
			against := func(context.Context, common.Side, dynamo.KeySchema) (dynamo.Client, string, error) {
				return c.right, "STAGING", nil
			}
			h := newHarness(t, 120, 35, Config{Client: c.left, Table: "Orders", PK: "USER#1", Now: demoClock,
				Against: against, AgainstChoices: []common.Side{{Label: "STAGING", Endpoint: "http://staging"}}})
			h.keys("=", "enter")
			h.contains(t, "1 differ · 1 only-left · 1 only-right")
			for _, i := range []int{5, 7, 9} {
				h.contains(t, fmt.Sprintf("ORDER#2020-09-%02dT05:00:00.000Z#o%03d", i+1, i))
			}
		})
	}
}

// TestComparePickerSaysKeysWhole: the picker's first column is as wide as
// what it says, the table's name beside it: at 120x35 it was held to 56
// cells beside a table column of 58, and read "another key, not
// comparable…ocumentID S · DocumentInfo S". Where both cannot be whole
// (80 columns), the table's name is.
func TestComparePickerSaysKeysWhole(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Table: "Equipment", PK: "Equipment_1"})
		h.keys("2", "=")
		h.contains(t, "another table of this connection")
		for _, l := range strings.Split(h.screen(), "\n") {
			if !strings.Contains(l, "another key") {
				continue
			}
			if size[0] >= 120 && strings.Contains(l, "…") || strings.HasSuffix(strings.TrimRight(strings.TrimSuffix(l, "│"), " "), "…") {
				t.Errorf("%v: a side is cut: %q", size, l)
			}
		}
		if size[0] >= 120 {
			h.contains(t, "another key, not comparable: DocumentID S · DocumentInfo S")
		}
	}
}

// TestCompareRefusedTablesOfAnotherKey: a table keyed otherwise is not
// comparable. The picker describes this connection's tables and lists
// such a one last, dimmed, with why; enter on it says the comparison's own
// refusal and reads nothing. A side keyed otherwise that the picker could
// not tell (another environment) is refused on the comparison's page,
// which says only that: no count of keys it never compared, no moves over
// rows it does not list, no r (comparing again is refused again). The
// same on the embedded backend and dynalite.
func TestCompareRefusedTablesOfAnotherKey(t *testing.T) {
	mem := memory.New()
	dl := dynalitetest.Start(t).Client()
	ctx := context.Background()
	for _, db := range []dynamo.Writer{mem, dl} {
		for _, tc := range []struct {
			table string
			sk    types.ScalarAttributeType
		}{{"Orders", "S"}, {"Numbered", "N"}, {"OrdersRight", "S"}} {
			if err := demo.CreateKeyTable(ctx, db, tc.table, tc.sk, compareItems(tc.table == "OrdersRight")[:1]); err != nil && tc.sk == "S" {
				t.Fatal(err)
			}
		}
	}
	staging := memory.New() // its Orders keyed by a number
	if err := demo.CreateKeyTable(ctx, staging, "Orders", "N", nil); err != nil {
		t.Fatal(err)
	}
	against := func(context.Context, common.Side, dynamo.KeySchema) (dynamo.Client, string, error) {
		return staging, "STAGING: numbered", nil
	}
	for name, db := range map[string]dynamo.Client{"memory": mem, "dynalite": dl} {
		t.Run(name+" picker", func(t *testing.T) {
			h := newHarness(t, 120, 35, Config{Client: db, Table: "Orders", PK: "p", Now: demoClock})
			h.keys("=")
			h.contains(t, "another table of this connection", "OrdersRight", "another key, not comparable: PK S · SK N", "Numbered")
			if strings.Index(h.screen(), "OrdersRight") > strings.Index(h.screen(), "another key") {
				t.Fatalf("a table that is not comparable is listed before one that is:\n%s", h.screen())
			}
			sent := h.rec.count("Query")
			h.contains(t, "enter reads PK = :pk on both sides", "enter compare")
			h.keys("down") // Numbered: enter does not compare it, and the lines say so
			h.contains(t, "the selected table has another key", "enter why not")
			if strings.Contains(h.screen(), "on both sides") || strings.Contains(h.screen(), "enter compare") {
				t.Fatalf("on a table keyed otherwise, enter is said to compare:\n%s", h.screen())
			}
			h.keys("enter")
			h.said(t, "Numbered has another key than Orders: PK S · SK N, not PK S · SK S")
			if h.rec.count("Query") != sent || strings.Contains(h.screen(), "vs table") {
				t.Fatalf("enter on a table keyed otherwise compared it:\n%s", h.screen())
			}
		})
		t.Run(name+" comparison", func(t *testing.T) {
			h := newHarness(t, 120, 35, Config{Client: db, Table: "Orders", PK: "p", Now: demoClock,
				Against: against, AgainstChoices: []common.Side{{Label: "STAGING", Endpoint: "http://staging"}}})
			h.keys("=", "enter") // STAGING, listed first
			h.contains(t, "vs STAGING · nothing compared · ", "Orders on STAGING: numbered has another key than Orders: PK S · SK N, not PK S · SK S")
			lines := strings.Split(h.screen(), "\n")
			help := lines[len(lines)-2]
			for _, no := range []string{"0 same", "refresh", "r retries", "move"} {
				if strings.Contains(h.screen(), no) {
					t.Fatalf("a refused comparison offers or says %q (help: %s):\n%s", no, help, h.screen())
				}
			}
		})
	}
}
