package domain

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestVersionPattern(t *testing.T) {
	type read struct {
		sk     string
		ok     bool
		num    int
		name   string
		padded bool
		label  string
	}
	for _, tc := range []struct {
		template         string
		prefix, itemPref string // Prefix(), ItemPrefix("Terms")
		reads            []read
	}{
		{"rev#{n}#{name}", "rev#", "rev#", []read{
			{"rev#0#Terms", true, 0, "Terms", false, "rev#0"},
			{"rev#12#Terms#Annex-B", true, 12, "Terms#Annex-B", false, "rev#12"},
			{"rev#007#Terms", true, 7, "Terms", true, "rev#007"},
			{"rev#x#Terms", false, 0, "", false, ""},
			{"rev#1#", false, 0, "", false, ""},
			{"rev#1234567890#Terms", true, 1234567890, "Terms", false, "rev#1234567890"},
			{"Rev#1#Terms", false, 0, "", false, ""},
			{"rev#1Terms", false, 0, "", false, ""},
		}},
		{"{name}#v{n}", "", "Terms#v", []read{
			{"Terms#v0", true, 0, "Terms", false, "v0"},
			{"Terms#v3#v12", true, 12, "Terms#v3", false, "v12"},
			{"a#b#v0003", true, 3, "a#b", true, "v0003"},
			{"#v1", false, 0, "", false, ""},
			{"Terms#v", false, 0, "", false, ""},
			{"Terms#v1x", false, 0, "", false, ""},
			{"metadata", false, 0, "", false, ""},
		}},
		{"V{n}-{name}", "V", "V", []read{
			{"V2-Terms", true, 2, "Terms", false, "V2"},
			{"V2-", false, 0, "", false, ""},
			{"v2-Terms", false, 0, "", false, ""},
		}},
		{"v{n}_{name}", "v", "v", []read{ // the built-in form, spelt out
			{"v001_Audit", true, 1, "Audit", true, "v001"},
			{"v2_a_b", true, 2, "a_b", false, "v2"},
			{"v1_", false, 0, "", false, ""},
		}},
		{"doc|{n}", "doc|", "doc|", []read{ // no name: one history per partition
			{"doc|4", true, 4, "", false, "doc|4"},
			{"doc|4|x", false, 0, "", false, ""},
		}},
		{"{n}.{name}", "", "", []read{
			{"3.Terms\nline two", true, 3, "Terms\nline two", false, "3"},
		}},
	} {
		p, err := ParseVersionPattern(tc.template)
		if err != nil {
			t.Fatalf("%q: %v", tc.template, err)
		}
		if p.String() != tc.template || p.Prefix() != tc.prefix || p.ItemPrefix("Terms") != tc.itemPref {
			t.Errorf("%q: prefix %q item prefix %q", tc.template, p.Prefix(), p.ItemPrefix("Terms"))
		}
		for _, r := range tc.reads {
			k, ok := p.Parse(r.sk)
			if ok != r.ok {
				t.Errorf("%q %q: ok=%v, want %v", tc.template, r.sk, ok, r.ok)
				continue
			}
			if !ok {
				continue
			}
			if k.Num != r.num || k.Name != r.name || k.Padded() != r.padded || k.Label() != r.label || k.Stub() != r.label ||
				k.String() != r.sk || k.Form != FormPattern || k.Current() != (r.num == 0) {
				t.Errorf("%q %q: %+v label %q", tc.template, r.sk, k, k.Label())
			}
			if !strings.HasPrefix(r.sk, p.Prefix()) || !strings.HasPrefix(r.sk, p.ItemPrefix(k.Name)) {
				t.Errorf("%q %q: does not begin with the prefixes", tc.template, r.sk)
			}
		}
	}
}

func TestVersionPatternRefused(t *testing.T) {
	for _, tc := range []struct{ template, want string }{
		{"", "has no {n}"},
		{"rev#{name}", "has no {n}"},
		{"rev#{num}#{name}", "braces only go around n and name"},
		{"rev#{n}#{name}}", "braces only go around n and name"},
		{"{{n}", "braces only go around n and name"},
		{"v{n}_{n}", "has {n} twice"},
		{"{name}#{name}{n}", "has {name} twice"},
		{"{name}{n}", "{n} and {name} touch"},
		{"v{n}{name}", "{n} and {name} touch"},
		{"v1{n}_{name}", "a digit next to {n}"},
		{"v{n}0_{name}", "a digit next to {n}"},
		{"v\xff{n}", "not valid UTF-8"},
	} {
		_, err := ParseVersionPattern(tc.template)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `such as "`) {
			t.Errorf("%q: %v, want %q and an example", tc.template, err, tc.want)
		}
	}
}

// TestGroupVersionsPattern: drift, gaps and labels speak the table's own
// spelling; number 0 is the current copy.
func TestGroupVersionsPattern(t *testing.T) {
	p, err := ParseVersionPattern("rev#{n}#{name}")
	if err != nil {
		t.Fatal(err)
	}
	rev := func(sk, status string) Revision {
		k, ok := p.Parse(sk)
		if !ok {
			t.Fatal(sk)
		}
		return Revision{VersionKey: k, Item: map[string]any{"SK": sk, "status": status}}
	}
	hs := GroupVersions([]Revision{rev("rev#2#Terms", "FAIL"), rev("rev#0#Terms", "PASS"), rev("rev#1#Terms", "PASS"),
		rev("rev#4#Terms", "FAIL"), rev("rev#1#Claims", "PASS")}, "SK")
	if len(hs) != 2 || hs[0].Name != "Claims" || hs[1].Name != "Terms" {
		t.Fatalf("histories %+v", hs)
	}
	claims, terms := hs[0], hs[1]
	want := []string{"rev#0 differs from rev#4: status", "gap: no rev#3 between rev#2 and rev#4"}
	if terms.Current == nil || terms.Latest().Key != "rev#4#Terms" || strings.Join(terms.Drift, "|") != strings.Join(want, "|") {
		t.Errorf("Terms: current %v latest %v drift %q", terms.Current, terms.Latest(), terms.Drift)
	}
	if strings.Join(claims.Drift, "|") != "rev#0 is missing: no current copy of its 1 revision" {
		t.Errorf("Claims drift %q", claims.Drift)
	}
	if terms.FormName() != "rev#{n}#{name}" || terms.Stub(0) != "rev#0" {
		t.Errorf("form %q stub %q", terms.FormName(), terms.Stub(0))
	}
}

// FuzzVersionPattern: a template is either refused with an example, or
// every key it reads spells itself again, and every key it spells it reads
// back to the same number and name.
func FuzzVersionPattern(f *testing.F) {
	for _, s := range [][2]string{
		{"rev#{n}#{name}", "rev#12#Terms"}, {"{name}#v{n}", "a#v1#v2"}, {"V{n}-{name}", "V007-x"},
		{"v{n}_{name}", "v0_Audit"}, {"{n}", "42"}, {"{name}_{n}", "a_1_2"}, {"{{n}}", "{1}"}, {"x{n}y{name}z", "x1yyz"},
		{"{name}#v{n}", "DOC#d1#LATEST"}, {"rev#{n}#{name}", "rev#Current#Terms"}, {"v_{n}", "v_latest"}, {"DOC#{name}#v{n}", "DOC#LATEST_NEWS#latest"},
		{"v{n}_{name}", "LATEST_Audit"}, {"v{n}#{name}", "LATEST#DOC#d1"}, {"v{n}", "Current"}, {"rev{n}#{name}", "LaTeSt#Terms"},
	} {
		f.Add(s[0], s[1], "Terms", uint32(7))
	}
	f.Fuzz(func(t *testing.T, template, sk, name string, num uint32) {
		p, err := ParseVersionPattern(template)
		if err != nil {
			if !strings.Contains(err.Error(), "such as") {
				t.Fatalf("%q: %v gives no example", template, err)
			}
			return
		}
		if k, ok := p.Parse(sk); ok {
			if k.String() != sk || k.Key != sk || k.Num < 0 || k.Digits == "" || len(k.Digits) > maxVersionDigits ||
				(k.Name == "") == p.HasName() || !strings.HasPrefix(sk, p.ItemPrefix(k.Name)) {
				t.Fatalf("%q read %q as %+v (string %q)", template, sk, k, k.String())
			}
			GroupVersions([]Revision{{VersionKey: k, Item: map[string]any{"SK": sk}}}, "SK")
		}
		if k, ok := p.ParseCurrent(sk); ok {
			pre, _ := p.CurrentItemPrefix(k.Name)
			// Read with the revisions (under their prefix and the item's),
			// or apart, by a prefix of the reads apart where it is spelt
			// in one of their cases.
			with := strings.HasPrefix(sk, p.Prefix()) && strings.HasPrefix(sk, pre)
			apart := slices.ContainsFunc(p.CurrentApart(k.Name, true), func(a string) bool { return strings.HasPrefix(sk, a) })
			if k.Key != sk || k.String() != sk || k.Num != 0 || k.Digits != "" || !slices.Contains(currentWords, strings.ToLower(k.Word)) ||
				(k.Name == "") == p.HasName() || !p.apart && !with || p.apart && slices.Contains(currentSpellings, k.Word) != apart {
				t.Fatalf("%q read %q as a current copy %+v", template, sk, k)
			}
			if _, rev := p.Parse(sk); rev {
				t.Fatalf("%q reads %q both as a revision and as a current copy", template, sk)
			}
			one, _ := p.Parse(p.Key("1", k.Name))
			GroupVersions([]Revision{{VersionKey: k, Item: map[string]any{"SK": sk}}, {VersionKey: one, Item: map[string]any{"SK": one.Key}}}, "SK")
		}
		if !p.HasName() {
			name = ""
		}
		if name == "" && p.HasName() {
			return
		}
		digits := strings.Repeat("0", int(num%3)) + strconv.Itoa(int(num%1_000_000))
		key := p.Key(digits, name)
		k, ok := p.Parse(key)
		if !ok || k.Digits != digits || k.Name != name || k.Num != int(num%1_000_000) {
			t.Fatalf("%q: %q (digits %q, name %q) read back as %+v %v", template, key, digits, name, k, ok)
		}
	})
}

// TestInferVersionPattern: the key grammar finds revisions the usual forms
// do not spell, and leaves alone keys that only begin like them.
func TestInferVersionPattern(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want string // "" when none
	}{
		{[]string{"v00001.profile", "v00002.profile", "v00003.profile"}, "v{n}.{name}"},
		{[]string{"v1#Audit", "v2#Audit", "v0#Audit"}, "v{n}#{name}"},
		{[]string{"v00001.profile", "v00002.settings", "vendor#1"}, "v{n}.{name}"},
		{[]string{"v1.2.3", "v1.2.4"}, ""},                   // software versions
		{[]string{"v0_Audit", "v1_Audit"}, ""},               // the usual form's, read by it
		{[]string{"v1.profile", "vendor#1", "vendor#2"}, ""}, // a minority
		{[]string{"V1.profile", "V2.profile"}, ""},           // upper case, as the usual forms refuse
		{[]string{"v1.", "v2."}, ""},                         // no name
		{[]string{"v1x.profile", "v2x.profile"}, ""},         // text touches the number
		{nil, ""},
	} {
		got := ""
		if p := InferVersionPattern(tc.keys); p != nil {
			got = p.String()
		}
		if got != tc.want {
			t.Errorf("%q: %q, want %q", tc.keys, got, tc.want)
		}
	}
	p := InferVersionPattern([]string{"v00001.profile", "v00002.profile"})
	k, ok := p.Parse("v00002.profile")
	if !ok || k.Num != 2 || k.Name != "profile" || !k.Padded() || k.String() != "v00002.profile" || k.Label() != "v00002" {
		t.Errorf("v00002.profile read as %+v", k)
	}
	// Past revisions alone: no current copy is missing from them; where a
	// revision 0 is among the keys, one is.
	revs := func(keys ...string) []Revision {
		p := InferVersionPattern(keys)
		var out []Revision
		for _, key := range keys {
			v, _ := p.Parse(key)
			out = append(out, Revision{VersionKey: v, Item: map[string]any{"n": key}})
		}
		return out
	}
	if h := GroupVersions(revs("v00001.profile", "v00002.profile")); len(h) != 1 || h[0].Drifted() || !h[0].Pattern.HistoryOnly() {
		t.Errorf("history only: %+v", h)
	}
	if h := GroupVersions(revs("v00001.profile", "v00002.profile", "v00001.settings")[:2]); len(h) != 1 || h[0].Drifted() {
		t.Errorf("history only: %+v", h)
	}
	h := GroupVersions(revs("v00000.profile", "v00001.profile", "v00002.settings"))
	if len(h) != 2 || h[1].Name != "settings" || !strings.Contains(strings.Join(h[1].Drift, "; "), "v0 is missing") {
		t.Errorf("with a revision 0: %+v", h)
	}
}

// FuzzInferVersionPattern: whatever keys it is given, a pattern the
// grammar infers reads at least one of them, and reads each key it reads
// back whole (Parse then String), with a name.
func FuzzInferVersionPattern(f *testing.F) {
	for _, seed := range [][2]string{{"v00001.profile", "v00002.profile"}, {"v1#Audit", "v2#Audit"}, {"v1.2.3", "v1.2.4"}, {"v0_Audit", "v1_Audit"}, {"v1.é", "v2.x"}, {"v9999999999999999999999.a", "v1.a"}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		p := InferVersionPattern([]string{a, b})
		if p == nil {
			return
		}
		if readsBack(t, p, []string{a, b}) == 0 {
			t.Fatalf("%s inferred from %q and %q reads neither", p, a, b)
		}
	})
}

// TestInferNameFirstPattern: a family spelt {name}<sep>v{n} is found where
// two names or more hold two numbers or more each, behind a lower-case v
// ending the key; one name's revisions, keys with no v, V, a version of
// software or a v with no digits are not one.
func TestInferNameFirstPattern(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want string // "" when none
		n    int
	}{
		{[]string{"DOC#d1#v1", "DOC#d1#v2", "DOC#d2#v1", "DOC#d2#v3", "META"}, "{name}#v{n}", 2},
		{[]string{"DOC#d1#v1", "DOC#d1#v3", "DOC#d1#v7", "DOC#d1#LATEST", "DOC#d2#v1", "DOC#d2#v2", "DOC#d3#v0", "DOC#d3#v1"}, "{name}#v{n}", 3},
		{[]string{"docs/a/v1", "docs/a/v2", "docs/b/v01", "docs/b/v02"}, "{name}/v{n}", 2},
		{[]string{"Terms#v1", "Terms#v2", "Claims#v0", "Claims#v1"}, "{name}#v{n}", 2},
		// one name's revisions: a device's hardware v1, v2, not clear
		{[]string{"DEVICE#d1#v1", "DEVICE#d1#v2", "DEVICE#d2#v1"}, "", 0},
		// one number a name: a constant of the key's shape
		{[]string{"A#v1", "B#v1", "C#v1"}, "", 0},
		// 1 and 01 are one number
		{[]string{"A#v1", "A#v01", "B#v2", "B#v02"}, "", 0},
		{[]string{"ORDER#o1#ITEM#1", "ORDER#o1#ITEM#2", "ORDER#o2#ITEM#1", "ORDER#o2#ITEM#2"}, "", 0},
		{[]string{"DOC#d1#V1", "DOC#d1#V2", "DOC#d2#V1", "DOC#d2#V2"}, "", 0},
		{[]string{"api#v1.2", "api#v1.3", "sdk#v2.0", "sdk#v2.1"}, "", 0},
		{[]string{"A#v", "A#vx", "B#v", "B#v1"}, "", 0},
		{[]string{"#v1", "#v2", "v1", "v2"}, "", 0}, // no name
		// _v suffixes, and a revision word with its own separator.
		{[]string{"report_v0", "report_v1", "report_v2", "memo_v0", "memo_v3"}, "{name}_v{n}", 2},
		{[]string{"a#VERSION#0000", "a#VERSION#0001", "b#VERSION#0001", "b#VERSION#0002", "META"}, "{name}#VERSION#{n}", 2},
		{[]string{"doc/d1/rev/1", "doc/d1/rev/2", "doc/d2/rev/1", "doc/d2/rev/2"}, "{name}/rev/{n}", 2},
		{[]string{"a#VERSION#1", "b#VERSION#1", "c#VERSION#1"}, "", 0},
		{[]string{"VERSION#1", "VERSION#2", "#VERSION#1", "#VERSION#2"}, "", 0}, // no name
		{[]string{"a#ITEM#1", "a#ITEM#2", "b#ITEM#1", "b#ITEM#2"}, "", 0},
		{[]string{"a#v#1", "a#v#2", "b#v#1", "b#v#2"}, "", 0},
		// a doubled separator is one (it was {name}:v{n} of "net:")
		{[]string{"net::v0", "net::v1", "net::v2", "power::v0", "power::v1"}, "{name}::v{n}", 2},
		{[]string{"memo__v1", "memo__v2", "note__v1", "note__v2"}, "{name}__v{n}", 2},
		{[]string{"a::VERSION::0001", "a::VERSION::0002", "b::VERSION::0001", "b::VERSION::0002"}, "{name}::VERSION::{n}", 2},
		{[]string{"a:::v1", "a:::v2", "b:::v1", "b:::v2"}, "{name}:v{n}", 2},
		{nil, "", 0},
	} {
		p, n := InferNameFirstPattern(tc.keys)
		got := ""
		if p != nil {
			got = p.String()
			for _, k := range tc.keys {
				if v, ok := p.Parse(k); ok && v.String() != k {
					t.Errorf("%q read by %s spelt back %q", k, p, v.String())
				}
			}
		}
		if got != tc.want || n != tc.n {
			t.Errorf("%q: %q (%d), want %q (%d)", tc.keys, got, n, tc.want, tc.n)
		}
	}
}

// FuzzInferNameFirstPattern: whatever keys it is given, a pattern found
// reads every key it counted, and reads each back whole, with a name.
func FuzzInferNameFirstPattern(f *testing.F) {
	for _, seed := range [][4]string{{"DOC#d1#v1", "DOC#d1#v2", "DOC#d2#v1", "DOC#d2#v3"}, {"ORDER#o1#ITEM#1", "ORDER#o1#ITEM#2", "ORDER#o2#ITEM#1", "ORDER#o2#ITEM#2"},
		{"a/v1", "a/v2", "b#v1", "b#v2"}, {"a#b/v1", "a#b/v2", "c#d/v1", "c#d/v2"}, {"é#v1", "é#v2", "x~v0", "x~v9"},
		{"report_v0", "report_v1", "memo_v0", "memo_v3"}, {"a#VERSION#0000", "a#VERSION#0001", "b#VERSION#0001", "b#VERSION#0002"}} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	f.Fuzz(func(t *testing.T, a, b, c, d string) {
		keys := []string{a, b, c, d}
		p, n := InferNameFirstPattern(keys)
		if p == nil {
			if n != 0 {
				t.Fatalf("%q: no pattern, %d names", keys, n)
			}
			return
		}
		if read := readsBack(t, p, keys); n < 2 || read < 2*n {
			t.Fatalf("%s found in %q for %d names reads %d keys", p, keys, n, read)
		}
	})
}

// readsBack is how many of keys p reads, failing where one it reads is
// not spelt back whole, with a name.
func readsBack(t *testing.T, p *VersionPattern, keys []string) int {
	t.Helper()
	read := 0
	for _, k := range keys {
		v, ok := p.Parse(k)
		if !ok {
			continue
		}
		read++
		if v.String() != k || v.Name == "" {
			t.Fatalf("%q read by %s as %+v, spelt back %q", k, p, v, v.String())
		}
	}
	return read
}

// TestCurrentWordKeys: a key that says LATEST or CURRENT (any case, the
// whole word) where the revision stands is an item's current copy, read
// with the revisions (CurrentItemPrefix) or, where the word leads what
// they begin with (LATEST_Audit beside v1_Audit), apart; never a key that
// only holds the word.
func TestCurrentWordKeys(t *testing.T) {
	type read struct {
		sk, word, name string // word "" when not a current copy
	}
	for _, tc := range []struct {
		template string
		itemPref string // CurrentItemPrefix("d1"); "-" when it reads none
		reads    []read
	}{
		{"{name}#v{n}", "d1#", []read{
			{"DOC#d1#LATEST", "LATEST", "DOC#d1"}, {"DOC#d1#latest", "latest", "DOC#d1"}, {"DOC#d1#CURRENT", "CURRENT", "DOC#d1"},
			{"DOC#d1#current", "current", "DOC#d1"}, {"DOC#d1#Latest", "Latest", "DOC#d1"},
			{"DOC#d1#LATEST_NEWS", "", ""}, {"DOC#d1#vLATEST", "", ""}, {"DOC#d1#LATESTv", "", ""}, {"DOC#d1#latest1", "", ""},
			{"LATEST_NEWS", "", ""}, {"LATEST", "", ""}, {"#LATEST", "", ""}, {"DOC#d1#v3", "", ""}, {"DOC#d1#HEAD", "", ""},
		}},
		{"DOC#{name}#v{n}", "DOC#d1#", []read{
			{"DOC#d1#LATEST", "LATEST", "d1"}, {"DOC#d1#x#current", "current", "d1#x"}, {"DOC#LATEST", "", ""}, {"doc#d1#LATEST", "", ""},
		}},
		{"rev#{n}#{name}", "rev#", []read{
			{"rev#LATEST#Terms", "LATEST", "Terms"}, {"rev#current#Terms", "current", "Terms"}, {"LATEST#Terms", "", ""}, {"rev#LATEST#", "", ""},
		}},
		{"rev{n}#{name}", "-", []read{{"LATEST#Terms", "LATEST", "Terms"}, {"revLATEST#Terms", "", ""}}}, // the word first: read apart from rev…
		{"v_{n}", "v_", []read{{"v_latest", "latest", ""}, {"v_CURRENT", "CURRENT", ""}, {"v_latest_doc", "", ""}}},
		{"v_{n}_{name}", "v_", []read{{"v_latest_doc", "latest", "doc"}, {"v_latest", "", ""}}},
		{"v{n}_{name}", "-", []read{{"LATEST_Audit", "LATEST", "Audit"}, {"current_Audit", "current", "Audit"}, {"LATEST_NEWS", "LATEST", "NEWS"}, {"vLATEST_Audit", "", ""}, {"LATESTAudit", "", ""}}},
		{"v{n}", "-", []read{{"LATEST", "LATEST", ""}, {"vLATEST", "", ""}, {"LATEST_", "", ""}}},
		{"v{n}#{name}", "-", []read{{"LATEST#DOC#d1", "LATEST", "DOC#d1"}}}, // LATEST# leads: read apart from begins_with(SK, "v")
		{"{name}v{n}", "-", []read{{"DOCLATEST", "", ""}}},                  // the word would touch the name
		{"x1v{n}", "-", []read{{"x1LATEST", "", ""}}},
		{"EVENT#{n}", "EVENT#", []read{{"EVENT#LATEST", "LATEST", ""}}},
	} {
		p, err := ParseVersionPattern(tc.template)
		if err != nil {
			t.Fatal(err)
		}
		pre, ok := p.CurrentItemPrefix("d1")
		if !ok {
			pre = "-"
		}
		if pre != tc.itemPref {
			t.Errorf("%q: current item prefix %q, want %q", tc.template, pre, tc.itemPref)
		}
		for _, r := range tc.reads {
			k, ok := p.ParseCurrent(r.sk)
			if ok != (r.word != "") || ok && (k.Word != r.word || k.Name != r.name || k.Label() != r.sk || k.Stub() != r.sk || k.String() != r.sk || !k.Current()) {
				t.Errorf("%q %q: %+v %v, want word %q name %q", tc.template, r.sk, k, ok, r.word, r.name)
			}
		}
	}
}

// TestGroupCurrentWord: a LATEST copy is the current copy of an item
// with revisions and no v0: compared with the newest revision, never
// "missing"; v0 stays current where both are; a LATEST with no revisions
// beside it is no versioned item; two words are said.
func TestGroupCurrentWord(t *testing.T) {
	p, err := ParseVersionPattern("DOC#{name}#v{n}")
	if err != nil {
		t.Fatal(err)
	}
	rev := func(sk, title string) Revision {
		k, ok := p.Parse(sk)
		if !ok {
			k, ok = p.ParseCurrent(sk)
		}
		if !ok {
			t.Fatal(sk)
		}
		return Revision{VersionKey: k, Item: map[string]any{"SK": sk, "title": title}}
	}
	for _, tc := range []struct {
		name    string
		revs    []Revision
		current string
		drift   string
		n       int // histories
	}{
		{"latest", []Revision{rev("DOC#d1#v1", "a"), rev("DOC#d1#v3", "b"), rev("DOC#d1#v7", "c"), rev("DOC#d1#LATEST", "c")}, "DOC#d1#LATEST",
			"gap: no v2 between v1 and v3|gap: no v4…v6 between v3 and v7", 1},
		{"lagging", []Revision{rev("DOC#d1#v1", "a"), rev("DOC#d1#v2", "b"), rev("DOC#d1#current", "a")}, "DOC#d1#current",
			"DOC#d1#current differs from v2: title", 1},
		{"v0 wins", []Revision{rev("DOC#d1#v0", "b"), rev("DOC#d1#v1", "a"), rev("DOC#d1#v2", "b"), rev("DOC#d1#LATEST", "b")}, "DOC#d1#v0", "", 1},
		{"v0 and a LATEST that differs", []Revision{rev("DOC#d1#v0", "b"), rev("DOC#d1#v1", "a"), rev("DOC#d1#v2", "b"), rev("DOC#d1#LATEST", "zzz")}, "DOC#d1#v0",
			"DOC#d1#LATEST differs from v0: title", 1},
		{"two words", []Revision{rev("DOC#d1#v1", "a"), rev("DOC#d1#LATEST", "a"), rev("DOC#d1#CURRENT", "a")}, "DOC#d1#CURRENT",
			"2 current copies: DOC#d1#CURRENT, DOC#d1#LATEST", 1},
		{"word alone", []Revision{rev("DOC#news#LATEST", "x")}, "", "", 0},
		{"other item's word", []Revision{rev("DOC#d1#v1", "a"), rev("DOC#d2#LATEST", "a")}, "", "v0 is missing: no current copy of its 1 revision", 1},
	} {
		hs := GroupVersions(tc.revs, "SK")
		if len(hs) != tc.n {
			t.Errorf("%s: %d histories %+v", tc.name, len(hs), hs)
			continue
		}
		if tc.n == 0 {
			continue
		}
		h, cur := hs[0], ""
		if h.Current != nil {
			cur = h.Current.Key
		}
		if cur != tc.current || strings.Join(h.Drift, "|") != tc.drift {
			t.Errorf("%s: current %q drift %q", tc.name, cur, h.Drift)
		}
	}
	// The usual v_ forms read theirs: v_latest beside v_1, v_2.
	var revs []Revision
	for _, sk := range []string{"v_1", "v_2", "v_latest"} {
		k, ok := ParseVersionKey(sk)
		if !ok {
			k, ok = ParseCurrentKey(sk)
		}
		if !ok {
			t.Fatal(sk)
		}
		revs = append(revs, Revision{VersionKey: k, Item: map[string]any{"SK": sk, "s": "x"}})
	}
	if hs := GroupVersions(revs, "SK"); len(hs) != 1 || hs[0].Current == nil || hs[0].Current.Key != "v_latest" || hs[0].Drifted() {
		t.Errorf("v_latest: %+v", hs)
	}
	for _, sk := range []string{"vLATEST", "v_latest_", "v_LATESTx", "LATESTx"} {
		if k, ok := ParseCurrentKey(sk); ok {
			t.Errorf("%q read as a current copy: %+v", sk, k)
		}
	}
	// The word leading the key, read apart: LATEST_Audit beside v1_Audit,
	// a bare LATEST beside v1.
	for sk, name := range map[string]string{"LATEST_Audit": "Audit", "current_Audit#PART-7": "Audit#PART-7", "LATEST": "", "Current": ""} {
		if k, ok := ParseCurrentKey(sk); !ok || k.Name != name || k.Word == "" {
			t.Errorf("%q: %+v %v, want the current copy of %q", sk, k, ok, name)
		}
	}
}

// TestCurrentApart: where the word leads the key, what the reads apart
// begin with: one prefix for each spelling read, up to the name for a
// partition, the whole key for an item; none where the word's key is read
// with the revisions.
func TestCurrentApart(t *testing.T) {
	for _, tc := range []struct {
		template, name string
		item           bool
		want           string
	}{
		{"v{n}#{name}", "", false, "LATEST# latest# Latest# CURRENT# current# Current#"},
		{"v{n}#{name}", "DOC#d1", true, "LATEST#DOC#d1 latest#DOC#d1 Latest#DOC#d1 CURRENT#DOC#d1 current#DOC#d1 Current#DOC#d1"},
		{"rev{n}#{name}", "Terms", true, "LATEST#Terms latest#Terms Latest#Terms CURRENT#Terms current#Terms Current#Terms"},
		{"v{n}", "", true, "LATEST latest Latest CURRENT current Current"},
		{"{name}#v{n}", "", false, ""}, // DOC#d1#LATEST is read with the revisions
		{"rev#{n}#{name}", "", false, ""},
		{"v_{n}", "", false, ""},
		{"{name}v{n}", "", false, ""}, // no word key at all
	} {
		if got := strings.Join(mustVersionPattern(tc.template).CurrentApart(tc.name, tc.item), " "); got != tc.want {
			t.Errorf("%q %q %v: %q, want %q", tc.template, tc.name, tc.item, got, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		item bool
		want string
	}{
		{"", false, "LATEST latest Latest CURRENT current Current"}, // LATEST_ is LATEST's
		{"Audit", true, "LATEST_Audit latest_Audit Latest_Audit CURRENT_Audit current_Audit Current_Audit"},
		{"", true, "LATEST latest Latest CURRENT current Current"},
	} {
		if got := strings.Join(CurrentApart(tc.name, tc.item), " "); got != tc.want {
			t.Errorf("usual forms %q %v: %q, want %q", tc.name, tc.item, got, tc.want)
		}
	}
}
