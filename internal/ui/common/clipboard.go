package common

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TmuxBufferFunc loads text into a tmux paste buffer (tmux load-buffer -).
type TmuxBufferFunc func(ctx context.Context, text string) error

// tmuxTimeout bounds the tmux command: a copy never hangs the explorer.
const tmuxTimeout = 3 * time.Second

// Copy sends text to the terminal's clipboard with OSC 52 and, under tmux
// (tmux set), into a tmux buffer too, then says exactly that: OSC 52 is
// sent, never known to have arrived (tmux's default set-clipboard external
// drops it), so the note says "sent", not "copied". what names the text
// ("the item as plain JSON (312 bytes)"); detail, when given, follows the
// note (the command itself).
func Copy(text, what, detail string, tmux TmuxBufferFunc) tea.Cmd {
	return tea.Batch(tea.SetClipboard(text), func() tea.Msg {
		note := "sent " + what + " to the terminal's clipboard (OSC 52)"
		if tmux != nil {
			ctx, cancel := context.WithTimeout(context.Background(), tmuxTimeout)
			defer cancel()
			if err := tmux(ctx, text); err != nil {
				msg, _, _ := strings.Cut(err.Error(), "\n")
				return NoticeMsg{Text: note + "; the tmux buffer was not loaded: " + msg} // that, rather than the text, is worth the room
			} else {
				note += " and loaded a tmux buffer (prefix ] pastes it)"
			}
		}
		if detail != "" {
			note += ": " + detail
		}
		return NoticeMsg{Text: note}
	})
}
