package pages

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"fmt"
	"github.com/dynascope/dynascope/keymap"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/model"
	"github.com/dynascope/dynascope/ui/common"
)

// The partition's modes, in UX.md's order.
const (
	ModeTree     = "Tree"
	ModeItems    = "Items"
	ModeVersions = "Versions"
	ModeTime     = "Time"
)

// place is what a mode page shows, whatever its mode: one partition of a
// table (or index), under a sort-key prefix.
type place struct {
	c      *common.Common
	info   dynamo.TableInfo
	pk     model.KeyValue
	prefix string
	index  string
	// sample are sort keys already loaded (items' keys), which decide
	// whether Time applies without a read; nil: unknown.
	sample  []model.KeyValue
	sharded bool
}

func (p place) id() string {
	return fmt.Sprintf("%s\x00%s\x00%s\x00%s", p.info.Name, p.index, keyArg(p.pk), p.prefix)
}

// modes says which modes apply to the place, and why not when not. It
// reads nothing: a mode that cannot apply must cost nothing to find out.
func (p place) modes() []common.ModeTab {
	key, err := p.info.KeyFor(p.index)
	if err != nil {
		key = p.info.Key
	}
	tabs := []common.ModeTab{{Name: ModeTree}, {Name: ModeItems}, {Name: ModeVersions}, {Name: ModeTime}}
	switch {
	case key.SK == nil:
		tabs[0].Off = "no sort key: nothing to drill"
	case key.SK.Type == model.TypeN:
		tabs[0].Off = "a number sort key has no prefixes to drill"
	}
	switch {
	case key.SK == nil || key.SK.Type != model.TypeS:
		tabs[2].Off = "versions live in string sort keys (v0_Audit, v1_Audit…)"
	case p.prefix != "":
		tabs[2].Off = "versions are listed for the whole partition: esc to its top"
	}
	switch {
	case key.SK == nil:
		tabs[3].Off = "no sort key to read as time"
	case p.c.Tables[p.info.Name].TimeFormat != "":
	case len(p.sample) > 0 && !readsAsTime(p.sample):
		tabs[3].Off = fmt.Sprintf("the %s loaded here %s not read as time", plural(len(p.sample), "sort key", "sort keys"), map[bool]string{true: "does", false: "do"}[len(p.sample) == 1])
	}
	if p.sharded {
		for i := 1; i < len(tabs); i++ {
			tabs[i].Off = "open one shard (/ then its key) for its items, versions and times"
		}
	}
	return tabs
}

// readsAsTime reports whether any of the loaded sort keys reads as time.
func readsAsTime(keys []model.KeyValue) bool {
	for _, k := range keys[:min(len(keys), 50)] {
		if _, ok := model.DetectTime([]string{k.Text}, k.Type == model.TypeN); ok {
			return true
		}
	}
	return false
}

// page opens the place in a mode; nil when that mode is off.
func (p place) page(name string) common.Page {
	for _, t := range p.modes() {
		if t.Name == name && t.Off != "" {
			return nil
		}
	}
	switch name {
	case ModeTree:
		opts := TreeOptionsFor(p.c, p.info.Name)
		opts.Index = p.index
		return NewTree(p.c, p.info, p.pk, p.prefix, opts)
	case ModeItems:
		return NewItemsUnder(p.c, p.info, p.pk, p.prefix, p.index)
	case ModeVersions:
		return NewVersionsOn(p.c, p.info, p.pk, p.index)
	case ModeTime:
		return NewTime(p.c, p.info, p.pk, p.index, p.c.Now)
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return common.Thousands(n) + " " + many
}

// sortKeys are the sort keys of loaded items, for the Time tab's verdict.
func sortKeys(items []dynamo.Item, name string) []model.KeyValue {
	if name == "" {
		return nil
	}
	var out []model.KeyValue
	for _, it := range items[:min(len(items), 50)] {
		if kv, ok := dynamo.KeyValueOf(it[name]); ok {
			out = append(out, kv)
		}
	}
	return out
}

func (t *Tree) place() place {
	p := place{c: t.c, info: t.info, pk: t.req.PK, prefix: t.req.Prefix, index: t.req.Index, sharded: len(t.shards) > 0}
	for _, ch := range t.children {
		if ch.IsItem && t.loaded {
			p.sample = append(p.sample, model.KeyValue{Type: t.req.Key.SK.Type, Text: t.req.Prefix + ch.Name})
		}
	}
	return p
}

func (t *Tree) Modes() []common.ModeTab          { return t.place().modes() }
func (t *Tree) Place() string                    { return t.place().id() }
func (t *Tree) ModePage(name string) common.Page { return t.place().page(name) }

func (p *Items) place() place {
	q := p.pg.query
	pl := place{c: p.c, info: p.info, pk: q.PK, index: q.Index, sample: sortKeys(p.pg.head.first(50), q.SKName)}
	if q.SK.Op == model.SKBeginsWith {
		pl.prefix = q.SK.A.Text
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
	return place{c: t.c, info: t.info, pk: t.base.PK, index: t.base.Index}
}

func (t *Time) Modes() []common.ModeTab {
	tabs := t.place().modes()
	if t.noTime != "" {
		tabs[3].Off = t.noTime
	}
	return tabs
}
func (t *Time) Place() string                    { return t.place().id() }
func (t *Time) ModePage(name string) common.Page { return t.place().page(name) }

// modeHelp are the mode keys for the full help: tab and shift+tab, and
// the number of each mode that applies here (one that does not is left
// out; the help says why below).
func modeHelp(k keymap.KeyMap, tabs []common.ModeTab) []key.Binding {
	out := []key.Binding{k.NextMode, k.PrevMode}
	for i, b := range []key.Binding{k.TreeMode, k.ItemsMode, k.Versions, k.TimeMode} {
		if i < len(tabs) && tabs[i].Off == "" {
			out = append(out, b)
		}
	}
	return out
}

// notice says in the status bar what a key did.
func notice(text string) tea.Cmd {
	return func() tea.Msg { return common.NoticeMsg{Text: text} }
}
