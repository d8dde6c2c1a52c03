package pages

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/ui/common"
)

// report turns a failed request into a message for the root: nothing for a
// cancellation the user asked for, the status bar otherwise, the error page
// when the page cannot show anything without it.
func report(err error, fatal bool, page int) tea.Cmd {
	if err == nil || errors.Is(err, context.Canceled) {
		return nil
	}
	return func() tea.Msg { return common.ErrorMsg{Err: err, Fatal: fatal, Page: page} }
}

func open(p common.Page) tea.Cmd {
	return func() tea.Msg { return common.OpenMsg{Page: p} }
}

func back() tea.Msg { return common.BackMsg{} }
