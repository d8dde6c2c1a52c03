package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

type partiqlFlags struct {
	commandIO
	statement, output, resume string
	explain                   bool
	segments                  int
	maxRCU                    float64
}

func newPartiQLCmd(ctx context.Context, g *globals) *cobra.Command {
	var f partiqlFlags
	cmd := &cobra.Command{
		Use:   "partiql 'SELECT …'",
		Short: "Run a PartiQL SELECT as the Query or Scan it stands for, within a budget",
		Long: `partiql reads a PartiQL SELECT statement and translates it into the Query or
Scan it stands for, which it runs through the same read-only calls as every
other command: never ExecuteStatement, so it works on DynamoDB, dynalite,
moto, the demo and --data alike.

A WHERE that pins the partition key by equality makes a Query (IN on the
key, or an OR of equalities: one Query a value, read one after another),
its sort-key condition the Query's (IN on the sort key too: one Query a
key, each reading its item, 100 at most; a value of another type than
the key's matches no item: left out, and said); so does a WHERE whose every OR branch
pins it, each with conditions of its own (PK = 'a' OR (PK = 'b' AND
x = 1): one Query a value, each filtered by the whole WHERE, applied here
to the items read whole, a value one branch alone pins read within that
branch's sort-key condition: (PK = 'a' AND SK = 'x') OR PK = 'b' reads
SK = 'x' of a, all of b); so too a condition on a key that no key
condition can say, such as SK <> 'x' (a Query's filter may not name its
keys): the pinned partitions' Queries, the WHERE applied here. Anything
else makes a Scan, with WHERE as its filter.
Supported: SELECT * or a list of
attributes (nested paths too), FROM "Table" or "Table"."Index", WHERE with
= <> != < <= > >= BETWEEN IN (NOT BETWEEN, NOT IN), begins_with, contains, attribute_exists,
attribute_not_exists, attribute_type, size, IS [NOT] MISSING, IS [NOT]
NULL (the NULL type: an absent attribute IS NOT NULL), AND, OR, NOT,
and ORDER BY the keys of a Query (the sort key, ASC or DESC; with
several partition keys the partition key first: ORDER BY PK, SK DESC,
since they are read one after another). Strings go in
single quotes, names in double quotes. Anything but one SELECT (INSERT,
UPDATE, DELETE, EXISTS, several statements) is refused with exit 2 before
any request.

--explain prints the plan as JSON and reads nothing (the table's
description, which costs no RCU, gives its keys and size): operation,
table, index, keyCondition, filter, projection, worstCaseRCU (the most
the read can cost, from the table's size: each byte once, and the half
unit each request but one may round up; null when the server reports no
size) and budgetRCU. A Scan reads in as
many parallel segments as the table's size calls for, or --segments N
(a Query has none: --segments on one is refused). Stops at the budget
as scan does (exit 3, with --resume).`,
		Example: `  dynascope partiql --demo "SELECT * FROM Locations WHERE PK = 'USA' AND begins_with(SK, 'NY#')"
  dynascope partiql --demo "SELECT City, SquareFeet FROM \"Locations\" WHERE DriveThru = true AND SquareFeet BETWEEN 2400 AND 2500" --segments 4 --max-rcu 100
  dynascope partiql --demo "SELECT * FROM \"ChatMessages\".\"ByTime\" WHERE ChatRoomID IN ['seattle', 'portland'] ORDER BY ChatRoomID, TimeUser DESC" --output json
  dynascope partiql --demo "SELECT PK, City FROM Locations WHERE (PK = 'USA' AND begins_with(SK, 'NY#')) OR (PK = 'CAN' AND Owner IS NOT NULL)"
  dynascope partiql --demo --explain "SELECT * FROM DeviceLogs WHERE Level = 'ERROR'"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usage(`give the statement as one argument, in quotes: dynascope partiql "SELECT * FROM \"Orders\" WHERE PK = 'c#42'"`, "partiql takes one statement, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			f.bind(cmd, g)
			f.statement = args[0]
			return runPartiQL(ctx, &f)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.explain, "explain", false, "print the plan as JSON and read nothing")
	fl.IntVar(&f.segments, "segments", 0, segmentsHelp)
	budgetVar(fl, &f.maxRCU, "max-rcu", defaultSearchBudget, true, "read no more than this many `RCU` (every item read counts, matching or not); stopped there, exit 3 with how to resume")
	fl.StringVar(&f.resume, "resume", "", "go on from where the same statement stopped at --max-rcu (the token its message gave)")
	fl.StringVarP(&f.output, "output", "o", "jsonl", "jsonl (one item a line), json (one document with items and stats), csv, or a file to export to: found.csv, found.jsonl, found.json"+csvNull)
	return cmd
}

// explainedPlan is --explain's JSON.
type explainedPlan struct {
	Operation    string   `json:"operation"`
	Table        string   `json:"table"`
	Index        *string  `json:"index"` // null: the table itself
	KeyCondition *string  `json:"keyCondition"`
	Queries      int      `json:"queries,omitempty"`
	Segments     int      `json:"segments,omitempty"`
	Filter       *string  `json:"filter"`
	Projection   []string `json:"projection"`
	WorstCaseRCU *float64 `json:"worstCaseRCU"` // null: the table's size is unknown
	BudgetRCU    *float64 `json:"budgetRCU"`    // null: none
}

// runPartiQL parses the statement before it connects: a refused one
// makes no request.
func runPartiQL(ctx context.Context, f *partiqlFlags) error {
	st, err := domain.ParsePartiQL(f.statement)
	if err != nil {
		return partiqlRefused(err)
	}
	if err := checkOutput(f.output); err != nil {
		return err
	}
	if err := checkSegments(f.segments); err != nil {
		return err
	}
	if err := checkToken(f.resume, "partiql"); err != nil {
		return err
	}
	if err := checkStatement(st); err != nil {
		return err
	}
	if err := checkNames(f.g, st.Table, st.Index, func(kind, name string) string {
		if kind == "index" {
			return fmt.Sprintf("the statement: FROM %q.%q", st.Table, name)
		}
		return fmt.Sprintf("the statement: FROM %q", name)
	}); err != nil {
		return err
	}
	if f.resume != "" {
		// A token of another statement, or edited, is refused before
		// any request: it is checked against the statement and the
		// streams it names, which the plan must then have.
		r := dynamo.SearchRequest{Origin: "partiql", Statement: st.Canonical(), Segments: f.segments}
		if r.Segments == 0 {
			r.Segments, _ = dynamo.SearchTokenStreams(f.resume)
		}
		if _, err := resumeSearch(r, f.resume, "partiql"); err != nil {
			return err
		}
	}
	mask, err := f.g.tableMask(st.Table)
	if err != nil {
		return err
	}
	conn, err := f.g.connect(ctx)
	if err != nil {
		return err
	}
	f.g.readUnder("--max-rcu", f.maxRCU, conn.client.Session)
	info, _, err := dynamo.DescribeTable(ctx, conn.client, st.Table)
	if err != nil {
		return err
	}
	key, err := info.KeyFor(st.Index)
	if err != nil {
		return usage(indexOrTable(info), "table %s has no index %q", info.Name, st.Index)
	}
	plan, r, err := dynamo.StatementSearch(info, st, f.maxRCU)
	if err != nil {
		return partiqlRefused(err)
	}
	switch n, ok := dynamo.SearchTokenStreams(f.resume); {
	case f.segments > 0 && len(plan.Queries) > 0:
		return usage("leave --segments out: the statement pins the partition key, so it is a Query, read in key order", "--segments applies to a Scan, and this statement is a Query")
	case f.segments > 0:
		r.Segments = f.segments // a token of other segments is refused as another read's
	case ok && len(plan.Queries) == 0:
		r.Segments = n // the segments it began with, whatever the size says now
	}
	masked := masking(conn.client, mask, info)
	ex := explain(plan, r, info, masked)
	if f.explain {
		return export.JSONDoc(f.stdout, ex)
	}
	state, err := resumeSearch(r, f.resume, "partiql")
	if err != nil {
		return err
	}
	fmt.Fprintln(f.stderr, planLine(ex))
	var named []domain.Path
	if plan.Filter != nil {
		named = domain.FilterPaths(plan.Filter)
	}
	if note := notInIndex(info, plan.Index, append(named, plan.Project...), fmt.Sprintf("FROM \"%s\" reads the table's items", strings.ReplaceAll(info.Name, `"`, `""`))); note != "" {
		fmt.Fprintln(f.stderr, note)
	}
	if none := plan.SayNoMatch(true, domain.CommandLine); none != "" {
		if masked != nil {
			none = "a branch of the WHERE pins the partition key to what no key is, so it matches no item and is left out (the value would show what --mask hides)"
		}
		fmt.Fprintln(f.stderr, export.OneLine(none))
	}
	return writeSearch(ctx, conn, state, searchOut{
		output: f.output, stdout: f.stdout, stderr: f.stderr, masked: masked,
		first: projectedFirst(keyNames(key, info.Key), plan.Project), flag: "--max-rcu",
	})
}

// projectedFirst are a SELECT's CSV columns when it names its attributes:
// the keys it projects, then the rest of what it projects in name order
// (the order the columns of its rows take), so that a result of no rows
// is headed by what rows would hold, not by keys it never selects.
func projectedFirst(keys []string, project []domain.Path) []string {
	if len(project) == 0 {
		return keys // SELECT *
	}
	roots := map[string]bool{}
	for _, p := range project {
		if len(p) > 0 && !p[0].IsIdx {
			roots[p[0].Name] = true
		}
	}
	var first []string
	for _, k := range keys {
		if roots[k] {
			first = append(first, k)
			delete(roots, k)
		}
	}
	return append(first, slices.Sorted(maps.Keys(roots))...)
}

// checkStatement refuses, before any request, what DynamoDB would refuse
// in the statement's conditions and projection, in whatever plan they
// land (dynamo.CheckStatement).
func checkStatement(st domain.Statement) error {
	if err := dynamo.CheckStatement(st); err != nil {
		return usage(limitHint(err, "dynascope partiql --help lists what a SELECT takes"), "the statement: %s", dynamo.CheckMessage(err))
	}
	return nil
}

// partiqlRefused is a statement refused: a malformed command line (exit 2).
func partiqlRefused(err error) error {
	var pe *domain.PartiQLError
	if errors.As(err, &pe) {
		// The message says which part and what to write; the hint where
		// the rest is, as every refused command line ends.
		return usage("dynascope partiql --help lists what a SELECT takes", "the statement: %s", pe.Error())
	}
	return usage("see dynascope partiql --help", "the statement: %v", err)
}

func explain(plan domain.Plan, r dynamo.SearchRequest, info dynamo.TableInfo, masked *dynamo.Masked) explainedPlan {
	ex := explainedPlan{Operation: plan.Operation(), Table: plan.Table}
	if worst, ok := r.WorstCaseRCU(); ok {
		ex.WorstCaseRCU = &worst
	}
	if plan.Index != "" {
		ex.Index = &plan.Index
	}
	if kc := plan.KeyCondition(); kc != "" {
		if masked != nil {
			kc = "(masked)"
		}
		ex.KeyCondition, ex.Queries = &kc, len(plan.Queries)
	} else {
		ex.Segments = r.Segments
	}
	if plan.Filter != nil {
		s := filterShown(masked, domain.KeyQuery{Table: plan.Table, Filter: plan.Filter})
		ex.Filter = &s
	}
	for _, p := range plan.Project {
		ex.Projection = append(ex.Projection, p.String())
	}
	if r.MaxRCU > 0 {
		ex.BudgetRCU = &r.MaxRCU
	}
	return ex
}

// planLine is the plan as one line on stderr, before the first read.
func planLine(ex explainedPlan) string {
	on := export.OneLine(target(ex.Table, ""))
	if ex.Index != nil {
		on = export.OneLine(target(ex.Table, *ex.Index))
	}
	what := fmt.Sprintf("Scan of %s in %s", on, counted(ex.Segments, "segment", "segments"))
	if ex.KeyCondition != nil {
		what = fmt.Sprintf("Query on %s: %s", on, export.OneLine(*ex.KeyCondition))
		if ex.Queries > 1 {
			what = fmt.Sprintf("%d Queries on %s: %s", ex.Queries, on, export.OneLine(*ex.KeyCondition))
		}
	}
	if ex.Filter != nil {
		what += ", filter " + *ex.Filter
	}
	budget := "no budget"
	if ex.BudgetRCU != nil {
		budget = fmt.Sprintf("budget %g RCU", *ex.BudgetRCU)
	}
	if ex.WorstCaseRCU == nil {
		return fmt.Sprintf("%s; the server reports no size to bound its cost, %s", what, budget)
	}
	return fmt.Sprintf("%s; up to %.1f RCU (the table's size), %s", what, *ex.WorstCaseRCU, budget)
}

// indexOrTable says what to write after FROM for a table that has no
// index of the name written: one of its indexes, or the table itself
// where it has none ("name one of its indexes after FROM "T".: it has
// none" asked for what cannot be written).
func indexOrTable(info dynamo.TableInfo) string {
	if len(info.Indexes) == 0 {
		return fmt.Sprintf("it has none: read the table, FROM \"%s\"", info.Name)
	}
	return fmt.Sprintf("name one of its indexes, FROM \"%s\".\"%s\" (it has %s)", info.Name, info.Indexes[0].Name, indexNames(info))
}

func indexNames(info dynamo.TableInfo) string {
	names := make([]string, len(info.Indexes))
	for i, ix := range info.Indexes {
		names[i] = ix.Name
	}
	return strings.Join(names, ", ")
}
