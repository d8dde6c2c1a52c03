package export

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"Zürich ÎLE 東京 🎉", "Zürich ÎLE 東京 🎉"},
		{"a\x1b[31mred", `a\x1b[31mred`},
		{"\x1b]52;c;ZXZpbA==\x07", `\x1b]52;c;ZXZpbA==\x07`},
		{"\x1b]8;;http://x\x1b\\link", `\x1b]8;;http://x\x1b\\link`},
		{`a\u200bb`, `a\\u200bb`}, // typed as it is, not the character
		{"a\u200bb", `a\u200bb`},
		{`a\x1b[31mred`, `a\\x1b[31mred`},
		{`C:\dir`, `C:\\dir`},
		{"line\nbreak\ttab\r", `line\nbreak\ttab\r`},
		{"nul\x00", `nul\x00`},
		{"del\x7f", `del\x7f`},
		{"c1\u009b31m", `c1\u009b31m`},
		{"bidi\u202egnp.exe", `bidi\u202egnp.exe`},
		{"isolate\u2066x\u2069", `isolate\u2066x\u2069`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"line\u2028para\u2029", `line\u2028para\u2029`},
	} {
		if got := Sanitize(tc.in); got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzSanitize: whatever the input, the output is valid UTF-8 with no
// control, C1 or bidi character left.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "a", "\x1b[2J", "\xff\xfe", "\u202e", "東京", "\x1b]52;c;x\x07", `a\u200bb`, "a\u200bb", `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Sanitize(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unsafeRune(r) {
				t.Fatalf("%U survived in %q (from %q)", r, out, s)
			}
		}
		if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool {
			return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\\' || unsafeRune(r)
		}) && out != s {
			t.Fatalf("clean text changed: %q -> %q", s, out)
		}
		if back, ok := unsanitize(out); !ok || back != s {
			t.Fatalf("%q shows as %q, which reads back as %q: two texts could look alike", s, out, back)
		}
		// The frame guards what its pages escaped: escaped text is never
		// escaped twice, and raw text is still made safe.
		if g := Guard(out); g != out {
			t.Fatalf("Guard escaped escaped text again: %q -> %q", out, g)
		}
		for _, r := range Guard(s) {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unsafeRune(r) {
				t.Fatalf("%U survived Guard in %q", r, s)
			}
		}
	})
}

// unsanitize reads Sanitize's escapes back: what it shows names one text.
func unsanitize(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			return "", false
		}
		i++
		width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i]]
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'x', 'u', 'U':
			if i+1+width > len(s) {
				return "", false
			}
			n, err := strconv.ParseUint(s[i+1:i+1+width], 16, 32)
			if err != nil {
				return "", false
			}
			if s[i] == 'x' {
				b.WriteByte(byte(n))
			} else {
				b.WriteRune(rune(n))
			}
			i += width
		default:
			return "", false
		}
	}
	return b.String(), true
}
