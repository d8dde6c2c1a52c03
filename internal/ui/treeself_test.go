package ui

import (
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// TestTreeItemAtPrefix (26.5): on the demo's USER#ada, PROFILE# is both an
// item and the prefix of PROFILE#email and PROFILE#phone. Its level lists
// the item as a row of its own, counted among the items of the title
// (three rows, three items), and enter on that row opens the item.
func TestTreeItemAtPrefix(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: demo.ShapesTable, PK: demo.PhotosPK})
	h.contains(t, "USER#ada · 2 prefixes · all", "PHOTO#", "PROFILE#", "row 1 of 2")
	h.keys("down", "enter")
	h.contains(t, "PROFILE# · 3 items · all", "PROFILE# (the prefix itself)", "email", "phone", "row 1 of 3")
	h.keys("enter")
	h.contains(t, `"Name"`, `"Ada"`)

	// ORDER# alone: its level holds only the item keyed by the prefix.
	h = newHarness(t, 120, 35, Config{Table: "T", PK: "p", Client: keysDB(t, "ORDER#", "USER#1")})
	h.contains(t, "p · 2 prefixes · all", "row 1 of 2")
	h.keys("enter")
	h.contains(t, "ORDER# · 1 item · all", "ORDER# (the prefix itself)", "row 1 of 1")
	h.keys("enter")
	h.contains(t, `"SK": "ORDER#"`)
}
