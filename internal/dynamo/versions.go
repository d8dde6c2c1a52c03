package dynamo

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// VersionsRequest names a partition whose sort keys hold revisions
// (v0_Audit, v1_Audit, v001_Audit, v_1), and optionally one logical item.
type VersionsRequest struct {
	Table string
	Key   KeySchema // the keys read: the index's on an index
	PK    domain.KeyValue
	// Index, when set, is the index read (its sort key holds the revision
	// keys); TableKeys are then the base table's keys, which the index's
	// pages carry and which tell base items apart.
	Index     *Index
	TableKeys *KeySchema
	// Owner, on an index, narrows ItemHistory to the revisions of one base
	// partition (History.Owner).
	Owner string
	// Name is the logical item (Audit, Audit#PART-7; "" with Blog for a
	// bare v_0). Versions ignores it.
	Name string
	Blog bool // the v_N form
	// Pattern is the table's own spelling of revision keys (nil: the
	// usual forms above, detected).
	Pattern *domain.VersionPattern
	// Ignore names attributes that may differ between the current copy
	// and the newest revision (the table's drift_ignore).
	Ignore []string
	// PageLimit caps each history page (0: DynamoDB's 1 MB pages).
	PageLimit int32
	// Resume, for Versions, is an earlier result cut off by an error: the
	// read goes on from where it stopped, keeping what it had.
	Resume *VersionsResult
}

// VersionsResult is what was read and what it cost.
type VersionsResult struct {
	Histories []domain.History
	Level     domain.KeyQuery // the history query
	Cost      Cost
	Pages     int
	// Raw holds each revision as read, by sort key, for the item view.
	Raw map[string]Item
	// Stopped is where a read cut off by an error would go on from (nil
	// when it finished).
	Stopped Item
	// Skipped names keys read that begin like a revision but are not one,
	// with why ("v1_: no name after the number"), the first few of them.
	Skipped []SkippedKey
	// SkippedN counts them all.
	SkippedN int
	// Pattern is the spelling the key grammar found for revisions the
	// usual forms do not read (v{n}.{name} for v00001.profile), when the
	// request named none; nil otherwise.
	Pattern *domain.VersionPattern
	// Found says, where a sample of the partition's keys was looked at for
	// a family the usual read cannot hold (VersionsRequest.nameFirst),
	// what it found and by what it was read, or that it found none.
	Found string
	// Sample are the keys that look read where it found none, for a hint
	// of what they read as (nil where it was not made).
	Sample []string
	// Apart are the reads of current copies whose word leads the key
	// (begins_with(SK, "LATEST_")…), made where an item had no current
	// copy; their cost is in Cost.
	Apart []domain.KeyQuery
}

// ApartNote says the reads apart (Apart), by count: their prefixes may
// hold an item's name, which masking hides. "" where none was made.
func (res VersionsResult) ApartNote() string {
	n := len(res.Apart)
	if n == 0 {
		return ""
	}
	queries := "Queries"
	if n == 1 {
		queries = "Query"
	}
	return fmt.Sprintf("%d %s apart for current copies keyed LATEST… or CURRENT… (upper, lower and title case)", n, queries)
}

// SkippedKey is a key left out of the revisions, and why.
type SkippedKey struct{ Key, Why string }

// maxSkippedNamed bounds VersionsResult.Skipped.
const maxSkippedNamed = 5

// noteSkipped counts the keys of a page that look like revisions of the
// usual forms but are not read as one, naming the first few.
func (res *VersionsResult) noteSkipped(items []Item, r VersionsRequest) {
	if r.Pattern != nil {
		return
	}
	for _, it := range items {
		s, ok := it[r.Key.SK.Name].(*types.AttributeValueMemberS)
		if !ok {
			continue
		}
		if why := domain.WhyNotRevision(s.Value); why != "" {
			res.SkippedN++
			if len(res.Skipped) < maxSkippedNamed {
				res.Skipped = append(res.Skipped, SkippedKey{Key: s.Value, Why: why})
			}
		}
	}
}

// HistoryQuery is every revision key in the partition: begins_with(SK,
// "v"), or the literal a pattern starts with; the whole partition when a
// pattern starts with a placeholder.
func HistoryQuery(r VersionsRequest) domain.KeyQuery {
	prefix := "v"
	if r.Pattern != nil {
		prefix = r.Pattern.Prefix()
	}
	return revisionQuery(r, prefix)
}

// itemQuery is every revision key of the item r names: a pattern with the
// name before {n} narrows it to that item's keys.
func itemQuery(r VersionsRequest) domain.KeyQuery {
	if r.Pattern != nil {
		return revisionQuery(r, r.Pattern.ItemPrefix(r.Name))
	}
	return HistoryQuery(r)
}

// wordItemQuery is itemQuery where the item has no v0: what its revision
// keys share with its current copy spelt with a word (DOC#d1# for
// DOC#d1#v… and DOC#d1#LATEST, in any case), so that one read holds both.
func wordItemQuery(r VersionsRequest) domain.KeyQuery {
	if r.Pattern != nil {
		if word, ok := r.Pattern.CurrentItemPrefix(r.Name); ok {
			return revisionQuery(r, sharedPrefix(r.Pattern.ItemPrefix(r.Name), word))
		}
	}
	return itemQuery(r)
}

func sharedPrefix(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[:i]
}

func revisionQuery(r VersionsRequest, prefix string) domain.KeyQuery {
	q := domain.KeyQuery{Table: r.Table, PKName: r.Key.PK.Name, PK: r.PK, SKName: r.Key.SK.Name}
	if r.Index != nil {
		q.Index = r.Index.Name
	}
	switch {
	case r.Pattern.Numbered():
		q.SK = domain.NumberVersionsRange() // a device log's times are never read as versions
	case prefix != "":
		q.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S(prefix)}
	}
	return q
}

// parse reads a sort key as a revision, or a current copy spelt with a
// word (DOC#d1#LATEST), by the request's pattern or the usual forms.
func (r VersionsRequest) parse(sk string) (domain.VersionKey, bool) {
	if r.Pattern != nil {
		if k, ok := r.Pattern.Parse(sk); ok {
			return k, true
		}
		return r.Pattern.ParseCurrent(sk)
	}
	if k, ok := domain.ParseVersionKey(sk); ok {
		return k, true
	}
	return domain.ParseCurrentKey(sk)
}

// zeroKey is the sort key of the item's current copy, as GetItem asks
// for it (v0_Audit, v_0, rev#0#Audit).
func (r VersionsRequest) zeroKey() string {
	switch {
	case r.Pattern != nil:
		return r.Pattern.Key("0", r.Name)
	case r.Blog && r.Name != "":
		return "v_0_" + r.Name
	case r.Blog:
		return "v_0"
	case r.Name == "":
		return "v0" // AWS's bare v0: the partition is the item
	}
	return "v0_" + r.Name
}

// ignore is what the drift check leaves out: the keys, which differ by
// design, and the table's drift_ignore.
func (r VersionsRequest) ignore() []string {
	return append(r.pageKeys(), r.Ignore...)
}

// ownerAttr is the base table's partition key on an index keyed by
// another attribute: the revisions of different base items can share an
// index partition there. "" on the table, or an index of the same
// partition key.
func (r VersionsRequest) ownerAttr() string {
	if r.Index == nil || r.TableKeys == nil || r.TableKeys.PK.Name == r.Key.PK.Name {
		return ""
	}
	return r.TableKeys.PK.Name
}

func (r VersionsRequest) ownerOf(rev domain.Revision) string {
	if a := r.ownerAttr(); a != "" {
		return fmt.Sprint(rev.Item[a])
	}
	return ""
}

// Partial reports whether the index read holds only part of each item
// (KEYS_ONLY or INCLUDE): drift between copies cannot be judged from it.
func (r VersionsRequest) Partial() bool {
	return r.Index != nil && r.Index.Projection != "ALL"
}

// ProjectionNote says, on an index holding part of each item, why no
// drift between copies is reported; "" otherwise.
func (r VersionsRequest) ProjectionNote() string {
	if !r.Partial() {
		return ""
	}
	holds := "keys only"
	if len(r.Index.NonKeyAttributes) > 0 {
		holds = "keys + " + strings.Join(r.Index.NonKeyAttributes, ", ")
	}
	return fmt.Sprintf("index %s holds %s: drift not judged; enter reads each revision whole from the table", r.Index.Name, holds)
}

// group groups revisions into histories: by base partition as well on an
// index (RawKey), and, where the index holds part of each item, judging
// only what keys tell (gaps, duplicates, a missing current copy), never
// content drift or a version pointer it cannot see.
func (r VersionsRequest) group(revs []domain.Revision) []domain.History {
	buckets := map[string][]domain.Revision{}
	for _, rev := range revs {
		o := r.ownerOf(rev)
		buckets[o] = append(buckets[o], rev)
	}
	var out []domain.History
	for _, o := range slices.Sorted(maps.Keys(buckets)) {
		hs := domain.GroupVersions(buckets[o], r.ignore()...)
		if r.Partial() {
			keysOnly := make([]domain.Revision, len(buckets[o]))
			for i, rev := range buckets[o] {
				keysOnly[i] = domain.Revision{VersionKey: rev.VersionKey}
			}
			judged := domain.GroupVersions(keysOnly, r.ignore()...)
			for i := range hs {
				hs[i].Drift, hs[i].Pointer = judged[i].Drift, ""
			}
		}
		for i := range hs {
			hs[i].Owner = o
		}
		out = append(out, hs...)
	}
	return out
}

// RawKey is where VersionsResult.Raw keeps a revision: by sort key, and
// on an index by base partition too (History.Owner).
func RawKey(owner, sk string) string {
	if owner == "" {
		return sk
	}
	return owner + "\x00" + sk
}

func checkVersioned(r VersionsRequest) error {
	if !VersionedKey(r.Key) {
		return Errorf("versions", KindValidation, VersionKeysHint,
			"table %s has no string or number sort key, so no versions", r.Table)
	}
	return nil
}

// VersionKeysHint says where revisions live, for a key that holds none.
const VersionKeysHint = "versions live in string sort keys such as v0_Audit, v1_Audit, or in a number sort key that is the version (0, 1, 2…)"

// VersionedKey reports whether a key's sort key can hold revisions: a
// string spells them (v0_Audit), a number is one (domain.NumberVersions).
func VersionedKey(k KeySchema) bool {
	return k.SK != nil && (k.SK.Type == domain.TypeS || k.SK.Type == domain.TypeN)
}

// numbered is the request on a number sort key: its revisions are the
// numbers themselves, unless a pattern names another reading of them.
func (r VersionsRequest) numbered() VersionsRequest {
	if r.Pattern == nil && r.Key.SK != nil && r.Key.SK.Type == domain.TypeN {
		r.Pattern = domain.NumberVersions()
	}
	return r
}

// revisionText is an item's sort key as revision text: a string, or a number's
// digits as DynamoDB returns them.
func revisionText(it Item, r VersionsRequest) (string, bool) {
	switch v := it[r.Key.SK.Name].(type) {
	case *types.AttributeValueMemberS:
		return v.Value, true
	case *types.AttributeValueMemberN:
		return v.Value, true
	}
	return "", false
}

// revisionValue is sort key text as the request's key type writes it.
func revisionValue(r VersionsRequest, text string) types.AttributeValue {
	if r.Key.SK.Type == domain.TypeN {
		return &types.AttributeValueMemberN{Value: text}
	}
	return &types.AttributeValueMemberS{Value: text}
}

// revisionsOf keeps the items whose sort keys are revisions, as plain values.
func revisionsOf(items []Item, r VersionsRequest, keep func(domain.VersionKey) bool) []domain.Revision {
	var out []domain.Revision
	for _, it := range items {
		s, ok := revisionText(it, r)
		if !ok {
			continue
		}
		k, ok := r.parse(s)
		if !ok || (keep != nil && !keep(k)) {
			continue
		}
		out = append(out, domain.Revision{VersionKey: k, Item: PlainItem(it)})
	}
	return out
}

// notRevisions keeps the items whose sort keys the request does not read
// as revisions.
func notRevisions(items []Item, r VersionsRequest) []Item {
	var out []Item
	for _, it := range items {
		if s, ok := revisionText(it, r); ok {
			if _, rev := r.parse(s); !rev {
				out = append(out, it)
			}
		}
	}
	return out
}

// inferPattern is the spelling the key grammar reads in one page's sort
// keys that are not revisions of the usual forms
// (domain.InferVersionPattern); nil when they spell none.
func inferPattern(others []Item, r VersionsRequest) *domain.VersionPattern {
	if len(others) == 0 {
		return nil
	}
	keys := make([]string, 0, len(others))
	for _, it := range others {
		if k, ok := it[r.Key.SK.Name].(*types.AttributeValueMemberS); ok {
			keys = append(keys, k.Value)
		}
	}
	p := domain.InferVersionPattern(keys)
	if p == nil || !strings.HasPrefix(p.Prefix(), HistoryQuery(r).SK.A.Text) {
		return nil // its keys were not all read
	}
	return p
}

// rawIndex finds the item of rev (its sort key, and base partition on an
// index), looking at position hint first.
func rawIndex(items []Item, r VersionsRequest, rev domain.Revision, hint int) int {
	owner := r.ownerOf(rev)
	for i := hint; i < len(items); i++ {
		s, ok := items[i][r.Key.SK.Name].(*types.AttributeValueMemberS)
		if ok && s.Value == rev.Key && (owner == "" || r.ownerOf(domain.Revision{Item: PlainItem(items[i])}) == owner) {
			return i
		}
	}
	return 0
}

// Versions reads every revision in a partition (a paged begins_with Query)
// and groups them by logical item, with drift. progress, if not nil, sees
// the groups so far after each page.
func Versions(ctx context.Context, c Client, r VersionsRequest, progress func(VersionsResult)) (VersionsResult, error) {
	if err := checkVersioned(r); err != nil {
		return VersionsResult{}, err
	}
	r = r.numbered()
	if r.Pattern == nil && r.Resume != nil && r.Resume.Pattern != nil {
		r.Pattern = r.Resume.Pattern
	}
	res := VersionsResult{Level: HistoryQuery(r), Raw: map[string]Item{}}
	var revs []domain.Revision
	var others []Item // read under the prefix, not revisions of the usual forms
	var start Item
	if prev := r.Resume; prev != nil && prev.Stopped != nil {
		res.Cost, res.Pages, res.Pattern = prev.Cost, prev.Pages, prev.Pattern
		if len(prev.Stopped) > 0 {
			start = prev.Stopped
		}
		for k, it := range prev.Raw {
			res.Raw[k] = it
			revs = append(revs, revisionsOf([]Item{it}, r, nil)...)
		}
	}
	for {
		page, err := QueryPage(ctx, c, PageRequest{Query: res.Level, Start: start, Limit: r.PageLimit, TableKeys: r.TableKeys})
		res.Cost = res.Cost.Add(page.Cost)
		if err != nil {
			res.Histories = r.group(revs)
			res.Stopped = start
			if res.Stopped == nil {
				res.Stopped = Item{} // stopped at the first page: go on from the start
			}
			return res, err
		}
		res.Pages++
		res.noteSkipped(page.Items, r)
		items := page.Items
		got := revisionsOf(items, r, nil)
		if r.Pattern == nil && len(revs) == 0 && len(got) == 0 {
			// Until a revision is read, the keys read wait for the grammar:
			// each page's are read for a spelling, and all of them with it.
			mine := notRevisions(page.Items, r)
			others = append(others, mine...)
			if p := inferPattern(mine, r); p != nil {
				r.Pattern, res.Pattern = p, p
				res.Skipped, res.SkippedN = nil, 0
				items, others = others, nil
				got = revisionsOf(items, r, nil)
			}
		}
		for i, rev := range got {
			res.Raw[RawKey(r.ownerOf(rev), rev.Key)] = items[rawIndex(items, r, rev, i)]
		}
		revs = append(revs, got...)
		res.Histories = r.group(revs)
		if progress != nil {
			progress(res)
		}
		if !page.More() {
			if r.Pattern == nil && len(revs) == 0 && r.Resume == nil {
				return r.nameFirst(ctx, c, res, progress)
			}
			if err := r.readApart(ctx, c, &res, &revs, ""); err != nil {
				res.Stopped = start // the history is whole: go on with the reads apart
				if len(page.Items) > 0 {
					res.Stopped = keyOf(page.Items[len(page.Items)-1], r.pageKeys())
				} else if res.Stopped == nil {
					res.Stopped = Item{}
				}
				return res, err
			}
			if progress != nil {
				progress(res)
			}
			return res, nil
		}
		start = page.LastKey
	}
}

// nameFirstForms names the spellings of a name-first family the look
// reads (domain.InferNameFirstPattern).
const nameFirstForms = "{name}#v{n}, {name}_v{n} or {name}#VERSION#{n} (DOC#d1#v1, report_v2, a#VERSION#0001)"

// nameFirstSample is how many keys the look for a name-first family reads
// a page.
const nameFirstSample = 100

// nameFirstLevels is how many of a partition's first levels the look reads
// a page of: a family that sorts after 100 other keys (onetable's
// Policy#terms_v2 after 140 Event#… keys) was never seen.
const nameFirstLevels = 8

// nameFirst looks, where no key under v is a revision, for a family the
// usual read cannot hold, spelt with the name first (DOC#d1#v1, DOC#d1#v2,
// DOC#d2#v1…): keys-only pages of the partition, read for it
// (domain.InferNameFirstPattern); where it is clear, the partition is read
// again by that pattern, which reads every key (its first placeholder
// leaves no prefix to read under), and the pattern is said (Pattern,
// Found). res is the read that found nothing, whose cost is kept.
func (r VersionsRequest) nameFirst(ctx context.Context, c Client, res VersionsResult, progress func(VersionsResult)) (VersionsResult, error) {
	p, n, keys, sampled, cost, err := r.sampleNameFirst(ctx, c)
	res.Cost = res.Cost.Add(cost)
	if err != nil {
		return res, err // Stopped nil: read again from the start
	}
	if p == nil {
		res.Sample = keys
		// The look reads every spelling domain.InferNameFirstPattern
		// does: it said {name}#v{n} alone once report_v2 and
		// a#VERSION#0001 were read too.
		res.Found = fmt.Sprintf("looked in %s for %s: none", sampled, nameFirstForms)
		if len(keys) == 0 {
			res.Found = "looked for " + nameFirstForms + ": the partition holds no key"
		}
		return res, nil
	}
	r.Pattern = p
	found, err := Versions(ctx, c, r, progress)
	found.Cost, found.Pages = res.Cost.Add(found.Cost), res.Pages+found.Pages
	found.Pattern = p
	found.Found = fmt.Sprintf("no revision key begins with v; in %s, %d items hold revisions spelt %s: read by it", sampled, n, p)
	return found, err
}

// sampleNameFirst reads keys-only pages of the partition for a family
// spelt with the name first (domain.InferNameFirstPattern): a page, and
// where more follows and no family is clear, a page from past the first
// level the last key read is under (Event# of Event#…#e0099), up to
// nameFirstLevels pages. It returns the pattern (nil where none is
// clear), how many names hold it, the keys read (none read: empty, not
// nil) and how the sample is told ("the partition's 6 keys").
func (r VersionsRequest) sampleNameFirst(ctx context.Context, c Client) (p *domain.VersionPattern, n int, keys []string, sampled string, cost Cost, err error) {
	keys = []string{}
	q := revisionQuery(r, "")
	var levels []string // the first levels skipped past
	for {
		page, err := QueryPage(ctx, c, PageRequest{Query: q, Limit: nameFirstSample, KeysOnly: true, TableKeys: r.TableKeys})
		cost = cost.Add(page.Cost)
		if err != nil {
			return nil, 0, nil, "", cost, err
		}
		var read []string
		for _, it := range page.Items {
			if s, ok := it[r.Key.SK.Name].(*types.AttributeValueMemberS); ok {
				read = append(read, s.Value)
			}
		}
		keys = append(keys, read...)
		p, n = domain.InferNameFirstPattern(keys)
		more := page.More() && len(read) > 0
		level, past := "", ""
		if more && p == nil && len(levels)+1 < nameFirstLevels {
			if delim, ok := domain.DetectDelimiter(read); ok {
				if name, leaf, _ := domain.ChildOf("", read[len(read)-1], delim); !leaf {
					level = name + delim
					past, ok = domain.PrefixEnd(level)
					if !ok {
						level = ""
					}
				}
			}
		}
		if level == "" {
			switch {
			case len(levels) > 0:
				sampled = fmt.Sprintf("%d of the partition's keys (a page, and one past %s)", len(keys), strings.Join(levels, ", "))
			case more:
				sampled = fmt.Sprintf("the partition's first %d keys", len(keys))
			default:
				sampled = fmt.Sprintf("the partition's %d keys", len(keys))
			}
			return p, n, keys, sampled, cost, nil
		}
		levels = append(levels, level)
		q.SK = domain.SKCondition{Op: domain.SKGe, A: domain.S(past)}
	}
}

// pageKeys names the attributes a page's start key holds: the keys read,
// and on an index the base table's.
func (r VersionsRequest) pageKeys() []string {
	keys := []string{r.Key.PK.Name, r.Key.SK.Name}
	if r.TableKeys != nil {
		keys = append(keys, r.TableKeys.PK.Name)
		if r.TableKeys.SK != nil {
			keys = append(keys, r.TableKeys.SK.Name)
		}
	}
	return keys
}

// apart is what current copies whose word leads the key begin with
// (LATEST_Audit beside v1_Audit, LATEST#DOC#d1 beside v1#DOC#d1): no read
// of the revisions holds them (domain.CurrentApart). With name, item's.
func (r VersionsRequest) apart(name string, item bool) []string {
	switch {
	case r.Pattern != nil:
		return r.Pattern.CurrentApart(name, item)
	case r.Blog && item:
		return nil // v_latest is read with v_1
	}
	return domain.CurrentApart(name, item)
}

// readApart reads, where an item of the histories read has revisions and
// no current copy, the current copies spelt with a leading word: one
// Query for each spelling of the words (LATEST_, latest_, Latest_,
// CURRENT_…), paged, only where a current copy is missing, so a partition
// whose items all have one pays nothing. name, when set, is the one item
// whose copy is asked for (ItemHistory); its keys alone are kept.
func (r VersionsRequest) readApart(ctx context.Context, c Client, res *VersionsResult, revs *[]domain.Revision, name string) error {
	missing := false
	for _, h := range res.Histories {
		missing = missing || h.Current == nil && len(h.Revisions) > 0 && (h.Pattern == nil || !h.Pattern.HistoryOnly())
	}
	if !missing {
		return nil
	}
	held := map[string]bool{} // a word's key the revisions' read held too (CURRENT#x for C{n}#{name})
	for _, rev := range *revs {
		held[RawKey(r.ownerOf(rev), rev.Key)] = true
	}
	words := func(k domain.VersionKey) bool { return k.Word != "" && (name == "" || k.Name == name) }
	var found []domain.Revision
	raw := map[string]Item{}
	for _, prefix := range r.apart(name, name != "") {
		res.Apart = append(res.Apart, revisionQuery(r, prefix))
		var start Item
		for {
			page, err := QueryPage(ctx, c, PageRequest{Query: revisionQuery(r, prefix), Start: start, Limit: r.PageLimit, TableKeys: r.TableKeys})
			res.Cost = res.Cost.Add(page.Cost)
			if err != nil {
				return err // nothing kept: a read resumed reads them all again
			}
			for i, rev := range revisionsOf(page.Items, r, words) {
				if name != "" && r.ownerOf(rev) != r.Owner || held[RawKey(r.ownerOf(rev), rev.Key)] {
					continue
				}
				raw[RawKey(r.ownerOf(rev), rev.Key)] = page.Items[rawIndex(page.Items, r, rev, i)]
				found = append(found, rev)
			}
			if !page.More() {
				break
			}
			start = page.LastKey
		}
	}
	if res.Raw != nil {
		maps.Copy(res.Raw, raw)
	}
	*revs = append(*revs, found...)
	res.Histories = r.group(*revs)
	return nil
}

// HistoryEvent is what ItemHistory has found so far.
type HistoryEvent struct {
	Current *domain.Revision // the v0_ copy, as soon as it is read
	Latest  *domain.Revision // the newest revision, when known before the history ends
	History domain.History   // the revisions read so far
	Cost    Cost
	Done    bool
}

// ItemHistory opens one logical item: its current copy is one GetItem, its
// history a paged begins_with Query. Where the numbers are zero-padded and
// the history runs past a page, the newest revision comes early, from a
// reverse Query with Limit 1. emit, if not nil, sees each step.
func ItemHistory(ctx context.Context, c Client, r VersionsRequest, emit func(HistoryEvent)) (domain.History, VersionsResult, error) {
	if err := checkVersioned(r); err != nil {
		return domain.History{}, VersionsResult{}, err
	}
	r = r.numbered()
	res := VersionsResult{Level: itemQuery(r)}
	ev := HistoryEvent{History: r.emptyHistory()}
	send := func() {
		ev.Cost = res.Cost
		if emit != nil {
			emit(ev)
		}
	}
	// An index has no GetItem: its current copy comes with the history.
	var cur Item
	if r.Index == nil {
		got, cost, err := GetItem(ctx, c, r.Table, Item{r.Key.PK.Name: AttributeValue(r.PK), r.Key.SK.Name: revisionValue(r, r.zeroKey())})
		res.Cost = res.Cost.Add(cost)
		if err != nil {
			return ev.History, res, err
		}
		cur = got
	}
	if cur != nil {
		if revs := revisionsOf([]Item{cur}, r, nil); len(revs) == 1 {
			ev.Current = &revs[0]
			send()
		}
	}
	if ev.Current == nil {
		res.Level = wordItemQuery(r) // no v0: its current copy may be spelt with a word
	}
	mine := func(k domain.VersionKey) bool {
		return k.Name == r.Name && (r.Pattern != nil || (k.Form == domain.FormUnderscore) == r.Blog)
	}

	var revs []domain.Revision
	var others []Item // read under the prefix, not revisions of the usual forms
	var start Item
	for {
		page, err := QueryPage(ctx, c, PageRequest{Query: res.Level, Start: start, Limit: r.PageLimit, TableKeys: r.TableKeys})
		res.Cost = res.Cost.Add(page.Cost)
		if err != nil {
			return ev.History, res, err
		}
		res.Pages++
		items := page.Items
		if r.Pattern == nil && len(revs) == 0 && ev.Current == nil && len(revisionsOf(items, r, nil)) == 0 {
			// As Versions does: keys the usual forms do not read wait for
			// the grammar's spelling of them.
			these := notRevisions(items, r)
			others = append(others, these...)
			if p := inferPattern(these, r); p != nil {
				r.Pattern, res.Pattern = p, p
				items, others = others, nil
			}
		}
		for _, rev := range revisionsOf(items, r, mine) {
			if r.ownerOf(rev) == r.Owner {
				revs = append(revs, rev)
			}
		}
		if hs := r.group(revs); len(hs) > 0 {
			ev.History = hs[0]
		}
		if ev.Current == nil {
			ev.Current = ev.History.Current
		}
		if res.Pages == 1 && page.More() && ev.Latest == nil && r.ownerAttr() == "" && !r.Pattern.Numbered() {
			if w := paddedWidth(revs); w > 0 {
				latest, cost, err := Newest(ctx, c, r, w)
				res.Cost = res.Cost.Add(cost)
				if err != nil {
					return ev.History, res, err
				}
				ev.Latest = latest
			}
		}
		if !page.More() {
			break
		}
		send()
		start = page.LastKey
	}
	if ev.History.Current == nil && len(ev.History.Revisions) > 0 {
		// No v0, and no word read with the revisions: one spelt with a
		// leading word (LATEST_Audit) is read apart.
		res.Histories = []domain.History{ev.History}
		if err := r.readApart(ctx, c, &res, &revs, r.Name); err != nil {
			return ev.History, res, err
		}
		if len(res.Histories) > 0 {
			ev.History = res.Histories[0]
		}
		ev.Current = ev.History.Current
	}
	if len(ev.History.Revisions) == 0 && ev.History.Current == nil && r.Pattern == nil && !r.Blog && r.Name != "" {
		// As Versions does where no key under v is a revision: the item's
		// family may be spelt with its name first (Doc#v1, report_v2).
		p, _, _, _, cost, err := r.sampleNameFirst(ctx, c)
		res.Cost = res.Cost.Add(cost)
		if err != nil {
			return ev.History, res, err
		}
		if p != nil {
			r.Pattern = p
			h, found, err := ItemHistory(ctx, c, r, emit)
			found.Cost, found.Pages = res.Cost.Add(found.Cost), res.Pages+found.Pages
			found.Pattern = p
			return h, found, err
		}
	}
	if len(ev.History.Revisions) == 0 && ev.History.Current == nil {
		ev.History = r.emptyHistory()
	}
	ev.Latest, ev.Done = ev.History.Latest(), true
	send()
	res.Histories = []domain.History{ev.History}
	return ev.History, res, nil
}

// emptyHistory is the item's history before anything is read: named, in
// the request's form.
func (r VersionsRequest) emptyHistory() domain.History {
	h := domain.History{Name: r.Name, Pattern: r.Pattern}
	switch {
	case r.Pattern != nil:
		h.Form = domain.FormPattern
	case r.Blog:
		h.Form = domain.FormUnderscore
	case r.Name == "":
		h.Form = domain.FormBare
	}
	return h
}

// paddedWidth is the digit count when the revisions are zero-padded to one
// width, else 0.
func paddedWidth(revs []domain.Revision) int {
	w := 0
	for _, r := range revs {
		if r.Word != "" {
			continue // a current copy's key holds no number
		}
		if r.Form == domain.FormUnderscore || r.Form == domain.FormBare || (w != 0 && len(r.Digits) != w) {
			return 0
		}
		w = len(r.Digits)
	}
	if w < 2 {
		return 0
	}
	return w
}

// Newest finds the newest revision of a zero-padded history (width digits):
// in key order the revisions of a width sort by number, so it is the last
// key between v00…1_Name and v99…9_Name. Another item's key can sort
// between (v0007_Audit#PART-7 after v0007_Audit); each such answer narrows
// the range, so it takes one request unless names interleave.
func Newest(ctx context.Context, c Client, r VersionsRequest, width int) (*domain.Revision, Cost, error) {
	var total Cost
	spell := func(digits string) string { return "v" + digits + "_" + r.Name }
	if r.Pattern != nil {
		spell = func(digits string) string { return r.Pattern.Key(digits, r.Name) }
	}
	d := func(n int) string { return spell(fmt.Sprintf("%0*d", width, n)) }
	low, high := d(1), spell(strings.Repeat("9", width))
	for range 8 {
		q := itemQuery(r)
		q.SK = domain.SKCondition{Op: domain.SKBetween, A: domain.S(low), B: domain.S(high)}
		q.Reverse = true
		page, err := QueryPage(ctx, c, PageRequest{Query: q, Limit: 1})
		total = total.Add(page.Cost)
		if err != nil || len(page.Items) == 0 {
			return nil, total, err
		}
		revs := revisionsOf(page.Items, r, nil)
		if len(revs) == 0 {
			return nil, total, nil
		}
		k := revs[0].VersionKey
		switch {
		case k.Name == r.Name && len(k.Digits) == width:
			return &revs[0], total, nil
		case k.Num == 0:
			return nil, total, nil
		case k.Name > r.Name:
			high = d(k.Num)
		default:
			high = d(k.Num - 1)
		}
		if high < low {
			return nil, total, nil
		}
	}
	return nil, total, nil
}
