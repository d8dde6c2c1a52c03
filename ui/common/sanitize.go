package common

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sanitize makes item data safe to print: control characters (C0, C1, DEL),
// escape sequences, bidirectional overrides and invalid UTF-8 are shown
// escaped, so a value can never move the cursor, recolour the screen,
// write the clipboard or reorder what the user reads.
func Sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0, isBidi(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			return utf8.ValidString(s) && !needsEscape(s)
		}
	}
	return true
}

func needsEscape(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || isBidi(r) {
			return true
		}
	}
	return false
}

// isBidi reports the bidirectional formatting characters (embeddings,
// overrides, isolates and marks) that can make text read other than it is.
func isBidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}
