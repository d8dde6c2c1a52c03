package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dynascope/dynascope/model"
)

// TestSaveColumns: the picker's choice lands in the configuration file,
// which keeps its other lines, its mode and, when it is a link, stays one.
func TestSaveColumns(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "dynascope.toml")
	if err := os.MkdirAll(filepath.Dir(real), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("# mine\n[tables.Orders]\ndelimiter = \"/\"\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "config.toml")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	g := &globals{configFile: link}
	path, err := g.saveColumns("Orders", []string{"Status", "Total"})
	if err != nil || path != link {
		t.Fatalf("%q %v", path, err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	data, _ := os.ReadFile(real)
	if string(data) != "# mine\n[tables.Orders]\ndelimiter = \"/\"\ncolumns = [\"Status\", \"Total\"]\n" {
		t.Fatalf("file now:\n%s", data)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}

	// No file yet: it is made, readable by its owner only.
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
	g = &globals{}
	path, err = g.saveColumns("Orders", []string{"Status"})
	if err != nil || path != filepath.Join(dir, "xdg", "dynascope", "config.toml") {
		t.Fatalf("%q %v", path, err)
	}
	data, _ = os.ReadFile(path)
	c, err := model.ParseConfig(string(data))
	if err != nil || len(c.Table("Orders").Columns) != 1 {
		t.Fatalf("%v %v\n%s", c, err, data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("new file mode %v", fi.Mode().Perm())
	}

	// A file it cannot edit safely is left alone, with a reason.
	odd := filepath.Join(dir, "odd.toml")
	os.WriteFile(odd, []byte("tables = { Orders = { delimiter = \"/\" } }\n"), 0o600)
	g = &globals{configFile: odd}
	if _, err := g.saveColumns("Orders", []string{"Status"}); err == nil {
		t.Fatal("an inline table was edited")
	}
	if data, _ := os.ReadFile(odd); string(data) != "tables = { Orders = { delimiter = \"/\" } }\n" {
		t.Fatalf("changed: %s", data)
	}
}

// TestExampleConfigParses: the shipped example is a working configuration.
func TestExampleConfigParses(t *testing.T) {
	data, err := os.ReadFile("../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := model.ParseConfig(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxRCU != 1000 || len(c.Table("Locations").Columns) != 3 {
		t.Fatalf("%+v", c)
	}
}
