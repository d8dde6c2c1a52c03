package main

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"

	"github.com/dynascope/dynascope/model"
)

// configPath is where the configuration file lives unless --config says:
// $XDG_CONFIG_HOME/dynascope/config.toml, else ~/.config/dynascope/config.toml.
func configPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "dynascope", "config.toml")
}

// loadConfig reads the configuration file. A missing default file is no
// configuration; a missing --config file, or a broken one, is an error that
// names the file and the line.
func (g *globals) loadConfig() (model.Config, error) {
	path, explicit := g.configFile, g.configFile != ""
	if !explicit {
		path = configPath()
	}
	if path == "" {
		return model.Config{}, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return model.Config{}, nil
	}
	if err != nil {
		return model.Config{}, usage("check --config", "config: %v", err)
	}
	c, err := model.ParseConfig(string(data))
	if err != nil {
		return model.Config{}, usage("fix the file, or point --config elsewhere", "config %s: %v", path, err)
	}
	return c, nil
}

// withVersionPattern puts --version-pattern, when given, in the table's
// settings: flags override the configuration.
func withVersionPattern(conf model.Config, table, pattern string, given bool) (model.Config, error) {
	if !given {
		return conf, nil
	}
	if table == "" {
		return conf, usage("add --table NAME", "--version-pattern needs --table: it spells one table's sort keys")
	}
	if _, err := model.ParseVersionPattern(pattern); err != nil {
		return conf, usage("see dynascope versions --help", "--version-pattern %v", err)
	}
	tables := maps.Clone(conf.Tables)
	if tables == nil {
		tables = map[string]model.TableSettings{}
	}
	ts := tables[table]
	ts.VersionPattern = pattern
	tables[table] = ts
	conf.Tables = tables
	return conf, nil
}
