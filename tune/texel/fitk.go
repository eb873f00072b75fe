package texel

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"
)

// FitK returns the sigmoid scale K that minimises the mean squared error
// for the fixed weights w. The Evaluator's own K is left unchanged (call
// SetK to adopt the result). The search runs over θ = ln K with gonum's
// L-BFGS on the analytic derivative, starting from the current K; the
// evaluations Σ_j w_j·x_ij are computed once up front, so each step costs
// one exponential per sample (two when Lambda > 0).
//
// With Lambda = 1 the loss tends to zero as K → 0 and FitK is meaningless.
func (e *Evaluator) FitK(w []float64) (float64, error) {
	e.checkLen(w)
	e.evals = e.Evals(w, e.evals)
	allZero := true
	for _, v := range e.evals {
		if v != 0 {
			allZero = false
			break
		}
	}
	if allZero {
		return math.NaN(), errors.New("texel: FitK: every evaluation is zero, K is not identifiable")
	}
	var lastTheta, lastF, lastG float64
	have := false
	eval := func(theta float64) {
		if have && theta == lastTheta {
			return
		}
		k := math.Exp(theta)
		f, dk := e.kLoss(k)
		lastTheta, lastF, lastG, have = theta, f, dk*k, true
	}
	p := optimize.Problem{
		Func: func(x []float64) float64 {
			eval(x[0])
			return lastF
		},
		Grad: func(g, x []float64) {
			eval(x[0])
			g[0] = lastG
		},
	}
	theta0 := math.Log(e.k)
	eval(theta0)
	f0 := lastF
	settings := &optimize.Settings{
		GradientThreshold: 1e-14,
		MajorIterations:   200,
		Converger:         &optimize.FunctionConverge{Relative: 1e-14, Iterations: 3},
	}
	res, err := optimize.Minimize(p, []float64{theta0}, settings, &optimize.LBFGS{GradStopThreshold: 1e-14})
	if res == nil {
		return math.NaN(), fmt.Errorf("texel: FitK: %w", err)
	}
	if ok, cerr := Converged(res.Status, err, f0, res.F); !ok {
		return math.NaN(), fmt.Errorf("texel: FitK: %w", cerr)
	}
	k := math.Exp(res.X[0])
	if !(k > 0) || math.IsInf(k, 0) {
		return math.NaN(), fmt.Errorf("texel: FitK: K diverged to %v", k)
	}
	return k, nil
}

// kLoss returns the mean squared error at scale k for the cached
// evaluations, and its derivative with respect to k.
func (e *Evaluator) kLoss(k float64) (f, dfdk float64) {
	type acc struct{ f, d float64 }
	parts := make([]acc, len(e.partial)) // per chunk, added in chunk order
	res, scores := e.data.result, e.data.score
	lam := e.lambda
	e.parallel(func(t, lo, hi int) {
		var sf, sd float64
		for i := lo; i < hi; i++ {
			ev := e.evals[i]
			p := Sigmoid(k, ev)
			dp := logScale * ev * p * (1 - p)
			tgt, dt := float64(res[i]), 0.0
			if lam != 0 {
				s := float64(scores[i])
				q := Sigmoid(k, s)
				tgt = (1-lam)*tgt + lam*q
				dt = lam * logScale * s * q * (1 - q)
			}
			c := 1.0
			if e.weight != nil {
				c = float64(e.weight[i])
			}
			r := tgt - p
			sf += c * r * r
			sd += 2 * c * r * (dt - dp)
		}
		parts[t] = acc{sf, sd}
	})
	for _, a := range parts {
		f += a.f
		dfdk += a.d
	}
	return f / e.sumW, dfdk / e.sumW
}
