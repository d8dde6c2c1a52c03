package config

import (
	"strings"
	"testing"
	"time"

	"github.com/dynascope/dynascope/internal/domain"
)

func TestParseConfig(t *testing.T) {
	good := `
profile = "prod-readonly"
region = "eu-west-1"
theme = "high-contrast"

[tables.Locations]
delimiter = "#"
levels = "STATE#CITY#ZIP"
count_budget = 500

[tables.Paths]
delimiter = "/"

[tables.Chat]
time_format = "prefix#2006-01-02:15:04:05"

[tables.Policies]
version_pattern = "rev#{n}#{name}"
drift_ignore = ["UpdatedAt", "Latest"]
mask = ["Owner", "Contact.email"]

[tables.Chat.shards]
seattle = "seattle-{1..4}"
`
	c, err := ParseConfig(good)
	if err != nil {
		t.Fatal(err)
	}
	if l := c.Table("Locations"); l.Delimiter != "#" || l.Levels != "STATE#CITY#ZIP" || l.CountBudget != 500 {
		t.Fatalf("Locations: %+v", l)
	}
	if e, err := domain.ParseTimeFormat(c.Table("Chat").TimeFormat); err != nil || e.Place != domain.TimeAfter || e.Sep != "#" || e.Layout != "2006-01-02:15:04:05" {
		t.Fatalf("Chat time format: %+v %v", e, err)
	}
	if c, err := ParseConfig("timeout = \"2.5s\"\n"); err != nil || c.Timeout() != 2500*time.Millisecond {
		t.Fatalf("timeout: %v %v", c.Timeout(), err)
	}
	if c.Profile != "prod-readonly" || c.Region != "eu-west-1" || c.Theme != "high-contrast" {
		t.Fatalf("defaults: %+v", c)
	}
	if p, ok := c.Table("Chat").ShardPattern("seattle"); !ok || p != "seattle-{1..4}" {
		t.Fatalf("shards: %q %v", p, ok)
	}
	if p := c.Table("Policies").Versions(); p == nil || p.Prefix() != "rev#" {
		t.Fatalf("version pattern: %v", p)
	}
	if d := c.Table("Policies").DriftIgnore; len(d) != 2 || d[0] != "UpdatedAt" {
		t.Fatalf("drift_ignore: %q", d)
	}
	if m := c.Table("Policies").Mask; strings.Join(m, ",") != "Owner,Contact.email" {
		t.Fatalf("mask: %q", m)
	}
	if c.Table("Locations").Versions() != nil {
		t.Fatal("a table without version_pattern has one")
	}
	if _, ok := c.Table("Nope").ShardPattern("x"); ok {
		t.Fatal("missing table has shards")
	}
	for _, tc := range []struct{ in, want string }{
		{"[tables.X]\ndelimiter = \"#\"\nlevls = \"A#B\"\n", `unknown setting "tables.X.levls"`},
		{"[tables.X]\ndelimiter = \"####\"\n", "one to three characters"},
		{"[tables.X]\ndelimiter = \"none\"\n", "one to three characters"},
		{"[tables.X]\ncount_budget = -1\n", "positive"},
		{"[tables.X]\ndelimiter = \n", "line 2"},
		{"colour = \"red\"\n", `unknown setting "colour"`},
		{"[tables.X]\ncount_budget = \"lots\"\n", "count_budget"},
		{"[tables.X]\ntime_format = \"seconds\"\n", "epoch-s, epoch-ms"},
		{"theme = \"neon\"\n", "auto, dark, light or high-contrast"},
		{"[tables.X.shards]\nseattle = \"seattle\"\n", `tables.X.shards.seattle "seattle": write a pattern`},
		{"[tables.X]\nversion_pattern = \"rev#{name}\"\n", `tables.X.version_pattern "rev#{name}" has no {n}: write where the revision number goes, such as "rev#{n}#{name}"`},
		{"[tables.X]\nversion_pattern = \"{name}{n}\"\n", `tables.X.version_pattern "{name}{n}": {n} and {name} touch`},
		{"max_rcu = nan\n", "max_rcu NaN: give a positive number"},
		{"max_rcu = 0\n", "max_rcu 0: give a positive number of RCU, or leave max_rcu out for the default; --max-rcu none reads without a limit"},
		{"[tables.X]\nmax_rcu = 0.0\n", "tables.X.max_rcu 0: give a positive number"},
		{"[tables.X]\ncount_budget = 0\n", "tables.X.count_budget 0: give a positive number of RCU, or leave count_budget out for the default"},
		{"max_rcu = inf\n", "max_rcu +Inf: give a positive number"},
		{"[tables.X]\ncount_budget = -inf\n", "tables.X.count_budget -Inf"},
		{"[tables.X]\nmax_rcu = nan\n", "tables.X.max_rcu NaN"},
		// The flags' bounds hold for the settings too: one rule, BudgetFault.
		{"[tables.X]\ncount_budget = 0.1\n", "tables.X.count_budget 0.1 pays for no read: every request costs at least 0.5 RCU; give at least 0.5, or leave count_budget out for the default"},
		{"max_rcu = 1e12\n", "max_rcu 1e+12 is more RCU than any read needs (at most 1000000000); give a smaller number, or leave max_rcu out for the default"},
		{"timeout = \"soon\"\n", `timeout "soon": write a duration such as "10s"`},
		{"timeout = \"-1s\"\n", `timeout "-1s"`},
		{"timeout = \"2h\"\n", "at most 10m0s"},
		{"[tables.X]\nversion_patern = \"v{n}\"\n", "a table takes delimiter, levels, count_budget, time_format, version_pattern, drift_ignore, shards, max_rcu, columns and mask"},
		{"[tables.X]\nmask = [\"Owner..email\"]\n", `tables.X.mask "Owner..email" has an empty name`},
		{"[tables.X]\ndrift_ignore = [\"\"]\n", "tables.X.drift_ignore: a name is empty"},
		{"[tables.X]\ndrift_ignore = \"UpdatedAt\"\n", "drift_ignore"},
	} {
		_, err := ParseConfig(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}

// FuzzParseConfig: any text is either a configuration or an error that says
// what to write; never a panic.
func FuzzParseConfig(f *testing.F) {
	f.Add("[tables.Locations]\ndelimiter = \"#\"\n")
	f.Add("[tables.X]\ncount_budget = 1e9\n")
	f.Add("= = =")
	f.Add("[tables.P]\nversion_pattern = \"{name}#v{n}\"\n")
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := ParseConfig(s); err != nil && err.Error() == "" {
			t.Fatal("empty error")
		}
	})
}
