package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// TestReopenCommands walks to every kind of view that prints a command at
// ? (the tree at its top and under a prefix, items, filtered items, an
// index, Versions mode, a timeline, a table's own version spelling, a time
// range, a sharded partition) and keeps those commands in a golden file.
// The command line's TestReopenCommandsRun runs each one and checks that
// it opens a view whose ? prints the same command.
func TestReopenCommands(t *testing.T) {
	var lines []string
	note := func(h *harness) {
		t.Helper()
		line := h.m.commandLine()
		if line == "" {
			t.Fatalf("no command for this view:\n%s", h.screen())
		}
		lines = append(lines, line)
	}
	h := newHarness(t, 160, 40, Config{Table: "Locations", PK: "USA"})
	note(h) // the tree at the partition's top
	h.keys("/")
	h.typeText("NY#") // the prefix, not the item NY beside it
	h.keys("enter", "enter")
	note(h) // a level under a prefix
	h.keys("tab")
	note(h) // its items
	h.keys("3")
	note(h) // Versions mode

	h = newHarness(t, 160, 40, Config{Table: "DeviceLogs", PK: "9000", Filter: mustFilter(t, `Level = "ERROR"`)})
	note(h) // filtered items

	h = newHarness(t, 160, 40, Config{Table: "Locations", PK: "BAYVIEW", Index: "ByCity"})
	note(h) // an index

	h = newHarness(t, 160, 40, Config{Table: "Locations", Index: "ByCity"})
	note(h) // an index's partitions
	h.keys("esc")
	note(h) // the table's

	h = newHarness(t, 160, 40, Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: demo.DriftedItem})
	note(h) // a timeline, its name with a # in it

	tables := map[string]config.TableSettings{demo.PolicyTable: {VersionPattern: demo.PolicyPattern}}
	h = newHarness(t, 160, 40, Config{Table: demo.PolicyTable, PK: demo.PolicyDrifted, Tables: tables})
	openVersionsMode(t, h)
	h.keys("enter")
	note(h) // a table's own spelling, without the configuration

	h = newHarness(t, 160, 40, Config{Table: "DeviceLogs", PK: "123", Range: "< 1536019200", Now: demoClock})
	note(h) // a time range

	h = newHarness(t, 160, 40, Config{Table: "ChatMessages", PK: "seattle-{1..4}"})
	note(h) // a sharded partition

	golden.RequireEqual(t, []byte(strings.Join(lines, "\n")+"\n"))
}

func mustFilter(t *testing.T, s string) domain.FilterNode {
	t.Helper()
	n, err := domain.ParseFilter(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
