// Package dynalitetest starts dynalite, a DynamoDB-compatible server from the
// npm registry (pinned in package.json), on a free loopback port for tests
// and benchmarks. Under CI=true a missing dynalite fails the run; elsewhere
// the tests that need it are skipped with the command that fixes it.
package dynalitetest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/internal/dynamo/servertest"
)

// Server is a running dynalite.
type Server struct {
	Endpoint string
	proc     *servertest.Proc
}

// Client returns an SDK client for the server, with static test credentials.
func (s *Server) Client() *dynamodb.Client { return client(s.Endpoint, 3) }

func client(endpoint string, attempts int) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String(endpoint),
		Credentials:      credentials.NewStaticCredentialsProvider("test", "test", ""),
		RetryMaxAttempts: attempts,
	})
}

// Stop ends the server.
func (s *Server) Stop() { s.proc.Stop() }

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Launch starts a new dynalite and waits until it answers.
func Launch() (*Server, error) { return launch(0) }

// Restart starts a stopped server again on the same port, empty (dynalite
// keeps its tables in memory): the server came back after an outage.
func (s *Server) Restart() error {
	u, err := url.Parse(s.Endpoint)
	if err != nil {
		return err
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		return err
	}
	n, err := launch(port)
	if err != nil {
		return err
	}
	s.proc = n.proc
	return nil
}

// launch starts dynalite on port (0: a free one).
func launch(port int) (*Server, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	cli := filepath.Join(root, "node_modules", "dynalite", "cli.js")
	if _, err := os.Stat(cli); err != nil {
		return nil, fmt.Errorf("dynalite is not installed (%s missing): run `npm ci` in %s", cli, root)
	}
	// guard.js keeps dynalite up when a client drops a request mid-body.
	guard := filepath.Join(root, "internal", "dynamo", "dynalitetest", "guard.js")
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node is not on PATH: install Node.js, then `npm ci`")
	}
	p, err := servertest.Launch(servertest.Spec{
		Name: "dynalite",
		Command: func(port int) (*exec.Cmd, error) {
			return exec.Command(node, "--require", guard, cli, "--port", fmt.Sprint(port), "--host", "127.0.0.1",
				"--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0"), nil
		},
		Ready: func(ctx context.Context, endpoint string) error {
			_, err := client(endpoint, 1).ListTables(ctx, &dynamodb.ListTablesInput{})
			return err
		},
		Wait:   20 * time.Second,
		Port:   port,
		Stderr: os.Stderr,
	})
	if err != nil {
		return nil, err
	}
	return &Server{Endpoint: p.Endpoint, proc: p}, nil
}

// Start launches a dynalite for one test, stopped when the test ends.
func Start(tb testing.TB) *Server {
	tb.Helper()
	return servertest.Start(tb, "dynalite", "npm ci", Launch)
}

var shared = servertest.Shared[*Server]{Name: "dynalite", Fix: "npm ci", Launch: Launch}

// Shared returns one dynalite for the whole test binary; call StopShared
// from TestMain after m.Run.
func Shared(tb testing.TB) *Server {
	tb.Helper()
	return shared.Get(tb)
}

// Seeded is data made once on the shared dynalite for a whole test binary
// (a table a test file reads). Its zero value is ready.
//
// It is not a sync.Once around Shared: a test skipped because dynalite is
// missing would mark the Once done, and the next test would fail on a
// client that was never seeded instead of skipping.
type Seeded struct {
	mu   sync.Mutex
	done bool
	c    *dynamodb.Client
	err  error
}

// Client returns a client of the shared dynalite after seed has run on it
// once. Without dynalite it skips tb (fails it under CI=true) and seeds
// nothing; a failed seed fails this test and every later caller.
func (s *Seeded) Client(tb testing.TB, seed func(*dynamodb.Client) error) *dynamodb.Client {
	tb.Helper()
	srv := Shared(tb) // skips before anything is marked seeded
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.done {
		s.seed(srv.Client(), seed)
	}
	if s.err != nil {
		tb.Fatalf("seeding dynalite: %v", s.err)
	}
	return s.c
}

func (s *Seeded) seed(c *dynamodb.Client, seed func(*dynamodb.Client) error) {
	finished := false
	defer func() {
		// A seed that stopped its test (t.Fatal inside it) leaves
		// half-made tables: later callers fail rather than read them.
		if !finished && s.err == nil {
			s.err = fmt.Errorf("seeding stopped in an earlier test")
		}
		s.done = true
	}()
	s.c, s.err = c, seed(c)
	finished = true
}

// StopShared stops the server Shared started, if any.
func StopShared() { shared.Stop() }
