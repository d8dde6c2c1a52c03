package pages

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// listTables reads the page of table names after from ("" the first),
// listed names having come before it.
func listTables(ctx context.Context, c dynamo.Client, page, req int, from string, listed int) tea.Cmd {
	return func() tea.Msg {
		names, next, _, err := dynamo.ListTablesPage(ctx, c, from, 0, listed)
		return tablesListedMsg{page: page, req: req, names: names, from: from, next: next, err: err}
	}
}

func describeTable(ctx context.Context, c dynamo.Client, page, req int, name string) tea.Cmd {
	return func() tea.Msg {
		info, _, err := dynamo.DescribeTable(ctx, c, name)
		return tableDescribedMsg{page: page, req: req, name: name, info: info, err: err}
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
