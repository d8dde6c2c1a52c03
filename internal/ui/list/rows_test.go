package list

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

func rowsOf(from, n int) []dynamo.Item {
	var out []dynamo.Item
	for i := range n {
		out = append(out, dynamo.Item{"SK": &types.AttributeValueMemberN{Value: fmt.Sprint(from + i)}})
	}
	return out
}

// TestLetGoKeepsTheWindow: pages far from the cursor go first, until the
// window holds; the pages within two screens of the cursor, and those
// that cannot be read again, stay; row numbers and rows held stay where
// they were.
func TestLetGoKeepsTheWindow(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cursor  int
		held    int
		kept    []int // segments held after
		pinned  int   // a segment that cannot be read again (-1: none)
		visible int
	}{
		{"cursor at the start", 0, 100, []int{0, 1}, -1, 10},
		{"cursor in the middle", 525, 100, []int{10, 11}, -1, 10},
		{"cursor at the end", 999, 100, []int{18, 19}, -1, 10},
		{"a followed page stays", 999, 100, []int{0, 19}, 0, 10},
		{"the screen's pages stay past the window", 500, 20, []int{9, 10}, -1, 10},
		{"everything fits", 0, 1000, []int{}, -1, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Pager{c: &common.Common{HeldRows: tc.held}}
			for k := range 20 {
				seg := segment{evaluated: 50, n: 50, items: rowsOf(50*k, 50)}
				if k == tc.pinned {
					seg.evaluated = 0
				}
				p.addHead(seg)
			}
			p.letGo(tc.cursor, tc.visible)
			if tc.held >= 1000 {
				if p.HeldRows() != 1000 {
					t.Fatalf("let %d rows go with room for all", 1000-p.HeldRows())
				}
				return
			}
			held := map[int]bool{}
			for k, s := range p.Head.Segs {
				if s.items != nil {
					held[k] = true
				}
			}
			if len(held) != len(tc.kept) {
				t.Fatalf("held segments %v, want %v", held, tc.kept)
			}
			for _, k := range tc.kept {
				if !held[k] {
					t.Fatalf("held segments %v, want %v", held, tc.kept)
				}
			}
			for i := range 1000 {
				it, ok := p.Row(i)
				if ok != held[i/50] || (ok && it["SK"].(*types.AttributeValueMemberN).Value != fmt.Sprint(i)) {
					t.Fatalf("row %d: %v %v", i, it, ok)
				}
			}
		})
	}
}

// TestRowStoreBackwardPages: pages read backwards (the end, after G)
// list reversed in the head, and a re-read with fewer rows moves the rows
// after it.
func TestRowStoreBackwardPages(t *testing.T) {
	var s Rows
	s.add(segment{n: 3, items: rowsOf(0, 3), evaluated: 3})
	back := rowsOf(3, 3) // read backwards: 5, 4, 3
	back[0], back[2] = back[2], back[0]
	s.add(segment{n: 3, items: back, back: true, evaluated: 3})
	for i := range 6 {
		if it, _ := s.At(i); it["SK"].(*types.AttributeValueMemberN).Value != fmt.Sprint(i) {
			t.Fatalf("row %d is %v", i, it)
		}
	}
	s.drop(0)
	if s.held != 3 || !s.letGo(1) || s.letGo(4) {
		t.Fatalf("held %d after letting 3 go", s.held)
	}
	s.refill(0, rowsOf(0, 2))
	if s.Len() != 5 || s.held != 5 {
		t.Fatalf("%d rows, %d held after a re-read of 2", s.Len(), s.held)
	}
	if it, _ := s.At(2); it["SK"].(*types.AttributeValueMemberN).Value != "3" {
		t.Fatalf("row 2 is %v after the page before it shrank", it)
	}
}
