package dynamo

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// Follow's poll intervals: quick while items arrive, backing off to the
// slow one while none do.
const (
	FollowFast = time.Second
	FollowSlow = 10 * time.Second
)

// FollowRequest says which partition to follow and from where.
type FollowRequest struct {
	// Query names the partition (and index, filter); its SK is replaced by
	// each poll's "newer than" condition.
	Query     domain.KeyQuery
	TableKeys *KeySchema // the table's keys, when Query is on an index
	Enc       domain.TimeEncoding
	Prefix    string // the text before the time in composite keys, or ""
	// Newest is the newest sort key already shown, Since the instant up to
	// which the caller has shown everything (the range's start, for a
	// range open to the present; the time it read, for one that ended in
	// the past): following starts after the later of the two. The
	// first poll takes what it finds up to there as shown, so an item
	// written with an older key between the caller's read and that poll is
	// not emitted; after it, late items inside Overlap are.
	Newest string
	Since  time.Time
	// Overlap is re-read below the newest key on every poll, so an item
	// written late with an older key (clock skew between writers) is still
	// caught; what was already emitted is recognised by its key.
	Overlap time.Duration
	// Spread is how far apart the UTC offsets the keys are written in
	// are (domain.TimeDetection.Spread): a key's text is its local time,
	// so each poll's condition is read that much lower to miss no key in
	// another offset, and what it reads older than asked is left out.
	Spread time.Duration
	// Interval fixes the poll interval; 0 adapts between FollowFast and
	// FollowSlow.
	Interval time.Duration
}

// FollowStats is what following has done so far.
type FollowStats struct {
	Polls, Items int
	Cost         Cost
	Started      time.Time
	Next         time.Duration // the wait before the next poll
}

// PerMinute is the cost of following per minute so far, in RCU as
// DynamoDB bills it.
func (s FollowStats) PerMinute(now time.Time) (requests, rcu float64) {
	min := now.Sub(s.Started).Minutes()
	if min <= 0 {
		return 0, 0
	}
	return float64(s.Cost.Requests) / min, s.Cost.Billed / min
}

// RateWindow is the least time over which a rate per minute means
// anything: after one poll a second, "41,490 requests/min" is a guess.
const RateWindow = time.Minute

// Rates says what following has cost, as DynamoDB bills it: per minute
// once it has run for RateWindow, before that what it has spent so far.
// It said the server's figure, "1 requests, 0.0 RCU so far" of a poll
// that found nothing, which DynamoDB bills 0.5.
func (s FollowStats) Rates(now time.Time) string {
	if now.Sub(s.Started) < RateWindow {
		noun := "requests"
		if s.Cost.Requests == 1 {
			noun = "request"
		}
		return fmt.Sprintf("%d %s, %.1f RCU so far", s.Cost.Requests, noun, s.Cost.Billed)
	}
	req, rcu := s.PerMinute(now)
	return fmt.Sprintf("%.0f requests/min · %.1f RCU/min", req, rcu)
}

// Follow polls for items newer than the newest seen and gives each new
// item to emit exactly once, in key order within a poll, until ctx ends
// (which is not an error) or a read or emit fails. poll, if not nil, is
// told after every poll.
func Follow(ctx context.Context, c Client, r FollowRequest, emit func(Item) error, poll func(FollowStats)) error {
	st := FollowStats{Started: time.Now(), Next: r.Interval}
	if st.Next <= 0 {
		st.Next = FollowFast
	}
	newest := r.Since // a range that ended in the past is followed from now on
	if t, ok := r.Enc.KeyTime(r.Newest); ok && r.Newest != "" && t.After(newest) {
		newest = t
	}
	seen := map[string]time.Time{} // emitted keys inside the overlap window
	for first := true; ; first = false {
		found, err := followPoll(ctx, c, r, newest.Add(-r.Overlap), seen, &st)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		if first { // what the caller has shown: up to the newest key
			found = slices.DeleteFunc(found, func(f followed) bool { return !f.at.After(newest) })
		}
		for _, f := range found {
			if err := emit(f.item); err != nil {
				return err
			}
			st.Items++
			if f.at.After(newest) {
				newest = f.at
			}
		}
		for k, at := range seen { // forget what no poll can read again
			if at.Before(newest.Add(-r.Overlap)) {
				delete(seen, k)
			}
		}
		st.Next = nextInterval(r.Interval, st.Next, len(found) > 0)
		if poll != nil {
			poll(st)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(st.Next):
		}
	}
}

// nextInterval adapts the wait: back to fast when items came, doubling up
// to slow when none did; a fixed interval stays.
func nextInterval(fixed, last time.Duration, busy bool) time.Duration {
	switch {
	case fixed > 0:
		return fixed
	case busy:
		return FollowFast
	}
	return min(2*last, FollowSlow)
}

type followed struct {
	item Item
	at   time.Time
}

// followPoll reads every item from the instant from on, in key order, and
// returns those not seen before, marking them seen.
func followPoll(ctx context.Context, c Client, r FollowRequest, from time.Time, seen map[string]time.Time, st *FollowStats) ([]followed, error) {
	q := r.Query
	cond, err := domain.CompileRange(domain.TimeRange{Op: domain.TimeGe, From: from}.Widen(r.Spread), r.Enc, r.Prefix)
	if err != nil {
		return nil, err
	}
	q.SK, q.Reverse = cond, false
	st.Polls++
	var out []followed
	var start Item
	for {
		page, err := QueryPage(ctx, c, PageRequest{Query: q, Start: start})
		st.Cost = st.Cost.Add(page.Cost)
		if err != nil {
			return out, err
		}
		for _, it := range page.Items {
			k := itemKey(it, q, r.TableKeys)
			if _, ok := seen[k]; ok {
				continue
			}
			sk, _ := KeyValueOf(it[q.SKName])
			at, ok := r.Enc.KeyTime(sk.Text)
			if !ok || at.Before(from) {
				// not a time key (a Metadata item beside the log), or in
				// another UTC offset, its text above the bound, its
				// instant below it: older than a poll reads
				continue
			}
			seen[k] = at
			out = append(out, followed{item: it, at: at})
		}
		if !page.More() {
			break
		}
		start = page.LastKey
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].at.Before(out[j].at) })
	return out, nil
}

// itemKey identifies an item by its primary key (and the table's, on an
// index, where index keys need not be unique).
func itemKey(it Item, q domain.KeyQuery, tableKeys *KeySchema) string {
	names := []string{q.PKName, q.SKName}
	if tableKeys != nil {
		names = append(names, tableKeys.PK.Name)
		if tableKeys.SK != nil {
			names = append(names, tableKeys.SK.Name)
		}
	}
	key := make([]any, 0, len(names))
	for _, n := range names {
		key = append(key, n, Wire(valueOr(it[n])))
	}
	b, _ := json.Marshal(key)
	return string(b)
}

func valueOr(av types.AttributeValue) types.AttributeValue {
	if av == nil {
		return &types.AttributeValueMemberNULL{Value: true}
	}
	return av
}
