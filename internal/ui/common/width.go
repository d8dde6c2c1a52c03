package common

import (
	"strings"
	"sync/atomic"

	"github.com/charmbracelet/x/ansi"
)

// The grid and the frame measure and cut every line on screen on every
// View, and Bubble Tea asks for a View after every message: 200 keys
// typed at once are 200 Views. ansi's width walks a string grapheme by
// grapheme, which was most of a View's time on rows of 300-byte values.
// A string of printable ASCII and "…" (as most keys and values are, and
// the rows the grid cuts) is one cell a character, measured and cut by
// counting; anything else (an escape, a control, other UTF-8) takes
// ansi's walk.

const ellipsis = "…"

// plainWidth is s's width when s is printable ASCII and "…" alone (ok).
func plainWidth(s string) (n int, ok bool) {
	for i := 0; i < len(s); n++ {
		switch c := s[i]; {
		case c >= 0x20 && c <= 0x7e:
			i++
		case strings.HasPrefix(s[i:], ellipsis):
			i += len(ellipsis)
		default:
			return 0, false
		}
	}
	return n, true
}

// cells is the byte offset after plain s's first n cells.
func cells(s string, n int) int {
	i := 0
	for ; i < len(s) && n > 0; n-- {
		if s[i] <= 0x7e {
			i++
		} else {
			i += len(ellipsis)
		}
	}
	return i
}

// graphemes is whether the terminal counts cells by grapheme (it said it
// keeps Unicode mode 2027): Bubble Tea's renderer counts as the terminal
// does, wcwidth's rune by rune unless the terminal says so, and every
// line is measured here the same way. Measured by graphemes where the
// renderer counted runes, 👍🏽 (a thumb and a skin tone, two cells to
// one, four to the other) pushed the item view's right border off the
// line in tmux.
var graphemes atomic.Bool

// CountGraphemes makes every measure count by grapheme, as the renderer
// does once the terminal reports Unicode mode 2027.
func CountGraphemes(on bool) { graphemes.Store(on) }

// method is how the renderer counts cells now.
func method() ansi.Method {
	if graphemes.Load() {
		return ansi.GraphemeWidth
	}
	return ansi.WcWidth
}

// Width is s's width in cells, as the renderer counts them.
func Width(s string) int {
	if n, ok := plainWidth(s); ok {
		return n
	}
	return method().StringWidth(s)
}

// Cut is s's cells from left to right, as the renderer counts them
// (ansi's WcWidth.Cut of x/ansi v0.11.8 returns the wrong cells of a
// styled line).
func Cut(s string, left, right int) string {
	return Truncate(TruncateLeft(s, left), right-left, "")
}

// Truncate is s cut to w cells, as the renderer counts them, with tail.
func Truncate(s string, w int, tail string) string {
	sw, ok := plainWidth(s)
	if !ok {
		return truncated(s, w, tail)
	}
	if sw <= w {
		return s
	}
	w -= Width(tail)
	if w < 0 {
		return ""
	}
	return s[:cells(s, w)] + tail
}

// TruncateLeft is s less its first n cells, as the renderer counts them.
func TruncateLeft(s string, n int) string {
	if _, ok := plainWidth(s); !ok {
		return method().TruncateLeft(s, n, "")
	}
	if n <= 0 {
		return s
	}
	return s[cells(s, n):]
}

// truncated is method().Truncate, held to w cells: x/ansi v0.11.8's
// WcWidth.Truncate returns a string whole where its width by grapheme
// fits (a 👍🏽 line two cells too wide for the renderer, which counts it
// rune by rune), so it is asked for less until it fits.
func truncated(s string, w int, tail string) string {
	m := method()
	out := m.Truncate(s, w, tail)
	for n := w - 1; n >= 0 && m.StringWidth(out) > w; n-- {
		out = m.Truncate(s, n, tail)
	}
	return out
}
