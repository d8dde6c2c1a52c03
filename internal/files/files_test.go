package files

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostile makes, in a test's folder, the files an attack hands over in
// place of a real one: a link to /dev/zero, a FIFO no one writes, a
// directory, a file over the cap; and a real file behind a link.
func hostile(t *testing.T) (dir string, paths map[string]string) {
	t.Helper()
	dir = t.TempDir()
	paths = map[string]string{
		"zero": filepath.Join(dir, "zero"), "fifo": filepath.Join(dir, "fifo"), "dir": filepath.Join(dir, "sub"),
		"huge": filepath.Join(dir, "huge"), "real": filepath.Join(dir, "real"), "link": filepath.Join(dir, "link"),
	}
	if err := os.Symlink("/dev/zero", paths["zero"]); err != nil {
		t.Skip("no symlinks here")
	}
	if err := syscall.Mkfifo(paths["fifo"], 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(paths["dir"], 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(paths["huge"], make([]byte, 2<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(paths["real"], []byte("region = \"eu-west-1\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(paths["real"], paths["link"]); err != nil {
		t.Fatal(err)
	}
	return dir, paths
}

// Read refuses a link to /dev/zero, a FIFO, a directory and a file over
// its kind's cap, each at once and naming what it is; it reads a regular
// file, behind a link too.
func TestReadRefusesWhatIsNotARegularFile(t *testing.T) {
	_, paths := hostile(t)
	for name, want := range map[string]string{
		"zero": "is a device, not a regular file",
		"fifo": "is a FIFO, not a regular file",
		"dir":  "is a directory, not a file",
		"huge": "is 2097152 bytes; a configuration file is at most 1 MiB",
	} {
		t0 := time.Now()
		_, err := Read(paths[name], Config)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
		t.Logf("%s refused in %s: %v", name, time.Since(t0).Round(time.Microsecond), err)
	}
	if b, err := Read(paths["link"], Config); err != nil || !strings.Contains(string(b), "eu-west-1") {
		t.Errorf("a link to a regular file: %q %v", b, err)
	}
	if err := Check(filepath.Join(paths["dir"], "none"), AWS); err != nil {
		t.Errorf("a file that is not there is no error to Check: %v", err)
	}
	if f, err := Open(paths["huge"], Data); err != nil {
		t.Errorf("a data file has no cap of its own: %v", err)
	} else {
		f.Close()
	}
}

// Within keeps a file inside its folder, links resolved: a link to
// outside, or a folder on the way that is one, is refused.
func TestWithinKeepsLinksInside(t *testing.T) {
	dir, paths := hostile(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "part.json.gz"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	export := filepath.Join(dir, "export")
	if err := os.Mkdir(export, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(export, "data")); err != nil {
		t.Fatal(err)
	}
	if err := Within(export, filepath.Join(export, "data", "part.json.gz")); err == nil || !strings.Contains(err.Error(), "outside the folder") {
		t.Errorf("a data folder linked outside: %v", err)
	}
	if err := Within(dir, paths["link"]); err != nil {
		t.Errorf("a link inside: %v", err)
	}
}
