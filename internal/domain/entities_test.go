package domain

import (
	"fmt"
	"strings"
	"testing"
)

// TestInferEntities: a discriminator names types where items carry one;
// else the key templates do.
func TestInferEntities(t *testing.T) {
	var items []EntityItem
	for i := range 6 {
		items = append(items, EntityItem{PK: fmt.Sprintf("$app#user_%d", i), SK: "$user_1",
			Types: map[string]string{"__edb_e__": "S", "name": "S", "age": "N"}, Values: map[string]string{"__edb_e__": "user"}})
	}
	items = append(items, EntityItem{PK: "$app#order_1", SK: "$order_1", Types: map[string]string{"__edb_e__": "S", "total": "N"}, Values: map[string]string{"__edb_e__": "order"}})
	got := InferEntities(items, "#")
	if len(got) != 2 || got[0].Name != "user" || got[0].Count != 6 || got[0].Discriminator != "__edb_e__" || got[1].Name != "order" {
		t.Fatalf("by discriminator: %+v", got)
	}
	if a := got[0].Attributes; len(a) != 3 || a[0].Presence != 1 || a[0].Types[0] == "" {
		t.Errorf("attributes: %+v", a)
	}
	items = nil
	for _, u := range []string{"alice", "bob", "carol", "dave"} {
		items = append(items, EntityItem{PK: "USER#" + u, SK: "#METADATA#" + u, Types: map[string]string{"name": "S"}})
		items = append(items, EntityItem{PK: "GAME#g" + u, SK: "USER#" + u, Types: map[string]string{"score": "N"}})
	}
	got = InferEntities(items, "")
	var names []string
	for _, e := range got {
		names = append(names, fmt.Sprintf("%s=%d %s / %s", e.Name, e.Count, e.KeyTemplates["pk"], e.KeyTemplates["sk"]))
	}
	if strings.Join(names, ", ") != "USER·METADATA=4 USER#{id} / #METADATA#{id}, GAME·USER=4 GAME#{id} / USER#{id}" {
		t.Errorf("by keys: %s", strings.Join(names, ", "))
	}
}
