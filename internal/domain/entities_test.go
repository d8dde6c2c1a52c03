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
	// Partition keys that hold no delimiter (a highscore table's player
	// names) leave the sort keys theirs: SCORE#000512 is a SCORE, not an
	// id without a label.
	items = nil
	for _, u := range []string{"paszin", "alice", "bob"} {
		for i := range 4 {
			items = append(items, EntityItem{PK: u, SK: fmt.Sprintf("DATE#2024-12-1%dT14:36:22+00:00", i), Types: map[string]string{"points": "N"}})
			items = append(items, EntityItem{PK: u, SK: fmt.Sprintf("SCORE#%06d", 512+97*i+len(u)), Types: map[string]string{"points": "N", "GSI_1": "S"}})
		}
		items = append(items, EntityItem{PK: u, SK: "STATS", Types: map[string]string{"playCount": "N"}})
	}
	if got, want := typesBySK(items), "DATE=12 DATE#{time:2006-01-02T15:04:05-07:00}, SCORE=12 SCORE#{n}, STATS=3 STATS"; got != want {
		t.Errorf("sort keys' own delimiter:\n got %s\nwant %s", got, want)
	}
	// A hierarchy's first words are its partition's own, not labels: a
	// sample of the PLACE partition (one country's places, beside the
	// capitals) stays whole, ARGENTINA names no type; so do a country's
	// states.
	items = nil
	for i := range 6 {
		items = append(items, EntityItem{PK: "PLACE", SK: fmt.Sprintf("ARGENTINA#%s#S%d#C%d", []string{"EAST", "NORTH", "SOUTH"}[i%3], i, i), Types: map[string]string{"Name": "S"}})
	}
	for _, c := range []string{"Buenos Aires", "Brasilia"} {
		items = append(items, EntityItem{PK: "CAPITALS", SK: c, Types: map[string]string{"Capital": "S"}})
	}
	if got, want := typesBySK(items), "PLACE=6 {id}, CAPITALS=2 {id}"; got != want {
		t.Errorf("keys that begin alike:\n got %s\nwant %s", got, want)
	}
	items = nil
	for i, st := range []string{"AK", "AK", "AL", "AL", "AZ", "AZ", "CA", "CA"} {
		items = append(items, EntityItem{PK: "USA", SK: fmt.Sprintf("%s#CEDARVILLE#%d", st, 11700+i), Types: map[string]string{"City": "S"}})
	}
	items = append(items, EntityItem{PK: "USA", SK: "NY", Types: map[string]string{"City": "S"}}, EntityItem{PK: "CANADA", SK: "ON#TORONTO#1", Types: map[string]string{"City": "S"}})
	if got, want := typesBySK(items), "(no label in its keys)=10 {id}"; got != want {
		t.Errorf("a country's states:\n got %s\nwant %s", got, want)
	}
	// A library's discriminator names its items where most of the table
	// carries another (entityType) or none; a plain "type" among a few
	// items stays data.
	items = nil
	for i := range 6 {
		items = append(items, EntityItem{PK: fmt.Sprintf("USER#%d", i), SK: "PROFILE", Values: map[string]string{"entityType": "User"}})
	}
	for i := range 3 {
		items = append(items, EntityItem{PK: fmt.Sprintf("POST#%d", i), SK: "POST", Values: map[string]string{"__typename": "Post"}})
	}
	items = append(items, EntityItem{PK: "CFG#1", SK: "CFG", Values: map[string]string{"type": "blue"}})
	names = nil
	for _, e := range InferEntities(items, "#") {
		names = append(names, fmt.Sprintf("%s=%d [%s]", e.Name, e.Count, e.Discriminator))
	}
	if strings.Join(names, ", ") != "User=6 [entityType], Post=3 [__typename], CFG=1 []" {
		t.Errorf("mixed discriminators: %s", strings.Join(names, ", "))
	}
	// Keys of values only (Locations: USA / AK#CEDARVILLE#11700) hold no
	// label: "{id} / {id}" read as a name; the type says it has none, and
	// its templates keep the shape.
	items = nil
	states := []string{"AK", "AL", "AZ", "CA", "CO", "FL", "GA", "NY", "TX", "WA"}
	for i, c := range []string{"CEDARVILLE", "ANCHORAGE", "JUNEAU", "NOME", "SITKA", "KODIAK", "AUSTIN", "DALLAS", "MIAMI", "TAMPA"} {
		items = append(items, EntityItem{PK: []string{"USA", "CAN", "MEX", "GBR", "FRA", "DEU", "ESP", "ITA", "JPN", "BRA"}[i], SK: fmt.Sprintf("%s#%s#%d", states[i], c, 11700+i)})
	}
	got = InferEntities(items, "")
	if len(got) != 1 || got[0].Name != Unlabelled || strings.Contains(got[0].Name, "{") || got[0].KeyTemplates["sk"] == "" {
		t.Errorf("keys with no label: %+v", got)
	}
	// A label of letters beyond ASCII is named whole: café, not caf;
	// Ωmega, not mega; ÜBER·ORDER, not BER·ORDER.
	items = nil
	for i := range 4 {
		items = append(items, EntityItem{PK: "café", SK: fmt.Sprintf("%d", i), Types: map[string]string{"menu": "S"}},
			EntityItem{PK: "Ωmega", SK: fmt.Sprintf("%d", i), Types: map[string]string{"score": "N"}},
			EntityItem{PK: "ÜBER#" + fmt.Sprint(i), SK: fmt.Sprintf("ORDER#%d", i)})
	}
	names = nil
	for _, e := range InferEntities(items, "#") {
		names = append(names, fmt.Sprintf("%s=%d", e.Name, e.Count))
	}
	if strings.Join(names, ", ") != "café=4, Ωmega=4, ÜBER·ORDER=4" {
		t.Errorf("labels beyond ASCII: %s", strings.Join(names, ", "))
	}
	// An ElectroDB index kept KEYS_ONLY (no __edb_e__): its books by
	// author, a name with a space among them (le guin, as ElectroDB
	// lower-cases it), are one type, not the others and le guin's.
	items = nil
	for i := range 40 {
		a := []string{"butler", "herbert", "le guin", "tolkien", "banks"}[i%5]
		items = append(items, EntityItem{PK: "$library#author_" + a, SK: fmt.Sprintf("$book_1#published_%d#bookid_b%04d", 1950+i, i)})
	}
	names = nil
	for _, e := range InferEntities(items, "#") {
		names = append(names, fmt.Sprintf("%d %s / %s", e.Count, e.KeyTemplates["pk"], e.KeyTemplates["sk"]))
	}
	if len(names) != 1 || !strings.HasPrefix(names[0], "40 ") {
		t.Errorf("a value with a space: %q", names)
	}
}

// typesBySK is each type InferEntities names, with its count and sort
// key template, its delimiter guessed.
func typesBySK(items []EntityItem) string {
	var out []string
	for _, e := range InferEntities(items, "") {
		out = append(out, fmt.Sprintf("%s=%d %s", e.Name, e.Count, e.KeyTemplates["sk"]))
	}
	return strings.Join(out, ", ")
}

// TestEstimateCounts: a sample's type of one fixed partition read to its
// end is counted exactly; types of many partitions, of a key with an id,
// or of a partition the sample stopped inside, share the rest of the
// table's items by their share of the sample.
func TestEstimateCounts(t *testing.T) {
	var items []EntityItem
	add := func(n int, pk, sk string, partial bool) {
		for i := range n {
			items = append(items, EntityItem{PK: pk, SK: fmt.Sprintf(sk, i), Types: map[string]string{"PK": "S", "SK": "S"}, Partial: partial})
		}
	}
	add(20, "CAPITALS", "C%02d", false) // read whole: exact
	add(60, "PLACE", "P#%04d", true)    // the sample stopped inside it
	add(1, "GAME#g002", "USER#u%d", false)
	for i := range 19 {
		add(1, fmt.Sprintf("USER#u%03d", i), "PROFILE#%d", false) // each read whole, many more unread
	}
	es := InferEntities(items, "#")
	EstimateCounts(es, 1020)
	var got []string
	for _, e := range es {
		got = append(got, fmt.Sprintf("%s=%d/%v", e.Name, e.Count, e.CountExact))
	}
	// 1,000 items left after CAPITALS' 20, shared 60:1:19 of the 80 read.
	if want := "PLACE=750/false, USER·PROFILE=238/false, CAPITALS=20/true, GAME·USER=13/false"; strings.Join(got, ", ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, ", "), want)
	}
	// A sample that read all DynamoDB counted (its count lags) scales none.
	es = InferEntities(items, "#")
	EstimateCounts(es, 50)
	if es[0].Count != 60 {
		t.Errorf("a count past the table's: %+v", es[0])
	}
}

// TestEntityTemplatesCoverTheirKeys: a type's key templates stand for
// every key of its items: keys that differ in several segments
// (FR#ARA#LYON beside US#CA#LA) enumerate each, a part's text after a
// placeholder is enumerated (v{n}_Header, v{n}_Lines), and keys of
// another shape are another form beside the most common (R#{ulid} |
// {time}), never left out.
func TestEntityTemplatesCoverTheirKeys(t *testing.T) {
	ulid := "01KJZKQW65NXW1RNJ47E65GH2B"
	for _, tc := range []struct {
		name  string
		items []EntityItem
	}{
		{"stores", []EntityItem{
			{PK: "STORE", SK: "FR#ARA#LYON#10000"}, {PK: "STORE", SK: "FR#ARA#LYON#10007"}, {PK: "STORE", SK: "FR#IDF#PARIS#10000"},
			{PK: "STORE", SK: "US#CA#LA#10000"}, {PK: "STORE", SK: "US#CA#SANJOSE#10007"}, {PK: "STORE", SK: "US#CA#SF#10000"},
			{PK: "STORE", SK: "US#NY#BUFFALO#10000"}, {PK: "STORE", SK: "US#NY#NEWYORK#10014"},
		}},
		{"revisions", []EntityItem{
			{PK: "DOC#invoice-1", SK: "v0_Header"}, {PK: "DOC#invoice-1", SK: "v1_Header"}, {PK: "DOC#invoice-1", SK: "v2_Header"},
			{PK: "DOC#invoice-1", SK: "v0_Lines"}, {PK: "DOC#invoice-1", SK: "v1_Lines"}, {PK: "DOC#invoice-2", SK: "v0_Header"},
		}},
		{"two shapes", []EntityItem{
			{PK: "DEVICE#thermo-1", SK: "R#" + ulid, Types: map[string]string{"temp": "N"}}, {PK: "DEVICE#thermo-1", SK: "R#01KJZ5WRG5G8XE6SZAEAVSNTCP", Types: map[string]string{"temp": "N"}},
			{PK: "DEVICE#thermo-1", SK: "R#01KS7F1H85T83PXT891WB09B9Y", Types: map[string]string{"temp": "N"}},
			{PK: "DEVICE#gps-1", SK: "2026-11-27T05:51:42.123+00:00", Types: map[string]string{"lat": "N"}}, {PK: "DEVICE#gps-1", SK: "2026-11-27T05:48:42.123+00:00", Types: map[string]string{"lat": "N"}},
		}},
	} {
		for _, e := range InferEntities(tc.items, "#") {
			covered := 0 // each of its items is one of these
			for _, it := range tc.items {
				if coversKey(e.KeyTemplates["pk"], it.PK) && coversKey(e.KeyTemplates["sk"], it.SK) {
					covered++
				}
			}
			if covered < e.Count {
				t.Errorf("%s: type %s of %d items, its templates %s / %s stand for %d of them", tc.name, e.Name, e.Count, e.KeyTemplates["pk"], e.KeyTemplates["sk"], covered)
			}
		}
	}
	got := InferEntities([]EntityItem{{PK: "STORE", SK: "FR#ARA#LYON#10000"}, {PK: "STORE", SK: "US#CA#LA#10000"}, {PK: "STORE", SK: "US#NY#NEWYORK#10000"}}, "#")
	if len(got) != 1 || got[0].Name != "STORE" || got[0].Count != 3 {
		t.Errorf("stores: %+v, want one type STORE of 3 (not named by one city)", got)
	}
}

// coversKey reports whether a form of template t, its enumerations
// spelt out, stands for key.
func coversKey(t, key string) bool {
	for _, f := range TemplateForms(t) {
		for _, x := range spellEnumerations(f) {
			if TemplateMatches(x, key) {
				return true
			}
		}
	}
	return false
}

func spellEnumerations(t string) []string {
	loc := enumRE().FindStringIndex(t)
	if loc == nil {
		return []string{t}
	}
	var out []string
	for _, v := range strings.Split(t[loc[0]+1:loc[1]-1], "|") {
		out = append(out, spellEnumerations(t[:loc[0]]+v+t[loc[1]:])...)
	}
	return out
}
