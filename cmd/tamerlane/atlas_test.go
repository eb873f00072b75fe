package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tamerlane/values"
	"tamerlane/values/published"
)

// TestValuesAtlas checks the atlas commands end to end on two small
// measurements of chess: "values --run A --write-atlas chess.yaml" writes
// the atlas of A with the provenance A records, "values --run B
// --against chess.yaml" prints each estimate of B beside the atlas's with
// the difference and its z, "--against atlas" says that the embedded
// atlas has no chess entry, and "--atlas chess.yaml --markdown/--plot"
// print its tables and draw its plot.
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
	a, b := measure("a", 1), measure("b", 2)
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

	code, out, errs := runCLI(t, "values", "--run", b, "--against", atlas, "--json")
	if code != 0 {
		t.Fatalf("--against FILE: exit %d, %s", code, errs)
	}
	var c values.AtlasComparison
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	if c.Run != b || c.Atlas != atlas || len(c.Variants) != 1 || len(c.Variants[0].Differences) == 0 {
		t.Fatalf("comparison %+v", c)
	}
	if g := c.Variants[0].Games; g[0] != src.Provenance.Games || g[1] != 60 {
		t.Errorf("games %v, want the atlas's %d and the run's 60", g, src.Provenance.Games)
	}
	// Each difference is the run's estimate minus the atlas's, its z over
	// the atlas's SE read off the 95% interval.
	code, out, _ = runCLI(t, "values", "--run", b, "--json")
	var doc values.Document
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("values --run b: exit %d", code)
	}
	checked := 0
	for _, d := range c.Variants[0].Differences {
		if d.Estimate != "regression" {
			continue
		}
		p := doc.Variant("chess").Piece(d.Piece)
		av := values.AtlasInterval(tab, d.Piece, values.AtlasRegression, published.PawnOne)
		se := math.Hypot(float64(p.Regression.SE), float64(av.Hi-av.Lo)/(2*1.959963984540054))
		if math.Abs(float64(d.Difference.Value-(p.Regression.Value-av.Value))) > 1e-9 || math.Abs(d.Z-float64(p.Regression.Value-av.Value)/se) > 1e-9 {
			t.Errorf("%s: difference %+v z %v; run %v, atlas %v", d.Piece, d.Difference, d.Z, p.Regression, av)
		}
		checked++
	}
	if checked == 0 {
		t.Error("no regression estimate compared")
	}
	if code, out, errs := runCLI(t, "values", "--run", b, "--against", atlas); code != 0 || !strings.Contains(out, "| piece | estimate | the atlas | this run | run − atlas | z |") {
		t.Errorf("--against FILE as Markdown: exit %d, %s%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "values", "--run", a, "--against", atlas); code == 0 || !strings.Contains(errs, "not independent") {
		t.Errorf("the atlas's own run against it: exit %d, %s", code, errs)
	}
	if code, out, errs := runCLI(t, "values", "--run", b, "--against", "atlas"); code != 0 || !strings.Contains(out, "chess: the atlas has no entry for this variant") {
		t.Errorf("--against atlas: exit %d, %s%s", code, out, errs)
	}
	// The run A is still what "--against B" compares as before.
	if code, out, errs := runCLI(t, "values", "--run", a, "--against", b); code != 0 || !strings.Contains(out, "| piece | estimate | A | B | B − A | z |") {
		t.Errorf("--against a run: exit %d, %s", code, errs)
	}

	// The plot's folder is made when missing (docs/atlas/ on a fresh checkout).
	code, out, errs = runCLI(t, "values", "--atlas", atlas, "--markdown", "--plot", filepath.Join(base, "atlas", "plot"))
	if code != 0 {
		t.Fatalf("--atlas --markdown: exit %d, %s", code, errs)
	}
	for _, want := range []string{"**In P=1**", "| N | knight | leap (1,2) |", "3.25 (kaufman1999, measured)", "config `" + filepath.ToSlash(filepath.Join(base, "a.yaml")) + "`"} {
		if !strings.Contains(out, want) {
			t.Errorf("--atlas --markdown lacks %q:\n%s", want, out)
		}
	}
	for _, ext := range []string{".png", ".svg"} {
		if st, err := os.Stat(filepath.Join(base, "atlas", "plot"+ext)); err != nil || st.Size() == 0 {
			t.Errorf("plot%s: %v", ext, err)
		}
	}
	if code, _, errs := runCLI(t, "values", "--atlas", atlas); code == 0 || !strings.Contains(errs, "--markdown or --plot") {
		t.Errorf("--atlas alone: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "values", "--markdown"); code == 0 || !strings.Contains(errs, "need --atlas FILE") {
		t.Errorf("--markdown alone: exit %d, %s", code, errs)
	}
}

// TestAtlasMarkdownFileVariant: the table of an atlas measured on a
// variant file says how its pieces move, read from the variant file that
// the measurement config in its provenance names (from the repository
// root, as the page's commands run).
func TestAtlasMarkdownFileVariant(t *testing.T) {
	t.Chdir("../..")
	code, out, errs := runCLI(t, "values", "--atlas", "data/measured/capablanca.yaml", "--markdown")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"| A | archbishop (bishop + knight) | leap (1,2); slide diagonally |", "| C | chancellor (rook + knight) | leap (1,2); slide orthogonally |"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}
