package pages

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"fmt"
	"strings"

	"github.com/dynascope/dynascope/internal/keymap"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// The partition's modes, in the order of docs/screens-and-keys.md.
const (
	ModeTree     = "Tree"
	ModeItems    = "Items"
	ModeVersions = "Versions"
	ModeTime     = "Time"
	ModeChanges  = "Changes"
)

// place is what a mode page shows, whatever its mode: one partition of a
// table (or index), under a sort-key prefix.
type place struct {
	c      *common.Common
	info   dynamo.TableInfo
	pk     domain.KeyValue
	prefix string
	index  string
	// sample are sort keys already read (items' keys, or those the
	// skip-scan saw), which decide whether Time applies without a read;
	// nil: unknown.
	sample []domain.KeyValue
	// seen are every sort key of the partition, or its children, when
	// all were read (items loaded to the end, or a whole top level
	// walked): Versions applies only where one of them can begin like a
	// revision key. nil: unknown.
	seen    []domain.Child
	sharded bool
}

func (p place) id() string {
	return fmt.Sprintf("%s\x00%s\x00%s\x00%s", p.info.Name, p.index, keyArg(p.pk), p.prefix)
}

// known adds what another mode of the same place has read of its keys,
// where this page has read none.
func (p place) known() place {
	k, ok := p.c.KeysSeen[p.id()]
	if !ok {
		return p
	}
	if p.sample == nil {
		p.sample = k.Sample
	}
	if p.seen == nil {
		p.seen = k.All
	}
	return p
}

// remember keeps what this page has read of the place's keys for its
// other modes (called as reads arrive, never from a view).
func (p place) remember() {
	if p.sample == nil && p.seen == nil {
		return
	}
	if p.c.KeysSeen == nil {
		p.c.KeysSeen = map[string]common.KeysSeen{}
	}
	k := p.c.KeysSeen[p.id()]
	if p.sample != nil {
		k.Sample = p.sample
	}
	if p.seen != nil {
		k.All = revisionWitness(p.c.Tables[p.info.Name].Versions(), p.seen)
	}
	p.c.KeysSeen[p.id()] = k
}

// Mode is one of a partition's modes: its tab's name, the key that picks
// it, whether it applies to a place (and why not) and how it opens there.
// The tabs, the mode keys, tab and shift+tab, the dimming and the help are
// all read from Modes, so a new mode is one entry there and its page.
type Mode struct {
	Name string
	Key  func(keymap.KeyMap) key.Binding
	// Applies says whether the mode applies to the place, and why not.
	// It reads nothing: a mode that cannot apply costs nothing to find out.
	Applies func(p place, key dynamo.KeySchema) (bool, string)
	Open    func(p place) common.Page
	// Sharded: it applies on a partition whose items are in shards (the
	// tree lists the shards); the others need one shard opened.
	Sharded bool
}

// Modes are the partition's modes, in their tabs' order.
var Modes = []Mode{
	{Name: ModeTree, Key: func(k keymap.KeyMap) key.Binding { return k.TreeMode }, Applies: treeApplies, Open: openTree, Sharded: true},
	{Name: ModeItems, Key: func(k keymap.KeyMap) key.Binding { return k.ItemsMode }, Applies: always, Open: openItems},
	{Name: ModeVersions, Key: func(k keymap.KeyMap) key.Binding { return k.Versions }, Applies: versionsApply, Open: openVersionsMode},
	{Name: ModeTime, Key: func(k keymap.KeyMap) key.Binding { return k.TimeMode }, Applies: timeApplies, Open: openTimeMode},
	{Name: ModeChanges, Key: func(k keymap.KeyMap) key.Binding { return k.Changes }, Applies: changesApply, Open: openChangesMode},
}

func always(place, dynamo.KeySchema) (bool, string) { return true, "" }

func treeApplies(_ place, key dynamo.KeySchema) (bool, string) {
	switch {
	case key.SK == nil:
		return false, "no sort key: nothing to drill"
	case key.SK.Type == domain.TypeN:
		return false, "a number sort key has no prefixes to drill"
	}
	return true, ""
}

func versionsApply(p place, key dynamo.KeySchema) (bool, string) {
	switch {
	case !dynamo.VersionedKey(key):
		return false, "versions live in string sort keys (v0_Audit, v1_Audit…) or a number sort key (0, 1, 2…)"
	case key.SK.Type == domain.TypeN:
		return numberVersionsApply(p.sample)
	case p.prefix != "":
		return false, "versions are listed for the whole partition: esc to its top"
	case p.seen != nil:
		why := noRevisionKeys(p.c.Tables[p.info.Name].Versions(), p.seen)
		return why == "", why
	}
	return true, ""
}

// numberVersionsApply: a number sort key is the version itself, unless
// the numbers read are no run of versions (times: DeviceLogs'
// 1536019200; a leaderboard's scattered scores).
func numberVersionsApply(sample []domain.KeyValue) (bool, string) {
	nums := make([]string, len(sample))
	for i, k := range sample {
		nums[i] = k.Text
	}
	if len(sample) == 0 || domain.NumberedRun(nums) {
		return true, ""
	}
	return false, fmt.Sprintf("the numbers in this sort key (%s…) are no run of versions 0, 1, 2…", common.Sanitize(sample[0].Text))
}

// timeApplies rules Time out, for free, where the keys already read hold
// no time; one key is no sample: a level of one child shows its first key
// alone, and a collection's first key is its parent (ElectroDB's
// $assignments#employee_1 before $assignments#status_open#due_<time>…,
// the whole top level of its partition), so Time reads and says.
func timeApplies(p place, key dynamo.KeySchema) (bool, string) {
	switch {
	case key.SK == nil:
		return false, "no sort key to read as time"
	case p.c.Tables[p.info.Name].TimeFormat != "":
	case len(p.sample) > 1 && !readsAsTime(p.sample):
		return false, fmt.Sprintf("the %d sort keys sampled here hold no time", len(p.sample))
	}
	return true, ""
}

func changesApply(p place, _ dynamo.KeySchema) (bool, string) {
	why := p.noChanges()
	return why == "", why
}

func openTree(p place) common.Page {
	opts := TreeOptionsFor(p.c, p.info.Name)
	opts.Index = p.index
	return NewTree(p.c, p.info, p.pk, p.prefix, opts)
}

func openItems(p place) common.Page { return NewItemsUnder(p.c, p.info, p.pk, p.prefix, p.index) }

func openVersionsMode(p place) common.Page { return NewVersionsOn(p.c, p.info, p.pk, p.index) }

func openTimeMode(p place) common.Page {
	t := NewTime(p.c, p.info, p.pk, p.index, p.c.Now)
	t.Under(p.prefix)
	if r, ok := p.c.TimeRanges[p.id()]; ok {
		t.Back(r)
	}
	return t
}

func openChangesMode(p place) common.Page { return NewChanges(p.c, p.info, p.pk, p.prefix) }

// modes says which modes apply to the place, and why not when not. It
// reads nothing: a mode that cannot apply must cost nothing to find out.
func (p place) modes() []common.ModeTab {
	p = p.known()
	key, err := p.info.KeyFor(p.index)
	if err != nil {
		key = p.info.Key
	}
	tabs := make([]common.ModeTab, len(Modes))
	for i, m := range Modes {
		tabs[i] = common.ModeTab{Name: m.Name, Key: m.Key(p.c.Keys)}
		if ok, why := m.Applies(p, key); !ok {
			tabs[i].Off = why
		}
		if p.sharded && !m.Sharded {
			tabs[i].Off = "open one shard (/ then its key) for its items, versions and times"
		}
	}
	return tabs
}

// offTabs are every mode's tab, each off for why but the one named.
func offTabs(k keymap.KeyMap, on, why string) []common.ModeTab {
	tabs := make([]common.ModeTab, len(Modes))
	for i, m := range Modes {
		tabs[i] = common.ModeTab{Name: m.Name, Key: m.Key(k)}
		if m.Name != on {
			tabs[i].Off = why
		}
	}
	return tabs
}

// readsAsTime reports whether any of the sort keys already read holds a
// time, by Time mode's own detection: the tab is dimmed only where none
// does, for a sample that is one key per child (a Metadata child beside
// one of ISO times) can miss the quorum Time mode's newest keys reach.
// Binary keys are never read as time.
func readsAsTime(keys []domain.KeyValue) bool {
	for _, k := range keys[:min(len(keys), dynamo.SampleKeys)] {
		if k.Type == domain.TypeB {
			continue
		}
		if _, ok := domain.DetectTime([]string{k.Text}, k.Type == domain.TypeN); ok {
			return true
		}
	}
	return false
}

// revisionPrefix is how a revision key begins, and how it is spelt in a
// message: the table's version pattern, else v0_Audit's v.
func revisionPrefix(pattern *domain.VersionPattern) (prefix, like string) {
	if pattern != nil {
		return pattern.Prefix(), pattern.String()
	}
	return "v", "v0_Audit, v1_Audit…"
}

// beginsLikeRevision reports whether c (a key, or a prefix of keys) can
// begin like a revision key.
func beginsLikeRevision(c domain.Child, prefix string) bool {
	return (c.IsItem && strings.HasPrefix(c.Name, prefix)) ||
		(c.HasChildren && (strings.HasPrefix(c.Prefix, prefix) || strings.HasPrefix(prefix, c.Prefix)))
}

// revisionWitness is what noRevisionKeys needs of seen: none, or the first
// key that can begin like a revision, so that what is remembered for every
// frame is one key, not 100,000.
func revisionWitness(pattern *domain.VersionPattern, seen []domain.Child) []domain.Child {
	prefix, _ := revisionPrefix(pattern)
	for _, c := range seen {
		if prefix != "" && beginsLikeRevision(c, prefix) {
			return []domain.Child{c}
		}
	}
	if pattern == nil {
		if w := nameFirstWitness(seen); w != nil {
			return w
		}
	}
	return []domain.Child{}
}

// nameFirstWitness is the fewest whole keys of seen that show a family
// the Versions mode finds with no pattern (DOC#d1#v1, DOC#d1#v2,
// DOC#d2#v1, DOC#d2#v2: domain.InferNameFirstPattern), nil where they
// show none. Children with keys below them show nothing either way.
func nameFirstWitness(seen []domain.Child) []domain.Child {
	var keys []string
	for _, c := range seen {
		if c.IsItem {
			keys = append(keys, c.Name)
		}
	}
	p, _ := domain.InferNameFirstPattern(keys)
	if p == nil {
		return nil
	}
	nums := map[string]map[string]bool{}
	var out []domain.Child
	full := 0
	for _, k := range keys {
		v, ok := p.Parse(k)
		if !ok || len(nums[v.Name]) >= 2 || nums[v.Name][strings.TrimLeft(v.Digits, "0")] {
			continue
		}
		if nums[v.Name] == nil {
			nums[v.Name] = map[string]bool{}
		}
		nums[v.Name][strings.TrimLeft(v.Digits, "0")] = true
		out = append(out, domain.Child{Name: k, IsItem: true})
		if len(nums[v.Name]) == 2 {
			if full++; full == 2 {
				return out
			}
		}
	}
	return out
}

// noRevisionKeys says why Versions does not apply when none of the keys
// seen (whole keys, or the children of the partition's top) can begin
// like a revision key: v0_Audit, v_1, or the table's version pattern. ""
// when one can, or when the pattern begins with a placeholder (any key
// might be a revision).
func noRevisionKeys(pattern *domain.VersionPattern, seen []domain.Child) string {
	prefix, like := revisionPrefix(pattern)
	if prefix == "" {
		return ""
	}
	for _, c := range seen {
		if beginsLikeRevision(c, prefix) {
			return ""
		}
	}
	if pattern == nil && nameFirstWitness(seen) != nil {
		return "" // DOC#d1#v1…: the mode finds the family itself
	}
	return fmt.Sprintf("no sort key here begins with %s (%s)", common.Sanitize(prefix), common.Sanitize(like))
}

// off is why a mode does not apply here ("" when it does).
func (p place) off(name string) string {
	for _, t := range p.modes() {
		if t.Name == name {
			return t.Off
		}
	}
	return ""
}

// refuse says in the status bar why a mode does not apply, as the mode
// keys do: nothing is read.
func refuse(name, why string) tea.Cmd {
	return func() tea.Msg { return common.NoticeMsg{Text: "No " + name + " mode here", Why: why} }
}

// page opens the place in a mode; nil when that mode is off.
func (p place) page(name string) common.Page {
	tabs := p.modes()
	for i, m := range Modes {
		if m.Name == name && tabs[i].Off == "" {
			return m.Open(p)
		}
	}
	return nil
}

// sortKeys are the sort keys of loaded items, for the Time tab's verdict.
func sortKeys(items []dynamo.Item, name string) []domain.KeyValue {
	if name == "" {
		return nil
	}
	var out []domain.KeyValue
	for _, it := range items[:min(len(items), dynamo.SampleKeys)] {
		if kv, ok := dynamo.KeyValueOf(it[name]); ok {
			out = append(out, kv)
		}
	}
	return out
}

// place is the level's place for a view: what the walk saw of its keys
// comes from what reads remembered (placeSeen), so a frame never walks
// every child.
func (t *Tree) place() place { return t.placeSeen(false) }

// placeSeen is the place; with all, also every child when the whole top
// level is walked (for remember, as reads arrive).
func (t *Tree) placeSeen(all bool) place {
	p := place{c: t.c, info: t.info, pk: t.req.PK, prefix: t.req.Prefix, index: t.req.Index, sharded: len(t.shards) > 0}
	for _, k := range t.sample {
		p.sample = append(p.sample, domain.KeyValue{Type: t.req.Key.SK.Type, Text: k})
	}
	if all && t.req.Prefix == "" && t.list.Whole() {
		p.seen = make([]domain.Child, 0, len(t.children))
		for _, c := range t.children {
			p.seen = append(p.seen, c.Child)
		}
	}
	return p
}

// partitionSteps are the breadcrumb's steps to a partition: its table,
// the index it is read through (a partition of an index is none of the
// table's: Locations › BAYVIEW named a partition the table does not
// have), and its key. Every mode of a partition starts with them.
func partitionSteps(table, index, pk string) []string {
	out := []string{table}
	if index != "" {
		out = append(out, "index "+index)
	}
	return append(out, pk)
}

func (t *Tree) Modes() []common.ModeTab          { return t.place().modes() }
func (t *Tree) Place() string                    { return t.place().id() }
func (t *Tree) ModePage(name string) common.Page { return t.place().page(name) }

// place is the list's place for a view: every key read (placeSeen) is
// taken once as reads arrive and remembered, never on each frame, which
// walked 100,000 rows a keypress.
func (p *Items) place() place { return p.placeSeen(false) }

// placeSeen is the place; with all, also every sort key when the list is
// read to its end and every row held (for remember, as reads arrive).
func (p *Items) placeSeen(all bool) place {
	q := p.pg.Query
	pl := place{c: p.c, info: p.info, pk: q.PK, index: q.Index, sample: sortKeys(p.pg.Head.First(50), q.SKName)}
	if q.SK.Op == domain.SKBeginsWith {
		pl.prefix = q.SK.A.Text + string(q.SK.A.Bytes)
	}
	// Every key, only when every row is read and held (none let go).
	if all && q.SK.Op == domain.SKNone && q.Filter == nil && q.SKName != "" && p.pg.Done() && p.pg.HeldRows() == p.pg.ListedRows() {
		pl.seen = []domain.Child{}
		p.pg.Head.Each(func(it dynamo.Item) bool {
			if kv, ok := dynamo.KeyValueOf(it[q.SKName]); ok && kv.Type == domain.TypeS {
				pl.seen = append(pl.seen, domain.Child{Name: kv.Text, IsItem: true})
			}
			return true
		})
	}
	return pl
}

func (p *Items) Modes() []common.ModeTab          { return p.place().modes() }
func (p *Items) Place() string                    { return p.place().id() }
func (p *Items) ModePage(name string) common.Page { return p.place().page(name) }

func (v *Versions) place() place {
	return place{c: v.c, info: v.info, pk: v.req.PK}
}

func (v *Versions) Modes() []common.ModeTab          { return v.place().modes() }
func (v *Versions) Place() string                    { return v.place().id() }
func (v *Versions) ModePage(name string) common.Page { return v.place().page(name) }

func (t *Time) place() place {
	return place{c: t.c, info: t.info, pk: t.base.PK, index: t.base.Index, prefix: t.under, seen: t.seen}
}

// noteGreatestKey takes what the first page, newest first over the whole
// partition, says of revision keys: every key is at most its first, so
// when that sorts before the revision prefix (2026-10-31T… before v) no
// key can begin with it, and Versions is dimmed without a read, as it is
// where the tree walked the keys (the tour opens AuditLog in Time).
func (t *Time) noteGreatestKey() {
	q := t.pg.Query
	if t.seen != nil || q.SK.Op != domain.SKNone || q.Filter != nil || !q.Reverse || q.SKName == "" {
		return
	}
	prefix, _ := revisionPrefix(t.c.Tables[t.info.Name].Versions())
	first := t.pg.Head.First(1)
	switch {
	case prefix == "":
		return
	case len(first) == 0:
		if !t.pg.Done() {
			return
		}
		t.seen = []domain.Child{} // an empty partition
	default:
		kv, ok := dynamo.KeyValueOf(first[0][q.SKName])
		switch {
		case !ok || kv.Type != domain.TypeS:
			return
		case kv.Text < prefix:
			t.seen = []domain.Child{}
		case strings.HasPrefix(kv.Text, prefix):
			t.seen = []domain.Child{{Name: kv.Text, IsItem: true}} // one can: Versions applies
		default:
			return // keys past the prefix: some may begin with it
		}
	}
	t.place().remember()
}

func (t *Time) Modes() []common.ModeTab {
	tabs := t.place().modes()
	for i := range tabs {
		if tabs[i].Name == ModeTime && t.noTime != "" {
			tabs[i].Off = t.noTime
		}
	}
	return tabs
}
func (t *Time) Place() string                    { return t.place().id() }
func (t *Time) ModePage(name string) common.Page { return t.place().page(name) }

// modeHelp are the mode keys for the full help: tab and shift+tab where
// another mode applies, and the key of each mode that applies here (one
// that does not is left out; the help says why below).
func modeHelp(k keymap.KeyMap, tabs []common.ModeTab, cur string) []key.Binding {
	out := modeStep(k, tabs, cur)
	if len(out) > 0 {
		out = append(out, k.PrevMode)
	}
	for _, t := range tabs {
		if t.Off == "" {
			out = append(out, t.Key)
		}
	}
	return out
}

// modeStep is tab, for the help line, where it acts: where another mode
// than cur applies.
func modeStep(k keymap.KeyMap, tabs []common.ModeTab, cur string) []key.Binding {
	for _, t := range tabs {
		if t.Name != cur && t.Off == "" {
			return []key.Binding{k.NextMode}
		}
	}
	return nil
}

// stepHelp drops tab from a help line where no other mode applies: a key
// is shown only where it acts.
func stepHelp(k keymap.KeyMap, tabs []common.ModeTab, cur string, bs []key.Binding) []key.Binding {
	if len(modeStep(k, tabs, cur)) > 0 {
		return bs
	}
	return slices.DeleteFunc(bs, func(b key.Binding) bool { return slices.Equal(b.Keys(), k.NextMode.Keys()) })
}

// notice says in the status bar what a key did.
func notice(text string) tea.Cmd {
	return func() tea.Msg { return common.NoticeMsg{Text: text} }
}
