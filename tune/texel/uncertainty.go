package texel

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"tamerlane/internal/stats"
)

// SEMethod selects the covariance estimate used by StdErrors.
type SEMethod int

const (
	// Clustered is the game-clustered sandwich estimate
	//
	//	Cov = A⁻¹·B·A⁻¹,   A = Σ_i c_i·p'_i²·x_i·x_iᵀ + P·S²,
	//	B = Σ_games u_g·u_gᵀ,   u_g = Σ_{i∈g} c_i·(t_i − p_i)·p'_i·x_i,
	//
	// with p_i = σ_K(w·x_i) and p'_i = ∂p_i/∂e_i = K·ln10/400·p_i·(1−p_i).
	// A is the Gauss–Newton half-Hessian of the summed loss and B the
	// variance of its half-gradient when games are independent but the
	// positions of one game are not. It stays valid when results are
	// heteroscedastic (they are: Var r ≈ p(1−p)) and when consecutive
	// positions of a game share one result, which makes the classical
	// estimate far too optimistic. This is the default.
	Clustered SEMethod = iota
	// Classical is the textbook nonlinear least-squares estimate
	// Cov = σ̂²·A⁻¹ with σ̂² = Σ c_i·(t_i − p_i)² / (C − p), p being the
	// number of free weights. It assumes independent, homoscedastic
	// residuals.
	Classical
)

// String returns the method's name.
func (m SEMethod) String() string {
	switch m {
	case Clustered:
		return "clustered-sandwich"
	case Classical:
		return "classical"
	}
	return fmt.Sprintf("SEMethod(%d)", int(m))
}

// maxDenseFree bounds the number of free weights StdErrors handles; its
// work space is O(p²) per worker and the inversion O(p³).
const maxDenseFree = 8192

// Uncertainty holds standard errors of fitted weights.
type Uncertainty struct {
	// Method is the estimator used.
	Method SEMethod
	// SE holds one standard error per weight: 0 for frozen weights and NaN
	// for weights the data do not identify (those with a component in the
	// numerical null space of A).
	SE []float64
	// Free lists the free weight indices, in the order of Cov's rows.
	Free []int
	// Cov is the covariance matrix of the free weights; rows and columns
	// of unidentified weights are NaN.
	Cov *mat.SymDense
	// Sigma2 is the residual variance estimate σ̂² (used by Classical,
	// reported for both).
	Sigma2 float64
}

// Interval returns the two-sided confidence interval w ± z·se at the given
// level (0.95 gives z = Φ⁻¹(0.975) ≈ 1.96).
func Interval(w, se, level float64) (lo, hi float64) {
	z := stats.Z(level)
	return w - z*se, w + z*se
}

// maxSERanges bounds the game ranges StdErrors accumulates in parallel.
const maxSERanges = 8

// StdErrors estimates standard errors of the weights w (normally the
// optimum found by Fit with the same frozen mask) with K held fixed, so
// they are conditional on K. See SEMethod for the estimators. It needs
// O(p²) memory per worker for p free weights and fails for p > 8192.
func (e *Evaluator) StdErrors(w []float64, frozen []bool, method SEMethod) (*Uncertainty, error) {
	e.checkLen(w)
	if method != Clustered && method != Classical {
		return nil, fmt.Errorf("texel: unknown SEMethod %d", int(method))
	}
	free, err := freeIndices(frozen, e.dim)
	if err != nil {
		return nil, err
	}
	p := len(free)
	if p > maxDenseFree {
		return nil, fmt.Errorf("texel: StdErrors: %d free weights exceed the limit %d", p, maxDenseFree)
	}
	u := &Uncertainty{Method: method, SE: make([]float64, e.dim), Free: free}
	if p == 0 {
		return u, nil
	}
	pos := make([]int32, e.dim)
	for j := range pos {
		pos[j] = -1
	}
	for k, j := range free {
		pos[j] = int32(k)
	}

	// Group rows by game with a counting sort.
	gi, ng := e.data.games()
	start := make([]int, ng+1)
	for _, g := range gi {
		start[g+1]++
	}
	for g := range ng {
		start[g+1] += start[g]
	}
	order := make([]int, len(gi))
	fill := slices.Clone(start[:ng])
	for i, g := range gi {
		order[fill[g]] = i
		fill[g]++
	}

	// Split the games into ranges of about equal rows, one goroutine
	// each, few enough that the dense accumulators stay below ~1 GiB. The
	// ranges depend on the data only, not on the number of workers or
	// CPUs, so that the sums, added in range order, are the same bits on
	// every machine.
	workers := min(maxSERanges, ng, max(1, (1<<30)/(16*p*p)))
	bounds := make([]int, workers+1)
	for t := 1; t < workers; t++ {
		goal := len(gi) * t / workers
		g := bounds[t-1]
		for g < ng && start[g] < goal {
			g++
		}
		bounds[t] = g
	}
	bounds[workers] = ng

	type acc struct {
		a   []float64 // upper triangle, row-major p×p
		b   *stats.ClusterScores
		sse float64
	}
	accs := make([]acc, workers)
	done := make(chan struct{}, workers)
	work := func(t int) {
		defer func() { done <- struct{}{} }()
		ac := acc{a: make([]float64, p*p)}
		if method == Clustered {
			ac.b = stats.NewClusterScores(p)
		}
		var rp []int32
		var rx []float64
		tgt := e.targets()
		a := e.k * logScale
		for g := bounds[t]; g < bounds[t+1]; g++ {
			for _, i := range order[start[g]:start[g+1]] {
				ri, rv := e.data.Row(i)
				pr := stats.Logistic(a * rowDot(w, ri, rv))
				r := float64(tgt[i]) - pr
				d := a * pr * (1 - pr)
				c := 1.0
				if e.weight != nil {
					c = float64(e.weight[i])
				}
				ac.sse += c * r * r
				rp, rx = rp[:0], rx[:0]
				for k, j := range ri {
					if q := pos[j]; q >= 0 {
						rp = append(rp, q)
						rx = append(rx, float64(rv[k]))
					}
				}
				cd2 := c * d * d
				for k1, p1 := range rp {
					v := cd2 * rx[k1]
					row := ac.a[int(p1)*p:]
					for k2, p2 := range rp {
						if p1 <= p2 {
							row[p2] += v * rx[k2]
						}
					}
				}
				if ac.b != nil {
					coef := c * r * d
					for k, q := range rp {
						ac.b.Add(int(q), coef*rx[k])
					}
				}
			}
			if ac.b != nil {
				ac.b.Close()
			}
		}
		accs[t] = ac
	}
	for t := 1; t < workers; t++ {
		go work(t)
	}
	work(0)
	for range workers {
		<-done
	}

	aSum, bSum, sse := accs[0].a, accs[0].b, accs[0].sse
	for t := 1; t < workers; t++ {
		sse += accs[t].sse
		for k, v := range accs[t].a {
			aSum[k] += v
		}
		if bSum != nil {
			bSum.Merge(accs[t].b)
		}
	}
	for k := range p {
		aSum[k*p+k] += e.prior * e.pscale2[free[k]]
	}
	u.Sigma2 = sse / math.Max(e.sumW-float64(p), 1)

	ainv, ident, err := stats.PinvSym(mat.NewSymDense(p, aSum))
	if err != nil {
		return nil, err
	}
	var cov *mat.SymDense
	switch method {
	case Classical:
		cov = mat.NewSymDense(p, nil)
		cov.ScaleSym(u.Sigma2, ainv)
	case Clustered:
		cov = stats.Sandwich(ainv, bSum.Meat(), 0)
	}
	for i := range p {
		if !ident[i] {
			for j := range p {
				cov.SetSym(i, j, math.NaN())
			}
		}
	}
	for k, j := range free {
		u.SE[j] = math.Sqrt(cov.At(k, k))
	}
	u.Cov = cov
	return u, nil
}

// BootstrapOptions control Evaluator.Bootstrap.
type BootstrapOptions struct {
	// Replicates is the number of bootstrap refits; zero means 50.
	Replicates int
	// Seed seeds the PCG generator that draws the games.
	Seed uint64
	// MaxIterations bounds each refit, which starts from the optimum;
	// zero means 30.
	MaxIterations int
	// Frozen marks weights kept fixed (as for Fit).
	Frozen []bool
}

// BootstrapResult holds bootstrap-over-games estimates.
type BootstrapResult struct {
	// SD is the standard deviation of each weight across replicates (a
	// standard-error estimate); 0 for frozen weights.
	SD []float64
	// Samples holds the refitted weight vector of every successful
	// replicate.
	Samples [][]float64
	// Failed counts replicates whose refit returned an error; they are
	// left out of SD.
	Failed int
}

// Bootstrap estimates the sampling spread of the weights by resampling
// whole games with replacement (a game drawn m times gets sample weight m
// for all its positions, so no data are copied) and refitting from w with
// a few L-BFGS iterations, K held fixed. The Evaluator's sample weights are
// restored on return.
func (e *Evaluator) Bootstrap(w []float64, opt BootstrapOptions) (*BootstrapResult, error) {
	e.checkLen(w)
	reps := opt.Replicates
	if reps <= 0 {
		reps = 50
	}
	iters := opt.MaxIterations
	if iters <= 0 {
		iters = 30
	}
	free, err := freeIndices(opt.Frozen, e.dim)
	if err != nil {
		return nil, err
	}
	if e.weight != nil {
		return nil, errors.New("texel: Bootstrap on an already weighted Evaluator")
	}
	defer e.setWeights(nil)
	gi, ng := e.data.games()
	rng := rand.New(rand.NewPCG(opt.Seed, 0x626f6f74))
	count := make([]float32, ng)
	cw := make([]float32, len(gi))
	out := &BootstrapResult{SD: make([]float64, e.dim)}
	for range reps {
		clear(count)
		for range ng {
			count[rng.IntN(ng)]++
		}
		for i, g := range gi {
			cw[i] = count[g]
		}
		e.setWeights(cw)
		res, ferr := e.fit(w, Options{Frozen: opt.Frozen, MaxIterations: iters})
		if ferr != nil {
			out.Failed++
			continue
		}
		out.Samples = append(out.Samples, res.Weights)
	}
	if len(out.Samples) < 2 {
		return out, fmt.Errorf("texel: Bootstrap: only %d of %d replicates succeeded", len(out.Samples), reps)
	}
	col := make([]float64, len(out.Samples))
	for _, j := range free {
		for r, s := range out.Samples {
			col[r] = s[j]
		}
		out.SD[j] = stat.StdDev(col, nil)
	}
	return out, nil
}
