package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dynascope/dynascope/internal/config"
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
	c, err := config.ParseConfig(string(data))
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
	data, err := os.ReadFile("../../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := config.ParseConfig(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxRCU != 1000 || len(c.Table("Locations").Columns) != 3 {
		t.Fatalf("%+v", c)
	}
}

// TestConfigNotAFile: a configuration that is not a regular file under
// 1 MiB is refused in one line before anything is read: a link to
// /dev/zero, a FIFO (nothing blocks), a directory, a huge file.
func TestConfigNotAFile(t *testing.T) {
	isolateAWS(t)
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.toml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip("no symlinks here")
	}
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.toml")
	if err := os.WriteFile(huge, bytes.Repeat([]byte("# padding\n"), 110000), 0o600); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(dir, "linked.toml")
	real := filepath.Join(dir, "real.toml")
	if err := os.WriteFile(real, []byte("region = \"eu-west-1\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, linked); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		zero: "is a device, not a regular file",
		fifo: "is a FIFO, not a regular file",
		dir:  "is a directory, not a file",
		huge: "is 1100000 bytes; a configuration file is at most 1 MiB",
	} {
		_, errs, code := cli(t, "tables", "--config", path, "--endpoint-url", "http://127.0.0.1:1")
		if code != exitUsage || !strings.Contains(errs, want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, %q; want %q", filepath.Base(path), code, errs, want)
		}
	}
	g := &globals{configFile: linked}
	if c, err := g.loadConfig(); err != nil || c.Region != "eu-west-1" {
		t.Errorf("a link to a regular file (dotfiles): %+v %v", c, err)
	}
}

// TestAWSFilesNotAFile: the AWS config, credentials and CA bundle files
// the SDK would read are checked first: a link to /dev/zero (it grew to
// gigabytes), a FIFO (it waited forever), a directory or a file too big
// ends the command at once in one line naming the variable.
func TestAWSFilesNotAFile(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip("no symlinks here")
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge")
	if err := os.WriteFile(huge, bytes.Repeat([]byte("# padding\n"), 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ env, path, says string }{
		{"AWS_CONFIG_FILE", zero, "is a device, not a regular file"},
		{"AWS_CONFIG_FILE", fifo, "is a FIFO, not a regular file"},
		{"AWS_SHARED_CREDENTIALS_FILE", zero, "is a device, not a regular file"},
		{"AWS_SHARED_CREDENTIALS_FILE", fifo, "is a FIFO, not a regular file"},
		{"AWS_CA_BUNDLE", zero, "is a device, not a regular file"},
		{"AWS_CA_BUNDLE", fifo, "is a FIFO, not a regular file"},
		{"AWS_CA_BUNDLE", dir, "is a directory, not a file"},
		{"AWS_CONFIG_FILE", huge, "is 10485760 bytes; a shared AWS config or credentials file is at most 4 MiB"},
	} {
		isolateAWS(t)
		t.Setenv(c.env, c.path)
		t0 := time.Now()
		_, errs, code := cli(t, "tables", "--endpoint-url", "http://127.0.0.1:1", "--region", "us-east-1")
		if code == 0 || !strings.Contains(errs, c.env+" "+c.path+" "+c.says) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s=%s: exit %d, %q", c.env, filepath.Base(c.path), code, errs)
		}
		t.Logf("%s=%s: %s", c.env, filepath.Base(c.path), time.Since(t0).Round(time.Millisecond))
	}
}
