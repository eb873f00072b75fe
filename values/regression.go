package values

import (
	"errors"
	"fmt"
	"math"
	"tamerlane/internal/stats"

	"gonum.org/v1/gonum/mat"
)

// RegressionOptions control FitRegression.
type RegressionOptions struct {
	// MinGames is the number of games with a non-zero difference of a
	// class below which the class is not identified (default 30).
	MinGames int
	// Start, if set, are starting values (pawns) per class for the
	// Fisher scoring; the result does not depend on them beyond the
	// convergence tolerance.
	Start []float64
}

func (o RegressionOptions) withDefaults() RegressionOptions {
	if o.MinGames == 0 {
		o.MinGames = 30
	}
	return o
}

// Regression is the prior-free regression fit of one variant.
type Regression struct {
	// Pieces are the class names; Values[i] belongs to Pieces[i]
	// (Values[0], the pawn, is 1 by definition, SE 0).
	Pieces []string `json:"pieces"`
	// Values are in pawns; Identified[i] is false for classes with too few
	// games or Separated, whose Values[i] is NaN.
	Values     []stats.Interval `json:"values"`
	Identified []bool           `json:"identified"`
	// Separated[i] is true for a class whose differences separate the
	// results: in every game with a difference the side with more of it
	// won (or in every one it lost), so the likelihood grows without
	// bound with its value. Such a class is not identified either (a
	// queen up in an ending that is always won has no finite value).
	Separated []bool `json:"separated"`
	// Alpha is White's advantage (logit), Gamma0 and Gamma1 the logistic
	// scale per pawn s(φ) = Gamma0 + Gamma1·φ.
	Alpha, Gamma0, Gamma1 float64
	// Games and Samples count the data; DiffGames[i] counts the games
	// with a sample whose class-i difference is not zero, the games that
	// inform Values[i].
	Games, Samples int
	DiffGames      []int `json:"diff_games"`
	// LogLik is the maximised weighted quasi-log-likelihood.
	LogLik float64
	// Iterations is the number of Fisher-scoring steps.
	Iterations int
	// Cov is the sandwich covariance of θ = (α, γ0, γ1, v of the
	// identified non-pawn classes); Index[i] is class i's row in it (-1
	// for the pawn, whose value is fixed, and unidentified classes).
	Cov   *mat.SymDense `json:"-"`
	Index []int         `json:"-"`
}

// cov returns the covariance of the values of classes i and j.
func (r *Regression) cov(i, j int) float64 {
	if r.Index[i] < 0 || r.Index[j] < 0 {
		return 0
	}
	return r.Cov.At(r.Index[i], r.Index[j])
}

// model evaluates the logit of a sample and its gradient in θ.
type model struct {
	cls []int // θ index 3+m ↔ class cls[m]
}

func (m *model) eta(theta []float64, s *Sample, grad []float64) float64 {
	mat0 := s.Diff[0]
	for k, c := range m.cls {
		mat0 += theta[3+k] * s.Diff[c]
	}
	sc := theta[1] + theta[2]*s.Phase
	if grad != nil {
		grad[0] = 1
		grad[1] = mat0
		grad[2] = s.Phase * mat0
		for k, c := range m.cls {
			grad[3+k] = sc * s.Diff[c]
		}
	}
	return theta[0] + sc*mat0
}

// logitFunc is the logit of a sample as a function of the parameters θ;
// with grad not nil it also writes its gradient in θ there.
type logitFunc func(theta []float64, s *Sample, grad []float64) float64

// logLik returns the weighted quasi-log-likelihood.
func logLik(eta logitFunc, theta []float64, samples []Sample) float64 {
	ll := 0.0
	for i := range samples {
		s := &samples[i]
		z := eta(theta, s, nil)
		// r ln p + (1−r) ln(1−p) = −[r·softplus(−z) + (1−r)·softplus(z)]
		ll -= s.Weight * (s.Result*stats.Softplus(-z) + (1-s.Result)*stats.Softplus(z))
	}
	return ll
}

// scoreInfo returns the score vector and the expected information.
func scoreInfo(eta logitFunc, theta []float64, samples []Sample) ([]float64, *mat.SymDense) {
	n := len(theta)
	u := make([]float64, n)
	info := mat.NewSymDense(n, nil)
	g := make([]float64, n)
	raw := info.RawSymmetric().Data
	for i := range samples {
		s := &samples[i]
		p := stats.Logistic(eta(theta, s, g))
		r := s.Weight * (s.Result - p)
		w := s.Weight * p * (1 - p)
		for a := range n {
			u[a] += r * g[a]
			if g[a] == 0 {
				continue
			}
			for b := a; b < n; b++ {
				raw[a*n+b] += w * g[a] * g[b]
			}
		}
	}
	return u, info
}

// FitRegression fits the model of the package documentation to the
// samples of one variant with the given class names (Names[0] = "P").
func FitRegression(names []string, samples []Sample, opt RegressionOptions) (*Regression, error) {
	if len(names) == 0 || names[0] != "P" {
		return nil, errors.New("values: the first class must be the pawn P")
	}
	opt = opt.withDefaults()
	games := map[int]bool{}
	nz := make([]map[int]bool, len(names))
	for i := range nz {
		nz[i] = map[int]bool{}
	}
	// won[c] (lost[c]) stays true while every sample with a class c
	// difference was won (lost) by the side with more of c.
	won, lost := make([]bool, len(names)), make([]bool, len(names))
	for c := range names {
		won[c], lost[c] = true, true
	}
	for i := range samples {
		s := &samples[i]
		if len(s.Diff) != len(names) {
			return nil, fmt.Errorf("values: sample %d has %d classes, want %d", i, len(s.Diff), len(names))
		}
		games[s.Game] = true
		for c, d := range s.Diff {
			if d != 0 {
				nz[c][s.Game] = true
				r := s.Result
				if d < 0 {
					r = 1 - r
				}
				won[c] = won[c] && r == 1
				lost[c] = lost[c] && r == 0
			}
		}
	}
	if len(nz[0]) < opt.MinGames {
		return nil, fmt.Errorf("values: only %d games with a pawn difference (need %d) among %d games", len(nz[0]), opt.MinGames, len(games))
	}
	res := &Regression{Pieces: names, Games: len(games), Samples: len(samples),
		Values: make([]stats.Interval, len(names)), Identified: make([]bool, len(names)),
		Separated: make([]bool, len(names)), DiffGames: make([]int, len(names))}
	for c := range names {
		res.DiffGames[c] = len(nz[c])
	}
	m := &model{}
	for c := 1; c < len(names); c++ {
		switch {
		case len(nz[c]) < opt.MinGames:
		case won[c] || lost[c]:
			res.Separated[c] = true
		default:
			m.cls = append(m.cls, c)
		}
	}
	theta, err := m.start(samples, len(names), opt.Start)
	if err != nil {
		return nil, err
	}
	theta, iters, err := fisher(m.eta, theta, samples)
	if err != nil {
		return nil, err
	}
	res.Iterations = iters
	res.LogLik = logLik(m.eta, theta, samples)
	cov, err := m.sandwich(theta, samples)
	if err != nil {
		return nil, err
	}
	res.Cov = cov
	res.Alpha, res.Gamma0, res.Gamma1 = theta[0], theta[1], theta[2]
	res.Values[0] = stats.NewInterval(1, 0)
	res.Identified[0] = true
	res.Index = make([]int, len(names))
	for c := range res.Index {
		res.Index[c] = -1
	}
	for c := 1; c < len(names); c++ {
		res.Values[c] = stats.UnknownInterval()
	}
	for k, c := range m.cls {
		res.Values[c] = stats.NewInterval(theta[3+k], math.Sqrt(cov.At(3+k, 3+k)))
		res.Identified[c] = true
		res.Index[c] = 3 + k
	}
	return res, nil
}

// start returns the starting θ: the given values if any, else the linear
// logistic fit logit = α + Σ β_j d_j, converted (γ0 = β_P, v_j = β_j/β_P).
func (m *model) start(samples []Sample, k int, given []float64) ([]float64, error) {
	theta := make([]float64, 3+len(m.cls))
	if given != nil {
		if len(given) != k {
			return nil, fmt.Errorf("values: %d start values for %d classes", len(given), k)
		}
		theta[1] = 0.5
		for j, c := range m.cls {
			theta[3+j] = given[c]
		}
		return theta, nil
	}
	// The linear model is the full model with γ1 = 0 and the values
	// entering linearly.
	eta := func(b []float64, s *Sample, g []float64) float64 {
		z := b[0] + b[1]*s.Diff[0]
		if g != nil {
			g[0], g[1] = 1, s.Diff[0]
		}
		for j, c := range m.cls {
			z += b[2+j] * s.Diff[c]
			if g != nil {
				g[2+j] = s.Diff[c]
			}
		}
		return z
	}
	beta, _, err := fisher(eta, make([]float64, 2+len(m.cls)), samples) // α, β_P, β_j
	if err != nil {
		return nil, fmt.Errorf("%w (the linear start fit)", err)
	}
	if !(beta[1] > 0) {
		return nil, fmt.Errorf("values: the pawn's logit coefficient is %.3g, not positive: the games do not measure material", beta[1])
	}
	theta[0], theta[1] = beta[0], beta[1]
	for j := range m.cls {
		theta[3+j] = beta[2+j] / beta[1]
	}
	return theta, nil
}

// fisher maximises the weighted quasi-log-likelihood of the logit eta
// from theta by Fisher scoring with step halving, and returns the maximum
// and the number of steps. (gonum's Newton method, which the imbalance fit
// uses, stops short of this precision here: with the expected
// information in place of the Hessian the steps shrink linearly, and its
// line search fails once the log-likelihood can no longer resolve them,
// about 1e-7 from the maximum, where this loop takes the full step.)
func fisher(eta logitFunc, theta []float64, samples []Sample) ([]float64, int, error) {
	n := len(theta)
	ll := logLik(eta, theta, samples)
	next := make([]float64, n)
	for it := 1; it <= 1000; it++ {
		u, info := scoreInfo(eta, theta, samples)
		var ch mat.Cholesky
		if !ch.Factorize(info) {
			return nil, it, errors.New("values: the information matrix is singular (collinear material differences)")
		}
		var d mat.VecDense
		if err := ch.SolveVecTo(&d, mat.NewVecDense(n, u)); err != nil {
			return nil, it, err
		}
		// Near the maximum (Newton decrement tiny) the full step is taken:
		// the log-likelihood can no longer resolve the improvement.
		dec := 0.0
		for a := range n {
			dec += u[a] * d.AtVec(a)
		}
		step := 1.0
		for h := 0; ; h++ {
			for a := range n {
				next[a] = theta[a] + step*d.AtVec(a)
			}
			if dec < 1e-8 {
				break
			}
			nl := logLik(eta, next, samples)
			if nl >= ll || h == 40 {
				ll = nl
				break
			}
			step /= 2
		}
		small := true
		for a := range n {
			if math.Abs(next[a]-theta[a]) > 1e-13*(1+math.Abs(theta[a])) {
				small = false
			}
		}
		copy(theta, next)
		if small {
			return theta, it, nil
		}
	}
	return nil, 1000, errors.New("values: Fisher scoring did not converge in 1000 steps")
}

// sandwich returns the game-clustered covariance A⁻¹BA⁻¹·G/(G−1).
func (m *model) sandwich(theta []float64, samples []Sample) (*mat.SymDense, error) {
	n := len(theta)
	_, info := scoreInfo(m.eta, theta, samples)
	var ch mat.Cholesky
	if !ch.Factorize(info) {
		return nil, errors.New("values: the information matrix is singular")
	}
	var ainv mat.SymDense
	if err := ch.InverseTo(&ainv); err != nil {
		return nil, err
	}
	// The samples of each game, the games in the order they first appear,
	// so that the result does not depend on map order.
	index := map[int]int{}
	var games [][]int
	for i := range samples {
		k, ok := index[samples[i].Game]
		if !ok {
			k = len(games)
			index[samples[i].Game] = k
			games = append(games, nil)
		}
		games[k] = append(games[k], i)
	}
	if len(games) < 2 {
		return nil, errors.New("values: fewer than two games")
	}
	scores := stats.NewClusterScores(n)
	g := make([]float64, n)
	for _, game := range games {
		for _, i := range game {
			s := &samples[i]
			p := stats.Logistic(m.eta(theta, s, g))
			for a := range n {
				scores.Add(a, s.Weight*(s.Result-p)*g[a])
			}
		}
		scores.Close()
	}
	return stats.Sandwich(&ainv, scores.Meat(), scores.Clusters()), nil
}
