package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/export"
)

// newSeedCmd is the only command that writes. It refuses anything but a
// server on this machine unless told otherwise in so many words, so it
// cannot fill a real account by accident.
func newSeedCmd(ctx context.Context, g *globals) *cobra.Command {
	var o seedOptions
	cmd := &cobra.Command{
		Use:   "seed",
		Short: "Write the demo tables into a DynamoDB-compatible server (the only command that writes)",
		Long: `seed creates the demo tables (the same data --demo has built in) in a
DynamoDB-compatible server and writes every item, so the explorer can run
against a real server. A table of the same name that already exists is
refused (Locations and AuditLog are plausible real names): nothing is
written unless --replace is given, which deletes those tables, saying which
and how many items they held, and writes them again.

It only writes to a server on this machine (localhost or a loopback
address) unless --yes-write-to-real-aws is given.`,
		Example: `  npx dynalite --port 8000 &
  dynascope seed --endpoint-url http://localhost:8000 --region us-east-1
  dynascope seed --endpoint-url http://localhost:8000 --region us-east-1 --tables Locations,Equipment`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.bind(cmd, g)
			return runSeed(ctx, &o)
		},
	}
	cmd.Flags().StringSliceVar(&o.tables, "tables", nil, "only these demo tables, comma-separated (default: all)")
	cmd.Flags().BoolVar(&o.realAWS, "yes-write-to-real-aws", false, "allow writing to an endpoint not on this machine, or to AWS")
	cmd.Flags().BoolVar(&o.replace, "replace", false, "delete demo-named tables that already exist (saying which) and write them again")
	return cmd
}

// seedOptions are the seed command's options.
type seedOptions struct {
	commandIO
	tables           []string
	realAWS, replace bool
}

// validate refuses, before any connection, whatever seed must not write:
// the demo, --data, a server not on this machine unless said in so many
// words, a table that is not a demo table.
func (o *seedOptions) validate() error {
	g := o.g
	if g.demo {
		return usage("drop --demo and give --endpoint-url of a local server", "seed writes into a server; --demo already has the data built in")
	}
	if g.data.given() {
		return usage("open the files with --data on any other command; seed writes the demo tables into a server", "seed does not take --data")
	}
	if err := g.validate(); err != nil {
		return err
	}
	if !o.realAWS && !dynamo.LoopbackEndpoint(g.endpoint) {
		where := "AWS itself"
		if g.endpoint != "" {
			where = dynamo.RedactEndpoint(g.endpoint) + ", which is not on this machine"
		}
		return usage("give --endpoint-url of a local server (DynamoDB Local, dynalite), or add --yes-write-to-real-aws if you mean it",
			"seed writes, and would write into %s", where)
	}
	return checkDemoTables(o.tables)
}

// runSeed writes the demo tables into a server.
func runSeed(ctx context.Context, o *seedOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	// No region is made up for a local server: DynamoDB Local keeps each
	// region's tables apart, so a seed into a region the explorer is not
	// then given would look like no tables at all. As every command, seed
	// needs --region (or AWS_REGION, or the profile's).
	g := o.g
	c, cfg, err := g.dynamoClient(ctx, 5, nil)
	if err != nil {
		return err
	}
	out := o.stdout
	where := label(g.profileName(), cfg.Region, c.Options().BaseEndpoint)
	existing, err := existingTables(ctx, c, o.tables)
	if err != nil {
		return err
	}
	if len(existing) > 0 && !o.replace {
		return dynamo.Errorf("seed", dynamo.KindValidation, "add --replace to delete and rewrite them, or seed other --tables",
			"%s already %s in %s; nothing was written", names(existing), plural(len(existing), "exists", "exist"), where)
	}
	fmt.Fprintf(out, "seeding %s\n", where)
	start := time.Now()
	for _, t := range existing {
		fmt.Fprintf(out, "  deleting table %s (%s items as DynamoDB last counted) to replace it\n", export.OneLine(t.name), thousands(int(t.items)))
		if err := deleteTable(ctx, c, t.name); err != nil {
			return err
		}
	}
	st, err := demo.Seed(ctx, c, demo.Options{Tables: o.tables})
	printSeeded(out, st)
	if err != nil {
		return dynamo.Explain("seed", err)
	}
	fmt.Fprintf(out, "wrote %s into %s in %s\n", counted(sum(st.Items), "item", "items"), counted(st.Tables, "table", "tables"), time.Since(start).Round(time.Millisecond))
	return nil
}

func demoTableNames() []string {
	var names []string
	for _, t := range demo.Tables() {
		names = append(names, aws.ToString(t.TableName))
	}
	return names
}

func checkDemoTables(tables []string) error {
	names := demoTableNames()
	for _, t := range tables {
		if !slices.Contains(names, t) {
			return usage("choose from "+strings.Join(names, ","), "--tables: no demo table %q", t)
		}
	}
	return nil
}

func printSeeded(out interface{ Write([]byte) (int, error) }, st demo.Stats) {
	for _, n := range demoTableNames() {
		if c, ok := st.Items[n]; ok {
			fmt.Fprintf(out, "  %-14s %7d items\n", n, c)
		}
	}
}

// existingTable is a table seed would write into.
type existingTable struct {
	name  string
	items int64
}

// existingTables are the demo tables (of want; all when empty) the server
// already has.
func existingTables(ctx context.Context, c *dynamodb.Client, want []string) ([]existingTable, error) {
	var found []existingTable
	for _, name := range demoTableNames() {
		if len(want) > 0 && !slices.Contains(want, name) {
			continue
		}
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		var notFound *types.ResourceNotFoundException
		switch {
		case errors.As(err, &notFound):
			continue
		case err != nil:
			return nil, dynamo.Explain("describe table "+name, err)
		}
		found = append(found, existingTable{name: name, items: aws.ToInt64(out.Table.ItemCount)})
	}
	return found, nil
}

// deleteTable deletes a table and waits until it is gone.
func deleteTable(ctx context.Context, c *dynamodb.Client, name string) error {
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
		return dynamo.Explain("delete table "+name, err)
	}
	w := dynamodb.NewTableNotExistsWaiter(c)
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, 5*time.Minute); err != nil {
		return dynamo.Explain("delete table "+name, err)
	}
	return nil
}

func names(ts []existingTable) string {
	var s []string
	for _, t := range ts {
		s = append(s, export.OneLine(t.name))
	}
	return "table " + strings.Join(s, ", ")
}

// counted is n and its noun: "1 item", "2 items".
func counted(n int, one, many string) string {
	return thousands(n) + " " + plural(n, one, many)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
