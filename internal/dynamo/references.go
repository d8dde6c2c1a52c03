package dynamo

import (
	"context"
	"sort"

	"github.com/dynascope/dynascope/internal/domain"
)

// Reference is a partition an item's attribute may name: the value of
// Attr as a partition key of the table (Index "") or of an index keyed by
// an attribute of that name.
type Reference struct {
	Attr  string
	Index string
	PK    domain.KeyValue
}

// maxReferences bounds the partitions one look may check: each costs a
// one-key read.
const maxReferences = 12

// ReferenceCandidates are the partitions item's attributes may name: each
// attribute that is an index's partition key, as a partition of that
// index; each other string or number attribute whose type fits the
// table's partition key, as a partition of the table. The item's own key
// attributes name where it already is, so they are left out.
func ReferenceCandidates(info TableInfo, item Item) []Reference {
	own := map[string]bool{info.Key.PK.Name: true}
	if info.Key.SK != nil {
		own[info.Key.SK.Name] = true
	}
	var out []Reference
	indexed := map[string]bool{}
	for _, ix := range info.Indexes {
		if own[ix.Key.PK.Name] {
			continue // an LSI: the item's own partition
		}
		if v, ok := KeyValueOf(item[ix.Key.PK.Name]); ok && v.Type == ix.Key.PK.Type {
			out = append(out, Reference{Attr: ix.Key.PK.Name, Index: ix.Name, PK: v})
			indexed[ix.Key.PK.Name] = true
		}
	}
	names := SortedNames(item)
	for _, name := range names {
		if own[name] || indexed[name] {
			continue
		}
		if v, ok := KeyValueOf(item[name]); ok && v.Type == info.Key.PK.Type && v.Type != domain.TypeB {
			out = append(out, Reference{Attr: name, PK: v})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Index != "" && out[j].Index == "" })
	if len(out) > maxReferences {
		out = out[:maxReferences]
	}
	return out
}

// FindReferences reads one key of each candidate partition and returns
// those that hold items, with what the look cost. A failed read stops
// the look: found so far is returned with the error.
func FindReferences(ctx context.Context, c Client, info TableInfo, candidates []Reference) ([]Reference, Cost, error) {
	var found []Reference
	var cost Cost
	for _, r := range candidates {
		key, err := info.KeyFor(r.Index)
		if err != nil {
			continue
		}
		q := domain.KeyQuery{Table: info.Name, Index: r.Index, PKName: key.PK.Name, PK: r.PK}
		if key.SK != nil {
			q.SKName = key.SK.Name
		}
		var tableKeys *KeySchema
		if r.Index != "" {
			tableKeys = &info.Key
		}
		page, err := QueryPage(ctx, c, PageRequest{Query: q, Limit: 1, KeysOnly: true, TableKeys: tableKeys})
		cost = cost.Add(page.Cost)
		if err != nil {
			return found, cost, err
		}
		if len(page.Items) > 0 {
			found = append(found, r)
		}
	}
	return found, cost, nil
}
