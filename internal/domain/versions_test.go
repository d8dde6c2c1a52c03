package domain

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParseVersionKey(t *testing.T) {
	for _, tc := range []struct {
		sk     string
		ok     bool
		num    int
		name   string
		form   VersionForm
		padded bool
	}{
		{"v0_Audit", true, 0, "Audit", FormPrefix, false},
		{"v1_Audit", true, 1, "Audit", FormPrefix, false},
		{"v10_Audit", true, 10, "Audit", FormPrefix, false},
		{"v001_Audit", true, 1, "Audit", FormPrefix, true},
		{"v0000_Audit", true, 0, "Audit", FormPrefix, true},
		{"v0_Audit#PART-7", true, 0, "Audit#PART-7", FormPrefix, false},
		{"v2_a_b", true, 2, "a_b", FormPrefix, false},
		{"v3_Zürich", true, 3, "Zürich", FormPrefix, false},
		{"v_0", true, 0, "", FormUnderscore, false},
		{"v_12", true, 12, "", FormUnderscore, false},
		{"v_3_doc", true, 3, "doc", FormUnderscore, false},
		{"v_3#doc", true, 3, "doc", FormUnderscore, false},
		{"v123456789_x", true, 123456789, "x", FormPrefix, false},
		// Revision numbers of any length: a Unix time, or more than an int holds.
		{"v1700000000_Rel", true, 1700000000, "Rel", FormPrefix, false},
		{"v1234567890", true, 1234567890, "", FormBare, false},
		{"v" + strings.Repeat("9", 40) + "_x", true, math.MaxInt, "x", FormPrefix, false},
		// AWS's number-based versions: the partition is the item.
		{"v0", true, 0, "", FormBare, false},
		{"v1", true, 1, "", FormBare, false},
		{"v12", true, 12, "", FormBare, false},
		{"v007", true, 7, "", FormBare, true},
		// Not versions.
		{"vendor#1", false, 0, "", 0, false},
		{"v0id", false, 0, "", 0, false},
		{"v1_", false, 0, "", 0, false},
		{"V1_Audit", false, 0, "", 0, false},
		{"v-1_Audit", false, 0, "", 0, false},
		{"v_", false, 0, "", 0, false},
		{"v_x", false, 0, "", 0, false},
		{"v_1x", false, 0, "", 0, false},
		{"v_1_", false, 0, "", 0, false},
		{"version_1", false, 0, "", 0, false},
		{"audit_v1", false, 0, "", 0, false},
		{"", false, 0, "", 0, false},
		{"v", false, 0, "", 0, false},
		{"v1.5_x", false, 0, "", 0, false},
		{"v١_x", false, 0, "", 0, false}, // Arabic-Indic digit
	} {
		k, ok := ParseVersionKey(tc.sk)
		if ok != tc.ok {
			t.Errorf("%q: ok=%v, want %v", tc.sk, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if k.Num != tc.num || k.Name != tc.name || k.Form != tc.form || k.Padded() != tc.padded || k.String() != tc.sk {
			t.Errorf("%q: %+v padded=%v string=%q", tc.sk, k, k.Padded(), k.String())
		}
	}
}

func FuzzParseVersionKey(f *testing.F) {
	for _, s := range []string{"v0_Audit", "v001_Audit", "v_0", "v_3#doc", "vendor#1", "v0id", "v1_", "v99999999999_x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sk string) {
		k, ok := ParseVersionKey(sk)
		if !ok {
			// The pattern a refusal suggests reads the key it refused.
			why := WhyNotRevision(sk)
			if _, suggested, found := strings.Cut(why, "--version-pattern '"); found {
				p, err := ParseVersionPattern(strings.TrimSuffix(suggested, "' reads it"))
				if err != nil {
					t.Fatalf("%q: %q suggests a pattern refused: %v", sk, why, err)
				}
				if _, ok := p.Parse(sk); !ok {
					t.Fatalf("%q: %q suggests a pattern that does not read it", sk, why)
				}
			}
			return
		}
		if k.String() != sk || k.Key != sk || k.Num < 0 || len(k.Digits) == 0 || len(k.Digits) > maxVersionDigits || k.Big != (len(strings.TrimLeft(k.Digits, "0")) > maxIntDigits) {
			t.Fatalf("%q parsed as %+v (string %q)", sk, k, k.String())
		}
		if k.Form == FormPrefix && k.Name == "" {
			t.Fatalf("%q: prefix form with no name", sk)
		}
		// A parsed key groups and diffs without panicking.
		GroupVersions([]Revision{{VersionKey: k, Item: map[string]any{"SK": sk}}})
	})
}

// TestVersionPointer: AWS's v0 carries Latest, the newest revision's
// number; it is not drift, but it is checked.
func TestVersionPointer(t *testing.T) {
	state := func(s string) map[string]any { return map[string]any{"State": s} }
	cur := func(s string, latest any) Revision {
		r := rev("v0", state(s))
		r.Item["Latest"] = latest
		return r
	}
	for _, tc := range []struct {
		name    string
		revs    []Revision
		ignore  []string
		pointer string
		drift   []string
	}{
		{"healthy", []Revision{cur("B", json.Number("2")), rev("v1", state("A")), rev("v2", state("B"))}, nil, "Latest", nil},
		{"any name", []Revision{func() Revision { r := rev("v0", state("B")); r.Item["Head"] = json.Number("2"); return r }(),
			rev("v1", state("A")), rev("v2", state("B"))}, nil, "Head", nil},
		{"lagging copy", []Revision{cur("B", json.Number("2")), rev("v1", state("A"))}, nil, "Latest",
			[]string{"v0 says Latest=2 but v2 does not exist", "v0 differs from v1: State"}},
		{"stale pointer", []Revision{cur("C", json.Number("2")), rev("v1", state("A")), rev("v2", state("B")), rev("v3", state("C"))}, nil, "Latest",
			[]string{"v0 says Latest=2 but the newest is v3"}},
		{"no revisions yet", []Revision{cur("A", json.Number("1"))}, nil, "Latest", []string{"v0 says Latest=1 but v1 does not exist"}},
		{"drift_ignore", []Revision{func() Revision { r := cur("B", json.Number("2")); r.Item["UpdatedBy"] = "ops"; return r }(),
			rev("v1", state("A")), rev("v2", state("B"))}, []string{"UpdatedBy"}, "Latest", nil},
		{"ignored pointer is plain data", []Revision{cur("B", json.Number("2")), rev("v1", state("A")), rev("v2", state("B"))}, []string{"Latest"}, "", nil},
		{"a number copied alike is data", []Revision{func() Revision { r := rev("v0", state("B")); r.Item["Count"] = json.Number("2"); return r }(),
			func() Revision { r := rev("v2", state("B")); r.Item["Count"] = json.Number("2"); return r }(), rev("v1", state("A"))}, nil, "", nil},
		{"a number the revision holds otherwise is drift, not a pointer", []Revision{func() Revision { r := rev("v0", state("B")); r.Item["Count"] = json.Number("2"); return r }(),
			func() Revision { r := rev("v2", state("B")); r.Item["Count"] = json.Number("5"); return r }(), rev("v1", state("A"))}, nil, "", []string{"v0 differs from v2: Count"}},
		{"a pointer the revisions carry too", []Revision{cur("B", json.Number("2")), rev("v1", state("A")),
			func() Revision { r := rev("v2", state("B")); r.Item["Latest"] = json.Number("1"); return r }()}, nil, "Latest", nil},
		{"a text value is not a pointer", []Revision{func() Revision { r := rev("v0", state("B")); r.Item["Latest"] = "2"; return r }(),
			rev("v1", state("A")), rev("v2", state("B"))}, nil, "", []string{"v0 differs from v2: Latest"}},
	} {
		hs := GroupVersions(tc.revs, append([]string{"SK"}, tc.ignore...)...)
		if len(hs) != 1 {
			t.Fatalf("%s: %d histories", tc.name, len(hs))
		}
		h := hs[0]
		if h.Form != FormBare || h.Pointer != tc.pointer || !reflect.DeepEqual(h.Drift, tc.drift) {
			t.Errorf("%s: form %v pointer %q drift %q, want %q %q", tc.name, h.Form, h.Pointer, h.Drift, tc.pointer, tc.drift)
		}
	}
}

func rev(sk string, item map[string]any) Revision {
	k, ok := ParseVersionKey(sk)
	if !ok {
		panic(sk)
	}
	full := map[string]any{"SK": sk}
	for n, v := range item {
		full[n] = v
	}
	return Revision{VersionKey: k, Item: full}
}

func TestGroupVersions(t *testing.T) {
	pass := map[string]any{"status": "PASS"}
	fail := map[string]any{"status": "FAIL"}
	for _, tc := range []struct {
		name   string
		revs   []Revision
		order  []string // revision keys, in order, of the first history
		latest string
		drift  []string
	}{
		{"clean", []Revision{rev("v2_A", pass), rev("v0_A", pass), rev("v1_A", fail)},
			[]string{"v1_A", "v2_A"}, "v2_A", nil},
		{"numeric order, not key order", []Revision{rev("v10_A", pass), rev("v9_A", pass), rev("v0_A", pass), rev("v1_A", pass),
			rev("v2_A", pass), rev("v3_A", pass), rev("v4_A", pass), rev("v5_A", pass), rev("v6_A", pass), rev("v7_A", pass), rev("v8_A", pass)},
			[]string{"v1_A", "v2_A", "v3_A", "v4_A", "v5_A", "v6_A", "v7_A", "v8_A", "v9_A", "v10_A"}, "v10_A", nil},
		{"padded", []Revision{rev("v002_A", pass), rev("v000_A", pass), rev("v001_A", fail)},
			[]string{"v001_A", "v002_A"}, "v002_A", nil},
		{"drifted", []Revision{rev("v0_A", pass), rev("v1_A", pass), rev("v2_A", fail)},
			[]string{"v1_A", "v2_A"}, "v2_A", []string{"v0_ differs from v2_: status"}},
		{"missing current", []Revision{rev("v1_A", pass), rev("v2_A", pass)},
			[]string{"v1_A", "v2_A"}, "v2_A", []string{"v0_ is missing: no current copy of 2 revisions"}},
		{"gap", []Revision{rev("v0_A", pass), rev("v1_A", pass), rev("v3_A", pass), rev("v7_A", pass)},
			[]string{"v1_A", "v3_A", "v7_A"}, "v7_A", []string{"gap: no v2_ between v1_ and v3_", "gap: no v4_…v6_ between v3_ and v7_"}},
		{"first revisions missing", []Revision{rev("v0_A", pass), rev("v3_A", pass)},
			[]string{"v3_A"}, "v3_A", []string{"gap: no v1_…v2_ before v3_"}},
		{"duplicate", []Revision{rev("v0_A", pass), rev("v1_A", pass), rev("v001_A", pass), rev("v2_A", pass)},
			[]string{"v001_A", "v1_A", "v2_A"}, "v2_A", []string{"v1_ appears 2 times: v001_A, v1_A"}},
		{"two current copies", []Revision{rev("v0_A", pass), rev("v00_A", pass), rev("v1_A", pass)},
			[]string{"v1_A"}, "v1_A", []string{"v0_ appears 2 times: v00_A, v0_A"}},
		{"blog form", []Revision{rev("v_2", pass), rev("v_0", fail), rev("v_1", pass)},
			[]string{"v_1", "v_2"}, "v_2", []string{"v_0 differs from v_2: status"}},
		{"only a current copy", []Revision{rev("v0_A", pass)}, nil, "", nil},
		// The libraries write each revision's number again as data:
		// dynamodb-onetable's rev of 'v${rev}_${docName}', as text;
		// dynamodb-toolbox's version of `v${version}`, as a number, which
		// read as a lagging pointer (v0 says version=0).
		{"own number as text", []Revision{rev("v0_A", map[string]any{"rev": "0", "status": "PASS"}), rev("v1_A", map[string]any{"rev": "1", "status": "FAIL"}),
			rev("v2_A", map[string]any{"rev": "2", "status": "PASS"})}, []string{"v1_A", "v2_A"}, "v2_A", nil},
		{"own number named version", []Revision{rev("v0", map[string]any{"version": json.Number("0"), "qty": json.Number("20")}), rev("v1", map[string]any{"version": json.Number("1"), "qty": json.Number("10")}),
			rev("v2", map[string]any{"version": json.Number("2"), "qty": json.Number("20")})}, []string{"v1", "v2"}, "v2", nil},
		// ElectroDB's composite rev of $doc_2#rev_version#0003, as
		// VERSION#0003: every document drifted by it
		{"own number after a mark", []Revision{rev("v0_A", map[string]any{"rev": "VERSION#0000", "body": "b2"}), rev("v1_A", map[string]any{"rev": "VERSION#0001", "body": "b1"}),
			rev("v2_A", map[string]any{"rev": "VERSION#0002", "body": "b2"})}, []string{"v1_A", "v2_A"}, "v2_A", nil},
		{"a number after marks that differ", []Revision{rev("v0_A", map[string]any{"note": "draft 0"}), rev("v1_A", map[string]any{"note": "final 1"})},
			[]string{"v1_A"}, "v1_A", []string{"v0_ differs from v1_: note"}},
		{"own number beside drift", []Revision{rev("v000_A", map[string]any{"rev": "000", "status": "FAIL"}), rev("v001_A", map[string]any{"rev": "001", "status": "PASS"})},
			[]string{"v001_A"}, "v001_A", []string{"v000_ differs from v001_: status"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := oneHistory(t, tc.revs, "SK")
			var order []string
			for _, r := range h.Revisions {
				order = append(order, r.Key)
			}
			if !reflect.DeepEqual(order, tc.order) {
				t.Errorf("order %v, want %v", order, tc.order)
			}
			latest := ""
			if l := h.Latest(); l != nil {
				latest = l.Key
			}
			if latest != tc.latest || !reflect.DeepEqual(h.Drift, tc.drift) {
				t.Errorf("latest %q drift %q, want %q %q", latest, h.Drift, tc.latest, tc.drift)
			}
		})
	}
}

func TestGroupVersionsKeepsNamesAndFormsApart(t *testing.T) {
	hs := GroupVersions([]Revision{rev("v0_Audit", nil), rev("v1_Audit", nil), rev("v0_Audit#PART-7", nil),
		rev("v1_Audit#PART-7", nil), rev("v_0_Audit", nil), rev("v_1_Audit", nil)}, "SK")
	var names []string
	for _, h := range hs {
		names = append(names, h.Name)
		if len(h.Revisions) != 1 || h.Current == nil || h.Drifted() {
			t.Errorf("%q: %+v", h.Name, h)
		}
	}
	if strings.Join(names, "|") != "Audit|Audit|Audit#PART-7" {
		t.Errorf("names %q", names)
	}
}

func TestDiff(t *testing.T) {
	old := map[string]any{
		"status": "PASS", "score": "90", "gone": true,
		"checks":   map[string]any{"brakes": map[string]any{"status": "PASS", "pressure": "98"}, "wiring": "ok"},
		"findings": []any{"none"},
		"odd name": "x",
	}
	new := map[string]any{
		"status": "FAIL", "score": "90", "new": nil,
		"checks":   map[string]any{"brakes": map[string]any{"status": "FAIL", "pressure": "98"}, "firmware": "v2"},
		"findings": []any{"leak", "re-inspect"},
		"odd name": "y",
	}
	var got []string
	for _, c := range Diff(old, new) {
		got = append(got, string(c.Kind)+" "+c.Path)
	}
	want := []string{
		"changed checks.brakes.status", "added checks.firmware", "removed checks.wiring",
		"changed findings[0]", "added findings[1]", "removed gone", "added new",
		"changed `odd name`", "changed status",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diff:\n got %q\nwant %q", got, want)
	}
	if len(Diff(old, old)) != 0 {
		t.Error("an item differs from itself")
	}
	// A value that changes type is a change, not a descent.
	if cs := Diff(map[string]any{"a": map[string]any{"b": "1"}}, map[string]any{"a": []any{"1"}}); len(cs) != 1 || cs[0].Kind != Changed {
		t.Errorf("type change: %+v", cs)
	}
}

// TestLongRevisionNumbers: a revision numbered by a Unix time beside v0
// and v1 is the newest, not ignored; numbers longer than an int holds
// are ordered by their digits.
func TestLongRevisionNumbers(t *testing.T) {
	rev := func(sk string) Revision {
		k, ok := ParseVersionKey(sk)
		if !ok {
			t.Fatalf("%q is not read as a revision", sk)
		}
		return Revision{VersionKey: k, Item: map[string]any{"Body": "same"}}
	}
	huge := "v" + strings.Repeat("9", 30) + "_Rel"
	huger := "v1" + strings.Repeat("0", 30) + "_Rel"
	h := GroupVersions([]Revision{rev("v0_Rel"), rev(huger), rev("v1_Rel"), rev("v1700000000_Rel"), rev(huge), rev("v2_Rel")})
	if len(h) != 1 {
		t.Fatalf("%d histories", len(h))
	}
	var order []string
	for _, r := range h[0].Revisions {
		order = append(order, r.Key)
	}
	if want := []string{"v1_Rel", "v2_Rel", "v1700000000_Rel", huge, huger}; !reflect.DeepEqual(order, want) {
		t.Errorf("order %q, want %q", order, want)
	}
	if h[0].Latest().Key != huger {
		t.Errorf("latest %q", h[0].Latest().Key)
	}
	// Numbers that are times leave no gaps: v1_, v2_ then times.
	if len(h[0].Drift) != 0 {
		t.Errorf("drift %q", h[0].Drift)
	}
}

func TestWhyNotRevision(t *testing.T) {
	for sk, want := range map[string]string{
		"v1_":       "no name after the number: read as v{n}_, not v{n}_{name}; --version-pattern 'v{n}_' reads it",
		"V1_Audit":  "revisions begin with a lower-case v: read as V{n}_Audit, not v{n}_{name}; --version-pattern 'V{n}_{name}' reads it",
		"v1.5_x":    "the number is not whole: read as v{n}.5_x, not v{n}_{name}",
		"v-1_Audit": "a revision number is never negative",
		"v_1x":      "text touches the number: read as v_{n}x, not v_{n}_{name}; --version-pattern 'v_{n}x' reads it",
		"v_1_":      "no name after _: read as v_{n}_, not v_{n}_{name}; --version-pattern 'v_{n}_' reads it",
		"v0id":      "text touches the number: read as v{n}id, not v{n}_{name}; --version-pattern 'v{n}id' reads it",
		"v1#Audit":  `"#" after the number, not _: read as v{n}#Audit, not v{n}_{name}; --version-pattern 'v{n}#{name}' reads it`,
		"v1{x":      `"{" after the number, not _: read as v{n}{x, not v{n}_{name}`,
		"v1_Audit":  "", "v1700000000_Rel": "", "vendor#1": "", "version_1": "", "audit_v1": "", "": "", "v": "", "v_": "", "v_x": "",
	} {
		if got := WhyNotRevision(sk); got != want {
			t.Errorf("%q: %q, want %q", sk, got, want)
		}
	}
}

// numberedCases are histories kept under a number sort key: every version
// kept with the highest the newest (wellcomecollection's storage-service
// multi-version store: id, version N from 0), or AWS's 0 kept as a copy of
// the newest (its Latest pointer, or the same attributes).
var numberedCases = []struct {
	name    string
	revs    map[int]map[string]any // by version
	current bool                   // 0 read as the current copy
	order   []int
	drift   []string
}{
	{"every version kept, 0 the first", map[int]map[string]any{0: {"files": "a"}, 1: {"files": "b"}, 2: {"files": "c"}}, false, []int{0, 1, 2}, nil},
	{"one version, 0", map[int]map[string]any{0: {"files": "a"}}, false, []int{0}, nil},
	{"kept from 1", map[int]map[string]any{1: {"files": "a"}, 2: {"files": "b"}}, false, []int{1, 2}, nil},
	{"a gap", map[int]map[string]any{0: {"files": "a"}, 1: {"files": "b"}, 3: {"files": "c"}}, false, []int{0, 1, 3}, []string{"gap: no 2 between 1 and 3"}},
	{"0 a copy of the newest", map[int]map[string]any{0: {"State": "S2"}, 1: {"State": "S1"}, 2: {"State": "S2"}}, true, []int{1, 2}, nil},
	{"0 names the newest", map[int]map[string]any{0: {"State": "S2", "Latest": json.Number("2")}, 1: {"State": "S1"}, 2: {"State": "S2"}}, true, []int{1, 2}, nil},
	{"0 names the newest and drifted", map[int]map[string]any{0: {"State": "STALE", "Latest": json.Number("2")}, 1: {"State": "S1"}, 2: {"State": "S2"}}, true, []int{1, 2},
		[]string{"0 differs from 2: State"}},
	{"0 names a version not kept", map[int]map[string]any{0: {"State": "S2", "Latest": json.Number("3")}, 1: {"State": "S1"}, 2: {"State": "S2"}}, true, []int{1, 2},
		[]string{"0 says Latest=3 but 3 does not exist"}},
}

func numberedRevisions(revs map[int]map[string]any) []Revision {
	var out []Revision
	for n, item := range revs {
		k, ok := NumberVersions().Parse(strconv.Itoa(n))
		if !ok {
			panic(n)
		}
		full := map[string]any{"id": "b1", "version": json.Number(strconv.Itoa(n))}
		for a, v := range item {
			full[a] = v
		}
		out = append(out, Revision{VersionKey: k, Item: full})
	}
	return out
}

// oneHistory groups revs, which must make one history.
func oneHistory(t *testing.T, revs []Revision, ignore ...string) History {
	t.Helper()
	hs := GroupVersions(revs, ignore...)
	if len(hs) != 1 {
		t.Fatalf("%d histories", len(hs))
	}
	return hs[0]
}

// TestGroupNumberVersions: a number sort key is the version; its 0 is the
// current copy only where it is kept as one, else the first version.
func TestGroupNumberVersions(t *testing.T) {
	for _, tc := range numberedCases {
		t.Run(tc.name, func(t *testing.T) {
			h := oneHistory(t, numberedRevisions(tc.revs), "id", "version")
			var order []int
			for _, r := range h.Revisions {
				order = append(order, r.Num)
			}
			if (h.Current != nil) != tc.current || !reflect.DeepEqual(order, tc.order) || !reflect.DeepEqual(h.Drift, tc.drift) {
				t.Errorf("current %v order %v drift %q, want %v %v %q", h.Current != nil, order, h.Drift, tc.current, tc.order, tc.drift)
			}
		})
	}
}

// TestNumberedRun: a number key's numbers are versions where they run
// nearly without gaps; a leaderboard's scores and a log's times are not.
func TestNumberedRun(t *testing.T) {
	for _, tc := range []struct {
		nums []string
		want bool
	}{
		{[]string{"0", "1", "2"}, true},
		{[]string{"10", "11", "12", "13"}, true},
		{[]string{"0", "1", "3"}, true},
		{[]string{"7"}, true},
		{[]string{"17", "512", "980"}, false},
		{[]string{"1536019200", "1536019201"}, false},
		{[]string{"1", "2.5"}, false},
		{[]string{"-1", "0"}, false},
	} {
		if got := NumberedRun(tc.nums); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.nums, got, tc.want)
		}
	}
	if hs := GroupVersions(numberedRevisions(map[int]map[string]any{17: nil, 512: nil, 980: nil}), "id", "version"); len(hs) != 0 {
		t.Errorf("scores read as versions: %+v", hs)
	}
}

func FuzzGroupNumberVersions(f *testing.F) {
	for _, tc := range numberedCases {
		var nums []byte
		for n := range tc.revs {
			nums = append(nums, byte(n))
		}
		f.Add(nums, tc.current)
	}
	f.Fuzz(func(t *testing.T, nums []byte, copyZero bool) {
		revs := map[int]map[string]any{}
		top := -1
		for _, n := range nums {
			revs[int(n)] = map[string]any{"body": strconv.Itoa(int(n))}
			top = max(top, int(n))
		}
		if len(revs) == 0 {
			return
		}
		if _, ok := revs[0]; ok && copyZero && top > 0 {
			revs[0] = map[string]any{"body": strconv.Itoa(top)}
		}
		texts := make([]string, 0, len(revs))
		for n := range revs {
			texts = append(texts, strconv.Itoa(n))
		}
		hs := GroupVersions(numberedRevisions(revs), "id", "version")
		if run := NumberedRun(texts); len(hs) != 1 && run || len(hs) != 0 && !run {
			t.Fatalf("%v: %d histories, a run %v", nums, len(hs), run)
		}
		if len(hs) == 0 {
			return
		}
		h := hs[0]
		held := len(h.Revisions)
		if h.Current != nil {
			held++
		}
		if held != len(revs) || h.Latest() == nil || h.Latest().Num != top {
			t.Fatalf("%v: %d of %d held, latest %+v", nums, held, len(revs), h.Latest())
		}
		if h.Current != nil && slices.ContainsFunc(h.Drift, func(d string) bool { return strings.Contains(d, "differs") }) {
			t.Fatalf("%v: a copy of the newest differs: %q", nums, h.Drift)
		}
	})
}
