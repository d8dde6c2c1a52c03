package ui

import (
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// TestTimelineNamesTheCurrentCopyAsSpelled: on a zero-padded history
// (v0000_Audit beside v0001_Audit) 0's help and the diff's title name
// v0000_, the key as the table holds it, not v0_.
func TestTimelineNamesTheCurrentCopyAsSpelled(t *testing.T) {
	h := newHarness(t, 200, 50, Config{Table: "Equipment", PK: demo.LongHistoryPiece, Versions: "*", Now: demoClock})
	h.keys("enter")
	h.contains(t, "0 compare with v0000_")
	h.keys("down", "0")
	h.contains(t, "the current copy (v0000_)")
}
