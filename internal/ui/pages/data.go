package pages

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// request tracks the one request a page has in flight, so that it can be
// cancelled and its answer recognised.
type request struct {
	id     int
	cancel context.CancelFunc
}

// start begins a new request, cancelling the previous one, and returns its
// context (under the program's: quitting ends it) and id.
func (r *request) start(c *common.Common) (context.Context, int) {
	r.stop()
	ctx, cancel := context.WithCancel(c.Context())
	r.id, r.cancel = c.NextID(), cancel
	return ctx, r.id
}

// stop cancels the request in flight, if any.
func (r *request) stop() {
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
}

// done marks the request answered; it reports whether id is the current one.
func (r *request) done(id int) bool {
	if id != r.id || r.cancel == nil {
		return false
	}
	r.cancel()
	r.cancel = nil
	return true
}

func (r *request) inFlight() bool { return r.cancel != nil }

func listTables(ctx context.Context, c dynamo.Client, page, req int) tea.Cmd {
	return func() tea.Msg {
		names, _, err := dynamo.ListTables(ctx, c)
		return tablesListedMsg{page: page, req: req, names: names, err: err}
	}
}

func describeTable(ctx context.Context, c dynamo.Client, page, req int, name string) tea.Cmd {
	return func() tea.Msg {
		info, _, err := dynamo.DescribeTable(ctx, c, name)
		return tableDescribedMsg{page: page, req: req, name: name, info: info, err: err}
	}
}

func queryPage(ctx context.Context, c dynamo.Client, page, req int, r dynamo.PageRequest) tea.Cmd {
	return func() tea.Msg {
		p, err := dynamo.QueryPage(ctx, c, r)
		return pageLoadedMsg{page: page, req: req, result: p, err: err}
	}
}

// readPartitions reads the partitions list's next step: a keys-only Scan
// page, or one per open segment at once.
func readPartitions(ctx context.Context, c dynamo.Client, page, req int, r dynamo.PartitionsRequest) tea.Cmd {
	return func() tea.Msg {
		step, err := dynamo.ReadPartitions(ctx, c, r)
		return partitionsReadMsg{page: page, req: req, step: step, err: err}
	}
}

func getItem(ctx context.Context, c dynamo.Client, page, req int, table string, key dynamo.Item) tea.Cmd {
	return func() tea.Msg {
		it, _, err := dynamo.GetItem(ctx, c, table, key)
		return itemReadMsg{page: page, req: req, item: it, err: err}
	}
}
