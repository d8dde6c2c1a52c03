package ui

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/ui/uitest"
)

var (
	demoOnce sync.Once
	demoDB   *memory.DB
	demoErr  error
)

// demoData is the demo database, built once: read-only in use, one copy
// serves every test. A failed build fails every test that asks for it.
func demoData(t testing.TB) *memory.DB {
	t.Helper()
	demoOnce.Do(func() { demoDB, demoErr = demo.Load(context.Background()) })
	if demoErr != nil {
		t.Fatalf("building the demo: %v", demoErr)
	}
	return demoDB
}

// recorder counts the calls of each operation that reach the backend.
type recorder struct {
	dynamo.Client
	mu    sync.Mutex
	calls map[string]int
}

func record(c dynamo.Client) *recorder { return &recorder{Client: c, calls: map[string]int{}} }

func (r *recorder) count(op string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[op]
}

func (r *recorder) add(op string) {
	r.mu.Lock()
	r.calls[op]++
	r.mu.Unlock()
}

func (r *recorder) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	r.add("Query")
	return r.Client.Query(ctx, in, o...)
}

func (r *recorder) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	r.add("Scan")
	return r.Client.Scan(ctx, in, o...)
}

func (r *recorder) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	r.add("GetItem")
	return r.Client.GetItem(ctx, in, o...)
}

func (r *recorder) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	r.add("DescribeTable")
	return r.Client.DescribeTable(ctx, in, o...)
}

func (r *recorder) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	r.add("ListTables")
	return r.Client.ListTables(ctx, in, o...)
}

// DescribeTimeToLive passes the optional Time to Live read through, as
// the masking and metering layers do (an error where the backend has none).
func (r *recorder) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	r.add("DescribeTimeToLive")
	t := dynamo.TimeToLiveOf(r.Client)
	if t == nil {
		return nil, errors.New("this backend has no DescribeTimeToLive")
	}
	return t.DescribeTimeToLive(ctx, in, o...)
}

// harness drives the real root model synchronously (uitest.Driver): every
// command runs at once and its message goes back through Update, as the
// program would.
type harness struct {
	t   testing.TB
	m   *Model
	rec *recorder
	d   *uitest.Driver
}

func newHarness(t testing.TB, w, h int, cfg Config) *harness {
	return newHarnessIn(t, nil, w, h, cfg)
}

// newHarnessIn is newHarness with the program's context ctx (nil: none, as
// without a program).
func newHarnessIn(t testing.TB, ctx context.Context, w, h int, cfg Config) *harness {
	if cfg.Client == nil {
		cfg.Client = demoData(t)
	}
	rec := record(cfg.Client)
	metered := dynamo.NewMetered(rec)
	metered.Since = fixedLatency // what the status bar says is the same on a busy machine
	cfg.Client, cfg.Session = metered, metered.Session
	if cfg.Connection == "" {
		cfg.Connection, cfg.Reopen.Demo = "DEMO", true
	}
	hs := harnessFor(t, New(cfg), rec)
	hs.m.c.Ctx = ctx
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	hs.run(hs.m.Init())
	return hs
}

// harnessFor drives m, a model a test made itself.
func harnessFor(t testing.TB, m *Model, rec *recorder) *harness {
	m.export.dir = t.TempDir() // a relative export name lands here, not in the source tree
	return &harness{t: t, m: m, rec: rec, d: &uitest.Driver{T: t, M: m, Drop: func(msg tea.Msg) bool {
		_, tick := msg.(loadTickMsg) // tests send loadTickMsg themselves: a load is paced by the test
		return tick
	}}}
}

func (h *harness) run(cmd tea.Cmd) { h.d.Run(cmd) }

func (h *harness) send(msg tea.Msg) { h.d.Send(msg) }

// keys sends key presses: names such as "enter", "esc", "down", or single
// characters.
func (h *harness) keys(names ...string) {
	for _, n := range names {
		h.send(keyPress(n))
	}
}

func keyPress(n string) tea.KeyPressMsg {
	special := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "down": tea.KeyDown, "up": tea.KeyUp,
		"left": tea.KeyLeft, "right": tea.KeyRight, "backspace": tea.KeyBackspace, "pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp, "tab": tea.KeyTab}
	if r, ok := special[n]; ok {
		return tea.KeyPressMsg{Code: r}
	}
	switch n {
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	}
	r := []rune(n)[0]
	return tea.KeyPressMsg{Code: r, Text: n}
}

// loadAll scrolls down from the top until the list says all its items
// are loaded (the first pages are sized to the screen, and G reads the end
// alone), then back to the top.
func (h *harness) loadAll() {
	h.keys("g")
	for range 1000 {
		if strings.Contains(h.screen(), "loaded · all") {
			break
		}
		h.keys("pgdown")
	}
	h.keys("g")
}

// screen is the frame as the program draws it; the parts of it kept
// from an earlier frame (frameMemo) are checked against the same parts
// drawn again. A read still running may end between the two (a walk
// cancelled): the check is made again where the session's figures moved.
func (h *harness) screen() string {
	h.t.Helper()
	s := h.m.render()
	if h.m.tooSmall() || len(h.m.stack) == 0 {
		return ansi.Strip(s)
	}
	parts := func() []string {
		return []string{h.m.header(), h.m.requestLine(), h.m.helpView(), h.m.statusBar(), strconv.Itoa(h.m.requestRows())}
	}
	for range 5 {
		before, _ := h.m.cfg.Session.Totals()
		memo := h.m.memo
		kept := parts()
		h.m.memo.forget()
		drawn := parts()
		if after, _ := h.m.cfg.Session.Totals(); after != before {
			h.m.memo = memo
			continue
		}
		for i := range drawn {
			if drawn[i] != kept[i] {
				h.t.Fatalf("a part of the frame (%d of header, request, help, status bar, request rows) was kept stale:\nkept:        %q\ndrawn again: %q\n%s", i+1, kept[i], drawn[i], ansi.Strip(s))
			}
		}
		break
	}
	return ansi.Strip(s)
}

// latency is the one thing on screen that differs run to run.
var latency = regexp.MustCompile(`<?\d+(\.\d+)?(ns|µs|ms|s) {2}`)

// fixedLatency is every request's latency in the harness: the status bar
// cuts a message to the room its latency leaves (a 1.2 s read on a starved
// machine left less than 0 s, and a golden failed).
func fixedLatency(time.Time) time.Duration { return 0 }

func (h *harness) golden(t *testing.T) {
	t.Helper()
	h.goldenOf(t, h.screen())
}

// goldenOf is golden of a screen a test has made comparable.
func (h *harness) goldenOf(t *testing.T, screen string) {
	t.Helper()
	lines := strings.Split(latency.ReplaceAllString(screen, "1ms  "), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	golden.RequireEqual(t, []byte(strings.Join(lines, "\n")))
}

func (h *harness) contains(t *testing.T, want ...string) {
	t.Helper()
	s := h.screen()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Fatalf("screen lacks %q:\n%s", w, s)
		}
	}
}

// said checks the newest status-bar message in full: on screen its middle
// may be cut, where depending on the latency's width.
func (h *harness) said(t *testing.T, want string) {
	t.Helper()
	if len(h.m.said) == 0 || !strings.Contains(h.m.said[len(h.m.said)-1].whole(), want) {
		t.Fatalf("the newest message lacks %q: %v\n%s", want, h.m.said, h.screen())
	}
}
