package config

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/dynascope/dynascope/internal/domain"
)

// TableSettings are per-table choices that override what dynascope
// detects: the sort-key delimiter, the level names and the count budget.
type TableSettings struct {
	Delimiter   string  `toml:"delimiter"`
	Levels      string  `toml:"levels"`
	CountBudget float64 `toml:"count_budget"`
	// TimeFormat overrides the detected time encoding of the sort key:
	// epoch-s, epoch-ms, epoch-us, or a Go layout (2006-01-02T15:04:05Z07:00),
	// optionally as prefix#LAYOUT or LAYOUT#suffix for composite keys.
	TimeFormat string `toml:"time_format"`
	// Shards names sharded partitions: seattle = "seattle-{1..4}" makes
	// --pk seattle (or seattle typed at /) drill all four shards.
	Shards map[string]string `toml:"shards"`
	// MaxRCU is the most a filtered read may spend before it waits for the
	// user (overrides the file's max_rcu for this table).
	MaxRCU float64 `toml:"max_rcu"`
	// Columns are the grid's attribute columns after the keys, in order;
	// the column picker (C) writes them. Empty: the most common attributes.
	Columns []string `toml:"columns"`
	// VersionPattern spells the table's revision keys when they are not
	// v0_Name, v001_Name or v_0: "rev#{n}#{name}", "{name}#v{n}".
	VersionPattern string `toml:"version_pattern"`
	// DriftIgnore names attributes that may differ between the current
	// copy and the newest revision without it being drift (UpdatedAt,
	// a counter the application keeps on v0 only).
	DriftIgnore []string `toml:"drift_ignore"`
	// Mask lists attributes (attr, attr.nested) whose values are never
	// shown or written, only stand-ins; requests still use the real values.
	Mask []string `toml:"mask"`
}

// Versions is the table's version pattern, or nil to detect the usual
// forms (also for a pattern ParseConfig would have refused).
func (t TableSettings) Versions() *domain.VersionPattern {
	if t.VersionPattern == "" {
		return nil
	}
	p, err := domain.ParseVersionPattern(t.VersionPattern)
	if err != nil {
		return nil
	}
	return p
}

// ShardPattern is the pattern a logical partition name stands for, if the
// table's settings name one.
func (t TableSettings) ShardPattern(pk string) (string, bool) {
	p, ok := t.Shards[pk]
	return p, ok
}

// Config is the configuration file ($XDG_CONFIG_HOME/dynascope/config.toml).
type Config struct {
	// Defaults for the connection and the look; flags override them.
	Profile     string `toml:"profile"`
	Region      string `toml:"region"`
	EndpointURL string `toml:"endpoint_url"`
	Theme       string `toml:"theme"` // auto, dark, light, high-contrast
	// MaxRCU is the most a filtered read in the explorer may spend before
	// it waits for the user; --max-rcu overrides it.
	MaxRCU float64 `toml:"max_rcu"`
	// RequestTimeout is each request attempt's deadline ("10s", "1m");
	// --timeout overrides it.
	RequestTimeout string `toml:"timeout"`

	Tables map[string]TableSettings `toml:"tables"`
	// Keys rebinds actions: up = ["k", "up"]. The explorer checks the
	// action and key names.
	Keys map[string][]string `toml:"keys"`
	// Environments label the connections they match (environments.go).
	Environments []Environment `toml:"environments"`
}

// Timeout is the configured attempt deadline (0: none configured).
// ParseConfig has refused one that does not parse.
func (c Config) Timeout() time.Duration {
	d, _ := time.ParseDuration(c.RequestTimeout)
	return d
}

// maxTimeout is the longest attempt deadline a file may set.
const maxTimeout = 10 * time.Minute

// Table returns the settings of one table (zero when none).
func (c Config) Table(name string) TableSettings { return c.Tables[name] }

// FilterBudget is the RCU a filtered read of table may spend before it
// waits for the user: the table's max_rcu, else the file's, else def.
func (c Config) FilterBudget(table string, def float64) float64 {
	switch {
	case c.Table(table).MaxRCU > 0:
		return c.Table(table).MaxRCU
	case c.MaxRCU > 0:
		return c.MaxRCU
	}
	return def
}

// ParseConfig reads a configuration file's text. Errors name the line and
// say what to write instead; unknown keys are errors, so a typo is not
// silently ignored.
func ParseConfig(data string) (Config, error) {
	var c Config
	md, err := toml.Decode(data, &c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return Config{}, fmt.Errorf("line %d: %s; write settings as [tables.NAME] then delimiter = \"#\"", pe.Position.Line, firstLineOf(pe.Message))
		}
		return Config{}, fmt.Errorf("%s; settings are [tables.NAME] with delimiter, levels and count_budget", firstLineOf(err.Error()))
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		return Config{}, fmt.Errorf("unknown setting %q: the file takes profile, region, endpoint_url, timeout, theme, max_rcu, [keys] and [[environments]] (label, color, endpoint_url, profile, region, account), and a table takes delimiter, levels, count_budget, time_format, version_pattern, drift_ignore, shards, max_rcu, columns and mask", undecoded[0].String())
	}
	switch c.Theme {
	case "", "auto", "dark", "light", "high-contrast":
	default:
		return Config{}, fmt.Errorf("theme %q: write auto, dark, light or high-contrast", c.Theme)
	}
	if err := checkBudget("max_rcu", c.MaxRCU, md.IsDefined("max_rcu")); err != nil {
		return Config{}, err
	}
	if c.RequestTimeout != "" {
		if d, err := time.ParseDuration(c.RequestTimeout); err != nil || d <= 0 || d > maxTimeout {
			return Config{}, fmt.Errorf("timeout %q: write a duration such as \"10s\" or \"1m\", at most %v", c.RequestTimeout, maxTimeout)
		}
	}
	for i, e := range c.Environments {
		if err := checkEnvironment(i, e); err != nil {
			return Config{}, err
		}
	}
	for name, t := range c.Tables {
		if t.Delimiter == domain.NoDelimiter || domain.DelimiterTooLong(t.Delimiter) {
			return Config{}, fmt.Errorf("tables.%s.delimiter %q: give one to three characters, such as \"#\", \"§\" or \"::\"", name, t.Delimiter)
		}
		if t.TimeFormat != "" {
			if _, err := domain.ParseTimeFormat(t.TimeFormat); err != nil {
				return Config{}, fmt.Errorf("tables.%s.time_format: %v", name, err)
			}
		}
		if t.VersionPattern != "" {
			if _, err := domain.ParseVersionPattern(t.VersionPattern); err != nil {
				return Config{}, fmt.Errorf("tables.%s.version_pattern %v", name, err)
			}
		}
		for logical, pattern := range t.Shards {
			if _, err := domain.ExpandPartitions(pattern); err != nil || !domain.IsPattern(pattern) {
				return Config{}, fmt.Errorf("tables.%s.shards.%s %q: write a pattern such as \"%s-{1..4}\"", name, logical, pattern, logical)
			}
		}
		if err := checkBudget("tables."+name+".count_budget", t.CountBudget, md.IsDefined("tables", name, "count_budget")); err != nil {
			return Config{}, err
		}
		if err := checkBudget("tables."+name+".max_rcu", t.MaxRCU, md.IsDefined("tables", name, "max_rcu")); err != nil {
			return Config{}, err
		}
		for _, a := range t.DriftIgnore {
			if a == "" {
				return Config{}, fmt.Errorf("tables.%s.drift_ignore: a name is empty; list attribute names, such as [\"UpdatedAt\"]", name)
			}
		}
		if _, err := domain.ParseMask(t.Mask); err != nil {
			return Config{}, fmt.Errorf("tables.%s.%v", name, err)
		}
		seen := map[string]bool{}
		for _, col := range t.Columns {
			if col == "" || seen[col] {
				return Config{}, fmt.Errorf("tables.%s.columns: %q is empty or named twice; list each attribute once", name, col)
			}
			seen[col] = true
		}
	}
	return c, nil
}

// The bounds of an RCU budget, for a setting and a flag alike.
const (
	// MinBudget is one eventually consistent read unit (4 KB): what
	// DynamoDB bills a request at the least.
	MinBudget = 0.5
	// MaxBudget is a budget past which none is meant: a full scan of a
	// table of ~8 TB.
	MaxBudget = 1e9
)

// BudgetFault is what is wrong with v as an RCU budget, in the words that
// follow its name ("is not a budget"), or "" when it is one (0, no
// budget, is its owner's to refuse or take). It is the one rule: the
// flags (cli's checkBudget) and the settings here both ask it, so that a
// budget refused on the command line is refused in the file too.
func BudgetFault(v float64) string {
	switch {
	case v < 0 || math.IsNaN(v) || math.IsInf(v, 0):
		// NaN would switch the budget off: every comparison with it is false.
		return "is not a budget"
	case v > MaxBudget:
		return fmt.Sprintf("is more RCU than any read needs (at most %.0f)", float64(MaxBudget))
	case v > 0 && v < MinBudget:
		return fmt.Sprintf("pays for no read: every request costs at least %.1f RCU", MinBudget)
	}
	return ""
}

// checkBudget refuses a budget setting BudgetFault refuses, or written as
// 0 (it once meant "no limit": leaving the setting out gives the
// default, and --max-rcu none reads without a limit).
func checkBudget(name string, v float64, written bool) error {
	setting := name[strings.LastIndex(name, ".")+1:]
	fault := BudgetFault(v)
	switch {
	case fault == "" && !(written && v == 0):
		return nil
	case v > MaxBudget && !math.IsInf(v, 1):
		return fmt.Errorf("%s %v %s; give a smaller number, or leave %s out for the default", name, v, fault, setting)
	case v > 0 && v < MinBudget:
		return fmt.Errorf("%s %v %s; give at least %.1f, or leave %s out for the default", name, v, fault, MinBudget, setting)
	}
	none := ""
	if setting == "max_rcu" {
		none = "; --max-rcu none reads without a limit"
	}
	return fmt.Errorf("%s %v: give a positive number of RCU, or leave %s out for the default%s", name, v, setting, none)
}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
