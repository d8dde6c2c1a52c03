package list

import (
	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// Request tracks the one Request a page has in flight, so that it can be
// cancelled and its answer recognised.
type Request struct {
	id     int
	cancel context.CancelFunc
}

// Start begins a new request, cancelling the previous one, and returns its
// context (under the program's: quitting ends it) and id.
func (r *Request) Start(c *common.Common) (context.Context, int) {
	r.Stop()
	ctx, cancel := context.WithCancel(c.Context())
	r.id, r.cancel = c.NextID(), cancel
	return ctx, r.id
}

// BackKey is esc as the help of a page reading through r names it:
// "cancel" while r is in flight, where esc stops it and the page stays,
// else back.
func (r *Request) BackKey(back key.Binding) key.Binding { return BackKey(back, r) }

// BackKey is esc as the help of a page names it: "cancel" while any of
// its reads is in flight (esc stops it, and the page stays), else back.
func BackKey(back key.Binding, reads ...*Request) key.Binding {
	for _, r := range reads {
		if r.InFlight() {
			back.SetHelp(back.Help().Key, "cancel")
			break
		}
	}
	return back
}

// Stop cancels the request in flight, if any.
func (r *Request) Stop() {
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
}

// Done marks the request answered; it reports whether id is the current one.
func (r *Request) Done(id int) bool {
	if id != r.id || r.cancel == nil {
		return false
	}
	r.cancel()
	r.cancel = nil
	return true
}

func (r *Request) InFlight() bool { return r.cancel != nil }

func QueryPage(ctx context.Context, c dynamo.Client, page, req int, r dynamo.PageRequest) tea.Cmd {
	return func() tea.Msg {
		p, err := dynamo.QueryPage(ctx, c, r)
		return PageLoadedMsg{page: page, req: req, Result: p, err: err}
	}
}

type PageLoadedMsg struct {
	page, req int
	Result    dynamo.Page
	err       error
	merge     *dynamo.MergedRange // a merged range's state after this page
	largest   int                 // the largest item the page read, at most (dynamo.SizedPage)
}

func (m PageLoadedMsg) PageID() int { return m.page }

// ID is the request's id: its answer carries it.
func (r *Request) ID() int { return r.id }
