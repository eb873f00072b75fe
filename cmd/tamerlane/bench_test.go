package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCPUProfile: a profile of work that succeeded is written whole (a
// gzipped pprof file); after a failure the target is left as it was; a
// path that cannot be created is refused with its name.
func TestCPUProfile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.pgo")
	stop, err := startCPUProfile(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Errorf("profile starts %x, want gzip's 1f8b", b[:min(2, len(b))])
	}

	failed := filepath.Join(dir, "failed.pgo")
	if err := os.WriteFile(failed, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop, err = startCPUProfile(failed)
	if err != nil {
		t.Fatal(err)
	}
	want := errors.New("bench interrupted")
	if err := stop(want); err != want {
		t.Errorf("stop after a failure returned %v, want the failure", err)
	}
	if b, _ := os.ReadFile(failed); string(b) != "old" {
		t.Errorf("after a failure the target holds %q, want it unchanged", b)
	}

	bad := filepath.Join(dir, "missing", "p.pgo")
	if _, err := startCPUProfile(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("uncreatable path: error %v, want one naming %s", err, bad)
	}
}
