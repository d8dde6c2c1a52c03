// Package ui is dynascope's terminal explorer: Bubble Tea pages over the
// dynamo data layer, which it reaches only through tea.Cmds.
package ui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// Config is what the command line hands the explorer.
type Config struct {
	Client     dynamo.Client        // already metered into Session
	Streams    dynamo.StreamsClient // the tables' streams (nil: the client's own, if it has them)
	Session    *dynamo.Session      // the session's request and RCU totals
	Connection string               // "DEMO", "DATA: paths", or profile · region · endpoint; never credentials
	// Environment is the configured environment the connection matches
	// (nil: none), asked at every frame: an environment named by its
	// account matches only once a table's description has named it.
	Environment func() *config.Environment
	// CostEstimated labels the RCU as an estimate: the data is not in
	// DynamoDB (--data), so the capacity is what DynamoDB would charge.
	CostEstimated bool
	// Load is --data loading in the background into Client (nil: none):
	// the status bar shows its progress, tables still loading are marked
	// and their reads wait, X stops it.
	Load dynamo.DataLoad
	// Reopen is the connection's flags (--demo, --data …, or --profile,
	// --region, --endpoint-url; --config, --mask) for the dynascope
	// command that reopens a view, written as the command line writes the
	// commands it offers (export.Command): never credentials.
	Reopen   export.Connection
	Region   string // for copied aws commands ("" leaves it to the AWS CLI's own)
	Profile  string // for copied aws commands (--profile)
	Endpoint string // for copied aws commands (--endpoint-url)
	Table    string // open this table directly (optional)
	// Info is Table's description when the caller has read it (the
	// command line's preflight): the explorer does not read it again.
	Info        *dynamo.TableInfo
	PK          string            // and this partition (optional; needs Table)
	Prefix      string            // and this sort-key prefix of its hierarchy (optional; needs PK)
	Delimiter   string            // sort-key delimiter for the drill-down ("" detects)
	Levels      string            // level names, as a template: STATE#CITY#ZIP
	Index       string            // drill and list this GSI or LSI of Table
	Versions    string            // open the Versions mode ("*"), or NAME's timeline
	Range       string            // open the Time mode with this range
	Changes     bool              // open the partition's Changes mode (the tour's stop; no flag yet)
	Filter      domain.FilterNode // open the partition's items (or --range) filtered
	Mask        []string          // --mask: attributes whose values are shown as stand-ins (tables add their mask = [...])
	Tour        bool              // open on the demo's tour (--demo without --table)
	Theme       string            // auto (from the background), dark, light or high-contrast
	Keys        keymap.KeyMap     // the bindings; zero: keymap.Default()
	CountBudget float64           // RCU a count may spend (default DefaultCountBudget)
	// Tables are per-table settings from the configuration file, used for
	// tables opened from the list (flags cover the deep-linked one).
	Tables map[string]config.TableSettings
	// FilterBudget is the RCU a filtered read of a table may spend before
	// it waits for the user; nil: DefaultFilterBudget for every table.
	FilterBudget func(table string) float64
	// SaveColumns writes a table's chosen columns to the configuration
	// file; nil: the choice lasts for the session.
	SaveColumns func(table string, cols []string) (string, error)
	// HeldRows is how many rows a paged list holds in memory before it
	// lets the pages farthest from the cursor go (0: the default; below 0:
	// every row, as scripts/benchmemory's baseline does).
	HeldRows int
	// Now is the clock time ranges count back from; nil: the real clock.
	Now func() time.Time
	// Connect, when set, makes the connection and its preflight read after
	// the first frame is drawn: until it answers, the explorer shows a
	// skeleton (Connection's label, a spinner where the list will be).
	// Its answer fills Client, Session, Connection, CostEstimated, Info and
	// TableNames; its error ends the explorer, and Run returns it.
	Connect func(ctx context.Context) (Connected, error)
	// TableNames is the table list's first page when the caller has read
	// it (the preflight without Table), and TablesNext where the list goes
	// on ("" when that was all): the tables screen shows it without
	// listing it again, and reads the rest behind it.
	TableNames []string
	TablesNext string
	// Against connects the other side = compares with (nil: only another
	// table of this connection); AgainstChoices are the sides = offers
	// besides this connection's other tables.
	Against        func(ctx context.Context, side common.Side, key dynamo.KeySchema) (dynamo.Client, string, error)
	AgainstChoices []common.Side
	// TmuxBuffer loads what y copies into a tmux buffer as well as the
	// terminal's clipboard; nil: Run sets tmux load-buffer when $TMUX is set.
	TmuxBuffer common.TmuxBufferFunc
}

// Side is another connection = can compare with (Config.AgainstChoices).
type Side = common.Side

// Connected is Config.Connect's answer: the connection made and what its
// preflight read, handed on so that no request is sent twice.
type Connected struct {
	Client        dynamo.Client
	Session       *dynamo.Session            // nil: the explorer's own
	Connection    string                     // the label once connected ("" keeps Config's)
	Environment   func() *config.Environment // as Config's (nil keeps Config's)
	CostEstimated bool
	Info          *dynamo.TableInfo    // Table's description (with Table)
	TableNames    []string             // the table list's first page (without Table)
	TablesNext    string               // where the table list goes on ("" when whole)
	Streams       dynamo.StreamsClient // the tables' streams (nil: the client's own, if it has them)
	// AgainstChoices are the sides = offers once the connection is known
	// (nil keeps Config's): the configured ones less this connection
	// itself, which = would only compare with itself.
	AgainstChoices []Side
	// Region, Endpoint and Profile are those the connection resolved
	// (from AWS_REGION, AWS_PROFILE, the profile, AWS_ENDPOINT_URL…, not
	// only the flags; "" keeps Config's), and Reopen Config's with them
	// (nil keeps Config's): a copied aws command, or the command ? prints,
	// pasted in another shell reads what the explorer read.
	Region, Endpoint, Profile string
	Reopen                    *export.Connection
}

// DefaultCountBudget is the RCU a count may spend unless told otherwise.
const DefaultCountBudget = 1000

// DefaultFilterBudget is the RCU a filtered read may spend before it waits
// for the user (about 8 MB read), unless told otherwise.
const DefaultFilterBudget = common.DefaultFilterBudget

// Run starts the explorer and blocks until the user quits or ctx ends. An
// error from Config.Connect is returned once the terminal is restored.
func Run(ctx context.Context, cfg Config) error { return RunWith(ctx, cfg) }

// RunWith is Run with Bubble Tea's options added (tests give their own
// input and output).
func RunWith(ctx context.Context, cfg Config, opts ...tea.ProgramOption) error {
	if cfg.TmuxBuffer == nil && os.Getenv("TMUX") != "" {
		cfg.TmuxBuffer = tmuxLoadBuffer
	}
	// Every read derives from the program's context, which ends when the
	// explorer quits: a read still running stops with it.
	ctx, quit := context.WithCancel(ctx)
	defer quit()
	m := New(cfg)
	m.ctx, m.c.Ctx = ctx, ctx
	// Frames are written on the renderer's ticks: at 120 a second (its
	// most) the first frame waits at most 8 ms instead of 17.
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(120)}, opts...)...)
	m.jobs = watchJobs(p, quit)
	final, err := p.Run()
	m.jobs.stop() // after Run: the terminal is restored
	if err != nil {
		return err
	}
	if fm, ok := final.(*Model); ok && fm.startErr != nil {
		return fm.startErr
	}
	return nil
}

// Themes are the names --theme takes.
var Themes = common.Themes

// tmuxLoadBuffer loads text into tmux's paste buffer: under tmux's default
// set-clipboard external, OSC 52 from a program never reaches a clipboard.
func tmuxLoadBuffer(ctx context.Context, text string) error {
	cmd := exec.CommandContext(ctx, "tmux", "load-buffer", "-")
	cmd.Stdin = strings.NewReader(text)
	if out, err := cmd.CombinedOutput(); err != nil {
		if msg := strings.TrimSpace(string(out)); msg != "" {
			return fmt.Errorf("tmux load-buffer: %s", msg)
		}
		return fmt.Errorf("tmux load-buffer: %w", err)
	}
	return nil
}
