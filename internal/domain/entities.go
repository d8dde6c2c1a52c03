package domain

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
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
	if delim == "" {
		delim = GuessDelimiter(append(append([]string(nil), pks...), sks...))
	}
	pkT, skT := Templates(pks, delim), Templates(sks, delim)
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
// (USER·METADATA), or the templates themselves when they hold none.
func templateName(pk, sk string) string {
	var labels []string
	seen := map[string]bool{}
	for _, t := range []string{pk, sk} {
		for _, w := range strings.FieldsFunc(placeholderRE().ReplaceAllString(t, " "), func(r rune) bool {
			return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == '_')
		}) {
			if len(w) > 1 && !seen[w] {
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
		if sk == "" {
			return pk
		}
		return pk + " / " + sk
	}
	return strings.Join(labels, "·")
}

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
// with the segment the others differ in written as an enumeration (or
// {id}, past a few values).
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
		t = joinEnum(t, o)
	}
	return t
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
		m.KeyTemplates = map[string]string{"pk": joinEnum(m.KeyTemplates["pk"], e.KeyTemplates["pk"]), "sk": joinEnum(m.KeyTemplates["sk"], e.KeyTemplates["sk"])}
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

var wordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]*$`) })

// maxEnumeration is the most values an enumeration of a key's segment
// lists; more are an {id}.
const maxEnumeration = 5

// joinEnum writes two templates of one shape as one, the segment they
// differ in as an enumeration.
func joinEnum(a, b string) string {
	sa, sb := templateSegments(a), templateSegments(b)
	if len(sa) != len(sb) {
		return a
	}
	for i := range sa {
		if sa[i] == sb[i] {
			continue
		}
		if placeholderRE().MatchString(sa[i]) && sa[i] != "{id}" || placeholderRE().MatchString(sb[i]) && sb[i] != "{id}" {
			return a // a part of a different form (v{n}_ beside v{n}_Rel): the most common stands
		}
		if sa[i] == "{id}" || sb[i] == "{id}" {
			sa[i] = "{id}"
			return strings.Join(sa, "")
		}
		vals := []string{sa[i]}
		if strings.HasPrefix(sa[i], "{") {
			vals = strings.Split(strings.Trim(sa[i], "{}"), "|")
		}
		if !slices.Contains(vals, sb[i]) {
			vals = append(vals, sb[i])
		}
		if len(vals) > maxEnumeration {
			sa[i] = "{id}" // too many values to be an enumeration: a name that varies
			return strings.Join(sa, "")
		}
		sort.Strings(vals)
		sa[i] = "{" + strings.Join(vals, "|") + "}"
		return strings.Join(sa, "")
	}
	return a
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
