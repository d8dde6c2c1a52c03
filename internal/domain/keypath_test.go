package domain

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDetectDelimiter(t *testing.T) {
	for _, tc := range []struct {
		sample []string
		want   string
	}{
		{[]string{"NE#OMAHA#68118", "NY#NEWYORKCITY#10001", "ILE-DE-FRANCE#PARIS#75001"}, "#"},
		{[]string{"amsg#2018-08-29:12:00:00", "bob#2018-08-30:01:00:00"}, "#"},
		{[]string{"usa/ny/nyc", "usa/ca/sf"}, "/"},
		{[]string{"a|b", "c|d", "e"}, "|"},
		{[]string{"2018-08-29", "2018-08-30"}, "-"},
		{[]string{"v_0", "v_1", "metadata"}, "_"},
		{[]string{"metadata", "permissions"}, ""},
		// ISO times are never split at their colons (25.20).
		{[]string{"2026-10-31T13:17:58Z", "2026-10-31T13:18:00.123Z"}, "-"},
		{[]string{"13:17:58", "13:18:00"}, ""},
		{[]string{"2018-08-29:12:00:00", "2018-08-30:01:00:00"}, "-"},
		{[]string{"amsg#2018-08-29:12:00:00", "amsg#2018-08-30:01:00:00"}, "#"},
		{nil, ""},
		// No delimiter unless one repeats (25.20): one key holding a byte
		// 0x23, one name holding '-', or a single key, split nothing.
		{[]string{"\x01\x02", "\x05#\x00", "\x07\x08"}, ""},
		{[]string{"\x05#\x00", "\x06\x01"}, ""},
		{[]string{"alpha", "beta-1", "gamma"}, ""},
		{[]string{"NY#NEWYORKCITY#10001"}, ""},
		{[]string{"2026-10-31T13:17:58Z", "2026-10-31T13:18:00Z", "2026-10-31T13:19:00Z"}, "-"},
		// Only what the key grammar reads as a time keeps its colons:
		// partition:offset pairs (17:4821) and hours past 23 are a
		// hierarchy; a time of day after a prefix, with a fraction, is not.
		{[]string{"17:4821", "18:9932", "03:1150"}, ":"},
		{[]string{"rack:31:07", "rack:44:12"}, ":"},
		{[]string{"alarm#13:17:58.250", "alarm#13:18:00.125"}, "#"},
		{[]string{"13:17:58.250", "13:18:00.125"}, ""},
		// A delimiter always doubled is the pair; one also single is not.
		{[]string{"Mod::A::f", "Mod::B::g", "Pkg::A::h"}, "::"},
		{[]string{"user__1__profile", "user__2__orders"}, "__"},
		{[]string{"Mod::A:f", "Mod::B::g"}, ":"},
		{[]string{"a:::b", "c:::d"}, ":"},
		{[]string{"A##B", "A##C", "B##D"}, "#"}, // empty levels, not a pair
		{[]string{"ORDER::2024-01-01T10:00:00Z", "ORDER::2024-01-02T11:00:00Z"}, "::"},
		// Another mark, multi-byte too, where none of Delimiters is held,
		// if it repeats in a key: § and → are levels; € and @ once a key
		// are part of names.
		{[]string{"Alpha§x§1", "Alpha§y§2", "Beta§z§1"}, "§"},
		{[]string{"root→m→i", "home→n→j"}, "→"},
		{[]string{"a~b~c", "a~d"}, "~"},
		{[]string{"12€", "30€", "45€"}, ""},
		{[]string{"ann@example", "bob@example"}, ""},
		{[]string{"Alpha§x§1", "Beta§y", "Gamma"}, "§"},
		{[]string{"Alpha§x§1", "Beta", "Gamma"}, ""},
		{[]string{"a#b§c§d", "e#f§g"}, "#"},
		// A mark that ends the level before a date is the delimiter, not
		// the date's own dashes (it was '-', a level "evt§2018"); a
		// hyphen before the date is one ('-' anyway), a key that begins
		// with the mark has no level before the date, and a year, month
		// and day tree stays one.
		{[]string{"evt§2018-08-29T12:00:00Z", "evt§2018-08-29T13:00:00Z", "evt§2018-08-30T12:00:00Z"}, "§"},
		{[]string{"org§acme§evt§2018-08-29T12:00:00Z", "org§acme§evt§2018-08-29T13:00:00Z", "org§acme§profile"}, "§"},
		{[]string{"ILE-DE-FRANCE§2018-08-29", "ILE-DE-FRANCE§2018-08-30"}, "§"},
		{[]string{"evt→2018-08-29T12:00:00Z", "evt→2018-09-01T00:00:00Z"}, "→"},
		{[]string{"log->2018-08-29", "log->2018-08-30"}, "->"},
		{[]string{"day_2018-08-29", "day_2018-08-30", "day_2018-08-31"}, "_"},
		{[]string{"evt-2018-08-29", "evt-2018-08-30"}, "-"},
		{[]string{"§2018-08-29", "§2018-08-30"}, "-"},
		{[]string{"evt§2018-08-29T12:00:00Z#a1", "evt§2018-08-29T13:00:00Z#b2"}, "§"},
		{[]string{"evt§2018-08-29T12:00:00Z#a1", "evt§2018-08-29T13:00:00Z#b2", "x#y", "z#w"}, "#"},
		{[]string{"evt§2018-08-29", "profile", "settings"}, ""},
		// ... and # where as many keys hold the mark as # (a toolbox
		// table's SITE§s0: devices beside time-ordered readings, one
		// child for each time); ElectroDB's placedat_2026-… is cut at #.
		{[]string{"dev§d0", "dev§d1", "evt§2026-08-01T00:00:00Z#d0", "evt§2026-08-01T05:00:00Z#d1", "evt§2026-08-01T10:00:00Z#d2"}, "§"},
		{[]string{"$account#customer_1", "$account#order_1#placedat_2026-10-26t05:00:00.000z#orderid_o0039",
			"$account#order_1#placedat_2026-10-27t05:00:00.000z#orderid_o0040", "$account#line_1#orderid_o0006#lineno_00"}, "#"},
	} {
		got, ok := DetectDelimiter(tc.sample)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("DetectDelimiter(%q) = %q, %v; want %q", tc.sample, got, ok, tc.want)
		}
	}
}

// FuzzDetectDelimiter: a delimiter chosen is held by two keys at least
// and by half of them, as DetectDelimiter promises.
func FuzzDetectDelimiter(f *testing.F) {
	for _, s := range []string{"NE#OMAHA#68118\nNY#NEWYORKCITY#10001", "2018-08-29\n2018-08-30", "evt§2018-08-29T12:00:00Z\nevt§2018-08-30T12:00:00Z",
		"log->2018-08-29\nlog->2018-08-30", "Mod::A::f\nMod::B::g", "§2018-08-29\n§2018-08-30", "a→→→→2018-08-29\nb→→→→2018-08-30"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, keyText string) {
		keys := strings.Split(keyText, "\n")
		d, ok := DetectDelimiter(keys)
		if ok != (d != "") {
			t.Fatalf("%q: %q, %v", keys, d, ok)
		}
		if !ok {
			return
		}
		n := 0
		for _, k := range keys {
			if strings.Contains(k, d) {
				n++
			}
		}
		if n < 2 || n*2 < len(keys) {
			t.Fatalf("%q: %q held by %d of %d keys", keys, d, n, len(keys))
		}
	})
}

// TestPrefixDelimiter: a prefix a child was listed with (Mod::, Alpha§)
// names the delimiter it was cut at, so drilling into it cuts the next
// level the same way; it was ':' for Mod:: and none for Alpha§.
func TestPrefixDelimiter(t *testing.T) {
	for in, want := range map[string]string{"NY#": "#", "NY#NEWYORKCITY#": "#", "Mod::": "::", "Mod::A::": "::", "a:b::": ":", "Alpha§": "§", "root→m→": "→",
		"user__1__": "__", "A##": "#", "A#B##": "#", "plain": "", "": "", "amsg#2018-08-29:12:00:00": "#", "x\"": "", "A#B§": "#"} {
		if got, ok := PrefixDelimiter(in); got != want || ok != (want != "") {
			t.Errorf("PrefixDelimiter(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestTemplateDelimiter: one string written by hand names its delimiter
// by holding it (nothing to repeat in); a time's colons are the time's.
func TestTemplateDelimiter(t *testing.T) {
	for in, want := range map[string]string{"STATE#CITY#ZIP": "#", "NY#": "#", "[country]/[region]": "/", "a-b_c": "-", "plain": "", "": "",
		"amsg#2018-08-29:12:00:00": "#", "13:17:58": "", "13:17:58.5": "", "07:75": ":"} {
		if got, ok := TemplateDelimiter(in); got != want || ok != (want != "") {
			t.Errorf("TemplateDelimiter(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestTimeSpans: the times the key grammar reads in a key, a time of day
// with no date among them, at the key's start or after a separator.
func TestTimeSpans(t *testing.T) {
	for key, want := range map[string]string{
		"13:17:58":                 "13:17:58",
		"alarm#13:17:58.250#x":     "13:17:58.250",
		"amsg#2018-08-29:12:00:00": "2018-08-29:12:00:00",
		"2026-10-31T13:17:58Z":     "2026-10-31T13:17:58Z",
		"17:4821":                  "",
		"24:00":                    "",
		"x13:17":                   "",
		"v1_Audit":                 "",
	} {
		var got []string
		for _, sp := range TimeSpans(key) {
			got = append(got, key[sp[0]:sp[1]])
		}
		if strings.Join(got, ",") != want {
			t.Errorf("TimeSpans(%q) = %q, want %q", key, got, want)
		}
	}
}

// FuzzTimeSpans: the spans are in order, inside the key, apart, and each
// reads as a time where it stands.
func FuzzTimeSpans(f *testing.F) {
	for _, s := range []string{"13:17:58", "alarm#13:17:58.250#x", "amsg#2018-08-29:12:00:00", "17:4821", "a#1601700180000#R8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		end := 0
		for _, sp := range TimeSpans(key) {
			if sp[0] < end || sp[1] <= sp[0] || sp[1] > len(key) {
				t.Fatalf("%q: span %v after %d", key, sp, end)
			}
			_, isTime := timeAt(key[sp[0]:])
			if clockAt(key[sp[0]:]) != sp[1]-sp[0] && !isTime {
				t.Fatalf("%q: span %q is no time", key, key[sp[0]:sp[1]])
			}
			end = sp[1]
		}
		if m := timeMasked(key); len(m) != len(key) {
			t.Fatalf("%q masked to %q", key, m)
		}
	})
}

// TestNoDelimiterListsEveryKey: with no delimiter ("") every key under the
// prefix is a child of its own, a leaf, whatever bytes it holds.
func TestNoDelimiterListsEveryKey(t *testing.T) {
	keys := []string{"\x01\x02", "\x05#\x00", "\x05#\x01", "a#b", "a#b#c", "plain"}
	for _, prefix := range []string{"", "a#"} {
		want := 0
		for _, k := range keys {
			if strings.HasPrefix(k, prefix) && k != prefix {
				want++
				if name, leaf, ok := ChildOf(prefix, k, ""); !ok || !leaf || prefix+name != k {
					t.Errorf("ChildOf(%q, %q, none) = %q %v %v", prefix, k, name, leaf, ok)
				}
			}
		}
		for _, limit := range []int{1, 2, 1000} {
			got, _ := skipScan(keys, prefix, "", limit)
			if len(got) != want {
				t.Fatalf("prefix %q limit %d: %d children %+v, want %d leaves", prefix, limit, len(got), got, want)
			}
			for _, c := range got {
				if !c.IsItem || c.HasChildren {
					t.Errorf("prefix %q: %+v is not a leaf", prefix, c)
				}
			}
		}
	}
}

func TestChildOf(t *testing.T) {
	for _, tc := range []struct {
		prefix, key, name string
		leaf, ok          bool
	}{
		{"", "NY#NEWYORKCITY#10001", "NY", false, true},
		{"", "NY", "NY", true, true},
		{"NY#", "NY#NEWYORKCITY#10001", "NEWYORKCITY", false, true},
		{"NY#NEWYORKCITY#", "NY#NEWYORKCITY#10001", "10001", true, true},
		{"A#", "A##B", "", false, true},
		{"GU#HAGATNA#", "GU#HAGATNA#", "", false, false},
		{"NY#", "NYC#X", "", false, false},
		{"", "ÎLE-DE-FRANCE#PARIS", "ÎLE-DE-FRANCE", false, true},
	} {
		name, leaf, ok := ChildOf(tc.prefix, tc.key, "#")
		if name != tc.name || leaf != tc.leaf || ok != tc.ok {
			t.Errorf("ChildOf(%q, %q) = %q %v %v", tc.prefix, tc.key, name, leaf, ok)
		}
	}
}

// TestChildOfKeepsTimesWhole: a time the key grammar reads is one
// segment whatever the delimiter inside it (#36): ISO times under
// event: split at ':', the blog's 2018-08-29:12:00:00 split at ':', a
// fraction split at '.'; partition:offset pairs and a date's dashes are
// cut as before.
func TestChildOfKeepsTimesWhole(t *testing.T) {
	for _, tc := range []struct {
		prefix, key, delim, name string
		leaf                     bool
	}{
		{"event:", "event:2023-11-01T00:00:00Z", ":", "2023-11-01T00:00:00Z", true},
		{"event:", "event:2023-11-01T00:00:00Z:42", ":", "2023-11-01T00:00:00Z", false},
		{"event:", "event:2023-11-01T00:00:00.123+05:30:x", ":", "2023-11-01T00:00:00.123+05:30", false},
		{"", "event:2023-11-01T00:00:00Z", ":", "event", false},
		{"user#", "user#2018-08-29:12:00:00", ":", "2018-08-29:12:00:00", true},
		{"", "user#2018-08-29:12:00:00", ":", "user#2018-08-29:12:00:00", true},
		{"", "user#2018-08-29:12:00:00", "#", "user", false},
		{"t.", "t.2023-11-01T00:00:00.5.json", ".", "2023-11-01T00:00:00.5", false},
		{"", "2024.01.15", ".", "2024", false},
		{"", "17:4821", ":", "17", false},
		{"17:", "17:4821", ":", "4821", true},
		{"", "12:34", ":", "12", false}, // a time of day alone: partition 12
		{"", "2023-11-01T00:00:00Z", "-", "2023", false},
		{"event:2023-11-01T00:", "event:2023-11-01T00:00:00Z", ":", "00:00Z", true},
	} {
		name, leaf, ok := ChildOf(tc.prefix, tc.key, tc.delim)
		if name != tc.name || leaf != tc.leaf || !ok {
			t.Errorf("ChildOf(%q, %q, %q) = %q %v %v; want %q %v", tc.prefix, tc.key, tc.delim, name, leaf, ok, tc.name, tc.leaf)
		}
	}
}

// TestSegmentsKeepTimesWhole: a prefix's segments (the tree's crumbs,
// the ancestors of --prefix, the delimiter picker's sample) are those
// ChildOf cut.
func TestSegmentsKeepTimesWhole(t *testing.T) {
	for _, tc := range []struct {
		prefix, delim string
		want          []string
	}{
		{"event:2023-11-01T00:00:00Z:", ":", []string{"event", "2023-11-01T00:00:00Z"}},
		{"event:2023-11-01T00:", ":", []string{"event", "2023-11-01T00"}},
		{"user#2018-08-29:12:00:00", ":", []string{"user#2018-08-29:12:00:00"}},
		{"17:4821:", ":", []string{"17", "4821"}},
		{"NY#NEWYORKCITY#", "#", []string{"NY", "NEWYORKCITY"}},
		{"A##", "#", []string{"A", ""}},
		{"#", "#", []string{""}},
		{"2023-11-01-", "-", []string{"2023", "11", "01"}},
	} {
		if got := Segments(tc.prefix, tc.delim); !slices.Equal(got, tc.want) {
			t.Errorf("Segments(%q, %q) = %q; want %q", tc.prefix, tc.delim, got, tc.want)
		}
	}
}

// TestSkipScanKeepsTimesWhole: random key sets of times, their pieces and
// text after them (2023-11-01T00:summary beside 2023-11-01T00:00:00Z,
// 2018-08-29:x beside 2018-08-29:12:00:00), every prefix, several page
// sizes: the skip-scan finds the children a full read finds, reading no
// key twice.
func TestSkipScanKeepsTimesWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 6))
	heads := []string{"2023-11-01T00", "2023-11-01T00:00", "2023-11-01T00:00:00", "2023-11-01T00:00:00Z", "2023-11-01T00:00:00+05",
		"2023-11-01T00:00:00+05:30", "2023-11-01T00:00:00.5Z", "2018-08-29", "2018-08-29:12:00:00", "2018-08-29:12", "17", "12:34", "event"}
	tails := []string{"", ":", ":00", ":00:00Z", ":summary", ":#", ":1", ":30", ".5", ".json", ":2023-11-02T00:00:00Z", ":x:y", ":1234", ":12345:x", ":0123", ":12", ":12x", ":999"}
	for trial := 0; trial < 300; trial++ {
		set := map[string]bool{}
		for i := 0; i < 1+r.IntN(30); i++ {
			k := heads[r.IntN(len(heads))] + tails[r.IntN(len(tails))]
			if r.IntN(3) == 0 {
				k = "event:" + k
			}
			set[k] = true
		}
		keys := make([]string, 0, len(set))
		for k := range set {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, delim := range []string{":", "."} {
			prefixes := map[string]bool{"": true}
			for _, k := range keys {
				for _, c := range childrenByFullRead([]string{k}, "", delim) {
					prefixes[c.Prefix] = true
				}
				if strings.HasPrefix(k, "event:") {
					prefixes["event:"] = true
				}
			}
			for p := range prefixes {
				want := childrenByFullRead(keys, p, delim)
				for _, limit := range []int{1, 2, 5, 1000} {
					got, reads := skipScan(keys, p, delim, limit)
					if !sameChildren(got, want) {
						t.Fatalf("delim %q prefix %q limit %d over %q:\n got %+v\nwant %+v", delim, p, limit, keys, got, want)
					}
					if reads > len(keys)+1 {
						t.Fatalf("%d reads for %d keys", reads, len(keys))
					}
				}
			}
		}
	}
}

func TestPrefixEnd(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"NY#", "NY$"}, {"a", "b"}, {"Z\u007f", "Z\u0080"}, {"é", "ê"}, {"\U0010FFFF", ""}, {"a\U0010FFFF", "b"},
		{"\ud7ff", "\ue000"},
	} {
		got, ok := PrefixEnd(tc.in)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("PrefixEnd(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
	if b, ok := BytesEnd([]byte{1, 0xff, 0xff}); !ok || string(b) != "\x02" {
		t.Errorf("BytesEnd = %v %v", b, ok)
	}
}

// childrenByFullRead is the oracle: every key read, children collected.
func childrenByFullRead(keys []string, prefix, delim string) []Child {
	w := NewChildWalk(prefix, delim)
	idx := map[string]int{}
	var out []Child
	for _, k := range keys {
		name, leaf, ok := ChildOf(prefix, k, delim)
		if !ok {
			continue
		}
		i, seen := idx[name]
		if !seen {
			i = len(out)
			idx[name] = i
			out = append(out, Child{Name: name, Prefix: prefix + name + delim})
		}
		if leaf {
			out[i].IsItem = true
		} else {
			out[i].HasChildren = true
		}
	}
	_ = w
	return out
}

// skipScan walks keys the way the data layer does: each read returns up to
// limit keys >= Start() under the prefix. It returns the children and how
// many reads it made.
func skipScan(keys []string, prefix, delim string, limit int) ([]Child, int) {
	w := NewChildWalk(prefix, delim)
	reads := 0
	for {
		reads++
		if reads > len(keys)+2 {
			// A walk that does not move on would read forever: each read
			// finds a child or passes a key, so this many is past any
			// walk that ends (and a fuzz input that hangs is never told).
			return w.Children(), reads
		}
		i := sort.SearchStrings(keys, w.Start())
		var page []string
		for ; i < len(keys) && len(page) < limit && strings.HasPrefix(keys[i], prefix); i++ {
			page = append(page, keys[i])
		}
		w.Feed(page)
		if len(page) < limit {
			return w.Children(), reads
		}
	}
}

func sameChildren(a, b []Child) bool {
	sa := append([]Child(nil), a...)
	sb := append([]Child(nil), b...)
	sort.Slice(sa, func(i, j int) bool { return sa[i].Name < sa[j].Name })
	sort.Slice(sb, func(i, j int) bool { return sb[i].Name < sb[j].Name })
	if len(sa) != len(sb) {
		return false
	}
	for i := range sa {
		if sa[i] != sb[i] {
			return false
		}
	}
	return true
}

// TestSkipScanMatchesFullRead: random key sets over an alphabet holding the
// delimiter and its byte neighbours, every prefix, several page sizes.
func TestSkipScanMatchesFullRead(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	// Each delimiter beside characters that share its bytes or its first
	// character: '¨' and 'Â' begin with §'s first byte, ':' is half of ::.
	for _, tc := range []struct {
		delim    string
		alphabet []string
	}{
		{"#", []string{"#", "\"", "$", "A", "B", "Î", "!", "\x00", "~"}},
		{"§", []string{"§", "¨", "Â", "A", "B", "!", "\x00", "~"}},
		{"→", []string{"→", "←", "A", "B", "-", ">", "\x00"}},
		{"::", []string{"::", ":", ";", "A", "B", "9", "\x00"}},
	} {
		for trial := 0; trial < 300; trial++ {
			set := map[string]bool{}
			for i := 0; i < 1+r.IntN(60); i++ {
				var b strings.Builder
				for j := 0; j < 1+r.IntN(7); j++ {
					b.WriteString(tc.alphabet[r.IntN(len(tc.alphabet))])
				}
				set[b.String()] = true
			}
			keys := make([]string, 0, len(set))
			for k := range set {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			prefixes := map[string]bool{"": true}
			for _, k := range keys {
				for i := range k {
					if strings.HasPrefix(k[i:], tc.delim) {
						prefixes[k[:i+len(tc.delim)]] = true
					}
				}
			}
			for p := range prefixes {
				want := childrenByFullRead(keys, p, tc.delim)
				for _, limit := range []int{1, 2, 5, 1000} {
					got, _ := skipScan(keys, p, tc.delim, limit)
					if !sameChildren(got, want) {
						t.Fatalf("delimiter %q prefix %q limit %d over %q:\n got %+v\nwant %+v", tc.delim, p, limit, keys, got, want)
					}
				}
			}
		}
	}
}

// TestSkipScanReads: C sparse children cost C+1 reads of one key, however
// many keys lie beneath them.
func TestSkipScanReads(t *testing.T) {
	var keys []string
	for c := 0; c < 20; c++ {
		for i := 0; i < 5000; i++ {
			keys = append(keys, string(rune('A'+c))+"#"+strings.Repeat("x", i%7)+"#"+string(rune('0'+i%10))+itoa(i))
		}
	}
	sort.Strings(keys)
	children, reads := skipScan(keys, "", "#", 1)
	if len(children) != 20 || reads != 21 {
		t.Fatalf("%d children in %d reads; want 20 in 21", len(children), reads)
	}
}

// TestSkipScanReadsHourBuckets: hour buckets split at ':' (a time that
// could go on past it: 2023-11-01T10 then :15) with numbered keys below
// cost a read per two leading digits of the numbers, not one a key.
func TestSkipScanReadsHourBuckets(t *testing.T) {
	var keys []string
	for h := 0; h < 24; h++ {
		for i := 0; i < 500; i++ {
			keys = append(keys, "stats:2023-11-01T"+itoa(100 + h)[1:]+":"+itoa(1000+i))
		}
	}
	sort.Strings(keys)
	children, reads := skipScan(keys, "stats:", ":", 1)
	if want := childrenByFullRead(keys, "stats:", ":"); !sameChildren(children, want) || len(children) != 24 {
		t.Fatalf("%d children; want the 24 hours %+v", len(children), want)
	}
	t.Logf("%d reads for 24 hours of 500 keys", reads)
	if reads > 24*6+1 {
		t.Fatalf("%d reads for 24 hours of 500 keys", reads)
	}
}

func itoa(i int) string {
	s := ""
	for {
		s = string(rune('0'+i%10)) + s
		if i /= 10; i == 0 {
			return s
		}
	}
}

func TestLevelNames(t *testing.T) {
	if got := LevelNames("[country]#[region]#[state]", "#"); strings.Join(got, ",") != "country,region,state" {
		t.Errorf("got %q", got)
	}
	if got := LevelNames("STATE#CITY#ZIP", "#"); strings.Join(got, ",") != "STATE,CITY,ZIP" {
		t.Errorf("got %q", got)
	}
}

// FuzzChildWalk: for any key set and prefix, the skip-scan finds exactly
// the children a full read finds.
func FuzzChildWalk(f *testing.F) {
	f.Add("NY\nNY#A#1\nNY!\nNYC#B\nNE#OMAHA#68118", "", "#")
	f.Add("A##B\nA#\nA#C", "A#", "#")
	f.Add("usa/ny\nusa/ca/sf", "usa/", "/")
	f.Add("Alpha§x§1\nAlpha§y\nBeta§§z\nAlpha§", "Alpha§", "§")
	f.Add("root→m→i\nroot→\nhome→n", "", "→")
	f.Add("evt§2018-08-29T12:00:00Z\nevt§2018-08-29T13:00:00Z#x\nevt§2018-08-30", "evt§", "§")
	f.Add("Mod::A::f\nMod:::B\nMod::\nMod:x\nPkg::A", "Mod::", "::")
	f.Fuzz(func(t *testing.T, keyText, prefix, delim string) {
		if delim == "" || utf8.RuneCountInString(delim) > 2 || !utf8.ValidString(keyText+prefix+delim) {
			return
		}
		// Long inputs cut short: the walk's cases are in the bytes about
		// a delimiter, not in a key's length. Each input the engine finds
		// new is minimized byte subset by byte subset, quadratic or worse
		// in its length (the runs main_test.go allows take a short one
		// further), and the corpus keeps what it finds small.
		keyText, prefix = runesUpTo(keyText, fuzzKeyBytes), runesUpTo(prefix, fuzzPrefixBytes)
		set := map[string]bool{}
		for _, k := range strings.Split(keyText, "\n") {
			if k != "" {
				set[k] = true
			}
		}
		keys := make([]string, 0, len(set))
		for k := range set {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		want := childrenByFullRead(keys, prefix, delim)
		for _, limit := range []int{1, 3} {
			got, reads := skipScan(keys, prefix, delim, limit)
			if !sameChildren(got, want) {
				t.Fatalf("limit %d: got %+v want %+v", limit, got, want)
			}
			if reads > len(keys)+1 {
				t.Fatalf("%d reads for %d keys", reads, len(keys))
			}
		}
	})
}

// The most of an input FuzzChildWalk reads: a few keys of a few
// segments each, and a prefix of a few segments.
const (
	fuzzKeyBytes    = 64
	fuzzPrefixBytes = 16
)

// runesUpTo is s cut to at most n bytes, at a rune's start.
func runesUpTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func TestRunesUpTo(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 3, "abc"},
		{"a§b", 2, "a"}, // § is two bytes: not cut in half
		{"a§b", 3, "a§"},
		{"→→", 4, "→"},
		{"→", 0, ""},
	} {
		if got := runesUpTo(tc.s, tc.n); got != tc.want || !utf8.ValidString(got) {
			t.Errorf("runesUpTo(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// BenchmarkChildOf: what splitting costs a key the walk reads, where no
// time can hold the delimiter (#), and where one does (:).
func BenchmarkChildOf(b *testing.B) {
	for _, bc := range []struct{ name, prefix, key, delim string }{
		{"hash", "NY#", "NY#NEWYORKCITY#10001", "#"},
		{"partition-offset", "", "17:4821", ":"},
		{"iso-time", "event:", "event:2023-11-01T00:00:00Z:42", ":"},
		{"blog-time", "", "user#2018-08-29:12:00:00", ":"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				ChildOf(bc.prefix, bc.key, bc.delim)
			}
		})
	}
}
