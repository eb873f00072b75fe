package selfplay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/variantfile"
)

// capablancaFile copies the example Capablanca variant file into dir.
func capablancaFile(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "configs", "variants", "capablanca.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, "capa.yaml", string(b))
}

// TestVariantFileStreams: every kind of stream plays a variant from a
// file given relative to the configuration; the run directory records
// the file and its SHA-256; a resume from the directory alone reads the
// recorded copy; a changed file is refused naming both files.
func TestVariantFileStreams(t *testing.T) {
	cdir := t.TempDir()
	capa := capablancaFile(t, cdir)
	cfg, err := LoadConfig(writeFile(t, cdir, "run.yaml", `
seed: 3
nodes: 50
max_plies: 40
openings: {plies: 2, max_score: 0}
variants:
  - {variant_file: capa.yaml, pairs: 1}
imbalances:
  - {name: "A vs C", variant_file: capa.yaml, first_removes: [A], second_removes: [C], pairs: 1}
matches:
  - {variant: capablanca, variant_file: capa.yaml, a: "", b: "", pairs: 1}
`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Variants[0].Variant != "capablanca" || cfg.Variants[0].VariantFile != capa {
		t.Errorf("stream 0: variant %q, file %q; want the file's variant and %s", cfg.Variants[0].Variant, cfg.Variants[0].VariantFile, capa)
	}
	dir := t.TempDir()
	res := run(t, cfg, dir, 1)
	if len(res.Summary.Streams) != 3 {
		t.Fatalf("%d streams", len(res.Summary.Streams))
	}
	checkOutputs(t, dir)
	copyPath := variantfile.Recorded(dir, "capablanca")
	got, err := os.ReadFile(copyPath)
	want, _ := os.ReadFile(capa)
	if err != nil || string(got) != string(want) {
		t.Fatalf("the recorded copy %s: %v", copyPath, err)
	}
	if sum, err := os.ReadFile(copyPath + ".sha256"); err != nil || !strings.Contains(string(sum), capa) {
		t.Errorf("the recorded SHA-256: %q, %v", sum, err)
	}
	// the original gone, the directory still reads and resumes
	if err := os.Remove(capa); err != nil {
		t.Fatal(err)
	}
	n := 0
	for g, err := range Games(dir) {
		if err != nil {
			t.Fatal(err)
		}
		if g.Variant.Name != "capablanca" {
			t.Errorf("game of %s", g.Variant.Name)
		}
		n++
	}
	if n != 6 {
		t.Errorf("%d games read, want 6", n)
	}
	back, err := LoadRunConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if abs, _ := filepath.Abs(copyPath); back.Variants[0].VariantFile != abs {
		t.Errorf("resumed with %s, want the recorded copy %s", back.Variants[0].VariantFile, abs)
	}
	run(t, back, dir, 1)
	// a changed file is refused, naming it and the copy
	writeFile(t, cdir, "capa.yaml", strings.Replace(string(want), "title: Capablanca chess", "title: Capablanca", 1))
	_, err = Run(t.Context(), cfg, dir, RunOptions{Workers: 1, Factory: testFactory()})
	if err == nil || !strings.Contains(err.Error(), capa) || !strings.Contains(err.Error(), copyPath) {
		t.Errorf("a changed variant file: %v", err)
	}
}

// TestVariantFileErrors: a bad variant_file is an error naming the
// stream's field, and the file's line and field, never a panic.
func TestVariantFileErrors(t *testing.T) {
	cdir := t.TempDir()
	capablancaFile(t, cdir)
	writeFile(t, cdir, "bad.yaml", "name: bad\nboard: {files: 12, ranks: 8}\n")
	for _, tc := range []struct{ stream, want string }{
		{"{variant_file: none.yaml, pairs: 1}", "variants[0].variant_file"},
		{"{variant_file: bad.yaml, pairs: 1}", "bad.yaml:2: board"},
		{"{variant: chess, variant_file: capa.yaml, pairs: 1}", `variant "chess", but the variant file`},
		{"{variant_file: capa.yaml, rules: \"swap=off\", pairs: 1}", "sets its rules itself"},
	} {
		_, err := LoadConfig(writeFile(t, cdir, "run.yaml", "variants:\n  - "+tc.stream+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.stream, err, tc.want)
		}
	}
}
