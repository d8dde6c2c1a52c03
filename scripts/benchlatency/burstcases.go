package main

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// The burst of issue 37.6: 200 keys typed at once as soon as a
// partition's first screen of items shows, timed from opening the
// partition to the cursor on the row they lead to, drawn. The floor is the
// same explorer on a client that drops every Query's Limit, so its first
// screen reads a whole 1 MB page (as before the first screen was sized to
// the screen) and the burst moves through rows already read; the first
// screen's own time is printed too, as "first screen in".

const (
	burstPK    = "burst"
	burstItems = 5000
	burstKeys  = 200
)

// seedBurst writes the burst's partition in a table of its own:
// burstItems items of ~payload bytes under a number sort key, which the
// explorer opens as its items (no level to drill).
func seedBurst(ctx context.Context, c *dynamodb.Client, payload int) error {
	if err := createTable(ctx, c, "Burst", "N"); err != nil {
		return err
	}
	data := s(strings.Repeat("b", payload))
	items := make([]dynamo.Item, 0, burstItems)
	for i := range burstItems {
		items = append(items, dynamo.Item{"PK": s(burstPK), "SK": &types.AttributeValueMemberN{Value: fmt.Sprint(i)}, "Data": data})
	}
	return writeAll(ctx, c, "Burst", items)
}

// burstCase is one burst: keys sent at once once the first screen shows,
// and the row they lead to.
type burstCase struct {
	name string
	keys []tea.KeyPressMsg
	// want: what the status bar says once the cursor is on the row the
	// burst leads to, read whole or with the middle unread after G.
	want []string
}

// burstCases are the bursts of issue 37.6. ctrl+d is no key of the
// explorer's (half a page moves nothing): ctrl+f is its page down.
func burstCases() []burstCase {
	key := func(code rune, text string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code, Text: text} }
	times := func(n int, k tea.KeyPressMsg) []tea.KeyPressMsg {
		ks := make([]tea.KeyPressMsg, n)
		for i := range ks {
			ks[i] = k
		}
		return ks
	}
	pgdn := tea.KeyPressMsg{Code: tea.KeyPgDown}
	ctrlF := tea.KeyPressMsg{Code: 'f', Mod: tea.ModCtrl}
	end := tea.KeyPressMsg{Code: tea.KeyEnd}
	return []burstCase{
		{"j", times(burstKeys, key('j', "j")), rowOf(burstKeys+1, 0)},
		{"pgdn", times(burstKeys, pgdn), rowOf(burstItems, burstItems)}, // past the end
		{"ctrl+f", times(burstKeys, ctrlF), rowOf(burstItems, burstItems)},
		{"end", times(burstKeys, end), rowOf(burstItems, burstItems)},
		{"G-then-k", append([]tea.KeyPressMsg{key('G', "G")}, times(burstKeys-1, key('k', "k"))...), rowOf(burstItems-(burstKeys-1), burstItems)},
	}
}

// rowOf is what the status bar says on row of n (n 0: more can be read),
// both ways.
func rowOf(row, n int) []string {
	if n == 0 {
		return []string{fmt.Sprintf("row %s of ", common.Thousands(row))}
	}
	if row == n { // the last row, the middle unread: "last row of ≥62"
		return []string{fmt.Sprintf("row %s of %s", common.Thousands(row), common.Thousands(n)), "last row of ≥"}
	}
	return []string{fmt.Sprintf("row %s of %s", common.Thousands(row), common.Thousands(n)),
		fmt.Sprintf(" %s from the end", common.Thousands(n-row+1))}
}

// runBursts measures each burst (those named in which, or all) runs
// times, the explorer as it is beside the floor, one run of each in turn
// (the machine is shared: its load changes under both alike), and
// prints the median run with the fastest and the median of the walls.
func runBursts(c dynamo.Client, t *table, runs int, which string) {
	ways := []string{"whole page first (floor)", "screen first"}
	for _, k := range burstCases() {
		if which != "" && !slices.Contains(strings.Split(which, ","), k.name) {
			continue
		}
		figs := make([][]figure, len(ways))
		traced := make([]tracedRuns, len(ways))
		for range max(runs, 1) {
			for w, way := range ways {
				f := measure(c, fmt.Sprintf("burst: %d × %s", burstKeys, k.name), way, func(m dynamo.Client) string {
					if w == 0 {
						m = noLimit{m}
					}
					return burst(m, k)
				})
				f.wall = burstWall // from opening to the burst's row drawn
				figs[w] = append(figs[w], f)
				if timeline != nil {
					traced[w].add()
				}
			}
		}
		var floor time.Duration
		var medians []time.Duration
		var billed []float64
		for w := range ways {
			fs := figs[w]
			sort.Slice(fs, func(i, j int) bool { return fs[i].wall < fs[j].wall })
			f := fs[len(fs)/2]
			if len(fs) > 1 {
				f.note += fmt.Sprintf(" · %d runs: min %s, median %s", len(fs), fs[0].wall.Round(100*time.Microsecond), f.wall.Round(100*time.Microsecond))
			}
			if w == 0 {
				floor = f.wall
			} else {
				f.note += fmt.Sprintf(" · %.2f× the floor's median", float64(f.wall)/float64(floor))
			}
			t.add(f)
			medians, billed = append(medians, f.wall), append(billed, f.billed)
		}
		if timeline != nil {
			t.flush()
			for w, way := range ways {
				traced[w].print(fmt.Sprintf("%d × %s, %s", burstKeys, k.name, way))
			}
			// A burst that reads what the floor read waits for the
			// screen's Query first: unless a read goes while the keys are
			// taken, the floor's time and that round trip are the least
			// it can take (Queries go one after the other, each from
			// where the last ended).
			screen, floorMS := traced[1].screenQuery(), float64(floor.Microseconds())/1000
			if billed[1] < billed[0] {
				continue // it read less than the floor: no such bound
			}
			fmt.Printf("  reading what the floor read, none of it while the keys are taken, the least is the floor and the screen's Query (%.1f ms): %.1f ms, %.2f× the floor; screen first took %.2f×\n\n",
				screen, floorMS+screen, (floorMS+screen)/floorMS, float64(medians[1])/float64(floor))
		}
	}
}

// burstWall is the last burst's time, from opening to its row drawn.
var burstWall time.Duration

// noLimit is a client whose Queries read whole 1 MB pages.
type noLimit struct{ dynamo.Client }

func (n noLimit) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	cp := *in
	cp.Limit = nil
	return n.Client.Query(ctx, &cp, o...)
}

// burst opens the partition's items at 120×35, waits for the first
// screen, then sends k's keys at once; it returns when the cursor is on
// k's row and the screen shows it.
func burst(c dynamo.Client, k burstCase) string {
	metered := dynamo.NewMetered(c)
	m := ui.New(ui.Config{Client: metered, Session: metered.Session, Connection: "BENCH", Table: "Burst", PK: burstPK})
	d := newAsyncDriver(m)
	defer d.stop()
	t0 := time.Now()
	if timeline != nil {
		timeline.start()
	}
	d.post(tea.WindowSizeMsg{Width: 120, Height: screenRows + 6})
	d.run(m.Init())
	if !d.wait(func(s string) bool { return strings.Contains(s, "items loaded") }, 20*time.Second) {
		return "no first screen: " + d.last
	}
	first := time.Since(t0)
	before, _ := metered.Session.Totals()
	timeline.note("keys")
	d.typeKeys(k.keys)
	ok := d.wait(func(s string) bool {
		for _, w := range k.want {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	}, 20*time.Second)
	burstWall = time.Since(t0)
	after, _ := metered.Session.Totals()
	said := fmt.Sprintf("first screen in %s, then %d Queries", first.Round(100*time.Microsecond), after.Requests-before.Requests)
	if !ok {
		return "never landed: " + d.position() + " · " + said
	}
	return d.position() + " · " + said
}

// asyncDriver runs the model as the program does: one loop takes every
// message in turn and, as Bubble Tea v2's event loop does, asks for the
// View after each (200 keys typed at once are 200 Views: the renderer
// only writes at most one frame every 16 ms, but the model draws each);
// commands run on goroutines of their own and send their messages back,
// and a frame is handed to the waiter at most every 16 ms (or when the
// loop is idle).
//
// The keys are all queued before any answer unless -typed: then they
// come one at a time on a channel of their own, and an answer that is
// in is taken after about one more key, as in the program, where Bubble
// Tea's input reader sends each key on the unbuffered message channel
// the commands' answers are sent on, and waits its turn behind them.
type asyncDriver struct {
	m      *ui.Model
	msgs   chan tea.Msg
	keys   chan tea.Msg // -typed: unbuffered
	typing atomic.Int32 // -typed: keys not taken yet
	done   chan struct{}
	frames chan string
	last   string
}

// typedKeys: -typed.
var typedKeys bool

func newAsyncDriver(m *ui.Model) *asyncDriver {
	d := &asyncDriver{m: m, msgs: make(chan tea.Msg, 4096), keys: make(chan tea.Msg), done: make(chan struct{}), frames: make(chan string, 1)}
	go d.loop()
	return d
}

func (d *asyncDriver) post(msg tea.Msg) { d.msgs <- msg }

// typeKeys sends keys at once: queued, or with -typed one at a time.
func (d *asyncDriver) typeKeys(keys []tea.KeyPressMsg) {
	if !typedKeys {
		for _, k := range keys {
			d.post(k)
		}
		return
	}
	d.typing.Add(int32(len(keys)))
	go func() {
		for _, k := range keys {
			select {
			case d.keys <- k:
			case <-d.done:
				return
			}
		}
	}()
}

func (d *asyncDriver) stop() { close(d.done) }

func (d *asyncDriver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		switch msg := msg.(type) {
		case nil, tea.QuitMsg, spinner.TickMsg: // the spinner ticks forever
		case tea.BatchMsg:
			for _, c := range msg {
				d.run(c)
			}
		default:
			select {
			case d.msgs <- msg:
			case <-d.done:
			}
		}
	}()
}

func (d *asyncDriver) loop() {
	drawn := time.Now()
	for {
		var msg tea.Msg
		select {
		case <-d.done:
			return
		case msg = <-d.msgs:
		case msg = <-d.keys:
			d.typing.Add(-1)
		}
		timeline.noteMsg(msg, false)
		_, cmd := d.m.Update(msg)
		timeline.noteMsg(msg, true)
		d.run(cmd)
		v := d.m.View()
		if len(d.msgs) == 0 && d.typing.Load() == 0 || time.Since(drawn) > 16*time.Millisecond {
			d.show(v)
			drawn = time.Now()
		}
	}
}

// show hands a frame to whoever waits.
func (d *asyncDriver) show(v tea.View) {
	s := ansi.Strip(v.Content)
	select {
	case <-d.frames:
	default:
	}
	d.frames <- s
}

// wait waits up to limit for a frame that ok accepts.
func (d *asyncDriver) wait(ok func(string) bool, limit time.Duration) bool {
	deadline := time.After(limit)
	for {
		select {
		case s := <-d.frames:
			d.last = s
			if ok(s) {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

// position is the frame's "row N of M".
func (d *asyncDriver) position() string {
	s := d.last
	i := strings.Index(s, "last row ")
	if i < 0 {
		i = strings.Index(s, "row ")
	}
	if i < 0 {
		return "no row"
	}
	end := strings.IndexAny(s[i:], "│\n")
	if end < 0 {
		end = len(s) - i
	}
	return strings.TrimSpace(s[i : i+end])
}
