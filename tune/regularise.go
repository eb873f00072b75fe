package tune

import (
	"fmt"
	"math"
	"slices"

	"tamerlane/engine/eval"
	"tamerlane/tune/texel"
)

// DefaultGrid is the prior grid of a `regularise:` section that lists
// none: prior standard deviations in centipawns from strong to weak, then
// 0, no prior at all.
var DefaultGrid = []float64{2.5, 5, 10, 20, 40, 80, 160, 0}

// Regularise is the `regularise:` section of a tuning configuration: the
// strength of the prior around the starting table is chosen by the
// validation loss instead of being fixed by prior_sd.
type Regularise struct {
	// Grid lists the prior standard deviations in centipawns to try; 0
	// means no prior (default DefaultGrid).
	Grid []float64 `yaml:"grid" json:"grid,omitempty"`
}

// grid returns the configured grid, or DefaultGrid.
func (r *Regularise) grid() []float64 {
	if r == nil {
		return nil
	}
	if len(r.Grid) == 0 {
		return slices.Clone(DefaultGrid)
	}
	return slices.Clone(r.Grid)
}

// RegPoint is one fit of the regularisation path: the fit at one prior
// strength, warm-started from the fit at the next stronger one.
type RegPoint struct {
	// PriorSD is the prior standard deviation in centipawns (0: no prior).
	PriorSD Float `json:"prior_sd"`
	// Penalty is the ridge strength P = MSE0/PriorSD² of texel.Config.
	Penalty Float `json:"penalty"`
	// TrainMSE and ValidMSE are the mean squared errors on the training
	// and held-out positions against the fit's target (λ-blended);
	// ValidResultMSE is the held-out error against the game results
	// alone, the criterion that chooses the prior.
	TrainMSE       Float  `json:"train_mse"`
	ValidMSE       Float  `json:"valid_mse"`
	ValidResultMSE Float  `json:"valid_result_mse"`
	Iterations     int    `json:"iterations"`
	Status         string `json:"status"`
	// MaxAbsWeight is the largest |weight| of the fit.
	MaxAbsWeight Float `json:"max_abs_weight"`
	// Excluded says why this fit could not be chosen ("": it could).
	Excluded string `json:"excluded,omitempty"`
	// Chosen marks the fit kept: the lowest ValidResultMSE among those not
	// excluded (ties go to the stronger prior).
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
// ±eval.MaxWeight. valid evaluates the λ-blended validation error (nil:
// none); with a single grid value no validation is needed.
func fitPath(ev, valid, vres *texel.Evaluator, w0 []float64, grid []float64, mse0 float64, fo texel.Options) ([]pathFit, int, error) {
	if len(grid) > 1 && vres == nil {
		return nil, -1, fmt.Errorf("choosing the prior by validation needs held-out positions (validation > 0 and enough games)")
	}
	var path []pathFit
	best := -1
	w := w0
	for _, sd := range grid {
		p := RegPoint{PriorSD: Float(sd), Penalty: Float(penalty(sd, mse0)),
			ValidMSE: Float(math.NaN()), ValidResultMSE: Float(math.NaN())}
		if err := ev.SetPrior(float64(p.Penalty)); err != nil {
			return nil, -1, err
		}
		res, err := ev.Fit(w, fo)
		if err != nil {
			if len(grid) == 1 {
				return nil, -1, err
			}
			p.Excluded = err.Error()
			p.TrainMSE, p.MaxAbsWeight = Float(math.NaN()), Float(math.NaN())
			path = append(path, pathFit{point: p})
			continue
		}
		p.TrainMSE, p.Iterations, p.Status = Float(res.TrainMSE), res.Iterations, res.Status.String()
		maxAbs := 0.0
		for _, x := range res.Weights {
			maxAbs = max(maxAbs, math.Abs(x))
		}
		p.MaxAbsWeight = Float(maxAbs)
		if valid != nil {
			p.ValidMSE = Float(valid.MSE(res.Weights))
		}
		if vres != nil {
			p.ValidResultMSE = Float(vres.MSE(res.Weights))
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
		return path, -1, fmt.Errorf("the fit is unusable: %s", path[0].point.Excluded)
	}
	if best < 0 {
		return path, -1, fmt.Errorf("no prior of the grid %v gave a usable fit (%s)", grid, path[len(path)-1].point.Excluded)
	}
	path[best].point.Chosen = true
	return path, best, nil
}
