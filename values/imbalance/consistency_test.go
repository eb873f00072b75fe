package imbalance

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// byHandConsistency is the test of TestConsistencyByHand's two matches.
func byHandConsistency(t *testing.T) *Consistency {
	t.Helper()
	ms := []Match{{Name: "a", Diff: []float64{1}, Wins: 6, Draws: 2, Losses: 2}, {Name: "b", Diff: []float64{1}, Wins: 2, Draws: 2, Losses: 6}}
	res, err := Fit([]string{"P"}, ms, Options{Reference: "P"})
	if err != nil {
		t.Fatal(err)
	}
	return res.Consistency
}

// TestConsistencyByHand: two pawn-odds matches, 7-of-10 and 3-of-10 (W-D-L
// 6-2-2 and 2-2-6), fit the pooled score 0.5. By hand: lack of fit
// 10·0.2²/0.25 twice = 3.2; pure error (6·0.3² + 2·0.2² + 2·0.7²)/0.25
// twice = 12.8 over 20 − 2 games, φ = 0.711; X² = 4.5 on 1 df; leverages
// 1/2; z = ±0.2/√(φ·0.25·0.5/10) = ±3/√2; and F(1, 18) = t²(18) at
// t = 2.121 leaves p ≈ 0.048.
func TestConsistencyByHand(t *testing.T) {
	c := byHandConsistency(t)
	if c.Matches != 2 || c.DF != 1 || !c.Tested() {
		t.Fatalf("matches %d, df %d; want 2, 1", c.Matches, c.DF)
	}
	near := func(what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.6f, want %.6f", what, got, want)
		}
	}
	near("pure error", float64(c.PureError), 12.8/18, 1e-9)
	near("chi-square", float64(c.ChiSquare), 4.5, 1e-9)
	near("p", float64(c.P), 0.048, 0.002)
	for i, want := range []float64{3 / math.Sqrt2, -3 / math.Sqrt2} {
		r := c.Residuals[i]
		near(r.Name+" leverage", float64(r.Leverage), 0.5, 1e-9)
		near(r.Name+" fitted", float64(r.Fitted), 0.5, 1e-9)
		near(r.Name+" z", float64(r.Z), want, 1e-6)
	}
	if !c.Disagrees(0.05) || c.Disagrees(0.01) {
		t.Errorf("Disagrees at 0.05 %v, at 0.01 %v; want true, false (p %.4f)", c.Disagrees(0.05), c.Disagrees(0.01), c.P)
	}
}

// TestConsistencyExactlyIdentified: as many matches as values leaves
// nothing to test; every match sets a value (leverage 1, no residual),
// with or without a ridge.
func TestConsistencyExactlyIdentified(t *testing.T) {
	all := simulate(t, 500, 3)
	ms := []Match{all[0], all[1], all[2], all[4], all[6]} // pawn odds, N vs 3P, B vs N, R vs N+P, Q vs 2R
	pieces := pieceNames()
	for _, ridge := range []float64{0, 0.01} {
		res, err := Fit(pieces, ms, Options{Reference: "P", Ridge: ridge})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Consistency
		if c.DF != 0 || c.Tested() || c.Disagrees(1) || !math.IsNaN(float64(c.P)) {
			t.Errorf("ridge %v: df %d, p %v; want 0, null", ridge, c.DF, c.P)
		}
		for _, r := range c.Residuals {
			if math.Abs(float64(r.Leverage)-1) > 1e-6 || !math.IsNaN(float64(r.Z)) {
				t.Errorf("ridge %v: %v: leverage %v, z %v; want 1, null", ridge, r.Name, r.Leverage, r.Z)
			}
		}
	}
}

// TestConsistencyIsCalibrated: matches played by the additive model (ten
// matches, five values, five degrees of freedom) reject it at 5% about 5%
// of the time, and the standardised residuals are about N(0, 1).
func TestConsistencyIsCalibrated(t *testing.T) {
	const reps = 200
	rejected := 0
	var ps, zs []float64
	for r := range reps {
		res, err := Fit(pieceNames(), simulate(t, 1000, uint64(7000+r)), Options{Reference: "P"})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Consistency
		if c.DF != 5 {
			t.Fatalf("df %d, want 5 (10 matches, 5 values)", c.DF)
		}
		if c.Disagrees(0.05) {
			rejected++
		}
		ps = append(ps, float64(c.P))
		for _, x := range c.Residuals {
			zs = append(zs, float64(x.Z))
		}
	}
	// Binomial(200, 0.05): mean 10, SD 3.1.
	if rejected < 2 || rejected > 20 {
		t.Errorf("rejected %d of %d consistent runs at 5%%", rejected, reps)
	}
	if m := stat.Mean(ps, nil); math.Abs(m-0.5) > 0.07 {
		t.Errorf("mean p-value %.3f, want about 0.5 (uniform)", m)
	}
	if m, sd := stat.MeanStdDev(zs, nil); math.Abs(m) > 0.1 || sd < 0.9 || sd > 1.1 {
		t.Errorf("standardised residuals: mean %.3f, SD %.3f; want about 0 and 1", m, sd)
	}
}

// TestConsistencyFindsTheOddMatch: one match whose pieces are worth 0.3
// logit more than the other matches say (R vs B, an exchange worth more
// there) breaks the model; the test rejects it and that match has the
// largest residual.
func TestConsistencyFindsTheOddMatch(t *testing.T) {
	const odd = 5 // R vs B
	res, err := Fit(pieceNames(), simulateShifted(t, 2000, 11, odd, -0.3), Options{Reference: "P"})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Consistency
	if !c.Disagrees(0.001) {
		t.Fatalf("p = %v, want < 0.001", c.P)
	}
	worst := -1
	for i, r := range c.Residuals {
		if worst < 0 || math.Abs(float64(r.Z)) > math.Abs(float64(c.Residuals[worst].Z)) {
			worst = i
		}
	}
	if worst != odd || math.Abs(float64(c.Residuals[odd].Z)) < 3 {
		t.Errorf("largest residual: match %d (z %.2f), want %d with |z| > 3 (its z %.2f)", worst, c.Residuals[worst].Z, odd, c.Residuals[odd].Z)
	}
}

// TestConsistencyWithoutSpread: matches whose games are all draws have no
// spread to test against: no p-value, no residual z (not a z of 0).
func TestConsistencyWithoutSpread(t *testing.T) {
	ms := []Match{{Name: "a", Diff: []float64{1}, Draws: 10}, {Name: "b", Diff: []float64{1}, Draws: 6}}
	res, err := Fit([]string{"P"}, ms, Options{Reference: "P"})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Consistency
	if !c.Overdetermined() || c.Tested() || c.Disagrees(1) {
		t.Errorf("df %d, p %v: want overdetermined, untested", c.DF, c.P)
	}
	for _, r := range c.Residuals {
		if !math.IsNaN(float64(r.Z)) {
			t.Errorf("%s: z %v, want null", r.Name, r.Z)
		}
	}
}

// TestWidened: the fit of matches that break the model has its
// covariance multiplied by h = X²/DF and its standard errors and
// intervals widened by √h; the plain fit is left as it was, and a fit
// whose matches agree better than chance (X²/DF < 1) is not narrowed.
func TestWidened(t *testing.T) {
	res, err := Fit(pieceNames(), simulateShifted(t, 2000, 11, 5, -0.3), Options{Reference: "P"})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Consistency
	h := float64(c.ChiSquare) / float64(c.DF)
	if c.Heterogeneity != h || h <= 1 {
		t.Fatalf("heterogeneity %v, want X²/DF = %v > 1", c.Heterogeneity, h)
	}
	before := res.Estimates[3]
	w := res.Widened()
	e := w.Estimates[3]
	if res.Estimates[3] != before {
		t.Error("Widened changed the plain fit")
	}
	f := math.Sqrt(h)
	if math.Abs(e.SE-f*before.SE) > 1e-12 || math.Abs(e.LogitSE-f*before.LogitSE) > 1e-12 ||
		math.Abs((e.Hi-e.Lo)-f*(before.Hi-before.Lo)) > 1e-9 || e.Value != before.Value {
		t.Errorf("R: %+v widened to %+v, want √h = %.3f as wide", before, e, f)
	}
	if got, want := w.Cov.At(3, 4), h*res.Cov.At(3, 4); math.Abs(got-want) > 1e-15 {
		t.Errorf("covariance %v, want %v", got, want)
	}
	ok, err := Fit(pieceNames(), simulate(t, 2000, 11), Options{Reference: "P"})
	if err != nil {
		t.Fatal(err)
	}
	if ok.Consistency.Heterogeneity < 1 || (float64(ok.Consistency.ChiSquare) < float64(ok.Consistency.DF) && ok.Widened() != ok) {
		t.Errorf("additive matches: heterogeneity %v (X² %v on %d df), widened %v", ok.Consistency.Heterogeneity, ok.Consistency.ChiSquare, ok.Consistency.DF, ok.Widened() != ok)
	}
}

// TestConsistencyInflated: TestConsistencyByHand's matches with a match's
// mean score twice as variable as independent games (pairs correlating
// ρ = 1): X² 4.5/2 = 2.25, z ±(3/√2)/√2 = ±1.5, and the F(1, 18) test's
// p is then a two-sided t(18) test's at t = 1.5 (Student's t, not the F
// distribution the code uses); h = 2.25. The plain test is unchanged,
// and k ≤ 1 leaves it as it is.
func TestConsistencyInflated(t *testing.T) {
	plain := byHandConsistency(t)
	c := plain.Inflated(2)
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %.9f, want %.9f", what, got, want)
		}
	}
	near("chi-square", float64(c.ChiSquare), 2.25)
	near("p", float64(c.P), 2*distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 18}.Survival(1.5))
	near("heterogeneity", c.Heterogeneity, 2.25)
	near("pair inflation", c.PairInflation, 2)
	near("pure error", float64(c.PureError), 12.8/18)
	for i, want := range []float64{1.5, -1.5} {
		near(c.Residuals[i].Name+" z", float64(c.Residuals[i].Z), want)
	}
	near("plain chi-square", float64(plain.ChiSquare), 4.5)
	near("plain z", float64(plain.Residuals[0].Z), 3/math.Sqrt2)
	near("plain pair inflation", plain.PairInflation, 1)
	if plain.Inflated(1) != plain || plain.Inflated(0.8) != plain || plain.Inflated(math.NaN()) != plain {
		t.Error("k ≤ 1 changed the test")
	}
	if c.Disagrees(0.05) || !plain.Disagrees(0.05) {
		t.Errorf("at 0.05: inflated disagrees %v (p %.3f), plain %v (p %.3f); want false, true", c.Disagrees(0.05), c.P, plain.Disagrees(0.05), plain.P)
	}
}
