package common

import (
	"context"
	"errors"
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/keymap"
)

// Common is what every page shares: the data client, styles and keys.
type Common struct {
	Client dynamo.Client
	// Streams reads the tables' DynamoDB streams (nil: it cannot).
	Streams dynamo.StreamsClient
	Styles  *Styles
	Keys    keymap.KeyMap
	NextID  func() int // request ids, unique in the session
	// Ctx is the program's context (see Context); nil in tests that drive
	// the model without a program.
	Ctx context.Context
	// CountBudget is the most RCU a count may spend before it stops.
	CountBudget float64
	// Tables are the configuration file's per-table settings.
	Tables map[string]config.TableSettings
	// Now is the clock time ranges count back from (fixed for the demo).
	Now func() time.Time
	// FilterBudget is the RCU a filtered read of a table may spend before
	// it waits for the user (0: no limit; DefaultFilterBudget unless told).
	FilterBudget func(table string) float64
	// SaveColumns writes a table's chosen grid columns to the configuration
	// file and says where; nil: the choice lasts for the session only.
	SaveColumns func(table string, cols []string) (string, error)
	// TmuxBuffer loads what y copies into a tmux buffer too; nil outside tmux.
	TmuxBuffer TmuxBufferFunc
	// Load is --data loading in the background (nil when nothing is):
	// tables still loading, stopped (partial) or failed are marked.
	Load dynamo.DataLoad
	// HeldRows is how many rows a paged list holds before it lets the
	// pages farthest from the cursor go, to read them again when it comes
	// back (0: list.DefaultHeldRows; below 0: every row is held).
	HeldRows int
	// Preview is the preview pane's setting, p toggling it: 0 follows
	// the width (shown from PreviewWidth columns), 1 on, -1 off.
	Preview int
	// KeysSeen are the sort keys each place's pages have read (by the
	// place's id: table, index, partition, prefix), so that every mode of
	// a place dims the tabs the keys rule out, not only the page that
	// read them.
	KeysSeen map[string]KeysSeen
	// TimeRanges are the range each place's Time mode listed when it was
	// left ("" for all), so that coming back to Time lists it again.
	TimeRanges map[string]string
	// Delims are the delimiter each table (or index, "table/index") was
	// found to split on, by a level of any of its partitions: the
	// table's, which a partition whose own keys tell none takes.
	Delims map[string]string
	// TTL are the tables' Time to Live, read once by the first item view
	// of each table.
	TTL map[string]dynamo.TTLInfo
	// Against connects another side for = (nil: = compares only with
	// another table of this connection); AgainstChoices are the sides it
	// offers (configured environments, profiles).
	Against        func(ctx context.Context, side Side, key dynamo.KeySchema) (dynamo.Client, string, error)
	AgainstChoices []Side
	// Here names this connection as a comparison's left side, as Against
	// names the right: its environment's label and the connection
	// ("PROD: us-east-1 · …"), the same words as dynascope diff's.
	Here func() string
}

// HereLabel is this connection as a comparison names it ("this
// connection" where nothing names it).
func (c *Common) HereLabel() string {
	if c.Here != nil {
		if s := c.Here(); s != "" {
			return s
		}
	}
	return "this connection"
}

// Side is another connection = can compare with, as the picker names
// it: its label, and the connection flags that make it.
type Side struct {
	Label                           string
	Profile, Region, Endpoint, Data string
}

// KeysSeen are a place's sort keys already read: a sample (do they hold
// time?) and, when every key or top-level child was read, what of them
// decides whether one can be a revision: none, or the first that can
// (All; nil: unknown).
type KeysSeen struct {
	Sample []domain.KeyValue
	All    []domain.Child
}

// PreviewWidth is the width from which the preview pane is shown unless
// p turned it off: below it the list's columns need the room.
const PreviewWidth = 140

// PreviewMin is the width below which no preview is shown: p does
// nothing there.
const PreviewMin = 100

// ShowPreview reports whether a page w columns wide shows its preview
// (never below 100 columns, where a pane leaves the list no room).
func (c *Common) ShowPreview(w int) bool {
	switch {
	case w < PreviewMin:
		return false
	case c.Preview != 0:
		return c.Preview > 0
	}
	return w >= PreviewWidth
}

// Page is one screen of the explorer.
type Page interface {
	// ID identifies the page; its requests' answers carry it.
	ID() int
	Init() tea.Cmd
	Update(tea.Msg) (Page, tea.Cmd)
	// View renders the page body within its size.
	View() string
	SetSize(w, h int)
	// Crumbs is where the page is, for the breadcrumb.
	Crumbs() []string
	// Shows is the table the page lists and the index it reads ("" for
	// the table itself): : opens its statement on them, the status bar
	// names their load and mask. A page that lists no table (the tables
	// list, the demo's tour) gives "": its crumbs are never a table's.
	Shows() (table, index string)
	// Mode names the active mode tab ("" for none).
	Mode() string
	// Request is the request behind what is listed, for the request line.
	Request() string
	// Loading reports whether a request is in flight.
	Loading() bool
	// Capturing reports whether the page is taking text input, so that
	// global keys (q, ?) are typed instead of acted on.
	Capturing() bool
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// Querier is a page listing what one Query asks: `y` copies it as an
// `aws dynamodb query` command.
type Querier interface {
	Query() (domain.KeyQuery, bool)
}

// Commander is a page whose reads are no one Query (a Scan, a statement's
// Queries): y copies the aws command that reads what it lists, made for
// the connection's region and endpoint; NoCommand says why there is none.
type Commander interface {
	AWSCommand() (build func(region, endpoint string) string, ok bool)
	NoCommand() string
}

// Linker is a page the command line can reopen: DeepLink gives the flags
// after `dynascope` (--table, --pk, --prefix, --versions, --range).
type Linker interface {
	DeepLink() []string
}

// Headlesser is a page whose rows a headless command prints as JSON (the
// partitions list: dynascope partitions): ? shows that command under the
// one that reopens the view. HeadlessLink gives the command's name and
// its flags, the connection's left out.
type Headlesser interface {
	HeadlessLink() []string
}

// LinkNoter is a Linker whose command opens the same place in another
// mode, no flag naming its own (Items: --pk opens a string sort key's
// Tree): LinkNote says so and the key from there ("" when it opens the
// page itself).
type LinkNoter interface {
	LinkNote() string
}

// ExportCounter is a Querier whose view says what an export of its query
// read (all of it) beside the rows it holds: ExportStarted gives what to
// call with the items written, once the export is done.
type ExportCounter interface {
	ExportStarted() func(items int)
}

// Clicker is a page with a list that takes mouse clicks: y is the line
// clicked within the page's body. It reports whether the click asks to
// open the row (a click on the row already selected).
type Clicker interface {
	Click(y int) (open bool)
}

// Loaded is what a page has already read, handed over for export (e):
// its rows, and the view's parts for the file's default name (table,
// partition, …, "children").
type Loaded struct {
	Rows dynamo.Rows
	View []string
}

// NotOneQuery is a Querier that can say why its view is not one query
// (a range merged across prefixes), so e, y and Y say it rather than do
// nothing; "" where it is one, or not yet known.
type NotOneQuery interface {
	NotOneQuery() string
}

// Exportable is a page whose export writes what it has loaded (children,
// versioned items, revisions) instead of what its query returns: that
// costs nothing. ok is false until its list is complete.
type Exportable interface {
	Loaded() (l Loaded, ok bool)
}

// NoticeMsg is a passing note for the status bar (what was copied): Text
// says the result first and short; Detail, when given, follows it where
// there is room and whole in ?'s message history. Why, when given, is
// why Text (a refusal: "No Versions mode here"): the note is Text: Why,
// and where it does not fit whole the bar cuts it only at a clause and
// points at ?.
type NoticeMsg struct{ Text, Detail, Why string }

// Sizer is a page that knows its table's size (DescribeTable's figure),
// which bounds what reading everything it lists can cost.
type Sizer interface {
	TableSize() int64
}

// Overlayer is a page that can hold an overlay over its rows (a picker,
// a prompt). While one is open, q closes it as esc would, and never quits.
type Overlayer interface {
	Overlay() bool
	// CloseOverlay closes it as esc would; the command is what esc's
	// would be (nil for most).
	CloseOverlay() tea.Cmd
}

// TextBox is a page with text boxes of its own (the go-to box, the
// filter and range bars): what the open one holds, and a paste into it.
type TextBox interface {
	Typed() (text string, open bool)
	Paste(text string) tea.Cmd
}

// OpenMsg asks the root to push a page.
type OpenMsg struct{ Page Page }

// BackMsg asks the root to pop the top page.
type BackMsg struct{}

// ErrorMsg reports a failed request of page Page to the status bar; a
// fatal one shows the error page, whose `r` sends that page a RetryMsg.
type ErrorMsg struct {
	Err   error
	Fatal bool
	Page  int
}

// Report turns a failed request into a message for the root: nothing for a
// cancellation the user asked for, the status bar otherwise, the error page
// when the page cannot show anything without it.
func Report(err error, fatal bool, page int) tea.Cmd {
	if err == nil || errors.Is(err, context.Canceled) {
		return nil
	}
	return func() tea.Msg { return ErrorMsg{Err: err, Fatal: fatal, Page: page} }
}

// Shortened is an error whose message has a shorter saying that keeps
// every figure: the status bar says it where the whole does not fit, so
// words give way, not the numbers that make the line true (at 80
// columns "stopped 24.0 RCU past…; c counts on" lost the budget).
type Shortened struct {
	Err   error
	Short string // the message after its operation's "op: "
}

func (e Shortened) Error() string { return e.Err.Error() }
func (e Shortened) Unwrap() error { return e.Err }

// RetryMsg asks a page to send again what failed.
type RetryMsg struct{ Page int }

func (m RetryMsg) PageID() int { return m.Page }

// LoadChangedMsg says that a background load moved on: a table finished,
// or the load ended. Pages that show tables' counts read them again.
type LoadChangedMsg struct{}

// Routed is a message that belongs to one page, by id.
type Routed interface{ PageID() int }

// List is a page's list as search and the position indicator see it: the
// loaded rows as text, and the selection.
type List interface {
	Rows() int
	RowText(i int) string
	Cursor() int
	SetCursor(i int)
}

// DefaultFilterBudget is the RCU a filtered read may spend unless told
// otherwise: the explorer's --max-rcu and the scan and partiql commands'.
const DefaultFilterBudget = 1000

// MaxRCUFlag is --max-rcu as a command that reproduces a filter budget
// writes it: nothing for the default, "none" for no limit.
func MaxRCUFlag(budget float64) []string {
	switch {
	case budget == DefaultFilterBudget:
		return nil
	case budget <= 0:
		return []string{"--max-rcu", "none"}
	}
	return []string{"--max-rcu", strconv.FormatFloat(budget, 'f', -1, 64)}
}

// Searchable is a page whose list `/` searches. Unloaded says what the
// list has not read yet ("" when it holds everything), so that a search
// over a partial list says what it did not look at.
type Searchable interface {
	List() List
	Unloaded() string
}

// SelectionFollower is a page that reads what its selection brings into
// view, told when something other than its own keys (the search) moved it.
type SelectionFollower interface {
	SelectionMoved() tea.Cmd
}

// Opened is a page whose place is partly the page it is opened over: an
// item is in the mode of the list it was opened from (Tree, Time…), and
// under that list's steps where the list is no partition's (a search's
// matches); a search goes on from the steps of the page that opened it
// (E's types, a statement's prompt); = compares the place beneath it,
// under that place's steps.
// The root model tells it, in one place, as it opens.
type Opened interface {
	OpenedOver(below Page)
}

// ModeTab is one of a partition's modes (Tree, Items, Versions, Time,
// Changes) as its tab shows it: the key that picks it, and Off, why it
// does not apply here ("" when it does).
type ModeTab struct {
	Name, Off string
	Key       key.Binding
}

// Moded is a page showing a partition in one of its modes: the tabs, and
// the page of the same place in another mode (nil when Off).
type Moded interface {
	Modes() []ModeTab
	// Place identifies what is shown whatever the mode (table, index,
	// partition, prefix): switching between pages of one place replaces
	// the mode instead of stacking it.
	Place() string
	ModePage(name string) Page
}

// Leaver is a page that runs something in the background while shown
// (following a stream or a range): Leave stops it when another mode takes
// its place, so that nothing goes on reading a tab nobody sees.
type Leaver interface {
	Leave()
}
