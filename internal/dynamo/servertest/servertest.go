// Package servertest starts a test server program (dynalite, moto) on a
// loopback port and waits until it answers; its stop, and a test's skip
// or failure when the program cannot start. dynalitetest and mototest
// say which program and how it is ready; this says the rest once.
package servertest

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"
)

// Spec is a server program to start.
type Spec struct {
	Name string // for messages: "dynalite", "moto"
	// Command is the program listening on 127.0.0.1:port.
	Command func(port int) (*exec.Cmd, error)
	// Ready reports whether the server at endpoint answers; it is asked
	// every 100 ms until it does, the program exits, or Wait passes.
	Ready func(ctx context.Context, endpoint string) error
	Wait  time.Duration
	// Port is the port to listen on (0: a free one, found anew on each of
	// three attempts, as another process may take it between finding and
	// binding).
	Port int
	// Stderr takes the program's standard error (nil: discarded).
	Stderr io.Writer
}

// Proc is a running server program.
type Proc struct {
	Endpoint string
	Port     int
	proc     *os.Process
	exited   chan error // the process's end, once
}

// FreePort is a loopback port nothing listens on now.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Launch starts the program and waits until it answers.
func Launch(spec Spec) (*Proc, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		port := spec.Port
		if port == 0 {
			var err error
			if port, err = FreePort(); err != nil {
				return nil, err
			}
		}
		cmd, err := spec.Command(port)
		if err != nil {
			return nil, err
		}
		cmd.Stdout, cmd.Stderr = nil, spec.Stderr // a server's request log is not the test's output
		dieWithParent(cmd)
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("starting %s: %w", spec.Name, err)
		}
		p := &Proc{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), Port: port, proc: cmd.Process, exited: make(chan error, 1)}
		go func() { p.exited <- cmd.Wait() }()
		if lastErr = p.waitReady(spec); lastErr == nil {
			return p, nil
		}
		p.Stop()
	}
	return nil, lastErr
}

// waitReady asks the server until it answers, it exits, or spec.Wait passes.
func (p *Proc) waitReady(spec Spec) error {
	deadline := time.Now().Add(spec.Wait)
	for time.Now().Before(deadline) {
		select {
		case err := <-p.exited:
			p.exited <- err // for Stop
			return fmt.Errorf("%s exited before answering: %v", spec.Name, err)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err := spec.Ready(ctx, p.Endpoint)
		cancel()
		if err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("%s did not answer within %s at %s", spec.Name, spec.Wait, p.Endpoint)
}

// Stop ends the program and waits for its end.
func (p *Proc) Stop() {
	if p != nil && p.proc != nil {
		_ = p.proc.Kill()
		<-p.exited
		p.proc = nil
	}
}

// Unavailable stops a test that needs a server that could not start:
// under CI=true it fails, since a skipped integration test proves
// nothing; elsewhere it skips with fix, the command that gets the server.
func Unavailable(tb testing.TB, name string, err error, fix string) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("%s is required under CI=true and could not start: %v (%s)", name, err, fix)
		return
	}
	tb.Skipf("skipping: %s unavailable: %v (run `%s`)", name, err, fix)
}
