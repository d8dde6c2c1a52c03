package main

import (
	"errors"
	"io/fs"
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
