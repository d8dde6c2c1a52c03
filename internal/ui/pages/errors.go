package pages

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/ui/common"
)

func open(p common.Page) tea.Cmd {
	return func() tea.Msg { return common.OpenMsg{Page: p} }
}

func back() tea.Msg { return common.BackMsg{} }
