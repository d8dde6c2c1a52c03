package cli

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/files"
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
func (g *globals) loadConfig() (config.Config, error) {
	path, explicit := g.configFile, g.configFile != ""
	if !explicit {
		path = configPath()
	}
	if path == "" {
		return config.Config{}, nil
	}
	data, err := readConfigFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return config.Config{}, nil
	}
	var notFile *files.Error
	if errors.As(err, &notFile) {
		return config.Config{}, usage("point --config at the configuration file (config.example.toml shows one)", "config %s: %s", path, notFile.Problem)
	}
	if err != nil {
		return config.Config{}, usage("check --config", "config: %v", err)
	}
	c, err := config.ParseConfig(string(data))
	if err != nil {
		return config.Config{}, usage("fix the file, or point --config elsewhere", "config %s: %v", path, err)
	}
	return c, nil
}

// readConfigFile reads a configuration file, refusing anything but a
// regular file under 1 MiB: a link to /dev/zero would run out of memory,
// a FIFO would wait forever.
func readConfigFile(path string) ([]byte, error) { return files.Read(path, files.Config) }

// saveColumns writes a table's grid columns into the configuration file,
// changing only that setting (the file is created if there is none), and
// returns the file's path. The new text replaces the old in one rename, so
// a crash never leaves half a file.
func (g *globals) saveColumns(table string, cols []string) (string, error) {
	path := g.configFile
	if path == "" {
		path = configPath()
	}
	if path == "" {
		return "", errors.New("no home directory to keep the configuration in")
	}
	shown := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real // keep a linked file (dotfiles) a link
	}
	mode := fs.FileMode(0o600)
	data, err := readConfigFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return "", err
		}
	case err != nil:
		return "", err
	default:
		if st, err := os.Stat(path); err == nil {
			mode = st.Mode().Perm()
		}
	}
	text, err := config.SetTableColumns(string(data), table, cols)
	if err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".config-*.toml")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up a failure
	if _, err := tmp.WriteString(text); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	return shown, os.Rename(tmp.Name(), path)
}

// withVersionPattern puts --version-pattern, when given, in the table's
// settings: flags override the configuration.
func withVersionPattern(conf config.Config, table, pattern string, given bool) (config.Config, error) {
	if !given {
		return conf, nil
	}
	if table == "" {
		return conf, usage("add --table NAME", "--version-pattern needs --table: it spells one table's sort keys")
	}
	if _, err := domain.ParseVersionPattern(pattern); err != nil {
		return conf, usage("see dynascope versions --help", "--version-pattern %v", err)
	}
	tables := maps.Clone(conf.Tables)
	if tables == nil {
		tables = map[string]config.TableSettings{}
	}
	ts := tables[table]
	ts.VersionPattern = pattern
	tables[table] = ts
	conf.Tables = tables
	return conf, nil
}

// withTimeFormat applies --time-format to --table's settings, as the
// configuration's time_format would (the flag wins).
func withTimeFormat(conf config.Config, table, format string, given bool) (config.Config, error) {
	if !given {
		return conf, nil
	}
	if table == "" {
		return conf, usage("add --table NAME", "--time-format needs --table: it reads one table's sort keys")
	}
	if _, err := domain.ParseTimeFormat(format); err != nil {
		return conf, usage("text formats are detected; give one only to override", "--time-format: %v", err)
	}
	tables := maps.Clone(conf.Tables)
	if tables == nil {
		tables = map[string]config.TableSettings{}
	}
	ts := tables[table]
	ts.TimeFormat = format
	tables[table] = ts
	conf.Tables = tables
	return conf, nil
}
