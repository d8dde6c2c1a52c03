package pages

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
)

// timeSampledMsg is the sample of sort keys the Time mode detects the
// format from, as dynamo.DetectTimeKeys read it.
type timeSampledMsg struct {
	page, req int
	sample    dynamo.TimeSample
	err       error
}

func (m timeSampledMsg) PageID() int { return m.page }

// readSample reads the keys headless detection reads (range, --time-format
// checks): the same sample, so the explorer and the command agree on a
// partition's format.
func (t *Time) readSample() tea.Cmd {
	ctx, req := t.sampling.start(t.c)
	return sampleTimeKeys(ctx, t.c.Client, t.id, req, t.base, t.tableKeys())
}

func sampleTimeKeys(ctx context.Context, c dynamo.Client, page, req int, q domain.KeyQuery, tableKeys *dynamo.KeySchema) tea.Cmd {
	return func() tea.Msg {
		s, _, err := dynamo.DetectTimeKeys(ctx, c, q, tableKeys)
		return timeSampledMsg{page: page, req: req, sample: s, err: err}
	}
}

// sampleKeys are the keys detection reads: the sample once read, else the
// newest keys loaded (the first page, which held the whole partition).
func (t *Time) sampleKeys() []string {
	if t.sample != nil {
		return t.sample
	}
	var keys []string
	for _, it := range t.pg.head.first(20) {
		if kv, ok := dynamo.KeyValueOf(it[t.base.SKName]); ok {
			keys = append(keys, kv.Text)
		}
	}
	return keys
}
