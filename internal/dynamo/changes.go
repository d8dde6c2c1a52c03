package dynamo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"

	"github.com/dynascope/dynascope/internal/domain"
)

// StreamRetention is how long DynamoDB keeps a stream's records.
const StreamRetention = 24 * time.Hour

// Change is one stream record: an item inserted, modified or removed.
type Change struct {
	Event string    // INSERT, MODIFY or REMOVE
	Time  time.Time // DynamoDB's approximate time of the write
	Keys  Item
	Old   Item // nil: not in the record (INSERT, or the stream keeps no old image)
	New   Item // nil: not in the record (REMOVE, or the stream keeps no new image)
	// Changed names the top-level attributes that differ (added, removed
	// or changed), sorted; nil when the record lacks an image it needs.
	Changed []string
	Seq     string // the record's sequence number
	Shard   string
}

// ChangesRequest says which records to read.
type ChangesRequest struct {
	Stream StreamInfo
	PKName string
	PK     *domain.KeyValue // nil: every partition
	SKName string
	Prefix string // with PK: only sort keys beginning with it
	// SK, with PK, names one item: only its own changes (Prefix unused).
	SK    *domain.KeyValue
	Since time.Time // records written before are skipped (zero: all the stream holds)
	// Now is the present the records are read up to (zero: time.Now()); a
	// backend on its own clock (the demo) passes its own.
	Now time.Time
	// Follow keeps reading the open shards after the present, handing each
	// new record on as it arrives, until ctx ends.
	Follow bool
	Poll   time.Duration // between reads of an open shard when following (default 1 s)
	// Progress, if set, is handed the running figures when following:
	// after the read up to the present and after each read of the open
	// shards, so what following has cost can be shown as it grows.
	Progress func(ChangesStats)
	// Parallel bounds the shards read at once (default 4).
	Parallel int
	// CallTimeout bounds each call (default 30 s), whatever ctx allows.
	CallTimeout time.Duration
	// MaxHeld bounds the changes held to put them in order before the
	// first is handed on (default MaxHeldChanges): more is an error that
	// says to narrow the read, never a memory without bound.
	MaxHeld int
}

// MaxHeldChanges is how many matching changes a read holds at most.
const MaxHeldChanges = 200_000

// adoptEvery is how often following looks for new shards even when none
// closed (DynamoDB may list a closed shard's children a little later).
const adoptEvery = 30 * time.Second

// ChangesStats is what reading cost: Streams calls use no table capacity.
type ChangesStats struct {
	Shards     int // shards read
	Scanned    int // records read
	Matched    int // records that matched the request
	GetRecords int // GetRecords calls
	Calls      int // every Streams call (DescribeStream, GetShardIterator, GetRecords)
	Throttled  int // GetRecords calls refused as over the shard's limit, retried
	Expired    int // iterators renewed after they expired
}

// Changes reads the stream's records for the request, oldest first, and
// hands each match to emit: first every record up to the present, in
// order, then (Follow) each new one as it arrives. Shards are read along
// their tree: a child only after its parent (a key's records move from a
// parent to one child when a shard splits), siblings in parallel.
// Through a MaskedStreams (Masked.Streams) the request is given and the
// changes handed on in stand-ins.
func Changes(ctx context.Context, sc StreamsClient, req ChangesRequest, emit func(Change) error) (ChangesStats, error) {
	if ms, masked := sc.(*MaskedStreams); masked {
		return ms.changes(ctx, req, emit)
	}
	r := &reader{sc: sc, req: req, present: req.Now}
	if r.present.IsZero() {
		r.present = time.Now()
	}
	if r.req.Poll <= 0 {
		r.req.Poll = time.Second
	}
	if r.req.Parallel <= 0 {
		r.req.Parallel = 4
	}
	if r.req.CallTimeout <= 0 {
		r.req.CallTimeout = 30 * time.Second
	}
	if r.req.MaxHeld <= 0 {
		r.req.MaxHeld = MaxHeldChanges
	}
	err := r.catchUp(ctx, emit)
	if err == nil && req.Follow {
		r.progress()
		err = r.follow(ctx, emit)
	}
	return r.statsNow(), err
}

type reader struct {
	sc      StreamsClient
	req     ChangesRequest
	present time.Time
	mu      sync.Mutex
	stats   ChangesStats
	open    []*openShard // shards still open at the present, for following
	known   map[string]bool
	// lastCall paces GetRecords per shard: DynamoDB allows 5 a second.
	lastCall map[string]time.Time
}

type openShard struct {
	id, iter, last string // last: the last sequence number read
	depth          int
}

func (r *reader) statsNow() ChangesStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats
}

// progress hands the running figures to the request's Progress hook.
func (r *reader) progress() {
	if r.req.Progress != nil {
		r.req.Progress(r.statsNow())
	}
}

func (r *reader) count(f func(*ChangesStats)) {
	r.mu.Lock()
	f(&r.stats)
	r.mu.Unlock()
}

// call runs one Streams call under its own deadline.
func call[T any](ctx context.Context, r *reader, f func(context.Context) (T, error)) (T, error) {
	cctx, cancel := context.WithTimeout(ctx, r.req.CallTimeout)
	defer cancel()
	r.count(func(s *ChangesStats) { s.Calls++ })
	return f(cctx)
}

// shards lists every shard of the stream (DescribeStream, paged).
func (r *reader) shards(ctx context.Context) ([]stypes.Shard, error) {
	var all []stypes.Shard
	var after *string
	seen := map[string]bool{}
	for {
		out, err := call(ctx, r, func(c context.Context) (*dynamodbstreams.DescribeStreamOutput, error) {
			return r.sc.DescribeStream(c, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(r.req.Stream.ARN), ExclusiveStartShardId: after})
		})
		if err != nil {
			return nil, streamErr("DescribeStream", err)
		}
		if out.StreamDescription == nil {
			return all, nil
		}
		all = append(all, out.StreamDescription.Shards...)
		if len(all) > MaxStreamShards {
			return nil, streamCursorFailure("DescribeStream", "the server listed more than %d shards for one stream", MaxStreamShards)
		}
		after = out.StreamDescription.LastEvaluatedShardId
		if after == nil {
			return all, nil
		}
		if seen[*after] {
			return nil, streamCursorFailure("DescribeStream", "the server repeated the LastEvaluatedShardId %s", clip(*after))
		}
		seen[*after] = true
	}
}

// held is a matched record with where it was read, for ordering.
type held struct {
	c     Change
	depth int // generations below a root shard
	shard int // the shard's place in DescribeStream's answer
	pos   int
}

// catchUp reads every shard from its oldest record to the present and
// emits the matches in order.
func (r *reader) catchUp(ctx context.Context, emit func(Change) error) error {
	all, err := r.shards(ctx)
	if err != nil {
		return err
	}
	place := map[string]int{}
	children := map[string][]string{}
	r.known = map[string]bool{}
	r.lastCall = map[string]time.Time{}
	for i, s := range all {
		id := aws.ToString(s.ShardId)
		place[id] = i
		r.known[id] = true
	}
	var roots []string
	for _, s := range all {
		id, parent := aws.ToString(s.ShardId), aws.ToString(s.ParentShardId)
		if _, ok := place[parent]; ok {
			children[parent] = append(children[parent], id)
		} else {
			roots = append(roots, id) // its parent is trimmed away, or it has none
		}
	}
	var (
		mu    sync.Mutex
		got   []held
		wg    sync.WaitGroup
		sem   = make(chan struct{}, r.req.Parallel)
		first error
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var read func(id string, depth int)
	read = func(id string, depth int) {
		defer wg.Done()
		sem <- struct{}{}
		recs, open, err := r.readShard(ctx, id, depth)
		<-sem
		mu.Lock()
		if err != nil {
			if first == nil {
				first = err
				cancel()
			}
			mu.Unlock()
			return
		}
		for i, c := range recs {
			got = append(got, held{c: c, depth: depth, shard: place[id], pos: i})
		}
		if len(got) > r.req.MaxHeld && first == nil {
			first = &Error{Op: "changes", Kind: KindValidation, Msg: fmt.Sprintf("more than %d changes match, more than are held to put them in order", r.req.MaxHeld),
				Hint: "narrow the read: name a partition (--pk) or a shorter window (--since)"}
			cancel()
		}
		if open != nil {
			r.open = append(r.open, open)
		}
		mu.Unlock()
		for _, child := range children[id] {
			wg.Add(1)
			go read(child, depth+1)
		}
	}
	for _, id := range roots {
		wg.Add(1)
		go read(id, 0)
	}
	wg.Wait()
	if first != nil {
		return first
	}
	// Oldest first. Times are rounded (to the second on DynamoDB), so ties
	// go to the parent shard, then to the order within a shard: a key's
	// records keep their order.
	sort.SliceStable(got, func(i, j int) bool {
		a, b := got[i], got[j]
		switch {
		case !a.c.Time.Equal(b.c.Time):
			return a.c.Time.Before(b.c.Time)
		case a.depth != b.depth:
			return a.depth < b.depth
		case a.shard != b.shard:
			return a.shard < b.shard
		}
		return a.pos < b.pos
	})
	r.count(func(s *ChangesStats) { s.Matched += len(got) })
	for _, h := range got {
		if err := emit(h.c); err != nil {
			return err
		}
	}
	return nil
}

// readShard reads one shard from its oldest record: a closed shard to its
// end, an open one to the present (the first empty answer, or a record
// written after the read began: following, the page holding it is kept
// and following goes on after it). It returns the
// matches, in order, with times made non-decreasing, and for an open
// shard where to go on from.
func (r *reader) readShard(ctx context.Context, id string, depth int) ([]Change, *openShard, error) {
	r.count(func(s *ChangesStats) { s.Shards++ })
	iter, err := r.iterator(ctx, id, "")
	if err != nil || iter == "" {
		return nil, nil, err
	}
	var out []Change
	var last string
	var newest time.Time
	for pages := 1; ; pages++ {
		if pages > MaxShardPages {
			return nil, nil, streamCursorFailure("GetRecords", "shard %s answered more than %d pages", clip(id), MaxShardPages)
		}
		sent := iter
		page, err := r.getRecords(ctx, id, &iter, last)
		if err != nil {
			return nil, nil, err
		}
		if last, err = shardPage(clip(id), sent, page.NextShardIterator, seqsOf(page.Records), last); err != nil {
			return nil, nil, err
		}
		if err := checkRecords(page.Records); err != nil {
			return nil, nil, Explain("GetRecords", err)
		}
		past := false
		for _, rec := range page.Records {
			c := r.change(rec, id)
			if c.Time.After(r.present) {
				if !r.req.Follow {
					return out, nil, nil // past the present: what follows was not asked for
				}
				past = true
			}
			if c.Time.Before(newest) {
				c.Time = newest // a shard's records are in order; rounding may not be
			}
			newest = c.Time
			if !c.Time.Before(r.req.Since) && r.match(c) {
				out = append(out, c)
			}
		}
		if page.NextShardIterator == nil {
			return out, nil, nil // closed, read to its end
		}
		iter = aws.ToString(page.NextShardIterator)
		if len(page.Records) == 0 || past {
			// An open shard's empty answer, or (following) a page that
			// reached past the present: read up to the present. A shard
			// written faster than it is read never answers empty, and
			// following it must not wait for one.
			return out, &openShard{id: id, iter: iter, last: last, depth: depth}, nil
		}
	}
}

// seqsOf is the sequence numbers of a page's records, in order.
func seqsOf(recs []stypes.Record) []string {
	out := make([]string, 0, len(recs))
	for _, rec := range recs {
		if rec.Dynamodb != nil {
			out = append(out, aws.ToString(rec.Dynamodb.SequenceNumber))
		}
	}
	return out
}

// iterator opens a shard at its oldest record, or just after seq; "" for
// a shard DynamoDB no longer holds.
func (r *reader) iterator(ctx context.Context, id, after string) (string, error) {
	in := &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(r.req.Stream.ARN), ShardId: aws.String(id), ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon}
	if after != "" {
		in.ShardIteratorType, in.SequenceNumber = stypes.ShardIteratorTypeAfterSequenceNumber, aws.String(after)
	}
	out, err := call(ctx, r, func(c context.Context) (*dynamodbstreams.GetShardIteratorOutput, error) {
		return r.sc.GetShardIterator(c, in)
	})
	var gone *stypes.ResourceNotFoundException
	if errors.As(err, &gone) {
		return "", nil // trimmed away since DescribeStream listed it
	}
	if err != nil {
		return "", streamErr("GetShardIterator", err)
	}
	return aws.ToString(out.ShardIterator), nil
}

// maxThrottled is how many refusals in a row, after the SDK's own retries,
// a shard's read waits out before it fails.
const maxThrottled = 8

// getRecords reads one page, paced to the shard's limit, waiting out
// throttling and renewing an expired iterator (after last, the sequence
// number last read).
func (r *reader) getRecords(ctx context.Context, id string, iter *string, last string) (*dynamodbstreams.GetRecordsOutput, error) {
	for tries := 0; ; tries++ {
		if err := r.pace(ctx, id); err != nil {
			return nil, err
		}
		it := *iter
		out, err := call(ctx, r, func(c context.Context) (*dynamodbstreams.GetRecordsOutput, error) {
			return r.sc.GetRecords(c, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(it)})
		})
		r.count(func(s *ChangesStats) { s.GetRecords++ })
		var expired *stypes.ExpiredIteratorException
		var limit *stypes.LimitExceededException
		switch {
		case err == nil:
			r.count(func(s *ChangesStats) { s.Scanned += len(out.Records) })
			return out, nil
		case errors.As(err, &expired) && tries < maxThrottled:
			r.count(func(s *ChangesStats) { s.Expired++ })
			next, ierr := r.iterator(ctx, id, last)
			if ierr != nil {
				return nil, ierr
			}
			*iter = next
		case (errors.As(err, &limit) || throttled(err)) && tries < maxThrottled:
			r.count(func(s *ChangesStats) { s.Throttled++ })
			if err := sleep(ctx, time.Duration(tries+1)*500*time.Millisecond); err != nil {
				return nil, err
			}
		default:
			return nil, streamErr("GetRecords", err)
		}
	}
}

func throttled(err error) bool {
	var api smithy.APIError
	return errors.As(err, &api) && (api.ErrorCode() == "ThrottlingException" || api.ErrorCode() == "LimitExceededException")
}

// pace keeps GetRecords on one shard at 5 a second at most.
func (r *reader) pace(ctx context.Context, id string) error {
	r.mu.Lock()
	wait := time.Until(r.lastCall[id].Add(200 * time.Millisecond))
	r.lastCall[id] = time.Now().Add(max(wait, 0))
	r.mu.Unlock()
	return sleep(ctx, wait)
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// streamErr explains a Streams failure; its own errors say what they mean
// for the reader.
func streamErr(op string, err error) error {
	var trimmed *stypes.TrimmedDataAccessException
	var gone *stypes.ResourceNotFoundException
	var expired *stypes.ExpiredIteratorException
	switch {
	case errors.As(err, &trimmed):
		return &Error{Op: op, Kind: KindOther, Err: err,
			Msg:  "DynamoDB trimmed the records being read: a stream keeps 24 hours, and these passed it while they were read",
			Hint: "run again: it starts from the oldest record the stream still holds"}
	case errors.As(err, &gone):
		return &Error{Op: op, Kind: KindNotFound, Err: err, Msg: "the stream is gone: it was disabled or the table deleted since it was described",
			Hint: "check the table's stream: aws dynamodb describe-table --table-name NAME"}
	case errors.As(err, &expired):
		return &Error{Op: op, Kind: KindOther, Err: err, Msg: "the shard iterator kept expiring (iterators last 15 minutes)", Hint: "retry"}
	}
	return Explain(op, err)
}

// change turns a stream record into a Change.
func (r *reader) change(rec stypes.Record, shard string) Change {
	c := Change{Event: string(rec.EventName), Shard: shard}
	if d := rec.Dynamodb; d != nil {
		c.Time = aws.ToTime(d.ApproximateCreationDateTime).UTC()
		c.Keys, c.Old, c.New = FromStreamItem(d.Keys), FromStreamItem(d.OldImage), FromStreamItem(d.NewImage)
		c.Seq = aws.ToString(d.SequenceNumber)
	}
	switch {
	case c.Event == "INSERT" && c.New != nil:
		c.Changed = SortedNames(c.New)
	case c.Event == "REMOVE" && c.Old != nil:
		c.Changed = SortedNames(c.Old)
	case c.Event == "MODIFY" && c.Old != nil && c.New != nil:
		c.Changed = ChangedAttributes(c.Old, c.New)
	}
	return c
}

// match reports whether a change is of the partition (and prefix) asked for.
func (r *reader) match(c Change) bool {
	if r.req.PK == nil {
		return true
	}
	pk, ok := KeyValueOf(c.Keys[r.req.PKName])
	if !ok || pk.Type != r.req.PK.Type || !sameKeyValue(pk, *r.req.PK) {
		return false
	}
	sk, ok := KeyValueOf(c.Keys[r.req.SKName])
	switch {
	case r.req.SK != nil:
		return ok && sk.Type == r.req.SK.Type && sameKeyValue(sk, *r.req.SK)
	case r.req.Prefix == "":
		return true
	}
	return ok && strings.HasPrefix(sk.Text, r.req.Prefix)
}

func sameKeyValue(a, b domain.KeyValue) bool {
	if a.Type == domain.TypeB {
		return string(a.Bytes) == string(b.Bytes)
	}
	return a.Text == b.Text
}

const (
	// recentRecord: a record stamped this close to a poll's start (times
	// are rounded to the second) is at the shard's tip; the poll hands on
	// what it read and the next goes on from there.
	recentRecord = time.Second
	// followPages bounds the pages one poll reads of a shard, so that a
	// shard far behind (or stamped by another clock) still hands its
	// changes on as they are read, and what is held stays bounded.
	followPages = 10
)

// follow reads the open shards every Poll and emits each new record once,
// as it arrives; a shard that closes hands on to its children.
func (r *reader) follow(ctx context.Context, emit func(Change) error) error {
	lastAdopt := time.Now()
	for {
		if err := sleep(ctx, r.req.Poll); err != nil {
			return err
		}
		polled := time.Now()
		var batch []held
		var still []*openShard
		closed := false
		for i, o := range r.open {
			if o.iter == "" {
				it, err := r.iterator(ctx, o.id, o.last)
				if err != nil {
					return err
				}
				o.iter = it
			}
			if o.iter == "" {
				closed = true // trimmed away
				continue
			}
			for pages := 1; ; pages++ {
				sent := o.iter
				page, err := r.getRecords(ctx, o.id, &o.iter, o.last)
				if err != nil {
					return err
				}
				if o.last, err = shardPage(clip(o.id), sent, page.NextShardIterator, seqsOf(page.Records), o.last); err != nil {
					return err
				}
				if err := checkRecords(page.Records); err != nil {
					return Explain("GetRecords", err)
				}
				recent := false
				for j, rec := range page.Records {
					c := r.change(rec, o.id)
					recent = recent || !c.Time.Before(polled.Add(-recentRecord))
					if r.match(c) {
						batch = append(batch, held{c: c, depth: o.depth, shard: i, pos: j})
					}
				}
				if page.NextShardIterator == nil {
					closed = true
					o.iter = ""
					break
				}
				o.iter = aws.ToString(page.NextShardIterator)
				// The shard's tip, as far as this poll goes: an empty
				// answer, a page reaching the records written as the poll
				// began, or enough pages for one poll. A shard written
				// faster than its 5 reads a second never answers empty,
				// and waiting for one held every change back for good.
				if len(page.Records) == 0 || recent || pages >= followPages {
					still = append(still, o)
					break
				}
			}
		}
		r.open = still
		if closed || len(r.open) == 0 || time.Since(lastAdopt) > adoptEvery {
			if err := r.adopt(ctx); err != nil {
				return err
			}
			lastAdopt = time.Now()
		}
		sort.SliceStable(batch, func(i, j int) bool { return batch[i].c.Time.Before(batch[j].c.Time) })
		r.count(func(s *ChangesStats) { s.Matched += len(batch) })
		for _, h := range batch {
			if err := emit(h.c); err != nil {
				return err
			}
		}
		r.progress()
	}
}

// adopt starts following the shards DescribeStream lists that were not
// known: the children of shards that closed.
func (r *reader) adopt(ctx context.Context) error {
	all, err := r.shards(ctx)
	if err != nil {
		return err
	}
	for _, s := range all {
		id := aws.ToString(s.ShardId)
		if r.known[id] {
			continue
		}
		r.known[id] = true
		r.count(func(s *ChangesStats) { s.Shards++ })
		r.open = append(r.open, &openShard{id: id})
	}
	return nil
}

// ChangedAttributes lists the top-level attributes whose values differ
// between two images (added, removed or changed), sorted.
func ChangedAttributes(old, new Item) []string {
	var out []string
	for k, v := range new {
		if o, ok := old[k]; !ok || !SameValue(o, v) {
			out = append(out, k)
		}
	}
	for k := range old {
		if _, ok := new[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// SameValue compares two attribute values as DynamoDB does: sets as sets,
// numbers by value.
func SameValue(a, b types.AttributeValue) bool {
	if TypeOf(a) != TypeOf(b) {
		return false
	}
	switch x := a.(type) {
	case *types.AttributeValueMemberN:
		return sameNumber(x.Value, b.(*types.AttributeValueMemberN).Value)
	case *types.AttributeValueMemberM:
		y := b.(*types.AttributeValueMemberM).Value
		if len(x.Value) != len(y) {
			return false
		}
		for k, v := range x.Value {
			if w, ok := y[k]; !ok || !SameValue(v, w) {
				return false
			}
		}
		return true
	case *types.AttributeValueMemberL:
		y := b.(*types.AttributeValueMemberL).Value
		return slices.EqualFunc(x.Value, y, SameValue)
	case *types.AttributeValueMemberSS:
		return sameSet(x.Value, b.(*types.AttributeValueMemberSS).Value)
	case *types.AttributeValueMemberNS:
		return sameSet(x.Value, b.(*types.AttributeValueMemberNS).Value)
	case *types.AttributeValueMemberBS:
		y := b.(*types.AttributeValueMemberBS).Value
		return sameSet(bytesText(x.Value), bytesText(y))
	}
	return fmt.Sprint(Plain(a)) == fmt.Sprint(Plain(b))
}

func bytesText(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// sameNumber compares numbers as written by DynamoDB, which normalizes
// them (no leading or trailing zeros), so the text decides.
func sameNumber(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) }
