package ui

import (
	"regexp"
	"strings"
	"testing"
)

// TestGKeepsTheCondition: G's first read from the end keeps the list's
// sort-key condition. It took the gap's bound in its place, so a Time
// range's end showed the partition's oldest items (last 24h on AuditLog
// ending at 2026-10-22) and a prefix's items ended past the prefix.
func TestGKeepsTheCondition(t *testing.T) {
	t.Run("time range", func(t *testing.T) {
		h := newHarness(t, 80, 24, Config{Table: "AuditLog", PK: "prod-api", Range: "last 24h", Now: demoClock})
		h.keys("j", "G")
		screen := h.screen()
		h.contains(t, "the middle not read yet")
		for _, d := range regexp.MustCompile(`20\d\d-\d\d-\d\dT`).FindAllString(screen, -1) {
			if d != "2026-10-31T" {
				t.Fatalf("a row of %s in the last 24h before 2026-11-01 00:00:\n%s", strings.TrimSuffix(d, "T"), screen)
			}
		}
	})
	t.Run("prefix", func(t *testing.T) {
		h := newHarness(t, 80, 24, Config{Table: "Locations", PK: "USA", Prefix: "NY#"})
		h.keys("2", "j", "G")
		screen := h.screen()
		h.contains(t, "the middle not read yet")
		for _, k := range regexp.MustCompile(`│ ([A-Z]{2}#)`).FindAllStringSubmatch(screen, -1) {
			if k[1] != "NY#" {
				t.Fatalf("a key under %s in the items of NY#:\n%s", k[1], screen)
			}
		}
	})
}
