package dynamo

import (
	"context"
	"sort"

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
	Delim     string // "" to detect from the first keys read (unless NoDelim)
	// NoDelim splits nothing: every key under Prefix is a child of its
	// own, a leaf (Delim is "").
	NoDelim bool
	// Resume holds the children an earlier, interrupted walk found (in key
	// order, Delim set): the walk goes on after the last of them.
	Resume []domain.Child
	// Parallel bounds the reads in flight (0: DefaultParallel; 1: one
	// after another).
	Parallel int
	// Probe is the walk of a reader that samples a level rather than
	// lists it (the time prefixes), and the walk before issue 37 for
	// measuring against: a first probe of one read unit, and a probe a
	// child, where the walk would read a first page first and a dense
	// level's rest in plain pages in parallel stretches (fewtrips.go).
	Probe bool
	// TableDelim is the table's (or index's) delimiter as the caller
	// knows it (configuration, other partitions read): the level's, when
	// its own keys tell none (tabledelim.go).
	TableDelim string
	// Flat says the level's first keys, read one level up (Child.Flat),
	// were items with nothing below them: a leaf level, read in plain
	// pages from its first read, as a plain query would (no probe first).
	Flat bool
	// ItemBytes is the table's average item size as DescribeTable gives
	// it (0: unknown): the level's first read is a first page of as many
	// whole items as fit firstReadUnits read units at that size (up to
	// maxFirstKeys), so a leaf of up to that many items opened directly is
	// one Query, the plain query's, and a dense level's first read sees
	// its first child end (fewtrips.go). Unknown, it reads firstProbeKeys,
	// and a level it leaves unweighed is weighed by the second read.
	ItemBytes int64
	// TableItems is the table's item count as DescribeTable gives it (0:
	// unknown), which no level of it (or of its indexes) holds more of:
	// where the whole table weighs no more than the first read would
	// (ItemBytes), the first read asks for every item it holds
	// (fewItemsKeys), so a level ends within it.
	TableItems int64
	// LevelItems is how many items the caller counted under Prefix (the
	// explorer's count of the child it opens: its own item and its
	// subtree; 0: unknown), which the level holds no more of. Like
	// TableItems, where they weigh no more than the first read would, the
	// first read asks for them all: a level of many one-item children in
	// a large table is one Query, the full read, where a first read cut
	// at maxFirstKeys took a second round trip.
	LevelItems int64
	// HoldKeys, where more than 0, has the walk keep the sort keys it
	// reads, up to that many bytes of them (none past it): a child read
	// whole is then told from them (ChildrenResult.Held, held.go).
	HoldKeys int
	// holdResumed holds the keys of a walk that Resumes too (those it
	// reads past the children resumed): a count that a walk went on from
	// counts what the walk read, not reads it again (CountListing).
	holdResumed bool
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
	// Guessed reads went out ahead of the walk; Wasted reads found no
	// child: guesses the walk did not use, a cut level's stretch ends
	// (the read that runs into the next stretch) and the level's end (the
	// read that finds nothing past the last child, or the read of the
	// last key that spares it). Their cost is in Cost.
	Guessed, Wasted int
	// NoDelim: the keys are not split, as asked, or because no delimiter
	// repeats in the first keys read. Delim "" without it: no key was
	// read to tell (an empty level).
	NoDelim bool
	// Held are the keys the walk read, where HoldKeys asked for them and
	// the walk ended without error (nil past the bound).
	Held *HeldKeys
}

const (
	// firstProbeKeys is the first read of a level: few enough keys that
	// items of up to ~400 bytes fit one 4 KB read unit (0.5 RCU), and
	// enough to tell a dense level (most keys new children) at once.
	firstProbeKeys = 10
	// firstPageKeys is the first read of a level below the top whose
	// items' size is not known: a first page, like a list's first screen,
	// of ~10 read units of 320-byte items (a leaf of up to 127 such items
	// is one Query).
	firstPageKeys = 128
	// DefaultParallel is how many reads a skip-scan has in flight at most.
	DefaultParallel = 8
)

// Children finds the children of a prefix without reading the subtree
// below each one: after a child is seen, the next read starts past its
// whole subtree (a skip-scan), one small keys-only Query per child, each
// sized to one read unit from the items the first read returns whole (it
// costs what keys alone would). Where children are
// small (a read unit holds a whole child or more), it reads plain pages
// instead, which is cheaper per child and takes far fewer requests. Where
// sibling names count up (C00, C01, …), the reads past the next few
// guessed names go out at once (r.Parallel), and the walk uses an answer
// only when it is the very read it would have made. Where they do not
// (airport codes, states), the rest of the level is cut by the names'
// leading character and each stretch is walked at once (childwalk.go), so
// the level takes about as many round trips as its most crowded letter.
// Either way the children are exactly those of one read after another.
// emit, if not nil, sees each child as it is found or updated, in key
// order, with the cost so far.
func Children(ctx context.Context, c Client, r ChildrenRequest, emit func(domain.Child, Cost)) (ChildrenResult, error) {
	if r.Key.SK == nil {
		return ChildrenResult{}, Errorf("children", KindValidation, "open the partition's item instead", "table %s has no sort key, so no hierarchy", r.Table)
	}
	if r.Key.SK.Type == domain.TypeN {
		return ChildrenResult{}, Errorf("children", KindValidation, "number sort keys are listed as items; use `items` or the Items view",
			"sort key %s is a number, which has no hierarchy", domain.NameText(r.Key.SK.Name))
	}
	binary := r.Key.SK.Type == domain.TypeB
	res := ChildrenResult{Delim: r.Delim}
	res.Level = domain.KeyQuery{Table: r.Table, Index: r.Index, PKName: r.Key.PK.Name, PK: r.PK, SKName: r.Key.SK.Name}
	if r.Prefix != "" {
		res.Level.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: skValue(r.Prefix, binary)}
	}
	walk := domain.NewChildWalk(r.Prefix, r.Delim)
	if len(r.Resume) > 0 && (r.Delim != "" || r.NoDelim) {
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
	lv := newLevelWalk(ctx, c, r, res.Level, binary, parallel)
	if r.HoldKeys > 0 && (len(r.Resume) == 0 || r.holdResumed) {
		lv.hold = &keyHold{max: r.HoldKeys, index: r.TableKeys != nil}
	}
	limit := r.probeKeys()
	if r.Flat {
		limit = 0
	}
	first := lv.walker(walk, "", probeSizing{}, limit)
	first.from, first.first = walk.Start(), true
	first.detect = r.Delim == "" && !r.NoDelim
	var emitFirst func(domain.Child)
	if emit != nil {
		emitFirst = func(ch domain.Child) { emit(ch, lv.total()) }
	}
	err := first.run(emitFirst)
	res.Delim = first.walk.Delim
	res.NoDelim = res.Delim == "" && !first.detect // asked, or detected none
	// The stretches cut off the first walk, in key order: each is told
	// once it is done, so emit still sees the children in key order.
	var errs []error
	if err != nil {
		errs = append(errs, err)
		lv.cancel()
	}
	res.Children = append(res.Children, first.walk.Children()...)
	res.SelfItem = first.walk.SelfItem
	res.Sample = first.sample
	var gather func(ws []*walker)
	gather = func(ws []*walker) {
		for _, w := range ws {
			<-w.done
			if w.err != nil && len(errs) == 0 {
				errs = append(errs, w.err)
				lv.cancel()
			}
			for _, ch := range w.walk.Children() {
				res.Children = append(res.Children, ch)
				if emit != nil && len(errs) == 0 {
					emit(ch, lv.total())
				}
			}
			res.Sample = sampleKeys(res.Sample, w.sample, r.Prefix, res.Delim)
			gather(w.subs)
		}
	}
	gather(first.subs)
	lv.finish(len(errs) > 0)
	res.Cost, res.Guessed, res.Wasted = lv.total(), lv.guessed, lv.wasted
	if len(errs) > 0 {
		return res, errs[0]
	}
	if err := takeTableDelimiter(ctx, c, r, &res); err != nil {
		return res, err
	}
	if !res.NoDelim || r.holdResumed {
		res.Held = lv.hold.held(r.Prefix, res.Delim, r.holdResumed)
	}
	return res, nil
}

// probeKeys is the level's first read's Limit. A level below the top
// (children --prefix, a leaf as often as not) is read a first page, as a
// list's first screen is: as many items of the table's average size as
// firstReadUnits read units hold, and one more (a leaf that fits them ends
// within the read: a read that stops at its Limit says there may be
// more), or firstPageKeys where the size is not known (DescribeTable's
// figures lag by hours, and dynalite gives none). A partition's top level,
// rarely a leaf, is read so where the size is known too: that first read
// is the weighing read (fewtrips.go), so a dense level is read in
// stretches from the second round trip (the demo's USA in two, where
// probing first and weighing second took three). Where the size is not
// known it is probed with firstProbeKeys: a first page of 128 items of
// unknown size cost a level of 2 KB items 37 RCU where the walk spends
// 9.5 (and 12 children of 150 items of 2.5 KB 46 where it spends 12.5,
// bench-latency), and the read that weighs its children is the second.
// Items larger than a read unit are read as many as firstReadUnits read
// units hold, two at least (heavyFirstKeys), wherever the level.
//
// A level known to weigh no more than that first read (fewItemsKeys) is
// asked for whole, never for fewer keys than the first read would ask
// for: a count that fell behind the level costs no more than not knowing
// it.
func (r ChildrenRequest) probeKeys() int32 {
	n := r.firstReadKeys()
	if all, few := r.fewItemsKeys(); few {
		return max(all, n)
	}
	return n
}

// firstReadKeys is the level's first read's Limit where nothing bounds
// its items (probeKeys).
func (r ChildrenRequest) firstReadKeys() int32 {
	if n, heavy := heavyFirstKeys(int(r.ItemBytes)); heavy {
		return n
	}
	switch {
	case r.Probe && r.ItemBytes > 0:
		return int32(min(max(readUnitBytes/r.ItemBytes, firstProbeKeys), maxProbeKeys))
	case r.Probe || (r.Prefix == "" && r.ItemBytes <= 0):
		return firstProbeKeys
	case r.Prefix == "":
		return weighingKeys(int(r.ItemBytes))
	case r.ItemBytes > 0:
		return int32(min(max(firstReadUnits*readUnitBytes/r.ItemBytes+1, firstProbeKeys), maxFirstKeys))
	}
	return firstPageKeys
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
	if !binary && domain.TimeGoesOn(r.Prefix, ch.Name, r.Delim) {
		// Keys under its prefix that go on with the time are other
		// children's (2023-11-01T00:15:00Z under 2023-11-01T00:): its own
		// are told by their keys, which cost what counting them does.
		return n, countOwn(ctx, c, r, ch, q, &n, &cost, progress)
	}
	if binary {
		end, _ := domain.BytesEnd([]byte(ch.Prefix))
		q.SK = domain.SKCondition{Op: domain.SKBetween, A: skValue(ch.Prefix, true), B: skValue(string(end), true)}
	}
	return n, countAll(ctx, c, q, &n, &cost, progress)
}

// countOwn adds to n the keys q selects that are ch's own, read a keys-only
// page at a time to the end.
func countOwn(ctx context.Context, c Client, r ChildrenRequest, ch domain.Child, q domain.KeyQuery, n *int, cost *Cost, progress func(int, Cost)) error {
	var start Item
	for {
		page, err := QueryPage(ctx, c, PageRequest{Query: q, Start: start, KeysOnly: true, TableKeys: r.TableKeys})
		*cost = cost.Add(page.Cost)
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			if k, ok := skText(it[r.Key.SK.Name]); ok {
				if name, _, ok := domain.ChildOf(r.Prefix, k, r.Delim); ok && name == ch.Name {
					*n++
				}
			}
		}
		if progress != nil {
			progress(*n, *cost)
		}
		if !page.More() {
			return nil
		}
		start = page.LastKey
	}
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
		if r.Delim == "" && !r.NoDelim && res.Delim != "" {
			// Every shard is cut the same way: the first that tells a
			// delimiter tells the others'. One that tells none (a shard
			// of one key) decides nothing for the rest.
			r.Delim = res.Delim
		}
		if r.Delim != "" {
			total.Delim, total.NoDelim = r.Delim, false
		} else {
			total.Delim, total.NoDelim = res.Delim, res.NoDelim
		}
		total.Level = res.Level
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
			return sortShardChildren(merged, total.Delim), total, err
		}
	}
	return sortShardChildren(merged, total.Delim), total, nil
}

// sortShardChildren puts merged children in key order, as each shard
// lists them (childFirstKey).
func sortShardChildren(cs []ShardChild, delim string) []ShardChild {
	sort.SliceStable(cs, func(i, j int) bool { return childFirstKey(cs[i].Child, delim) < childFirstKey(cs[j].Child, delim) })
	return cs
}

// childFirstKey is where a child's keys begin under the level's prefix, bytewise
// as DynamoDB orders them: its name where a key ends there, else its name
// and the delimiter. By name alone a, a b and a! would be listed in that
// order, where their keys are a b#…, a!#…, a#… (space and ! sort before
// #): the walk lists them in key order, and so must whatever merges them.
func childFirstKey(c domain.Child, delim string) string {
	if c.IsItem || delim == "" {
		return c.Name
	}
	return c.Name + delim
}
