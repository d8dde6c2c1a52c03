package memory

import (
	"sort"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// entry is one item in a sorted partition: ordered by sk, then tie (which
// orders index entries sharing an index sort key, as dynalite does).
type entry struct {
	sk  string
	tie string
	rec record
}

// item decodes the entry's item: a fresh map on every call.
func (e entry) item() map[string]types.AttributeValue { return e.rec.item() }

func (e entry) less(sk, tie string) bool {
	if c := compareBytes(e.sk, sk); c != 0 {
		return c < 0
	}
	return e.tie < tie
}

type partition struct {
	key     types.AttributeValue
	hash    string // dynalite's scan order
	enc     string
	entries []entry
}

// search returns the position of the first entry not less than (sk, tie).
func (p *partition) search(sk, tie string) int {
	return sort.Search(len(p.entries), func(i int) bool { return !p.entries[i].less(sk, tie) })
}

func (p *partition) put(e entry) {
	n := len(p.entries)
	if n == 0 || p.entries[n-1].less(e.sk, e.tie) {
		p.entries = append(p.entries, e) // keys usually arrive in order
		return
	}
	i := p.search(e.sk, e.tie)
	if i < n && p.entries[i].sk == e.sk && p.entries[i].tie == e.tie {
		p.entries[i] = e
		return
	}
	p.entries = append(p.entries, entry{})
	copy(p.entries[i+1:], p.entries[i:])
	p.entries[i] = e
}

func (p *partition) remove(sk, tie string) {
	i := p.search(sk, tie)
	if i < len(p.entries) && p.entries[i].sk == sk && p.entries[i].tie == tie {
		p.entries = append(p.entries[:i], p.entries[i+1:]...)
	}
}

// store holds a table's or an index's items by partition.
type store struct {
	pkName, skName string
	parts          map[string]*partition
	orderMu        sync.Mutex
	order          []*partition // scan order; nil when stale (set to nil under the database's write lock)
}

func newStore(pk, sk string) *store {
	return &store{pkName: pk, skName: sk, parts: map[string]*partition{}}
}

func (s *store) partition(pk types.AttributeValue, create bool) *partition {
	sk, _ := sortKey(pk)
	var buf [64]byte
	enc := append(append(buf[:0], typeName(pk)...), sk...)
	p := s.parts[string(enc)] // looked up without a copy of the key
	if p == nil && create {
		p = &partition{key: pk, enc: string(enc), hash: hashPrefix(keyBytes(pk))}
		s.parts[p.enc] = p
		s.order = nil
	}
	return p
}

// scanOrder is the partitions in scan order, worked out on the first scan
// after a partition was added. Scans run concurrently under the database's
// read lock, so the order is built under orderMu and published whole.
func (s *store) scanOrder() []*partition {
	s.orderMu.Lock()
	defer s.orderMu.Unlock()
	if s.order == nil {
		order := make([]*partition, 0, len(s.parts))
		for _, p := range s.parts {
			order = append(order, p)
		}
		sort.Slice(order, func(i, j int) bool {
			a, b := order[i], order[j]
			if a.hash != b.hash {
				return a.hash < b.hash
			}
			return a.enc < b.enc
		})
		s.order = order
	}
	return s.order
}

func (s *store) count() int {
	n := 0
	for _, p := range s.parts {
		n += len(p.entries)
	}
	return n
}
