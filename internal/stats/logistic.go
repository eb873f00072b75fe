package stats

import "math"

// Logistic returns the logistic function σ(z) = 1/(1 + e^(−z)), the
// expected score of a logit z. It is evaluated as written: for z below
// about −709 e^(−z) overflows and σ(z) is 0, its limit.
func Logistic(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// Softplus returns ln(1 + e^z) without overflow: z + ln(1 + e^(−z)) for
// z > 0. It is −ln σ(−z), so a logistic log-likelihood
// r·ln σ(z) + (1−r)·ln(1−σ(z)) is −[r·Softplus(−z) + (1−r)·Softplus(z)].
func Softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}
