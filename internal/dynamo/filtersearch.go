package dynamo

import "github.com/dynascope/dynascope/internal/domain"

// FilterSearch is the search of table info (or its index) through
// filter, under budget (0: none), planned as a statement whose WHERE is
// the filter (StatementSearch, domain.Statement.Plan): where
// the filter pins the partition key by equality (or IN, or an OR of
// equalities) the search reads those partitions by Query, a sort-key
// condition a Query can say as its key condition and the rest as its
// filter (the whole filter, applied here, where it names a key as no key
// condition can: SK <> "x"); the plan is returned. Otherwise it is a Scan of the whole table
// through the whole filter, in as many segments as the table's size
// calls for, and the plan is nil: so too where the statement's planner
// refuses the pinned key (a value of another type than the key's, an
// empty string), which no item matches and the Scan finds so.
func FilterSearch(info TableInfo, index string, filter domain.FilterNode, budget float64, origin string) (*domain.Plan, SearchRequest) {
	scan := SearchRequest{Table: info.Name, Index: index, Filter: filter, Segments: SearchSegments(info.SizeBytes),
		MaxRCU: budget, Origin: origin, TableBytes: info.SizeBytes}
	if filter == nil {
		return nil, scan
	}
	plan, r, err := StatementSearch(info, domain.Statement{Table: info.Name, Index: index, Where: filter}, budget)
	if err != nil || len(plan.Queries) == 0 {
		return nil, scan
	}
	r.Origin = origin
	return &plan, r
}
