package cli

import (
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

// silentServer accepts connections, reads what is sent and never answers:
// a hung load balancer, a stopped-but-listening process.
func silentServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go func() {
				buf := make([]byte, 4096)
				for {
					if _, err := c.Read(buf); err != nil {
						return
					}
				}
			}()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + l.Addr().String()
}

// TestSilentServerGivesUp: a server that accepts and never answers ends
// `tables` and `items` with one line naming the endpoint, the deadline and
// the attempts, exit 1, within the bound --timeout's help states.
func TestSilentServerGivesUp(t *testing.T) {
	isolateAWS(t)
	ep := silentServer(t)
	timeout := silentTimeout(t)
	bound := dynamo.Target{Timeout: timeout}.GiveUpAfter()
	for _, args := range [][]string{{"tables"}, {"tables", "--output", "text"}, {"items", "--table", "Locations", "--pk", "USA"}} {
		start := time.Now()
		out, errs, code := cli(t, append(args, "--endpoint-url", ep, "--region", "us-east-1", "--timeout", timeout.String())...)
		took := time.Since(start)
		want := fmt.Sprintf(" (3 attempts, each given %s) — check --endpoint-url or raise --timeout", dynamo.Seconds(timeout))
		if code != exitFailure || !strings.Contains(errs, "no answer from "+ep+" in ") || !strings.Contains(errs, want) || strings.Count(errs, "\n") != 1 || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", args, code, out, errs, want)
		}
		// The time it states is the time it waited, not one attempt's
		// deadline (34 s of silence used to say "after 10 s").
		if m := waitedRE.FindStringSubmatch(errs); m == nil {
			t.Errorf("no time waited in %q", errs)
		} else if waited, _ := time.ParseDuration(strings.ReplaceAll(m[1], " ", "")); waited < 3*timeout || waited > took+100*time.Millisecond { // rounded to 0.1 s
			t.Errorf("says it waited %v; it waited %v, 3 attempts of %v at least", waited, took, timeout)
		}
		// Not a speed assertion: a command that never gives up is the bug.
		if took > bound+5*time.Second {
			t.Errorf("%v: gave up after %v; the stated bound is %v", args, took, bound)
		}
		t.Logf("%v: gave up after %v (bound %v)", args, took.Round(time.Millisecond), bound)
	}
}

var waitedRE = regexp.MustCompile(` in ([0-9.]+ ?(?:s|ms)) \(`)

// silentTimeout is the attempt deadline the silent-server tests use:
// short, unless DYNASCOPE_SILENT_TIMEOUT=10s asks to measure the default.
func silentTimeout(t *testing.T) time.Duration {
	if d, err := time.ParseDuration(os.Getenv("DYNASCOPE_SILENT_TIMEOUT")); err == nil {
		return d
	}
	return 300 * time.Millisecond
}

// TestTimeoutFlag: --timeout and the configuration's timeout are checked
// before anything is read.
func TestTimeoutFlag(t *testing.T) {
	isolateAWS(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tables", "--endpoint-url", "http://127.0.0.1:1", "--timeout", "-1s"}, "--timeout -1s is out of range"},
		{[]string{"tables", "--endpoint-url", "http://127.0.0.1:1", "--timeout", "11m"}, "--timeout 11m0s is out of range"},
		{[]string{"tables", "--endpoint-url", "http://127.0.0.1:1", "--timeout", "soon"}, `invalid argument "soon" for "--timeout" flag`},
	} {
		_, errs, code := cli(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q; want %q", tc.args, code, errs, tc.want)
		}
	}
	if got := (dynamo.Target{}).GiveUpAfter(); got != 36*time.Second {
		t.Errorf("default bound %v, want 36s (3 × 10 s + 2 s + 4 s)", got)
	}
}

// TestDynaliteStoppedAndRestarted: with the server gone a command fails at
// once saying it cannot reach it; started again on the same port, the same
// command reads.
func TestDynaliteStoppedAndRestarted(t *testing.T) {
	isolateAWS(t)
	srv := dynalitetest.Start(t)
	ctx := t.Context()
	if _, err := demo.Seed(ctx, srv.Client(), demo.Options{Tables: []string{"Locations"}}); err != nil {
		t.Fatal(err)
	}
	args := []string{"items", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", "Locations", "--pk", "USA", "--limit", "3", "--timeout", "2s"}
	if out, _ := mustRun(t, args...); strings.Count(out, "\n") != 3 {
		t.Fatalf("before: %q", out)
	}
	srv.Stop()
	start := time.Now()
	_, errs, code := cli(t, args...)
	if code != exitFailure || !strings.Contains(errs, "cannot reach "+strings.TrimPrefix(srv.Endpoint, "http://")+" (region us-east-1)") {
		t.Fatalf("stopped: exit %d, %q", code, errs)
	}
	t.Logf("stopped: failed after %v: %s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(errs))
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if _, err := demo.Seed(ctx, srv.Client(), demo.Options{Tables: []string{"Locations"}}); err != nil {
		t.Fatal(err)
	}
	if out, _ := mustRun(t, args...); strings.Count(out, "\n") != 3 {
		t.Fatalf("after the restart: %q", out)
	}
}
