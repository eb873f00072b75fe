package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tamerlane/values"
	"tamerlane/values/published"
)

// TestValuesAtlas checks the atlas commands end to end on a small
// measurement of chess: "values --run A --write-atlas chess.yaml" writes
// the atlas of A with the provenance A records.
func TestValuesAtlas(t *testing.T) {
	base := t.TempDir()
	measure := func(name string, seed int) string {
		cfg := filepath.Join(base, name+".yaml")
		text := strings.ReplaceAll("name: NAME\nseed: SEED\nnodes: 60\nmax_plies: 80\nregression: {min_ply: 4, min_games: 3}\nvariants:\n"+
			"  - {variant: chess, pairs: 30, imbalance: {pieces: [N, R], half_width: 0.01, batch_pairs: 4, max_pairs: 4}}\n", "SEED", strconv.Itoa(seed))
		if err := os.WriteFile(cfg, []byte(strings.ReplaceAll(text, "NAME", name)), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(base, name)
		if code, _, errs := runCLI(t, "measure", "-c", cfg, "-o", dir, "-workers", "2"); code != 0 {
			t.Fatalf("measure %s: exit %d, %s", name, code, errs)
		}
		return dir
	}
	a := measure("a", 1)
	atlas := filepath.Join(base, "chess.yaml")
	if code, out, errs := runCLI(t, "values", "--run", a, "--write-atlas", atlas); code != 0 || !strings.Contains(out, "wrote "+atlas) {
		t.Fatalf("--write-atlas: exit %d, %s%s", code, out, errs)
	}
	tab, err := published.LoadFile(atlas)
	if err != nil {
		t.Fatal(err)
	}
	src, ok := tab.Source(values.AtlasRegression)
	if !ok || src.Provenance == nil || src.Provenance.Config != filepath.ToSlash(filepath.Join(base, "a.yaml")) || src.Provenance.Nodes != 60 {
		t.Fatalf("regression source %+v", src)
	}
	if code, _, errs := runCLI(t, "values", "--run", a, "--write-atlas", filepath.Join(base, "shogi.yaml")); code == 0 || !strings.Contains(errs, "no values of shogi") {
		t.Errorf("an atlas named after another variant: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "values", "--run", a, "--write-atlas", atlas, "--min-ply", "8"); code == 0 || !strings.Contains(errs, "regression settings") {
		t.Errorf("an atlas of changed settings: exit %d, %s", code, errs)
	}

}
