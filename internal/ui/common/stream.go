package common

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// Stream is the command for a read that answers more than once (a walk
// that shows children as it finds them, a count, follow, an export): run
// starts when the program runs the command, never in Update, and the
// command returns run's first message. run sends each message on ch with
// ch in it, so that the message's handler returns Next for the one after;
// ch is closed when run returns, so a run cancelled before it said
// anything leaves no command waiting.
func Stream[M any](size int, run func(ch chan M)) tea.Cmd {
	return func() tea.Msg {
		ch := make(chan M, size)
		go func() {
			defer close(ch)
			run(ch)
		}()
		return Next((<-chan M)(ch))()
	}
}

// Next is the command that waits for a stream's next message (nil once
// the stream has ended).
func Next[M any](ch <-chan M) tea.Cmd {
	return func() tea.Msg {
		m, ok := <-ch
		if !ok {
			return nil
		}
		return m
	}
}

// Context is the program's context, which every read derives from: it
// ends when the explorer quits, and with it every read still running.
// Without one (a model driven by a test) it is context.Background.
func (c *Common) Context() context.Context {
	if c.Ctx == nil {
		return context.Background()
	}
	return c.Ctx
}
