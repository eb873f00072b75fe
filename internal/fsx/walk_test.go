package fsx

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// WalkLinked reaches the files behind links to directories under the
// links' names, honours SkipDir there too, and ends on a link cycle.
func TestWalkLinked(t *testing.T) {
	base := t.TempDir()
	mk := func(rel string) {
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, rel string) {
		if err := os.Symlink(target, filepath.Join(base, rel)); err != nil {
			t.Fatal(err)
		}
	}
	mk("runs/a/run.json")
	mk("runs/b/run.json")
	mk("runs/b/skip/run.json")
	mk("pool/own/run.json")
	link(filepath.Join(base, "runs", "a"), "pool/x")
	link("../runs/b", "pool/y")                        // relative
	link(filepath.Join(base, "pool"), "pool/own/loop") // a cycle
	var got []string
	err := WalkLinked(filepath.Join(base, "pool"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "skip" {
			return fs.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(base, path)
			got = append(got, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"pool/own/run.json", "pool/x/run.json", "pool/y/run.json"}
	if !slices.Equal(got, want) {
		t.Errorf("walked %v, want %v", got, want)
	}
	if err := WalkLinked(filepath.Join(base, "none"), func(string, fs.DirEntry, error) error { return fs.ErrNotExist }); err == nil {
		t.Error("a missing root walked without error")
	}
}
