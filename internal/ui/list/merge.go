package list

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// MergePage is how many items a merged range takes a read, and how
// many each prefix's Query asks for: about a screen.
const MergePage = 50

// mergedPage takes the next items of a merged range, on a copy of the
// merge that the answer carries back: the page's own merge is never
// changed by the command.
func mergedPage(ctx context.Context, page, req int, m *dynamo.MergedRange, n int) tea.Cmd {
	return func() tea.Msg {
		before, scanned := m.Cost, m.Scanned
		items, err := m.Take(ctx, n)
		spent := dynamo.Cost{Requests: m.Cost.Requests - before.Requests, RCU: m.Cost.RCU - before.RCU,
			Billed: m.Cost.Billed - before.Billed, Latency: m.Cost.Latency - before.Latency}
		spent.Estimated = spent.Billed > spent.RCU // as billed: each read's at least what the server said
		p := dynamo.Page{Items: items, Cost: spent, Scanned: m.Scanned - scanned}
		if !m.Done() {
			p.LastKey = dynamo.Item{"": nil} // more to take: what the pager reads as not done
		}
		return PageLoadedMsg{page: page, req: req, Result: p, err: err, merge: m}
	}
}

// tookMerge keeps the merge an answer carried back: the tail's when the
// answer was a read from the end (G), the head's otherwise.
func (p *Pager) tookMerge(m *dynamo.MergedRange) {
	if p.Tail.reading {
		p.Tail.merge = m
		return
	}
	p.Merge = m
}

// tailTake is how many items a read from a merged range's end takes: the
// screen's worth its queries ask for (G: one request a prefix), or the
// head's page under a filter, whose queries read whole pages.
func (p *Pager) tailTake() int {
	if p.Tail.limit > 0 {
		return int(p.Tail.limit)
	}
	return MergePage
}

// RestartMerged lists a merged range from its start.
func (p *Pager) RestartMerged(q domain.KeyQuery, m *dynamo.MergedRange) tea.Cmd {
	p.Req.Stop()
	*p = Pager{c: p.c, owner: p.owner, Query: q, TableKeys: p.TableKeys, Merge: m}
	return p.Next()
}

// mergeRequest is the request line of a merged range: every prefix's
// Query has the first one's shape, shown "like" it (its values are the
// first prefix's alone: "each … :prefix=\"amsg#2018-08-\"" told five
// of six Queries a value they did not send); a range read once (cheaper
// than a Query a prefix) or answered by the time sample says so, with
// the one read it sent.
func (p *Pager) mergeRequest() string {
	m, spent := p.Merge, fmt.Sprintf("%d req · %s", p.cost.Requests, common.BilledRCU(p.cost))
	prefixes := strings.Join(m.Prefixes, " ")
	switch {
	case m.ReadOnce && m.OnceQuery.Table == "":
		return fmt.Sprintf("%s (%s) merged by time: no Query, the time sample read every key · %s", common.Plural(len(m.Prefixes), "prefix", "prefixes"), prefixes, spent)
	case m.ReadOnce:
		q := m.OnceQuery
		return fmt.Sprintf("%s (%s) read once, cheaper than a Query each: %s %s, the time kept on our side · %s",
			common.Plural(len(m.Prefixes), "prefix", "prefixes"), prefixes, q.Expression(), q.Values(), spent)
	}
	q := m.Queries[0]
	each := "each like"
	if len(m.Queries) == 1 {
		each = "the one:"
	}
	return fmt.Sprintf("%s merged by time (%s), %s %s %s · %s", common.Plural(len(m.Queries), "Query", "Queries"), prefixes, each, q.Expression(), q.Values(), spent)
}
