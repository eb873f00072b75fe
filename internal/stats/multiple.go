package stats

import (
	"math"
	"sort"
)

// TwoSidedP is the two-sided p-value of a standard normal statistic z:
// P(|Z| ≥ |z|) = 2(1 − Φ(|z|)).
func TwoSidedP(z float64) float64 { return math.Erfc(math.Abs(z) / math.Sqrt2) }

// Holm returns which of the hypotheses with p-values p Holm's step-down
// procedure rejects at family-wise error rate alpha: sorted ascending,
// p_(k) (k = 1..m) is rejected while p_(k) ≤ alpha/(m − k + 1); the first
// that is not stops it. It controls the chance of any false rejection at
// alpha under any dependence between the tests (Holm 1979), which the
// per-test 95% flag does not: among 12 independent comparisons that all
// agree, one or more flag by chance 46% of the time. A NaN p-value is
// never rejected.
func Holm(p []float64, alpha float64) []bool {
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { // NaN last
		pa, pb := p[idx[a]], p[idx[b]]
		return !math.IsNaN(pa) && (math.IsNaN(pb) || pa < pb)
	})
	out := make([]bool, len(p))
	for k, i := range idx {
		if !(p[i] <= alpha/float64(len(p)-k)) {
			break
		}
		out[i] = true
	}
	return out
}
