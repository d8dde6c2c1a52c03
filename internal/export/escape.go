package export

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Sanitize makes text safe to print on a terminal or write to a file that
// will be printed: control characters (C0, C1, DEL), escape sequences,
// bidirectional and other format characters (zero-width, BOM), line and
// paragraph separators and invalid UTF-8 are shown escaped, so a value can never move the cursor,
// recolour the screen, write the clipboard or reorder what the user reads.
// The backslash itself is doubled, so an escape is never ambiguous: the
// text `a\u200bb` typed as it is shows as `a\\u200bb`, the character
// between a and b as `a\u200bb`. The explorer's screen and every output
// format use it.
func Sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	return escape(s, true)
}

// Guard is Sanitize for text that is already escaped (by Sanitize, or
// quoted as Go quotes): the backslash is left as it is, so guarding it
// again changes nothing, while a raw control or format character that
// slipped in is still shown escaped. The explorer's frame uses it around
// the breadcrumb and request line its pages escaped piece by piece.
func Guard(s string) string {
	if isPlain(strings.ReplaceAll(s, `\`, "")) {
		return s
	}
	return escape(s, false)
}

func escape(s string, backslash bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\' && backslash:
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 || c == '\\' {
			return utf8.ValidString(s) && !needsEscape(s)
		}
	}
	return true
}

func needsEscape(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == '\\' || unsafeRune(r) {
			return true
		}
	}
	return false
}

// unsafeRune reports the characters above the C0 range that a terminal
// may obey or that change how text reads: DEL, the C1 controls
// U+0080–U+009F (U+009B alone starts an escape sequence), the
// bidirectional marks, embeddings, overrides and isolates, the line
// and paragraph separators, and every other format character (Unicode
// category Cf: zero-width spaces and joiners, the byte order mark, tags),
// which draw nothing, so `seg#a\u200db` would read as another key `seg#ab`.
func unsafeRune(r rune) bool {
	return r == 0x7f || (r >= 0x80 && r <= 0x9f) || isBidi(r) || r == '\u2028' || r == '\u2029' ||
		(r >= 0xad && unicode.Is(unicode.Cf, r))
}

// escapeRune writes r as \uXXXX, or \UXXXXXXXX past the basic plane, so
// the escape cannot run into the digits that follow it.
func escapeRune(r rune) string {
	if r > 0xffff {
		return fmt.Sprintf(`\U%08x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}

// isBidi reports the bidirectional formatting characters (embeddings,
// overrides, isolates and marks) that can make text read other than it is.
func isBidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}

// EscapeJSON rewrites the unsafe characters encoding/json leaves raw in
// JSON text as \uXXXX. Outside strings JSON has none of them, so the
// rewrite keeps the document's meaning.
func EscapeJSON(js []byte) []byte {
	dirty := false
	for i := 0; i < len(js); {
		r, n := utf8.DecodeRune(js[i:])
		if unsafeRune(r) {
			dirty = true
			break
		}
		i += n
	}
	if !dirty {
		return js
	}
	out := make([]byte, 0, len(js)+32)
	for i := 0; i < len(js); {
		r, n := utf8.DecodeRune(js[i:])
		if unsafeRune(r) {
			// JSON escapes UTF-16 units: a character past the basic plane
			// is its surrogate pair.
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		} else {
			out = append(out, js[i:i+n]...)
		}
		i += n
	}
	return out
}

// OneLine keeps the first line of s and escapes every control character,
// so a table name or a server's message can never drive the terminal.
func OneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, "\r")
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case unicode.IsControl(r) || unsafeRune(r):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				b.WriteString(escapeRune(r))
			}
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}
