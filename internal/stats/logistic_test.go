package stats

import (
	"math"
	"testing"
)

func TestLogistic(t *testing.T) {
	for _, c := range []struct{ z, want float64 }{
		{0, 0.5},
		{math.Log(3), 0.75},
		{-math.Log(3), 0.25},
		{math.Log(9), 0.9},
		{-800, 0}, // e^800 overflows: the limit
		{800, 1},
	} {
		if got := Logistic(c.z); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("Logistic(%v) = %v, want %v", c.z, got, c.want)
		}
	}
	for _, z := range []float64{-30, -2.5, -0.1, 0.7, 4, 25} {
		if s := Logistic(z) + Logistic(-z); math.Abs(s-1) > 1e-15 {
			t.Errorf("Logistic(%v) + Logistic(%v) = %v, want 1", z, -z, s)
		}
	}
}

func TestSoftplus(t *testing.T) {
	for _, z := range []float64{-30, -5, -0.5, 0, 0.5, 5, 30} {
		want := math.Log(1 + math.Exp(z))
		if got := Softplus(z); math.Abs(got-want) > 1e-14*math.Max(1, want) {
			t.Errorf("Softplus(%v) = %v, want ln(1+e^z) = %v", z, got, want)
		}
		// softplus(z) − softplus(−z) = z, and −softplus(−z) = ln σ(z).
		if d := Softplus(z) - Softplus(-z); math.Abs(d-z) > 1e-13 {
			t.Errorf("Softplus(%v) − Softplus(%v) = %v, want %v", z, -z, d, z)
		}
		if d := -Softplus(-z) - math.Log(Logistic(z)); math.Abs(d) > 1e-13 {
			t.Errorf("−Softplus(%v) differs from ln Logistic by %v", -z, d)
		}
	}
	// Where ln(1+e^z) overflows or loses everything, the identities hold.
	if got := Softplus(800); got != 800 {
		t.Errorf("Softplus(800) = %v, want 800", got)
	}
	if got, want := Softplus(-40), math.Exp(-40); math.Abs(got-want) > 1e-15*want {
		t.Errorf("Softplus(−40) = %v, want e^−40 = %v", got, want)
	}
}
