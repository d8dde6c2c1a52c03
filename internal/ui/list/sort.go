package list

import (
	"fmt"
	"math/big"
	"sort"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// Sort orders the rows a list has loaded by one attribute (s cycles
// it through the visible columns, S flips it): a view of what is loaded,
// never a read, so the title says so. The rows keep their load order
// underneath; row maps a line of the grid to its row. Of a long list only
// the rows held are sorted (rows let go far from the cursor are not read
// again for it), and nothing is let go while the sort is shown.
type Sort struct {
	Attr  string // "" unsorted
	desc  bool
	order []int
}

// cycle moves to the next of attrs (the visible columns), then back to
// the load order.
func (s *Sort) cycle(attrs []string) {
	next := ""
	if s.Attr == "" && len(attrs) > 0 {
		next = attrs[0]
	}
	for i, a := range attrs {
		if a == s.Attr && i+1 < len(attrs) {
			next = attrs[i+1]
		}
	}
	s.Attr, s.desc = next, false
}

// flip reverses the order (sorting by the first column when unsorted).
func (s *Sort) flip(attrs []string) {
	if s.Attr == "" {
		s.cycle(attrs)
		s.desc = true
		return
	}
	s.desc = !s.desc
}

// Apply orders items; with no sort column, their load order.
func (s *Sort) Apply(items []dynamo.Item) {
	s.ApplyRows(len(items), func(i int) (dynamo.Item, bool) { return items[i], true }, nil)
}

// ApplyRows orders n listed rows, get giving each (a row that is no item,
// such as the gap between a list's start and its end, goes last); the
// rows letGo reports are left out of a sort (nil: none). Unsorted, every
// line is its row: no order is kept.
func (s *Sort) ApplyRows(n int, get func(int) (dynamo.Item, bool), letGo func(int) bool) {
	s.order = s.order[:0]
	if s.Attr == "" {
		return
	}
	for i := range n {
		if letGo == nil || !letGo(i) {
			s.order = append(s.order, i)
		}
	}
	sort.SliceStable(s.order, func(a, b int) bool {
		ia, okA := get(s.order[a])
		ib, okB := get(s.order[b])
		if !okA || !okB {
			return okA && !okB
		}
		c := CompareValues(ia[s.Attr], ib[s.Attr])
		if s.desc {
			return c > 0
		}
		return c < 0
	})
}

// Lines is how many Lines list n rows: all of them unsorted, the rows
// sorted otherwise.
func (s *Sort) Lines(n int) int {
	if s.Attr == "" {
		return n
	}
	return len(s.order)
}

// Row is the loaded Row shown on line r.
func (s *Sort) Row(r int) int {
	if r < len(s.order) {
		return s.order[r]
	}
	return r
}

// Line is the grid Line that shows loaded row i (the cursor follows it).
func (s *Sort) Line(i int) int {
	for r, x := range s.order {
		if x == i {
			return r
		}
	}
	return i
}

// Title says what the order is and that it covers the loaded rows only,
// or the rows held of those loaded.
func (s *Sort) Title(held, loaded int) string {
	if s.Attr == "" {
		return ""
	}
	arrow := "↑"
	if s.desc {
		arrow = "↓"
	}
	if held < loaded {
		return fmt.Sprintf("sorted by %s %s · the %s rows held of %s loaded, not the table", common.Sanitize(s.Attr), arrow, common.Thousands(held), common.Thousands(loaded))
	}
	return fmt.Sprintf("sorted by %s %s · %s loaded rows, not the table", common.Sanitize(s.Attr), arrow, common.Thousands(loaded))
}

// CompareValues orders two values of one attribute: absent last, numbers
// by value (exactly, as DynamoDB's 38 digits need), strings and binaries
// by their bytes, other types by their type, then their cell text.
func CompareValues(a, b types.AttributeValue) int {
	ra, rb := typeRank(a), typeRank(b)
	if ra != rb {
		return ra - rb
	}
	switch x := a.(type) {
	case *types.AttributeValueMemberN:
		fa, okA := new(big.Rat).SetString(x.Value)
		fb, okB := new(big.Rat).SetString(b.(*types.AttributeValueMemberN).Value)
		if okA && okB {
			return fa.Cmp(fb)
		}
	case *types.AttributeValueMemberS:
		return compareStrings(x.Value, b.(*types.AttributeValueMemberS).Value)
	case *types.AttributeValueMemberB:
		return compareStrings(string(x.Value), string(b.(*types.AttributeValueMemberB).Value))
	}
	return compareStrings(common.Cell(a), common.Cell(b))
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// typeRank puts numbers first, then strings, binaries, the rest, and
// absent values last.
func typeRank(v types.AttributeValue) int {
	switch v.(type) {
	case *types.AttributeValueMemberN:
		return 0
	case *types.AttributeValueMemberS:
		return 1
	case *types.AttributeValueMemberB:
		return 2
	case nil:
		return 9
	}
	return 5
}

func SortKeyPressed(s *Sort, msg tea.KeyPressMsg, k keymap.KeyMap, attrs []string) {
	if key.Matches(msg, k.SortFlip) {
		s.flip(attrs)
		return
	}
	s.cycle(attrs)
}
