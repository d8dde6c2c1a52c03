package pages

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// followOverlap is re-read below the newest key on every poll, so an item
// written late with an older key (clock skew between writers) still shows.
const followOverlap = 5 * time.Second

// followedMsg carries one new item, or (item nil) a poll's figures, or
// the end of following; more follow on next until done.
type followedMsg struct {
	page, req int
	item      dynamo.Item
	stats     dynamo.FollowStats
	done      bool
	err       error
	next      <-chan followedMsg
}

func (m followedMsg) PageID() int { return m.page }

// following is F in the Time mode: polling for items newer than the
// newest listed, each appended once as it arrives, until F or esc.
type following struct {
	req   list.Request
	stats dynamo.FollowStats
	added int
}

func (f *following) on() bool { return f.req.InFlight() }

// startFollow's command polls in a goroutine (dynamo.Follow), handing each
// new item and each poll's figures to Update through a channel: Update
// never waits.
func (t *Time) startFollow() tea.Cmd {
	if t.empty {
		// Short: the status bar keeps its end, and ? says why whole.
		return common.Report(dynamo.Errorf("follow", dynamo.KindValidation, "set time_format",
			"no item to tell the time format"), false, t.id)
	}
	if !t.ready() {
		return common.Report(dynamo.Errorf("follow", dynamo.KindValidation, "F follows a partition whose sort key holds times; set time_format for the table if it does",
			"no time in this sort key to follow"), false, t.id)
	}
	// A span counted back from now ("last 24h") ends when it was run: new
	// items are what following it means.
	if end, ok := t.rangeEnd(); ok && !strings.HasPrefix(strings.ToLower(t.rangeTxt), "last ") && end.Before(t.now().Add(-time.Minute)) {
		// Nothing written from now on falls in it: polling would wait
		// forever without a word.
		return notice("the range ends " + end.In(t.zone()).Format("2006-01-02 15:04:05 MST") +
			", in the past: nothing new can fall in it; t sets a range open at the end (since …) to follow")
	}
	newest, newestAt := "", time.Time{}
	t.pg.Head.Each(func(it dynamo.Item) bool {
		if at, ok := t.keyTime(it); ok && at.After(newestAt) {
			kv, _ := dynamo.KeyValueOf(it[t.base.SKName])
			newest, newestAt = kv.Text, at
		}
		return true
	})
	prefix, _ := t.splitPrefix(t.rangeTxt)
	if prefix == "" && t.rangeUnder {
		prefix = t.under
	}
	if prefix == "" && t.enc.NeedsPrefix() {
		return t.followOnePrefix()
	}
	r := dynamo.FollowRequest{Query: t.pg.Query, TableKeys: t.pg.TableKeys, Enc: t.enc, Prefix: prefix,
		Newest: newest, Since: time.Now(), Overlap: followOverlap, Spread: t.spread}
	ctx, req := t.follow.req.Start(t.c)
	t.follow.stats, t.follow.added = dynamo.FollowStats{Started: time.Now()}, 0
	client, page := t.c.Client, t.id
	return common.Stream(64, func(ch chan followedMsg) {
		send := func(m followedMsg) error {
			m.page, m.req, m.next = page, req, ch
			select {
			case ch <- m:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		err := dynamo.Follow(ctx, client, r, func(it dynamo.Item) error { return send(followedMsg{item: it}) },
			func(st dynamo.FollowStats) { _ = send(followedMsg{stats: st}) })
		_ = send(followedMsg{done: true, err: err})
	})
}

// rangeEnd is the time the listed range ends at, when it has an end.
func (t *Time) rangeEnd() (time.Time, bool) {
	sk := t.pg.Query.SK
	var v string
	switch sk.Op {
	case domain.SKBetween:
		v = sk.B.Text
	case domain.SKLt, domain.SKLe:
		v = sk.A.Text
	default:
		return time.Time{}, false
	}
	end, ok := t.enc.KeyTime(v)
	if !ok || end.Year() >= 9999 { // an open end spelt as the last writable key
		return time.Time{}, false
	}
	return end, true
}

// followed takes one message of following.
func (t *Time) followed(msg followedMsg) tea.Cmd {
	if msg.req != t.follow.req.ID() || !t.follow.on() {
		return nil // stopped: a late answer
	}
	switch {
	case msg.done:
		t.follow.req.Done(msg.req)
		return common.Report(msg.err, false, t.id)
	case msg.item != nil:
		t.follow.added++
		if t.pg.Query.Reverse { // newest first: the new item goes on top
			segs := len(t.pg.Head.Segs)
			t.pg.Head.Followed(msg.item, true)
			if t.pg.Again.Reading && !t.pg.Again.Tail {
				t.pg.Again.Seg += len(t.pg.Head.Segs) - segs // the page being read again moved down
			}
			t.times = nil
		} else {
			t.pg.Head.Followed(msg.item, false)
		}
		t.stats.add([]dynamo.Item{msg.item})
		t.parseTimes()
		t.refresh()
	default:
		t.follow.stats = msg.stats
	}
	return common.Next(msg.next)
}

// stopFollow ends following; what arrived stays listed.
func (t *Time) stopFollow() { t.follow.req.Stop() }

// followTitle is the title's account of following: what arrived and what
// polling costs.
func (t *Time) followTitle() string {
	if !t.follow.on() {
		return ""
	}
	return fmt.Sprintf("following · %d new · %s · F or esc stops", t.follow.added, followRate(t.follow.stats, time.Now()))
}

// followRate is what polling costs a minute, billed as the status bar
// bills it: a poll that finds nothing is reported at 0 RCU by some servers
// and billed 0.5 by DynamoDB, and a quiet partition is mostly such polls.
// Before dynamo.RateWindow it is what was spent so far, as range --follow
// says it: the first poll, at once, read over its few milliseconds, said
// "14,434.0 RCU est. a minute" of a poll a second costing 30.
func followRate(s dynamo.FollowStats, now time.Time) string {
	if now.Sub(s.Started) < dynamo.RateWindow {
		return common.RCU(s.Cost.Billed, s.Cost.Estimated) + " so far"
	}
	_, rate := s.PerMinute(now)
	return common.RCU(rate, s.Cost.Estimated) + " a minute"
}

// Leave stops following when another mode takes the tab's place: polling
// a range nobody sees would go on costing reads until quit.
func (t *Time) Leave() {
	t.stopFollow()
	if t.c.TimeRanges == nil {
		t.c.TimeRanges = map[string]string{}
	}
	t.c.TimeRanges[t.place().id()] = t.rangeTxt
}

// followOnePrefix says what F needs where the time follows a prefix and
// none was given (the range is merged across them, or all is listed):
// one of this partition's own prefixes, spelt as the range bar takes it.
func (t *Time) followOnePrefix() tea.Cmd {
	prefixes := t.prefixes
	if len(prefixes) == 0 {
		t.pg.Head.Each(func(it dynamo.Item) bool {
			if kv, ok := dynamo.KeyValueOf(it[t.base.SKName]); ok {
				if before, _, found := strings.Cut(kv.Text, t.enc.Sep); found && before != "" {
					prefixes = append(prefixes, before+t.enc.Sep)
				}
			}
			return len(prefixes) == 0
		})
	}
	rest := t.rangeTxt
	if rest == "" || t.rangeEndsInPast() {
		rest = "last 15m"
	}
	what := "F follows one prefix at a time: t, then a prefix and an open range"
	if len(prefixes) > 0 {
		what = "F follows one prefix at a time: t, then e.g. " + common.Sanitize(prefixes[0]+" "+rest)
		if len(prefixes) > 1 {
			what += " (here: " + common.Sanitize(strings.Join(prefixes[:min(len(prefixes), 4)], " "))
			if len(prefixes) > 4 {
				what += " …"
			}
			what += ")"
		}
	}
	return notice(what)
}

// rangeEndsInPast reports whether the listed range ends before now.
func (t *Time) rangeEndsInPast() bool {
	end, ok := t.rangeEnd()
	return ok && end.Before(t.now())
}
