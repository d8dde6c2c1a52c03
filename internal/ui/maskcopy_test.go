package ui

import (
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/domain"
)

// On a masked table y copies the query with its stand-ins; the real query
// is one more y away, and that y first says it holds real values and asks:
// only a third y copies it. Any other key in between starts over.
func TestMaskCopyRealQueryAsksFirst(t *testing.T) {
	f, err := domain.ParseFilter(`City = "OMAHA"`)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 200, 50, Config{Mask: maskLocations, Table: "Locations", PK: "USA", Filter: f})
	h.loadAll()
	first := h.sent("y")
	noReal(t, "the first y", first)
	if !strings.Contains(first, "‹m") {
		t.Fatalf("the first y copied no masked query:\n%s", first)
	}
	noReal(t, "the first y's note", h.screen())
	h.contains(t, "with masked values (y again for the real query)")
	asked := h.sent("y")
	noReal(t, "the second y", asked)
	noReal(t, "the second y's question", h.screen())
	if !strings.Contains(h.m.notice, "the real query holds the real values of masked attributes: y copies it") {
		t.Fatalf("the second y did not ask: %q", h.m.notice)
	}
	real := h.sent("y")
	for _, v := range []string{"USA", "OMAHA"} {
		if !strings.Contains(real, v) {
			t.Fatalf("the confirmed copy does not hold the real %q:\n%s", v, real)
		}
	}
	noReal(t, "the note after the real copy", h.screen())
	h.contains(t, "with the REAL values of masked")

	// y, another key, y: the masked query again, never the real one.
	h.sent("y")
	h.keys("down")
	h.sent("y")
	noReal(t, "y after another key", h.sent("down")+h.sent("y"))
}
