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
// partition's format. Its newest keys are the first page's, never read
// twice.
func (t *Time) readSample(first dynamo.FirstKeys) tea.Cmd {
	ctx, req := t.sampling.Start(t.c)
	return sampleTimeKeys(ctx, t.c.Client, t.id, req, t.base, t.tableKeys(), first)
}

func sampleTimeKeys(ctx context.Context, c dynamo.Client, page, req int, q domain.KeyQuery, tableKeys *dynamo.KeySchema, first dynamo.FirstKeys) tea.Cmd {
	return func() tea.Msg {
		s, _, err := dynamo.DetectTimeKeysFrom(ctx, c, q, tableKeys, &first)
		return timeSampledMsg{page: page, req: req, sample: s, err: err}
	}
}

// firstKeys are the sort keys of the first page, newest first, as the
// sample's newest keys; more when the partition goes on past them.
func (t *Time) firstKeys(more bool) dynamo.FirstKeys {
	f := dynamo.FirstKeys{Number: t.skNumber(), More: more}
	for _, it := range t.pg.Head.First(t.pg.Head.Len()) {
		if kv, ok := dynamo.KeyValueOf(it[t.base.SKName]); ok {
			f.Keys = append(f.Keys, kv.Text)
		}
	}
	return f
}

// timeSample is the sample detection read: once read, else the first
// page's newest keys (the sample's read failed), known whole nowhere.
func (t *Time) timeSample() dynamo.TimeSample {
	if t.sampled != nil {
		return *t.sampled
	}
	f := t.firstKeys(true)
	return dynamo.TimeSample{Keys: f.Keys[:min(len(f.Keys), dynamo.TimeSampleKeys)], Number: f.Number}
}

// sampleKeys are the keys detection reads.
func (t *Time) sampleKeys() []string { return t.timeSample().Keys }
