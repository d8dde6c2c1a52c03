package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// typedSecret is typed into filters on masked attributes: no item holds
// it, so only the typed text could show it.
const typedSecret = "Secret Lane 7"

// TestMaskEveryPageTypedValues walks every page of masked tables at the
// three sizes (tables, partitions, tree, items, item, versions,
// timeline, time, `?` help), with values typed against masked attributes
// in the filters of the items and the versions, and
// greps every frame for the planted values, typed ones included.
func TestMaskEveryPageTypedValues(t *testing.T) {
	typed := func(attr string) string { return attr + ` = "` + typedSecret + `"` }
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			var h *harness
			var planted []string
			frame := func(where string) {
				t.Helper()
				screen := h.screen()
				for _, v := range append([]string{typedSecret}, planted...) {
					if strings.Contains(screen, v) {
						t.Fatalf("%s shows the masked value %q:\n%s", where, v, screen)
					}
				}
			}

			h, planted = newHarness(t, size[0], size[1], Config{Mask: maskLocations}), realLocations
			frame("the tables")
			for range 7 { // Locations
				h.keys("down")
			}
			h.keys("enter")
			frame("the partitions list")
			h.keys("enter")
			frame("the tree")
			h.keys("tab")
			frame("the items")
			h.keys("f")
			h.typeText(`City = "OMAHA" or ` + typed("StreetAddress"))
			// While typing, the text box holds what is typed: the mask
			// applies once it is entered.
			h.keys("enter")
			h.loadAll()
			frame("the items filtered on masked attributes")
			h.contains(t, "‹m")
			h.keys("?")
			frame("help over the filtered items")
			h.keys("?", "f")
			frame("the filter bar reopened")
			h.keys("esc", "enter")
			frame("the item")

			h = newHarness(t, size[0], size[1], Config{Table: "Equipment", PK: demo.DriftedPiece, Mask: []string{"PK", "Status", "Findings"}})
			// Findings' values only: the partition key and the statuses
			// are also in Notes and Checks, which are not masked.
			planted = []string{"hydraulic leak", "needs re-inspection", "loose bolt", "worn belt", "label faded"}
			h.keys("3")
			h.loadAll()
			frame("versions")
			h.contains(t, "‹m")
			h.keys("?")
			frame("help over the versions")
			h.keys("?", "down", "enter")
			frame("a timeline")
			h.keys("esc", "f")
			h.typeText(typed("Status"))
			h.keys("enter")
			h.loadAll()
			frame("the versions' filter")
			h.keys("?")
			frame("help over the versions' filter")

			h = newHarness(t, size[0], size[1], Config{Table: "DeviceLogs", PK: "123", Now: demoClock, Mask: []string{"Message", "Level"}})
			planted = []string{"heartbeat", "sensor read", "door open", "temp spike", "boot", "INFO", "WARN", "ERROR"}
			h.keys("4")
			h.loadAll()
			frame("time")
			h.contains(t, "‹m")
		})
	}
}
