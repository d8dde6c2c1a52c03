package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/dynamo/demo"
)

// newSeedCmd is the only command that writes. It refuses anything but a
// server on this machine unless told otherwise in so many words, so it
// cannot fill a real account by accident.
func newSeedCmd(ctx context.Context, g *globals) *cobra.Command {
	var tables []string
	var realAWS bool
	cmd := &cobra.Command{
		Use:   "seed",
		Short: "Write the demo tables into a DynamoDB-compatible server (the only command that writes)",
		Long: `seed creates the demo tables (the same data --demo has built in) in a
DynamoDB-compatible server and writes every item, so the explorer can run
against a real server. Existing tables of the same names are written into.

It only writes to a server on this machine (localhost or a loopback
address) unless --yes-write-to-real-aws is given.`,
		Example: `  npx dynalite --port 8000 &
  dynascope seed --endpoint-url http://localhost:8000
  dynascope seed --endpoint-url http://localhost:8000 --tables Locations,Equipment`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if g.demo {
				return usage("drop --demo and give --endpoint-url of a local server", "seed writes into a server; --demo already has the data built in")
			}
			if g.data.given() {
				return usage("open the files with --data on any other command; seed writes the demo tables into a server", "seed does not take --data")
			}
			if err := g.validate(); err != nil {
				return err
			}
			if !realAWS && !dynamo.LoopbackEndpoint(g.endpoint) {
				where := "AWS itself"
				if g.endpoint != "" {
					where = g.endpoint + ", which is not on this machine"
				}
				return usage("give --endpoint-url of a local server (DynamoDB Local, dynalite), or add --yes-write-to-real-aws if you mean it",
					"seed writes, and would write into %s", where)
			}
			if err := checkDemoTables(tables); err != nil {
				return err
			}
			if g.region == "" && dynamo.LoopbackEndpoint(g.endpoint) {
				g.region = "us-east-1" // local servers accept any region
			}
			c, cfg, err := g.dynamoClient(ctx, 5, nil)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "seeding %s\n", label(g.profileName(), cfg.Region, c.Options().BaseEndpoint))
			start := time.Now()
			st, err := demo.Seed(ctx, c, demo.Options{Tables: tables})
			printSeeded(out, st)
			if err != nil {
				return dynamo.Explain("seed", err)
			}
			fmt.Fprintf(out, "wrote %d items into %d tables in %s\n", sum(st.Items), st.Tables, time.Since(start).Round(time.Millisecond))
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&tables, "tables", nil, "only these demo tables, comma-separated (default: all)")
	cmd.Flags().BoolVar(&realAWS, "yes-write-to-real-aws", false, "allow writing to an endpoint not on this machine, or to AWS")
	return cmd
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

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
