// Package common holds what every part of the explorer shares: styles,
// sizes, the page contract and the sanitizing of item data for the screen.
package common

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Styles are every style of the explorer, by meaning.
type Styles struct {
	App, Brand, Crumb, CrumbSep, CrumbActive lipgloss.Style
	Tab, TabActive, TabDisabled              lipgloss.Style
	Frame, FrameTitle, PreviewFrame          lipgloss.Style
	Header, Cell, Selected, Dim, Key         lipgloss.Style
	Request, RequestLabel                    lipgloss.Style
	StatusConn, StatusReadOnly, StatusStat   lipgloss.Style
	StatusErr, StatusHint, StatusBar         lipgloss.Style
	StatusMasked                             lipgloss.Style
	// Environment is a configured environment's label; EnvironmentLabel
	// gives it the environment's own colour.
	Environment                            lipgloss.Style
	noColor                                bool
	JSONKey, JSONString, JSONNumber        lipgloss.Style
	JSONLiteral, JSONPunct, TypeTag        lipgloss.Style
	ErrorTitle, ErrorBody, Notice, Input   lipgloss.Style
	Drift, Pinned, Added, Removed, Changed lipgloss.Style
	HelpKey, HelpDesc, HelpSep             lipgloss.Style
	Accent                                 color.Color
}

// DefaultStyles builds the styles for a dark or light terminal.
func DefaultStyles(isDark bool) Styles {
	ld := lipgloss.LightDark(isDark)
	accent := ld(lipgloss.Color("#6b4fd8"), lipgloss.Color("#a48cff"))
	muted := ld(lipgloss.Color("#8a8a99"), lipgloss.Color("#6c6c80"))
	text := ld(lipgloss.Color("#1f1f2a"), lipgloss.Color("#dcdce6"))
	green := ld(lipgloss.Color("#1d7a46"), lipgloss.Color("#7ddc9a"))
	yellow := ld(lipgloss.Color("#8a6400"), lipgloss.Color("#f2cd6b"))
	red := ld(lipgloss.Color("#c0262d"), lipgloss.Color("#ff6b74"))
	cyan := ld(lipgloss.Color("#0f6e80"), lipgloss.Color("#6fd3e6"))
	selBG := ld(lipgloss.Color("#e4ddff"), lipgloss.Color("#3a315e"))
	barBG := ld(lipgloss.Color("#ececf2"), lipgloss.Color("#24242f"))

	s := Styles{Accent: accent}
	s.App = lipgloss.NewStyle().Foreground(text)
	s.Brand = lipgloss.NewStyle().Foreground(accent).Bold(true)
	s.Crumb = lipgloss.NewStyle().Foreground(text)
	s.CrumbSep = lipgloss.NewStyle().Foreground(muted)
	s.CrumbActive = lipgloss.NewStyle().Foreground(accent).Bold(true)
	s.Tab = lipgloss.NewStyle().Foreground(text).Padding(0, 1)
	s.TabActive = lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#ffffff"), lipgloss.Color("#16161e"))).Background(accent).Bold(true).Padding(0, 1)
	s.TabDisabled = lipgloss.NewStyle().Foreground(muted).Faint(true).Padding(0, 1)
	s.Frame = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(muted).Padding(0, 1)
	s.PreviewFrame = s.Frame
	s.FrameTitle = lipgloss.NewStyle().Foreground(accent).Bold(true)
	s.Header = lipgloss.NewStyle().Foreground(accent).Bold(true)
	s.Cell = lipgloss.NewStyle().Foreground(text)
	s.Selected = lipgloss.NewStyle().Background(selBG).Foreground(text).Bold(true)
	s.Dim = lipgloss.NewStyle().Foreground(muted)
	s.Key = lipgloss.NewStyle().Foreground(cyan)
	s.Request = lipgloss.NewStyle().Foreground(yellow)
	s.RequestLabel = lipgloss.NewStyle().Foreground(muted)
	s.StatusBar = lipgloss.NewStyle().Background(barBG).Foreground(text)
	s.StatusConn = lipgloss.NewStyle().Background(accent).Foreground(ld(lipgloss.Color("#ffffff"), lipgloss.Color("#16161e"))).Bold(true).Padding(0, 1)
	s.StatusReadOnly = lipgloss.NewStyle().Background(green).Foreground(ld(lipgloss.Color("#ffffff"), lipgloss.Color("#10201a"))).Bold(true).Padding(0, 1)
	s.StatusMasked = lipgloss.NewStyle().Background(yellow).Foreground(ld(lipgloss.Color("#ffffff"), lipgloss.Color("#16161e"))).Bold(true).Padding(0, 1)
	s.Environment = lipgloss.NewStyle().Foreground(lipgloss.Color("#ffffff")).Bold(true).Padding(0, 1)
	s.StatusStat = lipgloss.NewStyle().Background(barBG).Foreground(text).Padding(0, 1)
	s.StatusErr = lipgloss.NewStyle().Background(barBG).Foreground(red).Bold(true)
	s.StatusHint = lipgloss.NewStyle().Background(barBG).Foreground(muted)
	s.JSONKey = lipgloss.NewStyle().Foreground(cyan)
	s.JSONString = lipgloss.NewStyle().Foreground(green)
	s.JSONNumber = lipgloss.NewStyle().Foreground(yellow)
	s.JSONLiteral = lipgloss.NewStyle().Foreground(accent)
	s.JSONPunct = lipgloss.NewStyle().Foreground(muted)
	s.TypeTag = lipgloss.NewStyle().Foreground(muted).Italic(true)
	s.ErrorTitle = lipgloss.NewStyle().Foreground(red).Bold(true)
	s.ErrorBody = lipgloss.NewStyle().Foreground(text)
	s.Notice = lipgloss.NewStyle().Foreground(yellow).Bold(true)
	s.Input = lipgloss.NewStyle().Foreground(text)
	s.Drift = lipgloss.NewStyle().Foreground(red).Bold(true)
	s.Pinned = lipgloss.NewStyle().Foreground(accent).Bold(true)
	s.Added = lipgloss.NewStyle().Foreground(green)
	s.Removed = lipgloss.NewStyle().Foreground(red)
	s.Changed = lipgloss.NewStyle().Foreground(yellow)
	// The help at the text's own contrast (bubbles' default grey 239 is
	// nearly invisible on a dark background), keys in the key colour.
	s.HelpKey = lipgloss.NewStyle().Foreground(cyan).Bold(true)
	s.HelpDesc = lipgloss.NewStyle().Foreground(text)
	// The dots between the short help's keys: muted, yet at 4.5:1 on the
	// terminal and on the status bar's surface (TestShortHelpContrast).
	s.HelpSep = lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#66667a"), lipgloss.Color("#9292a6")))
	return s
}

// Themes are the names --theme and the configuration take.
var Themes = []string{"auto", "dark", "light", "high-contrast"}

// StylesFor builds the styles of a theme for a terminal background. With
// NO_COLOR set (noColor) nothing relies on colour: the selection is shown
// reversed and drift underlined, since the renderer drops every colour.
func StylesFor(theme string, isDark, noColor bool) Styles {
	switch theme {
	case "dark":
		isDark = true
	case "light":
		isDark = false
	}
	s := DefaultStyles(isDark)
	if theme == "high-contrast" {
		fg := lipgloss.LightDark(isDark)(lipgloss.Color("#000000"), lipgloss.Color("#ffffff"))
		bg := lipgloss.LightDark(isDark)(lipgloss.Color("#ffffff"), lipgloss.Color("#000000"))
		yellow := lipgloss.LightDark(isDark)(lipgloss.Color("#5c4400"), lipgloss.Color("#ffff00"))
		red := lipgloss.LightDark(isDark)(lipgloss.Color("#a00000"), lipgloss.Color("#ff5555"))
		for _, st := range []*lipgloss.Style{&s.Crumb, &s.Cell, &s.Dim, &s.App, &s.ErrorBody, &s.Input, &s.JSONPunct, &s.TypeTag, &s.RequestLabel, &s.StatusHint, &s.HelpDesc, &s.HelpSep} {
			*st = st.Foreground(fg).Faint(false)
		}
		s.Selected = lipgloss.NewStyle().Foreground(bg).Background(fg).Bold(true)
		s.Request = s.Request.Foreground(yellow).Bold(true)
		s.Drift = s.Drift.Foreground(red).Underline(true)
		s.Frame = s.Frame.BorderForeground(fg)
		s.PreviewFrame = s.Frame
	}
	s.noColor = noColor
	if noColor {
		s.Selected = lipgloss.NewStyle().Reverse(true).Bold(true)
		s.Drift = s.Drift.Underline(true)
		s.TabActive = s.TabActive.Reverse(true)
	}
	return s
}

// EnvironmentLabel is a configured environment's label ("PROD") on its
// colour (#rrggbb); under NO_COLOR, reversed.
func (s *Styles) EnvironmentLabel(label, hex string) string {
	st := s.Environment.Background(lipgloss.Color(hex))
	if s.noColor {
		st = s.Environment.Reverse(true)
	}
	return st.Render(label)
}
