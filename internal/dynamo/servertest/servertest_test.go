package servertest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// httpServer is python3's http.server: a program that listens on the
// port it is given, as dynalite and moto do.
func httpServer(t *testing.T) Spec {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH")
	}
	return Spec{
		Name: "http.server",
		Command: func(port int) (*exec.Cmd, error) {
			return exec.Command(py, "-m", "http.server", "--bind", "127.0.0.1", fmt.Sprint(port)), nil
		},
		Ready: func(ctx context.Context, endpoint string) error {
			req, _ := http.NewRequestWithContext(ctx, http.MethodHead, endpoint, nil)
			resp, err := http.DefaultClient.Do(req)
			if err == nil {
				resp.Body.Close()
			}
			return err
		},
		Wait: 20 * time.Second,
	}
}

// TestLaunchAndStop: Launch returns once the program answers on its
// loopback port, and Stop ends it (the port is free again).
func TestLaunchAndStop(t *testing.T) {
	p, err := Launch(httpServer(t))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Endpoint, "http://127.0.0.1:") || p.Port == 0 {
		t.Fatalf("endpoint %q, port %d: not a loopback port", p.Endpoint, p.Port)
	}
	resp, err := http.Get(p.Endpoint)
	if err != nil {
		t.Fatalf("the server does not answer after Launch: %v", err)
	}
	resp.Body.Close()
	p.Stop()
	p.Stop() // twice is harmless: cleanups and StopShared may both run
	if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", p.Port), time.Second); err == nil {
		c.Close()
		t.Fatal("the server still listens after Stop")
	}
}

// TestLaunchExitedEarly: a program that ends before answering is an error
// saying so, not a wait for the whole deadline.
func TestLaunchExitedEarly(t *testing.T) {
	spec := httpServer(t)
	spec.Command = func(int) (*exec.Cmd, error) { return exec.Command("false"), nil }
	start := time.Now()
	_, err := Launch(spec)
	if err == nil || !strings.Contains(err.Error(), "http.server exited before answering") {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > spec.Wait {
		t.Errorf("waited the whole deadline for a program that had exited")
	}
}

// TestLaunchNoCommand: a program that cannot be found is the command's own
// error (what to install), not a start attempt.
func TestLaunchNoCommand(t *testing.T) {
	spec := httpServer(t)
	want := errors.New("moto's server is not installed: pip install 'moto[server]'")
	spec.Command = func(int) (*exec.Cmd, error) { return nil, want }
	if _, err := Launch(spec); !errors.Is(err, want) {
		t.Fatalf("err = %v, want %v", err, want)
	}
}

// tb records how a test was stopped (Unavailable calls nothing else).
type tb struct {
	testing.TB
	fatal, skip string
}

func (t *tb) Helper()                   {}
func (t *tb) Fatalf(f string, a ...any) { t.fatal = fmt.Sprintf(f, a...) }
func (t *tb) Skipf(f string, a ...any)  { t.skip = fmt.Sprintf(f, a...) }

// TestUnavailable: under CI=true a missing server fails the test; elsewhere
// it skips, naming the command that gets it.
func TestUnavailable(t *testing.T) {
	err := errors.New("not installed")
	t.Setenv("CI", "true")
	var ci tb
	Unavailable(&ci, "moto", err, "pip install 'moto[server]'")
	if ci.skip != "" || !strings.Contains(ci.fatal, "moto is required under CI=true") {
		t.Errorf("under CI=true: fatal %q, skip %q", ci.fatal, ci.skip)
	}
	t.Setenv("CI", "")
	var dev tb
	Unavailable(&dev, "dynalite", err, "npm ci")
	if dev.fatal != "" || !strings.Contains(dev.skip, "dynalite unavailable: not installed (run `npm ci`)") {
		t.Errorf("elsewhere: fatal %q, skip %q", dev.fatal, dev.skip)
	}
}
