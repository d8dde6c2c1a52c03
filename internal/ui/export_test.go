package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// readRows reads a JSON-lines export back, one map a line.
func readRows(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%s: %v\n%s", path, err, data)
		}
		rows = append(rows, m)
	}
	return rows
}

// exportTo presses e, checks the name offered and what it says it costs,
// then exports to a file in dir.
func (h *harness) exportTo(t *testing.T, dir, offered, cost string) string {
	t.Helper()
	h.keys("e")
	h.contains(t, "export to › "+offered, cost)
	h.clearInput(len([]rune(offered)) + 2)
	path := filepath.Join(dir, offered)
	h.typeText(path)
	h.keys("enter")
	return path
}

// TestExportLoadedRows: on the tree, the versions list and a timeline, e
// writes what is on screen (children with their counts, versioned items,
// one item's revisions as items), says it costs nothing, and reads
// nothing.
func TestExportLoadedRows(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, 160, 30, Config{Table: "Locations", PK: "USA", Prefix: "NY#"})
	h.keys("c")
	reads := h.rec.count("Query") + h.rec.count("GetItem")
	path := h.exportTo(t, dir, "dynascope-Locations-USA-NY-children.jsonl", "already loaded: 0 RCU")
	h.contains(t, "exported 5 children · to ")
	if strings.Contains(h.screen(), "at most ~") || h.rec.count("Query")+h.rec.count("GetItem") != reads {
		t.Fatal("exporting the tree read again, or said it would")
	}
	children := readRows(t, path)
	if len(children) != 5 || children[0]["name"] != "MAPLEVIEW" || children[0]["count"] != 13.0 {
		t.Fatalf("children: %+v", children)
	}

	h = newHarness(t, 160, 30, Config{Table: "Equipment", PK: demo.DriftedPiece})
	h.keys("3")
	path = h.exportTo(t, dir, "dynascope-Equipment-Equipment_1-versions.jsonl", "already loaded: 0 RCU")
	h.contains(t, "exported 2 versioned items · to ")
	versions := readRows(t, path)
	if d := versions[1]; len(versions) != 2 || d["name"] != demo.DriftedItem || d["current"] != "v0_Audit#PART-7" || d["latest"] != 3.0 || len(d["drift"].([]any)) != 1 {
		t.Fatalf("versions: %+v", versions)
	}

	h.keys("down", "enter")
	path = h.exportTo(t, dir, "dynascope-Equipment-Equipment_1-Audit#PART-7-revisions.jsonl", "already loaded: 0 RCU")
	h.contains(t, "exported 4 items (the current copy and 3 revisions) · to ")
	revs := readRows(t, path)
	if len(revs) != 4 || revs[0]["SK"] != "v0_Audit#PART-7" || revs[3]["SK"] != "v3_Audit#PART-7" {
		t.Fatalf("revisions: %+v", revs)
	}
}

// TestExportTreeCountsItemsAsShown: a level's item row reads 1 in the
// Items column, and its export says count 1, as children --count does;
// it wrote no count, "not counted", beside the prefixes' counts.
func TestExportTreeCountsItemsAsShown(t *testing.T) {
	h := newHarness(t, 160, 30, Config{Table: "Equipment", PK: demo.DriftedPiece})
	h.contains(t, "• metadata")
	path := h.exportTo(t, t.TempDir(), "dynascope-Equipment-Equipment_1-children.jsonl", "already loaded: 0 RCU")
	for _, row := range readRows(t, path) {
		if row["name"] == "metadata" && row["count"] != 1.0 {
			t.Fatalf("the item row metadata exported as %+v, want count 1 as shown", row)
		}
	}
}

// TestExportSaysItsFileName: where the status bar has no room for the
// whole path it cuts the folders and keeps the file's name whole (it
// drew "/…ql.jsonl"), at every size.
func TestExportSaysItsFileName(t *testing.T) {
	const name = "dynascope-Locations-USA-NY-children.jsonl"
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		dir := filepath.Join(t.TempDir(), "a-folder-with-a-long-name", "and-another-one-under-it")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, size[0], size[1], Config{Table: "Locations", PK: "USA", Prefix: "NY#"})
		h.keys("c")
		h.exportTo(t, dir, name, "0 RCU")
		lines := strings.Split(h.screen(), "\n")
		status := lines[len(lines)-1]
		// At 80 columns the name alone is wider than the room: its end.
		if !strings.Contains(status, "exported 5 children · to ") || !strings.Contains(status, "/"+name) && !(strings.Contains(status, " · to …") && strings.HasSuffix(strings.TrimSpace(status), "Locations-USA-NY-children.jsonl")) {
			t.Errorf("%dx%d: the status bar does not name the file whole: %q", size[0], size[1], status)
		}
	}
}

// TestExportNameBoxOffersItsKeys: while the file is named every key is
// text in the name, so the help line offers the box's keys only, as the
// other text boxes do; it offered the list's "enter open", "/ search",
// "? help" and "q quit", and ? and q went into the name.
func TestExportNameBoxOffersItsKeys(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Table: "DeviceLogs", PK: "9000"})
		h.contains(t, "items loaded")
		h.keys("e")
		h.contains(t, "export to › ")
		line := helpLine(h)
		if !strings.HasPrefix(line, "enter export • esc cancel") {
			t.Errorf("%dx%d: the help line while naming the file: %q", size[0], size[1], line)
		}
		for _, absent := range []string{"open", "search", "? help", "q quit"} {
			if strings.Contains(line, absent) {
				t.Errorf("%dx%d: the help line offers %q while every key is text: %q", size[0], size[1], absent, line)
			}
		}
		h.keys("?", "q")
		h.contains(t, ".jsonl?q")
		h.keys("esc")
		if line := helpLine(h); !strings.Contains(line, "? help") {
			t.Errorf("%dx%d: esc left the box but not its help line: %q", size[0], size[1], line)
		}
	}
}

// TestExportSearchMatches (39.3): e on the results of a PartiQL
// statement writes the matches found, as plain JSON, reading nothing.
// At 80 columns the hint sheds words, never a figure's letters: it was
// drawn "already loaded…CU · esc cancels".
func TestExportSearchMatches(t *testing.T) {
	for _, c := range []struct {
		w, h int
		cost string
	}{{160, 30, "already loaded: 0 RCU · "}, {80, 24, "jsonl    0 RCU · esc cancels"}} {
		t.Run(fmt.Sprintf("%dx%d", c.w, c.h), func(t *testing.T) { exportSearchMatches(t, c.w, c.h, c.cost) })
	}
}

func exportSearchMatches(t *testing.T, w, ht int, cost string) {
	dir := t.TempDir()
	h := newHarness(t, w, ht, Config{Table: "Locations"})
	h.keys(":")
	h.typeText(`PK = 'USA' AND begins_with(SK, 'NY#NEWYORKCITY#')`)
	h.keys("enter")
	reads := h.rec.count("Query") + h.rec.count("Scan")
	path := h.exportTo(t, dir, "dynascope-Locations-partiql.jsonl", cost)
	if h.rec.count("Query")+h.rec.count("Scan") != reads {
		t.Fatal("exporting the matches read again")
	}
	rows := readRows(t, path)
	if len(rows) == 0 {
		t.Fatal("no rows exported")
	}
	for _, r := range rows {
		if r["PK"] != "USA" || !strings.HasPrefix(r["SK"].(string), "NY#NEWYORKCITY#") {
			t.Fatalf("a row that does not match: %+v", r)
		}
	}
}

// TestExportWaitsForTheList: a list still being read is not exported
// half way; a count cut off by esc is left out of the export rather than
// written as a number.
func TestExportWaitsForTheList(t *testing.T) {
	h := newHarness(t, 160, 30, Config{Table: "Equipment", PK: demo.DriftedPiece})
	h.m.Update(keyPress("3")) // the Versions page opens; its read is not run
	h.keys("e")
	h.contains(t, "still reading: export once the list is complete")

	// USA: its walk read every state whole but AZ, counted from the keys
	// held; c counts AZ (a level read whole, NY#, leaves c nothing to do).
	h = newHarness(t, 160, 30, Config{Table: "Locations", PK: "USA"})
	h.m.Update(keyPress("c")) // counting starts; its answers are not run
	h.keys("esc")
	// Cut off before any answer: AZ shows what the keys held count of it
	// so far, marked partial, never "0…".
	h.contains(t, "Items (c counts)", "count stopped: c counts on")
	if regexp.MustCompile(`\s0…`).MatchString(h.screen()) || !regexp.MustCompile(`AZ#\s+prefix\s+\d+…`).MatchString(h.screen()) {
		t.Fatalf("AZ after a count cut off:\n%s", h.screen())
	}
	path := h.exportTo(t, t.TempDir(), "dynascope-Locations-USA-children.jsonl", "0 RCU")
	seen := 0
	for _, r := range readRows(t, path) {
		switch r["name"] {
		case "AZ":
			if c, ok := r["count"]; ok && c != nil {
				t.Fatalf("a cut-off count was exported: %+v", r)
			}
			seen++
		case "AK":
			if r["count"] != 56.0 {
				t.Fatalf("AK, counted from the walk's keys, exported as %+v", r)
			}
			seen++
		}
	}
	if seen != 2 {
		t.Fatalf("the export lacks AK or AZ: %s", path)
	}
}

// TestExportQueryPages: Items and Time export their query's items (all of
// them, in the view's order), with the most it can cost said first.
func TestExportQueryPages(t *testing.T) {
	h := newHarness(t, 160, 30, Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200", Now: demoClock})
	logs := readRows(t, h.exportTo(t, t.TempDir(), "dynascope-DeviceLogs-123.jsonl", "at most ~"))
	for i, r := range logs {
		ts := r["Timestamp"].(float64)
		if r["DeviceID"] != 123.0 || ts >= 1536019200 || (i > 0 && ts > logs[i-1]["Timestamp"].(float64)) {
			t.Fatalf("row %d of the range export is not in the range, newest first: %+v", i, r)
		}
	}
	h = newHarness(t, 160, 30, Config{Table: "Locations", PK: "USA", Prefix: "NY#"})
	h.keys("tab")
	stores := readRows(t, h.exportTo(t, t.TempDir(), "dynascope-Locations-USA.jsonl", "at most ~"))
	for _, r := range stores {
		if !strings.HasPrefix(r["SK"].(string), "NY#") {
			t.Fatalf("the NY# items export holds %+v", r)
		}
	}
	if len(logs) == 0 || len(stores) == 0 {
		t.Fatalf("%d logs, %d stores exported", len(logs), len(stores))
	}
}

// TestExportReadAllSaysItBesideTheRows: e on a partition's items reads
// the whole partition (61 items) while the list holds the first page
// (31): the title says both, never "31 items loaded" beside "exported 61
// items" as if the list were all there is; a new query forgets it.
func TestExportReadAllSaysItBesideTheRows(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: demo.PartStatesTable, PK: demo.StatePart})
	h.keys("2")
	h.contains(t, "31 items loaded · more as you scroll · ascending")
	h.exportTo(t, t.TempDir(), "dynascope-VersionTimes-Equipment#1.jsonl", "at most ~")
	h.said(t, "exported 61 items")
	h.contains(t, "31 items loaded · more as you scroll · e read all 61, not kept here · ascending")
	h.keys("o") // another query: the export was of the one before
	if strings.Contains(h.screen(), "e read all") {
		t.Fatalf("the title keeps an export of another query:\n%s", h.screen())
	}
}

// TestExportOfferedName: enter on the name offered writes it relative to
// the working directory (the tests' exportDir, so that the suite leaves the
// source tree alone: see TestMain) and says where.
func TestExportOfferedName(t *testing.T) {
	h := newHarness(t, 160, 30, Config{Table: "Locations", PK: "USA", Prefix: "NY#"})
	h.keys("c", "e")
	h.contains(t, "export to › dynascope-Locations-USA-NY-children.jsonl")
	h.keys("enter")
	h.said(t, "exported 5 children · to "+filepath.Join(h.m.export.dir, "dynascope-Locations-USA-NY-children.jsonl"))
	if rows := readRows(t, filepath.Join(h.m.export.dir, "dynascope-Locations-USA-NY-children.jsonl")); len(rows) != 5 {
		t.Fatalf("%d rows exported, want 5", len(rows))
	}
}

// TestExportProgressBilled: the export's progress line says what its
// reads cost as DynamoDB bills them, as the status bar does. An empty
// partition's page is reported at 0 RCU by the embedded backend (as by
// dynalite) and billed 0.5: the line used to say "0.0 RCU" under a status
// bar saying "0.5 RCU est.".
func TestExportProgressBilled(t *testing.T) {
	h := newHarness(t, 200, 40, Config{Table: "DeviceLogs", PK: "999999"})
	var lines []string
	h.d.Handled = func(msg tea.Msg) {
		if p, ok := msg.(exportProgressMsg); ok && !p.done {
			lines = append(lines, h.m.exportLine())
		}
	}
	h.exportTo(t, t.TempDir(), "dynascope-DeviceLogs-999999.jsonl", "at most ~")
	h.d.Handled = nil
	if len(lines) == 0 {
		t.Fatal("no progress shown")
	}
	for _, l := range lines {
		if l = ansi.Strip(l); !strings.Contains(l, "0 items, 1 page, 0.5 RCU est.") {
			t.Errorf("the export's progress is not billed: %q", l)
		}
	}
}
