package tune

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/internal/stats"
	"tamerlane/tune/texel"
)

// FitOptions control a Texel fit.
type FitOptions struct {
	// Lambda blends the search score into the target (0: pure game result).
	Lambda float64
	// PriorSD is the standard deviation in centipawns of a Gaussian prior
	// centred on the starting weights (0: no prior). It becomes the L2
	// penalty P = MSE0/PriorSD² of texel.Config, MSE0 being the starting
	// mean squared error (the residual variance), so that the fit is a
	// posterior mode and the standard errors posterior deviations.
	// The deviation is per unit of the weight's feature, or per typical
	// value of the feature where it occurs (its root mean square over the
	// training positions that have it) when that exceeds one unit (see
	// priorScale). Ignored when
	// Grid is set.
	PriorSD float64
	// Grid, when not empty, lists prior standard deviations (0: no prior)
	// to choose from by the held-out error against game results: one fit
	// per value, from the strongest prior to the weakest, each
	// warm-started from the previous one (see RegPoint).
	Grid []float64 `json:",omitempty"`
	// Rule chooses from the grid's fits: RuleMin (also when empty) or
	// RuleOneSE.
	Rule string `json:",omitempty"`
	// DefaultGrid says that nobody asked for the grid: the configuration
	// set no prior, and a prior chosen by validation is the default (see
	// Config.PriorSD). When the data hold no positions out to choose by,
	// such a fit takes no prior instead of failing.
	DefaultGrid bool `json:",omitempty"`
	// MaxIterations bounds the L-BFGS iterations (0: DefaultMaxIterations).
	MaxIterations int
	// Bootstrap is the number of bootstrap replicates over games (0: none;
	// the standard errors then come from the game-clustered sandwich).
	Bootstrap int
	// Seed drives the bootstrap.
	Seed uint64
	// Workers is the number of goroutines per loss evaluation (0: all CPUs).
	Workers int
	// Free lists name prefixes of the weights to fit (e.g. "material.");
	// the others keep their starting values. Empty: fit every weight.
	Free []string
}

// Weight is one fitted weight.
type Weight struct {
	Name  string      `json:"name"`
	Start stats.Float `json:"start"`
	Value stats.Float `json:"value"`
	// SE is the standard error (null: not identified, or not computed as
	// the fit's SEMethod says; 0: frozen).
	SE     stats.Float `json:"se"`
	Frozen bool        `json:"frozen,omitempty"`
}

// PieceValue is a piece's material value from the fit: the mean of its
// middlegame and endgame material weights, in centipawns of the table.
type PieceValue struct {
	Piece string      `json:"piece"`
	Name  string      `json:"name"`
	MG    stats.Float `json:"mg"`
	EG    stats.Float `json:"eg"`
	Value stats.Float `json:"value"`
	SE    stats.Float `json:"se"`
	// coef is the linear combination of weights that makes Value.
	coef map[int]float64
}

// VariantFit is the result of tuning one variant.
type VariantFit struct {
	Variant        string         `json:"variant"`
	Positions      int            `json:"positions"`
	ValidPositions int            `json:"valid_positions"`
	Games          int            `json:"games"`
	Read           int            `json:"records_read"`
	Dropped        map[string]int `json:"dropped"`
	Sources        []string       `json:"sources"`
	K              stats.Float    `json:"k"`
	Lambda         stats.Float    `json:"lambda"`
	// PriorSD is the prior of the fit (0: none): the configured one, or
	// the one chosen from the grid (Regularisation).
	PriorSD stats.Float `json:"prior_sd"`
	// Losses: mean squared errors before and after the fit.
	StartTrainMSE stats.Float `json:"start_train_mse"`
	TrainMSE      stats.Float `json:"train_mse"`
	StartValidMSE stats.Float `json:"start_valid_mse"`
	ValidMSE      stats.Float `json:"valid_mse"`
	// ValidResultMSE is the validation error against the game results
	// alone (equal to ValidMSE when lambda is 0).
	StartValidResultMSE stats.Float `json:"start_valid_result_mse"`
	ValidResultMSE      stats.Float `json:"valid_result_mse"`
	// Regularisation is the path of fits over the prior grid (empty when
	// the prior was fixed).
	Regularisation []RegPoint   `json:"regularisation,omitempty"`
	Iterations     int          `json:"iterations"`
	Converged      bool         `json:"converged"`
	Status         string       `json:"status"`
	SEMethod       string       `json:"se_method"`
	Weights        []Weight     `json:"weights"`
	Pieces         []PieceValue `json:"pieces"`
	// cov is the covariance of all weights (nil entries: unidentified).
	cov *mat.SymDense
	// v is the variant fitted (nil: a fit read back, see variant).
	v *engine.Variant
	// Cov holds the covariance rows of the material weights, for ratio
	// intervals after the fit is reloaded: Cov[i][j] for i, j in CovIndex.
	CovIndex []int           `json:"cov_index"`
	Cov      [][]stats.Float `json:"cov"`
	// Moves holds the move-choice fit's settings and scores (nil for a
	// Texel fit; see FitMoves).
	Moves *MovesFit `json:"moves,omitempty"`
}

// Fit fits the weights of one variant's data, starting from table start
// (the K of the sigmoid is fitted first with the starting weights, then all
// weights with L-BFGS; weights whose feature never occurs are frozen).
func Fit(d *Data, start *eval.Weights, opt FitOptions) (*VariantFit, error) {
	if start.Variant() != d.Variant {
		return nil, fmt.Errorf("tune: table of %s for data of %s", start.Variant(), d.Variant)
	}
	w0 := append([]float64(nil), start.Values...)
	// K maps the evaluation to an expected result, so it is fitted against
	// the game results alone: fitted against a target that blends in
	// σ_K(score) it collapses towards 0 as lambda grows (at lambda 1 any
	// K with eval ≈ score fits, and K → 0 fits best).
	kev, err := texel.NewEvaluator(d.Train, len(w0), texel.Config{K: 1, Workers: opt.Workers})
	if err != nil {
		return nil, err
	}
	k, err := kev.FitK(w0)
	if err != nil {
		kev.Close()
		return nil, fmt.Errorf("tune %s: fitting K: %w", d.Variant, err)
	}
	kev.Close()
	scale := priorScale(presentRMS(d.Train, len(w0)))
	grid := []float64{opt.PriorSD}
	if len(opt.Grid) > 0 {
		if grid, err = orderGrid(opt.Grid); err != nil {
			return nil, fmt.Errorf("tune %s: %w", d.Variant, err)
		}
	}
	ev, err := texel.NewEvaluator(d.Train, len(w0), texel.Config{K: k, Lambda: opt.Lambda, Center: w0, PriorScale: scale, Workers: opt.Workers})
	if err != nil {
		return nil, err
	}
	defer ev.Close()
	startMSE := ev.MSE(w0)
	frozen := unusedFeatures(d.Train, len(w0))
	if len(opt.Free) > 0 {
		reg := start.Registry()
		for i := range frozen {
			free := false
			for _, p := range opt.Free {
				free = free || strings.HasPrefix(reg.Name(i), p)
			}
			frozen[i] = frozen[i] || !free
		}
	}
	fo := texel.Options{Frozen: frozen, MaxIterations: opt.MaxIterations}
	if fo.MaxIterations == 0 {
		fo.MaxIterations = DefaultMaxIterations
	}
	startValid, startValidRes := math.NaN(), math.NaN()
	var vev, vres *texel.Evaluator
	if d.Valid != nil && d.Valid.Len() > 0 {
		if vev, err = texel.NewEvaluator(d.Valid, len(w0), texel.Config{K: k, Lambda: opt.Lambda, Workers: opt.Workers}); err != nil {
			return nil, err
		}
		defer vev.Close()
		vres = vev
		if opt.Lambda != 0 {
			if vres, err = texel.NewEvaluator(d.Valid, len(w0), texel.Config{K: k, Workers: opt.Workers}); err != nil {
				return nil, err
			}
			defer vres.Close()
		}
		startValid, startValidRes = vev.MSE(w0), vres.MSE(w0)
	}
	fromGrid := len(opt.Grid) > 0 // the prior is chosen from a grid
	if len(grid) > 1 && vres == nil && opt.DefaultGrid {
		grid, fromGrid = []float64{0}, false // nothing to choose by: no prior, as before the default
	}
	path, best, err := fitPath(ev, vev, vres, w0, grid, opt.Rule, startMSE, fo)
	if err != nil {
		return nil, fmt.Errorf("tune %s: %w", d.Variant, err)
	}
	res, chosen := path[best].res, path[best].point
	if err := ev.SetPrior(float64(chosen.Penalty)); err != nil {
		return nil, err
	}
	unc, err := ev.StdErrors(res.Weights, frozen, texel.Clustered)
	if err != nil {
		return nil, fmt.Errorf("tune %s: standard errors: %w", d.Variant, err)
	}
	se := unc.SE
	method := "game-clustered sandwich (Gauss-Newton)"
	if opt.Bootstrap > 0 {
		bs, err := ev.Bootstrap(res.Weights, texel.BootstrapOptions{Replicates: opt.Bootstrap, Seed: opt.Seed, Frozen: frozen})
		if err != nil {
			return nil, fmt.Errorf("tune %s: bootstrap: %w", d.Variant, err)
		}
		se = bs.SD
		method = fmt.Sprintf("bootstrap over games (%d replicates)", opt.Bootstrap)
	}
	f := &VariantFit{
		Variant: d.Variant, Positions: d.Train.Len(), Games: d.Train.NumGames(), Read: d.Read, Dropped: d.Dropped,
		Sources: d.Sources, K: stats.Float(k), Lambda: stats.Float(opt.Lambda), PriorSD: chosen.PriorSD,
		StartTrainMSE: stats.Float(startMSE), TrainMSE: stats.Float(res.TrainMSE), StartValidMSE: stats.Float(startValid),
		ValidMSE: chosen.ValidMSE, StartValidResultMSE: stats.Float(startValidRes), ValidResultMSE: chosen.ValidResultMSE,
		Iterations: res.Iterations, Converged: res.Converged, Status: res.Status.String(), SEMethod: method,
	}
	if fromGrid {
		for _, p := range path {
			f.Regularisation = append(f.Regularisation, p.point)
		}
	}
	if d.Valid != nil {
		f.ValidPositions = d.Valid.Len()
	}
	reg := start.Registry()
	for i, x := range res.Weights {
		f.Weights = append(f.Weights, Weight{Name: reg.Name(i), Start: stats.Float(w0[i]), Value: stats.Float(x), SE: stats.Float(se[i]), Frozen: frozen[i]})
	}
	f.cov = fullCov(unc, len(w0))
	f.pieceValues(start)
	return f, nil
}

// priorScale returns the prior's per-weight factors max(1, rms_j), rms_j
// being the typical size of feature j where it occurs (presentRMS): a
// weight whose feature typically counts many units (mobility squares,
// centrality steps) is held to PriorSD/rms_j per unit, so that the prior
// bounds each term's typical contribution to the evaluation rather than
// its value per unit, which for a count of 20 squares would allow 20
// times the swing. Features of at most one unit (material, per piece)
// keep PriorSD per unit.
func priorScale(rms []float64) []float64 {
	s := make([]float64, len(rms))
	for j, x := range rms {
		s[j] = max(1, x)
	}
	return s
}

// presentRMS returns, per feature, the root mean square of its nonzero
// values in d (0 for a feature that never occurs): its typical size when
// present, whether the piece behind it is common or rare.
func presentRMS(d *texel.Dataset, dim int) []float64 {
	sum := make([]float64, dim)
	n := make([]int, dim)
	for i := 0; i < d.Len(); i++ {
		idx, val := d.Row(i)
		for k, j := range idx {
			if v := float64(val[k]); v != 0 {
				sum[j] += v * v
				n[j]++
			}
		}
	}
	for j := range sum {
		if n[j] > 0 {
			sum[j] = math.Sqrt(sum[j] / float64(n[j]))
		}
	}
	return sum
}

// unusedFeatures marks the weights whose feature is zero in every position.
func unusedFeatures(d *texel.Dataset, dim int) []bool {
	used := make([]bool, dim)
	for i := 0; i < d.Len(); i++ {
		idx, val := d.Row(i)
		for j, k := range idx {
			if val[j] != 0 {
				used[k] = true
			}
		}
	}
	frozen := make([]bool, dim)
	for i := range frozen {
		frozen[i] = !used[i]
	}
	return frozen
}

// fullCov expands the free-weight covariance to all weights (frozen: 0).
func fullCov(u *texel.Uncertainty, dim int) *mat.SymDense {
	c := mat.NewSymDense(dim, nil)
	if u.Cov == nil {
		return c
	}
	for a, i := range u.Free {
		for b, j := range u.Free {
			if b >= a {
				c.SetSym(i, j, u.Cov.At(a, b))
			}
		}
	}
	return c
}

// variant returns the fit's variant: the one it was fitted in, or, for a
// fit read from tune.json, the variant its run directory recorded
// (ReadReport) or the built-in of its name.
func (f *VariantFit) variant() (*engine.Variant, error) {
	if f.v != nil {
		return f.v, nil
	}
	return engine.NewVariant(f.Variant, nil)
}

// pieceValues derives the material value of every non-royal piece type.
func (f *VariantFit) pieceValues(start *eval.Weights) {
	f.v = start.Registry().BaseVariant()
	v := f.v
	reg := start.Registry()
	var idx []int
	for t := 1; t <= v.NumTypes(); t++ {
		d := v.Def(engine.PieceType(t))
		if d.Royal {
			continue
		}
		i := reg.MaterialIndex(engine.PieceType(t))
		pv := PieceValue{Piece: d.Token, Name: d.Name, MG: f.Weights[i].Value, EG: f.Weights[i+1].Value,
			coef: map[int]float64{i: 0.5, i + 1: 0.5}}
		pv.Value = (pv.MG + pv.EG) / 2
		pv.SE = stats.Float(math.Sqrt(f.variance(pv.coef, pv.coef)))
		f.Pieces = append(f.Pieces, pv)
		idx = append(idx, i, i+1)
	}
	sort.Ints(idx)
	f.CovIndex = idx
	f.Cov = make([][]stats.Float, len(idx))
	for a, i := range idx {
		f.Cov[a] = make([]stats.Float, len(idx))
		for b, j := range idx {
			f.Cov[a][b] = stats.Float(f.cov.At(i, j))
		}
	}
}

// variance returns cov(a·w, b·w) for sparse coefficient vectors, summed
// in index order so that equal fits give bit-identical results.
func (f *VariantFit) variance(a, b map[int]float64) float64 {
	var s float64
	for _, i := range slices.Sorted(maps.Keys(a)) {
		for _, j := range slices.Sorted(maps.Keys(b)) {
			s += a[i] * b[j] * f.covAt(i, j)
		}
	}
	return s
}

func (f *VariantFit) covAt(i, j int) float64 {
	if f.cov != nil {
		return f.cov.At(i, j)
	}
	a, b := -1, -1
	for k, x := range f.CovIndex {
		if x == i {
			a = k
		}
		if x == j {
			b = k
		}
	}
	if a < 0 || b < 0 {
		return math.NaN()
	}
	return float64(f.Cov[a][b])
}

// Table returns the fitted weights as an eval table with provenance.
func (f *VariantFit) Table(run string, date time.Time) (*eval.Weights, error) {
	v, err := f.variant()
	if err != nil {
		return nil, err
	}
	w := eval.NewWeights(v)
	for _, x := range f.Weights {
		if err := w.Set(x.Name, float64(x.Value)); err != nil {
			return nil, fmt.Errorf("tune %s: %w", f.Variant, err)
		}
	}
	if f.Moves != nil {
		m := f.Moves
		w.Provenance = eval.Provenance{Source: "move-choice tuning", Date: date.UTC().Format("2006-01-02"), Run: run,
			Positions: int64(f.Positions), Loss: m.Result.End.CE,
			Notes: fmt.Sprintf("Fitted by tamerlane tune (moves) to the moves of %d positions of %d games (temperature %.1f cp, K %.4f, "+
				"result weight %g, ridge %g per cp²); cross-entropy %.5f (start %.5f), top-1 %.4f (start %.4f), result MSE %.6f (start %.6f); "+
				"validation: cross-entropy %.5f (start %.5f), top-1 %.4f (start %.4f); %d L-BFGS iterations, %s. Sources: %s.",
				f.Positions, f.Games, m.Result.T, m.Result.K, m.Options.ResultWeight, m.Options.Ridge, m.Result.End.CE, m.Result.Start.CE,
				m.Result.End.Top1, m.Result.Start.Top1, m.Result.End.MSE, m.Result.Start.MSE, m.Result.EndValid.CE, m.Result.StartValid.CE,
				m.Result.EndValid.Top1, m.Result.StartValid.Top1, f.Iterations, StatusText(f.Status), strings.Join(f.Sources, ", "))}
		return w, nil
	}
	w.Provenance = eval.Provenance{
		Source:    "texel tuning",
		Date:      date.UTC().Format("2006-01-02"),
		Run:       run,
		Positions: int64(f.Positions),
		Loss:      float64(f.TrainMSE),
		Notes: fmt.Sprintf("Fitted by tamerlane tune from %d positions of %d games (K %.4f, lambda %g, %s); "+
			"train MSE %.6f (start %.6f), validation MSE %.6f (start %.6f); %d L-BFGS iterations, %s. Sources: %s.",
			f.Positions, f.Games, float64(f.K), float64(f.Lambda), f.PriorText(), float64(f.TrainMSE), float64(f.StartTrainMSE),
			float64(f.ValidMSE), float64(f.StartValidMSE), f.Iterations, StatusText(f.Status), strings.Join(f.Sources, ", ")),
	}
	return w, nil
}

// PriorText describes the fit's prior (see PriorText).
func (f *VariantFit) PriorText() string { return PriorText(f.PriorSD, f.Regularisation) }

// StatusText words a fit's termination status (gonum's) for people. A fit
// that returns is accepted as converged (texel.Converged); its status
// "Failure" means only that the line search could no longer lower the
// loss, usual at a flat optimum, which the bare word hides. Other
// statuses are gonum's names.
func StatusText(status string) string {
	if status == optimize.Failure.String() {
		return "converged: the line search could not lower the loss further"
	}
	return status
}
