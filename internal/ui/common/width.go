package common

import (
	"strings"

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

// Width is ansi.StringWidth(s).
func Width(s string) int {
	if n, ok := plainWidth(s); ok {
		return n
	}
	return ansi.StringWidth(s)
}

// Truncate is ansi.Truncate(s, w, tail).
func Truncate(s string, w int, tail string) string {
	sw, ok := plainWidth(s)
	if !ok {
		return ansi.Truncate(s, w, tail)
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

// TruncateLeft is ansi.TruncateLeft(s, n, "").
func TruncateLeft(s string, n int) string {
	if _, ok := plainWidth(s); !ok {
		return ansi.TruncateLeft(s, n, "")
	}
	if n <= 0 {
		return s
	}
	return s[cells(s, n):]
}
