package cli

import (
	"context"
	"sync"
	"time"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// liveDemo is the demo's live workload as a command runs it: its clock
// (the explorer's "now" too) and where it stops.
type liveDemo struct {
	ctx  context.Context // the program's: the workload ends with the command
	now  func() time.Time
	once sync.Once // one workload, however often the explorer connects
}

// newLiveDemo starts the demo's clock; the workload itself starts once
// the demo's database is connected (start).
func newLiveDemo(ctx context.Context) *liveDemo {
	return &liveDemo{ctx: ctx, now: demo.Clock(time.Now())}
}

// seconds is the demo's clock in whole seconds, the explorer's "now":
// with its part of a second, last 15m in the explorer's first second
// began a second after dynascope range --last 15m's on the demo (an
// epoch-seconds key's bound rounded up past DemoEnd's). The workload
// keeps the whole clock, so that its writes follow each other in time.
func (l *liveDemo) seconds() time.Time { return l.now().Truncate(time.Second) }

// start runs the live workload on the demo's database in the background,
// until the command's context ends. Nothing else writes to the demo.
func (l *liveDemo) start(conn *connection) {
	if l == nil || conn == nil {
		return
	}
	if db, ok := conn.client.Client.(*memory.DB); ok {
		l.once.Do(func() { runLive(l.ctx, db, l.now) })
	}
}

// runLive starts the workload; the tests, which share one demo database
// across commands, turn it off but where they watch it.
var runLive = startWorkload

// liveEvery is the pause between live writes (shorter in tests).
var liveEvery = demo.LiveEvery

func startWorkload(ctx context.Context, db *memory.DB, now func() time.Time) {
	w := demo.NewWorkload(db, now)
	every := liveEvery
	// It ends with ctx, or at a write the demo's own backend refuses: a
	// bug, which the tests' run of the workload would show.
	go func() { _ = w.Live(ctx, every) }()
}
