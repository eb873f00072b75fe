package texel

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"

	"tamerlane/internal/stats"
)

// DefaultMaxIterations is the L-BFGS iteration bound of a fit that sets
// none; the tuner's max_iterations defaults to it too.
const DefaultMaxIterations = 500

// Options control Evaluator.Fit.
type Options struct {
	// Frozen marks weights kept at their starting value (nil: none). When
	// non-nil its length must be Dim().
	Frozen []bool
	// MaxIterations bounds the L-BFGS major iterations; zero means
	// DefaultMaxIterations.
	MaxIterations int
	// RelTol stops the fit when the loss has improved by less than
	// RelTol·|L| for 5 consecutive iterations; zero means 1e-12.
	RelTol float64
	// GradTol stops the fit when max_j |∂L/∂w_j| over free weights falls
	// below it; zero means 1e-12 (L is a mean, so this is a per-sample
	// scale).
	GradTol float64
	// Valid, if non-nil, is a validation set whose mean squared error at
	// the fitted weights is reported in Result.ValidLoss. It is evaluated
	// with the same K and Lambda, without the prior.
	Valid *Dataset
}

// Result describes the outcome of Evaluator.Fit.
type Result struct {
	Weights     []float64       // fitted weights (frozen ones unchanged)
	InitialLoss float64         // L(w0), prior included
	TrainLoss   float64         // L at Weights, prior included
	TrainMSE    float64         // mean squared error at Weights, no prior
	ValidLoss   float64         // validation mean squared error; NaN without Options.Valid
	Iterations  int             // L-BFGS major iterations
	Evaluations int             // loss-and-gradient evaluations
	Status      optimize.Status // gonum's termination status
	// Converged is true when the fit ended normally, or ended on a line
	// search failure or an evaluation/iteration limit after lowering the
	// loss (see Converged).
	Converged bool
}

// Converged reports whether an optimize.Minimize termination is to be
// treated as convergence, and the error to return otherwise. f0 is the
// loss at the starting point and f the best loss found.
//
// Normal terminations (Success, FunctionConvergence, GradientThreshold,
// StepConvergence, MethodConverge, FunctionThreshold) converge. A line
// search failure or an iteration, evaluation or runtime limit also counts
// as converged when it still lowered the loss (f < f0): on a smooth,
// nearly flat optimum the line search typically fails only because it can
// no longer resolve a decrease in floating point. A line search that made
// no progress at all (f == f0) is also accepted, as that happens when
// starting at the optimum. Anything else, or a non-finite f, is an error.
func Converged(status optimize.Status, err error, f0, f float64) (bool, error) {
	ok, err := stats.Converged(status, err, f0, f)
	if err != nil {
		err = fmt.Errorf("texel: %w", err)
	}
	return ok, err
}

// freeIndices returns the indices j with !frozen[j] (all when frozen is nil).
func freeIndices(frozen []bool, dim int) ([]int, error) {
	if frozen != nil && len(frozen) != dim {
		return nil, fmt.Errorf("texel: len(Frozen) = %d, want %d", len(frozen), dim)
	}
	free := make([]int, 0, dim)
	for j := range dim {
		if frozen == nil || !frozen[j] {
			free = append(free, j)
		}
	}
	return free, nil
}

// subProblem adapts the Evaluator to the free weights for gonum. Func
// computes loss and gradient together and caches the gradient for the
// matching Grad call, which gonum issues right after Func at the same x.
//
// The free weights are optimised in scaled coordinates x_k = d_k·w_j with
// d_k² an estimate of the loss's curvature along w_j: the Gauss–Newton
// diagonal 2·(K·ln10/400)²·p²(1−p)²·E[x_j²] at a typical p(1−p) of 0.2,
// plus the prior's 2P·s_j²/C (1 when both are 0). This diagonal preconditioner
// gives a weight per unit of a large count (mobility squares) and one per
// piece (material) comparable curvature, so L-BFGS needs far fewer
// iterations on a whole evaluation.
type subProblem struct {
	e     *Evaluator
	free  []int
	d     []float64 // scale of each free weight
	w     []float64 // full weight vector (frozen entries fixed)
	g     []float64 // full gradient
	lastX []float64 // x of the cached evaluation
	lastF float64
	lastG []float64 // cached free gradient
	valid bool
	evals int
}

func newSubProblem(e *Evaluator, free []int, w0 []float64) *subProblem {
	rms := e.featureRMS()
	a := e.k * logScale
	gn := 2 * a * a * 0.04
	pr := 2 * e.prior / e.sumW
	d := make([]float64, len(free))
	for k, j := range free {
		d[k] = 1
		if h := gn*rms[j]*rms[j] + pr*e.pscale2[j]; h > 0 {
			d[k] = math.Sqrt(h)
		}
	}
	return &subProblem{
		e:     e,
		free:  free,
		d:     d,
		w:     slices.Clone(w0),
		g:     make([]float64, e.dim),
		lastX: make([]float64, len(free)),
		lastG: make([]float64, len(free)),
	}
}

// scaled returns the scaled coordinates of the free weights of w.
func (s *subProblem) scaled(w []float64) []float64 {
	x := make([]float64, len(s.free))
	for k, j := range s.free {
		x[k] = w[j] * s.d[k]
	}
	return x
}

func (s *subProblem) eval(x []float64) {
	if s.valid && slices.Equal(x, s.lastX) {
		return
	}
	for k, j := range s.free {
		s.w[j] = x[k] / s.d[k]
	}
	s.lastF = s.e.LossAndGrad(s.w, s.g)
	for k, j := range s.free {
		s.lastG[k] = s.g[j] / s.d[k]
	}
	copy(s.lastX, x)
	s.valid = true
	s.evals++
}

func (s *subProblem) problem() optimize.Problem {
	return optimize.Problem{
		Func: func(x []float64) float64 {
			s.eval(x)
			return s.lastF
		},
		Grad: func(grad, x []float64) {
			s.eval(x)
			copy(grad, s.lastG)
		},
	}
}

// expand returns the full weight vector for free values x.
func (s *subProblem) expand(x []float64) []float64 {
	w := slices.Clone(s.w)
	for k, j := range s.free {
		w[j] = x[k] / s.d[k]
	}
	return w
}

// Fit minimises the loss over the free weights with gonum's L-BFGS and the
// analytic gradient, starting from w0 (not modified), with K held fixed.
// An error is returned only when the optimisation fails without lowering
// the loss (see Converged) or the input is invalid; the Result is then
// still filled in as far as possible.
func (e *Evaluator) Fit(w0 []float64, opt Options) (*Result, error) {
	res, err := e.fit(w0, opt)
	if err != nil || res == nil {
		return res, err
	}
	res.TrainMSE = e.MSE(res.Weights)
	res.ValidLoss = math.NaN()
	if opt.Valid != nil {
		ve, verr := NewEvaluator(opt.Valid, e.dim, Config{K: e.k, Lambda: e.lambda, Workers: e.workers})
		if verr != nil {
			return res, fmt.Errorf("texel: validation set: %w", verr)
		}
		res.ValidLoss = ve.MSE(res.Weights)
		ve.Close()
	}
	return res, nil
}

// fit is Fit without the reporting extras, shared with Bootstrap.
func (e *Evaluator) fit(w0 []float64, opt Options) (*Result, error) {
	if len(w0) != e.dim {
		return nil, fmt.Errorf("texel: len(w0) = %d, want %d", len(w0), e.dim)
	}
	free, err := freeIndices(opt.Frozen, e.dim)
	if err != nil {
		return nil, err
	}
	sp := newSubProblem(e, free, w0)
	x0 := sp.scaled(w0)
	sp.eval(x0)
	f0 := sp.lastF
	res := &Result{Weights: slices.Clone(w0), InitialLoss: f0, TrainLoss: f0, Status: optimize.Success}
	if math.IsNaN(f0) || math.IsInf(f0, 0) {
		return res, fmt.Errorf("texel: loss at w0 is %v", f0)
	}
	if len(free) == 0 {
		res.Converged = true
		return res, nil
	}
	maxIter := opt.MaxIterations
	if maxIter <= 0 {
		maxIter = DefaultMaxIterations
	}
	relTol := opt.RelTol
	if relTol <= 0 {
		relTol = 1e-12
	}
	gradTol := opt.GradTol
	if gradTol <= 0 {
		gradTol = 1e-12
	}
	settings := &optimize.Settings{
		InitValues:        &optimize.Location{F: f0, Gradient: slices.Clone(sp.lastG)},
		GradientThreshold: gradTol,
		MajorIterations:   maxIter,
		Converger:         &optimize.FunctionConverge{Relative: relTol, Iterations: 5},
	}
	out, merr := optimize.Minimize(sp.problem(), x0, settings, &optimize.LBFGS{GradStopThreshold: gradTol})
	if out == nil {
		return res, fmt.Errorf("texel: %w", merr)
	}
	res.Iterations = out.MajorIterations
	res.Evaluations = sp.evals
	res.Status = out.Status
	f := out.F
	if len(out.X) != len(free) || math.IsInf(f, 1) {
		// No major iteration completed: keep w0.
		f = f0
	} else {
		res.Weights = sp.expand(out.X)
	}
	res.TrainLoss = f
	res.Converged, err = Converged(out.Status, merr, f0, f)
	return res, err
}
