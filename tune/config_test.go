package tune

import (
	"os"
	"path/filepath"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/eval"
)

// TestStartTableRelative checks that a configuration's start table is
// read relative to the configuration file's directory, not the working
// directory.
func TestStartTableRelative(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	w, err := eval.Default(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Set("material.N.mg", 333); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := w.WriteFile(filepath.Join(dir, "start.yaml")); err != nil {
		t.Fatal(err)
	}
	cpath := filepath.Join(dir, "tune.yaml")
	if err := os.WriteFile(cpath, []byte("variants: [chess]\ntables: {chess: start.yaml}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(cpath)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	got, err := c.Options(nil).Start(v)
	if err != nil {
		t.Fatal(err)
	}
	if x, _ := got.Get("material.N.mg"); x != 333 {
		t.Errorf("start table material.N.mg = %v, want 333 (from %s)", x, dir)
	}
}
