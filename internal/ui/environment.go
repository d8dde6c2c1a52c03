package ui

import (
	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/export"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// environment is the configured environment the connection matches now
// (nil: none).
func (m *Model) environment() *config.Environment {
	if m.cfg.Environment == nil {
		return nil
	}
	return m.cfg.Environment()
}

// environmentLabel is the matched environment's label in its colour,
// for the frame's top line and the status bar ("" where none matches).
func (m *Model) environmentLabel() string {
	e := m.environment()
	if e == nil || e.Label == "" {
		return ""
	}
	return m.styles.EnvironmentLabel(common.Sanitize(e.Label), e.Hex())
}

// shortConnection is what of the connection the top line keeps when it
// is tight: the environment's label, or DEMO, each followed by a space
// ("" for any other connection, which the status bar names).
func (m *Model) shortConnection() string {
	if env := m.environmentLabel(); env != "" {
		return env + " "
	}
	if m.cfg.Connection == "DEMO" {
		return m.styles.Crumb.Render("DEMO") + " "
	}
	return ""
}

// here is this connection as a comparison's left side: the matched
// environment's label before the connection's (as the right side's, and
// dynascope diff's "left:"), "" where the connection has no label.
func (m *Model) here() string {
	if e := m.environment(); e != nil && e.Label != "" && m.cfg.Connection != "" {
		return export.OneLine(e.Label) + ": " + m.cfg.Connection
	}
	return m.cfg.Connection
}
