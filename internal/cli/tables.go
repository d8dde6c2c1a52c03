package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

// describeParallel bounds concurrent DescribeTable calls: an account with
// hundreds of tables lists in seconds without tripping control-plane limits.
const describeParallel = 8

// tablesOptions are the tables command's options.
type tablesOptions struct {
	commandIO
	output string
}

func newTablesCmd(ctx context.Context, g *globals) *cobra.Command {
	var o tablesOptions
	cmd := &cobra.Command{
		Use:   "tables",
		Short: "List tables with key schema, indexes, item count and size",
		Long: `tables lists every table with its key schema (attribute names and types),
its global and local secondary indexes (keys and projection), the item
count and size DynamoDB reports (updated by DynamoDB about every six hours;
both 0 is not yet reported: – in text, "countsReported": false in JSON),
its DynamoDB stream (enabled, view type, label and ARN in JSON), which
dynascope changes reads, and its Time to Live (the TTL column: the attribute and
its status, DISABLED, or UNKNOWN where it cannot be read; dynascope ttl
says what the items' values mean). Where the connection matches a configured
[[environments]] label, it comes first (and in JSON as "environment").`,
		Example: `  dynascope tables --demo
  dynascope tables --profile prod --region eu-west-1 --output json | jq -r '.tables[].name'
  dynascope tables --endpoint-url http://localhost:8000 --region us-east-1`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.bind(cmd, g)
			return runTables(ctx, &o)
		},
	}
	cmd.Flags().StringVarP(&o.output, "output", "o", "text", "text (an aligned table) or json ({\"tables\": [...]})")
	return cmd
}

// runTables lists the tables with their keys, indexes, counts and sizes.
func runTables(ctx context.Context, o *tablesOptions) error {
	if o.output != "json" && o.output != "text" {
		return usage("use --output json or --output text", "--output %q is not a format of tables", o.output)
	}
	conn, err := o.g.connect(ctx)
	if err != nil {
		return err
	}
	names, _, err := dynamo.ListTables(ctx, conn.client)
	if err != nil {
		return err
	}
	infos, ttlErr, err := describeAll(ctx, conn.client, names)
	if err != nil {
		return err
	}
	if ttlErr != nil {
		fmt.Fprintf(o.stderr, "TTL unknown: %s\n", export.OneLine(ttlErr.Error()))
	}
	if o.output == "json" {
		return writeTablesJSON(o.stdout, infos, conn.env)
	}
	if conn.env != nil {
		fmt.Fprintf(o.stdout, "%s\n", conn.envLabel())
	}
	return writeTablesText(o.stdout, infos)
}

// describeAll describes the tables a few at a time, keeping their order,
// with their Time to Live. A TTL that cannot be read (a role without
// dynamodb:DescribeTimeToLive) is UNKNOWN, and the first such error is
// returned beside the tables.
func describeAll(ctx context.Context, c dynamo.Client, names []string) ([]dynamo.TableInfo, error, error) {
	infos := make([]dynamo.TableInfo, len(names))
	errs := make([]error, len(names))
	ttlErrs := make([]error, len(names))
	sem := make(chan struct{}, describeParallel)
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			infos[i], _, errs[i] = dynamo.DescribeTable(ctx, c, n)
			if errs[i] != nil {
				return
			}
			ttl, err := dynamo.TableTTL(ctx, c, n)
			if err != nil {
				ttl, ttlErrs[i] = dynamo.TTLInfo{Status: dynamo.TTLUnknown}, err
			}
			infos[i].TTL = &ttl
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	for _, err := range ttlErrs {
		if err != nil {
			return infos, err, nil
		}
	}
	return infos, nil, nil
}

// tableJSON is a table in tables --output json: its TableInfo and, where
// DynamoDB reports 0 items and 0 bytes, "countsReported": false (the
// figures are updated about every six hours and dynalite never sets them,
// so a 0 there is no count, not an empty table).
type tableJSON struct {
	dynamo.TableInfo
	CountsReported *bool `json:"countsReported,omitempty"`
}

// countsUnreported says a table's item count and size are both 0: not yet
// reported rather than an empty table (the explorer shows "–" too).
func countsUnreported(t dynamo.TableInfo) bool { return t.ItemCount == 0 && t.SizeBytes == 0 }

func writeTablesJSON(w io.Writer, infos []dynamo.TableInfo, env *config.Environment) error {
	tables := make([]tableJSON, len(infos))
	for i, t := range infos {
		tables[i].TableInfo = t
		if countsUnreported(t) {
			tables[i].CountsReported = new(false)
		}
	}
	doc := map[string]any{"tables": tables}
	if env != nil {
		doc["environment"] = map[string]string{"label": env.Label, "color": env.Hex()}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(export.EscapeJSON(b), '\n'))
	return err
}

// writeTablesText prints one row per table and, under it, one row per index.
func writeTablesText(w io.Writer, infos []dynamo.TableInfo) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TABLE\tPARTITION KEY\tSORT KEY\tITEMS\tSIZE\tSTREAM\tTTL\tPROJECTION")
	for _, t := range infos {
		stream := "—"
		if t.Stream.ARN != "" {
			stream = export.OneLine(t.Stream.View)
		}
		items, size := fmt.Sprint(t.ItemCount), humanBytes(t.SizeBytes)
		if countsUnreported(t) {
			items, size = "–", "–" // not reported yet, as the explorer shows it
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", export.OneLine(t.Name), keyAttr(&t.Key.PK), keyAttr(t.Key.SK), items, size, stream, ttlWords(t.TTL))
		for _, ix := range t.Indexes {
			proj := ix.Projection
			if len(ix.NonKeyAttributes) > 0 {
				proj += " " + strings.Join(ix.NonKeyAttributes, ",")
			}
			fmt.Fprintf(tw, "  %s %s\t%s\t%s\t\t\t\t\t%s\n", ix.Kind, export.OneLine(ix.Name), keyAttr(&ix.Key.PK), keyAttr(ix.Key.SK), export.OneLine(proj))
		}
	}
	return tw.Flush()
}

// ttlWords are a table's TTL in the TTL column: its attribute and status
// (ExpiresAt (ENABLED)), or the status alone where no attribute is named
// (DISABLED, or UNKNOWN where it cannot be read).
func ttlWords(t *dynamo.TTLInfo) string {
	switch {
	case t == nil:
		return dynamo.TTLUnknown
	case t.Attribute == "":
		return export.OneLine(t.Status)
	}
	return export.OneLine(t.Attribute + " (" + t.Status + ")")
}

func keyAttr(a *dynamo.KeyAttr) string {
	if a == nil {
		return "—"
	}
	return export.OneLine(a.Name) + " (" + string(a.Type) + ")"
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
