// Command dynascope is a terminal explorer for Amazon DynamoDB tables:
// hierarchical sort keys, version history and time ranges, read-only, with
// the cost of every read in view. Headless subcommands print JSON. The
// command line lives in package cli; ARCHITECTURE.md maps the rest.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/dynascope/dynascope/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=…"; without
// it the binary reports what the go command recorded (see versionOf).
var version = "dev"

func main() {
	// Ctrl+C, SIGTERM (a service manager, kill) and SIGHUP (the terminal
	// went away) all stop the command the same way: reads cancelled, a
	// partial export removed, the terminal restored, exit 128+signal. A
	// second signal is not caught: it ends the process at once.
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		s := <-signals
		signal.Reset(os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		cancel(cli.Interrupted(s))
	}()
	info, ok := debug.ReadBuildInfo()
	cli.Version = versionOf(version, info, ok)
	os.Exit(cli.Run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
