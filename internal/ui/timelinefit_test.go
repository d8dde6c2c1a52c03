package ui

import (
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// TestTimelineShowsEveryRevisionThatFits: a short history is never
// scrolled, whatever row the cursor opens on; at 80×24 the four rows of
// the drifted item (v0, v1, v2, v3) are all shown.
func TestTimelineShowsEveryRevisionThatFits(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 35}} {
		h := newHarness(t, sz[0], sz[1], Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: demo.DriftedItem, Now: demoClock})
		h.contains(t, "v0 current", "v1_Audit#PART-7", "v2_Audit#PART-7", "v3_Audit#PART-7")
	}
}
