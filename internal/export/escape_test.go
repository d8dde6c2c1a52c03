package export

import (
	"encoding/json"
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
