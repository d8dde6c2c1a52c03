package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/export"
	"github.com/dynascope/dynascope/model"
)

// validateFollow checks --follow's flags before anything is read.
func (f rangeFlags) validateFollow() error {
	switch {
	case !f.follow && (f.interval != 0 || f.overlap != 5*time.Second):
		return usage("add --follow, or drop --interval and --overlap", "--interval and --overlap go with --follow")
	case !f.follow:
		return nil
	case f.output != "jsonl":
		return usage("drop --output (follow prints JSON lines as items arrive)", "--follow streams JSON lines, not --output %s", f.output)
	case f.interval < 0 || f.overlap < 0:
		return usage("give a positive duration, such as 2s", "--interval and --overlap cannot be negative")
	case f.interval > 0 && f.interval < 100*time.Millisecond:
		return usage("poll at most ten times a second: --interval 100ms or more", "--interval %s is too short", f.interval)
	}
	return nil
}

// followRange prints, after the range (read from readAt on), every item
// newer than the newest it read, once each, as it arrives, until ctx ends;
// a line on stderr says what following costs.
func followRange(ctx context.Context, c dynamo.Client, f rangeFlags, q model.KeyQuery, tableKeys *dynamo.KeySchema, enc model.TimeEncoding, opt *readOpts, readAt time.Time, stdout, stderr io.Writer) error {
	newest, err := newestKey(ctx, c, q, tableKeys)
	if err != nil {
		return err
	}
	q.Filter = opt.Filter
	out := export.NewJSONRows(stdout, "jsonl")
	eo := export.Options{Mask: opt.Mask, KeyDelims: opt.KeyDelims}
	fmt.Fprintf(stderr, "following %s for new items (Ctrl+C stops)\n", export.OneLine(maskedQuery(q, opt.Mask, opt.KeyDelims).Describe()))
	var lastNote time.Time
	var last dynamo.FollowStats
	defer func() {
		if last.Polls == 0 {
			return
		}
		req, rcu := last.PerMinute(time.Now())
		fmt.Fprintf(stderr, "followed for %s: %d new items · %d polls · %d requests (%.1f/min) · %.1f RCU (%.2f/min)\n",
			time.Since(last.Started).Round(time.Second), last.Items, last.Polls, last.Cost.Requests, req, last.Cost.RCU, rcu)
	}()
	err = dynamo.Follow(ctx, c, dynamo.FollowRequest{
		Query: q, TableKeys: tableKeys, Enc: enc, Prefix: f.skPrefix, Newest: newest, Since: readAt,
		Overlap: f.overlap, Interval: f.interval,
	}, func(it dynamo.Item) error {
		if err := out.Write(eo.Plain(it)); err != nil {
			return err
		}
		return out.Flush() // each item as it arrives
	}, func(st dynamo.FollowStats) {
		last = st
		if time.Since(lastNote) < time.Minute && st.Polls > 1 {
			return
		}
		lastNote = time.Now()
		req, rcu := st.PerMinute(time.Now())
		fmt.Fprintf(stderr, "following: %d new items · %d polls · %.0f requests/min · %.1f RCU/min · next poll in %s\n",
			st.Items, st.Polls, req, rcu, st.Next)
	})
	if err == nil && ctx.Err() != nil {
		return ctx.Err() // stopped by the user: exit as interrupted
	}
	return err
}

// newestKey is the newest sort key under q's condition (the range just
// printed), read keys-only and unfiltered: following starts after it.
func newestKey(ctx context.Context, c dynamo.Client, q model.KeyQuery, tableKeys *dynamo.KeySchema) (string, error) {
	q.Reverse, q.Filter = true, nil
	page, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: q, Limit: 1, KeysOnly: true, TableKeys: tableKeys})
	if err != nil || len(page.Items) == 0 {
		return "", err
	}
	v, _ := dynamo.KeyValueOf(page.Items[0][q.SKName])
	return v.Text, nil
}
