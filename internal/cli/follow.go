package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

// validateFollow checks --follow's flags before anything is read.
func (f rangeFlags) validateFollow() error {
	switch {
	case !f.follow && (f.interval != 0 || f.overlap != 5*time.Second):
		return usage("add --follow, or drop --interval and --overlap", "--interval and --overlap go with --follow")
	case !f.follow:
		return nil
	case f.limit > 0:
		return usage("drop --limit (follow prints the whole range, then what is new)", "--follow does not take --limit")
	case f.output != "jsonl":
		return usage("drop --output (follow prints JSON lines as items arrive)", "--follow streams JSON lines, not --output %s", f.output)
	case f.interval < 0 || f.overlap < 0:
		return usage("give a positive duration, such as 2s", "--interval and --overlap cannot be negative")
	case f.interval > 0 && f.interval < 100*time.Millisecond:
		return usage("poll at most ten times a second: --interval 100ms or more", "--interval %s is too short", f.interval)
	}
	return nil
}

// followEnded refuses --follow on a range that ended before now (--at
// 2018-08, --before X, --from A --to B in the past): what following
// prints is written from now on, so none of it could be in the range, and
// polling would print items the range leaves out. A span counted back from
// now (--last) ends when it is run: following it is what it means. Said
// before any request, as the explorer's F says it.
func followEnded(f rangeFlags, r domain.TimeRange, now time.Time, loc *time.Location) error {
	if !f.follow || f.last != "" {
		return nil
	}
	var end time.Time
	switch r.Op {
	case domain.TimeBetween:
		end = r.To
	case domain.TimeLt, domain.TimeLe: // a one-bound range holds its bound in From
		end = r.From
	default:
		return nil
	}
	if !end.Before(now.Add(-time.Minute)) {
		return nil
	}
	return usage("drop --follow, or give a range open at its end (--after or --last) to follow new items",
		"--follow: the range ends %s, in the past, so nothing written from now on falls in it", end.In(loc).Format("2006-01-02 15:04:05 MST"))
}

// followRange prints, after the range (read from readAt on), every item
// newer than the newest it read, once each, as it arrives, until ctx ends;
// a line on stderr says what following costs. With several prefixes before
// the time (the merged range), each prefix is followed at once and the
// items are printed as they arrive from any of them.
func followRange(ctx context.Context, c dynamo.Client, f rangeFlags, q domain.KeyQuery, tableKeys *dynamo.KeySchema, enc domain.TimeEncoding, r domain.TimeRange, spread time.Duration, opt *readOpts, readAt time.Time, prefixes []string, shown *shownKeys, stdout, stderr io.Writer) error {
	if len(prefixes) == 0 {
		prefixes = []string{f.skPrefix}
	}
	since := followFrom(r, readAt)
	q.Filter = opt.Filter
	out := export.NewJSONRows(stdout, "jsonl")
	eo := export.Options{Show: opt.Masked.Shower(q.Table)}
	// Each poll reads the keys newer than the newest printed (under each
	// prefix), not the range's key condition: the line names the partition
	// and says so, rather than repeat a BETWEEN the polls go past.
	pq := q
	pq.SK = domain.SKCondition{}
	what := "keys newer than the newest printed"
	if len(prefixes) > 1 || prefixes[0] != "" {
		what += fmt.Sprintf(" under %s (%s)", counted(len(prefixes), "prefix", "prefixes"), strings.Join(prefixes, " "))
	}
	fmt.Fprintf(stderr, "following %s for %s (Ctrl+C stops)\n", export.OneLine(opt.Masked.ShownQuery(pq, "").Describe()), export.OneLine(what))
	var mu sync.Mutex // one writer and one set of figures for every prefix
	var lastNote time.Time
	stats := make([]dynamo.FollowStats, len(prefixes))
	total := func() (t dynamo.FollowStats) {
		for _, st := range stats {
			if !st.Started.IsZero() && (t.Started.IsZero() || st.Started.Before(t.Started)) {
				t.Started = st.Started // a prefix not polled yet has no start
			}
			t.Polls, t.Items, t.Cost = t.Polls+st.Polls, t.Items+st.Items, t.Cost.Add(st.Cost)
			t.Next = max(t.Next, st.Next)
		}
		return t
	}
	defer func() {
		t := total()
		if t.Polls == 0 {
			return
		}
		fmt.Fprintf(stderr, "followed for %s: %s · %s · %s\n",
			time.Since(t.Started).Round(time.Second), counted(t.Items, "new item", "new items"), counted(t.Polls, "poll", "polls"), t.Rates(time.Now()))
	}()
	var g errgroup.Group
	for i, prefix := range prefixes {
		pq := q
		if prefix != "" {
			cond, err := domain.CompileRange(domain.TimeRange{Op: domain.TimeGe, From: time.Unix(0, 0)}, enc, prefix)
			if err != nil {
				return usage("see dynascope range --help", "%v", err)
			}
			pq.SK = cond // its lower bound names the prefix as the keys spell it
		}
		newest := shown.newest[timePrefix(enc, pq.SK.A.Text)]
		g.Go(func() error {
			return dynamo.Follow(ctx, c, dynamo.FollowRequest{
				Query: q, TableKeys: tableKeys, Enc: enc, Prefix: prefix, Newest: newest, Since: since, Spread: spread,
				Overlap: f.overlap, Interval: f.interval,
			}, func(it dynamo.Item) error {
				mu.Lock()
				defer mu.Unlock()
				if err := out.Write(eo.Plain(it)); err != nil {
					return err
				}
				return out.Flush() // each item as it arrives
			}, func(st dynamo.FollowStats) {
				mu.Lock()
				defer mu.Unlock()
				stats[i] = st
				if time.Since(lastNote) < time.Minute && st.Polls > 1 {
					return
				}
				lastNote = time.Now()
				t := total()
				fmt.Fprintf(stderr, "following: %s · %s · %s · next poll in %s\n",
					counted(t.Items, "new item", "new items"), counted(t.Polls, "poll", "polls"), t.Rates(time.Now()), st.Next)
			})
		})
	}
	err := g.Wait()
	if err == nil && ctx.Err() != nil {
		return ctx.Err() // stopped by the user: exit as interrupted
	}
	return err
}

// shownKeys notes the newest sort key a range printed under each prefix
// before the time ("" where the key has none), so that following starts
// right after what was shown, not after whatever is newest when it starts.
type shownKeys struct {
	enc    domain.TimeEncoding
	skName string
	newest map[string]string
	at     map[string]time.Time
}

func newShownKeys(enc domain.TimeEncoding, skName string) *shownKeys {
	return &shownKeys{enc: enc, skName: skName, newest: map[string]string{}, at: map[string]time.Time{}}
}

func (s *shownKeys) note(it dynamo.Item) {
	v, ok := dynamo.KeyValueOf(it[s.skName])
	if !ok {
		return
	}
	t, ok := s.enc.KeyTime(v.Text)
	if !ok {
		return
	}
	p := timePrefix(s.enc, v.Text)
	if old, seen := s.at[p]; !seen || t.After(old) {
		s.newest[p], s.at[p] = v.Text, t
	}
}

// timePrefix is the text before the time in a key that puts it after a
// prefix (with its separator), else "".
func timePrefix(enc domain.TimeEncoding, key string) string {
	if !enc.NeedsPrefix() {
		return ""
	}
	if i, _, _, ok := enc.Locate(key); ok {
		return key[:i]
	}
	return ""
}

// followFrom is where following starts when nothing newer was shown: a
// range open to the present (last 15m, > X) showed everything from its
// start, so whatever is found after its newest key was written since; a
// range that ended in the past is followed from the time it was read, so
// the items between its end and now are not taken for new ones.
func followFrom(r domain.TimeRange, readAt time.Time) time.Time {
	switch {
	case r.Op == domain.TimeGt || r.Op == domain.TimeGe:
		return r.From
	case r.Op == domain.TimeBetween && r.To.After(readAt.Add(-time.Minute)):
		return r.From
	}
	return readAt
}
