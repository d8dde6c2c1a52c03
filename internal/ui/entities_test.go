package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// admissionsDB is dynamodb-onetable's layout: a patient and its
// admissions, each item's type in _type, the admission's time as epoch
// milliseconds inside the sort key.
func admissionsDB(t *testing.T) *memory.DB {
	t.Helper()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	items := []dynamo.Item{{"PK": s("patient#1"), "SK": s("patient#1"), "_type": s("Patient"), "name": s("Ada")}}
	start := time.Date(2020, 9, 1, 0, 0, 0, 0, time.UTC)
	for i := range 12 {
		it := dynamo.Item{"PK": s("patient#1"), "SK": s(fmt.Sprintf("admission#%d#R%d", start.Add(time.Duration(i)*25*time.Hour).UnixMilli(), i%7)), "_type": s("Admission")}
		if i%3 == 0 {
			it["ward"] = s("W" + fmt.Sprint(i))
		}
		items = append(items, it)
	}
	db := memory.New()
	if err := demo.CreateKeyTable(context.Background(), db, "Admissions", "S", items); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestEntitiesOfTheTable: E on a table's partitions names its entity
// types (here from the keys: the whole table costs less than the budget,
// so the counts are exact and said so), the selected type's attributes
// with how often each is present; enter lists a type's items from the
// whole table, esc comes back. E is in the help where it acts, at every size.
func TestEntitiesOfTheTable(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, sz[0], sz[1], Config{Table: "Shop", Now: demoClock})
		h.keys("?")
		h.contains(t, "entity types")
		h.keys("esc", "E")
		checkScreen(t, h, sz[0], "entities")
		h.contains(t, "Shop · 5 entity types · exact: 109 items read", "o#{n} / p#{n}        41", "100%  Quantity  N",
			"Scan Shop: whole (it costs less than 100 RCU) · 2 req")
		h.keys("down")
		h.contains(t, "w#{n} / p#{n} · 5 attributes", "100%  Stock   N")
		h.keys("enter")
		// A type of many partitions (w#{n}) is listed from the whole
		// table (it had been w#1's items alone): the search through its
		// key templates' leads.
		h.contains(t, "Search Shop · 30 matches", `begins_with(PK, "w#") and begins_with(SK, "p#")`, "w#1  p#1001", "w#3  p#1001")
		h.keys("esc")
		h.contains(t, "Shop · 5 entity types")
		h.keys("esc")
		h.contains(t, "Shop · ") // the partitions again
		if strings.Contains(h.screen(), "entity types ·") {
			t.Fatalf("%v: esc stayed:\n%s", sz, h.screen())
		}
	}
	// Locations' keys hold values only (USA / AK#CEDARVILLE#11700): its
	// type says it has no label, where "{id} / {id}" read as a name; its
	// templates, beside, keep the shape (as entities --demo --table
	// Locations names it).
	h := newHarness(t, 120, 35, Config{Table: "Locations", Now: demoClock})
	h.keys("E")
	h.contains(t, "Locations · 1 entity type", "(no label in its keys)", "{id} / {id}")
	if line := lineWith(h.screen(), "{id} / {id}"); strings.Count(line, "{id} / {id}") != 1 {
		t.Errorf("the type is named by its templates: %q", line)
	}
	// Its items are in 6 partitions and no key text tells them apart:
	// enter opens its example's partition, which says it is one of them.
	h.keys("enter")
	h.said(t, "(no label in its keys): no key text to search its items by; here one of its partitions, its example's")
	// Where E does not act, the help does not name it.
	for _, cfg := range []Config{{}, {Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}} {
		h := newHarness(t, 120, 35, cfg)
		h.keys("?")
		if strings.Contains(h.screen(), "entity types") {
			t.Errorf("%+v: the help names E:\n%s", cfg, h.screen())
		}
	}
}

// TestEntitiesTypeListsItsOwnItems: enter on a type lists that type's
// items, as many as its count: a type whose keys begin with less fixed
// text than another's leaves the other's out. StateLog's d#{n} /
// {id}#{time} type, counted 180, listed 240 items, its NORMAL#
// neighbours' 60 among them.
func TestEntitiesTypeListsItsOwnItems(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, sz[0], sz[1], Config{Table: demo.StateTable, Now: demoClock})
		h.keys("E")
		h.contains(t, "2 entity types · exact: 240 items read", "{id}#{time:2006-01-02T15:04:05}       180", "NORMAL      ")
		h.keys("enter")
		h.contains(t, "· 180 matches", `not (begins_with(`)
		if strings.Contains(h.screen(), "240 matches") {
			t.Fatalf("%v: the type lists its neighbours' items:\n%s", sz, h.screen())
		}
	}
}

// TestEntitiesByDiscriminator: items that carry their type (onetable's
// _type) are named by it, and enter lists one type's items: the whole
// table's items E read, matched with the discriminator as the filter
// (no request), or searched for again with r.
func TestEntitiesByDiscriminator(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Client: admissionsDB(t), Table: "Admissions", Now: demoClock})
	h.keys("E")
	h.contains(t, "Admissions · 2 entity types · exact: 13 items read", "Admission        12  patient#{n} / admission#{time:epoch-ms}#{id}  _type", "Patient           1",
		"Admission · 4 attributes", "  33%  ward")
	// The whole table was read for the types and is held: enter matches
	// the type's filter against those items, reading nothing (it had
	// scanned the table again: 127 RCU again on a table of heavy items).
	before := h.rec.count("Scan") + h.rec.count("Query")
	h.keys("enter")
	h.contains(t, "Search Admissions · 12 matches", `filter › _type = "Admission"`,
		"the 13 items the entity types were read from", "matched 12 · no", "request (r reads the table)")
	if after := h.rec.count("Scan") + h.rec.count("Query"); after != before {
		t.Fatalf("enter on a type of a table read whole read %d more times", after-before)
	}
	// r reads the table itself.
	h.keys("r")
	h.contains(t, "Search Admissions · 12 matches", "scanned 13 · matched 12")
	if h.rec.count("Scan") == 0 {
		t.Fatal("r read nothing")
	}
}

// TestEntitiesOfAPartition: E on a partition's items names the types of
// the rows the list holds, reading nothing more; on its tree, which holds
// keys and not items, it reads the partition under the budget; a sharded
// partition says E is per shard.
func TestEntitiesOfAPartition(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Client: admissionsDB(t), Table: "Admissions", PK: "patient#1", Now: demoClock})
	h.keys("2")
	h.loadAll()
	before := h.rec.count("Query") + h.rec.count("Scan")
	h.keys("E")
	h.contains(t, "patient#1 · 2 entity types · of 13 items loaded", "the rows the list had read: no request")
	if after := h.rec.count("Query") + h.rec.count("Scan"); after != before {
		t.Fatalf("E on loaded items read %d more times", after-before)
	}
	h.keys("esc", "esc")
	h = newHarness(t, 120, 35, Config{Client: admissionsDB(t), Table: "Admissions", PK: "patient#1", Now: demoClock})
	before = h.rec.count("Query")
	h.keys("E")
	h.contains(t, "patient#1 · 2 entity types · exact: 13 items read", `PK = :pk`)
	// Every Query the budget sent is counted: it said "1 req" of the two
	// it took (one item first, then the rest at their size).
	if sent := h.rec.count("Query") - before; sent < 2 || !strings.Contains(h.m.top().Request(), fmt.Sprintf("up to 100 RCU · %d req ·", sent)) {
		t.Fatalf("%d Queries sent, the request line says %q", sent, h.m.top().Request())
	}
	// A sharded partition's tree says why E does not act there.
	h = newHarness(t, 120, 35, Config{Table: "ChatMessages", PK: "seattle-{1..4}", Now: demoClock})
	h.keys("E")
	h.said(t, "entity types are per shard")
}

// TestEntitiesSampled: a table that costs more than the budget to read
// whole is sampled in parallel, and its counts are marked estimated.
func TestEntitiesSampled(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "ChatMessages", Now: demoClock})
	h.keys("E")
	h.contains(t, "ChatMessages · 1 entity type · sampled:", "counts estimated", "≈", "segments in parallel, a sample of up to 100 RCU")
	// Geography's small partition CAPITALS, read to its end by the
	// sample, is counted (20, no ≈); only PLACE's count is estimated (it
	// had said CAPITALS ≈403).
	h = newHarness(t, 120, 35, Config{Table: "Geography", Now: demoClock})
	h.keys("E")
	h.contains(t, "Geography · 2 entity types · sampled:", "1 count exact, ≈ estimated", "≈20,578", "CAPITALS")
	for _, line := range splitLines(h.screen()) {
		if strings.Contains(line, "CAPITALS ") && strings.Contains(line, "{id}") && (strings.Contains(line, "≈") || !strings.Contains(line, " 20 ")) {
			t.Errorf("CAPITALS is counted exactly, 20: %q", line)
		}
	}
	// A type of one fixed partition is listed from that partition (a
	// Query), not searched for through the table.
	h.keys("down", "enter")
	h.contains(t, "entity CAPITALS", "PK = :pk", `"CAPITALS"`)
}

// TestEntitiesSampledTypeSaysTheCostFirst: enter on a type of many
// partitions where E read a sample (or stopped at its budget) reads
// nothing: the search opens with the type's filter typed, the request
// line saying what E read and what it cost beside what the whole table
// costs; enter scans. It had scanned the table at once, as much again as
// E had spent and more.
func TestEntitiesSampledTypeSaysTheCostFirst(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for i := range 1200 { // 1.2 MB: more than E's 100 RCU budget reads
		u := fmt.Sprintf("u%04d", i)
		items = append(items, dynamo.Item{"PK": s("USER#" + u), "SK": s("#METADATA#" + u), "Bio": s(strings.Repeat("b", 1000))})
	}
	db := memory.New()
	if err := demo.CreateKeyTable(context.Background(), db, "Users", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 160, 35, Config{Client: db, Table: "Users", Now: demoClock})
	h.keys("E")
	h.contains(t, "Users · 1 entity type · sampled:")
	before := h.rec.count("Scan") + h.rec.count("Query")
	h.keys("enter")
	if after := h.rec.count("Scan") + h.rec.count("Query"); after != before {
		t.Fatalf("enter on a sampled type read %d times before being asked:\n%s", after-before, h.screen())
	}
	h.contains(t, "Search Users · type a filter", `begins_with(PK, "USER#")`, "whole table ≈", "E read ", "(a sample)", "enter searches the")
	h.keys("enter")
	h.contains(t, "Search Users · ", "scanned ")
	if h.rec.count("Scan") == 0 {
		t.Fatal("enter read nothing")
	}
}

// TestEntitiesOfATableOfUnknownSize: where DynamoDB reports a table as
// 0 B (dynalite, or a table newer than its six-hourly size update), E
// reads it from its start as a whole read and the budget stops it: the
// request line says so, not "whole (it costs less than 100 RCU)" beside
// a sample that cost 134 RCU. Where the size is known (the embedded
// backend) a table larger than the budget is sampled in parallel.
//
// Counts the sample had no item count to scale by are those of the items
// read, so at least what they say: "≥" and "first N items (budget)", as
// the entities command says "counts of those". They were drawn "≈",
// "estimated": a new user's walk on dynalite read STORE ≈6 of its 14
// items and DOC ≈8 of 18.
func TestEntitiesOfATableOfUnknownSize(t *testing.T) {
	backends := map[string]seedable{"memory": memory.New(), "memory, size not reported": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		seedSearchTable(t, db)
		t.Run(name, func(t *testing.T) {
			client := dynamo.Client(db)
			if name == "memory, size not reported" {
				client = uncounted{db}
			}
			h := newHarness(t, 120, 35, Config{Client: client, Table: "Wide", Now: demoClock})
			h.keys("E")
			info, _, err := dynamo.DescribeTable(context.Background(), client, "Wide")
			if err != nil {
				t.Fatal(err)
			}
			title := "Wide · 1 entity type · sampled:"
			if info.ItemCount == 0 {
				title = "Wide · 1 entity type · first "
			}
			h.contains(t, title)
			req := h.m.top().Request()
			if strings.Contains(req, "whole") {
				t.Fatalf("a sample's request line says whole: %q", req)
			}
			want := "segments in parallel, a sample of up to 100 RCU"
			if info.SizeBytes == 0 {
				want = "Scan Wide from its start (DynamoDB reports 0 B): stopped at the 100 RCU budget, a sample"
			}
			if !strings.Contains(req, want) {
				t.Fatalf("the request line says %q, not %q", req, want)
			}
			screen := h.screen()
			if info.ItemCount == 0 && (strings.Contains(screen, "≈") || strings.Contains(screen, "estimated") ||
				!strings.Contains(screen, "(budget): ≥ counts of those") || !strings.Contains(screen, " ≥")) {
				t.Errorf("counts of the items read, with no item count to scale them by, are not said as at least:\n%s", screen)
			}
			if info.ItemCount > 0 && !strings.Contains(screen, "≈") {
				t.Errorf("counts scaled by the table's item count are not said as estimates:\n%s", screen)
			}
		})
	}
}

// TestEntitiesPastTheBudgetSaySo: a table of unknown size (0 B
// reported) read whole, its last page meeting items larger than any read
// before (four of 230 KB after fifty of a few bytes), costs more than the
// 100 RCU budget: the request line says so, never "it costs less than
// 100 RCU" beside 113 RCU.
func TestEntitiesPastTheBudgetSaySo(t *testing.T) {
	backends := map[string]seedable{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()}
	for name, db := range backends {
		t.Run(name, func(t *testing.T) {
			s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
			var items []dynamo.Item
			for i := range 50 {
				items = append(items, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("a%02d", i))})
			}
			for i := range 4 {
				items = append(items, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("h%d", i)), "Blob": s(strings.Repeat("x", 230_000))})
			}
			if err := demo.CreateKeyTable(context.Background(), db, "Heavy", "S", items); err != nil {
				t.Fatal(err)
			}
			h := newHarness(t, 200, 35, Config{Client: uncounted{db}, Table: "Heavy", Now: demoClock})
			h.keys("E")
			h.contains(t, "Heavy · 1 entity type")
			req := h.m.top().Request()
			if strings.Contains(req, "costs less than") || !strings.Contains(req, "past the 100 RCU budget") {
				t.Fatalf("the request line says %q", req)
			}
		})
	}
}

// TestEntitiesTakeAnyKey: every key on the Entities view, and on the
// pages it opens, at every size: no panic, and the frame still fits.
func TestEntitiesTakeAnyKey(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, sz[0], sz[1], Config{Table: "Shop", Now: demoClock})
		for _, p := range randomKeys {
			h.keys("E")
			h.send(p)
			if lines := len(splitLines(h.screen())); lines != sz[1] {
				t.Fatalf("%v: after E and %q the screen is %d lines", sz, p.String(), lines)
			}
		}
	}
}

// TestEntitiesFailed: a read that fails is said where the types would be,
// and r reads again; a refresh that fails or is cancelled keeps the types
// read before, and says so.
func TestEntitiesFailed(t *testing.T) {
	f := failAfter("Scan", 1, throttled) // the partitions' first page answers, the types' read does not
	f.Client = demoData(t)
	h := newHarness(t, 120, 35, Config{Client: f, Table: "Shop", Now: demoClock})
	h.keys("E")
	h.contains(t, "Shop · read failed after 3 attempts", "ThrottlingException", "r retries", "r retry")
	if strings.Contains(h.screen(), "entity types ·") && !strings.Contains(h.screen(), "0 entity types") {
		t.Fatalf("a failed read shown as types:\n%s", h.screen())
	}
	f.after = 1 << 30
	h.keys("r")
	h.contains(t, "Shop · 5 entity types · exact")
	// A refresh that fails keeps the types read before, said so.
	f.mu.Lock()
	f.after = f.calls
	f.mu.Unlock()
	h.keys("r")
	h.contains(t, "Shop · read failed after 3 attempts · 5 entity types loaded before · r retries", "o#{n} / p#{n}", "enter open", "r retry")
	// esc stops a read in flight where the types would be; r reads them
	// again, from the start (never "r reads on": nothing goes on from esc).
	f.mu.Lock()
	f.after = 1 << 30
	f.mu.Unlock()
	_, cmd := h.m.Update(keyPress("r")) // r after a failure: the retry, held
	if cmd == nil {
		t.Fatal("r read nothing")
	}
	if _, cmd = h.m.Update(cmd()); cmd == nil { // the read it starts, held
		t.Fatal("the retry read nothing")
	}
	h.keys("esc")
	h.contains(t, "Shop · read cancelled · 5 entity types loaded before · r reads again")
	h.keys("r")
	h.contains(t, "Shop · 5 entity types · exact")
}

// TestEntitiesFit: the demo's tables of many types and long templates fit
// every size, hostile values (controls, bidi, wide characters in keys,
// attribute names and discriminators) reach the screen escaped, and an
// attribute a few items hold is said as under one percent.
func TestEntitiesFit(t *testing.T) {
	hostile := memory.New()
	seedHostile(t, hostile)
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		for _, cfg := range []Config{{Table: "Workbench"}, {Table: "Equipment"}, {Client: hostile, Table: "Hostile"}} {
			cfg.Now = demoClock
			h := newHarness(t, sz[0], sz[1], cfg)
			h.keys("E")
			checkScreen(t, h, sz[0], fmt.Sprintf("%s %v", cfg.Table, sz))
			h.contains(t, "entity type")
			if cfg.Table == "Hostile" && sz[1] >= 35 {
				h.contains(t, "  <1%  #hash") // held by a few of 305 items: never said as 0%
			}
			for range 8 {
				h.keys("down")
				checkScreen(t, h, sz[0], fmt.Sprintf("%s %v down", cfg.Table, sz))
			}
			h.keys("enter")
			checkScreen(t, h, sz[0], fmt.Sprintf("%s %v enter", cfg.Table, sz))
		}
	}
}
