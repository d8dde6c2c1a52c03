// Command dynascope is a terminal explorer for Amazon DynamoDB tables:
// hierarchical sort keys, version history and time ranges, read-only, with
// the cost of every read in view. Headless subcommands print JSON. The
// command line lives in package cli; ARCHITECTURE.md maps the rest.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/dynascope/dynascope/cli"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cli.Version = version
	os.Exit(cli.Run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
