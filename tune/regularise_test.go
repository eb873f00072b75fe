package tune

import (
	"math"
	"slices"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/eval"
)

// TestRegularisationChoosesIntermediatePrior fits every weight of a small
// synthetic chess data set (one random-playout position per game, results
// drawn from a table whose N and B differ from the start): a very strong
// prior cannot move N and B, no prior overfits the ~100 weights, and the
// validation error picks a prior in between. The chosen fit equals a
// direct fit at that prior, and the path is deterministic.
func TestRegularisationChoosesIntermediatePrior(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	dir := t.TempDir()
	start, err := eval.Default(v)
	if err != nil {
		t.Fatal(err)
	}
	tw := start.Clone()
	for name, x := range map[string]float64{"material.N.mg": 150, "material.N.eg": 150, "material.B.mg": 500, "material.B.eg": 500} {
		if err := tw.Set(name, x); err != nil {
			t.Fatal(err)
		}
	}
	writeSyntheticRunFrom(t, dir, tw, 4000, 11)
	data, err := Load([]string{dir}, LoadOptions{ValidFraction: 0.3, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	d := data["chess"]
	grid := []float64{0, 160, 1, 40, 10} // any order: fitted strong to weak
	opt := FitOptions{Grid: grid, Workers: 2}
	f, err := Fit(d, start, opt)
	if err != nil {
		t.Fatal(err)
	}
	var sds []float64
	chosen := -1
	for i, p := range f.Regularisation {
		t.Logf("prior sd %5g: train %.6f valid %.6f (results %.6f) %d iterations max|w| %.0f %s chosen=%v",
			float64(p.PriorSD), float64(p.TrainMSE), float64(p.ValidMSE), float64(p.ValidResultMSE), p.Iterations, float64(p.MaxAbsWeight), p.Excluded, p.Chosen)
		sds = append(sds, float64(p.PriorSD))
		if p.Chosen {
			if chosen >= 0 {
				t.Fatalf("two fits chosen: %d and %d", chosen, i)
			}
			chosen = i
		}
	}
	if want := []float64{1, 10, 40, 160, 0}; !slices.Equal(sds, want) {
		t.Fatalf("path order %v, want %v", sds, want)
	}
	if chosen <= 0 || chosen >= len(sds)-1 {
		t.Fatalf("chose prior sd %v: want one strictly between the strongest and none", sds[max(chosen, 0)])
	}
	path := f.Regularisation
	for _, i := range []int{0, len(path) - 1} {
		if !(path[i].ValidResultMSE > path[chosen].ValidResultMSE) {
			t.Errorf("prior sd %v: validation %v not worse than the chosen %v", sds[i], path[i].ValidResultMSE, path[chosen].ValidResultMSE)
		}
	}
	// Training error falls as the prior weakens (each fit warm-started).
	for i := 1; i < len(path); i++ {
		if path[i].TrainMSE > path[i-1].TrainMSE+1e-9 {
			t.Errorf("train MSE rose from %v (sd %v) to %v (sd %v)", path[i-1].TrainMSE, sds[i-1], path[i].TrainMSE, sds[i])
		}
	}
	if f.PriorSD != path[chosen].PriorSD || f.ValidResultMSE != path[chosen].ValidResultMSE || f.ValidMSE != f.ValidResultMSE {
		t.Errorf("fit reports prior %v valid %v/%v, path's choice %v valid %v", f.PriorSD, f.ValidMSE, f.ValidResultMSE, path[chosen].PriorSD, path[chosen].ValidResultMSE)
	}
	if !strings.Contains(f.PriorText(), "chosen by validation from 1, 10, 40, 160, none") {
		t.Errorf("PriorText %q", f.PriorText())
	}

	// A direct fit at the chosen prior, from the start table, reaches the
	// same optimum as the warm-started path.
	direct, err := Fit(d, start, FitOptions{PriorSD: float64(f.PriorSD), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(direct.Regularisation) != 0 {
		t.Errorf("a fixed prior recorded a path")
	}
	maxDiff := 0.0
	for i := range f.Weights {
		maxDiff = max(maxDiff, math.Abs(float64(f.Weights[i].Value-direct.Weights[i].Value)))
	}
	if maxDiff > 0.05 {
		t.Errorf("chosen fit and direct fit differ by up to %.3f cp", maxDiff)
	}
	if rel := math.Abs(float64(f.ValidMSE-direct.ValidMSE)) / float64(direct.ValidMSE); rel > 1e-6 {
		t.Errorf("validation MSE %v (path) vs %v (direct)", f.ValidMSE, direct.ValidMSE)
	}

	// Deterministic: the same path again, bit for bit.
	again, err := Fit(d, start, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range path {
		if path[i] != again.Regularisation[i] {
			t.Fatalf("path point %d differs: %+v vs %+v", i, path[i], again.Regularisation[i])
		}
	}
}

// TestRegulariseConfig checks the regularise section: the default grid,
// and errors that name the field.
func TestRegulariseConfig(t *testing.T) {
	c, err := ParseConfig([]byte("regularise: {}\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Options(nil).Fit.Grid; !slices.Equal(got, DefaultGrid) {
		t.Errorf("default grid %v, want %v", got, DefaultGrid)
	}
	c, err = ParseConfig([]byte("regularise: {grid: [0, 30]}\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Options(nil).Fit.Grid; !slices.Equal(got, []float64{0, 30}) {
		t.Errorf("grid %v", got)
	}
	if got := (&Config{}).Options(nil).Fit.Grid; got != nil {
		t.Errorf("no regularise section gave grid %v", got)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"prior_sd: 40\nregularise: {}\n", "t.yaml:2: regularise: set either prior_sd"},
		{"validation: 0\nregularise: {}\n", "t.yaml:2: regularise: choosing the prior by validation needs held-out games"},
		{"regularise: {grid: [10, -1]}\n", "regularise.grid[1]: -1 is not a prior standard deviation"},
		{"regularise: {grid: [10, 0, 10]}\n", "regularise.grid[2]: 10 is repeated"},
		{"regularise: {grids: [10]}\n", "grids"},
	} {
		_, err := ParseConfig([]byte(tc.yaml), "t.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.yaml, err, tc.want)
		}
	}
}

// TestOrderGrid checks the path order (strong to weak, no prior last) and
// the refusal of bad values.
func TestOrderGrid(t *testing.T) {
	got, err := orderGrid([]float64{0, 40, 5, 320})
	if err != nil || !slices.Equal(got, []float64{5, 40, 320, 0}) {
		t.Errorf("orderGrid = %v, %v", got, err)
	}
	for _, g := range [][]float64{{-1}, {math.NaN()}, {math.Inf(1)}, {5, 5}} {
		if _, err := orderGrid(g); err == nil {
			t.Errorf("orderGrid(%v) accepted", g)
		}
	}
}
