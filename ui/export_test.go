package ui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/dynamo/demo"
	"github.com/dynascope/dynascope/model"
)

// rowsExport records what the explorer hands over and writes it as JSON
// lines (the command line's writer is tested with it in package main).
type rowsExport struct {
	got   []dynamo.Rows
	paths []string
}

func (r *rowsExport) export(rows dynamo.Rows, path string) (int, error) {
	r.got, r.paths = append(r.got, rows), append(r.paths, path)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, row := range rows.Rows {
		if err := enc.Encode(row); err != nil {
			return 0, err
		}
	}
	return len(rows.Rows), nil
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
	rec := &rowsExport{}
	h := newHarness(t, 160, 30, Config{Table: "Locations", PK: "USA", Prefix: "NY#", ExportRows: rec.export})
	h.keys("c")
	reads := h.rec.count("Query") + h.rec.count("GetItem")
	h.exportTo(t, dir, "dynascope-Locations-USA-NY-children.jsonl", "already loaded: 0 RCU")
	h.contains(t, "exported 5 children to ")
	if strings.Contains(h.screen(), "at most ~") || h.rec.count("Query")+h.rec.count("GetItem") != reads {
		t.Fatal("exporting the tree read again, or said it would")
	}
	children := rec.got[0]
	first := children.Rows[0].(dynamo.ChildRow)
	if children.Noun != "children" || len(children.Rows) != 5 || first.Name != "MAPLEVIEW" || first.Count == nil || *first.Count != 13 {
		t.Fatalf("children: %+v", children)
	}

	h = newHarness(t, 160, 30, Config{Table: "Equipment", PK: demo.DriftedPiece, ExportRows: rec.export})
	h.keys("3")
	h.exportTo(t, dir, "dynascope-Equipment-Equipment_1-versions.jsonl", "already loaded: 0 RCU")
	h.contains(t, "exported 2 versioned items to ")
	drifted := rec.got[1].Rows[1].(dynamo.HistoryRow)
	if drifted.Name != demo.DriftedItem || *drifted.Current != "v0_Audit#PART-7" || *drifted.Latest != 3 || len(drifted.Drift) != 1 {
		t.Fatalf("versions: %+v", rec.got[1])
	}

	h.keys("down", "enter")
	path := h.exportTo(t, dir, "dynascope-Equipment-Equipment_1-Audit#PART-7-revisions.jsonl", "already loaded: 0 RCU")
	h.contains(t, "exported 4 revisions to ")
	if rec.paths[2] != path {
		t.Fatalf("exported to %q", rec.paths)
	}
	revs := rec.got[2]
	if revs.Rows[0].(map[string]any)["SK"] != "v0_Audit#PART-7" || revs.Rows[3].(map[string]any)["SK"] != "v3_Audit#PART-7" ||
		strings.Join(revs.First, ",") != "PK,SK" {
		t.Fatalf("revisions: %+v", revs)
	}
	if data, err := os.ReadFile(path); err != nil || strings.Count(string(data), "\n") != 4 {
		t.Fatalf("the file: %v\n%s", err, data)
	}
}

// TestExportWaitsForTheList: a list still being read is not exported
// half way; a count cut off by esc is left out of the export rather than
// written as a number.
func TestExportWaitsForTheList(t *testing.T) {
	rec := &rowsExport{}
	h := newHarness(t, 160, 30, Config{Table: "Equipment", PK: demo.DriftedPiece, ExportRows: rec.export})
	h.m.Update(keyPress("3")) // the Versions page opens; its read is not run
	h.keys("e")
	h.contains(t, "still reading: export once the list is complete")

	h = newHarness(t, 160, 30, Config{Table: "Locations", PK: "USA", Prefix: "NY#", ExportRows: rec.export})
	h.m.Update(keyPress("c")) // counting starts; its answers are not run
	h.keys("esc")
	h.contains(t, "0…")
	h.exportTo(t, t.TempDir(), "dynascope-Locations-USA-NY-children.jsonl", "0 RCU")
	for _, r := range rec.got[0].Rows {
		if c := r.(dynamo.ChildRow).Count; c != nil {
			t.Fatalf("a cut-off count was exported: %+v", r)
		}
	}
}

// TestExportQueryPages: Items and Time still export their query's items,
// with the most it can cost.
func TestExportQueryPages(t *testing.T) {
	var queries []string
	export := func(q string) { queries = append(queries, q) }
	h := newHarness(t, 160, 30, Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200", Now: demoClock,
		Export: recordQuery(export), ExportRows: (&rowsExport{}).export})
	h.exportTo(t, t.TempDir(), "dynascope-DeviceLogs-123.jsonl", "at most ~")
	h = newHarness(t, 160, 30, Config{Table: "Locations", PK: "USA", Prefix: "NY#", Export: recordQuery(export), ExportRows: (&rowsExport{}).export})
	h.keys("tab")
	h.exportTo(t, t.TempDir(), "dynascope-Locations-USA.jsonl", "at most ~")
	if strings.Join(queries, "\n") != "Query DeviceLogs: DeviceID = :pk AND Timestamp < :sk   :pk=123 :sk=1536019200  (descending)\n"+
		`Query Locations: PK = :pk AND begins_with(SK, :prefix)   :pk="USA" :prefix="NY#"` {
		t.Fatalf("queries exported:\n%s", strings.Join(queries, "\n"))
	}
}

// recordQuery is an ExportFunc that notes the query it is asked to export.
func recordQuery(note func(string)) ExportFunc {
	return func(_ context.Context, q model.KeyQuery, _ string, _ func(items, pages int, rcu float64)) (int, error) {
		note(q.Describe())
		return 0, nil
	}
}
