//go:build linux

package ui

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestPtyChild is the explorer the job-control test runs in a pty (it
// does nothing in a normal run).
func TestPtyChild(t *testing.T) {
	if os.Getenv("DYNASCOPE_PTY_CHILD") != "1" {
		t.Skip("run by TestJobControlInAPty")
	}
	err := RunWith(context.Background(), Config{Client: demoData(t), Connection: "DEMO", Now: demoClock})
	fmt.Fprintln(os.Stderr, "explorer ended:", err)
}

// pty is a pseudo-terminal: the test holds the master, the explorer the
// slave as its terminal.
type pty struct {
	master, slave *os.File
	mu            sync.Mutex
	out           bytes.Buffer
}

func openPty(t *testing.T) *pty {
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err == nil {
		err = unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0)
	}
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	if err := unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: 80}); err != nil {
		t.Fatal(err)
	}
	p := &pty{master: master, slave: slave}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { slave.Close(); master.Close() })
	return p
}

// output is what the explorer wrote from offset from.
func (p *pty) output(from int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()[min(from, p.out.Len()):]
}

func (p *pty) mark() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.Len()
}

// raw reports whether the terminal is in raw mode (no line editing, no
// echo), as the explorer sets it.
func (p *pty) raw(t *testing.T) bool {
	tio, err := unix.IoctlGetTermios(int(p.slave.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&(unix.ICANON|unix.ECHO) == 0
}

// eventually waits for cond: a deadline for a failing run, never a
// measure of speed.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func stopped(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return strings.HasPrefix(rest, "T")
}

// TestJobControlInAPty runs the explorer in a pty and stops it as a shell
// would: kill -TSTP and ctrl+z give the terminal back (raw mode and the
// alternate screen left) and stop it; fg (SIGCONT) brings raw mode and the
// screen back; SIGQUIT leaves the terminal as it found it. Before, TSTP
// stopped it raw, fg came back without raw mode or a redraw, ctrl+z was
// swallowed and QUIT left raw mode, the alternate screen and the mouse on.
func TestJobControlInAPty(t *testing.T) {
	if os.Getenv("DYNASCOPE_PTY_CHILD") == "1" {
		t.Skip("the child")
	}
	p := openPty(t)
	if p.raw(t) {
		t.Fatal("the pty starts raw")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPtyChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "DYNASCOPE_PTY_CHILD=1", "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, p.slave, p.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its own job: a stop stops it alone
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = syscall.Kill(-pid, syscall.SIGKILL) })
	eventually(t, "the tables screen, raw", func() bool { return strings.Contains(p.output(0), "Tables") && p.raw(t) })

	suspendAndResume := func(how string, suspend func()) {
		t.Helper()
		from := p.mark()
		suspend()
		eventually(t, how+" stops the explorer", func() bool { return stopped(pid) })
		if p.raw(t) {
			t.Fatalf("%s: stopped with the terminal raw", how)
		}
		eventually(t, how+" leaves the alternate screen", func() bool { return strings.Contains(p.output(from), "\x1b[?1049l") })
		from = p.mark()
		if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
		eventually(t, "fg after "+how+" brings raw mode and the screen back", func() bool {
			out := p.output(from)
			return !stopped(pid) && p.raw(t) && strings.Contains(out, "\x1b[?1049h") && strings.Contains(out, "Tables")
		})
	}
	suspendAndResume("kill -TSTP", func() { _ = syscall.Kill(pid, syscall.SIGTSTP) })
	suspendAndResume("ctrl+z", func() { _, _ = p.master.Write([]byte{0x1a}) })
	if _, err := p.master.Write([]byte("j")); err != nil { // keys still arrive
		t.Fatal(err)
	}

	from := p.mark()
	if err := syscall.Kill(pid, syscall.SIGQUIT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatal("SIGQUIT did not end the explorer")
	}
	if p.raw(t) {
		t.Fatal("SIGQUIT left the terminal raw")
	}
	// The restore, then SIGQUIT's own course (a goroutine dump).
	eventually(t, "SIGQUIT restores the terminal, then dumps", func() bool {
		out := p.output(from)
		restored := strings.Index(out, "\x1b[?1049l")
		return restored >= 0 && strings.Contains(out, "\x1b[?1002l") && strings.Contains(out[restored:], "SIGQUIT")
	})
}
