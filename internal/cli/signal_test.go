package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildBinary builds dynascope once for the signal tests.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "dynascope")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/dynascope/dynascope")
	cmd.Env = developerEnv // the developer's Go settings, not the sealed home
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// slowDynamoDB answers DescribeTable and the first Query page (with more
// to come), then holds every request for a later page until the client
// hangs up: an export is in progress, with part of its data read. waiting
// tells of a request for the second page, which the export sends only
// once the first is written; a first page asked again (the SDK retrying
// an attempt a busy machine let time out) is answered again, never taken
// for the second (a signal then came before the first page was counted).
func slowDynamoDB(t *testing.T) (url string, waiting <-chan struct{}) {
	t.Helper()
	ch := make(chan struct{}, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		switch op := r.Header.Get("X-Amz-Target"); {
		case strings.HasSuffix(op, ".DescribeTable"):
			fmt.Fprint(w, `{"Table":{"TableName":"T","TableStatus":"ACTIVE","ItemCount":0,"TableSizeBytes":0,
				"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],
				"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"}]}}`)
		case strings.HasSuffix(op, ".Query") && !bytes.Contains(body, []byte(`"ExclusiveStartKey"`)):
			var items []string
			for i := range 100 {
				items = append(items, fmt.Sprintf(`{"PK":{"S":"p"},"SK":{"S":"k%03d"},"Text":{"S":"=1+%d"}}`, i, i))
			}
			fmt.Fprintf(w, `{"Count":100,"ScannedCount":100,"Items":[%s],"LastEvaluatedKey":{"PK":{"S":"p"},"SK":{"S":"k099"}}}`, strings.Join(items, ","))
		default:
			ch <- struct{}{}
			<-r.Context().Done() // never answers
		}
	}))
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
	return srv.URL, ch
}

// TestSignalsMidExport: SIGTERM, SIGHUP or Ctrl+C in the middle of an
// export to a file, in every format, removes the partial file and the
// temporary data and exits 128+signal with one line; to stdout, the lines
// already read are there whole.
func TestSignalsMidExport(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("builds the binary")
	}
	isolateAWS(t)
	bin := buildBinary(t)
	run := func(t *testing.T, sig syscall.Signal, output string, dir string) (stdout, stderr string, code int) {
		ep, waiting := slowDynamoDB(t)
		cmd := exec.Command(bin, "items", "--endpoint-url", ep, "--region", "us-east-1", "--table", "T", "--pk", "p", "--output", output, "--timeout", "1m")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TMPDIR="+dir) // a spool outside the output's directory would show here too
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-waiting:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("the export never reached its second page; stderr %s", errb.String())
		}
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v did not stop the export", sig)
		}
		return out.String(), errb.String(), cmd.ProcessState.ExitCode()
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		word string
	}{{syscall.SIGTERM, 143, "SIGTERM"}, {syscall.SIGHUP, 129, "SIGHUP"}, {syscall.SIGINT, 130, "interrupted"}} {
		for _, format := range []string{"csv", "jsonl", "json"} {
			t.Run(fmt.Sprintf("%s %s file", tc.word, format), func(t *testing.T) {
				dir := t.TempDir()
				_, errs, code := run(t, tc.sig, "out."+format, dir)
				entries, _ := os.ReadDir(dir)
				var left []string
				for _, e := range entries {
					left = append(left, e.Name())
				}
				if code != tc.code || len(left) != 0 || !strings.Contains(errs, tc.word) {
					t.Errorf("exit %d (want %d), files left %v, stderr %q", code, tc.code, left, errs)
				}
			})
		}
	}
	t.Run("SIGTERM jsonl stdout", func(t *testing.T) {
		out, errs, code := run(t, syscall.SIGTERM, "jsonl", t.TempDir())
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != 143 || len(lines) != 100 || !strings.HasSuffix(out, "\n") {
			t.Fatalf("exit %d, %d lines, stderr %q", code, len(lines), errs)
		}
		for _, l := range lines {
			if !json.Valid([]byte(l)) {
				t.Fatalf("a cut line: %q", l)
			}
		}
	})
}

// TestStoppedExplorerExitsNonZero: the explorer quits cleanly when Bubble
// Tea sees SIGTERM, but the run was stopped: the exit code says so.
func TestStoppedExplorerExitsNonZero(t *testing.T) {
	for sig, want := range map[syscall.Signal]int{syscall.SIGTERM: 143, syscall.SIGHUP: 129, syscall.SIGINT: 130} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(Interrupted(sig))
		var errb bytes.Buffer
		if code := report(ctx, &errb, nil); code != want || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want %d", sig, code, errb.String(), want)
		}
	}
}

// TestScanIntoAPipeClosedEarly (#39): `dynascope scan … | head -1`: the
// reader goes after one line and the scan ends as any command in a pipe
// does (SIGPIPE, the shell's 141, or 0), in every format, without a Go
// panic, a stack trace or an error about writing; where SIGPIPE is
// ignored (the write fails with EPIPE) it exits 141 as quietly, where it
// said "dynascope: writing: broken pipe" and exited 1.
func TestScanIntoAPipeClosedEarly(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("builds the binary")
	}
	isolateAWS(t)
	bin := buildBinary(t)
	for _, format := range []string{"jsonl", "json", "csv"} {
		cmd := exec.Command(bin, "scan", "--demo", "--table", "DeviceLogs", "--max-rcu", "none", "--segments", "4", "--output", format)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		out.Close() // head -1 has its line
		if err != nil || line == "" {
			t.Errorf("%s: first line %q: %v", format, line, err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%s: the scan went on after its reader left", format)
		}
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if !(err == nil || ws.Signaled() && ws.Signal() == syscall.SIGPIPE) {
			t.Errorf("%s: %v (exit %d), stderr %q", format, err, cmd.ProcessState.ExitCode(), errb.String())
		}
		for _, bad := range []string{"panic", "goroutine", "broken pipe", "writing"} {
			if strings.Contains(errb.String(), bad) {
				t.Errorf("%s: stderr holds %q: %s", format, bad, errb.String())
			}
		}
		var stderr bytes.Buffer
		code := Run(context.Background(), []string{"scan", "--demo", "--table", "DeviceLogs", "--max-rcu", "none", "--output", format}, &closedPipe{}, &stderr)
		if code != 141 || strings.Contains(stderr.String(), "dynascope:") {
			t.Errorf("%s, SIGPIPE ignored: exit %d: %s", format, code, stderr.String())
		}
	}
}

// closedPipe takes one write, then fails as a pipe whose reader left does
// where SIGPIPE is ignored.
type closedPipe struct{ n int }

func (w *closedPipe) Write(p []byte) (int, error) {
	if w.n++; w.n > 1 {
		return 0, syscall.EPIPE
	}
	return len(p), nil
}
