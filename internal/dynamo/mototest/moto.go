// Package mototest starts moto's standalone server, a DynamoDB and
// DynamoDB Streams stand-in from PyPI (`pip install 'moto[server]'`), on a
// free loopback port for tests. dynalite has no streams; moto answers
// ListStreams, DescribeStream, GetShardIterator and GetRecords at the same
// endpoint as DynamoDB. Under CI=true a missing moto fails the run;
// elsewhere the tests that need it are skipped with the command that fixes
// it. moto keeps its tables for the life of the process: tests sharing a
// server use table names of their own.
package mototest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
)

// Install is the command that gets moto's server on a machine without it.
const Install = "pip install 'moto[server]'"

// Server is a running moto server.
type Server struct {
	Endpoint string
	proc     *os.Process
	exited   chan error // the process's end, once
}

const region = "us-east-1"

func creds() aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider("test", "test", "")
}

// Client returns a DynamoDB client for the server, with static test
// credentials.
func (s *Server) Client() *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{Region: region, BaseEndpoint: aws.String(s.Endpoint), Credentials: creds(), RetryMaxAttempts: 3})
}

// Streams returns a DynamoDB Streams client for the same endpoint.
func (s *Server) Streams() *dynamodbstreams.Client {
	return dynamodbstreams.New(dynamodbstreams.Options{Region: region, BaseEndpoint: aws.String(s.Endpoint), Credentials: creds(), RetryMaxAttempts: 3})
}

// Stop ends the server.
func (s *Server) Stop() {
	if s.proc != nil {
		_ = s.proc.Kill()
		<-s.exited
		s.proc = nil
	}
}

// command is how moto's server is started here: moto_server on PATH, else
// python3 -m moto.server (the same program, when only the module is
// installed).
func command(port int) (*exec.Cmd, error) {
	args := []string{"-H", "127.0.0.1", "-p", fmt.Sprint(port)}
	if p, err := exec.LookPath("moto_server"); err == nil {
		return exec.Command(p, args...), nil
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil, fmt.Errorf("neither moto_server nor python3 is on PATH: %s", Install)
	}
	if err := exec.Command(py, "-c", "import moto.server, flask").Run(); err != nil {
		return nil, fmt.Errorf("moto's server is not installed for %s: %s", py, Install)
	}
	return exec.Command(py, append([]string{"-m", "moto.server"}, args...)...), nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Launch starts a new moto server and waits until it answers ListTables.
func Launch() (*Server, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ { // a port taken between freePort and bind
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		cmd, err := command(port)
		if err != nil {
			return nil, err
		}
		cmd.Stdout, cmd.Stderr = nil, nil // moto logs every request: not the test's output
		dieWithParent(cmd)
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("starting moto: %w", err)
		}
		s := &Server{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), proc: cmd.Process, exited: make(chan error, 1)}
		go func() { s.exited <- cmd.Wait() }()
		if lastErr = s.waitReady(); lastErr == nil {
			return s, nil
		}
		s.Stop()
	}
	return nil, lastErr
}

// waitReady polls the server until it answers, it exits, or 30 s pass
// (moto imports every service's models on its first start).
func (s *Server) waitReady() error {
	deadline := time.Now().Add(30 * time.Second)
	c := s.Client()
	for time.Now().Before(deadline) {
		select {
		case err := <-s.exited:
			s.exited <- err // for Stop
			return fmt.Errorf("moto exited before answering: %v", err)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
		cancel()
		if err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("moto did not answer within 30s at %s", s.Endpoint)
}

// Start launches a moto server for one test, stopped when the test ends.
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

// Shared returns one moto server for the whole test binary; call
// StopShared from TestMain after m.Run.
func Shared(tb testing.TB) *Server {
	tb.Helper()
	sharedOnce.Do(func() { shared, sharedErr = Launch() })
	if sharedErr != nil {
		unavailable(tb, sharedErr)
	}
	return shared
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
		tb.Fatalf("moto is required under CI=true and could not start: %v (%s)", err, Install)
	}
	tb.Skipf("skipping: moto unavailable: %v (run `%s`)", err, Install)
}
