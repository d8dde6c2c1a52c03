package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo/dataload"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

const shopModel = "../dynamo/dataload/testdata/shop.workbench.json"

// dataHarness opens the test Workbench model (two tables with GSIs) as
// --data does.
func dataHarness(t *testing.T, w, h int) *harness {
	t.Helper()
	db := memory.New()
	if _, err := dataload.Load(context.Background(), db, []string{shopModel}, dataload.Options{}); err != nil {
		t.Fatal(err)
	}
	return newHarness(t, w, h, Config{Client: db, Connection: "DATA: shop.workbench.json", CostEstimated: true,
		ReopenArgs: []string{"--data", "shop.workbench.json"}})
}

// TestDataWorkbenchTables: a Workbench model's tables and their GSIs, the
// DATA: label, READ-ONLY and estimated RCU, at the smallest size.
func TestDataWorkbenchTables(t *testing.T) {
	h := dataHarness(t, 80, 24)
	h.contains(t, "DATA: shop.workbench.json", "READ-ONLY", "RCU est.", "Sessions", "Shop")
	h.golden(t)
}

// TestDataWorkbenchTree: a facets-form table drills into its customers'
// orders as any table does.
func TestDataWorkbenchTree(t *testing.T) {
	h := dataHarness(t, 120, 35)
	h.keys("down", "enter") // Shop
	h.contains(t, "CUSTOMER#ada", "CUSTOMER#alan")
	h.keys("enter")
	h.contains(t, "ORDER#", "PROFILE")
	h.golden(t)
	h.keys("y")
	h.contains(t, "sent to the clipboard: the aws")
	h.said(t, "sent to the clipboard: the aws command (it queries the real table, not this data)")
	if !strings.HasPrefix(h.m.noticeMore, "aws dynamodb query --table-name Shop") {
		t.Errorf("copied %q", h.m.noticeMore)
	}
}

// TestDataWorkbenchIndex: the other table, read through its KEYS_ONLY GSI,
// on a large screen.
func TestDataWorkbenchIndex(t *testing.T) {
	h := dataHarness(t, 200, 50)
	h.keys("enter") // Sessions
	h.contains(t, "ada", "alan")
	h.keys("enter")
	h.contains(t, "1793437200", "phone")
	h.golden(t)
	h.keys("?")
	h.contains(t, "dynascope --data shop.workbench.json")
}
