package imbalance

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"tamerlane/internal/stats"
)

// Consistency tests the additive model against the matches. With more
// matches than the values they identify, the matches overdetermine the
// values, and the model (a piece is worth the same in every match, and
// values add) predicts every match's score from the others.
//
// The test is the lack-of-fit F test of a generalised linear model with
// replicated observations. Each match's games are replicates: the
// pure-error dispersion
//
//	φ_pe = Σ_m [W_m(1−s̄_m)² + D_m(½−s̄_m)² + L_m·s̄_m²] / (p_m(1−p_m)) / (G − M)
//
// (s̄_m the match's mean score, p_m the fitted one, G games, M matches)
// measures the spread of single games about their own match's mean, which
// the model does not enter; the lack of fit
//
//	X² = Σ_m n_m (s̄_m − p_m)² / (p_m(1−p_m)) / φ_pe
//
// measures the matches' means about the model. Under the model X²/DF is
// F(DF, G − M), DF = M − rank of the information. Games are taken as
// independent, as the fit's standard errors take them: a pair of games
// from one position is two replicates. When they are not, Inflated puts
// the pairs' correlation into the test.
type Consistency struct {
	// Matches is M, the matches with games; DF is M less the number of value directions the
	// matches identify (0: nothing to test).
	Matches int `json:"matches"`
	DF      int `json:"df"`
	// ChiSquare is X² (in pure-error units); P its p-value from the F
	// test (null when DF is 0).
	ChiSquare stats.Float `json:"chi_square"`
	P         stats.Float `json:"p"`
	// PureError is φ_pe (null with no game to spare).
	PureError stats.Float `json:"pure_error_dispersion"`
	// Heterogeneity is h = max(1, X²/DF): how much more the matches
	// spread about the model than their games allow (1 when untested;
	// see Result.Widened).
	Heterogeneity float64 `json:"heterogeneity"`
	// PairInflation is k, the factor by which X² and the residuals take a
	// match's mean score to be more variable than independent games make
	// it (Inflated; 1: games independent).
	PairInflation float64 `json:"pair_inflation"`
	// Residuals are one per match, in input order (null figures for a
	// match without games).
	Residuals []Residual `json:"residuals"`
}

// Residual is one match's score against the additive model's.
type Residual struct {
	Name   string      `json:"name"`
	Games  float64     `json:"games"`
	Score  stats.Float `json:"score"`
	Fitted stats.Float `json:"fitted"`
	// Leverage h_m is the share of the fit this match decides: 1 when its
	// score alone sets a value (it then fits exactly, and says nothing
	// about the model).
	Leverage stats.Float `json:"leverage"`
	// Z is the standardised residual (s̄ − p)/√(φ_pe·p(1−p)(1−h)/n):
	// about N(0, 1) under the model; null when the leverage is 1.
	Z stats.Float `json:"z"`
}

// Overdetermined reports whether there are more matches than values.
func (c *Consistency) Overdetermined() bool { return c != nil && c.DF > 0 }

// Tested reports whether the matches overdetermine the values and their
// games vary within matches (the test needs both).
func (c *Consistency) Tested() bool { return c.Overdetermined() && !math.IsNaN(float64(c.P)) }

// Disagrees reports whether the matches reject the additive model at the
// given level (e.g. 0.05).
func (c *Consistency) Disagrees(alpha float64) bool {
	return c.Tested() && float64(c.P) < alpha
}

// consistency computes the test for a fit at beta, with inv the
// pseudo-inverse of the Fisher information (without ridge: the leverages
// of a ridged fit fall short of 1 where a match alone sets a value).
func consistency(matches []Match, beta []float64, inv *mat.SymDense) *Consistency {
	c := &Consistency{ChiSquare: stats.Float(math.NaN()), P: stats.Float(math.NaN()), PureError: stats.Float(math.NaN()), Heterogeneity: 1, PairInflation: 1}
	games, pure, lack, rank := 0.0, 0.0, 0.0, 0.0
	k := len(beta)
	played := 0
	for _, m := range matches {
		n := m.Games()
		if n == 0 {
			nan := stats.Float(math.NaN())
			c.Residuals = append(c.Residuals, Residual{Name: m.Name, Score: nan, Fitted: nan, Leverage: nan, Z: nan})
			continue
		}
		played++
		p := stats.Logistic(dot(beta, m.Diff))
		s := (m.Wins + m.Draws/2) / n
		d := mat.NewVecDense(k, m.Diff)
		h := n * p * (1 - p) * mat.Inner(d, inv, d)
		rank += h
		games += n
		v := p * (1 - p)
		if v > 0 {
			pure += (m.Wins*(1-s)*(1-s) + m.Draws*(0.5-s)*(0.5-s) + m.Losses*s*s) / v
			lack += n * (s - p) * (s - p) / v
		}
		c.Residuals = append(c.Residuals, Residual{Name: m.Name, Games: n, Score: stats.Float(s), Fitted: stats.Float(p), Leverage: stats.Float(h), Z: stats.Float(math.NaN())})
	}
	c.Matches = played
	c.DF = played - int(math.Round(rank))
	spare := games - float64(played)
	if spare <= 0 || pure <= 0 {
		return c
	}
	phi := pure / spare
	c.PureError = stats.Float(phi)
	for i := range c.Residuals {
		r := &c.Residuals[i]
		p, h := float64(r.Fitted), float64(r.Leverage)
		if r.Games > 0 && 1-h > 1e-6 && p > 0 && p < 1 {
			r.Z = stats.Float((float64(r.Score) - p) / math.Sqrt(phi*p*(1-p)*(1-h)/r.Games))
		}
	}
	if c.DF > 0 {
		c.ChiSquare = stats.Float(lack / phi)
		c.test(spare)
	}
	return c
}

// test sets P and Heterogeneity from ChiSquare and DF, with spare = G − M
// the pure error's degrees of freedom.
func (c *Consistency) test(spare float64) {
	f := distuv.F{D1: float64(c.DF), D2: spare}
	c.P = stats.Float(1 - f.CDF(float64(c.ChiSquare)/float64(c.DF)))
	c.Heterogeneity = math.Max(1, float64(c.ChiSquare)/float64(c.DF))
}

// Inflated returns the test for matches whose mean scores are k times as
// variable as independent games make them (the two games of a pair
// correlate: k = 1 + ρ̂): the pure error still measures single games, so
// X² is divided by k, every residual's z by √k, and the p-value and the
// heterogeneity follow; h is then the matches' spread beyond what the
// correlation explains, and k·h the whole widening (tune.ReportedImbalance).
// It returns c itself for nil, k ≤ 1 or k not a number: a test is never
// made stricter on a negative correlation, as an interval is never
// narrowed on it.
func (c *Consistency) Inflated(k float64) *Consistency {
	if c == nil || !(k > 1) {
		return c
	}
	w := *c
	w.PairInflation = c.PairInflation * k
	w.Residuals = slices.Clone(c.Residuals)
	spare := 0.0
	for i := range w.Residuals {
		r := &w.Residuals[i]
		r.Z /= stats.Float(math.Sqrt(k))
		if r.Games > 0 {
			spare += r.Games - 1
		}
	}
	if c.Tested() {
		w.ChiSquare /= stats.Float(k)
		w.test(spare)
	}
	return &w
}

// Widened returns a copy of the fit whose covariance is multiplied by the
// matches' heterogeneity h (Consistency.Heterogeneity) and whose standard
// errors and intervals are √h as wide. When the matches spread about the
// additive model more than their games allow, the values are known no
// better than that spread says: the between-match dispersion of
// quasi-likelihood (a Birge ratio), which leaves a fit whose matches
// agree (h = 1) as it is. The planner's stopping rule judges this widened
// fit in measurements begun since it was recorded (values.PlanConfig).
func (r *Result) Widened() *Result {
	if r.Consistency == nil {
		return r
	}
	return r.Inflated(r.Consistency.Heterogeneity)
}

// Inflated returns a copy of the fit whose covariance is multiplied by k
// and whose standard errors and intervals are √k as wide (the fit itself
// when k ≤ 1 or is not a number: a fit is never narrowed).
func (r *Result) Inflated(k float64) *Result {
	if !(k > 1) {
		return r
	}
	w := *r
	w.Cov = mat.NewSymDense(r.Cov.SymmetricDim(), nil)
	w.Cov.ScaleSym(k, r.Cov)
	w.Estimates = slices.Clone(r.Estimates)
	f := math.Sqrt(k)
	for i := range w.Estimates {
		e := &w.Estimates[i]
		e.LogitSE *= f
		e.SE *= f
		e.Lo = e.Value - (e.Value-e.Lo)*f
		e.Hi = e.Value + (e.Hi-e.Value)*f
	}
	return &w
}
