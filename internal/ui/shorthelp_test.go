package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// helpPages are a view of every page, and keys that reach it.
var helpPages = []struct {
	name string
	cfg  Config
	keys []string
}{
	{"tables", Config{}, nil},
	{"tour", Config{Tour: true}, nil},
	{"partitions", Config{Table: "Locations"}, nil},
	{"tree", Config{Table: "Locations", PK: "USA"}, nil},
	{"items", Config{Table: "DeviceLogs", PK: "123"}, nil},
	{"item", Config{Table: "DeviceLogs", PK: "123"}, []string{"enter"}},
	{"item+stream", Config{Table: demo.ShopTable, PK: demo.StreamCustomer}, []string{"2", "enter"}},
	{"versions", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}, nil},
	{"timeline", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: demo.DriftedItem}, nil},
	{"time", Config{Table: "DeviceLogs", PK: "123", Range: "last 7d"}, nil},
	{"index-picker", Config{Table: "Locations", PK: "USA"}, []string{"i"}},
	{"columns", Config{Table: "DeviceLogs", PK: "123"}, []string{"C"}},
}

// helpLine is the short help, the line above the status bar.
func helpLine(h *harness) string {
	lines := strings.Split(h.screen(), "\n")
	return strings.TrimRight(lines[len(lines)-2], " ")
}

// TestShortHelpEndsWithHelpAndQuit: at every width from 60 the short
// help's last keys are ? help and q quit (q close over a picker), the
// page's own keys giving way first; at 80 columns it never said either
// outside the tour.
func TestShortHelpEndsWithHelpAndQuit(t *testing.T) {
	var at80 []string
	for _, p := range helpPages {
		t.Run(p.name, func(t *testing.T) {
			for _, w := range []int{60, 67, 80, 99, 120, 160, 200} {
				cfg := p.cfg
				cfg.Now = demoClock
				if p.name == "item+stream" { // the embedded backend serves its stream
					db := demoData(t)
					cfg.Client, cfg.Streams = db, db
				}
				h := newHarness(t, w, 24, cfg)
				h.keys(p.keys...)
				line := helpLine(h)
				quit := "q quit"
				if strings.HasSuffix(p.name, "picker") || p.name == "columns" {
					quit = "q close"
				}
				body, _, _ := strings.Cut(line, "   ") // the position, at the right
				if !strings.HasSuffix(strings.TrimSpace(body), "? help • "+quit) {
					t.Fatalf("at %d columns the help line does not end with ? help • %s:\n%q", w, quit, line)
				}
				if w == 80 {
					at80 = append(at80, fmt.Sprintf("%-12s %s", p.name, line))
				}
			}
		})
	}
	golden.RequireEqual(t, []byte(strings.Join(at80, "\n")+"\n"))
}

// TestShortHelpWhileTyping: in a text box ? and q are text, so the help
// line does not offer them.
func TestShortHelpWhileTyping(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Table: "DeviceLogs", PK: "123", Now: demoClock})
	h.keys("f")
	if line := helpLine(h); strings.Contains(line, "q quit") || !strings.Contains(line, "esc cancel") {
		t.Fatalf("help line while typing a filter: %q", line)
	}
}
