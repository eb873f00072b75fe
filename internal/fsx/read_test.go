package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFileRefuses: ReadFile and Open read a regular file within the
// limit and refuse, with an error naming the path and what it is, a
// directory, a device that never ends, a file over the limit, a loop of
// symbolic links and a link to nothing.
func TestReadFileRefuses(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.yaml")
	if err := os.WriteFile(ok, []byte("name: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(ok, 8); err != nil || string(b) != "name: x\n" {
		t.Fatalf("ReadFile(%s) = %q, %v", ok, b, err)
	}
	if _, err := ReadFile(ok, 7); err == nil || !strings.Contains(err.Error(), ok+" is 8 bytes, more than the 7 bytes") {
		t.Errorf("over the limit: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, 5<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(big, MaxConfigBytes); err == nil || !strings.Contains(err.Error(), "is 5.0 MiB, more than the 4.0 MiB") {
		t.Errorf("5 MiB config: %v", err)
	}
	loop := filepath.Join(dir, "loop.yaml")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.yaml")
	if err := os.Symlink(filepath.Join(dir, "gone.yaml"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{dir, dir + " is a directory, not a regular file"},
		{os.DevNull, os.DevNull + " is a character device, not a regular file"},
		{loop, loop + ": a loop of symbolic links"},
		{dangling, dangling + ": a symbolic link to " + filepath.Join(dir, "gone.yaml") + ", which does not exist"},
	} {
		if _, err := ReadFile(c.path, MaxConfigBytes); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadFile(%s): %v, want %q", c.path, err, c.want)
		}
		if f, err := Open(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			if f != nil {
				f.Close()
			}
			t.Errorf("Open(%s): %v, want %q", c.path, err, c.want)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "none.yaml"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v does not wrap fs.ErrNotExist", err)
	}
}

// TestOpenAndCheckMessages: a missing file is reported as os.Open and
// os.Stat report it, by the operation that failed, so that messages stay
// those of the functions the helpers replace.
func TestOpenAndCheckMessages(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.yaml")
	if _, err := Open(missing); err == nil || err.Error() != "open "+missing+": no such file or directory" {
		t.Errorf("Open: %v", err)
	}
	if err := CheckRegular(missing); err == nil || err.Error() != "stat "+missing+": no such file or directory" {
		t.Errorf("CheckRegular: %v", err)
	}
	if err := CheckRegular(os.DevNull); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("CheckRegular(%s): %v", os.DevNull, err)
	}
}
