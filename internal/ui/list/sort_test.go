package list

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
)

func TestCompareValues(t *testing.T) {
	n := func(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, c := range []struct {
		name string
		a, b types.AttributeValue
		want int
	}{
		{"numbers by value, not text", n("9"), n("10"), -1},
		{"negative and decimal", n("-1.5"), n("-1.25"), -1},
		{"38 digits exactly", n("12345678901234567890123456789012345678"), n("12345678901234567890123456789012345679"), -1},
		{"equal numbers", n("1.0"), n("1"), 0},
		{"strings by bytes", s("Zed"), s("alpha"), -1},
		{"numbers before strings", s("1"), n("2"), 1},
		{"absent last", nil, s(""), 1},
		{"both absent", nil, nil, 0},
	} {
		if got := CompareValues(c.a, c.b); sign(got) != c.want {
			t.Errorf("%s: compare = %d, want %d", c.name, got, c.want)
		}
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func TestRowSortCycleAndFlip(t *testing.T) {
	items := []dynamo.Item{
		{"A": &types.AttributeValueMemberN{Value: "10"}, "B": &types.AttributeValueMemberS{Value: "x"}},
		{"A": &types.AttributeValueMemberN{Value: "9"}},
		{"A": &types.AttributeValueMemberN{Value: "100"}, "B": &types.AttributeValueMemberS{Value: "a"}},
	}
	var s Sort
	attrs := []string{"A", "B"}
	for _, step := range []struct {
		do    func()
		title string
		order []int
	}{
		{func() {}, "", []int{0, 1, 2}},
		{func() { s.cycle(attrs) }, "sorted by A ↑ · 3 loaded rows, not the table", []int{1, 0, 2}},
		{func() { s.flip(attrs) }, "sorted by A ↓ · 3 loaded rows, not the table", []int{2, 0, 1}},
		{func() { s.cycle(attrs) }, "sorted by B ↑ · 3 loaded rows, not the table", []int{2, 0, 1}},
		{func() { s.cycle(attrs) }, "", []int{0, 1, 2}},
	} {
		step.do()
		s.Apply(items)
		if s.Title(len(items), len(items)) != step.title {
			t.Fatalf("title %q, want %q", s.Title(len(items), len(items)), step.title)
		}
		for r, want := range step.order {
			if s.Row(r) != want || s.Line(want) != r {
				t.Fatalf("%q: line %d shows row %d, want %d", step.title, r, s.Row(r), want)
			}
		}
	}
}
