//go:build unix

package fsx

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadFileFIFO: a named pipe with no writer is refused at once (an
// open would block until a writer comes), and /dev/zero, which never
// ends, is refused without reading.
func TestReadFileFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "weights.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, c := range []struct{ path, want string }{
		{fifo, fifo + " is a named pipe (FIFO), not a regular file"},
		{"/dev/zero", "/dev/zero is a character device, not a regular file"},
	} {
		if _, err := os.Stat(c.path); err != nil {
			t.Logf("%s: %v", c.path, err)
			continue
		}
		done := make(chan error, 1)
		go func() {
			_, err := ReadFile(c.path, MaxConfigBytes)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ReadFile(%s): %v, want %q", c.path, err, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("ReadFile(%s) blocked", c.path)
		}
	}
}
