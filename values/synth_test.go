package values

import (
	"math"
	"math/rand/v2"
	"slices"
	"tamerlane/internal/stats"
	"testing"
)

// synthGames draws n games whose result follows the package's regression
// model with the given true values (pawns), α and scale s(φ) = g0 + g1·φ;
// each game contributes reps identical samples (one cluster).
func synthGames(rng *rand.Rand, n, reps int, vals []float64, alpha, g0, g1 float64) []Sample {
	return synthGamesAt(rng, n, reps, func(float64) []float64 { return vals }, alpha, g0, g1)
}

// synthGamesAt is synthGames with true values that depend on the phase.
func synthGamesAt(rng *rand.Rand, n, reps int, valsAt func(phase float64) []float64, alpha, g0, g1 float64) []Sample {
	var out []Sample
	vals := valsAt(0)
	for g := range n {
		d := make([]float64, len(vals))
		d[0] = float64(rng.IntN(5) - 2)
		for j := 1; j < len(vals); j++ {
			if rng.Float64() < 0.4 {
				d[j] = float64(rng.IntN(3) - 1)
			}
		}
		ph := rng.Float64()
		z := alpha
		for j, v := range valsAt(ph) {
			z += (g0 + g1*ph) * v * d[j]
		}
		p := stats.Logistic(z)
		draw := 0.6 * math.Min(p, 1-p)
		u := rng.Float64()
		r := 0.0
		switch {
		case u < p-draw/2:
			r = 1
		case u < p+draw/2:
			r = 0.5
		}
		for range reps {
			out = append(out, Sample{Diff: d, Phase: ph, Game: g, Result: r, Weight: 1 / float64(reps)})
		}
	}
	return out
}

var synthNames = []string{"P", "N", "B", "R"}
var synthVals = []float64{1, 3, 3.5, 5}

func TestRegressionRecoversValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := synthGames(rng, 20000, 3, synthVals, 0.1, 0.35, 0.3)
	r, err := FitRegression(synthNames, s, RegressionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for j, v := range synthVals {
		e := r.Values[j]
		if !e.Covers(v) {
			t.Errorf("%s: %.3f [%.3f, %.3f] does not cover the true %.2f", synthNames[j], e.Value, e.Lo, e.Hi, v)
		}
		if j > 0 && float64(e.SE) > 0.2 {
			t.Errorf("%s: SE %.3f too large for 20000 games", synthNames[j], e.SE)
		}
	}
	if math.Abs(r.Gamma1-0.3) > 0.15 {
		t.Errorf("gamma1 %.3f, want about 0.3", r.Gamma1)
	}
}

// TestRegressionCoverage checks that the 95% intervals of the clustered
// sandwich cover the true values at about the nominal rate over 200 seeds:
// the count of covering intervals must lie in the central 99.9% binomial
// band around 0.95 (175..197 of 200).
func TestRegressionCoverage(t *testing.T) {
	seeds := 200
	if testing.Short() {
		seeds = 100
	}
	cover := make([]int, len(synthVals))
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 99))
		s := synthGames(rng, 1500, 2, synthVals, 0.1, 0.35, 0.3)
		r, err := FitRegression(synthNames, s, RegressionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for j, v := range synthVals {
			if r.Values[j].Covers(v) {
				cover[j]++
			}
		}
	}
	lo, hi := binomialBand(seeds, 0.95, 0.001)
	for j := 1; j < len(synthVals); j++ {
		if cover[j] < lo || cover[j] > hi {
			t.Errorf("%s: %d of %d intervals cover, outside the binomial band [%d, %d]", synthNames[j], cover[j], seeds, lo, hi)
		}
	}
	t.Logf("coverage of %d seeds: %v (band [%d, %d])", seeds, cover[1:], lo, hi)
}

// binomialBand returns the central 1−alpha band of Binomial(n, p).
func binomialBand(n int, p, alpha float64) (int, int) {
	pmf := make([]float64, n+1)
	for k := 0; k <= n; k++ {
		lg, _ := math.Lgamma(float64(n + 1))
		a, _ := math.Lgamma(float64(k + 1))
		b, _ := math.Lgamma(float64(n - k + 1))
		pmf[k] = math.Exp(lg - a - b + float64(k)*math.Log(p) + float64(n-k)*math.Log(1-p))
	}
	lo, c := 0, 0.0
	for ; lo <= n && c+pmf[lo] < alpha/2; lo++ {
		c += pmf[lo]
	}
	hi, c := n, 0.0
	for ; hi >= 0 && c+pmf[hi] < alpha/2; hi-- {
		c += pmf[hi]
	}
	return lo, hi
}

// TestRegressionIndependentOfStart: the fit does not depend on where the
// Fisher scoring starts (for example the engine table's values).
func TestRegressionIndependentOfStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := synthGames(rng, 4000, 2, synthVals, 0, 0.4, 0.2)
	a, err := FitRegression(synthNames, s, RegressionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := FitRegression(synthNames, s, RegressionOptions{Start: []float64{1, 3.25, 3.25, 5}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := FitRegression(synthNames, s, RegressionOptions{Start: []float64{1, 9, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	for j := range synthNames {
		for _, o := range []*Regression{b, c} {
			x, y := a.Values[j], o.Values[j]
			if relDiff(float64(x.Value), float64(y.Value)) > 1e-9 || relDiff(float64(x.SE), float64(y.SE)) > 1e-9 {
				t.Errorf("%s: %v vs %v from another start", synthNames[j], x, y)
			}
		}
	}
}

func relDiff(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / math.Max(math.Abs(a), math.Abs(b))
}

// TestRatioDeltaMethod checks the scaled-value interval against a
// simulation of the ratio of two correlated normal estimates.
func TestRatioDeltaMethod(t *testing.T) {
	a, b, va, vb, cab := 3.0, 6.0, 0.01, 0.02, 0.005
	iv := ratio(5, a, b, va, vb, cab)
	if math.Abs(float64(iv.Value)-2.5) > 1e-12 {
		t.Fatalf("value %v", iv.Value)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	n, s, s2 := 200000, 0.0, 0.0
	l := math.Sqrt(va)
	m := cab / l
	q := math.Sqrt(vb - m*m)
	for range n {
		z1, z2 := rng.NormFloat64(), rng.NormFloat64()
		r := 5 * (a + l*z1) / (b + m*z1 + q*z2)
		s += r
		s2 += r * r
	}
	sd := math.Sqrt(s2/float64(n) - (s/float64(n))*(s/float64(n)))
	if math.Abs(sd-float64(iv.SE))/sd > 0.03 {
		t.Errorf("delta-method SE %.4f, simulated %.4f", iv.SE, sd)
	}
	// A piece over itself is the scale's unit, with no SE: these figures
	// leave the delta method's cancelling terms a rounding error of 2e-19
	// (an SE of 5e-10) without the exact case.
	if u := ratio(5, 2.54, 2.54, 0.0003, 0.0003, 0.0003); u.Value != 5 || u.SE != 0 || u.Lo != 5 || u.Hi != 5 {
		t.Errorf("2.54 over itself in the scale 5: %+v, want the unit 5 exactly", *u)
	}
}

// DiffGames counts, per class, the games with at least one sample whose
// difference in it is not zero, once per game however many samples have
// it.
func TestDiffGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := synthGames(rng, 3000, 2, synthVals, 0.1, 0.35, 0.3)
	want := make([]map[int]bool, len(synthNames))
	for j := range want {
		want[j] = map[int]bool{}
	}
	for i := range s {
		// The first sample of every even game loses its knight
		// difference: the game still counts once, through the second.
		if i%2 == 0 && s[i].Game%2 == 0 {
			d := slices.Clone(s[i].Diff)
			d[1] = 0
			s[i].Diff = d
		}
		for j, x := range s[i].Diff {
			if x != 0 {
				want[j][s[i].Game] = true
			}
		}
	}
	r, err := FitRegression(synthNames, s, RegressionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for j := range synthNames {
		if r.DiffGames[j] != len(want[j]) {
			t.Errorf("%s: %d games with a difference, want %d", synthNames[j], r.DiffGames[j], len(want[j]))
		}
	}
	if n := r.DiffGames[1]; n < 650 || n > 950 { // 0.4 × 2/3 of 3000
		t.Errorf("N differs in %d of 3000 games, want about 800", n)
	}
}
