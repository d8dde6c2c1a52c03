package domain

import (
	"strings"
	"testing"
)

func TestKeyQueryDescribe(t *testing.T) {
	for _, tc := range []struct {
		q          KeyQuery
		expr, vals string
	}{
		{KeyQuery{PKName: "PK", PK: S("USA")}, "PK = :pk", `:pk="USA"`},
		{KeyQuery{PKName: "PK", PK: S("USA"), SKName: "SK", SK: SKCondition{Op: SKBeginsWith, A: S("NY#")}},
			"PK = :pk AND begins_with(SK, :prefix)", `:pk="USA" :prefix="NY#"`},
		{KeyQuery{PKName: "DeviceID", PK: N("123"), SKName: "Timestamp", SK: SKCondition{Op: SKLt, A: N("1536019200")}},
			"DeviceID = :pk AND Timestamp < :sk", `:pk=123 :sk=1536019200`},
		{KeyQuery{PKName: "P", PK: S("a"), SKName: "S", SK: SKCondition{Op: SKBetween, A: S("x"), B: S("y")}},
			"P = :pk AND S BETWEEN :lo AND :hi", `:pk="a" :lo="x" :hi="y"`},
		{KeyQuery{PKName: "P", PK: S("\x1b[2J"), SKName: "S", SK: SKCondition{Op: SKGe, A: B([]byte{0xff})}},
			"P = :pk AND S >= :sk", `:pk="\x1b[2J" :sk=b64:/w==`},
		// Names that are no plain word in backticks, as the filter and
		// partiql --explain write them: "g s = :pk" read as a condition
		// on g.
		{KeyQuery{PKName: "g s", PK: S("a"), SKName: "a.b", SK: SKCondition{Op: SKBeginsWith, A: S("x")}},
			"`g s` = :pk AND begins_with(`a.b`, :prefix)", `:pk="a" :prefix="x"`},
		{KeyQuery{PKName: "g s", PK: S("a"), SKName: "s`k", SK: SKCondition{Op: SKBetween, A: S("x"), B: S("y")}},
			"`g s` = :pk AND `s``k` BETWEEN :lo AND :hi", `:pk="a" :lo="x" :hi="y"`},
	} {
		if got := tc.q.Expression(); got != tc.expr {
			t.Errorf("Expression() = %q, want %q", got, tc.expr)
		}
		if got := tc.q.Values(); got != tc.vals {
			t.Errorf("Values() = %q, want %q", got, tc.vals)
		}
	}
}

func TestParseKeyValue(t *testing.T) {
	for _, tc := range []struct {
		t       KeyType
		in      string
		want    string
		wantErr string
	}{
		{TypeS, "USA", `"USA"`, ""},
		{TypeN, "123", "123", ""},
		{TypeN, " -1.5e3 ", "-1.5e3", ""},
		{TypeN, "abc", "", "not a number"},
		{TypeN, "0x10", "", "not a number"},
		{TypeN, "Inf", "", "not a number"},
		{TypeN, "NaN", "", "not a number"},
		{TypeB, "/w==", "b64:/w==", ""},
		{TypeB, "%%", "", "not base64"},
		{TypeB, "AP8", "b64:AP8=", ""},     // unpadded
		{TypeB, "b64:AP8", "b64:AP8=", ""}, // unpadded, tagged
		{TypeB, "_w", "b64:/w==", ""},      // URL-safe
		{TypeB, "AP8==", "", "not base64"},
	} {
		v, err := ParseKeyValue(tc.t, tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseKeyValue(%s, %q) error %v, want %q", tc.t, tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || v.Literal() != tc.want {
			t.Errorf("ParseKeyValue(%s, %q) = %s, %v; want %s", tc.t, tc.in, v.Literal(), err, tc.want)
		}
	}
}

// FuzzParseKeyValue: any text either parses to a value that describes
// itself without raw control characters, or gives an error saying what to
// type.
func FuzzParseKeyValue(f *testing.F) {
	for _, s := range []string{"", "123", "-1.5e3", "abc", "/w==", "\x1b[2J", "1e999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, kt := range []KeyType{TypeS, TypeN, TypeB} {
			v, err := ParseKeyValue(kt, s)
			if err != nil {
				if !strings.Contains(err.Error(), "type") {
					t.Fatalf("error without advice: %v", err)
				}
				continue
			}
			if strings.ContainsAny(v.Literal(), "\x1b\x00\n") {
				t.Fatalf("literal holds raw control characters: %q", v.Literal())
			}
		}
	})
}
