package dynamo

import (
	"context"
	"strings"
)

// MaskedStreams is a Streams client read through a mask: Changes given
// one reads the real records, asked for by a request given in stand-ins
// (the partition, the item or the prefix as they were shown), and hands on
// every change as shownChange shows it. Its Streams calls are sc's own.
type MaskedStreams struct {
	StreamsClient
	Masked *Masked
	// Table is the table whose changes are read; "": each request's
	// stream's own (the explorer's one Streams client reads every table's).
	Table string
}

// Streams is sc read through m for table's changes: sc itself where m
// is nil or masks nothing of table. Table "" reads every table's changes
// through m, each masked as its table is (the stream's ARN names it).
func (m *Masked) Streams(sc StreamsClient, table string) StreamsClient {
	if m == nil || sc == nil || (table != "" && !m.Masks(table)) {
		return sc
	}
	return &MaskedStreams{StreamsClient: sc, Masked: m, Table: table}
}

// streamTable is the table a stream's ARN names
// (arn:aws:dynamodb:REGION:ACCOUNT:table/NAME/stream/LABEL), "" when it
// names none.
func streamTable(arn string) string {
	_, rest, ok := strings.Cut(arn, ":table/")
	if !ok {
		return ""
	}
	name, _, ok := strings.Cut(rest, "/stream/")
	if !ok {
		return ""
	}
	return name
}

// changes is Changes below the mask: the request's keys swapped back for
// the real ones (a record's keys are compared with them), the changes
// shown in stand-ins.
func (ms *MaskedStreams) changes(ctx context.Context, req ChangesRequest, emit func(Change) error) (ChangesStats, error) {
	m, table := ms.Masked, ms.Table
	if table == "" {
		if table = streamTable(req.Stream.ARN); table == "" {
			// Which mask applies is unknown: read nothing rather than
			// show what a mask may hide.
			return ChangesStats{}, Errorf("changes", KindValidation, "read the changes of one table's stream",
				"the stream %q names no table, so its changes cannot be masked", req.Stream.ARN)
		}
		if !m.Masks(table) {
			return Changes(ctx, ms.StreamsClient, req, emit)
		}
	}
	if req.PK != nil {
		pk := m.KeyValue(*req.PK)
		req.PK = &pk
	}
	if req.SK != nil {
		sk := m.KeyValue(*req.SK)
		req.SK = &sk
	}
	req.Prefix = m.Text(req.Prefix)
	return Changes(ctx, ms.StreamsClient, req, func(c Change) error { return emit(m.shownChange(table, c)) })
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
