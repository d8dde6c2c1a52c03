package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

// entitiesDefaultBudget is the RCU entities reads whole under: a table
// that costs more is sampled.
const entitiesDefaultBudget = dynamo.DefaultEntitiesBudget

type entitiesFlags struct {
	itemsFlags
	delimiter string
}

func newEntitiesCmd(ctx context.Context, g *globals) *cobra.Command {
	var f entitiesFlags
	cmd := &cobra.Command{
		Use:   "entities",
		Short: "Name the entity types of a single-table design, with counts and attributes",
		Long: `entities names the entity types a table (or an index, or one partition)
holds: from a discriminator attribute where the items carry one (ElectroDB's
__edb_e__, dynamodb-toolbox's _et, dynamodb-onetable's _type, Amplify's
__typename, a type or entityType attribute), otherwise from the templates of
their keys (USER#{id} / #METADATA#{id} is one type, GAME#{id} / USER#{id}
another). Each type has its count, its key templates, its attributes with
the types seen and the share of its items holding each, and one example.

It reads every item when that costs less than --max-rcu (the size DynamoDB
reports, at 0.5 RCU per 4 KB): counts are exact and "sampled" is false.
Otherwise it reads a sample in parallel Scan segments, each to its share
of the budget ("sampled": true). A segment reads whole partitions one
after another: a type whose items all sit in one partition named by a word
(CAPITALS) that the sample read to its end is counted exactly; the other
types share the rest of the table's item count by their items read. Each
type says which ("countExact").`,
		Example: `  dynascope entities --demo --table Workbench
  dynascope entities --demo --table Workbench --pk USER#ada --output jsonl
  dynascope entities --demo --table Geography --output csv
  dynascope entities --endpoint-url http://localhost:8000 --region us-east-1 --table T --max-rcu 500`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.bind(cmd, g)
			return runEntities(ctx, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.table, "table", "", "table to read (required)")
	fl.StringVar(&f.pk, "pk", "", "one partition key value: the types of that partition (default: the whole table)")
	fl.StringVar(&f.index, "index", "", "read a GSI or LSI instead of the base table")
	fl.StringVar(&f.delimiter, "delimiter", "", "the keys' segment delimiter (default: the one most keys hold: # | / : ~)")
	fl.StringVarP(&f.output, "output", "o", "json", "json (one document), or the types as rows: jsonl, csv"+csvNull)
	budgetVar(fl, &f.maxRCU, "max-rcu", entitiesDefaultBudget, false, "read the whole table when it costs less than this many `RCU`, else a sample of that cost")
	return cmd
}

// runEntities names the entity types; every flag is checked before it
// connects.
func runEntities(ctx context.Context, f *entitiesFlags) error {
	switch {
	case f.table == "":
		return usage(f.g.tablesHint(), "--table is required")
	case f.output != "json" && f.output != "jsonl" && f.output != "csv":
		return usage("use --output json, jsonl or csv", "--output %q is not a format of entities", f.output)
	case f.delimiter == domain.NoDelimiter || domain.DelimiterTooLong(f.delimiter):
		return usage("give the one to three characters between levels, such as '#', '§' or '::'", "--delimiter %q is not a delimiter of one to three characters", f.delimiter)
	}
	if err := checkBudget("--max-rcu", f.maxRCU, false); err != nil {
		return err
	}
	mask, err := f.g.tableMask(f.table)
	if err != nil {
		return err
	}
	conn, err := f.g.connect(ctx)
	if err != nil {
		return err
	}
	info, key, err := describeKey(ctx, conn.client, f.table, f.index)
	if err != nil {
		return err
	}
	req := dynamo.EntitiesRequest{Table: f.table, Index: f.index, Key: key, MaxRCU: f.maxRCU, SizeBytes: info.SizeBytes, ItemCount: info.ItemCount, Delim: f.delimiter}
	if f.pk != "" {
		q, _, err := keyQuery(ctx, conn.client, itemsFlags{table: f.table, pk: f.pk, index: f.index}, mask)
		if err != nil {
			return err
		}
		req.PK = &q.PK
	}
	f.g.readUnder("--max-rcu", f.maxRCU, conn.client.Session)
	start := time.Now()
	res, err := dynamo.ReadEntities(ctx, conn.client, req)
	if err != nil {
		return err
	}
	f.g.budget.sampled = res.Sampled
	total, _ := conn.client.Session.Totals()
	how := "every item read: counts exact"
	switch {
	case res.Stopped:
		how = fmt.Sprintf("the first %s, stopped at the budget: counts of those", counted(res.Read, "item", "items"))
	case res.Sampled:
		how = fmt.Sprintf("a sample of %d items (%d segments): counts estimated", res.Read, max(res.Segments, 1))
		if n := exactCounts(res.Entities); n > 0 {
			how = fmt.Sprintf("a sample of %d items (%d segments): %d of %d counts exact (partitions read whole), the rest estimated", res.Read, max(res.Segments, 1), n, len(res.Entities))
		}
	}
	masked := masking(conn.client, mask, info)
	eo := export.Options{Show: masked.Shower(f.table)}
	docs := make([]map[string]any, len(res.Entities))
	for i, e := range res.Entities {
		tpl := map[string]any{"pk": masked.ShownKey(f.table, key.PK.Name, e.KeyTemplates["pk"], f.delimiter), "sk": nil}
		if key.SK != nil {
			tpl["sk"] = masked.ShownKey(f.table, key.SK.Name, e.KeyTemplates["sk"], f.delimiter)
		}
		var disc any
		if e.Discriminator != "" {
			disc = e.Discriminator
		}
		docs[i] = map[string]any{"name": e.Name, "count": e.Count, "countExact": e.CountExact, "keyTemplates": tpl, "discriminator": disc,
			"attributes": e.Attributes, "example": eo.Plain(res.Examples[i])}
		if masked.Hides(f.table, key.PK.Name) || e.Discriminator != "" && masked.Hides(f.table, e.Discriminator) {
			docs[i]["name"] = fmt.Sprintf("type %d", i+1) // the name is key or attribute text the mask hides
		}
	}
	stats := map[string]any{"itemsRead": res.Read, "requests": total.Requests, "consumedRCU": total.RCU, "segments": res.Segments,
		"tableItemCount": info.ItemCount, "elapsedMs": time.Since(start).Milliseconds(), "stoppedAtBudget": res.Stopped}
	// Past the budget, the stop line says so, or, read to the end, the
	// one line every command prints (globals.pastBudget).
	defer fmt.Fprintf(f.stderr, "%s: %s · %s · requests=%d consumedRCU=%.1f%s\n", export.OneLine(f.table), counted(len(docs), "entity type", "entity types"), how, total.Requests, total.RCU, billedNote(conn.client.Session))
	if err := writeEntities(f, docs, res, stats); err != nil {
		return err
	}
	if res.Stopped {
		return entitiesStopped(res, f, info.SizeBytes)
	}
	return nil
}

// entitiesStopped is the one line (exit 3) for a read meant to be whole
// that the budget stopped: what was spent, that the counts are a sample's,
// how to go on.
func entitiesStopped(res dynamo.EntitiesResult, f *entitiesFlags, tableBytes int64) error {
	of := "the table's"
	if f.pk != "" {
		of = "the partition's"
	}
	why := ""
	if tableBytes <= 0 && f.pk == "" {
		why = " (the server reports no table size, so a whole read was tried)"
	}
	return partialError{fmt.Sprintf("%s, %s read%s; the counts are of those items, a sample, not all of %s — run again with a larger --max-rcu to read it whole",
		stoppedAt(res.Cost.Billed, f.maxRCU), counted(res.Read, "item", "items"), why, of)}
}

// writeEntities prints the types in f's format.
func writeEntities(f *entitiesFlags, docs []map[string]any, res dynamo.EntitiesResult, stats map[string]any) error {
	switch f.output {
	case "json":
		return export.JSONDoc(f.stdout, map[string]any{"entities": docs, "sampled": res.Sampled, "stats": stats})
	case "jsonl":
		out := export.NewJSONRows(f.stdout, "jsonl")
		for _, d := range docs {
			d["sampled"] = res.Sampled
			if err := out.Write(d); err != nil {
				return err
			}
		}
		return out.Close()
	}
	rows := dynamo.Rows{Noun: "entities", First: []string{"name", "count", "countExact", "sampled", "pk", "sk", "discriminator", "attributes"}}
	for _, d := range docs {
		var attrs []string
		for _, a := range d["attributes"].([]domain.EntityAttribute) {
			attrs = append(attrs, a.Name)
		}
		tpl := d["keyTemplates"].(map[string]any)
		rows.Rows = append(rows.Rows, map[string]any{"name": d["name"], "count": d["count"], "countExact": d["countExact"], "sampled": res.Sampled,
			"pk": tpl["pk"], "sk": tpl["sk"], "discriminator": d["discriminator"], "attributes": strings.Join(attrs, " ")})
	}
	_, err := writeRows(rows, "csv", f.stdout, f.stderr)
	return err
}

// exactCounts is how many of the types a sample counted exactly.
func exactCounts(es []domain.Entity) int {
	n := 0
	for _, e := range es {
		if e.CountExact {
			n++
		}
	}
	return n
}
