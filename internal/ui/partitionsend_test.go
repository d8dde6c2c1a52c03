package ui

import (
	"context"
	"fmt"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestGOnPartitionsStillScannedSaysSo: a Scan has no end to read first,
// so the first G on a partitions list still being scanned goes to the last
// partition scanned so far; it says that is not the table's last, rather
// than stopping there as if it were the end (25.20).
func TestGOnPartitionsStillScannedSaysSo(t *testing.T) {
	db := memory.New()
	items := make([]dynamo.Item, 3000)
	for j := range items {
		items[j] = dynamo.Item{"PK": s(fmt.Sprintf("p#%05d", j)), "SK": s("x")}
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Many", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Many"})
	h.contains(t, "more: scroll down to scan on")
	h.keys("G")
	h.said(t, "scanned so far, not the table's last")
}
