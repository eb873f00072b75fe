package values

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"tamerlane/engine"
	"tamerlane/internal/stats"

	"tamerlane/selfplay"
	"tamerlane/values/imbalance"
	"tamerlane/values/published"
)

// Scale is the one scale of every value in a Document.
const Scale = "P=1"

// Definition states the estimand in one sentence for the JSON document.
const Definition = "regression: logit E[result] = a + (g0 + g1*phase) * sum_j v_j * (White's minus Black's count of j) " +
	"on quiet positions (no capture or promotion in the game's next plies), each game weight 1, quasi-ML without prior, " +
	"game-clustered sandwich SE; by phase: the same with one v_j per band of phase (non-pawn material left, 1 at the start); imbalance: H.G. Muller's matches, logistic in the material removed, Pearson dispersion; " +
	"scored: the same positions' scores per material difference with a pawn up as the unit (scored_differences.definition); " +
	"intervals 95%, values in pawns (P=1)"

// PublishedValue is one published figure in the document's scale.
type PublishedValue struct {
	// Source is the source id in data/published, Value the figure in
	// P=1, Kind how it was obtained.
	Source string  `json:"source"`
	Value  float64 `json:"value"`
	Kind   string  `json:"kind"`
}

// PieceValues is one piece's row.
type PieceValues struct {
	// Piece is the FEN token (P: every pawn type), Name the published
	// name.
	Piece string `json:"piece"`
	Name  string `json:"name,omitempty"`
	// Regression is the prior-free regression value (null: not
	// identified in the games).
	Regression *stats.Interval `json:"regression"`
	// GamesWithDifference counts the regression's games with a quiet
	// position where the two sides have different numbers of the piece:
	// the games that inform its value (0 without a regression).
	GamesWithDifference int `json:"games_with_difference,omitempty"`
	// Imbalance is the imbalance-match value (null: not measured).
	Imbalance *stats.Interval `json:"imbalance"`
	// Scored is the scored-differences value (ScoredDefinition: a pawn
	// up as the unit; null when not identified); ScoredWithPair adds its
	// pair's as WithPair does; ScoredZ is its agreement with Imbalance
	// (with the pair when WithPair is set), as AgreementZ.
	Scored         *stats.Interval `json:"scored"`
	ScoredWithPair *stats.Interval `json:"scored_with_pair,omitempty"`
	ScoredZ        *float64        `json:"scored_imbalance_z"`
	// AgreementZ is (regression − imbalance)/combined SE (null without
	// both); Disagree is |z| > 1.96.
	AgreementZ *float64         `json:"agreement_z"`
	Disagree   bool             `json:"disagree"`
	Published  []PublishedValue `json:"published"`
	// Scaled are both estimates in the variant's published scale when
	// that is not P=1 (for example R=5 for Tamerlane II) and as ratios to
	// the knight (N=1), with delta-method intervals from the fits'
	// covariances.
	Scaled []ScaledValues `json:"scaled,omitempty"`
	// Bridged is the imbalance value in the regression's pawn at the
	// start of the game: the piece's imbalance logit over the
	// regression's logit per pawn at phase 1 (γ0 + γ1), a unit both
	// methods share whichever pawn the matches remove (null without both
	// fits); BridgedZ is its agreement with Regression.
	Bridged  *stats.Interval `json:"imbalance_bridged"`
	BridgedZ *float64        `json:"bridged_z"`
	// ByPhase are the piece's regression values per phase band
	// (FitByPhase; absent for the pawn, the unit).
	ByPhase []PhaseValue `json:"by_phase,omitempty"`
	// WithPair is the piece's regression value plus its pair's
	// (v_T + v_pair.T, with the regression "pairs" option) when removing
	// one T from the start position breaks that side's pair: what an
	// imbalance match that removes a T measures. AgreementZ, BridgedZ
	// and the scaled z then compare the imbalance value with it, and the
	// phase bands are not compared (null otherwise).
	WithPair *stats.Interval `json:"regression_with_pair,omitempty"`
}

// scaled returns the piece's estimates in scale sc (nil if not given).
func (p *PieceValues) scaled(sc published.Scale) *ScaledValues {
	for k := range p.Scaled {
		if p.Scaled[k].Scale == string(sc) {
			return &p.Scaled[k]
		}
	}
	return nil
}

// ScaledValues are a piece's estimates in another scale.
type ScaledValues struct {
	// Scale is "X=v"; Regression and Imbalance are in it.
	Scale      string          `json:"scale"`
	Regression *stats.Interval `json:"regression"`
	Imbalance  *stats.Interval `json:"imbalance"`
	// WithPair is the regression value with the pair, as in
	// PieceValues (null: no pair broken).
	WithPair *stats.Interval `json:"regression_with_pair,omitempty"`
	// Scored is the scored-differences value in this scale (bootstrap
	// interval; absent when not identified), ScoredWithPair with the
	// pair as WithPair, ScoredZ its agreement with Imbalance.
	Scored         *stats.Interval `json:"scored,omitempty"`
	ScoredWithPair *stats.Interval `json:"scored_with_pair,omitempty"`
	ScoredZ        *float64        `json:"scored_imbalance_z,omitempty"`
	// AgreementZ is their agreement in this scale, as in PieceValues:
	// the two methods' units differ (an average pawn, the pawn of pawn
	// odds), so they can disagree in P=1 and agree in N=1.
	AgreementZ *float64 `json:"agreement_z"`
}

// bridge returns an imbalance logit λ (variance vl) in the regression's
// pawn at phase 1, λ/(γ0+γ1), with the delta-method standard error of the
// two independent fits (different games).
func bridge(reg *Regression, logit, vl float64) *stats.Interval {
	g := reg.Gamma0 + reg.Gamma1
	if !(g > 0) || reg.Cov == nil {
		return nil
	}
	vg := reg.Cov.At(1, 1) + reg.Cov.At(2, 2) + 2*reg.Cov.At(1, 2)
	se := math.Sqrt(math.Max(0, vl/(g*g)+logit*logit*vg/(g*g*g*g)))
	iv := stats.NewInterval(logit/g, se)
	return &iv
}

// agreementZ returns (regression − imbalance)/√(SE_r² + SE_i²), or nil
// without both estimates (or without any standard error).
func agreementZ(reg, imb *stats.Interval) *float64 {
	if reg == nil || imb == nil {
		return nil
	}
	se := math.Hypot(float64(reg.SE), float64(imb.SE))
	if !(se > 0) {
		return nil
	}
	z := float64(reg.Value-imb.Value) / se
	return &z
}

// FormatZ prints a z with "disagree" beyond the 95% bound, or "–".
func FormatZ(z *float64) string {
	if z == nil {
		return "–"
	}
	out := fmt.Sprintf("%+.2f", *z)
	if math.Abs(*z) > stats.Z95 {
		out += " **disagree**"
	}
	return out
}

// imbalanceInterval is an estimate of the imbalance fit as an interval.
func imbalanceInterval(e imbalance.Estimate) stats.Interval {
	return stats.Interval{Value: stats.Float(e.Value), Lo: stats.Float(e.Lo), Hi: stats.Float(e.Hi), SE: stats.Float(e.SE)}
}

// comparedTerms returns the regression classes whose values sum to what
// an imbalance match removing one piece of identified class k measures:
// k, and its pair class when one removal from the start position breaks
// the pair and the pair is identified (Classes.BreaksPair).
func comparedTerms(reg *Regression, c *Classes, k int) []int {
	if j := c.PairOf(k); j > 0 && reg.Identified[j] && c.BreaksPair(k) {
		return []int{k, j}
	}
	return []int{k}
}

// combination returns the sum of the values of classes ks with its
// standard error from the fit's covariance.
func (r *Regression) combination(ks ...int) stats.Interval {
	v, va := 0.0, 0.0
	for _, i := range ks {
		v += float64(r.Values[i].Value)
		for _, j := range ks {
			va += r.cov(i, j)
		}
	}
	return stats.NewInterval(v, math.Sqrt(math.Max(0, va)))
}

// crossCov returns the covariance of the sums of the values of classes
// as and bs.
func (r *Regression) crossCov(as, bs []int) float64 {
	c := 0.0
	for _, i := range as {
		for _, j := range bs {
			c += r.cov(i, j)
		}
	}
	return c
}

// ratio returns c·a/b with its delta-method standard error. A quantity
// over itself (the scale's own piece) is the unit c exactly, with none:
// the delta method's terms cancel only up to rounding there, and a unit
// with a tiny SE would be compared as if it were an estimate.
func ratio(c, a, b, va, vb, cab float64) *stats.Interval {
	if a == b && va == vb && va == cab {
		iv := stats.NewInterval(c, 0)
		return &iv
	}
	v := c * a / b
	ga, gb := c/b, -c*a/(b*b)
	se := math.Sqrt(math.Max(0, ga*ga*va+2*ga*gb*cab+gb*gb*vb))
	iv := stats.NewInterval(v, se)
	return &iv
}

// VariantValues are the values of one variant.
type VariantValues struct {
	// Variant is the variant's name, Scale the values' scale (P=1).
	Variant string `json:"variant"`
	Scale   string `json:"scale"`
	// Games and Samples are the regression's data; ImbalanceGames the
	// games of the imbalance matches.
	Games          int `json:"games"`
	Samples        int `json:"samples"`
	ImbalanceGames int `json:"imbalance_games"`
	// ImbalanceOpenings is the file of positions the imbalance matches
	// took their material off (absent: the start array); its pawns and
	// pieces are worth what they are at that stage of the game.
	ImbalanceOpenings string `json:"imbalance_openings,omitempty"`
	// Resigned and ImbalanceResigned count the games of each method that
	// resign adjudication ended: results decided by our engine's scores,
	// in its table's centipawns, rather than by play.
	Resigned          int `json:"resigned"`
	ImbalanceResigned int `json:"imbalance_resigned"`
	// Logistic is the regression's intercept and scale (null without a
	// regression): logit E[result] = alpha + (gamma0 + gamma1·φ)·(material
	// in pawns), so gamma0 + gamma1·φ is a pawn's worth in logit at phase
	// φ, the bridge to the logit of a pawn-odds match (φ = 1 at the start).
	Logistic *Logistic `json:"logistic,omitempty"`
	// Matches are the imbalance matches (rounds summed).
	Matches []*ImbalanceMatch `json:"matches,omitempty"`
	// ImbalanceConsistency tests the imbalance fit's additive model
	// against its matches: when they are more than the values, every
	// match's score against the one the others predict (absent without
	// an imbalance fit).
	ImbalanceConsistency *imbalance.Consistency `json:"imbalance_consistency,omitempty"`
	// ImbalancePairCorrelation is the correlation of the two games of a
	// pair of the imbalance matches (absent when some match was read
	// from a run in progress, without its pairs).
	ImbalancePairCorrelation *PairCorrelation `json:"imbalance_pair_correlation,omitempty"`
	// Pieces are the rows, the pawn first.
	Pieces []PieceValues `json:"pieces"`
	// Scored is the scored-differences reading of the regression's
	// positions (ScoredDefinition; absent without a regression, or when
	// too few games are a pawn up: a note says so).
	Scored *Scored `json:"scored_differences,omitempty"`
	// PawnSets are the sets of pawns whose own odds the imbalance matches
	// measured, which the imbalance fit counts as classes of their own
	// (values/pawnsets.go); absent when none was.
	PawnSets []PawnSetValue `json:"pawn_sets,omitempty"`
	// Disagreements sum up the agreement tests per comparison, with
	// Holm's correction for their number (absent without both methods).
	Disagreements []Disagreements `json:"disagreements,omitempty"`
	// Notes say why a method gave nothing.
	Notes []string `json:"notes,omitempty"`
}

// Logistic is the regression's White advantage and logistic scale.
type Logistic struct {
	Alpha  float64 `json:"alpha"`
	Gamma0 float64 `json:"gamma0"`
	Gamma1 float64 `json:"gamma1"`
	// WhiteEdge is Alpha, PawnAtStart a pawn's worth in logit at the
	// start (γ0 + γ1, phase 1) and PawnAtEnd at phase 0 (γ0), with the
	// fit's sandwich standard errors: how decisive a pawn is for this
	// player, which a stronger player's games can change (absent when the
	// fit has no covariance).
	WhiteEdge   *stats.Interval `json:"white_edge,omitempty"`
	PawnAtStart *stats.Interval `json:"pawn_at_start,omitempty"`
	PawnAtEnd   *stats.Interval `json:"pawn_at_end,omitempty"`
}

// logisticOf returns the regression's logistic terms with their
// intervals.
func logisticOf(reg *Regression) *Logistic {
	l := &Logistic{Alpha: reg.Alpha, Gamma0: reg.Gamma0, Gamma1: reg.Gamma1}
	if reg.Cov == nil {
		return l
	}
	c := reg.Cov
	edge := stats.NewInterval(reg.Alpha, math.Sqrt(c.At(0, 0)))
	start := stats.NewInterval(reg.Gamma0+reg.Gamma1, math.Sqrt(math.Max(0, c.At(1, 1)+c.At(2, 2)+2*c.At(1, 2))))
	end := stats.NewInterval(reg.Gamma0, math.Sqrt(c.At(1, 1)))
	l.WhiteEdge, l.PawnAtStart, l.PawnAtEnd = &edge, &start, &end
	return l
}

// Document is the output of tamerlane values --json.
type Document struct {
	// Scale is the scale of every value (P=1); Definition states the
	// estimand.
	Scale      string `json:"scale"`
	Definition string `json:"definition"`
	// Settings are the regression's sample selection and identification
	// threshold, defaults filled in.
	Settings RegressionConfig `json:"settings"`
	Variants []VariantValues  `json:"variants"`
	// InProgress are the run directories read from their journals: runs
	// still playing (or stopped), whose values are interim.
	InProgress []string `json:"in_progress,omitempty"`
	// UnfinishedPlans are the imbalance stages whose planner was stopped
	// before its end (no plan.json): their values are of the matches
	// played so far, short of the plan's targets.
	UnfinishedPlans []string `json:"unfinished_plans,omitempty"`
	// ConcludedPlans are the imbalance plans concluded before their
	// pieces reached their targets or caps (tamerlane measure -conclude):
	// their values are of the matches played to the conclusion.
	ConcludedPlans []ConcludedPlan `json:"concluded_plans,omitempty"`
	// PGNFiles are the game files read instead of run directories
	// (MeasurePGN), and PGN what was left out of them.
	PGNFiles []string `json:"pgn_files,omitempty"`
	PGN      *PGNRead `json:"pgn,omitempty"`
}

// Interim reports whether the document's values are of games still
// playing or stopped before the end: a run in progress, or an imbalance
// plan the planner did not finish.
func (d *Document) Interim() bool {
	return len(d.InProgress) > 0 || len(d.UnfinishedPlans) > 0
}

// Variant returns the values of a variant, or nil.
func (d *Document) Variant(name string) *VariantValues {
	for i := range d.Variants {
		if d.Variants[i].Variant == name {
			return &d.Variants[i]
		}
	}
	return nil
}

// Piece returns a piece's row, or nil.
func (v *VariantValues) Piece(p string) *PieceValues {
	for i := range v.Pieces {
		if v.Pieces[i].Piece == p {
			return &v.Pieces[i]
		}
	}
	return nil
}

// Options control Measure.
type Options struct {
	// Samples select the regression's positions.
	Samples SampleOptions
	// Regression controls the fit.
	Regression RegressionOptions
	// Scored controls the scored differences.
	Scored ScoredOptions
	// VariantFile is a variant file whose variant PGN games may name
	// (MeasurePGN; "": built-in variants only). A run directory records
	// the files of its variants itself.
	VariantFile string
}

// settings are the regression settings of o with their defaults filled
// in, as the document states them.
func (o Options) settings() RegressionConfig {
	so, ro, sc := o.Samples.withDefaults(), o.Regression.withDefaults(), o.Scored.withDefaults()
	return RegressionConfig{MinPly: so.MinPly, QuietPlies: so.QuietPlies, MinGames: ro.MinGames, SharedPieces: so.SharedPieces, Pairs: so.Pairs, ScoredMaxPawns: sc.MaxPawns}
}

// Measure computes the values of every variant found in the self-play run
// directories: the regression from the self-play games, the imbalance fit
// from the imbalance matches, their agreement, and the published figures
// of cat (which do not enter any estimate). Directories that can hold the
// same games (selfplay.SameGames) are refused: pooled, their games would
// count twice.
func Measure(dirs []string, cat published.Catalog, opt Options) (*Document, error) {
	if err := checkDistinct(dirs); err != nil {
		return nil, err
	}
	regs, err := CollectRegression(dirs, opt.Samples)
	if err != nil {
		return nil, err
	}
	imbs, imbFrom, err := CollectImbalances(dirs)
	if err != nil {
		return nil, err
	}
	doc, err := document(regs, imbs, imbFrom, cat, opt)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if selfplay.InProgress(d) {
			doc.InProgress = append(doc.InProgress, d)
		}
	}
	doc.UnfinishedPlans = unfinishedPlans(dirs)
	if doc.ConcludedPlans, err = concludedPlans(dirs); err != nil {
		return nil, err
	}
	return doc, nil
}

// document fits the values of the regression samples and imbalance
// matches of every variant they have (Measure, MeasurePGN).
func document(regs map[string]*VariantSamples, imbs map[string][]*ImbalanceMatch, imbFrom map[string]string, cat published.Catalog, opt Options) (*Document, error) {
	var names []string
	for v := range regs {
		names = append(names, v)
	}
	for v := range imbs {
		if regs[v] == nil {
			names = append(names, v)
		}
	}
	sort.Strings(names)
	doc := &Document{Scale: Scale, Definition: Definition, Settings: opt.settings()}
	for _, name := range names {
		vv := VariantValues{Variant: name, Scale: Scale, Pieces: []PieceValues{}}
		rows := map[string]*PieceValues{}
		var order []string
		row := func(p string) *PieceValues {
			if r := rows[p]; r != nil {
				return r
			}
			rows[p] = &PieceValues{Piece: p, Published: []PublishedValue{}}
			order = append(order, p)
			return rows[p]
		}
		var reg *Regression
		terms := map[string][]int{} // comparedTerms per identified piece
		var fit *imbalance.Result
		var imbPieces []string
		if d := regs[name]; d != nil {
			vv.Games, vv.Samples, vv.Resigned = d.Games, len(d.Samples), d.Resigned
			for _, p := range d.Classes.Names {
				row(p)
			}
			var err error
			reg, err = FitRegression(d.Classes.Names, d.Samples, opt.Regression)
			if err != nil {
				vv.Notes = append(vv.Notes, "regression: "+err.Error())
			} else {
				vv.Logistic = logisticOf(reg)
				for k, p := range reg.Pieces {
					row(p).GamesWithDifference = reg.DiffGames[k]
					if reg.Identified[k] {
						e := reg.Values[k]
						row(p).Regression = &e
						terms[p] = comparedTerms(reg, d.Classes, k)
						if len(terms[p]) > 1 {
							iv := reg.combination(terms[p]...)
							row(p).WithPair = &iv
						}
					} else if reg.Separated[k] {
						vv.Notes = append(vv.Notes, fmt.Sprintf("regression: %s not identified (the side with more %s won every game with a difference, or lost every one: no finite value)", p, p))
					} else {
						vv.Notes = append(vv.Notes, fmt.Sprintf("regression: %s not identified (too few games with a %s difference)", p, p))
					}
				}
				worth := make([]float64, len(reg.Pieces))
				for k, v := range reg.Values {
					worth[k] = float64(v.Value)
				}
				if sc, err := ScoreDifferences(d.Classes.Names, d.Samples, worth, opt.Scored); err != nil {
					vv.Notes = append(vv.Notes, scoredNote(err.Error()))
				} else {
					vv.Scored = sc
					for _, p := range sc.Pieces {
						row(p).Scored = sc.Value(p)
					}
					if sc.Note != "" {
						vv.Notes = append(vv.Notes, scoredNote(sc.Note))
					}
				}
				byPhase, err := FitByPhase(d.Classes.Names, d.Samples, PhaseBands(), opt.Regression)
				if err != nil {
					vv.Notes = append(vv.Notes, "regression by phase: "+err.Error())
				} else {
					knight := slices.Index(d.Classes.Names, "N")
					for k, p := range d.Classes.Names[1:] {
						bands := byPhase.phaseValues(k + 1)
						if knight > 0 && k+1 != knight {
							for b := range bands {
								bands[b].Knights = byPhase.knights(k+1, knight, b)
							}
						}
						row(p).ByPhase = bands
					}
				}
			}
		}
		ms, notes := fittableMatches(name, imbs[name])
		vv.Notes = append(vv.Notes, notes...)
		if len(ms) > 0 {
			vv.Matches, vv.ImbalanceOpenings = ms, imbFrom[name]
			vv.ImbalancePairCorrelation = PairCorrelationOf(ms)
			pieces := []string{"P"}
			for _, m := range ms {
				vv.ImbalanceGames += m.Games()
				vv.ImbalanceResigned += m.Resigned
				for _, x := range imbalance.PiecesOf(m.FirstRemoves, m.SecondRemoves) {
					if !slices.Contains(pieces, x) {
						pieces = append(pieces, x)
					}
				}
			}
			inVariantOrder(name, pieces[1:])
			var err error
			fit, imbPieces, err = reportedImbalanceFit(pieces, ms, vv.ImbalancePairCorrelation)
			if err != nil {
				vv.Notes = append(vv.Notes, "imbalance: "+err.Error())
			} else {
				vv.ImbalanceConsistency = fit.Consistency
				for _, e := range fit.Estimates {
					if e.Piece == "P" || math.IsNaN(e.SE) {
						continue
					}
					if setSize(e.Piece) > 0 {
						vv.PawnSets = append(vv.PawnSets, pawnSetValue(e))
						continue
					}
					iv := imbalanceInterval(e)
					row(e.Piece).Imbalance = &iv
				}
			}
		}
		tab := cat[name]
		// Other scales: the published one, and N=1 (ratios to the knight).
		var scales []published.Scale
		if sc := PrimaryScale(cat, name); sc != published.PawnOne {
			scales = append(scales, sc)
		}
		if slices.Contains(order, "N") && !slices.Contains(scales, published.KnightOne) {
			scales = append(scales, published.KnightOne)
		}
		for _, p := range order {
			r := rows[p]
			compared := r.Regression // what the imbalance value measures
			if r.WithPair != nil {
				compared = r.WithPair
			}
			r.AgreementZ = agreementZ(compared, r.Imbalance)
			r.Disagree = r.AgreementZ != nil && math.Abs(*r.AgreementZ) > stats.Z95
			vv.Scored.row(r, terms[p])
			if i := slices.Index(imbPieces, p); reg != nil && fit != nil && i >= 0 && p != "P" && !math.IsNaN(fit.Estimates[i].SE) {
				r.Bridged = bridge(reg, fit.Estimates[i].Logit, fit.Cov.At(i, i))
				r.BridgedZ = agreementZ(compared, r.Bridged)
			}
			for _, sc := range scales {
				sp, sv, _ := sc.Parse()
				x := ScaledValues{Scale: string(sc)}
				if reg != nil {
					i, j := slices.Index(reg.Pieces, p), slices.Index(reg.Pieces, sp)
					if i >= 0 && j >= 0 && reg.Identified[i] && reg.Identified[j] {
						x.Regression = ratio(sv, float64(reg.Values[i].Value), float64(reg.Values[j].Value), reg.cov(i, i), reg.cov(j, j), reg.cov(i, j))
						if a, b := terms[p], terms[sp]; len(a) > 1 || len(b) > 1 {
							na, nb := reg.combination(a...), reg.combination(b...)
							x.WithPair = ratio(sv, float64(na.Value), float64(nb.Value), reg.crossCov(a, a), reg.crossCov(b, b), reg.crossCov(a, b))
						}
					}
				}
				if fit != nil {
					i, j := slices.Index(imbPieces, p), slices.Index(imbPieces, sp)
					if i >= 0 && j >= 0 && !math.IsNaN(fit.Estimates[i].SE) && !math.IsNaN(fit.Estimates[j].SE) {
						x.Imbalance = ratio(sv, fit.Estimates[i].Logit, fit.Estimates[j].Logit, fit.Cov.At(i, i), fit.Cov.At(j, j), fit.Cov.At(i, j))
					}
				}
				if x.WithPair != nil {
					x.AgreementZ = agreementZ(x.WithPair, x.Imbalance)
				} else {
					x.AgreementZ = agreementZ(x.Regression, x.Imbalance)
				}
				vv.Scored.scaledRow(&x, p, sp, sv, terms[p], terms[sp])
				r.Scaled = append(r.Scaled, x)
			}
			var imbN *stats.Interval
			if n := r.scaled(published.KnightOne); n != nil {
				imbN = n.Imbalance
			}
			if r.WithPair == nil {
				setImbalanceZ(r.ByPhase, r.Imbalance, imbN)
			}
			if tab != nil {
				r.Name, _ = tab.PieceName(p)
				vals, err := tab.Values(p, published.PawnOne)
				if err != nil {
					return nil, err
				}
				for _, v := range vals {
					r.Published = append(r.Published, PublishedValue{Source: v.Source.ID, Value: v.Value, Kind: string(v.Source.Kind)})
				}
			}
			vv.Pieces = append(vv.Pieces, *r)
		}
		vv.Disagreements = disagreements(vv.Pieces)
		doc.Variants = append(doc.Variants, vv)
	}
	return doc, nil
}

// inVariantOrder sorts pieces (FEN tokens) as variant name lists its
// piece types, so that a document without a regression lists its rows as
// one with it does, not in the order the matches were played; tokens the
// variant lacks go last.
func inVariantOrder(name string, pieces []string) {
	v, err := engine.VariantWithRules(name, "")
	if err != nil {
		return
	}
	order := NewClasses(v, false).Names
	rank := func(p string) int {
		if i := slices.Index(order, p); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(pieces, func(a, b string) int { return rank(a) - rank(b) })
}
