package dynamo

import (
	"strings"

	"github.com/dynascope/dynascope/internal/domain"
)

// A leaf level (100 items under LEAF#, nothing deeper) is best read as a
// plain query reads it: one request. Its own walk cannot tell before its
// first read, but the walk of the level above read its first keys: those
// say the child's level is flat (domain.Child.Flat), and opening it with
// ChildrenRequest.Flat reads plain pages from the start, no probe first.

// flatness is what the keys a walker read say of each child's own
// level: flat where two or more keys were read under it, each an item one
// level down, and none deeper (a level likely of leaves, read plainly when
// opened); a deeper key seen once rules it out.
type flatness struct {
	leaves map[string]int
	deep   map[string]bool
}

// read takes keys read in order; it says whether any child's flatness
// may have changed.
func (f *flatness) read(keys []string, prefix, delim string) bool {
	if delim == "" {
		return false
	}
	if f.leaves == nil {
		f.leaves, f.deep = map[string]int{}, map[string]bool{}
	}
	changed := false
	for _, k := range keys {
		name, leaf, ok := domain.ChildOf(prefix, k, delim)
		if !ok || leaf {
			continue
		}
		changed = true
		if strings.Contains(k[len(prefix)+len(name)+len(delim):], delim) {
			f.deep[name] = true
		} else {
			f.leaves[name]++
		}
	}
	return changed
}

// is says a child's own level looks flat.
func (f *flatness) is(name string) bool { return f.leaves[name] >= 2 && !f.deep[name] }
