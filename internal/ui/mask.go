package ui

import (
	"sort"
	"strings"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
)

// masking wraps the explorer's client when anything is masked (--mask, or
// a table's mask = [...]): every table's mask is the flag's joined with
// the table's own, all drawing on one set of stand-ins so that a value
// reads the same in every table. Nil when nothing is masked.
func masking(cfg Config) (*dynamo.Masked, error) {
	flagged, err := domain.ParseMask(cfg.Mask)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(cfg.Tables))
	for name := range cfg.Tables {
		names = append(names, name)
	}
	sort.Strings(names)
	root := flagged
	perTable := map[string]*domain.Mask{}
	for _, name := range names {
		own, err := domain.ParseMask(cfg.Tables[name].Mask)
		if err != nil {
			return nil, err
		}
		if own == nil {
			continue
		}
		if root == nil {
			root = own
		}
		perTable[name] = flagged.Union(own).Share(root)
	}
	if root == nil {
		return nil, nil
	}
	forTable := func(table string) *domain.Mask {
		if m, ok := perTable[table]; ok {
			return m
		}
		return flagged
	}
	delim := func(table string) string {
		if table == cfg.Table && cfg.Delimiter != "" && cfg.Delimiter != domain.NoDelimiter {
			return cfg.Delimiter
		}
		return cfg.Tables[table].Delimiter
	}
	return dynamo.NewMasked(cfg.Client, forTable, delim), nil
}

// maskBadge is the status bar's MASKED badge, with a note naming masked
// attributes that no item read so far has (a typo shows there).
func (m *Model) maskBadge() (badge, note string) {
	if m.masked == nil {
		return "", ""
	}
	table := m.pageTable()
	if table != "" && !m.masked.Masks(table) {
		return "", ""
	}
	if unseen := m.masked.Unseen(table); len(unseen) > 0 {
		note = "mask: no item read has " + strings.Join(unseen, ", ")
	}
	return "MASKED", note
}

// maskNote is the status bar's note on a mask naming what no item has.
func (m *Model) maskNote() string {
	_, note := m.maskBadge()
	return note
}

// maskDeepLink shows the deep link's partition and prefix as stand-ins
// (the masked client asks for the real ones).
func (m *Model) maskDeepLink(info dynamo.TableInfo, key dynamo.KeySchema, pk domain.KeyValue) domain.KeyValue {
	if m.masked == nil {
		return pk
	}
	if m.cfg.Prefix != "" && key.SK != nil {
		m.cfg.Prefix = m.masked.KeyText(info.Name, key.SK.Name, m.cfg.Prefix)
	}
	if pk.Type == domain.TypeB {
		return pk
	}
	pk.Text = m.masked.KeyText(info.Name, key.PK.Name, pk.Text)
	return pk
}
