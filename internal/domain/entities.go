package domain

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Discriminators are the attributes single-table libraries write an
// item's entity type into: ElectroDB, dynamodb-toolbox, dynamodb-onetable,
// Amplify, and the names people give it themselves.
var Discriminators = []string{"__edb_e__", "_et", "_type", "__typename", "entityType", "EntityType", "type", "Type"}

// EntityItem is what entity inference needs of an item: its key values as
// text, each attribute's DynamoDB type (S, N, M, …), and the text of its
// string attributes that could be a discriminator.
type EntityItem struct {
	PK, SK string
	Types  map[string]string
	Values map[string]string
	// Partial says the item's partition was not read to its end (a
	// sample stopped inside it): more of its items may exist unread.
	Partial bool
	// PKNumber and SKNumber say the key is a number (N): its template
	// is {n} whatever its sign or fraction (-3 and 2.5 are no ids).
	PKNumber, SKNumber bool
}

// Entity is one entity type of a table: its name, how many items are of
// it, the key templates they share, the discriminator that named it ("",
// when the keys did), and its attributes with how often each is present.
type Entity struct {
	Name          string            `json:"name"`
	Count         int               `json:"count"`
	KeyTemplates  map[string]string `json:"keyTemplates"`
	Discriminator string            `json:"discriminator"`
	Attributes    []EntityAttribute `json:"attributes"`
	// CountExact says Count is the number of items of the type, not an
	// estimate from a sample (EstimateCounts).
	CountExact bool `json:"countExact"`
	// Example is the index, among the items given, of one item of the type.
	Example int `json:"-"`
	// Partial is how many of the items counted came from partitions not
	// read to their end.
	Partial int `json:"-"`
}

// EntityAttribute is an attribute of an entity type: its types and the
// share of the type's items that hold it (0–1).
type EntityAttribute struct {
	Name     string   `json:"name"`
	Types    []string `json:"types"`
	Presence float64  `json:"presence"`
}

// InferEntities names the entity types of the items: by the discriminator
// attribute most of them carry, else by their keys' templates
// (USER#{id} / #METADATA#{id} is one type, GAME#{id} / USER#{id} another).
// Types come most numerous first.
func InferEntities(items []EntityItem, delim string) []Entity {
	disc := discriminatorOf(items)
	pks, sks := make([]string, len(items)), make([]string, len(items))
	for i, it := range items {
		pks[i], sks[i] = it.PK, it.SK
	}
	pkDelim, skDelim := delim, delim
	if delim == "" {
		pkDelim = GuessDelimiter(append(append([]string(nil), pks...), sks...))
		skDelim = pkDelim
		if pkDelim == "" {
			// Partition keys without one (player names) are half the keys:
			// the sort keys' own (SCORE#000512, DATE#…) still parts them,
			// where their first words are labels, found again in other
			// partitions. A hierarchy's first words are its partition's
			// own (USA's AK#…, PLACE's ARGENTINA#…): read as labels, every
			// state would be a type.
			pkDelim = GuessDelimiter(pks)
			if d := GuessDelimiter(sks); labelsLead(pks, sks, d) {
				skDelim = d
			}
		}
	}
	pkT, skT := Templates(pks, pkDelim), Templates(sks, skDelim)
	for i, it := range items {
		if it.PKNumber {
			pkT[i] = "{n}"
		}
		if it.SKNumber {
			skT[i] = "{n}"
		}
	}
	byName := map[string]*entityAcc{}
	var order []string
	for i, it := range items {
		name, by := "", ""
		if v := it.Values[disc]; disc != "" && v != "" {
			name, by = v, disc
		} else if lib, v := libraryDiscriminator(it); lib != "" {
			name, by = v, lib
		} else {
			name = templateName(pkT[i], skT[i])
		}
		acc, ok := byName[name]
		if !ok {
			acc = &entityAcc{e: Entity{Name: name, Discriminator: by, Example: i}, attrs: map[string]map[string]bool{}, present: map[string]int{}, pk: map[string]int{}, sk: map[string]int{}}
			byName[name] = acc
			order = append(order, name)
		}
		acc.add(it, pkT[i], skT[i])
	}
	out := make([]Entity, 0, len(order))
	for _, n := range order {
		out = append(out, byName[n].entity())
	}
	out = mergeEnumerations(out)
	seen := map[string]bool{}
	for i := range out {
		if seen[out[i].Name] { // named alike by their labels: told apart by the sort key
			out[i].Name += " (" + out[i].KeyTemplates["sk"] + ")"
		}
		seen[out[i].Name] = true
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Count > out[b].Count })
	return out
}

// labelsLead reports whether the sort keys that hold delimiter d begin
// with two words or more before it, each found under two partitions or
// more.
func labelsLead(pks, sks []string, d string) bool {
	if d == "" {
		return false
	}
	under := map[string]map[string]bool{}
	for i, k := range sks {
		lead, _, ok := strings.Cut(k, d)
		if !ok {
			continue
		}
		if under[lead] == nil {
			under[lead] = map[string]bool{}
		}
		under[lead][pks[i]] = true
	}
	labels := 0
	for _, parts := range under {
		if len(parts) < 2 {
			return false
		}
		labels++
	}
	return labels >= 2
}

// libraryDiscriminators are the discriminators a library writes
// (ElectroDB, dynamodb-toolbox, dynamodb-onetable, Amplify): named so
// that no data attribute is, they name an item's type even where most
// items of the table carry another or none.
var libraryDiscriminators = Discriminators[:4]

// libraryDiscriminator is the library discriminator the item carries, and
// its value; "" when none.
func libraryDiscriminator(it EntityItem) (string, string) {
	for _, name := range libraryDiscriminators {
		if v := it.Values[name]; v != "" {
			return name, v
		}
	}
	return "", ""
}

// discriminatorOf is the discriminator attribute half or more of the
// items carry as a string, "" when none does.
func discriminatorOf(items []EntityItem) string {
	for _, name := range Discriminators {
		n := 0
		for _, it := range items {
			if it.Values[name] != "" {
				n++
			}
		}
		if n > 0 && 2*n >= len(items) {
			return name
		}
	}
	return ""
}

// templateName names a type by its keys: the labels its templates hold
// (USER·METADATA), else the templates themselves (o#{n} / p#{n}), or
// Unlabelled when they hold no fixed text at all.
func templateName(pk, sk string) string {
	var labels []string
	seen := map[string]bool{}
	for _, t := range []string{pk, sk} {
		for _, w := range strings.FieldsFunc(placeholderRE().ReplaceAllString(t, " "), func(r rune) bool {
			return !(unicode.IsLetter(r) || unicode.IsMark(r) || r == '_')
		}) {
			if utf8.RuneCountInString(w) > 1 && !seen[w] {
				seen[w] = true
				labels = append(labels, w)
			}
		}
	}
	var caps []string // labels written as labels (USER, PHOTO), not names (ada)
	for _, w := range labels {
		if strings.ToUpper(w) == w {
			caps = append(caps, w)
		}
	}
	if len(caps) > 0 {
		labels = caps
	}
	if len(labels) == 0 {
		if !hasLiteral(pk) && !hasLiteral(sk) {
			// Keys of values only ({id} / {id}): the templates would
			// read as a name that is not one; the type says it has
			// none, and its templates give its shape.
			return Unlabelled
		}
		if sk == "" {
			return pk
		}
		return pk + " / " + sk
	}
	return strings.Join(labels, "·")
}

// hasLiteral reports whether template t holds any fixed text (o#{n}'s
// o), not only placeholders and delimiters.
func hasLiteral(t string) bool {
	return strings.ContainsFunc(placeholderRE().ReplaceAllString(t, ""), func(r rune) bool { return !isTemplateSep(string(r)) && r != ' ' })
}

// Unlabelled names a type whose keys hold no label, only values that
// vary (Locations' USA / AK#CEDARVILLE#11700): its key templates give
// its shape.
const Unlabelled = "(no label in its keys)"

type entityAcc struct {
	e       Entity
	attrs   map[string]map[string]bool
	present map[string]int
	pk, sk  map[string]int
}

func (a *entityAcc) add(it EntityItem, pk, sk string) {
	a.e.Count++
	if it.Partial {
		a.e.Partial++
	}
	a.pk[pk]++
	a.sk[sk]++
	for name, typ := range it.Types {
		if a.attrs[name] == nil {
			a.attrs[name] = map[string]bool{}
		}
		a.attrs[name][typ] = true
		a.present[name]++
	}
}

func (a *entityAcc) entity() Entity {
	e := a.e
	e.KeyTemplates = map[string]string{"pk": foldTemplates(a.pk), "sk": foldTemplates(a.sk)}
	for name, types := range a.attrs {
		var ts []string
		for t := range types {
			ts = append(ts, t)
		}
		sort.Strings(ts)
		e.Attributes = append(e.Attributes, EntityAttribute{Name: name, Types: ts, Presence: math.Round(100*float64(a.present[name])/float64(e.Count)) / 100})
	}
	sort.Slice(e.Attributes, func(i, j int) bool {
		x, y := e.Attributes[i], e.Attributes[j]
		if x.Presence != y.Presence {
			return x.Presence > y.Presence
		}
		return x.Name < y.Name
	})
	return e
}

// foldTemplates is one template for the keys of a type: the most common,
// with the segments the others differ in written as enumerations (or
// {id}, past a few values); keys of another shape (R#{ulid} beside a bare
// time) are another form beside it, "R#{ulid} | {time}", never left out
// of the template that stands for them.
func foldTemplates(counts map[string]int) string {
	t := mostCommon(counts)
	var others []string
	for o := range counts {
		if o != t {
			others = append(others, o)
		}
	}
	sort.Strings(others)
	for _, o := range others {
		t = joinTemplates(t, o)
	}
	return t
}

// templateOr separates the forms of a template whose keys have more than
// one shape.
const templateOr = " | "

// TemplateForms are the forms of a key template: one, or each of those
// joined by " | " where a type's keys have several shapes.
func TemplateForms(t string) []string { return strings.Split(t, templateOr) }

// joinTemplates folds template o (one form or several) into t: each form
// into the first of t's it has the shape of, else as another form.
func joinTemplates(t, o string) string {
	forms := TemplateForms(t)
	for _, of := range TemplateForms(o) {
		joined := false
		for i, f := range forms {
			if j, ok := joinEnum(f, of); ok {
				forms[i], joined = j, true
				break
			}
		}
		if !joined && !slices.Contains(forms, of) {
			forms = append(forms, of)
		}
	}
	return strings.Join(forms, templateOr)
}

// mostCommon is the template most of a type's keys have (the first seen
// of equals).
func mostCommon(counts map[string]int) string {
	best, n := "", -1
	for t, c := range counts {
		if c > n || c == n && t < best {
			best, n = t, c
		}
	}
	return best
}

// mergeEnumerations joins types named by keys that differ only in one
// segment of few values, with the same attributes: JFK#{time}… and
// LAX#{time}… flights are one type, their airports an enumeration
// ({JFK|LAX|SEA}#{time}…).
func mergeEnumerations(es []Entity) []Entity {
	var out []Entity
	at := map[string]int{}
	for _, e := range es {
		if e.Discriminator != "" {
			out = append(out, e)
			continue
		}
		k := enumShape(e.KeyTemplates["pk"]) + "\x00" + enumShape(e.KeyTemplates["sk"]) + "\x00" + attributeNames(e)
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			out = append(out, e)
			continue
		}
		m := &out[i]
		m.KeyTemplates = map[string]string{"pk": joinTemplates(m.KeyTemplates["pk"], e.KeyTemplates["pk"]), "sk": joinTemplates(m.KeyTemplates["sk"], e.KeyTemplates["sk"])}
		m.Name = templateName(enumRE().ReplaceAllString(m.KeyTemplates["pk"], "{id}"), enumRE().ReplaceAllString(m.KeyTemplates["sk"], "{id}"))
		m.Attributes = mergeAttributes(m.Attributes, m.Count, e.Attributes, e.Count)
		m.Count += e.Count
		m.Partial += e.Partial
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Count > out[b].Count })
	return out
}

var (
	enumRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{[^{}|]+(\|[^{}|]+)+\}`) })
)

// enumShape is a template with its words, enumerations and ids made
// wildcards: what types that differ only in them share.
func enumShape(t string) string {
	segs := templateSegments(t)
	for i, seg := range segs {
		if seg == "{id}" || enumRE().MatchString(seg) || wordRE().MatchString(seg) {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, "")
}

// fixedPartitionRE is a partition key that names a partition, not one of
// many: letters alone, no separator, no digit, no placeholder.
var fixedPartitionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_]+$`) })

// wordRE is a segment that is a word: a name, a label, a value of an
// enumeration; spaces inside it too (author_le guin, city_new york, as
// ElectroDB writes a name lower-cased), and letters of any script.
var wordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\p{L}[\p{L}\p{N}_.' -]*$`) })

// maxEnumeration is the most values an enumeration of a key's segment
// lists; more are an {id}.
const maxEnumeration = 5

// joinEnum writes two templates of one shape as one, every segment they
// differ in as an enumeration (or {id}); ok is false where they are not
// of one shape (their separators, or a part's form, differ: v{n}_ beside
// {time}), so that neither stands for the other's keys.
func joinEnum(a, b string) (string, bool) {
	sa, sb := templateSegments(a), templateSegments(b)
	if len(sa) != len(sb) {
		return "", false
	}
	for i := range sa {
		if sa[i] == sb[i] {
			continue
		}
		seg, ok := joinSegment(sa[i], sb[i])
		if !ok {
			return "", false
		}
		sa[i] = seg
	}
	return strings.Join(sa, ""), true
}

// joinSegment writes two different segments as one: the values of plain
// ones enumerated; where a part of a form stands in one (v{n}_Header,
// v{n}_Lines), what they share around the text they differ in kept, that
// text enumerated (v{n}_{Header|Lines}).
func joinSegment(x, y string) (string, bool) {
	if isTemplateSep(x) || isTemplateSep(y) {
		return "", false
	}
	if placeholderRE().MatchString(x) && x != "{id}" || placeholderRE().MatchString(y) && y != "{id}" {
		p := bracedPrefix(x, y)
		sfx := bracedSuffix(x[len(p):], y[len(p):])
		mx, my := x[len(p):len(x)-len(sfx)], y[len(p):len(y)-len(sfx)]
		if p == "" && sfx == "" || placeholderRE().MatchString(mx) || placeholderRE().MatchString(my) {
			return "", false
		}
		mid, ok := enumerate(mx, my)
		return p + mid + sfx, ok
	}
	return enumerate(x, y)
}

// enumerate is the values of x and y (each a value or an enumeration) as
// one enumeration, {id} past maxEnumeration values or beside an {id}.
func enumerate(x, y string) (string, bool) {
	if x == "" || y == "" || strings.Count(x, "{") != strings.Count(x, "}") || strings.Count(y, "{") != strings.Count(y, "}") {
		return "", false
	}
	if x == "{id}" || y == "{id}" {
		return "{id}", true
	}
	vals := enumValues(x)
	for _, v := range enumValues(y) {
		if !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	if len(vals) > maxEnumeration {
		return "{id}", true // too many values to be an enumeration: a name that varies
	}
	sort.Strings(vals)
	return "{" + strings.Join(vals, "|") + "}", true
}

func enumValues(x string) []string {
	if strings.HasPrefix(x, "{") && strings.HasSuffix(x, "}") {
		return strings.Split(strings.Trim(x, "{}"), "|")
	}
	return []string{x}
}

func isTemplateSep(s string) bool { return len(s) == 1 && strings.IndexByte("#|/:~", s[0]) >= 0 }

// bracedPrefix is the text x and y begin with, never ending inside braces.
func bracedPrefix(x, y string) string {
	n := 0
	for n < len(x) && n < len(y) && x[n] == y[n] {
		n++
	}
	for n > 0 && n < len(x) && !utf8.RuneStart(x[n]) {
		n-- // é beside è: never half a character
	}
	p := x[:n]
	if i := strings.LastIndexByte(p, '{'); i >= 0 && strings.LastIndexByte(p, '}') < i {
		p = p[:i]
	}
	return p
}

// bracedSuffix is the text x and y end with, never starting inside braces.
func bracedSuffix(x, y string) string {
	n := 0
	for n < len(x) && n < len(y) && x[len(x)-1-n] == y[len(y)-1-n] {
		n++
	}
	for n > 0 && !utf8.RuneStart(x[len(x)-n]) {
		n--
	}
	sfx := x[len(x)-n:]
	if i := strings.IndexByte(sfx, '}'); i >= 0 && (strings.IndexByte(sfx, '{') < 0 || strings.IndexByte(sfx, '{') > i) {
		sfx = sfx[i+1:]
	}
	return sfx
}

// templateSegments splits a template at its separators, keeping them in
// the segment before (so the parts join back), never inside braces.
func templateSegments(t string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '{':
			depth++
		case c == '}':
			depth--
		case depth == 0 && strings.IndexByte("#|/:~", c) >= 0:
			out = append(out, t[start:i], t[i:i+1])
			start = i + 1
		}
	}
	return append(out, t[start:])
}

func attributeNames(e Entity) string {
	names := make([]string, len(e.Attributes))
	for i, a := range e.Attributes {
		names[i] = a.Name
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

// mergeAttributes joins two types' attributes, presence weighted by count.
func mergeAttributes(a []EntityAttribute, na int, b []EntityAttribute, nb int) []EntityAttribute {
	at := map[string]int{}
	var out []EntityAttribute
	add := func(x EntityAttribute, n int) {
		i, ok := at[x.Name]
		if !ok {
			i = len(out)
			at[x.Name] = i
			out = append(out, EntityAttribute{Name: x.Name})
		}
		for _, t := range x.Types {
			if !slices.Contains(out[i].Types, t) {
				out[i].Types = append(out[i].Types, t)
			}
		}
		sort.Strings(out[i].Types)
		out[i].Presence += x.Presence * float64(n) / float64(na+nb)
	}
	for _, x := range a {
		add(x, na)
	}
	for _, x := range b {
		add(x, nb)
	}
	for i := range out {
		out[i].Presence = math.Round(100*out[i].Presence) / 100
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Presence != out[j].Presence {
			return out[i].Presence > out[j].Presence
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// EstimateCounts turns the counts of a sample of a table of total items
// into counts of the table. A Scan segment reads whole partitions one
// after the other, so scaling every type by total / items read multiplies
// a small partition read whole (CAPITALS, 20 items) by the sample's
// ratio. A type whose items all sit in one fixed partition (its key a
// name: CAPITALS, PLACE) that the sample read to its end is counted
// exactly; the other types share the items left (total less the exact
// counts) in proportion to their share of the sample. A type of many
// partitions (USER#{id}) is estimated even when each was read whole, and
// so is one whose only partition read has a key with an id in it
// (GAME#g002): the items unread hold others.
func EstimateCounts(es []Entity, total int64) {
	exact, rest := 0, 0
	for i := range es {
		e := &es[i]
		e.CountExact = e.Partial == 0 && fixedPartitionRE().MatchString(e.KeyTemplates["pk"])
		if e.CountExact {
			exact += e.Count
		} else {
			rest += e.Count
		}
	}
	left := total - int64(exact)
	if rest == 0 || left <= int64(rest) {
		return // nothing to scale, or the sample holds all DynamoDB counted (its count lags)
	}
	scale := float64(left) / float64(rest)
	for i := range es {
		if !es[i].CountExact {
			es[i].Count = int(math.Round(float64(es[i].Count) * scale))
		}
	}
	sort.SliceStable(es, func(a, b int) bool { return es[a].Count > es[b].Count })
}
