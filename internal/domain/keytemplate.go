package domain

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// PartKind is what one part of a key is, as the key grammar reads it.
type PartKind int

const (
	PartText     PartKind = iota // a word: a constant, an enumeration, or a name that varies
	PartDelim                    // the table's delimiter
	PartTime                     // a time, in any form detection knows
	PartNumber                   // digits
	PartID                       // an id: a UUID, or letters and digits mixed
	PartRevision                 // a revision counter: v00001, V3
)

// KeyPart is one part of a key: its kind and its text.
type KeyPart struct {
	Kind PartKind
	Text string
	Time TimeEncoding // the form of a PartTime
}

// ParseKey reads a key as parts: segments split at the delimiter, and
// inside a segment where a time, a revision counter, a number or an id
// ends. The parts' texts, joined, are the key.
func ParseKey(key, delim string) []KeyPart {
	var out []KeyPart
	for i, seg := range splitKeep(key, delim) {
		if i > 0 {
			out = append(out, KeyPart{Kind: PartDelim, Text: delim})
		}
		out = append(out, segmentParts(seg)...)
	}
	return out
}

// splitKeep splits key at delim, but never inside a time the grammar
// reads there (event:2024-01-15T10:00:00Z at ':' is event and the time);
// one segment when delim is "".
func splitKeep(key, delim string) []string {
	if delim == "" {
		return []string{key}
	}
	var out []string
	spans, from := TimeSpans(key), 0
	for i := 0; i+len(delim) <= len(key); {
		if !strings.HasPrefix(key[i:], delim) || insideSpan(spans, i) {
			i++
			continue
		}
		out = append(out, key[from:i])
		i += len(delim)
		from = i
	}
	return append(out, key[from:])
}

// insideSpan reports an offset strictly inside one of the spans.
func insideSpan(spans [][2]int, i int) bool {
	for _, sp := range spans {
		if i > sp[0] && i < sp[1] {
			return true
		}
	}
	return false
}

// segmentParts reads one segment: a time and what follows it, a revision
// counter and what follows it, digits, an id, or a word.
func segmentParts(seg string) []KeyPart {
	if seg == "" {
		return nil
	}
	if p, ok := timeAt(seg); ok && (p.n == len(seg) || p.enc.restAt(seg, p.n)) {
		return append([]KeyPart{{Kind: PartTime, Text: seg[:p.n], Time: p.enc}}, segmentParts(seg[p.n:])...)
	}
	if n := revisionAt(seg); n > 0 {
		return append([]KeyPart{{Kind: PartRevision, Text: seg[:n]}}, wordParts(seg[n:])...)
	}
	if n := labelAt(seg); n > 0 && n < len(seg) {
		return append([]KeyPart{{Kind: PartText, Text: seg[:n]}}, segmentParts(seg[n:])...)
	}
	// A time or a revision counter after a separator inside the segment
	// (order-2024-…, click.…, Audit.v3).
	for i := 1; i < len(seg); i++ {
		if !isPlaceSep(seg[i-1]) {
			continue
		}
		if p, ok := timeAt(seg[i:]); ok && isDigit(seg[i]) && (i+p.n == len(seg) || p.enc.restAt(seg, i+p.n)) || revisionAt(seg[i:]) > 0 {
			return append(wordParts(seg[:i]), segmentParts(seg[i:])...)
		}
	}
	switch {
	case digitsOnly(seg):
		return []KeyPart{{Kind: PartNumber, Text: seg}}
	case idLike(seg):
		return []KeyPart{{Kind: PartID, Text: seg}}
	}
	return wordParts(seg)
}

func wordParts(s string) []KeyPart {
	if s == "" {
		return nil
	}
	return []KeyPart{{Kind: PartText, Text: s}}
}

// labelAt is the length of a field name and underscore a segment begins
// with, as ElectroDB writes a key's fields (employee_ of employee_e001,
// $employees_ of $employees_1): 0 when it begins with none.
func labelAt(s string) int {
	i := 0
	if i < len(s) && s[i] == '$' {
		i++
	}
	start := i
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i == start || i >= len(s) || s[i] != '_' {
		return 0
	}
	return i + 1
}

// revisionAt is the length of a revision counter s begins with (v00001 of
// v00001.profile, V3): v or V, then digits, then no letter or digit.
func revisionAt(s string) int {
	if len(s) < 2 || s[0] != 'v' && s[0] != 'V' || !isDigit(s[1]) {
		return 0
	}
	n := 1
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n < len(s) && isAlnumByte(s[n]) {
		return 0
	}
	return n
}

var uuidRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
})

// idLike reports a segment that is an id rather than a word: a UUID, or
// eight or more letters and digits with both in them.
func idLike(s string) bool {
	if uuidRE().MatchString(s) {
		return true
	}
	letters, digits := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isDigit(c):
			digits++
		case isAlnumByte(c):
			letters++
		case c != '-' && c != '_':
			return false
		}
	}
	return len(s) >= 8 && letters > 0 && digits > 0
}

// partTemplate is a part as a template writes it.
func partTemplate(p KeyPart) string {
	switch p.Kind {
	case PartTime:
		f := p.Time.TimeFormat()
		if !strings.HasPrefix(f, "{") {
			f = "{time:" + f + "}"
		}
		return f
	case PartNumber:
		return "{n}"
	case PartID:
		return "{id}"
	case PartRevision:
		return p.Text[:1] + "{n}"
	}
	return p.Text
}

// KeyTemplate is a key's template: each part that varies written as its
// placeholder ({time:…}, {n}, {id}), constants as they are.
func KeyTemplate(parts []KeyPart) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(partTemplate(p))
	}
	return b.String()
}

var placeholderRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{(time(:[^}]*)?|n|id|any|ulid|uuidv7|ksuid)\}`) })

// TemplateMatches reports a key the template can stand for: its fixed
// text where it is, and something in each placeholder ({n} digits).
func TemplateMatches(template, key string) bool {
	re, err := templateRegexp(template)
	return err == nil && re.MatchString(key)
}

// templateRegexp reads the keys a template stands for, each {n}'s digits
// a group.
func templateRegexp(template string) (*regexp.Regexp, error) {
	var expr strings.Builder
	expr.WriteString(`(?s)^`)
	last := 0
	for _, m := range placeholderRE().FindAllStringSubmatchIndex(template, -1) {
		expr.WriteString(regexp.QuoteMeta(template[last:m[0]]))
		if template[m[2]:m[3]] == "n" {
			expr.WriteString(`([0-9]+)`)
		} else {
			expr.WriteString(`.+?`)
		}
		last = m[1]
	}
	expr.WriteString(regexp.QuoteMeta(template[last:]) + `$`)
	return regexp.Compile(expr.String())
}

// Templates are the templates of a set of keys, read together: a word
// that takes many values at its place among keys of one shape (USER#alice,
// USER#bob) is a name that varies, {id}, keeping any fixed beginning
// (employee_{id}); a word in capitals (USER, METADATA) or one of few
// values is a constant. One template a key, in the keys' order.
func Templates(keys []string, delim string) []string {
	parsed := make([][]KeyPart, len(keys))
	shapes := map[string][]int{}
	for i, k := range keys {
		parsed[i] = ParseKey(k, delim)
		shapes[shapeOf(parsed[i])] = append(shapes[shapeOf(parsed[i])], i)
	}
	for _, members := range shapes {
		generalize(parsed, members, 0)
	}
	out := make([]string, len(keys))
	for i, p := range parsed {
		out[i] = KeyTemplate(p)
	}
	return out
}

// shapeOf is what keys of one shape share: their parts' kinds, and the
// delimiters' places.
func shapeOf(parts []KeyPart) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteByte(byte('a' + p.Kind))
	}
	return b.String()
}

// generalize turns the words that vary among keys of one shape into ids,
// from the part at from on. A word that stays a constant splits the keys
// by its value (USER#… and $app#… are read apart).
func generalize(parsed [][]KeyPart, members []int, from int) {
	if len(members) < 2 {
		return
	}
	for pos := from; pos < len(parsed[members[0]]); pos++ {
		if parsed[members[0]][pos].Kind != PartText {
			continue
		}
		values := map[string][]int{}
		for _, i := range members {
			t := parsed[i][pos].Text
			values[t] = append(values[t], i)
		}
		if len(values) < 2 {
			continue
		}
		if 2*len(values) <= len(members) || len(values) <= 3 && allLabels(values) {
			for _, group := range values {
				generalize(parsed, group, pos+1)
			}
			return
		}
		fixed := fixedStart(values)
		for _, i := range members {
			t := parsed[i][pos].Text
			id := []KeyPart{{Kind: PartID, Text: t}}
			if fixed != "" {
				id = []KeyPart{{Kind: PartText, Text: fixed}, {Kind: PartID, Text: t[len(fixed):]}}
			}
			parsed[i] = append(parsed[i][:pos:pos], append(id, parsed[i][pos+1:]...)...)
		}
	}
}

// fixedStart is the text every value begins with, to its last character
// that is neither letter nor digit (employee_ of employee_jdoe).
func fixedStart(values map[string][]int) string {
	var texts []string
	for v := range values {
		texts = append(texts, v)
	}
	sort.Strings(texts)
	fixed := commonPrefix(texts[0], texts[len(texts)-1])
	// Words that differ inside a character (é and ä share its first
	// byte) part before it: a template never holds half a character.
	for !utf8.ValidString(fixed) {
		fixed = fixed[:len(fixed)-1]
	}
	i := len(fixed) - 1
	for i >= 0 && isAlnumByte(fixed[i]) {
		i--
	}
	return fixed[:i+1]
}

// allLabels reports words written as labels: capitals, digits, _ and -.
func allLabels(values map[string][]int) bool {
	for v := range values {
		if strings.ToUpper(v) != v {
			return false
		}
	}
	return true
}

// TemplateCount is a template and how many keys have it.
type TemplateCount struct {
	Template string
	Count    int
	Example  string
}

// CountTemplates groups keys by template, the most common first.
func CountTemplates(keys []string, delim string) []TemplateCount {
	var out []TemplateCount
	at := map[string]int{}
	for i, t := range Templates(keys, delim) {
		j, ok := at[t]
		if !ok {
			j = len(out)
			at[t] = j
			out = append(out, TemplateCount{Template: t, Example: keys[i]})
		}
		out[j].Count++
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Count > out[b].Count })
	return out
}

// InferTemplates are the templates of the keys, most common first, each
// with its count when there are several: "USER#{id} (12)".
func InferTemplates(keys []string, delim string) []string {
	if delim == "" {
		delim = GuessDelimiter(keys)
	}
	counts := CountTemplates(keys, delim)
	out := make([]string, 0, min(len(counts), 5))
	for _, c := range counts[:min(len(counts), 5)] {
		out = append(out, c.Template+" ("+strconv.Itoa(c.Count)+")")
	}
	return out
}

// TimeForms are the time forms keys hold, each once (the layout inside
// a template's {time:…}: PLACED#{time:…}#{id} and DELIVERED#{time:…}#{id}
// hold one form under two prefixes), and how many of the keys hold one.
// Where detection takes no form, it tells "times in several forms" from
// "one form, in too few of the keys" (a profile and a contract's
// revisions beside a small customer's orders). A time-ordered id
// (MSG#{ulid}, {uuidv7}, {ksuid}) is a time in the form of its name, as
// --time-format takes it: a chat room's messages beside its members were
// "no time this tool recognises" while the same line read them as
// MSG#{ulid}.
func TimeForms(keys []string) (forms []string, timed int) {
	for _, c := range CountTemplates(keys, GuessDelimiter(keys)) {
		form := ""
		if _, rest, ok := strings.Cut(c.Template, "{time:"); ok {
			form, _, _ = strings.Cut(rest, "}")
		} else {
			for _, id := range []string{"ulid", "uuidv7", "ksuid"} {
				if strings.Contains(c.Template, "{"+id+"}") {
					form = id
					break
				}
			}
		}
		if form == "" {
			continue
		}
		timed += c.Count
		if !slices.Contains(forms, form) {
			forms = append(forms, form)
		}
	}
	return forms, timed
}

// TimePrefix is the fixed text every key holding a time begins with
// where TimeForms finds one form (AUDIT# of AUDIT#{time:…}#{id} beside
// USER#{id} and PROJECT#…); "" when those keys begin otherwise or with
// no fixed text. A range under it reads only those keys: on a tenant's
// partition, the audit log of a month was 2.0 RCU under --sk-prefix
// AUDIT# where reading by the form merged three prefixes for 12.
func TimePrefix(keys []string) string {
	prefix, seen := "", false
	for _, c := range CountTemplates(keys, GuessDelimiter(keys)) {
		if !strings.Contains(c.Template, "{time:") && !strings.Contains(c.Template, "{ulid}") &&
			!strings.Contains(c.Template, "{uuidv7}") && !strings.Contains(c.Template, "{ksuid}") {
			continue
		}
		lead, _, _ := strings.Cut(c.Template, "{")
		if seen && lead != prefix {
			return ""
		}
		prefix, seen = lead, true
	}
	return prefix
}

// GuessDelimiter is the separator most of the keys hold: #, |, /, : or
// ~; "" when none does.
func GuessDelimiter(keys []string) string {
	best, most := "", 0
	for _, d := range []string{"#", "|", "/", ":", "~"} {
		n := 0
		for _, k := range keys {
			if strings.Contains(k, d) && len(splitKeep(k, d)) > 1 {
				n++ // outside the key's times: 2024/01/15 is a date, not a path
			}
		}
		if n > most && 2*n >= len(keys) {
			best, most = d, n
		}
	}
	return best
}

// revisionWords are the words a revision number follows (rev#3#Terms).
var revisionWords = map[string]bool{"rev": true, "revision": true, "ver": true, "version": true, "v": true}

// SuggestVersionPattern is the --version-pattern the templates suggest:
// where a revision counter stands (v{n}), the text before it, and {name}
// for what follows; "" when no template holds one.
func SuggestVersionPattern(keys []string, delim string) string {
	for _, k := range keys {
		parts := ParseKey(k, delim)
		for i, p := range parts {
			if p.Kind == PartNumber && i >= 2 && parts[i-1].Kind == PartDelim && parts[i-2].Kind == PartText &&
				revisionWords[strings.ToLower(parts[i-2].Text)] && i+2 < len(parts) && parts[i+1].Kind == PartDelim {
				return KeyTemplate(parts[:i]) + "{n}" + delim + "{name}" // rev#3#Terms
			}
			if p.Kind != PartRevision {
				continue
			}
			var b strings.Builder
			lead := ""
			if i == 1 && len(parts[0].Text) > 1 {
				lead = parts[0].Text
			}
			named := true
			switch {
			case i >= 2 && parts[i-1].Kind == PartDelim && i+1 == len(parts):
				b.WriteString("{name}" + delim) // Audit#v3: the name first
			case lead != "" && i+1 == len(parts) && !isAlnumByte(lead[len(lead)-1]) && lead[len(lead)-1] < 0x80 && lead[len(lead)-1] != '{' && lead[len(lead)-1] != '}':
				b.WriteString("{name}" + lead[len(lead)-1:]) // Audit_v3, Audit.v3
			default:
				named = false
				for _, q := range parts[:i] {
					b.WriteString(q.Text)
				}
			}
			b.WriteString(p.Text[:1] + "{n}")
			if i+1 < len(parts) && !named {
				rest := parts[i+1].Text
				if parts[i+1].Kind == PartDelim || len(rest) > 1 && !isAlnumByte(rest[0]) {
					b.WriteString(rest[:1] + "{name}")
				}
			}
			return b.String()
		}
	}
	return counterPattern(keys, delim)
}

// counts reports whether the keys p reads hold two numbers or more, close
// enough together to be a count: a counter that never counts is a
// constant of the key's shape, not revisions (ElectroDB's $employee_1#…:
// the model's version, 1 on every key of the entity), and numbers far
// apart are ids or values (a highscore's SCORE#000512 beside
// SCORE#083846, a subscription's SUB#123#SKU#999 beside SUB#456#…).
func counts(p *VersionPattern, keys []string) bool {
	seen := map[uint64]bool{}
	var lo, hi uint64
	for _, k := range keys {
		vk, ok := p.Parse(k)
		if !ok || vk.Digits == "" { // a word in the counter's place (LATEST)
			continue
		}
		n, err := strconv.ParseUint(vk.Digits, 10, 64)
		if err != nil {
			return false // more digits than a count of revisions reaches
		}
		if len(seen) == 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
		seen[n] = true
	}
	return len(seen) >= 2 && hi-lo < countSpread*uint64(len(seen))
}

// countSpread is how far apart, on average, the numbers of revisions may
// lie: revisions pruned to every other or fourth still count.
const countSpread = 4

// counterPattern is the pattern of the most common template that counts
// under a fixed start (VERSION#{n}, EVENT#{n}, seq#{n}#{id}): the start,
// {n}, and {name} for what follows a separator; "" when no template of
// two or more keys with two numbers or more does. Where a template holds
// several numbers, each is tried as the counter with the ones before it
// kept as the keys spell them: ElectroDB's $page_1#rev_{n}, whose 1 is
// the model's version on every key.
func counterPattern(keys []string, delim string) string {
	counted := CountTemplates(keys, delim)
	shapes := map[string]int{}
	for _, c := range counted {
		shapes[templateShape(c.Template, delim)]++
	}
	for _, c := range counted {
		if c.Count < 2 || shapes[templateShape(c.Template, delim)] >= levelTemplates {
			continue
		}
		numbers := templateNumbers(c.Template, c.Example)
		fixed := ""
		rest := c.Template
		for j := 0; ; j++ {
			before, after, ok := strings.Cut(rest, "{n}")
			if !ok {
				break
			}
			if p := counterAt(fixed+before, after); p != "" {
				if vp, err := ParseVersionPattern(p); err == nil {
					if _, ok := vp.Parse(c.Example); ok && counts(vp, keys) {
						return p
					}
				}
			}
			if j >= len(numbers) {
				break
			}
			fixed += before + numbers[j]
			rest = after
		}
	}
	return ""
}

// levelTemplates is how many templates of one shape, their words apart,
// make the words a level's names rather than a counter's fixed start:
// FRANCE's ILE-DE-FRANCE#GREENTON#{n}, BRETAGNE#SUNWOOD#{n}… are regions,
// cities and zip codes, and no revisions (their pattern was suggested).
const levelTemplates = 3

// templateShape is a template with each word between delimiters that
// holds no placeholder written {w}: the shape templates that differ only
// in their words share.
func templateShape(template, delim string) string {
	if delim == "" {
		return template
	}
	parts := strings.Split(template, delim)
	for i, p := range parts {
		if !strings.ContainsAny(p, "{}") {
			parts[i] = "{w}"
		}
	}
	return strings.Join(parts, delim)
}

// counterAt is the pattern of a counter between before and after in a
// template: before must be fixed text, after empty or a separator and
// anything ({name}); "" otherwise.
func counterAt(before, after string) string {
	if before == "" || strings.ContainsAny(before, "{}") {
		return ""
	}
	p := before + "{n}"
	if after != "" {
		if len(after) < 2 || isAlnumByte(after[0]) || after[0] == '{' || after[0] >= 0x80 {
			return ""
		}
		p += after[:1] + "{name}"
	}
	return p
}

// templateNumbers are the digits a key holds at each {n} of its template,
// in order; nil where the template does not read the key.
func templateNumbers(template, key string) []string {
	re, err := templateRegexp(template)
	if err != nil {
		return nil
	}
	if m := re.FindStringSubmatch(key); m != nil {
		return m[1:]
	}
	return nil
}
