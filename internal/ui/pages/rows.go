package pages

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

// rowStore is the rows of a list (or of its end, read backwards) in
// segments.
type rowStore struct {
	segs []segment
	offs []int // offs[k] is the row segs[k] starts at; offs[len(segs)] the total
	held int   // rows held
	// backwards: the store lists rows in the order read backwards (the
	// tail); a backward segment in a forward store shows reversed.
	backwards bool
}

// len is the rows listed, held or not.
func (s *rowStore) len() int {
	if len(s.offs) == 0 {
		return 0
	}
	return s.offs[len(s.offs)-1]
}

// add appends a page's rows (an empty page adds nothing: its successor
// keeps its own start).
func (s *rowStore) add(seg segment) {
	if seg.n == 0 {
		return
	}
	if len(s.offs) == 0 {
		s.offs = []int{0}
	}
	s.segs = append(s.segs, seg)
	s.offs = append(s.offs, s.len()+seg.n)
	if seg.items != nil {
		s.held += seg.n
	}
}

// find is the segment holding row i (-1 outside the store).
func (s *rowStore) find(i int) int {
	if i < 0 || i >= s.len() {
		return -1
	}
	return sort.SearchInts(s.offs[1:], i+1)
}

// at is row i; ok is false when it is not held (or not there).
func (s *rowStore) at(i int) (dynamo.Item, bool) {
	k := s.find(i)
	if k < 0 || s.segs[k].items == nil {
		return nil, false
	}
	seg := &s.segs[k]
	j := i - s.offs[k]
	if seg.back != s.backwards {
		j = seg.n - 1 - j
	}
	return seg.items[j], true
}

// letGo reports whether row i is listed but not held.
func (s *rowStore) letGo(i int) bool {
	k := s.find(i)
	return k >= 0 && !s.segs[k].held()
}

// drop lets segment k's rows go.
func (s *rowStore) drop(k int) {
	if s.segs[k].items != nil && s.segs[k].rereadable() {
		s.segs[k].end = s.segs[k].items[s.segs[k].n-1]
		s.held -= s.segs[k].n
		s.segs[k].items = nil
	}
}

// refill puts a re-read's rows in segment k, which may now hold a
// different number of rows (the rows after it move).
func (s *rowStore) refill(k int, items []dynamo.Item) {
	seg := &s.segs[k]
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

// each calls f on the held rows in order until it returns false.
func (s *rowStore) each(f func(dynamo.Item) bool) {
	for i := range s.segs {
		seg := &s.segs[i]
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

// first is up to n held rows from the start.
func (s *rowStore) first(n int) []dynamo.Item {
	var out []dynamo.Item
	s.each(func(it dynamo.Item) bool {
		if len(out) >= n {
			return false
		}
		out = append(out, it)
		return true
	})
	return out
}

// last is the store's last row, if held.
func (s *rowStore) last() (dynamo.Item, bool) { return s.at(s.len() - 1) }

// followed adds an item that arrived while following, at the front or the
// end, in a segment of followed items that is never let go.
func (s *rowStore) followed(it dynamo.Item, front bool) {
	if len(s.offs) == 0 {
		s.offs = []int{0}
	}
	if front {
		if len(s.segs) == 0 || s.segs[0].rereadable() {
			s.segs = slices.Insert(s.segs, 0, segment{})
			s.offs = slices.Insert(s.offs, 0, 0)
		}
		s.segs[0].items = append([]dynamo.Item{it}, s.segs[0].items...)
	} else {
		if n := len(s.segs); n == 0 || s.segs[n-1].rereadable() {
			s.segs = append(s.segs, segment{})
			s.offs = append(s.offs, s.len())
		}
		k := len(s.segs) - 1
		s.segs[k].items = append(s.segs[k].items, it)
	}
	k := 0
	if !front {
		k = len(s.segs) - 1
	}
	s.segs[k].n++
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
