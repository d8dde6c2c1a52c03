package ui

import (
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/domain"
)

// A filter typed against masked attributes leaked its values on the
// filter bar, the request line, `?`'s command and the y copy. Once
// entered, a typed value is a stand-in everywhere it shows, and the read
// still asks for what was typed.
func TestMaskTypedFilter(t *testing.T) {
	f, err := domain.ParseFilter(`City = "OMAHA" or StreetAddress = "Broadway"`)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 35, Config{Mask: maskLocations, Table: "Locations", PK: "USA", Filter: f})
	h.loadAll()
	screen := h.screen()
	noReal(t, "the filtered list", screen)
	if !strings.Contains(screen, "‹m") || strings.Contains(screen, "no items") {
		t.Fatalf("the filtered read found nothing, or shows no stand-in:\n%s", screen)
	}
	noReal(t, "the y copy", h.sent("y"))
	h.keys("?")
	noReal(t, "help", h.screen())
	h.keys("?")
	h.keys("f") // the filter bar, open to edit: its text is stand-ins too
	noReal(t, "the filter bar", h.screen())
	h.keys("enter") // applied again as shown: the same read
	h.loadAll()
	noReal(t, "the filter applied again", h.screen())
	if got := h.screen(); strings.Contains(got, "no items") {
		t.Fatalf("the stand-ins applied again read nothing:\n%s", got)
	}
}
