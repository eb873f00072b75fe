package tune

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"tamerlane/internal/stats"

	"tamerlane/engine/eval"
	"tamerlane/tune/texel"
)

// DefaultGrid returns the prior grid of a `regularise:` section that
// lists none: prior standard deviations in centipawns from strong to weak,
// then 0, no prior at all. Each call returns a new slice.
func DefaultGrid() []float64 { return []float64{2.5, 5, 10, 20, 40, 80, 160, 0} }

// Rules that choose the prior from the path.
const (
	// RuleMin keeps the fit of lowest validation error.
	RuleMin = "min"
	// RuleOneSE keeps the strongest prior whose validation error is within
	// one game-clustered standard error of the lowest (the "one standard
	// error rule"): a weaker prior must beat it by more than the noise of
	// the held-out games.
	RuleOneSE = "one-se"
)

// Regularise is the `regularise:` section of a tuning configuration: the
// strength of the prior around the starting table is chosen by the
// validation loss instead of being fixed by prior_sd.
type Regularise struct {
	// Grid lists the prior standard deviations in centipawns to try; 0
	// means no prior (default DefaultGrid).
	Grid []float64 `yaml:"grid" json:"grid,omitempty"`
	// Rule chooses from the path: RuleMin or RuleOneSE (default RuleOneSE:
	// in the hour run's first generation the lowest validation error chose
	// loose priors for the historical Tamerlane tables, which then lost
	// 58 and 120 Elo to the hand tables; one-se tables gained).
	Rule string `yaml:"rule" json:"rule,omitempty"`
}

// rule returns the configured rule: RuleOneSE when the section sets none,
// "" without a section.
func (r *Regularise) rule() string {
	switch {
	case r == nil:
		return ""
	case r.Rule == "":
		return RuleOneSE
	}
	return r.Rule
}

// grid returns the configured grid, or DefaultGrid.
func (r *Regularise) grid() []float64 {
	if r == nil {
		return nil
	}
	if len(r.Grid) == 0 {
		return DefaultGrid()
	}
	return slices.Clone(r.Grid)
}

// RegPoint is one fit of the regularisation path: the fit at one prior
// strength, warm-started from the fit at the next stronger one.
type RegPoint struct {
	// PriorSD is the prior standard deviation in centipawns (0: no prior).
	PriorSD stats.Float `json:"prior_sd"`
	// Penalty is the ridge strength P = MSE0/PriorSD² of texel.Config.
	Penalty stats.Float `json:"penalty"`
	// TrainMSE and ValidMSE are the mean squared errors on the training
	// and held-out positions against the fit's target (λ-blended);
	// ValidResultMSE is the held-out error against the game results
	// alone, the criterion that chooses the prior.
	TrainMSE       stats.Float `json:"train_mse"`
	ValidMSE       stats.Float `json:"valid_mse"`
	ValidResultMSE stats.Float `json:"valid_result_mse"`
	// SEVsMin is the game-clustered standard error of the difference
	// between this fit's ValidResultMSE and the lowest of the path (0 for
	// the lowest itself; NaN without validation).
	SEVsMin    stats.Float `json:"se_vs_min"`
	Iterations int         `json:"iterations"`
	Status     string      `json:"status"`
	// MaxAbsWeight is the largest |weight| of the fit.
	MaxAbsWeight stats.Float `json:"max_abs_weight"`
	// Excluded says why this fit could not be chosen ("": it could).
	Excluded string `json:"excluded,omitempty"`
	// Chosen marks the fit kept by the rule among those not excluded
	// (RuleMin: the lowest ValidResultMSE, ties to the stronger prior;
	// RuleOneSE: the strongest within SEVsMin of the lowest).
	Chosen bool `json:"chosen,omitempty"`
}

// orderGrid returns the grid from the strongest prior to the weakest (no
// prior last), rejecting negative, non-finite and repeated values.
func orderGrid(grid []float64) ([]float64, error) {
	out := slices.Clone(grid)
	for _, s := range out {
		if !(s >= 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("prior grid value %v is not a finite number ≥ 0", s)
		}
	}
	slices.SortFunc(out, func(a, b float64) int {
		switch {
		case a == b:
			return 0
		case a == 0: // no prior is the weakest
			return 1
		case b == 0:
			return -1
		case a < b:
			return -1
		}
		return 1
	})
	for i := 1; i < len(out); i++ {
		if out[i] == out[i-1] {
			return nil, fmt.Errorf("prior grid value %v is repeated", out[i])
		}
	}
	return out, nil
}

// penalty converts a prior standard deviation into the ridge strength
// P = MSE0/sd² (0 for no prior).
func penalty(sd, mse0 float64) float64 {
	if sd == 0 {
		return 0
	}
	return mse0 / (sd * sd)
}

// pathFit is one fit of the path with its weights.
type pathFit struct {
	res   *texel.Result
	point RegPoint
}

// fitPath fits ev's data at every prior of grid (ordered strong to weak),
// each fit warm-started from the previous one, and returns the fits and
// the index of the chosen one: the lowest validation error against game
// results (vres) among the fits whose weights all stay within
// ±eval.MaxWeight, or by rule RuleOneSE (see RegPoint.Chosen). valid evaluates the λ-blended validation error (nil:
// none); with a single grid value no validation is needed.
func fitPath(ev, valid, vres *texel.Evaluator, w0 []float64, grid []float64, rule string, mse0 float64, fo texel.Options) ([]pathFit, int, error) {
	if len(grid) > 1 && vres == nil {
		return nil, -1, fmt.Errorf("choosing the prior by validation needs held-out positions (validation > 0 and enough games)")
	}
	var path []pathFit
	var games [][]float64 // per fit, the validation squared errors summed by game
	best := -1
	w := w0
	for _, sd := range grid {
		p := RegPoint{PriorSD: stats.Float(sd), Penalty: stats.Float(penalty(sd, mse0)),
			ValidMSE: stats.Float(math.NaN()), ValidResultMSE: stats.Float(math.NaN()), SEVsMin: stats.Float(math.NaN())}
		games = append(games, nil)
		if err := ev.SetPrior(float64(p.Penalty)); err != nil {
			return nil, -1, err
		}
		res, err := ev.Fit(w, fo)
		if err != nil {
			if len(grid) == 1 {
				return nil, -1, err
			}
			p.Excluded = err.Error()
			p.TrainMSE, p.MaxAbsWeight = stats.Float(math.NaN()), stats.Float(math.NaN())
			path = append(path, pathFit{point: p})
			continue
		}
		p.TrainMSE, p.Iterations, p.Status = stats.Float(res.TrainMSE), res.Iterations, res.Status.String()
		maxAbs := 0.0
		for _, x := range res.Weights {
			maxAbs = max(maxAbs, math.Abs(x))
		}
		p.MaxAbsWeight = stats.Float(maxAbs)
		if valid != nil {
			p.ValidMSE = stats.Float(valid.MSE(res.Weights))
		}
		if vres != nil {
			p.ValidResultMSE = stats.Float(vres.MSE(res.Weights))
			games[len(games)-1] = gameSSE(vres, res.Weights)
		}
		switch {
		case !(maxAbs <= eval.MaxWeight):
			p.Excluded = fmt.Sprintf("a weight reaches %.0f, outside ±%d", maxAbs, eval.MaxWeight)
		case len(grid) > 1 && math.IsNaN(float64(p.ValidResultMSE)):
			p.Excluded = "validation error is not a number"
		default:
			if best < 0 || float64(p.ValidResultMSE) < float64(path[best].point.ValidResultMSE) {
				best = len(path)
			}
		}
		path = append(path, pathFit{res: res, point: p})
		w = res.Weights
	}
	if best < 0 && len(grid) == 1 {
		return path, -1, fmt.Errorf("the fit is unusable: %s (too few positions for the weights fitted without a prior: set prior_sd > 0, or leave prior_sd out (with validation > 0) to choose a prior by the held-out games, or free fewer weights)", path[0].point.Excluded)
	}
	if best < 0 {
		return path, -1, fmt.Errorf("no prior of the grid %v gave a usable fit (%s)", grid, path[len(path)-1].point.Excluded)
	}
	if games[best] != nil {
		n := float64(vres.Data().Len())
		for i := range path {
			if games[i] != nil {
				path[i].point.SEVsMin = stats.Float(diffSE(games[i], games[best]) / n)
			}
		}
	}
	if rule == RuleOneSE {
		limit := path[best].point.ValidResultMSE
		for i := range path {
			p := path[i].point
			if p.Excluded == "" && p.ValidResultMSE <= limit+p.SEVsMin {
				best = i
				break
			}
		}
	}
	path[best].point.Chosen = true
	return path, best, nil
}

// gameSSE returns the squared errors of e's data against the game results
// at weights w (e has lambda 0), summed by game in the order of the
// data's dense game numbers.
func gameSSE(e *texel.Evaluator, w []float64) []float64 {
	d := e.Data()
	evals := e.Evals(w, nil)
	dense := map[int64]int{}
	var out []float64
	for i, x := range evals {
		g, ok := dense[d.Game(i)]
		if !ok {
			g = len(out)
			dense[d.Game(i)] = g
			out = append(out, 0)
		}
		r := float64(d.Result(i)) - texel.Sigmoid(e.K(), x)
		out[g] += r * r
	}
	return out
}

// diffSE returns the standard error of Σ_g (a_g − b_g) when games are
// independent: sqrt(G·s²) with s² the sample variance of a_g − b_g.
func diffSE(a, b []float64) float64 {
	g := float64(len(a))
	if len(a) < 2 {
		return math.NaN()
	}
	var mean float64
	for i := range a {
		mean += a[i] - b[i]
	}
	mean /= g
	var ss float64
	for i := range a {
		d := a[i] - b[i] - mean
		ss += d * d
	}
	return math.Sqrt(g * ss / (g - 1))
}

// PriorText describes a fit's prior sd (0: none) and, when it was chosen
// from a path, the grid, e.g. "prior sd 20 cp, chosen by validation from
// 2.5, 5, 10, 20, none".
func PriorText(sd stats.Float, path []RegPoint) string {
	s := "no prior"
	if sd > 0 {
		s = fmt.Sprintf("prior sd %g cp", float64(sd))
	}
	if len(path) == 0 {
		return s
	}
	grid := make([]string, len(path))
	for i, p := range path {
		grid[i] = sdText(p.PriorSD)
	}
	return fmt.Sprintf("%s, chosen by validation from %s", s, strings.Join(grid, ", "))
}

func sdText(sd stats.Float) string {
	if sd == 0 {
		return "none"
	}
	return fmt.Sprintf("%g", float64(sd))
}

// RegularisationMarkdown renders a fit's regularisation path as a
// Markdown table (empty when the prior was fixed).
func RegularisationMarkdown(path []RegPoint) string {
	if len(path) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Regularisation path (prior sd in cp around the starting table, fitted from strong to none, each fit warm-started from the previous; " +
		"the prior kept has the lowest validation MSE against game results):\n\n")
	b.WriteString("| prior sd | train MSE | validation MSE | validation MSE (results) | SE of difference to the lowest | iterations | max abs weight | |\n|---|---|---|---|---|---|---|---|\n")
	for _, p := range path {
		note := p.Excluded
		if p.Chosen {
			note = "**chosen**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %s | %s |\n", sdText(p.PriorSD), p.TrainMSE.Format(6), p.ValidMSE.Format(6),
			p.ValidResultMSE.Format(6), p.SEVsMin.Format(6), p.Iterations, p.MaxAbsWeight.Format(0), note)
	}
	b.WriteString("\n")
	return b.String()
}

// IdentificationMarkdown lists the weights a fit left alone: frozen ones
// (their feature never occurs, or they are not free) and free ones the
// data do not identify (no standard error).
func IdentificationMarkdown(f *VariantFit) string {
	var frozen, unident []string
	for _, w := range f.Weights {
		switch {
		case w.Frozen:
			frozen = append(frozen, w.Name)
		case math.IsNaN(float64(w.SE)):
			unident = append(unident, w.Name)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d weights fitted", len(f.Weights)-len(frozen), len(f.Weights))
	if len(frozen) > 0 {
		fmt.Fprintf(&b, "; %d kept at the start value (not free, or never seen in the data): %s", len(frozen), strings.Join(frozen, ", "))
	}
	if len(unident) > 0 {
		fmt.Fprintf(&b, "; **not identified** by the data (no standard error): %s", strings.Join(unident, ", "))
	}
	b.WriteString(".\n\n")
	return b.String()
}
