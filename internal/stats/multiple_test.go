package stats

import (
	"math"
	"slices"
	"testing"
)

func TestTwoSidedP(t *testing.T) {
	for _, c := range []struct{ z, p float64 }{{0, 1}, {Z95, 0.05}, {-Z95, 0.05}, {2.5758293035489, 0.01}} {
		if got := TwoSidedP(c.z); math.Abs(got-c.p) > 1e-9 {
			t.Errorf("TwoSidedP(%v) = %v, want %v", c.z, got, c.p)
		}
	}
}

func TestHolm(t *testing.T) {
	cases := []struct {
		p    []float64
		want []bool
	}{
		// Sorted 0.01, 0.02, 0.03, 0.04 against 0.05/4, /3, /2, /1:
		// 0.01 ≤ 0.0125 rejected, 0.02 > 0.0167 stops it.
		{[]float64{0.04, 0.01, 0.03, 0.02}, []bool{false, true, false, false}},
		// Every step passes: 0.001 ≤ 0.0167, 0.02 ≤ 0.025, 0.04 ≤ 0.05.
		{[]float64{0.04, 0.001, 0.02}, []bool{true, true, true}},
		// Bonferroni's bound for the smallest: 0.03 > 0.05/2, nothing.
		{[]float64{0.04, 0.03}, []bool{false, false}},
		// A NaN p is never rejected, and stops the procedure.
		{[]float64{math.NaN(), 0.001}, []bool{false, true}},
		{nil, []bool{}},
	}
	for _, c := range cases {
		if got := Holm(c.p, 0.05); !slices.Equal(got, c.want) {
			t.Errorf("Holm(%v) = %v, want %v", c.p, got, c.want)
		}
	}
}
