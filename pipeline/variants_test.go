package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/variantfile"
)

// TestVariantFilePipeline: a pipeline plays, tunes, verifies and applies
// a variant from a file given by variant_file: (relative to the config),
// starting from its derived table; the run directory records the file,
// and a changed file is refused on resume naming both files.
func TestVariantFilePipeline(t *testing.T) {
	cdir := t.TempDir()
	b, err := os.ReadFile(filepath.Join("..", "configs", "variants", "capablanca.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	capa := filepath.Join(cdir, "capa.yaml")
	if err := os.WriteFile(capa, b, 0o644); err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(fmt.Sprintf(tinyConfig, 1, AcceptAlways), "{variant: chess, pairs: 3}", "{variant_file: capa.yaml, pairs: 2}", 1)
	text = strings.Replace(text, "pairs: 4\n", "pairs: 1\n", 1)
	path := filepath.Join(cdir, "p.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Variants(); len(got) != 1 || got[0] != "capablanca" || cfg.Tune.Variants[0] != "capablanca" {
		t.Fatalf("variants %v, tuned %v", got, cfg.Tune.Variants)
	}
	dir := filepath.Join(t.TempDir(), "run")
	runPipeline(t, cfg, dir, testOptions(true))
	if _, err := os.Stat(variantfile.Recorded(dir, "capablanca")); err != nil {
		t.Errorf("the run did not record the variant file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, TablesDir, "capablanca.yaml")); err != nil {
		t.Errorf("no current table: %v", err)
	}
	to := t.TempDir()
	if _, err := Apply(dir, to); err != nil {
		t.Errorf("apply: %v", err)
	}
	if err := os.WriteFile(capa, append(b, "# changed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err = Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(t.Context(), cfg, dir, testOptions(true)); err == nil || !strings.Contains(err.Error(), capa) || !strings.Contains(err.Error(), "differs from the copy") {
		t.Errorf("a changed variant file: %v", err)
	}
}
