package dynamo

import "context"

// MaskedStreams is a Streams client read through a mask: Changes given
// one reads the real records, asked for by a request given in stand-ins
// (the partition, the item or the prefix as they were shown), and hands on
// every change as shownChange shows it. Its Streams calls are sc's own.
type MaskedStreams struct {
	StreamsClient
	Masked *Masked
	Table  string
}

// Streams is sc read through m for table's changes: sc itself where m
// is nil or masks nothing of table.
func (m *Masked) Streams(sc StreamsClient, table string) StreamsClient {
	if m == nil || sc == nil || !m.Masks(table) {
		return sc
	}
	return &MaskedStreams{StreamsClient: sc, Masked: m, Table: table}
}

// changes is Changes below the mask: the request's keys swapped back for
// the real ones (a record's keys are compared with them), the changes
// shown in stand-ins.
func (ms *MaskedStreams) changes(ctx context.Context, req ChangesRequest, emit func(Change) error) (ChangesStats, error) {
	m := ms.Masked
	if req.PK != nil {
		pk := m.KeyValue(*req.PK)
		req.PK = &pk
	}
	if req.SK != nil {
		sk := m.KeyValue(*req.SK)
		req.SK = &sk
	}
	req.Prefix = m.Text(req.Prefix)
	return Changes(ctx, ms.StreamsClient, req, func(c Change) error { return emit(m.shownChange(ms.Table, c)) })
}

// shownChange is a change as it may be shown: its keys and images masked
// as the client masks items (values only; the names changed stay).
func (m *Masked) shownChange(table string, c Change) Change {
	if m == nil {
		return c
	}
	c.Keys, c.Old, c.New = m.maybe(table, c.Keys), m.maybe(table, c.Old), m.maybe(table, c.New)
	return c
}

func (m *Masked) maybe(table string, it Item) Item {
	if it == nil {
		return nil
	}
	return m.item(table, it)
}
