package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// The demo's live workload: while the explorer (or `changes --follow`)
// runs on the demo, an order of customer StreamCustomer moves through its
// states and device StateDevice reports, one write every few seconds,
// through the embedded backend's write path, so that its stream records
// them and the Changes tab has something happening on stage. It is seeded
// and fixed: the n-th write is the same in every run. Load never runs it:
// what the demo's tables hold at start does not depend on it.

// LiveEvery is the pause between two live writes.
const LiveEvery = 2 * time.Second

// liveSeed makes the live totals and readings the same in every run.
const liveSeed = 29

// liveStatuses are the states a live order moves through, one a step.
var liveStatuses = []string{"PLACED", "PAID", "SHIPPED", "DELIVERED"}

// Clock is the demo's clock started at start: DemoEnd, the demo's fixed
// present, moving on as the session does, so that live writes are newer
// than the fixed history and follow each other in time.
func Clock(start time.Time) func() time.Time {
	return func() time.Time { return DemoEnd.Add(time.Since(start)) }
}

// Workload is the live workload's state: which write comes next.
type Workload struct {
	db   *memory.DB
	now  func() time.Time
	rng  *rand.Rand
	step int
	// order is the live order moving through its states, and its total.
	order int
	total int64
}

// NewWorkload returns the live workload of db, whose stream records carry
// the times now gives (the database's clock is set to it).
func NewWorkload(db *memory.DB, now func() time.Time) *Workload {
	db.SetClock(now)
	return &Workload{db: db, now: now, rng: rand.New(rand.NewPCG(liveSeed, liveSeed))}
}

// Step makes the next write: even steps move the order on (a new order
// after each delivered one), odd steps are a report of the device.
func (w *Workload) Step(ctx context.Context) error {
	defer func() { w.step++ }()
	if w.step%2 == 0 {
		return w.moveOrder(ctx)
	}
	return w.report(ctx)
}

func (w *Workload) moveOrder(ctx context.Context) error {
	i := (w.step / 2) % len(liveStatuses)
	if i == 0 {
		w.order++
		w.total = 10 + w.rng.Int64N(190)
	}
	status := liveStatuses[i]
	day := w.now().UTC().Format("2006-01-02")
	it := Item{"PK": str(StreamCustomer), "SK": str(fmt.Sprintf("o#%05d", 20000+w.order)), "GSI1PK": str("status#" + status),
		"GSI2PK": str(StreamCustomer), "GSI2SK": str(day), "Status": str(status), "Total": num(w.total), "OrderDate": str(day)}
	_, err := w.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(ShopTable), Item: it})
	return err
}

func (w *Workload) report(ctx context.Context) error {
	state := StatePrefixes[w.rng.IntN(len(StatePrefixes))]
	at := w.now().UTC().Format("2006-01-02T15:04:05")
	it := Item{"DeviceID": str(StateDevice), "State#Date": str(state + "#" + at), "State": str(state),
		"Reading": dec(fmt.Sprintf("%.1f", 20+float64(w.rng.IntN(60))/2))}
	_, err := w.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(StateTable), Item: it})
	return err
}

// Live runs the workload, one write every `every`, until ctx ends (the
// program's: quitting stops it). A failed write ends it: the demo's
// backend refusing its own writes is a bug to see, not to retry.
func (w *Workload) Live(ctx context.Context, every time.Duration) error {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			if err := w.Step(ctx); err != nil {
				return err
			}
		}
	}
}
