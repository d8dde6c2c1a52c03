package ui

import (
	"fmt"
	"testing"
	"time"
)

// TestTimeDetectsFromHeadlessSample (26.2): the Time mode detects the
// format from the sample headless detection reads, not its first page.
// Ten ZETA# notes and eight EVENT# times are the newest keys, forty
// AUDIT# times the oldest: the first page is mostly not times, the
// sample (newest 20, oldest 20) is three quarters times.
func TestTimeDetectsFromHeadlessSample(t *testing.T) {
	at := time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC)
	var sks []string
	for i := range 40 {
		sks = append(sks, "AUDIT#"+at.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))
	}
	for i := range 8 {
		sks = append(sks, "EVENT#"+at.AddDate(0, 1, i).Format(time.RFC3339))
	}
	for i := range 10 {
		sks = append(sks, fmt.Sprintf("ZETA#note-%02d", i))
	}
	h := newHarness(t, 200, 50, Config{Table: "T", PK: "p", Client: keysDB(t, sks...)})
	h.keys("4")
	h.contains(t, "SK holds ISO 8601 with zone after a prefix ending # (detected)", "10 of 40 keys are not times: ZETA#note-09")
}
