package domain

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestKeyTemplates: each key reads as its template, in the shapes
// published layouts write.
func TestKeyTemplates(t *testing.T) {
	for _, tc := range []struct{ key, delim, want string }{
		{"admission#1601700180000#R8", "#", "admission#{time:epoch-ms}#R8"},
		{"P#512-777-7777#2021-07-07T16:36:42-D", "#", "P#512-777-7777#{time:2006-01-02T15:04:05}-D"},
		{"2019-09-25T010101", "#", "{time:2006-01-02T150405}"},
		{"v00001.profile", "#", "v{n}.profile"},
		{"USER#alice", "#", "USER#alice"},
		{"#METADATA#alice", "#", "#METADATA#alice"},
		{"GAME#7d1b3c52-0a5e-4a0b-9c1e-2f1f0e5a7b11", "#", "GAME#{id}"},
		{"ORDER#20190925#42", "#", "ORDER#{time:20060102}#{n}"},
		{"PHOTO#01ARZ3NDEKTSV4RRFFQ69G5FAV", "#", "PHOTO#{ulid}"},
		{"$taskapp#employee_jdoe", "#", "$taskapp#employee_jdoe"},
		{"", "#", ""},
		// A time after any separator, and never split at its own ':' (#36).
		{"event:2024-01-15T10:00:00Z", ":", "event:{time:2006-01-02T15:04:05Z07:00}"},
		{"order-2024-01-15T10:00:00Z", "#", "order-{time:2006-01-02T15:04:05Z07:00}"},
		{"click.2024-01-15T10:00:00Z", "", "click.{time:2006-01-02T15:04:05Z07:00}"},
		{"WEEK#2024-W05#3", "#", "WEEK#{time:2006-Www}#{n}"},
		{"LOG#2024/01/15#0001", "/", "LOG#{time:2006/01/02}#0001"},
	} {
		parts := ParseKey(tc.key, tc.delim)
		if got := KeyTemplate(parts); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.key, got, tc.want)
		}
	}
	// Read together, names that vary are ids, labels stay.
	keys := []string{"USER#alice", "USER#bob", "USER#carol", "GAME#g-1#USER#alice", "GAME#g-2#USER#bob", "$app#employee_jdoe", "$app#employee_asmith", "$app#employee_bwayne"}
	want := []string{"USER#{id}", "USER#{id}", "USER#{id}", "GAME#g-{id}#USER#{id}", "GAME#g-{id}#USER#{id}", "$app#employee_{id}", "$app#employee_{id}", "$app#employee_{id}"}
	if got := Templates(keys, "#"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("templates\n got %q\nwant %q", got, want)
	}
	// Words that vary and share only part of a character (é and ä both
	// begin with the byte C3) are ids from their first character: a
	// template never holds half a character (it printed as U+FFFD).
	for _, keys := range [][]string{
		{"é#1", "ä#2", "ö#3", "ü#4"},
		{"🍕#1", "🍔#2", "🍟#3", "🌭#4"},
		{"x-é", "x-ä", "x-ö", "x-ü"},
	} {
		for _, got := range Templates(keys, "#") {
			if !utf8.ValidString(got) {
				t.Errorf("%q: template %q cuts a character", keys, got)
			}
		}
		if got := Templates(keys, "#"); got[0] != got[1] {
			t.Errorf("%q: templates %q, want one", keys, got)
		}
	}
	// The delimiter guessed is one outside the keys' times.
	if got := InferTemplates([]string{"2024/01/15", "2024/01/16"}, ""); strings.Join(got, ", ") != "{time:2006/01/02} (2)" {
		t.Errorf("inferred %q", got)
	}
	if got := InferTemplates([]string{"a#1", "a#2", "b#x"}, ""); strings.Join(got, ", ") != "a#{n} (2), b#x (1)" {
		t.Errorf("inferred %q", got)
	}
	for _, tc := range []struct {
		keys []string
		want string
	}{
		{[]string{"v00001.profile", "v00002.profile"}, "v{n}.{name}"},
		{[]string{"Audit#v3"}, "{name}#v{n}"},
		{[]string{"rev#v2#Audit"}, "rev#v{n}#{name}"},
		{[]string{"metadata", "rev#3#Terms"}, "rev#{n}#{name}"},
		{[]string{"Metadata"}, ""},
		// A counter under a fixed start: a config's VERSION#{n}, an event
		// store's {aggregate}#{seq}, with what follows as the name.
		{[]string{"VERSION#0", "VERSION#1", "VERSION#2"}, "VERSION#{n}"},
		{[]string{"EVENT#000001", "EVENT#000002", "SNAPSHOT"}, "EVENT#{n}"},
		{[]string{"seq#1#created", "seq#2#paid", "seq#3#shipped", "seq#4#refunded", "seq#5#closed"}, "seq#{n}#{name}"},
		{[]string{"EVENT#1"}, ""},
		// A counter that never counts is the key's shape, not revisions:
		// ElectroDB's $employee_1 is the model's version, on every key.
		{[]string{"$employee_1#hired_2020-09-01t00:00:00.000z#employee_e1", "$employee_1#hired_2020-09-02t00:00:00.000z#employee_e2",
			"$employee_1#hired_2021-01-02t00:00:00.000z#employee_e3", "$task_1#task_t1", "$task_1#task_t2"}, ""},
		{[]string{"EVENT#7", "EVENT#007"}, ""},
		// Words that vary across templates of one shape are a level's
		// names, not a counter's start: FRANCE's REGION#CITY#{zip}.
		{[]string{"BRETAGNE#BAYVIEW#03793", "BRETAGNE#BAYVIEW#03794", "BRETAGNE#ELMBURG#03762", "BRETAGNE#ELMBURG#03763",
			"ILE-DE-FRANCE#GREENTON#03801", "ILE-DE-FRANCE#GREENTON#03802"}, ""},
		{[]string{"EVENT#1", "EVENT#2", "ORDER#1", "ORDER#2"}, "EVENT#{n}"},
		// ElectroDB's revisions of one item ($page_1#rev_0…): the counter
		// is the second number, the model's version before it stays.
		{[]string{"$page_1#rev_0", "$page_1#rev_1", "$page_1#rev_2", "$page_1#rev_3"}, "$page_1#rev_{n}"},
		{[]string{"$doc_1#rev_1#title_a", "$doc_1#rev_2#title_a", "$doc_1#rev_3#title_b"}, "$doc_1#rev_{n}#{name}"},
		// Numbers far apart are ids or values, not revisions: a
		// highscore's zero-padded points (paszin/dynamodb-entities), the
		// subscriptions of AWS's recurring payments, a social network's
		// timeline of posts by id.
		{[]string{"DATE#2024-12-12T14:36:22+00:00", "SCORE#000512", "SCORE#001521", "SCORE#083846", "STATS"}, ""},
		{[]string{"REC#2023-05-28T14:15:39.247Z#SKU#999", "SUB#123#SKU#999", "SUB#456#SKU#998", "SUB#789#SKU#991"}, ""},
		{[]string{"p#345671#u#12345", "p#512040#u#13456", "p#904415#u#12345"}, ""},
		{[]string{"VERSION#990", "VERSION#996", "VERSION#1000"}, "VERSION#{n}"},
		// The name first, then a separator and the counter.
		{[]string{"Audit_v0", "Audit_v1", "Terms_v0"}, "{name}_v{n}"},
		{[]string{"Audit.v1", "Terms.v2"}, "{name}.v{n}"},
		{[]string{"Audit_v1.x"}, "Audit_v{n}.{name}"},
	} {
		if got := SuggestVersionPattern(tc.keys, "#"); got != tc.want {
			t.Errorf("%q suggests %q, want %q", tc.keys, got, tc.want)
		}
		if tc.want != "" {
			p, err := ParseVersionPattern(tc.want)
			if err != nil {
				t.Errorf("%q is not a pattern: %v", tc.want, err)
			} else if _, ok := p.Parse(tc.keys[0]); !ok && tc.keys[0] != "metadata" {
				t.Errorf("%q does not read %q", tc.want, tc.keys[0])
			}
		}
	}
}

// FuzzKeyTemplate: a key and its template round-trip: the parts join to
// the key, and the template stands for the key.
func FuzzKeyTemplate(f *testing.F) {
	for _, k := range []string{"admission#1601700180000#R8", "LOG#00000001790812800000", "MSG#0001790812800#1", "P#512-777-7777#2021-07-07T16:36:42-D", "v00001.profile", "USER#{id}", "#", "2019-09-25T010101", "a{n}b", "x#.*"} {
		f.Add(k, "#")
	}
	f.Fuzz(func(t *testing.T, key, delim string) {
		if !utf8.ValidString(key) || len(delim) > 2 {
			return
		}
		parts := ParseKey(key, delim)
		var joined strings.Builder
		for _, p := range parts {
			joined.WriteString(p.Text)
		}
		if joined.String() != key {
			t.Fatalf("%q parts join to %q", key, joined.String())
		}
		if tpl := KeyTemplate(parts); !strings.ContainsAny(key, "{}") && !TemplateMatches(tpl, key) {
			t.Fatalf("%q's template %q does not stand for it", key, tpl)
		}
	})
}

// FuzzSuggestVersionPattern: a suggested pattern is one --version-pattern
// takes, and it reads one of the keys it was suggested from.
func FuzzSuggestVersionPattern(f *testing.F) {
	f.Add("$page_1#rev_0", "$page_1#rev_1", "$page_1#rev_2")
	f.Add("seq#1#created", "seq#2#paid", "x")
	f.Add("a1b2#c3", "a1b2#c4", "a1b5#c3")
	f.Add("SCORE#000512", "SCORE#083846", "STATS")
	f.Add("SUB#123#SKU#999", "SUB#456#SKU#998", "REC#2023-05-28T14:15:39.247Z#SKU#999")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		keys := []string{a, b, c}
		if !utf8.ValidString(a + b + c) {
			return // DynamoDB's strings are UTF-8
		}
		p := SuggestVersionPattern(keys, "#")
		if p == "" {
			return
		}
		vp, err := ParseVersionPattern(p)
		if err != nil {
			t.Fatalf("%q suggests %q, not a pattern: %v", keys, p, err)
		}
		if !slices.ContainsFunc(keys, func(k string) bool { _, ok := vp.Parse(k); return ok }) {
			t.Fatalf("%q suggests %q, which reads none of them", keys, p)
		}
	})
}

// FuzzDetectTimeText: a time detection finds in a key is found again
// where the encoding looks, and its template reads back as the same form.
func FuzzDetectTimeText(f *testing.F) {
	for _, k := range []string{"admission#1601700180000#R8", "LOG#00000001790812800000", "MSG#0001790812800#1", "P#512-777-7777#2021-07-07T16:36:42-D", "2019-09-25T010101", "20190925T010101Z#x", "JFK#2021-08-01T07:25:00#250#0", "evt#1601700180000000000", "a#2021-07-07-1", "evt§2018-08-29T12:00:00Z", "a→2018-08-29→3"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		e, ok := DetectTimeText(key)
		if !ok {
			return
		}
		if _, ok := e.KeyTime(key); !ok {
			t.Fatalf("%q detected as %s, which does not read it", key, e.Name())
		}
		back, err := ParseTimeFormat(e.TimeFormat())
		if err == nil {
			back, err = back.ForKey(false)
		}
		if err == nil {
			back, _ = back.Resolve([]string{key})
		}
		if _, ok := back.KeyTime(key); err != nil || !ok {
			t.Fatalf("%q: %s written %q reads back as %s (%v)", key, e.Name(), e.TimeFormat(), back.Name(), err)
		}
	})
}
