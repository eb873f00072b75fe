package values

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"tamerlane/internal/stats"

	"gonum.org/v1/gonum/mat"
)

// ScoredDefinition states the scored-differences estimand in one sentence.
const ScoredDefinition = "scored differences: for each material difference d (White's minus Black's count per class, " +
	"oriented so the side ahead has the regression's worth sum_j v_j*d_j >= 0, kept when that worth is at most max_pawns), " +
	"s(d) = the mean score of the side ahead in the regression's quiet positions with difference d, " +
	"averaged over the side ahead being White and being Black (each game weight 1, as in the regression); " +
	"its worth in pawns is logit s(d) / logit s(one pawn up, nothing else different); the values solve " +
	"sum_j v_j*d_j = that worth over the differences with a piece, weighted least squares (P = 1); " +
	"95% percentile intervals from a bootstrap of whole games: the pawn of Kaufman's 1999 kind, an extra pawn's score, " +
	"not the regression's pawn averaged over every position"

// ScoredOptions control ScoreDifferences.
type ScoredOptions struct {
	// MaxPawns keeps the differences the regression values at this many
	// pawns or fewer (default 2): near-balanced imbalances, whose scores
	// stay away from 0 and 1 where a logit says little.
	MaxPawns float64
	// MinGames is the number of games with the side ahead White, and as
	// many with it Black, below which a difference is not scored
	// (default 30).
	MinGames int
	// Replicates is the number of bootstrap replicates (default 1000);
	// Seed seeds them.
	Replicates int
	Seed       uint64
}

func (o ScoredOptions) withDefaults() ScoredOptions {
	if o.MaxPawns == 0 {
		o.MaxPawns = 2
	}
	if o.MinGames == 0 {
		o.MinGames = 30
	}
	if o.Replicates == 0 {
		o.Replicates = 1000
	}
	return o
}

// ScoredDifference is one material difference and its score.
type ScoredDifference struct {
	// Difference names it, the side ahead first ("N vs P+P+P").
	Difference string `json:"difference"`
	// Diff is the side ahead's count minus the other's per class.
	Diff []float64 `json:"-"`
	// Worth is its worth by the regression's values (pawns), which
	// oriented and selected it.
	Worth float64 `json:"regression_worth"`
	// GamesWhite and GamesBlack count the games with a position of the
	// difference with the side ahead White, and Black.
	GamesWhite int `json:"games_white_ahead"`
	GamesBlack int `json:"games_black_ahead"`
	// Score is the side ahead's colour-balanced mean score.
	Score stats.Interval `json:"score"`
	// Pawns is logit(Score) over the logit of the pawn-up score.
	Pawns stats.Interval `json:"pawns"`
	// Used is true when the difference has a piece and entered the fit;
	// Fitted is then its worth by the fitted values, and ResidualZ
	// (Pawns − Fitted) over the bootstrap standard error of that
	// difference (the fit refitted in every replicate): beyond ±1.96 the
	// difference's score does not fit the values at 95%.
	Used      bool     `json:"used"`
	Fitted    *float64 `json:"fitted,omitempty"`
	ResidualZ *float64 `json:"residual_z,omitempty"`
}

// Scored is the scored-differences estimate of one variant: a second
// reading of the regression's quiet positions, by their scores
// (ScoredDefinition); the regression only orients and selects the
// differences.
type Scored struct {
	// Definition is ScoredDefinition.
	Definition string `json:"definition"`
	// MaxPawns, MinGames and Replicates are the settings used.
	MaxPawns   float64 `json:"max_pawns"`
	MinGames   int     `json:"min_games"`
	Replicates int     `json:"replicates"`
	// Misfits counts the used differences whose residual z is beyond
	// ±1.96, MisfitsHolm those Holm's correction for their number keeps
	// (two-sided p, 5%): differences whose scores the additive values do
	// not explain.
	Misfits     int `json:"misfits"`
	MisfitsHolm int `json:"misfits_holm"`
	// SkippedReplicates counts the replicates in which some used
	// difference had no finite logit (left out of the intervals).
	SkippedReplicates int `json:"skipped_replicates"`
	// PawnUp is the one-pawn-up difference: its logit is the unit.
	PawnUp ScoredDifference `json:"pawn_up"`
	// Differences are the other scored differences, most games first.
	Differences []ScoredDifference `json:"differences"`
	// Pieces are the classes, P first; Values their values in pawns
	// (unknown when not identified).
	Pieces []string         `json:"pieces"`
	Values []stats.Interval `json:"values"`
	// Note says why no value, or not every piece's, was fitted (empty
	// when every piece with a difference was).
	Note string `json:"note,omitempty"`
	// reps are the fitted values of the replicates, per class (NaN: not
	// fitted), for ratios.
	reps [][]float64
}

// combined returns sv·Σ_{i∈num} v_i / Σ_{j∈den} v_j (den empty: a
// denominator of 1), classes by index, with the bootstrap standard error
// (nil when a class is unknown).
func (s *Scored) combined(num, den []int, sv float64) *stats.Interval {
	sum := func(v []float64, ks []int) float64 {
		if len(ks) == 0 {
			return 1
		}
		x := 0.0
		for _, k := range ks {
			x += v[k]
		}
		return x
	}
	point := make([]float64, len(s.Values))
	for k, iv := range s.Values {
		point[k] = float64(iv.Value)
	}
	for _, k := range slices.Concat(num, den) {
		if k < 0 || k >= len(point) || math.IsNaN(point[k]) {
			return nil
		}
	}
	r := make([][]float64, len(s.reps))
	for k, v := range s.reps {
		r[k] = []float64{sv * sum(v, num) / sum(v, den)}
	}
	iv := bootstrapInterval(sv*sum(point, num)/sum(point, den), r, 0)
	return &iv
}

// row sets a piece's scored agreement with its imbalance value: with the
// pair when the regression compares the piece with its pair (terms, the
// classes comparedTerms gives; nil for a piece it did not identify).
func (s *Scored) row(r *PieceValues, terms []int) {
	if s == nil {
		return
	}
	scored := r.Scored
	if len(terms) > 1 {
		r.ScoredWithPair = s.combined(terms, nil, 1)
		scored = r.ScoredWithPair
	}
	r.ScoredZ = agreementZ(scored, r.Imbalance)
}

// scaledRow sets piece p's scored value in the scale sp = sv and its
// agreement with the imbalance value in it (x.Imbalance set), with the
// pairs the regression's terms name (a and b: comparedTerms of p and sp).
func (s *Scored) scaledRow(x *ScaledValues, p, sp string, sv float64, a, b []int) {
	if s == nil {
		return
	}
	x.Scored = s.ratio(p, sp, sv)
	compared := x.Scored
	if len(a) > 1 || len(b) > 1 {
		x.ScoredWithPair = s.combined(a, b, sv)
		compared = x.ScoredWithPair
	}
	x.ScoredZ = agreementZ(compared, x.Imbalance)
}

// ratio returns sv·v_p/v_q, the value of class p in the scale q = sv,
// with the bootstrap standard error (nil when either is unknown).
func (s *Scored) ratio(p, q string, sv float64) *stats.Interval {
	i, j := slices.Index(s.Pieces, p), slices.Index(s.Pieces, q)
	if i < 0 || j < 0 {
		return nil
	}
	return s.combined([]int{i}, []int{j}, sv)
}

// Value returns the value of class name, or nil when not identified.
func (s *Scored) Value(name string) *stats.Interval {
	i := slices.Index(s.Pieces, name)
	if i < 0 || math.IsNaN(float64(s.Values[i].Value)) {
		return nil
	}
	v := s.Values[i]
	return &v
}

// scoredCell sums one game's quiet positions of one difference with the
// side ahead of one colour: the positions' weights and weighted scores.
type scoredCell struct {
	game, diff, colour int
	w, ws              float64
}

// ScoreDifferences reads the quiet samples of one variant (names and
// samples as FitRegression takes them) by the scored-differences
// estimand (ScoredDefinition); worth are the regression's values in
// pawns (NaN: not identified), which orient and select the differences.
func ScoreDifferences(names []string, samples []Sample, worth []float64, opt ScoredOptions) (*Scored, error) {
	if len(names) == 0 || names[0] != "P" || len(worth) != len(names) {
		return nil, errors.New("values: scored differences need the classes with the pawn P first and a worth per class")
	}
	opt = opt.withDefaults()
	index := map[string]int{}
	var diffs []ScoredDifference
	gameOf := map[int]int{}
	cellOf := map[[3]int]int{}
	var cells []scoredCell
	key := make([]byte, len(names))
	for i := range samples {
		s := &samples[i]
		if len(s.Diff) != len(names) {
			return nil, fmt.Errorf("values: sample %d has %d classes, want %d", i, len(s.Diff), len(names))
		}
		w, sign := orient(s.Diff, worth)
		if !(w >= 0 && w <= opt.MaxPawns) {
			continue
		}
		for k, d := range s.Diff {
			key[k] = byte(int8(sign * d))
		}
		di, ok := index[string(key)]
		if !ok {
			di = len(diffs)
			index[string(key)] = di
			d := make([]float64, len(names))
			for k := range d {
				d[k] = sign * s.Diff[k]
			}
			diffs = append(diffs, ScoredDifference{Difference: differenceName(names, d), Diff: d, Worth: w})
		}
		g, ok := gameOf[s.Game]
		if !ok {
			g = len(gameOf)
			gameOf[s.Game] = g
		}
		colour, score := 0, s.Result
		if sign < 0 {
			colour, score = 1, 1-s.Result
		}
		ck := [3]int{g, di, colour}
		ci, ok := cellOf[ck]
		if !ok {
			ci = len(cells)
			cellOf[ck] = ci
			cells = append(cells, scoredCell{game: g, diff: di, colour: colour})
			if colour == 0 {
				diffs[di].GamesWhite++
			} else {
				diffs[di].GamesBlack++
			}
		}
		cells[ci].w += s.Weight
		cells[ci].ws += s.Weight * score
	}
	pawn := make([]float64, len(names))
	pawn[0] = 1
	pi := -1
	var kept []ScoredDifference
	remap := make([]int, len(diffs)) // diffs index → kept index, or -1
	for i, d := range diffs {
		remap[i] = -1
		if d.GamesWhite < opt.MinGames || d.GamesBlack < opt.MinGames {
			continue
		}
		if slices.Equal(d.Diff, pawn) {
			pi = len(kept)
		}
		remap[i] = len(kept)
		kept = append(kept, d)
	}
	if pi < 0 {
		return nil, fmt.Errorf("values: scored differences: fewer than %d games with one side a pawn up and nothing else different, with each colour ahead", opt.MinGames)
	}
	f := &scoredFit{names: names, diffs: kept, pawn: pi}
	ones := make([]float64, len(gameOf))
	for i := range ones {
		ones[i] = 1
	}
	score0, pawns0 := f.read(cells, remap, ones)
	if !(logit(score0[pi]) > 0) {
		return nil, fmt.Errorf("values: scored differences: the side a pawn up scores %.3f, no more than half: a pawn is no unit", score0[pi])
	}
	for i := range kept {
		kept[i].Used = hasPiece(kept[i].Diff) && !math.IsNaN(pawns0[i]) && !math.IsInf(pawns0[i], 0)
	}
	// Replicates: whole games drawn with replacement.
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5c07ed))
	nGames := len(gameOf)
	counts := make([]float64, nGames)
	repScores := make([][]float64, opt.Replicates)
	repPawns := make([][]float64, opt.Replicates)
	for r := range opt.Replicates {
		clear(counts)
		for range nGames {
			counts[rng.IntN(nGames)]++
		}
		repScores[r], repPawns[r] = f.read(cells, remap, counts)
	}
	pw := make([]float64, len(kept))
	for i := range kept {
		kept[i].Score = bootstrapInterval(score0[i], repScores, i)
		kept[i].Pawns = bootstrapInterval(pawns0[i], repPawns, i)
		pw[i] = float64(kept[i].Pawns.SE) // the replicates' SD
		if kept[i].Used && !(pw[i] > 0) {
			kept[i].Used = false
		}
	}
	out := &Scored{Definition: ScoredDefinition, MaxPawns: opt.MaxPawns, MinGames: opt.MinGames, Replicates: opt.Replicates, Pieces: names,
		Values: make([]stats.Interval, len(names))}
	for k := range out.Values {
		out.Values[k] = stats.UnknownInterval()
	}
	out.Values[0] = stats.NewInterval(1, 0)
	// The unit is a ratio's denominator: where the pawn-up score is not
	// above half at 95%, the ratio's confidence set is unbounded
	// (Fieller), and a bootstrap interval of it says nothing.
	if unit := kept[pi].Score; !(float64(unit.Lo) > 0.5) {
		out.Note = fmt.Sprintf("values: scored differences: the side a pawn up scores %.3f [%.3f, %.3f], not above half at 95%%: "+
			"a pawn is no unit in these games, and no difference is worth a number of pawns", score0[pi], float64(unit.Lo), float64(unit.Hi))
		for i := range kept {
			if i != pi {
				kept[i].Used = false
				kept[i].Pawns = stats.UnknownInterval()
			}
		}
	} else if v0, unknowns, identified, err := f.solve(pawns0, pw); err != nil {
		out.Note = err.Error()
	} else {
		if lost := notIdentified(names, unknowns, identified); lost != "" {
			out.Note = "values: the differences do not separate " + lost + ": their values are not identified"
		}
		// values returns the classes' values of a fit: fitted, the
		// least-squares solution of every class (its minimum-norm part
		// where the differences do not separate classes, which fits
		// every difference's worth uniquely all the same); reported, NaN
		// for the classes not identified.
		values := func(v []float64) (fitted, reported []float64) {
			fitted, reported = make([]float64, len(names)), make([]float64, len(names))
			for k := range reported {
				reported[k] = math.NaN()
			}
			fitted[0], reported[0] = 1, 1
			for j, k := range unknowns {
				fitted[k] = v[j]
				if identified[j] {
					reported[k] = v[j]
				}
			}
			return fitted, reported
		}
		var resid [][]float64 // per replicate, each difference's worth minus its fitted worth
		for r := range opt.Replicates {
			v, _, _, err := f.solve(repPawns[r], pw)
			if err != nil {
				out.SkippedReplicates++
				continue
			}
			fitted, reported := values(v)
			out.reps = append(out.reps, reported)
			res := make([]float64, len(kept))
			for i := range kept {
				res[i] = repPawns[r][i] - worthOf(kept[i].Diff, fitted)
			}
			resid = append(resid, res)
		}
		fitted, _ := values(v0)
		for j, k := range unknowns {
			if identified[j] {
				out.Values[k] = bootstrapInterval(v0[j], out.reps, k)
			}
		}
		for i := range kept {
			if kept[i].Used {
				x := worthOf(kept[i].Diff, fitted)
				kept[i].Fitted = &x
				if sd := finiteSD(resid, i); sd > 0 {
					z := (pawns0[i] - x) / sd
					kept[i].ResidualZ = &z
				}
			}
		}
	}
	var ps []float64
	for _, d := range kept {
		if d.ResidualZ != nil {
			ps = append(ps, stats.TwoSidedP(*d.ResidualZ))
			if math.Abs(*d.ResidualZ) > stats.Z95 {
				out.Misfits++
			}
		}
	}
	for _, rejected := range stats.Holm(ps, 0.05) {
		if rejected {
			out.MisfitsHolm++
		}
	}
	out.PawnUp = kept[pi]
	out.Differences = slices.Delete(kept, pi, pi+1)
	slices.SortStableFunc(out.Differences, func(a, b ScoredDifference) int {
		return (b.GamesWhite + b.GamesBlack) - (a.GamesWhite + a.GamesBlack)
	})
	return out, nil
}

// scoredFit holds the kept differences of ScoreDifferences.
type scoredFit struct {
	names []string
	diffs []ScoredDifference
	pawn  int
}

// read returns every kept difference's colour-balanced score and its
// worth in pawns, each game's cells counted gameWeight[game] times.
func (f *scoredFit) read(cells []scoredCell, remap []int, gameWeight []float64) ([]float64, []float64) {
	n := len(f.diffs)
	sum := make([][2]float64, n)
	wt := make([][2]float64, n)
	for _, c := range cells {
		i := remap[c.diff]
		if i < 0 || gameWeight[c.game] == 0 {
			continue
		}
		m := gameWeight[c.game]
		sum[i][c.colour] += m * c.ws
		wt[i][c.colour] += m * c.w
	}
	scores, pawns := make([]float64, n), make([]float64, n)
	for i := range scores {
		if wt[i][0] > 0 && wt[i][1] > 0 {
			scores[i] = (sum[i][0]/wt[i][0] + sum[i][1]/wt[i][1]) / 2
		} else {
			scores[i] = math.NaN()
		}
	}
	unit := logit(scores[f.pawn])
	for i := range pawns {
		pawns[i] = math.NaN()
		if unit > 0 {
			pawns[i] = logit(scores[i]) / unit
		}
	}
	return scores, pawns
}

// logit is log(p/(1−p)): ±Inf at 0 and 1, NaN outside [0, 1].
func logit(p float64) float64 { return math.Log(p / (1 - p)) }

// solve fits the values of the classes the used differences hold by
// weighted least squares (weights 1/sd²): Σ_k d_k·v_k = pawns − d_P. It
// returns the solution (minimum-norm where the differences do not
// separate some classes), its classes, and which of them are identified
// (their unit vector in the row space of the differences); or an error
// when a used difference has no finite worth or none has a piece.
func (f *scoredFit) solve(pawns, sd []float64) ([]float64, []int, []bool, error) {
	var unknowns []int
	for k := 1; k < len(f.names); k++ {
		for _, d := range f.diffs {
			if d.Used && d.Diff[k] != 0 {
				unknowns = append(unknowns, k)
				break
			}
		}
	}
	var rows []int
	for i, d := range f.diffs {
		if d.Used {
			if math.IsNaN(pawns[i]) || math.IsInf(pawns[i], 0) {
				return nil, nil, nil, fmt.Errorf("values: difference %s has no finite worth", d.Difference)
			}
			rows = append(rows, i)
		}
	}
	if len(unknowns) == 0 {
		return nil, nil, nil, errors.New("values: no difference with a piece to solve for the pieces")
	}
	a := mat.NewDense(len(rows), len(unknowns), nil)
	b := mat.NewVecDense(len(rows), nil)
	for r, i := range rows {
		w := 1 / sd[i]
		for j, k := range unknowns {
			a.Set(r, j, w*f.diffs[i].Diff[k])
		}
		b.SetVec(r, w*(pawns[i]-f.diffs[i].Diff[0]))
	}
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThinU|mat.SVDFullV) {
		return nil, nil, nil, errors.New("values: the least-squares fit failed")
	}
	rank := svd.Rank(1e-9)
	if rank == 0 {
		return nil, nil, nil, errors.New("values: the differences with a piece determine no value")
	}
	var v mat.Dense
	svd.VTo(&v)
	identified := make([]bool, len(unknowns))
	for j := range unknowns {
		null := 0.0 // the class's weight in the null space
		for c := rank; c < len(unknowns); c++ {
			null += v.At(j, c) * v.At(j, c)
		}
		identified[j] = null < 1e-9
	}
	var x mat.VecDense
	svd.SolveVecTo(&x, b, rank)
	return x.RawVector().Data, unknowns, identified, nil
}

// notIdentified names the classes of unknowns that are not identified,
// or "".
func notIdentified(names []string, unknowns []int, identified []bool) string {
	var lost []string
	for j, k := range unknowns {
		if !identified[j] {
			lost = append(lost, names[k])
		}
	}
	return strings.Join(lost, ", ")
}
