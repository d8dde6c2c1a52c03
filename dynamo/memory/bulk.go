package memory

import (
	"context"
	"slices"
	"strings"

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
	norm := make([]map[string]types.AttributeValue, len(items))
	for i, it := range items {
		if err := t.checkPut(it); err != nil {
			return i, err
		}
		norm[i] = normalizeItem(it)
	}
	var enc encoder
	recs := make([]record, len(norm))
	touched := map[*partition]int{} // a partition's length before this call
	for i, it := range norm {
		recs[i] = enc.encode(it)
		p := t.base.partition(it[t.pk], true)
		if _, ok := touched[p]; !ok {
			touched[p] = len(p.entries)
		}
		p.entries = append(p.entries, entry{sk: recs[i].within(t.skOf(it)), rec: recs[i]})
		t.size += int64(itemSize(it))
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
			if p, sk, tie, ok := ix.position(t, it); ok {
				if _, ok := touched[p]; !ok {
					touched[p] = len(p.entries)
				}
				p.entries = append(p.entries, entry{sk: sk, tie: tie, rec: ix.project(t, it, recs[i])})
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
// new entries are sorted, so loading a large partition in many batches
// costs a merge per batch, not a sort of the whole partition.
func settle(p *partition, from int) []record {
	e := p.entries
	old, added := e[:from:from], e[from:]
	if !slices.IsSortedFunc(added, byKey) {
		slices.SortStableFunc(added, byKey)
	}
	if len(old) > 0 && len(added) > 0 && byKey(old[len(old)-1], added[0]) >= 0 {
		// Merge from the back, in place: only the new entries are copied out.
		tail := slices.Clone(added)
		i, j := len(old)-1, len(tail)-1
		for k := len(e) - 1; j >= 0; k-- {
			if i >= 0 && byKey(old[i], tail[j]) > 0 {
				e[k] = old[i]
				i--
			} else {
				e[k] = tail[j] // an equal key: the new one after, so it is kept
				j--
			}
		}
	}
	var dropped []record
	out := e[:0]
	for i := range e {
		if i+1 < len(e) && e[i+1].sk == e[i].sk && e[i+1].tie == e[i].tie {
			dropped = append(dropped, e[i].rec)
			continue
		}
		out = append(out, e[i])
	}
	clear(e[len(out):])
	p.entries = out
	return dropped
}

// byKey orders entries as partition.search does. strings.Compare orders as
// compareBytes does (bytewise) without converting each key to a byte slice
// per comparison.
func byKey(a, b entry) int {
	if c := strings.Compare(a.sk, b.sk); c != 0 {
		return c
	}
	return strings.Compare(a.tie, b.tie)
}
