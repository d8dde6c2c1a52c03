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
count and size DynamoDB reports (updated by DynamoDB about every six hours),
and its DynamoDB stream (enabled, view type, label and ARN in JSON), which
dynascope changes reads.`,
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
	infos, err := describeAll(ctx, conn.client, names)
	if err != nil {
		return err
	}
	if o.output == "json" {
		return writeTablesJSON(o.stdout, infos)
	}
	return writeTablesText(o.stdout, infos)
}

// describeAll describes the tables a few at a time, keeping their order.
func describeAll(ctx context.Context, c dynamo.Client, names []string) ([]dynamo.TableInfo, error) {
	infos := make([]dynamo.TableInfo, len(names))
	errs := make([]error, len(names))
	sem := make(chan struct{}, describeParallel)
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			infos[i], _, errs[i] = dynamo.DescribeTable(ctx, c, n)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return infos, nil
}

func writeTablesJSON(w io.Writer, infos []dynamo.TableInfo) error {
	b, err := json.MarshalIndent(map[string]any{"tables": infos}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(export.EscapeJSON(b), '\n'))
	return err
}

// writeTablesText prints one row per table and, under it, one row per index.
func writeTablesText(w io.Writer, infos []dynamo.TableInfo) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TABLE\tPARTITION KEY\tSORT KEY\tITEMS\tSIZE\tSTREAM\tPROJECTION")
	for _, t := range infos {
		stream := "—"
		if t.Stream.ARN != "" {
			stream = export.OneLine(t.Stream.View)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t\n", export.OneLine(t.Name), keyAttr(&t.Key.PK), keyAttr(t.Key.SK), t.ItemCount, humanBytes(t.SizeBytes), stream)
		for _, ix := range t.Indexes {
			proj := ix.Projection
			if len(ix.NonKeyAttributes) > 0 {
				proj += " " + strings.Join(ix.NonKeyAttributes, ",")
			}
			fmt.Fprintf(tw, "  %s %s\t%s\t%s\t\t\t\t%s\n", ix.Kind, export.OneLine(ix.Name), keyAttr(&ix.Key.PK), keyAttr(ix.Key.SK), export.OneLine(proj))
		}
	}
	return tw.Flush()
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
