package domain

import (
	"testing"
	"unicode/utf8"
)

func TestNextName(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		ok         bool
	}{
		{"C00", "C01", true},
		{"C09", "C10", true},
		{"C24", "C25", true},
		{"AK", "AL", true},
		{"AZ", "BA", true},
		{"az", "ba", true},
		{"v9", "w0", true},
		{"user-01", "user-02", true},
		{"user-99", "", false},
		{"99", "", false},
		{"ZZ", "", false},
		{"NY!", "", false},
		{"", "", false},
		{"ÎLE", "ÎLF", true},
		{"Zürich", "Zürici", true}, // only the ASCII tail counts
	} {
		got, ok := NextName(tc.name)
		if got != tc.want || ok != tc.ok {
			t.Errorf("NextName(%q) = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzNextName: a guess is always greater than the name, the same length,
// and valid UTF-8 when the name is.
func FuzzNextName(f *testing.F) {
	for _, s := range []string{"C00", "AZ", "Zürich", "\xff9", "a\x00z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		next, ok := NextName(name)
		if !ok {
			return
		}
		if next <= name || len(next) != len(name) || (utf8.ValidString(name) && !utf8.ValidString(next)) {
			t.Fatalf("NextName(%q) = %q", name, next)
		}
	})
}
