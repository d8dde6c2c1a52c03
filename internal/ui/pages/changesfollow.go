package pages

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// changesFollowedMsg carries one new stream record, following's running
// figures, or the end of following; more follow on next until done.
type changesFollowedMsg struct {
	page, req int
	change    *dynamo.Change
	stats     *dynamo.ChangesStats // what following has read so far
	done      bool
	err       error
	next      <-chan changesFollowedMsg
}

func (m changesFollowedMsg) PageID() int { return m.page }

// changesFollow is F in the Changes mode: the stream's open shards read
// every second, each new record put on top once, until F or esc.
type changesFollow struct {
	req   list.Request
	added int
	// stats is what this following has read; prior, what the ones
	// stopped before had (each F reads again): the request line counts
	// every call following sent.
	stats, prior dynamo.ChangesStats
	ran          bool // followed since the stream was last read whole
}

func (f *changesFollow) on() bool { return f.req.InFlight() }

// seen names a record by its shard and sequence number: following reads
// the stream again from where the listed records end, and a record
// listed already must not come twice.
func seen(c dynamo.Change) string { return c.Shard + "/" + c.Seq }

// startFollow's command reads the stream in a goroutine (dynamo.Changes
// with Follow), handing each new record to Update through a channel:
// Update never waits.
func (p *Changes) startFollow() tea.Cmd {
	now := p.c.Now()
	r := p.request(now)
	r.Follow = true
	if len(p.changes) > 0 {
		// Records from a minute before the newest listed: DynamoDB rounds
		// a record's time, and the listed ones are skipped by name.
		r.Since = p.changes[0].Time.Add(-time.Minute)
	}
	known := make(map[string]bool, len(p.changes))
	for _, c := range p.changes {
		known[seen(c)] = true
	}
	ctx, req := p.follow.req.Start(p.c)
	p.follow.added, p.follow.ran = 0, true
	p.follow.prior = addStats(p.follow.prior, p.follow.stats)
	p.follow.stats = dynamo.ChangesStats{}
	sc, page := p.c.Streams, p.id
	return common.Stream(64, func(ch chan changesFollowedMsg) {
		send := func(m changesFollowedMsg) error {
			m.page, m.req, m.next = page, req, ch
			select {
			case ch <- m:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		r.Progress = func(st dynamo.ChangesStats) { _ = send(changesFollowedMsg{stats: &st}) }
		st, err := dynamo.Changes(ctx, sc, r, func(c dynamo.Change) error {
			if known[seen(c)] {
				return nil
			}
			known[seen(c)] = true
			return send(changesFollowedMsg{change: &c})
		})
		// The last figures, even when stopped: room in the buffer, or
		// nobody reads on and the figures before stand.
		select {
		case ch <- changesFollowedMsg{page: page, req: req, next: ch, done: true, err: err, stats: &st}:
		default:
		}
	})
}

// followed takes one message of following: a new record goes on top, the
// figures of what following read replace the ones before.
func (p *Changes) followed(msg changesFollowedMsg) tea.Cmd {
	if msg.req != p.follow.req.ID() {
		return nil // a following read again (r) since: its figures are gone
	}
	if msg.stats != nil {
		p.follow.stats = *msg.stats
	}
	if msg.done {
		if p.follow.req.Done(msg.req) {
			return common.Report(msg.err, false, p.id)
		}
		return nil
	}
	if !p.follow.on() {
		return common.Next(msg.next) // stopped: no new records, but the last figures
	}
	if msg.change == nil {
		return common.Next(msg.next)
	}
	c := *msg.change
	cursor := p.grid.Cursor()
	p.changes = append([]dynamo.Change{c}, p.changes...)
	p.follow.added++
	p.refresh()
	if cursor > 0 { // the row being read stays selected as rows arrive above it
		p.grid.SetCursor(cursor + 1)
	}
	return common.Next(msg.next)
}

// addStats adds what two reads of the stream read.
func addStats(a, b dynamo.ChangesStats) dynamo.ChangesStats {
	a.Shards += b.Shards
	a.Scanned += b.Scanned
	a.Matched += b.Matched
	a.GetRecords += b.GetRecords
	a.Calls += b.Calls
	a.Throttled += b.Throttled
	a.Expired += b.Expired
	return a
}

// Leave stops following, and a first read still under way, when another
// mode takes the tab's place: the reader's context is cancelled, so no
// GetRecords is sent for a tab nobody sees. F starts following again on
// return; a cancelled first read says so, and r reads again.
func (p *Changes) Leave() {
	p.follow.req.Stop()
	p.st.Cancel() // as esc stops it: said to be cancelled, never still reading
}
