package dynamo

import "github.com/dynascope/dynascope/internal/domain"

// Rows are results already read, as the command line and the explorer's
// export write them: each row marshals to one JSON object (a CSV row, a
// JSON line). First names the columns that lead a CSV; the others follow
// in name order.
type Rows struct {
	Noun  string // what a row is, for "wrote 12 children"
	First []string
	Rows  []any
}

// ChildRow is one child of a level: a row of `children` and of the tree's
// export.
type ChildRow struct {
	Name        string   `json:"name"`
	Prefix      string   `json:"prefix"`
	HasChildren bool     `json:"hasChildren"`
	IsItem      bool     `json:"isItem"`
	Self        bool     `json:"self,omitempty"`      // the item whose key is the prefix itself (PROFILE#)
	Count       *int     `json:"count,omitempty"`     // items under it, once counted
	Uncounted   bool     `json:"uncounted,omitempty"` // a count stopped at its budget before it
	Shards      []string `json:"shards,omitempty"`    // the shards that hold it, when sharded
}

// ChildRows are children as rows; counts, if not nil, gives a child's
// count when it is known. Names and prefixes of a binary sort key (sk B)
// are written as domain.KeyText shows them (b64:…), never as raw bytes.
func ChildRows(children []ShardChild, sk domain.KeyType, counts func(name string) (int, bool)) Rows {
	rows := make([]any, len(children))
	for i, c := range children {
		r := ChildRow{Name: domain.KeyText(sk, c.Name), Prefix: domain.KeyText(sk, c.Prefix), HasChildren: c.HasChildren, IsItem: c.IsItem}
		if n, ok := countOf(counts, c.Name); ok {
			r.Count = &n
		}
		for _, s := range c.Shards {
			r.Shards = append(r.Shards, s.Arg())
		}
		rows[i] = r
	}
	return Rows{Noun: "children", First: []string{"name", "prefix", "hasChildren", "isItem", "count", "shards"}, Rows: rows}
}

func countOf(counts func(string) (int, bool), name string) (int, bool) {
	if counts == nil {
		return 0, false
	}
	return counts(name)
}

// HistoryRow is one versioned item of a partition: a row of the versions
// list.
type HistoryRow struct {
	Name      string   `json:"name"`
	Form      string   `json:"form"`
	Current   *string  `json:"current"` // the current copy's sort key; null when missing
	Latest    *int     `json:"latest"`  // the newest revision's number; null when none
	Revisions int      `json:"revisions"`
	Drift     []string `json:"drift"` // [] when all is well
}

// HistoryRows are a partition's versioned items as rows.
func HistoryRows(hs []domain.History) Rows {
	rows := make([]any, len(hs))
	for i, h := range hs {
		r := HistoryRow{Name: h.Name, Form: h.FormName(), Revisions: len(h.Revisions), Drift: append([]string{}, h.Drift...)}
		if h.Current != nil {
			k := h.Current.Key
			r.Current = &k
		}
		if l := h.Latest(); l != nil {
			n := l.Num
			r.Latest = &n
		}
		rows[i] = r
	}
	return Rows{Noun: "versioned items", First: []string{"name", "form", "current", "latest", "revisions", "drift"}, Rows: rows}
}

// RevisionRows are one item's revisions as items, the current copy first,
// keys leading a CSV.
func RevisionRows(h domain.History, key KeySchema) Rows {
	var rows []any
	if h.Current != nil {
		rows = append(rows, h.Current.Item)
	}
	for _, r := range h.Revisions {
		rows = append(rows, r.Item)
	}
	first := []string{key.PK.Name}
	if key.SK != nil {
		first = append(first, key.SK.Name)
	}
	return Rows{Noun: "revisions", First: first, Rows: rows}
}
