package tune

import (
	"math"
	"slices"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/tune/texel"
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
	// Under -race (slow playouts) a smaller set checks the mechanics; the
	// U-shaped curve needs the full one.
	games := 4000
	if raceOn {
		games = 600
	}
	writeSyntheticRunFrom(t, dir, tw, games, 11)
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
	path := f.Regularisation
	if chosen < 0 {
		t.Fatal("no fit chosen")
	}
	for i, p := range path {
		if p.Excluded == "" && p.ValidResultMSE < path[chosen].ValidResultMSE {
			t.Errorf("prior sd %v has validation %v below the chosen %v", sds[i], p.ValidResultMSE, path[chosen].ValidResultMSE)
		}
	}
	if !raceOn {
		if chosen <= 0 || chosen >= len(sds)-1 {
			t.Fatalf("chose prior sd %v: want one strictly between the strongest and none", sds[chosen])
		}
		for _, i := range []int{0, len(path) - 1} {
			if !(path[i].ValidResultMSE > path[chosen].ValidResultMSE) {
				t.Errorf("prior sd %v: validation %v not worse than the chosen %v", sds[i], path[i].ValidResultMSE, path[chosen].ValidResultMSE)
			}
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

	// The one-SE rule keeps the strongest prior within one standard error
	// of the lowest validation error: never a weaker one than the minimum.
	for i, p := range path {
		if i == chosen && p.SEVsMin != 0 || i != chosen && !(p.SEVsMin > 0) {
			t.Errorf("prior sd %v: SE of the difference to the lowest %v", sds[i], p.SEVsMin)
		}
	}
	one, err := Fit(d, start, FitOptions{Grid: grid, Rule: RuleOneSE, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	pick := -1
	for i, p := range one.Regularisation {
		if p.Chosen {
			pick = i
		}
	}
	if pick < 0 || pick > chosen {
		t.Fatalf("one-SE rule chose %d, the minimum is %d", pick, chosen)
	}
	for i := 0; i <= pick; i++ {
		p := one.Regularisation[i]
		within := p.ValidResultMSE <= path[chosen].ValidResultMSE+p.SEVsMin
		if within != (i == pick) {
			t.Errorf("one-SE: prior sd %v valid %v, minimum %v + SE %v: chosen %v", sds[i], p.ValidResultMSE, path[chosen].ValidResultMSE, p.SEVsMin, i == pick)
		}
	}
	t.Logf("one-SE rule chose prior sd %v", sds[pick])

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
	if got := c.Options(nil).Fit.Grid; !slices.Equal(got, DefaultGrid()) {
		t.Errorf("default grid %v, want %v", got, DefaultGrid())
	}
	if got := c.Options(nil).Fit.Rule; got != RuleOneSE {
		t.Errorf("default rule %q, want %q", got, RuleOneSE)
	}
	c, err = ParseConfig([]byte("regularise: {grid: [0, 30]}\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Options(nil).Fit.Grid; !slices.Equal(got, []float64{0, 30}) {
		t.Errorf("grid %v", got)
	}
	if got := (&Config{}).Options(nil).Fit; !slices.Equal(got.Grid, DefaultGrid()) || got.Rule != RuleOneSE || !got.DefaultGrid {
		t.Errorf("a config without a prior gave grid %v, rule %q, default %v; want regularise: {}'s", got.Grid, got.Rule, got.DefaultGrid)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"prior_sd: 40\nregularise: {}\n", "t.yaml:2: regularise: set either prior_sd"},
		{"validation: 0\nregularise: {}\n", "t.yaml:2: regularise: choosing the prior by validation needs held-out games"},
		{"regularise: {grid: [10, -1]}\n", "regularise.grid[1]: -1 is not a prior standard deviation"},
		{"regularise: {grid: [10, 0, 10]}\n", "regularise.grid[2]: 10 is repeated"},
		{"regularise: {grids: [10]}\n", "grids"},
		{"regularise: {rule: best}\n", "regularise.rule: \"best\" is not a rule"},
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

// TestDiffSE checks the game-clustered standard error of a difference of
// sums: differences 1, 2, 3 have sample variance 1, so SE = sqrt(3·1).
func TestDiffSE(t *testing.T) {
	if got := diffSE([]float64{2, 4, 6}, []float64{1, 2, 3}); math.Abs(got-math.Sqrt(3)) > 1e-12 {
		t.Errorf("diffSE = %v, want sqrt(3)", got)
	}
	if got := diffSE([]float64{1}, []float64{0}); !math.IsNaN(got) {
		t.Errorf("one game: %v, want NaN", got)
	}
}

// TestPathExcludesRunawayWeights builds data that a tiny feature separates
// perfectly: without a prior its weight runs past ±eval.MaxWeight, so
// that fit is excluded (even if its validation error were lower) and the
// choice falls on a prior that keeps the weight in range.
func TestPathExcludesRunawayWeights(t *testing.T) {
	mk := func(n int, seed int64) *texel.Dataset {
		d := texel.NewDataset(0, 0)
		for i := range n {
			sign := float32(1 - 2*(i%2))
			// Feature 0 (value ±0.02) decides the result; feature 1 is noise.
			f := []texel.Feature{{Index: 0, Value: 0.02 * sign}, {Index: 1, Value: float32((i*7)%5) - 2}}
			if err := d.Add(f, (1+sign)/2, 0, seed*int64(n)+int64(i)); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	train, valid := mk(400, 1), mk(100, 2)
	w0 := []float64{0, 0}
	ev, err := texel.NewEvaluator(train, 2, texel.Config{K: 1, Center: w0, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	vev, err := texel.NewEvaluator(valid, 2, texel.Config{K: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	mse0 := ev.MSE(w0)
	path, best, err := fitPath(ev, vev, vev, w0, []float64{100, 1000, 0}, RuleMin, mse0, texel.Options{MaxIterations: 500})
	if err != nil {
		t.Fatal(err)
	}
	last := path[len(path)-1].point
	t.Logf("no prior: max|w| %v, valid %v, excluded %q", last.MaxAbsWeight, last.ValidResultMSE, last.Excluded)
	if !(last.MaxAbsWeight > eval.MaxWeight) || !strings.Contains(last.Excluded, "outside ±10000") || last.Chosen {
		t.Fatalf("no-prior fit: %+v, want it excluded for a weight beyond ±%d", last, eval.MaxWeight)
	}
	if best == len(path)-1 || !(path[best].point.MaxAbsWeight <= eval.MaxWeight) {
		t.Errorf("chose %+v", path[best].point)
	}
	// Nothing usable at all is an error, not a table out of range.
	if _, _, err := fitPath(ev, vev, vev, w0, []float64{0}, RuleMin, mse0, texel.Options{MaxIterations: 500}); err == nil ||
		!strings.Contains(err.Error(), "unusable") {
		t.Errorf("a lone runaway fit gave error %v", err)
	}
}

// TestLambdaKeepsK fits synthetic data (results drawn with K = 0.5, search
// scores equal to the true evaluation) with lambda 0 and 1: K is fitted
// against the results in both, so it stays near 0.5 instead of collapsing
// to 0 when the target is the search score's sigmoid.
func TestLambdaKeepsK(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	dir := t.TempDir()
	games := 1500
	if raceOn {
		games = 400
	}
	writeSyntheticRun(t, dir, v, games, 5)
	data, err := Load([]string{dir}, LoadOptions{ValidFraction: 0.2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	start, err := eval.Default(v)
	if err != nil {
		t.Fatal(err)
	}
	var ks []float64
	for _, lambda := range []float64{0, 1} {
		f, err := Fit(data["chess"], start, FitOptions{Lambda: lambda, PriorSD: 20, Free: []string{"material."}, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if lambda == 0 && f.ValidResultMSE != f.ValidMSE {
			t.Errorf("lambda 0: validation against results %v differs from validation %v", f.ValidResultMSE, f.ValidMSE)
		}
		if lambda == 1 && !(f.ValidMSE < f.ValidResultMSE) {
			t.Errorf("lambda 1: error against the search scores %v not below the error against results %v", f.ValidMSE, f.ValidResultMSE)
		}
		ks = append(ks, float64(f.K))
	}
	if ks[0] != ks[1] || math.Abs(ks[0]-0.5) > 0.2 {
		t.Errorf("K at lambda 0 and 1: %v, want both equal and near 0.5", ks)
	}
}

// TestPriorScale checks the per-weight prior factors: a feature that
// typically counts several units is held per typical value, one of at
// most a unit per unit.
func TestPriorScale(t *testing.T) {
	if got := priorScale([]float64{0, 0.3, 1, 7.5}); !slices.Equal(got, []float64{1, 1, 1, 7.5}) {
		t.Errorf("priorScale = %v", got)
	}
	// Feature 1 occurs in one row of three with value 6: its size where
	// present is 6, not its RMS over all rows (√12).
	d := texel.NewDataset(0, 0)
	for i, f := range [][]texel.Feature{{{Index: 0, Value: 0.5}}, {{Index: 0, Value: -0.5}, {Index: 1, Value: 6}}, {{Index: 2, Value: 0}}} {
		if err := d.Add(f, 1, 0, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	if got := presentRMS(d, 4); !slices.Equal(got, []float64{0.5, 6, 0, 0}) {
		t.Errorf("presentRMS = %v", got)
	}
}
