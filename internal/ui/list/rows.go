package list

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
	"slices"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// A list's rows as the pages that read them: each page remembers where its
// read started and how many items it evaluated, so that its rows can be let
// go when the cursor is far from them and read again, by the same Query,
// when it comes back.

// segment is one page of a list.
type segment struct {
	start dynamo.Item // the read's ExclusiveStartKey (nil: the list's start)
	// evaluated is the read's Limit again: the items DynamoDB evaluated for
	// it (all of them rows, unfiltered). 0: it cannot be read again (a range
	// merged across prefixes, an item followed, a filtered page cut short).
	evaluated int32
	back      bool          // read backwards (the end of the list, after G)
	n         int           // its rows
	items     []dynamo.Item // in the order read; nil once let go
	sum       uint64        // what its rows were when read, to tell a changed table
	end       dynamo.Item   // its last row in the order read, kept when let go: where a re-read stops
}

func (s *segment) held() bool { return s.items != nil || s.n == 0 }

// rereadable reports whether the segment can be let go: it can be read
// again by the same request.
func (s *segment) rereadable() bool { return s.evaluated > 0 }

// Rows is the rows of a list (or of its end, read backwards) in
// segments.
type Rows struct {
	Segs []segment
	offs []int // offs[k] is the row segs[k] starts at; offs[len(segs)] the total
	held int   // rows held
	// backwards: the store lists rows in the order read backwards (the
	// tail); a backward segment in a forward store shows reversed.
	backwards bool
}

// Len is the rows listed, held or not.
func (s *Rows) Len() int {
	if len(s.offs) == 0 {
		return 0
	}
	return s.offs[len(s.offs)-1]
}

// add appends a page's rows (an empty page adds nothing: its successor
// keeps its own start).
func (s *Rows) add(seg segment) {
	if seg.n == 0 {
		return
	}
	if len(s.offs) == 0 {
		s.offs = []int{0}
	}
	s.Segs = append(s.Segs, seg)
	s.offs = append(s.offs, s.Len()+seg.n)
	if seg.items != nil {
		s.held += seg.n
	}
}

// find is the segment holding row i (-1 outside the store).
func (s *Rows) find(i int) int {
	if i < 0 || i >= s.Len() {
		return -1
	}
	return sort.SearchInts(s.offs[1:], i+1)
}

// at is row i; ok is false when it is not held (or not there).
func (s *Rows) At(i int) (dynamo.Item, bool) {
	k := s.find(i)
	if k < 0 || s.Segs[k].items == nil {
		return nil, false
	}
	seg := &s.Segs[k]
	j := i - s.offs[k]
	if seg.back != s.backwards {
		j = seg.n - 1 - j
	}
	return seg.items[j], true
}

// letGo reports whether row i is listed but not held.
func (s *Rows) letGo(i int) bool {
	k := s.find(i)
	return k >= 0 && !s.Segs[k].held()
}

// drop lets segment k's rows go.
func (s *Rows) drop(k int) {
	if s.Segs[k].items != nil && s.Segs[k].rereadable() {
		s.Segs[k].end = s.Segs[k].items[s.Segs[k].n-1]
		s.held -= s.Segs[k].n
		s.Segs[k].items = nil
	}
}

// refill puts a re-read's rows in segment k, which may now hold a
// different number of rows (the rows after it move).
func (s *Rows) refill(k int, items []dynamo.Item) {
	seg := &s.Segs[k]
	if seg.items != nil {
		s.held -= seg.n
	}
	if items == nil {
		items = []dynamo.Item{}
	}
	d := len(items) - seg.n
	seg.items, seg.n = items, len(items)
	s.held += seg.n
	for j := k + 1; j < len(s.offs); j++ {
		s.offs[j] += d
	}
}

// Each calls f on the held rows in order until it returns false.
func (s *Rows) Each(f func(dynamo.Item) bool) {
	for i := range s.Segs {
		seg := &s.Segs[i]
		for j := range seg.items {
			if seg.back != s.backwards {
				j = len(seg.items) - 1 - j
			}
			if !f(seg.items[j]) {
				return
			}
		}
	}
}

// First is up to n held rows from the start.
func (s *Rows) First(n int) []dynamo.Item {
	var out []dynamo.Item
	s.Each(func(it dynamo.Item) bool {
		if len(out) >= n {
			return false
		}
		out = append(out, it)
		return true
	})
	return out
}

// last is the store's last row, if held.
func (s *Rows) last() (dynamo.Item, bool) { return s.At(s.Len() - 1) }

// Followed adds an item that arrived while following, at the front or the
// end, in a segment of Followed items that is never let go.
func (s *Rows) Followed(it dynamo.Item, front bool) {
	if len(s.offs) == 0 {
		s.offs = []int{0}
	}
	if front {
		if len(s.Segs) == 0 || s.Segs[0].rereadable() {
			s.Segs = slices.Insert(s.Segs, 0, segment{})
			s.offs = slices.Insert(s.offs, 0, 0)
		}
		s.Segs[0].items = append([]dynamo.Item{it}, s.Segs[0].items...)
	} else {
		if n := len(s.Segs); n == 0 || s.Segs[n-1].rereadable() {
			s.Segs = append(s.Segs, segment{})
			s.offs = append(s.offs, s.Len())
		}
		k := len(s.Segs) - 1
		s.Segs[k].items = append(s.Segs[k].items, it)
	}
	k := 0
	if !front {
		k = len(s.Segs) - 1
	}
	s.Segs[k].n++
	s.held++
	for j := k + 1; j < len(s.offs); j++ {
		s.offs[j]++
	}
}

// digest sums items in order, every attribute's name, type and value, so
// that a re-read can tell whether it got what was read before.
func digest(items []dynamo.Item) uint64 {
	h := fnv.New64a()
	for _, it := range items {
		digestItem(h, it)
	}
	return h.Sum64()
}

func digestItem(h hash.Hash64, it map[string]types.AttributeValue) {
	names := make([]string, 0, len(it))
	for n := range it {
		names = append(names, n)
	}
	slices.Sort(names)
	digestLen(h, len(names))
	for _, n := range names {
		digestString(h, n)
		digestValue(h, it[n])
	}
}

func digestValue(h hash.Hash64, v types.AttributeValue) {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		h.Write([]byte{'S'})
		digestString(h, x.Value)
	case *types.AttributeValueMemberN:
		h.Write([]byte{'N'})
		digestString(h, x.Value)
	case *types.AttributeValueMemberB:
		h.Write([]byte{'B'})
		digestString(h, string(x.Value))
	case *types.AttributeValueMemberBOOL:
		b := byte('f')
		if x.Value {
			b = 't'
		}
		h.Write([]byte{'T', b})
	case *types.AttributeValueMemberNULL:
		h.Write([]byte{'0'})
	case *types.AttributeValueMemberSS:
		h.Write([]byte{'s'})
		digestStrings(h, x.Value)
	case *types.AttributeValueMemberNS:
		h.Write([]byte{'n'})
		digestStrings(h, x.Value)
	case *types.AttributeValueMemberBS:
		h.Write([]byte{'b'})
		digestLen(h, len(x.Value))
		for _, b := range x.Value {
			digestString(h, string(b))
		}
	case *types.AttributeValueMemberL:
		h.Write([]byte{'L'})
		digestLen(h, len(x.Value))
		for _, e := range x.Value {
			digestValue(h, e)
		}
	case *types.AttributeValueMemberM:
		h.Write([]byte{'M'})
		digestItem(h, x.Value)
	default:
		h.Write([]byte{'?'})
	}
}

func digestStrings(h hash.Hash64, ss []string) {
	digestLen(h, len(ss))
	for _, s := range ss {
		digestString(h, s)
	}
}

func digestString(h hash.Hash64, s string) {
	digestLen(h, len(s))
	h.Write([]byte(s))
}

func digestLen(h hash.Hash64, n int) {
	var b [binary.MaxVarintLen64]byte
	h.Write(b[:binary.PutUvarint(b[:], uint64(n))])
}
