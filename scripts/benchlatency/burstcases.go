package main

import (
	"context"
	"fmt"
	"strings"
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

// runBursts measures j and pgdn bursts, the explorer as it is beside the
// floor.
func runBursts(c dynamo.Client, t *table) {
	for _, k := range []struct {
		name string
		key  tea.KeyPressMsg
		rows int // the row the burst leads to, from row 1
	}{
		{"j", tea.KeyPressMsg{Code: 'j', Text: "j"}, burstKeys + 1},
		{"pgdn", tea.KeyPressMsg{Code: tea.KeyPgDown}, burstItems}, // past the end
	} {
		var floor time.Duration
		for _, way := range []string{"whole page first (floor)", "screen first"} {
			f := measure(c, fmt.Sprintf("burst: %d × %s", burstKeys, k.name), way, func(m dynamo.Client) string {
				if strings.HasPrefix(way, "whole") {
					m = noLimit{m}
				}
				return burst(m, k.key, k.rows)
			})
			// The figure's wall is the burst's alone, not the first screen's.
			f.wall = burstWall
			if floor == 0 {
				floor = f.wall
			} else {
				f.note += fmt.Sprintf(" · %.2f× the floor", float64(f.wall)/float64(floor))
			}
			t.add(f)
		}
	}
}

// burstWall is the last burst's time, from its first key to its row drawn.
var burstWall time.Duration

// noLimit is a client whose Queries read whole 1 MB pages.
type noLimit struct{ dynamo.Client }

func (n noLimit) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	cp := *in
	cp.Limit = nil
	return n.Client.Query(ctx, &cp, o...)
}

// burst opens the partition's items at 120×35, waits for the first
// screen, then sends n keys at once; it returns when the cursor is on row
// (0: wherever the keys lead, once nothing is in flight) and the screen
// shows it.
func burst(c dynamo.Client, k tea.KeyPressMsg, row int) string {
	metered := dynamo.NewMetered(c)
	m := ui.New(ui.Config{Client: metered, Session: metered.Session, Connection: "BENCH", Table: "Burst", PK: burstPK})
	d := newAsyncDriver(m)
	defer d.stop()
	t0 := time.Now()
	d.post(tea.WindowSizeMsg{Width: 120, Height: screenRows + 6})
	d.run(m.Init())
	if !d.wait(func(s string) bool { return strings.Contains(s, "items loaded") }, 20*time.Second) {
		return "no first screen: " + d.last
	}
	first := time.Since(t0)
	before, _ := metered.Session.Totals()
	for range burstKeys {
		d.post(k)
	}
	want := fmt.Sprintf("row %s of %s", common.Thousands(row), common.Thousands(row))
	if row < burstItems {
		want = fmt.Sprintf("row %s of", common.Thousands(row))
	}
	ok := d.wait(func(s string) bool { return strings.Contains(s, want) }, 20*time.Second)
	burstWall = time.Since(t0)
	after, _ := metered.Session.Totals()
	said := fmt.Sprintf("first screen in %s, then %d Queries", first.Round(100*time.Microsecond), after.Requests-before.Requests)
	if !ok {
		return "never landed: " + d.position() + " · " + said
	}
	return d.position() + " · " + said
}

// asyncDriver runs the model as the program does: one loop takes every
// message in turn, commands run on goroutines of their own and send their
// messages back, and a frame is drawn at most every 16 ms (or when the
// loop is idle).
type asyncDriver struct {
	m      *ui.Model
	msgs   chan tea.Msg
	done   chan struct{}
	frames chan string
	last   string
}

func newAsyncDriver(m *ui.Model) *asyncDriver {
	d := &asyncDriver{m: m, msgs: make(chan tea.Msg, 4096), done: make(chan struct{}), frames: make(chan string, 1)}
	go d.loop()
	return d
}

func (d *asyncDriver) post(msg tea.Msg) { d.msgs <- msg }

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
		select {
		case <-d.done:
			return
		case msg := <-d.msgs:
			_, cmd := d.m.Update(msg)
			d.run(cmd)
			if len(d.msgs) == 0 || time.Since(drawn) > 16*time.Millisecond {
				d.draw()
				drawn = time.Now()
			}
		}
	}
}

// draw renders a frame and hands it to whoever waits.
func (d *asyncDriver) draw() {
	s := ansi.Strip(d.m.View().Content)
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
	i := strings.Index(s, "row ")
	if i < 0 {
		return "no row"
	}
	end := strings.IndexAny(s[i:], "·│\n")
	if end < 0 {
		end = len(s) - i
	}
	return strings.TrimSpace(s[i : i+end])
}
