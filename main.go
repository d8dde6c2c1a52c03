// Command dynascope is a terminal explorer for Amazon DynamoDB tables:
// hierarchical sort keys, version history and time ranges, read-only, with
// the cost of every read in view. Headless subcommands print JSON.
package main

import (
	"context"
	"os"
	"os/signal"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
