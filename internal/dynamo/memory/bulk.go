package memory

import (
	"context"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// putItems stores many items in one table, as that many PutItems would,
// under one lock: the bulk path of loading data files. Items are checked
// first, as PutItem checks them; the first rejected item is returned by
// position with the error and nothing is stored. Otherwise new entries are
// appended and each touched partition sorted once, so loading items in any
// order costs n log n rather than an insertion into the middle of a sorted
// partition per item. A later item replaces an earlier one with its key.
func (db *DB) putItems(ctx context.Context, tableName string, items []map[string]types.AttributeValue) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	t, err := db.table(tableName)
	if err != nil {
		return 0, err
	}
	pr, at, err := t.prepare(items)
	if err != nil {
		return at, err
	}
	norm, recs, ties := pr.norm, pr.recs, pr.ties
	var enc encoder
	touched := map[*partition]int{} // a partition's length before this call
	for i, it := range norm {
		p := t.base.partition(it[t.pk], true)
		if _, ok := touched[p]; !ok {
			touched[p] = len(p.entries)
		}
		p.entries = append(p.entries, entry{sk: pr.sks[i], rec: recs[i]})
		t.size += pr.sizes[i]
	}
	var replaced []map[string]types.AttributeValue
	for p, from := range touched {
		for _, rec := range settle(p, from) {
			old := rec.item()
			replaced = append(replaced, old)
			t.size -= int64(itemSize(old))
		}
	}
	for _, ix := range t.indexes {
		touched := map[*partition]int{}
		for i, it := range norm {
			if p, sk, tie, ok := ix.positionTie(t, it, &ties[i]); ok {
				if _, ok := touched[p]; !ok {
					touched[p] = len(p.entries)
				}
				p.entries = append(p.entries, entry{sk: sk, tie: tie, rec: ix.projectWith(&enc, t, it, recs[i])})
			}
		}
		for p, from := range touched {
			settle(p, from)
		}
		// A replaced item whose index key changed still has its old entry.
		for _, old := range replaced {
			op, osk, tie, ok := ix.position(t, old)
			if !ok {
				continue
			}
			if np, nsk, _, ok := ix.position(t, t.current(old)); ok && np == op && nsk == osk {
				continue // the same entry, already replaced
			}
			op.remove(osk, tie)
		}
	}
	db.counted(tableName, len(items)-len(replaced))
	return len(items), nil
}

// prepared is what storing each item of a batch needs that depends on the
// item alone: worked out before anything is stored, in parallel.
type prepared struct {
	norm  []map[string]types.AttributeValue // numbers in DynamoDB's form
	recs  []record
	sks   []string // the sort key's encoding, within the record
	sizes []int64
	ties  []string // the index tie, when the table has indexes
}

// prepareChunk is how many items one goroutine of prepare takes at least:
// below it a batch is prepared on the caller's goroutine.
const prepareChunk = 512

// prepare checks, normalizes and encodes items, spread over the cores for
// a large batch (under the database's lock, which only reads of the table
// share: checkPut and the encodings read the schema and the items alone).
// It returns the first item rejected, by position, as putItems does.
func (t *table) prepare(items []map[string]types.AttributeValue) (*prepared, int, error) {
	n := len(items)
	pr := &prepared{norm: make([]map[string]types.AttributeValue, n), recs: make([]record, n), sks: make([]string, n), sizes: make([]int64, n)}
	if len(t.indexes) > 0 {
		pr.ties = make([]string, n)
	}
	errs := make([]error, n)
	work := func(lo, hi int) {
		// The records of a run of items are encoded into one buffer and
		// cut from one string: one allocation, at the bytes' size, instead
		// of one per record rounded up to its size class. (A record kept
		// keeps its run's string alive: fine for loading, where records
		// are rarely replaced.)
		var enc encoder
		var buf []byte
		ends := make([]int, hi-lo)
		for i := lo; i < hi; i++ {
			if errs[i] = t.checkPut(items[i]); errs[i] != nil {
				return // later items are not needed: the batch is refused
			}
			it := normalizeItem(items[i])
			pr.norm[i] = it
			buf = enc.appendMap(buf, it)
			if i == lo { // room for the run, guessed from its first record
				buf = slices.Grow(buf, len(buf)*(hi-lo-1)*9/8)
			}
			ends[i-lo] = len(buf)
			pr.sizes[i] = int64(itemSize(it))
			if pr.ties != nil {
				pr.ties[i] = t.tie(it)
			}
		}
		all, start := string(buf), 0
		for i := lo; i < hi; i++ {
			pr.recs[i] = record(all[start:ends[i-lo]])
			pr.sks[i] = pr.recs[i].within(t.skOf(pr.norm[i]))
			start = ends[i-lo]
		}
	}
	workers := min(runtime.GOMAXPROCS(0), n/prepareChunk)
	if workers <= 1 {
		work(0, n)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() { work(w*n/workers, (w+1)*n/workers) })
		}
		wg.Wait()
	}
	for i, err := range errs {
		if err != nil {
			return nil, i, err
		}
	}
	return pr, 0, nil
}

// checkPut is what put checks of an item before storing it.
func (t *table) checkPut(item map[string]types.AttributeValue) error {
	if err := t.checkKeyAttrs(item); err != nil {
		return err
	}
	for _, ix := range t.indexes {
		for _, k := range []string{ix.pk, ix.sk} {
			if v, ok := item[k]; k != "" && ok && typeName(v) != string(t.types[k]) {
				return validation("One or more parameter values were invalid: Type mismatch for Index Key " + k + " Expected: " + string(t.types[k]) + " Actual: " + typeName(v) + " IndexName: " + ix.name)
			}
		}
	}
	return nil
}

func (t *table) skOf(item map[string]types.AttributeValue) string {
	if t.sk == "" {
		return ""
	}
	sk, _ := sortKey(item[t.sk])
	return sk
}

// current is the stored item with item's key.
func (t *table) current(item map[string]types.AttributeValue) map[string]types.AttributeValue {
	p := t.base.partition(item[t.pk], false)
	sk := t.skOf(item)
	if i := p.search(sk, ""); i < len(p.entries) && p.entries[i].sk == sk {
		return p.entries[i].item()
	}
	return nil
}

// settle sorts the entries appended to a partition from position from on
// (those before it are sorted already) and merges them in, keeping the last
// of entries with the same key; it returns the records it dropped. Only the
// new entries are sorted, and each finds its place among the old ones by a
// binary search, so loading a large partition in many batches costs k log n
// comparisons and one move of the old entries per batch of k, not a pass
// comparing every entry of the partition.
func settle(p *partition, from int) []record {
	e := p.entries
	if !slices.IsSortedFunc(e[from:], byKey) {
		sortStable(e[from:])
	}
	// The last of new entries with the same key is kept (sorted stably, it
	// is the last in the run).
	var dropped []record
	w := from
	for i := from; i < len(e); i++ {
		if i+1 < len(e) && sameKey(e[i+1], e[i]) {
			dropped = append(dropped, e[i].rec)
			continue
		}
		e[w] = e[i]
		w++
	}
	clear(e[w:])
	e = e[:w]
	old, added := e[:from], e[from:]
	if len(old) == 0 || len(added) == 0 || byKey(old[len(old)-1], added[0]) < 0 {
		p.entries = e // all after the old ones: in place already
		return dropped
	}
	// Each new entry replaces the old one with its key, or is inserted
	// before the old entry at[j]. The searches narrow as the new entries
	// are in order.
	var tail []entry
	var at []int
	lo := 0
	for _, a := range added {
		i := lo + sort.Search(len(old)-lo, func(i int) bool { return byKey(old[lo+i], a) >= 0 })
		if i < len(old) && sameKey(old[i], a) {
			dropped = append(dropped, old[i].rec)
			old[i] = a
		} else {
			tail = append(tail, a)
			at = append(at, i)
		}
		lo = i
	}
	// Move the old entries right, from the back, each run once, and put
	// the inserted entries in the gaps.
	total := len(old) + len(tail)
	clear(e[total:])
	e = e[:total]
	k, end := total, len(old)
	for j := len(tail) - 1; j >= 0; j-- {
		k -= end - at[j]
		copy(e[k:], old[at[j]:end])
		k--
		e[k] = tail[j]
		end = at[j]
	}
	p.entries = e
	return dropped
}

// sortStable sorts entries by key, equal keys in their order: as
// slices.SortStableFunc does, but by pdqsort of their positions (the
// position breaking ties), which costs n log n comparisons where the
// stable merge costs about n log² n and moves entries at every level.
func sortStable(es []entry) {
	pos := make([]int32, len(es))
	for i := range pos {
		pos[i] = int32(i)
	}
	slices.SortFunc(pos, func(a, b int32) int {
		if c := byKey(es[a], es[b]); c != 0 {
			return c
		}
		return int(a - b)
	})
	sorted := make([]entry, len(es))
	for i, p := range pos {
		sorted[i] = es[p]
	}
	copy(es, sorted)
}

func sameKey(a, b entry) bool { return a.sk == b.sk && a.tie == b.tie }

// byKey orders entries as partition.search does. strings.Compare orders as
// compareBytes does (bytewise) without converting each key to a byte slice
// per comparison.
func byKey(a, b entry) int {
	if c := strings.Compare(a.sk, b.sk); c != 0 {
		return c
	}
	return strings.Compare(a.tie, b.tie)
}
