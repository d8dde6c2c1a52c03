package pages

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// VersionsProbedMsg answers ProbeVersions for a place: whether a sort key
// there begins like a revision key, and the first that does.
type VersionsProbedMsg struct {
	Place string
	Found bool
	Key   string
	Err   error
	// Asked is the key that asked (3, or tab stepping onto Versions).
	Asked tea.KeyPressMsg
}

// placeOf is the place a mode page shows.
func placeOf(pg common.Page) (place, bool) {
	switch v := pg.(type) {
	case *Tree:
		return v.place(), true
	case *Items:
		return v.place(), true
	case *Time:
		return v.place(), true
	}
	return place{}, false
}

// ProbeVersions is the one read that settles whether Versions applies
// where nothing read so far does (items not all loaded, a filtered list):
// keys only, Limit 1, begins_with the revision prefix, half a read unit.
// Its answer opens Versions or says why not, and the tab stays decided:
// the same whichever way the place was reached (25.11). nil when the tab
// is already decided.
func ProbeVersions(pg common.Page) tea.Cmd {
	p, ok := placeOf(pg)
	if !ok {
		return nil
	}
	p = p.known()
	key, err := p.info.KeyFor(p.index)
	prefix, _ := revisionPrefix(p.c.Tables[p.info.Name].Versions())
	if err != nil || key.SK == nil || key.SK.Type != domain.TypeS || p.seen != nil || p.prefix != "" || p.sharded || prefix == "" {
		return nil
	}
	req := dynamo.PageRequest{Limit: 1, KeysOnly: true, Query: domain.KeyQuery{Table: p.info.Name, Index: p.index, PKName: key.PK.Name, PK: p.pk,
		SKName: key.SK.Name, SK: domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S(prefix)}}}
	if p.index != "" {
		req.TableKeys = &p.info.Key
	}
	// The explorer's context: one Limit-1 read, answered or failed, that
	// nothing else waits on (a request here would be a cancel never called).
	ctx, client, id, skName := p.c.Context(), p.c.Client, p.id(), key.SK.Name
	return func() tea.Msg {
		page, err := dynamo.QueryPage(ctx, client, req)
		msg := VersionsProbedMsg{Place: id, Err: err}
		if err == nil && len(page.Items) > 0 {
			if kv, ok := dynamo.KeyValueOf(page.Items[0][skName]); ok {
				msg.Found, msg.Key = true, kv.Text
			}
		}
		return msg
	}
}

// NoteVersionsProbe keeps a probe's answer for every mode of the place pg
// shows; false when pg shows another place now (the user moved on) or the
// read failed.
func NoteVersionsProbe(pg common.Page, msg VersionsProbedMsg) bool {
	p, ok := placeOf(pg)
	if !ok || msg.Err != nil || p.id() != msg.Place {
		return false
	}
	p.seen = []domain.Child{}
	if msg.Found {
		p.seen = []domain.Child{{Name: msg.Key, IsItem: true}}
	}
	p.remember()
	return true
}
