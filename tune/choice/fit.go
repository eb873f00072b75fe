package choice

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"tamerlane/internal/stats"
)

// Defaults of Options.
const (
	// DefaultResultWeight is μ: the result term weighs as much as the
	// move-choice term.
	DefaultResultWeight = 1.0
	// DefaultRidge is ρ, per squared centipawn.
	DefaultRidge = 1e-6
	// DefaultMaxIterations bounds L-BFGS.
	DefaultMaxIterations = 300
)

// Options control Fit.
type Options struct {
	// ResultWeight is μ, the weight of the result term (0: moves only).
	ResultWeight float64
	// Ridge is ρ, the penalty per squared centipawn of a free weight's
	// distance from its starting value.
	Ridge float64
	// Frozen marks the weights kept at their starting values (nil: none).
	Frozen []bool
	// MaxIterations bounds the L-BFGS iterations (0: DefaultMaxIterations).
	MaxIterations int
	// Workers is the number of goroutines of a loss evaluation (0: one
	// per chunk; the result does not depend on it).
	Workers int
}

// Result is a fit's outcome.
type Result struct {
	// T is the softmax temperature and K the result sigmoid's scale, both
	// fitted with the starting weights and then kept.
	T float64 `json:"temperature"`
	K float64 `json:"k"`
	// Weights are the fitted weights (frozen ones unchanged).
	Weights []float64 `json:"-"`
	// Start and End score the training set at the starting and fitted
	// weights; StartValid and EndValid the validation set (zero without
	// one).
	Start      Scores `json:"start"`
	End        Scores `json:"end"`
	StartValid Scores `json:"start_valid"`
	EndValid   Scores `json:"end_valid"`
	// Iterations and Status describe the L-BFGS run.
	Iterations int    `json:"iterations"`
	Status     string `json:"status"`
}

// Fit fits the weights to the moves of train, starting from w0, and
// scores the result on valid (which may be nil or empty).
func Fit(train, valid *Set, w0 []float64, opt Options) (*Result, error) {
	if train == nil || train.Len() == 0 {
		return nil, errEmpty
	}
	dim := len(w0)
	for _, set := range []*Set{train, valid} {
		if set != nil && set.Dim() > dim {
			return nil, fmt.Errorf("choice: features up to index %d for %d weights", set.Dim()-1, dim)
		}
	}
	if opt.Frozen != nil && len(opt.Frozen) != dim {
		return nil, fmt.Errorf("choice: %d frozen flags for %d weights", len(opt.Frozen), dim)
	}
	if opt.ResultWeight < 0 || opt.Ridge < 0 {
		return nil, fmt.Errorf("choice: negative result weight (%v) or ridge (%v)", opt.ResultWeight, opt.Ridge)
	}
	iters := opt.MaxIterations
	if iters == 0 {
		iters = DefaultMaxIterations
	}
	t := goldenMin(func(t float64) float64 { return Evaluate(train, w0, t, 1).CE }, 1, 2000, 0.01)
	k := goldenMin(func(k float64) float64 { return resultMSE(train, w0, k) }, 0.01, 20, 1e-4)
	start := Evaluate(train, w0, t, k)
	if !(start.CE > 0) || !(start.MSE > 0) {
		return nil, fmt.Errorf("choice: degenerate starting loss (cross-entropy %v, squared error %v)", start.CE, start.MSE)
	}
	free := make([]int, 0, dim)
	for j := range dim {
		if opt.Frozen == nil || !opt.Frozen[j] {
			free = append(free, j)
		}
	}
	ob := &objective{train: train, w0: w0, free: free, t: t, k: k, ce0: start.CE, mse0: start.MSE, opt: opt}
	loss := ob.value
	x0 := make([]float64, len(free))
	for a, j := range free {
		x0[a] = w0[j]
	}
	res := &Result{T: t, K: k, Start: start, Weights: append([]float64(nil), w0...), Status: "nothing to fit"}
	if len(free) > 0 {
		prob := optimize.Problem{
			Func: func(x []float64) float64 { return loss(x, nil) },
			Grad: func(g, x []float64) { loss(x, g) },
		}
		f0 := loss(x0, nil)
		out, err := optimize.Minimize(prob, x0, &optimize.Settings{MajorIterations: iters, GradientThreshold: 1e-9,
			Converger: &optimize.FunctionConverge{Relative: 1e-10, Iterations: 5}}, &optimize.LBFGS{})
		if out == nil {
			return nil, fmt.Errorf("choice: %w", err)
		}
		if ok, err := stats.Converged(out.Status, err, f0, out.F); !ok {
			return nil, fmt.Errorf("choice: fit failed (status %v): %v", out.Status, err)
		}
		res.Weights, res.Iterations, res.Status = ob.full(out.X), out.MajorIterations, out.Status.String()
	}
	res.End = Evaluate(train, res.Weights, t, k)
	if valid != nil && valid.Len() > 0 {
		res.StartValid = Evaluate(valid, w0, t, k)
		res.EndValid = Evaluate(valid, res.Weights, t, k)
	}
	return res, nil
}

// objective is L of the package documentation over the free weights.
type objective struct {
	train     *Set
	w0        []float64
	free      []int
	t, k      float64
	ce0, mse0 float64
	opt       Options
}

// full returns the weights with the free ones set from x.
func (o *objective) full(x []float64) []float64 {
	w := append([]float64(nil), o.w0...)
	for a, j := range o.free {
		w[j] = x[a]
	}
	return w
}

// value returns L at the free weights x and, when grad is not nil,
// stores its gradient there.
func (o *objective) value(x []float64, grad []float64) float64 {
	w := o.full(x)
	want := 0
	if grad != nil {
		want = len(w)
	}
	tr, mu := o.train, o.opt.ResultWeight
	n := float64(tr.Len())
	sums, g := sumChunks(tr.Len(), want, o.opt.Workers, func(lo, hi int, g []float64) [3]float64 {
		var out [3]float64
		var buf []float64
		for i := lo; i < hi; i++ {
			ce, _ := tr.choiceLoss(w, o.t, i, g, 1/(n*o.ce0), &buf)
			out[0] += ce
			if mu == 0 {
				continue
			}
			l := tr.posOff[i] + int(tr.chosen[i])
			p := stats.Logistic(o.k * tr.leafScore(w, l) / 400)
			e := p - float64(tr.result[i])
			out[1] += e * e
			if g != nil {
				tr.addLeaf(g, l, mu/(n*o.mse0)*2*e*p*(1-p)*o.k/400)
			}
		}
		return out
	})
	f := sums[0]/(n*o.ce0) + mu*sums[1]/(n*o.mse0)
	for a, j := range o.free {
		d := x[a] - o.w0[j]
		f += o.opt.Ridge * d * d
		if grad != nil {
			grad[a] = g[j] + 2*o.opt.Ridge*d
		}
	}
	return f
}

// goldenMin returns the minimiser of a unimodal f on [lo, hi] to within
// tol, by golden-section search.
func goldenMin(f func(float64) float64, lo, hi, tol float64) float64 {
	r := (math.Sqrt(5) - 1) / 2
	a, b := hi-r*(hi-lo), lo+r*(hi-lo)
	fa, fb := f(a), f(b)
	for hi-lo > tol {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - r*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + r*(hi-lo)
			fb = f(b)
		}
	}
	return (lo + hi) / 2
}
