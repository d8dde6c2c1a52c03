package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// tourWant is what each stop's view shows of its pattern, by title.
var tourWant = map[string]string{
	"Starbucks hierarchy":                  "53 prefixes",
	"Deep geography":                       "20 prefixes",
	"Audit versions with drift":            "versioned item",
	"Device logs < 1536019200":             "2 items",
	"Chat user#datetime":                   " · delimiter ",
	"Chat's reversed index":                "ByTime",
	"Sharded hot partition":                "shards of seattle-{1..4}",
	"Revisions spelt rev#{n}#{name}":       "versioned item",
	"An audit log over time":               "AuditLog",
	"Online shop, overloaded indexes":      " · delimiter ",
	"Device states before the time":        " · delimiter ",
	"Versions v0…vN with a Latest pointer": "versioned item",
	"Time-based versions beside Metadata":  " · delimiter ",
	"A history of 1,000 revisions":         "Audit · 1,000 revisions",
	"Documents v_0 beside v_1…v_N":         "(v_N)  v_0",
	"Revisions numbered by Unix time":      "Rel   v0",
	"Metrics in epoch milliseconds":        "TS holds epoch milliseconds",
	"Flights ORIGIN#time#fare#seat":        "SEA#2021-08-01T20:00:00#950#1",
	"Photos keyed by ULIDs":                "SK holds ULIDs (time-ordered ids) after a prefix",
	"A header item beside its events":      "comm#2023-04-30T12:05:41#comm2",
	"Orders keyed by yyyyMMdd numbers":     "dates written as numbers",
	"Binary sort keys":                     "b64:AP4A",
	"What changed, live":                   "c#001 · 9 changes in 24 h",
}

// TestTourOpensEachStop: --demo opens on the tour; each stop's key opens
// its view, reading its table, with rows and no failure, showing its
// pattern; the flags the tour prints reopen the same view.
func TestTourOpensEachStop(t *testing.T) {
	if len(tourWant) != len(tourStops) {
		t.Fatalf("%d stops, %d checked", len(tourStops), len(tourWant))
	}
	labels := tourLabels(keymap.Default(), len(tourStops))
	for i, s := range tourStops {
		t.Run(s.title, func(t *testing.T) {
			h := newHarness(t, 120, 35, Config{Tour: true, Now: demoClock, Streams: demoData(t)})
			h.contains(t, "Demo tour", "2026-11-01 00:00 UTC")
			h.keys(labels[i])
			if strings.Contains(h.screen(), "Demo tour") {
				t.Fatalf("stop %s did not open:\n%s", labels[i], h.screen())
			}
			h.contains(t, "Tables › "+s.open.Table, tourWant[s.title])
			if h.m.fatal != nil || h.m.lastErr != nil || strings.Contains(h.screen(), "Something went wrong") {
				t.Fatalf("stop %s failed: %v %v\n%s", labels[i], h.m.fatal, h.m.lastErr, h.screen())
			}
			if s.open.Changes {
				// The Changes mode: no flag opens it (the stop says 5),
				// and the stream's records are its rows.
				if h.m.top().Mode() != pages.ModeChanges || h.rec.count("Query")+h.rec.count("Scan") != 0 {
					t.Fatalf("stop %s: not the Changes mode, or it read the table:\n%s", labels[i], h.screen())
				}
				return
			}
			list, ok := h.m.top().(common.Searchable)
			if !ok || list.List().Rows() == 0 {
				t.Fatalf("stop %s opened no rows:\n%s", labels[i], h.screen())
			}
			// The flags under the list reopen this view: ? prints them.
			line := h.m.commandLine()
			args := tourArgs(s)
			for j := 0; j < len(args); j++ {
				pair := args[j]
				if j+1 < len(args) && !strings.HasPrefix(args[j+1], "--") {
					pair, j = pair+" "+args[j+1], j+1
				}
				if strings.HasPrefix(pair, "--levels ") || strings.HasPrefix(pair, "--version-pattern ") {
					continue // how the view names what it shows, not where it is
				}
				if !strings.Contains(line+" ", " "+pair+" ") {
					t.Errorf("the tour opens with %q; the view reopens with %q", strings.Join(args, " "), line)
				}
			}
		})
	}
}

// TestTourHoldsEveryTable (25.23, 26.7): every demo table is a stop, and
// so are the 1,000-revision history and each key shape published models
// write (flights ORIGIN#time#fare#seat, photos by ULID, a header item
// beside events, yyyyMMdd numbers, revisions numbered by Unix time).
func TestTourHoldsEveryTable(t *testing.T) {
	opened := map[string]bool{}
	for _, s := range tourStops {
		opened[s.open.Table] = true
		opened[s.open.Table+" "+s.open.PK] = true
	}
	var want []string
	for _, tb := range demo.Tables() {
		want = append(want, *tb.TableName)
	}
	want = append(want, "Equipment "+demo.LongHistoryPiece, demo.ShapesTable+" "+demo.FlightsPK, demo.ShapesTable+" "+demo.PhotosPK,
		demo.ShapesTable+" "+demo.ComplaintPK, demo.ShapesTable+" "+demo.ReleasesPK, demo.OrdersTable+" "+demo.OrdersCustomer)
	for _, w := range want {
		if !opened[w] {
			t.Errorf("no stop of the tour opens %s", w)
		}
	}
	h := newHarness(t, 200, 50, Config{Tour: true, Now: demoClock})
	h.contains(t, fmt.Sprintf("What the demo's %d tables hold", len(demo.Tables())))
}

// TestTourKeysSkipTakenOnes: the direct keys are 1–9 then the letters no
// other key of the tour takes; a letter rebound to move the cursor is
// skipped, so that it still moves it (and j, no longer down, opens a stop).
func TestTourKeysSkipTakenOnes(t *testing.T) {
	got := strings.Join(tourLabels(keymap.Default(), len(tourStops)), "")
	if got != "123456789abcdefimnorstu" {
		t.Fatalf("the tour's keys: %s", got)
	}
	if spans := labelSpans(tourLabels(keymap.Default(), len(tourStops))); !slices.Equal(spans, []string{"1–9", "a–u"}) {
		t.Fatalf("named as %v", spans)
	}
	km := keymap.Default()
	km.Down = key.NewBinding(key.WithKeys("down", "a"), key.WithHelp("↓/a", "down"))
	if got := strings.Join(tourLabels(km, len(tourStops)), ""); got != "123456789bcdefijmnorstu" {
		t.Fatalf("with a bound to down: %s", got)
	}
	h := newHarness(t, 120, 35, Config{Tour: true, Now: demoClock, Keys: km})
	h.keys("a")
	h.contains(t, "Demo tour", "› Geography")
	h.keys("b")
	h.contains(t, "Tables › Shop")
}

// TestTourScrollsAt80x24: the list is longer than 80×24 holds; it scrolls
// with the cursor, says how many stops are out of sight, and keeps the
// selected stop, its key and its description on screen all the way down
// and back up; the lines under the list stay.
func TestTourScrollsAt80x24(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
	labels := tourLabels(keymap.Default(), len(tourStops))
	h.contains(t, "↓ ", " more below", "enter/1–9/a–u open", "esc: the tables")
	see := func(i int) {
		t.Helper()
		s := tourStops[i]
		h.contains(t, labels[i]+"  "+s.title, "› "+s.about[:20], "Clock starts at", "enter/1–9/a–u open")
	}
	for i := range tourStops {
		see(i)
		h.keys("down")
	}
	h.contains(t, "↑ ", " more above")
	if strings.Contains(h.screen(), "more below") {
		t.Fatalf("at the last stop, stops below:\n%s", h.screen())
	}
	for i := len(tourStops) - 1; i >= 0; i-- {
		see(i)
		h.keys("k")
	}
	h.keys("pgdown")
	if h.m.top().(*tourPage).cursor == 0 {
		t.Fatal("pgdown did not move")
	}
	h.keys("G")
	see(len(tourStops) - 1)
	h.keys("g")
	see(0)
}

// TestTourGoldens: the tour with its cursor on the last stop, scrolled
// where the list does not fit.
func TestTourGoldens(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			h := newHarness(t, sz[0], sz[1], Config{Tour: true, Now: demoClock})
			h.keys("G")
			checkScreen(t, h, sz[0], "tour")
			h.golden(t)
		})
	}
}

func TestTourKeys(t *testing.T) {
	h := newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
	h.golden(t)
	if h.rec.count("Scan")+h.rec.count("Query") != 0 {
		t.Fatal("the tour read before anything was picked")
	}
	h.keys("down", "down", "enter")
	h.contains(t, "Equipment", "versioned items")
	h.keys("?")
	h.contains(t, "T demo tour")
	h.keys("T")
	h.contains(t, "Demo tour")
	h.keys("esc") // back where T was pressed
	h.contains(t, "versioned items")
	h = newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
	h.keys("esc")
	h.contains(t, "Locations", "READ-ONLY")
	if strings.Contains(h.screen(), "Demo tour") {
		t.Fatal("esc stayed on the tour")
	}
}

// TestTourClicks: a click selects the stop under it, in the scrolled list
// too; a second click opens it; a click off the list does nothing.
func TestTourClicks(t *testing.T) {
	click := func(h *harness, y int) { h.screen(); h.send(tea.MouseClickMsg{X: 10, Y: y, Button: tea.MouseLeft}) }
	h := newHarness(t, 120, 35, Config{Tour: true, Now: demoClock})
	click(h, 4) // the title bar, the border, then the stops (no room for a heading): the third
	h.contains(t, "Demo tour", "› Equipment: v0_")
	click(h, 0) // the title bar over the list
	h.contains(t, "Demo tour", "› Equipment: v0_")
	click(h, 30) // under the list
	h.contains(t, "Demo tour", "› Equipment: v0_")
	click(h, 4)
	h.contains(t, "Tables › Equipment › "+demo.DriftedPiece, "versioned item")

	h = newHarness(t, 80, 24, Config{Tour: true, Now: demoClock})
	h.keys("G") // scrolled: the list's first line is the tenth stop
	click(h, 2)
	h.contains(t, "› Shop: customers")
	click(h, 2)
	h.contains(t, "Tables › Shop")
}
