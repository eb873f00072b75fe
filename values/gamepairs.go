package values

import (
	"math"

	"tamerlane/internal/stats"
	"tamerlane/values/imbalance"
)

// PairCorrelation is the correlation of the first side's scores in the
// two games of a pair (one position, colours swapped), pooled over a
// variant's imbalance matches. The fit counts games as independent; a
// positive correlation makes a match's mean score 1 + ρ times as variable
// as that count says, which ReportedImbalance puts back.
//
// Estimator: with s̄_m match m's mean score per game, the pooled pair
// variance V_pair = Σ_m Σ_pairs (y − 2s̄_m)² / Σ_m (pairs_m − 1) (y the
// pair's points, 0 to 2) and the pooled game variance V_game =
// Σ_m Σ_games (x − s̄_m)² / Σ_m (games_m − 1); under a common correlation
// V_pair = 2·V_game·(1 + ρ), so ρ̂ = V_pair/(2·V_game) − 1, with the
// normal approximation SE = (1 − ρ̂²)/√pairs.
type PairCorrelation struct {
	Pairs int            `json:"pairs"`
	Rho   stats.Interval `json:"rho"`
}

// Correlated reports whether the pairs' games correlate positively at
// 95% (ReportedImbalance widens the intervals by Inflation whether or not
// they do).
func (c *PairCorrelation) Correlated() bool { return c != nil && c.Rho.Lo > 0 }

// Inflation is the factor by which the pairs' correlation multiplies the
// variance of a match's mean score: 1 + ρ̂ when ρ̂ > 0, else 1 (also for
// nil or an unknown ρ̂). A negative correlation would narrow the
// intervals; they are not narrowed on it.
func (c *PairCorrelation) Inflation() float64 {
	if c == nil || !(c.Rho.Value > 0) {
		return 1
	}
	return 1 + float64(c.Rho.Value)
}

// ReportedImbalance returns an imbalance fit as the values document and
// the tuned values tables give it. The pairs' correlation makes a match's mean
// score k = 1 + ρ̂ times as variable as independent games
// (PairCorrelation.Inflation; pc nil: k = 1), so the additive model's test
// is taken with it (imbalance.Consistency.Inflated), and the covariance is
// multiplied by k times the heterogeneity h that test leaves (the
// matches' spread about the model beyond the correlation; 1 when they
// agree). k·h is the larger of k and the uncorrelated test's X²/df:
// correlated pairs spread the matches too, so the two are not multiplied.
func ReportedImbalance(fit *imbalance.Result, pc *PairCorrelation) *imbalance.Result {
	k := pc.Inflation()
	c := fit.Consistency.Inflated(k)
	h := 1.0
	if c != nil {
		h = c.Heterogeneity
	}
	w := *fit.Inflated(k * h)
	w.Consistency = c
	return &w
}

// PairCorrelationOf returns the correlation over the matches, or nil when
// some match's pentanomial is unknown or does not count its games (a
// summary written before it was kept) or the matches have too few pairs
// to spread.
func PairCorrelationOf(ms []*ImbalanceMatch) *PairCorrelation {
	var pairSS, gameSS, pairDF, gameDF float64
	pairs := 0
	for _, m := range ms {
		games := m.Games()
		if games == 0 {
			continue
		}
		if len(m.Pentanomial) != 5 {
			return nil
		}
		s := (float64(m.Wins) + float64(m.Draws)/2) / float64(games)
		gameSS += float64(m.Wins)*(1-s)*(1-s) + float64(m.Draws)*(0.5-s)*(0.5-s) + float64(m.Losses)*s*s
		gameDF += float64(games - 1)
		n := 0
		for k, c := range m.Pentanomial {
			d := float64(k)/2 - 2*s
			pairSS += float64(c) * d * d
			n += c
		}
		if 2*n != games {
			return nil // a summary from before pentanomials were kept
		}
		pairDF += float64(n - 1)
		pairs += n
	}
	if pairDF <= 0 || gameDF <= 0 || gameSS <= 0 {
		return nil
	}
	rho := (pairSS/pairDF)/(2*gameSS/gameDF) - 1
	se := (1 - rho*rho) / math.Sqrt(float64(pairs))
	if rho*rho > 1 {
		se = math.NaN()
	}
	return &PairCorrelation{Pairs: pairs, Rho: stats.NewInterval(rho, se)}
}
