package domain

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// VersionPattern is a table's own spelling of revision keys, named in the
// configuration or by --version-pattern: a template such as rev#{n}#{name},
// {name}#v{n} or V{n}-{name}, where {n} is the revision number (digits,
// padded or not; 0 is the current copy) and {name}, if present, the
// logical item.
type VersionPattern struct {
	template string
	re       *regexp.Regexp
	numGroup int // submatch of the digits; the name's is the other one
	parts    []string
	// historyOnly: the keys it was inferred from hold no revision 0, as a
	// partition of past revisions beside the current copy's own
	// (historical.u1 beside current.u1): no current copy is missing here.
	historyOnly bool
	// numbered: the sort key is a number, the revision itself (NumberVersions).
	numbered bool
	// current reads the current copy's key where a word stands in place of
	// the revision (DOC#d1#LATEST beside DOC#d1#v7, rev#current#Terms,
	// v_latest, LATEST_Audit beside v1_Audit); nil where the word would
	// touch a letter, digit or the name.
	current *regexp.Regexp
	// apart: that key is not read with the revisions, as the word leads
	// what they begin with (LATEST_Audit is no key begins_with(SK, "v")
	// reads): it is read apart, by CurrentApart's prefixes.
	apart bool
	// currentParts is that key's template: the parts with the revision
	// (a letter token such as v, and {n}) replaced by currentPlaceholder.
	currentParts []string
}

const (
	numPlaceholder  = "{n}"
	namePlaceholder = "{name}"
	// currentPlaceholder stands, in a current copy's template, where the
	// word (LATEST, CURRENT, in any case) replaces the revision.
	currentPlaceholder = "\x00word"
)

// ParseVersionPattern checks a template. {n} is required, {name} optional;
// each appears at most once, a literal separates them, and no digit
// touches {n}, so that every sort key reads one way only.
func ParseVersionPattern(template string) (*VersionPattern, error) {
	if !utf8.ValidString(template) {
		return nil, fmt.Errorf("%q is not valid UTF-8: write the pattern as text, such as \"rev#{n}#{name}\"", template)
	}
	parts, err := splitTemplate(template)
	if err != nil {
		return nil, err
	}
	p := &VersionPattern{template: template, parts: parts}
	var expr strings.Builder
	expr.WriteString(`(?s)^`)
	group := 0
	for _, part := range parts {
		switch part {
		case numPlaceholder:
			group++
			p.numGroup = group
			expr.WriteString("([0-9]+)") // any length a key holds (RE2 counts no further than 1000)
		case namePlaceholder:
			group++
			expr.WriteString("(.+?)")
		default:
			expr.WriteString(regexp.QuoteMeta(part))
		}
	}
	expr.WriteString("$")
	p.re = regexp.MustCompile(expr.String())
	p.currentParts = currentTemplate(parts)
	if p.currentParts != nil {
		p.current = currentExpr(p.currentParts)
		p.apart = !strings.HasPrefix(literalPrefix(p.currentParts), p.Prefix())
	}
	return p, nil
}

// currentWords are the words a current copy's key says in place of its
// revision, compared in any case: the whole word only (LATEST_NEWS,
// LATESTv and vLATEST are not one).
var currentWords = []string{"latest", "current"}

// currentTemplate is the template of a current copy's key spelt with a
// word: the revision, {n} and the letters just before it (the v of
// {name}#v{n}, the rev of rev{n}), replaced by the word, which must stand
// alone: after the key's start or a character that is no letter or
// digit, and before the key's end or such a character. nil where it
// would not (x1v{n}, {name}v{n}: the word would touch a digit or the
// name).
func currentTemplate(parts []string) []string {
	i := slices.Index(parts, numPlaceholder)
	out := slices.Clone(parts)
	out[i] = currentPlaceholder
	if i > 0 {
		lead := strings.TrimRightFunc(parts[i-1], func(r rune) bool { return r < utf8.RuneSelf && isLetter(byte(r)) })
		switch {
		case lead == "" && i-1 > 0: // the word would touch the name
			return nil
		case lead != "" && (isAlnumByte(lead[len(lead)-1]) || lead[len(lead)-1] >= utf8.RuneSelf):
			return nil
		case lead == "":
			out = slices.Delete(out, i-1, i)
		default:
			out[i-1] = lead
		}
	}
	if i+1 < len(parts) {
		if after := parts[i+1]; isAlnumByte(after[0]) || after[0] >= utf8.RuneSelf {
			return nil
		}
	}
	return out
}

// literalPrefix is the literal before a template's first placeholder.
func literalPrefix(parts []string) string {
	switch parts[0] {
	case numPlaceholder, namePlaceholder, currentPlaceholder:
		return ""
	}
	return parts[0]
}

// currentExpr compiles a current copy's template: the word's submatch
// named word, the item's named name.
func currentExpr(parts []string) *regexp.Regexp {
	var expr strings.Builder
	expr.WriteString(`(?s)^`)
	for _, part := range parts {
		switch part {
		case currentPlaceholder:
			expr.WriteString(`(?P<word>(?i:` + strings.Join(currentWords, "|") + `))`)
		case namePlaceholder:
			expr.WriteString(`(?P<name>.+?)`)
		default:
			expr.WriteString(regexp.QuoteMeta(part))
		}
	}
	expr.WriteString("$")
	return regexp.MustCompile(expr.String())
}

// ParseCurrent reads a sort key as an item's current copy spelt with a
// word in place of the revision (DOC#d1#LATEST for {name}#v{n},
// rev#current#Terms for rev#{n}#{name}, v_latest for v_{n}, LATEST_Audit
// for v{n}_{name}): Num 0, Word the word as written.
func (p *VersionPattern) ParseCurrent(sk string) (VersionKey, bool) {
	if p.current == nil {
		return VersionKey{}, false
	}
	m := p.current.FindStringSubmatch(sk)
	if m == nil {
		return VersionKey{}, false
	}
	k := VersionKey{Key: sk, Word: m[p.current.SubexpIndex("word")], Form: FormPattern, Pattern: p}
	if i := p.current.SubexpIndex("name"); i > 0 {
		k.Name = m[i]
	}
	return k, true
}

// CurrentItemPrefix is what an item's current copy spelt with a word
// begins with, as ItemPrefix is for its revisions (DOC#d1# for
// {name}#v{n}); ok is false where the template reads no such key with
// the revisions (none, or apart: CurrentApart).
func (p *VersionPattern) CurrentItemPrefix(name string) (prefix string, ok bool) {
	if p.current == nil || p.apart {
		return "", false
	}
	var b strings.Builder
	for _, part := range p.currentParts {
		switch part {
		case currentPlaceholder:
			return b.String(), true
		case namePlaceholder:
			b.WriteString(name)
		default:
			b.WriteString(part)
		}
	}
	return b.String(), true
}

// currentSpellings are the spellings of the words a read apart asks for
// (begins_with is exact): each in upper, lower and title case.
var currentSpellings = []string{"LATEST", "latest", "Latest", "CURRENT", "current", "Current"}

// CurrentApart is, where the word leads what every revision key begins
// with (LATEST_Audit for v{n}_{name}, LATEST#DOC#d1 for v{n}#{name}), what
// such keys begin with, one for each spelling read: up to the name
// (LATEST_) where item is false, else the whole key of the item name
// (LATEST_Audit). nil where the word's key is read with the revisions, or
// not at all.
func (p *VersionPattern) CurrentApart(name string, item bool) []string {
	if p.current == nil || !p.apart {
		return nil
	}
	out := make([]string, 0, len(currentSpellings))
	for _, word := range currentSpellings {
		var b strings.Builder
		for _, part := range p.currentParts {
			if part == namePlaceholder && !item {
				break
			}
			switch part {
			case currentPlaceholder:
				b.WriteString(word)
			case namePlaceholder:
				b.WriteString(name)
			default:
				b.WriteString(part)
			}
		}
		out = append(out, b.String())
	}
	return out
}

// splitTemplate cuts a template into literals and placeholders, refusing
// what would make a key ambiguous.
func splitTemplate(t string) ([]string, error) {
	const example = `such as "rev#{n}#{name}" or "{name}#v{n}"`
	var parts []string
	seen := map[string]bool{}
	for rest := t; rest != ""; {
		i := strings.IndexAny(rest, "{}")
		if i < 0 {
			parts = append(parts, rest)
			break
		}
		if i > 0 {
			parts = append(parts, rest[:i])
			rest = rest[i:]
		}
		ph := ""
		for _, p := range []string{numPlaceholder, namePlaceholder} {
			if strings.HasPrefix(rest, p) {
				ph = p
			}
		}
		if ph == "" {
			return nil, fmt.Errorf("%q: braces only go around n and name; write {n} for the number and {name} for the item, %s", t, example)
		}
		if seen[ph] {
			return nil, fmt.Errorf("%q has %s twice: write each placeholder once, %s", t, ph, example)
		}
		seen[ph] = true
		parts = append(parts, ph)
		rest = rest[len(ph):]
	}
	if !seen[numPlaceholder] {
		return nil, fmt.Errorf("%q has no {n}: write where the revision number goes, %s", t, example)
	}
	for i, p := range parts {
		if p != numPlaceholder {
			continue
		}
		if i > 0 && parts[i-1] == namePlaceholder || i+1 < len(parts) && parts[i+1] == namePlaceholder {
			return nil, fmt.Errorf("%q: {n} and {name} touch; put a separator between them, %s", t, example)
		}
		if i > 0 && endsWithDigit(parts[i-1]) || i+1 < len(parts) && startsWithDigit(parts[i+1]) {
			return nil, fmt.Errorf("%q: a digit next to {n} blurs where the number ends; put a separator there, %s", t, example)
		}
	}
	return parts, nil
}

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }
func endsWithDigit(s string) bool   { return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9' }

// String is the template as written.
func (p *VersionPattern) String() string { return p.template }

// HasName reports whether the template names logical items ({name}).
func (p *VersionPattern) HasName() bool { return strings.Contains(p.template, namePlaceholder) }

// Parse reads a sort key as a revision, or reports that it is not one.
func (p *VersionPattern) Parse(sk string) (VersionKey, bool) {
	m := p.re.FindStringSubmatch(sk)
	if m == nil {
		return VersionKey{}, false
	}
	k := VersionKey{Key: sk, Digits: m[p.numGroup], Form: FormPattern, Pattern: p}
	if len(m) == 3 {
		k.Name = m[3-p.numGroup]
	}
	k.Num, k.Big = revisionNumber(k.Digits)
	if p.numbered && (k.Big || k.Num >= timeNumbered) {
		return VersionKey{}, false // a number key of ten digits is a time (DeviceLogs' 1536019200), not a version
	}
	return k, true
}

// Key spells revision digits of item name: Key("3", "Terms") is
// rev#3#Terms for rev#{n}#{name}.
func (p *VersionPattern) Key(digits, name string) string {
	return p.expand(len(p.parts), digits, name)
}

// Prefix is the literal before the first placeholder: every revision key
// begins with it ("" when the template starts with a placeholder).
func (p *VersionPattern) Prefix() string {
	if p.parts[0] == numPlaceholder || p.parts[0] == namePlaceholder {
		return ""
	}
	return p.parts[0]
}

// ItemPrefix is what every revision key of one item begins with: the
// template up to {n}, with the name in it where it comes first
// (Terms#v for {name}#v{n}).
func (p *VersionPattern) ItemPrefix(name string) string {
	for i, part := range p.parts {
		if part == numPlaceholder {
			return p.expand(i, "", name)
		}
	}
	return ""
}

func (p *VersionPattern) expand(upTo int, digits, name string) string {
	var b strings.Builder
	for _, part := range p.parts[:upTo] {
		switch part {
		case numPlaceholder:
			b.WriteString(digits)
		case namePlaceholder:
			b.WriteString(name)
		default:
			b.WriteString(part)
		}
	}
	return b.String()
}

// Label is a revision's short name: the literal before {n} (without the
// separator that follows a name) and the digits, as in rev#3, v3 or V3.
func (p *VersionPattern) Label(digits string) string {
	for i, part := range p.parts {
		if part != numPlaceholder || i == 0 || p.parts[i-1] == namePlaceholder {
			continue
		}
		lead := p.parts[i-1]
		if i >= 2 && p.parts[i-2] == namePlaceholder {
			lead = strings.TrimLeftFunc(lead, func(r rune) bool { return !isAlnum(r) })
		}
		return lead + digits
	}
	return digits
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// InferVersionPattern reads revision keys the usual forms do not spell
// (v00001.profile, v1#Audit) through the key grammar: where most of the
// keys are a revision counter (v and digits), one separator that is not
// the usual form's _ and a name beginning with a letter, it is the
// pattern v{n}<sep>{name}; nil otherwise. The letter keeps versions of
// software (v1.2.3) from reading as revision 1 of "2.3".
func InferVersionPattern(keys []string) *VersionPattern {
	bySep := map[string]int{}
	for _, k := range keys {
		if sep, ok := revisionThenName(k); ok {
			bySep[sep]++
		}
	}
	best, most := "", 0
	for sep, n := range bySep {
		if n > most || n == most && sep < best {
			best, most = sep, n
		}
	}
	if most == 0 || 2*most < len(keys) {
		return nil
	}
	p, err := ParseVersionPattern("v" + numPlaceholder + best + namePlaceholder)
	if err != nil {
		return nil
	}
	p.historyOnly = true
	for _, k := range keys {
		if v, ok := p.Parse(k); ok && v.Num == 0 {
			p.historyOnly = false
		}
	}
	return p
}

// nameFirstSeps are the separators a name-first family may end its name
// with (DOC#d1#v3, docs/d1/v3, report_v3).
const nameFirstSeps = "#|/:~_"

// InferNameFirstPattern finds a family of revisions spelt {name}<sep>v{n}
// (DOC#d1#v1, DOC#d1#v2, DOC#d2#v1, DOC#d2#v2, report_v1) or with a
// revision word and a separator of its own, {name}<sep>VERSION<sep>{n}
// (a#VERSION#0001, doc/rev/2), in a partition's keys, where the evidence
// is clear: a lower-case v and digits, or the word, its separator and
// digits, end each key after the separator, and at least two names hold
// two numbers or more each. One name's v1, v2 (a device's hardware
// revisions) is not enough, and ORDER#o1#ITEM#1 (no revision word),
// DOC#d1#V2 or api#v1.2 are no revisions. n is how many names hold two
// numbers or more; nil where none is clear.
func InferNameFirstPattern(keys []string) (p *VersionPattern, n int) {
	nums := map[string]map[string]map[string]bool{} // template → name → numbers
	var templates []string                          // in the order first seen, for ties
	for _, k := range keys {
		tpl, name, num, ok := nameFirstParts(k)
		if !ok {
			continue
		}
		if nums[tpl] == nil {
			nums[tpl] = map[string]map[string]bool{}
			templates = append(templates, tpl)
		}
		if nums[tpl][name] == nil {
			nums[tpl][name] = map[string]bool{}
		}
		nums[tpl][name][strings.TrimLeft(num, "0")] = true
	}
	best := ""
	for _, tpl := range templates {
		many := 0
		for _, ns := range nums[tpl] {
			if len(ns) >= 2 {
				many++
			}
		}
		if many > n {
			best, n = tpl, many
		}
	}
	if n < 2 {
		return nil, 0
	}
	p, err := ParseVersionPattern(best)
	if err != nil {
		return nil, 0
	}
	return p, n
}

// nameFirstParts reads key as a name, a separator, a revision's mark and
// its digits: DOC#d1#v3 is {name}#v{n} of DOC#d1 and 3, a#VERSION#0001
// {name}#VERSION#{n} of a and 0001; ok is false for any other key.
func nameFirstParts(key string) (template, name, num string, ok bool) {
	d := len(key)
	for d > 0 && isDigit(key[d-1]) {
		d--
	}
	if d == len(key) || len(key)-d > maxVersionDigits || d < 3 {
		return "", "", "", false
	}
	if key[d-1] == 'v' {
		n := nameFirstSep(key[:d-1])
		name := key[:d-1-n]
		if n == 0 || name == "" {
			return "", "", "", false
		}
		return namePlaceholder + key[d-1-n:d-1] + "v" + numPlaceholder, name, key[d:], true
	}
	// A word and its own separator before the digits: VERSION#0001.
	n := nameFirstSep(key[:d])
	if n == 0 {
		return "", "", "", false
	}
	w := d - n
	for w > 0 && isLetter(key[w-1]) {
		w--
	}
	word := key[w : d-n]
	m := nameFirstSep(key[:w])
	if len(word) < 3 || !revisionWords[strings.ToLower(word)] || m == 0 || w-m < 1 {
		return "", "", "", false
	}
	name = key[:w-m]
	return namePlaceholder + key[w-m:d] + numPlaceholder, name, key[d:], true
}

// nameFirstSep is the length of the separator s ends with: one of
// nameFirstSeps, or : and _ doubled (Rust's net::v1, Django's memo__v2),
// which DetectDelimiter takes for one delimiter; 0 where s ends with
// none. net::v1 was {name}:v{n} of "net:".
func nameFirstSep(s string) int {
	n := len(s)
	if n == 0 || strings.IndexByte(nameFirstSeps, s[n-1]) < 0 {
		return 0
	}
	if c := s[n-1]; (c == ':' || c == '_') && n >= 2 && s[n-2] == c && (n < 3 || s[n-3] != c) {
		return 2
	}
	return 1
}

// NumberVersions reads a number sort key as the revision number itself,
// as wellcomecollection's storage-service keeps every version of a thing
// (id, version N: 0, 1, 2…, the highest the newest): no name, and no
// current copy missing. A 0 kept as a copy of the newest (AWS's v0 with
// its Latest, under a number key) is the current copy; any other 0 is the
// first version (GroupVersions).
var NumberVersions = sync.OnceValue(func() *VersionPattern {
	p := mustVersionPattern(numPlaceholder)
	p.historyOnly, p.numbered = true, true
	return p
})

// NumberVersionsRange is the key condition that reads a number key's
// versions and no time: 0 to the largest number that is no time.
func NumberVersionsRange() SKCondition {
	return SKCondition{Op: SKBetween, A: N("0"), B: N(strconv.Itoa(timeNumbered - 1))}
}

// NumberedRun reports whether a number key's numbers (as text) can be
// versions: each one is (NumberVersions), and they run nearly without
// gaps, no more missing than held between the least and the greatest (0,
// 1, 2…; a leaderboard's scores 17, 512, 980 are no versions).
func NumberedRun(nums []string) bool {
	least, most, held := 0, 0, 0
	seen := map[int]bool{}
	for _, t := range nums {
		k, ok := NumberVersions().Parse(t)
		if !ok {
			return false
		}
		if seen[k.Num] {
			continue
		}
		if held == 0 || k.Num < least {
			least = k.Num
		}
		most = max(most, k.Num)
		seen[k.Num] = true
		held++
	}
	return most-least+1 <= 2*held
}

// Numbered reports the pattern of a number sort key (NumberVersions).
func (p *VersionPattern) Numbered() bool { return p != nil && p.numbered }

// HistoryOnly reports a pattern inferred from keys that hold no revision
// 0: their current copies live elsewhere, so none is missing.
func (p *VersionPattern) HistoryOnly() bool { return p.historyOnly }

// revisionThenName reads a key as the grammar's parts: a revision counter
// written with a lower-case v, then one separator and a name that begins
// with a letter; sep is the separator.
func revisionThenName(key string) (sep string, ok bool) {
	parts := ParseKey(key, "")
	if len(parts) != 2 || parts[0].Kind != PartRevision || parts[0].Text[0] != 'v' || parts[1].Kind != PartText {
		return "", false
	}
	rest := parts[1].Text
	if len(rest) < 2 || isAlnumByte(rest[0]) || rest[0] == '_' || rest[0] >= 0x80 || !isLetter(rest[1]) {
		return "", false
	}
	return rest[:1], true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
