package values

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"tamerlane/internal/stats"

	"gonum.org/v1/gonum/mat"
)

func TestAgreementZ(t *testing.T) {
	reg := &stats.Interval{Value: 3, SE: 0.3}
	imb := &stats.Interval{Value: 4, SE: 0.4}
	z := agreementZ(reg, imb)
	if z == nil || math.Abs(*z-(-2)) > 1e-12 {
		t.Fatalf("z = %v, want -2 (difference -1 over SE 0.5)", z)
	}
	if got := FormatZ(z); got != "-2.00 **disagree**" {
		t.Errorf("FormatZ(-2) = %q", got)
	}
	if got := FormatZ(agreementZ(reg, &stats.Interval{Value: 3.5, SE: 0.4})); got != "-1.00" {
		t.Errorf("FormatZ(-1) = %q", got)
	}
	if agreementZ(reg, nil) != nil || agreementZ(&stats.Interval{Value: 1}, &stats.Interval{Value: 2}) != nil || FormatZ(nil) != "–" {
		t.Error("z without both estimates or without SE must be null")
	}
}

// TestBridge: an imbalance logit in the regression's pawn at the start is
// λ/(γ0+γ1), with the delta-method SE of two independent estimates
// (checked against a Monte Carlo of the ratio).
func TestBridge(t *testing.T) {
	cov := mat.NewSymDense(3, []float64{
		0.01, 0, 0,
		0, 0.004, -0.001,
		0, -0.001, 0.002,
	})
	reg := &Regression{Gamma0: 0.8, Gamma1: -0.1, Cov: cov}
	b := bridge(reg, 2.1, 0.04)
	if b == nil || math.Abs(float64(b.Value)-3) > 1e-12 {
		t.Fatalf("bridge %+v, want 2.1/0.7 = 3", b)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var sum, sum2 float64
	n := 200000
	for range n {
		g := 0.7 + rng.NormFloat64()*math.Sqrt(0.004+0.002-2*0.001)
		l := 2.1 + rng.NormFloat64()*0.2
		x := l / g
		sum += x
		sum2 += x * x
	}
	sd := math.Sqrt(sum2/float64(n) - (sum/float64(n))*(sum/float64(n)))
	if math.Abs(float64(b.SE)-sd)/sd > 0.05 {
		t.Errorf("delta-method SE %.4f, Monte Carlo %.4f", b.SE, sd)
	}
	if bridge(&Regression{Gamma0: -0.1, Gamma1: 0, Cov: cov}, 2, 0.1) != nil {
		t.Error("a non-positive pawn logit must give no bridge")
	}
}

// The families count the flags per comparison, expect 5% of them by
// chance, and keep under Holm's correction only what survives it.
func TestDisagreements(t *testing.T) {
	z := func(x float64) *float64 { return &x }
	pieces := []PieceValues{
		{Piece: "P", Scaled: []ScaledValues{{Scale: "N=1", AgreementZ: z(0.5)}}},
		// p 0.0000006: survives Holm among 3 (bound 0.05/3).
		{Piece: "N", AgreementZ: z(5), BridgedZ: z(1), Scaled: []ScaledValues{{Scale: "N=1"}}},
		// p 0.039: flagged at 95%, but not below 0.05/2 once N is out.
		{Piece: "B", AgreementZ: z(-2.06), BridgedZ: z(-2.2), Scaled: []ScaledValues{{Scale: "N=1", AgreementZ: z(-2.3)}}},
		{Piece: "R", AgreementZ: z(0.3), Scaled: []ScaledValues{{Scale: "N=1", AgreementZ: z(math.NaN())}}},
		{Piece: "pair.B"},
	}
	got := disagreements(pieces)
	want := []Disagreements{
		{Comparison: "P=1", Compared: 3, Disagree: 2, Expected: 0.15, Holm: []string{"N"}},
		{Comparison: "bridged", Compared: 2, Disagree: 1, Expected: 0.1, Holm: []string{}},
		{Comparison: "N=1", Compared: 2, Disagree: 1, Expected: 0.1, Holm: []string{"B"}},
	}
	if len(got) != len(want) {
		t.Fatalf("families %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Comparison != w.Comparison || g.Compared != w.Compared || g.Disagree != w.Disagree ||
			math.Abs(g.Expected-w.Expected) > 1e-12 || strings.Join(g.Holm, ",") != strings.Join(w.Holm, ",") {
			t.Errorf("family %d: %+v, want %+v", i, g, w)
		}
	}
	var b strings.Builder
	disagreementsMarkdown(&b, got)
	if !strings.Contains(b.String(), "- P=1: 2 of 3 (0.15 expected); Holm: N") || !strings.Contains(b.String(), "- bridged: 1 of 2 (0.10 expected); Holm: none") {
		t.Errorf("markdown:\n%s", b.String())
	}
	if disagreements([]PieceValues{{Piece: "P"}, {Piece: "N"}}) != nil {
		t.Error("a family without any z")
	}
}
