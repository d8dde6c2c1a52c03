package domain

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// DiffStatus is how one key compares across two sides (two environments,
// two tables).
type DiffStatus string

const (
	Same      DiffStatus = "same"
	Differs   DiffStatus = "differs"
	OnlyLeft  DiffStatus = "only-left"
	OnlyRight DiffStatus = "only-right"
)

// KeyDiff is one key's comparison: its status and, where both sides hold
// it and they differ, the item diff (Change.Old is the left side's value,
// Change.New the right's).
type KeyDiff struct {
	Key     map[string]any
	Status  DiffStatus
	Changes []Change
}

// CompareSides compares the item a key holds on the left and on the right
// (nil: that side does not hold it), with the versions' item diff. Sets
// are compared as sets: two servers may send their members in different
// orders.
func CompareSides(key, left, right map[string]any) KeyDiff {
	d := KeyDiff{Key: key}
	switch {
	case left == nil:
		d.Status = OnlyRight
	case right == nil:
		d.Status = OnlyLeft
	default:
		d.Changes = Diff(canonicalSets(left), canonicalSets(right))
		d.Status = Same
		if len(d.Changes) > 0 {
			d.Status = Differs
		}
	}
	return d
}

// DiffCounts counts a comparison's keys by status.
func DiffCounts(ds []KeyDiff) map[DiffStatus]int {
	out := map[DiffStatus]int{Same: 0, Differs: 0, OnlyLeft: 0, OnlyRight: 0}
	for _, d := range ds {
		out[d.Status]++
	}
	return out
}

// Identical reports whether every key compared is the same on both sides.
func Identical(ds []KeyDiff) bool {
	for _, d := range ds {
		if d.Status != Same {
			return false
		}
	}
	return true
}

// canonicalSets is item with its sets' members in one order, descending
// into maps and lists; the item itself is not changed.
func canonicalSets(item map[string]any) map[string]any {
	out := make(map[string]any, len(item))
	for k, v := range item {
		out[k] = canonicalValue(v)
	}
	return out
}

func canonicalValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return canonicalSets(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = canonicalValue(e)
		}
		return out
	case []string:
		return slices.Sorted(slices.Values(x))
	case []json.Number:
		return slices.SortedFunc(slices.Values(x), func(a, b json.Number) int { return strings.Compare(string(a), string(b)) })
	case [][]byte:
		return slices.SortedFunc(slices.Values(x), bytes.Compare)
	}
	return v
}
