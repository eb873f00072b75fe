package elo

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"tamerlane/internal/stats"
)

// nEloScale converts a standardized score difference into normalized Elo:
// nElo = (score-0.5)/sigma * 800/ln(10), where sigma is the standard
// deviation of the score of a single game.
const nEloScale = 800 / math.Ln10

// Outcome is the result of one game from the first player's point of view,
// measured in half points.
type Outcome int

const (
	// Loss is a lost game (0 points).
	Loss Outcome = 0
	// Draw is a drawn game (1/2 point).
	Draw Outcome = 1
	// Win is a won game (1 point).
	Win Outcome = 2
)

// String returns "loss", "draw" or "win".
func (o Outcome) String() string {
	switch o {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

func (o Outcome) check() {
	if o < Loss || o > Win {
		panic(fmt.Sprintf("elo: invalid outcome %d", int(o)))
	}
}

// Pair holds the outcomes of the two games of a game pair (same opening,
// colours reversed), both from the first player's point of view.
type Pair [2]Outcome

// Estimate is a point estimate of an Elo difference with its two-sided 95%
// error margin and the likelihood of superiority.
type Estimate struct {
	// Elo is the estimated Elo difference. It is +Inf (-Inf) when the
	// first player scored every point (no point).
	Elo float64
	// Margin is the half-width of the 95% confidence interval in Elo
	// points. It is +Inf when the interval is unbounded, for example when
	// there is no data or when the interval reaches a 0% or 100% score.
	Margin float64
	// LOS is the likelihood of superiority of the first player, as a
	// probability in [0, 1] (the tools print it as a percentage).
	LOS float64
}

// Trinomial holds the win, draw and loss counts of individual games, from
// the first player's point of view. Counts must not be negative.
type Trinomial struct {
	Wins, Draws, Losses int
}

// NewTrinomial counts the given game outcomes. It panics if an outcome is
// not Loss, Draw or Win.
func NewTrinomial(games []Outcome) Trinomial {
	var t Trinomial
	addAll(games, t.Add)
	return t
}

// addAll adds every item with add.
func addAll[T any](items []T, add func(T)) {
	for _, x := range items {
		add(x)
	}
}

// Add counts one more game. It panics if o is not Loss, Draw or Win.
func (t *Trinomial) Add(o Outcome) {
	o.check()
	switch o {
	case Win:
		t.Wins++
	case Draw:
		t.Draws++
	case Loss:
		t.Losses++
	}
}

// Score returns the first player's mean score per game with its
// standard error and normal 95% interval clipped to [0, 1] (unknown
// without games).
func (t Trinomial) Score() stats.Interval {
	t.check()
	if t.Games() == 0 {
		return stats.UnknownInterval()
	}
	a, w := trinomialScores(), t.weights()
	mu, variance := stat.PopMeanVariance(a[:], w[:])
	return stats.NewInterval(mu, math.Sqrt(variance/float64(t.Games()))).Clip(0, 1)
}

// Games returns the number of games.
func (t Trinomial) Games() int { return t.Wins + t.Draws + t.Losses }

// DrawRatio returns the fraction of drawn games, or 0 when there are no
// games.
func (t Trinomial) DrawRatio() float64 {
	if t.Games() == 0 {
		return 0
	}
	return float64(t.Draws) / float64(t.Games())
}

func (t Trinomial) check() {
	if t.Wins < 0 || t.Draws < 0 || t.Losses < 0 {
		panic(fmt.Sprintf("elo: negative count in %+v", t))
	}
}

// trinomialScores returns the per-game scores of a loss, a draw and a win.
func trinomialScores() [3]float64 { return [3]float64{0, 0.5, 1} }

// weights returns the counts ordered like trinomialScores.
func (t Trinomial) weights() [3]float64 {
	return [3]float64{float64(t.Losses), float64(t.Draws), float64(t.Wins)}
}

// Elo returns the logistic Elo difference, its 95% error margin and the
// likelihood of superiority exactly as cutechess-cli computes them:
// the per-game score mean and variance give a normal confidence interval
// for the score, whose ends are converted to Elo; the margin is half the
// width of that Elo interval, and LOS = Phi((W-L)/sqrt(W+L)).
//
// To reproduce cutechess-cli's printed margin to the last digit, the 97.5%
// normal quantile is taken from the same closed-form inverse-error-function
// approximation cutechess-cli uses (1.95716 instead of 1.95996), which
// makes the margin about 0.14% narrower than with the exact quantile.
//
// Edge cases: with no games it returns {0, +Inf, 0.5}; with all games won
// (lost) Elo is +Inf (-Inf) and Margin +Inf; with only draws it returns
// {0, 0, 0.5}, since the sample has no variance. LOS is 0.5 whenever there
// are no decisive games. It panics if a count is negative.
func (t Trinomial) Elo() Estimate {
	t.check()
	if t.Games() == 0 {
		return Estimate{Elo: 0, Margin: math.Inf(1), LOS: 0.5}
	}
	a, w := trinomialScores(), t.weights()
	mu, variance := stat.PopMeanVariance(a[:], w[:])
	stdErr := math.Sqrt(variance / float64(t.Games()))

	z := cutechessPhiInv(0.975)
	los := 0.5
	if decisive := t.Wins + t.Losses; decisive > 0 {
		los = distuv.UnitNormal.CDF(float64(t.Wins-t.Losses) / math.Sqrt(float64(decisive)))
	}
	return Estimate{
		Elo:    ScoreToElo(mu),
		Margin: eloMargin(mu, z*stdErr),
		LOS:    los,
	}
}

// NormalizedElo returns fastchess's trinomial normalized Elo,
// nElo = (score-0.5)/sigma * 800/ln(10) with sigma the per-game standard
// deviation of the score, with its 95% margin and fastchess's LOS
// Phi((score-0.5)/(sigma/sqrt(N))).
//
// The margin, 1.96 * 800/ln(10) / sqrt(N), depends only on the number of
// games N. Edge cases: with no games it returns {0, +Inf, 0.5}; when the
// sample has no variance (all games won, drawn or lost) Elo is +Inf, 0 or
// -Inf and LOS is 1, 0.5 or 0. It panics if a count is negative.
func (t Trinomial) NormalizedElo() Estimate {
	t.check()
	a, w := trinomialScores(), t.weights()
	return normalizedEstimate(a[:], w[:], float64(t.Games()), 1)
}

// Pentanomial counts game pairs by the first player's total score over the
// pair, indexed by that score in half points:
//
//	p[0]: LL          (0 points)
//	p[1]: LD + DL     (1/2 point)
//	p[2]: WL + LW + DD (1 point)
//	p[3]: WD + DW     (3/2 points)
//	p[4]: WW          (2 points)
//
// This is fastchess's "Ptnml(0-2)" ordering. Counts must not be negative.
type Pentanomial [5]int

// NewPentanomial counts the given game pairs. It panics if an outcome is
// not Loss, Draw or Win.
func NewPentanomial(pairs []Pair) Pentanomial {
	var p Pentanomial
	addAll(pairs, p.Add)
	return p
}

// Add counts one more game pair. It panics if an outcome is not Loss,
// Draw or Win.
func (p *Pentanomial) Add(pr Pair) {
	pr[0].check()
	pr[1].check()
	p[int(pr[0])+int(pr[1])]++
}

// Pairs returns the number of game pairs.
func (p Pentanomial) Pairs() int {
	n := 0
	for _, c := range p {
		n += c
	}
	return n
}

func (p Pentanomial) check() {
	for _, c := range p {
		if c < 0 {
			panic(fmt.Sprintf("elo: negative count in %v", p))
		}
	}
}

// pentanomialScores returns the per-game average scores of the five pair
// outcomes.
func pentanomialScores() [5]float64 { return [5]float64{0, 0.25, 0.5, 0.75, 1} }

func (p Pentanomial) weights() [5]float64 {
	var w [5]float64
	for i, c := range p {
		w[i] = float64(c)
	}
	return w
}

// Elo returns the logistic Elo difference with its 95% error margin and the
// likelihood of superiority as fastchess computes them from pentanomial
// statistics: the score variance is that of the per-pair average score, so
// the margin accounts for the correlation of the two games of a pair.
//
// Edge cases: with no pairs it returns {0, +Inf, 0.5}; when every pair
// scored 2 (0) points Elo is +Inf (-Inf) and Margin +Inf; when every pair
// scored exactly 1 point it returns {0, 0, 0.5}. Margin is also +Inf when
// the score interval reaches 0% or 100%. It panics if a count is negative.
func (p Pentanomial) Elo() Estimate {
	p.check()
	n := float64(p.Pairs())
	if n == 0 {
		return Estimate{Elo: 0, Margin: math.Inf(1), LOS: 0.5}
	}
	a, w := pentanomialScores(), p.weights()
	mu, variance := stat.PopMeanVariance(a[:], w[:])
	stdErr := math.Sqrt(variance / n)
	z := stats.Z95
	return Estimate{
		Elo:    ScoreToElo(mu),
		Margin: eloMargin(mu, z*stdErr),
		LOS:    scoreLOS(mu, stdErr),
	}
}

// NormalizedElo returns fastchess's pentanomial normalized Elo,
// nElo = (score-0.5)/(sqrt(2)*sigma) * 800/ln(10) with sigma the standard
// deviation of the per-pair average score, with its 95% margin and LOS.
//
// The margin, 1.96 * 800/ln(10) / sqrt(2*pairs), depends only on the number
// of pairs. Edge cases: with no pairs it returns {0, +Inf, 0.5}; when all
// pairs have the same score (no variance) Elo is +Inf, 0 or -Inf and LOS is
// 1, 0.5 or 0 as that score is above, at or below 1 point. It panics if a
// count is negative.
func (p Pentanomial) NormalizedElo() Estimate {
	p.check()
	a, w := pentanomialScores(), p.weights()
	return normalizedEstimate(a[:], w[:], float64(p.Pairs()), 2)
}

// normalizedEstimate computes fastchess's nElo for n samples with the given
// score distribution; k is the number of games per sample (1 for single
// games, 2 for pairs), since the per-game variance is k times the per-sample
// variance of the average score.
func normalizedEstimate(scores, counts []float64, n, k float64) Estimate {
	if n == 0 {
		return Estimate{Elo: 0, Margin: math.Inf(1), LOS: 0.5}
	}
	mu, variance := stat.PopMeanVariance(scores, counts)
	z := stats.Z95
	var nElo float64
	switch {
	case variance > 0:
		nElo = (mu - 0.5) / math.Sqrt(k*variance) * nEloScale
	case mu > 0.5:
		nElo = math.Inf(1)
	case mu < 0.5:
		nElo = math.Inf(-1)
	}
	return Estimate{
		Elo: nElo,
		// (nElo(mu+z*se) - nElo(mu-z*se))/2 with se = sqrt(variance/n)
		// simplifies to a constant that does not involve the variance.
		Margin: z * nEloScale / math.Sqrt(k*n),
		LOS:    scoreLOS(mu, math.Sqrt(variance/n)),
	}
}

// ScoreToElo converts an expected score in [0, 1] to a logistic Elo
// difference; 0 and 1 map to -Inf and +Inf.
func ScoreToElo(score float64) float64 {
	if score == 0.5 {
		return 0 // avoid -0
	}
	return -400 * math.Log10(1/score-1)
}

// eloMargin returns half the width, in Elo, of the score interval
// [mu-halfWidth, mu+halfWidth], clamped to [0, 1]. It is +Inf if either end
// of the interval maps to an infinite Elo difference.
func eloMargin(mu, halfWidth float64) float64 {
	hi := ScoreToElo(math.Min(mu+halfWidth, 1))
	lo := ScoreToElo(math.Max(mu-halfWidth, 0))
	if math.IsInf(hi, 0) || math.IsInf(lo, 0) {
		return math.Inf(1)
	}
	return (hi - lo) / 2
}

// scoreLOS returns P(true score > 0.5) under a normal approximation with
// mean mu and standard error stdErr, with the limits 1, 0.5 and 0 for a
// zero standard error.
func scoreLOS(mu, stdErr float64) float64 {
	if stdErr > 0 {
		return distuv.UnitNormal.CDF((mu - 0.5) / stdErr)
	}
	switch {
	case mu > 0.5:
		return 1
	case mu < 0.5:
		return 0
	}
	return 0.5
}

// cutechessPhiInv is the standard normal quantile as cutechess-cli computes
// it, from Winitzki's closed-form approximation of the inverse error
// function with a = 8(pi-3)/(3pi(4-pi)). It is used only to reproduce
// cutechess-cli's printed error margins.
func cutechessPhiInv(p float64) float64 {
	x := 2*p - 1
	a := 8 * (math.Pi - 3) / (3 * math.Pi * (4 - math.Pi))
	y := math.Log(1 - x*x)
	z := 2/(math.Pi*a) + y/2
	r := math.Sqrt(math.Sqrt(z*z-y/a) - z)
	if x < 0 {
		r = -r
	}
	return math.Sqrt2 * r
}
