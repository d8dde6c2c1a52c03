package domain

import (
	"encoding/json"
	"testing"
)

func TestCompareSides(t *testing.T) {
	key := map[string]any{"PK": "p", "SK": "a"}
	item := func(kv ...any) map[string]any {
		m := map[string]any{"PK": "p", "SK": "a"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name        string
		left, right map[string]any
		status      DiffStatus
		changes     int
	}{
		{"same", item("a", "1"), item("a", "1"), Same, 0},
		{"a set in another order is the same set", item("s", []string{"x", "y"}, "n", []json.Number{"1", "2"}, "b", [][]byte{{2}, {1}}),
			item("s", []string{"y", "x"}, "n", []json.Number{"2", "1"}, "b", [][]byte{{1}, {2}}), Same, 0},
		{"sets inside maps and lists too", item("m", map[string]any{"s": []string{"x", "y"}}, "l", []any{[]string{"a", "b"}}),
			item("m", map[string]any{"s": []string{"y", "x"}}, "l", []any{[]string{"b", "a"}}), Same, 0},
		{"a list in another order differs", item("l", []any{"x", "y"}), item("l", []any{"y", "x"}), Differs, 2},
		{"a value and an attribute", item("a", "1"), item("a", "2", "b", true), Differs, 2},
		{"only left", item(), nil, OnlyLeft, 0},
		{"only right", nil, item(), OnlyRight, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := CompareSides(key, tc.left, tc.right)
			if d.Status != tc.status || len(d.Changes) != tc.changes {
				t.Errorf("got %s with %d changes %+v, want %s with %d", d.Status, len(d.Changes), d.Changes, tc.status, tc.changes)
			}
		})
	}
	left := item("s", []string{"y", "x"})
	CompareSides(key, left, item())
	if got := left["s"].([]string); got[0] != "y" {
		t.Errorf("comparing sorted the caller's set: %v", got)
	}
	ds := []KeyDiff{{Status: Same}, {Status: OnlyLeft}}
	if Identical(ds) || !Identical(ds[:1]) || DiffCounts(ds)[OnlyLeft] != 1 || DiffCounts(nil)[Differs] != 0 {
		t.Error("Identical or DiffCounts miscount")
	}
}
