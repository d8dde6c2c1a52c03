package ui

import (
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// TestVersionsProbedOnce: where nothing read tells whether revision keys
// exist (a filtered list), 3 sends one Limit-1 keys-only begins_with read;
// none found, it refuses with the reason the tree would give and the tab
// is dimmed from then on, 3 again reading nothing; one found, Versions
// opens (25.11).
func TestVersionsProbedOnce(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "AuditLog", PK: "prod-api", Filter: mustFilter(t, `Action = "deploy"`)})
	versions := func() string {
		t.Helper()
		return h.m.top().(common.Moded).Modes()[2].Off
	}
	if off := versions(); off != "" {
		t.Fatalf("a filtered list already decided Versions: %q", off)
	}
	before := h.rec.count("Query")
	h.keys("3")
	if n := h.rec.count("Query") - before; n != 1 {
		t.Fatalf("3 sent %d Query requests, want one probe", n)
	}
	h.said(t, "No Versions mode here: no sort key here begins with v (v0_Audit, v1_Audit…)")
	if off := versions(); !strings.Contains(off, "no sort key here begins with v") {
		t.Fatalf("the tab stays undecided after the probe: %q", off)
	}
	before = h.rec.count("Query")
	h.keys("3")
	if n := h.rec.count("Query") - before; n != 0 {
		t.Fatalf("3 on the dimmed tab sent %d Query requests", n)
	}

	// tab stepping onto an undecided Versions probes it, and goes on to
	// the next mode when it does not apply.
	h = newHarness(t, 120, 35, Config{Table: "AuditLog", PK: "prod-api", Filter: mustFilter(t, `Action = "deploy"`)})
	h.keys("tab")
	if got := h.m.top().Mode(); got != "Time" {
		t.Fatalf("tab from a filtered list past Versions opened %s\n%s", got, h.screen())
	}

	h = newHarness(t, 120, 35, Config{Table: demo.PartVersionsTable, PK: "Part#1", Filter: mustFilter(t, `attribute_exists(SK)`)})
	h.keys("3")
	if got := h.m.top().Mode(); got != "Versions" {
		t.Fatalf("a partition with revision keys: 3 opened %s\n%s", got, h.screen())
	}
}
