// Package uitest drives a Bubble Tea model synchronously for tests outside
// the ui package: every command runs at once and its message goes back
// through Update, as the program would, until nothing is left to do.
package uitest

import (
	"testing"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Drive runs cmd and everything it leads to through m.
func Drive(t testing.TB, m tea.Model, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
			t.Fatal("the model never settled")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil, spinner.TickMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			return
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// Send delivers msg to m and drives what follows.
func Send(t testing.TB, m tea.Model, msg tea.Msg) {
	t.Helper()
	_, cmd := m.Update(msg)
	Drive(t, m, cmd)
}

// Screen is what m shows, without colours.
func Screen(m tea.Model) string { return ansi.Strip(m.View().Content) }
