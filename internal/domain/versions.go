package domain

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// VersionForm is how a sort key spells its revision number.
type VersionForm int

const (
	// FormPrefix is the guide's v0_Audit, v1_Audit, v001_Audit.
	FormPrefix VersionForm = iota
	// FormUnderscore is the blog's v_0, v_1 (optionally v_1_name or v_1#name).
	FormUnderscore
	// FormPattern is a table's own template (VersionKey.Pattern).
	FormPattern
	// FormBare is AWS's v0, v1 … vN: no name, the partition is the item.
	FormBare
)

// maxVersionDigits bounds a revision number's digits: DynamoDB's sort
// keys hold 1,024 bytes, so any number a key can write is a revision
// (v1700000000_Rel beside v0_Rel).
const maxVersionDigits = 1024

// timeNumbered is where revision numbers stop counting revisions: ten
// digits and more are a time (seconds since 1970), not a sequence.
const timeNumbered = 1_000_000_000

// maxIntDigits is the most digits an int holds whatever they are: a
// longer number saturates Num (Big), and compares by its digits.
const maxIntDigits = 18

// VersionKey is a sort key read as a revision of a logical item.
type VersionKey struct {
	Key    string      // the whole sort key
	Num    int         // the revision number; 0 is the current copy (saturated when Big)
	Big    bool        // more digits than an int holds: ordered by Digits
	Digits string      // as written: "001" for v001_
	Form   VersionForm // v1_name or v_1
	Name   string      // the logical item: "Audit", "Audit#PART-7"; "" for a bare v_1
	Sep    string      // between digits and name in FormUnderscore: "_", "#" or ""
	// Pattern is the template the key was read with (FormPattern only).
	Pattern *VersionPattern
	// Word, when set, is the word the key says in place of the revision
	// (LATEST of DOC#d1#LATEST, latest of v_latest): the current copy,
	// Num 0, Digits "".
	Word string
}

// Padded reports whether the number is written zero-padded (v001_, v0000_).
func (v VersionKey) Padded() bool { return len(v.Digits) > 1 && v.Digits[0] == '0' }

// Current reports whether this is the v0_ copy.
func (v VersionKey) Current() bool { return v.Num == 0 }

// Label is the revision's short name: v3, or v003 as written; a current
// copy spelt with a word, its whole key (DOC#d1#LATEST), which says
// what it is where a word alone would not.
func (v VersionKey) Label() string {
	if v.Word != "" {
		return v.Key
	}
	return v.template().Label(v.Digits)
}

// Stub is how messages name the revision: its key without the item name
// (v3_, v_3, rev#3).
func (v VersionKey) Stub() string {
	if v.Word != "" {
		return v.Key
	}
	if v.Form == FormPrefix {
		return v.Label() + "_"
	}
	return v.Label()
}

// String rebuilds the sort key: ParseVersionKey(k).String() == k.
func (v VersionKey) String() string {
	if v.Word != "" {
		return v.Key
	}
	return v.template().Key(v.Digits, v.Name)
}

// template is the pattern the key is spelt by: the table's own, or the
// usual spelling of its form.
func (v VersionKey) template() *VersionPattern {
	if v.Form == FormPattern {
		return v.Pattern
	}
	for _, t := range revisionTemplates() {
		if t.form == v.Form && t.sep == v.Sep && (t.p.HasName() == (v.Name != "") || v.Form == FormPrefix) {
			return t.p
		}
	}
	return revisionTemplates()[0].p
}

// revisionTemplate is one usual spelling of revision keys: a template read
// by the same machinery as --version-pattern, and the form it names.
type revisionTemplate struct {
	p    *VersionPattern
	form VersionForm
	sep  string // between digits and name in FormUnderscore
}

// revisionTemplates are the spellings read without a pattern: the
// guide's v0_Audit and v001_Audit, the blog's v_0, v_3_doc and v_3#doc,
// and AWS's bare v0. A key reads by the first that matches it. They are
// compiled (five regular expressions) when a key is first read as a
// revision, not at start-up: the first frame reads none.
var revisionTemplates = sync.OnceValue(func() []revisionTemplate {
	return []revisionTemplate{
		{mustVersionPattern("v{n}_{name}"), FormPrefix, ""},
		{mustVersionPattern("v{n}"), FormBare, ""},
		{mustVersionPattern("v_{n}"), FormUnderscore, ""},
		{mustVersionPattern("v_{n}_{name}"), FormUnderscore, "_"},
		{mustVersionPattern("v_{n}#{name}"), FormUnderscore, "#"},
	}
})

func mustVersionPattern(t string) *VersionPattern {
	p, err := ParseVersionPattern(t)
	if err != nil {
		panic(err)
	}
	return p
}

// ParseVersionKey reads a sort key by the usual revision templates
// (revisionTemplates): v0_Audit, v001_Audit, v0_Audit#PART-7, v_0,
// v_12_doc, v_3#doc, v0, v12. Ordinary keys are not versions: vendor#1,
// v0id, v1_ (no name), V1_x, v-1_x.
func ParseVersionKey(sk string) (VersionKey, bool) {
	if len(sk) < 2 || sk[0] != 'v' {
		return VersionKey{}, false
	}
	for _, t := range revisionTemplates() {
		k, ok := t.p.Parse(sk)
		if !ok {
			continue
		}
		if len(k.Digits) > maxVersionDigits {
			return VersionKey{}, false
		}
		k.Form, k.Sep, k.Pattern = t.form, t.sep, nil
		return k, true
	}
	return VersionKey{}, false
}

// ParseCurrentKey reads a sort key as a current copy spelt with a word
// in place of the revision by the usual templates (revisionTemplates):
// v_latest, v_current_doc, v_LATEST#doc, and the forms whose word comes
// before the v every revision's read begins with, read apart
// (CurrentApart): LATEST_Audit beside v1_Audit, a bare LATEST beside v1.
func ParseCurrentKey(sk string) (VersionKey, bool) {
	for _, t := range revisionTemplates() {
		if k, ok := t.p.ParseCurrent(sk); ok {
			k.Form, k.Sep, k.Pattern = t.form, t.sep, nil
			return k, true
		}
	}
	return VersionKey{}, false
}

// CurrentApart is the usual templates' VersionPattern.CurrentApart: what
// their current copies read apart begin with (LATEST, latest…; with item,
// LATEST_Audit for name Audit, or LATEST for the bare form's ""), each
// once, none that another holds by its start.
func CurrentApart(name string, item bool) []string {
	var all []string
	for _, t := range revisionTemplates() {
		if t.form == FormUnderscore || item && t.p.HasName() == (name == "") {
			continue
		}
		all = append(all, t.p.CurrentApart(name, item)...)
	}
	return Outermost(all)
}

// Outermost keeps the prefixes no other one begins (LATEST, not LATEST_
// beside it), in order, each once.
func Outermost(prefixes []string) []string {
	var out []string
	for i, p := range prefixes {
		held := false
		for j, q := range prefixes {
			if j != i && strings.HasPrefix(p, q) && (q != p || j < i) {
				held = true
				break
			}
		}
		if !held {
			out = append(out, p)
		}
	}
	return out
}

// revisionNumber reads digits as an int, saturated (and big) past what an
// int holds.
func revisionNumber(digits string) (int, bool) {
	sig := strings.TrimLeft(digits, "0")
	if len(sig) > maxIntDigits {
		return math.MaxInt, true
	}
	n, _ := strconv.Atoi(digits)
	return n, false
}

// CompareRevisions orders revision numbers by value, whatever their
// length or padding (v1700000000_ after v2_, v0002_ equal to v2_).
func CompareRevisions(a, b VersionKey) int {
	x, y := strings.TrimLeft(a.Digits, "0"), strings.TrimLeft(b.Digits, "0")
	if len(x) != len(y) {
		return len(x) - len(y)
	}
	return strings.Compare(x, y)
}

// leadingDigits splits off up to maxVersionDigits ASCII digits; more than
// that is not a revision number.
func leadingDigits(s string) (digits, rest string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > maxVersionDigits {
		return "", s
	}
	return s[:i], s[i:]
}

// Revision is one stored revision of a logical item: its key and its
// attributes as plain values (map[string]any, []any, numbers as strings or
// json.Number, …).
type Revision struct {
	VersionKey
	Item map[string]any
}

// History is one logical item's revisions, in numeric order.
type History struct {
	Name      string
	Form      VersionForm
	Pattern   *VersionPattern // the table's template (FormPattern only)
	Current   *Revision       // the v0_ copy; nil when missing
	Revisions []Revision      // numbers ≥ 1, ascending (v10 after v9, padded or not)
	Drift     []string        // what is wrong, readable; empty when all is well
	// Pointer is the current copy's attribute that names the newest
	// revision's number (AWS's Latest), left out of the comparison with
	// that revision and checked against it instead; "" when none.
	Pointer string
	// Owner, on an index, is the base table's partition key value the
	// revisions belong to: index keys need not be unique, so two base
	// items' v1 under one index key are two histories, not one v1 twice.
	Owner string
}

// Latest is the newest revision, or nil when there are none.
func (h History) Latest() *Revision {
	if len(h.Revisions) == 0 {
		return nil
	}
	return &h.Revisions[len(h.Revisions)-1]
}

// Drifted reports whether anything is wrong with the history.
func (h History) Drifted() bool { return len(h.Drift) > 0 }

// GroupVersions groups revisions by logical item (in name order) and
// checks each for drift. ignore names attributes left out of the v0_
// comparison: the key attributes, which differ by design, and a table's
// drift_ignore. A current copy spelt with a word (DOC#d1#LATEST, Word
// set) is the current copy of an item that has revisions and no v0: where
// v0 is there it is current, and the word's copy is left out as an
// ordinary item, said only where it differs from v0; as one with no
// revisions beside it is (a key that only reads like one).
func GroupVersions(revs []Revision, ignore ...string) []History {
	type group struct {
		h       History
		current []Revision
		words   []Revision
	}
	byName := map[string]*group{}
	var names []string
	for _, r := range revs {
		id := historyID(r.VersionKey)
		g := byName[id]
		if g == nil {
			g = &group{h: History{Name: r.Name, Form: r.Form, Pattern: r.Pattern}}
			byName[id] = g
			names = append(names, id)
		}
		switch {
		case r.Word != "":
			g.words = append(g.words, r)
		case r.Current():
			g.current = append(g.current, r)
		default:
			g.h.Revisions = append(g.h.Revisions, r)
		}
	}
	sort.Strings(names)
	out := make([]History, 0, len(names))
	for _, id := range names {
		g := byName[id]
		if len(g.h.Revisions) == 0 && len(g.current) == 0 {
			continue // words alone: no versioned item
		}
		if g.h.Pattern.Numbered() && !NumberedRun(keysOfAll(g.current, g.h.Revisions)) {
			continue // a number key of scattered numbers (scores): no versions
		}
		if len(g.current) == 0 && len(g.h.Revisions) > 0 {
			g.current = g.words
		}
		sort.SliceStable(g.h.Revisions, func(i, j int) bool {
			a, b := g.h.Revisions[i], g.h.Revisions[j]
			if c := CompareRevisions(a.VersionKey, b.VersionKey); c != 0 {
				return c < 0
			}
			return a.Key < b.Key
		})
		if len(g.current) > 0 {
			sort.Slice(g.current, func(i, j int) bool { return g.current[i].Key < g.current[j].Key })
			c := g.current[0]
			g.h.Current = &c
		}
		if g.h.Pattern.Numbered() && g.h.Current != nil && !zeroIsCopy(g.h, g.current, ignore) {
			// A number key's 0 that is no copy of the newest is its first
			// version (storage-service's 0, 1, 2…), not a current copy
			// drifted from it.
			g.h.Revisions = append(g.current, g.h.Revisions...)
			g.h.Current, g.current = nil, nil
		}
		ig := append(slices.Clone(ignore), ownNumbers(g.h, g.current)...)
		g.h.Drift = drift(g.h, g.current, ig)
		if g.h.Current != nil && g.h.Current.Word == "" {
			g.h.Drift = append(g.h.Drift, wordsBesideZero(*g.h.Current, g.words, ig)...)
		}
		if ptr, _, ok := versionPointer(g.h, ig); ok {
			g.h.Pointer = ptr
		}
		out = append(out, g.h)
	}
	return out
}

// zeroIsCopy reports whether a number key's 0 is kept as the current copy
// of its newest revision: it names that revision (a Latest pointer) or
// holds what it holds, keys and own numbers aside.
func zeroIsCopy(h History, currents []Revision, ignore []string) bool {
	latest := h.Latest()
	if latest == nil {
		return false
	}
	ig := append(slices.Clone(ignore), ownNumbers(h, currents)...)
	if _, _, ok := versionPointer(h, ig); ok {
		return true
	}
	return len(Diff(without(latest.Item, ig), without(h.Current.Item, ig))) == 0
}

// historyID keeps the forms apart: v_1 and v1_ never share a history.
func historyID(k VersionKey) string {
	switch k.Form {
	case FormUnderscore:
		return "_" + k.Name
	case FormPattern:
		return "p" + k.Name
	case FormBare:
		return "b"
	}
	return "v" + k.Name
}

// Stub is how messages name revision n of this history: v0_, v_0, rev#0.
func (h History) Stub(n int) string {
	return VersionKey{Digits: strconv.Itoa(n), Form: h.Form, Pattern: h.Pattern}.Stub()
}

// FormName is how the history's keys are spelled: v1_, v_1, or the
// table's template.
func (h History) FormName() string {
	switch h.Form {
	case FormUnderscore:
		return "v_1"
	case FormPattern:
		return h.Pattern.String()
	case FormBare:
		return "v1"
	}
	return "v1_"
}

func drift(h History, currents []Revision, ignore []string) []string {
	var out []string
	v := h.Stub
	zero := v(0)
	switch {
	case len(currents) == 0 && len(h.Revisions) > 0 && (h.Pattern == nil || !h.Pattern.HistoryOnly()):
		of := fmt.Sprintf("%d revisions", len(h.Revisions))
		if len(h.Revisions) == 1 {
			of = "its 1 revision"
		}
		out = append(out, fmt.Sprintf("%s is missing: no current copy of %s", zero, of))
	case len(currents) > 1 && currents[0].Word != "":
		out = append(out, fmt.Sprintf("%d current copies: %s", len(currents), keysOf(currents)))
	case len(currents) > 1:
		out = append(out, fmt.Sprintf("%s appears %d times: %s", zero, len(currents), keysOf(currents)))
	}
	latest := h.Latest()
	if ptr, n, ok := versionPointer(h, ignore); ok {
		ignore = append(slices.Clone(ignore), ptr)
		switch {
		case latest == nil || n > latest.Num:
			out = append(out, fmt.Sprintf("%s says %s=%d but %s does not exist", h.Current.Stub(), ptr, n, v(n)))
		case n < latest.Num:
			out = append(out, fmt.Sprintf("%s says %s=%d but the newest is %s", h.Current.Stub(), ptr, n, latest.Stub()))
		}
	}
	if latest != nil && h.Current != nil {
		if changes := Diff(without(latest.Item, ignore), without(h.Current.Item, ignore)); len(changes) > 0 {
			out = append(out, fmt.Sprintf("%s differs from %s: %s", h.Current.Stub(), latest.Stub(), changedPaths(changes)))
		}
	}
	next := 1
	for i := 0; i < len(h.Revisions); {
		j := i
		for j < len(h.Revisions) && CompareRevisions(h.Revisions[j].VersionKey, h.Revisions[i].VersionKey) == 0 {
			j++
		}
		if h.Revisions[i].Big { // past what gaps can count: only duplicates are said
			if j-i > 1 {
				out = append(out, fmt.Sprintf("%s appears %d times: %s", h.Revisions[i].Stub(), j-i, keysOf(h.Revisions[i:j])))
			}
			i = j
			continue
		}
		n := h.Revisions[i].Num
		switch {
		case n >= timeNumbered:
			// Numbered by a time (v1700000000_): the numbers between
			// were never revisions, so there is no gap to report.
		case n > next && next == 1:
			out = append(out, fmt.Sprintf("gap: no %s before %s", rangeOf(v, next, n-1), v(n)))
		case n == next+1:
			out = append(out, fmt.Sprintf("gap: no %s between %s and %s", v(next), v(next-1), v(n)))
		case n > next+1:
			out = append(out, fmt.Sprintf("gap: no %s…%s between %s and %s", v(next), v(n-1), v(next-1), v(n)))
		}
		if j-i > 1 {
			out = append(out, fmt.Sprintf("%s appears %d times: %s", v(n), j-i, keysOf(h.Revisions[i:j])))
		}
		next = n + 1
		i = j
	}
	return out
}

// wordsBesideZero says each copy spelt with a word (DOC#d3#LATEST) kept
// beside a v0 that differs from it: v0 is the current copy, and a second
// copy that disagrees with it is not left unsaid; one that agrees is
// an ordinary item.
func wordsBesideZero(zero Revision, words []Revision, ignore []string) []string {
	var out []string
	for _, w := range words {
		if changes := Diff(without(zero.Item, ignore), without(w.Item, ignore)); len(changes) > 0 {
			out = append(out, fmt.Sprintf("%s differs from %s: %s", w.Key, zero.Stub(), changedPaths(changes)))
		}
	}
	return out
}

// ownNumbers are the attributes every revision holds its own number in,
// the current copy 0 (dynamodb-toolbox's v of computeKey sk: v${v},
// dynamodb-onetable's rev of value: 'v${rev}_${docName}', ElectroDB's
// composite rev of VERSION#0003 in $doc_2#rev_version#0003): the key's
// number written again as data, which differs between the current copy
// and the newest revision by design, as the keys do. Named like a
// pointer (version), it is no pointer either: it never names another
// revision. Text holds it after a mark all the copies share (VERSION#);
// ElectroDB's every versioned document was said to drift by its rev.
func ownNumbers(h History, currents []Revision) []string {
	if len(currents) == 0 || len(h.Revisions) == 0 {
		return nil
	}
	all := append(slices.Clone(currents), h.Revisions...)
	var out []string
	for k := range currents[0].Item {
		own := true
		mark, marked := "", false
		for _, r := range all {
			m, n, ok := markedNumber(r.Item[k])
			if r.Big || !ok || n != r.Num || marked && m != mark {
				own = false
				break
			}
			mark, marked = m, true
		}
		if own {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// markedNumber reads a revision's number held as a number, as digits in
// text ("001"), or as digits after a mark that is no digit
// ("VERSION#0003": mark "VERSION#").
func markedNumber(v any) (mark string, n int, ok bool) {
	if s, isText := v.(string); isText {
		i := len(s)
		for i > 0 && isDigit(s[i-1]) {
			i--
		}
		mark, v = s[:i], s[i:]
	}
	n, ok = numberValue(v)
	return mark, n, ok
}

// numberValue reads a revision's number held as a number or as digits
// in text ("001").
func numberValue(v any) (int, bool) {
	s, ok := v.(string)
	if !ok {
		return wholeNumber(v)
	}
	if s == "" || len(s) > maxIntDigits || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// pointerWords are names a version pointer goes by, for a pointer that no
// longer equals the newest revision's number (a lagging copy).
var pointerWords = []string{"latest", "version", "ver", "rev", "revision", "current", "head"}

// versionPointer finds the current copy's attribute that counts
// revisions: a whole number the revisions do not carry (or, named like a
// pointer, carry otherwise), equal to the newest revision's number (AWS's
// Latest, whatever its name), or named like a pointer when it is not (v0
// says Latest=2, v2 missing). A number the newest revision holds
// differently, under any other name, stays data: its change is drift.
func versionPointer(h History, ignore []string) (name string, n int, ok bool) {
	if h.Current == nil {
		return "", 0, false
	}
	latest := h.Latest()
	byName := ""
	names := make([]string, 0, len(h.Current.Item))
	for k := range h.Current.Item {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		num, isNum := wholeNumber(h.Current.Item[k])
		if !isNum || slices.Contains(ignore, k) {
			continue
		}
		named := slices.Contains(pointerWords, strings.ToLower(k))
		if latest != nil {
			lv, had := latest.Item[k]
			if had && (reflect.DeepEqual(lv, h.Current.Item[k]) || !named) {
				continue // ordinary data: copied alike, or drift to report
			}
			if num == latest.Num {
				return k, num, true
			}
		}
		if byName == "" && named {
			byName = k
		}
	}
	if byName == "" {
		return "", 0, false
	}
	n, _ = wholeNumber(h.Current.Item[byName])
	return byName, n, true
}

// wholeNumber reads a plain number value that is a revision number.
func wholeNumber(v any) (int, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case int:
		return x, x >= 0
	case int64:
		s = strconv.FormatInt(x, 10)
	case float64:
		s = strconv.FormatFloat(x, 'f', -1, 64)
	default:
		return 0, false
	}
	if len(s) == 0 || len(s) > maxIntDigits {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

func rangeOf(v func(int) string, a, b int) string {
	if a == b {
		return v(a)
	}
	return v(a) + "…" + v(b)
}

// keysOfAll is the sort keys of revisions, as they were read.
func keysOfAll(lists ...[]Revision) []string {
	var out []string
	for _, revs := range lists {
		for _, r := range revs {
			out = append(out, r.Key)
		}
	}
	return out
}

func keysOf(revs []Revision) string {
	ks := make([]string, len(revs))
	for i, r := range revs {
		ks[i] = r.Key
	}
	return strings.Join(ks, ", ")
}

func without(item map[string]any, ignore []string) map[string]any {
	if len(ignore) == 0 {
		return item
	}
	out := make(map[string]any, len(item))
	for k, v := range item {
		out[k] = v
	}
	for _, k := range ignore {
		delete(out, k)
	}
	return out
}

func changedPaths(cs []Change) string {
	seen := map[string]bool{}
	var top []string
	for _, c := range cs {
		name := c.Path
		if i := strings.IndexAny(name, ".["); i > 0 {
			name = name[:i]
		}
		if !seen[name] {
			seen[name] = true
			top = append(top, name)
		}
	}
	return strings.Join(top, ", ")
}

// ChangeKind is what happened to an attribute between two revisions.
type ChangeKind string

const (
	Added   ChangeKind = "added"
	Removed ChangeKind = "removed"
	Changed ChangeKind = "changed"
)

// Change is one difference between two items, at a path such as
// Checks.brakes.status or Findings[1].
type Change struct {
	Path string
	Kind ChangeKind
	Old  any // nil when Added
	New  any // nil when Removed
}

// Diff lists what changed from old to new, descending into maps and lists,
// in path order. Lists are compared position by position; a list that
// changed length reports the extra or missing tail as added or removed.
func Diff(old, new map[string]any) []Change {
	var out []Change
	diffMap("", old, new, &out)
	return out
}

func diffMap(path string, old, new map[string]any, out *[]Change) {
	names := make([]string, 0, len(old)+len(new))
	for k := range old {
		names = append(names, k)
	}
	for k := range new {
		if _, ok := old[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		p := joinPath(path, k)
		ov, inOld := old[k]
		nv, inNew := new[k]
		switch {
		case !inOld:
			*out = append(*out, Change{Path: p, Kind: Added, New: nv})
		case !inNew:
			*out = append(*out, Change{Path: p, Kind: Removed, Old: ov})
		default:
			diffValue(p, ov, nv, out)
		}
	}
}

func diffValue(path string, ov, nv any, out *[]Change) {
	om, ok1 := ov.(map[string]any)
	nm, ok2 := nv.(map[string]any)
	if ok1 && ok2 {
		diffMap(path, om, nm, out)
		return
	}
	ol, ok1 := ov.([]any)
	nl, ok2 := nv.([]any)
	if ok1 && ok2 {
		for i := 0; i < max(len(ol), len(nl)); i++ {
			p := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i >= len(ol):
				*out = append(*out, Change{Path: p, Kind: Added, New: nl[i]})
			case i >= len(nl):
				*out = append(*out, Change{Path: p, Kind: Removed, Old: ol[i]})
			default:
				diffValue(p, ol[i], nl[i], out)
			}
		}
		return
	}
	if !reflect.DeepEqual(ov, nv) {
		*out = append(*out, Change{Path: path, Kind: Changed, Old: ov, New: nv})
	}
}

// joinPath writes names that are not plain identifiers in backticks, as
// the filter syntax does: a.b, a.`odd name`.
func joinPath(path, name string) string {
	if !plainName(name) {
		name = "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

func plainName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// WhyNotRevision says why a key that begins like a revision (v and a
// digit, v_ or V and a digit) is not read as one, from the template it
// reads as beside the usual ones (revisionTemplates): what it saw, and a
// --version-pattern that reads it where one would ("v1_: no name after
// the number: read as v{n}_, not v{n}_{name}; --version-pattern 'v{n}_'
// reads it"). "" when the key is a revision, or does not look like one
// (vendor#1).
func WhyNotRevision(sk string) string {
	if _, ok := ParseVersionKey(sk); ok {
		return ""
	}
	lead, digits, rest, ok := nearRevision(sk)
	if !ok {
		if len(sk) > 2 && sk[0] == 'v' && sk[1] == '-' && isDigit(sk[2]) {
			return "a revision number is never negative"
		}
		return ""
	}
	usual := "v{n}_{name}"
	if strings.HasSuffix(lead, "_") {
		usual = "v_{n}_{name}"
	}
	seen := lead + numPlaceholder + rest
	var why string
	switch {
	case lead[0] == 'V':
		why = "revisions begin with a lower-case v"
	case len(rest) > 1 && (rest[0] == '.' || rest[0] == ',') && isDigit(rest[1]):
		return fmt.Sprintf("the number is not whole: read as %s, not %s", seen, usual)
	case rest == "_" && lead == "v":
		why = "no name after the number"
	case rest == "_" || rest == "#":
		why = "no name after " + rest
	case isAlnumByte(rest[0]) || rest[0] >= 0x80:
		why = "text touches the number"
	default:
		why = fmt.Sprintf("%q after the number, not _", rest[:1])
	}
	why = fmt.Sprintf("%s: read as %s, not %s", why, seen, usual)
	if p := patternFor(lead, rest); p != nil {
		if _, ok := p.Parse(sk); ok && len(digits) <= maxVersionDigits {
			why += fmt.Sprintf("; --version-pattern '%s' reads it", p)
		}
	}
	return why
}

// nearRevision reads a key that begins like a revision template, v or V
// (and _), then digits: what comes before the number, the number, and
// what follows it.
func nearRevision(sk string) (lead, digits, rest string, ok bool) {
	if len(sk) < 2 || sk[0] != 'v' && sk[0] != 'V' {
		return "", "", "", false
	}
	lead = sk[:1]
	if sk[1] == '_' {
		lead = sk[:2]
	}
	digits, rest = leadingDigits(sk[len(lead):])
	return lead, digits, rest, digits != ""
}

// patternFor is the template that reads a near revision: the text after
// the number, a separator and a name ({name}) or as it stands.
func patternFor(lead, rest string) *VersionPattern {
	tail := rest
	if len(rest) > 1 && !isAlnumByte(rest[0]) && rest[0] < 0x80 && rest[0] != '{' && rest[0] != '}' {
		tail = rest[:1] + namePlaceholder
	}
	p, err := ParseVersionPattern(lead + numPlaceholder + tail)
	if err != nil {
		return nil
	}
	return p
}
