package keymap

import (
	"os"
	"strings"
	"testing"
)

const (
	refStart = "<!-- keys: generated from keymap.Default().Reference(); UPDATE_README=1 go test ./internal/keymap -->\n"
	refEnd   = "<!-- /keys -->"
)

// TestReferenceCoversEveryAction: no binding is left out of the README.
func TestReferenceCoversEveryAction(t *testing.T) {
	ref := Default().Reference()
	for _, a := range Actions() {
		if !strings.Contains(ref, "`"+a+"`") {
			t.Errorf("action %s is not in the key reference", a)
		}
	}
}

// TestReadmeKeyReference keeps the README's key reference what the
// keymap makes; UPDATE_README=1 rewrites it.
func TestReadmeKeyReference(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, refStart), strings.Index(s, refEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the key reference markers %q … %q", refStart, refEnd)
	}
	got := s[i+len(refStart) : j]
	want := Default().Reference()
	if got == want {
		return
	}
	if os.Getenv("UPDATE_README") != "" {
		if err := os.WriteFile("../../README.md", []byte(s[:i+len(refStart)]+want+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("README.md's key reference is out of date: UPDATE_README=1 go test ./internal/keymap rewrites it")
}
