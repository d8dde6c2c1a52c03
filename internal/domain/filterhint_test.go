package domain

import (
	"slices"
	"testing"
)

func TestBareWords(t *testing.T) {
	known := func(name string) bool {
		return slices.Contains([]string{"Level", "Message", "tags", "Temperature", "Limit"}, name)
	}
	for _, c := range []struct {
		filter string
		want   []string
	}{
		{`Level = ERROR`, []string{"ERROR"}},
		{`Level = "ERROR"`, nil},
		{`Level = Message`, nil}, // two attributes compared: both known
		{`Temperature > Limit`, nil},
		{`Level = ERROR or Level = WARN and not Level = ERROR`, []string{"ERROR", "WARN"}},
		{`Level in (ERROR, "INFO", WARN)`, []string{"ERROR", "WARN"}},
		{`Temperature between LOW and 30`, []string{"LOW"}},
		{`contains(tags, urgent)`, []string{"urgent"}},
		{`begins_with(Message, "boot")`, nil},
		{`attribute_exists(Nope)`, nil}, // a path where a path belongs
		{`Level = a.b`, nil},            // a document path: meant as one
		{`Level = x[0]`, nil},
		{`size(Message) > Big`, []string{"Big"}},
	} {
		n, err := ParseFilter(c.filter)
		if err != nil {
			t.Fatalf("%s: %v", c.filter, err)
		}
		if got := BareWords(n, known); !slices.Equal(got, c.want) {
			t.Errorf("BareWords(%s) = %q, want %q", c.filter, got, c.want)
		}
	}
}
