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
// ("the item as plain JSON (312 bytes)"); detail, when given, ends the
// note's detail (the command itself). The result comes first and short,
// how it was sent after: a narrow status bar cuts from the end.
func Copy(text, what, detail string, tmux TmuxBufferFunc) tea.Cmd {
	return tea.Batch(tea.SetClipboard(text), func() tea.Msg {
		note := "sent to the clipboard: " + what
		var more []string
		if tmux != nil {
			ctx, cancel := context.WithTimeout(context.Background(), tmuxTimeout)
			defer cancel()
			if err := tmux(ctx, text); err != nil {
				msg, _, _ := strings.Cut(err.Error(), "\n")
				// That, rather than the text, is worth the room.
				return NoticeMsg{Text: note + "; the tmux buffer was not loaded", Detail: msg}
			}
			note = "sent to the clipboard and a tmux buffer: " + what
			more = append(more, "prefix ] pastes the tmux buffer")
		}
		if detail != "" {
			more = append([]string{detail}, more...)
		}
		more = append(more, "by OSC 52 (unconfirmed)")
		return NoticeMsg{Text: note, Detail: strings.Join(more, " · ")}
	})
}
