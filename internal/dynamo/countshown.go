package dynamo

import (
	"context"
	"math"
	"sync"
)

// LevelCount is a level's count as a screen shows it: one CountPass over
// the real keys (resumable: each Run spends its own budget and reads no
// key twice), its figures named as the walk named the children — in
// stand-ins through a Masked client, so the explorer never unmasks.
type LevelCount struct {
	runs sync.Mutex // one run at a time: a stopped run ends before the next reads
	pass *CountPass
	c    Client
	show func(ShardChild, string) ShardChild
}

// ChildCount is a child's count so far, and whether it is all of them.
type ChildCount struct {
	Name  string // as shown
	N     int
	Exact bool
}

// NewLevelCount prepares a count of the level r names (given as shown),
// reading nothing yet.
func NewLevelCount(c Client, r ChildrenRequest) *LevelCount {
	l := &LevelCount{c: c, show: func(ch ShardChild, _ string) ShardChild { return ch }}
	if m, masked := c.(*Masked); masked {
		real := m.realChildrenRequest(r)
		real.HoldKeys = 0 // the keys counted are real: a level told from them would be too (WalkChildren)
		r, l.c = real, m.Client
		l.show = func(ch ShardChild, d string) ShardChild { return m.shownChild(real, ch, d) }
	}
	l.pass = NewCountPass(r)
	return l
}

// Run goes on counting from where the last run stopped, spending no more
// than budget RCU in this run (0: none). progress, if not nil, is told
// the figures so far and the cost of every run after pages (skipping
// some when it is slower than the reads, never the last), one call at a
// time. over: the budget stopped it.
func (l *LevelCount) Run(ctx context.Context, budget float64, progress func([]ChildCount, Cost)) (over bool, err error) {
	l.runs.Lock()
	defer l.runs.Unlock()
	if progress == nil {
		return l.pass.Run(ctx, l.c, budget, 0, nil)
	}
	// The pass tells its progress holding its lock: the figures are
	// taken here, after it lets go.
	poke := make(chan struct{}, 1)
	told := make(chan struct{})
	go func() {
		defer close(told)
		for range poke {
			progress(l.Counts(), l.Cost())
		}
	}()
	over, err = l.pass.Run(ctx, l.c, budget, 0, func(Cost) {
		select {
		case poke <- struct{}{}:
		default:
		}
	})
	close(poke)
	<-told
	return over, err
}

// Counts are the figures of every child found so far, in key order.
func (l *LevelCount) Counts() []ChildCount {
	res := l.pass.Result()
	out := make([]ChildCount, 0, len(res.Children))
	for _, ch := range res.Children {
		n, exact := l.pass.Count(ch.Name)
		out = append(out, ChildCount{Name: l.show(ShardChild{Child: ch}, res.Delim).Name, N: n, Exact: exact})
	}
	return out
}

// Cost is what every run of the count has cost.
func (l *LevelCount) Cost() Cost { return l.pass.Cost() }

// Held are the level's keys, where the count read it whole and kept
// them (ChildrenRequest.HoldKeys; never through a Masked client, whose
// keys are real): a child entered is told from them, no request sent.
func (l *LevelCount) Held() *HeldKeys { return l.pass.Held() }

// Done says every key of the level is counted.
func (l *LevelCount) Done() bool { return l.pass.Done() }

// NewLevelCountFrom prepares a count of the level r names that starts
// from the keys its walk held (HeldKeys.CountPass): it reads only what
// the walk did not. Where they cannot seed one (a masked client, whose
// keys the walk held as shown, among others), a count from nothing.
func NewLevelCountFrom(c Client, r ChildrenRequest, held *HeldKeys) *LevelCount {
	if _, masked := c.(*Masked); !masked {
		if pass := held.CountPass(r); pass != nil {
			return &LevelCount{c: c, pass: pass, show: func(ch ShardChild, _ string) ShardChild { return ch }}
		}
	}
	return NewLevelCount(c, r)
}

// CountBound bounds what the count NewLevelCountFrom prepares reads, from
// the table's size (tableBytes, DescribeTable's figure, refreshed about
// every six hours: a bound for any of its partitions) and a read unit
// for each read's rounding. afterWalk: it starts from the keys the walk
// held, and reads nothing where the walk left nothing unread (0), else at
// most the table's size less what the keys it will not read again weigh;
// else the table's size, one read of it.
func CountBound(c Client, r ChildrenRequest, held *HeldKeys, tableBytes int64) (rcu float64, afterWalk bool) {
	table := float64(tableBytes) / readUnitBytes * 0.5
	rounded := func(rcu float64, stretches int) float64 {
		return rcu + minReadUnits*(float64(stretches)+math.Ceil(rcu/stretchRCU))
	}
	if _, masked := c.(*Masked); masked {
		return rounded(table, 1), false
	}
	p := held.CountPass(r)
	if p == nil {
		return rounded(table, 1), false
	}
	left := len(p.pending())
	if left == 0 {
		return 0, true
	}
	return rounded(max(table-p.keptRCU, 0), left), true
}
