package domain

import (
	"strings"
	"testing"
)

// A value typed in a filter on a masked attribute is as secret as the
// attribute's values: shown, it is a stand-in; other values stay.
func TestMaskFilter(t *testing.T) {
	m, _ := ParseMask([]string{"Email", "Owner.phone"})
	for _, c := range []struct{ in, hidden, kept string }{
		{`Email = "alice@example.com"`, "alice@example.com", ""},
		{`Email in ("a@x.io", "b@x.io") and status = "FAILED"`, "a@x.io", "FAILED"},
		{`begins_with(Email, "alice")`, "alice", ""},
		{`Owner.phone between "100" and "200"`, "100", ""},
		{`not (Email <> "bob@x.io")`, "bob@x.io", ""},
		{`size(Email) > 3 or attempts > 7`, "", "7"},
	} {
		f, err := ParseFilter(c.in)
		if err != nil {
			t.Fatal(err)
		}
		shown := FormatFilter(m.Filter(f))
		if c.hidden != "" && (strings.Contains(shown, c.hidden) || !strings.Contains(shown, "‹m")) {
			t.Errorf("%s shown as %s", c.in, shown)
		}
		if c.kept != "" && !strings.Contains(shown, c.kept) {
			t.Errorf("%s lost %s: %s", c.in, c.kept, shown)
		}
		if FormatFilter(f) != FormatFilter(must(ParseFilter(c.in))) {
			t.Errorf("masking changed the filter itself: %s", FormatFilter(f))
		}
	}
}

func must(f FilterNode, err error) FilterNode {
	if err != nil {
		panic(err)
	}
	return f
}
