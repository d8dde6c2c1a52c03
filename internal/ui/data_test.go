package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo/dataload"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/export"
)

const shopModel = "../dynamo/dataload/testdata/shop.workbench.json"

// dataHarness opens the test Workbench model (two tables with GSIs) as
// --data does.
func dataHarness(t *testing.T, w, h int) *harness {
	t.Helper()
	db := memory.New()
	if _, err := dataload.Load(context.Background(), db, []string{shopModel}, dataload.Options{}); err != nil {
		t.Fatal(err)
	}
	return newHarness(t, w, h, Config{Client: db, Connection: "DATA: shop.workbench.json", CostEstimated: true,
		Reopen: export.Connection{Data: []string{"--data", "shop.workbench.json"}}})
}

// TestDataWorkbenchTables: a Workbench model's tables and their GSIs, the
// DATA: label, READ-ONLY and estimated RCU, at the smallest size.
func TestDataWorkbenchTables(t *testing.T) {
	h := dataHarness(t, 80, 24)
	h.contains(t, "DATA: shop.workbench.json", "READ-ONLY", "RCU est.", "Sessions", "Shop")
	h.golden(t)
}

// TestDataWorkbenchTree: a facets-form table drills into its customers'
// orders as any table does.
func TestDataWorkbenchTree(t *testing.T) {
	h := dataHarness(t, 120, 35)
	h.keys("down", "enter") // Shop
	h.contains(t, "CUSTOMER#ada", "CUSTOMER#alan")
	h.keys("enter")
	h.contains(t, "ORDER#", "PROFILE")
	h.golden(t)
	h.keys("y")
	h.contains(t, "sent to the clipboard: the aws")
	h.said(t, "sent to the clipboard: the aws command (it queries the real table, not this data)")
	if !strings.HasPrefix(h.m.noticeMore, "aws dynamodb query --table-name Shop") {
		t.Errorf("copied %q", h.m.noticeMore)
	}
}

// TestDataRequestCostsEstimated: with --data every RCU figure is computed,
// so the request line (and ? help's whole request) says est. as the
// status bar does, on every view; a budget, a limit, is not marked.
func TestDataRequestCostsEstimated(t *testing.T) {
	h := dataHarness(t, 120, 35)
	h.keys("down", "enter") // Shop's partitions: a Scan
	h.keys("enter", "2")    // a customer's items: a Query
	req := h.m.requestText()
	if !strings.Contains(req, "RCU est.") || regexp.MustCompile(`RCU($|[^ ]| [^e])`).MatchString(req) {
		t.Fatalf("the request line's cost is not said to be estimated: %q", req)
	}
	if got := h.m.estimated("scanned 5 · 1 request · 70.5 RCU · budget 1000.0 RCU"); got != "scanned 5 · 1 request · 70.5 RCU est. · budget 1000.0 RCU" {
		t.Errorf("a budget marked, or a cost not: %q", got)
	}
	h.keys("?")
	if !strings.Contains(h.screen(), "RCU est.") {
		t.Fatalf("? help's request does not say est.:\n%s", h.screen())
	}
}

// TestDataWorkbenchIndex: the other table, read through its KEYS_ONLY GSI,
// on a large screen.
func TestDataWorkbenchIndex(t *testing.T) {
	h := dataHarness(t, 200, 50)
	h.keys("enter") // Sessions
	h.contains(t, "ada", "alan")
	h.keys("enter")
	h.contains(t, "1793437200", "phone")
	h.golden(t)
	h.keys("?")
	h.contains(t, "dynascope --data shop.workbench.json")
}

// slowLoad is --data loading in the background at the test's pace: Small
// (one file of 5 items) and Big (a folder of two files of 30 items), the
// opening of Big's second file held until release. Paths are relative to
// the test's own directory, so that messages naming files are the same on
// every run.
type slowLoad struct {
	db      *memory.DB
	bg      *dataload.Loading
	opening chan struct{}
	release chan struct{}
}

func startSlowLoad(t *testing.T, secondFile string) *slowLoad {
	t.Helper()
	// The data is named relative to its folder, so that messages naming
	// files read the same on every run: the load runs there until every
	// path is found (only Open reads files after that), then the test
	// comes back for its golden files.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	line := func(pk, sk string) string {
		return fmt.Sprintf(`{"Item":{"PK":{"S":%q},"SK":{"S":%q},"Note":{"S":"n"}}}`, pk, sk)
	}
	var small, one, two []string
	for i := range 5 {
		small = append(small, line("SMALL", fmt.Sprintf("s%d", i)))
	}
	for i := range 60 {
		l := line(fmt.Sprintf("P%d", i%3), fmt.Sprintf("k%02d", i))
		if i < 30 {
			one = append(one, l)
		} else {
			two = append(two, l)
		}
	}
	if secondFile != "" {
		two = []string{secondFile}
	}
	if err := os.Mkdir("Big", 0o755); err != nil {
		t.Fatal(err)
	}
	keys, err := dataload.ParseKeys("PK:S,SK:S")
	if err != nil {
		t.Fatal(err)
	}
	for name, lines := range map[string][]string{"Small.json": small, "Big/1.json": one, "Big/2.json": two} {
		if err := os.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := &slowLoad{db: memory.New(), opening: make(chan struct{}), release: make(chan struct{})}
	opt := dataload.Options{Keys: &keys, Open: func(path string) (io.ReadCloser, error) {
		if filepath.ToSlash(path) == "Big/2.json" {
			close(s.opening)
			<-s.release
		}
		return os.Open(filepath.Join(dir, path))
	}}
	s.bg = dataload.Start(context.Background(), s.db, []string{"Small.json", "Big"}, opt)
	<-s.opening // Small is in, Big holds its first file's 30 items
	t.Cleanup(func() {
		s.let()
		s.bg.Wait()
	})
	return s
}

// let lets Big's second file through.
func (s *slowLoad) let() {
	select {
	case <-s.release:
	default:
		close(s.release)
	}
}

func (s *slowLoad) harness(t *testing.T, w, h int) *harness {
	return newHarness(t, w, h, Config{Client: s.db, Connection: "DATA: Small.json, Big", CostEstimated: true, Load: s.bg,
		Reopen: export.Connection{Data: []string{"--data", "Small.json", "--data", "Big", "--keys", "PK:S,SK:S"}}})
}

// open opens the selected table from the list, leaving its first read
// unsent: the test sends it once the read may end (the harness runs every
// command to its end, and this one waits for the load).
func (s *slowLoad) open(h *harness) tea.Cmd {
	_, cmd := h.m.Update(keyPress("enter"))
	_, read := h.m.Update(cmd()) // the page opens; its read is returned
	return read
}

// finish lets the load end and the explorer see it.
func (s *slowLoad) finish(h *harness) {
	s.let()
	s.bg.Wait()
	h.send(loadTickMsg{})
}

// TestDataFirstTableWhileAnotherLoads: the explorer opens while the data
// loads: both tables listed at once, Big marked loading with its count,
// the status bar's progress; Small, complete, opens and shows its items
// while Big still loads. Opening Big waits for its load and says so, never
// "no items"; once the load ends the same read returns the whole table.
func TestDataFirstTableWhileAnotherLoads(t *testing.T) {
	s := startSlowLoad(t, "")
	h := s.harness(t, 80, 24)
	h.contains(t, "Tables · 2 · 1 loading", "loading… 30", "loading DATA: files 2/3 · 35 items", "X stop loading")
	h.golden(t)

	h.keys("down", "enter") // Small
	h.contains(t, "SMALL")
	h.keys("enter")
	h.contains(t, "s0", "s4", "loading DATA: files 2/3")
	h.keys("esc", "esc", "up")

	// Big: the read is sent and waits for the load; the screen says so.
	cmd := s.open(h)
	h.contains(t, "waiting for the load of Big (30 items so far)", "waiting for the load", "Big loading (30 items so far)")
	if strings.Contains(h.screen(), "no rows") || strings.Contains(h.screen(), "No ") {
		t.Fatalf("a table still loading is shown as empty:\n%s", h.screen())
	}
	t.Run("waiting", h.golden)

	s.let()
	h.run(cmd) // the read waited for the load, and answers from all of it
	h.contains(t, "P0", "P1", "P2")
	h.keys("enter")
	h.contains(t, "20 items · all", "k02", "k32") // P2, first in scan order: every third key, of both files
	s.finish(h)
	h.contains(t, "DATA: Small.json, Big")
	if strings.Contains(h.screen(), "loading") {
		t.Fatalf("the load ended but the screen says loading:\n%s", h.screen())
	}
	h.keys("esc", "esc")
	h.contains(t, "Tables · 2", "60")
}

// TestDataLoadingLarge: the loading state at 120×35: the list, then Big
// waiting for its load.
func TestDataLoadingLarge(t *testing.T) {
	s := startSlowLoad(t, "")
	h := s.harness(t, 120, 35)
	h.contains(t, "loading… 30", "loading DATA: files 2/3")
	h.golden(t)
	cmd := s.open(h)
	h.contains(t, "waiting for the load of Big (30 items so far)")
	t.Run("waiting", h.golden)
	s.let()
	h.run(cmd)
}

// TestDataLoadStopped: X stops the load; Small stays complete, Big keeps
// the 30 items of its first file, marked PARTIAL in the list, the title
// and the status bar, and its reads answer from them.
func TestDataLoadStopped(t *testing.T) {
	s := startSlowLoad(t, "")
	h := s.harness(t, 80, 24)
	h.keys("X")
	h.said(t, "stopping the load")
	s.finish(h)
	h.contains(t, "Tables · 2 · 1 partial", "PARTIAL 30", "Big partial: 30 items loaded, stopped")
	if strings.Contains(h.screen(), "X stop") {
		t.Error("X is still offered after the load ended")
	}
	h.golden(t)
	h.keys("enter")
	h.contains(t, "Big PARTIAL: 30 items loaded, stopped", "P0", "3 partitions · all of a PARTIAL load")
	t.Run("table", h.golden)
	// A partition's list read to its end is all of what the stopped load
	// kept, never "all" of the table.
	h.keys("enter")
	if scr := h.screen(); !strings.Contains(scr, "all of a PARTIAL load") || strings.Contains(scr, "· all ·") {
		t.Errorf("a partition of the partial table claims to be whole:\n%s", scr)
	}
}

// TestDataLoadStoppedOverAPicker: X stops the load from under a picker
// too, and ? there lists it: it acts from anywhere, where the picker's
// other keys beneath do not.
func TestDataLoadStoppedOverAPicker(t *testing.T) {
	s := startSlowLoad(t, "")
	h := s.harness(t, 120, 35)
	h.keys("down", "enter", "enter", "D")
	h.contains(t, "Split the sort keys at")
	h.keys("?")
	if full := strings.Join(strings.Fields(h.screen()), " "); !strings.Contains(full, "X stop loading") {
		t.Errorf("? over the picker does not list X while the load runs:\n%s", h.screen())
	}
	h.keys("?", "X")
	h.said(t, "stopping the load")
	s.finish(h)
	h.contains(t, "Split the sort keys at")
}

// TestDataLoadStoppedByEsc: esc on the first screen (the tables list) stops
// the load too.
func TestDataLoadStoppedByEsc(t *testing.T) {
	s := startSlowLoad(t, "")
	h := s.harness(t, 80, 24)
	h.keys("esc")
	s.finish(h)
	h.contains(t, "PARTIAL 30", "Big partial: 30 items loaded, stopped")
	h.keys("down", "enter")
	h.contains(t, "SMALL") // Small complete: not marked
	if strings.Contains(h.screen(), "PARTIAL") && strings.Contains(h.m.header(), "PARTIAL") {
		t.Errorf("Small is marked partial:\n%s", h.screen())
	}
}

// TestDataLoadFailed: a malformed line in Big's second file: the explorer
// says the load's one-line error in the status bar and where Big's rows
// would be; Big is marked FAILED, never complete.
func TestDataLoadFailed(t *testing.T) {
	s := startSlowLoad(t, `{"Item": {"PK": `)
	h := s.harness(t, 80, 24)
	s.finish(h)
	_, loadErr := s.bg.Wait()
	if loadErr == nil {
		t.Fatal("the load did not fail")
	}
	h.contains(t, "FAILED", "Tables · 2 · 1 failed", "load failed: Big/2.json:1: malformed JSON")
	h.golden(t)
	h.keys("enter")
	h.contains(t, "Big FAILED to load", "Big/2.json:1: malformed JSON")
	t.Run("table", h.golden)
}
