package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

// tableMask is --mask joined with the table's mask = [...] from the
// configuration, or nil when neither names anything.
func (g *globals) tableMask(table string) (*domain.Mask, error) {
	flagged, err := domain.ParseMask(g.mask)
	if err != nil {
		return nil, usage("write --mask Email,Owner.phone", "--%v", err)
	}
	conf, err := g.loadConfig()
	if err != nil {
		return nil, err
	}
	fromConf, _ := domain.ParseMask(conf.Table(table).Mask) // ParseConfig checked it
	return flagged.Union(fromConf), nil
}

// keyDelims are the key attributes of a table and of the index read (if
// any), with the delimiter their values are masked around: delim, else #.
func keyDelims(info dynamo.TableInfo, index, delim string) map[string]string {
	if delim == "" {
		delim = "#"
	}
	out := map[string]string{}
	add := func(key dynamo.KeySchema) {
		out[key.PK.Name] = delim
		if key.SK != nil {
			out[key.SK.Name] = delim
		}
	}
	add(info.Key)
	if key, err := info.KeyFor(index); err == nil {
		add(key)
	}
	return out
}

// maskedQuery is q as it may be shown: its key values masked where the
// mask covers the key attributes. Requests use q itself.
func maskedQuery(q domain.KeyQuery, m *domain.Mask, delims map[string]string) domain.KeyQuery {
	if m == nil {
		return q
	}
	mask := func(attr string, v domain.KeyValue) domain.KeyValue {
		if !m.Whole(attr) {
			return v
		}
		return domain.S(m.Key(v.Text, delims[attr]))
	}
	q.Filter = m.Filter(q.Filter)
	q.PK = mask(q.PKName, q.PK)
	q.SK.A = mask(q.SKName, q.SK.A)
	q.SK.B = mask(q.SKName, q.SK.B)
	return q
}

// shownFilter is a filter as stderr may say it: the values typed against
// masked attributes are stand-ins (the typed text itself is never shown).
func shownFilter(f domain.FilterNode, m *domain.Mask) string {
	if f == nil {
		return ""
	}
	return export.OneLine(domain.FormatFilter(m.Filter(f)))
}

// noteUnseenMask says, once a read is done, which masked attributes never
// appeared in the items written: a note, not an error (a typo shows
// here). Under a filter only the matches were seen, so the note speaks of
// them; with no item written it says nothing, having nothing to go by.
func noteUnseenMask(w io.Writer, m *domain.Mask, seen map[string]bool, filtered bool, written int) {
	if written == 0 {
		return
	}
	var unseen []string
	for _, a := range m.Attributes() {
		if !seen[a] {
			unseen = append(unseen, export.OneLine(a))
		}
	}
	what := "no item read has it"
	if filtered {
		what = "no item that matched has it"
	}
	if len(unseen) > 0 {
		fmt.Fprintf(w, "note: --mask %s: %s\n", strings.Join(unseen, ", "), what)
	}
}

// maskVersionRows masks what versions writes: item names (segments of the
// sort key) and the current copy's key, whose version marker stays
// readable (v0_‹m1›), in the versioned-items rows; and, for one item's
// revisions, every revision as an item.
func maskVersionRows(rows dynamo.Rows, m *domain.Mask, info dynamo.TableInfo, delim string) dynamo.Rows {
	if m == nil || info.Key.SK == nil {
		return rows
	}
	sk := info.Key.SK.Name
	delims := keyDelims(info, "", delim)
	out := rows
	out.Rows = make([]any, len(rows.Rows))
	for i, r := range rows.Rows {
		switch x := r.(type) {
		case dynamo.HistoryRow:
			if x.Current != nil {
				cur := maskVersionKey(m, sk, *x.Current, x.Name, delim)
				x.Current = &cur
			}
			x.Name = m.KeyIf(sk, x.Name, delim)
			out.Rows[i] = x
		case map[string]any:
			cp := make(map[string]any, len(x))
			for k, v := range x {
				cp[k] = v
			}
			out.Rows[i] = m.Plain(cp, delims)
		default:
			out.Rows[i] = r
		}
	}
	return out
}

// maskHistoryDoc masks one versioned item of versions' JSON document: its
// name, every revision's sort key (the version marker stays readable) and
// every copy as an item.
func maskHistoryDoc(doc historyJSON, m *domain.Mask, info dynamo.TableInfo, delim string) historyJSON {
	if m == nil || info.Key.SK == nil {
		return doc
	}
	sk := info.Key.SK.Name
	delims := keyDelims(info, "", delim)
	item := func(it map[string]any) map[string]any {
		if it == nil {
			return nil
		}
		cp := make(map[string]any, len(it))
		for k, v := range it {
			cp[k] = v
		}
		return m.Plain(cp, delims)
	}
	doc.Current = item(doc.Current)
	versions := make([]versionJSON, len(doc.Versions))
	for i, v := range doc.Versions {
		versions[i] = versionJSON{Version: v.Version, SK: maskVersionKey(m, sk, v.SK, doc.Name, delim), Item: item(v.Item)}
	}
	doc.Versions, doc.Name = versions, m.KeyIf(sk, doc.Name, delim)
	return doc
}

// maskVersionKey masks a revision's sort key: the item's name in it, so
// the version marker stays readable (v0_‹m1›); the whole key where the name
// is not its end.
func maskVersionKey(m *domain.Mask, sk, key, name, delim string) string {
	if base, ok := strings.CutSuffix(key, name); ok && name != "" {
		return base + m.KeyIf(sk, name, delim)
	}
	return m.KeyIf(sk, key, delim)
}
