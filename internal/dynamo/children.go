package dynamo

import (
	"context"
	"sort"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// ChildrenRequest asks for the next segments under a sort-key prefix of one
// partition, on the table or one of its indexes.
type ChildrenRequest struct {
	Table     string
	Index     string
	Key       KeySchema  // of the table or index read
	TableKeys *KeySchema // the table's, when Index is set
	PK        domain.KeyValue
	Prefix    string // "" for the top level; ends with Delim below it
	Delim     string // "" to detect from the first keys read
	// Resume holds the children an earlier, interrupted walk found (in key
	// order, Delim set): the walk goes on after the last of them.
	Resume []domain.Child
	// Parallel bounds the reads in flight (0: DefaultParallel; 1: one
	// after another).
	Parallel int
}

// ChildrenResult is a level of the hierarchy and what finding it cost.
type ChildrenResult struct {
	Children []domain.Child
	SelfItem bool   // a key equals Prefix itself
	Delim    string // as given or detected
	Level    domain.KeyQuery
	// Sample is sort keys the walk read (as text; a binary key's bytes),
	// the first of each child, up to SampleKeys: what the level's keys
	// look like (do they hold a time?) at no cost beyond the walk.
	Sample []string
	Cost   Cost
	// Guessed reads went out ahead of the walk; Wasted of them it never
	// used (their cost is in Cost).
	Guessed, Wasted int
}

const (
	// firstProbeKeys is the first read of a level: few enough keys that
	// items of up to ~400 bytes fit one 4 KB read unit (0.5 RCU), and
	// enough to tell a dense level (most keys new children) at once.
	firstProbeKeys = 10
	// DefaultParallel is how many reads a skip-scan has in flight at most.
	DefaultParallel = 8
)

// Children finds the children of a prefix without reading the subtree
// below each one: after a child is seen, the next read starts past its
// whole subtree (a skip-scan), one small keys-only Query per child, each
// sized to one read unit from the first answer's sizes. Where children are
// dense (a probe holds many), it reads bulk pages instead, which is cheaper
// per child. Where sibling names count up (C00, C01, …), the reads past
// the next few guessed names go out at once (r.Parallel), and the walk
// uses an answer only when it is the very read it would have made, so the
// children are exactly those of one read after another. emit, if not nil,
// sees each child as it is found or updated, in key order, with the cost
// so far.
func Children(ctx context.Context, c Client, r ChildrenRequest, emit func(domain.Child, Cost)) (ChildrenResult, error) {
	if r.Key.SK == nil {
		return ChildrenResult{}, Errorf("children", KindValidation, "open the partition's item instead", "table %s has no sort key, so no hierarchy", r.Table)
	}
	if r.Key.SK.Type == domain.TypeN {
		return ChildrenResult{}, Errorf("children", KindValidation, "number sort keys are listed as items; use `items` or the Items view",
			"sort key %s is a number, which has no hierarchy", r.Key.SK.Name)
	}
	binary := r.Key.SK.Type == domain.TypeB
	res := ChildrenResult{Delim: r.Delim}
	res.Level = domain.KeyQuery{Table: r.Table, Index: r.Index, PKName: r.Key.PK.Name, PK: r.PK, SKName: r.Key.SK.Name}
	if r.Prefix != "" {
		res.Level.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: skValue(r.Prefix, binary)}
	}
	walk := domain.NewChildWalk(r.Prefix, r.Delim)
	if len(r.Resume) > 0 && r.Delim != "" {
		var keys []string
		for _, c := range r.Resume {
			if c.IsItem {
				keys = append(keys, r.Prefix+c.Name)
			}
			if c.HasChildren {
				keys = append(keys, c.Prefix)
			}
		}
		walk.Feed(keys)
	}
	parallel := r.Parallel
	if parallel <= 0 {
		parallel = DefaultParallel
	}
	sk := newSeeker(ctx, c, r.TableKeys, parallel)
	finish := func(err error) (ChildrenResult, error) {
		if err != nil {
			sk.abort()
		} else {
			sk.close()
		}
		res.Children, res.SelfItem, res.Cost = walk.Children(), walk.SelfItem, sk.total()
		res.Guessed, res.Wasted = sk.Guessed, sk.Wasted
		return res, err
	}
	limit := int32(firstProbeKeys)
	var probe probeSizing
	prevStart := ""
	for reads := 0; ; reads++ {
		start := walk.Start()
		// The walk reads on from where the keys read so far end, not from
		// LastEvaluatedKey: a server that says "more" yet sends the same
		// keys again would have it ask the same question forever.
		if reads > 0 && start <= prevStart {
			return finish(cursorFailure("children of "+r.Table, &CursorError{Backwards: start < prevStart}))
		}
		prevStart = start
		q := res.Level
		q.SK = rangeFrom(start, r.Prefix, binary)
		if q.SK.Op == domain.SKBetween && keyText(q.SK.A) > keyText(q.SK.B) {
			break // the walk has passed the end of the prefix
		}
		page, err := sk.page(start, q, limit)
		if err != nil {
			return finish(err)
		}
		keys := make([]string, 0, len(page.Items))
		for _, it := range page.Items {
			if k, ok := skText(it[r.Key.SK.Name]); ok {
				keys = append(keys, k)
			}
		}
		if walk.Delim == "" {
			d, ok := domain.DetectDelimiter(trimPrefix(keys, r.Prefix))
			if !ok {
				d = "#"
			}
			walk.Delim, res.Delim = d, d
		}
		res.Sample = sampleKeys(res.Sample, keys, r.Prefix, walk.Delim)
		changed := walk.Feed(keys)
		if emit != nil {
			for _, i := range changed {
				emit(walk.Children()[i], sk.total())
			}
		}
		if !page.More() {
			break
		}
		if limit > 0 {
			probe = probe.after(len(keys), limit, page.Cost.RCU)
		}
		// Dense: most keys read were new children, or a page would hold
		// several, so read on in whole pages, as a plain query would (never
		// more requests than a plain query of the rest). Sparse: one child
		// filled the probe, so jump past its subtree with another probe.
		switch {
		case limit == 0:
		case len(keys) >= 2 && len(changed)*2 >= len(keys),
			len(keys) >= 10 && childrenPerPage(keys, r.Prefix, walk.Delim, page.Cost.RCU) >= 2:
			limit = 0
		default:
			limit = probe.Keys
			// Guess only once the names are seen counting up: the
			// last two children found are consecutive (C06, C07).
			if ch := walk.Children(); parallel > 1 && len(ch) > 1 {
				last := ch[len(ch)-1].Name
				if next, ok := domain.NextName(ch[len(ch)-2].Name); ok && next == last {
					leaf := walk.Start() == domain.After(r.Prefix+last)
					sk.guess(res.Level, last, leaf, r.Prefix, walk.Delim, binary, limit)
				}
			}
		}
	}
	return finish(nil)
}

// SampleKeys bounds ChildrenResult.Sample: as many keys as time
// detection reads (DetectTimeKeys).
const SampleKeys = timeSample

// sampleKeys adds to sample the keys that start another child than the
// key before them, up to SampleKeys.
func sampleKeys(sample, keys []string, prefix, delim string) []string {
	last := ""
	if n := len(sample); n > 0 {
		last, _, _ = domain.ChildOf(prefix, sample[n-1], delim)
	}
	for _, k := range keys {
		if len(sample) >= SampleKeys {
			break
		}
		name, _, ok := domain.ChildOf(prefix, k, delim)
		if ok && len(sample) > 0 && name == last {
			continue
		}
		sample, last = append(sample, k), name
	}
	return sample
}

// pageBytes is DynamoDB's page size: a Query reads at most 1 MB.
const pageBytes = 1 << 20

// childrenPerPage estimates how many children a whole page would hold, from
// a read of keys that consumed rcu. Only children seen to end count (the
// last one read may go on), over the keys they took; none ending says
// sparse. The bytes read are at most rcu × 8 KB (an eventually consistent
// read costs 0.5 per 4 KB, rounded up), so the estimate errs towards
// sparse, where jumps cost the fewest RCU.
func childrenPerPage(keys []string, prefix, delim string, rcu float64) float64 {
	if rcu <= 0 || len(keys) == 0 {
		return 0
	}
	complete, used, last := -1, 0, ""
	for i, k := range keys {
		name, _, ok := domain.ChildOf(prefix, k, delim)
		if !ok {
			continue
		}
		if complete < 0 || name != last {
			complete, used, last = complete+1, i, name
		}
	}
	if complete <= 0 || used == 0 {
		return 0
	}
	itemsPerPage := pageBytes / (rcu * 8192 / float64(len(keys)))
	return float64(complete) / float64(used) * itemsPerPage
}

func trimPrefix(keys []string, prefix string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k[min(len(prefix), len(k)):]
	}
	return out
}

func skValue(s string, binary bool) domain.KeyValue {
	if binary {
		return domain.B([]byte(s))
	}
	return domain.S(s)
}

func skText(av types.AttributeValue) (string, bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, true
	case *types.AttributeValueMemberB:
		return string(v.Value), true
	}
	return "", false
}

// rangeFrom is the sort-key condition of a read from start to the end of
// the prefix: BETWEEN start AND the prefix's end (a key equal to that end
// is read and passed over), or >= start at the top level.
func rangeFrom(start, prefix string, binary bool) domain.SKCondition {
	if start == "" {
		return domain.SKCondition{}
	}
	var end string
	var ok bool
	if binary {
		var b []byte
		b, ok = domain.BytesEnd([]byte(prefix))
		end = string(b)
	} else {
		end, ok = domain.PrefixEnd(prefix)
	}
	if prefix == "" || !ok {
		return domain.SKCondition{Op: domain.SKGe, A: skValue(start, binary)}
	}
	return domain.SKCondition{Op: domain.SKBetween, A: skValue(start, binary), B: skValue(end, binary)}
}

// ChildKey is the full key of a child that is an item.
func ChildKey(r ChildrenRequest, c domain.Child) Item {
	key := Item{r.Key.PK.Name: AttributeValue(r.PK)}
	key[r.Key.SK.Name] = AttributeValue(skValue(r.Prefix+c.Name, r.Key.SK.Type == domain.TypeB))
	return key
}

// CountChild counts the items under a child: the item itself, if it is one,
// and its subtree, with Select COUNT pages (which read the subtree). progress,
// if not nil, sees the running count and cost after each page.
func CountChild(ctx context.Context, c Client, r ChildrenRequest, ch domain.Child, progress func(n int, cost Cost)) (int, error) {
	n := 0
	binary := r.Key.SK.Type == domain.TypeB
	level := domain.KeyQuery{Table: r.Table, Index: r.Index, PKName: r.Key.PK.Name, PK: r.PK, SKName: r.Key.SK.Name}
	var cost Cost
	if ch.IsItem {
		if r.Index == "" {
			n++
		} else {
			// An index key need not be unique: count the items holding it.
			q := level
			q.SK = domain.SKCondition{Op: domain.SKEq, A: skValue(r.Prefix+ch.Name, binary)}
			if err := countAll(ctx, c, q, &n, &cost, progress); err != nil {
				return n, err
			}
		}
	}
	if !ch.HasChildren {
		return n, nil
	}
	q := level
	q.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: skValue(ch.Prefix, binary)}
	if binary {
		end, _ := domain.BytesEnd([]byte(ch.Prefix))
		q.SK = domain.SKCondition{Op: domain.SKBetween, A: skValue(ch.Prefix, true), B: skValue(string(end), true)}
	}
	return n, countAll(ctx, c, q, &n, &cost, progress)
}

// countAll adds the items q selects to n with Select COUNT pages, read to
// the end.
func countAll(ctx context.Context, c Client, q domain.KeyQuery, n *int, cost *Cost, progress func(int, Cost)) error {
	var start Item
	for {
		page, err := CountPage(ctx, c, PageRequest{Query: q, Start: start})
		*cost = cost.Add(page.Cost)
		if err != nil {
			return err
		}
		*n += page.Count
		if progress != nil {
			progress(*n, *cost)
		}
		if !page.More() {
			return nil
		}
		start = page.LastKey
	}
}

// CountProgress is one child's running or final count, and what all the
// counts have cost so far.
type CountProgress struct {
	Child string
	N     int
	Final bool
	Cost  Cost
}

// CountChildren counts under each child, up to parallel at once (0:
// DefaultParallel), telling progress (one call at a time) after every
// page. It stops, cancelling the counts in flight, once budget RCU (0: no
// limit) are spent: over is then true, and the counts not final are
// partial. The first error stops the rest too.
func CountChildren(ctx context.Context, c Client, r ChildrenRequest, children []domain.Child, parallel int, budget float64, progress func(CountProgress)) (over bool, err error) {
	if parallel <= 0 {
		parallel = DefaultParallel
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	spent := make([]Cost, len(children))
	total := func() Cost {
		var t Cost
		for _, c := range spent {
			t = t.Add(c)
		}
		return t
	}
	stopped := false
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(parallel, len(children)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				ch := children[i]
				n, cerr := CountChild(ctx, c, r, ch, func(n int, cost Cost) {
					mu.Lock()
					defer mu.Unlock()
					spent[i] = cost
					if stopped {
						return
					}
					t := total()
					if budget > 0 && t.RCU >= budget {
						over, stopped = true, true
						cancel() // what was counted stays
					}
					progress(CountProgress{Child: ch.Name, N: n, Cost: t})
				})
				mu.Lock()
				if !stopped {
					if cerr != nil {
						err, stopped = cerr, true
						cancel()
					} else {
						progress(CountProgress{Child: ch.Name, N: n, Final: true, Cost: total()})
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range children {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	return over, err
}

// ShardChild is a child found in one or more shards of a sharded
// partition (seattle-1 … seattle-4).
type ShardChild struct {
	domain.Child
	Shards []domain.KeyValue
}

// ShardedChildren drills several shards of one logical partition at once:
// each shard is skip-scanned, and the children are merged by name, in key
// order, with the shards that hold each. r.PK is ignored.
func ShardedChildren(ctx context.Context, c Client, r ChildrenRequest, shards []domain.KeyValue, emit func(ShardChild, Cost)) ([]ShardChild, ChildrenResult, error) {
	var merged []ShardChild
	index := map[string]int{}
	var total ChildrenResult
	for _, pk := range shards {
		sr := r
		sr.PK = pk
		res, err := Children(ctx, c, sr, nil)
		total.Cost = total.Cost.Add(res.Cost)
		total.SelfItem = total.SelfItem || res.SelfItem
		if r.Delim == "" && res.Delim != "" {
			r.Delim = res.Delim // every shard is cut the same way
		}
		total.Delim, total.Level = r.Delim, res.Level
		for _, ch := range res.Children {
			i, ok := index[ch.Name]
			if !ok {
				i = len(merged)
				index[ch.Name] = i
				merged = append(merged, ShardChild{Child: ch})
			}
			m := &merged[i]
			m.IsItem = m.IsItem || ch.IsItem
			m.HasChildren = m.HasChildren || ch.HasChildren
			m.Shards = append(m.Shards, pk)
			if emit != nil {
				emit(*m, total.Cost)
			}
		}
		if err != nil {
			return sortShardChildren(merged), total, err
		}
	}
	return sortShardChildren(merged), total, nil
}

// sortShardChildren puts merged children in key order: by name, bytewise,
// as each shard lists them.
func sortShardChildren(cs []ShardChild) []ShardChild {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	return cs
}
