// Package pages holds the explorer's screens: tables, a table's partitions,
// a partition's items and one item. Each reaches data only through the
// tea.Cmds in data.go, and each answer carries the page and request it
// belongs to, so a late answer to a cancelled or superseded request is
// dropped.
package pages

import (
	"github.com/dynascope/dynascope/internal/dynamo"
)

// tablesListedMsg is a page of the table list: from is where it started
// ("" the first page), next where the next starts ("" at the end).
type tablesListedMsg struct {
	page, req  int
	names      []string
	from, next string
	err        error
}

type tableDescribedMsg struct {
	page, req int
	name      string // the table asked about (info is empty on an error)
	info      dynamo.TableInfo
	err       error
}

// partitionsReadMsg is a step of the partitions list: what its reads
// found, and where it goes on (after an error, where it resumes).
type partitionsReadMsg struct {
	page, req int
	step      dynamo.PartitionsStep
	err       error
}

type itemReadMsg struct {
	page, req int
	item      dynamo.Item
	err       error
}

func (m tablesListedMsg) PageID() int   { return m.page }
func (m tableDescribedMsg) PageID() int { return m.page }
func (m itemReadMsg) PageID() int       { return m.page }
