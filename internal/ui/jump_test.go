package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestGReadsTheEndInOneRead: G on a partition not read to its end sends
// one reverse Query of a screen and shows the last rows under a gap row;
// scrolling up from the end reads backwards until the two reads meet, and
// the list is then whole: every item once, in order.
func TestGReadsTheEndInOneRead(t *testing.T) {
	db := memory.New()
	seedWide(t, db, 2000, 100)
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Wide", PK: "W"})
	h.keys("tab")
	h.contains(t, "items loaded · more as you scroll", "w#00000")
	before := h.rec.count("Query")
	h.keys("G")
	if n := h.rec.count("Query") - before; n != 1 {
		t.Fatalf("G sent %d Query requests, want 1", n)
	}
	h.contains(t, "w#01999", "the middle not read yet")
	scrollBackThroughGap(t, h, "2,000 items loaded · all")
	// Walk the whole list down from the top: every key once, in order.
	h.keys("g")
	seen := 0
	for range 400 {
		for _, line := range strings.Split(h.screen(), "\n") {
			if i := strings.Index(line, "w#"); i >= 0 {
				var n int
				if _, err := fmt.Sscanf(line[i:], "w#%05d", &n); err == nil && n == seen {
					seen++
				}
			}
		}
		if seen == 2000 {
			break
		}
		h.keys("pgdown")
	}
	if seen != 2000 {
		t.Fatalf("walking down the joined list found keys in order up to w#%05d", seen)
	}
}

const gapText = "⋯ not read yet"

// scrollBackThroughGap presses pgup from the end until the reads from
// both ends meet (the title says want, "N items loaded · all"), and
// checks that the gap row went with it.
func scrollBackThroughGap(t *testing.T, h *harness, want string) {
	t.Helper()
	for range 300 {
		if strings.Contains(h.screen(), want) {
			break
		}
		h.keys("pgup")
	}
	h.contains(t, want)
	if strings.Contains(h.screen(), gapText) {
		t.Fatal("the gap row stayed after the reads met")
	}
}

// TestDeepLinkReusesThePreflight: a table described by the command line's
// preflight is not described again.
func TestDeepLinkReusesThePreflight(t *testing.T) {
	db := demoData(t)
	info, _, err := dynamo.DescribeTable(context.Background(), db, "Locations")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 100, 30, Config{Client: db, Table: "Locations", Info: &info})
	h.contains(t, "USA")
	if n := h.rec.count("DescribeTable"); n != 0 {
		t.Fatalf("the explorer described the table again (%d DescribeTable)", n)
	}
}
