package dynamo

import (
	"errors"

	"github.com/dynascope/dynascope/internal/domain"
)

// FilterPlan is how FilterSearch reads a filter.
type FilterPlan struct {
	// Plan is the filter's Queries, nil where it is read by a Scan.
	Plan    *domain.Plan
	Request SearchRequest
	// WhyScan says why a Scan reads a filter that pins the partition key.
	WhyScan string
	// NoMatch says the OR branches of the filter that match no item
	// (domain.NoMatch), left out of the plan, in the filter's words.
	NoMatch string
}

// FilterSearch is the search of table info (or its index) through
// filter, under budget (0: none), planned as a statement whose WHERE is
// the filter (StatementSearch, domain.Statement.Plan): where
// the filter pins the partition key by equality (or IN, or an OR of
// equalities) the search reads those partitions by Query, a sort-key
// condition a Query can say as its key condition and the rest as its
// filter (the whole filter, applied here, where it names a key as no key
// condition can: SK <> "x"). Otherwise it is a Scan of the whole table
// through the whole filter, in as many segments as the table's size
// calls for, and the plan is nil. So too where the filter pins the
// partition key but the planner refuses a Query (a condition on a key
// no key condition can say): WhyScan then says why
// (domain.Statement.WhyScan), for the explorer's f and scan to say
// rather than turn a partition's read into a table's without a word.
// A filter that matches no item for pinning the partition key to what no
// key is (PK = 81 on a string key, PK = "") is refused before any
// request (a *domain.NoMatchError, said in the filter's words by
// Say(false)); an OR branch of one is left out, and said (NoMatch).
func FilterSearch(info TableInfo, index string, filter domain.FilterNode, budget float64, origin string) (FilterPlan, error) {
	scan := SearchRequest{Table: info.Name, Index: index, Filter: filter, Segments: SearchSegments(info.SizeBytes),
		MaxRCU: budget, Origin: origin, TableBytes: info.SizeBytes}
	if filter == nil {
		return FilterPlan{Request: scan}, nil
	}
	if said := info.NotFetchedSaid(index, domain.FilterPaths(filter)); said != "" {
		return FilterPlan{}, &NotFetchedError{Said: said}
	}
	st := domain.Statement{Table: info.Name, Index: index, Where: filter}
	p, r, err := StatementSearch(info, st, budget)
	var none *domain.NoMatchError
	if errors.As(err, &none) {
		return FilterPlan{}, none
	}
	voice := domain.CommandLine
	if origin == "explorer" {
		voice = domain.Explorer
	}
	if err != nil || len(p.Queries) == 0 {
		return FilterPlan{Request: scan, WhyScan: whyScanned(info, st), NoMatch: p.SayNoMatch(false, voice)}, nil
	}
	r.Origin = origin
	return FilterPlan{Plan: &p, Request: r, NoMatch: p.SayNoMatch(false, voice)}, nil
}

// whyScanned is domain.Statement.WhyScan on the keys of st's table or
// index.
func whyScanned(info TableInfo, st domain.Statement) string {
	key, err := info.KeyFor(st.Index)
	if err != nil {
		return ""
	}
	var sk *domain.KeyDef
	if key.SK != nil {
		sk = &domain.KeyDef{Name: key.SK.Name, Type: key.SK.Type}
	}
	return st.WhyScan(domain.KeyDef{Name: key.PK.Name, Type: key.PK.Type}, sk)
}

// FilterQueriesFingerprint is the fingerprint of FilterSearch's Query
// plan of filter on table (or its index) in n Queries, as origin reads
// it: known before the table's keys are, so that a resume token of that
// plan is told from one of the filter's Scan before any request.
func FilterQueriesFingerprint(table, index string, filter domain.FilterNode, origin string, n int) string {
	st := domain.Statement{Table: table, Index: index, Where: filter}
	return SearchRequest{Origin: origin, Statement: st.Canonical(), Segments: n}.Fingerprint()
}
