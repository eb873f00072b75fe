package elo

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"

	"tamerlane/internal/stats"
)

// Model selects how an SPRT interprets its Elo bounds and computes the
// log-likelihood ratio.
type Model string

const (
	// ModelNormalized treats Elo0 and Elo1 as normalized Elo and uses
	// fastchess's generalized log-likelihood ratio (Van den Bergh's
	// normalized-Elo GLLR). It is fastchess's default and works with
	// pentanomial and trinomial samples. The zero Model means
	// ModelNormalized.
	ModelNormalized Model = "normalized"
	// ModelBayesian treats Elo0 and Elo1 as logistic Elo and uses
	// cutechess-cli's BayesElo model: the draw Elo is estimated from the
	// sample (with a Jeffreys prior, i.e. half a game added to each
	// result), the bounds are converted to BayesElo with the matching scale
	// factor, and the LLR is the exact trinomial likelihood ratio of the
	// two resulting distributions. It only applies to trinomial samples.
	//
	// Note that fastchess's "bayesian" model differs (it treats the bounds
	// as BayesElo and uses a GLLR); this package follows cutechess-cli.
	ModelBayesian Model = "bayesian"
	// ModelLogistic treats Elo0 and Elo1 as logistic Elo and uses
	// fastchess's generalized log-likelihood ratio constrained on the
	// expected score. It works with pentanomial and trinomial samples.
	ModelLogistic Model = "logistic"
)

// Decision is the outcome of an SPRT after some games.
type Decision int

const (
	// Continue means the LLR is strictly between the bounds (or NaN):
	// play more games.
	Continue Decision = iota
	// AcceptH0 means the LLR reached the lower bound: the Elo difference
	// is at most Elo0.
	AcceptH0
	// AcceptH1 means the LLR reached the upper bound: the Elo difference
	// is at least Elo1.
	AcceptH1
)

// String returns "continue", "H0" or "H1".
func (d Decision) String() string {
	switch d {
	case Continue:
		return "continue"
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// SPRT is a sequential probability ratio test of H0: Elo = Elo0 against
// H1: Elo = Elo1, with type I error Alpha and type II error Beta. The unit
// of Elo0 and Elo1 depends on Model. The zero Model means ModelNormalized.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       Model
}

// maxNormalizedElo bounds |Elo0| and |Elo1| under ModelNormalized. The
// maximum-likelihood iteration, started from the uniform distribution, has
// no solution from about 232 (pentanomial) or 341 (trinomial) normalized
// Elo on, whatever the data.
const maxNormalizedElo = 200

// Validate reports whether the test is well defined: 0 < Alpha < 1,
// 0 < Beta < 1, Alpha+Beta < 1, finite Elo0 < Elo1 and a known Model.
// Under ModelNormalized the bounds must also lie within ±200 normalized
// Elo, and under ModelLogistic they must map to expected scores strictly
// between 0 and 1 (about ±6000 Elo); outside those ranges the LLR methods
// return NaN.
func (s SPRT) Validate() error {
	switch {
	case !(s.Alpha > 0 && s.Alpha < 1):
		return fmt.Errorf("elo: SPRT alpha %v is not in (0, 1)", s.Alpha)
	case !(s.Beta > 0 && s.Beta < 1):
		return fmt.Errorf("elo: SPRT beta %v is not in (0, 1)", s.Beta)
	case !(s.Alpha+s.Beta < 1):
		return errors.New("elo: SPRT alpha+beta must be less than 1")
	case math.IsInf(s.Elo0, 0) || math.IsInf(s.Elo1, 0) || !(s.Elo0 < s.Elo1):
		return fmt.Errorf("elo: SPRT elo0 %v must be less than elo1 %v and both finite", s.Elo0, s.Elo1)
	}
	switch s.model() {
	case ModelNormalized:
		if math.Abs(s.Elo0) > maxNormalizedElo || math.Abs(s.Elo1) > maxNormalizedElo {
			return fmt.Errorf("elo: normalized SPRT bounds [%v, %v] exceed ±%v nElo", s.Elo0, s.Elo1, maxNormalizedElo)
		}
	case ModelLogistic:
		for _, e := range [2]float64{s.Elo0, s.Elo1} {
			if sc := EloToScore(e); !(sc > 0 && sc < 1) {
				return fmt.Errorf("elo: logistic SPRT bound %v Elo is an expected score of %v", e, sc)
			}
		}
	case ModelBayesian:
		// Any finite bounds work: the scale factor keeps them finite.
	default:
		return fmt.Errorf("elo: unknown SPRT model %q", s.Model)
	}
	return nil
}

func (s SPRT) model() Model {
	if s.Model == "" {
		return ModelNormalized
	}
	return s.Model
}

// Bounds returns the LLR stopping bounds log(Beta/(1-Alpha)) and
// log((1-Beta)/Alpha). For Alpha = Beta = 0.05 they are about ±2.944.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Decide compares llr with the bounds: AcceptH1 if llr >= upper, AcceptH0
// if llr <= lower, Continue otherwise (including for a NaN llr).
func (s SPRT) Decide(llr float64) Decision {
	lower, upper := s.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

// regularizedFreqs replaces counts in place by relative frequencies and
// returns their total, after replacing zero counts by 1e-3 as fastchess
// does so that every log-likelihood stays finite.
func regularizedFreqs(counts []float64) (total float64) {
	for i, c := range counts {
		if c == 0 {
			counts[i] = 1e-3
		}
	}
	total = floats.Sum(counts)
	floats.Scale(1/total, counts)
	return total
}

// LLRPentanomial returns the log-likelihood ratio of H1 against H0 for the
// pentanomial sample p, as fastchess computes it (zero counts are
// regularized to 1e-3). Under ModelNormalized the bounds are normalized
// Elo; under ModelLogistic they are logistic Elo.
//
// It returns 0 when p has no pairs, and NaN when the bounds are outside the
// range the model supports (see Validate). It panics if a count is
// negative, if the model is unknown, or for ModelBayesian, which is a
// per-game model (fastchess refuses that combination too).
func (s SPRT) LLRPentanomial(p Pentanomial) float64 {
	p.check()
	if p.Pairs() == 0 {
		return 0
	}
	scores, probs := pentanomialScores(), p.weights()
	total := regularizedFreqs(probs[:])
	switch s.model() {
	case ModelNormalized:
		// A pair's average score has sqrt(2) times the standardized
		// effect of a single game.
		t0 := math.Sqrt2 * s.Elo0 / nEloScale
		t1 := math.Sqrt2 * s.Elo1 / nEloScale
		return llrNormalized(total, scores[:], probs[:], t0, t1)
	case ModelLogistic:
		return llrLogistic(total, scores[:], probs[:], EloToScore(s.Elo0), EloToScore(s.Elo1))
	case ModelBayesian:
		// Any finite bounds work: the scale factor keeps them finite.
		panic("elo: the bayesian SPRT model needs a trinomial sample")
	}
	panic(fmt.Sprintf("elo: unknown SPRT model %q", s.Model))
}

// LLRTrinomial returns the log-likelihood ratio of H1 against H0 for the
// trinomial sample t. ModelNormalized and ModelLogistic follow fastchess
// (zero counts are regularized to 1e-3); ModelBayesian follows
// cutechess-cli, whose Jeffreys prior keeps the result finite for any
// counts, including all wins or all draws.
//
// It returns 0 when t has no games, and NaN when the bounds are outside the
// range the model supports (see Validate). It panics if a count is
// negative or the model is unknown.
func (s SPRT) LLRTrinomial(t Trinomial) float64 {
	t.check()
	if t.Games() == 0 {
		return 0
	}
	if s.model() == ModelBayesian {
		return s.llrBayesElo(t)
	}
	scores, probs := trinomialScores(), t.weights()
	total := regularizedFreqs(probs[:])
	switch s.model() {
	case ModelNormalized:
		return llrNormalized(total, scores[:], probs[:], s.Elo0/nEloScale, s.Elo1/nEloScale)
	case ModelLogistic:
		return llrLogistic(total, scores[:], probs[:], EloToScore(s.Elo0), EloToScore(s.Elo1))
	}
	panic(fmt.Sprintf("elo: unknown SPRT model %q", s.Model))
}

// EloToScore converts a logistic Elo difference to an expected score,
// 1/(1 + 10^(−elo/400)); ScoreToElo is its inverse.
func EloToScore(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// llrBayesElo is cutechess-cli's SPRT log-likelihood ratio.
func (s SPRT) llrBayesElo(t Trinomial) float64 {
	// Half a game per result: a Dirichlet(1/2, 1/2, 1/2) (Jeffreys) prior.
	w := float64(t.Wins) + 0.5
	l := float64(t.Losses) + 0.5
	d := float64(t.Draws) + 0.5
	n := w + l + d
	pw, pl := w/n, l/n

	// Draw Elo fitted to the sample; it is positive because pw+pl < 1.
	drawElo := 200 * math.Log10((1-pl)/pl*(1-pw)/pw)
	// Logistic Elo is approximately scale*BayesElo near zero.
	x := math.Pow(10, -drawElo/400)
	scale := 4 * x / ((1 + x) * (1 + x))

	w0, l0, d0 := bayesEloLogProbs(s.Elo0/scale, drawElo)
	w1, l1, d1 := bayesEloLogProbs(s.Elo1/scale, drawElo)
	return w*(w1-w0) + l*(l1-l0) + d*(d1-d0)
}

// bayesEloLogProbs returns the logarithms of the win, loss and draw
// probabilities of the BayesElo model,
//
//	P(win)  = 1/(1+10^((drawElo-bayesElo)/400))
//	P(loss) = 1/(1+10^((drawElo+bayesElo)/400))
//	P(draw) = 1 - P(win) - P(loss),
//
// evaluated in log space so that extreme Elo values (as produced by an
// all-draws sample, whose scale factor is tiny) neither overflow nor lose
// the draw probability to cancellation. drawElo must be positive.
func bayesEloLogProbs(bayesElo, drawElo float64) (win, loss, draw float64) {
	a := drawElo / 400 * math.Ln10  // ln A, A = 10^(drawElo/400)
	b := bayesElo / 400 * math.Ln10 // ln B, B = 10^(bayesElo/400)
	win = -stats.Softplus(a - b)
	loss = -stats.Softplus(a + b)
	// 1 - B/(A+B) - 1/(1+AB) = B(A²-1) / ((A+B)(1+AB))
	draw = b + logExpm1(2*a) - logAddExp(a, b) - stats.Softplus(a+b)
	return win, loss, draw
}

// logAddExp returns log(e^x + e^y) without overflow.
func logAddExp(x, y float64) float64 {
	if x < y {
		x, y = y, x
	}
	return x + stats.Softplus(y-x)
}

// logExpm1 returns log(e^x - 1) for x > 0 without overflow.
func logExpm1(x float64) float64 {
	if x > 1 {
		return x + math.Log1p(-math.Exp(-x))
	}
	return math.Log(math.Expm1(x))
}

// llrLogistic is the generalized log-likelihood ratio for a multinomial
// sample with outcome scores and observed frequencies probs (all positive,
// summing to 1), between the maximum-likelihood distributions whose
// expected score is s0 and s1 (Van den Bergh, "Comparing the approximations
// for the generalized log likelihood ratio of a multinomial distribution",
// Proposition 1.1).
func llrLogistic(total float64, scores, probs []float64, s0, s1 float64) float64 {
	var buf0, buf1, phi [5]float64
	p0, p1 := buf0[:len(scores)], buf1[:len(scores)]
	if !mleScore(p0, phi[:len(scores)], scores, probs, s0) ||
		!mleScore(p1, phi[:len(scores)], scores, probs, s1) {
		return math.NaN()
	}
	return total * logRatioMean(probs, p0, p1)
}

// mleScore writes into dst the distribution on scores that maximizes the
// likelihood of the observed frequencies probs subject to an expected score
// of s. phi is scratch space of the same length. It reports false if s is
// not strictly between the smallest and largest score.
func mleScore(dst, phi, scores, probs []float64, s float64) bool {
	for i, a := range scores {
		phi[i] = a - s
	}
	theta, ok := solveTheta(phi, probs)
	for i := range dst {
		dst[i] = probs[i] / (1 + theta*phi[i])
	}
	return ok
}

// llrNormalized is the generalized log-likelihood ratio between the
// maximum-likelihood distributions with normalized effect
// t = (mean-1/2)/sigma equal to t0 and t1 (Van den Bergh, "Comments on
// normalized Elo", section 4.1).
func llrNormalized(total float64, scores, probs []float64, t0, t1 float64) float64 {
	var buf0, buf1, phi [5]float64
	p0, p1 := buf0[:len(scores)], buf1[:len(scores)]
	if !mleNormalized(p0, phi[:len(scores)], scores, probs, 0.5, t0) ||
		!mleNormalized(p1, phi[:len(scores)], scores, probs, 0.5, t1) {
		return math.NaN()
	}
	return total * logRatioMean(probs, p0, p1)
}

// mleNormalized writes into dst the distribution on scores that maximizes
// the likelihood of probs subject to (mean-muRef)/sigma = t, found by the
// fixed-point iteration of Van den Bergh, started from the uniform
// distribution. phi is scratch space of the same length. It reports false
// if an iteration has no solution, which happens only for |t| of order 1
// (normalized Elo bounds of a few hundred).
func mleNormalized(dst, phi, scores, probs []float64, muRef, t float64) bool {
	const (
		maxIter = 100
		tol     = 1e-12
	)
	for i := range dst {
		dst[i] = 1 / float64(len(dst))
	}
	for range maxIter {
		mu, variance := stat.PopMeanVariance(scores, dst)
		sigma := math.Sqrt(variance)
		for i, a := range scores {
			z := (a - mu) / sigma
			phi[i] = a - muRef - 0.5*t*sigma*(1+z*z)
		}
		theta, ok := solveTheta(phi, probs)
		if !ok {
			return false
		}
		maxDiff := 0.0
		for i := range dst {
			p := probs[i] / (1 + theta*phi[i])
			maxDiff = math.Max(maxDiff, math.Abs(p-dst[i]))
			dst[i] = p
		}
		if maxDiff < tol {
			break
		}
	}
	return true
}

// solveTheta returns the root of f(theta) = sum_i probs[i]*phi[i]/(1+theta*phi[i])
// on the interval where every 1+theta*phi[i] is positive. f decreases
// strictly there and, when phi takes both signs and every probs[i] is
// positive, runs from +Inf to -Inf, so bisection always converges. If phi
// does not take both signs there is no root and ok is false.
func solveTheta(phi, probs []float64) (theta float64, ok bool) {
	u, v := floats.Min(phi), floats.Max(phi)
	if !(u < 0 && v > 0) {
		return 0, false
	}
	lo, hi := -1/v, -1/u
	f := func(theta float64) float64 {
		var sum float64
		for i, x := range phi {
			sum += probs[i] * x / (1 + theta*x)
		}
		return sum
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi || hi-lo < 1e-14 {
			break
		}
		switch fm := f(mid); {
		case fm > 0:
			lo = mid
		case fm < 0:
			hi = mid
		default:
			return mid, true
		}
	}
	return lo + (hi-lo)/2, true
}

// logRatioMean returns sum_i probs[i] * log(p1[i]/p0[i]).
func logRatioMean(probs, p0, p1 []float64) float64 {
	var sum float64
	for i, w := range probs {
		sum += w * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return sum
}
