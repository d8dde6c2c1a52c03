package export

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestOneLine(t *testing.T) {
	cases := map[string]string{
		"plain":                  "plain",
		"first\nsecond":          "first",
		"bell\a and \x1b[31mred": `bell\x07 and \x1b[31mred`,
		"csi \u009b2J":           `csi \x9b2J`,
		"bad \xff byte":          `bad \xff byte`,
		"ok ünïcode — dash":      "ok ünïcode — dash",
	}
	for in, want := range cases {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapeJSON(t *testing.T) {
	in, _ := json.Marshal(map[string]string{"v": "a\u007fb\u009bc\u0085d é\u202egnp\u2066x\u200f"})
	got := EscapeJSON(in)
	if want := `{"v":"a\u007fb\u009bc\u0085d é\u202egnp\u2066x\u200f"}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func FuzzEscapeTerminalControls(f *testing.F) {
	for _, s := range []string{"", "plain", "\u009b[2J", "\x7f", "é\u0080\u009f\u00a0", "\x1b]0;title\a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		js, err := json.Marshal(s)
		if err != nil {
			t.Skip()
		}
		out := EscapeJSON(js)
		for _, r := range string(out) {
			if unsafeRune(r) {
				t.Fatalf("%U left in %q", r, out)
			}
		}
		for i := 0; i < len(out); i++ {
			if out[i] < 0x20 || out[i] == 0x7f || (out[i] == 0xc2 && i+1 < len(out) && out[i+1] >= 0x80 && out[i+1] <= 0x9f) {
				t.Fatalf("control byte left at %d in %q", i, out)
			}
		}
		var back, want string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("escaped JSON %q does not parse: %v", out, err)
		}
		_ = json.Unmarshal(js, &want)
		if back != want {
			t.Fatalf("escaping changed the value: %q became %q", want, back)
		}
	})
}

// Format characters draw nothing: left raw, `seg#a\u200db#x` reads as the
// different key `seg#ab#x`. Every one of category Cf is escaped, in text
// and in JSON (past the basic plane as a surrogate pair JSON reads back).
func TestFormatCharactersEscaped(t *testing.T) {
	for _, r := range []rune{0x00ad, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2060, 0x2061, 0x2064, 0xfeff, 0x0600, 0xfff9, 0xe0001, 0xe0041} {
		s := "seg#a" + string(r) + "b#x"
		if got := Sanitize(s); got == s || strings.ContainsRune(got, r) {
			t.Errorf("Sanitize left %U raw: %q", r, got)
		}
		if got := OneLine(s); strings.ContainsRune(got, r) {
			t.Errorf("OneLine left %U raw: %q", r, got)
		}
		js, _ := json.Marshal(s)
		out := EscapeJSON(js)
		if strings.ContainsRune(string(out), r) {
			t.Errorf("EscapeJSON left %U raw: %s", r, out)
		}
		var back string
		if err := json.Unmarshal(out, &back); err != nil || back != s {
			t.Errorf("EscapeJSON of %U does not read back: %s (%v)", r, out, err)
		}
	}
	if got := Sanitize("a\U000e0001b"); got != `a\U000e0001b` {
		t.Errorf("Sanitize past the basic plane = %q", got)
	}
}
