package ui

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// randomKeys are every bound key (but F), the editing keys of the text boxes
// (alt+d crashed bubbles' input) and some text.
var randomKeys = func() []tea.KeyPressMsg {
	var ks []tea.KeyPressMsg
	for _, code := range []rune{tea.KeyUp, tea.KeyDown, tea.KeyLeft, tea.KeyRight, tea.KeyPgUp, tea.KeyPgDown, tea.KeyHome, tea.KeyEnd,
		tea.KeyEnter, tea.KeyEscape, tea.KeyTab, tea.KeyBackspace, tea.KeyDelete} {
		ks = append(ks, tea.KeyPressMsg{Code: code})
	}
	ks = append(ks, tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, tea.KeyPressMsg{Code: tea.KeySpace, Text: " "},
		tea.KeyPressMsg{Code: 'd', Mod: tea.ModAlt}, tea.KeyPressMsg{Code: tea.KeyDelete, Mod: tea.ModAlt},
		tea.KeyPressMsg{Code: 'b', Mod: tea.ModAlt}, tea.KeyPressMsg{Code: 'f', Mod: tea.ModAlt},
		tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}, tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}, tea.KeyPressMsg{Code: 'k', Mod: tea.ModCtrl})
	// Not F: following polls on a timer, which this synchronous harness
	// would wait on for ever (TestFollowInTimeMode covers it).
	for _, r := range "jkgGlh12345V/nNfto[]m0cCsSiDp><yYerzdaxKJ#\"é世-" {
		ks = append(ks, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return ks
}()

// TestRandomKeysEveryPage presses a few thousand seeded random keys on
// every page at the three common sizes: no panic, and every frame fits
// the terminal. A failure names the seed and the keys that led to it.
func TestRandomKeysEveryPage(t *testing.T) {
	starts := []struct {
		name string
		cfg  Config
	}{
		{"tables", Config{}},
		{"partitions", Config{Table: "Locations"}},
		{"tree", Config{Table: "Locations", PK: "USA"}},
		{"items", Config{Table: "DeviceLogs", PK: "123"}},
		{"versions", Config{Table: "Equipment", PK: demo.DriftedPiece, Versions: "*"}},
		{"timeline", Config{Table: "Equipment", PK: demo.LongHistoryPiece, Versions: "Audit#PART-7"}},
		{"time", Config{Table: "DeviceLogs", PK: "123", Range: "last 7d"}},
		{"changes", Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: demoData(t)}},
		// 5 opens the table's changes; enter, 2, enter an item with its own.
		{"table changes", Config{Table: demo.ShopTable, Streams: demoData(t)}},
	}
	sizes := [][2]int{{80, 24}, {120, 35}, {200, 50}}
	keysPerRun := 800
	if testing.Short() {
		keysPerRun = 150
	}
	for i, s := range starts {
		t.Run(s.name, func(t *testing.T) {
			seed := int64(1700 + i)
			r := rand.New(rand.NewSource(seed))
			for _, sz := range sizes {
				cfg := s.cfg
				cfg.Now = demoClock
				h := newHarness(t, sz[0], sz[1], cfg)
				var pressed []string
				for n := 0; n < keysPerRun; n++ {
					k := randomKeys[r.Intn(len(randomKeys))]
					pressed = append(pressed, k.String())
					func() {
						defer func() {
							if e := recover(); e != nil {
								t.Fatalf("seed %d at %dx%d: panic %v after keys %q", seed, sz[0], sz[1], e, pressed[max(0, len(pressed)-30):])
							}
						}()
						h.send(k)
						checkScreen(t, h, sz[0], fmt.Sprintf("seed %d at %dx%d after %q", seed, sz[0], sz[1], pressed[max(0, len(pressed)-30):]))
						if got := len(splitLines(h.m.render())); got != sz[1] && !h.m.tooSmall() {
							t.Fatalf("seed %d at %dx%d: %d lines after %q", seed, sz[0], sz[1], got, pressed[max(0, len(pressed)-30):])
						}
					}()
				}
			}
		})
	}
}

// textInputs are every text box of the explorer and the keys that open
// it from a view.
var textInputs = []struct {
	name string
	cfg  Config
	open []string
}{
	{"search", Config{Table: "Locations", PK: "USA"}, []string{"/"}},
	{"search-items", Config{Table: "DeviceLogs", PK: "123"}, []string{"/"}},
	{"go-to", Config{Table: "Locations"}, []string{"/"}},
	{"filter", Config{Table: "DeviceLogs", PK: "123"}, []string{"f"}},
	{"range", Config{Table: "DeviceLogs", PK: "123", Range: "last 7d"}, []string{"t", "ctrl+u"}},
	{"time-filter", Config{Table: "DeviceLogs", PK: "123", Range: "last 7d"}, []string{"f"}},
	{"export", Config{Table: "DeviceLogs", PK: "123"}, []string{"e"}},
}

// typedRunes are the characters typed into the boxes: every key bound to
// an action, and some text.
const typedRunes = "jkgGlhLH1234V/nNfto[]m0cCsSiDp><yYerzdaxKJqQ?TXFe#\"'é世-_ :=.{}"

// TestRandomTextEveryInput types seeded random text into every text box
// at the three sizes: every key typed is text, none acts as a command
// (j and k moved the search's cursor: /shopk searched for "shop").
func TestRandomTextEveryInput(t *testing.T) {
	runes := []rune(typedRunes)
	for i, in := range textInputs {
		t.Run(in.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(int64(2500 + i)))
			for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
				cfg := in.cfg
				cfg.Now = demoClock
				h := newHarness(t, sz[0], sz[1], cfg)
				h.keys(in.open...)
				var typed []rune
				for range 12 + r.Intn(12) {
					typed = append(typed, runes[r.Intn(len(runes))])
				}
				for _, c := range typed {
					h.send(tea.KeyPressMsg{Code: c, Text: string(c)})
				}
				if got, ok := h.m.typedText(); !ok || !strings.HasSuffix(got, string(typed)) {
					t.Fatalf("at %dx%d typed %q, the box holds %q (open: %v)\n%s", sz[0], sz[1], string(typed), got, ok, h.screen())
				}
			}
		})
	}
}
