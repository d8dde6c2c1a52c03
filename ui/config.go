// Package ui is dynascope's terminal explorer: Bubble Tea pages over the
// dynamo data layer, which it reaches only through tea.Cmds.
package ui

import (
	"context"
	"fmt"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/model"
)

// Config is what the command line hands the explorer.
type Config struct {
	Client      dynamo.Client   // already metered into Session
	Session     *dynamo.Session // the session's request and RCU totals
	Connection  string          // "DEMO", or profile · region · endpoint; never credentials
	Table       string          // open this table directly (optional)
	PK          string          // and this partition (optional; needs Table)
	Prefix      string          // and this sort-key prefix of its hierarchy (optional; needs PK)
	Delimiter   string          // sort-key delimiter for the drill-down ("" detects)
	Levels      string          // level names, as a template: STATE#CITY#ZIP
	Index       string          // drill and list this GSI or LSI of Table
	CountBudget float64         // RCU a count may spend (default DefaultCountBudget)
	// Tables are per-table settings from the configuration file, used for
	// tables opened from the list (flags cover the deep-linked one).
	Tables   map[string]model.TableSettings
	DebugLog string // file for the opt-in debug log
	// Now is the clock time ranges count back from; nil: the real clock.
	Now func() time.Time
}

// DefaultCountBudget is the RCU a count may spend unless told otherwise.
const DefaultCountBudget = 1000

// Run starts the explorer and blocks until the user quits or ctx ends.
func Run(ctx context.Context, cfg Config) error {
	if cfg.DebugLog != "" {
		f, err := tea.LogToFile(cfg.DebugLog, "dynascope")
		if err != nil {
			return fmt.Errorf("debug log: %w", err)
		}
		defer f.Close()
		_ = os.Chmod(cfg.DebugLog, 0o600)
	}
	_, err := tea.NewProgram(New(cfg), tea.WithContext(ctx)).Run()
	return err
}
