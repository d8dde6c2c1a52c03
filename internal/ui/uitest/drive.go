// Package uitest drives a Bubble Tea model synchronously, for the tests of
// the ui package and of the packages that open the explorer: every command
// runs at once and its message goes back through Update, as the program
// would, until nothing is left to do. It is the one such driver.
package uitest

import (
	"testing"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// maxSteps bounds a drive: a model that keeps asking for more (a ticking
// command resent on every answer) fails the test instead of hanging it.
const maxSteps = 10000

// Driver drives one model. Its zero options drop only the spinner's
// ticks.
type Driver struct {
	T testing.TB
	M tea.Model
	// Drop reports messages that are not delivered (ticks the test paces
	// itself); nil drops none but the spinner's.
	Drop func(tea.Msg) bool
	// Handled, when set, is called after each message Update took, on the
	// test's goroutine: a test looks at the screen between two messages
	// there, never from a command's goroutine (which would race with
	// Update).
	Handled func(tea.Msg)
}

// Run runs cmd and everything it leads to.
func (d *Driver) Run(cmd tea.Cmd) {
	d.T.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > maxSteps {
			d.T.Fatal("the model never settled")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		switch msg := msg.(type) {
		case nil, spinner.TickMsg:
			continue
		case tea.BatchMsg:
			queue = append(queue, msg...)
			continue
		case tea.QuitMsg:
			return
		}
		if d.Drop != nil && d.Drop(msg) {
			continue
		}
		_, next := d.M.Update(msg)
		d.handled(msg)
		queue = append(queue, next)
	}
}

// Send delivers msg and drives what follows.
func (d *Driver) Send(msg tea.Msg) {
	d.T.Helper()
	_, cmd := d.M.Update(msg)
	d.handled(msg)
	d.Run(cmd)
}

func (d *Driver) handled(msg tea.Msg) {
	if d.Handled != nil {
		d.Handled(msg)
	}
}

// Drive runs cmd and everything it leads to through m.
func Drive(t testing.TB, m tea.Model, cmd tea.Cmd) {
	t.Helper()
	(&Driver{T: t, M: m}).Run(cmd)
}

// Send delivers msg to m and drives what follows.
func Send(t testing.TB, m tea.Model, msg tea.Msg) {
	t.Helper()
	(&Driver{T: t, M: m}).Send(msg)
}

// Screen is what m shows, without colours.
func Screen(m tea.Model) string { return ansi.Strip(m.View().Content) }
