package selfplay

import (
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/engine"
)

// TestShippedOpenings reads every openings file in data/openings with
// the variant its name begins with: each holds 100 distinct positions of
// games not yet over, as their headers say, so that a match on them
// plays 100 different openings.
func TestShippedOpenings(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "data", "openings", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no openings files (%v)", err)
	}
	for _, f := range files {
		name, _, ok := strings.Cut(filepath.Base(f), "-balanced")
		if !ok {
			t.Errorf("%s: the name does not say the variant (VARIANT-balanced-...)", f)
			continue
		}
		v, err := engine.NewVariant(name, engine.Options{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		fens, err := ReadFENs(v, f)
		if err != nil {
			t.Error(err)
			continue
		}
		seen := map[string]bool{}
		for _, fen := range fens {
			seen[fen] = true
		}
		if len(fens) != 100 || len(seen) != len(fens) {
			t.Errorf("%s: %d positions, %d distinct; want 100 distinct", f, len(fens), len(seen))
		}
	}
}
