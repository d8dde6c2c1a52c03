//go:build unix

package ui

import (
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// jobControl keeps the terminal sane on the signals Bubble Tea leaves to
// their defaults, which stopped or killed the explorer with the terminal
// still raw, in the alternate screen and reporting the mouse:
//
//   - SIGTSTP (kill -TSTP) and ctrl+z (a key in raw mode, which the
//     terminal never turns into a signal) suspend through tea.Suspend: the
//     terminal is given back, the process stops, and on fg raw mode comes
//     back and the screen is drawn again;
//   - SIGQUIT ends the program as quitting does, the terminal restored,
//     then takes its default course (a goroutine dump, exit 2).
//
// tea.Suspend stops the process group with SIGTSTP, which is caught here
// too: once the terminal is given back, that second one stops the process
// with SIGSTOP, which cannot be caught (and stops even an orphaned group).
type jobControl struct {
	asked chan struct{} // ctrl+z
	done  chan struct{}
	quit  bool // SIGQUIT ended the program
}

// watchJobs starts job control for p; quit ends p (its context). stop
// ends the watching, and re-raises a SIGQUIT received.
func watchJobs(p *tea.Program, quit func()) *jobControl {
	j := &jobControl{asked: make(chan struct{}, 1), done: make(chan struct{})}
	tstp := make(chan os.Signal, 2)
	quits := make(chan os.Signal, 1)
	signal.Notify(tstp, syscall.SIGTSTP)
	signal.Notify(quits, syscall.SIGQUIT)
	go func() {
		defer signal.Stop(tstp)
		releasing := false // tea.Suspend is giving the terminal back
		for {
			select {
			case <-j.done:
				return
			case <-quits:
				j.quit = true
				quit()
				return
			case <-j.asked:
				releasing = true
				p.Send(tea.SuspendMsg{})
			case <-tstp:
				if !releasing {
					releasing = true
					p.Send(tea.SuspendMsg{}) // its own SIGTSTP follows
					continue
				}
				releasing = false
				_ = syscall.Kill(0, syscall.SIGSTOP) // returns on fg (SIGCONT)
			}
		}
	}()
	return j
}

// suspend asks for a suspension (ctrl+z); it reports whether job control
// takes it.
func (j *jobControl) suspend() bool {
	if j == nil {
		return false
	}
	select {
	case j.asked <- struct{}{}:
	default:
	}
	return true
}

// stop ends the watching once the program has ended and its terminal is
// restored: a SIGQUIT received then takes its default course.
func (j *jobControl) stop() {
	close(j.done)
	if j.quit {
		signal.Reset(syscall.SIGQUIT)
		_ = syscall.Kill(os.Getpid(), syscall.SIGQUIT)
		select {} // the runtime's SIGQUIT ends the process
	}
	signal.Reset(syscall.SIGQUIT)
}
