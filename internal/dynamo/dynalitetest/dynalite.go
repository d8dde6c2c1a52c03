// Package dynalitetest starts dynalite, a DynamoDB-compatible server from the
// npm registry (pinned in package.json), on a free loopback port for tests
// and benchmarks. Under CI=true a missing dynalite fails the run; elsewhere
// the tests that need it are skipped with the command that fixes it.
package dynalitetest

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Server is a running dynalite.
type Server struct {
	Endpoint string
	cmd      *exec.Cmd
}

// Client returns an SDK client for the server, with static test credentials.
func (s *Server) Client() *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String(s.Endpoint),
		Credentials:      credentials.NewStaticCredentialsProvider("test", "test", ""),
		RetryMaxAttempts: 3,
	})
}

// Stop ends the server.
func (s *Server) Stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
}

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

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
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
	s.cmd = n.cmd
	return nil
}

// launch starts dynalite on port (0: a free one).
func launch(fixed int) (*Server, error) {
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
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		if fixed != 0 {
			port = fixed
		}
		cmd := exec.Command(node, "--require", guard, cli, "--port", fmt.Sprint(port), "--host", "127.0.0.1",
			"--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0")
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("starting dynalite: %w", err)
		}
		ready := make(chan error, 1)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				if strings.Contains(sc.Text(), "listening") {
					ready <- nil
					for sc.Scan() {
					}
					return
				}
			}
			ready <- fmt.Errorf("dynalite exited before listening")
		}()
		select {
		case err = <-ready:
		case <-time.After(20 * time.Second):
			err = fmt.Errorf("dynalite did not start within 20s")
		}
		s := &Server{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd}
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, err = s.Client().ListTables(ctx, &dynamodb.ListTablesInput{})
			cancel()
		}
		if err == nil {
			return s, nil
		}
		s.Stop()
		lastErr = err
	}
	return nil, lastErr
}

// Start launches a dynalite for one test, stopped when the test ends.
func Start(tb testing.TB) *Server {
	tb.Helper()
	s, err := Launch()
	if err != nil {
		unavailable(tb, err)
	}
	tb.Cleanup(s.Stop)
	return s
}

var (
	sharedOnce sync.Once
	shared     *Server
	sharedErr  error
)

// Shared returns one dynalite for the whole test binary; call StopShared
// from TestMain after m.Run.
func Shared(tb testing.TB) *Server {
	tb.Helper()
	sharedOnce.Do(func() { shared, sharedErr = Launch() })
	if sharedErr != nil {
		unavailable(tb, sharedErr)
	}
	return shared
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
func StopShared() {
	if shared != nil {
		shared.Stop()
	}
}

func unavailable(tb testing.TB, err error) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("dynalite is required under CI=true and could not start: %v", err)
	}
	tb.Skipf("skipping: dynalite unavailable: %v (run `npm ci`)", err)
}
