//go:build !unix

package ui

import tea "charm.land/bubbletea/v2"

// jobControl is nothing here: no SIGTSTP or SIGQUIT to keep the terminal
// sane through (see jobs_unix.go).
type jobControl struct{}

func watchJobs(*tea.Program, func()) *jobControl { return nil }
func (j *jobControl) suspend() bool              { return false }
func (j *jobControl) stop()                      {}
