package dynamo

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// timeSample is how many keys DetectTimeKeys reads.
const timeSample = 20

// TimeSample is the newest and oldest sort keys of a partition and the
// time form most of them hold (Detection.OK false when none does, or there
// were no keys).
type TimeSample struct {
	domain.TimeDetection
	Keys   []string // as read: the newest first, then the oldest not already read; numbers as their text
	Number bool
}

// DetectTimeKeys reads the newest and the oldest few sort keys of a
// partition (under q.SK, typically a begins_with prefix, when set) and
// finds their time encoding: two keys-only Queries with Limit 20 (one
// when the first reached the end). The oldest keys are the other prefixes'
// in a partition of several (comm#… before metadata), and a small
// partition is read whole. Keys that are not a time (a Metadata item) are
// skipped and named when most of them are times.
func DetectTimeKeys(ctx context.Context, c Client, q domain.KeyQuery, tableKeys *KeySchema) (TimeSample, Cost, error) {
	var s TimeSample
	var total Cost
	seen := map[string]bool{}
	var newest, oldest []string
	whole := false
	for _, reverse := range []bool{true, false} {
		q.Reverse = reverse
		keys, more, cost, err := sampleRead(ctx, c, q, tableKeys, timeSample, &s)
		total = total.Add(cost)
		if err != nil {
			return TimeSample{}, total, err
		}
		for _, k := range keys {
			if !seen[k] { // on an index, keys repeat: each is counted once
				seen[k] = true
				s.Keys = append(s.Keys, k)
			}
		}
		if reverse {
			newest = keys
		} else {
			oldest = keys
		}
		if !more {
			whole = true // the newest page held the whole partition
			break
		}
	}
	if d := domain.DetectTimeSample(s.Keys, s.Number); !whole && !s.Number && (!d.OK || d.Enc.NeedsPrefix()) {
		// A time that leads the key (2018-08-29:ada) has no prefixes
		// to sample: its ends are its oldest and newest times.
		cost, err := samplePrefixes(ctx, c, q, tableKeys, &s, seen, newest, oldest)
		total = total.Add(cost)
		if err != nil {
			return TimeSample{}, total, err
		}
	}
	s.TimeDetection = domain.DetectTimeSample(s.Keys, s.Number)
	return s, total, nil
}

func isTimeText(k string) bool {
	_, ok := domain.DetectTimeText(k)
	return ok
}

// sampleRead reads up to limit sort keys of q (keys only), as text.
func sampleRead(ctx context.Context, c Client, q domain.KeyQuery, tableKeys *KeySchema, limit int32, s *TimeSample) ([]string, bool, Cost, error) {
	page, err := QueryPage(ctx, c, PageRequest{Query: q, Limit: limit, KeysOnly: true, TableKeys: tableKeys})
	if err != nil {
		return nil, false, page.Cost, err
	}
	var keys []string
	for _, it := range page.Items {
		switch v := it[q.SKName].(type) {
		case *types.AttributeValueMemberN:
			keys, s.Number = append(keys, v.Value), true
		case *types.AttributeValueMemberS:
			keys = append(keys, v.Value)
		}
	}
	return keys, page.More(), page.Cost, nil
}

// The prefixes between a partition's oldest and newest keys are sampled
// too, up to samplePrefixCap of them, prefixKeys keys at each end of each.
const (
	samplePrefixCap = 8
	prefixKeys      = 3
)

// samplePrefixes adds to s the oldest and newest few keys of each prefix
// between the partition's oldest and newest keys (AUDIT#…, EVENT#time,
// ZETA#…: the newest and oldest 20 are all AUDIT# and ZETA#). It walks
// the level's children from the oldest key's on, as the drill-down's
// skip-scan does: one keys-only read of prefixKeys past each child, and
// one from the other end of each new prefix, until it meets a child the
// newest keys hold or has seen samplePrefixCap children. On a partition
// whose ends share their prefixes this is one read.
func samplePrefixes(ctx context.Context, c Client, q domain.KeyQuery, tableKeys *KeySchema, s *TimeSample, seen map[string]bool, newest, oldest []string) (Cost, error) {
	var total Cost
	base := ""
	switch {
	case q.SK.Op == domain.SKBeginsWith && q.SK.A.Type == domain.TypeS:
		base = q.SK.A.Text
	case q.SK.Op != domain.SKNone:
		return total, nil // a range of the partition: its ends are what it holds
	}
	delim, ok := domain.DetectDelimiter(s.Keys)
	if !ok || len(oldest) == 0 || !slices.ContainsFunc(s.Keys, isTimeText) {
		// Ends with no time at all (Locations' CA#SF#…) are not a time
		// partition: the walk would cost up to 2 reads a prefix for
		// nothing.
		return total, nil
	}
	atEnd := map[string]bool{}
	for _, k := range newest {
		if name, _, ok := domain.ChildOf(base, k, delim); ok {
			atEnd[name] = true
		}
	}
	add := func(keys []string) {
		for _, k := range keys {
			if !seen[k] {
				seen[k] = true
				s.Keys = append(s.Keys, k)
			}
		}
	}
	last := oldest[len(oldest)-1]
	for range samplePrefixCap {
		name, leaf, ok := domain.ChildOf(base, last, delim)
		if !ok || atEnd[name] {
			return total, nil
		}
		start := domain.After(last)
		if !leaf {
			if start, ok = domain.PrefixEnd(base + name + delim); !ok {
				return total, nil
			}
		}
		fq := q
		fq.Reverse, fq.SK = false, rangeFrom(start, base, false)
		if fq.SK.Op == domain.SKNone {
			return total, nil
		}
		keys, _, cost, err := sampleRead(ctx, c, fq, tableKeys, prefixKeys, s)
		total = total.Add(cost)
		if err != nil || len(keys) == 0 {
			return total, err
		}
		add(keys)
		last = keys[len(keys)-1]
		next, nextLeaf, ok := domain.ChildOf(base, keys[0], delim)
		if !ok || atEnd[next] {
			return total, nil
		}
		if !nextLeaf {
			// The newest few of this prefix, from its other end.
			rq := q
			rq.Reverse, rq.SK = true, domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S(base + next + delim)}
			keys, _, cost, err := sampleRead(ctx, c, rq, tableKeys, prefixKeys, s)
			total = total.Add(cost)
			if err != nil {
				return total, err
			}
			add(keys)
			if len(keys) > 0 {
				last = keys[0]
			}
		}
	}
	return total, nil
}
