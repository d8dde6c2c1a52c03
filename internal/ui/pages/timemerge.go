package pages

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// prefixesFoundMsg is the prefixes the time follows in a partition.
type prefixesFoundMsg struct {
	page, req int
	prefixes  []string
	left      []string // read whole by the walk, no time in them: not queried
	err       error
}

func (m prefixesFoundMsg) PageID() int { return m.page }

func findTimePrefixes(ctx context.Context, c dynamo.Client, page, req int, r dynamo.ChildrenRequest, enc domain.TimeEncoding, sample dynamo.TimeSample) tea.Cmd {
	return func() tea.Msg {
		prefixes, left, _, err := dynamo.TimePrefixesLeft(ctx, c, r, enc, sample)
		return prefixesFoundMsg{page: page, req: req, prefixes: prefixes, left: left, err: err}
	}
}

// findPrefixes starts the search for the prefixes before the time, for a
// range typed without one; the range runs when they are found.
func (t *Time) findPrefixes(r domain.TimeRange, enc domain.TimeEncoding, text string, keep func(dynamo.Item) bool) tea.Cmd {
	t.waiting = &pendingRange{r: r, enc: enc, text: text, keep: keep}
	if t.prefixes != nil {
		return t.runMerged(t.pg.Query)
	}
	key, _ := t.info.KeyFor(t.base.Index)
	ctx, req := t.find.Start(t.c)
	return findTimePrefixes(ctx, t.c.Client, t.id, req, dynamo.ChildrenRequest{Table: t.info.Name, Index: t.base.Index, Key: key, TableKeys: t.tableKeys(), PK: t.base.PK}, t.enc, t.timeSample())
}

// pendingRange is a range typed without a prefix, merged across them all.
type pendingRange struct {
	r    domain.TimeRange
	enc  domain.TimeEncoding // the page's, its bounds as wide as the range's ids (Snowflake ids: FitSnowflakes)
	text string
	keep func(dynamo.Item) bool // a range read wider than asked: its own rows (Time.inRange)
}

func (t *Time) prefixesFound(msg prefixesFoundMsg) tea.Cmd {
	if !t.find.Done(msg.req) {
		return nil
	}
	if msg.err != nil {
		// Shown where the rows would be, not only in the status bar; r
		// looks for the prefixes again.
		t.pg.Fail.Fail(msg.err)
		return common.Report(msg.err, false, t.id)
	}
	if len(msg.prefixes) == 0 {
		t.inputErr = fmt.Sprintf("no prefix before the time found here: type one first, e.g. amsg%s last 24h", t.enc.Sep)
		return nil
	}
	t.prefixes = msg.prefixes
	t.noteLeft(msg.left)
	if t.under != "" {
		t.prefixes = nil // the tree's prefix kept: only the prefixes beneath it
		for _, p := range msg.prefixes {
			if strings.HasPrefix(p, t.under) {
				t.prefixes = append(t.prefixes, p)
			}
		}
		if len(t.prefixes) == 0 {
			t.prefixes = nil
			t.inputErr = "no prefix before the time found under " + common.Sanitize(t.under)
			return nil
		}
	}
	return t.runMerged(t.pg.Query)
}

// noteLeft adds to what the format line says ranges leave out the
// prefixes the walk for the time prefixes read whole with no time in
// them (account# beside Event#{time}), not queried: as range leaves
// them out, said, where they were read as a third prefix for nothing.
func (t *Time) noteLeft(left []string) {
	var named []string
	for _, p := range left {
		if t.under == "" || strings.HasPrefix(p, t.under) {
			if !strings.Contains(t.skipped, p) {
				named = append(named, p)
			}
		}
	}
	if len(named) == 0 {
		return
	}
	note := fmt.Sprintf("%s read whole %s no time: %s", common.Plural(len(named), "prefix", "prefixes"),
		map[bool]string{true: "holds", false: "hold"}[len(named) == 1], strings.Join(named, ", "))
	if t.skipped != "" {
		note = t.skipped + "; " + note
	}
	t.skipped = note
}

// runMerged lists the waiting range across every prefix, newest first (or
// oldest, as q is ordered), with q's filter.
func (t *Time) runMerged(q domain.KeyQuery) tea.Cmd {
	base := t.base
	base.Reverse, base.Filter = q.Reverse, q.Filter
	// The prefixes are those under the tree's (prefixesFound): each
	// Query's condition is its own, and the tree's begins_with, left on
	// the base, would keep the merge from reading them in one stretch.
	base.SK = domain.SKCondition{}
	m, err := dynamo.NewMergedRangeFrom(t.c.Client, base, t.prefixes, t.waiting.r, t.waiting.enc, list.MergePage, t.tableKeys(), t.timeSample())
	if err != nil {
		t.inputErr = err.Error()
		return nil
	}
	m.Keep = t.waiting.keep
	t.rangeTxt = t.waiting.text
	t.rangeUnder, t.mergedUnder = false, t.under != ""
	t.times, t.spark = nil, sparkCache{}
	t.stats.reset()
	t.grid.SetCursor(0)
	cmd := t.pg.RestartMerged(base, m)
	t.refresh()
	return cmd
}
