//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFOInputsRefused: a named pipe given as a table or a config is
// refused at once; opening it blocked until a writer came, and the
// command could not be stopped by SIGTERM.
func TestFIFOInputsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{
		{"search", "--variant", "chess", "--depth", "1", "--weights", fifo},
		{"run", "-c", fifo, "-o", filepath.Join(dir, "run"), "--quiet"},
		{"selfplay", "-c", fifo, "-o", filepath.Join(dir, "sp"), "--quiet"},
		{"tune", "--data", fifo, "-o", filepath.Join(dir, "tune")},
	} {
		code, _, errs := runCLIWithin(t, 10*time.Second, args...)
		if code == 0 || !strings.Contains(errs, fifo+" is a named pipe (FIFO), not a regular file") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}
