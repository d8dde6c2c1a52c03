package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// developerEnv is the environment the test binary started with, before
// seal: the go command run by a test needs the developer's Go settings
// (its env file under the config directory, its caches under HOME).
var developerEnv []string

// sealedHome is the empty home every test of the package runs in.
var sealedHome string

// seal points HOME and XDG_CONFIG_HOME at an empty temporary directory for
// the whole test binary, so no test reads the developer's
// ~/.config/dynascope/config.toml (a delimiter or a theme there changed
// what the commands print). Tests that want a configuration write one and
// set it themselves. It returns the clean-up.
func seal() func() {
	developerEnv = os.Environ()
	dir, err := os.MkdirTemp("", "dynascope-cli-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "sealing the tests from the developer's config:", err)
		os.Exit(2)
	}
	sealedHome = dir
	os.Setenv("HOME", dir)
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, ".config"))
	return func() { os.RemoveAll(dir) }
}

// TestSealedFromTheDevelopersConfig: the configuration a command loads
// when --config is not given is inside the sealed home, never the
// developer's.
func TestSealedFromTheDevelopersConfig(t *testing.T) {
	if sealedHome == "" {
		t.Fatal("TestMain did not seal the tests (call seal)")
	}
	if p := configPath(); !strings.HasPrefix(p, sealedHome+string(filepath.Separator)) {
		t.Fatalf("tests read the configuration at %s, outside the sealed home %s", p, sealedHome)
	}
}

// clip keeps a failure message short: a command's whole output can be
// hundreds of kilobytes (a wrong delimiter lists every key as a child).
func clip(v any) string {
	const most = 2000
	s := fmt.Sprintf("%+v", v)
	if len(s) <= most {
		return s
	}
	return fmt.Sprintf("%s… (%d bytes in all)", s[:most], len(s))
}
